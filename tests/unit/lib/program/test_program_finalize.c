// SPDX-License-Identifier: Apache-2.0
/*
 * Programs bound to a device (program_internal.h): cores checked against
 * the logical grid, the per-core layout the dispatcher reads (kernel
 * contexts, arguments, CB tables, semaphores), static CB placement and its
 * clash with L1 buffers, dynamic CBs, generations, in-place argument
 * updates, finalize speed. Kernels are not built here (skip_build):
 * test_program_build.c builds them.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "lib/memory/alloc.h"
#include "lib/program/program_internal.h"
#include "tt.h"

#define assert_error_contains(s)                                         \
	do {                                                             \
		if (!strstr(tt_last_error(), (s)))                       \
			fail_msg("error '%s' lacks '%s'", tt_last_error(), \
				 (s));                                   \
	} while (0)

static const char src[] = "void kernel_main(void) {}\n";
static const struct tt_program_limits no_build = { .skip_build = true };

struct fixture {
	tt_device *dev;
	tt_program *p;
	unsigned w, h;
};

static struct tt_xy xy(unsigned x, unsigned y)
{
	struct tt_xy c = { x, y };

	return c;
}

static int open_device(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || tt_device_open(0, &f->dev) ||
	    tt_device_logical_grid(f->dev, &f->w, &f->h))
		return -1;
	*state = f;
	return 0;
}

static int close_device(void **state)
{
	struct fixture *f = *state;

	tt_device_close(f->dev);
	free(f);
	return 0;
}

static int new_program(void **state)
{
	struct fixture *f = *state;

	return tt_create_program(&f->p);
}

static int free_program(void **state)
{
	struct fixture *f = *state;

	tt_program_free(f->p);
	f->p = NULL;
	return 0;
}

static tt_kernel_handle kernel_on(tt_program *p, struct tt_core_range_set s,
				  struct tt_kernel_config c)
{
	tt_kernel_handle k = 99;

	if (tt_create_kernel_from_string(p, src, &s, &c, &k))
		fail_msg("%s", tt_last_error());
	return k;
}

static tt_cb_handle cb_on(tt_program *p, struct tt_core_range_set s,
			  uint32_t total, unsigned index, uint32_t page)
{
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(total, index, TT_FLOAT16_B, page);
	tt_cb_handle h = 99;

	if (tt_create_circular_buffer(p, &s, &c, &h))
		fail_msg("%s", tt_last_error());
	return h;
}

static void finalize_ok(struct fixture *f, const struct tt_program_limits *l)
{
	if (tt_program_finalize(f->p, f->dev, l))
		fail_msg("%s", tt_last_error());
}

static const struct tt_program_core *core_of(struct fixture *f, unsigned x,
					     unsigned y)
{
	unsigned n;
	const struct tt_program_core *c = tt_program_cores(f->p, &n);

	for (unsigned i = 0; i < n; i++)
		if (c[i].logical.x == x && c[i].logical.y == y)
			return &c[i];
	return NULL;
}

/* ---- validation against the device ---- */

static void test_outside_grid(void **state)
{
	struct fixture *f = *state;
	struct tt_core_range_set in = tt_core_range_set_of_core(0, 0);
	struct tt_core_range_set out =
		tt_core_range_set_of_range(f->w - 1, 2, f->w + 3, 2);
	char want[128];
	uint32_t id;

	kernel_on(f->p, in, tt_compute_config());
	finalize_ok(f, &no_build);
	kernel_on(f->p, out, tt_reader_config());
	assert_int_equal(tt_program_finalize(f->p, f->dev, &no_build), -EINVAL);
	snprintf(want, sizeof(want),
		 "kernel 1 is placed on core (%u,2), outside the %ux%u logical grid of ",
		 f->w, f->w, f->h);
	assert_error_contains(want);
	/* The failed finalize leaves no layout. */
	assert_null(tt_program_cores(f->p, &id));
	assert_int_equal(id, 0);
	tt_program_free(f->p);

	assert_int_equal(tt_create_program(&f->p), 0);
	out = tt_core_range_set_of_range(0, f->h, 0, f->h);
	cb_on(f->p, out, 2048, 0, 2048);
	assert_int_equal(tt_program_finalize(f->p, f->dev, &no_build), -EINVAL);
	snprintf(want, sizeof(want), "circular buffer 0 is placed on core (0,%u)",
		 f->h);
	assert_error_contains(want);
	tt_program_free(f->p);

	assert_int_equal(tt_create_program(&f->p), 0);
	assert_int_equal(tt_create_semaphore(f->p, &out, 1, TT_CORE_TENSIX,
					     &id),
			 0);
	assert_int_equal(tt_program_finalize(f->p, f->dev, &no_build), -EINVAL);
	assert_error_contains("semaphore 0 is placed on core");
	assert_int_equal(tt_program_finalize(NULL, f->dev, &no_build), -EINVAL);
	assert_int_equal(tt_program_finalize(f->p, NULL, &no_build), -EINVAL);
}

