/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which cores print (internal): TT_DPRINT_CORES, or TT-Metal's
 * TT_METAL_DPRINT_CORES, read once per launch into a small value the
 * launch carries (kprint_cores.c).
 */
#ifndef TT_LIB_KPRINT_CORES_H
#define TT_LIB_KPRINT_CORES_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/device/internal.h"

/* Ranges a selection holds: more than a user types. */
#define TT_KPRINT_RANGES 16u

/* The cores that print in a launch (logical coordinates). */
struct tt_kprint_sel {
	bool on; /* printing at all */
	bool all; /* every core */
	uint8_t n;
	struct {
		uint8_t x0, y0, x1, y1;
	} r[TT_KPRINT_RANGES];
	uint32_t hash; /* of the setting, for the launch plan */
};

/*
 * What TT_DPRINT and TT_DPRINT_CORES (or TT_METAL_DPRINT_CORES) ask of a
 * launch on dev. TT_DPRINT_CORES is "all", or cores and rectangles in
 * logical coordinates, "x,y", "(x,y)" or "(x0,y0)-(x1,y1)", separated by
 * ';', ',' or spaces. -EINVAL names the variable and what is wrong: a
 * malformed part, a core outside the logical grid, too many ranges, or
 * both names set to different values.
 */
TT_HIDDEN int tt_kprint_select(struct tt_device *dev,
			       struct tt_kprint_sel *sel);

/* Parse a TT_DPRINT_CORES value for a w x h grid; var names it in errors. */
TT_HIDDEN int tt_kprint_parse_cores(const char *spec, const char *var,
				    unsigned w, unsigned h,
				    struct tt_kprint_sel *sel);

/* Whether the core at logical prints. */
TT_HIDDEN bool tt_kprint_core_on(const struct tt_kprint_sel *sel,
				 struct tt_xy logical);

#endif /* TT_LIB_KPRINT_CORES_H */
