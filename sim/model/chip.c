// SPDX-License-Identifier: Apache-2.0
/*
 * Boot ROM, chip reset, watchdog and sensors.
 *
 * Chip reset: bump the identity page's reset_gen first (so every host
 * handle is stale from that moment), stop every hart, put registers back
 * to their power-on values, reload the management firmware from flash and
 * release its hart. Memories other than CSM keep their contents, as SRAM
 * does across a warm reset; the firmware reloads what it needs.
 *
 * With the reset-dead fault injected (TT_SIM_INJECT, device.h) every reset
 * after power-on stops short of releasing the management hart: the reset
 * unit shows the reset done, but no firmware ever runs again.
 */
#include "chip.h"

#include <math.h>
#include <string.h>

#include "device.h"
#include "doorbell.h"
#include "flash.h"
#include "scheduler.h"
#include "tensix.h"

static uint32_t *reg(struct sim_device *dev, const struct tt_node_desc *n,
		     enum tt_reg_page p, unsigned off)
{
	return sim_reg32(sim_image_regs(dev->img, n, p), off);
}

static void wr(uint32_t *r, uint32_t v)
{
	__atomic_store_n(r, v, __ATOMIC_RELEASE);
}

static uint32_t rd(const uint32_t *r)
{
	return __atomic_load_n(r, __ATOMIC_ACQUIRE);
}

static bool has_harts(const struct tt_node_desc *n)
{
	return (n->type == TT_NODE_TENSIX || n->type == TT_NODE_ARC) &&
	       !(n->flags & TT_NODE_F_HARVESTED);
}

/* Hart page and reset lines at power-on: every hart held, no timers. */
static void reset_hart_regs(struct sim_device *dev, const struct tt_node_desc *n)
{
	uint8_t *page = sim_image_regs(dev->img, n, TT_REG_HART);
	uint32_t count = rd(sim_reg32(page, TT_HART_COUNT));

	memset(page, 0, TT_HART_MAX * TT_HART_STRIDE);
	wr(sim_reg32(page, TT_HART_WAKE), 0);
	wr(sim_reg32(page, TT_HART_HOST_IRQ), 0);
	wr(sim_reg32(page, TT_HART_COUNT), count);
	wr(reg(dev, n, TT_REG_TILE_CTRL, TT_TILE_SOFT_RESET),
	   n->type == TT_NODE_ARC ? tt_hart_reset_bit(0) : TT_TILE_SOFT_RESET_ALL);
	wr(reg(dev, n, TT_REG_TILE_CTRL, TT_TILE_SOFT_RESET_SEEN), 0);
}

static void reset_niu(struct sim_device *dev, const struct tt_node_desc *n)
{
	for (unsigned noc = 0; noc < TT_NOC_COUNT; noc++)
		for (unsigned b = 0; b < TT_NIU_CMD_BUFS; b++)
			wr(reg(dev, n, noc ? TT_REG_NIU1 : TT_REG_NIU0,
			       TT_NIU_CMD(b, TT_NIU_CMD_ISSUE)),
			   0);
}

static void reset_arc_regs(struct sim_device *dev,
			   enum tt_arc_reset_cause cause)
{
	const struct tt_node_desc *arc = dev->arc;
	uint8_t *ru = sim_image_regs(dev->img, arc, TT_REG_ARC_RESET);
	uint32_t count = rd(sim_reg32(ru, TT_ARC_RESET_COUNT));

	memset(ru, 0, TT_REG_PAGE_SIZE);
	wr(sim_reg32(ru, TT_ARC_RESET_COUNT),
	   cause == TT_ARC_RESET_POWER_ON ? 0 : count + 1);
	wr(sim_reg32(ru, TT_ARC_RESET_CAUSE), cause);
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_AICLK), dev->board.aiclk_min);
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_AXICLK), dev->board.axiclk);
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_ARCCLK), dev->board.arcclk);
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_FAN_DUTY), 30);
	dev->wdt_pet = 0;
	dev->wdt_timeout = 0;
}

/* The boot ROM: CSM cleared, the management firmware copied in from
 * flash, its hart pointed at the entry. false: nothing to boot. */
