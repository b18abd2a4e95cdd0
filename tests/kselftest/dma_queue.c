// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest of the DMA-queue extension's argument checks (docs/abi.md,
 * "Extension: DMA queues"), on every node. A node whose device publishes
 * no DMA engine (has_dma_engine(): the image files of the VM scenarios)
 * must fail all three commands with EOPNOTSUPP, which every test then
 * asserts; a node with one (the live model) must check every argument.
 * The data path is model_dma_queue.c's.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <poll.h>
#include <stddef.h>

#include <kselftest_harness.h>

#define BUF_SIZE (4 * PAGE)

FIXTURE(dmaq)
{
	int fd;
	bool engine;
	struct tenstorrent_dma_desc good; /* 64 bytes to buffer 0 of fd */
};

/* Both fixtures' setup: the device, whether it has an engine, buffer 0. */
#define DMAQ_SETUP(self)                                                       \
	do {                                                                   \
		int err_, has_;                                                \
                                                                               \
		ASSERT_OPEN_DEVICE((self)->fd, 0);                             \
		has_ = has_dma_engine((self)->fd);                             \
		ASSERT_LE(0, has_)                                             \
		TH_LOG("cannot read the image: %s", strerror(-has_));          \
		(self)->engine = has_;                                         \
		ASSERT_NE(NULL, dma_buf((self)->fd, 0, BUF_SIZE, &err_))       \
		TH_LOG("ALLOCATE_DMA_BUF: %s", strerror(err_));                \
		(self)->good = good_desc((self)->fd);                          \
	} while (0)

/* 64 bytes from buffer 0 to the first Tensix node's L1 (or node 0, 0 if
 * the table has none: the checks do not look at the node's kind). */
static struct tenstorrent_dma_desc good_desc(int fd)
{
	struct tt_node_desc *table;
	struct tt_identity id = {0};
	uint8_t x = 0, y = 0;

	if (!read_node_table(fd, &id, &table)) {
		for (uint32_t i = 0; i < id.grid_x * id.grid_y; i++) {
			if (table[i].type == TT_NODE_TENSIX &&
			    !(table[i].flags & TT_NODE_F_HARVESTED)) {
				x = table[i].x;
				y = table[i].y;
				break;
			}
		}
		free(table);
	}
	return (struct tenstorrent_dma_desc){
		.host_addr = 0,
		.device_addr = 0x20000,
		.length = 64,
		.direction = TENSTORRENT_DMA_TO_DEVICE,
		.host_type = TENSTORRENT_DMA_HOST_DMA_BUF,
		.buf_index = 0,
		.x = x,
		.y = y,
	};
}

FIXTURE_SETUP(dmaq)
{
	DMAQ_SETUP(self);
}

FIXTURE_TEARDOWN(dmaq)
{
	close(self->fd);
}

/* The errno a node must give: `want` with an engine, else EOPNOTSUPP. */
#define EXPECT_DMAQ(want, ret)                                                 \
	EXPECT_STREQ(err_name(self->engine ? (want) : EOPNOTSUPP),             \
		     err_name(-(ret)))

TEST_F(dmaq, query_reports_the_limits)
{
	struct tenstorrent_dma_queue_query_out o;
	int ret = dmaq_query(self->fd, 0, &o);

	EXPECT_DMAQ(0, ret);
	if (ret)
		return;
	EXPECT_EQ(72, o.output_size_bytes);
	EXPECT_LE(TENSTORRENT_DMA_QUEUE_MIN_DEPTH, o.depth);
	EXPECT_EQ(0, o.submitted_seqno);
	EXPECT_EQ(0, o.completed_seqno);
	EXPECT_EQ(0, o.error_seqno);
	EXPECT_EQ(0, o.error_code);
	EXPECT_EQ(TENSTORRENT_DMA_QUEUE_MAX_BATCH, o.max_batch);
	EXPECT_EQ(TENSTORRENT_DMA_MAX_LENGTH, o.max_length);
	EXPECT_EQ(TENSTORRENT_DMA_ALIGN, o.align);
	EXPECT_EQ(0, o.reserved[0]);
	EXPECT_EQ(0, o.reserved[1]);
}

TEST_F(dmaq, query_bad_flags_or_reserved_is_einval)
{
	struct tenstorrent_dma_queue_query a = {
		.in = {.output_size_bytes = sizeof(a.out), .flags = 2}};

	EXPECT_DMAQ(EINVAL,
		    ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_QUERY, &a)
			    ? -errno
			    : 0);
	a.in.flags = 0;
	a.in.reserved = 1;
	EXPECT_DMAQ(EINVAL,
		    ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_QUERY, &a)
			    ? -errno
			    : 0);
}

