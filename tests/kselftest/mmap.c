// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: mmap(2) of $TT_DEVICE (driver/README.md "mmap"): BAR2, the
 * device image, at tt-kmd's UC and WC offsets; shared mappings only,
 * inside the offered BAR, else EINVAL; a mapping keeps the file.
 *
 * The device image starts with the model's identity page (hw/host.h), so
 * a mapping that shows its signature shows the device. The BAR's size
 * comes from sysfs.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <kselftest_harness.h>

FIXTURE(bar2) {
	int fd;
	size_t size; /* BAR2's, from sysfs */
};

FIXTURE_SETUP(bar2)
{
	struct sysfs_dev s;

	ASSERT_OPEN_DEVICE(self->fd, 0);
	ASSERT_EQ(0, sysfs_of(tt_device(), &s))
	TH_LOG("sysfs does not describe %s", tt_device());
	ASSERT_NE(0, s.bar2_size) TH_LOG("sysfs gives no BAR2 size");
	self->size = s.bar2_size;
}

FIXTURE_TEARDOWN(bar2)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* A shared mapping that must succeed; the process's exit unmaps it. */
static volatile unsigned char *map_ok(struct __test_metadata *_metadata,
				      int fd, uint64_t off, size_t len)
{
	int err;
	void *p = map(fd, off, len, MAP_SHARED, &err);

	ASSERT_NE(NULL, p) TH_LOG("mmap at %#llx, %zu bytes: %s",
				  (unsigned long long)off, len, err_name(err));
	return p;
}

TEST_F(bar2, uc_mapping_reads_the_identity_signature)
{
	EXPECT_TRUE(signed_image(map_ok(_metadata, self->fd,
					TENSTORRENT_MMAP_BAR2_UC, self->size)));
}

TEST_F(bar2, wc_mapping_reads_the_identity_signature)
{
	EXPECT_TRUE(signed_image(map_ok(_metadata, self->fd,
					TENSTORRENT_MMAP_BAR2_WC, self->size)));
}

TEST_F(bar2, a_one_page_mapping_at_the_end_shows_that_page)
{
	const size_t end = self->size - PAGE;
	volatile unsigned char *uc, *last;

	uc = map_ok(_metadata, self->fd, TENSTORRENT_MMAP_BAR2_UC, self->size);
	last = map_ok(_metadata, self->fd, TENSTORRENT_MMAP_BAR2_UC + end,
		      PAGE);
	EXPECT_EQ(peek32(uc + end), peek32(last));
}

TEST_F(bar2, a_write_through_uc_is_seen_through_wc_and_another_mapping)
{
	const size_t word = self->size - 4; /* the image's last, unused here */
	volatile unsigned char *uc, *wc, *last;
	uint32_t old;

	uc = map_ok(_metadata, self->fd, TENSTORRENT_MMAP_BAR2_UC, self->size);
	wc = map_ok(_metadata, self->fd, TENSTORRENT_MMAP_BAR2_WC, self->size);
	last = map_ok(_metadata, self->fd,
		      TENSTORRENT_MMAP_BAR2_UC + self->size - PAGE, PAGE);
	old = *(volatile uint32_t *)(uc + word);
	*(volatile uint32_t *)(uc + word) = 0x5a5aa5a5;
	__sync_synchronize();
	/* EXPECT, not ASSERT: the old value goes back in any case. */
	EXPECT_EQ(0x5a5aa5a5, peek32(wc + word));
	EXPECT_EQ(0x5a5aa5a5, peek32(last + PAGE - 4));
	*(volatile uint32_t *)(uc + word) = old;
}

TEST_F(bar2, a_mapping_outlives_the_closed_fd)
{
	volatile unsigned char *uc;

	uc = map_ok(_metadata, self->fd, TENSTORRENT_MMAP_BAR2_UC, PAGE);
	close(self->fd);
	self->fd = -1;
	EXPECT_TRUE(signed_image(uc));
}

/* ---------------------------------------------------------------------- */
/* Refusals: each must fail with EINVAL                                   */

/* mmap's errno name, or "mapped" (and unmapped again). */
static const char *map_result(int fd, uint64_t off, size_t len, int flags)
{
	int err;
	void *p = map(fd, off, len, flags, &err);

	if (!p)
		return err_name(err);
	munmap(p, len);
	return "mapped";
}

#define EXPECT_REFUSED(off, len, flags)                                      \
	EXPECT_STREQ("EINVAL", map_result(self->fd, (off), (len), (flags)))

TEST_F(bar2, across_the_end_is_einval)
{
	EXPECT_REFUSED(TENSTORRENT_MMAP_BAR2_UC + self->size - PAGE, 2 * PAGE,
		       MAP_SHARED);
}

/* A BAR as large as its region (a p150's 64 GiB image) ends where the
 * next region (BAR2 WC) begins: then there is no "beyond" to refuse. */
#define FILLS_REGION(size) ((size) >= (1ULL << TENSTORRENT_MMAP_REGION_SHIFT))

TEST_F(bar2, at_the_end_is_einval)
{
	if (FILLS_REGION(self->size)) {
		EXPECT_STREQ("mapped",
			     map_result(self->fd,
					TENSTORRENT_MMAP_BAR2_UC + self->size,
					PAGE, MAP_SHARED));
	} else {
		EXPECT_REFUSED(TENSTORRENT_MMAP_BAR2_UC + self->size, PAGE,
			       MAP_SHARED);
	}
}

TEST_F(bar2, longer_than_the_bar_wc_is_einval)
{
	EXPECT_REFUSED(TENSTORRENT_MMAP_BAR2_WC, self->size + PAGE,
		       MAP_SHARED);
}

TEST_F(bar2, far_inside_the_region_beyond_the_bar_is_einval)
{
	uint64_t off = self->size < (1ULL << 35) ? 1ULL << 35 :
						   self->size + PAGE;

	if (FILLS_REGION(self->size))
		off = TENSTORRENT_MMAP_REGION(8) - TENSTORRENT_MMAP_BAR2_UC;
	EXPECT_REFUSED(TENSTORRENT_MMAP_BAR2_UC + off, PAGE, MAP_SHARED);
}

TEST_F(bar2, private_is_einval)
{
	EXPECT_REFUSED(TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_PRIVATE);
}

/* BAR0 (and a Blackhole's BAR4) are the TLB windows' apertures, which
 * end before 512 MiB (32 GiB): beyond them is nothing (tlb.c tests them). */
TEST_F(bar2, bar0_beyond_the_aperture_is_einval)
{
	EXPECT_REFUSED(TENSTORRENT_MMAP_BAR0_UC + (512ULL << 20), PAGE,
		       MAP_SHARED);
}

TEST_F(bar2, bar4_beyond_the_aperture_is_einval)
{
	EXPECT_REFUSED(TENSTORRENT_MMAP_BAR4_WC + (32ULL << 30), PAGE,
		       MAP_SHARED);
}

TEST_F(bar2, dma_buffer_none_allocated_is_einval)
{
	EXPECT_REFUSED(TENSTORRENT_MMAP_DMA_BUF(PAGE, 0), PAGE, MAP_SHARED);
}

TEST_F(bar2, at_2_44_is_einval)
{
	EXPECT_REFUSED(1ULL << 44, PAGE, MAP_SHARED);
}

TEST_HARNESS_MAIN
