// SPDX-License-Identifier: Apache-2.0
/*
 * Reader of the multi-core matmul: for each sub-block of this core's
 * output block, A's row panel and B's column panel go to CB 0 and CB 1 in
 * chunks of KB tiles of K.
 *
 * Every core of a row needs the same A chunks, every core of a column the
 * same B chunks. So, when the host says so, one core reads a chunk from
 * DRAM and multicasts it to the others (TT-Metal's reuse-mcast matmul):
 * the first core of each row sends A along its row, the first core of
 * each column sends B down its column. Per chunk and operand:
 *
 *   receiver: reserve the CB space; zero `valid`; add 1 to the sender's
 *             `ready`; wait until `valid` is 1; push.
 *   sender:   reserve; read the tiles; wait until `ready` counts every
 *             receiver, zero it; multicast the chunk to the same CB
 *             address on the receivers (every core makes the same CB
 *             calls, so their pointers agree), then `valid` = 1; push.
 *
 * A core signals both operands before it waits for either, so a core
 * that sends one operand and receives the other cannot block a peer.
 *
 * Compile-time args: SH, SW (sub-block, tiles), KB (K chunk, tiles).
 * Runtime args:
 *    0 a, 1 b      DRAM addresses of the tiled inputs
 *    2 Kt, 3 Nt    K and N in tiles
 *    4 row0, 5 col0  the block's first output tile
 *    6 bm, 7 bn    this core's block (smaller at the matrix's edges)
 *    8 BM, 9 BN    the plan's block, the same on every core: all cores
 *                  of a row or column go through the same chunks
 *   10..15         A's sharing: role, x0, y0, x1, y1, n (below)
 *   16..21         B's sharing
 *   22..25         semaphore ids: A ready, A valid, B ready, B valid
 * Roles: 0 read alone; 1 send to the n cores of the NOC rectangle
 * (x0,y0)-(x1,y1); 2 receive from the sender at (x0,y0).
 *
 * A chunk always has the same shape in its CB, so that pushes add up to
 * the CB's size: A's is SH rows of KB tiles, B's KB rows of SW tiles,
 * row-major. Tiles past the matrix (edge sub-blocks, the last K chunk)
 * are not read and the compute kernel never uses them.
 */
#include "dataflow_api.h"

#define SH get_compile_time_arg_val(0)
#define SW get_compile_time_arg_val(1)
#define KB get_compile_time_arg_val(2)

enum { READ_ALONE = 0, SEND = 1, RECEIVE = 2 };

struct share {
	uint32_t role, x0, y0, x1, y1, n;
	volatile uint32_t *ready, *valid;
};

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void get_share(struct share *s, uint32_t arg, uint32_t sem)
{
	s->role = get_arg_val(arg);
	s->x0 = get_arg_val(arg + 1);
	s->y0 = get_arg_val(arg + 2);
	s->x1 = get_arg_val(arg + 3);
	s->y1 = get_arg_val(arg + 4);
	s->n = get_arg_val(arg + 5);
	s->ready = (volatile uint32_t *)(uintptr_t)get_semaphore(
		get_arg_val(sem));
	s->valid = (volatile uint32_t *)(uintptr_t)get_semaphore(
		get_arg_val(sem + 1));
}

/* Receiver: the chunk's space is reserved, tell the sender. */
static void signal_ready(const struct share *s)
{
	if (s->role != RECEIVE)
		return;
	noc_semaphore_set(s->valid, 0);
	noc_semaphore_inc(get_noc_addr(s->x0, s->y0,
				       (uint32_t)(uintptr_t)s->ready),
			  1);
}

/* Sender: the chunk at addr is read; pass it on once every receiver has
 * room for it. */
static void send(const struct share *s, uint32_t addr, uint32_t bytes)
{
	uint32_t flag = (uint32_t)(uintptr_t)s->valid;

	if (s->role != SEND)
		return;
	noc_semaphore_wait(s->ready, s->n);
	noc_semaphore_set(s->ready, 0);
	noc_async_write_multicast(addr,
				  get_noc_multicast_addr(s->x0, s->y0, s->x1,
							 s->y1, addr),
				  bytes, s->n);
	/* The flag follows the data on the same NOC, so it lands after. */
	noc_semaphore_set(s->valid, 1);
	noc_semaphore_set_multicast(flag,
				    get_noc_multicast_addr(s->x0, s->y0, s->x1,
							   s->y1, flag),
				    s->n);
	/* The chunk's pages are reused once the multicast has left them. */
	noc_async_writes_flushed();
}

static void wait_data(const struct share *s)
{
	if (s->role == RECEIVE)
		noc_semaphore_wait(s->valid, 1);
}

/* rows x cols tiles of a matrix `width` tiles wide, from tile (r0, c0),
 * into L1 at dst with rows `stride` tiles apart. */
static void read_block(const InterleavedAddrGenFast *g, uint32_t width,
		       uint32_t r0, uint32_t c0, uint32_t rows, uint32_t cols,
		       uint32_t dst, uint32_t stride)
{
	uint32_t tile = g->page_size;

	for (uint32_t r = 0; r < rows; r++) {
		uint32_t id = (r0 + r) * width + c0;
		uint32_t at = dst + r * stride * tile;

		for (uint32_t c = 0; c < cols; c++, id++, at += tile)
			noc_async_read_tile(id, g, at);
	}
}

void kernel_main(void)
{
	uint32_t kt = get_arg_val(2), nt = get_arg_val(3);
	uint32_t row0 = get_arg_val(4), col0 = get_arg_val(5);
	uint32_t bm = get_arg_val(6), bn = get_arg_val(7);
	uint32_t big_m = get_arg_val(8), big_n = get_arg_val(9);
	const InterleavedAddrGenFast ga = {
		.bank_base_address = get_arg_val(0),
		.page_size = get_tile_size(0),
		.data_format = get_dataformat(0),
		.is_dram = true,
	};
	const InterleavedAddrGenFast gb = {
		.bank_base_address = get_arg_val(1),
		.page_size = get_tile_size(1),
		.data_format = get_dataformat(1),
		.is_dram = true,
	};
	struct share sa, sb;

	get_share(&sa, 10, 22);
	get_share(&sb, 16, 24);
	for (uint32_t sr = 0; sr < big_m; sr += SH) {
		uint32_t rh = sr < bm ? min_u32(SH, bm - sr) : 0;

		for (uint32_t sc = 0; sc < big_n; sc += SW) {
			uint32_t cw = sc < bn ? min_u32(SW, bn - sc) : 0;

			for (uint32_t k0 = 0; k0 < kt; k0 += KB) {
				uint32_t kv = min_u32(KB, kt - k0);
				uint32_t pa, pb;

				cb_reserve_back(0, SH * KB);
				cb_reserve_back(1, KB * SW);
				pa = get_write_ptr(0);
				pb = get_write_ptr(1);
				signal_ready(&sa);
				signal_ready(&sb);
				if (sa.role != RECEIVE)
					read_block(&ga, kt, row0 + sr, k0, rh,
						   kv, pa, KB);
				if (sb.role != RECEIVE)
					read_block(&gb, nt, k0, col0 + sc, kv,
						   cw, pb, SW);
				noc_async_read_barrier();
				send(&sa, pa, SH * KB * ga.page_size);
				send(&sb, pb, KB * SW * gb.page_size);
				wait_data(&sa);
				wait_data(&sb);
				cb_push_back(0, SH * KB);
				cb_push_back(1, KB * SW);
			}
		}
	}
}
