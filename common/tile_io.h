/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bulk helpers of the data-format module (dataformat.h) for the chip
 * model's tile coprocessor, which keeps tiles as floats and rounds them to
 * the precision of its 16-bit destination registers after every write.
 */
#ifndef TT_COMMON_TILE_IO_H
#define TT_COMMON_TILE_IO_H

#include <stddef.h>

#include "dataformat.h"

/*
 * Round n floats in place to the values of fmt, Float16_b or Float16,
 * exactly as converting each to fmt and back would (df_f32_to_bf16_rne,
 * df_f32_to_f16). The bfloat16 path runs vectorised. Returns 0, or
 * -EINVAL for another format or a NULL v with n > 0.
 */
int df_round_to(enum df_format fmt, float *v, size_t n);

#endif /* TT_COMMON_TILE_IO_H */
