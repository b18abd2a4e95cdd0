// SPDX-License-Identifier: Apache-2.0
/*
 * Harts: status from the hart control page, kernels loaded from ELF files
 * into L1, launches through the core firmware's mailboxes (hw/l1.h), and
 * the raw bring-up path that bypasses the firmware.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/dev_err.h"
#include "common/elfload.h"
#include "fw.h"
#include "hw/hart.h"
#include "hw/l1.h"
#include "hw/tile.h"
#include "tt/hart.h"

_Static_assert(TT_HART_KERNEL_BASE == TT_L1_UNRESERVED, "kernel area");
_Static_assert(TT_HART_TENSIX == TT_TENSIX_HARTS, "Tensix harts");
_Static_assert(TT_HART_TENSIX * 4 * TT_HART_ARGS_MAX <= TT_HART_ARGS_BYTES,
	       "argument areas fit");
_Static_assert(TT_HART_STATE_RESET == (int)TT_HART_IN_RESET &&
		       TT_HART_STATE_RUNNING == (int)TT_HART_RUNNING &&
		       TT_HART_STATE_WAITING == (int)TT_HART_WAITING &&
		       TT_HART_STATE_HALTED == (int)TT_HART_HALTED,
	       "hart states");

#define ELF_FILE_MAX (64u << 20)
/* How long a launch waits for the core firmware to finish booting. */
#define LAUNCH_BOOT_WAIT_MS 2000
/* How long a hart may take to stop once its reset line is asserted. */
#define RESET_WAIT_MS 1000

/* Launch checks and writes, and soft-reset read-modify-writes, must not
 * interleave between threads. */
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t soft_reset_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const state_names[] = {
	[TT_HART_IN_RESET] = "in reset",
	[TT_HART_RUNNING] = "running",
	[TT_HART_WAITING] = "waiting",
	[TT_HART_HALTED] = "halted",
};

const char *tt_hart_fault_name(unsigned fault)
{
	return hart_fault_str(fault);
}

const char *tt_hart_name(unsigned hart)
{
	static const char *const names[] = { "BRISC", "NCRISC", "COMPUTE" };

	return hart < TT_TENSIX_HARTS ? names[hart] : "hart?";
}

/* ---- checks ---- */

static int check_hart(struct tt_device *dev, struct tt_xy core, unsigned hart,
		      bool tensix_only)
{
	enum tt_core_type t = tt_device_core_type(dev, core.x, core.y);
	unsigned harts;
	int ret;

	if (t == TT_CORE_ARC && !tensix_only) {
		harts = TT_ARC_HARTS;
	} else {
		ret = tt_fw_check_tensix(dev, core);
		if (ret)
			return ret;
		harts = TT_TENSIX_HARTS;
	}
	if (hart >= harts)
		return tt_error(-EINVAL,
				"%s: core %u-%u has no hart %u (%u harts)",
				dev->name, core.x, core.y, hart, harts);
	return 0;
}

/* End of the kernel area: the argument areas follow it. */
static uint32_t kernel_end(struct tt_device *dev)
{
	return (uint32_t)(dev->info.l1_size - TT_HART_ARGS_BYTES);
}

/* ---- status ---- */

static int read_status(struct tt_device *dev, struct tt_xy core,
		       unsigned hart, struct tt_hart_status *out)
{
	uint32_t r[TT_HART_WAIT_ADDR / 4 + 1];
	int ret = tt_noc_read(dev, 0, core.x, core.y,
			      TT_REG_HART_ADDR + TT_HART_REG(hart, 0), r,
			      sizeof(r));

	if (ret)
		return ret;
	if (r[TT_HART_STATE / 4] > TT_HART_HALTED)
		return tt_error(-EPROTO,
				"%s: hart %u of core %u-%u reports state %u",
				dev->name, hart, core.x, core.y,
				r[TT_HART_STATE / 4]);
	memset(out, 0, sizeof(*out));
	out->state = (enum tt_hart_run_state)r[TT_HART_STATE / 4];
	out->state_name = state_names[out->state];
	out->pc = r[TT_HART_PC / 4];
	out->fault = r[TT_HART_FAULT_CAUSE / 4];
	out->fault_name = tt_hart_fault_name(out->fault);
	out->fault_pc = r[TT_HART_FAULT_PC / 4];
	out->fault_addr = r[TT_HART_FAULT_ADDR / 4];
	out->instret = r[TT_HART_INSTRET_LO / 4] |
		       (uint64_t)r[TT_HART_INSTRET_HI / 4] << 32;
	return 0;
}

