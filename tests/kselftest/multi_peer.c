// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest of MAP_PEER_BAR (tt-kmd's memory.c): $TT_DEVICE asks for a
 * DMA address of a range of another node's BAR. Needs another node: the
 * guest runs multi_* programs only in scenarios with two or more.
 *
 * Each other node is checked by kind (its image's identity page says the
 * arch): a node of the same kind has every memory BAR mapped, whole and
 * at its last byte, with the bus address sysfs gives (the guests have no
 * IOMMU, so the DMA address is the bus address), up to the driver's bound
 * per file; a node of another kind is refused. Files that are not another
 * node are refused too, and so are bad arguments.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <dirent.h>

#include <kselftest_harness.h>

/* tt-kmd's tests cap a mapping at this; BARs may be larger. */
#define MAX_LENGTH 0xFFFFF000ull
/* The driver's bound on one file's peer mappings. */
#define MAX_MAPS 64

struct peer {
	char path[64];
	char dir[PATH_MAX];
	uint32_t arch;
};

FIXTURE(peer)
{
	int fd;
	uint32_t arch;
	struct peer peers[8];
	unsigned int npeers;
};

/* The arch in `path`'s identity page, or ~0u. */
static uint32_t arch_of(const char *path)
{
	struct tt_node_desc *table;
	struct tt_identity id;
	int fd = open_dev(path, 0), err;

	if (fd < 0)
		return ~0u;
	err = read_node_table(fd, &id, &table);
	free(table);
	close(fd);
	return err ? ~0u : id.arch;
}

FIXTURE_SETUP(peer)
{
	char self_dir[PATH_MAX];
	struct dirent *d;
	struct peer *p;
	DIR *dev;

	ASSERT_OPEN_DEVICE(self->fd, 0);
	self->arch = arch_of(tt_device());
	ASSERT_NE(~0u, self->arch);
	ASSERT_EQ(0, pci_dir_of(tt_device(), self_dir));
	dev = opendir("/dev/tenstorrent");
	ASSERT_NE(NULL, dev);
	while ((d = readdir(dev)) && self->npeers < 8) {
		if (d->d_name[0] == '.')
			continue;
		p = &self->peers[self->npeers];
		if (strlen(d->d_name) > 8)
			continue;
		snprintf(p->path, sizeof(p->path), "/dev/tenstorrent/%.8s",
			 d->d_name);
		ASSERT_EQ(0, pci_dir_of(p->path, p->dir));
		if (!strcmp(p->dir, self_dir))
			continue;
		p->arch = arch_of(p->path);
		ASSERT_NE(~0u, p->arch) TH_LOG("%s: no identity", p->path);
		self->npeers++;
	}
	closedir(dev);
	ASSERT_LT(0u, self->npeers) TH_LOG("no other node: not a multi_ guest");
}

FIXTURE_TEARDOWN(peer)
{
	close(self->fd);
}

/* MAP_PEER_BAR: 0 and *dma, or the errno. */
static int map_peer(int fd, int peer_fd, uint32_t bar, uint32_t offset,
		    uint32_t length, uint64_t *dma)
{
	struct tenstorrent_map_peer_bar m = {
		.in.peer_fd = (uint32_t)peer_fd,
		.in.peer_bar_index = bar,
		.in.peer_bar_offset = offset,
		.in.peer_bar_length = length,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_MAP_PEER_BAR, &m))
		return errno;
	if (dma)
		*dma = m.out.dma_address;
	return 0;
}

TEST_F(peer, a_file_of_this_node_is_einval)
{
	int again = open_dev(tt_device(), 0);

	ASSERT_LE(0, again);
	EXPECT_EQ(EINVAL, map_peer(self->fd, self->fd, 2, 0, PAGE, NULL))
	TH_LOG("its own fd");
	EXPECT_EQ(EINVAL, map_peer(self->fd, again, 2, 0, PAGE, NULL))
	TH_LOG("another fd of the same node");
	close(again);
}

TEST_F(peer, a_file_that_is_no_node_is_einval)
{
	int null = open("/dev/null", O_RDWR), closed = dup(self->fd);

	ASSERT_LE(0, null);
	ASSERT_LE(0, closed);
	close(closed);
	EXPECT_EQ(EINVAL, map_peer(self->fd, null, 2, 0, PAGE, NULL));
	EXPECT_EQ(EINVAL, map_peer(self->fd, closed, 2, 0, PAGE, NULL))
	TH_LOG("a closed fd");
	EXPECT_EQ(EINVAL, map_peer(self->fd, -1, 2, 0, PAGE, NULL));
	close(null);
}

