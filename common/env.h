/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Settings from the environment, checked one way for libtt and the chip
 * model alike: unset or empty is the default; anything else must be a
 * plain decimal number (no blanks, sign or trailing characters) in range.
 */
#ifndef TT_COMMON_ENV_H
#define TT_COMMON_ENV_H

#include <stddef.h>

/*
 * *out = the value of variable name, or def if unset or empty: 0, or
 * -EINVAL with "NAME='value' is not a whole number in MIN..MAX" in
 * err (len bytes).
 */
int env_uint(const char *name, unsigned long min, unsigned long max,
	     unsigned long def, unsigned long *out, char *err, size_t len);

#endif /* TT_COMMON_ENV_H */
