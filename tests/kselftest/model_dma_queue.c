// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest of DMA queues against the live chip model only (programs named
 * model_* run where ttsim serves the node): the device's DMA engine copies
 * between this file's DMA buffers and node memory, completion comes by
 * interrupt, errors latch, queues are per file, close waits for the copy
 * in progress. Device memory is checked through BAR2 (the image), not
 * through the engine under test.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <poll.h>

#include <kselftest_harness.h>

#define BUF (4u << 20) /* the largest buffer a guest's page allocator gives */
#define DRAM_AT 0x1000000ull /* where the copies go in the DRAM node */
#define WAIT_MS 10000

FIXTURE(mq)
{
	int fd;
	uint8_t *buf; /* buffer 0, BUF bytes */
	struct tt_identity id;
	struct tt_node_desc dram, tensix;
	uint8_t *dram_view; /* BUF bytes of the DRAM node at DRAM_AT */
	uint8_t *l1_view;   /* the last 64 KiB of the Tensix node's L1 */
	uint64_t l1_addr;
	int other; /* a second file, or -1 */
};

static void *map_bar2(struct __test_metadata *_metadata, int fd, uint64_t off,
		      size_t len)
{
	int err;
	void *p =
		map(fd, TENSTORRENT_MMAP_BAR2_UC + off, len, MAP_SHARED, &err);

	ASSERT_NE(NULL, p)
	TH_LOG("mmap of BAR2 at %#llx: %s", (unsigned long long)off,
	       strerror(err));
	return p;
}

FIXTURE_SETUP(mq)
{
	struct tt_node_desc *table;
	bool dram = false, tensix = false;
	int err;

	self->other = -1;
	ASSERT_OPEN_DEVICE(self->fd, 0);
	ASSERT_EQ(1, has_dma_engine(self->fd))
	TH_LOG("the model publishes no DMA engine");
	ASSERT_EQ(0, read_node_table(self->fd, &self->id, &table));
	for (uint32_t i = 0; i < self->id.grid_x * self->id.grid_y; i++) {
		if (!dram && table[i].type == TT_NODE_DRAM &&
		    table[i].mem_size >= DRAM_AT + BUF) {
			self->dram = table[i];
			dram = true;
		}
		if (!tensix && table[i].type == TT_NODE_TENSIX &&
		    !(table[i].flags & TT_NODE_F_HARVESTED)) {
			self->tensix = table[i];
			tensix = true;
		}
	}
	free(table);
	ASSERT_TRUE(dram && tensix);
	self->buf = dma_buf(self->fd, 0, BUF, &err);
	ASSERT_NE(NULL, self->buf)
	TH_LOG("ALLOCATE_DMA_BUF: %s", strerror(err));
	self->dram_view = map_bar2(_metadata, self->fd,
				   self->dram.mem_off + DRAM_AT, BUF);
	self->l1_addr = self->tensix.mem_size - 0x10000;
	self->l1_view = map_bar2(_metadata, self->fd,
				 self->tensix.mem_off + self->l1_addr, 0x10000);
}

FIXTURE_TEARDOWN(mq)
{
	if (self->other >= 0)
		close(self->other);
	close(self->fd);
}

static struct tenstorrent_dma_desc desc(const struct tt_node_desc *n, int dir,
					uint64_t host, uint64_t dev,
					uint32_t len)
{
	return (struct tenstorrent_dma_desc){
		.host_addr = host,
		.device_addr = dev,
		.length = len,
		.direction = (uint8_t)dir,
		.host_type = TENSTORRENT_DMA_HOST_DMA_BUF,
		.x = n->x,
		.y = n->y,
		.cookie = host ^ dev,
	};
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 13 + seed + (i >> 10));
}

/* To the DRAM node and back, one descriptor per size, 4 bytes to 4 MiB. */
TEST_F(mq, data_both_ways)
{
	static const uint32_t sizes[] = {
		4, 4096, 65548, 1u << 20, (1u << 20) + 4, 3u << 20, BUF};
	struct tenstorrent_dma_desc d;
	uint64_t last = 0;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t n = sizes[i];

		fill(self->buf, n, (unsigned int)i);
		d = desc(&self->dram, TENSTORRENT_DMA_TO_DEVICE, 0, DRAM_AT, n);
		ASSERT_EQ(0, dmaq_submit(self->fd, &d, 1, NULL, &last));
		ASSERT_EQ(0, dmaq_wait(self->fd, last, WAIT_MS, NULL));
		ASSERT_EQ(0, memcmp(self->dram_view, self->buf, n))
		TH_LOG("TO_DEVICE of %u bytes", n);

		fill(self->dram_view, n, (unsigned int)i + 100);
		memset(self->buf, 0, BUF);
		d = desc(&self->dram, TENSTORRENT_DMA_FROM_DEVICE, BUF - n,
			 DRAM_AT, n);
		ASSERT_EQ(0, dmaq_submit(self->fd, &d, 1, NULL, &last));
		ASSERT_EQ(0, dmaq_wait(self->fd, last, WAIT_MS, NULL));
		ASSERT_EQ(0, memcmp(self->buf + BUF - n, self->dram_view, n))
		TH_LOG("FROM_DEVICE of %u bytes", n);
		if (n < BUF) {
			EXPECT_EQ(0, self->buf[BUF - n - 1]);
		}
	}
}

