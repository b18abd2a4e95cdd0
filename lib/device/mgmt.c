// SPDX-License-Identifier: Apache-2.0
/*
 * Management firmware: messages, readiness, the convenience calls built on
 * them, and warm reset.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fw.h"
#include "hw/arc.h"
#include "hw/flash.h"
#include "hw/msgq.h"
#include "tt/mgmt.h"

/* The public numbers are the contract's. */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(TT_MGMT_QUEUES, TT_MSGQ_COUNT), "queues");
_Static_assert(SAME(TT_MGMT_QUEUE_KMD, TT_MSGQ_KMD) &&
		       SAME(TT_MGMT_QUEUE_APP, TT_MSGQ_APP),
	       "queue ids");
_Static_assert(SAME(TT_MGMT_NOP, TT_MSG_NOP) &&
		       SAME(TT_MGMT_READ_BOARD_INFO, TT_MSG_READ_BOARD_INFO) &&
		       SAME(TT_MGMT_FORCE_AICLK, TT_MSG_FORCE_AICLK) &&
		       SAME(TT_MGMT_GET_AICLK, TT_MSG_GET_AICLK) &&
		       SAME(TT_MGMT_AICLK_GO_BUSY, TT_MSG_AICLK_GO_BUSY) &&
		       SAME(TT_MGMT_AICLK_GO_LONG_IDLE,
			    TT_MSG_AICLK_GO_LONG_IDLE) &&
		       SAME(TT_MGMT_TRIGGER_RESET, TT_MSG_TRIGGER_RESET) &&
		       SAME(TT_MGMT_TEST, TT_MSG_TEST) &&
		       SAME(TT_MGMT_ASIC_STATE0, TT_MSG_ASIC_STATE0) &&
		       SAME(TT_MGMT_ASIC_STATE3, TT_MSG_ASIC_STATE3) &&
		       SAME(TT_MGMT_FORCE_FAN_SPEED, TT_MSG_FORCE_FAN_SPEED) &&
		       SAME(TT_MGMT_FW_VERSION, TT_MSG_FW_VERSION) &&
		       SAME(TT_MGMT_SET_LAST_SERIAL, TT_MSG_SET_LAST_SERIAL) &&
		       SAME(TT_MGMT_SET_WDT_TIMEOUT, TT_MSG_SET_WDT_TIMEOUT),
	       "message codes");
_Static_assert(SAME(TT_MGMT_STATUS_ERROR_MIN, TT_MSG_STATUS_ERROR_MIN) &&
		       SAME(TT_MGMT_STATUS_BAD_ARG, TT_MSG_BAD_ARG) &&
		       SAME(TT_MGMT_STATUS_UNKNOWN, TT_MSG_UNKNOWN),
	       "statuses");
_Static_assert(SAME(TT_MGMT_FW_ARC, TT_FW_ARC) &&
		       SAME(TT_MGMT_FW_BUNDLE, TT_FW_BUNDLE) &&
		       SAME(TT_MGMT_FW_CORE, TT_FW_CORE),
	       "firmware ids");

/* How long tt_device_reset gives the firmware to act on TRIGGER_RESET
 * before it resets the chip through the reset unit itself. */
#define RESET_GRACE_MS 1000

/* ---- messages ---- */

static int reply_status(struct tt_device *dev, unsigned queue, uint8_t code,
			unsigned status)
{
	if (status < TT_MSG_STATUS_ERROR_MIN)
		return 0;
	if (status == TT_MSG_UNKNOWN)
		return tt_error(-EOPNOTSUPP,
				"%s: management firmware does not know message 0x%02x (queue %u)",
				dev->name, code, queue);
	return tt_error(-EIO,
			"%s: management firmware refused message 0x%02x (queue %u): status 0x%02x%s",
			dev->name, code, queue, status,
			status == TT_MSG_BAD_ARG ? ", an argument is out of range" :
						   "");
}

