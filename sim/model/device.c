// SPDX-License-Identifier: Apache-2.0
#include "device.h"
#include "tensix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chip.h"
#include "doorbell.h"
#include "firmware.h"
#include "flash.h"
#include "inject.h"
#include "niu.h"
#include "common/env.h"
#include "common/soc_desc.h"

static bool stopping(struct sim_device *dev)
{
	return __atomic_load_n(&dev->stop, __ATOMIC_ACQUIRE);
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t sim_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t sim_coarse_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC_COARSE);
}

uint64_t sim_device_time_us(const struct sim_device *dev)
{
	return (sim_mono_ns() - dev->t0_ns) / 1000u;
}

static void service_events(struct sim_device *dev)
{
	struct sim_image *img = dev->img;
	unsigned nodes = img->grid_x * img->grid_y;

	for (unsigned w = 0; w < TT_EVENT_WORDS; w++) {
		uint32_t bits = sim_event_take(img->regs, w);
		uint32_t ctl = sim_control_take(img->regs, w) & ~bits;

		while (bits) {
			unsigned idx = w * 32 + (unsigned)__builtin_ctz(bits);

			bits &= bits - 1;
			if (idx < nodes)
				sim_chip_node_event(dev, idx);
		}
		while (ctl) {
			unsigned idx = w * 32 + (unsigned)__builtin_ctz(ctl);

			ctl &= ctl - 1;
			if (idx < nodes)
				sim_chip_node_control(dev, idx);
		}
	}
	sim_chip_poll(dev);
}

static void service_doorbells(struct sim_device *dev)
{
	struct sim_image *img = dev->img;
	unsigned nodes = img->grid_x * img->grid_y;

	for (unsigned w = 0; w < TT_DOORBELL_WORDS; w++) {
		uint32_t bits = sim_doorbell_take(img->regs, w);

		while (bits) {
			unsigned idx = w * 32 + (unsigned)__builtin_ctz(bits);

			bits &= bits - 1;
			if (idx / 2 < nodes)
				sim_niu_service(&dev->ctx, &img->nodes[idx / 2],
						idx % 2);
		}
	}
}

/* The engine: sleeps on the doorbell, runs what was rung. Reading the
 * sequence before draining means a ring during the drain is never lost. */
static void *engine_main(void *arg)
{
	struct sim_device *dev = arg;

	for (;;) {
		uint32_t seen = sim_doorbell_seq(dev->img->regs);

		service_doorbells(dev);
		sim_dmaeng_kick(&dev->dma);
		service_events(dev);
		if (stopping(dev))
			break;
		sim_doorbell_wait(dev->img->regs, seen, -1);
	}
	return NULL;
}

static void node_event_now(void *arg, unsigned node_index, bool control)
{
	struct sim_device *dev = arg;

	if (control)
		sim_sched_node_event(&dev->sched, node_index);
	else
		sim_sched_node_wake(&dev->sched, node_index);
}

/* ATU region 0 maps the whole host window onto the bus range that host
 * memory mappings are given, as an IOMMU-backed driver would. The ATU
 * looks at region 0 last (hw/pcie.h), so a driver in a VM maps its own
 * buffers (guest-physical addresses, below SIM_BUS_BASE) with regions
 * 1..15 over it. */
static void program_atu(struct sim_device *dev)
{
	uint8_t *atu = sim_image_regs(dev->img, dev->pcie, TT_REG_PCIE_ATU);
	uint64_t base = TT_PCIE_HOST_WINDOW_BASE;
	uint64_t limit = base + TT_PCIE_HOST_WINDOW_SIZE - 1;

	*sim_reg32(atu, TT_PCIE_ATU(0, TT_PCIE_ATU_BASE_LO)) = (uint32_t)base;
	*sim_reg32(atu, TT_PCIE_ATU(0, TT_PCIE_ATU_BASE_HI)) = base >> 32;
	*sim_reg32(atu, TT_PCIE_ATU(0, TT_PCIE_ATU_LIMIT_LO)) = (uint32_t)limit;
	*sim_reg32(atu, TT_PCIE_ATU(0, TT_PCIE_ATU_LIMIT_HI)) = limit >> 32;
	*sim_reg32(atu, TT_PCIE_ATU(0, TT_PCIE_ATU_TARGET_LO)) =
		(uint32_t)SIM_BUS_BASE;
	*sim_reg32(atu, TT_PCIE_ATU(0, TT_PCIE_ATU_TARGET_HI)) =
		SIM_BUS_BASE >> 32;
	*sim_reg32(atu, TT_PCIE_ATU(0, TT_PCIE_ATU_CTRL)) =
		TT_PCIE_ATU_CTRL_ENABLE;
}