/* A full batch of 256 into L1 on NOC 1 (mirrored coordinates). */
TEST_F(mq, batch_of_256_on_noc1)
{
	struct tenstorrent_dma_desc d[TENSTORRENT_DMA_QUEUE_MAX_BATCH];
	struct tenstorrent_dma_queue_query_out o;
	uint64_t first = 0, last = 0;

	fill(self->buf, 0x10000, 7);
	for (int i = 0; i < TENSTORRENT_DMA_QUEUE_MAX_BATCH; i++) {
		d[i] = desc(&self->tensix, TENSTORRENT_DMA_TO_DEVICE, i * 256,
			    self->l1_addr + i * 256, 256);
		d[i].noc = 1;
		d[i].x = (uint8_t)(self->id.grid_x - 1 - self->tensix.x);
		d[i].y = (uint8_t)(self->id.grid_y - 1 - self->tensix.y);
	}
	ASSERT_EQ(0, dmaq_submit(self->fd, d, 256, &first, &last));
	EXPECT_EQ(1, first);
	EXPECT_EQ(256, last);
	ASSERT_EQ(0, dmaq_wait(self->fd, 256, WAIT_MS, NULL));
	EXPECT_EQ(0, memcmp(self->l1_view, self->buf, 0x10000));
	ASSERT_EQ(0, dmaq_submit(self->fd, d, 1, &first, NULL));
	EXPECT_EQ(257, first);
	ASSERT_EQ(0, dmaq_query(self->fd, 0, &o));
	EXPECT_EQ(257, o.submitted_seqno);
}

/*
 * Another file keeps the engine busy with a gigabyte of copies, queued
 * before ours: our queue stays full meanwhile, so SUBMIT is EAGAIN, WAIT
 * with timeout 0 ETIMEDOUT, poll has no POLLIN; then everything completes.
 */
TEST_F(mq, full_queue_timeout_and_poll)
{
	struct tenstorrent_dma_desc big[256], d[256];
	struct pollfd p = {.fd = self->fd,
			   .events =
				   POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM};
	uint64_t done = 99;
	uint8_t *obuf;
	int err;

	ASSERT_OPEN_DEVICE(self->other, 0);
	obuf = dma_buf(self->other, 0, BUF, &err);
	ASSERT_NE(NULL, obuf);
	for (int i = 0; i < 256; i++) {
		big[i] = desc(&self->dram, TENSTORRENT_DMA_TO_DEVICE, 0,
			      DRAM_AT, BUF);
		d[i] = desc(&self->tensix, TENSTORRENT_DMA_TO_DEVICE, 0,
			    self->l1_addr, 4);
	}
	ASSERT_EQ(0, dmaq_submit(self->other, big, 256, NULL, NULL));
	ASSERT_EQ(0, dmaq_submit(self->fd, d, 256, NULL, NULL));
	EXPECT_EQ(-EAGAIN, dmaq_submit(self->fd, d, 1, NULL, NULL));
	EXPECT_EQ(-ETIMEDOUT, dmaq_wait(self->fd, 256, 0, &done));
	EXPECT_GT(256, done);
	/* Busy and full: no event at all. */
	EXPECT_EQ(0, poll(&p, 1, 0));
	EXPECT_EQ(0, p.revents);
	/* poll sleeps until the completion interrupt. */
	EXPECT_EQ(1, poll(&p, 1, WAIT_MS));
	EXPECT_TRUE(p.revents & POLLIN);
	ASSERT_EQ(0, dmaq_wait(self->fd, 256, TENSTORRENT_DMA_WAIT_FOREVER,
			       &done));
	EXPECT_EQ(256, done);
	/* WAIT returned it: nothing new to read, room again. */
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLOUT | POLLWRNORM, p.revents);
	EXPECT_EQ(0, dmaq_submit(self->fd, d, 1, NULL, NULL));
	EXPECT_EQ(0, dmaq_wait(self->other, 256, WAIT_MS, NULL));
}

