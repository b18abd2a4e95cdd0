// SPDX-License-Identifier: Apache-2.0
/* Goldens of the reductions (PyBuda's too), softmax, the norms and the
 * pools, accumulated in double. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum red { R_SUM, R_MEAN, R_MAX, R_MIN, R_PROD, R_ARGMAX, R_AND, R_OR };

static int kind_of(const char *name, enum red *k)
{
	static const char *const names[] = {
		"ttir.sum", "ttir.mean", "ttir.max", "ttir.min", "ttir.prod",
		"ttir.argmax", "ttir.reduce_and", "ttir.reduce_or",
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*k = (enum red)i;
			return 0;
		}
	return -EINVAL;
}

static double start(enum red k)
{
	switch (k) {
	case R_MAX:
	case R_ARGMAX:
		return -INFINITY;
	case R_MIN:
		return INFINITY;
	case R_PROD:
	case R_AND:
		return 1;
	default:
		return 0;
	}
}

/* Folds x (at position pos of the reduced dimensions) into acc; arg
 * holds argmax's position. NaN wins max, min and argmax (first one). */
static void fold(enum red k, double *acc, double *arg, double x, size_t pos,
		 bool first)
{
	switch (k) {
	case R_SUM:
	case R_MEAN:
		*acc += x;
		break;
	case R_PROD:
		*acc *= x;
		break;
	case R_MAX:
	case R_MIN:
		if (isnan(x) || (!isnan(*acc) && (k == R_MAX ? x > *acc : x < *acc)))
			*acc = x;
		break;
	case R_ARGMAX:
		if (first || (!isnan(*acc) && (isnan(x) || x > *acc))) {
			*acc = x;
			*arg = (double)pos;
		}
		break;
	case R_AND:
		*acc = *acc != 0 && x != 0;
		break;
	case R_OR:
		*acc = *acc != 0 || x != 0;
		break;
	}
}

/* Which dimensions reduce (dim_arg, or all when absent). */
static void reduced_dims(const ttc_op *op, unsigned rank, bool *red)
{
	int64_t dl[TTC_MAX_RANK];
	int n = op_ints(op, "dim_arg", dl);

	for (unsigned i = 0; i < rank; i++)
		red[i] = n < 0;
	for (int i = 0; i < n; i++)
		red[norm_dim_of(dl[i], rank)] = true;
}

int golden_reduce(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	bool red[TTC_MAX_RANK];
	int64_t idx[TTC_MAX_RANK] = { 0 }, ost[TTC_MAX_RANK], rst[TTC_MAX_RANK];
	int64_t o = 1, r = 1;
	enum red k;

	(void)nin;
	if (kind_of(ttc_op_name(op), &k))
		return gfail(err, len, "not a reduction");
	reduced_dims(op, t->rank, red);
	/* Strides of the kept dims in the output, of the reduced ones in
	 * argmax's flat position. */
	for (unsigned i = t->rank; i-- > 0;) {
		ost[i] = red[i] ? 0 : o;
		rst[i] = red[i] ? r : 0;
		o *= red[i] ? 1 : t->dims[i];
		r *= red[i] ? t->dims[i] : 1;
	}
	size_t nout = out[0]->numel;
	double *acc = malloc(2 * (nout + 1) * sizeof(double)), *arg = acc + nout;
	bool *seen = calloc(nout + 1, 1);

	if (!acc || !seen) {
		free(acc);
		free(seen);
		return gfail(err, len, "out of memory");
	}
	for (size_t i = 0; i < nout; i++)
		acc[i] = start(k), arg[i] = 0;
	for (size_t i = 0; i < in[0]->numel; i++) {
		size_t oi = 0, pos = 0;

		for (unsigned d = 0; d < t->rank; d++) {
			oi += (size_t)(idx[d] * ost[d]);
			pos += (size_t)(idx[d] * rst[d]);
		}
		fold(k, &acc[oi], &arg[oi], ttc_tensor_get(in[0], i), pos,
		     !seen[oi]);
		seen[oi] = true;
		next_index(idx, t->dims, t->rank);
	}
	for (size_t i = 0; i < nout; i++)
		ttc_tensor_set(out[0], i, k == R_ARGMAX ? arg[i] :
				  k == R_MEAN ? acc[i] / (double)r : acc[i]);
	free(acc);
	free(seen);
	return 0;
}

