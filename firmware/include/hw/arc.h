/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * The ARC node: the management processor (one hart, hw/hart.h), its reset
 * unit, its sensors and clocks, and the flash it boots from.
 *
 * Boot: on power-on and on every chip reset the boot ROM (part of the
 * model) holds every hart in reset, copies the management firmware image
 * from flash into CSM (hw/flash.h), sets the ARC hart's TT_HART_RESET_PC
 * to the image's entry and releases it. Everything after that is firmware:
 * POST codes in TT_ARC_SCRATCH(0), releasing the Tensix harts, the message
 * queues (hw/msgq.h), the telemetry table (hw/telemetry.h).
 */
#ifndef TT_HW_ARC_H
#define TT_HW_ARC_H

#include "bits.h"

/* Flash, seen by the ARC hart only (read-only, TT_ARC_FLASH_SIZE bytes). */
#define TT_ARC_FLASH_BASE 0x20000000u
#define TT_ARC_FLASH_SIZE 0x100000u /* 1 MiB */

/*
 * Reset unit page (TT_REG_ARC_RESET). Registers 32-bit; RO unless marked.
 */
#define TT_ARC_SCRATCH(n) (0x060 + 4 * (n)) /* RW, n < 8 */
#define TT_ARC_MISC_CNTL 0x100 /* RW */
#define TT_ARC_MISC_CNTL_IRQ0 TT_BIT(16) /* host doorbell; firmware clears */
#define TT_ARC_CHIP_RESET 0x200 /* RW: write TT_ARC_CHIP_RESET_KEY */
#define TT_ARC_CHIP_RESET_KEY 0x52535421u /* "!TSR" */
#define TT_ARC_RESET_COUNT 0x204 /* chip resets since power-on */
#define TT_ARC_RESET_CAUSE 0x208 /* enum tt_arc_reset_cause, last one */
#define TT_ARC_WDT_TIMEOUT 0x210 /* RW: ms; 0 = watchdog off */
#define TT_ARC_WDT_PET 0x214 /* RW: writing a value other than the last
			       * one restarts the watchdog (a counter) */
#define TT_ARC_SCRATCH_RAM(n) (0x400 + 4 * (n)) /* RW, n < 64 */

enum tt_arc_reset_cause {
	TT_ARC_RESET_POWER_ON = 0,
	TT_ARC_RESET_FIRMWARE = 1, /* firmware wrote TT_ARC_CHIP_RESET */
	TT_ARC_RESET_WATCHDOG = 2, /* watchdog expired */
};

/* POST codes (TT_ARC_SCRATCH(0)): high half TT_ARC_POST_MAGIC once the
 * firmware runs, low half the stage. */
#define TT_ARC_POST_MAGIC 0xC0DEu
#define TT_ARC_POST(stage) ((TT_ARC_POST_MAGIC << 16) | (stage))
enum tt_arc_post_stage {
	TT_ARC_POST_START = 0x0001, /* firmware entered */
	TT_ARC_POST_FLASH = 0x0002, /* flash header read and checked */
	TT_ARC_POST_TENSIX = 0x0003, /* core firmware copied, harts released */
	TT_ARC_POST_TELEMETRY = 0x0004, /* telemetry table published */
	TT_ARC_POST_MSGQ = 0x0005, /* message queues published */
	TT_ARC_POST_READY = 0x00FF, /* serving messages */
	TT_ARC_POST_FAIL = 0x0EEE, /* boot failed; SCRATCH_RAM[4] says why */
};

/* Scratch RAM words (after Blackhole's status_reg.h). */
#define TT_ARC_SR_FW_VERSION 0 /* running firmware's version */
#define TT_ARC_SR_BOOT_STATUS 2 /* bit 0: message queues ready */
#define TT_ARC_BOOT_STATUS_MSGQ_READY TT_BIT(0)
#define TT_ARC_SR_ERROR_STATUS 4 /* enum tt_arc_boot_error */
#define TT_ARC_SR_MSGQ_INFO 11 /* CSM address of struct tt_msgq_info */
#define TT_ARC_SR_TELEM_DATA 12 /* CSM address of the telemetry values */
#define TT_ARC_SR_TELEM_TABLE 13 /* CSM address of struct tt_telem_table */

enum tt_arc_boot_error {
	TT_ARC_BOOT_OK = 0,
	TT_ARC_BOOT_BAD_FLASH = 1, /* flash header missing or corrupt */
	TT_ARC_BOOT_NO_CORE_FW = 2, /* a Tensix firmware image is missing */
	TT_ARC_BOOT_BAD_BOARD_INFO = 3, /* board info missing or implausible */
	TT_ARC_BOOT_NOC_ERROR = 4, /* loading the Tensix cores failed */
};

/*
 * Sensors and clocks page (TT_REG_ARC_SENSORS). The model refreshes the
 * RO values whenever the ARC hart reads this page, from its power and
 * thermal model (docs/hw.md). Temperatures are signed 16.16 fixed-point
 * degrees Celsius.
 */
#define TT_SENS_ASIC_TEMP 0x00 /* s16.16 degC */
#define TT_SENS_INLET_TEMP 0x04 /* s16.16 degC, board inlet (ambient) */
#define TT_SENS_VREG_TEMP 0x08 /* s16.16 degC */
#define TT_SENS_VCORE 0x0C /* mV */
#define TT_SENS_CURRENT 0x10 /* mA */
#define TT_SENS_POWER 0x14 /* mW */
#define TT_SENS_FAN_RPM 0x18 /* rpm */
#define TT_SENS_BUSY_HARTS 0x1C /* harts running, averaged, x1000 */
#define TT_SENS_NOC_BYTES_LO 0x20 /* NOC bytes moved since power-on */
#define TT_SENS_NOC_BYTES_HI 0x24
#define TT_SENS_COPROC_OPS_LO 0x28 /* coprocessor ops since power-on */
#define TT_SENS_COPROC_OPS_HI 0x2C
#define TT_SENS_OUTLET_TEMP 0x30 /* s16.16 degC, board outlet air */

#define TT_SENS_AICLK 0x40 /* RW: MHz; the firmware's clock setting */
#define TT_SENS_AXICLK 0x44 /* RW: MHz */
#define TT_SENS_ARCCLK 0x48 /* RW: MHz */
#define TT_SENS_FAN_DUTY 0x4C /* RW: percent, 0-100 */

/* The environment, writable by the host to stand for a test chamber. */
#define TT_SENS_AMBIENT 0x80 /* RW: s16.16 degC inlet air; default 25 */

#endif /* TT_HW_ARC_H */
