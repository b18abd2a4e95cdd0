// SPDX-License-Identifier: Apache-2.0
/*
 * The op records of a model (docs/image.md, "Ops"): each names an op of
 * the device op library and carries its arguments as text attributes.
 * This table is the one place that knows how a record becomes a tt_op_*
 * call: the manifest's checks parse every attribute through it, and the
 * runtime makes the call. The output's format and place come from its
 * tensor, so a config never disagrees with the buffer it writes.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* ---- attribute parsers: 0, or -EINVAL naming nothing (the caller
 * names the op and attribute) ---- */

static int parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int parse_float(const char *s, float *out)
{
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	*out = strtof(s, &end);
	return errno || *end || !isfinite(*out) ? -EINVAL : 0;
}

static int parse_bool(const char *s, bool *out)
{
	if (s && strcmp(s, "true") == 0)
		*out = true;
	else if (s && strcmp(s, "false") == 0)
		*out = false;
	else
		return -EINVAL;
	return 0;
}

static int parse_xy(const char *s, struct tt_xy *out)
{
	uint32_t x, y;
	char buf[16], *sep;

	if (!s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	sep = strchr(buf, 'x');
	if (!sep)
		return -EINVAL;
	*sep = '\0';
	if (parse_u32(buf, 64, &x) || parse_u32(sep + 1, 64, &y) || !x || !y)
		return -EINVAL;
	*out = (struct tt_xy){x, y};
	return 0;
}

/* "0,2,1": up to max integers in [min, max_v]. Returns the count. */
static int parse_ints(const char *s, int64_t min, int64_t max_v,
		      int64_t *out, unsigned max)
{
	unsigned n = 0;
	char *end;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		long long v;

		if (n == max)
			return -EINVAL;
		errno = 0;
		v = strtoll(s, &end, 10);
		if (errno || end == s || v < min || v > max_v)
			return -EINVAL;
		out[n++] = v;
		if (!*end)
			return (int)n;
		if (*end != ',')
			return -EINVAL;
		s = end + 1;
	}
}

static int parse_fidelity(const char *s, enum tt_math_fidelity *out)
{
	static const struct {
		const char *name;
		enum tt_math_fidelity f;
	} t[] = {{"LoFi", TT_LOFI}, {"HiFi2", TT_HIFI2}, {"HiFi3", TT_HIFI3},
		 {"HiFi4", TT_HIFI4}};

	for (unsigned i = 0; s && i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(s, t[i].name) == 0) {
			*out = t[i].f;
			return 0;
		}
	return -EINVAL;
}

static int parse_switch(const char *s, enum tt_ops_switch *out)
{
	bool b;

	if (parse_bool(s, &b))
		return -EINVAL;
	*out = b ? TT_OPS_ON : TT_OPS_OFF;
	return 0;
}

static int parse_unary(const char *s, enum tt_unary_op *out)
{
	for (int i = 0; s && i < TT_UNARY_OP_COUNT; i++)
		if (strcmp(s, tt_unary_op_name((enum tt_unary_op)i)) == 0) {
			*out = (enum tt_unary_op)i;
			return 0;
		}
	return -EINVAL;
}

static int parse_binary(const char *s, enum tt_binary_op *out)
{
	for (int i = 0; s && i < TT_BINARY_OP_COUNT; i++)
		if (strcmp(s, tt_binary_op_name((enum tt_binary_op)i)) == 0) {
			*out = (enum tt_binary_op)i;
			return 0;
		}
	return -EINVAL;
}