/* TT_SIM_THREADS: unset or empty is 0 (one per CPU); anything else must be
 * a count in 1..SIM_SCHED_MAX_WORKERS (common/env.h, the rule libtt's
 * variables follow too). */
static int threads_from_env(unsigned *threads, char *err)
{
	unsigned long n;
	int ret = env_uint("TT_SIM_THREADS", 1, SIM_SCHED_MAX_WORKERS, 0, &n,
			   err, SIM_ERR_LEN);

	*threads = (unsigned)n;
	return ret;
}

/* TT_SIM_INJECT (device.h, inject.h). An unknown fault is an error rather
 * than a warning: a test that asked for a fault must not pass on a healthy
 * chip. */
static int inject_from_env(struct sim_device *dev, unsigned flags,
			   enum sim_inject *k, char *err)
{
	const char *v = getenv("TT_SIM_INJECT");

	if (!sim_inject_parse(v, k)) {
		snprintf(err, SIM_ERR_LEN,
			 "TT_SIM_INJECT='%.64s' is not a fault the model can inject (known: %s)",
			 v, sim_inject_names());
		return -EINVAL;
	}
	/* The host-access faults act in the process that hosts the chip;
	 * a daemon's clients make their accesses in their own. */
	if (*k >= SIM_INJECT_NOC_FAIL && !(flags & SIM_DEVICE_HOST_WAITS)) {
		snprintf(err, SIM_ERR_LEN,
			 "TT_SIM_INJECT='%s' acts on the host's own accesses: only an embedded chip (TT_TRANSPORT=embedded) can have it",
			 v);
		return -EINVAL;
	}
	dev->inject_reset_dead = *k == SIM_INJECT_RESET_DEAD;
	return 0;
}

static int build_flash(struct sim_device *dev, const struct soc_desc *d,
		       enum tt_hw_board board, unsigned chip, char *err)
{
	const void *bundle;
	size_t len;
	int ret;

	sim_board_info(board, chip, d, &dev->board);
	dev->flash = malloc(TT_ARC_FLASH_SIZE);
	if (!dev->flash) {
		snprintf(err, SIM_ERR_LEN, "out of memory for the flash");
		return -ENOMEM;
	}
	ret = sim_firmware_bundle(&bundle, &len, err);
	if (ret)
		return ret;
	/* A model built without firmware has a blank flash: the chip
	 * powers on with its management hart in reset. */
	if (!len) {
		memset(dev->flash, 0xFF, TT_ARC_FLASH_SIZE);
		return 0;
	}
	return sim_flash_build(bundle, len, &dev->board, dev->flash, err);
}

static int start_threads(struct sim_device *dev, unsigned flags, char *err)
{
	unsigned threads;
	bool assist;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int ret = threads_from_env(&threads, err);

	if (ret)
		return ret;
	assist = !threads && (flags & SIM_DEVICE_HOST_WAITS);

	/* A thread that waits for the chip runs harts itself (and an explicit
	 * count is kept exactly: TT_SIM_THREADS=1 is the deterministic
	 * mode). */
	if (assist)
		threads = cpus > 2 ? (unsigned)(cpus - 1) : 1;
	ret = sim_sched_start(&dev->sched, dev, threads, assist, err);
	if (ret)
		return ret;
	dev->sched_started = true;
	ret = sim_dmaeng_start(&dev->dma, &dev->ctx, dev->pcie);
	if (ret) {
		snprintf(err, SIM_ERR_LEN, "cannot start the DMA engine: %s",
			 strerror(-ret));
		return ret;
	}
	ret = -pthread_create(&dev->engine, NULL, engine_main, dev);
	if (ret) {
		snprintf(err, SIM_ERR_LEN, "cannot start the NOC engine: %s",
			 strerror(-ret));
		return ret;
	}
	dev->engine_started = true;
	return 0;
}

