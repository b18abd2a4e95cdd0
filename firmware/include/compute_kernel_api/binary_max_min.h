/* SPDX-License-Identifier: Apache-2.0 */
/* TT-Metal's header of binary_max_tile/binary_min_tile: in
 * eltwise_binary_sfpu.h here. */
#include "compute_kernel_api/eltwise_binary_sfpu.h"