int tt_hart_status(tt_device *dev, struct tt_xy core, unsigned hart,
		   struct tt_hart_status *out)
{
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	ret = check_hart(dev, core, hart, false);
	return ret ? ret : read_status(dev, core, hart, out);
}

/* "halted: store access fault at pc 0x..., address 0x..." */
static int fault_error(struct tt_device *dev, struct tt_xy core,
		       unsigned hart, const struct tt_hart_status *s)
{
	char where[80];

	switch (s->fault) {
	case TT_HART_FAULT_ILLEGAL:
		snprintf(where, sizeof(where), "at pc 0x%08x (instruction 0x%08x)",
			 s->fault_pc, s->fault_addr);
		break;
	case TT_HART_FAULT_ECALL:
	case TT_HART_FAULT_EBREAK:
	case TT_HART_FAULT_RUNAWAY:
	case TT_HART_FAULT_FETCH_ALIGN:
	case TT_HART_FAULT_FETCH_ACCESS:
		snprintf(where, sizeof(where), "at pc 0x%08x", s->fault_pc);
		break;
	default:
		snprintf(where, sizeof(where), "at pc 0x%08x, address 0x%08x",
			 s->fault_pc, s->fault_addr);
		break;
	}
	return tt_error(-EFAULT, "%s: hart %u of core %u-%u halted: %s %s",
			dev->name, hart, core.x, core.y, s->fault_name, where);
}

/* ---- loading ---- */

static int write_zeros(struct tt_device *dev, struct tt_xy core,
		       uint64_t addr, uint32_t len)
{
	static const uint8_t zeros[4096];

	while (len) {
		uint32_t n = len < sizeof(zeros) ? len : sizeof(zeros);
		int ret = tt_noc_write(dev, 0, core.x, core.y, addr, zeros, n);

		if (ret)
			return ret;
		addr += n;
		len -= n;
	}
	return 0;
}

static int load_segments(struct tt_device *dev, struct tt_xy core,
			 const struct elf_image *img)
{
	for (unsigned i = 0; i < img->count; i++) {
		const struct elf_segment *s = &img->seg[i];
		int ret = 0;

		if (s->filesz)
			ret = tt_noc_write(dev, 0, core.x, core.y, s->vaddr,
					   s->file_data, s->filesz);
		if (!ret)
			ret = write_zeros(dev, core,
					  (uint64_t)s->vaddr + s->filesz,
					  s->memsz - s->filesz);
		if (ret)
			return ret;
	}
	return 0;
}

/* Parse the ELF and check it fits [lo, hi) of L1. */
static int parse_elf(struct tt_device *dev, struct tt_xy core, const void *elf,
		     size_t len, uint32_t lo, uint32_t hi,
		     struct elf_image *img)
{
	char err[192];
	int ret;

	if (!elf && len)
		return tt_error(-EINVAL, "%s: no ELF data", dev->name);
	ret = elf_load(elf, len, img, err, sizeof(err));
	if (!ret)
		ret = elf_check_fits(img, lo, hi, err, sizeof(err));
	if (ret)
		return tt_error(ret, "%s: cannot load ELF into core %u-%u: %s",
				dev->name, core.x, core.y, err);
	return 0;
}

int tt_hart_load_elf(tt_device *dev, struct tt_xy core, const void *elf,
		     size_t len, uint32_t *entry)
{
	struct elf_image img;
	int ret;

	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(elf, len))
		return -EINVAL;
	ret = tt_fw_check_tensix(dev, core);
	if (!ret) /* running code is the runtime owner's (docs/api.md) */
		ret = tt_device_own(dev);
	if (!ret)
		ret = parse_elf(dev, core, elf, len, TT_HART_KERNEL_BASE,
				kernel_end(dev), &img);
	if (!ret)
		ret = load_segments(dev, core, &img);
	if (!ret && entry)
		*entry = img.entry;
	return ret;
}

