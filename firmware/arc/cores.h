/* SPDX-License-Identifier: Apache-2.0 */
/* Loading the core firmware into every Tensix core and releasing them. */
#ifndef TT_ARC_CORES_H
#define TT_ARC_CORES_H

#include "hw/arc.h"
#include "hw/flash.h"

/* Hold every Tensix hart in reset, load the three core firmware images
 * from the flash into every Tensix core, clear the mailboxes, point each
 * hart at its image and release them all. Needs arc.board. Returns
 * TT_ARC_BOOT_OK or the reason for failing. */
enum tt_arc_boot_error cores_boot(const struct tt_flash_header *h);

#endif /* TT_ARC_CORES_H */
