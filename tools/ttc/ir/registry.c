// SPDX-License-Identifier: Apache-2.0
/* The op registry of a context, and attribute defaults. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static size_t find_alias(const ttc_ctx *ctx, const char *name, bool *found);

static size_t find(const ttc_ctx *ctx, const char *name, bool *found)
{
	size_t lo = 0, hi = ctx->ndefs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ctx->defs[mid]->name, name);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

int ttc_register_op(ttc_ctx *ctx, const struct ttc_op_def *def)
{
	bool found;

	if (!ctx || !def || !def->name)
		return -EINVAL;
	size_t at = find(ctx, def->name, &found);
	bool alias;

	find_alias(ctx, def->name, &alias);
	if (found || alias) {
		ttc_diag_addf(ctx, "op '%s' is registered twice", def->name);
		return -EEXIST;
	}
	if (ctx->ndefs == ctx->defcap) {
		ctx->defcap = ctx->defcap ? ctx->defcap * 2 : 64;
		ctx->defs = ttc_xrealloc(ctx->defs,
					 ctx->defcap * sizeof(*ctx->defs));
	}
	memmove(&ctx->defs[at + 1], &ctx->defs[at],
		(ctx->ndefs - at) * sizeof(*ctx->defs));
	ctx->defs[at] = def;
	ctx->ndefs++;
	return 0;
}

static size_t find_alias(const ttc_ctx *ctx, const char *name, bool *found)
{
	size_t lo = 0, hi = ctx->naliases;

	*found = false;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ctx->aliases[mid].name, name);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct ttc_op_def *ttc_lookup_op(const ttc_ctx *ctx, const char *name)
{
	bool found;

	if (!ctx || !name)
		return NULL;
	size_t at = find(ctx, name, &found);

	if (found)
		return ctx->defs[at];
	at = find_alias(ctx, name, &found);
	return found ? ctx->aliases[at].def : NULL;
}

int ttc_register_alias(ttc_ctx *ctx, const char *alias, const char *target)
{
	bool found;

	if (!ctx || !alias || !target)
		return -EINVAL;
	const struct ttc_op_def *def = ttc_lookup_op(ctx, target);

	if (!def) {
		ttc_diag_addf(ctx, "alias '%s' names op '%s', which is not "
				   "registered", alias, target);
		return -ENOENT;
	}
	size_t at = find_alias(ctx, alias, &found);

	if (found || ttc_lookup_op(ctx, alias)) {
		ttc_diag_addf(ctx, "op '%s' is registered twice", alias);
		return -EEXIST;
	}
	if (ctx->naliases == ctx->aliascap) {
		ctx->aliascap = ctx->aliascap ? ctx->aliascap * 2 : 32;
		ctx->aliases = ttc_xrealloc(ctx->aliases,
					    ctx->aliascap * sizeof(*ctx->aliases));
	}
	memmove(&ctx->aliases[at + 1], &ctx->aliases[at],
		(ctx->naliases - at) * sizeof(*ctx->aliases));
	ctx->aliases[at].name = ttc_intern(ctx, alias, strlen(alias));
	ctx->aliases[at].def = def; /* an alias of an alias is the op */
	ctx->naliases++;
	return 0;
}

size_t ttc_op_alias_count(const ttc_ctx *ctx)
{
	return ctx ? ctx->naliases : 0;
}

const char *ttc_op_alias_at(const ttc_ctx *ctx, size_t i,
			    const struct ttc_op_def **def)
{
	if (!ctx || i >= ctx->naliases)
		return NULL;
	if (def)
		*def = ctx->aliases[i].def;
	return ctx->aliases[i].name;
}

size_t ttc_op_def_count(const ttc_ctx *ctx)
{
	return ctx ? ctx->ndefs : 0;
}

const struct ttc_op_def *ttc_op_def_at(const ttc_ctx *ctx, size_t i)
{
	return ctx && i < ctx->ndefs ? ctx->defs[i] : NULL;
}

const ttc_attr *ttc_attr_spec_default(ttc_ctx *ctx,
				      const struct ttc_attr_spec *s)
{
	if (!ctx || !s || s->presence != TTC_ATTR_DEFAULT)
		return NULL;
	if (s->kind == TTC_AK_BOOL)
		return ttc_bool_attr(ctx, s->def_int != 0);
	if (s->kind == TTC_AK_STRING)
		return ttc_string_attr(ctx, s->def_str, strlen(s->def_str));
	const char *tn = s->def_type ? s->def_type : "i64";
	const ttc_type *t = ttc_parse_scalar_type(ctx, tn, strlen(tn));

	if (!t)
		return NULL;
	if (t->kind == TTC_TYPE_FLOAT)
		return ttc_float_attr(ctx, s->def_float, t);
	return ttc_int_attr(ctx, s->def_int, t);
}

const ttc_attr *ttc_infer_attr(struct ttc_infer *in, const char *name)
{
	const ttc_attr *a;

	if (!in || !name)
		return NULL;
	a = ttc_attr_dict_get(in->props, name);
	if (!a)
		a = ttc_attr_dict_get(in->attrs, name);
	if (a || !in->def)
		return a;
	for (unsigned i = 0; i < in->def->nattrs; i++)
		if (!strcmp(in->def->attrs[i].name, name))
			return ttc_attr_spec_default(in->ctx,
						     &in->def->attrs[i]);
	return NULL;
}

int ttc_op_infer(ttc_ctx *ctx, const struct ttc_op_def *def,
		 const ttc_type *const *in, size_t nin, const ttc_attr *props,
		 const ttc_type **results)
{
	if (!ctx || !def || (!in && nin) || !results)
		return -EINVAL;
	if (!def->infer) {
		ttc_diag_addf(ctx, "'%s' op: result types cannot be inferred; "
				   "give them",
			      def->name);
		return -EINVAL;
	}
	struct ttc_infer req = { .ctx = ctx, .def = def, .in = in,
				 .nin = nin, .props = props };
	int rc = def->infer(&req, results);

	if (rc > 0)
		ttc_diag_addf(ctx, "'%s' op: these operands and attributes do "
				   "not fix the result types; give them",
			      def->name);
	if (rc > 0)
		return -EINVAL;
	if (rc)
		ttc_diag_addf(ctx, "'%s' op %s", def->name, req.err);
	return rc;
}
