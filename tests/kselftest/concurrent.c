// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: several processes using $TT_DEVICE at once. KIDS forked
 * processes run ROUNDS rounds each of opens and closes with the identity
 * commands, TLB windows allocated, pointed and freed (no window id is held
 * by two processes at once: a shared anonymous mapping records the owner
 * of each), LOCK_CTL around a read-modify-write of a shared counter that
 * is not atomic (the total comes out exact only under mutual exclusion),
 * DMA buffers allocated, mapped and freed at close, and all of it mixed.
 * Every process must finish within DEADLINE_MS without an unexpected
 * errno, and the device must then be idle: every lock free, as many
 * windows and ATU regions free as before, no file but the test's open.
 *
 * The counts are small: the debug guest (KASAN, TCG) is several times
 * slower, and each test must stay well inside the harness's 30 s.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <sched.h>
#include <stdarg.h>

#include <kselftest_harness.h>

#define KIDS 4
#define ROUNDS 12
#define DEADLINE_MS 20000
#define NOC TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA

/* The lock of the counter test, and those the mixed test takes. */
#define COUNTER_LOCK 33
#define MIXED_LOCK0 40
#define MIXED_LOCKS 4

/* Shared by the test and its processes (MAP_SHARED | MAP_ANONYMOUS). */
struct shared {
	int32_t tlb_owner[TENSTORRENT_MAX_INBOUND_TLBS]; /* pid, or 0 */
	int32_t lock_owner[TENSTORRENT_RESOURCE_LOCK_COUNT]; /* pid, or 0 */
	uint64_t counter; /* under COUNTER_LOCK, deliberately not atomic */
	int32_t failed;
	char why[256]; /* the first failure */
};

FIXTURE(concurrent) {
	int fd; /* open throughout: the power request stays the same */
	struct shared *sh;
	pid_t kid[KIDS];
	struct tenstorrent_get_device_info_out info;
	uint64_t bar2_size;
	struct tt_node_desc tensix;
	uint64_t tlb_size; /* the smallest window size */
	int tlb_free; /* windows of that size free at the start */
	int noc_free; /* ATU regions free at the start, -1 without an ATU */
	char pids[PATH_MAX + 32]; /* /proc/driver/tenstorrent/N/pids */
};

/* --- what the processes do ---------------------------------------------- */

/* A process's own pid (getpid() is a system call each time). */
static pid_t me;

/* Record the first failure and end the process. */
static void __attribute__((noreturn, format(printf, 2, 3)))
kid_fail(struct shared *sh, const char *fmt, ...)
{
	va_list ap;

	if (!__atomic_exchange_n(&sh->failed, 1, __ATOMIC_SEQ_CST)) {
		va_start(ap, fmt);
		vsnprintf(sh->why, sizeof(sh->why), fmt, ap);
		va_end(ap);
	}
	_exit(1);
}

static int query_bar2(int fd, uint64_t *size)
{
	struct {
		struct tenstorrent_query_mappings q;
		struct tenstorrent_mapping m[6];
	} a = { .q.in.output_mapping_count = 6 };

	if (ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, &a))
		return -errno;
	*size = 0;
	for (int i = 0; i < 6; i++)
		if (a.m[i].mapping_id == TENSTORRENT_MAPPING_RESOURCE1_UC)
			*size = a.m[i].mapping_size;
	return 0;
}

static int open_or_fail(struct shared *sh, int flags)
{
	int fd = open_dev(tt_device(), flags);

	if (fd < 0)
		kid_fail(sh, "open: %s", err_name(-fd));
	return fd;
}

/* GET_DEVICE_INFO and QUERY_MAPPINGS say what they said to the test. */
static void identity(FIXTURE_DATA(concurrent) * self, int fd)
{
	struct tenstorrent_get_device_info_out o;
	uint64_t size;
	int ret;

	ret = get_device_info(fd, &o);
	if (ret)
		kid_fail(self->sh, "GET_DEVICE_INFO: %s", err_name(-ret));
	if (memcmp(&o, &self->info, sizeof(o)))
		kid_fail(self->sh, "GET_DEVICE_INFO differs");
	ret = query_bar2(fd, &size);
	if (ret)
		kid_fail(self->sh, "QUERY_MAPPINGS: %s", err_name(-ret));
	if (size != self->bar2_size)
		kid_fail(self->sh, "QUERY_MAPPINGS: BAR2 of %llu bytes, not %llu",
			 (unsigned long long)size,
			 (unsigned long long)self->bar2_size);
}

