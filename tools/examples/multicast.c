// SPDX-License-Identifier: Apache-2.0
/*
 * multicast: core (0,0) reads an 8 KiB block from DRAM and writes it, in
 * one NOC multicast, to the same L1 address of every core of a rectangle
 * of up to 4 x 4 cores beside it; a second multicast sets a semaphore on
 * all of them to say the block is there. Each receiver first tells the
 * sender it is ready (a semaphore increment), which is how TT-Metal
 * programs keep a multicast from overwriting data still in use.
 *
 * A multicast names its rectangle in NOC coordinates. The host takes the
 * NOC bounding box of the destination cores and checks that the Tensix
 * cores inside it are exactly those, so nothing else is written.
 *
 * The host then reads the block from every destination's L1 and the
 * checksum each receiver computed, and checks that the core just right of
 * the rectangle kept its own data.
 *
 * Kernels: kernels/multicast/{sender,receiver}.c.
 */
#include "example.h"

#define NAME "multicast"
#define BLOCK_BYTES 8192u
#define MAX_SIDE 4u

struct rect {
	struct tt_core_range logical;
	unsigned x0, y0, x1, y1; /* NOC 0 bounding box */
};

static tt_buffer *make_buffer(tt_device *dev, enum tt_buffer_type type,
			      uint64_t size)
{
	struct tt_buffer_config cfg = {
		.device = dev,
		.size = size,
		.page_size = size,
		.type = type,
	};
	tt_buffer *buf;

	EX_TRY(tt_create_buffer(&cfg, &buf));
	return buf;
}

static struct tt_xy noc_of(tt_device *dev, unsigned x, unsigned y)
{
	struct tt_xy noc;

	EX_TRY(tt_device_worker_core(dev, (struct tt_xy){ x, y }, &noc));
	return noc;
}

/* The NOC box of the logical range r, which must hold only r's cores. */
static struct rect noc_rect(tt_device *dev, struct tt_core_range r)
{
	struct rect m = { r, ~0u, ~0u, 0, 0 };
	unsigned tensix = 0;

	for (unsigned y = r.start.y; y <= r.end.y; y++) {
		for (unsigned x = r.start.x; x <= r.end.x; x++) {
			struct tt_xy n = noc_of(dev, x, y);

			m.x0 = n.x < m.x0 ? n.x : m.x0;
			m.y0 = n.y < m.y0 ? n.y : m.y0;
			m.x1 = n.x > m.x1 ? n.x : m.x1;
			m.y1 = n.y > m.y1 ? n.y : m.y1;
		}
	}
	for (unsigned y = m.y0; y <= m.y1; y++)
		for (unsigned x = m.x0; x <= m.x1; x++)
			tensix += tt_device_core_type(dev, x, y) ==
					  TT_CORE_TENSIX &&
				  !tt_device_core_harvested(dev, x, y);
	if (tensix != tt_core_range_num_cores(&r)) {
		fprintf(stderr,
			EX_NAME ": NOC rectangle (%u,%u)-(%u,%u) holds %u Tensix cores, not the %u destinations\n",
			m.x0, m.y0, m.x1, m.y1, tensix,
			tt_core_range_num_cores(&r));
		exit(1);
	}
	return m;
}

/* The receivers' checksum of a block. */
static uint32_t checksum(const uint32_t *w, size_t words)
{
	uint32_t h = 0;

	for (size_t i = 0; i < words; i++)
		h = (h << 5 | h >> 27) ^ w[i];
	return h;
}

/* Every destination holds the block and the right checksum; returns the
 * number of cores that do not. */
static unsigned check_destinations(tt_device *dev,
				   const struct tt_core_range_set *dests,
				   uint64_t block, uint64_t result,
				   const uint32_t *data, uint32_t *seen)
{
	uint32_t sum = checksum(data, BLOCK_BYTES / 4), got;
	struct tt_core_iter it;
	unsigned bad = 0;
	struct tt_xy c;

	for (tt_core_iter_init(&it, dests); tt_core_iter_next(&it, &c);) {
		bool same;

		EX_TRY(tt_read_from_device_l1(dev, c, block, seen,
					      BLOCK_BYTES));
		EX_TRY(tt_read_from_device_l1(dev, c, result, &got, 4));
		same = !memcmp(seen, data, BLOCK_BYTES);
		if (!same || got != sum) {
			fprintf(stderr,
				"core (%u,%u): block %s, checksum %08x (expected %08x)\n",
				c.x, c.y, same ? "matches" : "differs", got,
				sum);
			bad++;
		}
	}
	return bad;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"Multicast %u bytes from core (0,0) to a rectangle of cores.\n"
		EX_HELP_COMMON,
		BLOCK_BYTES);
}