static double secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * The completion interrupt wakes WAIT and poll: both return long before
 * their timeouts (the driver does not poll the engine; without the
 * interrupt they would sleep to the end and only then find it done).
 */
TEST_F(mq, interrupt_wakes_wait_and_poll)
{
	struct tenstorrent_dma_desc d[64];
	struct pollfd p = {.fd = self->fd, .events = POLLIN};
	uint64_t last = 0;
	double t;

	for (int i = 0; i < 64; i++)
		d[i] = desc(&self->dram, TENSTORRENT_DMA_TO_DEVICE, 0, DRAM_AT,
			    BUF);
	ASSERT_EQ(0, dmaq_submit(self->fd, d, 64, NULL, &last));
	t = secs();
	EXPECT_EQ(0, dmaq_wait(self->fd, last, 12000, NULL));
	EXPECT_GT(6.0, secs() - t);

	ASSERT_EQ(0, dmaq_submit(self->fd, d, 64, NULL, &last));
	t = secs();
	EXPECT_EQ(1, poll(&p, 1, 12000));
	EXPECT_GT(6.0, secs() - t);
	EXPECT_TRUE(p.revents & POLLIN);
	EXPECT_EQ(0, dmaq_wait(self->fd, last, 12000, NULL));
}

static int pin_page(int fd, void *va)
{
	struct {
		struct tenstorrent_pin_pages_in in;
		struct tenstorrent_pin_pages_out_extended out;
	} a = {
		.in.output_size_bytes = sizeof(a.out),
		.in.virtual_address = (uintptr_t)va,
		.in.size = PAGE,
	};

	return ioctl(fd, TENSTORRENT_IOCTL_PIN_PAGES, &a) ? -errno : 0;
}

static int unpin_page(int fd, void *va)
{
	struct tenstorrent_unpin_pages a = {
		.in.virtual_address = (uintptr_t)va,
		.in.size = PAGE,
	};

	return ioctl(fd, TENSTORRENT_IOCTL_UNPIN_PAGES, &a) ? -errno : 0;
}

/*
 * A pinned page as the host side: data both ways; a range past the pin is
 * EINVAL; UNPIN_PAGES is EBUSY while a descriptor using the pin is queued
 * (behind another file's gigabyte), and works once it completed.
 */
TEST_F(mq, pinned_range)
{
	struct tenstorrent_dma_desc d, big[256];
	uint64_t last = 0;
	uint8_t *page;
	int err;

	page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	fill(page, PAGE, 21);
	ASSERT_EQ(0, pin_page(self->fd, page));
	d = desc(&self->tensix, TENSTORRENT_DMA_TO_DEVICE, (uintptr_t)page,
		 self->l1_addr, PAGE);
	d.host_type = TENSTORRENT_DMA_HOST_PINNED;
	ASSERT_EQ(0, dmaq_submit(self->fd, &d, 1, NULL, &last));
	ASSERT_EQ(0, dmaq_wait(self->fd, last, WAIT_MS, NULL));
	EXPECT_EQ(0, memcmp(self->l1_view, page, PAGE));

	fill(self->l1_view, 64, 77);
	d.direction = TENSTORRENT_DMA_FROM_DEVICE;
	d.host_addr = (uintptr_t)page + 128;
	d.length = 64;
	ASSERT_EQ(0, dmaq_submit(self->fd, &d, 1, NULL, &last));
	ASSERT_EQ(0, dmaq_wait(self->fd, last, WAIT_MS, NULL));
	EXPECT_EQ(0, memcmp(page + 128, self->l1_view, 64));

	d.host_addr = (uintptr_t)page + PAGE - 4;
	d.length = 8;
	EXPECT_EQ(-EINVAL, dmaq_submit(self->fd, &d, 1, NULL, NULL));

	ASSERT_OPEN_DEVICE(self->other, 0);
	ASSERT_NE(NULL, dma_buf(self->other, 0, BUF, &err));
	for (int i = 0; i < 256; i++)
		big[i] = desc(&self->dram, TENSTORRENT_DMA_TO_DEVICE, 0,
			      DRAM_AT, BUF);
	ASSERT_EQ(0, dmaq_submit(self->other, big, 256, NULL, NULL));
	d.host_addr = (uintptr_t)page;
	ASSERT_EQ(0, dmaq_submit(self->fd, &d, 1, NULL, &last));
	EXPECT_EQ(-EBUSY, unpin_page(self->fd, page));
	ASSERT_EQ(0, dmaq_wait(self->fd, last, WAIT_MS, NULL));
	EXPECT_EQ(0, unpin_page(self->fd, page));
	EXPECT_EQ(0, dmaq_wait(self->other, 256, WAIT_MS, NULL));
	munmap(page, PAGE);
}

