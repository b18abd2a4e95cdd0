/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NOC transfers (TT-Metal's tt_metal/hw/inc/api/dataflow/dataflow_api.h),
 * through this hart's command buffer of the NOC interface (hw/niu.h;
 * buffer = hart index).
 *
 * "Async" calls issue the command and return; a barrier waits until every
 * command this hart issued on that NOC is done. The NIU runs one command
 * per buffer at a time, so "done" means the hart's buffer is idle again:
 * the barriers wait (the wait hint, never a spin) on its ISSUE register.
 * Which NOC: the kernel's default (noc_index, NOC_INDEX) unless the call
 * names one as its last argument, as TT-Metal's optional noc parameter.
 * Coordinates are NOC 0's either way (kernel_api/noc_addr.h); commands on
 * NOC 1 get mirrored coordinates from the library.
 *
 * A command the NOC refuses (an address outside the target's map, a node
 * that does not exist, a bad multicast rectangle) is reported as
 *   NOC <op> to (x,y) 0x<addr> len <n> refused (error <code>)
 * with the TT_DEV_ERR_* code of hw/host.h, and the kernel halts.
 *
 *   get_noc_addr(addr[, noc])                  this core
 *   get_noc_addr(x, y, addr[, noc])            core (x, y)
 *   get_noc_addr(id, gen[, offset[, noc]])     page id of an interleaved
 *                                              buffer (kernel_api/addrgen.h)
 *   noc_async_read(src_noc_addr, dst_l1, size[, noc])
 *   noc_async_read_one_packet(...)             same (no packet limit here)
 *   noc_async_write(src_l1, dst_noc_addr, size[, noc[, vc]])
 *   noc_async_write_one_packet(...)
 *   noc_async_read_page(id, gen, dst_l1[, offset[, noc]]), _read_tile
 *   noc_async_write_page(id, gen, src_l1[, size[, offset[, noc]]])
 *   noc_async_write_tile(id, gen, src_l1[, noc])
 *   noc_async_write_multicast(src_l1, mcast_addr, size, num_dests
 *                             [, linked[, noc]])   the sender is excluded
 *   noc_async_write_multicast_loopback_src(...)    the sender included
 *   noc_inline_dw_write(noc_addr, val[, be[, noc]])
 *   noc_async_read_barrier([noc]), noc_async_write_barrier([noc]),
 *   noc_async_writes_flushed([noc]), noc_async_atomic_barrier([noc]),
 *   noc_async_full_barrier()                   both NOCs
 *
 * num_dests and linked are accepted for TT-Metal's sake; the NIU needs
 * neither. A multicast delivers to the enabled Tensix cores of the
 * rectangle; "sender excluded" sends around this core (up to four
 * rectangles), so each part must hold a Tensix core.
 */
#ifndef TT_KERNEL_API_NOC_H
#define TT_KERNEL_API_NOC_H

#include "kernel_api/addrgen.h"

/* kernel/knoc.c */
void ttk_noc_read(uint32_t noc, uint64_t src, uint32_t dst, uint32_t len);
void ttk_noc_write(uint32_t noc, uint32_t src, uint64_t dst, uint32_t len);
void ttk_noc_mcast(uint32_t noc, uint32_t src, uint64_t dst, uint32_t len,
		   bool loopback);
void ttk_noc_atomic_inc(uint32_t noc, uint64_t dst, uint32_t incr);
void ttk_noc_inline_write(uint32_t noc, uint64_t dst, uint32_t val,
			  uint32_t be);
void ttk_noc_finish(uint32_t noc);
/* Per NOC: 1 once its state is set up at the kernel's first command
 * (ready), 1 while a command may still run (pending). The runtime clears
 * both at each start (all = 0). */
union ttk_noc_flags {
	uint32_t all;
	struct {
		uint8_t ready[2];
		uint8_t pending[2];
	};
};
extern union ttk_noc_flags ttk_noc_flags;

