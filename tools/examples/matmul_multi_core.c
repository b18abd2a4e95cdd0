// SPDX-License-Identifier: Apache-2.0
/*
 * The multi-core matmul of matmul_multi_core.h: planning the split, the
 * device buffers and program, and running it.
 *
 * Why this shape is fast on the chip model: the model runs harts on a few
 * host threads, so what counts is host work per FLOP, not overlap between
 * cores. One matmul_block_k does a whole sh x sw x kb block product as
 * one native GEMM, so the RISC-V code (CB handshakes, one NOC read per
 * tile) is a small part of the work, and the sub-block is made as large
 * as DST allows because each K chunk is unpacked once per sub-block.
 */
#include "example.h"

#include <errno.h>

#include "matmul_multi_core.h"

#define TILE 32u
#define TILE_BYTES 2048u /* a bf16 tile */
/* DST tiles with dst_full_sync_en at 16 bits (docs/kernels.md: 8, twice
 * that without double buffering). Sums over K chunks are rounded to bf16
 * in DST, which costs far less than the 0.99 PCC allows. */
#define DST_TILES 16u
/* K chunk cap: 8 tiles (256 values) is the native GEMM's K block; larger
 * chunks only grow the CBs. */
#define KB_MAX 8u
#define CB_A 0u
#define CB_B 1u
#define CB_OUT 16u

struct mm_multi {
	tt_device *dev;
	tt_command_queue *cq;
	struct mm_multi_plan plan;
	tt_buffer *a, *b, *c;
	tt_program *prog;
	tt_kernel_handle kernels[3]; /* reader, compute, writer */
	void *tiles; /* host staging: the largest of A, B, C in tiles */
};

static _Thread_local char mm_msg[1024];

const char *mm_multi_error(void)
{
	return mm_msg;
}

static __attribute__((format(printf, 2, 3))) int mm_fail(int code,
							 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mm_msg, sizeof(mm_msg), fmt, ap);
	va_end(ap);
	return code;
}

/* A libtt call's result; on failure its message (which names the call
 * and the object) becomes ours. */
static int mm_tt(int ret)
{
	if (ret)
		mm_fail(ret, "%s", tt_last_error());
	return ret;
}

