/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The compute kernel API (TT-Metal's compute_kernel_api.h and
 * compute_kernel_api/ headers, in C): a compute kernel includes this (or
 * the parts it needs) and defines `void kernel_main(void)`. Each part's
 * header lists what it offers; docs/kernels.md has the whole API and how
 * it maps to TT-Metal's C++.
 */
#ifndef TT_COMPUTE_KERNEL_API_H
#define TT_COMPUTE_KERNEL_API_H

#include "compute_kernel_api/common.h"
#include "compute_kernel_api/reg_api.h"
#include "compute_kernel_api/tile_move_copy.h"
#include "compute_kernel_api/eltwise_binary.h"
#include "compute_kernel_api/bcast.h"
#include "compute_kernel_api/matmul.h"
#include "compute_kernel_api/reduce.h"
#include "compute_kernel_api/transpose_wh.h"
#include "compute_kernel_api/pack.h"
#include "compute_kernel_api/tilize.h"
#include "compute_kernel_api/untilize.h"
#include "compute_kernel_api/eltwise_unary/eltwise_unary.h"
#include "compute_kernel_api/eltwise_binary_sfpu.h"
#include "compute_kernel_api/sfpi.h"

#endif /* TT_COMPUTE_KERNEL_API_H */
