// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: the ioctl commands of <linux/tenstorrent.h> on $TT_DEVICE
 * (driver/README.md, docs/abi.md).
 *
 * - GET_DEVICE_INFO and GET_DRIVER_INFO against sysfs and the module's
 *   version;
 * - the output_size_bytes rule as tt-kmd's ioctl_zeroing and ioctl_overrun
 *   tests check it: the whole declared output is zeroed, then filled up to
 *   what both sides know; nothing is written past it, and an output that
 *   runs into an inaccessible page is EFAULT;
 * - QUERY_MAPPINGS: the TLB apertures (resource 0, on Blackhole also
 *   resource 2) and BAR2, UC and WC, as tt-kmd's TestQueryMappings checks
 *   them (known and unique ids, RESOURCE0_UC, WC only with UC, no overlap,
 *   page-aligned non-zero sizes below 2^44, prefixes, every mapping
 *   mmap-able whole); unused entries zeroed, counts from 0 to 2^32-1;
 * - every other command number: EINVAL (tt-kmd's answer); the ABI's
 *   other commands have programs of their own.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <kselftest_harness.h>

/* What the tests write before a call, to see which bytes it changed. */
#define FILL 0xAA

/* Two pages, the second inaccessible: for overrun checks. */
static unsigned char *guarded_page(void)
{
	unsigned char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + PAGE, PAGE, PROT_NONE)) {
		munmap(p, 2 * PAGE);
		return NULL;
	}
	memset(p, FILL, PAGE);
	return p;
}

/* Index of the first byte in [from, to) that is not `val`, or -1. */
static long first_not(const void *mem, size_t from, size_t to, int val)
{
	const unsigned char *p = mem;

	for (size_t i = from; i < to; i++)
		if (p[i] != val)
			return (long)i;
	return -1;
}

