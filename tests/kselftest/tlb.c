// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftests of the TLB windows: ALLOCATE_TLB, FREE_TLB, CONFIGURE_TLB and
 * mmap of windows (tt-kmd's memory.c; docs/abi.md). The window
 * layouts of the real chips are written out here again rather than taken
 * from the driver, so that a wrong table in the driver fails.
 *
 * On the chip model a window shows the device image's copy of the target
 * memory: the data tests write through the window and read through the
 * BAR2 mapping of the image, and the other way round. They pick Tensix
 * nodes from the image's node table and use the last window-sized piece
 * of their memory, away from where firmware and kernels live.
 *
 * Register pages: a window shows a node's register pages for reading (the
 * node-ID registers of every node type give its coordinates); a write
 * there is SIGBUS. The apertures (resource 0, on Blackhole also 2) show
 * every window at its BAR offset, as configured now.
 *
 * EXPORT_TLB_DMABUF: the dma-buf's checks and fd, the window it holds
 * after FREE_TLB and close, its mappings (following CONFIGURE_TLB, alive
 * after every fd is closed) and the destructive resets it blocks.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <hw/arch.h>
#include <hw/niu.h>
#include <hw/tile.h>

#include <kselftest_harness.h>

#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* Windows of one size: ids first..first + count - 1 at mmap offsets
 * base + i * size; user = how many of them user space may have. */
struct kind {
	uint64_t size;
	uint32_t first, count, user;
	uint64_t base;
};

static const struct kind wormhole[] = {
	{1 * MiB, 0, 156, 156, 0},
	{2 * MiB, 156, 10, 10, 0x09C00000},
	{16 * MiB, 166, 20, 19, 0x0B000000}, /* 185 is the kernel's */
};

static const struct kind blackhole[] = {
	{2 * MiB, 0, 202, 201, 0}, /* 201 is the kernel's */
	{4 * GiB, 202, 8, 8, 512 * MiB},
};

/* The ioctls, returning 0 or the errno. */
static int alloc_tlb(int fd, uint64_t size,
		     struct tenstorrent_allocate_tlb_out *out)
{
	struct tenstorrent_allocate_tlb a = {.in.size = size};

	if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_TLB, &a))
		return errno;
	if (out)
		*out = a.out;
	return 0;
}

static int free_tlb(int fd, uint32_t id)
{
	struct tenstorrent_free_tlb f = {.in.id = id};

	return ioctl(fd, TENSTORRENT_IOCTL_FREE_TLB, &f) ? errno : 0;
}

static int configure(int fd, uint32_t id,
		     const struct tenstorrent_noc_tlb_config *c)
{
	struct tenstorrent_configure_tlb t = {.in.id = id, .in.config = *c};

	return ioctl(fd, TENSTORRENT_IOCTL_CONFIGURE_TLB, &t) ? errno : 0;
}

/* A node with memory the window can reach: a Tensix whose memory lies in
 * the image, page-aligned. */
struct node {
	uint32_t x, y;
	uint64_t mem_base, mem_size, mem_off;
};

FIXTURE(tlb)
{
	int fd;
	const struct kind *kinds;
	unsigned int nkinds;
	struct tt_identity id;
	struct node tensix[2];
	unsigned int ntensix;
};

static void find_tensix(FIXTURE_DATA(tlb) * self,
			const struct tt_node_desc *table)
{
	uint32_t n = self->id.grid_x * self->id.grid_y, i;
	const struct tt_node_desc *d;

	for (i = 0; i < n && self->ntensix < 2; i++) {
		d = &table[i];
		if (d->type != TT_NODE_TENSIX ||
		    (d->flags & TT_NODE_F_HARVESTED) || d->mem_size < PAGE ||
		    d->mem_off % PAGE || d->mem_off > self->id.image_size ||
		    d->mem_size > self->id.image_size - d->mem_off)
			continue;
		self->tensix[self->ntensix++] = (struct node){
			.x = d->x,
			.y = d->y,
			.mem_base = d->mem_base,
			.mem_size = d->mem_size,
			.mem_off = d->mem_off,
		};
	}
}

FIXTURE_SETUP(tlb)
{
	struct tt_node_desc *table;

	ASSERT_OPEN_DEVICE(self->fd, 0);
	ASSERT_EQ(0, read_node_table(self->fd, &self->id, &table))
	TH_LOG("cannot read the node table through BAR2");
	find_tensix(self, table);
	free(table);
	if (self->id.arch == TT_HW_ARCH_WORMHOLE_B0) {
		self->kinds = wormhole;
		self->nkinds = sizeof(wormhole) / sizeof(wormhole[0]);
	} else {
		ASSERT_EQ((uint32_t)TT_HW_ARCH_BLACKHOLE, self->id.arch);
		self->kinds = blackhole;
		self->nkinds = sizeof(blackhole) / sizeof(blackhole[0]);
	}
}

FIXTURE_TEARDOWN(tlb)
{
	close(self->fd);
}

/* The first (smallest) window size and a window of it. */
static uint32_t alloc_small(struct __test_metadata *_metadata,
			    FIXTURE_DATA(tlb) * self, int fd,
			    struct tenstorrent_allocate_tlb_out *out)
{
	ASSERT_EQ(0, alloc_tlb(fd, self->kinds[0].size, out));
	return out->id;
}

