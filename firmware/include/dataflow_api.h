/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data-movement kernel API (TT-Metal's dataflow_api.h, in C): a
 * kernel includes this and defines `void kernel_main(void)`. What each
 * part offers is listed in its header; docs/kernels.md has the whole API
 * and how it maps to TT-Metal's C++.
 */
#ifndef TT_DATAFLOW_API_H
#define TT_DATAFLOW_API_H

#include "kernel_api/args.h"
#include "kernel_api/cb.h"
#include "kernel_api/noc.h"
#include "kernel_api/sem.h"
#include "kernel_api/tensor_queue.h"
#include "debug/assert.h"
#include "debug/dprint.h"
#include "debug/waypoint.h"

#endif /* TT_DATAFLOW_API_H */
