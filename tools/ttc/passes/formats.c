// SPDX-License-Identifier: Apache-2.0
/*
 * formats: the data format, accumulation format and math fidelity of
 * every op, as PyBuda chooses them, written as the discardable attributes
 * ttc.df, ttc.acc_df (tt_data_format_name's spelling: "Float16_b") and
 * ttc.fidelity ("HiFi3"); matmul-like ops under AMP levels 1 and 2 also
 * get ttc.weight_df, the format of their weights. Later settings win:
 * the defaults (default_df, or the result's element type), then the AMP
 * level, then each configure_mixed_precision override in order.
 * Integer results keep their integer format whatever is asked.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct choice {
	enum tt_data_format df, acc, weight;
	enum tt_math_fidelity fid;
	bool is_int;
};

struct fmt_state {
	regex_t *re; /* one per override with a regex */
	bool *have;
};

/* The format of a tensor of elem as it is stored; TT_INVALID if none. */
static enum tt_data_format elem_format(const ttc_type *e)
{
	if (ttc_type_kind(e) == TTC_TYPE_FLOAT)
		switch (ttc_type_float_kind(e)) {
		case TTC_BF16:
			return TT_FLOAT16_B;
		case TTC_F16:
			return TT_FLOAT16;
		default:
			return TT_FLOAT32;
		}
	if (ttc_type_kind(e) != TTC_TYPE_INT)
		return TT_INVALID;
	bool u = ttc_type_signedness(e) == TTC_UNSIGNED;

	switch (ttc_type_width(e)) {
	case 1:
	case 8:
		return u || ttc_type_width(e) == 1 ? TT_UINT8 : TT_INT8;
	case 16:
		return TT_UINT16;
	default: /* the device has no 64-bit integers */
		return u ? TT_UINT32 : TT_INT32;
	}
}

static bool matmul_like(const char *n)
{
	return !strcmp(n, "ttir.matmul") || !strcmp(n, "ttir.linear") ||
	       !strcmp(n, "ttir.dot_general") || !strcmp(n, "ttir.conv2d") ||
	       !strcmp(n, "ttir.conv_transpose2d");
}

static bool amp_high_precision(const ttc_op *op)
{
	const char *n = ttc_op_name(op);

	return !strcmp(n, "ttir.softmax") || !strcmp(n, "ttir.layer_norm") ||
	       !strcmp(n, "ttir.rms_norm") || !strcmp(n, "pybuda.softmax") ||
	       !strcmp(n, "pybuda.layernorm") ||
	       ttc_op_attr(op, "ttc.activation");
}

/* PyBuda's AMP levels (docs/compiler.md, "formats"). */
static void amp(const ttc_op *op, int level, struct choice *c)
{
	bool mm = matmul_like(ttc_op_name(op));

	if (level == 1 && mm) {
		c->weight = TT_BFP8_B;
		c->fid = TT_HIFI2;
	} else if (level == 2 && mm) {
		c->weight = TT_BFP4_B;
		c->fid = TT_LOFI;
	} else if (level >= 3) {
		bool high = amp_high_precision(op);

		if (!c->is_int)
			c->df = high ? TT_FLOAT16_B : TT_BFP8_B;
		if (mm)
			c->fid = TT_HIFI2;
	}
}

/* The op's name: the first name of its location. */
static const char *loc_name(const ttc_loc *l)
{
	if (!l)
		return NULL;
	if (ttc_loc_kind(l) == TTC_LOC_NAME)
		return ttc_loc_str(l);
	for (size_t i = 0; i < ttc_loc_num_children(l); i++) {
		const char *n = loc_name(ttc_loc_child(l, i));

		if (n)
			return n;
	}
	return NULL;
}

static bool type_matches(const char *want, const char *name)
{
	const char *dot = strchr(name, '.');

	return !strcmp(want, name) || (!strchr(want, '.') && dot &&
				       !strcmp(want, dot + 1));
}

static bool matches(const struct ttc_mp_override *o, const regex_t *re,
		    const ttc_op *op)
{
	const char *n = loc_name(ttc_op_loc(op));

	if (!o->name && !re && !o->op_type)
		return false;
	if (o->name && (!n || strcmp(o->name, n)))
		return false;
	if (re && (!n || regexec(re, n, 0, NULL, 0)))
		return false;
	return !o->op_type || type_matches(o->op_type, ttc_op_name(op));
}

static void apply(const struct ttc_mp_override *o, struct choice *c)
{
	if (o->df != TT_INVALID && !c->is_int)
		c->df = o->df;
	if (o->acc_df != TT_INVALID)
		c->acc = o->acc_df;
	if (o->fidelity != TTC_FIDELITY_UNSET)
		c->fid = o->fidelity;
}

static const ttc_attr *str(ttc_ctx *ctx, const char *s)
{
	return ttc_string_attr(ctx, s, strlen(s));
}

