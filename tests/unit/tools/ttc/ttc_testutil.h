/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the libttc suites: parse text, check the first error line. */
#ifndef TTC_TESTUTIL_H
#define TTC_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttc/ops.h"
#include "ttc/text.h"

static inline ttc_module *parse_str(ttc_ctx *ctx, const char *text,
				    unsigned flags)
{
	return ttc_parse(ctx, "t.mlir", text, strlen(text), flags);
}

/* The first line of the context's diagnostics (static buffer). */
static inline const char *first_error(ttc_ctx *ctx)
{
	static char line[1024];
	const char *e = ttc_ctx_error(ctx);
	size_t n = strcspn(e, "\n");

	snprintf(line, sizeof(line), "%.*s", (int)n, e);
	return line;
}

/* text must fail to parse, or to verify, with this first line. */
static inline void expect_error(const char *text, const char *want)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_str(ctx, text, 0);

	if (m) {
		int n = ttc_module_verify(m);

		if (n == 0)
			fail_msg("no error for:\n%s", text);
		ttc_module_free(m);
	}
	assert_string_equal(first_error(ctx), want);
	ttc_ctx_free(ctx);
}

/* One function body around ops (a, b: 2x3 f32 arguments). */
#define FN(ret, body) \
	"module {\n" \
	"func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> " ret " {\n" \
	body "}\n}\n"

#endif /* TTC_TESTUTIL_H */
