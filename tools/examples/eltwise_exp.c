// SPDX-License-Identifier: Apache-2.0
/*
 * eltwise_exp: y = exp(x) on 64 tiles of bfloat16, on core (0,0), with a
 * unary operation of the vector unit (TT-Metal's SFPU): the compute kernel
 * copies tiles into DST, applies exp_tile there and packs the result.
 * It takes its tile count and block size as compile-time arguments, so the
 * loop bounds are constants in its code.
 *
 * The host compares with expf of the same bfloat16 inputs: every value
 * within 1% (bfloat16 keeps 8 significant bits) and a Pearson correlation
 * of at least 0.999 over the whole vector.
 *
 * Kernels: kernels/eltwise_exp/{reader,compute,writer}.c.
 */
#include "example.h"

#define NAME "eltwise_exp"
#define TILES 64u
#define BLOCK 4u /* tiles in DST at once */
#define TILE_BYTES 2048u
#define VALUES (TILES * TT_TILE_ELEMS)
#define REL_TOL 0.01f
#define MIN_PCC 0.999

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

/* Room for two blocks, so the reader can fill one while compute works. */
static void block_cb(tt_program *prog, const struct tt_core_range_set *core,
		     unsigned index)
{
	struct tt_circular_buffer_config cfg = tt_circular_buffer_config(
		2 * BLOCK * TILE_BYTES, index, TT_FLOAT16_B, TILE_BYTES);
	tt_cb_handle cb;

	EX_TRY(tt_create_circular_buffer(prog, core, &cfg, &cb));
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"exp() of %u bfloat16 tiles on core (0,0), checked against expf.\n"
		EX_HELP_COMMON,
		TILES);
}

int main(int argc, char **argv)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	struct tt_kernel_config rcfg = tt_reader_config();
	struct tt_kernel_config wcfg = tt_writer_config();
	struct tt_kernel_config ccfg = tt_compute_config();
	static const uint32_t compile_args[] = { TILES, BLOCK };
	const struct tt_xy xy = { 0, 0 };
	uint16_t *x = malloc(VALUES * 2), *y = malloc(VALUES * 2);
	float *got = malloc(VALUES * sizeof(float));
	float *want = malloc(VALUES * sizeof(float));
	tt_kernel_handle reader, writer, compute;
	tt_buffer *dx, *dy;
	tt_command_queue *cq;
	tt_program *prog;
	tt_device *dev;
	uint32_t rargs[2], wargs[2], seed = 7;
	size_t bad = 0;
	double t0, pcc;
	char detail[160];

	ex_no_args(argc, argv, usage);
	if (!x || !y || !got || !want)
		ex_die("out of memory");
	ex_open_device(&dev);
	EX_TRY(tt_device_command_queue(dev, 0, &cq));
	dx = dram_tiles(dev);
	dy = dram_tiles(dev);

	EX_TRY(tt_create_program(&prog));
	block_cb(prog, &core, 0);
	block_cb(prog, &core, 16);
	ccfg.compile_args = compile_args;
	ccfg.compile_arg_count = 2;
	EX_TRY(tt_create_kernel(prog, ex_kernel("eltwise_exp/reader.c"), &core,
				&rcfg, &reader));
	EX_TRY(tt_create_kernel(prog, ex_kernel("eltwise_exp/compute.c"),
				&core, &ccfg, &compute));
	EX_TRY(tt_create_kernel(prog, ex_kernel("eltwise_exp/writer.c"), &core,
				&wcfg, &writer));
	rargs[0] = (uint32_t)tt_buffer_address(dx);
	rargs[1] = TILES;
	wargs[0] = (uint32_t)tt_buffer_address(dy);
	wargs[1] = TILES;
	EX_TRY(tt_set_runtime_args(prog, reader, xy, rargs, 2));
	EX_TRY(tt_set_runtime_args(prog, writer, xy, wargs, 2));

	/* Inputs in [-4, 4): results from 0.018 to 54.6. */
	for (size_t i = 0; i < VALUES; i++) {
		seed = seed * 1664525u + 1013904223u;
		x[i] = tt_float_to_bf16(-4.0f +
					8.0f * (seed >> 8) / 16777216.0f);
	}
	t0 = ex_now_ms();
	EX_TRY(tt_enqueue_write_buffer(cq, dx, x, false));
	EX_TRY(tt_enqueue_program(cq, prog, false));
	EX_TRY(tt_enqueue_read_buffer(cq, dy, y, true));

	for (size_t i = 0; i < VALUES; i++) {
		got[i] = tt_bf16_to_float(y[i]);
		want[i] = expf(tt_bf16_to_float(x[i]));
		bad += !(fabsf(got[i] - want[i]) <= REL_TOL * want[i]);
	}
	pcc = ex_pcc(got, want, VALUES);
	snprintf(detail, sizeof(detail),
		 "%u tiles, %zu of %u values off by more than 1%%, PCC %.6f (at least %.3f), %.1f ms",
		 TILES, bad, VALUES, pcc, MIN_PCC, ex_now_ms() - t0);

	tt_program_free(prog);
	tt_buffer_free(dx);
	tt_buffer_free(dy);
	tt_device_close(dev);
	free(x);
	free(y);
	free(got);
	free(want);
	return ex_verdict(NAME, bad == 0 && pcc >= MIN_PCC, detail);
}
