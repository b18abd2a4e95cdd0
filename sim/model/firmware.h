/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the model's flash contents come from: the firmware bundle built
 * by firmware/ (tt-flash.bin) and embedded in the model, or the file named
 * by TT_FIRMWARE, for firmware developers.
 */
#ifndef TT_SIM_FIRMWARE_H
#define TT_SIM_FIRMWARE_H

#include <stddef.h>

/* The bundle to burn into new devices. The memory stays valid for the life
 * of the process, even after TT_FIRMWARE changes. Returns 0, or a negative errno with a message in err
 * (SIM_ERR_LEN bytes). */
int sim_firmware_bundle(const void **data, size_t *len, char *err);

#endif /* TT_SIM_FIRMWARE_H */