int main(int argc, char **argv)
{
	struct tt_kernel_config dm = tt_data_movement_config(TT_RISCV_0);
	const struct tt_xy sender = { 0, 0 };
	struct tt_core_range_set sender_set = tt_core_range_set_of_core(0, 0);
	struct tt_core_range_set dest_set, all;
	uint32_t *data = malloc(BLOCK_BYTES), *seen = malloc(BLOCK_BYTES);
	uint32_t sargs[10], rargs[7], ready, valid, mark = 0xC0FFEE, v;
	tt_kernel_handle send, recv;
	tt_buffer *src, *block, *result;
	struct tt_xy outside, sender_noc;
	tt_command_queue *cq;
	struct rect r;
	tt_program *prog;
	tt_device *dev;
	unsigned w, h, x1, y1, dests, bad;
	double t0, ms;
	char detail[160];

	ex_no_args(argc, argv, usage);
	if (!data || !seen)
		ex_die("out of memory");
	ex_open_device(&dev);
	EX_TRY(tt_device_command_queue(dev, 0, &cq));
	EX_TRY(tt_device_logical_grid(dev, &w, &h));
	if (w < 3)
		ex_die("a grid %u cores wide has no room beside the rectangle",
		       w);
	/* Receivers: columns 1 .. x1 (leaving a column beside them) and rows
	 * 0 .. y1, at most MAX_SIDE of each. */
	x1 = w - 2 < MAX_SIDE ? w - 2 : MAX_SIDE;
	y1 = (h < MAX_SIDE ? h : MAX_SIDE) - 1;
	r = noc_rect(dev, tt_core_range(1, 0, x1, y1));
	dests = tt_core_range_num_cores(&r.logical);
	dest_set = tt_core_range_set_of_range(1, 0, x1, y1);
	all = sender_set;
	EX_TRY(tt_core_range_set_merge(&all, &dest_set));
	sender_noc = noc_of(dev, sender.x, sender.y);
	outside = (struct tt_xy){ x1 + 1, 0 };

	src = make_buffer(dev, TT_BUFFER_DRAM, BLOCK_BYTES);
	/* L1 buffers reserve their address range on every core. */
	block = make_buffer(dev, TT_BUFFER_L1, BLOCK_BYTES);
	result = make_buffer(dev, TT_BUFFER_L1, 16);

	EX_TRY(tt_create_program(&prog));
	EX_TRY(tt_create_semaphore(prog, &all, 0, TT_CORE_TENSIX, &ready));
	EX_TRY(tt_create_semaphore(prog, &all, 0, TT_CORE_TENSIX, &valid));
	EX_TRY(tt_create_kernel(prog, ex_kernel("multicast/sender.c"),
				&sender_set, &dm, &send));
	EX_TRY(tt_create_kernel(prog, ex_kernel("multicast/receiver.c"),
				&dest_set, &dm, &recv));
	sargs[0] = (uint32_t)tt_buffer_address(src);
	sargs[1] = (uint32_t)tt_buffer_address(block);
	sargs[2] = BLOCK_BYTES;
	sargs[3] = r.x0;
	sargs[4] = r.y0;
	sargs[5] = r.x1;
	sargs[6] = r.y1;
	sargs[7] = dests;
	sargs[8] = ready;
	sargs[9] = valid;
	EX_TRY(tt_set_runtime_args(prog, send, sender, sargs, 10));
	rargs[0] = sender_noc.x;
	rargs[1] = sender_noc.y;
	rargs[2] = (uint32_t)tt_buffer_address(block);
	rargs[3] = BLOCK_BYTES;
	rargs[4] = ready;
	rargs[5] = valid;
	rargs[6] = (uint32_t)tt_buffer_address(result);
	EX_TRY(tt_set_runtime_args_cores(prog, recv, &dest_set, rargs, 7));

	for (size_t i = 0; i < BLOCK_BYTES / 4; i++)
		data[i] = (uint32_t)i * 2654435761u;
	/* A mark on a core beside the rectangle, which must survive. */
	EX_TRY(tt_write_to_device_l1(dev, outside, tt_buffer_address(block),
				     &mark, 4));
	t0 = ex_now_ms();
	EX_TRY(tt_enqueue_write_buffer(cq, src, data, false));
	EX_TRY(tt_enqueue_program(cq, prog, true));
	ms = ex_now_ms() - t0;

	bad = check_destinations(dev, &dest_set, tt_buffer_address(block),
				 tt_buffer_address(result), data, seen);
	EX_TRY(tt_read_from_device_l1(dev, outside, tt_buffer_address(block),
				      &v, 4));
	if (v != mark) {
		fprintf(stderr, "core (%u,%u) beside the rectangle was written\n",
			outside.x, outside.y);
		bad++;
	}
	snprintf(detail, sizeof(detail),
		 "%u bytes from core (0,0) to %u cores (%u,%u)-(%u,%u), %u wrong, %.1f ms",
		 BLOCK_BYTES, dests, r.logical.start.x, r.logical.start.y,
		 r.logical.end.x, r.logical.end.y, bad, ms);

	tt_program_free(prog);
	tt_buffer_free(src);
	tt_buffer_free(block);
	tt_buffer_free(result);
	tt_device_close(dev);
	free(data);
	free(seen);
	return ex_verdict(NAME, bad == 0, detail);
}