/* The output_size_bytes rule: the declared range is zeroed, then filled
 * up to the struct's size; bytes after it are untouched. */
TEST_F(dmaq, query_output_size_rule)
{
	struct {
		struct tenstorrent_dma_queue_query_in in;
		unsigned char out[128];
	} a;
	int ret;

	memset(&a, 0xAB, sizeof(a));
	memset(&a.in, 0, sizeof(a.in));
	a.in.output_size_bytes = 4;
	ret = ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_QUERY, &a) ? -errno
								     : 0;
	EXPECT_DMAQ(0, ret);
	if (ret)
		return;
	EXPECT_EQ(72, *(uint32_t *)a.out);
	EXPECT_EQ(0xAB, a.out[4]);

	memset(a.out, 0xAB, sizeof(a.out));
	a.in.output_size_bytes = 100;
	ASSERT_EQ(0, ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_QUERY, &a));
	EXPECT_EQ(0, a.out[99]); /* declared, past the struct: zeroed */
	EXPECT_EQ(0xAB, a.out[100]);
	EXPECT_EQ(256, *(uint32_t *)(a.out + 44)); /* max_batch */

	memset(a.out, 0xAB, sizeof(a.out));
	a.in.output_size_bytes = 0;
	ASSERT_EQ(0, ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_QUERY, &a));
	EXPECT_EQ(0xAB, a.out[0]);
}

TEST_F(dmaq, submit_header_checks)
{
	struct tenstorrent_dma_desc d[2] = {self->good, self->good};
	struct tenstorrent_dma_queue_submit a = {
		.in = {.output_size_bytes = sizeof(a.out),
		       .descs = (uintptr_t)d,
		       .desc_count = 1,
		       .desc_size = sizeof(d[0])}};
	struct tenstorrent_dma_queue_submit b;

#define SUBMIT_ERR(arg)                                                        \
	(ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT, &(arg)) ? -errno  \
								     : 0)
	b = a, b.in.flags = 1;
	EXPECT_DMAQ(EINVAL, SUBMIT_ERR(b));
	b = a, b.in.reserved = 1;
	EXPECT_DMAQ(EINVAL, SUBMIT_ERR(b));
	b = a, b.in.desc_count = 0;
	EXPECT_DMAQ(EINVAL, SUBMIT_ERR(b));
	b = a, b.in.desc_count = TENSTORRENT_DMA_QUEUE_MAX_BATCH + 1;
	EXPECT_DMAQ(EINVAL, SUBMIT_ERR(b));
	b = a, b.in.desc_size = sizeof(d[0]) - 8;
	EXPECT_DMAQ(EINVAL, SUBMIT_ERR(b));
	b = a, b.in.desc_size = sizeof(d[0]) + 8;
	EXPECT_DMAQ(EINVAL, SUBMIT_ERR(b));
	b = a, b.in.descs = 0;
	EXPECT_DMAQ(EFAULT, SUBMIT_ERR(b));
	b = a, b.in.descs = 0xFFFF800000000000ull;
	EXPECT_DMAQ(EFAULT, SUBMIT_ERR(b));
	EXPECT_DMAQ(EFAULT,
		    ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT, NULL)
			    ? -errno
			    : 0);
#undef SUBMIT_ERR
}

/*
 * Each descriptor field SUBMIT refuses, one at a time (a table in one test:
 * a test per entry would fork and set up 22 times per node, which the
 * debug kernel's guests cannot afford).
 */
#define DESC_OFF(m) offsetof(struct tenstorrent_dma_desc, m)
#define DESC_SIZE(m) sizeof(((struct tenstorrent_dma_desc *)0)->m)

