// SPDX-License-Identifier: Apache-2.0
/*
 * eltwise_add: c = a + b on 64 tiles of bfloat16, on core (0,0), by the
 * classic three-kernel pipeline:
 *
 *   DRAM a, b --reader--> CB 0, CB 1 --compute--> CB 16 --writer--> DRAM c
 *
 * Each CB holds two tiles, so the reader fills one while the compute
 * kernel works on the other. The host checks every element against its
 * own sum, allowing the device's rounding to bfloat16 (one unit in the
 * last place).
 *
 * Element-wise operations do not care where an element sits in its tile,
 * so the vectors go to the device as they are, 1024 values per tile,
 * without tilizing.
 *
 * Kernels: kernels/eltwise_add/{reader,compute,writer}.c.
 */
#include "example.h"

#define NAME "eltwise_add"
#define TILES 64u
#define TILE_BYTES 2048u /* 32 x 32 bfloat16 */
#define VALUES (TILES * TT_TILE_ELEMS)

/* Is got x rounded to bfloat16 (up or down)? */
static bool bf16_close(float got, float x)
{
	float ulp = x == 0 ? 0 : ldexpf(1.0f, ilogbf(x) - 7);

	return fabsf(got - x) <= ulp;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"Add two vectors of %u bfloat16 tiles on core (0,0) and check.\n"
		EX_HELP_COMMON,
		TILES);
}

int main(int argc, char **argv)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	struct tt_kernel_config rcfg = tt_reader_config();
	struct tt_kernel_config wcfg = tt_writer_config();
	struct tt_kernel_config ccfg = tt_compute_config();
	const struct tt_xy xy = { 0, 0 };
	uint16_t *a = malloc(VALUES * 2), *b = malloc(VALUES * 2);
	uint16_t *c = malloc(VALUES * 2);
	float *got = malloc(VALUES * sizeof(float));
	float *want = malloc(VALUES * sizeof(float));
	tt_kernel_handle reader, writer, compute;
	tt_buffer *da, *db, *dc;
	tt_command_queue *cq;
	tt_program *prog;
	tt_device *dev;
	uint32_t rargs[4], wargs[3], tiles = TILES;
	size_t bad = 0;
	double t0, pcc;
	char detail[160];

	ex_no_args(argc, argv, usage);
	if (!a || !b || !c || !got || !want)
		ex_die("out of memory");
	ex_open_device(&dev);
	EX_TRY(tt_device_command_queue(dev, 0, &cq));
	da = ex_dram_tiles(dev, TILES, TILE_BYTES);
	db = ex_dram_tiles(dev, TILES, TILE_BYTES);
	dc = ex_dram_tiles(dev, TILES, TILE_BYTES);

	EX_TRY(tt_create_program(&prog));
	ex_double_buffered_cb(prog, &core, 0, TILE_BYTES);
	ex_double_buffered_cb(prog, &core, 1, TILE_BYTES);
	ex_double_buffered_cb(prog, &core, 16, TILE_BYTES);
	EX_TRY(tt_create_kernel(prog, ex_kernel("eltwise_add/reader.c"), &core,
				&rcfg, &reader));
	EX_TRY(tt_create_kernel(prog, ex_kernel("eltwise_add/compute.c"),
				&core, &ccfg, &compute));
	EX_TRY(tt_create_kernel(prog, ex_kernel("eltwise_add/writer.c"), &core,
				&wcfg, &writer));
	rargs[0] = (uint32_t)tt_buffer_address(da);
	rargs[1] = (uint32_t)tt_buffer_address(db);
	rargs[2] = 0; /* first tile */
	rargs[3] = TILES;
	wargs[0] = (uint32_t)tt_buffer_address(dc);
	wargs[1] = 0;
	wargs[2] = TILES;
	EX_TRY(tt_set_runtime_args(prog, reader, xy, rargs, 4));
	EX_TRY(tt_set_runtime_args(prog, writer, xy, wargs, 3));
	EX_TRY(tt_set_common_runtime_args(prog, compute, &tiles, 1));

	ex_fill_bf16_range(a, VALUES, 1, -8.0f, 8.0f);
	ex_fill_bf16_range(b, VALUES, 2, -8.0f, 8.0f);
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
		 "%u tiles, %zu of %u values off by more than bf16 rounding, PCC %.6f, %.1f ms",
		 TILES, bad, VALUES, pcc, ex_now_ms() - t0);

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
