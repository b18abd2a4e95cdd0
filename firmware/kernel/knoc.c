// SPDX-License-Identifier: Apache-2.0
/*
 * NOC commands of the kernel API (kernel_api/noc.h) on this hart's
 * command buffer of each NOC (hw/niu.h): buffer = hart index.
 *
 * The model usually runs a command as its ISSUE store retires; when it
 * has not (the NOC engine took it), the command is remembered as pending
 * and the next command or barrier on that NOC waits for it. A buffer
 * holds one command, so the buffer being idle means everything this hart
 * issued on that NOC is done. Every command's STATUS is checked: a
 * refused one is reported with what it was, and the kernel halts.
 *
 * Command registers keep their values, so only the ones that change are
 * written (the shadow); the core firmware uses the buffers between runs,
 * so the shadow starts unknown every run: at a NOC's first command, so
 * a kernel that uses one NOC or none pays nothing for the other.
 */
#include "kinternal.h"

#include "hw/niu.h"
#include "kernel_api/noc.h"

/* A command, as the kernel asked for it (NOC 0 coordinates). */
struct noc_op {
	const char *name;
	uint32_t x, y; /* target, or the rectangle's end corner */
	uint32_t x0, y0; /* multicast: start corner */
	bool mcast;
	uint64_t addr; /* local address at the target */
	uint32_t len;
};

#define NREGS (TT_NIU_CMD_INCR / 4 + 1)

struct noc_state {
	volatile uint32_t *buf; /* this hart's command buffer */
	uint32_t shadow[NREGS]; /* ~0: unknown */
	struct noc_op pending; /* the command still running, if any */
	uint32_t stage; /* source word of inline writes */
};

union ttk_noc_flags ttk_noc_flags __attribute__((section(".ttk.noinit")));
/* Not zeroed at each start: setup() fills what is read before it is
 * written. */
static struct noc_state nocs[2] __attribute__((section(".ttk.noinit")));

static void setup(uint32_t noc)
{
	struct noc_state *s = &nocs[noc];

	s->buf = (volatile uint32_t *)(uintptr_t)(TT_REG_NIU_ADDR(noc) +
						  TT_NIU_CMD(ttk_hart, 0));
	for (uint32_t i = 0; i < NREGS; i++)
		s->shadow[i] = ~0u;
	ttk_noc_flags.ready[noc] = 1;
}

static __attribute__((noreturn)) void refused(const struct noc_op *op,
					      uint32_t status)
{
	if (op->mcast)
		ttk_fatal("NOC %s to (%u,%u)-(%u,%u) 0x%llx len %u refused (error %u)",
			  op->name, (unsigned)op->x0, (unsigned)op->y0,
			  (unsigned)op->x, (unsigned)op->y,
			  (unsigned long long)op->addr, (unsigned)op->len,
			  (unsigned)status);
	ttk_fatal("NOC %s to (%u,%u) 0x%llx len %u refused (error %u)",
		  op->name, (unsigned)op->x, (unsigned)op->y,
		  (unsigned long long)op->addr, (unsigned)op->len,
		  (unsigned)status);
}

void ttk_noc_finish(uint32_t noc)
{
	struct noc_state *s = &nocs[noc & 1];
	volatile uint32_t *issue = &s->buf[TT_NIU_CMD_ISSUE / 4];
	uint32_t v = *issue, status;

	if (v) {
		TTK_SET_WAYPOINT("NBW");
		while ((v = *issue) != 0)
			tt_wait_ne(issue, v);
		TTK_SET_WAYPOINT("NBD");
	}
	ttk_noc_flags.pending[noc & 1] = 0;
	status = s->buf[TT_NIU_CMD_STATUS / 4];
	if (status)
		refused(&s->pending, status);
}

void ttk_noc_teardown(void)
{
	/* A NOC the kernel never used has nothing in flight. */
	if (ttk_noc_flags.ready[0])
		ttk_noc_barrier(0);
	if (ttk_noc_flags.ready[1])
		ttk_noc_barrier(1);
}

static void set(struct noc_state *s, uint32_t reg, uint32_t val)
{
	if (s->shadow[reg / 4] != val) {
		s->shadow[reg / 4] = val;
		s->buf[reg / 4] = val;
	}
}

/* A coordinate as the command's NOC sees it. */
static uint32_t on_noc(uint32_t noc, uint32_t c, bool is_y)
{
	uint32_t grid;

	if (!noc)
		return c;
	grid = is_y ? ttk_bank_table()->grid_y : ttk_bank_table()->grid_x;
	if (TTK_UNLIKELY(c >= grid))
		ttk_fatal("NOC 1 command to coordinate %u outside the %u nodes of the grid (bank table at 0x%x)",
			  (unsigned)c, (unsigned)grid,
			  (unsigned)TT_L1_BANKS);
	return grid - 1 - c;
}

