// SPDX-License-Identifier: Apache-2.0
/*
 * The kernel API (firmware/include/dataflow_api.h, compute_kernel_api.h)
 * and its runtime (firmware/kernel/), through the test kernels of
 * firmware/tests/kapi on the embedded model.
 *
 * A small launcher of its own plays libtt's part (hw/l1.h): bank table,
 * kernel images, CB table, semaphores, runtime arguments and contexts,
 * CB counters zeroed, then one launch per hart. Kernels that must fail
 * run on cores of their own, counted down from the last one, and the
 * chip is reset after those tests.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/dataformat.h"
#include "testutil.h"

#define RUN_MS 60000
#define RESET_MS 20000
#define RESULT 0x70000u /* per core: what kernels report */
#define DATA 0x80000u /* per core: data for and from kernels */
#define DATA_SIZE 0x20000u
#define CB_BASE TT_L1_PROG_UNRESERVED
#define DRAM_BASE 0x100000u
#define L1_BANK_BASE 0xC0000u
#define L1_BANKS 8u

struct kspec {
	const char *name; /* ELF in $TT_FW_TESTS_DIR/kapi; NULL: idle */
	const uint32_t *rta;
	unsigned nrta;
	const uint32_t *crta;
	unsigned ncrta;
	unsigned noc;
	uint32_t flags; /* TT_KCTX_F_* */
};

struct prog {
	struct tt_xy core; /* NOC 0 */
	struct tt_xy logical;
	struct kspec hart[TT_TENSIX_HARTS];
	struct tt_cb_config cb[TT_CB_COUNT];
	uint32_t cb_mask;
	uint32_t sem[TT_SEM_COUNT];
	bool keep_image; /* run again without writing the binaries */
};

/* ---- the device and its banks ---- */

static struct tt_bank_table banks;
static unsigned fail_cores_used;

static void make_bank_table(tt_device *dev)
{
	const struct tt_device_info *info = tt_device_get_info(dev);

	memset(&banks, 0, sizeof(banks));
	banks.grid_x = info->grid_x;
	banks.grid_y = info->grid_y;
	banks.dram_banks = info->dram_channels < TT_BANKS_MAX_DRAM ?
				   info->dram_channels :
				   TT_BANKS_MAX_DRAM;
	for (unsigned i = 0; i < banks.dram_banks; i++) {
		struct tt_xy xy;

		assert_int_equal(tt_device_dram_core(dev, i, 0, &xy), 0);
		banks.dram_xy[i] = xy.x | xy.y << 8;
	}
	banks.l1_banks = L1_BANKS;
	banks.l1_grid_w = 4; /* bank i is logical core (i % 4, i / 4) */
	for (unsigned i = 0; i < L1_BANKS; i++) {
		struct tt_xy xy = tensix_xy(dev, i);

		banks.l1_xy[i] = xy.x | xy.y << 8;
	}
}

static int setup(void **state)
{
	if (booted_up(state))
		return -1;
	make_bank_table(*state);
	return 0;
}

static int reset_after(void **state)
{
	fail_cores_used = 0;
	if (tt_device_reset(*state, RESET_MS)) {
		fprintf(stderr, "# %s\n", tt_last_error());
		return -1;
	}
	return 0;
}

/* A core of its own for a kernel that will halt. */
static struct tt_xy fail_core(tt_device *dev)
{
	unsigned n = tt_device_get_info(dev)->tensix_count;

	assert_true(fail_cores_used + 16 < n);
	return tensix_xy(dev, n - 1 - fail_cores_used++);
}

static void wr(tt_device *dev, struct tt_xy c, uint32_t addr, const void *p,
	       size_t len)
{
	if (tt_noc_write(dev, 0, c.x, c.y, addr, p, len))
		fail_msg("%s", tt_last_error());
}

static void rd(tt_device *dev, struct tt_xy c, uint32_t addr, void *p,
	       size_t len)
{
	if (tt_noc_read(dev, 0, c.x, c.y, addr, p, len))
		fail_msg("%s", tt_last_error());
}

static uint32_t rd32(tt_device *dev, struct tt_xy c, uint32_t addr)
{
	uint32_t v = 0;

	rd(dev, c, addr, &v, 4);
	return v;
}

static void wr32(tt_device *dev, struct tt_xy c, uint32_t addr, uint32_t v)
{
	wr(dev, c, addr, &v, 4);
}

static void fill(tt_device *dev, struct tt_xy c, uint32_t addr, uint8_t v,
		 size_t len)
{
	uint8_t *buf = malloc(len);

	assert_non_null(buf);
	memset(buf, v, len);
	wr(dev, c, addr, buf, len);
	free(buf);
}

/* ---- the launcher ---- */

static uint32_t load(tt_device *dev, struct tt_xy c, unsigned h,
		     const char *name)
{
	char path[512];
	const char *dir = getenv("TT_FW_TESTS_DIR");
	uint32_t entry = 0;

	if (!dir)
		skip_because("TT_FW_TESTS_DIR is not set: no test kernels");
	snprintf(path, sizeof(path), "%s/kapi/%s.elf", dir, name);
	if (tt_hart_load_elf_file(dev, c, path, &entry))
		fail_msg("%s", tt_last_error());
	assert_int_equal(entry, TT_L1_KERNEL_SLOT(h));
	return entry;
}

static void cb_add(struct prog *p, unsigned i, uint32_t addr, uint32_t pages,
		   uint32_t page_size, uint32_t format)
{
	p->cb[i] = (struct tt_cb_config){
		.addr = addr,
		.size = pages * page_size,
		.num_pages = pages,
		.page_size = page_size,
		.format = format,
	};
	p->cb_mask |= 1u << i;
}

static void reset_cb_counters(tt_device *dev, struct tt_xy c)
{
	uint32_t zeros[TT_CB_COUNT * TT_CB_STRIDE / 4] = { 0 };

	wr(dev, c, TT_REG_CB_ADDR, zeros, sizeof(zeros));
}

static struct tt_kernel_ctx make_ctx(const struct prog *p, unsigned h)
{
	const struct kspec *k = &p->hart[h];

	return (struct tt_kernel_ctx){
		.rta = TT_L1_RTA(h),
		.rta_count = k->nrta,
		.crta = TT_L1_RTA(h) + 4 * k->nrta,
		.crta_count = k->ncrta,
		.cb_mask = p->cb_mask,
		.noc = k->noc,
		.flags = k->flags,
		.kernel_id = 100 + h,
	};
}

static void start(tt_device *dev, const struct prog *p)
{
	struct tt_xy c = p->core;
	uint32_t zero[2] = { 0, 0 };

	wr(dev, c, TT_L1_BANKS, &banks, sizeof(banks));
	wr(dev, c, TT_L1_CB_TABLE, p->cb, sizeof(p->cb));
	for (unsigned i = 0; i < TT_SEM_COUNT; i++)
		wr32(dev, c, TT_L1_SEM_ADDR(i), p->sem[i]);
	reset_cb_counters(dev, c);
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		const struct kspec *k = &p->hart[h];
		struct tt_kernel_ctx ctx = make_ctx(p, h);

		if (!k->name)
			continue;
		if (!p->keep_image)
			load(dev, c, h, k->name);
		if (k->nrta)
			wr(dev, c, TT_L1_RTA(h), k->rta, 4 * k->nrta);
		if (k->ncrta)
			wr(dev, c, ctx.crta, k->crta, 4 * k->ncrta);
		wr(dev, c, TT_L1_KCTX(h), &ctx, sizeof(ctx));
		wr(dev, c, TT_L1_PRINT_RING(h), zero, sizeof(zero));
		wr32(dev, c,
		     TT_L1_MAILBOX_ADDR(h) + offsetof(struct tt_mailbox, waypoint),
		     0);
	}
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		struct tt_kernel_ctx ctx = make_ctx(p, h);

		if (!p->hart[h].name)
			continue;
		if (tt_hart_launch(dev, c, h, TT_L1_KERNEL_SLOT(h),
				   (const uint32_t *)&ctx, sizeof(ctx) / 4))
			fail_msg("%s", tt_last_error());
	}
}