/* Wait until this hart's commands on `noc` are done (and checked). */
static inline void ttk_noc_barrier(uint32_t noc)
{
	noc &= 1;
	if (TTK_UNLIKELY(ttk_noc_flags.pending[noc]))
		ttk_noc_finish(noc);
	/* Reads of what arrived come after this. */
	ttk_fence();
}

/* ---- addresses ---- */

static inline uint64_t ttk_noc_self(uint32_t addr)
{
	return ttk_noc_xy(my_x[0], my_y[0], addr);
}

static inline uint64_t ttk_noc_self2(uint32_t addr, uint32_t noc,
				     uint32_t unused)
{
	(void)noc;
	(void)unused;
	return ttk_noc_self(addr);
}

#define get_noc_addr(...) TTK_OVERLOAD(ttk_get_noc_addr_, __VA_ARGS__)
#define ttk_get_noc_addr_1(a) ttk_noc_self(a)
#define ttk_get_noc_addr_2(a, b) \
	TTK_GEN_SELECT(b, ttk_gaddr, ttk_noc_self2)((a), (b), 0)
#define ttk_get_noc_addr_3(a, b, c) \
	TTK_GEN_SELECT(b, ttk_gaddr, ttk_noc_xy)((a), (b), (c))
#define ttk_get_noc_addr_4(a, b, c, noc) \
	((void)(noc), TTK_GEN_SELECT(b, ttk_gaddr, ttk_noc_xy)((a), (b), (c)))

/* ---- transfers ---- */

#define noc_async_read(...) TTK_OVERLOAD(ttk_noc_async_read_, __VA_ARGS__)
#define ttk_noc_async_read_3(src, dst, size) \
	ttk_noc_read(noc_index, (src), (dst), (size))
#define ttk_noc_async_read_4(src, dst, size, noc) \
	ttk_noc_read((noc), (src), (dst), (size))
#define noc_async_read_one_packet(...) noc_async_read(__VA_ARGS__)

#define noc_async_write(...) TTK_OVERLOAD(ttk_noc_async_write_, __VA_ARGS__)
#define ttk_noc_async_write_3(src, dst, size) \
	ttk_noc_write(noc_index, (src), (dst), (size))
#define ttk_noc_async_write_4(src, dst, size, noc) \
	ttk_noc_write((noc), (src), (dst), (size))
#define ttk_noc_async_write_5(src, dst, size, noc, vc) \
	((void)(vc), ttk_noc_write((noc), (src), (dst), (size)))
#define noc_async_write_one_packet(...) noc_async_write(__VA_ARGS__)

#define noc_async_read_page(...) \
	TTK_OVERLOAD(ttk_noc_async_read_page_, __VA_ARGS__)
#define ttk_noc_async_read_page_3(id, s, dst) \
	ttk_noc_async_read_page_5(id, s, dst, 0, noc_index)
#define ttk_noc_async_read_page_4(id, s, dst, off) \
	ttk_noc_async_read_page_5(id, s, dst, off, noc_index)
#define ttk_noc_async_read_page_5(id, s, dst, off, noc)                   \
	ttk_noc_read((noc), ttk_gen_noc_addr((id), s, (off)), (dst),      \
		     ttk_gen_page_size(s))
#define noc_async_read_tile(...) noc_async_read_page(__VA_ARGS__)

#define noc_async_write_page(...) \
	TTK_OVERLOAD(ttk_noc_async_write_page_, __VA_ARGS__)
#define ttk_noc_async_write_page_3(id, s, src) \
	ttk_noc_async_write_page_6(id, s, src, ttk_gen_page_size(s), 0, \
				   noc_index)
#define ttk_noc_async_write_page_4(id, s, src, size) \
	ttk_noc_async_write_page_6(id, s, src, size, 0, noc_index)
#define ttk_noc_async_write_page_5(id, s, src, size, off) \
	ttk_noc_async_write_page_6(id, s, src, size, off, noc_index)
