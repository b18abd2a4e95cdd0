// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: what an fd asks of the device for its lifetime and its end
 * (driver/power.c, docs/abi.md): SET_POWER_STATE's argument checks and
 * requests, and SET_NOC_CLEANUP: its checks, targets the mock cannot
 * write (EOPNOTSUPP), and the write done at close, checked in the node's
 * memory through BAR2 (and not done when disabled or replaced).
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <hw/arch.h>

#include <kselftest_harness.h>

static int set_power(int fd, struct tenstorrent_power_state *ps)
{
	return ioctl(fd, TENSTORRENT_IOCTL_SET_POWER_STATE, ps) ? errno : 0;
}

static struct tenstorrent_power_state power(uint8_t validity, uint16_t flags)
{
	return (struct tenstorrent_power_state){
		.argsz = sizeof(struct tenstorrent_power_state),
		.validity = validity,
		.power_flags = flags,
	};
}

FIXTURE(power) {
	int fd;
};

FIXTURE_SETUP(power)
{
	ASSERT_OPEN_DEVICE(self->fd, O_APPEND);
}

FIXTURE_TEARDOWN(power)
{
	close(self->fd);
}

TEST_F(power, requests_are_taken)
{
	struct tenstorrent_power_state ps =
		power(TT_POWER_VALIDITY(1, 0), TT_POWER_FLAG_MAX_AI_CLK);

	EXPECT_EQ(0, set_power(self->fd, &ps));
	ps = power(TT_POWER_VALIDITY(4, 14), 0);
	ps.power_settings[13] = 7;
	EXPECT_EQ(0, set_power(self->fd, &ps));
	ps = power(0, 0); /* everything undeclared: all on */
	EXPECT_EQ(0, set_power(self->fd, &ps));
}

TEST_F(power, bad_arguments_einval)
{
	struct tenstorrent_power_state ps = power(0, 0);

	ps.argsz = sizeof(ps) - 1;
	EXPECT_EQ(EINVAL, set_power(self->fd, &ps));
	ps.argsz = sizeof(ps) + 8;
	EXPECT_EQ(EINVAL, set_power(self->fd, &ps));
	ps = power(0, 0);
	ps.flags = 1;
	EXPECT_EQ(EINVAL, set_power(self->fd, &ps));
	ps = power(0, 0);
	ps.reserved0 = 1;
	EXPECT_EQ(EINVAL, set_power(self->fd, &ps));
	ps = power(TT_POWER_VALIDITY(0, 15), 0);
	EXPECT_EQ(EINVAL, set_power(self->fd, &ps));
	EXPECT_EQ(EFAULT, set_power(self->fd, NULL));
}

/* ---------------------------------------------------------------------- */
/* SET_NOC_CLEANUP                                                        */

static int set_cleanup(int fd, const struct tenstorrent_set_noc_cleanup *c)
{
	return ioctl(fd, TENSTORRENT_IOCTL_SET_NOC_CLEANUP, c) ? errno : 0;
}

FIXTURE(cleanup) {
	int fd;
	struct tt_node_desc node; /* a Tensix node with memory */
	volatile uint32_t *word;  /* its last word, through BAR2 */
	uint32_t saved;
	size_t map_len;
	void *map;
};

FIXTURE_SETUP(cleanup)
{
	struct tt_node_desc *table;
	struct tt_identity id;
	uint64_t off;
	int err;

	ASSERT_OPEN_DEVICE(self->fd, O_APPEND);
	ASSERT_EQ(0, read_node_table(self->fd, &id, &table));
	for (uint32_t i = 0; i < id.grid_x * id.grid_y; i++)
		if (table[i].type == TT_NODE_TENSIX && table[i].mem_size >= PAGE &&
		    !(table[i].flags & TT_NODE_F_HARVESTED)) {
			self->node = table[i];
			break;
		}
	free(table);
	ASSERT_NE(0, self->node.mem_size) TH_LOG("no Tensix node with memory");
	off = self->node.mem_off + self->node.mem_size - PAGE;
	self->map_len = PAGE;
	self->map = map(self->fd, TENSTORRENT_MMAP_BAR2_UC + off, PAGE,
			MAP_SHARED, &err);
	ASSERT_NE(NULL, self->map) TH_LOG("mmap: %s", strerror(err));
	self->word = (volatile uint32_t *)((char *)self->map + PAGE - 4);
	self->saved = *self->word;
	*self->word = 0x11111111;
}

FIXTURE_TEARDOWN(cleanup)
{
	if (self->map) {
		*self->word = self->saved;
		munmap(self->map, self->map_len);
	}
	if (self->fd >= 0)
		close(self->fd);
}

