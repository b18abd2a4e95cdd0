/* SPDX-License-Identifier: Apache-2.0 */
/* ttc golden --compare: the record of one tensor against its golden. */
#ifndef TTC_CLI_GOLDEN_COMPARE_H
#define TTC_CLI_GOLDEN_COMPARE_H

#include "ttc/golden.h"

/*
 * Compares golden with DIR/NAME.npy and prints its record as one JSON
 * line on stdout: {"name", "result": "pass"|"fail", "pcc",
 * "expected_pcc", "atol", "rtol", "max_abs", "max_rel", "allclose"}.
 * Returns 0 (pass, or no file when not required) or 1 (fail, a missing
 * required file, a file that cannot be read or has another size; the
 * message on stderr names it).
 */
int golden_compare(ttc_ctx *ctx, const char *dir, const char *name,
		   const ttc_tensor *golden, const struct ttc_compare_want *w,
		   bool required);

#endif /* TTC_CLI_GOLDEN_COMPARE_H */
