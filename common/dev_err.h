/* SPDX-License-Identifier: Apache-2.0 */
/* Human-readable device errors (hw/host.h), for every host-side reader. */
#ifndef TT_COMMON_DEV_ERR_H
#define TT_COMMON_DEV_ERR_H

#include <stddef.h>

#include "hw/hart.h"
#include "hw/host.h"

/* What the code means, e.g. "no node at these coordinates". */
const char *dev_err_str(unsigned code);

/*
 * One line describing a recorded error, e.g.
 * "NOC 0 write by host to 12-0 addr 0x0 (64 bytes): no node at these
 * coordinates". Always NUL-terminates buf.
 */
void dev_err_format(const struct tt_dev_error *e, char *buf, size_t len);

/* What a hart fault cause (hw/hart.h) means, e.g. "load access fault". */
const char *hart_fault_str(unsigned cause);

#endif /* TT_COMMON_DEV_ERR_H */
