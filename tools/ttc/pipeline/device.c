// SPDX-License-Identifier: Apache-2.0
/*
 * Devices (PyBuda's TTDevice and CPUDevice) and the modules placed on
 * them, and detect_available_devices: libtt's devices, each opened to
 * read what it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static ttc_device *device_new(const char *name, bool tt)
{
	ttc_device *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->name = strdup(name ? name : (tt ? "tt0" : "cpu0"));
	if (!d->name) {
		free(d);
		return NULL;
	}
	d->tt = tt;
	d->tail = &d->mods;
	return d;
}

ttc_device *ttc_tt_device_new(const char *name, tt_device *dev)
{
	ttc_device *d = device_new(name, true);

	if (!d)
		return NULL;
	d->dev = dev;
	if (!dev) {
		if (tt_device_open(0, &d->dev)) {
			ttc_device_free(d);
			return NULL;
		}
		d->own_dev = true;
	}
	return d;
}

ttc_device *ttc_cpu_device_new(const char *name)
{
	return device_new(name, false);
}

void ttc_device_free(ttc_device *d)
{
	ttc_pymodule *m, *next;

	if (!d)
		return;
	for (m = d->mods; m; m = next) {
		next = m->next;
		ttc_pymodule_free(m);
	}
	if (d->own_dev)
		tt_device_close(d->dev);
	free(d->name);
	free(d);
}

const char *ttc_device_name(const ttc_device *d)
{
	return d->name;
}

int ttc_device_place_module(ttc_device *d, ttc_pymodule *mod)
{
	if (!d || !mod || mod->placed)
		return -EINVAL;
	mod->placed = true;
	*d->tail = mod;
	d->tail = &mod->next;
	return 0;
}

static void copy(char *dst, size_t n, const char *s)
{
	snprintf(dst, n, "%s", s ? s : "");
}

int ttc_detect_available_devices(struct ttc_device_desc *out, size_t max,
				 size_t *n)
{
	unsigned count = 0;
	int ret = tt_device_count(&count);

	if (ret)
		return ret;
	*n = count;
	for (unsigned i = 0; i < count && i < max; i++) {
		const struct tt_device_info *info;
		tt_device *dev;

		ret = tt_device_open(i, &dev);
		if (ret)
			return ret;
		info = tt_device_get_info(dev);
		out[i].index = i;
		copy(out[i].arch, sizeof(out[i].arch), info->arch_name);
		copy(out[i].board, sizeof(out[i].board), info->board);
		copy(out[i].transport, sizeof(out[i].transport),
		     info->transport);
		copy(out[i].name, sizeof(out[i].name), info->name);
		tt_device_close(dev);
	}
	return 0;
}
