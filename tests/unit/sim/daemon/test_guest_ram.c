// SPDX-License-Identifier: Apache-2.0
/*
 * A QEMU guest's RAM for device DMA (sim/daemon/guestram.h): QEMU's pc layout,
 * the --guest-ram spec, the sealed memfd and the path QEMU opens, and the
 * RAM's fixed regions in the host memory table (sim/model/hostmem.h). The
 * daemon's side, end to end, is in test_ivshmem.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/daemon/guestram.h"
#include "sim/model/image.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

/* ---- QEMU's pc layout ---- */

static void test_pc_lowmem_rule(void **state)
{
	(void)state;
	/* Small RAM is all below 4 GiB. */
	assert_int_equal(sim_guest_pc_lowmem(64 * MIB), 64 * MIB);
	assert_int_equal(sim_guest_pc_lowmem(3 * GIB), 3 * GIB);
	assert_int_equal(sim_guest_pc_lowmem(3583 * MIB), 3583 * MIB);
	/* From 3.5 GiB on it splits, gigabyte-aligned at 3 GiB. */
	assert_int_equal(sim_guest_pc_lowmem(3584 * MIB), 3 * GIB);
	assert_int_equal(sim_guest_pc_lowmem(4 * GIB), 3 * GIB);
	assert_int_equal(sim_guest_pc_lowmem(16 * GIB), 3 * GIB);
	/* QEMU's own examples (pc_piix.c) with max-ram-below-4g. */
	assert_int_equal(sim_guest_pc_split(4 * GIB, 2 * GIB), 2 * GIB);
	assert_int_equal(sim_guest_pc_split(3968 * MIB, 4 * GIB), 3968 * MIB);
	assert_int_equal(sim_guest_pc_split(8 * GIB, 4 * GIB), 3 * GIB);
	assert_int_equal(sim_guest_pc_split(1 * GIB, 2 * GIB), 1 * GIB);
}

/* ---- the spec ---- */

