// SPDX-License-Identifier: Apache-2.0
/*
 * descriptor: the eltwise_add program again, c = a + b on 64 bfloat16
 * tiles, but described as data -- a struct tt_program_descriptor (TT-Metal's
 * ProgramDescriptor) listing its circular buffers, kernels and runtime
 * arguments -- and made by one call, tt_create_program_from_descriptor.
 * It also spreads the work: up to 2 x 2 cores each add their own share of
 * the tiles, told by per-core runtime arguments, with the tile count per
 * core as a common runtime argument of the compute kernel.
 *
 * Kernels: those of eltwise_add (kernels/eltwise_add/), unchanged.
 */
#include "example.h"

#define NAME "descriptor"
#define TILES 64u
#define TILE_BYTES 2048u
#define VALUES (TILES * TT_TILE_ELEMS)
#define MAX_CORES 4u

static tt_buffer *dram_tiles(tt_device *dev)
{
	struct tt_buffer_config cfg = {
		.device = dev,
		.size = TILES * TILE_BYTES,
		.page_size = TILE_BYTES,
		.type = TT_BUFFER_DRAM,
	};
	tt_buffer *buf;

	EX_TRY(tt_create_buffer(&cfg, &buf));
	return buf;
}

static void fill(uint16_t *v, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		v[i] = tt_float_to_bf16(-8.0f +
					16.0f * (seed >> 8) / 16777216.0f);
	}
}

static bool bf16_close(float got, float x)
{
	float ulp = x == 0 ? 0 : ldexpf(1.0f, ilogbf(x) - 7);

	return fabsf(got - x) <= ulp;
}

/* ex_kernel's result is overwritten by its next call: keep a copy. */
static char *kernel_path(const char *rel)
{
	char *p = strdup(ex_kernel(rel));

	if (!p)
		ex_die("out of memory");
	return p;
}

/*
 * The program as a descriptor: three CBs, then three kernels with their
 * arguments, all on `cores`. n cores have per-core reader and writer
 * arguments; the compute kernel's one common argument is *per_core.
 */
static tt_program *describe(const struct tt_core_range_set *cores,
			    const struct tt_core_args *rargs,
			    const struct tt_core_args *wargs, unsigned n,
			    const uint32_t *per_core)
{
	/* One format per CB: inputs at indices 0 and 1, output at 16. */
	static const struct tt_cb_format fa = { 0, TT_FLOAT16_B, TILE_BYTES };
	static const struct tt_cb_format fb = { 1, TT_FLOAT16_B, TILE_BYTES };
	static const struct tt_cb_format fc = { 16, TT_FLOAT16_B, TILE_BYTES };
	/* Two tiles per CB: double buffering. */
	const struct tt_cb_descriptor cbs[] = {
		{ 2 * TILE_BYTES, cores, &fa, 1, NULL },
		{ 2 * TILE_BYTES, cores, &fb, 1, NULL },
		{ 2 * TILE_BYTES, cores, &fc, 1, NULL },
	};
	char *reader = kernel_path("eltwise_add/reader.c");
	char *compute = kernel_path("eltwise_add/compute.c");
	char *writer = kernel_path("eltwise_add/writer.c");
	const struct tt_kernel_descriptor kernels[] = {
		{
			.kernel_source = reader,
			.source_type = TT_SOURCE_FILE_PATH,
			.core_ranges = cores,
			.config = tt_reader_config(),
			.runtime_args = rargs,
			.runtime_args_count = n,
		},
		{
			.kernel_source = compute,
			.source_type = TT_SOURCE_FILE_PATH,
			.core_ranges = cores,
			.config = tt_compute_config(),
			.common_runtime_args = per_core,
			.common_runtime_args_count = 1,
		},
		{
			.kernel_source = writer,
			.source_type = TT_SOURCE_FILE_PATH,
			.core_ranges = cores,
			.config = tt_writer_config(),
			.runtime_args = wargs,
			.runtime_args_count = n,
		},
	};
	const struct tt_program_descriptor desc = {
		.kernels = kernels,
		.kernel_count = 3,
		.cbs = cbs,
		.cb_count = 3,
	};
	tt_program *prog;

	EX_TRY(tt_create_program_from_descriptor(&desc, &prog));
	free(reader);
	free(compute);
	free(writer);
	return prog;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"eltwise_add from a program descriptor, on up to %u cores.\n"
		EX_HELP_COMMON,
		MAX_CORES);
}