/* softmax along one dimension: e^(x - max) / sum, in double. */
int golden_softmax(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		   ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	/* ttir.softmax's dimension, pybuda.softmax's dim */
	const ttc_attr *da = ttc_op_attr(op, "dimension");
	unsigned d = norm_dim_of(ttc_attr_int(da ? da : ttc_op_attr(op, "dim")),
				 t->rank);
	int64_t st[TTC_MAX_RANK];
	size_t n = (size_t)t->dims[d];

	(void)nin, (void)err, (void)len;
	strides_of(t, st);
	size_t inner = (size_t)st[d];

	for (size_t base = 0; base < in[0]->numel; base++) {
		/* base walks the first element of each row along d. */
		if ((base / inner) % n)
			continue;
		double m = -INFINITY, s = 0;

		for (size_t j = 0; j < n; j++)
			m = fmax(m, ttc_tensor_get(in[0], base + j * inner));
		for (size_t j = 0; j < n; j++)
			s += exp(ttc_tensor_get(in[0], base + j * inner) - m);
		for (size_t j = 0; j < n; j++)
			ttc_tensor_set(out[0], base + j * inner,
				       exp(ttc_tensor_get(in[0], base + j * inner) - m) / s);
	}
	return 0;
}

/* pybuda.reduce_sum, reduce_avg, argmax: along dim, kept as 1 (argmax
 * without dim: over every element, its flat position). */
int golden_pybuda_reduce(const ttc_op *op, ttc_tensor *const *in, size_t nin,
			 ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	const char *n = ttc_op_name(op);
	const ttc_attr *da = ttc_op_attr(op, "dim");
	enum red k = !strcmp(n, "pybuda.argmax") ? R_ARGMAX :
		     !strcmp(n, "pybuda.reduce_avg") ? R_MEAN : R_SUM;
	int64_t o[TTC_MAX_RANK] = { 0 }, st[TTC_MAX_RANK], cnt, step;
	unsigned d = 0;

	(void)nin, (void)err, (void)len;
	strides_of(t, st);
	if (da) {
		d = norm_dim_of(ttc_attr_int(da), t->rank);
		cnt = t->dims[d];
		step = st[d];
	} else {
		cnt = (int64_t)in[0]->numel;
		step = 1;
	}
	for (size_t i = 0; i < out[0]->numel; i++) {
		size_t base = 0;
		double acc = start(k), arg = 0;

		for (unsigned j = 0; da && j < t->rank; j++)
			base += (size_t)(o[j] * st[j]);
		for (int64_t j = 0; j < cnt; j++)
			fold(k, &acc, &arg, ttc_tensor_get(in[0], base +
							   (size_t)(j * step)),
			     (size_t)j, j == 0);
		if (k == R_MEAN)
			acc /= (double)cnt;
		ttc_tensor_set(out[0], i, k == R_ARGMAX ? arg : acc);
		next_index(o, out[0]->type->dims, out[0]->type->rank);
	}
	return 0;
}

/* Normalizes x in rows of m values (the last m of each row of the
 * tensor), in double (torch's biased variance); w and b (NULL: none)
 * hold m values each. */
void golden_norm_rows(const ttc_tensor *x, const ttc_tensor *w,
		      const ttc_tensor *b, size_t m, double eps, bool rms,
		      ttc_tensor *out)
{
	for (size_t r = 0; m && r < x->numel / m; r++) {
		double mean = 0, var = 0;

		for (size_t j = 0; j < m; j++)
			mean += ttc_tensor_get(x, r * m + j);
		mean = rms ? 0 : mean / (double)m;
		for (size_t j = 0; j < m; j++) {
			double d = ttc_tensor_get(x, r * m + j) - mean;

			var += d * d;
		}
		double inv = 1 / sqrt(var / (double)m + eps);

		for (size_t j = 0; j < m; j++) {
			double y = (ttc_tensor_get(x, r * m + j) - mean) * inv;

			if (w)
				y *= ttc_tensor_get(w, j);
			if (b)
				y += ttc_tensor_get(b, j);
			ttc_tensor_set(out, r * m + j, y);
		}
	}
}

/* layer_norm, rms_norm over the trailing normalized_shape; weight and
 * bias are optional (operandSegmentSizes says which are there, else they
 * come in order). */
int golden_norm(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_tensor *w = NULL, *b = NULL;
	const ttc_attr *seg = ttc_op_attr(op, "operandSegmentSizes");
	bool rms = !strcmp(ttc_op_name(op), "ttir.rms_norm");
	double eps = ttc_attr_float(ttc_op_attr(op, "epsilon"));
	int64_t ns[TTC_MAX_RANK], sv[3];
	int n = op_ints(op, "normalized_shape", ns);
	size_t m = 1;

	if (n < 1 || n > (int)in[0]->type->rank)
		return gfail(err, len, "bad normalized_shape");
	if (seg && ttc_attr_ints(seg, sv, 3) == 3) {
		w = sv[1] ? in[1] : NULL;
		b = sv[2] ? in[sv[1] ? 2 : 1] : NULL;
	} else {
		w = nin > 1 ? in[1] : NULL;
		b = nin > 2 ? in[2] : NULL;
	}
	for (int k = 0; k < n; k++)
		m *= (size_t)ns[k];
	golden_norm_rows(in[0], w, b, m, eps, rms, out[0]);
	return 0;
}