static int alloc_tlb(int fd, uint64_t size,
		     struct tenstorrent_allocate_tlb_out *out)
{
	struct tenstorrent_allocate_tlb a = { .in.size = size };

	if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_TLB, &a))
		return -errno;
	*out = a.out;
	return 0;
}

/* A window of the smallest size, recorded as ours, pointed at a Tensix. */
static uint32_t take_window(FIXTURE_DATA(concurrent) * self, int fd,
			    uint64_t *offset)
{
	struct tenstorrent_allocate_tlb_out t = { 0 };
	int32_t none = 0;
	int ret;

	ret = alloc_tlb(fd, self->tlb_size, &t);
	if (ret)
		kid_fail(self->sh, "ALLOCATE_TLB: %s", err_name(-ret));
	if (t.id >= TENSTORRENT_MAX_INBOUND_TLBS)
		kid_fail(self->sh, "ALLOCATE_TLB: id %u", t.id);
	if (!__atomic_compare_exchange_n(&self->sh->tlb_owner[t.id], &none,
					 me, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		kid_fail(self->sh, "window %u given to %d while %d holds it",
			 t.id, (int)me, (int)none);
	ret = tlb_point(fd, t.id, self->tensix.x, self->tensix.y,
			self->tensix.mem_base & ~(self->tlb_size - 1));
	if (ret)
		kid_fail(self->sh, "CONFIGURE_TLB %u: %s", t.id, err_name(-ret));
	if (offset)
		*offset = t.mmap_offset_uc;
	return t.id;
}

/* Forget the record first: once freed, the id may go to anyone. */
static void give_window(FIXTURE_DATA(concurrent) * self, int fd, uint32_t id)
{
	int ret;

	__atomic_store_n(&self->sh->tlb_owner[id], 0, __ATOMIC_SEQ_CST);
	ret = tlb_free(fd, id);
	if (ret)
		kid_fail(self->sh, "FREE_TLB %u: %s", id, err_name(-ret));
}

/* A read of the window's first word of Tensix memory works. */
static void read_window(FIXTURE_DATA(concurrent) * self, int fd,
			uint64_t offset)
{
	uint64_t in = self->tensix.mem_base & (self->tlb_size - 1);
	int err;
	void *p = map(fd, offset, self->tlb_size, MAP_SHARED, &err);

	if (!p)
		kid_fail(self->sh, "mmap of a window: %s", err_name(err));
	if (peek32((uint8_t *)p + in) < 0)
		kid_fail(self->sh, "a read through a window faulted");
	if (munmap(p, self->tlb_size))
		kid_fail(self->sh, "munmap of a window: %s", err_name(errno));
}

static void lock_enter(FIXTURE_DATA(concurrent) * self, unsigned int i)
{
	int32_t none = 0;

	if (!__atomic_compare_exchange_n(&self->sh->lock_owner[i], &none,
					 me, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		kid_fail(self->sh, "lock %u acquired by %d while %d holds it",
			 i, (int)me, (int)none);
}

static void lock_leave(FIXTURE_DATA(concurrent) * self, int fd,
		       unsigned int i)
{
	int v;

	__atomic_store_n(&self->sh->lock_owner[i], 0, __ATOMIC_SEQ_CST);
	v = lock_ctl(fd, TENSTORRENT_LOCK_CTL_RELEASE, i);
	if (v != 1)
		kid_fail(self->sh, "RELEASE of lock %u: %d (%s)", i, v,
			 err_name(v < 0 ? -v : 0));
}

/* A DMA buffer of a page at `index`, mapped, written and read back. */
static void use_dma_buf(FIXTURE_DATA(concurrent) * self, int fd,
			uint8_t index, bool noc)
{
	struct tenstorrent_allocate_dma_buf a = {
		.in = { .requested_size = PAGE, .buf_index = index,
			.flags = noc ? NOC : 0 },
	};
	volatile uint32_t *p;
	int err;

	if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a))
		kid_fail(self->sh, "ALLOCATE_DMA_BUF %u%s: %s", index,
			 noc ? " (NOC_DMA)" : "", err_name(errno));
	if (noc && !a.out.noc_address)
		kid_fail(self->sh, "ALLOCATE_DMA_BUF %u: no NOC address", index);
	p = map(fd, a.out.mapping_offset, PAGE, MAP_SHARED, &err);
	if (!p)
		kid_fail(self->sh, "mmap of DMA buffer %u: %s", index,
			 err_name(err));
	for (unsigned int i = 0; i < PAGE / 4; i++)
		p[i] = (uint32_t)me ^ i;
	for (unsigned int i = 0; i < PAGE / 4; i++)
		if (p[i] != ((uint32_t)me ^ i))
			kid_fail(self->sh, "DMA buffer %u: word %u changed",
				 index, i);
	munmap((void *)p, PAGE);
}

/* --- the test's side ------------------------------------------------------ */

/* Windows of `size` that one file can allocate now. */
static int free_windows(uint64_t size)
{
	struct tenstorrent_allocate_tlb_out t;
	int fd = open_dev(tt_device(), O_APPEND), n = 0, ret;

	if (fd < 0)
		return fd;
	while (!(ret = alloc_tlb(fd, size, &t)))
		n++;
	close(fd);
	return ret == -ENOMEM ? n : ret;
}

/* ATU regions (NOC_DMA buffers of a page) one file can have now; -1 if
 * the device has no ATU (EOPNOTSUPP). */
static int free_noc_regions(void)
{
	int fd = open_dev(tt_device(), O_APPEND), n = 0, err = 0;

	if (fd < 0)
		return fd;
	for (; n < TENSTORRENT_MAX_DMA_BUFS; n++) {
		struct tenstorrent_allocate_dma_buf a = {
			.in = { .requested_size = PAGE, .buf_index = n,
				.flags = NOC },
		};

		if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a)) {
			err = errno;
			break;
		}
	}
	close(fd);
	if (err == EOPNOTSUPP && !n)
		return -1;
	return err == ENOMEM ? n : -err;
}

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;

	if (!f)
		return -errno;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

