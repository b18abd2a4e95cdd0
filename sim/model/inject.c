// SPDX-License-Identifier: Apache-2.0
/*
 * Faults injected for tests (inject.h). The telemetry faults rewrite what
 * a host read of the ARC node returns, never the CSM itself: the firmware
 * keeps publishing a healthy table, and every read the host makes of it
 * meets the same corruption, however the read is cut.
 */
#include "inject.h"

#include <stdint.h>
#include <string.h>

#include "addr.h"
#include "hw/arc.h"
#include "hw/telemetry.h"
#include "hw/tile.h"

static const char *const names[SIM_INJECT_COUNT] = {
	[SIM_INJECT_RESET_DEAD] = "reset-dead",
	[SIM_INJECT_NOC_FAIL] = "noc-fail",
	[SIM_INJECT_TELEM_UNPUBLISHED] = "telemetry-unpublished",
	[SIM_INJECT_TELEM_POINTER] = "telemetry-pointer",
	[SIM_INJECT_TELEM_VERSION] = "telemetry-version",
	[SIM_INJECT_TELEM_COUNT] = "telemetry-count",
	[SIM_INJECT_TELEM_FIT] = "telemetry-fit",
	[SIM_INJECT_TELEM_OFFSET] = "telemetry-offset",
	[SIM_INJECT_TELEM_VALUES_END] = "telemetry-values-end",
	[SIM_INJECT_TELEM_DUP_TAG] = "telemetry-dup-tag",
	[SIM_INJECT_TELEM_UNKNOWN_TAG] = "telemetry-unknown-tag",
};

bool sim_inject_parse(const char *v, enum sim_inject *out)
{
	*out = SIM_INJECT_NONE;
	if (!v || !*v)
		return true;
	for (unsigned i = 1; i < SIM_INJECT_COUNT; i++) {
		if (!strcmp(v, names[i])) {
			*out = (enum sim_inject)i;
			return true;
		}
	}
	return false;
}

const char *sim_inject_names(void)
{
	return "reset-dead, noc-fail, telemetry-{unpublished,pointer,version,"
	       "count,fit,offset,values-end,dup-tag,unknown-tag}";
}

/* ---- noc-fail ---- */

/* Host accesses still to go before the armed one; -1: not armed. One per
 * process: the host accesses it counts are this process's. */
static long noc_countdown = -1;

long sim_inject_noc_arm(long after)
{
	return __atomic_exchange_n(&noc_countdown, after < 0 ? -1 : after,
				   __ATOMIC_SEQ_CST);
}

bool sim_inject_noc_fires(struct sim_image *img)
{
	long n;

	if (img->inject != SIM_INJECT_NOC_FAIL)
		return false;
	n = __atomic_load_n(&noc_countdown, __ATOMIC_SEQ_CST);
	while (n >= 0) {
		if (__atomic_compare_exchange_n(&noc_countdown, &n, n - 1,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return n == 0;
	}
	return false;
}

/* ---- telemetry ---- */

static uint32_t *csm_word(struct sim_image *img, struct tt_node_desc *arc,
			  uint64_t addr)
{
	struct sim_target t;

	if (sim_decode(img, 0, arc->x, arc->y, addr, 4, &t) ||
	    t.kind == SIM_TARGET_HOST)
		return NULL;
	return (uint32_t *)(void *)t.ptr;
}

static uint32_t word_at(struct sim_image *img, struct tt_node_desc *arc,
			uint64_t addr)
{
	uint32_t *p = csm_word(img, arc, addr);

	return p ? __atomic_load_n(p, __ATOMIC_ACQUIRE) : 0;
}

/* Replace the word at local address addr if the read covered it. */
static void patch(const struct sim_access *a, void *buf, uint64_t addr,
		  uint32_t v)
{
	if (addr < a->addr || addr + 4 > a->addr + a->len)
		return;
	memcpy((uint8_t *)buf + (addr - a->addr), &v, 4);
}

void sim_inject_host_read(struct sim_image *img, const struct sim_access *a,
			  void *buf)
{
	const uint64_t sr = TT_REG_ARC_RESET_ADDR +
			    TT_ARC_SCRATCH_RAM(TT_ARC_SR_TELEM_DATA);
	const uint64_t csm_end = TT_ARC_CSM_BASE + TT_ARC_CSM_SIZE;
	enum sim_inject k = (enum sim_inject)img->inject;
	struct sim_target t;
	uint32_t data, table, e0, e1;

	if (k < SIM_INJECT_TELEM_UNPUBLISHED || a->op != TT_DEV_OP_READ ||
	    sim_decode(img, a->noc, a->x, a->y, a->addr, a->len, &t) ||
	    t.node->type != TT_NODE_ARC)
		return;
	data = word_at(img, t.node, sr);
	table = word_at(img, t.node, sr + 4);
	if (!data || !table)
		return; /* nothing published yet: nothing to corrupt */
	e0 = word_at(img, t.node, table + 8);
	e1 = word_at(img, t.node, table + 12);
	switch (k) {
	case SIM_INJECT_TELEM_UNPUBLISHED:
		patch(a, buf, sr, 0);
		patch(a, buf, sr + 4, 0);
		break;
	case SIM_INJECT_TELEM_POINTER:
		patch(a, buf, sr + 4, (uint32_t)csm_end);
		break;
	case SIM_INJECT_TELEM_VERSION:
		patch(a, buf, table, 0xDEADBEEFu);
		break;
	case SIM_INJECT_TELEM_COUNT:
		patch(a, buf, table + 4, TT_TELEM_MAX_ENTRIES + 1);
		break;
	case SIM_INJECT_TELEM_FIT:
		/* The header there claims the real count: no entry fits. */
		patch(a, buf, sr + 4, (uint32_t)(csm_end - 8));
		patch(a, buf, csm_end - 8, TT_TELEM_VERSION);
		patch(a, buf, csm_end - 4, word_at(img, t.node, table + 4));
		break;
	case SIM_INJECT_TELEM_OFFSET:
		patch(a, buf, table + 8,
		      TT_TELEM_ENTRY(TT_TELEM_ENTRY_TAG(e0), 0xFFFFu));
		break;
	case SIM_INJECT_TELEM_VALUES_END:
		patch(a, buf, sr, (uint32_t)(csm_end - 4));
		break;
	case SIM_INJECT_TELEM_DUP_TAG:
		patch(a, buf, table + 12,
		      TT_TELEM_ENTRY(TT_TELEM_ENTRY_TAG(e0),
				     TT_TELEM_ENTRY_OFF(e1)));
		break;
	case SIM_INJECT_TELEM_UNKNOWN_TAG:
		patch(a, buf, table + 8,
		      TT_TELEM_ENTRY(0xFFFFu, TT_TELEM_ENTRY_OFF(e0)));
		break;
	default:
		break;
	}
}
