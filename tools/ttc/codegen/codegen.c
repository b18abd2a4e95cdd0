// SPDX-License-Identifier: Apache-2.0
/*
 * Codegen's entry (ttc/codegen.h): options, the compiled model's life,
 * its strings and diagnostics. Lowering is lower.c, placement and the
 * memory plan plan.c, the image write.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/internal.h"
#include "internal.h"

struct ttc_codegen_options ttc_codegen_defaults(void)
{
	return (struct ttc_codegen_options){
		.target = {"wormhole_b0", 8, 7, 1464 * 1024, 12ull << 30},
		.default_df = TT_INVALID,
		.balancer = "greedy",
		.l1_fraction = 0.25,
	};
}

const char *cg_str(ttc_compiled *c, const char *s)
{
	char *copy;

	if (!s)
		return NULL;
	if (c->nstrs == c->capstrs) {
		c->capstrs = c->capstrs ? 2 * c->capstrs : 64;
		c->strs = ttc_xrealloc(c->strs, c->capstrs * sizeof(*c->strs));
	}
	copy = ttc_xmalloc(strlen(s) + 1);
	strcpy(copy, s);
	c->strs[c->nstrs++] = copy;
	return copy;
}

const char *cg_printf(ttc_compiled *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return cg_str(c, buf);
}

int cg_error(ttc_compiled *c, const ttc_op *op, int code, const char *fmt,
	     ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (op)
		ttc_op_error(op, "%s", buf);
	else
		ttc_diag_addf(c->ctx, "codegen: %s", buf);
	return code;
}

static bool name_taken(const ttc_compiled *c, const char *name)
{
	for (size_t i = 0; i < c->ntensors; i++)
		if (strcmp(c->tensors[i].t.name, name) == 0)
			return true;
	return false;
}

static bool tame_char(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || (ch && strchr("_.:/-", ch));
}

const char *cg_tame(ttc_compiled *c, const char *want, const char *fallback,
		    size_t index, bool unique)
{
	char buf[CG_NAME_MAX + 16];
	size_t n = 0;

	for (const char *s = want ? want : ""; *s && n < CG_NAME_MAX; s++)
		buf[n++] = tame_char(*s) ? *s : '_';
	buf[n] = '\0';
	if (!n)
		n = (size_t)snprintf(buf, sizeof(buf), "%s%zu", fallback,
				     index);
	for (unsigned k = 2; unique && name_taken(c, buf); k++)
		snprintf(buf + n, sizeof(buf) - n, "#%u", k);
	return cg_str(c, buf);
}

const char *cg_op_name(ttc_compiled *c, const ttc_op *op, size_t index)
{
	const ttc_loc *l = ttc_op_loc(op);
	const char *name = ttc_op_name(op);
	const char *dot = strchr(name, '.');

	return cg_tame(c, l && ttc_loc_kind(l) == TTC_LOC_NAME ?
				  ttc_loc_str(l) : NULL,
		       dot ? dot + 1 : name, index, false);
}

void ttc_compiled_free(ttc_compiled *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->ntensors; i++)
		free(c->tensors[i].data);
	for (size_t i = 0; i < c->nstrs; i++)
		free(c->strs[i]);
	free(c->strs);
	free(c->tensors);
	free(c->ops);
	free(c->slots);
	free(c->dt);
	free(c->dops);
	free(c);
}

const struct tt_model_desc *ttc_compiled_desc(const ttc_compiled *c)
{
	return c ? &c->desc : NULL;
}

const ttc_value *ttc_compiled_tensor_value(const ttc_compiled *c,
					  unsigned tensor)
{
	const struct cg_tensor *t;

	if (!c || tensor >= c->ntensors)
		return NULL;
	t = &c->tensors[tensor];
	/* A layout change codegen added holds its twin's values. */
	if (!t->v && t->twin != ~0u)
		return c->tensors[t->twin].v;
	return t->v;
}

void ttc_compiled_stats(const ttc_compiled *c, struct ttc_plan_stats *out)
{
	*out = c->stats;
}

/* Options an API caller may get wrong: refused by name, never ignored. */
static int check_options(ttc_compiled *c)
{
	const struct ttc_codegen_options *o = &c->o;

	if (o->balancer && strcmp(o->balancer, "greedy") &&
	    strcmp(o->balancer, "min_dram"))
		return cg_error(c, NULL, -EINVAL,
				"balancer '%s': the balancers are greedy and min_dram",
				o->balancer);
	if (!(o->l1_fraction >= 0 && o->l1_fraction <= 1))
		return cg_error(c, NULL, -EINVAL,
				"l1_fraction %g is not 0..1 (0: 0.25)",
				o->l1_fraction);
	for (size_t i = 0; i < o->nop_sizes; i++)
		if (!o->op_sizes || !o->op_sizes[i].op)
			return cg_error(c, NULL, -EINVAL,
					"override_op_size #%zu names no op", i);
	return 0;
}

int ttc_codegen(ttc_func *f, const struct ttc_codegen_options *o,
		ttc_param_fn param, void *param_arg, ttc_compiled **out)
{
	ttc_compiled *c;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ctx = ttc_module_ctx(ttc_func_module(f));
	c->o = o ? *o : ttc_codegen_defaults();
	ret = check_options(c);
	if (!ret)
		ret = cg_lower(c, f, param, param_arg);
	if (!ret)
		ret = cg_plan(c);
	if (!ret && tt_model_desc_check(&c->desc))
		ret = cg_error(c, NULL, -EINVAL,
			       "the compiled model does not check: %s",
			       tt_last_error());
	if (ret) {
		ttc_compiled_free(c);
		return ret;
	}
	*out = c;
	return 0;
}