static void annotate(ttc_op *op, struct ttc_pass_ctx *pc,
		     const struct fmt_state *st)
{
	const struct ttc_pass_options *o = pc->opts;
	const ttc_type *t = ttc_value_type(ttc_op_result(op, 0));
	struct choice c = { TT_INVALID, o->acc_df, TT_INVALID, o->fidelity,
			    false };
	enum tt_data_format ef = ttc_type_is_tensor(t) ?
					 elem_format(ttc_type_elem(t)) :
					 TT_INVALID;

	c.is_int = ef != TT_INVALID && ef != TT_FLOAT32 && ef != TT_FLOAT16 &&
		   ef != TT_FLOAT16_B;
	c.df = c.is_int || o->default_df == TT_INVALID ? ef : o->default_df;
	amp(op, o->amp_level, &c);
	for (size_t i = 0; i < o->noverrides; i++)
		if (matches(&o->overrides[i], st->have[i] ? &st->re[i] : NULL,
			    op))
			apply(&o->overrides[i], &c);
	const ttc_attr *d = ttc_op_attrs(op);
	ttc_ctx *ctx = pc->ctx;

	if (c.df != TT_INVALID)
		d = ttc_attr_dict_set(ctx, d, "ttc.df",
				      str(ctx, tt_data_format_name(c.df)));
	d = ttc_attr_dict_set(ctx, d, "ttc.acc_df",
			      str(ctx, tt_data_format_name(c.acc)));
	if (ttc_fidelity_name(c.fid))
		d = ttc_attr_dict_set(ctx, d, "ttc.fidelity",
				      str(ctx, ttc_fidelity_name(c.fid)));
	if (c.weight != TT_INVALID)
		d = ttc_attr_dict_set(ctx, d, "ttc.weight_df",
				      str(ctx, tt_data_format_name(c.weight)));
	ttc_op_set_attrs(op, d);
	pc->stats->annotated++;
}

static void walk(ttc_module *m, struct ttc_pass_ctx *pc,
		 const struct fmt_state *st)
{
	for (size_t i = 0; i < ttc_module_num_items(m); i++) {
		ttc_func *f = ttc_module_item_func(m, i);
		ttc_module *sub = ttc_module_item_module(m, i);

		for (ttc_op *op = f ? ttc_func_first_op(f) : NULL; op;
		     op = ttc_op_next(op))
			if (ttc_op_num_results(op) && pass_op_is_pure(op))
				annotate(op, pc, st);
		if (sub)
			walk(sub, pc, st);
	}
}

static int check_options(struct ttc_pass_ctx *pc)
{
	const struct ttc_pass_options *o = pc->opts;

	if (o->amp_level < 0 || o->amp_level > 3)
		return pass_fail(pc, NULL, -EINVAL,
				 "amp_level %d is not 0, 1, 2 or 3",
				 o->amp_level);
	if (o->default_df != TT_INVALID &&
	    !strcmp(tt_data_format_name(o->default_df), "Invalid"))
		return pass_fail(pc, NULL, -EINVAL, "default_df %d is not a "
				 "data format", (int)o->default_df);
	if (!strcmp(tt_data_format_name(o->acc_df), "Invalid"))
		return pass_fail(pc, NULL, -EINVAL, "acc_df %d is not a data "
				 "format", (int)o->acc_df);
	if (!ttc_fidelity_name(o->fidelity))
		return pass_fail(pc, NULL, -EINVAL, "fidelity %d is not LoFi, "
				 "HiFi2, HiFi3 or HiFi4", (int)o->fidelity);
	if (o->noverrides && !o->overrides)
		return pass_fail(pc, NULL, -EINVAL,
				 "%zu overrides and no array", o->noverrides);
	return 0;
}

static int run_module(ttc_module *m, struct ttc_pass_ctx *pc)
{
	const struct ttc_pass_options *o = pc->opts;
	size_t n = o->noverrides;
	struct fmt_state st;
	int rc;

	if ((rc = check_options(pc)))
		return rc;
	st.re = calloc(n + 1, sizeof(*st.re));
	st.have = calloc(n + 1, sizeof(*st.have));
	if (!st.re || !st.have) {
		rc = pass_fail(pc, NULL, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		int e;

		if (!o->overrides[i].regex)
			continue;
		if ((e = regcomp(&st.re[i], o->overrides[i].regex,
				 REG_EXTENDED | REG_NOSUB))) {
			char msg[128];

			regerror(e, &st.re[i], msg, sizeof(msg));
			rc = pass_fail(pc, NULL, -EINVAL,
				       "override #%zu: regex '%s': %s", i,
				       o->overrides[i].regex, msg);
			goto out;
		}
		st.have[i] = true;
	}
	walk(m, pc, &st);
out:
	for (size_t i = 0; st.have && i < n; i++)
		if (st.have[i])
			regfree(&st.re[i]);
	free(st.re);
	free(st.have);
	return rc;
}

const struct ttc_pass ttc_pass_formats = {
	.name = "formats",
	.summary = "data formats and math fidelity of every op (defaults, "
		   "AMP level, configure_mixed_precision)",
	.run_module = run_module,
};