/* ioctl(2) as 0 or the errno, for EXPECT_EQ(EFAULT, ...). */
static int ioctl_err(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

/* ---------------------------------------------------------------------- */
/* GET_DEVICE_INFO, GET_DRIVER_INFO                                       */

FIXTURE(dev) {
	int fd;
	struct sysfs_dev sys;
};

FIXTURE_SETUP(dev)
{
	ASSERT_OPEN_DEVICE(self->fd, 0);
	ASSERT_EQ(0, sysfs_of(tt_device(), &self->sys))
	TH_LOG("sysfs does not describe %s", tt_device());
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

static struct tenstorrent_get_device_info_out
device_info(struct __test_metadata *_metadata, int fd)
{
	struct tenstorrent_get_device_info_out o;
	int ret = get_device_info(fd, &o);

	ASSERT_EQ(0, ret) TH_LOG("GET_DEVICE_INFO: %s", strerror(-ret));
	return o;
}

TEST_F(dev, device_info_size_is_20)
{
	EXPECT_EQ(20, device_info(_metadata, self->fd).output_size_bytes);
}

TEST_F(dev, device_info_ids_equal_sysfs)
{
	struct tenstorrent_get_device_info_out o = device_info(_metadata,
							       self->fd);

	EXPECT_EQ(self->sys.vendor, o.vendor_id);
	EXPECT_EQ(self->sys.device, o.device_id);
}

TEST_F(dev, device_info_subsystem_ids_equal_sysfs)
{
	struct tenstorrent_get_device_info_out o = device_info(_metadata,
							       self->fd);

	EXPECT_EQ(self->sys.subvendor, o.subsystem_vendor_id);
	EXPECT_EQ(self->sys.subdevice, o.subsystem_id);
}

TEST_F(dev, device_info_bus_address_equals_sysfs)
{
	struct tenstorrent_get_device_info_out o = device_info(_metadata,
							       self->fd);
	const struct sysfs_dev *s = &self->sys;

	EXPECT_EQ(s->bus << 8 | s->slot << 3 | s->func, o.bus_dev_fn);
	EXPECT_EQ(s->domain, o.pci_domain);
}

TEST_F(dev, device_info_dma_log2_28_reserved_0)
{
	struct tenstorrent_get_device_info_out o = device_info(_metadata,
							       self->fd);

	EXPECT_EQ(28, o.max_dma_buf_size_log2);
	EXPECT_EQ(0, o.reserved);
}

static struct tenstorrent_get_driver_info_out
driver_info(struct __test_metadata *_metadata, int fd)
{
	struct tenstorrent_get_driver_info a = {
		.in.output_size_bytes = sizeof(a.out)
	};

	ASSERT_EQ(0, ioctl_err(fd, TENSTORRENT_IOCTL_GET_DRIVER_INFO, &a));
	return a.out;
}

TEST_F(dev, driver_info_size_12_api_version_2)
{
	struct tenstorrent_get_driver_info_out o = driver_info(_metadata,
							       self->fd);

	EXPECT_EQ(12, o.output_size_bytes);
	EXPECT_EQ(TENSTORRENT_DRIVER_VERSION, o.driver_version);
}

TEST_F(dev, driver_info_version_equals_sysfs)
{
	struct tenstorrent_get_driver_info_out o = driver_info(_metadata,
							       self->fd);
	FILE *f = fopen("/sys/module/tenstorrent/version", "r");
	unsigned int v[3];

	ASSERT_NE(NULL, f);
	ASSERT_EQ(3, fscanf(f, "%u.%u.%u", &v[0], &v[1], &v[2]));
	fclose(f);
	EXPECT_EQ(v[0], o.driver_version_major);
	EXPECT_EQ(v[1], o.driver_version_minor);
	EXPECT_EQ(v[2], o.driver_version_patch);
	EXPECT_EQ(0, o.reserved0);
}

/* ---------------------------------------------------------------------- */
/* The output_size_bytes rule, for each command whose `in` is that u32 and */
/* whose `out` starts with its own size                                    */

FIXTURE(output_size) {
	int fd;
	unsigned char *p; /* a page, then an inaccessible one */
};

/*
 * `in` is output_size_bytes followed by in_size - 4 bytes of tail; `out`
 * follows and its first word is first_word when the call succeeds.
 */
FIXTURE_VARIANT(output_size) {
	unsigned long cmd;
	uint32_t in_size;
	unsigned char tail[8];
	uint32_t out_size;
	uint32_t first_word;
};

FIXTURE_VARIANT_ADD(output_size, device_info) {
	.cmd = TENSTORRENT_IOCTL_GET_DEVICE_INFO,
	.in_size = 4,
	.out_size = sizeof(struct tenstorrent_get_device_info_out),
	.first_word = sizeof(struct tenstorrent_get_device_info_out),
};

FIXTURE_VARIANT_ADD(output_size, driver_info) {
	.cmd = TENSTORRENT_IOCTL_GET_DRIVER_INFO,
	.in_size = 4,
	.out_size = sizeof(struct tenstorrent_get_driver_info_out),
	.first_word = sizeof(struct tenstorrent_get_driver_info_out),
};

/* RESTORE_STATE (flags 0): tt-kmd's suite uses it for these checks. */
FIXTURE_VARIANT_ADD(output_size, reset_restore_state) {
	.cmd = TENSTORRENT_IOCTL_RESET_DEVICE,
	.in_size = 8,
	.tail = { 0, 0, 0, 0 },
	.out_size = sizeof(struct tenstorrent_reset_device_out),
	.first_word = sizeof(struct tenstorrent_reset_device_out),
};

/* LOCK_CTL TEST of lock 0, which nobody holds: value 0. */
FIXTURE_VARIANT_ADD(output_size, lock_test) {
	.cmd = TENSTORRENT_IOCTL_LOCK_CTL,
	.in_size = 12,
	.tail = { TENSTORRENT_LOCK_CTL_TEST, 0, 0, 0, 0, 0, 0, 0 },
	.out_size = sizeof(struct tenstorrent_lock_ctl_out),
	.first_word = 0,
};

FIXTURE_SETUP(output_size)
{
	ASSERT_OPEN_DEVICE(self->fd, 0);
	self->p = guarded_page();
	ASSERT_NE(NULL, self->p);
}

FIXTURE_TEARDOWN(output_size)
{
	if (self->p)
		munmap(self->p, 2 * PAGE);
	if (self->fd >= 0)
		close(self->fd);
}

/* Write the variant's `in` at p, declaring `size` output bytes. */
static void *put_in(const FIXTURE_VARIANT(output_size) *v, unsigned char *p,
		    uint32_t size)
{
	memcpy(p, &size, 4);
	memcpy(p + 4, v->tail, v->in_size - 4);
	return p;
}

/* `in` at the end of the page: the output would start in the guard. */
static void *in_at_page_end(const FIXTURE_VARIANT(output_size) *v,
			    unsigned char *p, uint32_t size)
{
	return put_in(v, p + PAGE - v->in_size, size);
}

TEST_F(output_size, zeroes_a_page_long_output)
{
	uint32_t in = variant->in_size, got;

	put_in(variant, self->p, PAGE - in);
	ASSERT_EQ(0, ioctl_err(self->fd, variant->cmd, self->p));
	memcpy(&got, self->p + in, 4);
	EXPECT_EQ(variant->first_word, got);
	EXPECT_EQ(-1, first_not(self->p, in + variant->out_size, PAGE, 0))
	TH_LOG("that byte is not zero");
}

TEST_F(output_size, size_3_writes_3_bytes)
{
	unsigned char *p = self->p;
	uint32_t in = variant->in_size;

	put_in(variant, p, 3);
	ASSERT_EQ(0, ioctl_err(self->fd, variant->cmd, p));
	/* The first 3 bytes of `out`, little-endian. */
	EXPECT_EQ(variant->first_word & 0xFF, p[in]);
	EXPECT_EQ((variant->first_word >> 8) & 0xFF, p[in + 1]);
	EXPECT_EQ((variant->first_word >> 16) & 0xFF, p[in + 2]);
	EXPECT_EQ(-1, first_not(p, in + 3, PAGE, FILL))
	TH_LOG("that byte changed");
}

TEST_F(output_size, size_0_at_a_page_end_writes_nothing)
{
	void *in = in_at_page_end(variant, self->p, 0);

	ASSERT_EQ(0, ioctl_err(self->fd, variant->cmd, in));
	EXPECT_EQ(-1, first_not(self->p, 0, PAGE - variant->in_size, FILL))
	TH_LOG("that byte changed");
}

TEST_F(output_size, output_past_the_callers_memory_is_efault)
{
	void *in = in_at_page_end(variant, self->p, 4);

	EXPECT_EQ(EFAULT, ioctl_err(self->fd, variant->cmd, in));
}

/* The largest size: zeroes up to the guard page, then EFAULT. */
TEST_F(output_size, size_max_is_efault_nothing_before_changes)
{
	void *in = put_in(variant, self->p + PAGE - 64, UINT32_MAX);

	EXPECT_EQ(EFAULT, ioctl_err(self->fd, variant->cmd, in));
	EXPECT_EQ(-1, first_not(self->p, 0, PAGE - 64, FILL))
	TH_LOG("that byte changed");
}

TEST_F(output_size, null_argument_is_efault)
{
	EXPECT_EQ(EFAULT, ioctl_err(self->fd, variant->cmd, NULL));
}

TEST_F(output_size, kernel_argument_is_efault)
{
	void *kernel = (void *)0xffff888000000000UL; /* x86-64 direct map */

	EXPECT_EQ(EFAULT, ioctl_err(self->fd, variant->cmd, kernel));
}

/* ---------------------------------------------------------------------- */
/* QUERY_MAPPINGS                                                         */

/* QUERY_MAPPINGS for `count` entries into m[16], prefilled with FILL. */
struct mappings {
	struct tenstorrent_query_mappings q;
	struct tenstorrent_mapping m[16];
};

static int query(int fd, uint32_t count, struct mappings *a)
{
	memset(a, FILL, sizeof(*a));
	a->q.in.output_mapping_count = count;
	a->q.in.reserved = 0;
	return ioctl_err(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, a);
}

/*
 * What the node offers, in order: resource 0, the TLB windows' aperture
 * in BAR0 (Wormhole 156 x 1 MiB + 10 x 2 MiB + 20 x 16 MiB, Blackhole
 * 202 x 2 MiB); resource 1, BAR2 (the device image); on Blackhole
 * resource 2, the 8 x 4 GiB windows' aperture in BAR4; each UC then WC.
 * Returns the number of entries.
 */
static unsigned int expected(struct __test_metadata *_metadata, int fd,
			     unsigned long long bar2_size,
			     struct tenstorrent_mapping *m)
{
	unsigned long long size[3] = {0, bar2_size, 0};
	struct tt_identity id;
	struct tt_node_desc *table;
	unsigned int n = 0, res, wc;

	ASSERT_EQ(0, read_node_table(fd, &id, &table));
	free(table);
	if (id.arch == TT_HW_ARCH_WORMHOLE_B0) {
		size[0] = 156ULL * (1 << 20) + 10ULL * (2 << 20) +
			  20ULL * (16 << 20);
	} else {
		ASSERT_EQ((uint32_t)TT_HW_ARCH_BLACKHOLE, id.arch);
		size[0] = 202ULL * (2 << 20);
		size[2] = 8ULL << 32;
	}
	for (res = 0; res < 3; res++)
		for (wc = 0; wc < 2 && size[res]; wc++)
			m[n++] = (struct tenstorrent_mapping){
				.mapping_id = TENSTORRENT_MAPPING_RESOURCE0_UC +
					      2 * res + wc,
				.mapping_base = (2ULL * res + wc) << 36,
				.mapping_size = size[res],
			};
	return n;
}

static void expect_mapping(struct __test_metadata *_metadata,
			   const struct tenstorrent_mapping *got,
			   const struct tenstorrent_mapping *want)
{
	EXPECT_EQ(want->mapping_id, got->mapping_id);
	EXPECT_EQ(0, got->reserved);
	EXPECT_EQ(want->mapping_base, got->mapping_base);
	EXPECT_EQ(want->mapping_size, got->mapping_size)
	TH_LOG("mapping %u", want->mapping_id);
}

TEST_F(dev, query_mappings_gives_the_apertures_and_bar2)
{
	struct tenstorrent_mapping want[16];
	unsigned int n = expected(_metadata, self->fd, self->sys.bar2_size,
				  want), i;
	struct mappings a;

	ASSERT_EQ(0, query(self->fd, 16, &a));
	for (i = 0; i < n; i++)
		expect_mapping(_metadata, &a.m[i], &want[i]);
	for (; i < 16; i++)
		EXPECT_EQ((uint32_t)TENSTORRENT_MAPPING_UNUSED,
			  a.m[i].mapping_id);
}

/* tt-kmd's TestQueryMappings, check by check. */
TEST_F(dev, query_mappings_passes_tt_kmds_checks)
{
	struct mappings a, b;
	unsigned int n, i, j;
	bool seen[7] = {false};

	ASSERT_EQ(0, query(self->fd, 16, &a));
	for (n = 0; n < 16 && a.m[n].mapping_id; n++) {
		uint32_t id = a.m[n].mapping_id;

		ASSERT_GE(TENSTORRENT_MAPPING_RESOURCE2_WC, id)
		TH_LOG("unknown id %u", id);
		EXPECT_FALSE(seen[id]) TH_LOG("id %u twice", id);
		seen[id] = true;
		EXPECT_NE(0, a.m[n].mapping_size);
		EXPECT_EQ(0, a.m[n].mapping_size % PAGE);
		EXPECT_EQ(0, a.m[n].mapping_base % PAGE);
		EXPECT_GT(1ULL << 44, a.m[n].mapping_base + a.m[n].mapping_size);
	}
	for (i = n; i < 16; i++)
		EXPECT_EQ(0, a.m[i].mapping_id) TH_LOG("UNUSED in the middle");
	EXPECT_TRUE(seen[TENSTORRENT_MAPPING_RESOURCE0_UC]);
	for (i = TENSTORRENT_MAPPING_RESOURCE0_WC;
	     i <= TENSTORRENT_MAPPING_RESOURCE2_WC; i += 2)
		EXPECT_FALSE(seen[i] && !seen[i - 1]) TH_LOG("WC %u alone", i);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			EXPECT_TRUE(i == j ||
				    a.m[i].mapping_base + a.m[i].mapping_size <=
					    a.m[j].mapping_base ||
				    a.m[j].mapping_base + a.m[j].mapping_size <=
					    a.m[i].mapping_base)
			TH_LOG("%u and %u overlap", i, j);
	/* Every prefix is the same as the whole. */
	for (i = 0; i <= n; i++) {
		ASSERT_EQ(0, query(self->fd, i, &b));
		EXPECT_EQ(0, memcmp(a.m, b.m, i * sizeof(a.m[0])))
		TH_LOG("prefix of %u", i);
	}
	/* Every mapping can be mapped whole, read-write and shared. */
	for (i = 0; i < n; i++) {
		void *p = mmap(NULL, a.m[i].mapping_size,
			       PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
			       (off_t)a.m[i].mapping_base);

		EXPECT_NE(MAP_FAILED, p) TH_LOG("mapping %u: %s",
						a.m[i].mapping_id,
						strerror(errno));
		if (p != MAP_FAILED)
			EXPECT_EQ(0, munmap(p, a.m[i].mapping_size));
	}
}

TEST_F(dev, query_mappings_zeroes_unused_entries_no_more)
{
	struct tenstorrent_mapping want[16], zero[16] = { 0 };
	unsigned int n = expected(_metadata, self->fd, self->sys.bar2_size,
				  want);
	struct mappings a;

	ASSERT_EQ(0, query(self->fd, 8, &a));
	EXPECT_EQ(0, memcmp(&a.m[n], zero, (8 - n) * sizeof(zero[0])));
	EXPECT_EQ(-1, first_not(&a.m[8], 0, 8 * sizeof(a.m[0]), FILL));
}

TEST_F(dev, query_mappings_count_1_writes_the_first_entry_only)
{
	struct tenstorrent_mapping want[16];
	struct mappings a;

	expected(_metadata, self->fd, self->sys.bar2_size, want);
	ASSERT_EQ(0, query(self->fd, 1, &a));
	expect_mapping(_metadata, &a.m[0], &want[0]);
	EXPECT_EQ(-1, first_not(&a.m[1], 0, 15 * sizeof(a.m[0]), FILL));
}

TEST_F(dev, query_mappings_count_0_writes_nothing)
{
	struct mappings a;

	ASSERT_EQ(0, query(self->fd, 0, &a));
	EXPECT_EQ(-1, first_not(a.m, 0, sizeof(a.m), FILL));
}

/* `in` (8 bytes) at the end of a page whose next page is inaccessible. */
static uint32_t *query_in_at_page_end(unsigned char *p, uint32_t count)
{
	uint32_t *in = (uint32_t *)(p + PAGE - 8);

	in[0] = count;
	in[1] = 0;
	return in;
}

TEST_F(dev, query_mappings_count_0_at_a_page_end_succeeds)
{
	unsigned char *p = guarded_page();

	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, ioctl_err(self->fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS,
			       query_in_at_page_end(p, 0)));
	munmap(p, 2 * PAGE);
}

TEST_F(dev, query_mappings_into_an_inaccessible_page_is_efault)
{
	unsigned char *p = guarded_page();

	ASSERT_NE(NULL, p);
	EXPECT_EQ(EFAULT, ioctl_err(self->fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS,
				    query_in_at_page_end(p, 1)));
	munmap(p, 2 * PAGE);
}

/* A huge count: entries up to the guard page, then EFAULT. */
TEST_F(dev, query_mappings_count_max_is_efault_nothing_before_changes)
{
	const size_t at = PAGE - 8 - 3 * sizeof(struct tenstorrent_mapping);
	unsigned char *p = guarded_page();
	uint32_t *in;

	ASSERT_NE(NULL, p);
	in = (uint32_t *)(p + at);
	in[0] = UINT32_MAX;
	in[1] = 0;
	EXPECT_EQ(EFAULT,
		  ioctl_err(self->fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, in));
	EXPECT_EQ(-1, first_not(p, 0, at, FILL));
	munmap(p, 2 * PAGE);
}

TEST_F(dev, query_mappings_null_argument_is_efault)
{
	EXPECT_EQ(EFAULT,
		  ioctl_err(self->fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, NULL));
}

/* ---------------------------------------------------------------------- */
/* Other command numbers: one test per command                            */

/* tt-kmd's answer to a command it does not know: EINVAL, not ENOTTY. It
 * dispatches on the whole number, so a known number with a size or
 * direction encoded is unknown too. */
FIXTURE(unknown_command) {
	int fd;
};

FIXTURE_VARIANT(unknown_command) {
	unsigned long cmd;
};

#define UNKNOWN(name, number)                                              \
	FIXTURE_VARIANT_ADD(unknown_command, name) { .cmd = (number) }

UNKNOWN(get_harvesting, TENSTORRENT_IOCTL_GET_HARVESTING);
UNKNOWN(free_dma_buf, TENSTORRENT_IOCTL_FREE_DMA_BUF);
UNKNOWN(nr_17, _IO(TENSTORRENT_IOCTL_MAGIC, 17));
UNKNOWN(nr_0x7f, _IO(TENSTORRENT_IOCTL_MAGIC, 0x7f));
UNKNOWN(nr_0x83, _IO(TENSTORRENT_IOCTL_MAGIC, 0x83));
UNKNOWN(nr_0xff, _IO(TENSTORRENT_IOCTL_MAGIC, 0xff));
UNKNOWN(other_magic, _IO(0xFB, 0));
UNKNOWN(device_info_with_a_size,
	_IOWR(TENSTORRENT_IOCTL_MAGIC, 0, struct tenstorrent_get_device_info));
UNKNOWN(driver_info_with_a_size,
	_IOR(TENSTORRENT_IOCTL_MAGIC, 5, struct tenstorrent_get_driver_info));
UNKNOWN(zero, 0);

FIXTURE_SETUP(unknown_command)
{
	ASSERT_OPEN_DEVICE(self->fd, 0);
}

FIXTURE_TEARDOWN(unknown_command)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ioctl(2) with a zeroed argument, as 0 or the errno's name. */
static const char *command_result(int fd, unsigned long cmd)
{
	unsigned char arg[256] = { 0 };

	return err_name(ioctl_err(fd, cmd, arg));
}

TEST_F(unknown_command, is_einval)
{
	EXPECT_STREQ("EINVAL", command_result(self->fd, variant->cmd))
	TH_LOG("command %#lx", variant->cmd);
}

TEST_HARNESS_MAIN