static int parse_reduce(const char *s, enum tt_reduce_op *out)
{
	for (int i = 0; s && i < TT_REDUCE_OP_COUNT; i++)
		if (strcmp(s, tt_reduce_op_name((enum tt_reduce_op)i)) == 0) {
			*out = (enum tt_reduce_op)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- the attributes every op may take ---- */

struct common {
	struct tt_xy grid;
	enum tt_math_fidelity fidelity;
	enum tt_ops_switch fp32_acc, approx;
	struct tt_unary_fn act;
};

/* Each attribute once: its parser, by name. -EINVAL naming it. */
static int attr_fail(const struct tt_model_op *op, const char *name,
		     const char *want)
{
	return tt_error(-EINVAL, "op %s (%s): attribute %s = \"%s\": %s",
			op->name, op->op, name,
			tt_model_attr(op, name) ?: "", want);
}

static int parse_common(const struct tt_model_op *op, struct common *c)
{
	const char *v;
	uint32_t n;

	*c = (struct common){.fidelity = TT_OPS_FIDELITY_AUTO};
	if ((v = tt_model_attr(op, "grid")) && parse_xy(v, &c->grid))
		return attr_fail(op, "grid", "not XxY with 1..64 each");
	if ((v = tt_model_attr(op, "fidelity")) &&
	    parse_fidelity(v, &c->fidelity))
		return attr_fail(op, "fidelity", "not LoFi, HiFi2, HiFi3, HiFi4");
	if ((v = tt_model_attr(op, "fp32_acc")) &&
	    parse_switch(v, &c->fp32_acc))
		return attr_fail(op, "fp32_acc", "not true or false");
	if ((v = tt_model_attr(op, "approx")) && parse_switch(v, &c->approx))
		return attr_fail(op, "approx", "not true or false");
	if ((v = tt_model_attr(op, "activation")) &&
	    parse_unary(v, &c->act.op))
		return attr_fail(op, "activation", "not a unary function");
	if ((v = tt_model_attr(op, "activation_p0")) &&
	    parse_float(v, &c->act.p0))
		return attr_fail(op, "activation_p0", "not a finite number");
	if ((v = tt_model_attr(op, "activation_p1")) &&
	    parse_float(v, &c->act.p1))
		return attr_fail(op, "activation_p1", "not a finite number");
	if ((v = tt_model_attr(op, "epoch")) && parse_u32(v, 1u << 20, &n))
		return attr_fail(op, "epoch", "not a number");
	if ((v = tt_model_attr(op, "chip")) && parse_u32(v, 1u << 20, &n))
		return attr_fail(op, "chip", "not a number");
	return 0;
}

/* epoch and chip: where the op falls in the compile's epochs and chip
 * stages (reports show them; one chip runs the ops in order). */
static const char *const common_attrs[] = {
	"grid", "fidelity", "fp32_acc", "approx", "activation",
	"activation_p0", "activation_p1", "epoch", "chip", NULL};

/* Output placement from the output tensor (a check without a model:
 * auto). */
static enum tt_ops_mem out_mem(const struct tt_model_call *c)
{
	if (!c->d)
		return TT_OPS_MEM_AUTO;
	return c->d->tensors[c->op->out].l1 ? TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
}

static enum tt_data_format out_format(const struct tt_model_call *c)
{
	if (!c->d)
		return TT_OPS_FORMAT_AUTO;
	return c->d->tensors[c->op->out].format;
}

/* What every family's config takes from the record and its output: the
 * grid, where the output lives, its format, 32-bit accumulation. */
#define SET_COMMON(cfg, c, k)                                                  \
	do {                                                                   \
		(cfg).grid = (k).grid;                                         \
		(cfg).out_mem = out_mem(c);                                    \
		(cfg).out_format = out_format(c);                              \
		(cfg).fp32_acc = (k).fp32_acc;                                 \
	} while (0)

static struct tt_eltwise_cfg eltwise_cfg(const struct tt_model_call *c,
					 const struct common *k)
{
	struct tt_eltwise_cfg cfg = tt_op_eltwise_config();

	SET_COMMON(cfg, c, *k);
	cfg.math_fidelity = k->fidelity;
	cfg.approx = k->approx;
	cfg.activation = k->act;
	return cfg;
}

/* ---- the ops ---- */

static int run_unary(struct tt_model_call *c)
{
	struct tt_unary_fn fn = {0};
	struct common k;
	struct tt_eltwise_cfg cfg;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (parse_unary(tt_model_attr(c->op, "fn"), &fn.op))
		return attr_fail(c->op, "fn", "not a unary function");
	if (tt_model_attr(c->op, "p0") &&
	    parse_float(tt_model_attr(c->op, "p0"), &fn.p0))
		return attr_fail(c->op, "p0", "not a finite number");
	if (tt_model_attr(c->op, "p1") &&
	    parse_float(tt_model_attr(c->op, "p1"), &fn.p1))
		return attr_fail(c->op, "p1", "not a finite number");
	if (!c->ctx)
		return 0;
	cfg = eltwise_cfg(c, &k);
	return tt_op_unary(c->ctx, c->in[0], &fn, &cfg, &c->out);
}

static int run_binary(struct tt_model_call *c)
{
	enum tt_binary_op fn;
	struct common k;
	struct tt_eltwise_cfg cfg;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (parse_binary(tt_model_attr(c->op, "fn"), &fn))
		return attr_fail(c->op, "fn", "not a binary function");
	if (!c->ctx)
		return 0;
	cfg = eltwise_cfg(c, &k);
	return tt_op_binary(c->ctx, fn, c->in[0], c->in[1], &cfg, &c->out);
}

static int run_where(struct tt_model_call *c)
{
	struct common k;
	struct tt_eltwise_cfg cfg;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (!c->ctx)
		return 0;
	cfg = eltwise_cfg(c, &k);
	return tt_op_where(c->ctx, c->in[0], c->in[1], c->in[2], &cfg, &c->out);
}

static int run_typecast(struct tt_model_call *c)
{
	struct common k;
	struct tt_eltwise_cfg cfg;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (!c->ctx)
		return 0;
	cfg = eltwise_cfg(c, &k);
	return tt_op_typecast(c->ctx, c->in[0], out_format(c), &cfg, &c->out);
}

static int matmul_cfg(struct tt_model_call *c, struct tt_matmul_cfg *cfg)
{
	struct common k;
	const char *v;

	if (parse_common(c->op, &k))
		return -EINVAL;
	*cfg = tt_op_matmul_config();
	SET_COMMON(*cfg, c, k);
	cfg->math_fidelity = k.fidelity;
	cfg->activation = k.act;
	if ((v = tt_model_attr(c->op, "transpose_a")) &&
	    parse_bool(v, &cfg->transpose_a))
		return attr_fail(c->op, "transpose_a", "not true or false");
	if ((v = tt_model_attr(c->op, "transpose_b")) &&
	    parse_bool(v, &cfg->transpose_b))
		return attr_fail(c->op, "transpose_b", "not true or false");
	return 0;
}

static int run_matmul(struct tt_model_call *c)
{
	struct tt_matmul_cfg cfg;

	if (matmul_cfg(c, &cfg))
		return -EINVAL;
	if (!c->ctx)
		return 0;
	return tt_op_matmul(c->ctx, c->in[0], c->in[1], &cfg, &c->out);
}

static int run_linear(struct tt_model_call *c)
{
	struct tt_matmul_cfg cfg;

	if (matmul_cfg(c, &cfg))
		return -EINVAL;
	if (!c->ctx)
		return 0;
	return tt_op_linear(c->ctx, c->in[0], c->in[1], c->in[2], &cfg,
			    &c->out);
}

static int run_softmax(struct tt_model_call *c)
{
	struct tt_softmax_cfg cfg = tt_op_softmax_config();
	struct common k;
	const char *v;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if ((v = tt_model_attr(c->op, "scale")) && parse_float(v, &cfg.scale))
		return attr_fail(c->op, "scale", "not a finite number");
	if ((v = tt_model_attr(c->op, "causal")) && parse_bool(v, &cfg.causal))
		return attr_fail(c->op, "causal", "not true or false");
	if (!c->ctx)
		return 0;
	SET_COMMON(cfg, c, k);
	cfg.math_fidelity = k.fidelity;
	cfg.mask = c->in[1];
	return tt_op_softmax(c->ctx, c->in[0], &cfg, &c->out);
}

static int norm(struct tt_model_call *c, bool rms)
{
	struct tt_norm_cfg cfg = tt_op_norm_config();
	struct common k;
	float eps = 1e-5f;
	const char *v;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if ((v = tt_model_attr(c->op, "eps")) &&
	    (parse_float(v, &eps) || eps < 0))
		return attr_fail(c->op, "eps", "not a number >= 0");
	if (!c->ctx)
		return 0;
	SET_COMMON(cfg, c, k);
	cfg.math_fidelity = k.fidelity;
	if (rms)
		return tt_op_rmsnorm(c->ctx, c->in[0], c->in[1], eps, &cfg,
				     &c->out);
	return tt_op_layernorm(c->ctx, c->in[0], c->in[1], c->in[2], eps, &cfg,
			       &c->out);
}

static int run_layernorm(struct tt_model_call *c)
{
	return norm(c, false);
}

static int run_rmsnorm(struct tt_model_call *c)
{
	return norm(c, true);
}

static int run_reduce(struct tt_model_call *c)
{
	struct tt_reduce_cfg cfg = tt_op_reduce_config();
	enum tt_reduce_op fn;
	int64_t dims[TT_TENSOR_MAX_RANK];
	uint32_t mask = 0;
	bool keepdim = true;
	struct common k;
	int n;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (parse_reduce(tt_model_attr(c->op, "fn"), &fn))
		return attr_fail(c->op, "fn", "not sum, mean, max or min");
	n = parse_ints(tt_model_attr(c->op, "dims"), 0, TT_TENSOR_MAX_RANK - 1,
		       dims, TT_TENSOR_MAX_RANK);
	if (n < 1)
		return attr_fail(c->op, "dims", "not a list of dimensions 0..3");
	for (int i = 0; i < n; i++)
		mask |= TT_REDUCE_DIM(dims[i]);
	if (tt_model_attr(c->op, "keepdim") &&
	    parse_bool(tt_model_attr(c->op, "keepdim"), &keepdim))
		return attr_fail(c->op, "keepdim", "not true or false");
	if (!c->ctx)
		return 0;
	SET_COMMON(cfg, c, k);
	cfg.math_fidelity = k.fidelity;
	return tt_op_reduce(c->ctx, c->in[0], fn, mask, keepdim, &cfg, &c->out);
}

static int run_argmax(struct tt_model_call *c)
{
	struct tt_reduce_cfg cfg = tt_op_reduce_config();
	bool keepdim = true;
	struct common k;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (tt_model_attr(c->op, "keepdim") &&
	    parse_bool(tt_model_attr(c->op, "keepdim"), &keepdim))
		return attr_fail(c->op, "keepdim", "not true or false");
	if (!c->ctx)
		return 0;
	SET_COMMON(cfg, c, k);
	cfg.math_fidelity = k.fidelity;
	return tt_op_argmax(c->ctx, c->in[0], keepdim, &cfg, &c->out);
}

static int run_cumsum(struct tt_model_call *c)
{
	struct tt_reduce_cfg cfg = tt_op_reduce_config();
	struct common k;
	int dim;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (parse_int(tt_model_attr(c->op, "dim"), -4, 3, &dim))
		return attr_fail(c->op, "dim", "not a dimension -4..3");
	if (!c->ctx)
		return 0;
	SET_COMMON(cfg, c, k);
	cfg.math_fidelity = k.fidelity;
	return tt_op_cumsum(c->ctx, c->in[0], dim, &cfg, &c->out);
}

static struct tt_data_cfg data_cfg(const struct tt_model_call *c,
				   const struct common *k)
{
	struct tt_data_cfg cfg = tt_op_data_config();

	cfg.grid = k->grid;
	cfg.out_mem = out_mem(c);
	cfg.out_format = out_format(c);
	return cfg;
}

static int run_transpose(struct tt_model_call *c)
{
	struct tt_data_cfg cfg;
	struct common k;
	int d0, d1;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (parse_int(tt_model_attr(c->op, "dim0"), -4, 3, &d0))
		return attr_fail(c->op, "dim0", "not a dimension -4..3");
	if (parse_int(tt_model_attr(c->op, "dim1"), -4, 3, &d1))
		return attr_fail(c->op, "dim1", "not a dimension -4..3");
	if (!c->ctx)
		return 0;
	cfg = data_cfg(c, &k);
	return tt_op_transpose(c->ctx, c->in[0], d0, d1, &cfg, &c->out);
}

static int run_permute(struct tt_model_call *c)
{
	int64_t p[TT_TENSOR_MAX_RANK];
	unsigned perm[TT_TENSOR_MAX_RANK];
	struct tt_data_cfg cfg;
	struct common k;
	int n;

	if (parse_common(c->op, &k))
		return -EINVAL;
	n = parse_ints(tt_model_attr(c->op, "perm"), 0, TT_TENSOR_MAX_RANK - 1,
		       p, TT_TENSOR_MAX_RANK);
	if (n < 1)
		return attr_fail(c->op, "perm", "not a permutation of 0..3");
	if (!c->ctx)
		return 0;
	for (int i = 0; i < n; i++)
		perm[i] = (unsigned)p[i];
	cfg = data_cfg(c, &k);
	return tt_op_permute(c->ctx, c->in[0], perm, &cfg, &c->out);
}

static int run_reshape(struct tt_model_call *c)
{
	struct tt_data_cfg cfg;
	struct common k;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (!c->ctx)
		return 0;
	cfg = data_cfg(c, &k);
	return tt_op_reshape(c->ctx, c->in[0],
			     &c->d->tensors[c->op->out].shape, &cfg, &c->out);
}

static int run_concat(struct tt_model_call *c)
{
	struct tt_data_cfg cfg;
	struct common k;
	int dim;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (parse_int(tt_model_attr(c->op, "dim"), -4, 3, &dim))
		return attr_fail(c->op, "dim", "not a dimension -4..3");
	if (!c->ctx)
		return 0;
	cfg = data_cfg(c, &k);
	return tt_op_concat(c->ctx, c->in, c->op->nin, dim, &cfg, &c->out);
}

static int run_slice(struct tt_model_call *c)
{
	int64_t s[TT_TENSOR_MAX_RANK], e[TT_TENSOR_MAX_RANK],
		st[TT_TENSOR_MAX_RANK];
	struct tt_data_cfg cfg;
	struct common k;
	int n0, n1, n2;

	if (parse_common(c->op, &k))
		return -EINVAL;
	n0 = parse_ints(tt_model_attr(c->op, "start"), INT32_MIN, INT32_MAX, s,
			TT_TENSOR_MAX_RANK);
	n1 = parse_ints(tt_model_attr(c->op, "end"), INT32_MIN, INT32_MAX, e,
			TT_TENSOR_MAX_RANK);
	n2 = parse_ints(tt_model_attr(c->op, "step"), 1, INT32_MAX, st,
			TT_TENSOR_MAX_RANK);
	if (n0 < 1 || n1 != n0 || n2 != n0)
		return attr_fail(c->op, "start",
				 "start, end and step must be lists of one length");
	if (!c->ctx)
		return 0;
	cfg = data_cfg(c, &k);
	return tt_op_slice(c->ctx, c->in[0], s, e, st, &cfg, &c->out);
}

static int run_embedding(struct tt_model_call *c)
{
	struct tt_data_cfg cfg;
	struct common k;

	if (parse_common(c->op, &k))
		return -EINVAL;
	if (!c->ctx)
		return 0;
	cfg = data_cfg(c, &k);
	return tt_op_embedding(c->ctx, c->in[0], c->in[1], &cfg, &c->out);
}

static int run_repeat(struct tt_model_call *c)
{
	int64_t r[TT_TENSOR_MAX_RANK];
	uint64_t reps[TT_TENSOR_MAX_RANK];
	struct tt_data_cfg cfg;
	struct common k;
	int n;

	if (parse_common(c->op, &k))
		return -EINVAL;
	n = parse_ints(tt_model_attr(c->op, "reps"), 1, INT32_MAX, r,
		       TT_TENSOR_MAX_RANK);
	if (n < 1)
		return attr_fail(c->op, "reps", "not a list of counts >= 1");
	if (!c->ctx)
		return 0;
	if ((unsigned)n != tt_device_tensor_shape(c->in[0])->rank)
		return tt_error(-EINVAL,
				"op %s (repeat): %d counts for a rank-%u input",
				c->op->name, n,
				tt_device_tensor_shape(c->in[0])->rank);
	for (int i = 0; i < n; i++)
		reps[i] = (uint64_t)r[i];
	cfg = data_cfg(c, &k);
	return tt_op_repeat(c->ctx, c->in[0], reps, &cfg, &c->out);
}

/* A pad value: a number, or an infinity (-inf pads a max pool). */
static int parse_value(const char *s, float *out)
{
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	*out = strtof(s, &end);
	return errno || *end || isnan(*out) ? -EINVAL : 0;
}

static int run_pad(struct tt_model_call *c)
{
	int64_t b[TT_TENSOR_MAX_RANK], a[TT_TENSOR_MAX_RANK];
	uint64_t before[TT_TENSOR_MAX_RANK], after[TT_TENSOR_MAX_RANK];
	struct tt_data_cfg cfg;
	struct common k;
	float value = 0;
	int n0, n1;

	if (parse_common(c->op, &k))
		return -EINVAL;
	n0 = parse_ints(tt_model_attr(c->op, "before"), 0, INT32_MAX, b,
			TT_TENSOR_MAX_RANK);
	n1 = parse_ints(tt_model_attr(c->op, "after"), 0, INT32_MAX, a,
			TT_TENSOR_MAX_RANK);
	if (n0 < 1 || n1 != n0)
		return attr_fail(c->op, "before",
				 "before and after must be lists of one length");
	if (tt_model_attr(c->op, "value") &&
	    parse_value(tt_model_attr(c->op, "value"), &value))
		return attr_fail(c->op, "value", "not a number or an infinity");
	if (!c->ctx)
		return 0;
	if ((unsigned)n0 != tt_device_tensor_shape(c->in[0])->rank)
		return tt_error(-EINVAL,
				"op %s (pad): %d entries for a rank-%u input",
				c->op->name, n0,
				tt_device_tensor_shape(c->in[0])->rank);
	for (int i = 0; i < n0; i++) {
		before[i] = (uint64_t)b[i];
		after[i] = (uint64_t)a[i];
	}
	cfg = data_cfg(c, &k);
	return tt_op_pad(c->ctx, c->in[0], before, after, value, &cfg, &c->out);
}

/* ---- convolution and pooling: NHWC activations as rows [1, 1, N*H*W, C]
 * (docs/ops.md) ---- */

/* The window's attributes into the params' fields, by name. */
struct win_attr {
	const char *name;
	size_t off; /* offsetof in the params struct */
	uint32_t min, max;
};

#define WIN(st, f, lo, hi) {#f, offsetof(struct st, f), lo, hi}

static const struct win_attr conv_attrs[] = {
	WIN(tt_conv2d_params, batch, 1, 1u << 20),
	WIN(tt_conv2d_params, in_h, 1, 1u << 20),
	WIN(tt_conv2d_params, in_w, 1, 1u << 20),
	WIN(tt_conv2d_params, kernel_h, 1, 1024),
	WIN(tt_conv2d_params, kernel_w, 1, 1024),
	WIN(tt_conv2d_params, stride_h, 1, 1024),
	WIN(tt_conv2d_params, stride_w, 1, 1024),
	WIN(tt_conv2d_params, pad_top, 0, 1024),
	WIN(tt_conv2d_params, pad_bottom, 0, 1024),
	WIN(tt_conv2d_params, pad_left, 0, 1024),
	WIN(tt_conv2d_params, pad_right, 0, 1024),
	WIN(tt_conv2d_params, dilation_h, 1, 1024),
	WIN(tt_conv2d_params, dilation_w, 1, 1024),
	WIN(tt_conv2d_params, groups, 1, 1u << 16),
};

static const struct win_attr pool_attrs[] = {
	WIN(tt_pool2d_params, batch, 1, 1u << 20),
	WIN(tt_pool2d_params, in_h, 1, 1u << 20),
	WIN(tt_pool2d_params, in_w, 1, 1u << 20),
	WIN(tt_pool2d_params, kernel_h, 1, 1024),
	WIN(tt_pool2d_params, kernel_w, 1, 1024),
	WIN(tt_pool2d_params, stride_h, 1, 1024),
	WIN(tt_pool2d_params, stride_w, 1, 1024),
	WIN(tt_pool2d_params, pad_top, 0, 1024),
	WIN(tt_pool2d_params, pad_bottom, 0, 1024),
	WIN(tt_pool2d_params, pad_left, 0, 1024),
	WIN(tt_pool2d_params, pad_right, 0, 1024),
	WIN(tt_pool2d_params, dilation_h, 1, 1024),
	WIN(tt_pool2d_params, dilation_w, 1, 1024),
};

/* Every attribute of list (all required; groups and dilations default
 * to 1 in the params given). */
static int parse_window(const struct tt_model_op *op,
			const struct win_attr *list, size_t n, void *params)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = tt_model_attr(op, list[i].name);
		uint32_t *f = (uint32_t *)((char *)params + list[i].off);

		if (!v && (strstr(list[i].name, "dilation") ||
			   !strcmp(list[i].name, "groups")))
			continue;
		if (parse_u32(v, list[i].max, f) || *f < list[i].min)
			return attr_fail(op, list[i].name,
					 "missing, or not a number in range");
	}
	return 0;
}

