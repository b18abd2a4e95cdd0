// SPDX-License-Identifier: Apache-2.0
/*
 * Helpers for talking to device firmware: the ARC node and its registers,
 * readiness of the management and core firmware, and interrupt-driven
 * waiting.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fw.h"
#include "hw/arc.h"
#include "hw/hart.h"
#include "hw/l1.h"
#include "hw/tile.h"
#include "tt/hart.h"

int64_t tt_fw_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int64_t tt_fw_deadline(int timeout_ms)
{
	return timeout_ms < 0 ? INT64_MAX : tt_fw_now_ms() + timeout_ms;
}

int tt_fw_wait(struct tt_device *dev, int64_t deadline, tt_fw_cond cond,
	       void *ctx)
{
	for (;;) {
		/* Sequence first: an interrupt raised after the check below
		 * changes it, so the sleep returns at once. */
		uint32_t seen = dev->ops->irq_seq(dev);
		int64_t left;
		int ret = cond(dev, ctx);

		if (ret)
			return ret < 0 ? ret : 0;
		left = deadline == INT64_MAX ? TT_FW_POLL_MS :
					       deadline - tt_fw_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		dev->ops->irq_wait(dev, seen,
				   left < TT_FW_POLL_MS ? (int)left :
							  TT_FW_POLL_MS);
	}
}

int tt_fw_arc(struct tt_device *dev, struct tt_xy *arc)
{
	if (!dev->soc.arc_count)
		return tt_error(-ENODEV, "%s: the chip has no ARC node",
				dev->name);
	arc->x = dev->soc.arc[0].x;
	arc->y = dev->soc.arc[0].y;
	return 0;
}

int tt_fw_reset_unit_read(struct tt_device *dev, uint32_t reg, uint32_t *val)
{
	struct tt_xy arc = { 0, 0 };
	int ret = tt_fw_arc(dev, &arc);

	if (ret)
		return ret;
	return tt_noc_read32(dev, 0, arc.x, arc.y, TT_REG_ARC_RESET_ADDR + reg,
			     val);
}

int tt_fw_reset_unit_write(struct tt_device *dev, uint32_t reg, uint32_t val)
{
	struct tt_xy arc = { 0, 0 };
	int ret = tt_fw_arc(dev, &arc);

	if (ret)
		return ret;
	return tt_noc_write32(dev, 0, arc.x, arc.y,
			      TT_REG_ARC_RESET_ADDR + reg, val);
}

bool tt_fw_csm_ok(uint64_t addr, uint64_t len)
{
	return addr % 4 == 0 && addr >= TT_ARC_CSM_BASE &&
	       addr - TT_ARC_CSM_BASE <= TT_ARC_CSM_SIZE &&
	       len <= TT_ARC_CSM_SIZE - (addr - TT_ARC_CSM_BASE);
}

static const char *boot_error_name(uint32_t e)
{
	switch (e) {
	case TT_ARC_BOOT_OK:
		return "none recorded";
	case TT_ARC_BOOT_BAD_FLASH:
		return "flash header missing or corrupt";
	case TT_ARC_BOOT_NO_CORE_FW:
		return "a Tensix core firmware image is missing";
	case TT_ARC_BOOT_BAD_BOARD_INFO:
		return "board information missing or implausible";
	case TT_ARC_BOOT_NOC_ERROR:
		return "loading the Tensix cores failed";
	default:
		return "unknown boot error";
	}
}

static const char *post_stage_name(uint32_t post)
{
	if (post >> 16 != TT_ARC_POST_MAGIC)
		return "not started";
	switch (post & 0xFFFF) {
	case TT_ARC_POST_START:
		return "started";
	case TT_ARC_POST_FLASH:
		return "flash checked";
	case TT_ARC_POST_TENSIX:
		return "core firmware loaded";
	case TT_ARC_POST_TELEMETRY:
		return "telemetry published";
	case TT_ARC_POST_MSGQ:
		return "message queues published";
	case TT_ARC_POST_READY:
		return "ready";
	case TT_ARC_POST_FAIL:
		return "boot failed";
	default:
		return "unknown stage";
	}
}

/* The management hart's state; false if it cannot be read. */
static bool arc_hart(struct tt_device *dev, struct tt_hart_status *st)
{
	struct tt_xy arc = { 0, 0 };
	char keep[256];
	bool ok;

	/* A failed look is no failure of the caller: keep its error. */
	snprintf(keep, sizeof(keep), "%s", tt_last_error());
	ok = !tt_fw_arc(dev, &arc) && !tt_hart_status(dev, arc, 0, st);
	if (!ok)
		tt_error(0, "%s", keep);
	return ok;
}

/* A management hart that halted before its firmware was ready will not
 * become ready: say so now, with its fault, rather than let the caller
 * wait out a timeout on a POST code that does not move. */
static int arc_halted(struct tt_device *dev, uint32_t post)
{
	struct tt_hart_status st;

	if (!arc_hart(dev, &st) || st.state != TT_HART_STATE_HALTED)
		return 0;
	return tt_error(-EIO,
			"%s: the management hart halted at boot (fault: %s at pc 0x%08x, %s 0x%08x; POST code 0x%08x: %s)",
			dev->name, st.fault_name, st.fault_pc,
			st.fault == TT_HART_FAULT_ILLEGAL ? "instruction" :
							    "address",
			st.fault_addr, post, post_stage_name(post));
}

