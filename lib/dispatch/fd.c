// SPDX-License-Identifier: Apache-2.0
/*
 * Fast dispatch, host side. One DMA buffer holds the issue ring and,
 * after it, the completion ring (records, then the dispatcher's count of
 * them). A DONE carries the issue count just after itself, so the latest
 * completion tells both which launches are finished and how much of the
 * ring is free again.
 */
#include "fd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dispatcher_src.h" /* generated from firmware/dispatch/ */
#include "lib/device/fw.h"
#include "hw/dispatch.h"
#include "lib/kbuild/kbuild.h"
#include "launch.h"
#include "runtime.h"
#include "tt/core.h"
#include "tt/dma.h"
#include "tt/hart.h"
#include "tt/noc.h"

/* Issue ring bytes: a power of two, at least two of the largest command.
 * TT_DISPATCH_RING_KIB overrides (tests make it small to wrap often). */
#define RING_DEFAULT (256u * 1024u)
#define RING_MIN (128u * 1024u)
#define RING_MAX (64u * 1024u * 1024u)
#define DONE_RECORDS 64u
#define DONE_BYTES (DONE_RECORDS * 8u + 4u)
/* Room always left for a DONE, so a full ring can be flushed. */
#define RESERVE (2u * TT_DISPATCH_ALIGN)
#define START_MS 2000
#define FLUSH_MS 10000

struct tt_fd {
	tt_dma_buf *buf;
	uint8_t *ring;
	volatile uint32_t *done; /* records, then the count */
	struct tt_xy core; /* the dispatch core */
	struct tt_kbinary *bin;
	uint32_t size; /* of the issue ring */
	uint32_t wp; /* issue bytes appended */
	uint32_t published; /* ... and told to the dispatcher */
	uint32_t launched; /* worker launches counted at the core */
	bool running;
};

/*
 * TT_DISPATCH=fast|slow; TT-Metal's TT_METAL_SLOW_DISPATCH_MODE=1 is
 * TT_DISPATCH=slow (0: fast). Both set and disagreeing is an error
 * naming both.
 */
int tt_fd_wanted(bool *fast)
{
	static const char *const modes[] = { "fast", "slow", NULL };
	static const char *const metal[] = { "0", "1", NULL };
	const char *own = getenv("TT_DISPATCH");
	unsigned mode, slow;
	int ret = tt_env_word("TT_DISPATCH", modes, 0, &mode);

	if (!ret)
		ret = tt_env_word("TT_METAL_SLOW_DISPATCH_MODE", metal, 2, &slow);
	if (ret)
		return ret;
	if (slow != 2 && own && *own && slow != mode)
		return tt_error(-EINVAL,
				"TT_DISPATCH='%s' and TT_METAL_SLOW_DISPATCH_MODE='%s' disagree: they name the same setting, set one",
				own, metal[slow]);
	*fast = slow == 2 ? mode == 0 : slow == 0;
	return 0;
}

/* TT_DISPATCH_RING_KIB: a power of two within RING_MIN..RING_MAX. */
static int ring_size(uint32_t *size)
{
	unsigned long kib;
	int ret = tt_env_uint("TT_DISPATCH_RING_KIB", RING_MIN / 1024,
			      RING_MAX / 1024, RING_DEFAULT / 1024, &kib);

	if (ret)
		return ret;
	if (kib & (kib - 1))
		return tt_error(-EINVAL,
				"TT_DISPATCH_RING_KIB='%s' is not a power of two in %u..%u",
				getenv("TT_DISPATCH_RING_KIB"), RING_MIN / 1024,
				RING_MAX / 1024);
	*size = (uint32_t)kib * 1024;
	return 0;
}

static struct tt_fd *fd_of(struct tt_device *dev)
{
	return dev->runtime->fd;
}

/* ---- completions ---- */

/* The issue count after the latest DONE carried out. */
static uint32_t consumed(const struct tt_fd *fd)
{
	uint32_t n = __atomic_load_n(&fd->done[2 * DONE_RECORDS],
				     __ATOMIC_ACQUIRE);

	if (!n)
		return 0;
	return __atomic_load_n(&fd->done[2 * ((n - 1) % DONE_RECORDS)],
			       __ATOMIC_ACQUIRE);
}

