// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: a bounded ioctl and mmap fuzzer for $TT_DEVICE. Several
 * processes each run a fixed number of iterations; each iteration calls
 * one command of the ABI (or an unknown number) with an argument that is
 * either random bytes, a valid argument with a few fields mutated (sizes,
 * flags, indices, addresses at their edges), or a bad pointer (NULL, a
 * kernel address, the edge of an inaccessible page), or maps and unmaps a
 * random offset. Files are reopened now and then, so that release paths
 * run with whatever state the fuzzing left. A periodic timer interrupts
 * blocking calls (LOCK_CTL's blocking acquire), so nothing waits for ever.
 *
 * It passes if every process finishes its iterations, none dies of a
 * signal, and the device still works afterwards. The kernel's side is
 * watched by the debug guest (KASAN, lockdep, kmemleak, UBSAN: any report
 * fails the run, tests/vm/README.md). The seed is fixed, so a failure
 * repeats; TT_FUZZ_SEED and TT_FUZZ_ITERATIONS change it.
 *
 * Chip resets through the firmware (ASIC_RESET, ASIC_DMC_RESET) are left
 * out: each takes the model a second, and model_reset.c tests them.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <sys/time.h>

#include <kselftest_harness.h>

#define PROCS 4
#define DEFAULT_ITERATIONS 3000
#define ARG_BYTES 256

static const unsigned long commands[] = {
	TENSTORRENT_IOCTL_GET_DEVICE_INFO,   TENSTORRENT_IOCTL_GET_HARVESTING,
	TENSTORRENT_IOCTL_QUERY_MAPPINGS,    TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF,
	TENSTORRENT_IOCTL_FREE_DMA_BUF,	     TENSTORRENT_IOCTL_GET_DRIVER_INFO,
	TENSTORRENT_IOCTL_RESET_DEVICE,	     TENSTORRENT_IOCTL_PIN_PAGES,
	TENSTORRENT_IOCTL_LOCK_CTL,	     TENSTORRENT_IOCTL_MAP_PEER_BAR,
	TENSTORRENT_IOCTL_UNPIN_PAGES,	     TENSTORRENT_IOCTL_ALLOCATE_TLB,
	TENSTORRENT_IOCTL_FREE_TLB,	     TENSTORRENT_IOCTL_CONFIGURE_TLB,
	TENSTORRENT_IOCTL_SET_NOC_CLEANUP,   TENSTORRENT_IOCTL_SET_POWER_STATE,
	TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF, TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT,
	TENSTORRENT_IOCTL_DMA_QUEUE_WAIT,    TENSTORRENT_IOCTL_DMA_QUEUE_QUERY,
};

/* xorshift64*: small, fixed, the same everywhere. */
static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* A value that finds edges: 0, 1, powers of two and their neighbours. */
static uint64_t edgy(void)
{
	uint64_t p = 1ULL << below(64);

	switch (below(6)) {
	case 0:
		return 0;
	case 1:
		return p;
	case 2:
		return p - 1;
	case 3:
		return p + 1;
	case 4:
		return -p;
	default:
		return rnd();
	}
}

static unsigned char *scratch; /* memory PIN_PAGES may be pointed at */
#define SCRATCH_PAGES 16

/* A plausible argument for `cmd`: mostly right, so it gets past checks. */
static void valid_arg(unsigned long cmd, unsigned char *a)
{
	memset(a, 0, ARG_BYTES);
	switch (cmd) {
	case TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF: {
		struct tenstorrent_allocate_dma_buf_in *in = (void *)a;

		in->requested_size = PAGE << below(4);
		in->buf_index = below(8);
		in->flags = below(2) ? TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA : 0;
		break;
	}
	case TENSTORRENT_IOCTL_RESET_DEVICE: {
		/* No firmware resets: restore, user reset, post reset. */
		static const uint32_t safe[] = { 0, 1, 2, 3, 6, 6 };
		struct tenstorrent_reset_device_in *in = (void *)a;

		in->output_size_bytes = 8;
		in->flags = safe[below(6)];
		break;
	}
	case TENSTORRENT_IOCTL_PIN_PAGES: {
		struct tenstorrent_pin_pages_in *in = (void *)a;

		in->output_size_bytes = 16;
		in->flags = below(8);
		in->virtual_address =
			(uintptr_t)scratch + PAGE * below(SCRATCH_PAGES);
		in->size = PAGE * (1 + below(2));
		break;
	}
	case TENSTORRENT_IOCTL_UNPIN_PAGES: {
		struct tenstorrent_unpin_pages_in *in = (void *)a;

		in->virtual_address =
			(uintptr_t)scratch + PAGE * below(SCRATCH_PAGES);
		in->size = PAGE * (1 + below(2));
		break;
	}
	case TENSTORRENT_IOCTL_LOCK_CTL: {
		struct tenstorrent_lock_ctl_in *in = (void *)a;

		in->output_size_bytes = 4;
		in->flags = below(4);
		in->index = below(8);
		break;
	}
	case TENSTORRENT_IOCTL_ALLOCATE_TLB:
		*(uint64_t *)a = (1ULL << 20) << below(5);
		break;
	case TENSTORRENT_IOCTL_FREE_TLB:
		*(uint32_t *)a = below(200);
		break;
	case TENSTORRENT_IOCTL_CONFIGURE_TLB: {
		struct tenstorrent_configure_tlb_in *in = (void *)a;

		in->id = below(200);
		in->config.addr = (1ULL << 20) * below(8);
		in->config.x_end = below(12);
		in->config.y_end = below(12);
		in->config.noc = below(2);
		break;
	}
	case TENSTORRENT_IOCTL_SET_NOC_CLEANUP: {
		struct tenstorrent_set_noc_cleanup *c = (void *)a;

		c->argsz = sizeof(*c);
		c->enabled = below(2);
		c->x = below(12);
		c->y = below(12);
		c->addr = 0; /* choose_arg() places it */
		c->data = rnd();
		break;
	}
	case TENSTORRENT_IOCTL_SET_POWER_STATE: {
		struct tenstorrent_power_state *p = (void *)a;

		p->argsz = sizeof(*p);
		p->validity = TT_POWER_VALIDITY(below(16), below(15));
		p->power_flags = rnd();
		break;
	}
	case TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF: {
		struct tenstorrent_export_tlb_dmabuf *e = (void *)a;

		e->argsz = sizeof(*e);
		e->tlb_id = below(200);
		e->size = PAGE;
		break;
	}
	default: /* output_size_bytes first, or a count */
		*(uint32_t *)a = below(2) ? 64 : below(8);
		break;
	}
}

/* Change a few fields: a byte, a 32-bit or a 64-bit word to an edge. */
static void mutate(unsigned char *a)
{
	for (int n = 1 + below(3); n; n--) {
		size_t at = below(64) & ~3u;
		uint64_t v = edgy();

		switch (below(3)) {
		case 0:
			a[below(64)] = (unsigned char)v;
			break;
		case 1:
			memcpy(a + at, &v, 4);
			break;
		default:
			memcpy(a + (at & ~7u), &v, 8);
			break;
		}
	}
}

static void on_tick(int sig)
{
	(void)sig;
}

/* The argument to pass: in `page`, at its end, or a bad pointer. */
static void *choose_arg(unsigned long cmd, unsigned char *page)
{
	unsigned char a[ARG_BYTES];
	size_t len;

	switch (below(10)) {
	case 0:
		return NULL;
	case 1:
		return (void *)0xffff888000000000UL;
	case 2:
		for (size_t i = 0; i < sizeof(a); i++)
			a[i] = (unsigned char)rnd();
		break;
	default:
		valid_arg(cmd, a);
		if (below(3))
			mutate(a);
		break;
	}
	/* A cleanup write that passes lands at close: keep it near the top
	 * of the first MiB of L1, clear of the cores' firmware on the live
	 * model (as model_dma.c's buffers are). */
	if (cmd == TENSTORRENT_IOCTL_SET_NOC_CLEANUP) {
		struct tenstorrent_set_noc_cleanup c;

		memcpy(&c, a, sizeof(c));
		c.addr = 0xFFF00 | (c.addr & 0xFC);
		memcpy(a, &c, sizeof(c));
	}
	/* Sometimes right before the inaccessible page, cut short. */
	len = below(4) ? ARG_BYTES : 8 * below(ARG_BYTES / 8);
	memcpy(page + PAGE - len, a, len);
	return page + PAGE - len;
}

static void fuzz_mmap(int fd)
{
	static const uint64_t bases[] = {
		TENSTORRENT_MMAP_BAR2_UC, TENSTORRENT_MMAP_BAR2_WC,
		TENSTORRENT_MMAP_TLB_UC,  TENSTORRENT_MMAP_TLB_WC,
		TENSTORRENT_MMAP_DMA_BUF(PAGE, 0), 0,
	};
	uint64_t off = bases[below(6)] + PAGE * below(4096);
	size_t len = PAGE << below(9);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       below(8) ? MAP_SHARED : MAP_PRIVATE, fd, (off_t)off);

	if (p == MAP_FAILED)
		return;
	if (below(2))
		peek32(p);
	munmap(p, below(4) ? len : PAGE);
	if (len > PAGE)
		munmap(p, len);
}