int tt_fw_arc_ready(struct tt_device *dev, void *unused)
{
	uint32_t post, status, err;
	int ret;

	(void)unused;
	ret = tt_fw_reset_unit_read(dev, TT_ARC_SCRATCH(0), &post);
	if (ret)
		return ret;
	if (post == TT_ARC_POST(TT_ARC_POST_FAIL)) {
		ret = tt_fw_reset_unit_read(
			dev, TT_ARC_SCRATCH_RAM(TT_ARC_SR_ERROR_STATUS), &err);
		if (ret)
			return ret;
		return tt_error(-EIO,
				"%s: management firmware failed to boot (POST code 0x%08x, error %u: %s)",
				dev->name, post, err, boot_error_name(err));
	}
	if (post != TT_ARC_POST(TT_ARC_POST_READY))
		return arc_halted(dev, post);
	ret = tt_fw_reset_unit_read(
		dev, TT_ARC_SCRATCH_RAM(TT_ARC_SR_BOOT_STATUS), &status);
	if (ret)
		return ret;
	return (status & TT_ARC_BOOT_STATUS_MSGQ_READY) ? 1 : 0;
}

void tt_fw_describe_boot(struct tt_device *dev, char *buf, size_t len)
{
	uint32_t post = 0, status = 0;
	struct tt_hart_status st;

	if (tt_fw_reset_unit_read(dev, TT_ARC_SCRATCH(0), &post) ||
	    tt_fw_reset_unit_read(dev,
				  TT_ARC_SCRATCH_RAM(TT_ARC_SR_BOOT_STATUS),
				  &status)) {
		snprintf(buf, len, "state unreadable");
		return;
	}
	snprintf(buf, len, "POST code 0x%08x: %s; message queues %s; management hart %s",
		 post, post_stage_name(post),
		 (status & TT_ARC_BOOT_STATUS_MSGQ_READY) ? "ready" :
							    "not ready",
		 arc_hart(dev, &st) ? st.state_name : "unreadable");
}

int tt_fw_wait_arc(struct tt_device *dev, int64_t deadline, int timeout_ms)
{
	char why[128];
	int ret = tt_fw_wait(dev, deadline, tt_fw_arc_ready, NULL);

	if (ret != -ETIMEDOUT)
		return ret;
	tt_fw_describe_boot(dev, why, sizeof(why));
	return tt_error(-ETIMEDOUT,
			"%s: management firmware not ready within %d ms (%s)",
			dev->name, timeout_ms, why);
}

int tt_fw_check_tensix(struct tt_device *dev, struct tt_xy core)
{
	if (tt_device_core_type(dev, core.x, core.y) != TT_CORE_TENSIX ||
	    tt_device_core_harvested(dev, core.x, core.y))
		return tt_error(-EINVAL,
				"%s: core %u-%u is not an enabled Tensix core",
				dev->name, core.x, core.y);
	return 0;
}

int tt_fw_read_launch_state(struct tt_device *dev, struct tt_xy core,
			    unsigned hart, struct tt_fw_launch_state *out)
{
	int ret = tt_noc_read(dev, 0, core.x, core.y, TT_L1_MAILBOX_ADDR(hart),
			      &out->mb, sizeof(out->mb));

	return ret ? ret :
		     tt_noc_read32(dev, 0, core.x, core.y,
				   TT_L1_LAUNCH_SEQ(hart), &out->seq);
}

bool tt_fw_hart_idle(const struct tt_fw_launch_state *s)
{
	return s->mb.fw_state == TT_FW_READY && s->mb.done.seq == s->seq;
}

/* Has every hart of this core its firmware idle, waiting for launches? */
static int core_ready(struct tt_device *dev, struct tt_xy c)
{
	/* Mailboxes and launch words of all harts in one read: they are
	 * consecutive (hw/l1.h). */
	uint8_t mb[TT_L1_LAUNCH_SEQ(TT_TENSIX_HARTS) - TT_L1_MAILBOX];
	uint32_t state[TT_TENSIX_HARTS * TT_HART_STRIDE / 4];
	int ret;

	ret = tt_noc_read(dev, 0, c.x, c.y, TT_L1_MAILBOX, mb, sizeof(mb));
	if (ret)
		return ret;
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		struct tt_fw_launch_state st;

		memcpy(&st.mb, mb + h * TT_L1_MAILBOX_STRIDE, sizeof(st.mb));
		memcpy(&st.seq, mb + TT_L1_LAUNCH_SEQ(h) - TT_L1_MAILBOX,
		       sizeof(st.seq));
		if (!tt_fw_hart_idle(&st))
			return 0;
	}
	/* A mailbox left from before a reset may still say READY: the hart
	 * itself must be out of reset and not halted. */
	ret = tt_noc_read(dev, 0, c.x, c.y, TT_REG_HART_ADDR, state,
			  sizeof(state));
	if (ret)
		return ret;
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		uint32_t s = state[h * TT_HART_STRIDE / 4 + TT_HART_STATE / 4];

		if (s != TT_HART_RUNNING && s != TT_HART_WAITING)
			return 0;
	}
	return 1;
}

int tt_fw_cores_ready(struct tt_device *dev, void *ctx)
{
	struct tt_fw_cores_state *st = ctx;
	unsigned n = dev->soc.tensix_count;

	for (unsigned i = 0; i < n && i < sizeof(st->done); i++) {
		struct tt_xy c;
		int ret;

		if (st->done[i])
			continue;
		c.x = dev->soc.tensix[i].x;
		c.y = dev->soc.tensix[i].y;
		ret = core_ready(dev, c);
		if (ret < 0)
			return ret;
		if (!ret) {
			st->first_waiting = i;
			return 0;
		}
		st->done[i] = 1;
		st->ready++;
	}
	return 1;
}