static int run_conv2d(struct tt_model_call *c)
{
	struct tt_conv2d_params p = tt_conv2d_params_default();
	struct tt_conv2d_cfg cfg = tt_op_conv2d_config();
	struct common k;

	if (parse_common(c->op, &k) ||
	    parse_window(c->op, conv_attrs,
			 sizeof(conv_attrs) / sizeof(conv_attrs[0]), &p))
		return -EINVAL;
	if (!c->ctx)
		return 0;
	SET_COMMON(cfg, c, k);
	cfg.math_fidelity = k.fidelity;
	cfg.activation = k.act;
	return tt_op_conv2d(c->ctx, c->in[0], c->in[1], c->in[2], &p, &cfg,
			    &c->out);
}

static int pool(struct tt_model_call *c, bool max)
{
	struct tt_pool2d_params p = tt_pool2d_params_default();
	struct tt_pool_cfg cfg = tt_op_pool_config();
	struct common k;
	const char *v;

	if (parse_common(c->op, &k) ||
	    parse_window(c->op, pool_attrs,
			 sizeof(pool_attrs) / sizeof(pool_attrs[0]), &p))
		return -EINVAL;
	if ((v = tt_model_attr(c->op, "ceil_mode")) &&
	    parse_bool(v, &p.ceil_mode))
		return attr_fail(c->op, "ceil_mode", "not true or false");
	if ((v = tt_model_attr(c->op, "count_include_pad")) &&
	    parse_bool(v, &p.count_include_pad))
		return attr_fail(c->op, "count_include_pad", "not true or false");
	if (!c->ctx)
		return 0;
	SET_COMMON(cfg, c, k);
	return max ? tt_op_max_pool2d(c->ctx, c->in[0], &p, &cfg, &c->out)
		   : tt_op_avg_pool2d(c->ctx, c->in[0], &p, &cfg, &c->out);
}