/* ---- the per-core layout ---- */

static void test_layout(void **state)
{
	struct fixture *f = *state;
	struct tt_core_range_set all = tt_core_range_set_of_range(0, 0, 1, 1);
	struct tt_core_range_set right = tt_core_range_set_of_range(1, 0, 1, 1);
	struct tt_core_range_set extra = tt_core_range_set_of_core(3, 2);
	uint32_t a[3] = { 7, 8, 9 }, common[2] = { 100, 200 }, *got, sem;
	tt_kernel_handle r, w, c;
	const struct tt_program_core *cores, *x;
	unsigned n;

	r = kernel_on(f->p, all, tt_reader_config());
	w = kernel_on(f->p, right, tt_writer_config());
	c = kernel_on(f->p, all, tt_compute_config());
	assert_int_equal(tt_set_runtime_args(f->p, r, xy(1, 1), a, 3), 0);
	assert_int_equal(tt_set_common_runtime_args(f->p, r, common, 2), 0);
	assert_int_equal(tt_set_runtime_args(f->p, c, xy(0, 1), a, 1), 0);
	cb_on(f->p, all, 4096, 0, 2048);
	assert_int_equal(tt_create_semaphore(f->p, &extra, 5, TT_CORE_TENSIX,
					     &sem),
			 0);
	assert_null(tt_program_cores(f->p, &n));
	finalize_ok(f, &no_build);

	cores = tt_program_cores(f->p, &n);
	assert_int_equal(n, 5);
	/* Logical order: (0,0), (1,0), (0,1), (1,1), (3,2). */
	assert_int_equal(cores[1].logical.x, 1);
	assert_int_equal(cores[2].logical.y, 1);
	assert_int_equal(cores[4].logical.x, 3);
	for (unsigned i = 0; i < n; i++) {
		struct tt_xy noc;

		assert_int_equal(tt_device_worker_core(f->dev, cores[i].logical,
						       &noc),
				 0);
		assert_int_equal(cores[i].noc.x, noc.x);
		assert_int_equal(cores[i].noc.y, noc.y);
	}

	x = core_of(f, 1, 1);
	assert_int_equal(x->kernel[TT_HART_BRISC], w);
	assert_int_equal(x->kernel[TT_HART_NCRISC], r);
	assert_int_equal(x->kernel[TT_HART_COMPUTE], c);
	/* The reader's context: args at its hart's area, common after. */
	assert_int_equal(x->ctx[TT_HART_NCRISC].rta, TT_L1_RTA(TT_HART_NCRISC));
	assert_int_equal(x->ctx[TT_HART_NCRISC].rta_count, 3);
	assert_int_equal(x->ctx[TT_HART_NCRISC].crta,
			 TT_L1_RTA(TT_HART_NCRISC) + 12);
	assert_int_equal(x->ctx[TT_HART_NCRISC].crta_count, 2);
	assert_int_equal(x->ctx[TT_HART_NCRISC].noc, 1);
	assert_int_equal(x->ctx[TT_HART_NCRISC].kernel_id, r);
	assert_int_equal(x->ctx[TT_HART_NCRISC].cb_mask, 1);
	assert_int_equal(x->ctx[TT_HART_NCRISC].flags, 0);
	assert_int_equal(tt_get_runtime_args(f->p, r, xy(1, 1), &got, &n), 0);
	assert_ptr_equal(x->rta[TT_HART_NCRISC], got);
	assert_int_equal(x->crta[TT_HART_NCRISC][1], 200);
	/* The writer: no args set. */
	assert_int_equal(x->ctx[TT_HART_BRISC].rta_count, 0);
	assert_int_equal(x->ctx[TT_HART_BRISC].crta,
			 TT_L1_RTA(TT_HART_BRISC));
	assert_null(x->rta[TT_HART_BRISC]);
	assert_null(x->crta[TT_HART_BRISC]);
	assert_int_equal(x->ctx[TT_HART_BRISC].noc, 0);
	assert_int_equal(x->ctx[TT_HART_COMPUTE].rta_count, 0);

	x = core_of(f, 0, 1);
	assert_int_equal(x->kernel[TT_HART_BRISC], -1);
	assert_int_equal(x->ctx[TT_HART_COMPUTE].rta_count, 1);
	assert_memory_equal(&x->ctx[TT_HART_BRISC],
			    &(struct tt_kernel_ctx){ 0 },
			    sizeof(struct tt_kernel_ctx));
	assert_int_equal(x->sem_mask, 0);

	/* A core with only a semaphore. */
	x = core_of(f, 3, 2);
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
		assert_int_equal(x->kernel[h], -1);
	assert_null(x->cbs);
	assert_int_equal(x->cb_end, TT_L1_PROG_UNRESERVED);
	assert_int_equal(x->sem_mask, 1u << sem);
	assert_int_equal(x->sem[sem], 5);

	/* Cores with the same CBs share one table. */
	assert_ptr_equal(core_of(f, 0, 0)->cbs, core_of(f, 1, 1)->cbs);
	assert_int_equal(core_of(f, 0, 0)->cbs->mask, 1);
}

