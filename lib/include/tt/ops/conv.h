/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): conv2d, conv_transpose2d, pools, upsample.
 */
#ifndef TT_OPS_CONV_H
#define TT_OPS_CONV_H

#include "../ops.h"

#endif /* TT_OPS_CONV_H */