/* batch_norm_inference: per channel c of dimension, (x - mean[c]) /
 * sqrt(variance[c] + epsilon) * scale[c] + offset[c]. */
int golden_batch_norm(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		      ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	/* ttir.softmax's dimension, pybuda.softmax's dim */
	const ttc_attr *da = ttc_op_attr(op, "dimension");
	unsigned d = norm_dim_of(ttc_attr_int(da ? da : ttc_op_attr(op, "dim")),
				 t->rank);
	double eps = ttc_attr_float(ttc_op_attr(op, "epsilon"));
	int64_t o[TTC_MAX_RANK] = { 0 };

	(void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++) {
		size_t c = (size_t)o[d];
		double x = ttc_tensor_get(in[0], i) - ttc_tensor_get(in[3], c);

		x /= sqrt(ttc_tensor_get(in[4], c) + eps);
		ttc_tensor_set(out[0], i, x * ttc_tensor_get(in[1], c) +
					  ttc_tensor_get(in[2], c));
		next_index(o, t->dims, t->rank);
	}
	return 0;
}

/* The flat index of (n, h, w, c) in a 4-D tensor of layout l. */
static size_t pool_at(const ttc_type *t, const unsigned *l, const int64_t *v)
{
	int64_t st[4], at = 0;

	strides_of(t, st);
	for (int i = 0; i < 4; i++)
		at += v[i] * st[l[i]];
	return (size_t)at;
}

/* A pool over windows k, stride s, dilation d, padding [top, left,
 * bottom, right]. max ignores padding (NaN wins); avg divides by the
 * divisor if one is given, else by the taps inside the input, or with
 * incl by those inside the padded input (PyTorch's rule: taps past the
 * padding, with ceil_mode, never count). */
int golden_pool_core(const struct golden_pool_params *pp,
		     ttc_tensor *const *in, ttc_tensor *const *out)
{
	const ttc_type *t = in[0]->type, *o = out[0]->type;
	const unsigned *l = pp->l;
	int64_t idx[4] = { 0 }, v[4];
	int64_t th = t->dims[l[1]], tw = t->dims[l[2]];

	for (size_t i = 0; i < out[0]->numel; i++) {
		double acc = pp->avg ? 0 : -INFINITY;
		int64_t cnt = 0;

		/* idx runs over the output in memory order; v is (n, h, w,
		 * c) of it, then of each tap. */
		v[0] = idx[l[0]], v[3] = idx[l[3]];
		for (int64_t a = 0; a < pp->k[0]; a++) {
			int64_t y = idx[l[1]] * pp->s[0] - pp->p[0] + a * pp->d[0];

			for (int64_t b = 0; b < pp->k[1]; b++) {
				int64_t x = idx[l[2]] * pp->s[1] - pp->p[1] +
					    b * pp->d[1];
				bool in_x = y >= 0 && y < th && x >= 0 && x < tw;

				if (pp->incl && y < th + pp->p[2] &&
				    x < tw + pp->p[3])
					cnt++;
				if (!in_x)
					continue;
				v[1] = y, v[2] = x;
				double e = ttc_tensor_get(in[0],
							  pool_at(t, l, v));

				if (!pp->incl)
					cnt++;
				if (pp->avg)
					acc += e;
				else if (isnan(e) || (!isnan(acc) && e > acc))
					acc = e;
			}
		}
		if (pp->avg)
			acc = pp->divisor ? acc / pp->divisor :
			      cnt	  ? acc / (double)cnt :
					    NAN;
		ttc_tensor_set(out[0], i, acc);
		next_index(idx, o->dims, 4);
	}
	return 0;
}

/* max_pool2d, avg_pool2d over NHWC windows. */
int golden_pool(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		ttc_tensor *const *out, char *err, size_t len)
{
	struct golden_pool_params pp = {
		.l = { 0, 1, 2, 3 },
		.avg = !strcmp(ttc_op_name(op), "ttir.avg_pool2d"),
	};

	(void)nin;
	pp.incl = pp.avg && ttc_attr_bool(ttc_op_attr(op, "count_include_pad"));
	if (ttc_op_attr(op, "flattened_compat_info"))
		return gfail(err, len, "a flattened pool (flattened_compat_info) "
				       "has no golden");
	if (in[0]->type->rank != 4 || op_hw(op, "kernel", pp.k) ||
	    op_hw(op, "stride", pp.s) || op_hw(op, "dilation", pp.d) ||
	    op_padding(op, pp.p))
		return gfail(err, len, "bad kernel, stride, dilation or padding");
	return golden_pool_core(&pp, in, out);
}