static int run_max_pool2d(struct tt_model_call *c)
{
	return pool(c, true);
}

static int run_avg_pool2d(struct tt_model_call *c)
{
	return pool(c, false);
}

static int run_global_avg_pool(struct tt_model_call *c)
{
	struct tt_pool2d_params p = tt_pool2d_params_default();
	struct tt_pool_cfg cfg = tt_op_pool_config();
	struct common k;

	if (parse_common(c->op, &k) || parse_window(c->op, pool_attrs, 3, &p))
		return -EINVAL;
	if (!c->ctx)
		return 0;
	SET_COMMON(cfg, c, k);
	return tt_op_global_avg_pool2d(c->ctx, c->in[0], p.batch, p.in_h,
				       p.in_w, &cfg, &c->out);
}

static const char *const a_conv[] = {
	"batch", "in_h", "in_w", "kernel_h", "kernel_w", "stride_h",
	"stride_w", "pad_top", "pad_bottom", "pad_left", "pad_right",
	"dilation_h", "dilation_w", "groups", NULL};
static const char *const a_pool[] = {
	"batch", "in_h", "in_w", "kernel_h", "kernel_w", "stride_h",
	"stride_w", "pad_top", "pad_bottom", "pad_left", "pad_right",
	"dilation_h", "dilation_w", "ceil_mode", "count_include_pad", NULL};
