// SPDX-License-Identifier: Apache-2.0
/*
 * Host NOC transfers, cut into pieces that each fit one host window. A
 * window is re-pointed only when a piece needs a different target or base,
 * so a long transfer to one node configures it once per window size.
 */
#include <errno.h>
#include <string.h>

#include "hw/noc.h"
#include "internal.h"

static bool same_config(const struct tt_window_config *a,
			const struct tt_window_config *b)
{
	return a->noc == b->noc && a->x == b->x && a->y == b->y &&
	       a->mcast == b->mcast && a->base == b->base &&
	       (!a->mcast || (a->x_start == b->x_start && a->y_start == b->y_start));
}

static int check_args(struct tt_device *dev, unsigned noc, uint64_t addr,
		      size_t len)
{
	if (noc >= TT_NOC_COUNT)
		return tt_error(-EINVAL, "%s: NOC %u does not exist (0 or 1)",
				dev->name, noc);
	if (addr > TT_NOC_ADDR_LOCAL_MASK ||
	    len > TT_NOC_ADDR_LOCAL_MASK - addr + 1)
		return tt_error(-EINVAL,
				"%s: 0x%llx + %zu bytes is outside the 36-bit NOC address space",
				dev->name, (unsigned long long)addr, len);
	return 0;
}

/* Move len bytes between buf and the target described by tmpl, at addr. */
static int transfer(struct tt_device *dev, struct tt_window_config tmpl,
		    uint64_t addr, void *buf, size_t len, bool write)
{
	struct tt_window *w = &dev->win;
	uint8_t *p = buf;
	int ret;

	ret = check_args(dev, tmpl.noc, addr, len);
	if (ret || !len)
		return ret;
	pthread_mutex_lock(&dev->lock);
	while (len) {
		uint64_t off = addr & (w->size - 1);
		size_t chunk = len < w->size - off ? len : (size_t)(w->size - off);

		tmpl.base = addr - off;
		if (!w->configured || !same_config(&w->cfg, &tmpl)) {
			ret = dev->ops->window_configure(dev, w, &tmpl);
			if (ret)
				break;
			w->cfg = tmpl;
			w->configured = true;
		}
		ret = write ? dev->ops->window_write(dev, w, off, p, chunk) :
			      dev->ops->window_read(dev, w, off, p, chunk);
		if (ret)
			break;
		addr += chunk;
		p += chunk;
		len -= chunk;
	}
	pthread_mutex_unlock(&dev->lock);
	/* After the transfer: data read across a reset is never returned. */
	if (!ret)
		ret = tt_device_check_live(dev);
	return ret;
}

static struct tt_window_config unicast(unsigned noc, unsigned x, unsigned y)
{
	struct tt_window_config c = { .noc = noc, .x = x, .y = y };

	return c;
}

int tt_noc_write(tt_device *dev, unsigned noc, unsigned x, unsigned y,
		 uint64_t addr, const void *src, size_t len)
{
	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(src, len))
		return -EINVAL;
	return transfer(dev, unicast(noc, x, y), addr, (void *)src, len, true);
}

int tt_noc_read(tt_device *dev, unsigned noc, unsigned x, unsigned y,
		uint64_t addr, void *dst, size_t len)
{
	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(dst, len))
		return -EINVAL;
	return transfer(dev, unicast(noc, x, y), addr, dst, len, false);
}

int tt_noc_multicast(tt_device *dev, unsigned noc, struct tt_xy start,
		     struct tt_xy end, uint64_t addr, const void *src, size_t len)
{
	struct tt_window_config c = {
		.noc = noc, .x = end.x, .y = end.y,
		.x_start = start.x, .y_start = start.y, .mcast = true,
	};

	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(src, len))
		return -EINVAL;
	return transfer(dev, c, addr, (void *)src, len, true);
}

int tt_noc_write32(tt_device *dev, unsigned noc, unsigned x, unsigned y,
		   uint64_t addr, uint32_t val)
{
	TT_CHECK_ARG(dev);
	return tt_noc_write(dev, noc, x, y, addr, &val, sizeof(val));
}

int tt_noc_read32(tt_device *dev, unsigned noc, unsigned x, unsigned y,
		  uint64_t addr, uint32_t *val)
{
	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(val);
	return tt_noc_read(dev, noc, x, y, addr, val, sizeof(*val));
}