static void finish(tt_device *dev, const struct prog *p)
{
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		int32_t ret = -1;

		if (!p->hart[h].name)
			continue;
		if (tt_hart_wait(dev, p->core, h, RUN_MS, &ret))
			fail_msg("%s on hart %u: %s", p->hart[h].name, h,
				 tt_last_error());
		assert_int_equal(ret, 0);
	}
}

static void run(tt_device *dev, const struct prog *p)
{
	start(dev, p);
	finish(dev, p);
}

static struct prog one_kernel(tt_device *dev, unsigned logical, unsigned h,
			      const char *name, const uint32_t *rta,
			      unsigned nrta)
{
	struct prog p;

	memset(&p, 0, sizeof(p));
	p.core = tensix_xy(dev, logical);
	p.logical = (struct tt_xy){ logical % 8, logical / 8 };
	p.hart[h] = (struct kspec){ .name = name, .rta = rta, .nrta = nrta,
				    .noc = h == TT_HART_NCRISC };
	return p;
}

/* The unread text of a hart's print ring. */
static size_t ring_text(tt_device *dev, struct tt_xy c, unsigned h,
			char *out, size_t cap)
{
	uint32_t hdr[2];
	size_t n = 0;

	rd(dev, c, TT_L1_PRINT_RING(h), hdr, sizeof(hdr));
	assert_true(hdr[0] - hdr[1] <= TT_PRINT_DATA);
	for (uint32_t i = hdr[1]; i != hdr[0] && n + 1 < cap; i++, n++) {
		uint8_t b;

		rd(dev, c, TT_L1_PRINT_RING(h) + 16 + i % TT_PRINT_DATA, &b, 1);
		out[n] = (char)b;
	}
	out[n] = 0;
	return n;
}

static uint32_t waypoint(tt_device *dev, struct tt_xy c, unsigned h)
{
	return rd32(dev, c,
		    TT_L1_MAILBOX_ADDR(h) + offsetof(struct tt_mailbox, waypoint));
}

/* The kernel on hart h must have halted with an error report saying
 * `what`. */
static void expect_report(tt_device *dev, struct tt_xy c, unsigned h,
			  const char *what)
{
	struct tt_hart_status st;
	char text[TT_PRINT_DATA + 1];
	int32_t ret;

	assert_int_equal(tt_hart_wait(dev, c, h, RUN_MS, &ret), -EFAULT);
	assert_int_equal(tt_hart_status(dev, c, h, &st), 0);
	assert_int_equal(st.state, TT_HART_STATE_HALTED);
	assert_int_equal(st.fault, TT_HART_FAULT_EBREAK);
	assert_int_equal(waypoint(dev, c, h), 0x21525245); /* "ERR!" */
	ring_text(dev, c, h, text, sizeof(text));
	if (!strstr(text, what))
		fail_msg("report \"%s\" lacks \"%s\"", text, what);
	assert_int_equal(text[strlen(text) - 1], '\n');
}

/* ---- arguments, identity, globals ---- */

static void test_args(void **state)
{
	tt_device *dev = *state;
	const uint32_t rta[] = { RESULT, 111, 222, 1 };
	const uint32_t crta[] = { 333, 444 };
	/* Tensix core 6: logical (2, 1) by the bank table. */
	struct prog p = one_kernel(dev, 6, TT_HART_BRISC, "args", rta, 4);
	uint32_t out[25];

	p.hart[0].crta = crta;
	p.hart[0].ncrta = 2;
	for (int round = 0; round < 4; round++) {
		uint64_t self = (uint64_t)p.core.y << 42 |
				(uint64_t)p.core.x << 36 | 0x1234;

		/* Rounds 1 and 2 run the image round 0 left; round 3 the
		 * kernel built at -O0. */
		p.keep_image = round == 1 || round == 2;
		if (round == 3)
			p.hart[0].name = "args_o0";
		p.hart[0].noc = round == 2;
		fill(dev, p.core, RESULT, 0xEE, sizeof(out));
		run(dev, &p);
		rd(dev, p.core, RESULT, out, sizeof(out));
		assert_int_equal(out[0], 100); /* .data fresh */
		assert_int_equal(out[1], 0); /* .bss fresh */
		assert_int_equal(out[2], 111);
		assert_int_equal(out[3], 222);
		assert_int_equal(out[4], 333);
		assert_int_equal(out[5], 444);
		assert_int_equal(out[6], TT_L1_RTA(0) + 4);
		assert_int_equal(out[7], TT_L1_RTA(0) + 16);
		assert_int_equal(out[8], 7);
		assert_int_equal(out[9], 11);
		assert_int_equal(out[10], 13);
		assert_int_equal(out[11], 3);
		assert_int_equal(out[12], 11); /* arg 3 = 1 at run time */
		assert_int_equal(out[13], 2);
		assert_int_equal(out[14], 1);
		assert_int_equal(out[15], 2);
		assert_int_equal(out[16], 1);
		assert_int_equal(out[17], p.core.x);
		assert_int_equal(out[18], p.core.y);
		assert_int_equal(out[19], p.core.x); /* NOC 0 terms on NOC 1 */
		assert_int_equal(out[20], (uint32_t)(round == 2));
		assert_int_equal(out[21], (uint32_t)self);
		assert_int_equal(out[22], (uint32_t)(self >> 32));
		assert_int_equal(out[23], 0);
		assert_int_equal(out[24], 0xC0FFEE);
		assert_int_equal(waypoint(dev, p.core, 0), 'D');
	}
}

/* ---- circular buffers ---- */

static bool have_cb_counters(tt_device *dev)
{
	struct tt_xy c = tensix_xy(dev, 0);
	uint32_t reg = TT_REG_CB_ADDR + TT_CB_REG(0, TT_CB_RECEIVED), v = 0;

	if (tt_noc_write32(dev, 0, c.x, c.y, reg, 0x12345) ||
	    tt_noc_read32(dev, 0, c.x, c.y, reg, &v) || v != 0x2345)
		return false;
	return tt_noc_write32(dev, 0, c.x, c.y, reg, 0) == 0;
}

#define NEED_CB_COUNTERS(dev)                                              \
	do {                                                               \
		if (!have_cb_counters(dev))                                \
			skip_because("the model has no CB counters yet");  \
	} while (0)

