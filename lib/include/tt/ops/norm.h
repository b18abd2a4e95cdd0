/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): softmax, layernorm, rmsnorm.
 */
#ifndef TT_OPS_NORM_H
#define TT_OPS_NORM_H

#include "../ops.h"

#endif /* TT_OPS_NORM_H */