FIXTURE_SETUP(concurrent)
{
	struct tenstorrent_allocate_tlb_out t;
	char cls[PATH_MAX];
	int fd, ret;

	ASSERT_OPEN_DEVICE(self->fd, 0);
	self->sh = mmap(NULL, sizeof(*self->sh), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->sh);
	ASSERT_EQ(0, get_device_info(self->fd, &self->info));
	ASSERT_EQ(0, query_bar2(self->fd, &self->bar2_size));
	ret = first_tensix(self->fd, &self->tensix);
	ASSERT_EQ(0, ret) TH_LOG("no Tensix node: %s", err_name(-ret));

	fd = open_dev(tt_device(), O_APPEND);
	ASSERT_LE(0, fd);
	ret = tlb_alloc_smallest(fd, &t, &self->tlb_size);
	close(fd);
	ASSERT_EQ(0, ret) TH_LOG("ALLOCATE_TLB: %s", err_name(-ret));
	self->tlb_free = free_windows(self->tlb_size);
	ASSERT_LT(KIDS * 4, self->tlb_free)
	TH_LOG("%d windows free: %s", self->tlb_free,
	       err_name(self->tlb_free < 0 ? -self->tlb_free : 0));
	self->noc_free = free_noc_regions();
	ASSERT_LE(-1, self->noc_free)
	TH_LOG("NOC_DMA buffers: %s", err_name(-self->noc_free));

	ASSERT_EQ(0, sysfs_dir_of(tt_device(), false, cls));
	ASSERT_NE(NULL, strrchr(cls, '!'));
	snprintf(self->pids, sizeof(self->pids),
		 "/proc/driver/tenstorrent/%s/pids", strrchr(cls, '!') + 1);
}

FIXTURE_TEARDOWN(concurrent)
{
	for (int k = 0; k < KIDS; k++)
		if (self->kid[k] > 0)
			reap(self->kid[k]);
	if (self->sh && self->sh != MAP_FAILED)
		munmap(self->sh, sizeof(*self->sh));
	if (self->fd >= 0)
		close(self->fd);
}

typedef void (*kid_work)(FIXTURE_DATA(concurrent) * self, int k);

/* KIDS processes run `work` at once; all must end, with status 0, within
 * DEADLINE_MS of the start. */
