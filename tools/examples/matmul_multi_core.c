// SPDX-License-Identifier: Apache-2.0
/*
 * The multi-core matmul of matmul_multi_core.h: planning the split, the
 * device buffers and program, and running it.
 *
 * Why this shape is fast on the chip model: the model runs harts on a few
 * host threads, so what counts is host work per FLOP, not overlap between
 * cores. One matmul_block_k does a whole sh x sw x kb block product as
 * one native GEMM; the sub-block is as large as DST allows, because each
 * K chunk is unpacked once per sub-block; and multicasting the chunks
 * leaves one core per row or column issuing the NOC reads, one command
 * per tile, which were most of the RISC-V code.
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
/* K chunk: at most KB_MAX tiles, and the two double-buffered input CBs
 * within IN_CB_BYTES of L1 (about 1.2 MiB are free). Fewer, larger chunks
 * save per-command costs (rounding DST, CB hand-overs); beyond 16 tiles
 * the gain is lost in the noise. */
#define KB_MAX 16u
#define IN_CB_BYTES (512u * 1024)
#define CB_A 0u
#define CB_B 1u
#define CB_OUT 16u
/* Reader args (kernels/matmul_multi/reader.c). */
#define READER_ARGS 26u
enum share_role { READ_ALONE = 0, SEND = 1, RECEIVE = 2 };

struct mm_multi {
	tt_device *dev;
	tt_command_queue *cq;
	struct mm_multi_plan plan;
	tt_buffer *a, *b, *c;
	tt_program *prog;
	tt_kernel_handle kernels[3]; /* reader, compute, writer */
	uint32_t sems[4]; /* A ready, A valid, B ready, B valid */
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

/* The NOC rectangle (NOC 0 coordinates) spanned by the logical cores
 * lr, as a multicast names it. */
static int noc_bounds(tt_device *dev, struct tt_core_range lr,
		      struct tt_core_range *out)
{
	struct tt_xy xy;