/*
 * A dma-buf that EXPORT_TLB_DMABUF gave: touch it through a mapping now and
 * then, and keep the last few open (they hold windows and block resets),
 * closing the oldest.
 */
static void keep_export(int buf)
{
	static int kept[4] = { -1, -1, -1, -1 };
	static unsigned int next;
	void *p;

	if (below(2)) {
		p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, buf, 0);
		if (p != MAP_FAILED) {
			peek32(p);
			munmap(p, PAGE);
		}
	}
	if (kept[next] >= 0)
		close(kept[next]);
	kept[next] = buf;
	next = (next + 1) % 4;
}

/* One process's share: 0, or the number of the step that went wrong. */
static int fuzz(int proc, long iterations)
{
	struct sigaction sa = { .sa_handler = on_tick };
	struct itimerval t = { { 0, 50000 }, { 0, 50000 } };
	unsigned char *page;
	int fd = -1;

	page = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	scratch = mmap(NULL, SCRATCH_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (page == MAP_FAILED || scratch == MAP_FAILED ||
	    mprotect(page + PAGE, PAGE, PROT_NONE))
		return 1;
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &t, NULL))
		return 2;
	rng ^= 0x9E3779B97F4A7C15ULL * (proc + 1);
	for (long i = 0; i < iterations; i++) {
		if (fd < 0 || !below(200)) {
			if (fd >= 0)
				close(fd);
			fd = open_dev(tt_device(), below(4) ? 0 : O_APPEND);
			if (fd < 0)
				return 3;
		}
		if (!below(20)) {
			fuzz_mmap(fd);
			continue;
		}
		unsigned long cmd = below(16) ? commands[below(20)] :
						(unsigned long)rnd();
		void *arg = choose_arg(cmd, page);

		if (!ioctl(fd, cmd, arg) &&
		    cmd == TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF)
			keep_export(((struct tenstorrent_export_tlb_dmabuf *)arg)
					    ->fd);
	}
	close(fd);
	return 0;
}

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 0) : dflt;
}

