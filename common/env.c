// SPDX-License-Identifier: Apache-2.0
#include "env.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int env_uint(const char *name, unsigned long min, unsigned long max,
	     unsigned long def, unsigned long *out, char *err, size_t len)
{
	const char *v = getenv(name);
	unsigned long n;
	char *end;

	if (!v || !*v) {
		*out = def;
		return 0;
	}
	/* strtoul takes leading blanks and a sign; a setting has neither. */
	errno = 0;
	n = isdigit((unsigned char)*v) ? strtoul(v, &end, 10) : 0;
	if (!isdigit((unsigned char)*v) || *end || errno || n < min ||
	    n > max) {
		snprintf(err, len, "%s='%.64s' is not a whole number in %lu..%lu",
			 name, v, min, max);
		return -EINVAL;
	}
	*out = n;
	return 0;
}