	out->start = (struct tt_xy){ UINT32_MAX, UINT32_MAX };
	out->end = (struct tt_xy){ 0, 0 };
	for (unsigned y = lr.start.y; y <= lr.end.y; y++) {
		for (unsigned x = lr.start.x; x <= lr.end.x; x++) {
			int ret = mm_tt(tt_device_worker_core(
				dev, (struct tt_xy){ x, y }, &xy));

			if (ret)
				return ret;
			out->start.x = min_u32(out->start.x, xy.x);
			out->start.y = min_u32(out->start.y, xy.y);
			out->end.x = xy.x > out->end.x ? xy.x : out->end.x;
			out->end.y = xy.y > out->end.y ? xy.y : out->end.y;
		}
	}
	return 0;
}

/*
 * *only: the NOC rectangle r holds no enabled Tensix core but the n it
 * was made for. A multicast reaches every one in its rectangle, and the
 * NOC grid need not hold logical cores in order, nor only them (the
 * dispatch core is one that is not).
 */
static int holds_only(tt_device *dev, const struct tt_core_range *r,
		      unsigned n, bool *only)
{
	unsigned count = tt_device_get_info(dev)->tensix_count, inside = 0;
	struct tt_xy xy;

	for (unsigned i = 0; i < count; i++) {
		int ret = mm_tt(tt_device_tensix_core(dev, i, &xy));

		if (ret)
			return ret;
		inside += xy.x >= r->start.x && xy.x <= r->end.x &&
			  xy.y >= r->start.y && xy.y <= r->end.y;
	}
	*only = inside == n;
	return 0;
}

/* The receivers of a row's A (all but its first core) or of a column's
 * B (all but its first core). */
static struct tt_core_range receivers(const struct mm_multi_plan *p,
				      bool row, unsigned i)
{
	return row ? tt_core_range(1, i, p->cols - 1, i)
		   : tt_core_range(i, 1, i, p->rows - 1);
}

/* *ok: every row (or column) has receivers, and a rectangle that
 * reaches exactly them. */
static int can_share(tt_device *dev, const struct mm_multi_plan *p, bool row,
		     bool *ok)
{
	unsigned lines = row ? p->rows : p->cols;
	int ret = 0;

	*ok = (row ? p->cols : p->rows) > 1;
	for (unsigned i = 0; i < lines && *ok && !ret; i++) {
		struct tt_core_range lr = receivers(p, row, i), r;

		ret = noc_bounds(dev, lr, &r);
		if (!ret)
			ret = holds_only(dev, &r, tt_core_range_num_cores(&lr),
					 ok);
	}
	return ret;
}

static int plan(tt_device *dev, uint32_t m, uint32_t n, uint32_t k,
		unsigned max_cores, struct mm_multi_plan *p)
{
	uint32_t kb_max;
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
	kb_max = min_u32(KB_MAX,
			 IN_CB_BYTES / (2 * (p->sh + p->sw) * TILE_BYTES));
	/* Chunks of equal size (the last one may be a tile short). */
	p->kb = ceil_div(p->kt, ceil_div(p->kt, kb_max));
	ret = can_share(dev, p, true, &p->mcast_a);
	return ret ? ret : can_share(dev, p, false, &p->mcast_b);
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

/* A core's reader args 10..15 (`row`: A, shared along rows) or 16..21
 * (B, down columns): how it gets that operand. */
static int share_args(struct mm_multi *mm, bool row, struct tt_xy core,
		      uint32_t out[6])
{
	const struct mm_multi_plan *p = &mm->plan;
	unsigned line = row ? core.y : core.x;
	struct tt_core_range lr = receivers(p, row, line), r;
	struct tt_xy sender = row ? (struct tt_xy){ 0, line }
				  : (struct tt_xy){ line, 0 };
	int ret;

	memset(out, 0, 6 * sizeof(*out));
	if (!(row ? p->mcast_a : p->mcast_b))
		return 0; /* READ_ALONE */
	if (core.x != sender.x || core.y != sender.y) {
		ret = mm_tt(tt_device_worker_core(mm->dev, sender, &sender));
		out[0] = RECEIVE;
		out[1] = sender.x;
		out[2] = sender.y;
		return ret;
	}
	ret = noc_bounds(mm->dev, lr, &r);
	out[0] = SEND;
	out[1] = r.start.x;
	out[2] = r.start.y;
	out[3] = r.end.x;
	out[4] = r.end.y;
	out[5] = tt_core_range_num_cores(&lr);
	return ret;
}

/*
 * One core's args. Its block: the first tile and size (0 x 0 if empty),
 * and the plan's block size (0 if empty), which all cores go through.
 */
static int core_args(struct mm_multi *mm, struct tt_xy core, bool empty)
{
	const struct mm_multi_plan *p = &mm->plan;
	const tt_kernel_handle *k = mm->kernels;
	uint32_t r0 = core.y * p->bm, c0 = core.x * p->bn;
	uint32_t bm = empty ? 0 : min_u32(p->bm, p->mt - r0);
	uint32_t bn = empty ? 0 : min_u32(p->bn, p->nt - c0);
	uint32_t big_m = empty ? 0 : p->bm, big_n = empty ? 0 : p->bn;
	uint32_t rd[READER_ARGS] = {
		(uint32_t)tt_buffer_address(mm->a),
		(uint32_t)tt_buffer_address(mm->b),
		p->kt, p->nt, r0, c0, bm, bn, big_m, big_n,
	};
	uint32_t cp[] = { p->kt, bm, bn, big_m, big_n };
	uint32_t wr[] = { (uint32_t)tt_buffer_address(mm->c), p->nt, r0, c0,
			  bm, bn };
	int ret;

	memcpy(&rd[22], mm->sems, sizeof(mm->sems));
	ret = share_args(mm, true, core, &rd[10]);
	if (!ret)
		ret = share_args(mm, false, core, &rd[16]);
	if (!ret)
		ret = mm_tt(tt_set_runtime_args(mm->prog, k[0], core, rd,
						READER_ARGS));
	if (!ret)
		ret = mm_tt(tt_set_runtime_args(mm->prog, k[1], core, cp, 5));
	if (!ret)
		ret = mm_tt(tt_set_runtime_args(mm->prog, k[2], core, wr, 6));
	return ret;
}

static int set_args(struct mm_multi *mm, bool empty)
{
	int ret = 0;

	for (unsigned y = 0; y < mm->plan.rows && !ret; y++)
		for (unsigned x = 0; x < mm->plan.cols && !ret; x++)
			ret = core_args(mm, (struct tt_xy){ x, y }, empty);
	return ret;
}

/* The readers' handshake: A ready, A valid, B ready, B valid. */
static int add_semaphores(struct mm_multi *mm,
			  const struct tt_core_range_set *cores)
{
	int ret = 0;

	for (unsigned i = 0; i < 4 && !ret; i++)
		ret = mm_tt(tt_create_semaphore(mm->prog, cores, 0,
						TT_CORE_TENSIX, &mm->sems[i]));
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
		ret = add_semaphores(mm, &cores);
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
