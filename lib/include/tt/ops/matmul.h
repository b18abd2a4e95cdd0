/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): matmul and linear.
 */
#ifndef TT_OPS_MATMUL_H
#define TT_OPS_MATMUL_H

#include "../ops.h"

#endif /* TT_OPS_MATMUL_H */