int tt_mgmt_call(tt_device *dev, unsigned queue, uint8_t code,
		 const uint32_t args[7], struct tt_msg_reply *reply,
		 int timeout_ms)
{
	uint32_t req[TT_MSGQ_ENTRY_WORDS] = { code };
	uint32_t rsp[TT_MSGQ_ENTRY_WORDS];
	int ret;

	TT_CHECK_ARG(dev);
	if (args)
		memcpy(&req[1], args, 7 * sizeof(uint32_t));
	ret = tt_msgq_call(dev, queue, req, rsp, tt_fw_deadline(timeout_ms),
			   timeout_ms);
	if (ret)
		return ret;
	if (reply) {
		reply->status = TT_FIELD_GET(TT_MSG_STATUS_MASK, rsp[0]);
		reply->result = TT_FIELD_GET(TT_MSG_RESULT_MASK, rsp[0]);
		memcpy(reply->data, &rsp[1], sizeof(reply->data));
	}
	return reply_status(dev, queue, code,
			    TT_FIELD_GET(TT_MSG_STATUS_MASK, rsp[0]));
}

int tt_mgmt_wait_ready(tt_device *dev, int timeout_ms)
{
	TT_CHECK_ARG(dev);
	return tt_fw_wait_arc(dev, tt_fw_deadline(timeout_ms), timeout_ms);
}

/* ---- convenience calls ---- */

/* Each caller has checked dev. */
static int app_call(tt_device *dev, uint8_t code, uint32_t a1,
		    struct tt_msg_reply *reply)
{
	uint32_t args[7] = { a1 };

	return tt_mgmt_call(dev, TT_MGMT_QUEUE_APP, code, args, reply,
			    TT_MGMT_TIMEOUT_MS);
}

int tt_mgmt_test(tt_device *dev, uint32_t n, uint32_t *out)
{
	struct tt_msg_reply r;
	int ret;

	TT_CHECK_ARG(dev);
	ret = app_call(dev, TT_MSG_TEST, n, &r);
	if (ret)
		return ret;
	if (out)
		*out = r.data[0];
	if (r.data[0] != n + 1)
		return tt_error(-EPROTO,
				"%s: management firmware answered TEST %u with %u",
				dev->name, n, r.data[0]);
	return 0;
}

int tt_mgmt_set_power_state(tt_device *dev, bool busy)
{
	TT_CHECK_ARG(dev);
	return app_call(dev,
			busy ? TT_MSG_AICLK_GO_BUSY : TT_MSG_AICLK_GO_LONG_IDLE,
			0, NULL);
}

int tt_mgmt_force_aiclk(tt_device *dev, unsigned mhz)
{
	TT_CHECK_ARG(dev);
	return app_call(dev, TT_MSG_FORCE_AICLK, mhz, NULL);
}

int tt_mgmt_get_aiclk(tt_device *dev, unsigned *mhz, bool *forced)
{
	struct tt_msg_reply r;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(mhz);
	ret = app_call(dev, TT_MSG_GET_AICLK, 0, &r);
	if (ret)
		return ret;
	if (r.data[1] != TT_AICLK_POLICY && r.data[1] != TT_AICLK_FORCED)
		return tt_error(-EPROTO,
				"%s: management firmware reports AICLK mode %u",
				dev->name, r.data[1]);
	*mhz = r.data[0];
	if (forced)
		*forced = r.data[1] == TT_AICLK_FORCED;
	return 0;
}

int tt_mgmt_set_watchdog(tt_device *dev, unsigned ms)
{
	TT_CHECK_ARG(dev);
	return app_call(dev, TT_MSG_SET_WDT_TIMEOUT, ms, NULL);
}

int tt_mgmt_force_fan(tt_device *dev, int percent)
{
	TT_CHECK_ARG(dev);
	if (percent < -1 || percent > 100)
		return tt_error(-EINVAL,
				"%s: fan duty %d%% is not 0..100 or -1 (automatic)",
				dev->name, percent);
	return app_call(dev, TT_MSG_FORCE_FAN_SPEED,
			percent < 0 ? 0xFFFFFFFFu : (uint32_t)percent, NULL);
}

