/* SPDX-License-Identifier: Apache-2.0 */
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
#include "dram.h"
#include "host.h"

#endif /* TT_HW_H */
