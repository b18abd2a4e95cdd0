// SPDX-License-Identifier: Apache-2.0
#include "firmware.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hw/arc.h"
#include "hw/flash.h"
#include "image.h"

/* Generated from the firmware build (scripts/embed-blob.py). */
extern const unsigned char tt_flash_bundle[];
extern const unsigned long tt_flash_bundle_size;

/*
 * Bundles read from TT_FIRMWARE, newest first. A device may still be
 * burning an older one when the variable changes, so none is freed: each
 * stays valid, and reachable, for the life of the process.
 */
struct loaded {
	struct loaded *next;
	size_t len;
	char *path;
	unsigned char data[];
};

static pthread_mutex_t file_lock = PTHREAD_MUTEX_INITIALIZER;
static struct loaded *loaded;

/*
 * Nothing read: a blank flash, but only from a character device such as
 * /dev/null, which asks for one. An empty regular file (a bundle cut short
 * by a failed copy, say) is refused like any bundle shorter than its
 * header, rather than booting a chip with no firmware.
 */
static bool blank_ok(FILE *f)
{
	struct stat st;

	return !fstat(fileno(f), &st) && S_ISCHR(st.st_mode);
}

static int read_file(const char *path, char *err)
{
	struct loaded *l = malloc(sizeof(*l) + TT_ARC_FLASH_SIZE + 1);
	FILE *f = fopen(path, "rb");
	int ret = 0;

	if (!f || !l) {
		ret = f ? -ENOMEM : -errno;
		snprintf(err, SIM_ERR_LEN, "TT_FIRMWARE=%s: %s", path,
			 strerror(-ret));
		goto out;
	}
	l->len = fread(l->data, 1, TT_ARC_FLASH_SIZE + 1, f);
	if (!l->len && !ferror(f) && !blank_ok(f)) {
		ret = -EINVAL;
		snprintf(err, SIM_ERR_LEN,
			 "TT_FIRMWARE=%s: bundle is 0 bytes, shorter than the %zu-byte header (an empty file is no bundle; TT_FIRMWARE=/dev/null gives a blank flash)",
			 path, sizeof(struct tt_flash_header));
		goto out;
	}
	l->path = strdup(path);
	if (ferror(f) || l->len > TT_ARC_FLASH_SIZE || !l->path) {
		ret = ferror(f) ? -EIO : l->path ? -EFBIG : -ENOMEM;
		snprintf(err, SIM_ERR_LEN, "TT_FIRMWARE=%s: %s", path,
			 ret == -EIO    ? "read error" :
			 ret == -EFBIG ? "larger than the 1 MiB flash" :
					 strerror(-ret));
		free(l->path);
		goto out;
	}
	l->next = loaded;
	loaded = l;
	l = NULL;
out:
	if (f)
		fclose(f);
	free(l);
	return ret;
}

int sim_firmware_bundle(const void **data, size_t *len, char *err)
{
	const char *path = getenv("TT_FIRMWARE");
	int ret = 0;

	if (!path || !*path) {
		*data = tt_flash_bundle;
		*len = tt_flash_bundle_size;
		return 0;
	}
	pthread_mutex_lock(&file_lock);
	if (!loaded || strcmp(loaded->path, path))
		ret = read_file(path, err);
	if (!ret) {
		*data = loaded->data;
		*len = loaded->len;
	}
	pthread_mutex_unlock(&file_lock);
	return ret;
}
