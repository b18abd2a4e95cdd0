// SPDX-License-Identifier: Apache-2.0
#include "internal.h"

const struct onx_op onx_ops_shape[] = {
	{NULL, NULL, NULL, 0, 0},
};
