// SPDX-License-Identifier: Apache-2.0
/*
 * DMA-queue bandwidth in a guest, against the live chip model: copies of
 * 1 MiB and 4 MiB descriptors between a DMA buffer and a DRAM node, in
 * batches, submitted and waited for through the driver, beside memcpy of
 * the same sizes by the guest's CPU in the same run.
 *
 *   dma_queue_bw_h2d  DMA buffer -> DRAM (TO_DEVICE)
 *   dma_queue_bw_d2h  DRAM -> DMA buffer (FROM_DEVICE)
 *   dma_queue_bw      the lower of the two, with its ratio
 *
 * ratio = DMA MB/s / memcpy MB/s, where memcpy copies the same sizes from
 * one buffer to another in this process. Each figure is the best of
 * several rounds, to keep a busy machine's noise out.
 *
 * Usage: dma_queue_bw /dev/tenstorrent/N. Built like the kselftests:
 * cc -static -O2 -Iuapi -Ifirmware/include.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <hw/arch.h>
#include <hw/host.h>
#include <linux/tenstorrent.h>

#define BUF (4u << 20)
#define TOTAL (64u << 20) /* bytes per round */
#define ROUNDS 5
#define DRAM_AT 0x1000000ull

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int dram_node(int fd, struct tt_node_desc *out)
{
	const size_t len = TT_IMAGE_NODE_TABLE_OFF + 64 * 64 * sizeof(*out);
	uint8_t *bar = mmap(NULL, len, PROT_READ, MAP_SHARED, fd,
			    (off_t)TENSTORRENT_MMAP_BAR2_UC);
	const struct tt_identity *id = (const void *)bar;
	const struct tt_node_desc *t;
	int ret = -1;

	if (bar == MAP_FAILED)
		return -1;
	t = (const void *)(bar + TT_IMAGE_NODE_TABLE_OFF);
	for (uint32_t i = 0; id->grid_x <= 64 && id->grid_y <= 64 &&
			     i < id->grid_x * id->grid_y;
	     i++) {
		if (t[i].type == TT_NODE_DRAM &&
		    t[i].mem_size >= DRAM_AT + TOTAL) {
			*out = t[i];
			ret = 0;
			break;
		}
	}
	munmap(bar, len);
	return ret;
}

/* One round: TOTAL bytes in descriptors of `size`, in one batch (at most
 * 64 descriptors). Seconds, or < 0 on error. */
static double dma_round(int fd, const struct tt_node_desc *n, int dir,
			uint32_t size)
{
	struct tenstorrent_dma_desc d[64];
	struct tenstorrent_dma_queue_submit s = {
		.in = {.output_size_bytes = sizeof(s.out),
		       .descs = (uintptr_t)d,
		       .desc_size = sizeof(d[0])}};
	struct tenstorrent_dma_queue_wait w = {
		.in = {.output_size_bytes = sizeof(w.out),
		       .timeout_ms = 60000}};
	uint32_t count = TOTAL / size;
	double t0;

	for (uint32_t i = 0; i < count; i++)
		d[i] = (struct tenstorrent_dma_desc){
			.host_addr = (uint64_t)(i * size) % BUF,
			.device_addr = DRAM_AT + (uint64_t)i * size,
			.length = size,
			.direction = (uint8_t)dir,
			.host_type = TENSTORRENT_DMA_HOST_DMA_BUF,
			.x = n->x,
			.y = n->y,
		};
	s.in.desc_count = count;
	t0 = now();
	if (ioctl(fd, TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT, &s))
		return -1;
	w.in.seqno = s.out.last_seqno;
	if (ioctl(fd, TENSTORRENT_IOCTL_DMA_QUEUE_WAIT, &w))
		return -1;
	return now() - t0;
}

static double memcpy_round(uint8_t *dst, const uint8_t *src, uint32_t size)
{
	double t0 = now();

	for (uint32_t done = 0; done < TOTAL; done += size)
		memcpy(dst + done % BUF, src + done % BUF, size);
	__asm__ volatile("" : : "r"(dst) : "memory");
	return now() - t0;
}

/* Best MB/s over rounds of every size, the worst size counting. */
static double dma_mbs(int fd, const struct tt_node_desc *n, int dir)
{
	static const uint32_t sizes[] = {1u << 20, 4u << 20};
	double worst = 0;

	for (size_t k = 0; k < 2; k++) {
		double best = 0;

		for (int r = 0; r < ROUNDS; r++) {
			double t = dma_round(fd, n, dir, sizes[k]);

			if (t < 0)
				return -1;
			if (TOTAL / t / 1e6 > best)
				best = TOTAL / t / 1e6;
		}
		if (!k || best < worst)
			worst = best;
	}
	return worst;
}

static double memcpy_mbs(uint8_t *dst, const uint8_t *src)
{
	static const uint32_t sizes[] = {1u << 20, 4u << 20};
	double worst = 0;

	for (size_t k = 0; k < 2; k++) {
		double best = 0;

		for (int r = 0; r < ROUNDS; r++) {
			double t = memcpy_round(dst, src, sizes[k]);

			if (TOTAL / t / 1e6 > best)
				best = TOTAL / t / 1e6;
		}
		if (!k || best < worst)
			worst = best;
	}
	return worst;
}

int main(int argc, char **argv)
{
	struct tenstorrent_allocate_dma_buf a = {
		.in = {.requested_size = BUF, .buf_index = 0}};
	double h2d, d2h, mc, lo;
	struct tt_node_desc n;
	uint8_t *buf, *src, *dst;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s /dev/tenstorrent/N\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0 || dram_node(fd, &n) ||
	    ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a)) {
		fprintf(stderr,
			"%s: cannot open it, find a DRAM node or get a DMA "
			"buffer: %s\n",
			argv[1], strerror(errno));
		return 1;
	}
	buf = mmap(NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)a.out.mapping_offset);
	src = malloc(BUF);
	dst = malloc(BUF);
	if (buf == MAP_FAILED || !src || !dst)
		return 1;
	memset(buf, 0x5A, BUF);
	memset(src, 0x5A, BUF);
	memset(dst, 0, BUF);

	mc = memcpy_mbs(dst, src);
	h2d = dma_mbs(fd, &n, TENSTORRENT_DMA_TO_DEVICE);
	d2h = dma_mbs(fd, &n, TENSTORRENT_DMA_FROM_DEVICE);
	if (h2d < 0 || d2h < 0) {
		fprintf(stderr, "%s: DMA queue failed: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	lo = h2d < d2h ? h2d : d2h;
	printf("BENCH name=dma_queue_bw_h2d value=%.0f unit=MB/s ratio=%.2f "
	       "vs=memcpy\n",
	       h2d, h2d / mc);
	printf("BENCH name=dma_queue_bw_d2h value=%.0f unit=MB/s ratio=%.2f "
	       "vs=memcpy\n",
	       d2h, d2h / mc);
	printf("BENCH name=dma_queue_bw value=%.0f unit=MB/s ratio=%.2f "
	       "vs=memcpy\n",
	       lo, lo / mc);
	return 0;
}
