// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target of the TTIR parser: any bytes must give a module or a
 * located diagnostic, never a crash, a leak or undefined behaviour. A
 * module that parses is verified and printed, and its text must parse
 * again to the same text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ops.h"
#include "ttc/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ttc_ctx *ctx;

static void check_round_trip(const char *text, size_t len, unsigned flags)
{
	ttc_module *m = ttc_parse(ctx, "fuzz", text, len, flags);
	size_t len2;
	char *again;

	if (!m)
		abort(); /* printed text must always parse */
	again = ttc_print(m, TTC_PRINT_LOC, &len2);
	if (len2 != len || memcmp(again, text, len))
		abort(); /* printing must be a fixed point */
	free(again);
	ttc_module_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned flags = size && (data[0] & 1) ? TTC_PARSE_ALLOW_UNREGISTERED
					       : 0;

	if (!ctx)
		ctx = ttc_ctx_new_ttir();
	ttc_module *m = ttc_parse(ctx, "fuzz", (const char *)data, size, flags);

	if (m) {
		ttc_module_verify(m);
		size_t len;
		char *text = ttc_print(m, TTC_PRINT_LOC, &len);

		check_round_trip(text, len, flags | TTC_PARSE_ALLOW_UNREGISTERED);
		free(text);
		ttc_module_free(m);
	}
	ttc_ctx_clear_diags(ctx);
	return 0;
}