static void stream(tt_device *dev, unsigned logical, uint32_t pages,
		   uint32_t step, uint32_t flags)
{
	const uint32_t prod[] = { pages, step, 0 };
	const uint32_t cons[] = { pages, step, 0, RESULT };
	struct prog p = one_kernel(dev, logical, TT_HART_BRISC, "cb_producer",
				   prod, 3);
	uint32_t out[4];

	p.hart[1] = (struct kspec){ .name = "cb_consumer", .rta = cons,
				    .nrta = 4, .noc = 1, .flags = flags };
	p.hart[0].flags = flags;
	cb_add(&p, 0, CB_BASE, 4, 32, 0);
	fill(dev, p.core, RESULT, 0xEE, sizeof(out));
	run(dev, &p);
	rd(dev, p.core, RESULT, out, sizeof(out));
	assert_int_equal(out[0], pages);
	assert_int_equal(out[1], 0);
	assert_int_equal(out[2], ~0u);
	/* pages is a multiple of 4: the read pointer is back at the start. */
	assert_int_equal(out[3], CB_BASE);
	/* The counters wrapped at 16 bits. */
	assert_int_equal(rd32(dev, p.core, TT_REG_CB_ADDR +
					   TT_CB_REG(0, TT_CB_RECEIVED)) & 0xFFFF,
			 pages & 0xFFFF);
	assert_int_equal(rd32(dev, p.core, TT_REG_CB_ADDR +
					   TT_CB_REG(0, TT_CB_ACKED)) & 0xFFFF,
			 pages & 0xFFFF);
}

static void test_cb_stream_wraps(void **state)
{
	NEED_CB_COUNTERS(*state);
	/* 100 000 pages through 4: the 16-bit counters wrap. */
	stream(*state, 4, 100000, 1, 0);
}

static void test_cb_stream_steps(void **state)
{
	NEED_CB_COUNTERS(*state);
	stream(*state, 4, 2000, 2, 0);
	stream(*state, 4, 2000, 4, 0);
	/* Correct use passes the checks too. */
	stream(*state, 5, 70000, 2, TT_KCTX_F_CB_CHECKS);
}

static struct prog misuse(tt_device *dev, uint32_t mode, uint32_t flags,
			  uint32_t *rta)
{
	struct prog p;

	memset(&p, 0, sizeof(p));
	p.core = fail_core(dev);
	rta[0] = mode;
	rta[1] = RESULT;
	p.hart[0] = (struct kspec){ .name = "cb_misuse", .rta = rta,
				    .nrta = 2, .flags = flags };
	cb_add(&p, 0, CB_BASE, 4, 64, 0);
	wr32(dev, p.core, RESULT, 0);
	return p;
}

static void test_cb_misuse_reported(void **state)
{
	tt_device *dev = *state;
	static const char *const what[] = {
		[1] = "CB misuse: cb_push_back(0, 2): only 1 pages were reserved",
		[2] = "CB misuse: cb_pop_front(0, 2): only 1 pages are available",
		[3] = "CB misuse: cb_reserve_back(0, 5): CB 0 holds only 4 pages",
		[4] = "CB misuse: cb_reserve_back(7): CB 7 is not configured on this core (configured: 0x1)",
		[5] = "CB misuse: cb_push_back(0, 3): the pointer moves from 0x380c0 to 0x38180, past the end of the CB at 0x38100",
	};

	NEED_CB_COUNTERS(dev);
	for (uint32_t mode = 1; mode <= 5; mode++) {
		uint32_t rta[2];
		struct prog p = misuse(dev, mode, TT_KCTX_F_CB_CHECKS, rta);

		start(dev, &p);
		expect_report(dev, p.core, 0, what[mode]);
		assert_int_equal(rd32(dev, p.core, RESULT), 0);
	}
}

static void test_cb_misuse_unchecked(void **state)
{
	tt_device *dev = *state;
	static const uint32_t modes[] = { 1, 2, 5, 6 };

	NEED_CB_COUNTERS(dev);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		uint32_t rta[2];
		struct prog p = misuse(dev, modes[i], 0, rta);

		run(dev, &p);
		assert_int_equal(rd32(dev, p.core, RESULT), 0x600D);
	}
	{
		uint32_t rta[2];
		struct prog p = misuse(dev, 6, TT_KCTX_F_CB_CHECKS, rta);

		run(dev, &p);
		assert_int_equal(rd32(dev, p.core, RESULT), 0x600D);
	}
}

/* ---- NOC ---- */

/* Pages of ps bytes (kind 2: 128) through generator `kind`. */
static void noc_case(tt_device *dev, uint32_t kind, bool dram, uint32_t noc,
		     uint32_t ps)
{
	const uint32_t pages = 30;
	/* Pages are padded to the alignment of their memory. */
	uint32_t align = dram ? 32 : 16;
	uint32_t stride = (ps + align - 1) / align * align;
	struct tt_xy peer = tensix_xy(dev, 9);
	uint32_t base = dram ? DRAM_BASE + kind * 0x10000 : L1_BANK_BASE;
	uint32_t rta[12] = {
		base, kind == 2 ? 7 : ps, pages, dram, DATA, DATA + 0x8000,
		kind, noc, RESULT, peer.x, peer.y, DATA + 0x100,
	};
	struct prog p = one_kernel(dev, 2, TT_HART_NCRISC, "noc_rw", rta, 12);
	uint8_t src[30 * 128], back[30 * 128 + 64];
	uint32_t addrs[60];
	unsigned nb = dram ? banks.dram_banks : banks.l1_banks;

	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(rand() ^ i);
	wr(dev, p.core, DATA, src, pages * ps);
	fill(dev, p.core, DATA + 0x8000, 0, sizeof(back));
	fill(dev, peer, DATA + 0x100, 0, 72);
	run(dev, &p);
	rd(dev, p.core, DATA + 0x8000, back, pages * ps + 64);
	assert_memory_equal(back, src, pages * ps);
	/* The peer's copy came back after the pages. */
	assert_memory_equal(back + pages * ps, src, 64);
	/* Inline writes: a whole word, and bytes 1 and 2 of one. */
	assert_int_equal(rd32(dev, peer, DATA + 0x100 + 64), 0xA5A5F00D);
	assert_int_equal(rd32(dev, peer, DATA + 0x100 + 68), 0x00332200);
	rd(dev, p.core, RESULT, addrs, sizeof(addrs));
	for (uint32_t i = 0; i < pages; i++) {
		uint32_t xy = dram ? banks.dram_xy[i % nb] : banks.l1_xy[i % nb];
		uint32_t off = base + i / nb * stride;
		uint64_t want = (uint64_t)(xy >> 8) << 42 |
				(uint64_t)(xy & 0xFF) << 36 | off;
		struct tt_xy bank = { xy & 0xFF, xy >> 8 };
		uint8_t page[128];

		assert_int_equal(addrs[2 * i], (uint32_t)want);
		assert_int_equal(addrs[2 * i + 1], (uint32_t)(want >> 32));
		/* The page is where the interleaving rule puts it. */
		rd(dev, bank, off, page, ps);
		assert_memory_equal(page, src + i * ps, ps);
	}
}

static void test_noc_interleaved_dram(void **state)
{
	for (uint32_t kind = 0; kind < 3; kind++)
		noc_case(*state, kind, true, 2, kind == 2 ? 128 : 96);
	noc_case(*state, 0, true, 0, 96);
	noc_case(*state, 1, true, 1, 96);
	/* 100-byte pages, 128 apart in each bank. */
	noc_case(*state, 0, true, 2, 100);
}

static void test_noc_interleaved_l1(void **state)
{
	for (uint32_t kind = 0; kind < 3; kind++)
		noc_case(*state, kind, false, kind == 1 ? 0 : 2,
			 kind == 2 ? 128 : 96);
	noc_case(*state, 2, false, 1, 128);
	/* 100-byte pages, 112 apart in each bank. */
	noc_case(*state, 1, false, 2, 100);
}

/* ---- multicast ---- */

