/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ops libttc knows: TTIR's (ttir.*) with their attributes, verifiers
 * and shape inference. docs/compiler.md says how to add one.
 */
#ifndef TTC_OPS_H
#define TTC_OPS_H

#include "ttc/ir.h"

/* Registers every TTIR op in ctx (once; 0 or a negative errno). */
TTC_API int ttc_register_ttir_ops(ttc_ctx *ctx);

/* A context with every op registered (NULL when out of memory). */
TTC_API ttc_ctx *ttc_ctx_new_ttir(void);

#endif /* TTC_OPS_H */