static void issue(uint32_t noc, uint32_t ctrl, const struct noc_op *op,
		  uint32_t local, uint32_t incr)
{
	struct noc_state *s = &nocs[noc];
	uint32_t coord;

	if (ttk_noc_flags.pending[noc])
		ttk_noc_finish(noc);
	if (TTK_UNLIKELY(!ttk_noc_flags.ready[noc]))
		setup(noc);
	coord = TT_FIELD_PREP(TT_NIU_COORD_X_MASK,
			      on_noc(noc, op->x, false)) |
		TT_FIELD_PREP(TT_NIU_COORD_Y_MASK,
			      on_noc(noc, op->y, true));
	if (op->mcast)
		coord |= TT_FIELD_PREP(TT_NIU_COORD_X_START_MASK,
				       on_noc(noc, op->x0, false)) |
			 TT_FIELD_PREP(TT_NIU_COORD_Y_START_MASK,
				       on_noc(noc, op->y0, true));
	set(s, TT_NIU_CMD_TARG_LO, (uint32_t)op->addr);
	set(s, TT_NIU_CMD_TARG_HI, (uint32_t)(op->addr >> 32));
	set(s, TT_NIU_CMD_TARG_COORD, coord);
	set(s, TT_NIU_CMD_RET_LO, local);
	set(s, TT_NIU_CMD_RET_HI, 0);
	set(s, TT_NIU_CMD_LEN, op->len);
	set(s, TT_NIU_CMD_CTRL, ctrl);
	set(s, TT_NIU_CMD_INCR, incr);
	/* What the command reads from L1 is there before it starts. */
	ttk_fence();
	s->buf[TT_NIU_CMD_ISSUE / 4] = 1;
	if (TTK_UNLIKELY(s->buf[TT_NIU_CMD_ISSUE / 4] != 0)) {
		s->pending = *op;
		ttk_noc_flags.pending[noc] = 1;
		return;
	}
	if (TTK_UNLIKELY(s->buf[TT_NIU_CMD_STATUS / 4] != 0))
		refused(op, s->buf[TT_NIU_CMD_STATUS / 4]);
}

static void unicast(uint32_t noc, const char *name, uint32_t ctrl,
		    uint64_t addr, uint32_t local, uint32_t len,
		    uint32_t incr)
{
	struct noc_op op = {
		.name = name,
		.x = ttk_noc_x(addr),
		.y = ttk_noc_y(addr),
		.addr = addr & TTK_NOC_LOCAL_MASK,
		.len = len,
	};

	issue(noc & 1, ctrl, &op, local, incr);
}

void ttk_noc_read(uint32_t noc, uint64_t src, uint32_t dst, uint32_t len)
{
	unicast(noc, "read", TT_NIU_OP_READ, src, dst, len, 0);
}

void ttk_noc_write(uint32_t noc, uint32_t src, uint64_t dst, uint32_t len)
{
	unicast(noc, "write", TT_NIU_OP_WRITE, dst, src, len, 0);
}

void ttk_noc_atomic_inc(uint32_t noc, uint64_t dst, uint32_t incr)
{
	unicast(noc, "atomic increment",
		TT_NIU_OP_ATOMIC_INC | TT_FIELD_PREP(TT_NIU_CTRL_WRAP_MASK, 31),
		dst, 0, 4, incr);
}

void ttk_noc_inline_write(uint32_t noc, uint64_t dst, uint32_t val,
			  uint32_t be)
{
	struct noc_state *s = &nocs[noc & 1];
	uint32_t local = (uint32_t)(uintptr_t)&s->stage;

	/* The staged word is the source of a command still running. */
	if (ttk_noc_flags.pending[noc & 1])
		ttk_noc_finish(noc);
	s->stage = val;
	if ((be & 0xF) == 0xF) {
		unicast(noc, "inline write", TT_NIU_OP_WRITE, dst, local, 4, 0);
		return;
	}
	/* Each run of enabled bytes is one write. */
	for (uint32_t b = 0; b < 4;) {
		uint32_t n = 0;

		if (!(be & (1u << b))) {
			b++;
			continue;
		}
		while (b + n < 4 && (be & (1u << (b + n))))
			n++;
		unicast(noc, "inline write", TT_NIU_OP_WRITE, dst + b,
			local + b, n, 0);
		b += n;
	}
}

static void mcast_rect(uint32_t noc, uint32_t src, uint32_t x0, uint32_t y0,
		       uint32_t x1, uint32_t y1, uint64_t addr, uint32_t len)
{
	struct noc_op op = {
		.name = "multicast",
		.x0 = x0,
		.y0 = y0,
		.x = x1,
		.y = y1,
		.mcast = true,
		.addr = addr,
		.len = len,
	};

	issue(noc, TT_NIU_OP_WRITE | TT_NIU_CTRL_MCAST, &op, src, 0);
}

static uint32_t umin(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static uint32_t umax(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/*
 * The NIU delivers to every enabled Tensix node of the rectangle, this
 * one included. TT-Metal's plain multicast leaves the sender out, so the
 * rectangle is sent around it: the rows above and below, then the parts
 * of its own row left and right of it.
 */
void ttk_noc_mcast(uint32_t noc, uint32_t src, uint64_t dst, uint32_t len,
		   bool loopback)
{
	uint32_t xe = ttk_noc_x(dst), ye = ttk_noc_y(dst);
	uint32_t xs = (uint32_t)(dst >> 48) & 0x3F;
	uint32_t ys = (uint32_t)(dst >> 54) & 0x3F;
	uint32_t xa = umin(xs, xe), xb = umax(xs, xe);
	uint32_t ya = umin(ys, ye), yb = umax(ys, ye);
	uint32_t sx = my_x[0], sy = my_y[0];
	uint64_t addr = dst & TTK_NOC_LOCAL_MASK;

	noc &= 1;
	if (loopback || sx < xa || sx > xb || sy < ya || sy > yb) {
		mcast_rect(noc, src, xa, ya, xb, yb, addr, len);
		return;
	}
	if (sy > ya)
		mcast_rect(noc, src, xa, ya, xb, sy - 1, addr, len);
	if (sy < yb)
		mcast_rect(noc, src, xa, sy + 1, xb, yb, addr, len);
	if (sx > xa)
		mcast_rect(noc, src, xa, sy, sx - 1, sy, addr, len);
	if (sx < xb)
		mcast_rect(noc, src, sx + 1, sy, xb, sy, addr, len);
}