/* Read all of fd (len bytes) into buf. */
static int read_all(struct tt_device *dev, int fd, const char *path,
		    uint8_t *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tt_error(-errno, "%s: cannot read %s: %s",
					dev->name, path, strerror(errno));
		if (n == 0)
			return tt_error(-EIO, "%s: cannot read %s: file shrank",
					dev->name, path);
		got += (size_t)n;
	}
	return 0;
}

/* Read a whole file of at most ELF_FILE_MAX bytes into *buf (malloc). */
static int read_file(struct tt_device *dev, const char *path, uint8_t **buf,
		     size_t *len)
{
	struct stat st;
	int fd, ret;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tt_error(-errno, "%s: cannot open %s: %s", dev->name,
				path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > ELF_FILE_MAX) {
		close(fd);
		return tt_error(-EINVAL,
				"%s: %s is not a regular file of at most %u MiB",
				dev->name, path, ELF_FILE_MAX >> 20);
	}
	*len = (size_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	ret = *buf ? read_all(dev, fd, path, *buf, *len) :
		     tt_error(-ENOMEM, "%s: out of memory reading %s",
			      dev->name, path);
	close(fd);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

int tt_hart_load_elf_file(tt_device *dev, struct tt_xy core, const char *path,
			  uint32_t *entry)
{
	uint8_t *buf;
	size_t len;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(path);
	ret = read_file(dev, path, &buf, &len);
	if (ret)
		return ret;
	ret = tt_hart_load_elf(dev, core, buf, len, entry);
	free(buf);
	return ret;
}

/* ---- launches ---- */

struct hart_ctx {
	struct tt_xy core;
	unsigned hart;
	struct tt_fw_launch_state m;
	struct tt_hart_status st;
};

/* 1 if the hart's firmware is idle; 0 while it may still be booting. */
static int launchable(struct tt_device *dev, void *ctx)
{
	struct hart_ctx *h = ctx;
	int ret = tt_fw_read_launch_state(dev, h->core, h->hart, &h->m);

	if (!ret)
		ret = read_status(dev, h->core, h->hart, &h->st);
	if (ret)
		return ret;
	if (h->st.state == TT_HART_STATE_HALTED)
		return fault_error(dev, h->core, h->hart, &h->st);
	if (h->m.mb.fw_state != TT_FW_READY)
		return 0;
	if (h->st.state == TT_HART_STATE_RESET)
		return tt_error(-EBUSY, "%s: hart %u of core %u-%u is held in reset",
				dev->name, h->hart, h->core.x, h->core.y);
	if (h->m.mb.done.seq != h->m.seq)
		return tt_error(-EBUSY,
				"%s: hart %u of core %u-%u is still running launch %u (pc 0x%08x)",
				dev->name, h->hart, h->core.x, h->core.y,
				h->m.seq, h->st.pc);
	return 1;
}

static int check_launch_args(struct tt_device *dev, uint32_t entry,
			     const uint32_t *args, unsigned nargs)
{
	if (entry % 4 || entry < TT_HART_KERNEL_BASE ||
	    entry >= kernel_end(dev))
		return tt_error(-EINVAL,
				"%s: entry point 0x%08x is not in the kernel area [0x%x, 0x%x)",
				dev->name, entry, TT_HART_KERNEL_BASE,
				kernel_end(dev));
	if (nargs > TT_HART_ARGS_MAX || (nargs && !args))
		return tt_error(-EINVAL,
				"%s: %u kernel arguments (at most %u)",
				dev->name, nargs, TT_HART_ARGS_MAX);
	return 0;
}

/* Arguments first, then entry/args/nargs, then the launch word: the
 * firmware starts on its change, so everything else must already be
 * there. */
static int write_launch(struct tt_device *dev, struct hart_ctx *h,
			uint32_t entry, const uint32_t *args, unsigned nargs)
{
	uint64_t mb = TT_L1_MAILBOX_ADDR(h->hart);
	uint32_t at = tt_hart_args_addr(dev->info.l1_size, h->hart);
	uint32_t msg[3] = { entry, at, nargs };
	int ret = 0;

	if (nargs)
		ret = tt_noc_write(dev, 0, h->core.x, h->core.y, at, args,
				   nargs * sizeof(uint32_t));
	if (!ret)
		ret = tt_noc_write(dev, 0, h->core.x, h->core.y,
				   mb + offsetof(struct tt_mailbox, launch.entry),
				   msg, sizeof(msg));
	if (!ret)
		ret = tt_noc_write32(dev, 0, h->core.x, h->core.y,
				     TT_L1_LAUNCH_SEQ(h->hart),
				     h->m.mb.done.seq + 1);
	return ret;
}

int tt_hart_launch(tt_device *dev, struct tt_xy core, unsigned hart,
		   uint32_t entry, const uint32_t *args, unsigned nargs)
{
	struct hart_ctx h = { .core = core, .hart = hart };
	int ret;

	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(args, nargs))
		return -EINVAL;
	ret = check_hart(dev, core, hart, true);
	if (!ret)
		ret = check_launch_args(dev, entry, args, nargs);
	if (!ret)
		ret = tt_device_own(dev);
	if (!ret)
		ret = tt_fw_wait(dev, tt_fw_deadline(LAUNCH_BOOT_WAIT_MS),
				 launchable, &h);
	if (ret == -ETIMEDOUT)
		return tt_error(-EBUSY,
				"%s: core firmware on hart %u of core %u-%u is not ready (mailbox state 0x%08x, hart %s)",
				dev->name, hart, core.x, core.y, h.m.mb.fw_state,
				h.st.state_name ? h.st.state_name : "unknown");
	if (ret)
		return ret;
	pthread_mutex_lock(&launch_lock);
	/* Another thread may have launched since the check. */
	ret = launchable(dev, &h);
	if (ret == 1)
		ret = write_launch(dev, &h, entry, args, nargs);
	else if (ret == 0)
		ret = tt_error(-EBUSY,
			       "%s: core firmware on hart %u of core %u-%u stopped",
			       dev->name, hart, core.x, core.y);
	pthread_mutex_unlock(&launch_lock);
	return ret;
}

/* 1 once the last launch returned; errors if it never will. */
static int finished(struct tt_device *dev, void *ctx)
{
	struct hart_ctx *h = ctx;
	int ret = tt_fw_read_launch_state(dev, h->core, h->hart, &h->m);

	if (ret)
		return ret;
	if (tt_fw_hart_idle(&h->m))
		return 1;
	ret = read_status(dev, h->core, h->hart, &h->st);
	if (ret)
		return ret;
	if (h->st.state == TT_HART_STATE_HALTED)
		return fault_error(dev, h->core, h->hart, &h->st);
	if (h->st.state == TT_HART_STATE_RESET)
		return tt_error(-EIO, "%s: hart %u of core %u-%u is held in reset",
				dev->name, h->hart, h->core.x, h->core.y);
	if (h->m.mb.fw_state != TT_FW_READY)
		return tt_error(-EIO,
				"%s: core firmware on hart %u of core %u-%u stopped serving (mailbox state 0x%08x)",
				dev->name, h->hart, h->core.x, h->core.y,
				h->m.mb.fw_state);
	return 0;
}

int tt_hart_wait(tt_device *dev, struct tt_xy core, unsigned hart,
		 int timeout_ms, int32_t *ret_val)
{
	struct hart_ctx h = { .core = core, .hart = hart };
	int ret;

	TT_CHECK_ARG(dev);
	ret = check_hart(dev, core, hart, true);
	if (!ret)
		ret = tt_fw_wait(dev, tt_fw_deadline(timeout_ms), finished, &h);
	if (ret == -ETIMEDOUT)
		return tt_error(-ETIMEDOUT,
				"%s: hart %u of core %u-%u did not finish within %d ms (pc 0x%x, state %s)",
				dev->name, hart, core.x, core.y, timeout_ms,
				h.st.pc, h.st.state_name ? h.st.state_name : "unknown");
	if (!ret && ret_val)
		*ret_val = h.m.mb.done.ret;
	return ret;
}

int tt_hart_run(tt_device *dev, struct tt_xy core, unsigned hart,
		uint32_t entry, const uint32_t *args, unsigned nargs,
		int timeout_ms, int32_t *ret)
{
	int err;

	TT_CHECK_ARG(dev);
	err = tt_hart_launch(dev, core, hart, entry, args, nargs);

	return err ? err : tt_hart_wait(dev, core, hart, timeout_ms, ret);
}

/* ---- raw execution ---- */

/* Set (hold) or clear (release) one hart's soft reset line. */
static int hold_reset(struct tt_device *dev, struct tt_xy core, unsigned hart,
		      bool hold)
{
	uint64_t reg = TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET;
	uint32_t v;
	int ret;

	pthread_mutex_lock(&soft_reset_lock);
	ret = tt_noc_read32(dev, 0, core.x, core.y, reg, &v);
	if (!ret) {
		v = hold ? v | tt_hart_reset_bit(hart) :
			   v & ~tt_hart_reset_bit(hart);
		ret = tt_noc_write32(dev, 0, core.x, core.y, reg, v);
	}
	pthread_mutex_unlock(&soft_reset_lock);
	return ret;
}

static int in_reset(struct tt_device *dev, void *ctx)
{
	struct hart_ctx *h = ctx;
	int ret = read_status(dev, h->core, h->hart, &h->st);

	return ret ? ret : h->st.state == TT_HART_STATE_RESET;
}

/* The reset line acts at the hart's next scheduling point: wait for it,
 * so nothing runs while its memory is rewritten. */
static int wait_in_reset(struct tt_device *dev, struct tt_xy core,
			 unsigned hart)
{
	struct hart_ctx h = { .core = core, .hart = hart };
	int ret = tt_fw_wait(dev, tt_fw_deadline(RESET_WAIT_MS), in_reset, &h);

	if (ret == -ETIMEDOUT)
		return tt_error(-ETIMEDOUT,
				"%s: hart %u of core %u-%u did not stop within %d ms of its reset line (state %s)",
				dev->name, hart, core.x, core.y, RESET_WAIT_MS,
				h.st.state_name);
	return ret;
}

int tt_hart_exec_raw(tt_device *dev, struct tt_xy core, unsigned hart,
		     const void *elf, size_t len)
{
	uint64_t reset_pc = TT_REG_HART_ADDR +
			    TT_HART_REG(hart, TT_HART_RESET_PC);
	struct elf_image img;
	int ret;

	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(elf, len))
		return -EINVAL;
	ret = check_hart(dev, core, hart, true);
	if (!ret)
		ret = tt_device_own(dev);
	if (!ret)
		ret = parse_elf(dev, core, elf, len, 0,
				(uint32_t)dev->info.l1_size, &img);
	if (!ret)
		ret = hold_reset(dev, core, hart, true);
	if (!ret)
		ret = wait_in_reset(dev, core, hart);
	/* The firmware no longer serves this hart: say so in its mailbox, so
	 * launches fail instead of waiting (the ELF may overwrite it). */
	if (!ret)
		ret = tt_noc_write32(dev, 0, core.x, core.y,
				     TT_L1_MAILBOX_ADDR(hart), 0);
	if (!ret)
		ret = load_segments(dev, core, &img);
	if (!ret)
		ret = tt_noc_write32(dev, 0, core.x, core.y, reset_pc,
				     img.entry);
	if (!ret)
		ret = hold_reset(dev, core, hart, false);
	return ret;
}

int tt_hart_restart_firmware(struct tt_device *dev, struct tt_xy core,
			     unsigned hart)
{
	struct hart_ctx h = { .core = core, .hart = hart };
	int ret = hold_reset(dev, core, hart, true);

	if (!ret)
		ret = wait_in_reset(dev, core, hart);
	/* The old state must not pass for the new firmware's. */
	if (!ret)
		ret = tt_noc_write32(dev, 0, core.x, core.y,
				     TT_L1_MAILBOX_ADDR(hart) +
					     offsetof(struct tt_mailbox,
						      fw_state),
				     0);
	if (!ret)
		ret = hold_reset(dev, core, hart, false);
	if (!ret)
		ret = tt_fw_wait(dev, tt_fw_deadline(LAUNCH_BOOT_WAIT_MS),
				 launchable, &h);
	if (ret == -ETIMEDOUT)
		return tt_error(ret,
				"%s: hart %u of core %u-%u did not come back within %d ms of a firmware restart",
				dev->name, hart, core.x, core.y,
				LAUNCH_BOOT_WAIT_MS);
	return ret == 1 ? 0 : ret;
}