static void test_parse_bytes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(sim_parse_bytes("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(sim_parse_bytes("4k", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(sim_parse_bytes("512M", &v), 0);
	assert_int_equal(v, 512 * MIB);
	assert_int_equal(sim_parse_bytes("4G", &v), 0);
	assert_int_equal(v, 4 * GIB);
	assert_int_equal(sim_parse_bytes("1T", &v), 0);
	assert_int_equal(v, 1024 * GIB);
	assert_int_equal(sim_parse_bytes("", &v), -EINVAL);
	assert_int_equal(sim_parse_bytes("M", &v), -EINVAL);
	assert_int_equal(sim_parse_bytes("-1", &v), -EINVAL);
	assert_int_equal(sim_parse_bytes(" 1", &v), -EINVAL);
	assert_int_equal(sim_parse_bytes("1MB", &v), -EINVAL);
	assert_int_equal(sim_parse_bytes("1X", &v), -EINVAL);
	assert_int_equal(sim_parse_bytes("99999999999999999999", &v), -EINVAL);
	assert_int_equal(sim_parse_bytes("16777216T", &v), -EINVAL);
}

static void test_parse_layout(void **state)
{
	struct sim_guest_layout l;
	char err[SIM_ERR_LEN];

	(void)state;
	assert_int_equal(sim_guest_layout_parse("512M", &l, err), 0);
	assert_int_equal(l.size, 512 * MIB);
	assert_int_equal(l.lowmem, 512 * MIB);
	assert_false(l.lowmem_given);
	assert_int_equal(sim_guest_layout_parse("4G", &l, err), 0);
	assert_int_equal(l.size, 4 * GIB);
	assert_int_equal(l.lowmem, 3 * GIB);
	/* lowmem= overrides QEMU's rule. */
	assert_int_equal(sim_guest_layout_parse("4G,lowmem=2G", &l, err), 0);
	assert_int_equal(l.size, 4 * GIB);
	assert_int_equal(l.lowmem, 2 * GIB);
	assert_true(l.lowmem_given);
	assert_int_equal(sim_guest_layout_parse("64M,lowmem=64M", &l, err), 0);
	assert_int_equal(l.lowmem, 64 * MIB);
	assert_int_equal(sim_guest_layout_parse("6G,lowmem=4G", &l, err), 0);
	assert_int_equal(l.lowmem, 4 * GIB);
}

/* spec is refused, and the message has `names` in it. */
static void refused(const char *spec, const char *names)
{
	struct sim_guest_layout l = { .size = 1 };
	char err[SIM_ERR_LEN] = "";

	if (sim_guest_layout_parse(spec, &l, err) != -EINVAL)
		fail_msg("'%s' was accepted", spec);
	if (!strstr(err, names))
		fail_msg("'%s': the message \"%s\" does not say \"%s\"", spec, err,
			 names);
	assert_int_equal(l.size, 1); /* untouched */
}

static void test_bad_specs(void **state)
{
	(void)state;
	refused("0", "guest RAM size '0' is zero");
	refused("5000", "guest RAM size '5000' is not a multiple of 4 KiB");
	refused("513G", "guest RAM size '513G' is more than the 512 GiB");
	refused("lots", "guest RAM size 'lots' is not a size");
	refused("64X", "guest RAM size '64X' is not a size");
	refused("", "guest RAM size '' is not a size");
	refused("12345678901234567890123456789012345", "is too long");
	refused("64M,lowmem=128M", "lowmem=128M is more than the guest RAM size");
	refused("8G,lowmem=5G", "lowmem=5G is above 4 GiB");
	refused("64M,lowmem=0", "lowmem=0 is zero");
	refused("64M,lowmem=1000", "lowmem=1000 is not a multiple of 4 KiB");
	refused("64M,lowmem=", "lowmem= is not a size");
	refused("64M,lowmem=half", "lowmem=half is not a size");
	refused("64M,lowmem=16M,lowmem=32M", "lowmem= is given twice");
	refused("64M,highmem=1M", "unknown guest RAM option 'highmem=1M'");
	refused("64M,", "empty guest RAM option");
	refused("64M,,lowmem=32M", "empty guest RAM option");
}

/* ---- the memfd and QEMU's options ---- */

static struct sim_guest_ram *make(const char *spec)
{
	struct sim_guest_layout l;
	struct sim_guest_ram *gr;
	char err[SIM_ERR_LEN];

	if (sim_guest_layout_parse(spec, &l, err))
		fail_msg("%s: %s", spec, err);
	if (sim_guest_ram_create(&l, &gr, err))
		fail_msg("%s: %s", spec, err);
	return gr;
}

static void test_memfd_is_sealed_and_reachable_by_path(void **state)
{
	struct sim_guest_ram *gr = make("64M");
	struct stat a, b;
	uint32_t *mine, *theirs;
	char want[64];
	int fd;

	(void)state;
	snprintf(want, sizeof(want), "/proc/%ld/fd/%d", (long)getpid(), gr->fd);
	assert_string_equal(gr->path, want);
	assert_int_equal(fstat(gr->fd, &a), 0);
	assert_int_equal(a.st_size, 64 * MIB);
	assert_int_equal(fcntl(gr->fd, F_GET_SEALS),
			 F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	/* What QEMU does: open the path, and get the same file. */
	fd = open(gr->path, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	assert_int_equal(a.st_dev, b.st_dev);
	/* Nobody can truncate it, grow it, or take writes away. */
	assert_int_equal(ftruncate(fd, 0), -1);
	assert_int_equal(ftruncate(fd, 128 * MIB), -1);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), -1);
	/* Writes through one mapping are seen through the other. */
	mine = mmap(NULL, 64 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED, gr->fd,
		    0);
	theirs = mmap(NULL, 64 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      0);
	assert_true(mine != MAP_FAILED && theirs != MAP_FAILED);
	theirs[12345] = 0xfeedf00d;
	assert_int_equal(mine[12345], 0xfeedf00d);
	munmap(mine, 64 * MIB);
	munmap(theirs, 64 * MIB);
	close(fd);
	sim_guest_ram_destroy(gr);
	sim_guest_ram_destroy(NULL);
}

/* QEMU's options for spec: the RAM's size as QEMU reads it, and what the
 * pc machine needs besides the backend (max-ram-below-4g). */
static void args_of(const char *spec, int ret, const char *size,
		    const char *machine)
{
	struct sim_guest_ram *gr = make(spec);
	char args[512], want[640];

	assert_int_equal(sim_guest_ram_qemu_args(gr, args, sizeof(args)), ret);
	snprintf(want, sizeof(want),
		 "-object memory-backend-file,id=ram0,size=%s,mem-path=%s,share=on -machine pc,memory-backend=ram0%s -m %s",
		 size, gr->path, machine, size);
	assert_string_equal(args, want);
	sim_guest_ram_destroy(gr);
}

static void test_qemu_args(void **state)
{
	(void)state;
	args_of("64M", 0, "64M", "");
	args_of("4G", 0, "4G", "");
	args_of("3584M", 0, "3584M", "");
	args_of("1028K", 0, "1028K", "");
	/* Another split: pc makes it with max-ram-below-4g. */
	args_of("4G,lowmem=2G", 0, "4G", ",max-ram-below-4g=2G");
	args_of("64M,lowmem=32M", 0, "64M", ",max-ram-below-4g=32M");
	args_of("3968M,lowmem=3968M", 0, "3968M", ",max-ram-below-4g=4G");
	/* One pc cannot make (gigabyte alignment caps it at 3 GiB). */
	args_of("8G,lowmem=3328M", -ERANGE, "8G", "");
}

/* ---- the host memory table ---- */

struct table {
	struct sim_hostmem hm;
	struct sim_guest_ram *gr;
	uint8_t *ram; /* the guest's view: the whole file */
};

/* 64 MiB of RAM split at 32 MiB: guest-physical [0, 32M) and [4G, 4G +
 * 32M). Every 4-byte word holds its file offset. */
static int setup_table(void **state)
{
	struct table *t = calloc(1, sizeof(*t));
	char err[SIM_ERR_LEN];

	if (!t)
		return -1;
	t->gr = make("64M,lowmem=32M");
	t->ram = mmap(NULL, 64 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED,
		      t->gr->fd, 0);
	if (t->ram == MAP_FAILED)
		return -1;
	for (uint32_t off = 0; off < 64 * MIB; off += 4)
		memcpy(t->ram + off, &off, 4);
	sim_hostmem_init(&t->hm);
	if (sim_guest_ram_attach(t->gr, &t->hm, err))
		fail_msg("%s", err);
	*state = t;
	return 0;
}

static int teardown_table(void **state)
{
	struct table *t = *state;

	sim_hostmem_fini(&t->hm);
	munmap(t->ram, 64 * MIB);
	sim_guest_ram_destroy(t->gr);
	free(t);
	return 0;
}

/* The file offset behind guest-physical [gpa, + len), or -1 if the table
 * refuses it. */
static int64_t offset_at(struct table *t, uint64_t gpa, uint64_t len)
{
	uint8_t *p = sim_hostmem_get(&t->hm, gpa, len);
	uint32_t off;

	if (!p)
		return -1;
	memcpy(&off, p, 4);
	sim_hostmem_put(&t->hm);
	return off;
}

static void test_translation(void **state)
{
	struct table *t = *state;
	const uint64_t low = 32 * MIB, high = SIM_GUEST_RAM_HIGH_BASE;

	/* Below lowmem: file offset = guest-physical address. */
	assert_int_equal(offset_at(t, 0, 4), 0);
	assert_int_equal(offset_at(t, 0x123000, 4096), 0x123000);
	assert_int_equal(offset_at(t, low - 4, 4), low - 4);
	/* At 4 GiB: the file from lowmem on. */
	assert_int_equal(offset_at(t, high, 4), low);
	assert_int_equal(offset_at(t, high + 0x5000, 64), low + 0x5000);
	assert_int_equal(offset_at(t, high + 32 * MIB - 4, 4), 64 * MIB - 4);
	/* Crossing lowmem, in the hole, past the end: nothing. */
	assert_int_equal(offset_at(t, low - 4, 8), -1);
	assert_int_equal(offset_at(t, low, 4), -1);
	assert_int_equal(offset_at(t, 0x80000000, 4), -1);
	assert_int_equal(offset_at(t, high - 4, 4), -1);
	assert_int_equal(offset_at(t, high - 4, 8), -1);
	assert_int_equal(offset_at(t, high + 32 * MIB - 4, 8), -1);
	assert_int_equal(offset_at(t, high + 32 * MIB, 4), -1);
	assert_int_equal(offset_at(t, UINT64_MAX - 3, 4), -1);
}

static void test_no_client_owns_it(void **state)
{
	struct table *t = *state;
	int buf = memfd_create("client", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	uint64_t bus;
	uint32_t id;

	assert_int_equal(ftruncate(buf, 8192), 0);
	assert_int_equal(fcntl(buf, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	/* A client's buffer goes far above the guest's RAM... */
	assert_int_equal(sim_hostmem_map(&t->hm, buf, 8192, 7, &id, &bus), 0);
	assert_true(bus >= SIM_BUS_BASE);
	assert_true(SIM_BUS_BASE >= SIM_GUEST_RAM_HIGH_BASE + SIM_GUEST_RAM_MAX);
	/* ...and its release leaves the RAM alone. */
	assert_int_equal(sim_hostmem_release_owner(&t->hm, 7), 1);
	assert_int_equal(offset_at(t, 0x1000, 4), 0x1000);
	assert_int_equal(offset_at(t, SIM_GUEST_RAM_HIGH_BASE, 4), 32 * MIB);
	/* Nobody may claim to own it, or map as its owner. */
	assert_int_equal(sim_hostmem_release_owner(&t->hm, SIM_HOSTMEM_FIXED), 0);
	for (uint32_t i = 1; i < 4; i++)
		assert_int_equal(sim_hostmem_unmap(&t->hm, i, SIM_HOSTMEM_FIXED),
				 -ENOENT);
	assert_int_equal(sim_hostmem_map(&t->hm, buf, 8192, SIM_HOSTMEM_FIXED,
					 &id, &bus),
			 -EINVAL);
	assert_int_equal(offset_at(t, 0x1000, 4), 0x1000);
	close(buf);
}

static void test_fixed_region_checks(void **state)
{
	struct table *t = *state;
	int loose = memfd_create("loose", MFD_CLOEXEC);
	int fd = t->gr->fd;

	assert_int_equal(ftruncate(loose, 8192), 0);
	/* Overlapping the RAM already there. */
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 0, 0x1000, 0x1000),
			 -EEXIST);
	/* Not page-aligned, empty, at or above SIM_BUS_BASE, wrapping. */
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 0, 1ull << 40, 100),
			 -EINVAL);
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 1, 1ull << 40, 4096),
			 -EINVAL);
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 0, 1ull << 40, 0),
			 -EINVAL);
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 0, SIM_BUS_BASE, 4096),
			 -EINVAL);
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 0,
					       SIM_BUS_BASE - 4096, 8192),
			 -EINVAL);
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 0,
					       UINT64_MAX - 4095, 4096),
			 -EINVAL);
	/* A file that could shrink, or is too small. */
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, loose, 0, 1ull << 40, 4096),
			 -EPERM);
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 64 * MIB - 4096,
					       1ull << 40, 8192),
			 -ERANGE);
	/* A good one, just below SIM_BUS_BASE. */
	assert_int_equal(sim_hostmem_map_fixed(&t->hm, fd, 4096,
					       SIM_BUS_BASE - 4096, 4096),
			 0);
	assert_int_equal(offset_at(t, SIM_BUS_BASE - 4096, 4), 4096);
	close(loose);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup_table, teardown_table)

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pc_lowmem_rule),
		cmocka_unit_test(test_parse_bytes),
		cmocka_unit_test(test_parse_layout),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_memfd_is_sealed_and_reachable_by_path),
		cmocka_unit_test(test_qemu_args),
		T(test_translation),
		T(test_no_client_owns_it),
		T(test_fixed_region_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