TEST_F(mq, wait_unsubmitted_seqno_is_einval)
{
	struct tenstorrent_dma_desc d = desc(
		&self->tensix, TENSTORRENT_DMA_TO_DEVICE, 0, self->l1_addr, 4);
	uint64_t last = 0;

	ASSERT_EQ(0, dmaq_submit(self->fd, &d, 1, NULL, &last));
	EXPECT_EQ(-EINVAL, dmaq_wait(self->fd, last + 1, 0, NULL));
	EXPECT_EQ(0, dmaq_wait(self->fd, last, WAIT_MS, NULL));
	/* Done already: timeout 0 is enough. */
	EXPECT_EQ(0, dmaq_wait(self->fd, last, 0, NULL));
}

/* Another file's buffer index, open or closed, is not this file's. */
TEST_F(mq, other_files_buffers_unreachable)
{
	struct tenstorrent_dma_desc d = desc(
		&self->tensix, TENSTORRENT_DMA_TO_DEVICE, 0, self->l1_addr, 4);
	int err;

	ASSERT_OPEN_DEVICE(self->other, 0);
	ASSERT_NE(NULL, dma_buf(self->other, 5, PAGE, &err));
	d.buf_index = 5;
	EXPECT_EQ(-EINVAL, dmaq_submit(self->fd, &d, 1, NULL, NULL));
	EXPECT_EQ(0, dmaq_submit(self->other, &d, 1, NULL, NULL));
	close(self->other);
	self->other = -1;
	EXPECT_EQ(-EINVAL, dmaq_submit(self->fd, &d, 1, NULL, NULL));
}

/*
 * A device address the device refuses (past the Tensix node's L1): the
 * error latches at that descriptor, the ones queued after it are cancelled
 * (not run), SUBMIT is EIO until CLEAR_ERROR.
 */
TEST_F(mq, device_error_latches)
{
	struct tenstorrent_dma_desc d[4];
	struct tenstorrent_dma_queue_query_out o;
	uint64_t first = 0, done = 0;

	memset(self->l1_view, 0, 64);
	fill(self->buf, 64, 3);
	d[0] = desc(&self->tensix, TENSTORRENT_DMA_TO_DEVICE, 0, self->l1_addr,
		    16);
	d[1] = desc(&self->tensix, TENSTORRENT_DMA_TO_DEVICE, 0,
		    self->tensix.mem_size + 0x100000, 16);
	d[1].cookie = 0xC0FFEE;
	d[2] = desc(&self->tensix, TENSTORRENT_DMA_TO_DEVICE, 16,
		    self->l1_addr + 16, 16);
	d[3] = d[2];
	ASSERT_EQ(0, dmaq_submit(self->fd, d, 4, &first, NULL));
	EXPECT_EQ(-EIO, dmaq_wait(self->fd, first + 3, WAIT_MS, &done));
	EXPECT_EQ(first + 3, done); /* all completed, cancelled or not */
	EXPECT_EQ(0, dmaq_wait(self->fd, first, 0, NULL)); /* before it */
	EXPECT_EQ(-EIO, dmaq_wait(self->fd, first + 1, 0, NULL));
	EXPECT_EQ(0, memcmp(self->l1_view, self->buf, 16));
	EXPECT_EQ(0, self->l1_view[16]); /* cancelled: never ran */
	EXPECT_EQ(-EIO, dmaq_submit(self->fd, d, 1, NULL, NULL));

	ASSERT_EQ(0, dmaq_query(self->fd, 0, &o));
	EXPECT_EQ(first + 1, o.error_seqno);
	EXPECT_EQ(0xC0FFEE, o.error_cookie);
	EXPECT_EQ(EIO, o.error_code);
	EXPECT_EQ(first + 3, o.completed_seqno);
	struct pollfd p = {.fd = self->fd,
			   .events =
				   POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM};

	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLERR, p.revents);

	ASSERT_EQ(0, dmaq_query(self->fd,
				TENSTORRENT_DMA_QUEUE_QUERY_CLEAR_ERROR, &o));
	EXPECT_EQ(first + 1, o.error_seqno); /* as it was before clearing */
	ASSERT_EQ(0, dmaq_query(self->fd, 0, &o));
	EXPECT_EQ(0, o.error_seqno);
	EXPECT_EQ(0, o.error_code);
	EXPECT_EQ(0, dmaq_wait(self->fd, first + 1, 0, NULL));
	ASSERT_EQ(0, dmaq_submit(self->fd, &d[2], 1, &first, NULL));
	EXPECT_EQ(0, dmaq_wait(self->fd, first, WAIT_MS, NULL));
	EXPECT_EQ(0, memcmp(self->l1_view + 16, self->buf + 16, 16));
}

