// SPDX-License-Identifier: Apache-2.0
#include "kprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt/hart.h"
#include "tt/noc.h"

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

bool tt_kprint_enabled(void)
{
	return env_on("TT_DPRINT");
}

bool tt_kprint_cb_checks(void)
{
	return env_on("TT_CB_CHECKS");
}

static FILE *log_file(void)
{
	static FILE *f;
	const char *path = getenv("TT_DPRINT_FILE");

	if (!path || !*path)
		return stderr;
	if (!f)
		f = fopen(path, "ae");
	return f ? f : stderr;
}

/* Ring header words: wr, rd. The device is not trusted: a fill level
 * beyond the ring is treated as an empty ring that is then resynced. */
static int read_ring(struct tt_device *dev, struct tt_xy core, unsigned hart,
		     uint32_t hdr[2], char *data, uint32_t *fill)
{
	uint32_t base = TT_L1_PRINT_RING(hart);
	int ret = tt_noc_read(dev, 0, core.x, core.y, base, hdr, 8);

	if (ret)
		return ret;
	*fill = hdr[0] - hdr[1];
	if (*fill == 0 || *fill > TT_PRINT_DATA) {
		*fill = 0;
		return 0;
	}
	for (uint32_t i = 0; i < *fill;) {
		uint32_t at = (hdr[1] + i) % TT_PRINT_DATA;
		uint32_t n = TT_PRINT_DATA - at < *fill - i ?
				     TT_PRINT_DATA - at :
				     *fill - i;

		ret = tt_noc_read(dev, 0, core.x, core.y, base + 16 + at,
				  data + i, n);
		if (ret)
			return ret;
		i += n;
	}
	return 0;
}

static void emit(struct tt_device *dev, const struct tt_launch_core *c,
		 unsigned hart, const char *text, size_t len)
{
	FILE *f = log_file();

	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;

		fprintf(f, "%s core (%u,%u) %s: %.*s\n", dev->name,
			c->logical.x, c->logical.y, tt_hart_name(hart),
			(int)n, text);
		n += nl ? 1 : 0;
		text += n;
		len -= n;
	}
	fflush(f);
}

static void drain_one(struct tt_device *dev, const struct tt_launch_core *c,
		      unsigned hart)
{
	char data[TT_PRINT_DATA];
	uint32_t hdr[2], fill, take;
	const char *last_nl;

	if (read_ring(dev, c->noc, hart, hdr, data, &fill) || !fill)
		return;
	last_nl = NULL;
	for (uint32_t i = 0; i < fill; i++)
		if (data[i] == '\n')
			last_nl = &data[i];
	/* A full ring without a newline is flushed as it is, or the kernel
	 * would wait for ever. */
	take = last_nl ? (uint32_t)(last_nl - data) + 1 :
			 (fill == TT_PRINT_DATA ? fill : 0);
	if (!take)
		return;
	emit(dev, c, hart, data, take);
	tt_noc_write32(dev, 0, c->noc.x, c->noc.y, TT_L1_PRINT_RING(hart) + 4,
		       hdr[1] + take);
}

void tt_kprint_drain(struct tt_device *dev, const struct tt_launch *l)
{
	for (unsigned i = 0; i < l->ncores; i++)
		for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
			if (l->cores[i].hart[h].bin &&
			    tt_kprint_core_on(&l->print_sel,
					      l->cores[i].logical))
				drain_one(dev, &l->cores[i], h);
}

void tt_kprint_peek(struct tt_device *dev, struct tt_xy core, unsigned hart,
		    char *buf, size_t len)
{
	char data[TT_PRINT_DATA];
	uint32_t hdr[2], fill;
	size_t n;

	buf[0] = 0;
	if (!len || read_ring(dev, core, hart, hdr, data, &fill) || !fill)
		return;
	n = fill < len - 1 ? fill : len - 1;
	memcpy(buf, data + fill - n, n);
	buf[n] = 0;
	/* One line for messages: no trailing newline, none inside. */
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\n' || (unsigned char)buf[i] < 0x20)
			buf[i] = ' ';
}