static const struct {
	const char *what;
	size_t off, size;
	uint64_t v;
} bad_fields[] = {
	{"flags", DESC_OFF(flags), DESC_SIZE(flags), 1},
	{"reserved0", DESC_OFF(reserved0[1]), DESC_SIZE(reserved0[1]), 1},
	{"reserved1", DESC_OFF(reserved1), DESC_SIZE(reserved1), 1},
	{"direction_0", DESC_OFF(direction), DESC_SIZE(direction), 0},
	{"direction_3", DESC_OFF(direction), DESC_SIZE(direction), 3},
	{"host_type_0", DESC_OFF(host_type), DESC_SIZE(host_type), 0},
	{"host_type_3", DESC_OFF(host_type), DESC_SIZE(host_type), 3},
	{"length_0", DESC_OFF(length), DESC_SIZE(length), 0},
	{"length_odd", DESC_OFF(length), DESC_SIZE(length), 62},
	{"length_over_max", DESC_OFF(length), DESC_SIZE(length),
	 TENSTORRENT_DMA_MAX_LENGTH + 4},
	{"length_past_buffer", DESC_OFF(length), DESC_SIZE(length),
	 BUF_SIZE + 4},
	{"host_addr_odd", DESC_OFF(host_addr), DESC_SIZE(host_addr), 2},
	{"host_addr_past_buffer", DESC_OFF(host_addr), DESC_SIZE(host_addr),
	 BUF_SIZE - 60},
	{"host_addr_huge", DESC_OFF(host_addr), DESC_SIZE(host_addr),
	 ~0ull - 3},
	{"device_addr_odd", DESC_OFF(device_addr), DESC_SIZE(device_addr),
	 0x20002},
	{"device_addr_2_36", DESC_OFF(device_addr), DESC_SIZE(device_addr),
	 1ull << 36},
	{"device_range_past_2_36", DESC_OFF(device_addr),
	 DESC_SIZE(device_addr), (1ull << 36) - 60},
	{"noc_2", DESC_OFF(noc), DESC_SIZE(noc), 2},
	{"x_outside", DESC_OFF(x), DESC_SIZE(x), 64},
	{"y_outside", DESC_OFF(y), DESC_SIZE(y), 64},
	{"buf_index_not_allocated", DESC_OFF(buf_index), DESC_SIZE(buf_index),
	 1},
	{"pinned_nothing_pinned", DESC_OFF(host_type), DESC_SIZE(host_type),
	 TENSTORRENT_DMA_HOST_PINNED},
};

static void set_field(struct tenstorrent_dma_desc *d, size_t off, size_t size,
		      uint64_t v)
{
	unsigned char *p = (unsigned char *)d + off;

	if (size == 1) {
		*p = (unsigned char)v;
	} else if (size == 4) {
		uint32_t w = (uint32_t)v;

		memcpy(p, &w, 4);
	} else {
		memcpy(p, &v, 8);
	}
}

/* A good pair is queued; one bad descriptor after a good one queues
 * nothing and uses no number (all or nothing). */
TEST_F(dmaq, submit_descriptor_checks)
{
	struct tenstorrent_dma_desc d[2] = {self->good, self->good};
	struct tenstorrent_dma_queue_query_out o;
	uint64_t first = 0, last = 0;
	int ret;

	for (size_t i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]);
	     i++) {
		d[1] = self->good;
		set_field(&d[1], bad_fields[i].off, bad_fields[i].size,
			  bad_fields[i].v);
		ret = dmaq_submit(self->fd, d, 2, NULL, NULL);
		EXPECT_DMAQ(EINVAL, ret) TH_LOG("field %s", bad_fields[i].what);
	}
	if (self->engine) {
		ASSERT_EQ(0, dmaq_query(self->fd, 0, &o));
		EXPECT_EQ(0, o.submitted_seqno);
	}
	d[1] = self->good;
	ret = dmaq_submit(self->fd, d, 2, &first, &last);
	EXPECT_DMAQ(0, ret);
	if (!ret) {
		EXPECT_EQ(1, first);
		EXPECT_EQ(2, last);
		EXPECT_EQ(0, dmaq_wait(self->fd, 2, 5000, NULL));
	}
}

/*
 * The node's coordinates at the grid's edges: the last column and the last
 * row are inside (a copy from a memory node there completes), one past
 * them is outside, on both NOCs (NOC 1 numbers the same grid mirrored).
 * A read from the node, so nothing on the device changes.
 */
static bool edge_node(const struct tt_node_desc *table,
		      const struct tt_identity *id, bool last_col,
		      struct tenstorrent_dma_desc *d)
{
	for (uint32_t i = 0; i < id->grid_x * id->grid_y; i++) {
		const struct tt_node_desc *n = &table[i];

		if ((n->type != TT_NODE_TENSIX && n->type != TT_NODE_DRAM) ||
		    (n->flags & TT_NODE_F_HARVESTED))
			continue;
		if (last_col ? n->x != id->grid_x - 1 : n->y != id->grid_y - 1)
			continue;
		d->x = n->x;
		d->y = n->y;
		return true;
	}
	return false;
}

