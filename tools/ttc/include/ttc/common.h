/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libttc conventions shared by every header: the context, diagnostics and
 * the export macro.
 *
 * Everything libttc makes (types, attributes, locations, op definitions)
 * lives in a context, ttc_ctx. Types and attributes are interned there, so
 * two equal ones are the same pointer. Modules (the IR a program works on)
 * belong to a context and must be freed before it.
 *
 * Functions return 0 (or a count) on success and a negative errno-style
 * code, or NULL, on failure; the failure is recorded as a diagnostic in the
 * context (ttc_ctx_error() gives all of them as text). A diagnostic names
 * a source position when there is one ("file:line:col: error: ...", then
 * the source line and a caret) and always the op, operand or attribute at
 * fault.
 */
#ifndef TTC_COMMON_H
#define TTC_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define TTC_EXTERN_C extern "C"
#else
#define TTC_EXTERN_C
#endif

#define TTC_API TTC_EXTERN_C __attribute__((visibility("default")))

typedef struct ttc_ctx ttc_ctx;

/* A new context with no ops registered (ttc/ops.h registers TTIR's). */
TTC_API ttc_ctx *ttc_ctx_new(void);
/* Frees the context and everything interned in it. NULL is a no-op. */
TTC_API void ttc_ctx_free(ttc_ctx *ctx);

/* One diagnostic. line/col are 1-based, 0 when there is no position. */
struct ttc_diag {
	const char *file;   /* NULL when unknown */
	unsigned line, col;
	const char *message; /* "'ttir.add' op operand #1 (rhs): ..." */
	const char *text;    /* the full rendering, with source and caret */
};

TTC_API size_t ttc_ctx_diag_count(const ttc_ctx *ctx);
TTC_API const struct ttc_diag *ttc_ctx_diag(const ttc_ctx *ctx, size_t i);
/* Every diagnostic's full text, concatenated; "" when there is none. */
TTC_API const char *ttc_ctx_error(ttc_ctx *ctx);
TTC_API void ttc_ctx_clear_diags(ttc_ctx *ctx);

/* The library's version, "MAJOR.MINOR.PATCH". */
TTC_API const char *ttc_version(void);

#endif /* TTC_COMMON_H */
