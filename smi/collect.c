// SPDX-License-Identifier: Apache-2.0
/*
 * Opening the devices and reading what tt-smi shows: board information,
 * telemetry, the processes that use them. One device failing never hides
 * the others: it is kept with its error.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smi.h"

static void set_error(struct smi_dev *d, const char *what, int ret)
{
	const char *why = tt_last_error();

	d->ok = false;
	snprintf(d->error, sizeof(d->error), "%s: %s", what,
		 why && *why ? why : strerror(-ret));
}

static void read_pids(struct smi_dev *d)
{
	int all[SMI_MAX_PIDS];
	int n = tt_device_processes(d->dev, all, SMI_MAX_PIDS);

	d->npids = 0;
	for (int i = 0; i < n && i < SMI_MAX_PIDS; i++)
		if (all[i] != (int)getpid())
			d->pids[d->npids++] = all[i];
}

/* Cores a dead owner or a failed launch left needing recovery: read from
 * the chip like telemetry, so every process sees them. */
static void read_problems(struct smi_dev *d)
{
	int n = tt_device_core_problems(d->dev, d->problems,
					SMI_MAX_PROBLEMS);

	d->nproblems = n > 0 ? n : 0;
	if (n < 0)
		set_error(d, "core state", n);
}

/*
 * The handle of a device that was reset elsewhere stays dead (libtt
 * refuses it with -ENODEV); a new one follows the chip again. 0, or the
 * error of the open (then d->lost and the error are set).
 */
static int reopen(struct smi_dev *d)
{
	int ret;

	tt_device_close(d->dev);
	d->dev = NULL;
	d->lost = true;
	ret = tt_device_open(d->index, &d->dev);
	if (ret) {
		d->dev = NULL;
		set_error(d, "device lost, and reopening it failed", ret);
		return ret;
	}
	d->lost = false;
	d->info = *tt_device_get_info(d->dev);
	d->reopens++;
	return 0;
}

void smi_refresh(struct smi_dev *d)
{
	int ret;

	if (d->lost && reopen(d))
		return;
	if (!d->dev)
		return;
	d->ok = true;
	d->error[0] = 0;
	/* Telemetry only: reading it disturbs nothing, while a management
	 * message would share a queue with whoever else uses the chip. */
	ret = tt_telemetry_read(d->dev, &d->telem);
	if (ret == -ENODEV && !reopen(d)) {
		d->ok = true;
		ret = tt_telemetry_read(d->dev, &d->telem);
	}
	if (!d->dev) {
		d->have_telem = false;
		return;
	}
	d->have_telem = !ret;
	if (ret)
		set_error(d, "telemetry", ret);
	read_pids(d);
	read_problems(d);
}

static void open_one(struct smi_dev *d, unsigned index)
{
	int ret;

	d->index = index;
	ret = tt_device_open(index, &d->dev);
	if (ret) {
		d->dev = NULL;
		set_error(d, "open", ret);
		return;
	}
	d->info = *tt_device_get_info(d->dev);
	ret = tt_mgmt_wait_ready(d->dev, SMI_READY_MS);
	if (ret) {
		set_error(d, "management firmware", ret);
		return;
	}
	smi_refresh(d);
}

int smi_open_all(struct smi_dev **out, unsigned *n, char *err, size_t len)
{
	unsigned count = 0;
	struct smi_dev *d;
	int ret = tt_device_count(&count);

	if (ret || !count) {
		snprintf(err, len, "no Tenstorrent device found%s%s",
			 ret ? ": " : "", ret ? tt_last_error() : "");
		return -ENODEV;
	}
	d = calloc(count, sizeof(*d));
	if (!d) {
		snprintf(err, len, "out of memory for %u devices", count);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < count; i++)
		open_one(&d[i], i);
	*out = d;
	*n = count;
	return 0;
}

void smi_close_all(struct smi_dev *d, unsigned n)
{
	for (unsigned i = 0; d && i < n; i++)
		tt_device_close(d[i].dev);
	free(d);
}

static void read_cmdline(int pid, char *buf, size_t len)
{
	char path[64];
	size_t got = 0;
	FILE *f;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	got = fread(buf, 1, len - 1, f);
	fclose(f);
	/* Arguments are NUL-separated; a command line shows them spaced. */
	for (size_t i = 0; i < got; i++)
		if (buf[i] == 0 || buf[i] == '\n')
			buf[i] = ' ';
	while (got && buf[got - 1] == ' ')
		got--;
	buf[got] = 0;
}

static void read_user(int pid, char *buf, size_t len)
{
	char path[64];
	struct passwd *pw;
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	if (stat(path, &st)) {
		snprintf(buf, len, "?");
		return;
	}
	pw = getpwuid(st.st_uid);
	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%u", (unsigned)st.st_uid);
}

unsigned smi_processes(const struct smi_dev *d, unsigned n,
		       struct smi_proc *out, unsigned max)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		for (int j = 0; j < d[i].npids && k < max; j++) {
			struct smi_proc *p = &out[k++];

			p->pid = d[i].pids[j];
			p->device = d[i].index;
			read_user(p->pid, p->user, sizeof(p->user));
			read_cmdline(p->pid, p->cmdline, sizeof(p->cmdline));
		}
	return k;
}

const char *smi_version(uint32_t v, char *buf, size_t len)
{
	if (!v) {
		buf[0] = 0;
		return buf;
	}
	return tt_fw_version_str(v, buf, len);
}

const char *smi_health(const struct smi_dev *d)
{
	if (!d->ok)
		return "error";
	return d->nproblems ? "degraded" : "ok";
}