static const char *const a_gap[] = {"batch", "in_h", "in_w", NULL};

static const char *const a_fn[] = {"fn", "p0", "p1", NULL};
static const char *const a_none[] = {NULL};
static const char *const a_matmul[] = {"transpose_a", "transpose_b", NULL};
static const char *const a_softmax[] = {"scale", "causal", NULL};
static const char *const a_norm[] = {"eps", NULL};
static const char *const a_reduce[] = {"fn", "dims", "keepdim", NULL};
static const char *const a_keepdim[] = {"keepdim", NULL};
static const char *const a_transpose[] = {"dim0", "dim1", NULL};
static const char *const a_permute[] = {"perm", NULL};
static const char *const a_concat[] = {"dim", NULL};
static const char *const a_slice[] = {"start", "end", "step", NULL};
static const char *const a_pad[] = {"before", "after", "value", NULL};
static const char *const a_reps[] = {"reps", NULL};

static const struct tt_model_opdef opdefs[] = {
	{"unary", 1, 1, a_fn, run_unary},
	{"binary", 2, 2, a_fn, run_binary},
	{"where", 3, 3, a_none, run_where},
	{"typecast", 1, 1, a_none, run_typecast},
	{"matmul", 2, 2, a_matmul, run_matmul},
	{"linear", 2, 3, a_matmul, run_linear},
	{"softmax", 1, 2, a_softmax, run_softmax},
	{"layernorm", 1, 3, a_norm, run_layernorm},
	{"rmsnorm", 1, 2, a_norm, run_rmsnorm},
	{"reduce", 1, 1, a_reduce, run_reduce},
	{"argmax", 1, 1, a_keepdim, run_argmax},
	{"transpose", 1, 1, a_transpose, run_transpose},
	{"permute", 1, 1, a_permute, run_permute},
	{"reshape", 1, 1, a_none, run_reshape},
	{"concat", 1, TT_MODEL_MAX_OP_INPUTS, a_concat, run_concat},
	{"slice", 1, 1, a_slice, run_slice},
	{"pad", 1, 1, a_pad, run_pad},
	{"embedding", 2, 2, a_none, run_embedding},
	{"repeat", 1, 1, a_reps, run_repeat},
	{"cumsum", 1, 1, a_concat, run_cumsum},
	{"conv2d", 2, 3, a_conv, run_conv2d},
	{"max_pool2d", 1, 1, a_pool, run_max_pool2d},
	{"avg_pool2d", 1, 1, a_pool, run_avg_pool2d},
	{"global_avg_pool", 1, 1, a_gap, run_global_avg_pool},
};

