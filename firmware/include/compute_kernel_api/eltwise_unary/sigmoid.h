/* SPDX-License-Identifier: Apache-2.0 */
/* TT-Metal's header of that name: the unary functions are all in
 * eltwise_unary.h. */
#include "compute_kernel_api/eltwise_unary/eltwise_unary.h"