/* A 3x3 block of Tensix cores, top-left corner in *x0, *y0. */
static bool tensix_block(tt_device *dev, unsigned *x0, unsigned *y0)
{
	const struct tt_device_info *info = tt_device_get_info(dev);

	for (unsigned y = 0; y + 2 < info->grid_y; y++) {
		for (unsigned x = 0; x + 2 < info->grid_x; x++) {
			bool ok = true;

			for (unsigned j = 0; j < 9 && ok; j++)
				ok = tt_device_core_type(dev, x + j % 3,
							 y + j / 3) ==
					     TT_CORE_TENSIX &&
				     !tt_device_core_harvested(dev, x + j % 3,
							       y + j / 3);
			if (ok) {
				*x0 = x;
				*y0 = y;
				return true;
			}
		}
	}
	return false;
}

static void mcast_case(tt_device *dev, unsigned x0, unsigned y0,
		       struct tt_xy sender, bool loopback, uint32_t noc)
{
	uint8_t src[256], got[256], zero[256] = { 0 };
	uint32_t ndest = 9 - (!loopback && sender.x >= x0 && sender.x <= x0 + 2 &&
			      sender.y >= y0 && sender.y <= y0 + 2);
	uint32_t rta[10] = { x0 + 2, y0 + 2, x0, y0, DATA,
			     DATA + 0x1000, sizeof(src), loopback, noc, ndest };
	struct prog p;

	memset(&p, 0, sizeof(p));
	p.core = sender;
	p.hart[0] = (struct kspec){ .name = "mcast", .rta = rta, .nrta = 10 };
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + loopback + noc);
	wr(dev, sender, DATA, src, sizeof(src));
	for (unsigned j = 0; j < 9; j++) {
		struct tt_xy c = { x0 + j % 3, y0 + j / 3 };

		wr(dev, c, DATA + 0x1000, zero, sizeof(zero));
		wr32(dev, c, TT_L1_SEM_ADDR(1), 0);
	}
	wr(dev, sender, DATA + 0x1000, zero, sizeof(zero));
	run(dev, &p);
	for (unsigned j = 0; j < 9; j++) {
		struct tt_xy c = { x0 + j % 3, y0 + j / 3 };
		bool self = c.x == sender.x && c.y == sender.y;
		bool want = loopback || !self;

		rd(dev, c, DATA + 0x1000, got, sizeof(got));
		if (want)
			assert_memory_equal(got, src, sizeof(src));
		else
			assert_memory_equal(got, zero, sizeof(zero));
		assert_int_equal(rd32(dev, c, TT_L1_SEM_ADDR(1)),
				 want ? 0x5E0000 + ndest : 0);
	}
}

static void test_multicast(void **state)
{
	tt_device *dev = *state;
	unsigned x0 = 0, y0 = 0;
	struct tt_xy outside = tensix_xy(dev, 20);

	if (!tensix_block(dev, &x0, &y0))
		skip_because("no 3x3 block of Tensix cores");
	/* In the middle: four rectangles around the sender. */
	mcast_case(dev, x0, y0, (struct tt_xy){ x0 + 1, y0 + 1 }, false, 2);
	mcast_case(dev, x0, y0, (struct tt_xy){ x0 + 1, y0 + 1 }, false, 1);
	mcast_case(dev, x0, y0, (struct tt_xy){ x0 + 1, y0 + 1 }, true, 2);
	mcast_case(dev, x0, y0, (struct tt_xy){ x0, y0 + 2 }, false, 0);
	mcast_case(dev, x0, y0, (struct tt_xy){ x0 + 2, y0 }, true, 1);
	if (outside.x > x0 + 2 || outside.y > y0 + 2)
		mcast_case(dev, x0, y0, outside, false, 2);
}

/* ---- semaphores ---- */

static void test_semaphore_pingpong(void **state)
{
	tt_device *dev = *state;
	struct tt_xy a = tensix_xy(dev, 10), b = tensix_xy(dev, 11);
	const uint32_t rounds = 300;
	uint32_t ra[5] = { b.x, b.y, rounds, 0, RESULT };
	uint32_t rb[5] = { a.x, a.y, rounds, 1, RESULT };
	struct prog pa = one_kernel(dev, 10, TT_HART_BRISC, "sem_pingpong",
				    ra, 5);
	struct prog pb = one_kernel(dev, 11, TT_HART_BRISC, "sem_pingpong",
				    rb, 5);
	uint32_t out[2];

	/* b first: a's first increment must not land before b's semaphores
	 * are set up. */
	start(dev, &pb);
	start(dev, &pa);
	finish(dev, &pa);
	finish(dev, &pb);
	rd(dev, a, RESULT, out, sizeof(out));
	assert_int_equal(out[0], rounds);
	assert_int_equal(out[1], rounds);
	rd(dev, b, RESULT, out, sizeof(out));
	assert_int_equal(out[0], rounds);
	assert_int_equal(out[1], rounds);
	assert_int_equal(rd32(dev, b, TT_L1_SEM_ADDR(2)), 7);
	assert_int_equal(rd32(dev, a, TT_L1_SEM_ADDR(2)), 0);
}

/* ---- DPRINT ---- */

static void test_dprint_formats(void **state)
{
	tt_device *dev = *state;
	const uint32_t rta[] = { 0 };
	struct prog p = one_kernel(dev, 12, TT_HART_NCRISC, "dprint", rta, 1);
	char want[TT_PRINT_DATA + 1] = "", got[TT_PRINT_DATA + 1];
	size_t n = 0;

#define PRINT_LINE(...)                                                   \
	n += (size_t)snprintf(want + n, sizeof(want) - n, __VA_ARGS__);   \
	assert_true(n < sizeof(want));
#include "firmware/tests/kapi/dprint_formats.h"
#undef PRINT_LINE

	p.hart[1].flags = TT_KCTX_F_PRINT;
	run(dev, &p);
	ring_text(dev, p.core, 1, got, sizeof(got));
	assert_string_equal(got, want);
	/* Printing off: nothing reaches the ring. */
	p.hart[1].flags = 0;
	run(dev, &p);
	assert_int_equal(ring_text(dev, p.core, 1, got, sizeof(got)), 0);
}

/* More than the ring holds: the kernel waits for the host to read. */
static void test_dprint_waits_for_reader(void **state)
{
	tt_device *dev = *state;
	const uint32_t lines = 150, rta[] = { 1, lines };
	struct prog p = one_kernel(dev, 12, TT_HART_NCRISC, "dprint", rta, 2);
	size_t cap = 64 * lines, n = 0, at = 0;
	char *text = calloc(1, cap), want[64];
	int32_t ret;
	int r;

	assert_non_null(text);
	p.hart[1].flags = TT_KCTX_F_PRINT;
	start(dev, &p);
	for (;;) {
		uint32_t hdr[2];

		r = tt_hart_wait(dev, p.core, 1, 5, &ret);
		rd(dev, p.core, TT_L1_PRINT_RING(1), hdr, sizeof(hdr));
		assert_true(hdr[0] - hdr[1] <= TT_PRINT_DATA);
		for (; hdr[1] != hdr[0] && n + 1 < cap; hdr[1]++)
			rd(dev, p.core,
			   TT_L1_PRINT_RING(1) + 16 + hdr[1] % TT_PRINT_DATA,
			   &text[n++], 1);
		wr32(dev, p.core, TT_L1_PRINT_RING(1) + 4, hdr[1]);
		if (r != -ETIMEDOUT)
			break;
	}
	assert_int_equal(r, 0);
	assert_int_equal(ret, 0);
	for (uint32_t i = 0; i < lines; i++) {
		int len = snprintf(want, sizeof(want),
				   "line %05u: the quick brown fox jumps\n", i);

		assert_true(at + (uint32_t)len <= n);
		assert_memory_equal(text + at, want, (size_t)len);
		at += (uint32_t)len;
	}
	/* Everything, once. */
	assert_int_equal(n, at);
	assert_true(at > 4 * TT_PRINT_DATA);
	free(text);
}

