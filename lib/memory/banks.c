// SPDX-License-Identifier: Apache-2.0
/*
 * The banks of a device (tt/buffer.h): DRAM banks are the channels that
 * are not harvested, L1 banks the enabled Tensix cores in logical order,
 * and the table the kernels' address generators read (hw/l1.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "tt/core.h"

static int dram_banks(struct tt_device *dev, struct tt_bank_layout *b)
{
	const struct soc_desc *s = &dev->soc;

	b->dram_banks = 0;
	for (unsigned ch = 0; ch < s->dram_channels; ch++) {
		if (s->harvested_dram & (1u << ch) || !s->dram_ports[ch])
			continue;
		b->dram_channel[b->dram_banks] = ch;
		b->dram_xy[b->dram_banks].x = s->dram[ch][0].x;
		b->dram_xy[b->dram_banks].y = s->dram[ch][0].y;
		b->dram_banks++;
	}
	if (!b->dram_banks)
		return tt_error(-EPROTO, "%s: no DRAM channel for DRAM buffers",
				dev->name);
	b->dram_lo = TT_DRAM_UNRESERVED;
	b->dram_hi = s->dram_bank_size;
	b->dram_align = s->arch == TT_HW_ARCH_BLACKHOLE ?
				TT_DRAM_ALIGN_BLACKHOLE : TT_DRAM_ALIGN;
	if (b->dram_hi <= b->dram_lo)
		return tt_error(-EPROTO, "%s: DRAM channels of %llu bytes hold no buffers",
				dev->name, (unsigned long long)b->dram_hi);
	return 0;
}

/* One L1 bank per core of the logical grid (tt/core.h), row-major: the
 * dispatch row holds none. */
static int l1_banks(struct tt_device *dev, struct tt_bank_layout *b)
{
	const struct soc_desc *s = &dev->soc;
	unsigned w, h, n;
	int ret = tt_device_logical_grid(dev, &w, &h);

	if (ret)
		return ret;
	n = w * h;
	if (n > TT_BANKS_MAX_L1)
		return tt_error(-EPROTO, "%s: %u Tensix cores (L1 banks need 1..%u)",
				dev->name, n, TT_BANKS_MAX_L1);
	b->l1_banks = n;
	b->grid_w = w;
	b->grid_h = h;
	for (unsigned i = 0; i < n; i++) {
		b->l1_xy[i].x = s->tensix[i].x;
		b->l1_xy[i].y = s->tensix[i].y;
	}
	b->l1_lo = TT_L1_PROG_UNRESERVED;
	b->l1_hi = s->worker_l1_size >= TT_L1_ARGS_SIZE ?
			   s->worker_l1_size - TT_L1_ARGS_SIZE : 0;
	b->l1_hi &= ~(uint64_t)(TT_L1_ALIGN - 1);
	b->l1_align = TT_L1_ALIGN;
	if (b->l1_hi <= b->l1_lo)
		return tt_error(-EPROTO, "%s: L1 of %llu bytes leaves nothing above 0x%x for buffers",
				dev->name, (unsigned long long)s->worker_l1_size,
				TT_L1_PROG_UNRESERVED);
	return 0;
}

int tt_banks_layout(struct tt_device *dev, struct tt_bank_layout *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = dram_banks(dev, out);
	if (!ret)
		ret = l1_banks(dev, out);
	return ret;
}

static uint32_t packed_xy(struct tt_xy xy)
{
	return xy.x | xy.y << 8;
}

int tt_banks_table(struct tt_device *dev, struct tt_bank_table *t)
{
	struct tt_bank_layout b;
	int ret = tt_banks_layout(dev, &b);

	if (ret)
		return ret;
	memset(t, 0, sizeof(*t));
	t->dram_banks = b.dram_banks;
	t->l1_banks = b.l1_banks;
	t->grid_x = dev->soc.grid_x;
	t->grid_y = dev->soc.grid_y;
	t->dram_align = b.dram_align;
	t->l1_align = b.l1_align;
	t->l1_grid_w = b.grid_w;
	for (unsigned i = 0; i < b.dram_banks; i++)
		t->dram_xy[i] = packed_xy(b.dram_xy[i]);
	for (unsigned i = 0; i < b.l1_banks; i++)
		t->l1_xy[i] = packed_xy(b.l1_xy[i]);
	return 0;
}

static uint32_t alignment(tt_device *dev, bool dram, const char *fn)
{
	struct tt_bank_layout b;

	if (!dev) {
		tt_error(-EINVAL, "%s: device is NULL", fn);
		return 0;
	}
	if (tt_banks_layout(dev, &b)) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s", tt_last_error());
		tt_error(-EPROTO, "%s: %s", fn, msg);
		return 0;
	}
	return dram ? b.dram_align : b.l1_align;
}

uint32_t tt_device_l1_alignment(tt_device *dev)
{
	return alignment(dev, false, "tt_device_l1_alignment");
}

uint32_t tt_device_dram_alignment(tt_device *dev)
{
	return alignment(dev, true, "tt_device_dram_alignment");
}
