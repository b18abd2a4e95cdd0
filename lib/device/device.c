// SPDX-License-Identifier: Apache-2.0
/*
 * Device enumeration and description; which transport serves a device is
 * decided here and nowhere else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/dev_err.h"
#include "internal.h"

#ifdef TT_HAVE_KMD
/* The kernel driver's transport, if it has at least one device. */
static bool kmd_has_devices(void)
{
	unsigned n = 0;

	return access("/dev/tenstorrent", F_OK) == 0 &&
	       tt_transport_kmd.count(&n) == 0 && n > 0;
}
#endif

/*
 * The chip model: the embedded model of TT_SIM_BOARD if that is set (the
 * user asked for a board; a daemon's is what it was started with), else a
 * ttsim daemon's if one publishes a live device, else one in this process.
 * A device left behind by a daemon that died does not count; the first
 * time we skip one we say how to clean it up.
 */
static const struct tt_transport_ops *sim_transport(void)
{
	static bool warned;
	const char *board = getenv("TT_SIM_BOARD");
	char stale[64];
	unsigned n = 0;

	if (board && *board)
		return &tt_transport_embedded;
	if (tt_ttsim_live_count(&n, stale, sizeof(stale)))
		return &tt_transport_embedded;
	if (stale[0] && !__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
		fprintf(stderr,
			"libtt: ignoring ttsim device %s: its daemon is gone and left its socket behind; 'ttsim stop %s' cleans it up\n",
			stale, stale);
	return n > 0 ? &tt_transport_ttsim : &tt_transport_embedded;
}

/* TT_TRANSPORT, else TT_BACKEND: the variable's name until the word
 * "backend" went to the embedded-backend API (tt/backend.h); old scripts
 * keep working. *var is the name to put in messages. */
static const char *wanted_transport(const char **var)
{
	const char *want = getenv("TT_TRANSPORT");

	*var = "TT_TRANSPORT";
	if (want && *want)
		return want;
	want = getenv("TT_BACKEND");
	if (want && *want)
		*var = "TT_BACKEND";
	return want;
}

/* The transport TT_TRANSPORT asks for (see tt/device.h). */
static int select_transport(const struct tt_transport_ops **ops)
{
	const char *var;
	const char *want = wanted_transport(&var);

	if (!want || !*want) {
#ifdef TT_HAVE_KMD
		if (kmd_has_devices()) {
			*ops = &tt_transport_kmd;
			return 0;
		}
#endif
		*ops = sim_transport();
		return 0;
	}
	if (!strcmp(want, "sim")) {
		*ops = sim_transport();
		return 0;
	}
	if (!strcmp(want, "embedded")) {
		*ops = &tt_transport_embedded;
		return 0;
	}
	if (!strcmp(want, "ttsim")) {
		*ops = &tt_transport_ttsim;
		return 0;
	}
	if (!strcmp(want, "kmd")) {
#ifdef TT_HAVE_KMD
		*ops = &tt_transport_kmd;
		return 0;
#else
		return tt_error(-ENODEV,
				"%s=kmd: the kernel-driver transport is not part of this build (libudev was missing when it was configured)",
				var);
#endif
	}
	return tt_error(-EINVAL,
			"%s='%s' is not one of: kmd, ttsim, embedded, sim",
			var, want);
}

int tt_device_count(unsigned *count)
{
	const struct tt_transport_ops *ops;
	int ret;

	TT_CHECK_ARG(count);
	ret = select_transport(&ops);
	if (ret)
		return ret;
	return ops->count(count);
}

/*
 * A daemon chosen by default may die between the choice and the
 * connection: then the chip model is chosen again, as if the daemon had
 * been gone before (a transport the user named is never replaced).
 */
static int open_transport(struct tt_device *dev, unsigned index)
{
	const struct tt_transport_ops *ops;
	const char *var, *want = wanted_transport(&var);
	int ret = select_transport(&ops);
	bool chosen = !want || !*want || !strcmp(want, "sim");

	if (ret)
		return ret;
	for (;;) {
		dev->ops = ops;
		dev->info.transport = ops->name;
		ret = ops->open(dev, index);
		if (!ret || !chosen || ops != &tt_transport_ttsim)
			return ret;
		ops = sim_transport();
		if (ops == &tt_transport_ttsim)
			return ret;
	}
}

int tt_device_open(unsigned index, tt_device **out)
{
	struct tt_device *dev;
	int ret;

	TT_CHECK_ARG(out);
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return tt_error(-ENOMEM, "out of memory opening device %u", index);
	dev->info.index = index;
	pthread_mutex_init(&dev->lock, NULL);
	ret = open_transport(dev, index);
	if (ret) {
		pthread_mutex_destroy(&dev->lock);
		free(dev);
		return ret;
	}
	dev->win.size = dev->ops->window_size(dev);
	dev->errors_seen = dev->ops->error_head(dev);
	dev->reset_gen = dev->ops->reset_gen(dev);
	*out = dev;
	return 0;
}

void tt_device_close(tt_device *dev)
{
	if (!dev)
		return;
	/* The layers above first: a program still running is waited for
	 * before its memory goes, the dispatcher stops, its rings are freed,
	 * then the allocator lets go of its buffers. */
	for (unsigned i = 0; i < dev->close_hook_count; i++)
		dev->close_hooks[i].fn(dev);
	/* DMA buffers still alive point at dev: they lose their memory
	 * now, and their handles stay for tt_dma_buf_free. */
	tt_dma_buf_detach_all(dev);
	dev->ops->close(dev);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

int tt_device_on_close(struct tt_device *dev, int level,
		       void (*fn)(struct tt_device *dev))
{
	struct tt_close_hook *h = dev->close_hooks;
	unsigned n, at;
	int ret = 0;

	pthread_mutex_lock(&dev->lock);
	n = dev->close_hook_count;
	for (at = 0; at < n && h[at].fn != fn; at++)
		;
	if (at < n)
		goto out;
	if (n == TT_DEVICE_MAX_CLOSE_HOOKS) {
		ret = tt_error(-ENOSPC, "%s: no room for another close hook",
			       dev->name);
		goto out;
	}
	for (at = n; at > 0 && h[at - 1].level < level; at--)
		h[at] = h[at - 1];
	h[at].level = level;
	h[at].fn = fn;
	dev->close_hook_count = n + 1;
out:
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

const struct tt_device_info *tt_device_get_info(const tt_device *dev)
{
	if (TT_ARG_NULL(dev))
		return NULL;
	return &dev->info;
}

void tt_device_info_from_soc(struct tt_device *dev)
{
	const struct soc_desc *s = &dev->soc;
	struct tt_device_info *i = &dev->info;

	i->arch = (enum tt_arch)s->arch;
	i->arch_name = soc_arch_name(s->arch);
	i->soc_name = s->name;
	i->grid_x = s->grid_x;
	i->grid_y = s->grid_y;
	i->tensix_count = s->tensix_count;
	i->l1_size = s->worker_l1_size;
	i->dram_channels = s->dram_channels;
	i->dram_channel_size = s->dram_bank_size;
	i->dram_size = s->dram_bank_size * s->dram_channels;
	i->name = dev->name;
}

enum tt_core_type tt_device_core_type(const tt_device *dev, unsigned x,
				      unsigned y)
{
	if (TT_ARG_NULL(dev))
		return TT_CORE_NONE;
	return (enum tt_core_type)soc_desc_node_type(&dev->soc, x, y);
}

bool tt_device_core_harvested(const tt_device *dev, unsigned x, unsigned y)
{
	if (TT_ARG_NULL(dev))
		return false;
	if (x >= dev->soc.grid_x || y >= dev->soc.grid_y)
		return false;
	return dev->soc.node_flags[y][x] & TT_NODE_F_HARVESTED;
}

int tt_device_tensix_core(const tt_device *dev, unsigned logical,
			  struct tt_xy *out)
{
	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	if (logical >= dev->soc.tensix_count)
		return tt_error(-EINVAL,
				"%s: Tensix core %u does not exist (%u enabled)",
				dev->name, logical, dev->soc.tensix_count);
	out->x = dev->soc.tensix[logical].x;
	out->y = dev->soc.tensix[logical].y;
	return 0;
}

int tt_device_dram_core(const tt_device *dev, unsigned channel, unsigned port,
			struct tt_xy *out)
{
	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	if (channel >= dev->soc.dram_channels ||
	    port >= dev->soc.dram_ports[channel])
		return tt_error(-EINVAL,
				"%s: DRAM channel %u port %u does not exist (%u channels)",
				dev->name, channel, port, dev->soc.dram_channels);
	out->x = dev->soc.dram[channel][port].x;
	out->y = dev->soc.dram[channel][port].y;
	return 0;
}

int tt_device_pcie_core(const tt_device *dev, struct tt_xy *out)
{
	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	if (!dev->soc.pcie_count)
		return tt_error(-ENODEV, "%s: no PCIe core", dev->name);
	out->x = dev->soc.pcie[0].x;
	out->y = dev->soc.pcie[0].y;
	return 0;
}

const char *tt_core_type_name(enum tt_core_type t)
{
	return soc_node_type_name((enum tt_hw_node_type)t);
}

int tt_device_errors(tt_device *dev, struct tt_device_error *out, unsigned max)
{
	uint32_t head, seq;
	int n = 0;

	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(out, max))
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	head = dev->ops->error_head(dev);
	/* Skip what the ring no longer holds. */
	if (head - dev->errors_seen > TT_DEV_ERR_RING)
		dev->errors_seen = head - TT_DEV_ERR_RING;
	for (seq = dev->errors_seen; seq != head && (unsigned)n < max; seq++) {
		struct tt_dev_error rec;

		if (dev->ops->error_at(dev, seq, &rec))
			continue;
		out[n].code = rec.code;
		dev_err_format(&rec, out[n].message, sizeof(out[n].message));
		n++;
	}
	dev->errors_seen = seq;
	pthread_mutex_unlock(&dev->lock);
	return n;
}

/* No liveness check: who has the device open does not change with a chip
 * reset, and tt-smi asks exactly around resets. */
int tt_device_processes(tt_device *dev, int *pids, unsigned max)
{
	TT_CHECK_ARG(dev);
	if (!pids && max)
		return tt_error(-EINVAL, "%s: %s: pids is NULL but max is %u",
				__func__, dev->name, max);
	return dev->ops->processes(dev, pids, max);
}

int tt_device_check_live(struct tt_device *dev)
{
	uint32_t now = dev->ops->reset_gen(dev);

	if (now == __atomic_load_n(&dev->reset_gen, __ATOMIC_ACQUIRE))
		return 0;
	return tt_error(-ENODEV,
			"%s: the device was reset after this handle was opened; close and reopen it",
			dev->name);
}