const struct tt_model_opdef *tt_model_opdef_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(opdefs) / sizeof(opdefs[0]); i++)
		if (strcmp(opdefs[i].name, name) == 0)
			return &opdefs[i];
	return NULL;
}

static bool listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (strcmp(*list, name) == 0)
			return true;
	return false;
}

int tt_model_op_check(const char *where, const struct tt_model_op *op)
{
	const struct tt_model_opdef *def = tt_model_opdef_find(op->op);
	struct tt_model_call c = {.op = op};
	char msg[512];
	int ret;

	if (!def)
		return tt_error(-EINVAL, "%s: unknown op \"%s\"", where,
				op->op ?: "");
	if (op->nin < def->min_in || op->nin > def->max_in ||
	    (op->nin && op->in[0] == TT_MODEL_NONE))
		return tt_error(-EINVAL, "%s: %s takes %u..%u inputs, has %u",
				where, def->name, def->min_in, def->max_in,
				op->nin);
	for (unsigned i = 0; i < op->nattrs; i++) {
		const char *n = op->attrs[i].name;

		if (!listed(common_attrs, n) && !listed(def->attrs, n))
			return tt_error(-EINVAL,
					"%s: %s takes no attribute \"%s\"",
					where, def->name, n);
		for (unsigned j = 0; j < i; j++)
			if (strcmp(op->attrs[j].name, n) == 0)
				return tt_error(-EINVAL,
						"%s: attribute \"%s\" given twice",
						where, n);
	}
	/* A call without a context parses every attribute and stops. */
	ret = def->run(&c);
	if (ret) {
		snprintf(msg, sizeof(msg), "%s", tt_last_error());
		return tt_error(ret, "%s: %s", where, msg);
	}
	return 0;
}

int tt_model_op_run(struct tt_model_call *c)
{
	return tt_model_opdef_find(c->op->op)->run(c);
}
