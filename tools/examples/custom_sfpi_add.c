// SPDX-License-Identifier: Apache-2.0
/*
 * custom_sfpi_add: c = a + b on 32 tiles of bfloat16, on core (0,0), with
 * the addition written by the kernel itself on the vector unit
 * (compute_kernel_api/sfpi.h, TT-Metal's SFPI) instead of a built-in tile
 * function: both tiles are copied into DST, and a loop over the tile's 4
 * faces of 8 vectors loads a vector of each into registers, adds them
 * and stores the sum back to DST.
 *
 * The host computes the same thing: the fp32 sum of the two bfloat16
 * values, rounded to bfloat16 to nearest even as a 16-bit DST does, and
 * requires every value to be exactly equal.
 *
 * Kernels: kernels/custom_sfpi_add/compute.c, with eltwise_add's reader
 * and writer.
 */
#include "example.h"

#define NAME "custom_sfpi_add"
#define TILES 32u
#define TILE_BYTES 2048u /* 32 x 32 bfloat16 */
#define VALUES (TILES * TT_TILE_ELEMS)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"Add two vectors of %u bfloat16 tiles with the kernel's own vector-unit\n"
		"code on core (0,0); the result must equal the host's exactly.\n"
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
	tt_kernel_handle reader, writer, compute;
	tt_buffer *da, *db, *dc;
	tt_command_queue *cq;
	tt_program *prog;
	tt_device *dev;
	uint32_t rargs[4], wargs[3], tiles = TILES;
	size_t bad = 0, first_bad = 0;
	double t0;
	char detail[200];

	ex_no_args(argc, argv, usage);
	if (!a || !b || !c)
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
	EX_TRY(tt_create_kernel(prog, ex_kernel("custom_sfpi_add/compute.c"),
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

	/* Exact: one fp32 addition, one rounding to bfloat16. */
	for (size_t i = 0; i < VALUES; i++) {
		float sum = tt_bf16_to_float(a[i]) + tt_bf16_to_float(b[i]);

		if (c[i] != tt_float_to_bf16(sum) && bad++ == 0)
			first_bad = i;
	}
	if (bad)
		snprintf(detail, sizeof(detail),
			 "%zu of %u values differ from the host's; the first, %zu: %g + %g gave %g",
			 bad, VALUES, first_bad, tt_bf16_to_float(a[first_bad]),
			 tt_bf16_to_float(b[first_bad]),
			 tt_bf16_to_float(c[first_bad]));
	else
		snprintf(detail, sizeof(detail),
			 "%u tiles, all %u values equal to the host's, %.1f ms",
			 TILES, VALUES, ex_now_ms() - t0);

	tt_program_free(prog);
	tt_buffer_free(da);
	tt_buffer_free(db);
	tt_buffer_free(dc);
	tt_device_close(dev);
	free(a);
	free(b);
	free(c);
	return ex_verdict(NAME, bad == 0, detail);
}