static void test_semaphore_values(void **state)
{
	struct fixture *f = *state;
	struct tt_core_range_set a = tt_core_range_set_of_range(0, 0, 1, 0);
	struct tt_core_range_set b = tt_core_range_set_of_range(1, 0, 2, 0);
	uint32_t i0, i1;

	assert_int_equal(tt_create_semaphore(f->p, &a, 11, TT_CORE_TENSIX,
					     &i0),
			 0);
	assert_int_equal(tt_create_semaphore(f->p, &b, 22, TT_CORE_TENSIX,
					     &i1),
			 0);
	finalize_ok(f, &no_build);
	assert_int_equal(i1, 1);
	assert_int_equal(core_of(f, 0, 0)->sem_mask, 1);
	assert_int_equal(core_of(f, 0, 0)->sem[0], 11);
	assert_int_equal(core_of(f, 1, 0)->sem_mask, 3);
	assert_int_equal(core_of(f, 1, 0)->sem[1], 22);
	assert_int_equal(core_of(f, 2, 0)->sem_mask, 2);
	assert_int_equal(core_of(f, 2, 0)->sem[0], 0);
}

/* ---- static circular buffers ---- */

static void assert_cb(const struct tt_program_core *c, unsigned index,
		      uint32_t addr, uint32_t size, uint32_t page)
{
	const struct tt_cb_config *e;

	assert_non_null(c->cbs);
	assert_true(c->cbs->mask & 1u << index);
	e = &c->cbs->cb[index];
	assert_int_equal(e->addr, addr);
	assert_int_equal(e->size, size);
	assert_int_equal(e->page_size, page);
	assert_int_equal(e->num_pages, size / page);
	assert_int_equal(e->format, TT_FLOAT16_B);
}