/* ---- tile slices ---- */

#define TS_CB 3u
#define TS_ADDR (CB_BASE + 0x8000u)
#define TS_RD 0u /* TSLICE_RD_PTR (debug/dprint.h) */
#define TS_WR 1u /* TSLICE_WR_PTR */

/* A 32x32 matrix of values that every format keeps distinct: negative,
 * fractional and large ones for floats, saturating ends for integers. */
static void ts_values(float m[DF_TILE_ELEMS], unsigned page)
{
	for (unsigned r = 0; r < DF_TILE_DIM; r++)
		for (unsigned c = 0; c < DF_TILE_DIM; c++)
			m[r * DF_TILE_DIM + c] =
				((float)r - 16.0f) * 0.375f + (float)c * 1.25f -
				7.0f - 30.0f * (float)page +
				(r == 31 && c == 31 ? 1e6f : 0.0f);
}

/* What the kernel prints for element (r, c) of a tile of fmt. */
static int ts_element(char *out, size_t len, enum df_format fmt,
		      const uint8_t *tile, unsigned r, unsigned c)
{
	float f[DF_TILE_ELEMS];
	int32_t i32[DF_TILE_ELEMS];
	uint32_t u32[DF_TILE_ELEMS];
	unsigned at = r * DF_TILE_DIM + c;
	size_t tb = df_tile_bytes(fmt);

	switch (fmt) {
	case DF_INT32:
	case DF_INT8:
		assert_int_equal(df_untilize_convert(DF_INT32, i32, sizeof(i32),
						     fmt, tile, tb, 32, 32),
				 0);
		return snprintf(out, len, "%ld", (long)i32[at]);
	case DF_UINT32:
	case DF_UINT16:
	case DF_UINT8:
		assert_int_equal(df_untilize_convert(DF_UINT32, u32,
						     sizeof(u32), fmt, tile,
						     tb, 32, 32),
				 0);
		return snprintf(out, len, "%lu", (unsigned long)u32[at]);
	default:
		assert_int_equal(df_untilize_convert(DF_FLOAT32, f, sizeof(f),
						     fmt, tile, tb, 32, 32),
				 0);
		return snprintf(out, len, "%g", (double)f[at]);
	}
}

static void ts_expect(char *want, size_t len, enum df_format fmt,
		      const uint8_t *tile, unsigned tile_no, const unsigned s[6])
{
	size_t n = (size_t)snprintf(want, len,
				    "CB %u tile %u (%s) rows %u:%u:%u cols %u:%u:%u\n",
				    TS_CB, tile_no, df_name(fmt), s[0], s[1],
				    s[2], s[3], s[4], s[5]);

	for (unsigned r = s[0]; r < s[1]; r += s[2]) {
		for (unsigned c = s[3]; c < s[4]; c += s[5]) {
			if (c != s[3])
				n += (size_t)snprintf(want + n, len - n, " ");
			n += (size_t)ts_element(want + n, len - n, fmt, tile, r,
						c);
		}
		n += (size_t)snprintf(want + n, len - n, "\n");
		assert_true(n < len);
	}
}

/* Run tslice on a CB of two pages of fmt (page p holding ts_values(p));
 * the ring's text in got. */
static void ts_run(tt_device *dev, enum df_format fmt, bool configured,
		   const uint32_t args[10], char *got, size_t len,
		   uint8_t pages[2][4096])
{
	struct prog p = one_kernel(dev, 13, TT_HART_NCRISC, "tslice", args, 10);
	size_t tb = df_tile_bytes(fmt) ? df_tile_bytes(fmt) : 1024;

	for (unsigned pg = 0; pg < 2 && df_is_supported(fmt); pg++) {
		float m[DF_TILE_ELEMS];

		ts_values(m, pg);
		assert_int_equal(df_tilize_convert(fmt, pages[pg], 4096,
						   DF_FLOAT32, m, sizeof(m), 32,
						   32),
				 0);
		wr(dev, p.core, TS_ADDR + pg * (uint32_t)tb, pages[pg], tb);
	}
	if (configured)
		cb_add(&p, TS_CB, TS_ADDR, 2, (uint32_t)tb, fmt);
	p.hart[1].flags = TT_KCTX_F_PRINT;
	run(dev, &p);
	ring_text(dev, p.core, 1, got, len);
}

static void test_dprint_tile_slices(void **state)
{
	static const enum df_format fmts[] = {
		DF_FLOAT32, DF_FLOAT16, DF_FLOAT16_B, DF_BFP8_B, DF_BFP4_B,
		DF_BFP2_B, DF_INT32, DF_UINT32, DF_UINT16, DF_INT8, DF_UINT8,
	};
	static const unsigned slices[][6] = {
		{ 0, 32, 8, 0, 32, 8 }, /* SLICE_HW0_32_8 */
		{ 0, 1, 1, 0, 32, 1 }, /* SLICE_H0_W0_32 */
		{ 31, 32, 1, 30, 32, 1 }, /* the last corner */
	};
	tt_device *dev = *state;
	static uint8_t pages[2][4096];
	char got[TT_PRINT_DATA + 1], want[2048];

	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
		for (size_t k = 0; k < 3; k++) {
			const unsigned *s = slices[k];
			/* Tile 1 from the read pointer. */
			uint32_t args[10] = { TS_CB, 1, s[0], s[1], s[2], s[3],
					      s[4], s[5], TS_RD, 0 };

			ts_run(dev, fmts[f], true, args, got, sizeof(got),
			       pages);
			ts_expect(want, sizeof(want), fmts[f], pages[1], 1, s);
			assert_string_equal(got, want);
		}
}

static void test_dprint_tile_slice_pointers_and_errors(void **state)
{
	tt_device *dev = *state;
	static uint8_t pages[2][4096];
	char got[TT_PRINT_DATA + 1], want[2048];
	const unsigned s[6] = { 0, 32, 16, 0, 32, 16 };
	/* After one push the write pointer is at page 1. */
	uint32_t wr_args[10] = { TS_CB, 0, 0, 32, 16, 0, 32, 16,
				 TS_WR, 1 };
	uint32_t bad[10] = { TS_CB, 0, 0, 33, 8, 0, 32, 8, TS_RD, 0 };

	ts_run(dev, DF_FLOAT16_B, true, wr_args, got, sizeof(got), pages);
	ts_expect(want, sizeof(want), DF_FLOAT16_B, pages[1], 0, s);
	assert_string_equal(got, want);

	ts_run(dev, DF_FLOAT16_B, true, bad, got, sizeof(got), pages);
	assert_string_equal(got,
			    "DPRINT_TSLICE: bad slice rows 0:33:8 cols 0:32:8\n");
	bad[3] = 32;
	bad[4] = 0; /* a step of 0 */
	ts_run(dev, DF_FLOAT16_B, true, bad, got, sizeof(got), pages);
	assert_non_null(strstr(got, "bad slice rows 0:32:0"));
	bad[4] = 8;
	bad[1] = 2; /* two pages: tiles 0 and 1 */
	ts_run(dev, DF_FLOAT16_B, true, bad, got, sizeof(got), pages);
	assert_string_equal(got,
			    "DPRINT_TSLICE: tile 2 is past the end of CB 3\n");
	bad[1] = 0;
	ts_run(dev, DF_FLOAT16_B, false, bad, got, sizeof(got), pages);
	assert_string_equal(got, "DPRINT_TSLICE: CB 3 is not configured\n");
	ts_run(dev, DF_BFP8, true, bad, got, sizeof(got), pages);
	assert_string_equal(got,
			    "DPRINT_TSLICE: CB 3 holds data format 2, which it cannot print\n");
}

