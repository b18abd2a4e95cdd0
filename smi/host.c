// SPDX-License-Identifier: Apache-2.0
/*
 * The host: operating system, distribution, kernel, name, memory, and the
 * kernel driver's version if the driver is loaded. Local files only:
 * tt-smi never goes to the network.
 */
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

#include "smi.h"

/* First line of a file, without its newline; false if unreadable. */
static bool first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

/* PRETTY_NAME of os-release(5), quotes removed. */
static void read_distro(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/etc/os-release", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, "PRETTY_NAME=", 12))
			continue;
		v = line + 12;
		v[strcspn(v, "\n")] = 0;
		if (*v == '"' || *v == '\'') {
			v++;
			v[strcspn(v, "\"'")] = 0;
		}
		snprintf(buf, len, "%s", v);
		break;
	}
	fclose(f);
}

void smi_host_read(struct smi_host *h)
{
	struct utsname u;
	struct sysinfo si;

	memset(h, 0, sizeof(*h));
	if (!uname(&u)) {
		snprintf(h->os, sizeof(h->os), "%s", u.sysname);
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
		snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
		snprintf(h->platform, sizeof(h->platform), "%s", u.machine);
	}
	read_distro(h->distro, sizeof(h->distro));
	if (!sysinfo(&si))
		h->memory_bytes = (uint64_t)si.totalram * si.mem_unit;
	if (!first_line("/sys/module/tenstorrent/version", h->driver,
			sizeof(h->driver)))
		h->driver[0] = 0;
}