static void test_cb_placement(void **state)
{
	struct fixture *f = *state;
	const uint32_t base = TT_L1_PROG_UNRESERVED;
	struct tt_circular_buffer_config shared =
		tt_circular_buffer_config(8192, 2, TT_FLOAT16_B, 2048);

	/* CB 0 on (0,0) only; CB 1 on (0,0)-(1,0) starts above CB 0 on
	 * both cores (one address on all its cores); CB 2 on (1,0)-(2,0)
	 * above CB 1; sizes not multiples of 32 are aligned up. */
	cb_on(f->p, tt_core_range_set_of_core(0, 0), 100, 0, 50);
	cb_on(f->p, tt_core_range_set_of_range(0, 0, 1, 0), 4096, 1, 2048);
	cb_on(f->p, tt_core_range_set_of_range(1, 0, 2, 0), 64, 3, 64);
	assert_int_equal(tt_circular_buffer_config_add(&shared, 4, TT_FLOAT16_B,
						       1024),
			 0);
	{
		struct tt_core_range_set s = tt_core_range_set_of_core(2, 0);
		tt_cb_handle h;

		assert_int_equal(tt_create_circular_buffer(f->p, &s, &shared,
							   &h),
				 0);
	}
	finalize_ok(f, &no_build);

	assert_cb(core_of(f, 0, 0), 0, base, 100, 50);
	assert_cb(core_of(f, 0, 0), 1, base + 128, 4096, 2048);
	assert_cb(core_of(f, 1, 0), 1, base + 128, 4096, 2048);
	assert_cb(core_of(f, 1, 0), 3, base + 128 + 4096, 64, 64);
	assert_cb(core_of(f, 2, 0), 3, base + 128 + 4096, 64, 64);
	/* Two indices sharing one allocation. */
	assert_cb(core_of(f, 2, 0), 2, base + 128 + 4096 + 64, 8192, 2048);
	assert_cb(core_of(f, 2, 0), 4, base + 128 + 4096 + 64, 8192, 1024);
	assert_int_equal(core_of(f, 0, 0)->cbs->mask, 0x3);
	assert_int_equal(core_of(f, 2, 0)->cbs->mask, 0x1c);
	assert_int_equal(core_of(f, 0, 0)->cb_end, base + 128 + 4096);
	assert_int_equal(core_of(f, 2, 0)->cb_end,
			 base + 128 + 4096 + 64 + 8192);
	assert_int_equal(core_of(f, 2, 0)->cbs->cb[0].addr, 0);
}

static void test_cb_updates_after_finalize(void **state)
{
	struct fixture *f = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 1, 0);
	struct tt_circular_buffer_config got;
	tt_cb_handle a = cb_on(f->p, s, 4096, 0, 2048);
	tt_cb_handle b = cb_on(f->p, s, 2048, 1, 1024);
	uint64_t gen;

	finalize_ok(f, &no_build);
	gen = tt_program_generation(f->p);
	assert_cb(core_of(f, 1, 0), 1, TT_L1_PROG_UNRESERVED + 4096, 2048,
		  1024);

	assert_int_equal(tt_update_circular_buffer_total_size(f->p, a, 8192),
			 0);
	assert_int_equal(tt_update_circular_buffer_page_size(f->p, b, 1, 512),
			 0);
	assert_int_equal(tt_get_circular_buffer_config(f->p, a, &got), 0);
	assert_int_equal(got.total_size, 8192);
	assert_int_equal(tt_get_circular_buffer_config(f->p, b, &got), 0);
	assert_int_equal(got.formats[0].page_size, 512);
	finalize_ok(f, &no_build);
	assert_true(tt_program_generation(f->p) > gen);
	assert_cb(core_of(f, 0, 0), 0, TT_L1_PROG_UNRESERVED, 8192, 2048);
	assert_cb(core_of(f, 1, 0), 1, TT_L1_PROG_UNRESERVED + 8192, 2048, 512);
	assert_int_equal(core_of(f, 1, 0)->cbs->cb[1].num_pages, 4);
}

static uint64_t fake_lowest;

static uint64_t fake_l1_limit(struct tt_device *dev, struct tt_xy logical)
{
	(void)dev;
	/* An L1 buffer only on the cores of row 1. */
	return logical.y == 1 ? fake_lowest : UINT64_MAX;
}

