/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Register and shared-memory access for code running on a hart.
 *
 * Registers are 32-bit and must be accessed as whole aligned words, so
 * every access goes through a volatile word pointer: the compiler may
 * neither merge, split nor drop them.
 */
#ifndef TT_FW_MMIO_H
#define TT_FW_MMIO_H

#include <stdint.h>

/* A local address as a pointer to a 32-bit register or shared word. */
static inline volatile uint32_t *mmio_ptr(uintptr_t addr)
{
	return (volatile uint32_t *)addr;
}

static inline uint32_t mmio_read32(uintptr_t addr)
{
	return *mmio_ptr(addr);
}

static inline void mmio_write32(uintptr_t addr, uint32_t val)
{
	*mmio_ptr(addr) = val;
}

/*
 * Order every earlier load and store before every later one, for the
 * compiler and the hart. Used where another agent (the host, the NOC,
 * a sibling hart) must see data before the word that publishes it.
 */
static inline void mmio_barrier(void)
{
	__asm__ volatile("fence rw, rw" ::: "memory");
}

#endif /* TT_FW_MMIO_H */
