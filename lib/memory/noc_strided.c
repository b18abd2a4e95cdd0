// SPDX-License-Identifier: Apache-2.0
/*
 * Strided host transfers (noc_strided.h). One lock hold and one window
 * configuration serve every piece that falls inside the window, so the
 * per-piece cost is the transport's access alone; noc.c would re-check and
 * re-lock for each piece.
 */
#include <assert.h>
#include <errno.h>

#include "hw/noc.h"
#include "noc_strided.h"

/* The whole pattern stays inside the node's 36-bit address space. */
static int check(struct tt_device *dev, const struct tt_noc_strided *s)
{
	uint64_t last, stride = s->dev_stride ? s->dev_stride : 1;

	if (s->noc >= TT_NOC_COUNT)
		return tt_error(-EINVAL, "%s: NOC %u does not exist (0 or 1)",
				dev->name, s->noc);
	if (!s->count || !s->len)
		return 0;
	if (s->count - 1 > TT_NOC_ADDR_LOCAL_MASK / stride)
		goto outside;
	last = s->addr + (s->count - 1) * s->dev_stride;
	if (s->addr > TT_NOC_ADDR_LOCAL_MASK || last > TT_NOC_ADDR_LOCAL_MASK ||
	    s->len > TT_NOC_ADDR_LOCAL_MASK - last + 1)
		goto outside;
	return 0;
outside:
	return tt_error(-EINVAL,
			"%s: %zu pieces of %zu bytes from 0x%llx, %llu apart, leave the 36-bit NOC address space",
			dev->name, s->count, s->len,
			(unsigned long long)s->addr,
			(unsigned long long)s->dev_stride);
}

/* Move [addr, addr + len) <-> p, re-pointing the window only when the
 * piece is not inside it. Called with dev->lock held. */
static int piece(struct tt_device *dev, struct tt_window_config *tmpl,
		 uint64_t addr, uint8_t *p, size_t len, bool write)
{
	struct tt_window *w = &dev->win;
	int ret;

	while (len) {
		uint64_t off = addr & (w->size - 1);
		size_t chunk = len < w->size - off ? len : (size_t)(w->size - off);

		tmpl->base = addr - off;
		if (!w->configured || w->cfg.mcast || w->cfg.noc != tmpl->noc ||
		    w->cfg.x != tmpl->x || w->cfg.y != tmpl->y ||
		    w->cfg.base != tmpl->base) {
			ret = dev->ops->window_configure(dev, w, tmpl);
			if (ret)
				return ret;
			w->cfg = *tmpl;
			w->configured = true;
		}
		ret = write ? dev->ops->window_write(dev, w, off, p, chunk) :
			      dev->ops->window_read(dev, w, off, p, chunk);
		if (ret)
			return ret;
		addr += chunk;
		p += chunk;
		len -= chunk;
	}
	return 0;
}

int tt_noc_strided(struct tt_device *dev, const struct tt_noc_strided *s,
		   bool write)
{
	struct tt_window_config tmpl = { .noc = s->noc, .x = s->x, .y = s->y };
	uint64_t addr = s->addr;
	uint8_t *p = s->host;
	int ret;

	assert(dev && (s->host || !s->count || !s->len));
	ret = check(dev, s);
	if (ret || !s->count || !s->len)
		return ret;
	pthread_mutex_lock(&dev->lock);
	for (size_t i = 0; i < s->count && !ret; i++) {
		ret = piece(dev, &tmpl, addr, p, s->len, write);
		addr += s->dev_stride;
		p += s->host_stride;
	}
	pthread_mutex_unlock(&dev->lock);
	/* As noc.c: data read across a chip reset is never returned. */
	if (!ret)
		ret = tt_device_check_live(dev);
	return ret;
}