static void test_cb_clash(void **state)
{
	struct fixture *f = *state;
	const struct tt_program_limits lim = { .l1_cb_limit = fake_l1_limit,
					       .skip_build = true };
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 1, 1);
	const struct tt_program_core *c;
	char want[256];
	unsigned n;

	cb_on(f->p, s, 64 * 1024, 0, 2048);
	fake_lowest = TT_L1_PROG_UNRESERVED + 64 * 1024;
	finalize_ok(f, &lim); /* ends exactly at the buffer */
	c = tt_program_cores(f->p, &n);
	assert_non_null(c);
	/* Buffers allocated since: the next finalize (nothing else changed)
	 * still checks. */
	fake_lowest -= 2048;
	assert_int_equal(tt_program_finalize(f->p, f->dev, &lim), -ENOMEM);
	snprintf(want, sizeof(want),
		 "circular buffers in program %u clash with L1 buffers on core (0,1): L1 buffer allocated at 0x%x and static circular buffer region ends at 0x%x",
		 tt_program_id(f->p), (unsigned)fake_lowest,
		 TT_L1_PROG_UNRESERVED + 64 * 1024);
	assert_error_contains(want);
	/* Growing the CB: the same. */
	fake_lowest += 2048;
	finalize_ok(f, &lim);
	assert_int_equal(tt_update_circular_buffer_total_size(f->p, 0,
							      128 * 1024),
			 0);
	assert_int_equal(tt_program_finalize(f->p, f->dev, &lim), -ENOMEM);
	assert_error_contains("clash with L1 buffers on core (0,1)");

	/* No L1 buffers: the limit is the end of usable L1. */
	assert_int_equal(tt_update_circular_buffer_total_size(
				 f->p, 0, (uint32_t)tt_device_get_info(f->dev)->l1_size),
			 0);
	assert_int_equal(tt_program_finalize(f->p, f->dev, &no_build), -ENOMEM);
	assert_error_contains("grow to 0x");
	assert_error_contains("beyond the usable L1 of");
	assert_int_equal(tt_update_circular_buffer_total_size(f->p, 0,
							      0xfffff800u),
			 0);
	assert_int_equal(tt_program_finalize(f->p, f->dev, &no_build), -ENOMEM);
	assert_error_contains("does not fit in L1");
}

/* The same with the allocator's answer, as the dispatcher asks it. */
static void test_cb_clash_with_l1_buffer(void **state)
{
	struct fixture *f = *state;
	const struct tt_program_limits lim = {
		.l1_cb_limit = tt_alloc_l1_lowest,
		.skip_build = true,
	};
	struct tt_buffer_config bc = { .device = f->dev, .page_size = 65536,
				       .type = TT_BUFFER_L1 };
	struct tt_core_range_set s = tt_core_range_set_of_core(1, 1);
	uint32_t room;
	tt_buffer *buf;
	char want[256];

	/* 8 pages in every bank: 512 KiB at the top of each core's L1. */
	bc.size = 65536ull * 8 * f->w * f->h;
	assert_int_equal(tt_create_buffer(&bc, &buf), 0);
	room = (uint32_t)tt_buffer_address(buf) - TT_L1_PROG_UNRESERVED;
	cb_on(f->p, s, room, 0, 32);
	finalize_ok(f, &lim);
	assert_int_equal(tt_update_circular_buffer_total_size(f->p, 0,
							      room + 32),
			 0);
	assert_int_equal(tt_program_finalize(f->p, f->dev, &lim), -ENOMEM);
	snprintf(want, sizeof(want),
		 "circular buffers in program %u clash with L1 buffers on core (1,1): L1 buffer allocated at 0x%" PRIx64 " and static circular buffer region ends at 0x%x",
		 tt_program_id(f->p), tt_buffer_address(buf),
		 TT_L1_PROG_UNRESERVED + room + 32);
	assert_error_contains(want);
	/* Gone, the buffer leaves room again. */
	tt_buffer_free(buf);
	finalize_ok(f, &lim);
}

