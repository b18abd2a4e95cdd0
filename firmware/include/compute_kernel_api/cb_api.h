/* SPDX-License-Identifier: Apache-2.0 */
/* TT-Metal's compute-side CB header: the CB API is the same for every
 * kind of kernel here (kernel_api/cb.h). */
#include "kernel_api/cb.h"