int tt_mgmt_fw_version(tt_device *dev, unsigned which, uint32_t *version)
{
	struct tt_msg_reply r;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(version);
	ret = app_call(dev, TT_MSG_FW_VERSION, which, &r);
	if (!ret)
		*version = r.data[0];
	return ret;
}

/* Bytes [off, off + len) of the board information, len <= 24. */
static int board_info_piece(tt_device *dev, uint8_t *dst, uint32_t off,
			    uint32_t len)
{
	uint32_t args[7] = { off, len };
	struct tt_msg_reply r;
	int ret = tt_mgmt_call(dev, TT_MGMT_QUEUE_APP, TT_MSG_READ_BOARD_INFO,
			       args, &r, TT_MGMT_TIMEOUT_MS);

	if (!ret)
		memcpy(dst, r.data, len);
	return ret;
}

static void board_info_public(const struct tt_board_info *b,
			      struct tt_mgmt_board_info *out)
{
	memset(out, 0, sizeof(*out));
	out->board_id = (uint64_t)b->board_id_hi << 32 | b->board_id_lo;
	out->asic_id = (uint64_t)b->asic_id_hi << 32 | b->asic_id_lo;
	out->card_type = b->card_type;
	out->chip_index = b->chip_index;
	out->aiclk_max_mhz = b->aiclk_max;
	out->aiclk_min_mhz = b->aiclk_min;
	out->axiclk_mhz = b->axiclk;
	out->arcclk_mhz = b->arcclk;
	out->vdd_min_mv = b->vdd_min;
	out->vdd_max_mv = b->vdd_max;
	out->tdp_limit_w = b->tdp_limit;
	out->tdc_limit_a = b->tdc_limit;
	out->thm_limit_throttle_c = b->thm_limit_throttle;
	out->thm_limit_shutdown_c = b->thm_limit_shutdown;
	out->board_power_limit_w = b->board_power_limit;
	out->dm_app_fw_version = b->dm_app_fw_version;
	out->dm_bl_fw_version = b->dm_bl_fw_version;
	out->flash_tool_version = b->flash_tool_version;
	out->grid_x = b->grid_x;
	out->grid_y = b->grid_y;
	out->tensix_count = b->tensix_count;
	out->harvesting = b->harvesting;
}

int tt_mgmt_board_info(tt_device *dev, struct tt_mgmt_board_info *out)
{
	/* Pieces of 24 bytes: what fits in six response words. */
	enum { PIECE = 24 };
	struct tt_board_info b;
	uint8_t *p = (uint8_t *)&b;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	for (uint32_t off = 0; off < sizeof(b); off += PIECE) {
		uint32_t left = sizeof(b) - off;
		int ret = board_info_piece(dev, p + off, off,
					   left < PIECE ? left : PIECE);

		if (ret)
			return ret;
	}
	board_info_public(&b, out);
	return 0;
}

/* ---- warm reset ---- */

struct reset_wait {
	uint32_t gen; /* reset_gen before */
	uint32_t count; /* TT_ARC_RESET_COUNT before */
};

static int gen_changed(struct tt_device *dev, void *ctx)
{
	const struct reset_wait *w = ctx;

	return dev->ops->reset_gen(dev) != w->gen;
}

/*
 * The chip bumps reset_gen when a reset starts and puts the reset unit's
 * registers back (RESET_COUNT last) once the harts are stopped: until
 * RESET_COUNT moves, registers may still hold the old firmware's state.
 * A warm reset never leaves it 0 (only power-on does).
 */
static int reset_done(struct tt_device *dev, void *ctx)
{
	const struct reset_wait *w = ctx;
	uint32_t count;
	int ret = tt_fw_reset_unit_read(dev, TT_ARC_RESET_COUNT, &count);

	if (ret)
		return ret;
	return count != w->count && count != 0;
}