/* ---- dynamic circular buffers ---- */

static tt_buffer *l1_buffer(struct fixture *f, uint64_t size)
{
	struct tt_buffer_config c = {
		.device = f->dev,
		.size = size,
		.page_size = size,
		.type = TT_BUFFER_L1,
	};
	tt_buffer *b;

	if (tt_create_buffer(&c, &b))
		fail_msg("%s", tt_last_error());
	return b;
}

static void test_dynamic_cb(void **state)
{
	struct fixture *f = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 1, 0);
	tt_buffer *b1 = l1_buffer(f, 8192), *b2 = l1_buffer(f, 4096);
	tt_buffer *small = l1_buffer(f, 2048);
	struct tt_buffer_config dc = { .device = f->dev, .size = 8192,
				       .page_size = 2048,
				       .type = TT_BUFFER_DRAM };
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(4096, 0, TT_FLOAT16_B, 2048), got;
	tt_buffer *dram;
	tt_cb_handle h;
	uint64_t gen;

	assert_int_equal(tt_create_buffer(&dc, &dram), 0);
	c.buffer = dram;
	assert_int_equal(tt_create_circular_buffer(f->p, &s, &c, &h), -EINVAL);
	assert_error_contains("must be L1, not DRAM");
	c.buffer = small;
	assert_int_equal(tt_create_circular_buffer(f->p, &s, &c, &h), -EINVAL);
	assert_error_contains("has 2048 bytes, less than the total size 4096");

	c.buffer = b1;
	assert_int_equal(tt_create_circular_buffer(f->p, &s, &c, &h), 0);
	cb_on(f->p, s, 2048, 1, 2048); /* a static one beside it */
	finalize_ok(f, &no_build);
	assert_int_equal(core_of(f, 1, 0)->cbs->cb[0].addr,
			 tt_buffer_address(b1));
	/* Dynamic CBs take no room in the static region. */
	assert_int_equal(core_of(f, 1, 0)->cbs->cb[1].addr,
			 TT_L1_PROG_UNRESERVED);
	assert_int_equal(core_of(f, 1, 0)->cb_end,
			 TT_L1_PROG_UNRESERVED + 2048);

	gen = tt_program_generation(f->p);
	assert_int_equal(tt_update_dynamic_circular_buffer_address(f->p, h, b2),
			 0);
	assert_int_equal(tt_get_circular_buffer_config(f->p, h, &got), 0);
	assert_ptr_equal(got.buffer, b2);
	finalize_ok(f, &no_build);
	assert_true(tt_program_generation(f->p) > gen);
	assert_int_equal(core_of(f, 0, 0)->cbs->cb[0].addr,
			 tt_buffer_address(b2));

	assert_int_equal(tt_update_dynamic_circular_buffer_address(f->p, h,
								   small),
			 -EINVAL);
	assert_error_contains("circular buffer 0: the L1 buffer at 0x");
	assert_int_equal(tt_update_dynamic_circular_buffer_address(f->p, h,
								   dram),
			 -EINVAL);
	assert_int_equal(tt_update_circular_buffer_total_size(f->p, h, 8192),
			 -EINVAL); /* b2 holds 4096 */
	assert_int_equal(
		tt_update_dynamic_circular_buffer_address_and_total_size(
			f->p, h, b1, 8192),
		0);
	assert_int_equal(tt_get_circular_buffer_config(f->p, h, &got), 0);
	assert_int_equal(got.total_size, 8192);
	assert_ptr_equal(got.buffer, b1);
	assert_int_equal(
		tt_update_dynamic_circular_buffer_address_and_total_size(
			f->p, h, b2, 6144),
		-EINVAL);
	assert_error_contains("has 4096 bytes, less than the total size 6144");
	assert_int_equal(
		tt_update_dynamic_circular_buffer_address_and_total_size(
			f->p, h, b2, 3000),
		-EINVAL);
	assert_error_contains("total size 3000 is not a multiple of the page size 2048");
	assert_int_equal(tt_get_circular_buffer_config(f->p, h, &got), 0);
	assert_int_equal(got.total_size, 8192);
	assert_ptr_equal(got.buffer, b1);
	/* A deallocated buffer cannot back a CB. */
	assert_int_equal(tt_deallocate_buffer(small), 0);
	assert_int_equal(tt_update_dynamic_circular_buffer_address(f->p, h,
								   small),
			 -EINVAL);
	assert_error_contains("deallocated");
	/* Nor one deallocated after it was given: found at finalize. */
	finalize_ok(f, &no_build);
	assert_int_equal(core_of(f, 0, 0)->cbs->cb[0].addr,
			 tt_buffer_address(b1));
	assert_int_equal(tt_deallocate_buffer(b1), 0);
	assert_int_equal(tt_program_finalize(f->p, f->dev, &no_build), -EINVAL);
	assert_error_contains("circular buffer 0: its L1 buffer was deallocated");

	tt_buffer_free(b1);
	tt_buffer_free(b2);
	tt_buffer_free(small);
	tt_buffer_free(dram);
}