FIXTURE(fuzz) {};
FIXTURE_SETUP(fuzz) {}
FIXTURE_TEARDOWN(fuzz) {}

/* Minutes under KASAN and TCG on busy cores: the harness's 30 s is short. */
TEST_F_TIMEOUT(fuzz, bounded_fuzz_leaves_a_working_device, 150)
{
	long iterations = env_long("TT_FUZZ_ITERATIONS", DEFAULT_ITERATIONS);
	struct tenstorrent_reset_device post = {
		.in.output_size_bytes = 8,
		.in.flags = TENSTORRENT_RESET_DEVICE_POST_RESET,
	};
	struct tenstorrent_get_device_info_out o;
	pid_t pid[PROCS];
	int fd;

	rng = (uint64_t)env_long("TT_FUZZ_SEED", 0x5EED) | 1;
	TH_LOG("%d processes x %ld iterations, seed %#llx", PROCS, iterations,
	       (unsigned long long)rng);
	for (int p = 0; p < PROCS; p++) {
		pid[p] = spawn_keep(-1);
		if (!pid[p])
			_exit(fuzz(p, iterations));
	}
	for (int p = 0; p < PROCS; p++) {
		int status = wait_child(pid[p], 140000);

		EXPECT_EQ(0, status) TH_LOG("process %d: %s", p,
					    status < 0 ? "did not finish" :
					    status == 128 ? "killed by a signal" :
							   "setup failed");
		if (status < 0)
			reap(pid[p]);
	}
	/* A fuzzer's USER_RESET may still wait for its POST_RESET. */
	ASSERT_OPEN_DEVICE(fd, O_APPEND);
	EXPECT_EQ(0, get_device_info(fd, &o));
	ioctl(fd, TENSTORRENT_IOCTL_RESET_DEVICE, &post);
	close(fd);
	ASSERT_OPEN_DEVICE(fd, 0);
	EXPECT_EQ(0, get_device_info(fd, &o));
	{
		struct {
			struct tenstorrent_query_mappings q;
			struct tenstorrent_mapping m[6];
		} a = { .q.in.output_mapping_count = 6 };

		EXPECT_EQ(0, ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, &a));
	}
	close(fd);
}

TEST_HARNESS_MAIN