int sim_device_create(const struct soc_desc *d, enum tt_hw_board board,
		      unsigned chip, unsigned flags, struct sim_device **out,
		      char *err)
{
	struct sim_device *dev;
	enum sim_inject inject;
	int ret;

	if (!d->pcie_count || !d->arc_count) {
		snprintf(err, SIM_ERR_LEN, "SoC %s has no %s node", d->name,
			 d->pcie_count ? "ARC" : "PCIe");
		return -EINVAL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		snprintf(err, SIM_ERR_LEN, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&dev->sens_lock, NULL);
	dev->t0_ns = sim_mono_ns();
	ret = inject_from_env(dev, flags, &inject, err);
	if (!ret)
		ret = sim_image_create(d, board, chip, &dev->img, err);
	if (ret)
		goto err_free;
	dev->img->inject = inject;
	sim_hostmem_init(&dev->hostmem);
	dev->ctx.img = dev->img;
	dev->ctx.hostmem = &dev->hostmem;
	dev->pcie = sim_image_node(dev->img, d->pcie[0].x, d->pcie[0].y);
	dev->arc = sim_image_node(dev->img, d->arc[0].x, d->arc[0].y);
	sim_power_defaults(board, &dev->power);
	program_atu(dev);
	ret = build_flash(dev, d, board, chip, err);
	if (!ret)
		ret = start_threads(dev, flags, err);
	if (ret) {
		sim_device_destroy(dev);
		return ret;
	}
	dev->img->node_event_arg = dev;
	__atomic_store_n(&dev->img->node_event, node_event_now,
			 __ATOMIC_RELEASE);
	sim_chip_power_on(dev);
	__atomic_store_n(&dev->img->id->state, TT_DEV_STATE_READY,
			 __ATOMIC_RELEASE);
	*out = dev;
	return 0;

err_free:
	pthread_mutex_destroy(&dev->sens_lock);
	free(dev);
	return ret;
}

void sim_device_destroy(struct sim_device *dev)
{
	if (!dev)
		return;
	/* The engine first: it calls into the scheduler. */
	__atomic_store_n(&dev->img->node_event, NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&dev->stop, true, __ATOMIC_RELEASE);
	sim_doorbell_kick(dev->img->regs);
	if (dev->engine_started)
		pthread_join(dev->engine, NULL);
	sim_dmaeng_stop(&dev->dma);
	if (dev->sched_started)
		sim_sched_stop(&dev->sched);
	__atomic_store_n(&dev->img->id->state, TT_DEV_STATE_STOPPED,
			 __ATOMIC_RELEASE);
	sim_hostmem_fini(&dev->hostmem);
	sim_tensix_release(dev->img);
	sim_image_destroy(dev->img);
	pthread_mutex_destroy(&dev->sens_lock);
	free(dev->flash);
	free(dev);
}

int sim_device_dma_map(struct sim_device *dev, int fd, uint64_t size,
		       uint64_t owner, struct sim_dma_map *out, char *err)
{
	int ret = sim_hostmem_map(&dev->hostmem, fd, size, owner, &out->id,
				  &out->bus);

	if (ret == -ENOSPC)
		snprintf(err, SIM_ERR_LEN,
			 "no room for %llu more bytes of host memory (at most %u mappings, %llu GiB)",
			 (unsigned long long)size, SIM_HOSTMEM_MAX,
			 (unsigned long long)(TT_PCIE_HOST_WINDOW_SIZE >> 30));
	else if (ret == -EPERM)
		snprintf(err, SIM_ERR_LEN,
			 "a DMA buffer must be a memfd sealed against shrinking (F_SEAL_SHRINK)");
	else if (ret == -ERANGE)
		snprintf(err, SIM_ERR_LEN,
			 "DMA buffer file has fewer than the %llu bytes to map",
			 (unsigned long long)size);
	else if (ret == -EINVAL)
		snprintf(err, SIM_ERR_LEN, "invalid DMA buffer size %llu",
			 (unsigned long long)size);
	else if (ret)
		snprintf(err, SIM_ERR_LEN, "cannot map DMA buffer: %s",
			 strerror(-ret));
	if (ret)
		return ret == -ERANGE ? -EINVAL : ret;
	out->noc_x = dev->pcie->x;
	out->noc_y = dev->pcie->y;
	out->noc_local = TT_PCIE_HOST_WINDOW_BASE + (out->bus - SIM_BUS_BASE);
	return 0;
}

int sim_device_dma_unmap(struct sim_device *dev, uint32_t id, uint64_t owner)
{
	return sim_hostmem_unmap(&dev->hostmem, id, owner);
}

void sim_device_release_owner(struct sim_device *dev, uint64_t owner)
{
	sim_hostmem_release_owner(&dev->hostmem, owner);
}

/* How long a waiting thread looks for harts to run before it sleeps. */
#define ASSIST_IDLE_NS 200000u

int sim_device_wait_irq(struct sim_device *dev, uint32_t seen, int timeout_ms)
{
	uint64_t start = sim_mono_ns();
	uint64_t deadline = timeout_ms < 0 ? UINT64_MAX :
			    start + (uint64_t)timeout_ms * 1000000u;
	uint64_t left_ms;

	if (sim_sched_assist(&dev->sched, &dev->img->regs->irq_seq, seen,
			     ASSIST_IDLE_NS, deadline))
		return 0;
	if (timeout_ms < 0)
		return sim_irq_wait(dev->img->regs, seen, -1);
	left_ms = (deadline - sim_mono_ns() + 999999u) / 1000000u;
	if (sim_mono_ns() >= deadline)
		return sim_irq_seq(dev->img->regs) != seen ? 0 : -ETIMEDOUT;
	return sim_irq_wait(dev->img->regs, seen, (int)left_ms);
}