TEST_F(dmaq, submit_grid_edges)
{
	struct tenstorrent_dma_desc d;
	struct tt_node_desc *table;
	struct tt_identity id = {0};
	uint64_t last = 0;
	int ret;

	ret = read_node_table(self->fd, &id, &table);
	if (ret && !self->engine)
		return; /* every command is EOPNOTSUPP: the other tests */
	ASSERT_EQ(0, ret) TH_LOG("cannot read the image: %s", strerror(-ret));
	for (int noc = 0; noc < 2; noc++) {
		d = self->good;
		d.noc = noc;
		d.x = id.grid_x;
		EXPECT_DMAQ(EINVAL, dmaq_submit(self->fd, &d, 1, NULL, NULL))
		TH_LOG("NOC %d, x = grid_x %u", noc, id.grid_x);
		d = self->good;
		d.noc = noc;
		d.y = id.grid_y;
		EXPECT_DMAQ(EINVAL, dmaq_submit(self->fd, &d, 1, NULL, NULL))
		TH_LOG("NOC %d, y = grid_y %u", noc, id.grid_y);
	}
	for (int edge = 0; edge < 2; edge++) {
		d = self->good;
		d.direction = TENSTORRENT_DMA_FROM_DEVICE;
		if (!edge_node(table, &id, !edge, &d)) {
			/* Only the live model must have one (n150, p150). */
			ASSERT_FALSE(self->engine)
			TH_LOG("no memory node in the last %s",
			       edge ? "row" : "column");
			d.x = edge ? 0 : id.grid_x - 1;
			d.y = edge ? id.grid_y - 1 : 0;
		}
		for (int noc = 0; noc < 2; noc++) {
			struct tenstorrent_dma_desc e = d;

			if (noc) {
				e.noc = 1;
				e.x = (uint8_t)(id.grid_x - 1 - d.x);
				e.y = (uint8_t)(id.grid_y - 1 - d.y);
			}
			ret = dmaq_submit(self->fd, &e, 1, NULL, &last);
			EXPECT_DMAQ(0, ret)
			TH_LOG("NOC %d, node %u-%u of a %ux%u grid", noc, e.x,
			       e.y, id.grid_x, id.grid_y);
			if (!ret) {
				EXPECT_EQ(0, dmaq_wait(self->fd, last, 5000,
						       NULL));
			}
		}
	}
	if (self->engine) {
		struct tenstorrent_dma_queue_query_out o;

		ASSERT_EQ(0, dmaq_query(self->fd, 0, &o));
		EXPECT_EQ(4, o.submitted_seqno);
		EXPECT_EQ(4, o.completed_seqno);
		EXPECT_EQ(0, o.error_seqno);
	}
	free(table);
}

TEST_F(dmaq, another_files_buffer_is_einval)
{
	struct tenstorrent_dma_desc d = self->good;
	int other, err;

	ASSERT_OPEN_DEVICE(other, 0);
	ASSERT_NE(NULL, dma_buf(other, 9, BUF_SIZE, &err));
	d.buf_index = 9;
	EXPECT_DMAQ(EINVAL, dmaq_submit(self->fd, &d, 1, NULL, NULL));
	close(other);
	/* Gone with its file: still not this file's. */
	EXPECT_DMAQ(EINVAL, dmaq_submit(self->fd, &d, 1, NULL, NULL));
}

TEST_F(dmaq, wait_checks)
{
	struct tenstorrent_dma_queue_wait a = {
		.in = {.output_size_bytes = sizeof(a.out), .seqno = 0}};
	uint64_t done = 99;

	/* Nothing submitted: 0 returns at once, 1 would never complete. */
	EXPECT_DMAQ(
		0, dmaq_wait(self->fd, 0, TENSTORRENT_DMA_WAIT_FOREVER, &done));
	if (self->engine) {
		EXPECT_EQ(0, done);
	}
	EXPECT_DMAQ(EINVAL, dmaq_wait(self->fd, 1, 0, NULL));
	a.in.flags = 1;
	EXPECT_DMAQ(EINVAL,
		    ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_WAIT, &a)
			    ? -errno
			    : 0);
	a.in.flags = 0;
	a.in.reserved0 = 1;
	EXPECT_DMAQ(EINVAL,
		    ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_WAIT, &a)
			    ? -errno
			    : 0);
	a.in.reserved0 = 0;
	a.in.reserved1 = 1;
	EXPECT_DMAQ(EINVAL,
		    ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_WAIT, &a)
			    ? -errno
			    : 0);
	EXPECT_DMAQ(EFAULT,
		    ioctl(self->fd, TENSTORRENT_IOCTL_DMA_QUEUE_WAIT, NULL)
			    ? -errno
			    : 0);
}

/* An idle queue: room (POLLOUT), nothing new (no POLLIN); no engine: only
 * POLLERR. */
TEST_F(dmaq, poll_idle)
{
	struct pollfd p = {.fd = self->fd,
			   .events =
				   POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM};

	ASSERT_EQ(1, poll(&p, 1, 0));
	if (self->engine) {
		EXPECT_EQ(POLLOUT | POLLWRNORM, p.revents);
	} else {
		EXPECT_EQ(POLLERR, p.revents);
	}
}

TEST_HARNESS_MAIN
