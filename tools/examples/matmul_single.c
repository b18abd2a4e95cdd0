// SPDX-License-Identifier: Apache-2.0
/*
 * C = A x B on one Tensix core (TT-Metal's matmul_single_core, in C).
 *
 * A (M x K) and B (K x N) are random bf16 matrices, uploaded tiled into
 * interleaved DRAM buffers of one tile per page. Three kernels run on
 * core (0,0): a reader streams input tiles into CB 0 and CB 1, the
 * compute kernel accumulates Kt tile products per output tile in DST and
 * packs it to CB 16, a writer stores those tiles into C's buffer. The
 * result is compared with an fp32 host product of the same bf16 inputs
 * (Pearson correlation, as TT-Metal's example checks it).
 *
 * Usage: example-matmul_single [-m M] [-n N] [-k K]   (multiples of 32)
 */
#include "example.h"

#include <getopt.h>

#define PCC_MIN 0.99
#define TILE_BYTES 2048u /* one 32x32 bf16 tile */

struct shape {
	uint32_t m, n, k;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: example-matmul_single [-m M] [-n N] [-k K]\n"
		   "  C[M x N] = A[M x K] x B[K x N] on one core, bf16;\n"
		   "  sizes are multiples of 32 (default 256 each)\n"
		   EX_HELP_COMMON);
}

static struct shape parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct shape s = { 256, 256, 256 };
	int c;

	opterr = 0; /* getopt's messages would name the path, not the program */
	while ((c = getopt_long(argc, argv, ":m:n:k:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			s.m = ex_parse_count("-m", optarg, 32, 4096);
			break;
		case 'n':
			s.n = ex_parse_count("-n", optarg, 32, 4096);
			break;
		case 'k':
			s.k = ex_parse_count("-k", optarg, 32, 4096);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			ex_version_option("--version");
			break;
		default:
			ex_getopt_error(c, argv);
		}
	}
	if (optind < argc)
		ex_usage_error("unexpected argument '%s'", argv[optind]);
	return s;
}

/* c = a x b in fp32, row-major (i-k-j: every inner loop is sequential). */
static void host_matmul(const float *a, const float *b, float *c,
			struct shape s)
{
	memset(c, 0, sizeof(float) * s.m * s.n);
	for (uint32_t i = 0; i < s.m; i++)
		for (uint32_t p = 0; p < s.k; p++) {
			float x = a[(size_t)i * s.k + p];
			const float *br = b + (size_t)p * s.n;
			float *cr = c + (size_t)i * s.n;

			for (uint32_t j = 0; j < s.n; j++)
				cr[j] += x * br[j];
		}
}

static tt_buffer *dram_tiles(tt_device *dev, uint32_t rows, uint32_t cols)
{
	struct tt_buffer_config cfg = {
		.device = dev,
		.size = (uint64_t)rows / 32 * (cols / 32) * TILE_BYTES,
		.page_size = TILE_BYTES,
		.type = TT_BUFFER_DRAM,
	};
	tt_buffer *b;

	EX_TRY(tt_create_buffer(&cfg, &b));
	return b;
}

/* A row-major float matrix into buf as bf16 tiles. */
static void upload(tt_command_queue *cq, tt_buffer *buf, const float *src,
		   uint32_t rows, uint32_t cols)
{
	size_t len = tt_buffer_size(buf);
	void *tiles = ex_xmalloc(len);

	EX_TRY(tt_tilize_convert(TT_FLOAT16_B, tiles, len, TT_FLOAT32, src,
				 sizeof(float) * rows * cols, rows, cols));
	EX_TRY(tt_enqueue_write_buffer(cq, buf, tiles, true));
	free(tiles);
}

static void download(tt_command_queue *cq, tt_buffer *buf, float *dst,
		     uint32_t rows, uint32_t cols)
{
	size_t len = tt_buffer_size(buf);
	void *tiles = ex_xmalloc(len);

	EX_TRY(tt_enqueue_read_buffer(cq, buf, tiles, true));
	EX_TRY(tt_untilize_convert(TT_FLOAT32, dst, sizeof(float) * rows * cols,
				   TT_FLOAT16_B, tiles, len, rows, cols));
	free(tiles);
}

/* CBs 0 and 1 (inputs) and 16 (output): two bf16 tiles each, so the
 * reader fills one while compute works on the other. */
