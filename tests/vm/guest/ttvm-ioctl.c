// SPDX-License-Identifier: Apache-2.0
/*
 * ttvm-ioctl PATH|FD: open PATH read-write (or use the inherited FD) and
 * issue a command the driver does not know. Prints "open: <errno name>" if
 * the open fails, else "ioctl: <errno name>" or "ioctl: 0". Always exits 0
 * after printing, so the shell compares the words. Guest-side helper of
 * tests/vm/guest/tests.sh; the ioctl numbers are tt-kmd's (_IO(0xFA, nr)),
 * written here so this increment needs no uapi header.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define TT_IOCTL_UNKNOWN _IO(0xFA, 0xFF)

static const char *err_name(int e)
{
	const char *s = strerrorname_np(e);

	return s ? s : "unknown-errno";
}

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: ttvm-ioctl PATH|FD\n");
		return 2;
	}
	if (isdigit((unsigned char)argv[1][0])) {
		fd = atoi(argv[1]);
	} else {
		fd = open(argv[1], O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			printf("open: %s\n", err_name(errno));
			return 0;
		}
	}
	if (ioctl(fd, TT_IOCTL_UNKNOWN, 0) == 0)
		printf("ioctl: 0\n");
	else
		printf("ioctl: %s\n", err_name(errno));
	return 0;
}
