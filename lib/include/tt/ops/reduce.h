/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): reductions (sum, mean, max, min, argmax) and cumsum.
 */
#ifndef TT_OPS_REDUCE_H
#define TT_OPS_REDUCE_H

#include "../ops.h"

#endif /* TT_OPS_REDUCE_H */