/* ---- error reports ---- */

static void fail_case(tt_device *dev, uint32_t mode, uint32_t v,
		      uint32_t flags, const char *what)
{
	const uint32_t rta[2] = { mode, v };
	struct prog p;

	memset(&p, 0, sizeof(p));
	p.core = fail_core(dev);
	p.hart[0] = (struct kspec){ .name = "fail", .rta = rta, .nrta = 2,
				    .flags = flags };
	start(dev, &p);
	expect_report(dev, p.core, 0, what);
}

static void test_error_reports(void **state)
{
	tt_device *dev = *state;
	char msg[160];
	struct tt_xy next;

	fail_case(dev, 1, 4, 0,
		  "assert failed: get_arg_val(1) == 5 at ");
	fail_case(dev, 2, 7, 0,
		  "runtime argument 7 out of range: the kernel has 2\n");
	fail_case(dev, 3, 0, TT_KCTX_F_PRINT,
		  "common runtime argument 0 out of range: the kernel has 0\n");
	fail_case(dev, 6, 9, 0, "semaphore 9 out of range: a core has 8\n");
	snprintf(msg, sizeof(msg),
		 "DRAM bank 99 out of range: the bank table has %u\n",
		 banks.dram_banks);
	fail_case(dev, 7, 99, 0, msg);
	fail_case(dev, 8, 0, 0,
		  "compile-time argument 0 out of range: the kernel has 0\n");
	/* A report after half a line of print starts a line of its own. */
	fail_case(dev, 9, 1, TT_KCTX_F_PRINT,
		  "half a line \nassert failed: v == 0 at ");
	/* The launch lacks a context. */
	next = fail_core(dev);
	load(dev, next, 2, "compute_eltwise");
	assert_int_equal(tt_hart_launch(dev, next, 2, TT_L1_KERNEL_SLOT(2),
					NULL, 0),
			 0);
	expect_report(dev, next, 2,
		      "kernel launched with 0 argument words instead of a kernel context (16 words)\n");
}

static void test_noc_errors_reported(void **state)
{
	tt_device *dev = *state;
	char msg[160];
	struct tt_xy c;
	unsigned n = tt_device_get_info(dev)->tensix_count;

	fail_case(dev, 4, 0, 0,
		  "NOC read to (63,63) 0x100 len 32 refused (error 1)\n");
	/* The next fail core is the one the kernel runs on. */
	c = tensix_xy(dev, n - 1 - fail_cores_used);
	snprintf(msg, sizeof(msg),
		 "NOC write to (%u,%u) 0x7000000 len 64 refused (error 3)\n",
		 c.x, c.y);
	fail_case(dev, 5, 0x7000000, 0, msg);
	/* On NOC 1 the report still speaks NOC 0 coordinates. */
	c = tensix_xy(dev, n - 1 - fail_cores_used);
	snprintf(msg, sizeof(msg),
		 "NOC write to (%u,%u) 0x7000000 len 64 refused (error 3)\n",
		 c.x, c.y);
	fail_case(dev, 10, 0x7000000, 0, msg);
}

/* ---- compute ---- */

static bool have_coprocessor(tt_device *dev)
{
	struct tt_xy c = tensix_xy(dev, 0);
	uint32_t v = 0;

	return have_cb_counters(dev) &&
	       !tt_noc_read32(dev, 0, c.x, c.y,
			      TT_REG_TENSIX_ADDR + TT_TX_DST_TILES, &v) &&
	       v == TT_DST_TILES_16;
}

#define NEED_COPROCESSOR(dev)                                                 \
	do {                                                                  \
		if (!have_coprocessor(dev))                                   \
			skip_because("the model has no tile coprocessor yet"); \
	} while (0)

#define TILE 1024
#define BF16_TILE 2048u
#define F32_TILE 4096u
#define FMT_F32 0u
#define FMT_BF16 5u

static uint16_t bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	u += 0x7FFF + (u >> 16 & 1);
	return (uint16_t)(u >> 16);
}