TEST_F(peer, bad_arguments_are_einval)
{
	struct tenstorrent_map_peer_bar m = {
		.in.peer_bar_index = 2, .in.peer_bar_length = PAGE,
	};
	int peer = open_dev(self->peers[0].path, 0);

	ASSERT_LE(0, peer);
	m.in.peer_fd = (uint32_t)peer;
	m.in.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, TENSTORRENT_IOCTL_MAP_PEER_BAR, &m));
	EXPECT_EQ(EINVAL, errno) TH_LOG("flags 1");
	m.in.flags = 0;
	m.in.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd, TENSTORRENT_IOCTL_MAP_PEER_BAR, &m));
	EXPECT_EQ(EINVAL, errno) TH_LOG("reserved 1");
	EXPECT_EQ(EINVAL, map_peer(self->fd, peer, 2, 0, 0, NULL))
	TH_LOG("length 0");
	EXPECT_EQ(EINVAL, map_peer(self->fd, peer, 6, 0, PAGE, NULL))
	TH_LOG("BAR 6, the ROM");
	EXPECT_EQ(EINVAL, map_peer(self->fd, peer, UINT32_MAX, 0, PAGE, NULL));
	EXPECT_EQ(EFAULT, ioctl(self->fd, TENSTORRENT_IOCTL_MAP_PEER_BAR, NULL)
				  ? errno : 0);
	close(peer);
}

/* Every BAR of peer `p`: mapped as sysfs says if `same` kind, else EINVAL. */
static void check_peer(struct __test_metadata *_metadata, int fd,
		       const struct peer *p, bool same)
{
	int peer = open_dev(p->path, 0);
	unsigned long long len;
	struct pci_resource r;
	uint64_t dma;

	ASSERT_LE(0, peer) TH_LOG("%s", p->path);
	for (unsigned int bar = 0; bar < 6; bar++) {
		ASSERT_EQ(0, pci_resource_of(p->dir, bar, &r));
		if (!same || !r.size || !(r.flags & RESOURCE_MEM)) {
			EXPECT_EQ(EINVAL, map_peer(fd, peer, bar, 0, 1, NULL))
			TH_LOG("%s BAR %u, size %#llx flags %#llx", p->path,
			       bar, r.size, r.flags);
			continue;
		}
		len = r.size < MAX_LENGTH ? r.size : MAX_LENGTH;
		EXPECT_EQ(0, map_peer(fd, peer, bar, 0, len, &dma));
		EXPECT_EQ(r.start, dma) TH_LOG("%s BAR %u", p->path, bar);
		if (r.size > MAX_LENGTH)
			continue;
		EXPECT_EQ(0, map_peer(fd, peer, bar, len - 1, 1, &dma));
		EXPECT_EQ(r.start + len - 1, dma);
		EXPECT_EQ(EINVAL, map_peer(fd, peer, bar, len - 1, 2, NULL))
		TH_LOG("%s BAR %u: one byte past its end", p->path, bar);
		EXPECT_EQ(EINVAL, map_peer(fd, peer, bar, len, 1, NULL));
	}
	close(peer);
}

/* A file holds at most MAX_MAPS mappings (the map count includes what
 * check_peer() made); they go at its close. */
static void check_bound(struct __test_metadata *_metadata, int fd,
			const struct peer *p)
{
	int peer = open_dev(p->path, 0), err = 0;
	unsigned int n;

	ASSERT_LE(0, peer);
	for (n = 0; n <= MAX_MAPS && !err; n++)
		err = map_peer(fd, peer, 2, 0, PAGE, NULL);
	EXPECT_EQ(ENOMEM, err) TH_LOG("after %u more mappings", n);
	close(fd);
	fd = open_dev(tt_device(), 0);
	ASSERT_LE(0, fd);
	for (n = 0; n < MAX_MAPS; n++)
		ASSERT_EQ(0, map_peer(fd, peer, 2, 0, PAGE, NULL))
		TH_LOG("mapping %u after the first file closed", n);
	EXPECT_EQ(ENOMEM, map_peer(fd, peer, 2, 0, PAGE, NULL));
	close(fd);
	close(peer);
}

TEST_F(peer, each_other_node_is_mapped_if_of_this_kind)
{
	for (unsigned int i = 0; i < self->npeers; i++) {
		const struct peer *p = &self->peers[i];
		int fd = open_dev(tt_device(), 0);

		ASSERT_LE(0, fd);
		check_peer(_metadata, fd, p, p->arch == self->arch);
		if (p->arch == self->arch)
			check_bound(_metadata, fd, p);
		else
			close(fd);
	}
}

TEST_HARNESS_MAIN
