/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Semaphores (TT-Metal's tt_metal/hw/inc/api/dataflow/dataflow_api.h):
 * TT_SEM_COUNT words of the program area (hw/l1.h), at the same L1 address
 * on every core, set to their initial values by the host before each run.
 *
 *   get_semaphore(id)                          L1 address of semaphore id
 *   noc_semaphore_set(sem, val)                local store
 *   noc_semaphore_wait(sem, val)               wait until *sem == val
 *   noc_semaphore_wait_min(sem, val)           wait until *sem >= val
 *   noc_semaphore_inc(noc_addr, incr[, noc[, vc]])   remote atomic add
 *   noc_semaphore_set_remote(src_l1, dst_noc_addr[, noc[, vc]])
 *   noc_semaphore_set_multicast(src_l1, mcast_addr, num_dests
 *                               [, linked[, noc]])    sender excluded
 *   noc_semaphore_set_multicast_loopback_src(...)     sender included
 *
 * sem is a `volatile uint32_t *` (cast get_semaphore()'s address). The
 * waits sleep on the word (the wait hint) and show "NSW" as waypoint.
 * The remote forms are NOC commands: asynchronous, finished by a barrier
 * (noc_async_atomic_barrier() for inc, noc_async_write_barrier() for the
 * others).
 */
#ifndef TT_KERNEL_API_SEM_H
#define TT_KERNEL_API_SEM_H

#include "kernel_api/noc.h"

__attribute__((noreturn)) void ttk_sem_fail(uint32_t id);
void ttk_sem_wait(volatile uint32_t *sem, uint32_t val, bool at_least);

static inline uint32_t get_semaphore(uint32_t id)
{
	if (TTK_UNLIKELY(id >= TT_SEM_COUNT))
		ttk_sem_fail(id);
	return TT_L1_SEM_ADDR(id);
}

static inline void noc_semaphore_set(volatile uint32_t *sem, uint32_t val)
{
	*sem = val;
}

static inline void noc_semaphore_wait(volatile uint32_t *sem, uint32_t val)
{
	if (*sem != val)
		ttk_sem_wait(sem, val, false);
	ttk_fence();
}

static inline void noc_semaphore_wait_min(volatile uint32_t *sem,
					  uint32_t val)
{
	if (*sem < val)
		ttk_sem_wait(sem, val, true);
	ttk_fence();
}

#define noc_semaphore_inc(...) TTK_OVERLOAD(ttk_noc_semaphore_inc_, __VA_ARGS__)
#define ttk_noc_semaphore_inc_2(addr, incr) \
	ttk_noc_atomic_inc(noc_index, (addr), (incr))
#define ttk_noc_semaphore_inc_3(addr, incr, noc) \
	ttk_noc_atomic_inc((noc), (addr), (incr))
#define ttk_noc_semaphore_inc_4(addr, incr, noc, vc) \
	((void)(vc), ttk_noc_atomic_inc((noc), (addr), (incr)))

#define noc_semaphore_set_remote(...) \
	TTK_OVERLOAD(ttk_noc_semaphore_set_remote_, __VA_ARGS__)
#define ttk_noc_semaphore_set_remote_2(src, dst) \
	ttk_noc_write(noc_index, (src), (dst), 4)
#define ttk_noc_semaphore_set_remote_3(src, dst, noc) \
	ttk_noc_write((noc), (src), (dst), 4)
#define ttk_noc_semaphore_set_remote_4(src, dst, noc, vc) \
	((void)(vc), ttk_noc_write((noc), (src), (dst), 4))

/* (TTK_OVERLOAD cannot expand inside itself: these call ttk_noc_mcast
 * directly rather than noc_async_write_multicast.) */
#define noc_semaphore_set_multicast(...) \
	TTK_OVERLOAD(ttk_noc_semaphore_set_multicast_, __VA_ARGS__)
#define ttk_noc_semaphore_set_multicast_3(src, dst, n) \
	((void)(n), ttk_noc_mcast(noc_index, (src), (dst), 4, false))
#define ttk_noc_semaphore_set_multicast_4(src, dst, n, linked) \
	((void)(n), (void)(linked),                             \
	 ttk_noc_mcast(noc_index, (src), (dst), 4, false))
#define ttk_noc_semaphore_set_multicast_5(src, dst, n, linked, noc) \
	((void)(n), (void)(linked), ttk_noc_mcast((noc), (src), (dst), 4, false))

#define noc_semaphore_set_multicast_loopback_src(...) \
	TTK_OVERLOAD(ttk_noc_semaphore_set_multicast_lb_, __VA_ARGS__)
#define ttk_noc_semaphore_set_multicast_lb_3(src, dst, n) \
	((void)(n), ttk_noc_mcast(noc_index, (src), (dst), 4, true))
#define ttk_noc_semaphore_set_multicast_lb_4(src, dst, n, linked) \
	((void)(n), (void)(linked),                                \
	 ttk_noc_mcast(noc_index, (src), (dst), 4, true))
#define ttk_noc_semaphore_set_multicast_lb_5(src, dst, n, linked, noc) \
	((void)(n), (void)(linked), ttk_noc_mcast((noc), (src), (dst), 4, true))

/* The words TT-Metal's multicast handshakes set and wait for. */
#ifndef VALID
#define VALID 1u
#endif
#ifndef INVALID
#define INVALID 0u
#endif

#endif /* TT_KERNEL_API_SEM_H */