static float from_bf16(uint16_t b)
{
	uint32_t u = (uint32_t)b << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* Index of element (r, c) in a tile: four 16x16 faces. */
static unsigned tidx(unsigned r, unsigned c)
{
	return (r / 16 * 2 + c / 16) * 256 + r % 16 * 16 + c % 16;
}

static void put_tiles(tt_device *dev, struct tt_xy c, uint32_t addr,
		      const float *v, unsigned ntiles)
{
	uint16_t *b = malloc(ntiles * BF16_TILE);

	assert_non_null(b);
	for (unsigned i = 0; i < ntiles * TILE; i++)
		b[i] = bf16(v[i]);
	wr(dev, c, addr, b, ntiles * BF16_TILE);
	free(b);
}

static void get_tiles(tt_device *dev, struct tt_xy c, uint32_t addr,
		      float *v, unsigned ntiles)
{
	uint16_t *b = malloc(ntiles * BF16_TILE);

	assert_non_null(b);
	rd(dev, c, addr, b, ntiles * BF16_TILE);
	for (unsigned i = 0; i < ntiles * TILE; i++)
		v[i] = from_bf16(b[i]);
	free(b);
}

/* Values exact in bf16, in [lo, hi). */
static void random_tiles(float *v, unsigned n, float lo, float hi)
{
	for (unsigned i = 0; i < n * TILE; i++)
		v[i] = from_bf16(bf16(lo + (hi - lo) * (float)rand() /
						  (float)RAND_MAX));
}

static void close_enough(float got, float want, float rel, float abs,
			 unsigned i, const char *what)
{
	if (!(fabsf(got - want) <= rel * fabsf(want) + abs))
		fail_msg("%s: element %u: %g, expected %g", what, i,
			 (double)got, (double)want);
}

static void put_f32(tt_device *dev, struct tt_xy c, uint32_t addr,
		    const float *v, unsigned ntiles, uint32_t fmt)
{
	if (fmt == FMT_F32)
		wr(dev, c, addr, v, ntiles * F32_TILE);
	else
		put_tiles(dev, c, addr, v, ntiles);
}

/* Run compute kernel `name` in `mode` on n tiles waiting in CB 0 and
 * CB 1 (and a scaler tile of 1.0 in CB 2), all in format fmt. */
static void eltwise_in(tt_device *dev, const char *name, uint32_t mode,
		       uint32_t fmt, const float *a, const float *b,
		       float *out, unsigned n)
{
	const uint32_t rta[2] = { mode, n };
	struct prog p = one_kernel(dev, 13, TT_HART_COMPUTE, name, rta, 2);
	uint32_t tsize = fmt == FMT_F32 ? F32_TILE : BF16_TILE;
	uint32_t in0 = CB_BASE, in1 = in0 + n * tsize;
	uint32_t scl = in1 + n * tsize, o = scl + tsize;
	float scaler[TILE] = { 1.0f };

	cb_add(&p, 0, in0, n, tsize, fmt);
	cb_add(&p, 1, in1, n, tsize, fmt);
	cb_add(&p, 2, scl, 1, tsize, fmt);
	cb_add(&p, 16, o, n, tsize, fmt);
	put_f32(dev, p.core, in0, a, n, fmt);
	put_f32(dev, p.core, in1, b, n, fmt);
	put_f32(dev, p.core, scl, scaler, 1, fmt);
	start(dev, &p);
	/* The inputs count as pushed (after start() zeroed the counters:
	 * the kernel waits for them). */
	wr32(dev, p.core, TT_REG_CB_ADDR + TT_CB_REG(0, TT_CB_RECEIVED), n);
	wr32(dev, p.core, TT_REG_CB_ADDR + TT_CB_REG(1, TT_CB_RECEIVED), n);
	wr32(dev, p.core, TT_REG_CB_ADDR + TT_CB_REG(2, TT_CB_RECEIVED), 1);
	finish(dev, &p);
	assert_int_equal(rd32(dev, p.core, TT_REG_CB_ADDR +
					   TT_CB_REG(16, TT_CB_RECEIVED)),
			 n);
	if (fmt == FMT_F32)
		rd(dev, p.core, o, out, n * F32_TILE);
	else
		get_tiles(dev, p.core, o, out, n);
}

static void eltwise(tt_device *dev, uint32_t mode, const float *a,
		    const float *b, float *out, unsigned n)
{
	eltwise_in(dev, "compute_eltwise", mode, FMT_BF16, a, b, out, n);
}

static void test_compute_eltwise(void **state)
{
	static const char *const modes[] = {
		"copy", "add", "sub", "mul", "exp", "add_bcast_rows",
		"mul_bcast_scalar", "transpose", "reduce row sum",
		"add_binary_tile", "relu", "sqrt", "recip", NULL, NULL,
		"copy transposed", NULL, "power 2", "fill 3.5",
		"leaky relu 0.25", "sigmoid", "tanh",
	};
	tt_device *dev = *state;
	enum { N = 3 };
	float *a = malloc(N * TILE * sizeof(float));
	float *b = malloc(N * TILE * sizeof(float));
	float *o = malloc(N * TILE * sizeof(float));

	NEED_COPROCESSOR(dev);
	assert_true(a && b && o);
	random_tiles(a, N, -2.0f, 2.0f);
	random_tiles(b, N, 0.5f, 3.0f);
	for (uint32_t mode = 0; mode <= 21; mode++) {
		if (!modes[mode])
			continue;
		eltwise(dev, mode, a, b, o, N);
		for (unsigned t = 0; t < N; t++) {
			for (unsigned r = 0; r < 32; r++) {
				for (unsigned c = 0; c < 32; c++) {
					unsigned i = t * TILE + tidx(r, c);
					const float *at = a + t * TILE;
					const float *bt = b + t * TILE;
					float x = a[i], y = b[i], w;

					switch (mode) {
					case 0: w = x; break;
					case 1: w = x + y; break;
					case 2: w = x - y; break;
					case 3: w = x * y; break;
					case 4: w = expf(x); break;
					case 5: w = x + bt[tidx(0, c)]; break;
					case 6: w = x * bt[0]; break;
					case 7:
					case 15: w = at[tidx(c, r)]; break;
					case 8:
						if (c) continue;
						w = 0;
						for (unsigned k = 0; k < 32; k++)
							w += at[tidx(r, k)];
						break;
					/* DST holds a + b in bf16. */
					case 9: w = x + from_bf16(bf16(x + y)); break;
					case 10: w = x > 0 ? x : 0; break;
					case 11: w = sqrtf(fabsf(x)); if (x < 0) continue; break;
					case 12: w = 1.0f / x; break;
					case 17: w = x * x; break;
					case 18: w = 3.5f; break;
					case 19: w = x < 0 ? 0.25f * x : x; break;
					case 20: w = 1.0f / (1.0f + expf(-x)); break;
					case 21: w = tanhf(x); break;
					default: w = 0; fail();
					}
					close_enough(o[i], w, 0.02f, 1e-3f, i, modes[mode]);
				}
			}
		}
	}
	free(a);
	free(b);
	free(o);
}

static void matmul(tt_device *dev, uint32_t mode, unsigned mt, unsigned kt,
		   unsigned nt)
{
	const uint32_t rta[4] = { mt, kt, nt, mode };
	struct prog p = one_kernel(dev, 14, TT_HART_COMPUTE, "compute_matmul",
				   rta, 4);
	uint32_t in0 = CB_BASE, in1 = in0 + mt * kt * BF16_TILE;
	uint32_t o = in1 + kt * nt * BF16_TILE;
	float *a = malloc(mt * kt * TILE * sizeof(float));
	float *b = malloc(kt * nt * TILE * sizeof(float));
	float *c = malloc(mt * nt * TILE * sizeof(float));

	assert_true(a && b && c);
	random_tiles(a, mt * kt, -1.0f, 1.0f);
	random_tiles(b, kt * nt, -1.0f, 1.0f);
	cb_add(&p, 0, in0, mt * kt, BF16_TILE, FMT_BF16);
	cb_add(&p, 1, in1, kt * nt, BF16_TILE, FMT_BF16);
	cb_add(&p, 16, o, mt * nt, BF16_TILE, FMT_BF16);
	put_tiles(dev, p.core, in0, a, mt * kt);
	put_tiles(dev, p.core, in1, b, kt * nt);
	start(dev, &p);
	wr32(dev, p.core, TT_REG_CB_ADDR + TT_CB_REG(0, TT_CB_RECEIVED),
	     mt * kt);
	wr32(dev, p.core, TT_REG_CB_ADDR + TT_CB_REG(1, TT_CB_RECEIVED),
	     kt * nt);
	finish(dev, &p);
	get_tiles(dev, p.core, o, c, mt * nt);
	for (unsigned m = 0; m < mt * 32; m++) {
		for (unsigned n = 0; n < nt * 32; n++) {
			float w = 0;
			unsigned at = (m / 32 * nt + n / 32) * TILE +
				      tidx(m % 32, n % 32);

			/* Mode 3 transposes each B tile in place. */
			for (unsigned k = 0; k < kt * 32; k++)
				w += a[(m / 32 * kt + k / 32) * TILE +
				       tidx(m % 32, k % 32)] *
				     b[(k / 32 * nt + n / 32) * TILE +
				       (mode == 3 ? tidx(n % 32, k % 32) :
						    tidx(k % 32, n % 32))];
			/* DST keeps bf16 between k steps. */
			close_enough(c[at], w, 0.02f, 0.05f, at, "matmul");
		}
	}
	free(a);
	free(b);
	free(c);
}

static void test_compute_matmul(void **state)
{
	NEED_COPROCESSOR(*state);
	matmul(*state, 0, 2, 3, 2);
	matmul(*state, 1, 2, 3, 2);
	matmul(*state, 2, 2, 3, 2);
	matmul(*state, 3, 2, 3, 2);
}

/* Reader (BRISC) -> compute add -> writer (NCRISC), through DRAM. */
static void test_compute_pipeline(void **state)
{
	tt_device *dev = *state;
	enum { N = 10 };
	uint32_t da = DRAM_BASE + 0x100000, db = da + 0x40000;
	uint32_t dc = db + 0x40000;
	const uint32_t rr[3] = { da, db, N }, rc[2] = { 1, N };
	const uint32_t rw[2] = { dc, N };
	struct prog p = one_kernel(dev, 15, TT_HART_COMPUTE, "compute_eltwise",
				   rc, 2);
	float *a = malloc(N * TILE * sizeof(float));
	float *b = malloc(N * TILE * sizeof(float));
	float *o = malloc(N * TILE * sizeof(float));
	unsigned nb = banks.dram_banks;

	NEED_COPROCESSOR(dev);
	assert_true(a && b && o);
	random_tiles(a, N, -4.0f, 4.0f);
	random_tiles(b, N, -4.0f, 4.0f);
	/* Tile i of each buffer in DRAM bank i % nb. */
	for (unsigned i = 0; i < N; i++) {
		struct tt_xy bank = { banks.dram_xy[i % nb] & 0xFF,
				      banks.dram_xy[i % nb] >> 8 };

		put_tiles(dev, bank, da + i / nb * BF16_TILE, a + i * TILE, 1);
		put_tiles(dev, bank, db + i / nb * BF16_TILE, b + i * TILE, 1);
	}
	p.hart[0] = (struct kspec){ .name = "reader", .rta = rr, .nrta = 3 };
	p.hart[1] = (struct kspec){ .name = "writer", .rta = rw, .nrta = 2,
				    .noc = 1 };
	cb_add(&p, 0, CB_BASE, 2, BF16_TILE, FMT_BF16);
	cb_add(&p, 1, CB_BASE + 2 * BF16_TILE, 2, BF16_TILE, FMT_BF16);
	cb_add(&p, 16, CB_BASE + 4 * BF16_TILE, 2, BF16_TILE, FMT_BF16);
	for (unsigned h = 0; h < 3; h++)
		p.hart[h].flags = TT_KCTX_F_CB_CHECKS;
	run(dev, &p);
	for (unsigned i = 0; i < N; i++) {
		struct tt_xy bank = { banks.dram_xy[i % nb] & 0xFF,
				      banks.dram_xy[i % nb] >> 8 };

		get_tiles(dev, bank, dc + i / nb * BF16_TILE, o + i * TILE, 1);
	}
	for (unsigned i = 0; i < N * TILE; i++)
		close_enough(o[i], a[i] + b[i], 0.01f, 1e-3f, i, "pipeline");
	free(a);
	free(b);
	free(o);
}

/* With fp32 DST (DST_ACCUM_MODE=1), Float32 tiles keep every bit; and
 * reduce_tile() by the REDUCE_OP/REDUCE_DIM defines (max over columns). */
static void test_compute_fp32_and_reduce_defines(void **state)
{
	tt_device *dev = *state;
	enum { N = 2 };
	float *a = malloc(N * TILE * sizeof(float));
	float *o = malloc(N * TILE * sizeof(float));

	NEED_COPROCESSOR(dev);
	assert_true(a && o);
	for (unsigned i = 0; i < N * TILE; i++)
		a[i] = (float)(rand() - RAND_MAX / 2) / 3e6f;
	eltwise_in(dev, "compute_eltwise_fp32", 0, FMT_F32, a, a, o, N);
	assert_memory_equal(o, a, N * F32_TILE);
	eltwise_in(dev, "compute_eltwise_fp32", 16, FMT_F32, a, a, o, N);
	for (unsigned t = 0; t < N; t++) {
		for (unsigned c = 0; c < 32; c++) {
			float w = -INFINITY;

			for (unsigned r = 0; r < 32; r++)
				w = fmaxf(w, a[t * TILE + tidx(r, c)]);
			close_enough(o[t * TILE + tidx(0, c)], w, 1e-3f, 0,
				     t * TILE + tidx(0, c), "reduce max col");
		}
	}
	free(a);
	free(o);
}

/* tilize_block and untilize_block: a row-major block of 32 rows by 96
 * values against 3 tiles, exactly (bf16 values). */
static void test_compute_tilize(void **state)
{
	tt_device *dev = *state;
	enum { N = 3, W = 32 * N };
	float rm[32 * W], tiles[N * TILE], got[N * TILE];

	NEED_COPROCESSOR(dev);
	random_tiles(rm, N, -8.0f, 8.0f);
	for (unsigned t = 0; t < N; t++)
		for (unsigned r = 0; r < 32; r++)
			for (unsigned c = 0; c < 32; c++)
				tiles[t * TILE + tidx(r, c)] =
					rm[r * W + t * 32 + c];
	for (uint32_t mode = 0; mode < 2; mode++) {
		const uint32_t rta[2] = { mode, N };
		struct prog p = one_kernel(dev, 16, TT_HART_COMPUTE,
					   "compute_tilize", rta, 2);

		cb_add(&p, 0, CB_BASE, N, BF16_TILE, FMT_BF16);
		cb_add(&p, 16, CB_BASE + N * BF16_TILE, N, BF16_TILE,
		       FMT_BF16);
		/* Pages are pages: the same bytes either way. */
		put_tiles(dev, p.core, CB_BASE, mode ? tiles : rm, N);
		p.hart[2].flags = TT_KCTX_F_CB_CHECKS;
		start(dev, &p);
		wr32(dev, p.core, TT_REG_CB_ADDR + TT_CB_REG(0, TT_CB_RECEIVED),
		     N);
		finish(dev, &p);
		get_tiles(dev, p.core, CB_BASE + N * BF16_TILE, got, N);
		assert_memory_equal(got, mode ? rm : tiles, sizeof(got));
	}
}

static void test_compute_errors(void **state)
{
	tt_device *dev = *state;
	float a[TILE] = { 0 };
	uint32_t rta[2] = { 13, 1 };
	struct prog p;

	static const char *const what[] = {
		"copy_tile: DST index 8 beyond the 8 usable DST tiles\n",
		"CB misuse: pack_tile writes page 1 of CB 16, which has 1 pages reserved (cb_reserve_back)\n",
		"copy_tile: DST index 4 beyond the 4 usable DST tiles\n",
	};

	NEED_COPROCESSOR(dev);
	for (int k = 0; k < 3; k++) {
		memset(&p, 0, sizeof(p));
		p.core = fail_core(dev);
		rta[0] = k == 1 ? 14 : 13;
		p.hart[2] = (struct kspec){
			.name = k == 2 ? "compute_eltwise_fp32" :
					 "compute_eltwise",
			.rta = rta, .nrta = 2,
			.flags = TT_KCTX_F_CB_CHECKS };
		cb_add(&p, 0, CB_BASE, 1, BF16_TILE, FMT_BF16);
		cb_add(&p, 16, CB_BASE + BF16_TILE, 1, BF16_TILE, FMT_BF16);
		put_tiles(dev, p.core, CB_BASE, a, 1);
		start(dev, &p);
		wr32(dev, p.core, TT_REG_CB_ADDR + TT_CB_REG(0, TT_CB_RECEIVED),
		     1);
		expect_report(dev, p.core, 2, what[k]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_cb_stream_wraps),
		cmocka_unit_test(test_cb_stream_steps),
		cmocka_unit_test(test_noc_interleaved_dram),
		cmocka_unit_test(test_noc_interleaved_l1),
		cmocka_unit_test(test_multicast),
		cmocka_unit_test(test_semaphore_pingpong),
		cmocka_unit_test(test_dprint_formats),
		cmocka_unit_test(test_dprint_waits_for_reader),
		cmocka_unit_test(test_dprint_tile_slices),
		cmocka_unit_test(test_dprint_tile_slice_pointers_and_errors),
		cmocka_unit_test(test_compute_eltwise),
		cmocka_unit_test(test_compute_matmul),
		cmocka_unit_test(test_compute_pipeline),
		cmocka_unit_test(test_compute_fp32_and_reduce_defines),
		cmocka_unit_test(test_compute_tilize),
		cmocka_unit_test_teardown(test_cb_misuse_reported, reset_after),
		cmocka_unit_test_teardown(test_cb_misuse_unchecked, reset_after),
		cmocka_unit_test_teardown(test_error_reports, reset_after),
		cmocka_unit_test_teardown(test_noc_errors_reported, reset_after),
		cmocka_unit_test_teardown(test_compute_errors, reset_after),
	};

	return cmocka_run_group_tests_name("kapi", tests, setup, booted_down);
}