static void add_cbs(tt_program *p, const struct tt_core_range_set *core)
{
	static const unsigned idx[] = { 0, 1, 16 };

	for (unsigned i = 0; i < 3; i++) {
		struct tt_circular_buffer_config cfg = tt_circular_buffer_config(
			2 * TILE_BYTES, idx[i], TT_FLOAT16_B, TILE_BYTES);
		tt_cb_handle cb;

		EX_TRY(tt_create_circular_buffer(p, core, &cfg, &cb));
	}
}

static tt_program *build_program(struct shape s, tt_buffer *a, tt_buffer *b,
				 tt_buffer *c)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	struct tt_xy xy = { 0, 0 };
	struct tt_kernel_config rcfg = tt_reader_config();
	struct tt_kernel_config wcfg = tt_writer_config();
	struct tt_kernel_config ccfg = tt_compute_config();
	uint32_t mt = s.m / 32, nt = s.n / 32, kt = s.k / 32;
	uint32_t rargs[] = { (uint32_t)tt_buffer_address(a),
			     (uint32_t)tt_buffer_address(b), mt, kt, nt };
	uint32_t cargs[] = { mt, kt, nt };
	uint32_t wargs[] = { (uint32_t)tt_buffer_address(c), mt * nt };
	tt_kernel_handle rk, ck, wk;
	tt_program *p;

	EX_TRY(tt_create_program(&p));
	add_cbs(p, &core);
	EX_TRY(tt_create_kernel(p, ex_kernel("matmul_single/reader.c"), &core,
				&rcfg, &rk));
	EX_TRY(tt_create_kernel(p, ex_kernel("matmul_single/compute.c"), &core,
				&ccfg, &ck));
	EX_TRY(tt_create_kernel(p, ex_kernel("matmul_single/writer.c"), &core,
				&wcfg, &wk));
	EX_TRY(tt_set_runtime_args(p, rk, xy, rargs, 5));
	EX_TRY(tt_set_runtime_args(p, ck, xy, cargs, 3));
	EX_TRY(tt_set_runtime_args(p, wk, xy, wargs, 2));
	return p;
}

/* Run the program on the device; C into c (row-major). */
static double run_device(struct shape s, const float *a, const float *b,
			 float *c)
{
	tt_device *dev;
	tt_command_queue *cq;
	tt_buffer *da, *db, *dc;
	tt_program *p;
	double t0, ms;

	ex_open_device(&dev);
	EX_TRY(tt_device_command_queue(dev, 0, &cq));
	da = dram_tiles(dev, s.m, s.k);
	db = dram_tiles(dev, s.k, s.n);
	dc = dram_tiles(dev, s.m, s.n);
	upload(cq, da, a, s.m, s.k);
	upload(cq, db, b, s.k, s.n);
	p = build_program(s, da, db, dc);
	t0 = ex_now_ms();
	EX_TRY(tt_enqueue_program(cq, p, false));
	EX_TRY(tt_finish(cq));
	ms = ex_now_ms() - t0;
	download(cq, dc, c, s.m, s.n);
	tt_program_free(p);
	tt_buffer_free(da);
	tt_buffer_free(db);
	tt_buffer_free(dc);
	tt_device_close(dev);
	return ms;
}

int main(int argc, char **argv)
{
	struct shape s = parse_args(argc, argv);
	float *a = ex_xmalloc(sizeof(float) * s.m * s.k);
	float *b = ex_xmalloc(sizeof(float) * s.k * s.n);
	float *c = ex_xmalloc(sizeof(float) * s.m * s.n);
	float *want = ex_xmalloc(sizeof(float) * s.m * s.n);
	char detail[64];
	double ms, pcc;

	ex_fill_bf16(a, (size_t)s.m * s.k, 1);
	ex_fill_bf16(b, (size_t)s.k * s.n, 2);
	ms = run_device(s, a, b, c);
	host_matmul(a, b, want, s);
	pcc = ex_pcc(c, want, (size_t)s.m * s.n);
	printf("matmul_single: C[%ux%u] = A[%ux%u] x B[%ux%u] on core (0,0), bf16\n",
	       s.m, s.n, s.m, s.k, s.k, s.n);
	printf("  device: %.1f ms (with kernel build), PCC %.6f vs fp32 host\n",
	       ms, pcc);
	snprintf(detail, sizeof(detail), "PCC %.6f, need >= %.2f", pcc, PCC_MIN);
	free(a);
	free(b);
	free(c);
	free(want);
	return ex_verdict("matmul_single", pcc >= PCC_MIN, detail);
}