static bool load_arc_firmware(struct sim_device *dev)
{
	const struct tt_flash_entry *e = sim_flash_find(dev->flash,
							TT_FLASH_ARC_FW);
	const struct tt_node_desc *arc = dev->arc;
	uint8_t *csm = dev->img->base + arc->mem_off;
	uint64_t end;

	memset(csm, 0, arc->mem_size);
	if (!e)
		return false;
	end = (uint64_t)e->load_addr + e->size + e->bss_size;
	if (e->load_addr < arc->mem_base || end > arc->mem_base + arc->mem_size)
		return false;
	memcpy(csm + (e->load_addr - arc->mem_base), dev->flash + e->offset,
	       e->size);
	wr(reg(dev, arc, TT_REG_HART, TT_HART_REG(0, TT_HART_RESET_PC)),
	   e->entry);
	return true;
}

/* The injected reset-dead fault: the firmware never comes back. */
static bool stays_dead(const struct sim_device *dev,
		       enum tt_arc_reset_cause cause)
{
	return dev->inject_reset_dead && cause != TT_ARC_RESET_POWER_ON;
}

static void power_on_state(struct sim_device *dev,
			   enum tt_arc_reset_cause cause)
{
	struct sim_image *img = dev->img;

	for (unsigned i = 0; i < img->grid_x * img->grid_y; i++) {
		const struct tt_node_desc *n = &img->nodes[i];

		if (n->type == TT_NODE_NONE || (n->flags & TT_NODE_F_HARVESTED))
			continue;
		reset_niu(dev, n);
		if (has_harts(n))
			reset_hart_regs(dev, n);
	}
	reset_arc_regs(dev, cause);
	/* Coprocessors and CB counters: registers, DST. */
	sim_tensix_reset(img);
	/* A blank flash is not an error: the chip just stays quiet. */
	if (load_arc_firmware(dev) && !stays_dead(dev, cause))
		wr(reg(dev, dev->arc, TT_REG_TILE_CTRL, TT_TILE_SOFT_RESET), 0);
}

void sim_chip_reset(struct sim_device *dev, enum tt_arc_reset_cause cause)
{
	__atomic_fetch_add(&dev->img->id->reset_gen, 1, __ATOMIC_SEQ_CST);
	sim_sched_pause_all(&dev->sched);
	power_on_state(dev, cause);
	sim_sched_resume(&dev->sched);
	sim_irq_raise(dev->img->regs, TT_IRQ_RESET);
}

void sim_chip_power_on(struct sim_device *dev)
{
	sim_power_init(&dev->power, SIM_POWER_AMBIENT_C, &dev->pstate);
	wr(reg(dev, dev->arc, TT_REG_ARC_SENSORS, TT_SENS_AMBIENT), 25u << 16);
	dev->sens_last_us = 0;
	sim_sched_pause_all(&dev->sched);
	power_on_state(dev, TT_ARC_RESET_POWER_ON);
	sim_sched_resume(&dev->sched);
}

/* ---- events ---- */

/* The watchdog restarts when the firmware writes a new value to WDT_PET
 * or changes WDT_TIMEOUT. */
static void follow_watchdog(struct sim_device *dev)
{
	uint32_t timeout = rd(reg(dev, dev->arc, TT_REG_ARC_RESET,
				  TT_ARC_WDT_TIMEOUT));
	uint32_t pet = rd(reg(dev, dev->arc, TT_REG_ARC_RESET, TT_ARC_WDT_PET));

	if (timeout == dev->wdt_timeout && pet == dev->wdt_pet)
		return;
	dev->wdt_timeout = timeout;
	dev->wdt_pet = pet;
	sim_sched_watchdog(&dev->sched, timeout);
}

/* Reset key and watchdog; false if the chip was reset. */
static bool follow_arc(struct sim_device *dev)
{
	uint32_t *key = reg(dev, dev->arc, TT_REG_ARC_RESET, TT_ARC_CHIP_RESET);

	if (__atomic_exchange_n(key, 0, __ATOMIC_ACQ_REL) ==
	    TT_ARC_CHIP_RESET_KEY) {
		sim_chip_reset(dev, TT_ARC_RESET_FIRMWARE);
		return false;
	}
	follow_watchdog(dev);
	return true;
}

void sim_chip_node_event(struct sim_device *dev, unsigned node_index)
{
	if (&dev->img->nodes[node_index] == dev->arc && !follow_arc(dev))
		return;
	sim_sched_node_event(&dev->sched, node_index);
}