TEST_F(tlb, allocate_gives_each_size_its_own_windows)
{
	struct tenstorrent_allocate_tlb_out out;
	const struct kind *k;

	for (k = self->kinds; k < self->kinds + self->nkinds; k++) {
		memset(&out, 0xa5, sizeof(out));
		ASSERT_EQ(0, alloc_tlb(self->fd, k->size, &out));
		EXPECT_EQ(k->first, out.id);
		EXPECT_EQ(TENSTORRENT_MMAP_TLB_UC + k->base,
			  out.mmap_offset_uc);
		EXPECT_EQ(TENSTORRENT_MMAP_TLB_WC + k->base,
			  out.mmap_offset_wc);
		EXPECT_EQ(0u, out.reserved0);
		EXPECT_EQ(0u, out.reserved1);
		/* tt-kmd's tests want every base + size below 2^44. */
		EXPECT_GT(1ull << 44, out.mmap_offset_wc + k->size);
	}
}

TEST_F(tlb, allocate_refuses_sizes_the_chip_has_no_windows_of)
{
	static const uint64_t sizes[] = {
		0,	    4096,     512 * 1024, 3 * MiB,
		MiB + 4096, 32 * MiB, 1ull << 63, UINT64_MAX,
	};
	const struct kind *k;
	unsigned int i;
	int has;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (has = 0, k = self->kinds; k < self->kinds + self->nkinds;
		     k++)
			has |= k->size == sizes[i];
		if (!has)
			EXPECT_EQ(EINVAL, alloc_tlb(self->fd, sizes[i], NULL))
		TH_LOG("size %#llx", (unsigned long long)sizes[i]);
	}
	/* The size's upper half counts too (1 MiB + 2^32 is not 1 MiB). */
	EXPECT_EQ(EINVAL,
		  alloc_tlb(self->fd, self->kinds[0].size | 1ull << 32, NULL));
}

/* The kind that holds the kernel's window. */
static const struct kind *kernel_kind(FIXTURE_DATA(tlb) * self)
{
	const struct kind *k;

	for (k = self->kinds; k->user == k->count; k++)
		;
	return k;
}

TEST_F(tlb, allocate_takes_the_lowest_free_and_never_the_kernels)
{
	const struct kind *k = kernel_kind(self);
	struct tenstorrent_allocate_tlb_out out;
	uint32_t i;

	for (i = 0; i < k->user; i++) {
		ASSERT_EQ(0, alloc_tlb(self->fd, k->size, &out));
		ASSERT_EQ(k->first + i, out.id);
	}
	EXPECT_EQ(ENOMEM, alloc_tlb(self->fd, k->size, NULL));
	/* A freed window is the next one given. */
	ASSERT_EQ(0, free_tlb(self->fd, k->first + 3));
	ASSERT_EQ(0, alloc_tlb(self->fd, k->size, &out));
	EXPECT_EQ(k->first + 3, out.id);
	EXPECT_EQ(ENOMEM, alloc_tlb(self->fd, k->size, NULL));
	/* The kernel's window is not this fd's to free. */
	EXPECT_EQ(EPERM, free_tlb(self->fd, k->first + k->count - 1));
}

TEST_F(tlb, windows_go_back_when_their_file_closes)
{
	const struct kind *k = kernel_kind(self);
	int other = open_dev(tt_device(), 0);
	uint32_t i;

	ASSERT_LE(0, other);
	for (i = 0; i < k->user; i++)
		ASSERT_EQ(0, alloc_tlb(other, k->size, NULL));
	EXPECT_EQ(ENOMEM, alloc_tlb(self->fd, k->size, NULL));
	close(other);
	EXPECT_EQ(0, alloc_tlb(self->fd, k->size, NULL));
}

TEST_F(tlb, free_wants_a_window_of_this_file)
{
	struct tenstorrent_allocate_tlb_out mine, theirs;
	int other = open_dev(tt_device(), 0);

	ASSERT_LE(0, other);
	alloc_small(_metadata, self, self->fd, &mine);
	alloc_small(_metadata, self, other, &theirs);
	EXPECT_EQ(EINVAL, free_tlb(self->fd, TENSTORRENT_MAX_INBOUND_TLBS));
	EXPECT_EQ(EINVAL, free_tlb(self->fd, UINT32_MAX));
	EXPECT_EQ(EPERM, free_tlb(self->fd, TENSTORRENT_MAX_INBOUND_TLBS - 1));
	EXPECT_EQ(EPERM, free_tlb(self->fd, theirs.id));
	EXPECT_EQ(0, free_tlb(self->fd, mine.id));
	EXPECT_EQ(EPERM, free_tlb(self->fd, mine.id));
	EXPECT_EQ(0, free_tlb(other, theirs.id));
	close(other);
}

