// SPDX-License-Identifier: Apache-2.0
/*
 * An application that happens to define functions named like libtt's
 * internals (the chip model's board table, common/'s SoC descriptors)
 * still opens the embedded device: libtt.so binds its own internals, not
 * these (lib/meson.build, --exclude-libs). Linked against the shared
 * library; prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tt/device.h"

/* The names libtt's own code calls; bodies that would break it. */
const void *board_find(const char *name);
int soc_desc_builtin(const char *name, void *out, char *err, size_t errlen);

const void *board_find(const char *name)
{
	(void)name;
	return NULL;
}

int soc_desc_builtin(const char *name, void *out, char *err, size_t errlen)
{
	(void)name;
	(void)out;
	(void)err;
	(void)errlen;
	return -1;
}

int main(void)
{
	tt_device *dev = NULL;
	int rc;

	setenv("TT_TRANSPORT", "embedded", 1);
	printf("1..1\n");
	rc = tt_device_open(0, &dev);
	if (rc) {
		printf("not ok 1 - open embedded device 0 next to an own board_find(): %d: %s\n",
		       rc, tt_last_error());
		return 1;
	}
	tt_device_close(dev);
	printf("ok 1 - open embedded device 0 next to an own board_find() and soc_desc_builtin()\n");
	return 0;
}