static void test_program_holds_buffer(void **state)
{
	struct fixture *f = *state;
	tt_buffer *b = l1_buffer(f, 4096);
	uint64_t addr = tt_buffer_address(b);

	assert_int_equal(tt_assign_global_buffer_to_program(b, f->p), 0);
	assert_int_equal(tt_assign_global_buffer_to_program(b, f->p), 0);
	/* The program keeps the buffer (and its memory) alive. */
	tt_buffer_free(b);
	assert_true(tt_buffer_is_allocated(b));
	assert_int_equal(tt_buffer_address(b), addr);
	/* Freeing the program drops its references (ASan: no leak). */
	tt_program_free(f->p);
	f->p = NULL;
}

/* ---- generations, reuse ---- */

static void test_generation(void **state)
{
	struct fixture *f = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 1, 0);
	const struct tt_program_core *first, *again;
	uint32_t a[2] = { 1, 2 }, *got;
	tt_kernel_handle k;
	uint64_t g1, g2;
	unsigned n;

	k = kernel_on(f->p, s, tt_reader_config());
	assert_int_equal(tt_program_generation(f->p), 0);
	finalize_ok(f, &no_build);
	g1 = tt_program_generation(f->p);
	assert_true(g1 > 0);
	first = tt_program_cores(f->p, &n);
	/* Nothing changed: same generation, same layout. */
	finalize_ok(f, &no_build);
	assert_int_equal(tt_program_generation(f->p), g1);
	assert_ptr_equal(tt_program_cores(f->p, &n), first);

	/* A first set of args changes a count: new generation. */
	assert_int_equal(tt_set_runtime_args(f->p, k, xy(0, 0), a, 2), 0);
	assert_null(tt_program_cores(f->p, &n));
	finalize_ok(f, &no_build);
	g2 = tt_program_generation(f->p);
	assert_true(g2 > g1);
	/* New values of the same count: the same generation, and the
	 * dispatcher sees them through the layout's pointers. */
	a[0] = 55;
	assert_int_equal(tt_set_runtime_args(f->p, k, xy(0, 0), a, 2), 0);
	finalize_ok(f, &no_build);
	assert_int_equal(tt_program_generation(f->p), g2);
	again = core_of(f, 0, 0);
	assert_int_equal(again->rta[TT_HART_NCRISC][0], 55);
	/* Changed in place (RuntimeArgsData): seen too. */
	assert_int_equal(tt_get_runtime_args(f->p, k, xy(0, 0), &got, &n), 0);
	got[1] = 66;
	assert_int_equal(again->rta[TT_HART_NCRISC][1], 66);

	/* Every kind of change gives a new generation. */
	cb_on(f->p, s, 2048, 0, 2048);
	finalize_ok(f, &no_build);
	assert_true(tt_program_generation(f->p) > g2);
	g2 = tt_program_generation(f->p);
	assert_int_equal(tt_create_semaphore(f->p, &s, 0, TT_CORE_TENSIX,
					     (uint32_t *)&n),
			 0);
	finalize_ok(f, &no_build);
	assert_true(tt_program_generation(f->p) > g2);
	g2 = tt_program_generation(f->p);
	assert_int_equal(tt_update_circular_buffer_page_size(f->p, 0, 0, 2048),
			 0); /* no change */
	finalize_ok(f, &no_build);
	assert_int_equal(tt_program_generation(f->p), g2);

	/* Generations are unique across programs. */
	{
		tt_program *q;

		assert_int_equal(tt_create_program(&q), 0);
		kernel_on(q, s, tt_reader_config());
		assert_int_equal(tt_program_finalize(q, f->dev, &no_build), 0);
		assert_true(tt_program_generation(q) > g2);
		tt_program_free(q);
	}
}