static void run_kids(struct __test_metadata *_metadata,
		     FIXTURE_DATA(concurrent) * self, kid_work work)
{
	struct timespec t0, t;
	long left;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int k = 0; k < KIDS; k++) {
		self->kid[k] = spawn_keep(-1);
		if (!self->kid[k]) {
			me = getpid();
			work(self, k);
			_exit(0);
		}
		ASSERT_LT(0, self->kid[k]) TH_LOG("fork: %s", err_name(errno));
	}
	for (int k = 0; k < KIDS; k++) {
		int st;

		clock_gettime(CLOCK_MONOTONIC, &t);
		left = DEADLINE_MS - (t.tv_sec - t0.tv_sec) * 1000 -
		       (t.tv_nsec - t0.tv_nsec) / 1000000;
		st = wait_child(self->kid[k], left > 0 ? left : 0);
		if (st >= 0)
			self->kid[k] = 0;
		EXPECT_EQ(0, st)
		TH_LOG("process %d: %s", k,
		       st < 0 ? "still running at the deadline" :
		       st == 128 ? "killed by a signal" :
		       self->sh->why);
	}
}

/* Every lock free, every window and region back, only our file open. */
static void expect_idle(struct __test_metadata *_metadata,
			FIXTURE_DATA(concurrent) * self)
{
	for (unsigned int i = 0; i < TENSTORRENT_RESOURCE_LOCK_COUNT; i++) {
		EXPECT_EQ(0, lock_ctl(self->fd, TENSTORRENT_LOCK_CTL_TEST, i))
		TH_LOG("lock %u", i);
	}
	EXPECT_EQ(self->tlb_free, free_windows(self->tlb_size))
	TH_LOG("windows of %llu bytes free",
	       (unsigned long long)self->tlb_size);
	EXPECT_EQ(self->noc_free, free_noc_regions()) TH_LOG("ATU regions");
	EXPECT_EQ(1, count_lines(self->pids)) TH_LOG("open files in %s",
						     self->pids);
}

static void opens(FIXTURE_DATA(concurrent) * self, int k)
{
	for (int r = 0; r < ROUNDS; r++) {
		int fd = open_or_fail(self->sh, (k + r) % 2 ? O_APPEND : 0);

		identity(self, fd);
		if (close(fd))
			kid_fail(self->sh, "close: %s", err_name(errno));
	}
}

TEST_F(concurrent, opens_closes_and_identity_commands)
{
	run_kids(_metadata, self, opens);
	expect_idle(_metadata, self);
}

/* Up to three windows held at a time; every tenth round the file is closed
 * with its windows, which go back at close. */
static void windows(FIXTURE_DATA(concurrent) * self, int k)
{
	int fd = open_or_fail(self->sh, O_APPEND);
	uint32_t held[3];
	uint64_t offset;

	for (int r = 0; r < ROUNDS; r++) {
		int n = 1 + (k + r) % 3;

		for (int i = 0; i < n; i++)
			held[i] = take_window(self, fd, &offset);
		if (r % 4 == k % 4)
			read_window(self, fd, offset);
		if (r % 10 == 9) {
			for (int i = 0; i < n; i++)
				__atomic_store_n(&self->sh->tlb_owner[held[i]],
						 0, __ATOMIC_SEQ_CST);
			close(fd);
			fd = open_or_fail(self->sh, O_APPEND);
			continue;
		}
		for (int i = n - 1; i >= 0; i--)
			give_window(self, fd, held[i]);
	}
	close(fd);
}

TEST_F(concurrent, tlb_windows_have_one_owner_at_a_time)
{
	run_kids(_metadata, self, windows);
	expect_idle(_metadata, self);
}

/*
 * counter++ in two steps with a yield between, under COUNTER_LOCK taken
 * with ACQUIRE_BLOCKING in odd rounds and by retrying ACQUIRE in even ones.
 */
