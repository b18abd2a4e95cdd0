// SPDX-License-Identifier: Apache-2.0
/*
 * custom_sfpi_smoothstep: y = smoothstep(0.25, 2, x) on 16 tiles of
 * bfloat16, on core (0,0), written by the kernel on the vector unit
 * (compute_kernel_api/sfpi.h, TT-Metal's SFPI):
 *
 *   t = clamp((x - edge0) * (1 / (edge1 - edge0)), 0, 1)
 *   y = t * t * (3 - 2 * t)
 *
 * The clamp is a per-lane conditional (SFPI_IF / SFPI_ELSEIF), so lanes
 * below edge0, between the edges and above edge1 take different branches
 * of the same instruction stream.
 *
 * The host computes the same operations in the same order in fp32 and
 * rounds the result to bfloat16 to nearest even, as the 16-bit DST does;
 * every value must be exactly equal.
 *
 * Kernels: kernels/custom_sfpi_smoothstep/compute.c, with eltwise_exp's
 * reader and writer.
 */
#include "example.h"

#define NAME "custom_sfpi_smoothstep"
#define TILES 16u
#define TILE_BYTES 2048u
#define VALUES (TILES * TT_TILE_ELEMS)
#define EDGE0 0.25f
#define EDGE1 2.0f

static uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* The kernel's operations, one by one (the build keeps them apart:
 * -ffp-contract=off). */
static float smoothstep(float x)
{
	float inv = 1.0f / (EDGE1 - EDGE0);
	float t = (x - EDGE0) * inv;

	if (t < 0.0f)
		t = 0.0f;
	else if (t > 1.0f)
		t = 1.0f;
	return (t * t) * (3.0f - 2.0f * t);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"smoothstep(%g, %g, x) of %u bfloat16 tiles with the kernel's own\n"
		"vector-unit code on core (0,0); the result must equal the host's exactly.\n"
		EX_HELP_COMMON,
		EDGE0, EDGE1, TILES);
}

int main(int argc, char **argv)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	struct tt_kernel_config rcfg = tt_reader_config();
	struct tt_kernel_config wcfg = tt_writer_config();
	struct tt_kernel_config ccfg = tt_compute_config();
	const struct tt_xy xy = { 0, 0 };
	uint16_t *x = malloc(VALUES * 2), *y = malloc(VALUES * 2);
	tt_kernel_handle reader, writer, compute;
	tt_buffer *dx, *dy;
	tt_command_queue *cq;
	tt_program *prog;
	tt_device *dev;
	uint32_t rargs[2], wargs[2], cargs[3], seed = 11;
	size_t bad = 0, first_bad = 0, low = 0, high = 0;
	double t0;
	char detail[200];

	ex_no_args(argc, argv, usage);
	if (!x || !y)
		ex_die("out of memory");
	ex_open_device(&dev);
	EX_TRY(tt_device_command_queue(dev, 0, &cq));
	dx = ex_dram_tiles(dev, TILES, TILE_BYTES);
	dy = ex_dram_tiles(dev, TILES, TILE_BYTES);

	EX_TRY(tt_create_program(&prog));
	ex_double_buffered_cb(prog, &core, 0, TILE_BYTES);
	ex_double_buffered_cb(prog, &core, 16, TILE_BYTES);
	EX_TRY(tt_create_kernel(prog, ex_kernel("eltwise_exp/reader.c"), &core,
				&rcfg, &reader));
	EX_TRY(tt_create_kernel(prog,
				ex_kernel("custom_sfpi_smoothstep/compute.c"),
				&core, &ccfg, &compute));
	EX_TRY(tt_create_kernel(prog, ex_kernel("eltwise_exp/writer.c"), &core,
				&wcfg, &writer));
	rargs[0] = (uint32_t)tt_buffer_address(dx);
	rargs[1] = TILES;
	wargs[0] = (uint32_t)tt_buffer_address(dy);
	wargs[1] = TILES;
	cargs[0] = TILES;
	cargs[1] = float_bits(EDGE0);
	cargs[2] = float_bits(EDGE1);
	EX_TRY(tt_set_runtime_args(prog, reader, xy, rargs, 2));
	EX_TRY(tt_set_runtime_args(prog, compute, xy, cargs, 3));
	EX_TRY(tt_set_runtime_args(prog, writer, xy, wargs, 2));

	/* x in [-1, 3): below, between and above the edges. */
	for (size_t i = 0; i < VALUES; i++) {
		seed = seed * 1664525u + 1013904223u;
		x[i] = tt_float_to_bf16(-1.0f +
					4.0f * (seed >> 8) / 16777216.0f);
	}
	t0 = ex_now_ms();
	EX_TRY(tt_enqueue_write_buffer(cq, dx, x, false));
	EX_TRY(tt_enqueue_program(cq, prog, false));
	EX_TRY(tt_enqueue_read_buffer(cq, dy, y, true));

	for (size_t i = 0; i < VALUES; i++) {
		float xi = tt_bf16_to_float(x[i]);

		low += xi <= EDGE0;
		high += xi >= EDGE1;
		if (y[i] != tt_float_to_bf16(smoothstep(xi)) && bad++ == 0)
			first_bad = i;
	}
	if (bad)
		snprintf(detail, sizeof(detail),
			 "%zu of %u values differ from the host's; the first, %zu: x = %g gave %g, expected %g",
			 bad, VALUES, first_bad, tt_bf16_to_float(x[first_bad]),
			 tt_bf16_to_float(y[first_bad]),
			 tt_bf16_to_float(tt_float_to_bf16(
				 smoothstep(tt_bf16_to_float(x[first_bad])))));
	else
		snprintf(detail, sizeof(detail),
			 "%u tiles (%zu values at 0, %zu at 1), all equal to the host's, %.1f ms",
			 TILES, low, high, ex_now_ms() - t0);

	tt_program_free(prog);
	tt_buffer_free(dx);
	tt_buffer_free(dy);
	tt_device_close(dev);
	free(x);
	free(y);
	return ex_verdict(NAME, bad == 0, detail);
}
