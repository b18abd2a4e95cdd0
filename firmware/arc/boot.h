/* SPDX-License-Identifier: Apache-2.0 */
/* Boot: from the flash to released Tensix cores (hw/arc.h). */
#ifndef TT_ARC_BOOT_H
#define TT_ARC_BOOT_H

#include "hw/arc.h"

/* Report the failure (ERROR_STATUS, POST FAIL) and sleep for good. */
__attribute__((noreturn)) void boot_fail(enum tt_arc_boot_error err);

/* Read and check the flash, the board information, and load and release
 * the Tensix cores. Fills arc.board and the versions; does not return on
 * failure. */
void boot(void);

#endif /* TT_ARC_BOOT_H */
