// SPDX-License-Identifier: Apache-2.0
/*
 * Reset targets: device indices ("0", "0,2"), device names or paths
 * ("embedded0", "/dev/tenstorrent/1"), PCI addresses ("0000:0a:00.0"), or
 * "all". Words may be separated by commas or given as several arguments.
 * A word that names no device is an error naming it: a reset never falls
 * back to "all" or skips a typo.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "smi.h"

static bool parse_index(const char *w, unsigned long *out)
{
	char *end;

	if (!*w || *w < '0' || *w > '9')
		return false;
	errno = 0;
	*out = strtoul(w, &end, 10);
	return !*end && !errno;
}

/* Does word w name device d (other than by index)? */
static bool names(const struct smi_dev *d, const char *w)
{
	if (!d->dev)
		return false;
	return !strcmp(w, d->info.name);
}

static int select_word(const char *w, const struct smi_dev *d, unsigned n,
		       bool *sel, char *err, size_t len)
{
	unsigned long idx;
	bool found = false;

	if (!strcmp(w, "all")) {
		for (unsigned i = 0; i < n; i++)
			sel[i] = true;
		return 0;
	}
	if (parse_index(w, &idx)) {
		if (idx >= n) {
			snprintf(err, len,
				 "reset target %s: no such device (devices are "
				 "0..%u)",
				 w, n - 1);
			return -EINVAL;
		}
		sel[idx] = true;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		if (names(&d[i], w)) {
			sel[i] = true;
			found = true;
		}
	if (!found) {
		snprintf(err, len,
			 "reset target %s: not a device index, name, path or "
			 "PCI address of any device (see tt-smi -ls)",
			 w);
		return -EINVAL;
	}
	return 0;
}

int smi_targets(const char *const *words, unsigned nwords,
		const struct smi_dev *d, unsigned n, bool *sel, char *err,
		size_t len)
{
	memset(sel, 0, n * sizeof(*sel));
	if (!nwords) {
		for (unsigned i = 0; i < n; i++)
			sel[i] = true;
		return 0;
	}
	for (unsigned k = 0; k < nwords; k++) {
		char *copy = strdup(words[k]), *save = NULL;
		int ret = 0;

		if (!copy) {
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
		for (char *w = strtok_r(copy, ", \t", &save); w && !ret;
		     w = strtok_r(NULL, ", \t", &save))
			ret = select_word(w, d, n, sel, err, len);
		free(copy);
		if (ret)
			return ret;
	}
	for (unsigned i = 0; i < n; i++)
		if (sel[i])
			return 0;
	snprintf(err, len, "no reset target given");
	return -EINVAL;
}