#define ttk_noc_async_write_page_6(id, s, src, size, off, noc) \
	ttk_noc_write((noc), (src), ttk_gen_noc_addr((id), s, (off)), (size))

#define noc_async_write_tile(...) \
	TTK_OVERLOAD(ttk_noc_async_write_tile_, __VA_ARGS__)
#define ttk_noc_async_write_tile_3(id, s, src) \
	ttk_noc_async_write_page_6(id, s, src, ttk_gen_page_size(s), 0, \
				   noc_index)
#define ttk_noc_async_write_tile_4(id, s, src, noc) \
	ttk_noc_async_write_page_6(id, s, src, ttk_gen_page_size(s), 0, noc)

#define noc_async_write_multicast(...) \
	TTK_OVERLOAD(ttk_noc_async_write_multicast_, __VA_ARGS__)
#define ttk_noc_async_write_multicast_4(src, dst, size, n) \
	((void)(n), ttk_noc_mcast(noc_index, (src), (dst), (size), false))
#define ttk_noc_async_write_multicast_5(src, dst, size, n, linked) \
	((void)(linked), ttk_noc_async_write_multicast_4(src, dst, size, n))
#define ttk_noc_async_write_multicast_6(src, dst, size, n, linked, noc) \
	((void)(n), (void)(linked),                                      \
	 ttk_noc_mcast((noc), (src), (dst), (size), false))

#define noc_async_write_multicast_loopback_src(...) \
	TTK_OVERLOAD(ttk_noc_async_write_multicast_lb_, __VA_ARGS__)
#define ttk_noc_async_write_multicast_lb_4(src, dst, size, n) \
	((void)(n), ttk_noc_mcast(noc_index, (src), (dst), (size), true))
#define ttk_noc_async_write_multicast_lb_5(src, dst, size, n, linked) \
	((void)(linked), ttk_noc_async_write_multicast_lb_4(src, dst, size, n))
#define ttk_noc_async_write_multicast_lb_6(src, dst, size, n, linked, noc) \
	((void)(n), (void)(linked),                                         \
	 ttk_noc_mcast((noc), (src), (dst), (size), true))

/* A 32-bit value to a NOC address, without an L1 source; be = byte
 * enables (bit i: byte i), 0xF by default. Not to DRAM in TT-Metal; the
 * model does not mind. */
#define noc_inline_dw_write(...) \
	TTK_OVERLOAD(ttk_noc_inline_dw_write_, __VA_ARGS__)
#define ttk_noc_inline_dw_write_2(addr, val) \
	ttk_noc_inline_write(noc_index, (addr), (val), 0xF)
#define ttk_noc_inline_dw_write_3(addr, val, be) \
	ttk_noc_inline_write(noc_index, (addr), (val), (be))
#define ttk_noc_inline_dw_write_4(addr, val, be, noc) \
	ttk_noc_inline_write((noc), (addr), (val), (be))

/* ---- barriers ---- */

#define TTK_BARRIER_0() ttk_noc_barrier(noc_index)
#define TTK_BARRIER_1(noc) ttk_noc_barrier(noc)
#define TTK_BARRIER(...) TTK_OVERLOAD(TTK_BARRIER_ __VA_OPT__(, ) __VA_ARGS__)
#define noc_async_read_barrier(...) TTK_BARRIER(__VA_ARGS__)
#define noc_async_write_barrier(...) TTK_BARRIER(__VA_ARGS__)
#define noc_async_writes_flushed(...) TTK_BARRIER(__VA_ARGS__)
#define noc_async_posted_writes_flushed(...) TTK_BARRIER(__VA_ARGS__)
#define noc_async_atomic_barrier(...) TTK_BARRIER(__VA_ARGS__)

static inline void noc_async_full_barrier(void)
{
	ttk_noc_barrier(0);
	ttk_noc_barrier(1);
}

#endif /* TT_KERNEL_API_NOC_H */
