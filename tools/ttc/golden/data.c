// SPDX-License-Identifier: Apache-2.0
/* Goldens of data movement: reshape, transpose, permute, broadcast,
 * concat, slice_static, reverse, repeat, repeat_interleave, pad,
 * embedding, gather, PyBuda's, and the running cumsum, cumprod. Most map
 * an output index to an input index. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "internal.h"

/* out[i] = in[src(i)] for every output multi-index, by a mapping that
 * sets the input multi-index from the output's. */
typedef void (*map_fn)(const ttc_op *op, const int64_t *oidx,
		       int64_t *iidx, const void *arg);

static void gather(const ttc_op *op, const ttc_tensor *in, ttc_tensor *out,
		   map_fn map, const void *arg)
{
	int64_t oidx[TTC_MAX_RANK] = { 0 }, iidx[TTC_MAX_RANK], st[TTC_MAX_RANK];

	strides_of(in->type, st);
	for (size_t i = 0; i < out->numel; i++) {
		size_t k = 0;

		map(op, oidx, iidx, arg);
		for (unsigned d = 0; d < in->type->rank; d++)
			k += (size_t)(iidx[d] * st[d]);
		ttc_tensor_set(out, i, ttc_tensor_get(in, k));
		next_index(oidx, out->type->dims, out->type->rank);
	}
}

int golden_reshape(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		   ttc_tensor *const *out, char *err, size_t len)
{
	(void)op, (void)nin, (void)err, (void)len;
	if (in[0]->type->elem == out[0]->type->elem) {
		memcpy(out[0]->data, in[0]->data,
		       in[0]->numel * ttc_type_elem_bytes(in[0]->type->elem));
		return 0;
	}
	for (size_t i = 0; i < out[0]->numel; i++)
		ttc_tensor_set(out[0], i, ttc_tensor_get(in[0], i));
	return 0;
}

/* perm[d]: the input dimension of output dimension d. */
static void map_perm(const ttc_op *op, const int64_t *o, int64_t *i,
		     const void *arg)
{
	const int64_t *perm = arg;

	(void)op;
	for (unsigned d = 0; d < TTC_MAX_RANK && perm[d] >= 0; d++)
		i[perm[d]] = o[d];
}

static int run_perm(const ttc_op *op, ttc_tensor *const *in,
		    ttc_tensor *const *out, int64_t *perm)
{
	unsigned r = in[0]->type->rank;

	for (unsigned d = r; d < TTC_MAX_RANK; d++)
		perm[d] = -1;
	gather(op, in[0], out[0], map_perm, perm);
	return 0;
}

int golden_transpose(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		     ttc_tensor *const *out, char *err, size_t len)
{
	unsigned r = in[0]->type->rank;
	int64_t perm[TTC_MAX_RANK];
	unsigned a = norm_dim_of(ttc_attr_int(ttc_op_attr(op, "dim0")), r);
	unsigned b = norm_dim_of(ttc_attr_int(ttc_op_attr(op, "dim1")), r);

	(void)nin, (void)err, (void)len;
	for (unsigned d = 0; d < r; d++)
		perm[d] = d;
	perm[a] = b;
	perm[b] = a;
	return run_perm(op, in, out, perm);
}

int golden_permute(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		   ttc_tensor *const *out, char *err, size_t len)
{
	int64_t perm[TTC_MAX_RANK];

	(void)nin;
	if (op_ints(op, "permutation", perm) != (int)in[0]->type->rank)
		return gfail(err, len, "bad permutation");
	return run_perm(op, in, out, perm);
}

int golden_broadcast(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		     ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *o = out[0]->type;
	int64_t idx[TTC_MAX_RANK] = { 0 };

	(void)op, (void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++) {
		ttc_tensor_set(out[0], i,
			       ttc_tensor_get(in[0], bcast_index(in[0]->type,
								 idx, o->rank)));
		next_index(idx, o->dims, o->rank);
	}
	return 0;
}

int golden_concat(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *o = out[0]->type;
	/* ttir.concat's dim, pybuda.concatenate's axis */
	const ttc_attr *da = ttc_op_attr(op, "dim");
	unsigned d = norm_dim_of(ttc_attr_int(da ? da : ttc_op_attr(op, "axis")),
				 o->rank);
	int64_t st[TTC_MAX_RANK], base = 0;

	(void)err, (void)len;
	strides_of(o, st);
	for (size_t t = 0; t < nin; t++) {
		int64_t idx[TTC_MAX_RANK] = { 0 };

		for (size_t i = 0; i < in[t]->numel; i++) {
			size_t k = 0;

			for (unsigned j = 0; j < o->rank; j++)
				k += (size_t)((idx[j] + (j == d ? base : 0)) *
					      st[j]);
			ttc_tensor_set(out[0], k, ttc_tensor_get(in[t], i));
			next_index(idx, in[t]->type->dims, o->rank);
		}
		base += in[t]->type->dims[d];
	}
	return 0;
}

