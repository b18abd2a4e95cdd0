/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/* The whole chip contract. */
#ifndef TT_HW_H
#define TT_HW_H

#include "version.h"
#include "bits.h"
#include "arch.h"
#include "noc.h"
#include "tile.h"
#include "niu.h"
#include "pcie.h"
#include "dmaeng.h"
#include "dram.h"
#include "host.h"
#include "hart.h"
#include "arc.h"
#include "card.h"
#include "flash.h"
#include "l1.h"
#include "tensix.h"
#include "sfpi.h"
#include "msgq.h"
#include "telemetry.h"

#endif /* TT_HW_H */
