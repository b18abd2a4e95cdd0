/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A simulated chip, as hosted by one process (the ttsim daemon, or an
 * application through libtt's embedded model): its image, the host memory
 * its engines can reach, and the engine thread that answers doorbells.
 *
 * Clients in other processes attach to the image (sim_image_attach) and
 * ask the host for services (DMA mappings) through the control protocol
 * (proto.h); clients in this process call these functions directly.
 */
#ifndef TT_SIM_DEVICE_H
#define TT_SIM_DEVICE_H

#include <pthread.h>
#include <stdbool.h>

#include "access.h"
#include "dmaeng.h"
#include "hw/flash.h"
#include "power.h"
#include "scheduler.h"

struct soc_desc;

struct sim_device {
	struct sim_image *img;
	struct sim_hostmem hostmem;
	struct sim_ctx ctx;
	pthread_t engine;
	bool engine_started;
	bool stop; /* atomic; set to end the engine thread */
	struct tt_node_desc *pcie; /* the node whose ATU maps host memory */
	struct tt_node_desc *arc; /* the management processor's node */
	struct sim_dmaeng dma; /* the PCIe node's DMA engine (hw/dmaeng.h) */
	uint64_t t0_ns; /* CLOCK_MONOTONIC at power-on: device time 0 */

	struct sim_sched sched;
	bool sched_started;
	uint8_t *flash; /* TT_ARC_FLASH_SIZE bytes, read by the ARC hart */
	struct tt_board_info board;

	/* Sensors (chip.c), under sens_lock. */
	pthread_mutex_t sens_lock;
	struct sim_power_params power;
	struct sim_power_state pstate;
	uint64_t sens_last_us, sens_busy_ns, sens_noc_bytes;
	/* Watchdog registers as last seen by the engine. */
	uint32_t wdt_pet, wdt_timeout;
	/* Faults injected for tests (TT_SIM_INJECT), fixed at creation. */
	bool inject_reset_dead; /* resets after power-on leave ARC held */
};

/* CLOCK_MONOTONIC in nanoseconds: the model's host clock. */
uint64_t sim_mono_ns(void);

/* The same clock at tick resolution, for a fraction of the cost: sums of
 * many short spells measured with it are right on average (busy time). */
uint64_t sim_coarse_ns(void);

/* Device time: microseconds since power-on (TT_HART_TIME). */
uint64_t sim_device_time_us(const struct sim_device *dev);

/* Where a DMA mapping is seen from the device. */
struct sim_dma_map {
	uint32_t id;
	uint64_t bus; /* host bus address */
	unsigned noc_x, noc_y; /* PCIe node, NOC 0 coordinates */
	uint64_t noc_local; /* local address in the host window */
};

/*
 * Build a chip from a descriptor, start its engine and its harts, and
 * power it on: the management firmware boots from a flash made of the
 * firmware bundle (sim_firmware_bundle) and this board's factory data.
 * The image is READY on return (the firmware needs a little longer).
 * TT_SIM_THREADS in the environment sets the number of hart threads
 * (1 is the deterministic mode). Without it: one per online CPU, or, with
 * SIM_DEVICE_HOST_WAITS, one fewer (at least one), and threads that wait
 * in sim_device_wait_irq run harts too.
 *
 * TT_SIM_INJECT, a test hook, makes a faulty chip; it is read here only,
 * so changing it later does not change an existing chip. Unset or empty:
 * none. "reset-dead": every chip reset after power-on (host, firmware or
 * watchdog) leaves the management hart in reset, as a card that does not
 * come back from a warm reset. Any other value fails with -EINVAL.
 * Returns 0 or a negative errno with a message in err.
 */
int sim_device_create(const struct soc_desc *d, enum tt_hw_board board,
		      unsigned chip, unsigned flags, struct sim_device **out,
		      char *err);

/* sim_device_create flags: the process that hosts the chip also uses it
 * and waits for it through sim_device_wait_irq (libtt's embedded model). */
#define SIM_DEVICE_HOST_WAITS (1u << 0)

/* Stop the engine, mark the image STOPPED, release everything. NULL ok. */
void sim_device_destroy(struct sim_device *dev);

/*
 * Wait until the interrupt sequence differs from seen (sim_irq_wait) or
 * timeout_ms passes (< 0: no limit); 0 or -ETIMEDOUT. The waiting thread
 * runs harts meanwhile: in a process that hosts the chip, a thread that
 * waits for the device is one more CPU for it, not one fewer.
 */
int sim_device_wait_irq(struct sim_device *dev, uint32_t seen, int timeout_ms);

/*
 * Make `size` bytes of the shared-memory object fd (not consumed) reachable
 * from the device, on behalf of `owner` (any nonzero tag).
 */
int sim_device_dma_map(struct sim_device *dev, int fd, uint64_t size,
		       uint64_t owner, struct sim_dma_map *out, char *err);
int sim_device_dma_unmap(struct sim_device *dev, uint32_t id, uint64_t owner);

/* Drop everything `owner` holds (its process went away). */
void sim_device_release_owner(struct sim_device *dev, uint64_t owner);

#endif /* TT_SIM_DEVICE_H */