struct slice { int64_t begin[TTC_MAX_RANK], step[TTC_MAX_RANK]; };

static void map_slice(const ttc_op *op, const int64_t *o, int64_t *i,
		      const void *arg)
{
	const struct slice *s = arg;

	(void)op;
	for (unsigned d = 0; d < TTC_MAX_RANK; d++)
		i[d] = s->begin[d] + o[d] * s->step[d];
}

/* Python's start of a slice: negative from the end, clamped. */
static int64_t slice_begin(int64_t b, int64_t step, int64_t n)
{
	if (b < 0)
		b += n;
	if (step > 0)
		return b < 0 ? 0 : b > n ? n : b;
	return b < 0 ? -1 : b > n - 1 ? n - 1 : b;
}

int golden_slice(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		 ttc_tensor *const *out, char *err, size_t len)
{
	struct slice s = { { 0 }, { 0 } };
	unsigned r = in[0]->type->rank;

	(void)nin;
	if (op_ints(op, "begins", s.begin) != (int)r ||
	    op_ints(op, "step", s.step) != (int)r)
		return gfail(err, len, "bad begins or step");
	for (unsigned d = 0; d < r; d++)
		s.begin[d] = slice_begin(s.begin[d], s.step[d],
					 in[0]->type->dims[d]);
	gather(op, in[0], out[0], map_slice, &s);
	return 0;
}

/* squeeze and unsqueeze keep the elements in order: golden_reshape. */

struct dims_arg {
	const int64_t *dims;	/* the input's */
	int64_t k[TTC_MAX_RANK];	/* per dimension: flip, factor, ... */
};

/* reverse: k[d] != 0 flips dimension d. */
static void map_reverse(const ttc_op *op, const int64_t *o, int64_t *i,
			const void *arg)
{
	const struct dims_arg *a = arg;

	(void)op;
	for (unsigned d = 0; d < TTC_MAX_RANK; d++)
		i[d] = a->k[d] ? a->dims[d] - 1 - o[d] : o[d];
}

int golden_reverse(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		   ttc_tensor *const *out, char *err, size_t len)
{
	struct dims_arg a = { in[0]->type->dims, { 0 } };
	unsigned r = in[0]->type->rank;
	int64_t v[TTC_MAX_RANK];
	int n = op_ints(op, "dimensions", v);

	(void)nin;
	if (n < 0)
		return gfail(err, len, "bad dimensions");
	for (int j = 0; j < n; j++)
		a.k[norm_dim_of(v[j], r)] = 1;
	gather(op, in[0], out[0], map_reverse, &a);
	return 0;
}

/* repeat: the input tiled, output index modulo the input's size. */
static void map_repeat(const ttc_op *op, const int64_t *o, int64_t *i,
		       const void *arg)
{
	const struct dims_arg *a = arg;

	(void)op;
	for (unsigned d = 0; d < TTC_MAX_RANK; d++)
		i[d] = a->k[d] ? o[d] % a->dims[d] : 0;
}

int golden_repeat(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor *const *out, char *err, size_t len)
{
	struct dims_arg a = { in[0]->type->dims, { 0 } };

	(void)nin, (void)err, (void)len;
	for (unsigned d = 0; d < in[0]->type->rank; d++)
		a.k[d] = 1;
	gather(op, in[0], out[0], map_repeat, &a);
	return 0;
}

/* repeat_interleave: k[d] is the repeat count of dimension d (1 for the
 * others). */
static void map_interleave(const ttc_op *op, const int64_t *o, int64_t *i,
			   const void *arg)
{
	const struct dims_arg *a = arg;

	(void)op;
	for (unsigned d = 0; d < TTC_MAX_RANK; d++)
		i[d] = o[d] / a->k[d];
}

int golden_repeat_interleave(const ttc_op *op, ttc_tensor *const *in,
			     size_t nin, ttc_tensor *const *out, char *err,
			     size_t len)
{
	struct dims_arg a = { in[0]->type->dims, { 0 } };
	unsigned r = in[0]->type->rank;

	(void)nin, (void)err, (void)len;
	for (unsigned d = 0; d < TTC_MAX_RANK; d++)
		a.k[d] = 1;
	a.k[norm_dim_of(ttc_attr_int(ttc_op_attr(op, "dim")), r)] =
		ttc_attr_int(ttc_op_attr(op, "repeats"));
	gather(op, in[0], out[0], map_interleave, &a);
	return 0;
}

