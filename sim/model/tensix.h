/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tile coprocessor of Tensix nodes and their circular-buffer counters
 * (hw/tensix.h): what register writes to TT_REG_TENSIX and TT_REG_CB do.
 *
 * Registers live in the device image like every page; the coprocessor's
 * destination registers (DST) are private memory of the process hosting
 * the chip, allocated per node on its first command. A command runs to
 * completion inside the write of TT_TX_CMD, in the writer's thread, under
 * a per-node lock (several harts and the host may issue commands).
 *
 * Only the process that hosts the chip (the one that powered it on, see
 * sim_tensix_reset) runs commands: a ttsim client's write of TT_TX_CMD is
 * refused, since its coprocessor state would not be the chip's.
 */
#ifndef TT_SIM_TENSIX_H
#define TT_SIM_TENSIX_H

#include "image.h"

/*
 * Write v to the coprocessor register at byte offset `off` of node n's
 * TT_REG_TENSIX page (a writable register, addr.c). TT_TX_CMD runs the
 * command, TT_TX_SFPI the vector instruction; TT_TX_CFG also sets
 * TT_TX_DST_TILES. Returns TT_DEV_ERR_NONE,
 * or TT_DEV_ERR_BAD_CMD if the command failed (TT_TX_STATUS says why) or
 * cannot run in this process: the write is then refused.
 */
enum tt_dev_err sim_tensix_write(struct sim_image *img,
				 const struct tt_node_desc *n, unsigned off,
				 uint32_t v);

/*
 * Write v to the CB counter register at byte offset `off` of a
 * TT_REG_CB page: RECEIVED/ACKED keep v's low 16 bits, the _INC registers
 * add v to their counter modulo 2^16 (atomically) and keep reading 0.
 */
void sim_cb_write(uint8_t *page, unsigned off, uint32_t v);

/* Zero every CB counter of a TT_REG_CB page. */
void sim_cb_reset(uint8_t *page);

/*
 * Power-on and chip reset, with no command running: both pages of every
 * Tensix node back to their reset values (counters zero, DST_TILES 16)
 * and every DST cleared. The first call for img makes this process the
 * one that runs img's commands.
 */
void sim_tensix_reset(struct sim_image *img);

/* Forget img's coprocessors in this process (before img goes away, with
 * no command running). Unknown images are ignored. */
void sim_tensix_release(struct sim_image *img);

#endif /* TT_SIM_TENSIX_H */
