// SPDX-License-Identifier: Apache-2.0
/* What several commands share: the function of a module they work on, and
 * how a command-line name names one of its arguments. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

bool cli_names_arg(ttc_func *f, size_t i, const char *name)
{
	char buf[32];
	const ttc_loc *l = ttc_func_arg_loc(f, i);

	snprintf(buf, sizeof(buf), "%zu", i);
	if (!strcmp(name, buf))
		return true;
	snprintf(buf, sizeof(buf), "arg%zu", i);
	if (!strcmp(name, buf) || (name[0] == '%' && !strcmp(name + 1, buf)))
		return true;
	if (!l || ttc_loc_kind(l) != TTC_LOC_NAME)
		return false;
	if (!strcmp(ttc_loc_str(l), name))
		return true;
	/* the name as a file name ('ttc import --params' writes those) */
	char file[256];

	cli_file_name(ttc_loc_str(l), file, sizeof(file));
	return !strcmp(file, name);
}

void cli_file_name(const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s", name);
	for (char *p = out; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(".-_", *p))
			*p = '_';
}

ttc_func *cli_pick_func(ttc_module *m, const char *name)
{
	if (name)
		return ttc_module_lookup(m, name);
	for (size_t i = 0; i < ttc_module_num_items(m); i++) {
		ttc_func *f = ttc_module_item_func(m, i);
		ttc_module *sub = ttc_module_item_module(m, i);

		if (f && !ttc_func_is_declaration(f))
			return f;
		if (sub && (f = cli_pick_func(sub, NULL)))
			return f;
	}
	return NULL;
}

bool cli_arg_is_param(ttc_func *f, size_t i)
{
	const ttc_attr *d = ttc_func_arg_attrs(f, i);
	const ttc_attr *a = d ? ttc_attr_dict_get(d, "ttcore.argument_type")
			      : NULL;
	const char *s = a ? ttc_attr_str(a, NULL) : NULL;

	return s && (strstr(s, "<parameter>") || strstr(s, "<constant>"));
}

int cli_split(const char *cmd, const char *opt, const char *what, char *arg,
	      const char **name, const char **value)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return usage_error(cmd, "%s wants NAME=%s, got '%s'", opt, what,
				   arg);
	*eq = 0;
	*name = arg;
	*value = eq + 1;
	return 0;
}