/* ---- speed ---- */

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* A full-grid program: 3 kernels, 4 CBs, 2 semaphores, args everywhere. */
static void full_grid(tt_program *p, unsigned w, unsigned h)
{
	struct tt_core_range_set all = tt_core_range_set_of_range(0, 0, w - 1,
								  h - 1);
	tt_kernel_handle k[3];
	uint32_t args[16] = { 0 }, id;

	k[0] = kernel_on(p, all, tt_reader_config());
	k[1] = kernel_on(p, all, tt_writer_config());
	k[2] = kernel_on(p, all, tt_compute_config());
	for (unsigned i = 0; i < 4; i++)
		cb_on(p, all, 8 * 2048, i == 3 ? 16 : i, 2048);
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(tt_create_semaphore(p, &all, i, TT_CORE_TENSIX,
						     &id),
				 0);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(tt_set_runtime_args_cores(p, k[i], &all, args,
							   8 + i),
				 0);
		assert_int_equal(tt_set_common_runtime_args(p, k[i], args, 4),
				 0);
	}
}

static void time_finalize(tt_device *dev, const char *what)
{
	double best = 1e9, fast = 1e9, t;
	unsigned w, h, n;
	tt_program *p;

	assert_int_equal(tt_device_logical_grid(dev, &w, &h), 0);
	assert_int_equal(tt_create_program(&p), 0);
	full_grid(p, w, h);
	for (int i = 0; i < 20; i++) {
		tt_program_changed(p);
		t = now_us();
		assert_int_equal(tt_program_finalize(p, dev, &no_build), 0);
		t = now_us() - t;
		best = t < best ? t : best;
		t = now_us();
		assert_int_equal(tt_program_finalize(p, dev, &no_build), 0);
		t = now_us() - t;
		fast = t < fast ? t : fast;
	}
	tt_program_cores(p, &n);
	assert_int_equal(n, w * h);
	assert_int_equal(p->ntables, 1);
	print_message("# %s: %u cores: layout %.1f us, unchanged %.2f us\n",
		      what, n, best, fast);
	/* Well under 1 ms (generous for sanitizer builds). */
	assert_true(best < 1000);
	assert_true(fast < 50);
	tt_program_free(p);
}

static void test_finalize_speed(void **state)
{
	struct fixture *f = *state;
	tt_device *dev;

	time_finalize(f->dev, tt_device_get_info(f->dev)->board);
	setenv("TT_SIM_BOARD", "p150", 1);
	assert_int_equal(tt_device_open(0, &dev), 0);
	unsetenv("TT_SIM_BOARD");
	time_finalize(dev, "p150");
	tt_device_close(dev);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, new_program, free_program)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_outside_grid),
		T(test_layout),
		T(test_semaphore_values),
		T(test_cb_placement),
		T(test_cb_updates_after_finalize),
		T(test_cb_clash),
		T(test_cb_clash_with_l1_buffer),
		T(test_dynamic_cb),
		T(test_program_holds_buffer),
		T(test_generation),
		T(test_finalize_speed),
	};

	setenv("TT_TRANSPORT", "embedded", 1);
	unsetenv("TT_SIM_BOARD");
	/* A blank chip: finalize never touches the device. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	return cmocka_run_group_tests_name("program_finalize", tests,
					   open_device, close_device);
}