TEST_F(tlb, configure_checks_owner_alignment_and_fields)
{
	struct tenstorrent_noc_tlb_config c = {.x_end = 1, .y_end = 1};
	struct tenstorrent_allocate_tlb_out mine, theirs;
	int other = open_dev(tt_device(), 0);

	ASSERT_LE(0, other);
	alloc_small(_metadata, self, self->fd, &mine);
	alloc_small(_metadata, self, other, &theirs);
	EXPECT_EQ(0, configure(self->fd, mine.id, &c));
	EXPECT_EQ(EINVAL,
		  configure(self->fd, TENSTORRENT_MAX_INBOUND_TLBS, &c));
	EXPECT_EQ(EPERM, configure(self->fd, theirs.id, &c));
	EXPECT_EQ(EPERM, configure(self->fd, mine.id + 2, &c));

	c.addr = self->kinds[0].size / 2;
	EXPECT_EQ(EINVAL, configure(self->fd, mine.id, &c));
	c.addr = self->kinds[0].size;
	EXPECT_EQ(0, configure(self->fd, mine.id, &c));
	if (self->id.arch == TT_HW_ARCH_WORMHOLE_B0) {
		c.addr = 1ull << 36; /* Wormhole's NOC addresses are 36 bits */
		EXPECT_EQ(EINVAL, configure(self->fd, mine.id, &c));
		c.addr = 0;
	}
	c.x_end = 64;
	EXPECT_EQ(EINVAL, configure(self->fd, mine.id, &c));
	c.x_end = 1;
	c.noc = 2;
	EXPECT_EQ(EINVAL, configure(self->fd, mine.id, &c));
	c.noc = 0;
	c.ordering = 4;
	EXPECT_EQ(EINVAL, configure(self->fd, mine.id, &c));
	c.ordering = 1;
	/* The model cannot put one page in many places. */
	c.mcast = 1;
	c.x_start = 1;
	c.y_start = 1;
	c.x_end = 2;
	c.y_end = 2;
	EXPECT_EQ(EOPNOTSUPP, configure(self->fd, mine.id, &c));
	close(other);
}

