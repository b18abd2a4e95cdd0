/* SPDX-License-Identifier: Apache-2.0 */
/* libtt: everything. */
#ifndef TT_H
#define TT_H

#include "tt/backend.h"
#include "tt/buffer.h"
#include "tt/common.h"
#include "tt/core.h"
#include "tt/dataformat.h"
#include "tt/device.h"
#include "tt/dma.h"
#include "tt/hart.h"
#include "tt/image.h"
#include "tt/kernel_set.h"
#include "tt/mgmt.h"
#include "tt/model.h"
#include "tt/noc.h"
#include "tt/npy.h"
#include "tt/ops.h"
#include "tt/program.h"
#include "tt/program_desc.h"
#include "tt/queue.h"
#include "tt/telemetry.h"
#include "tt/tensor.h"
#include "tt/tensor_queue.h"

#define TT_VERSION_MAJOR 0
#define TT_VERSION_MINOR 1

#endif /* TT_H */
