// SPDX-License-Identifier: Apache-2.0
#include "firmware.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/arc.h"
#include "image.h"

/* Generated from the firmware build (scripts/embed-blob.py). */
extern const unsigned char tt_flash_bundle[];
extern const unsigned long tt_flash_bundle_size;

static pthread_mutex_t file_lock = PTHREAD_MUTEX_INITIALIZER;
static char *file_path; /* TT_FIRMWARE as loaded */
static void *file_data;
static size_t file_len;

static int read_file(const char *path, char *err)
{
	FILE *f = fopen(path, "rb");
	void *buf = malloc(TT_ARC_FLASH_SIZE + 1);
	size_t n = 0;
	int ret = 0;

	if (!f || !buf) {
		ret = f ? -ENOMEM : -errno;
		snprintf(err, SIM_ERR_LEN, "TT_FIRMWARE=%s: %s", path,
			 strerror(-ret));
		goto out;
	}
	n = fread(buf, 1, TT_ARC_FLASH_SIZE + 1, f);
	if (ferror(f) || n > TT_ARC_FLASH_SIZE) {
		ret = ferror(f) ? -EIO : -EFBIG;
		snprintf(err, SIM_ERR_LEN, "TT_FIRMWARE=%s: %s", path,
			 ret == -EIO ? "read error" : "larger than the 1 MiB flash");
		goto out;
	}
	free(file_data);
	free(file_path);
	file_data = buf;
	file_len = n;
	file_path = strdup(path);
	buf = NULL;
out:
	if (f)
		fclose(f);
	free(buf);
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
	if (!file_path || strcmp(file_path, path))
		ret = read_file(path, err);
	if (!ret) {
		*data = file_data;
		*len = file_len;
	}
	pthread_mutex_unlock(&file_lock);
	return ret;
}
