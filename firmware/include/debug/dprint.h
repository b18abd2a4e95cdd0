/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DPRINT(fmt, ...): printf into this hart's print ring (hw/l1.h), which
 * the host copies to its log line by line with the core and hart (libtt,
 * TT_DPRINT=1). Conversions: %d %i %u %x %X %o %c %s %p %% and %f %F %e
 * %E %g %G, with the flags '-' '0' '+' ' ' '#', a width and a precision
 * (also as '*'), and the length modifiers hh h l ll z j t (long is 32-bit,
 * long long 64-bit). No newline is added. A full ring makes the kernel
 * wait until the host has read it.
 *
 * When the host does not read the rings (printing off), DPRINT does
 * nothing and does not evaluate its arguments.
 *
 * BF16(bits) and F32(bits) print values by their bit patterns;
 * DPRINT_TSLICE prints a slice of a tile in a CB (below).
 *
 * TT-Metal's per-thread forms DPRINT_UNPACK/MATH/PACK(x) keep the
 * statement x on the compute hart, DPRINT_DATA0(x) on BRISC and
 * DPRINT_DATA1(x) on NCRISC, and drop it elsewhere.
 */
#ifndef TT_DEBUG_DPRINT_H
#define TT_DEBUG_DPRINT_H

#include "kernel_api/base.h"

__attribute__((format(printf, 1, 2))) void ttk_dprintf(const char *fmt, ...);

#define DPRINT(...)                                            \
	do {                                                   \
		if (ttk_flags() & TT_KCTX_F_PRINT)             \
			ttk_dprintf(__VA_ARGS__);              \
	} while (0)

/*
 * Values by their bits, for %f %e %g: BF16(bits) a bfloat16, F32(bits) a
 * float32 (TT-Metal's BF16() and F32()).
 */
static inline double BF16(uint16_t bits)
{
	union {
		uint32_t u;
		float f;
	} v = { .u = (uint32_t)bits << 16 };

	return v.f;
}

static inline double F32(uint32_t bits)
{
	union {
		uint32_t u;
		float f;
	} v = { .u = bits };

	return v.f;
}

/*
 * Tile slices (TT-Metal's TileSlice and SliceRange): the elements of rows
 * h0, h0 + hs, ... below h1 and columns w0, w0 + ws, ... below w1 of tile
 * `tile` of a CB, counted from its read pointer (TSLICE_RD_PTR: the pages
 * waiting at the front) or its write pointer (TSLICE_WR_PTR: the pages
 * reserved at the back), decoded from the CB's data format. Printed as a
 * header line, "CB 0 tile 1 (Float16_b) rows 0:32:8 cols 0:32:8", then
 * one line per row: %g for float formats (bfloat16, half, float32 and the
 * Bfp*_b block formats), %d or %u for integer ones. A slice outside the
 * tile, a tile past the end of the CB, an unconfigured CB or a format it
 * cannot decode prints one line saying so instead.
 */
struct ttk_slice_range {
	uint8_t h0, h1, hs, w0, w1, ws;
};

#define TTK_SLICE(h0, h1, hs, w0, w1, ws) \
	((struct ttk_slice_range){ (h0), (h1), (hs), (w0), (w1), (ws) })
/* TT-Metal's SliceRange presets. */
#define SLICE_HW0_32_16 TTK_SLICE(0, 32, 16, 0, 32, 16)
#define SLICE_HW0_32_8 TTK_SLICE(0, 32, 8, 0, 32, 8)
#define SLICE_HW0_32_4 TTK_SLICE(0, 32, 4, 0, 32, 4)
#define SLICE_H0_W0_32 TTK_SLICE(0, 1, 1, 0, 32, 1)  /* row 0 */
#define SLICE_H0_32_W0 TTK_SLICE(0, 32, 1, 0, 1, 1)  /* column 0 */

enum { TSLICE_RD_PTR = 0, TSLICE_WR_PTR = 1 };

void ttk_dprint_tslice(uint32_t cb, uint32_t tile, struct ttk_slice_range r,
		       int ptr);

#define DPRINT_TSLICE(cb, tile, range, ptr)                              \
	do {                                                             \
		if (ttk_flags() & TT_KCTX_F_PRINT)                       \
			ttk_dprint_tslice((cb), (tile), (range), (ptr)); \
	} while (0)

#if TT_KERNEL_PROC == 2
#define DPRINT_UNPACK(x) x
#define DPRINT_MATH(x) x
#define DPRINT_PACK(x) x
#else
#define DPRINT_UNPACK(x)
#define DPRINT_MATH(x)
#define DPRINT_PACK(x)
#endif
#if TT_KERNEL_PROC == 0
#define DPRINT_DATA0(x) x
#else
#define DPRINT_DATA0(x)
#endif
#if TT_KERNEL_PROC == 1
#define DPRINT_DATA1(x) x
#else
#define DPRINT_DATA1(x)
#endif

#endif /* TT_DEBUG_DPRINT_H */
