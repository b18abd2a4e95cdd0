// SPDX-License-Identifier: Apache-2.0
/*
 * dram_loopback: the smallest whole program. The host writes a DRAM
 * buffer, one data-movement kernel on core (0,0) copies it page by page
 * through an L1 scratch page into a second DRAM buffer, and the host reads
 * that back and compares every byte.
 *
 * Kernel: kernels/dram_loopback/copy.c.
 */
#include "example.h"

#define NAME "dram_loopback"
#define PAGES 50u
#define PAGE_SIZE 2048u

static tt_buffer *make_buffer(tt_device *dev, enum tt_buffer_type type,
			      uint64_t size)
{
	struct tt_buffer_config cfg = {
		.device = dev,
		.size = size,
		.page_size = PAGE_SIZE,
		.type = type,
	};
	tt_buffer *buf;

	EX_TRY(tt_create_buffer(&cfg, &buf));
	return buf;
}

/* Bytes that are not all alike, the same on every run. */
static void fill(uint8_t *p, size_t n)
{
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"Copy %u pages of DRAM through L1 of core (0,0) and compare.\n"
		EX_HELP_COMMON,
		PAGES);
}

int main(int argc, char **argv)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	struct tt_kernel_config dm = tt_data_movement_config(TT_RISCV_0);
	const size_t size = PAGES * PAGE_SIZE;
	uint8_t *in = malloc(size), *out = calloc(1, size);
	tt_buffer *src, *dst, *scratch;
	tt_command_queue *cq;
	tt_kernel_handle copy;
	tt_program *prog;
	tt_device *dev;
	uint32_t args[5];
	size_t bad = 0;
	double t0;
	char detail[128];

	ex_no_args(argc, argv, usage);
	if (!in || !out)
		ex_die("out of memory");
	ex_open_device(&dev);
	EX_TRY(tt_device_command_queue(dev, 0, &cq));

	/* Two DRAM buffers interleaved page by page over the DRAM banks, and
	 * one page of L1, at the same address on every core. */
	src = make_buffer(dev, TT_BUFFER_DRAM, size);
	dst = make_buffer(dev, TT_BUFFER_DRAM, size);
	scratch = make_buffer(dev, TT_BUFFER_L1, PAGE_SIZE);

	EX_TRY(tt_create_program(&prog));
	EX_TRY(tt_create_kernel(prog, ex_kernel("dram_loopback/copy.c"), &core,
				&dm, &copy));
	args[0] = (uint32_t)tt_buffer_address(scratch);
	args[1] = (uint32_t)tt_buffer_address(src);
	args[2] = (uint32_t)tt_buffer_address(dst);
	args[3] = PAGES;
	args[4] = PAGE_SIZE;
	EX_TRY(tt_set_runtime_args(prog, copy, (struct tt_xy){ 0, 0 }, args,
				   5));

	/* Queue order does the synchronisation: write, run, read. */
	fill(in, size);
	t0 = ex_now_ms();
	EX_TRY(tt_enqueue_write_buffer(cq, src, in, false));
	EX_TRY(tt_enqueue_program(cq, prog, false));
	EX_TRY(tt_enqueue_read_buffer(cq, dst, out, true));

	for (size_t i = 0; i < size; i++)
		bad += in[i] != out[i];
	snprintf(detail, sizeof(detail),
		 "%u pages of %u bytes, %zu bytes differ, %.1f ms", PAGES,
		 PAGE_SIZE, bad, ex_now_ms() - t0);

	tt_program_free(prog);
	tt_buffer_free(scratch);
	tt_buffer_free(dst);
	tt_buffer_free(src);
	tt_device_close(dev);
	free(in);
	free(out);
	return ex_verdict(NAME, bad == 0, detail);
}
