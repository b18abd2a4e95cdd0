// SPDX-License-Identifier: Apache-2.0
#include "messages.h"

#include "hw/flash.h"
#include "fw/string.h"
#include "power.h"
#include "state.h"
#include "watchdog.h"
#include "fw_version.h"

/* Largest READ_BOARD_INFO answer: response words 1..6. */
#define BOARD_INFO_CHUNK 24

static uint32_t rsp_word0(uint32_t status, uint32_t result)
{
	return (status & TT_MSG_STATUS_MASK) |
	       TT_FIELD_PREP(TT_MSG_RESULT_MASK, result);
}

static uint32_t read_board_info(const struct tt_msg *req, struct tt_msg *rsp)
{
	uint32_t off = req->word[1], count = req->word[2];

	if (count > BOARD_INFO_CHUNK || off > sizeof(arc.board) ||
	    count > sizeof(arc.board) - off)
		return TT_MSG_BAD_ARG;
	memcpy(&rsp->word[1], (const uint8_t *)&arc.board + off, count);
	return TT_MSG_OK;
}

static uint32_t fw_version(uint32_t which, struct tt_msg *rsp)
{
	switch (which) {
	case TT_FW_ARC:
		rsp->word[1] = TT_FW_ARC_VERSION;
		return TT_MSG_OK;
	case TT_FW_BUNDLE:
		rsp->word[1] = arc.bundle_version;
		return TT_MSG_OK;
	case TT_FW_CORE:
		rsp->word[1] = arc.core_version;
		return TT_MSG_OK;
	default:
		return TT_MSG_BAD_ARG;
	}
}

static uint32_t asic_state(uint32_t state)
{
	arc.asic_state = state;
	/* A3 comes before a reset: nothing runs, so idle clocks. */
	if (state == 3)
		power_set_busy(false);
	return TT_MSG_OK;
}

/* Returns response word 0. */
static uint32_t dispatch(const struct tt_msg *req, struct tt_msg *rsp,
			 struct msg_ctx *ctx)
{
	uint32_t w1 = req->word[1];

	switch (req->word[0] & TT_MSG_CODE_MASK) {
	case TT_MSG_NOP:
		return TT_MSG_OK;
	case TT_MSG_TEST:
		rsp->word[1] = w1 + 1;
		rsp->word[2] = ctx->serial;
		return TT_MSG_OK;
	case TT_MSG_READ_BOARD_INFO:
		return read_board_info(req, rsp);
	case TT_MSG_FORCE_AICLK:
		return power_force_aiclk(w1) ? TT_MSG_OK : TT_MSG_BAD_ARG;
	case TT_MSG_GET_AICLK:
		rsp->word[1] = arc.aiclk;
		rsp->word[2] =
			arc.forced_aiclk ? TT_AICLK_FORCED : TT_AICLK_POLICY;
		return rsp_word0(TT_MSG_OK, arc.aiclk);
	case TT_MSG_AICLK_GO_BUSY:
		power_set_busy(true);
		return TT_MSG_OK;
	case TT_MSG_AICLK_GO_LONG_IDLE:
		power_set_busy(false);
		return TT_MSG_OK;
	case TT_MSG_ASIC_STATE0:
		return asic_state(0);
	case TT_MSG_ASIC_STATE3:
		return asic_state(3);
	case TT_MSG_FORCE_FAN_SPEED:
		return power_force_fan(w1) ? TT_MSG_OK : TT_MSG_BAD_ARG;
	case TT_MSG_FW_VERSION:
		return fw_version(w1, rsp);
	case TT_MSG_SET_LAST_SERIAL:
		ctx->serial = w1;
		return TT_MSG_OK;
	case TT_MSG_SET_WDT_TIMEOUT:
		wdt_set_timeout(w1);
		return TT_MSG_OK;
	case TT_MSG_TRIGGER_RESET:
		ctx->reset = true;
		return TT_MSG_OK;
	default:
		return TT_MSG_UNKNOWN;
	}
}

void msg_handle(const struct tt_msg *req, struct tt_msg *rsp,
		struct msg_ctx *ctx)
{
	rsp->word[0] = dispatch(req, rsp, ctx);
}