/* pad: padding is [low, high] per dimension (negative crops); the
 * positions outside the input get value. */
int golden_pad(const ttc_op *op, ttc_tensor *const *in, size_t nin,
	       ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	int64_t p[2 * TTC_MAX_RANK], o[TTC_MAX_RANK] = { 0 }, st[TTC_MAX_RANK];
	const ttc_attr *pa = ttc_op_attr(op, "padding");
	double v = ttc_attr_float(ttc_op_attr(op, "value"));

	(void)nin;
	if (!pa || ttc_attr_ints(pa, p, 2 * TTC_MAX_RANK) != 2 * (int)t->rank)
		return gfail(err, len, "bad padding");
	strides_of(t, st);
	for (size_t i = 0; i < out[0]->numel; i++) {
		size_t k = 0;
		bool inside = true;

		for (unsigned d = 0; d < t->rank && inside; d++) {
			int64_t j = o[d] - p[2 * d];

			inside = j >= 0 && j < t->dims[d];
			k += (size_t)(j * st[d]);
		}
		ttc_tensor_set(out[0], i, inside ? ttc_tensor_get(in[0], k) : v);
		next_index(o, out[0]->type->dims, out[0]->type->rank);
	}
	return 0;
}

/* cumsum, cumprod: running sum or product along dim, in double. */
int golden_running(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		   ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	unsigned d = norm_dim_of(ttc_attr_int(ttc_op_attr(op, "dim")), t->rank);
	bool prod = !strcmp(ttc_op_name(op), "ttir.cumprod");
	int64_t o[TTC_MAX_RANK] = { 0 }, st[TTC_MAX_RANK];

	(void)nin, (void)err, (void)len;
	strides_of(t, st);
	for (size_t i = 0; i < out[0]->numel; i++) {
		double acc = prod ? 1 : 0;
		size_t base = i - (size_t)(o[d] * st[d]);

		for (int64_t j = 0; j <= o[d]; j++) {
			double x = ttc_tensor_get(in[0], base + (size_t)(j * st[d]));

			acc = prod ? acc * x : acc + x;
		}
		ttc_tensor_set(out[0], i, acc);
		next_index(o, t->dims, t->rank);
	}
	return 0;
}

/* pybuda.binary_stack: lhs and rhs interleaved along dim (torch.stack
 * at dim + 1, flattened): even positions from lhs, odd from rhs. */
int golden_binary_stack(const ttc_op *op, ttc_tensor *const *in, size_t nin,
			ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	unsigned d = norm_dim_of(ttc_attr_int(ttc_op_attr(op, "dim")), t->rank);
	int64_t o[TTC_MAX_RANK] = { 0 }, st[TTC_MAX_RANK];

	(void)nin, (void)err, (void)len;
	strides_of(t, st);
	for (size_t i = 0; i < out[0]->numel; i++) {
		size_t k = 0;

		for (unsigned j = 0; j < t->rank; j++)
			k += (size_t)((j == d ? o[j] / 2 : o[j]) * st[j]);
		ttc_tensor_set(out[0], i, ttc_tensor_get(in[o[d] % 2], k));
		next_index(o, out[0]->type->dims, t->rank);
	}
	return 0;
}

/* pybuda.hslice: C in slices, slice s of Z plane z to plane
 * z * slices + s; hstack is its inverse. k[0]: slices; k[1]: 1 for
 * hstack. */
static void map_hmove(const ttc_op *op, const int64_t *o, int64_t *i,
		      const void *arg)
{
	const struct dims_arg *a = arg;
	unsigned r = (unsigned)a->k[2], z = r - 3, c = r - 1;
	int64_t s = a->k[0];

	(void)op;
	memcpy(i, o, r * sizeof(*i));
	if (!a->k[1]) {
		int64_t w = a->dims[c] / s;	/* the output's C */

		i[z] = o[z] / s;
		i[c] = o[z] % s * w + o[c];
	} else {
		int64_t w = a->dims[c];		/* the input's C */

		i[z] = o[z] * s + o[c] / w;
		i[c] = o[c] % w;
	}
}

int golden_zmove(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		 ttc_tensor *const *out, char *err, size_t len)
{
	const char *n = ttc_op_name(op);
	const ttc_type *t = in[0]->type;
	struct dims_arg a = { t->dims, { 0 } };

	(void)nin;
	if (t->rank < 3)
		return gfail(err, len, "rank %u (3 or more)", t->rank);
	/* vslice and vstack split or join R and Z in C order: a reshape. */
	if (!strcmp(n, "pybuda.vslice") || !strcmp(n, "pybuda.vstack"))
		return golden_reshape(op, in, nin, out, err, len);
	a.k[0] = ttc_attr_int(ttc_op_attr(op, "slices"));
	a.k[1] = !strcmp(n, "pybuda.hstack");
	a.k[2] = t->rank;
	if (a.k[1] && a.k[0] == -1)
		a.k[0] = t->dims[t->rank - 3];
	gather(op, in[0], out[0], map_hmove, &a);
	return 0;
}