/* Close with a gigabyte queued: it returns soon (the copy in progress
 * ends, the rest is dropped) and the device serves the next file. */
TEST_F(mq, close_with_copies_in_flight)
{
	struct tenstorrent_dma_desc big[256], d;
	struct timespec t0, t1;
	uint64_t last = 0;
	int err;

	ASSERT_OPEN_DEVICE(self->other, 0);
	ASSERT_NE(NULL, dma_buf(self->other, 0, BUF, &err));
	for (int i = 0; i < 256; i++)
		big[i] = desc(&self->dram, TENSTORRENT_DMA_FROM_DEVICE, 0,
			      DRAM_AT, BUF);
	ASSERT_EQ(0, dmaq_submit(self->other, big, 256, NULL, NULL));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	close(self->other);
	self->other = -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_GT(5, t1.tv_sec - t0.tv_sec);

	fill(self->buf, 64, 9);
	d = desc(&self->tensix, TENSTORRENT_DMA_TO_DEVICE, 0, self->l1_addr,
		 64);
	ASSERT_EQ(0, dmaq_submit(self->fd, &d, 1, NULL, &last));
	EXPECT_EQ(0, dmaq_wait(self->fd, last, WAIT_MS, NULL));
	EXPECT_EQ(0, memcmp(self->l1_view, self->buf, 64));
}

static int reset_dev(int fd, uint32_t flags)
{
	struct tenstorrent_reset_device a = {
		.in.output_size_bytes = sizeof(a.out),
		.in.flags = flags,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_RESET_DEVICE, &a))
		return -errno;
	return (int)a.out.result;
}

/*
 * A reset cancels every queue: a stale file's WAIT is ENODEV and its poll
 * POLLERR | POLLHUP; the resetting file's queued copies are cancelled
 * (EIO, ECANCELED latched) and, once the error is cleared, its queue works
 * again after POST_RESET.
 */
TEST_F(mq, reset_cancels_queues)
{
	struct tenstorrent_dma_desc big[256], d;
	struct tenstorrent_dma_queue_query_out o;
	struct pollfd p = {.fd = self->fd, .events = POLLIN | POLLOUT};
	uint64_t last = 0, rlast = 0;
	int err, r;

	ASSERT_OPEN_DEVICE(self->other, O_APPEND); /* as reset tools open */
	r = self->other;
	ASSERT_NE(NULL, dma_buf(r, 0, BUF, &err));
	for (int i = 0; i < 256; i++)
		big[i] = desc(&self->dram, TENSTORRENT_DMA_TO_DEVICE, 0,
			      DRAM_AT, BUF);
	d = desc(&self->tensix, TENSTORRENT_DMA_TO_DEVICE, 0, self->l1_addr, 4);
	ASSERT_EQ(0, dmaq_submit(r, big, 256, NULL, &rlast));
	ASSERT_EQ(0, dmaq_submit(self->fd, &d, 1, NULL, &last));
	ASSERT_EQ(0, reset_dev(r, TENSTORRENT_RESET_DEVICE_ASIC_RESET));
	EXPECT_EQ(-ENODEV, dmaq_wait(self->fd, last, WAIT_MS, NULL));
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLERR | POLLHUP, p.revents);
	EXPECT_EQ(0, reset_dev(r, TENSTORRENT_RESET_DEVICE_POST_RESET));

	EXPECT_EQ(-EIO, dmaq_wait(r, rlast, WAIT_MS, NULL));
	ASSERT_EQ(0,
		  dmaq_query(r, TENSTORRENT_DMA_QUEUE_QUERY_CLEAR_ERROR, &o));
	EXPECT_EQ(ECANCELED, o.error_code);
	EXPECT_LE(1, o.error_seqno);
	EXPECT_GE(rlast, o.error_seqno);
	EXPECT_EQ(rlast, o.completed_seqno);
	d.host_addr = 0;
	ASSERT_EQ(0, dmaq_submit(r, &d, 1, NULL, &rlast));
	EXPECT_EQ(0, dmaq_wait(r, rlast, WAIT_MS, NULL));
}

TEST_HARNESS_MAIN
