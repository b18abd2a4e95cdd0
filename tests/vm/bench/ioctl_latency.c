// SPDX-License-Identifier: Apache-2.0
/*
 * Guest benchmark (tests/vm/README.md "Benchmarks"): the round trip of
 * GET_DEVICE_INFO on argv[1], in ns per call, and its ratio to getppid(2),
 * a system call that does nothing, measured the same way in the same run
 * (ratio = ioctl time / getppid time: the driver's own cost per call).
 * Each figure is the best of ROUNDS rounds of CALLS calls.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/tenstorrent.h>

#define ROUNDS 7
#define CALLS 2000

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static double best_ioctl(int fd)
{
	struct tenstorrent_get_device_info a;
	double best = 1e30;

	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();

		for (int i = 0; i < CALLS; i++) {
			a.in.output_size_bytes = sizeof(a.out);
			if (ioctl(fd, TENSTORRENT_IOCTL_GET_DEVICE_INFO, &a))
				return -1;
		}
		double ns = (now_ns() - t0) / CALLS;

		best = ns < best ? ns : best;
	}
	return best;
}

/* getppid through syscall(2): libc may not cache it, but be sure. */
static double best_getppid(void)
{
	double best = 1e30;

	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();

		for (int i = 0; i < CALLS; i++)
			syscall(SYS_getppid);
		double ns = (now_ns() - t0) / CALLS;

		best = ns < best ? ns : best;
	}
	return best;
}

int main(int argc, char **argv)
{
	double ioc, base;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s /dev/tenstorrent/N\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	ioc = best_ioctl(fd);
	if (ioc < 0) {
		perror("GET_DEVICE_INFO");
		return 1;
	}
	base = best_getppid();
	printf("BENCH name=ioctl_latency value=%.0f unit=ns ratio=%.2f "
	       "vs=getppid\n",
	       ioc, ioc / base);
	close(fd);
	return 0;
}