/* pybuda.index: start:stop:stride along dim (stop absent: one). */
int golden_pybuda_index(const ttc_op *op, ttc_tensor *const *in, size_t nin,
			ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	unsigned d = norm_dim_of(ttc_attr_int(ttc_op_attr(op, "dim")), t->rank);
	struct slice s = { { 0 }, { 0 } };
	int64_t b = ttc_attr_int(ttc_op_attr(op, "start"));

	(void)nin, (void)err, (void)len;
	for (unsigned j = 0; j < t->rank; j++)
		s.step[j] = 1;
	s.begin[d] = b < 0 ? b + t->dims[d] : b;
	s.step[d] = ttc_attr_int(ttc_op_attr(op, "stride"));
	gather(op, in[0], out[0], map_slice, &s);
	return 0;
}

/* pybuda.select: from each block of stride elements along dim (the
 * whole dimension for stride 0), [start, start + length). k[0]: dim,
 * k[1]: block, k[2]: start, k[3]: length. */
static void map_select(const ttc_op *op, const int64_t *o, int64_t *i,
		       const void *arg)
{
	const struct dims_arg *a = arg;
	unsigned d = (unsigned)a->k[0];

	(void)op;
	memcpy(i, o, TTC_MAX_RANK * sizeof(*i));
	i[d] = o[d] / a->k[3] * a->k[1] + a->k[2] + o[d] % a->k[3];
}

int golden_select(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	struct dims_arg a = { t->dims, { 0 } };
	const ttc_attr *ix = ttc_op_attr(op, "index");
	int64_t v[2] = { 0, 1 }, st = ttc_attr_int(ttc_op_attr(op, "stride"));

	(void)nin;
	if (ttc_attr_kind(ix) == TTC_ATTR_INT)
		v[0] = ttc_attr_int(ix);
	else if (ttc_attr_ints(ix, v, 2) != 2)
		return gfail(err, len, "bad index");
	a.k[0] = norm_dim_of(ttc_attr_int(ttc_op_attr(op, "dim")), t->rank);
	a.k[1] = st ? st : t->dims[a.k[0]];
	a.k[2] = v[0];
	a.k[3] = v[1];
	gather(op, in[0], out[0], map_select, &a);
	return 0;
}

/* embedding: row input[i] of weight [..., vocabulary, width] for each
 * index, as tt-mlir's golden: the index truncated to an integer and
 * clamped to [0, vocabulary - 1]. */
int golden_embedding(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		     ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *w = in[1]->type;
	int64_t v = w->dims[w->rank - 2], width = w->dims[w->rank - 1];

	(void)op, (void)nin;
	if (v < 1)
		return gfail(err, len, "weight has no rows");
	for (size_t i = 0; i < in[0]->numel; i++) {
		double x = trunc(ttc_tensor_get(in[0], i));
		int64_t r = isnan(x) || x < 0 ? 0 : x > (double)(v - 1) ? v - 1 :
								(int64_t)x;

		for (int64_t j = 0; j < width; j++)
			ttc_tensor_set(out[0], i * (size_t)width + (size_t)j,
				       ttc_tensor_get(in[1], (size_t)(r * width +
								      j)));
	}
	return 0;
}

/* gather (torch.gather): out[..i..] = input[..index[..i..]..] along dim.
 * An index outside [0, size) fails, as torch.gather does. */
int golden_gather(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type;
	unsigned d = norm_dim_of(ttc_attr_int(ttc_op_attr(op, "dim")), t->rank);
	int64_t o[TTC_MAX_RANK] = { 0 }, st[TTC_MAX_RANK];

	(void)nin;
	strides_of(t, st);
	for (size_t i = 0; i < out[0]->numel; i++) {
		double x = ttc_tensor_get(in[1], i);
		size_t k = 0;

		if (!(x >= 0 && x < (double)t->dims[d]) || x != trunc(x))
			return gfail(err, len, "index %g at position %zu is "
					       "outside [0, %" PRId64 ") of "
					       "dimension %u", x, i,
				     t->dims[d], d);
		for (unsigned j = 0; j < t->rank; j++)
			k += (size_t)((j == d ? (int64_t)x : o[j]) * st[j]);
		ttc_tensor_set(out[0], i, ttc_tensor_get(in[0], k));
		next_index(o, out[0]->type->dims, t->rank);
	}
	return 0;
}