int main(int argc, char **argv)
{
	uint16_t *a = malloc(VALUES * 2), *b = malloc(VALUES * 2);
	uint16_t *c = malloc(VALUES * 2);
	float *got = malloc(VALUES * sizeof(float));
	float *want = malloc(VALUES * sizeof(float));
	uint32_t rvals[MAX_CORES][4], wvals[MAX_CORES][3], per_core;
	struct tt_core_args rargs[MAX_CORES], wargs[MAX_CORES];
	struct tt_core_range_set cores;
	tt_buffer *da, *db, *dc;
	tt_command_queue *cq;
	tt_program *prog;
	tt_device *dev;
	unsigned w, h, cw, ch, n = 0;
	size_t bad = 0;
	double t0, pcc;
	char detail[160];

	ex_no_args(argc, argv, usage);
	if (!a || !b || !c || !got || !want)
		ex_die("out of memory");
	ex_open_device(&dev);
	EX_TRY(tt_device_command_queue(dev, 0, &cq));
	EX_TRY(tt_device_logical_grid(dev, &w, &h));
	cw = w < 2 ? w : 2;
	ch = h < 2 ? h : 2;
	cores = tt_core_range_set_of_range(0, 0, cw - 1, ch - 1);
	per_core = TILES / (cw * ch);
	da = dram_tiles(dev);
	db = dram_tiles(dev);
	dc = dram_tiles(dev);

	/* Core k adds tiles k * per_core .. (k + 1) * per_core - 1. */
	for (unsigned y = 0; y < ch; y++) {
		for (unsigned x = 0; x < cw; x++, n++) {
			struct tt_xy core = { x, y };

			rvals[n][0] = (uint32_t)tt_buffer_address(da);
			rvals[n][1] = (uint32_t)tt_buffer_address(db);
			rvals[n][2] = n * per_core;
			rvals[n][3] = per_core;
			wvals[n][0] = (uint32_t)tt_buffer_address(dc);
			wvals[n][1] = n * per_core;
			wvals[n][2] = per_core;
			rargs[n] = (struct tt_core_args){ core, rvals[n], 4 };
			wargs[n] = (struct tt_core_args){ core, wvals[n], 3 };
		}
	}

	prog = describe(&cores, rargs, wargs, n, &per_core);

	fill(a, VALUES, 11);
	fill(b, VALUES, 12);
	t0 = ex_now_ms();
	EX_TRY(tt_enqueue_write_buffer(cq, da, a, false));
	EX_TRY(tt_enqueue_write_buffer(cq, db, b, false));
	EX_TRY(tt_enqueue_program(cq, prog, false));
	EX_TRY(tt_enqueue_read_buffer(cq, dc, c, true));

	for (size_t i = 0; i < VALUES; i++) {
		got[i] = tt_bf16_to_float(c[i]);
		want[i] = tt_bf16_to_float(a[i]) + tt_bf16_to_float(b[i]);
		bad += !bf16_close(got[i], want[i]);
	}
	pcc = ex_pcc(got, want, VALUES);
	snprintf(detail, sizeof(detail),
		 "%u tiles on %u cores, %zu of %u values off by more than bf16 rounding, PCC %.6f, %.1f ms",
		 TILES, n, bad, VALUES, pcc, ex_now_ms() - t0);

	tt_program_free(prog);
	tt_buffer_free(da);
	tt_buffer_free(db);
	tt_buffer_free(dc);
	tt_device_close(dev);
	free(a);
	free(b);
	free(c);
	free(got);
	free(want);
	return ex_verdict(NAME, bad == 0, detail);
}