void sim_chip_node_control(struct sim_device *dev, unsigned node_index)
{
	if (&dev->img->nodes[node_index] == dev->arc && !follow_arc(dev))
		return;
	sim_sched_follow_resets(&dev->sched, node_index);
}

void sim_chip_poll(struct sim_device *dev)
{
	if (sim_sched_watchdog_fired(&dev->sched))
		sim_chip_reset(dev, TT_ARC_RESET_WATCHDOG);
}

/* ---- sensors ---- */

#define SENSOR_REFRESH_US 1000u

static uint64_t noc_bytes(struct sim_device *dev)
{
	struct sim_image *img = dev->img;
	uint64_t total = 0;

	for (unsigned i = 0; i < img->grid_x * img->grid_y; i++) {
		const struct tt_node_desc *n = &img->nodes[i];

		if (n->type == TT_NODE_NONE || (n->flags & TT_NODE_F_HARVESTED))
			continue;
		for (unsigned noc = 0; noc < TT_NOC_COUNT; noc++) {
			enum tt_reg_page p = noc ? TT_REG_NIU1 : TT_REG_NIU0;

			total += rd(reg(dev, n, p, TT_NIU_BYTES_LO)) |
				 (uint64_t)rd(reg(dev, n, p, TT_NIU_BYTES_HI)) << 32;
		}
	}
	return total;
}

static int32_t fixed16(double v)
{
	if (!(v > -32768.0))
		v = -32768.0;
	if (v > 32767.0)
		v = 32767.0;
	return (int32_t)lround(v * 65536.0);
}

static void publish_sensors(struct sim_device *dev)
{
	const struct sim_power_state *s = &dev->pstate;
	const struct tt_node_desc *arc = dev->arc;
	double amb = (int32_t)rd(reg(dev, arc, TT_REG_ARC_SENSORS,
				     TT_SENS_AMBIENT)) / 65536.0;

	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_ASIC_TEMP),
	   (uint32_t)fixed16(s->asic_c));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_INLET_TEMP),
	   (uint32_t)fixed16(amb));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_OUTLET_TEMP),
	   (uint32_t)fixed16(s->outlet_c));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_VREG_TEMP),
	   (uint32_t)fixed16(s->vreg_c));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_VCORE),
	   (uint32_t)lround(s->vcore_v * 1000.0));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_CURRENT),
	   (uint32_t)lround(s->current_a * 1000.0));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_POWER),
	   (uint32_t)lround(s->power_w * 1000.0));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_FAN_RPM),
	   (uint32_t)lround(s->fan_rpm));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_BUSY_HARTS),
	   (uint32_t)lround(s->busy_harts * 1000.0));
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_NOC_BYTES_LO),
	   (uint32_t)dev->sens_noc_bytes);
	wr(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_NOC_BYTES_HI),
	   (uint32_t)(dev->sens_noc_bytes >> 32));
}

void sim_chip_refresh_sensors(struct sim_device *dev)
{
	const struct tt_node_desc *arc = dev->arc;
	struct sim_power_activity a = { 0 };
	uint64_t now, busy, bytes;
	double dt, amb;

	pthread_mutex_lock(&dev->sens_lock);
	now = sim_device_time_us(dev);
	/* The firmware reads the page register by register: one refresh
	 * serves the whole burst. */
	if (dev->sens_last_us && now - dev->sens_last_us < SENSOR_REFRESH_US) {
		pthread_mutex_unlock(&dev->sens_lock);
		return;
	}
	busy = sim_sched_busy_ns(&dev->sched);
	bytes = noc_bytes(dev);
	dt = (double)(now - dev->sens_last_us) / 1e6;
	a.busy_hart_s = (double)(busy - dev->sens_busy_ns) / 1e9;
	a.noc_bytes = bytes - dev->sens_noc_bytes;
	amb = (int32_t)rd(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_AMBIENT)) /
	      65536.0;
	sim_power_step(&dev->power, &dev->pstate, &a, dt,
		       rd(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_AICLK)),
		       rd(reg(dev, arc, TT_REG_ARC_SENSORS, TT_SENS_FAN_DUTY)),
		       amb);
	dev->sens_last_us = now;
	dev->sens_busy_ns = busy;
	dev->sens_noc_bytes = bytes;
	publish_sensors(dev);
	pthread_mutex_unlock(&dev->sens_lock);
}
