// SPDX-License-Identifier: Apache-2.0
#include "rundir.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/time.h>
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

/* The path of name's file with suffix ext (".sock", ".lock") in buf. */
static int name_path(char *buf, size_t len, const char *name, const char *ext,
		     char *err)
{
	char dir[256];
	int ret;

	if (!sim_name_valid(name)) {
		snprintf(err, SIM_ERR_LEN, "invalid device name '%s'", name);
		return -EINVAL;
	}
	ret = sim_rundir(dir, sizeof(dir), 0, err);
	if (ret)
		return ret;
	if ((size_t)snprintf(buf, len, "%s/%s%s", dir, name, ext) >= len) {
		snprintf(err, SIM_ERR_LEN, "%s path for %s is too long", ext,
			 name);
		return -ENAMETOOLONG;
	}
	return 0;
}

int sim_rundir_held(const char *name, char *err)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 8];
	int fd, ret;

	ret = name_path(path, sizeof(path), name, ".lock", err);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "%s: %s", path, strerror(-ret));
		return ret;
	}
	/* A shared lock for a moment: a daemon claiming the name retries. */
	if (flock(fd, LOCK_SH | LOCK_NB) == 0)
		ret = 0;
	else if (errno == EWOULDBLOCK)
		ret = 1;
	else {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot lock %s: %s", path,
			 strerror(-ret));
	}
	close(fd);
	return ret;
}

int sim_rundir_connect_ms(const char *name, int timeout_ms, char *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = timeout_ms / 1000,
			      .tv_usec = (timeout_ms % 1000) * 1000 };
	int s, ret;

	ret = name_path(sa.sun_path, sizeof(sa.sun_path), name, ".sock", err);
	if (ret)
		return ret;
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "socket: %s", strerror(-ret));
		return ret;
	}
	/* Before connect(): a daemon that does not accept (stopped, hung)
	 * leaves us waiting in it once its backlog is full. */
	if (setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "setsockopt: %s", strerror(-ret));
		close(s);
		return ret;
	}
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		if (ret == -EAGAIN || ret == -EINPROGRESS) {
			snprintf(err, SIM_ERR_LEN,
				 "ttsim device %s did not answer within %d ms (is its daemon stopped or hung?)",
				 name, timeout_ms);
			ret = -ETIMEDOUT;
		} else {
			snprintf(err, SIM_ERR_LEN,
				 "cannot reach ttsim device %s (%s): %s", name,
				 sa.sun_path, strerror(-ret));
		}
		close(s);
		return ret;
	}
	return s;
}

int sim_rundir_connect(const char *name, char *err)
{
	return sim_rundir_connect_ms(name, SIM_TIMEOUT_MS_DEFAULT, err);
}