static void counting(FIXTURE_DATA(concurrent) * self, int k)
{
	int fd = open_or_fail(self->sh, O_APPEND);
	volatile uint64_t *counter = &self->sh->counter;

	(void)k;
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t v;
		int got;

		if (r % 2) {
			got = lock_ctl(fd, TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING,
				       COUNTER_LOCK);
		} else {
			while (!(got = lock_ctl(fd, TENSTORRENT_LOCK_CTL_ACQUIRE,
						COUNTER_LOCK)))
				sched_yield();
		}
		if (got != 1)
			kid_fail(self->sh, "ACQUIRE%s: %d (%s)",
				 r % 2 ? "_BLOCKING" : "", got,
				 err_name(got < 0 ? -got : 0));
		lock_enter(self, COUNTER_LOCK);
		v = *counter;
		sched_yield();
		*counter = v + 1;
		lock_leave(self, fd, COUNTER_LOCK);
	}
	close(fd);
}

TEST_F(concurrent, lock_gives_mutual_exclusion)
{
	run_kids(_metadata, self, counting);
	EXPECT_EQ((uint64_t)KIDS * ROUNDS, self->sh->counter)
	TH_LOG("increments lost: the lock did not exclude");
	expect_idle(_metadata, self);
}

/* A file with two buffers (one with an ATU region) per round, freed at
 * its close. */
static void buffers(FIXTURE_DATA(concurrent) * self, int k)
{
	for (int r = 0; r < ROUNDS / 2; r++) {
		int fd = open_or_fail(self->sh, O_APPEND);

		use_dma_buf(self, fd, (uint8_t)(k + r), self->noc_free > 0);
		use_dma_buf(self, fd, (uint8_t)(k + r + 1), false);
		if (close(fd))
			kid_fail(self->sh, "close: %s", err_name(errno));
	}
}

TEST_F(concurrent, dma_buffers_allocated_and_freed_at_close)
{
	ASSERT_LE(KIDS, self->noc_free < 0 ? KIDS : self->noc_free);
	run_kids(_metadata, self, buffers);
	expect_idle(_metadata, self);
}

/* All of it in an order of each process's own (a fixed seed per
 * process), with the file sometimes closed while it holds things. */
static void mixed(FIXTURE_DATA(concurrent) * self, int k)
{
	unsigned int seed = 0x5eed + k;
	int fd = open_or_fail(self->sh, k % 2 ? O_APPEND : 0);
	uint32_t held[4];
	uint64_t offsets[4];
	int nheld = 0, lock = -1, next_buf = 0;

	for (int r = 0; r < 3 * ROUNDS; r++) {
		switch (rand_r(&seed) % 7) {
		case 0: /* close with everything held, and reopen */
			while (nheld)
				__atomic_store_n(&self->sh->tlb_owner[held[--nheld]],
						 0, __ATOMIC_SEQ_CST);
			if (lock >= 0)
				__atomic_store_n(&self->sh->lock_owner[lock], 0,
						 __ATOMIC_SEQ_CST);
			lock = -1;
			next_buf = 0;
			close(fd);
			fd = open_or_fail(self->sh, k % 2 ? O_APPEND : 0);
			break;
		case 1:
			identity(self, fd);
			break;
		case 2:
			if (nheld < 4) {
				held[nheld] = take_window(self, fd,
							  &offsets[nheld]);
				nheld++;
			}
			break;
		case 3:
			if (nheld)
				give_window(self, fd, held[--nheld]);
			break;
		case 4:
			if (nheld)
				read_window(self, fd, offsets[nheld - 1]);
			break;
		case 5:
			if (lock >= 0) {
				lock_leave(self, fd, lock);
				lock = -1;
			} else {
				int i = MIXED_LOCK0 +
					rand_r(&seed) % MIXED_LOCKS;
				int v = lock_ctl(fd,
						 TENSTORRENT_LOCK_CTL_ACQUIRE, i);

				if (v < 0)
					kid_fail(self->sh, "ACQUIRE %d: %s", i,
						 err_name(-v));
				if (v == 1) {
					lock_enter(self, i);
					lock = i;
				}
			}
			break;
		case 6:
			if (next_buf < 4)
				use_dma_buf(self, fd, next_buf++, false);
			break;
		}
	}
	while (nheld)
		give_window(self, fd, held[--nheld]);
	if (lock >= 0)
		lock_leave(self, fd, lock);
	close(fd);
}

TEST_F(concurrent, mixed_load_leaves_the_device_idle)
{
	run_kids(_metadata, self, mixed);
	expect_idle(_metadata, self);
}

TEST_HARNESS_MAIN