/* The cleanup write to the node's last word. */
static struct tenstorrent_set_noc_cleanup
last_word(const struct tt_node_desc *n, uint32_t data)
{
	return (struct tenstorrent_set_noc_cleanup){
		.argsz = sizeof(struct tenstorrent_set_noc_cleanup),
		.enabled = 1,
		.x = n->x,
		.y = n->y,
		.addr = n->mem_base + n->mem_size - 4,
		.data = 0xFFFFFFFF00000000ULL | data,
	};
}

TEST_F(cleanup, written_at_close)
{
	struct tenstorrent_set_noc_cleanup c = last_word(&self->node,
							 0xDEADBEEF);
	int fd;

	ASSERT_OPEN_DEVICE(fd, O_APPEND);
	ASSERT_EQ(0, set_cleanup(fd, &c));
	EXPECT_EQ(0x11111111, *self->word) TH_LOG("written before the close");
	close(fd);
	/* Only the low 32 bits of data. */
	EXPECT_EQ(0xDEADBEEF, *self->word);
}

TEST_F(cleanup, noc1_coordinates_reach_the_same_node)
{
	struct tenstorrent_set_noc_cleanup c = last_word(&self->node, 0x1234);
	struct tt_identity id;
	struct tt_node_desc *table;
	int fd;

	ASSERT_EQ(0, read_node_table(self->fd, &id, &table));
	free(table);
	c.noc = 1;
	c.x = id.grid_x - 1 - self->node.x;
	c.y = id.grid_y - 1 - self->node.y;
	ASSERT_OPEN_DEVICE(fd, O_APPEND);
	ASSERT_EQ(0, set_cleanup(fd, &c));
	close(fd);
	EXPECT_EQ(0x1234, *self->word);
}

TEST_F(cleanup, disabled_or_replaced_writes_nothing)
{
	struct tenstorrent_set_noc_cleanup c = last_word(&self->node, 0xBAD);
	int fd;

	ASSERT_OPEN_DEVICE(fd, O_APPEND);
	ASSERT_EQ(0, set_cleanup(fd, &c));
	c.enabled = 0;
	ASSERT_EQ(0, set_cleanup(fd, &c));
	close(fd);
	EXPECT_EQ(0x11111111, *self->word);

	c = last_word(&self->node, 0xBAD);
	ASSERT_OPEN_DEVICE(fd, O_APPEND);
	ASSERT_EQ(0, set_cleanup(fd, &c));
	c.data = 0x600D;
	ASSERT_EQ(0, set_cleanup(fd, &c));
	close(fd);
	EXPECT_EQ(0x600D, *self->word);
}

TEST_F(cleanup, bad_arguments_einval)
{
	struct tenstorrent_set_noc_cleanup c = last_word(&self->node, 0);

	c.argsz++;
	EXPECT_EQ(EINVAL, set_cleanup(self->fd, &c));
	c = last_word(&self->node, 0);
	c.flags = 1;
	EXPECT_EQ(EINVAL, set_cleanup(self->fd, &c));
	c = last_word(&self->node, 0);
	c.enabled = 2;
	EXPECT_EQ(EINVAL, set_cleanup(self->fd, &c));
	c = last_word(&self->node, 0);
	c.addr -= 2;
	EXPECT_EQ(EINVAL, set_cleanup(self->fd, &c));
	c = last_word(&self->node, 0);
	c.noc = 2;
	EXPECT_EQ(EINVAL, set_cleanup(self->fd, &c));
	c = last_word(&self->node, 0);
	c.x = 65;
	EXPECT_EQ(EINVAL, set_cleanup(self->fd, &c));
	c = last_word(&self->node, 0);
	c.y = 65;
	EXPECT_EQ(EINVAL, set_cleanup(self->fd, &c));
	EXPECT_EQ(EFAULT, set_cleanup(self->fd, NULL));
}

/* The mock stores into node memory only: a register has side effects. */
TEST_F(cleanup, targets_outside_node_memory_eopnotsupp)
{
	struct tenstorrent_set_noc_cleanup c = last_word(&self->node, 0);

	c.addr = self->node.mem_base + self->node.mem_size;
	EXPECT_EQ(EOPNOTSUPP, set_cleanup(self->fd, &c));
	c = last_word(&self->node, 0);
	c.x = 64;
	c.y = 64;
	EXPECT_EQ(EOPNOTSUPP, set_cleanup(self->fd, &c));
}

TEST_HARNESS_MAIN