TEST_F(tlb, mmap_wants_a_whole_window_of_this_file)
{
	int err;
	struct tenstorrent_allocate_tlb_out a, b, theirs;
	uint64_t size = self->kinds[0].size;
	int other = open_dev(tt_device(), 0);
	uint8_t *p;

	ASSERT_LE(0, other);
	alloc_small(_metadata, self, self->fd, &a);
	alloc_small(_metadata, self, self->fd, &b);
	alloc_small(_metadata, self, other, &theirs);
	ASSERT_EQ(a.id + 1, b.id);

	EXPECT_EQ(NULL, map(self->fd, theirs.mmap_offset_uc + size, PAGE,
			    MAP_SHARED, &err));
	EXPECT_EQ(EPERM, err) TH_LOG("the next window, which nobody has");
	EXPECT_EQ(NULL,
		  map(self->fd, theirs.mmap_offset_uc, size, MAP_SHARED, &err));
	EXPECT_EQ(EPERM, err);
	EXPECT_EQ(NULL, map(self->fd, a.mmap_offset_wc, size + PAGE, MAP_SHARED,
			    &err));
	EXPECT_EQ(EINVAL, err);
	EXPECT_EQ(NULL, map(self->fd, a.mmap_offset_wc + size - PAGE, 2 * PAGE,
			    MAP_SHARED, &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("a mapping across two windows");
	EXPECT_EQ(NULL,
		  map(self->fd, a.mmap_offset_uc, size, MAP_PRIVATE, &err));
	EXPECT_EQ(EINVAL, err);

	/* Part of a window is fine; splitting a mapping is not. */
	p = map(self->fd, a.mmap_offset_wc + size / 2, size / 2, MAP_SHARED,
		&err);
	ASSERT_NE(NULL, p) TH_LOG("mmap: %s", strerror(err));
	EXPECT_EQ(-1, munmap(p, PAGE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(EBUSY, free_tlb(self->fd, a.id));
	EXPECT_EQ(0, munmap(p, size / 2));
	EXPECT_EQ(0, free_tlb(self->fd, a.id));
	close(other);
}

TEST_F(tlb, a_forked_copy_of_a_mapping_keeps_the_window)
{
	int err;
	struct tenstorrent_allocate_tlb_out a;
	uint64_t size = self->kinds[0].size;
	int ready[2], release[2], status;
	char c;
	pid_t pid;
	void *p;

	alloc_small(_metadata, self, self->fd, &a);
	p = map(self->fd, a.mmap_offset_uc, size, MAP_SHARED, &err);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(release));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(ready[0]);
		close(release[1]);
		c = 'r';
		if (write(ready[1], &c, 1) != 1 || read(release[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(ready[1]);
	close(release[0]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, munmap(p, size));
	EXPECT_EQ(EBUSY, free_tlb(self->fd, a.id)) TH_LOG("the child maps it");
	close(release[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, free_tlb(self->fd, a.id));
	close(ready[0]);
}

/* The last window-aligned piece of @n's memory, as a window's address. */
static uint64_t last_piece(const struct node *n, uint64_t size)
{
	return (n->mem_base + n->mem_size - 1) / size * size;
}

/* Map the image's copy of @len bytes of @n's memory at local @addr. */
static uint8_t *map_image(int fd, const struct node *n, uint64_t addr,
			  uint64_t len)
{
	int err;
	return map(fd,
		   TENSTORRENT_MMAP_BAR2_UC + n->mem_off + (addr - n->mem_base),
		   len, MAP_SHARED, &err);
}

TEST_F(tlb, a_window_reaches_its_nodes_memory)
{
	int err;
	const struct node *n = &self->tensix[0];
	uint64_t size = self->kinds[0].size, addr, backed, i;
	struct tenstorrent_noc_tlb_config c = {};
	struct tenstorrent_allocate_tlb_out a;
	uint8_t *win, *img;

	ASSERT_LE(1u, self->ntensix)
	TH_LOG("no Tensix node with memory in the image");
	addr = last_piece(n, size);
	backed = n->mem_base + n->mem_size - addr;
	if (backed > size)
		backed = size;
	backed -= backed % PAGE;
	ASSERT_LT(0u, backed);

	alloc_small(_metadata, self, self->fd, &a);
	c.addr = addr;
	c.x_end = n->x;
	c.y_end = n->y;
	ASSERT_EQ(0, configure(self->fd, a.id, &c));
	win = map(self->fd, a.mmap_offset_wc, size, MAP_SHARED, &err);
	ASSERT_NE(NULL, win);
	img = map_image(self->fd, n, addr, backed);
	ASSERT_NE(NULL, img);

	for (i = 0; i < backed; i += 8)
		*(volatile uint64_t *)(win + i) = 0x7e570000ull << 32 | i;
	for (i = 0; i < backed; i += 8)
		if (*(volatile uint64_t *)(img + i) !=
		    (0x7e570000ull << 32 | i))
			break;
	EXPECT_EQ(backed, i)
	TH_LOG("window write not in the image at %#llx", (unsigned long long)i);
	for (i = 0; i < backed; i += PAGE)
		*(volatile uint32_t *)(img + i) = (uint32_t)~i;
	for (i = 0; i < backed; i += PAGE)
		if (*(volatile uint32_t *)(win + i) != (uint32_t)~i)
			break;
	EXPECT_EQ(backed, i) TH_LOG("image write not seen in the window");
	/* Past the node's memory there is nothing to show. */
	if (backed < size)
		EXPECT_EQ(-SIGBUS, peek32(win + backed));
	munmap(img, backed);
	munmap(win, size);
}

/* The node-ID value of (x, y): hw/tile.h TT_TILE_NODE_ID's fields. */
static uint32_t node_id(uint32_t x, uint32_t y)
{
	return x | y << 6;
}

/* The first node of each type that is enabled, by type; found or not. */
static void first_of_each_type(FIXTURE_DATA(tlb) * self,
			       struct tt_node_desc first[TT_NODE_TYPE_COUNT],
			       bool found[TT_NODE_TYPE_COUNT])
{
	struct tt_identity id = {};
	struct tt_node_desc *table;
	uint32_t i;

	memset(found, 0, TT_NODE_TYPE_COUNT * sizeof(found[0]));
	if (read_node_table(self->fd, &id, &table))
		return;
	for (i = 0; i < id.grid_x * id.grid_y; i++) {
		const struct tt_node_desc *d = &table[i];

		if (d->type == TT_NODE_NONE || d->type >= TT_NODE_TYPE_COUNT ||
		    (d->flags & TT_NODE_F_HARVESTED) || found[d->type])
			continue;
		found[d->type] = true;
		first[d->type] = *d;
	}
	free(table);
}

/*
 * Through a window on either NOC, every node type's node-ID registers
 * (hw/tile.h tile control, hw/niu.h NIU 0 and 1) give the node's
 * coordinates; the NIU of NOC 1 gives them on NOC 1. Writes to register
 * pages are SIGBUS; pages in the register space the node lacks too.
 */
TEST_F(tlb, a_window_reads_every_nodes_id_registers)
{
	struct tt_node_desc first[TT_NODE_TYPE_COUNT];
	bool found[TT_NODE_TYPE_COUNT];
	uint64_t size = self->kinds[0].size;
	uint64_t base = TT_REG_SPACE_BASE & ~(size - 1);
	struct tenstorrent_noc_tlb_config c = {.addr = base};
	struct tenstorrent_allocate_tlb_out a;
	unsigned int type, noc, types = 0;
	volatile uint8_t *win;
	int err;

	first_of_each_type(self, first, found);
	alloc_small(_metadata, self, self->fd, &a);
	win = map(self->fd, a.mmap_offset_uc, size, MAP_SHARED, &err);
	ASSERT_NE(NULL, win);
	for (type = 1; type < TT_NODE_TYPE_COUNT; type++) {
		uint32_t x = found[type] ? first[type].x : 0;
		uint32_t y = found[type] ? first[type].y : 0;
		uint32_t x1 = self->id.grid_x - 1 - x;
		uint32_t y1 = self->id.grid_y - 1 - y;

		/* Memory that covers the register space hides it, as on
		 * a Blackhole DRAM node (4 GiB from 0): the decoder looks
		 * at memory first (hw/decode.h). */
		if (!found[type] ||
		    (first[type].mem_size &&
		     first[type].mem_base <= TT_REG_SPACE_BASE &&
		     TT_REG_SPACE_BASE - first[type].mem_base <
			     first[type].mem_size))
			continue;
		types++;
		for (noc = 0; noc < 2; noc++) {
			c.noc = noc;
			c.x_end = noc ? x1 : x;
			c.y_end = noc ? y1 : y;
			ASSERT_EQ(0, configure(self->fd, a.id, &c));
			EXPECT_EQ(node_id(x, y),
				  peek32(win + TT_REG_TILE_CTRL_ADDR - base +
					 TT_TILE_NODE_ID))
			TH_LOG("type %u (%u, %u) NOC %u: tile control", type,
			       x, y, noc);
			EXPECT_EQ(node_id(x, y),
				  peek32(win + TT_REG_NIU0_ADDR - base +
					 TT_NIU_NODE_ID))
			TH_LOG("type %u (%u, %u) NOC %u: NIU 0", type, x, y,
			       noc);
			EXPECT_EQ(node_id(x1, y1),
				  peek32(win + TT_REG_NIU1_ADDR - base +
					 TT_NIU_NODE_ID))
			TH_LOG("type %u (%u, %u) NOC %u: NIU 1", type, x, y,
			       noc);
			EXPECT_EQ(-SIGBUS,
				  poke32(win + TT_REG_TILE_CTRL_ADDR - base +
					 TT_TILE_NODE_ID, 0))
			TH_LOG("type %u: a register write", type);
			/* The register space's first page is no register. */
			EXPECT_EQ(-SIGBUS,
				  peek32(win + TT_REG_SPACE_BASE - base));
		}
	}
	EXPECT_LE(2u, types) TH_LOG("node types in the table: %u", types);
	munmap((void *)win, size);
}

/* A register write fails also through a write-combined mapping that has
 * read the page first, and through a dma-buf export of the window. */
TEST_F(tlb, register_pages_are_read_only_everywhere)
{
	struct tt_node_desc first[TT_NODE_TYPE_COUNT];
	bool found[TT_NODE_TYPE_COUNT];
	uint64_t size = self->kinds[0].size;
	uint64_t base = TT_REG_SPACE_BASE & ~(size - 1);
	uint64_t reg = TT_REG_TILE_CTRL_ADDR - base + TT_TILE_NODE_ID;
	struct tenstorrent_noc_tlb_config c = {.addr = base};
	struct tenstorrent_allocate_tlb_out a;
	volatile uint8_t *win, *exp;
	int err, buf;

	first_of_each_type(self, first, found);
	ASSERT_TRUE(found[TT_NODE_TENSIX]);
	alloc_small(_metadata, self, self->fd, &a);
	c.x_end = first[TT_NODE_TENSIX].x;
	c.y_end = first[TT_NODE_TENSIX].y;
	ASSERT_EQ(0, configure(self->fd, a.id, &c));
	win = map(self->fd, a.mmap_offset_wc, size, MAP_SHARED, &err);
	ASSERT_NE(NULL, win);
	EXPECT_EQ(node_id(c.x_end, c.y_end), peek32(win + reg));
	EXPECT_EQ(-SIGBUS, poke32(win + reg, 0x3f));
	EXPECT_EQ(node_id(c.x_end, c.y_end), peek32(win + reg))
	TH_LOG("the register changed");
	buf = export_tlb(self->fd, a.id, 0, 0);
	ASSERT_LE(0, buf);
	exp = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, buf, 0);
	ASSERT_NE(MAP_FAILED, exp);
	EXPECT_EQ(-SIGBUS, poke32(exp + reg, 0x3f)) TH_LOG("before a read");
	EXPECT_EQ(node_id(c.x_end, c.y_end), peek32(exp + reg));
	EXPECT_EQ(-SIGBUS, poke32(exp + reg, 0x3f)) TH_LOG("after a read");
	munmap((void *)exp, size);
	close(buf);
	munmap((void *)win, size);
}

/*
 * Resource 0 is the aperture of the windows in BAR0: at a window's BAR
 * offset it shows what the window shows, as configured now, whoever owns
 * it; memory can be written, registers only read; a window nobody
 * configured is SIGBUS.
 */
TEST_F(tlb, the_bar0_aperture_shows_every_window_as_configured)
{
	int err;
	const struct node *n = &self->tensix[0];
	uint64_t size = self->kinds[0].size, addr;
	uint64_t base = TT_REG_SPACE_BASE & ~(size - 1);
	struct tenstorrent_noc_tlb_config c = {};
	struct tenstorrent_allocate_tlb_out a;
	int other = open_dev(tt_device(), 0);
	volatile uint8_t *bar0, *img;
	uint64_t at;

	ASSERT_LE(0, other);
	ASSERT_LE(1u, self->ntensix);
	addr = last_piece(n, size);
	img = map_image(self->fd, n, addr, PAGE);
	ASSERT_NE(NULL, img);
	/* Another fd's window. */
	alloc_small(_metadata, self, other, &a);
	at = a.mmap_offset_uc - TENSTORRENT_MMAP_TLB_UC;
	bar0 = map(self->fd, TENSTORRENT_MMAP_BAR0_WC + at, size, MAP_SHARED,
		   &err);
	ASSERT_NE(NULL, bar0) TH_LOG("mmap of BAR0: %s", err_name(err));
	EXPECT_EQ(-SIGBUS, peek32(bar0)) TH_LOG("not configured yet");
	c.addr = addr;
	c.x_end = n->x;
	c.y_end = n->y;
	ASSERT_EQ(0, configure(other, a.id, &c));
	*(volatile uint32_t *)img = 0xa9e27u;
	EXPECT_EQ(0xa9e27u, peek32(bar0));
	EXPECT_EQ(0, poke32(bar0 + 4, 0x5eed));
	EXPECT_EQ(0x5eedu, *(volatile uint32_t *)(img + 4));
	/* Re-pointed at the node's registers: the aperture follows. */
	c.addr = base;
	ASSERT_EQ(0, configure(other, a.id, &c));
	EXPECT_EQ(node_id(n->x, n->y),
		  peek32(bar0 + TT_REG_TILE_CTRL_ADDR - base + TT_TILE_NODE_ID));
	EXPECT_EQ(-SIGBUS, poke32(bar0 + TT_REG_TILE_CTRL_ADDR - base, 0));
	/* Freed: nothing to show. */
	EXPECT_EQ(0, free_tlb(other, a.id));
	EXPECT_EQ(-SIGBUS, peek32(bar0 + TT_REG_TILE_CTRL_ADDR - base));
	munmap((void *)bar0, size);
	munmap((void *)img, PAGE);
	close(other);
}

TEST_F(tlb, configure_repoints_a_live_mapping)
{
	int err;
	uint64_t size = self->kinds[0].size, addr[2];
	struct tenstorrent_noc_tlb_config c = {};
	struct tenstorrent_allocate_tlb_out a;
	volatile uint32_t *win;
	uint8_t *img[2];
	unsigned int i;

	ASSERT_EQ(2u, self->ntensix)
	TH_LOG("two Tensix nodes with memory needed");
	for (i = 0; i < 2; i++) {
		addr[i] = last_piece(&self->tensix[i], size);
		img[i] = map_image(self->fd, &self->tensix[i], addr[i], PAGE);
		ASSERT_NE(NULL, img[i]);
		*(volatile uint32_t *)img[i] = 0xa0de0000 + i;
	}
	alloc_small(_metadata, self, self->fd, &a);
	win = map(self->fd, a.mmap_offset_uc, size, MAP_SHARED, &err);
	ASSERT_NE(NULL, win);
	EXPECT_EQ(-SIGBUS, peek32((volatile uint8_t *)win))
	TH_LOG("not configured yet");

	for (i = 0; i < 2; i++) {
		c.addr = addr[i];
		c.x_end = self->tensix[i].x;
		c.y_end = self->tensix[i].y;
		ASSERT_EQ(0, configure(self->fd, a.id, &c));
		EXPECT_EQ(0xa0de0000 + i, *win);
	}
	/* The same node seen from NOC 1, whose coordinates are mirrored. */
	c.addr = addr[0];
	c.noc = 1;
	c.x_end = self->id.grid_x - 1 - self->tensix[0].x;
	c.y_end = self->id.grid_y - 1 - self->tensix[0].y;
	ASSERT_EQ(0, configure(self->fd, a.id, &c));
	EXPECT_EQ(0xa0de0000, *win);
	/* Outside the grid: configured, but every access faults. */
	c.noc = 0;
	c.x_end = self->id.grid_x;
	ASSERT_EQ(0, configure(self->fd, a.id, &c));
	EXPECT_EQ(-SIGBUS, peek32((volatile uint8_t *)win));
	munmap((void *)win, size);
	for (i = 0; i < 2; i++)
		munmap(img[i], PAGE);
}

/* ---------------------------------------------------------------------- */
/* EXPORT_TLB_DMABUF: a dma-buf of part of a window                        */

/* The value of `key` in /proc/self/fdinfo/<fd>, in `val`: 0 or -1. */
static int fdinfo(int fd, const char *key, char *val, size_t len)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && found && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			snprintf(val, len, "%s", line + klen + 1 +
				 strspn(line + klen + 1, " \t"));
			val[strcspn(val, "\n")] = 0;
			found = 0;
		}
	if (f)
		fclose(f);
	return found;
}

TEST_F(tlb, export_gives_a_cloexec_dmabuf_of_the_range)
{
	struct tenstorrent_allocate_tlb_out a;
	char val[64];
	int buf;

	alloc_small(_metadata, self, self->fd, &a);
	buf = export_tlb(self->fd, a.id, PAGE, 2 * PAGE);
	ASSERT_LE(0, buf) TH_LOG("export: %s", err_name(-buf));
	EXPECT_EQ(FD_CLOEXEC, fcntl(buf, F_GETFD) & FD_CLOEXEC);
	ASSERT_EQ(0, fdinfo(buf, "exp_name", val, sizeof(val)))
	TH_LOG("no exp_name in the fd's fdinfo: not a dma-buf?");
	EXPECT_STREQ("tenstorrent", val);
	ASSERT_EQ(0, fdinfo(buf, "size", val, sizeof(val)));
	EXPECT_EQ(2 * PAGE, strtoull(val, NULL, 0));
	/* The whole window too, and more than one export of it. */
	EXPECT_LE(0, export_tlb(self->fd, a.id, 0, self->kinds[0].size));
	close(buf);
}

/* Size 0 means "to the end of the window", as in tt-kmd. */
TEST_F(tlb, export_of_size_0_reaches_the_end_of_the_window)
{
	struct tenstorrent_allocate_tlb_out a;
	uint64_t size = self->kinds[0].size;
	char val[64];
	int buf;

	alloc_small(_metadata, self, self->fd, &a);
	buf = export_tlb(self->fd, a.id, 0, 0);
	ASSERT_LE(0, buf) TH_LOG("export: %s", err_name(-buf));
	ASSERT_EQ(0, fdinfo(buf, "size", val, sizeof(val)));
	EXPECT_EQ(size, strtoull(val, NULL, 0));
	close(buf);
	buf = export_tlb(self->fd, a.id, size - PAGE, 0);
	ASSERT_LE(0, buf) TH_LOG("export: %s", err_name(-buf));
	ASSERT_EQ(0, fdinfo(buf, "size", val, sizeof(val)));
	EXPECT_EQ(PAGE, strtoull(val, NULL, 0)) TH_LOG("the last page");
	close(buf);
	EXPECT_EQ(-EINVAL, export_tlb(self->fd, a.id, size, 0))
	TH_LOG("nothing is left past the end");
}

TEST_F(tlb, export_checks_its_arguments)
{
	struct tenstorrent_export_tlb_dmabuf e;
	struct tenstorrent_allocate_tlb_out a, theirs;
	uint64_t size = self->kinds[0].size;
	int other = open_dev(tt_device(), 0);

	ASSERT_LE(0, other);
	alloc_small(_metadata, self, self->fd, &a);
	alloc_small(_metadata, self, other, &theirs);
	EXPECT_EQ(-EINVAL, export_tlb(self->fd, a.id, 1, PAGE));
	EXPECT_EQ(-EINVAL, export_tlb(self->fd, a.id, 0, PAGE + 1));
	EXPECT_EQ(-EINVAL, export_tlb(self->fd, a.id, size, PAGE));
	EXPECT_EQ(-EINVAL, export_tlb(self->fd, a.id, size - PAGE, 2 * PAGE));
	EXPECT_EQ(-EINVAL, export_tlb(self->fd, a.id, PAGE, -PAGE))
	TH_LOG("offset + size wraps");
	EXPECT_EQ(-EINVAL, export_tlb(self->fd, TENSTORRENT_MAX_INBOUND_TLBS,
				      0, PAGE));
	EXPECT_EQ(-EPERM, export_tlb(self->fd, theirs.id, 0, PAGE));
	EXPECT_EQ(-EPERM, export_tlb(self->fd, a.id + 1, 0, PAGE))
	TH_LOG("a window nobody has");
	/* Ownership before the range, as tt-kmd checks them. */
	EXPECT_EQ(-EPERM, export_tlb(self->fd, theirs.id, 0, 0))
	TH_LOG("another fd's window, to its end");
	EXPECT_EQ(-EPERM, export_tlb(self->fd, theirs.id, size, PAGE))
	TH_LOG("another fd's window, past its end");

	e = (struct tenstorrent_export_tlb_dmabuf){
		.argsz = sizeof(e) - 1, .tlb_id = a.id, .size = PAGE,
	};
	EXPECT_EQ(-1, ioctl(self->fd, TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF, &e));
	EXPECT_EQ(EINVAL, errno) TH_LOG("argsz one short");
	e.argsz = sizeof(e) + 8;
	EXPECT_EQ(-1, ioctl(self->fd, TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF, &e));
	EXPECT_EQ(EINVAL, errno) TH_LOG("argsz of a longer struct");
	e.argsz = sizeof(e);
	e.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF, &e));
	EXPECT_EQ(EINVAL, errno) TH_LOG("flags 1");
	close(other);
}

/* Allocate windows of the smallest size on `fd` until none is left; fail
 * if `id` is among them. */
static void exhaust_without(struct __test_metadata *_metadata,
			    FIXTURE_DATA(tlb) * self, int fd, uint32_t id)
{
	struct tenstorrent_allocate_tlb_out out;
	int err;

	while (!(err = alloc_tlb(fd, self->kinds[0].size, &out)))
		ASSERT_NE(id, out.id) TH_LOG("the exported window was given");
	ASSERT_EQ(ENOMEM, err);
}

TEST_F(tlb, an_export_keeps_its_window_after_free_and_close)
{
	struct tenstorrent_allocate_tlb_out a, again;
	int other = open_dev(tt_device(), 0), filler, buf;

	ASSERT_LE(0, other);
	alloc_small(_metadata, self, other, &a);
	buf = export_tlb(other, a.id, 0, PAGE);
	ASSERT_LE(0, buf);
	EXPECT_EQ(0, free_tlb(other, a.id));
	EXPECT_EQ(EPERM, free_tlb(other, a.id)) TH_LOG("no longer its own");
	close(other);

	filler = open_dev(tt_device(), 0);
	ASSERT_LE(0, filler);
	exhaust_without(_metadata, self, filler, a.id);
	close(filler);
	close(buf);
	alloc_small(_metadata, self, self->fd, &again);
	EXPECT_EQ(a.id, again.id) TH_LOG("not back with its export gone");
}

TEST_F(tlb, the_last_export_gives_a_closed_files_window_back)
{
	struct tenstorrent_allocate_tlb_out a, again;
	int other = open_dev(tt_device(), 0), filler, buf[2];

	ASSERT_LE(0, other);
	alloc_small(_metadata, self, other, &a);
	buf[0] = export_tlb(other, a.id, 0, PAGE);
	buf[1] = export_tlb(other, a.id, PAGE, PAGE);
	ASSERT_LE(0, buf[0]);
	ASSERT_LE(0, buf[1]);
	close(other);
	close(buf[0]);
	filler = open_dev(tt_device(), 0);
	ASSERT_LE(0, filler);
	exhaust_without(_metadata, self, filler, a.id);
	close(filler);
	close(buf[1]);
	alloc_small(_metadata, self, self->fd, &again);
	EXPECT_EQ(a.id, again.id);
}

/* Point `fd`'s window `id` at the last window-sized piece of Tensix `n`;
 * write `tag` at its start through the image. */
static void point_at(struct __test_metadata *_metadata,
		     FIXTURE_DATA(tlb) * self, int fd, uint32_t id,
		     const struct node *n, uint32_t tag)
{
	uint64_t addr = last_piece(n, self->kinds[0].size);
	struct tenstorrent_noc_tlb_config c = {
		.addr = addr, .x_end = n->x, .y_end = n->y,
	};
	uint8_t *img = map_image(self->fd, n, addr, PAGE);

	ASSERT_NE(NULL, img);
	*(volatile uint32_t *)img = tag;
	munmap(img, PAGE);
	ASSERT_EQ(0, configure(fd, id, &c));
}

TEST_F(tlb, an_export_maps_the_window_and_follows_configure)
{
	struct tenstorrent_allocate_tlb_out a;
	volatile uint32_t *p;
	uint8_t *img;
	int buf, err;

	ASSERT_EQ(2u, self->ntensix)
	TH_LOG("two Tensix nodes with memory needed");
	alloc_small(_metadata, self, self->fd, &a);
	buf = export_tlb(self->fd, a.id, 0, 2 * PAGE);
	ASSERT_LE(0, buf);
	EXPECT_EQ(NULL, map(buf, 0, 3 * PAGE, MAP_SHARED, &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("longer than the dma-buf");
	EXPECT_EQ(NULL, map(buf, 2 * PAGE, PAGE, MAP_SHARED, &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("past the dma-buf");
	EXPECT_EQ(NULL, map(buf, 0, PAGE, MAP_PRIVATE, &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("private");
	p = map(buf, 0, 2 * PAGE, MAP_SHARED, &err);
	ASSERT_NE(NULL, p) TH_LOG("mmap of the dma-buf: %s", err_name(err));
	EXPECT_EQ(-SIGBUS, peek32(p)) TH_LOG("not configured yet");

	point_at(_metadata, self, self->fd, a.id, &self->tensix[0], 0xe0b0f000);
	EXPECT_EQ(0xe0b0f000, *p);
	point_at(_metadata, self, self->fd, a.id, &self->tensix[1], 0xe0b0f001);
	EXPECT_EQ(0xe0b0f001, *p) TH_LOG("CONFIGURE_TLB did not re-point it");
	/* Writes reach the node's memory, as the image shows. */
	p[1] = 0x5eed0001;
	img = map_image(self->fd, &self->tensix[1],
			last_piece(&self->tensix[1], self->kinds[0].size), PAGE);
	ASSERT_NE(NULL, img);
	EXPECT_EQ(0x5eed0001, ((volatile uint32_t *)img)[1]);
	munmap(img, PAGE);
	munmap((void *)p, 2 * PAGE);
	close(buf);
}

TEST_F(tlb, an_exports_mapping_outlives_every_fd)
{
	struct tenstorrent_allocate_tlb_out a;
	int other = open_dev(tt_device(), 0), buf, err;
	volatile uint32_t *p;

	ASSERT_LE(1u, self->ntensix);
	ASSERT_LE(0, other);
	alloc_small(_metadata, self, other, &a);
	point_at(_metadata, self, other, a.id, &self->tensix[0], 0x0b5e55ed);
	buf = export_tlb(other, a.id, 0, PAGE);
	ASSERT_LE(0, buf);
	p = map(buf, 0, PAGE, MAP_SHARED, &err);
	ASSERT_NE(NULL, p);
	close(buf);
	close(other);
	EXPECT_EQ(0x0b5e55ed, *p);
	munmap((void *)p, PAGE);
}

TEST_F(tlb, a_destructive_reset_is_ebusy_while_an_export_lives)
{
	struct tenstorrent_allocate_tlb_out a;
	int buf;

	alloc_small(_metadata, self, self->fd, &a);
	buf = export_tlb(self->fd, a.id, 0, PAGE);
	ASSERT_LE(0, buf);
	EXPECT_EQ(-EBUSY,
		  reset_device(self->fd, TENSTORRENT_RESET_DEVICE_USER_RESET));
	EXPECT_EQ(-EBUSY,
		  reset_device(self->fd, TENSTORRENT_RESET_DEVICE_ASIC_RESET));
	EXPECT_EQ(-EBUSY, reset_device(self->fd,
				       TENSTORRENT_RESET_DEVICE_ASIC_DMC_RESET));
	EXPECT_LE(0, reset_device(self->fd,
				  TENSTORRENT_RESET_DEVICE_RESTORE_STATE))
	TH_LOG("RESTORE_STATE resets nothing");
	close(buf);
	EXPECT_EQ(0,
		  reset_device(self->fd, TENSTORRENT_RESET_DEVICE_USER_RESET));
	EXPECT_LE(0,
		  reset_device(self->fd, TENSTORRENT_RESET_DEVICE_POST_RESET));
}

TEST_HARNESS_MAIN
