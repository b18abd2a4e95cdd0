/* SPDX-License-Identifier: Apache-2.0 */
/* The ARC node's own register pages (hw/arc.h), as the ARC hart sees them. */
#ifndef TT_ARC_REGS_H
#define TT_ARC_REGS_H

#include <stdint.h>

#include "hw/arc.h"
#include "hw/tile.h"
#include "fw/mmio.h"

/* Reset unit page: scratch, doorbell, chip reset, watchdog. */
static inline uintptr_t reset_reg(uint32_t off)
{
	return (uintptr_t)TT_REG_ARC_RESET_ADDR + off;
}

static inline uint32_t reset_read(uint32_t off)
{
	return mmio_read32(reset_reg(off));
}

static inline void reset_write(uint32_t off, uint32_t val)
{
	mmio_write32(reset_reg(off), val);
}

/* Scratch RAM word n (TT_ARC_SR_*). */
static inline void scratch_ram_write(unsigned n, uint32_t val)
{
	reset_write(TT_ARC_SCRATCH_RAM(n), val);
}

static inline uint32_t scratch_ram_read(unsigned n)
{
	return reset_read(TT_ARC_SCRATCH_RAM(n));
}

/* Sensors and clocks page. */
static inline uint32_t sens_read(uint32_t off)
{
	return mmio_read32((uintptr_t)TT_REG_ARC_SENSORS_ADDR + off);
}

static inline void sens_write(uint32_t off, uint32_t val)
{
	mmio_write32((uintptr_t)TT_REG_ARC_SENSORS_ADDR + off, val);
}

/* Boot progress for the host (TT_ARC_SCRATCH(0)). */
static inline void post(enum tt_arc_post_stage stage)
{
	reset_write(TT_ARC_SCRATCH(0), TT_ARC_POST(stage));
}

#endif /* TT_ARC_REGS_H */
