// SPDX-License-Identifier: Apache-2.0
#include "rundir.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sim/model/image.h"

static int check_dir(const char *path, char *err)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		int e = errno;

		snprintf(err, SIM_ERR_LEN, "%s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(err, SIM_ERR_LEN,
			 "%s: not a private directory of this user; set TTSIM_RUNTIME_DIR",
			 path);
		return -EPERM;
	}
	return 0;
}

int sim_rundir(char *buf, size_t len, int create, char *err)
{
	const char *env = getenv("TTSIM_RUNTIME_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/ttsim", xdg);
	else
		n = snprintf(buf, len, "/tmp/ttsim-%u", (unsigned)geteuid());
	if (n < 0 || (size_t)n >= len - SIM_NAME_MAX - 8) {
		snprintf(err, SIM_ERR_LEN, "runtime directory path is too long");
		return -ENAMETOOLONG;
	}
	if (create && mkdir(buf, 0700) < 0 && errno != EEXIST) {
		int e = errno;

		snprintf(err, SIM_ERR_LEN, "cannot create %s: %s", buf,
			 strerror(e));
		return -e;
	}
	return check_dir(buf, err);
}

int sim_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= SIM_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' &&
		    name[i] != '-')
			return 0;
	return 1;
}

/* Natural order: digit runs compare as numbers. */
static int natural_cmp(const void *pa, const void *pb)
{
	const char *a = pa, *b = pb;

	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long x = strtoul(a, (char **)&a, 10);
			unsigned long y = strtoul(b, (char **)&b, 10);

			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int sim_rundir_list(char names[][SIM_NAME_MAX], int max, char *err)
{
	char dir[256];
	struct dirent *de;
	DIR *d;
	int n = 0, ret;

	ret = sim_rundir(dir, sizeof(dir), 0, err);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	d = opendir(dir);
	if (!d) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	while ((de = readdir(d)) && n < max) {
		size_t len = strlen(de->d_name);

		if (len <= 5 || strcmp(de->d_name + len - 5, ".sock"))
			continue;
		if (len - 5 >= SIM_NAME_MAX)
			continue;
		memcpy(names[n], de->d_name, len - 5);
		names[n][len - 5] = 0;
		if (sim_name_valid(names[n]))
			n++;
	}
	closedir(d);
	qsort(names, (size_t)n, SIM_NAME_MAX, natural_cmp);
	return n;
}

int sim_rundir_connect(const char *name, char *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[256];
	int s, ret;

	if (!sim_name_valid(name)) {
		snprintf(err, SIM_ERR_LEN, "invalid device name '%s'", name);
		return -EINVAL;
	}
	ret = sim_rundir(dir, sizeof(dir), 0, err);
	if (ret)
		return ret;
	if ((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s.sock", dir,
			     name) >= sizeof(sa.sun_path)) {
		snprintf(err, SIM_ERR_LEN, "socket path for %s is too long", name);
		return -ENAMETOOLONG;
	}
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "socket: %s", strerror(-ret));
		return ret;
	}
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot reach ttsim device %s (%s): %s",
			 name, sa.sun_path, strerror(-ret));
		close(s);
		return ret;
	}
	return s;
}