static uint32_t ceil_div(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* ---- the plan ---- */

/*
 * The corner of the grid to use: the smallest per-core block (the longest
 * any core works), then the fewest cores for it.
 */
static void plan_grid(struct mm_multi_plan *p, unsigned max_cores)
{
	uint64_t best = UINT64_MAX;

	for (unsigned y = 1; y <= p->grid_h; y++) {
		for (unsigned x = 1; x <= p->grid_w && x * y <= max_cores;
		     x++) {
			uint32_t bm = ceil_div(p->mt, y), bn = ceil_div(p->nt, x);
			unsigned rows = ceil_div(p->mt, bm);
			unsigned cols = ceil_div(p->nt, bn);
			/* Block size first, then cores actually used. */
			uint64_t cost = (uint64_t)bm * bn << 32 | rows * cols;

			if (cost < best) {
				best = cost;
				p->bm = bm;
				p->bn = bn;
				p->rows = rows;
				p->cols = cols;
			}
		}
	}
}

/*
 * The sub-block: the fewest sub-blocks per block, then the fewest tile
 * reads per K step (each sub-block reads its own A rows and B columns).
 */
static void plan_sub_block(struct mm_multi_plan *p)
{
	uint64_t best = UINT64_MAX;

	for (uint32_t sh = 1; sh <= p->bm && sh <= DST_TILES; sh++) {
		uint32_t sw = min_u32(DST_TILES / sh, p->bn);
		uint32_t nr = ceil_div(p->bm, sh), nc = ceil_div(p->bn, sw);
		uint64_t cost = (uint64_t)(nr * nc) << 32 |
				(nc * p->bm + nr * p->bn);

		if (cost < best) {
			best = cost;
			p->sh = sh;
			p->sw = sw;
		}
	}
}

static int plan(tt_device *dev, uint32_t m, uint32_t n, uint32_t k,
		unsigned max_cores, struct mm_multi_plan *p)
{
	int ret;

	if (!m || !n || !k || m % TILE || n % TILE || k % TILE)
		return mm_fail(-EINVAL,
			       "matmul %ux%ux%u: M, N and K must be nonzero multiples of %u",
			       m, n, k, TILE);
	memset(p, 0, sizeof(*p));
	p->mt = m / TILE;
	p->nt = n / TILE;
	p->kt = k / TILE;
	ret = mm_tt(tt_device_logical_grid(dev, &p->grid_w, &p->grid_h));
	if (ret)
		return ret;
	if (!max_cores || max_cores > p->grid_w * p->grid_h)
		max_cores = p->grid_w * p->grid_h;
	plan_grid(p, max_cores);
	plan_sub_block(p);
	/* Chunks of equal size (the last one may be a tile short). */
	p->kb = ceil_div(p->kt, ceil_div(p->kt, KB_MAX));
	return 0;
}

/* ---- device objects ---- */

static int dram_tiles(struct mm_multi *mm, uint32_t rows, uint32_t cols,
		      tt_buffer **out)
{
	struct tt_buffer_config cfg = {
		.device = mm->dev,
		.size = (uint64_t)rows * cols * TILE_BYTES,
		.page_size = TILE_BYTES,
		.type = TT_BUFFER_DRAM,
	};

	return mm_tt(tt_create_buffer(&cfg, out));
}

/* CB 0 (A chunks), CB 1 (B chunks), CB 16 (finished sub-blocks): two of
 * each, so the reader and writer work beside compute. */
static int add_cbs(struct mm_multi *mm, const struct tt_core_range_set *cores)
{
	const struct mm_multi_plan *p = &mm->plan;
	const unsigned idx[] = { CB_A, CB_B, CB_OUT };
	const uint32_t pages[] = { p->sh * p->kb, p->kb * p->sw,
				   p->sh * p->sw };

	for (unsigned i = 0; i < 3; i++) {
		struct tt_circular_buffer_config cfg = tt_circular_buffer_config(
			2 * pages[i] * TILE_BYTES, idx[i], TT_FLOAT16_B,
			TILE_BYTES);
		tt_cb_handle cb;
		int ret = mm_tt(tt_create_circular_buffer(mm->prog, cores, &cfg,
							  &cb));

		if (ret)
			return ret;
	}
	return 0;
}

static int add_kernel(struct mm_multi *mm, const char *file,
		      const struct tt_core_range_set *cores,
		      struct tt_kernel_config cfg, tt_kernel_handle *out)
{
	const struct mm_multi_plan *p = &mm->plan;
	const uint32_t ct_args[] = { p->sh, p->sw, p->kb };

	cfg.compile_args = ct_args;
	cfg.compile_arg_count = 3;
	return mm_tt(tt_create_kernel(mm->prog, ex_kernel(file), cores, &cfg,
				      out));
}

/* Each core's block: its first tile and size (0 x 0 if empty), and the
 * buffers. */
static int set_args(struct mm_multi *mm, bool empty)
{
	const tt_kernel_handle *k = mm->kernels;
	const struct mm_multi_plan *p = &mm->plan;
	uint32_t a = (uint32_t)tt_buffer_address(mm->a);
	uint32_t b = (uint32_t)tt_buffer_address(mm->b);
	uint32_t c = (uint32_t)tt_buffer_address(mm->c);
	int ret = 0;

	for (unsigned y = 0; y < p->rows && !ret; y++) {
		for (unsigned x = 0; x < p->cols && !ret; x++) {
			struct tt_xy core = { x, y };
			uint32_t r0 = y * p->bm, c0 = x * p->bn;
			uint32_t bm = empty ? 0 : min_u32(p->bm, p->mt - r0);
			uint32_t bn = empty ? 0 : min_u32(p->bn, p->nt - c0);
			uint32_t rd[] = { a, b, p->kt, p->nt, r0, c0, bm, bn };
			uint32_t cp[] = { p->kt, bm, bn };
			uint32_t wr[] = { c, p->nt, r0, c0, bm, bn };

			ret = mm_tt(tt_set_runtime_args(mm->prog, k[0], core,
							rd, 8));
			if (!ret)
				ret = mm_tt(tt_set_runtime_args(
					mm->prog, k[1], core, cp, 3));
			if (!ret)
				ret = mm_tt(tt_set_runtime_args(
					mm->prog, k[2], core, wr, 6));
		}
	}
	return ret;
}

static int build_program(struct mm_multi *mm)
{
	const struct mm_multi_plan *p = &mm->plan;
	struct tt_core_range_set cores =
		tt_core_range_set_of_range(0, 0, p->cols - 1, p->rows - 1);
	struct tt_kernel_config compute = tt_compute_config();
	tt_kernel_handle *k = mm->kernels;
	int ret;

	compute.dst_full_sync_en = true; /* all of DST for one sub-block */
	ret = mm_tt(tt_create_program(&mm->prog));
	if (!ret)
		ret = add_cbs(mm, &cores);
	if (!ret)
		ret = add_kernel(mm, "matmul_multi/reader.c", &cores,
				 tt_reader_config(), &k[0]);
	if (!ret)
		ret = add_kernel(mm, "matmul_multi/compute.c", &cores, compute,
				 &k[1]);
	if (!ret)
		ret = add_kernel(mm, "matmul_multi/writer.c", &cores,
				 tt_writer_config(), &k[2]);
	if (!ret)
		ret = set_args(mm, false);
	return ret;
}

int mm_multi_create(tt_device *dev, uint32_t m, uint32_t n, uint32_t k,
		    unsigned max_cores, struct mm_multi **out)
{
	struct mm_multi *mm = calloc(1, sizeof(*mm));
	uint64_t most;
	int ret;

	if (!mm)
		return mm_fail(-ENOMEM, "matmul: out of memory");
	mm->dev = dev;
	ret = plan(dev, m, n, k, max_cores, &mm->plan);
	if (!ret)
		ret = mm_tt(tt_device_command_queue(dev, 0, &mm->cq));
	if (!ret)
		ret = dram_tiles(mm, mm->plan.mt, mm->plan.kt, &mm->a);
	if (!ret)
		ret = dram_tiles(mm, mm->plan.kt, mm->plan.nt, &mm->b);
	if (!ret)
		ret = dram_tiles(mm, mm->plan.mt, mm->plan.nt, &mm->c);
	if (!ret)
		ret = build_program(mm);
	if (!ret) {
		most = tt_buffer_size(mm->a);
		if (tt_buffer_size(mm->b) > most)
			most = tt_buffer_size(mm->b);
		if (tt_buffer_size(mm->c) > most)
			most = tt_buffer_size(mm->c);
		mm->tiles = malloc(most);
		if (!mm->tiles)
			ret = mm_fail(-ENOMEM,
				      "matmul: out of memory for %llu bytes of staging",
				      (unsigned long long)most);
	}
	if (ret) {
		mm_multi_free(mm);
		return ret;
	}
	*out = mm;
	return 0;
}

const struct mm_multi_plan *mm_multi_plan(const struct mm_multi *mm)
{
	return &mm->plan;
}

/* ---- running ---- */

static int upload(struct mm_multi *mm, tt_buffer *buf, const float *src,
		  uint32_t rows, uint32_t cols)
{
	size_t len = tt_buffer_size(buf);
	int ret;

	ret = mm_tt(tt_tilize_convert(TT_FLOAT16_B, mm->tiles, len,
				      TT_FLOAT32, src,
				      sizeof(float) * rows * cols, rows, cols));
	if (!ret)
		ret = mm_tt(tt_enqueue_write_buffer(mm->cq, buf, mm->tiles,
						    true));
	return ret;
}

int mm_multi_write_inputs(struct mm_multi *mm, const float *a, const float *b)
{
	const struct mm_multi_plan *p = &mm->plan;
	int ret = upload(mm, mm->a, a, p->mt * TILE, p->kt * TILE);

	return ret ? ret : upload(mm, mm->b, b, p->kt * TILE, p->nt * TILE);
}

int mm_multi_run(struct mm_multi *mm, double *ms)
{
	double t0 = ex_now_ms();
	int ret = mm_tt(tt_enqueue_program(mm->cq, mm->prog, false));

	if (!ret)
		ret = mm_tt(tt_finish(mm->cq));
	if (!ret && ms)
		*ms = ex_now_ms() - t0;
	return ret;
}

int mm_multi_warm_up(struct mm_multi *mm)
{
	int ret = set_args(mm, true), restored;

	if (!ret)
		ret = mm_multi_run(mm, NULL);
	restored = set_args(mm, false);
	return ret ? ret : restored;
}

int mm_multi_read_output(struct mm_multi *mm, float *c)
{
	const struct mm_multi_plan *p = &mm->plan;
	size_t len = tt_buffer_size(mm->c);
	size_t rows = (size_t)p->mt * TILE, cols = (size_t)p->nt * TILE;
	int ret;

	ret = mm_tt(tt_enqueue_read_buffer(mm->cq, mm->c, mm->tiles, true));
	if (!ret)
		ret = mm_tt(tt_untilize_convert(TT_FLOAT32, c,
						sizeof(float) * rows * cols,
						TT_FLOAT16_B, mm->tiles, len,
						rows, cols));
	return ret;
}

void mm_multi_free(struct mm_multi *mm)
{
	if (!mm)
		return;
	tt_program_free(mm->prog);
	tt_buffer_free(mm->a);
	tt_buffer_free(mm->b);
	tt_buffer_free(mm->c);
	free(mm->tiles);
	free(mm);
}