static bool reached(uint32_t now, uint32_t pos)
{
	return (int32_t)(now - pos) >= 0;
}

int tt_fd_check(struct tt_device *dev)
{
	struct tt_fd *fd = fd_of(dev);
	struct tt_hart_status st;

	if (tt_hart_status(dev, fd->core, TT_HART_BRISC, &st) ||
	    st.state != TT_HART_STATE_HALTED)
		return 0;
	fd->running = false;
	return tt_error(-EFAULT,
			"%s: the dispatcher on core (%u,%u) halted: %s at pc 0x%08x (address 0x%08x)",
			dev->name, fd->core.x, fd->core.y, st.fault_name,
			st.fault_pc, st.fault_addr);
}

int tt_fd_poll(struct tt_device *dev, uint32_t done_pos)
{
	return reached(consumed(fd_of(dev)), done_pos);
}

/* tt_fw_wait condition: the dispatcher completed up to *pos. Used only
 * when the ring is full or the dispatcher stops, so it may look at the
 * dispatcher's state every time. */
static int completed(struct tt_device *dev, void *pos)
{
	int ret = tt_fd_poll(dev, *(uint32_t *)pos);

	return ret ? ret : tt_fd_check(dev);
}

/* ---- the issue ring ---- */

static int publish(struct tt_device *dev, struct tt_fd *fd)
{
	int ret;

	if (fd->published == fd->wp)
		return 0;
	/* The commands are in host memory before the dispatcher hears of
	 * them. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	ret = tt_noc_write32(dev, 0, fd->core.x, fd->core.y, TT_DISPATCH_WP,
			     fd->wp);
	if (!ret)
		fd->published = fd->wp;
	return ret;
}

static void put(struct tt_fd *fd, const struct tt_dispatch_cmd *c,
		const void *payload)
{
	uint8_t *p = fd->ring + (fd->wp & (fd->size - 1));
	uint32_t pad = (c->len + TT_DISPATCH_ALIGN - 1) &
		       ~(TT_DISPATCH_ALIGN - 1);

	memcpy(p, c, sizeof(*c));
	if (c->len) {
		memcpy(p + sizeof(*c), payload, c->len);
		memset(p + sizeof(*c) + c->len, 0, pad - c->len);
	}
	fd->wp += sizeof(*c) + pad;
}

/* Have the dispatcher catch up with everything appended so far. */
static int flush(struct tt_device *dev, struct tt_fd *fd)
{
	struct tt_dispatch_cmd done = { .op = TT_DCMD_DONE };
	uint32_t pos;
	int ret;

	/* The DONE fits: RESERVE is kept free for it, and a 16-byte command
	 * never meets the ring's end. */
	done.tt_dispatch_cmd_value = fd->wp + sizeof(done);
	put(fd, &done, NULL);
	pos = fd->wp;
	ret = publish(dev, fd);
	if (!ret)
		ret = tt_fw_wait(dev, tt_fw_deadline(FLUSH_MS), completed, &pos);
	if (ret == 1)
		return 0;
	fd->running = false;
	if (ret == -ETIMEDOUT)
		return tt_error(-ETIMEDOUT,
				"%s: the dispatcher on core (%u,%u) took no commands for %d ms (a program before this one may be hung)",
				dev->name, fd->core.x, fd->core.y, FLUSH_MS);
	return ret;
}

static int make_room(struct tt_device *dev, struct tt_fd *fd, uint32_t need)
{
	if (fd->wp + need - consumed(fd) <= fd->size - RESERVE)
		return 0;
	return flush(dev, fd);
}

static int append(struct tt_device *dev, struct tt_fd *fd,
		  const struct tt_dispatch_cmd *c, const void *payload)
{
	uint32_t need = sizeof(*c) + ((c->len + TT_DISPATCH_ALIGN - 1) &
				      ~(TT_DISPATCH_ALIGN - 1));
	uint32_t to_end = fd->size - (fd->wp & (fd->size - 1));
	int ret;

	if (need > to_end) {
		struct tt_dispatch_cmd wrap = { .op = TT_DCMD_WRAP };

		ret = make_room(dev, fd, to_end);
		if (ret)
			return ret;
		put(fd, &wrap, NULL);
		fd->wp += to_end - sizeof(wrap);
	}
	ret = make_room(dev, fd, need);
	if (!ret)
		put(fd, c, payload);
	return ret;
}

int tt_fd_write(void *ctx, struct tt_xy a, struct tt_xy b, uint32_t addr,
		const void *data, uint32_t len)
{
	struct tt_device *dev = ctx;
	struct tt_fd *fd = fd_of(dev);
	const uint32_t chunk = TT_DISPATCH_MAX_CMD - sizeof(struct tt_dispatch_cmd);
	const uint8_t *p = data;

	for (uint32_t off = 0; off < len;) {
		uint32_t n = len - off < chunk ? len - off : chunk;
		struct tt_dispatch_cmd c = {
			.op = TT_DCMD_WRITE,
			.x0 = (uint8_t)a.x, .y0 = (uint8_t)a.y,
			.x1 = (uint8_t)b.x, .y1 = (uint8_t)b.y,
			.addr = addr + off,
			.len = n,
		};
		int ret = append(dev, fd, &c, p + off);

		if (ret)
			return ret;
		off += n;
	}
	return 0;
}

/* A DONE or EXIT: its value is the issue count just after it. A 16-byte
 * command always fits before the ring's end (everything is 16-aligned). */
static int append_mark(struct tt_device *dev, struct tt_fd *fd,
		       enum tt_dispatch_op op)
{
	struct tt_dispatch_cmd c = { .op = (uint8_t)op };
	int ret = make_room(dev, fd, sizeof(c));

	if (ret)
		return ret;
	c.tt_dispatch_cmd_value = fd->wp + sizeof(c);
	put(fd, &c, NULL);
	return 0;
}

int tt_fd_finish_launch(struct tt_device *dev, unsigned counts,
			uint32_t *done_pos)
{
	struct tt_fd *fd = fd_of(dev);
	struct tt_dispatch_cmd wait = { .op = TT_DCMD_WAIT };
	int ret;

	fd->launched += counts;
	wait.tt_dispatch_cmd_value = fd->launched;
	ret = append(dev, fd, &wait, NULL);
	if (!ret)
		ret = append_mark(dev, fd, TT_DCMD_DONE);
	if (!ret)
		ret = publish(dev, fd);
	if (ret)
		fd->running = false;
	else
		*done_pos = fd->wp;
	return ret;
}

void tt_fd_notify_target(struct tt_device *dev, struct tt_xy *core,
			 uint32_t *addr)
{
	*core = fd_of(dev)->core;
	*addr = TT_DISPATCH_COUNTER;
}

/* ---- starting and stopping ---- */

static const struct tt_kbuild_opts dispatcher_build = {
	.proc = TT_KPROC_BRISC,
	.source = tt_dispatcher_source,
	.name = "dispatcher",
};

int tt_fd_build_dispatcher(void)
{
	struct tt_kbinary *bin;
	int ret = tt_kbuild(&dispatcher_build, &bin);

	if (ret)
		return tt_error(ret, "building the dispatcher: %s",
				tt_last_error());
	tt_kbinary_put(bin);
	return 0;
}

static int build_dispatcher(struct tt_device *dev, struct tt_fd *fd)
{
	int ret;

	if (fd->bin)
		return 0;
	ret = tt_kbuild(&dispatcher_build, &fd->bin);
	if (ret)
		return tt_error(ret, "%s: building the dispatcher: %s",
				dev->name, tt_last_error());
	return 0;
}

static int alloc_rings(struct tt_device *dev, struct tt_fd *fd)
{
	int ret;

	if (fd->buf)
		return 0;
	ret = ring_size(&fd->size);
	if (ret)
		return ret;
	ret = tt_dma_buf_alloc(dev, fd->size + DONE_BYTES, &fd->buf);
	if (ret)
		return tt_error(ret, "%s: the fast-dispatch rings: %s",
				dev->name, tt_last_error());
	fd->ring = tt_dma_buf_data(fd->buf);
	fd->done = (volatile uint32_t *)(fd->ring + fd->size);
	return 0;
}

/* A dispatcher left running (by a process that ended without stopping
 * it, or one we gave up on) holds the core: restart its firmware. */
static int free_core(struct tt_device *dev, struct tt_fd *fd)
{
	struct tt_fw_launch_state st;
	int ret = tt_fw_read_launch_state(dev, fd->core, TT_HART_BRISC, &st);

	if (ret)
		return ret;
	if (tt_fw_hart_idle(&st))
		return 0;
	return tt_hart_restart_firmware(dev, fd->core, TT_HART_BRISC);
}

static int start(struct tt_device *dev, struct tt_runtime *rt,
		 struct tt_fd *fd)
{
	struct tt_xy pcie = tt_dma_buf_noc_xy(fd->buf);
	uint64_t ring = tt_dma_buf_noc_addr(fd->buf);
	uint64_t done = ring + fd->size;
	uint32_t args[TT_DARG_COUNT] = {
		[TT_DARG_PCIE_XY] = pcie.x | pcie.y << 8,
		[TT_DARG_RING_LO] = (uint32_t)ring,
		[TT_DARG_RING_HI] = (uint32_t)(ring >> 32),
		[TT_DARG_RING_SIZE] = fd->size,
		[TT_DARG_DONE_LO] = (uint32_t)done,
		[TT_DARG_DONE_HI] = (uint32_t)(done >> 32),
		[TT_DARG_DONE_RECORDS] = DONE_RECORDS,
		[TT_DARG_START] = 0,
	};
	struct tt_launch_core c = { .noc = fd->core };
	struct tt_launch l = { .cores = &c, .ncores = 1 };
	int ret = free_core(dev, fd);

	memset(fd->ring, 0, fd->size + DONE_BYTES);
	fd->wp = fd->published = fd->launched = 0;
	c.hart[TT_HART_BRISC] = (struct tt_launch_hart){
		.bin = fd->bin, .name = "dispatcher", .rta = args,
		.rta_count = TT_DARG_COUNT,
	};
	if (!ret)
		ret = tt_noc_write32(dev, 0, fd->core.x, fd->core.y,
				     TT_DISPATCH_WP, 0);
	if (!ret)
		ret = tt_noc_write32(dev, 0, fd->core.x, fd->core.y,
				     TT_DISPATCH_COUNTER, 0);
	if (!ret)
		ret = tt_launch_start_locked(dev, rt, &l, false);
	fd->running = !ret;
	return ret;
}

int tt_fd_ready(struct tt_device *dev, struct tt_runtime *rt)
{
	struct tt_fd *fd = rt->fd;
	int ret;

	if (!fd) {
		fd = calloc(1, sizeof(*fd));
		if (!fd)
			return tt_error(-ENOMEM,
					"%s: out of memory for fast dispatch",
					dev->name);
		rt->fd = fd;
	}
	if (fd->running)
		return 0;
	ret = tt_device_dispatch_core(dev, &fd->core);
	if (!ret)
		ret = build_dispatcher(dev, fd);
	if (!ret)
		ret = alloc_rings(dev, fd);
	if (!ret)
		ret = start(dev, rt, fd);
	return ret;
}

void tt_fd_abandon(struct tt_device *dev)
{
	if (dev->runtime && dev->runtime->fd)
		dev->runtime->fd->running = false;
}

static void stop(struct tt_device *dev, struct tt_fd *fd)
{
	uint32_t pos;

	if (!append_mark(dev, fd, TT_DCMD_EXIT) && !publish(dev, fd)) {
		pos = fd->wp;
		tt_fw_wait(dev, tt_fw_deadline(START_MS), completed, &pos);
	}
	fd->running = false;
}

void tt_fd_destroy(struct tt_device *dev)
{
	struct tt_fd *fd = dev->runtime ? dev->runtime->fd : NULL;

	if (!fd)
		return;
	if (fd->running && dev->reset_gen == dev->runtime->reset_gen)
		stop(dev, fd);
	/* A dispatcher that did not stop must not write into freed memory:
	 * restart its core's firmware before the rings go. */
	if (fd->buf && (fd->running || !reached(consumed(fd), fd->wp)))
		tt_hart_restart_firmware(dev, fd->core, TT_HART_BRISC);
	tt_dma_buf_free(fd->buf);
	if (fd->bin)
		tt_kbinary_put(fd->bin);
	free(fd);
	dev->runtime->fd = NULL;
}