/* Ask the firmware to reset the chip; if it cannot or does not within
 * RESET_GRACE_MS, pull the reset unit's chip reset line ourselves. */
static int trigger_reset(struct tt_device *dev, struct reset_wait *w,
			 int64_t deadline)
{
	uint32_t req[TT_MSGQ_ENTRY_WORDS] = { TT_MSG_TRIGGER_RESET };
	int64_t grace = tt_fw_now_ms() + RESET_GRACE_MS;
	int ret;

	if (grace > deadline)
		grace = deadline;
	if (tt_msgq_post(dev, TT_MSGQ_KMD, req, grace) == 0 &&
	    tt_fw_wait(dev, grace, gen_changed, w) == 0)
		return 0;
	if (dev->ops->reset_gen(dev) != w->gen)
		return 0;
	ret = tt_fw_reset_unit_write(dev, TT_ARC_CHIP_RESET,
				     TT_ARC_CHIP_RESET_KEY);
	/* The write may land after the reset it caused has begun. */
	if (ret == -ENODEV)
		ret = 0;
	if (ret)
		return ret;
	ret = tt_fw_wait(dev, deadline, gen_changed, w);
	if (ret == -ETIMEDOUT)
		return tt_error(-ETIMEDOUT,
				"%s: the chip did not reset (neither the management firmware nor the reset unit acted)",
				dev->name);
	return ret;
}

static int reset_timeout(struct tt_device *dev, int timeout_ms,
			 const char *what)
{
	return tt_error(-ETIMEDOUT, "%s: reset: %s within %d ms", dev->name,
			what, timeout_ms);
}

static int wait_back(struct tt_device *dev, struct reset_wait *w,
		     int64_t deadline, int timeout_ms)
{
	struct tt_fw_cores_state cores;
	char why[160];
	int ret;

	ret = tt_fw_wait(dev, deadline, reset_done, w);
	if (ret == -ETIMEDOUT)
		return reset_timeout(dev, timeout_ms,
				     "the reset unit did not finish the reset");
	if (!ret)
		ret = tt_fw_wait(dev, deadline, tt_fw_arc_ready, NULL);
	if (ret == -ETIMEDOUT) {
		char what[200];

		tt_fw_describe_boot(dev, why, sizeof(why));
		snprintf(what, sizeof(what),
			 "management firmware not ready again (%s)", why);
		return reset_timeout(dev, timeout_ms, what);
	}
	if (ret)
		return ret;
	memset(&cores, 0, sizeof(cores));
	ret = tt_fw_wait(dev, deadline, tt_fw_cores_ready, &cores);
	if (ret == -ETIMEDOUT) {
		struct tt_xy c = { dev->soc.tensix[cores.first_waiting].x,
				   dev->soc.tensix[cores.first_waiting].y };

		snprintf(why, sizeof(why),
			 "core firmware not ready on %u of %u Tensix cores (first: core %u-%u)",
			 dev->soc.tensix_count - cores.ready,
			 dev->soc.tensix_count, c.x, c.y);
		return reset_timeout(dev, timeout_ms, why);
	}
	return ret;
}

int tt_device_reset(tt_device *dev, int timeout_ms)
{
	int64_t deadline = tt_fw_deadline(timeout_ms);
	struct reset_wait w;
	int ret;

	TT_CHECK_ARG(dev);
	ret = tt_device_check_live(dev);
	if (ret)
		return ret;
	w.gen = dev->ops->reset_gen(dev);
	ret = tt_fw_reset_unit_read(dev, TT_ARC_RESET_COUNT, &w.count);
	if (ret)
		return ret;
	ret = trigger_reset(dev, &w, deadline);
	if (ret)
		return ret;
	/* This handle follows the chip; any other one is stale from now. */
	__atomic_store_n(&dev->reset_gen, dev->ops->reset_gen(dev),
			 __ATOMIC_RELEASE);
	return wait_back(dev, &w, deadline, timeout_ms);
}
