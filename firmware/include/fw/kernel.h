/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a kernel (a program launched on a Tensix hart, hw/l1.h) provides.
 *
 * A kernel is linked with ld/kernel.ld at TT_L1_UNRESERVED and starts at
 * its first byte (lib/kernel_start.S jumps to kmain). It runs on the core
 * firmware's stack: no start-up code of its own, and its .bss is part of
 * the loaded image (zeros in the file), so nothing needs clearing. What
 * kmain returns is reported in the mailbox's done.ret.
 */
#ifndef TT_FW_KERNEL_H
#define TT_FW_KERNEL_H

#include <stdint.h>

int32_t kmain(const uint32_t *args, uint32_t nargs);

#endif /* TT_FW_KERNEL_H */
