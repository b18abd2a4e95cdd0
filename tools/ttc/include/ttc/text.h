/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TTIR text: MLIR's generic op form as tt-mlir writes TTIR, read into the
 * graph IR (ttc/ir.h) and written back. docs/compiler.md lists the forms
 * accepted.
 */
#ifndef TTC_TEXT_H
#define TTC_TEXT_H

#include <stdio.h>

#include "ttc/ir.h"

enum {
	/* Ops of unknown names or dialects are kept opaque instead of being
	 * an error (mlir-opt's --allow-unregistered-dialect). */
	TTC_PARSE_ALLOW_UNREGISTERED = 1u << 0,
};

/*
 * Parses text (len bytes; it need not be NUL-terminated) named file in
 * diagnostics. Returns a new module, or NULL with a diagnostic
 * "file:line:col: error: ..." (then the source line and a caret) in ctx.
 * The module is not verified: call ttc_module_verify.
 */
TTC_API ttc_module *ttc_parse(ttc_ctx *ctx, const char *file,
			      const char *text, size_t len, unsigned flags);
/* Reads and parses the file at path ("-" is standard input). */
TTC_API ttc_module *ttc_parse_file(ttc_ctx *ctx, const char *path,
				   unsigned flags);

enum {
	/* Print every op's, argument's and function's location. */
	TTC_PRINT_LOC = 1u << 0,
};

/* The module's text (malloc'd, NUL-terminated; *len may be NULL). The
 * output is deterministic and parses back to the same IR. */
TTC_API char *ttc_print(const ttc_module *m, unsigned flags, size_t *len);
/* Writes it to f; 0 or -errno. */
TTC_API int ttc_print_file(const ttc_module *m, unsigned flags, FILE *f);

#endif /* TTC_TEXT_H */
