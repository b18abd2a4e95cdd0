// SPDX-License-Identifier: Apache-2.0
/* Settings from the environment, checked one way (internal.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int tt_env_uint(const char *name, unsigned long min, unsigned long max,
		unsigned long def, unsigned long *out)
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
	if (!isdigit((unsigned char)*v) || *end || errno || n < min || n > max)
		return tt_error(-EINVAL,
				"%s='%.64s' is not a whole number in %lu..%lu",
				name, v, min, max);
	*out = n;
	return 0;
}

int tt_env_word(const char *name, const char *const *words, unsigned def,
		unsigned *out)
{
	const char *v = getenv(name);
	char known[256] = "";
	size_t len = 0;
	unsigned i;

	if (!v || !*v) {
		*out = def;
		return 0;
	}
	for (i = 0; words[i]; i++)
		if (!strcmp(v, words[i])) {
			*out = i;
			return 0;
		}
	for (i = 0; words[i] && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len,
					"%s%s", i ? ", " : "", words[i]);
	return tt_error(-EINVAL, "%s='%.64s' is not one of: %s", name, v,
			known);
}
