// SPDX-License-Identifier: Apache-2.0
/* Settings from the environment, checked one way (internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "internal.h"

int tt_env_uint(const char *name, unsigned long min, unsigned long max,
		unsigned long def, unsigned long *out)
{
	char err[160];
	int ret = env_uint(name, min, max, def, out, err, sizeof(err));

	return ret ? tt_error(ret, "%s", err) : 0;
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

int tt_env_synonym(const char *name, const char *synonym, const char **value,
		   const char **which)
{
	const char *a = getenv(name), *b = getenv(synonym);

	if (a && !*a)
		a = NULL;
	if (b && !*b)
		b = NULL;
	if (a && b && strcmp(a, b))
		return tt_error(-EINVAL,
				"%s='%.200s' and %s='%.200s' are both set and differ: they name the same setting, set one",
				name, a, synonym, b);
	*value = a ? a : b;
	*which = a ? name : b ? synonym : name;
	return 0;
}
