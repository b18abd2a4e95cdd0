/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Faults injected for tests (TT_SIM_INJECT, docs/ttsim.md): their names,
 * and the ones the host's own accesses meet (sim_embed_access): a hostile
 * telemetry table as the host reads it, and a NOC transaction that fails
 * once armed. The firmware and the harts never see these faults.
 */
#ifndef TT_SIM_INJECT_H
#define TT_SIM_INJECT_H

#include <stdbool.h>

#include "access.h"
#include "image.h"

enum sim_inject {
	SIM_INJECT_NONE,
	SIM_INJECT_RESET_DEAD, /* chip.c */
	SIM_INJECT_NOC_FAIL, /* the armed host access fails */
	/* The telemetry table the host reads (hw/telemetry.h): */
	SIM_INJECT_TELEM_UNPUBLISHED, /* both pointers 0 */
	SIM_INJECT_TELEM_POINTER, /* the table's pointer past the CSM */
	SIM_INJECT_TELEM_VERSION, /* a torn header: garbage version */
	SIM_INJECT_TELEM_COUNT, /* one entry more than TT_TELEM_MAX_ENTRIES */
	SIM_INJECT_TELEM_FIT, /* the table in the CSM's last 8 bytes */
	SIM_INJECT_TELEM_OFFSET, /* entry 0's value offset 0xFFFF */
	SIM_INJECT_TELEM_VALUES_END, /* the values' pointer at the CSM's last word */
	SIM_INJECT_TELEM_DUP_TAG, /* entry 1 repeats entry 0's tag */
	SIM_INJECT_TELEM_UNKNOWN_TAG, /* entry 0's tag 0xFFFF */
	SIM_INJECT_COUNT
};

/* The fault named v (SIM_INJECT_NONE for NULL or empty); false if no
 * fault has that name. */
bool sim_inject_parse(const char *v, enum sim_inject *out);

/* The known names, for an error message. */
const char *sim_inject_names(void);

/* Arm SIM_INJECT_NOC_FAIL for this process: the host access `after`
 * accesses from now fails (0: the next); negative disarms. Returns the
 * accesses the previous arming still had to go (-1: none armed). */
long sim_inject_noc_arm(long after);

/* Before a host access to an image with SIM_INJECT_NOC_FAIL: true if it
 * is the armed one (and then it is refused; the arming is used up). */
bool sim_inject_noc_fires(struct sim_image *img);

/* After a host read that succeeded: make the telemetry table it saw as
 * hostile as img's fault asks. */
void sim_inject_host_read(struct sim_image *img, const struct sim_access *a,
			  void *buf);

#endif
