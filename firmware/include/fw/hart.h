/* SPDX-License-Identifier: Apache-2.0 */
/*
 * This hart and its node's hart control page (hw/hart.h), as seen from
 * code running on the hart.
 */
#ifndef TT_FW_HART_H
#define TT_FW_HART_H

#include <stdint.h>

#include "hw/hart.h"
#include "hw/tile.h"
#include "fw/mmio.h"
#include "fw/wait.h"

/* Local address of a register in this node's hart control page. */
static inline uintptr_t hart_reg(uint32_t off)
{
	return (uintptr_t)TT_REG_HART_ADDR + off;
}

/* Index of the hart running this code (enum tt_tensix_hart; 0 on ARC). */
static inline uint32_t hart_self(void)
{
	return mmio_read32(hart_reg(TT_HART_SELF));
}

/* Device time in microseconds since power-on. The two halves cannot be
 * read at once, so the high half is read again: if it moved, the low half
 * wrapped in between and is read again under the new high half. */
static inline uint64_t hart_time_us(void)
{
	uint32_t hi = mmio_read32(hart_reg(TT_HART_TIME_HI));
	uint32_t lo = mmio_read32(hart_reg(TT_HART_TIME_LO));
	uint32_t hi2 = mmio_read32(hart_reg(TT_HART_TIME_HI));

	if (hi2 != hi)
		lo = mmio_read32(hart_reg(TT_HART_TIME_LO));
	return (uint64_t)hi2 << 32 | lo;
}

/* Make every later wait of this hart end at device time t (0 = never).
 * Only this hart reads its WAKE_AT, and only while it waits, so the two
 * halves need no ordering. */
static inline void hart_set_wake_at(uint64_t t)
{
	uint32_t self = hart_self();

	mmio_write32(hart_reg(TT_HART_REG(self, TT_HART_WAKE_AT_HI)),
		     (uint32_t)(t >> 32));
	mmio_write32(hart_reg(TT_HART_REG(self, TT_HART_WAKE_AT_LO)),
		     (uint32_t)t);
}

/* Raise TT_IRQ_HART on the host, after everything written so far. */
static inline void hart_host_irq(void)
{
	mmio_barrier();
	mmio_write32(hart_reg(TT_HART_HOST_IRQ), 1);
}

/* Stop this hart with a debug trap: it halts with TT_HART_FAULT_EBREAK,
 * which the host sees in the fault record. */
static inline __attribute__((noreturn)) void hart_halt(void)
{
	for (;;)
		__asm__ volatile("ebreak");
}

/* Sleep for good, costing nothing: nobody ever writes the word waited on.
 * Used where the firmware has nothing left to do but must not fault. */
static inline __attribute__((noreturn)) void hart_sleep_forever(void)
{
	static volatile uint32_t never;

	hart_set_wake_at(0);
	for (;;)
		tt_wait_ne(&never, 0);
}

#endif /* TT_FW_HART_H */
