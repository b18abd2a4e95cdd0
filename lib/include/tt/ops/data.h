/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): data movement (transpose, permute, reshape, concat, slice, pad, repeat, tilize, untilize) and embedding.
 */
#ifndef TT_OPS_DATA_H
#define TT_OPS_DATA_H

#include "../ops.h"

#endif /* TT_OPS_DATA_H */
