// SPDX-License-Identifier: Apache-2.0
/*
 * Shape and data-movement ONNX ops: Reshape, Flatten, Transpose, Squeeze,
 * Unsqueeze, Concat, Split, Slice, Gather, GatherElements, Expand, Tile,
 * Pad, DepthToSpace, SpaceToDepth, Resize and Upsample (nearest only: the
 * source index of every output position is computed at import), and the
 * ops whose result is known at import time (Shape, Size, Constant,
 * ConstantOfShape, Range, EyeLike), which become constants so that shape
 * chains fold. Trilu and OneHot select through constant masks.
 *
 * Shapes, axes, pads, repeats, scales and the like must be known at
 * import time (TTIR's shapes are static): given at run time, the node is
 * unsupported, naming the input.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAXR TTC_MAX_RANK
/* Constant index lists up to this long gather by slices and a concat;
 * longer ones through ttir.gather. */
#define MAX_SLICED 16

static const ttc_type *i64_elem(struct onx *im)
{
	return ttc_int_type(im->ctx, 64, TTC_SIGNLESS);
}

static bool is_int(const ttc_type *elem)
{
	return ttc_type_kind(elem) == TTC_TYPE_INT;
}

/* [v : i32, ...], the ArrayAttr form of slice_static's begins and ends. */
static const ttc_attr *i32_list(struct onx *im, const int64_t *v, size_t n)
{
	const ttc_attr *e[MAXR];

	for (size_t i = 0; i < n; i++)
		e[i] = onx_i32(im, v[i]);
	return ttc_array_attr(im->ctx, e, n);
}

/* A constant of dims and elem holding vals (as doubles, rounded to
 * elem). */
static ttc_value *const_of(struct onx *im, const int64_t *dims, unsigned rank,
			   const ttc_type *elem, const double *vals)
{
	const ttc_type *t = ttc_tensor_type(im->ctx, dims, rank, elem, NULL);
	ttc_tensor *h = onx_host_tensor(im, t);
	ttc_value *c;

	if (!h)
		return NULL;
	for (size_t i = 0; i < h->numel; i++)
		ttc_tensor_set(h, i, vals[i]);
	c = onx_const(im, t, h->data);
	ttc_tensor_free(h);
	return c;
}

/* A 1-D int64 constant (exact: no trip through double). */
static ttc_value *const_i64s(struct onx *im, const int64_t *v, size_t n)
{
	int64_t d = (int64_t)n;

	return onx_const(
		im, ttc_tensor_type(im->ctx, &d, 1, i64_elem(im), NULL), v);
}

static ttc_value *where(struct onx *im, ttc_value *c, ttc_value *a,
			ttc_value *b)
{
	ttc_value *in[3] = {c, a, b};

	return onx_build(im, "ttir.where", in, 3, NULL);
}

/* begin[d]:end[d]:step[d] for every dimension (0 <= begin <= end). */
static ttc_value *slice(struct onx *im, ttc_value *x, const int64_t *b,
			const int64_t *e, const int64_t *s)
{
	unsigned r = x ? onx_rank(x) : 0;
	bool whole = true;

	for (unsigned d = 0; x && d < r; d++)
		whole &= b[d] == 0 && e[d] == onx_dims(x)[d] && s[d] == 1;
	if (!x || whole)
		return x;
	struct ttc_named_attr a[] = {{"begins", i32_list(im, b, r)},
				     {"ends", i32_list(im, e, r)},
				     {"step", i32_list(im, s, r)}};

	return onx_build(im, "ttir.slice_static", &x, 1, onx_props(im, a, 3));
}

/* [from, to) along dim. */
static ttc_value *slice_dim(struct onx *im, ttc_value *x, unsigned dim,
			    int64_t from, int64_t to)
{
	int64_t b[MAXR] = {0}, e[MAXR], s[MAXR];

	if (!x)
		return NULL;
	for (unsigned d = 0; d < onx_rank(x); d++)
		e[d] = onx_dims(x)[d], s[d] = 1;
	b[dim] = from, e[dim] = to;
	return slice(im, x, b, e, s);
}

static ttc_value *concat(struct onx *im, ttc_value *const *xs, size_t n,
			 unsigned dim)
{
	struct ttc_named_attr a = {"dim", onx_i32(im, dim)};

	if (n == 1)
		return xs[0];
	return onx_build(im, "ttir.concat", xs, n, onx_props(im, &a, 1));
}

static ttc_value *reverse(struct onx *im, ttc_value *x, unsigned dim)
{
	int64_t d = dim;
	struct ttc_named_attr a = {"dimensions", onx_i64s(im, &d, 1)};

	return x ? onx_build(im, "ttir.reverse", &x, 1, onx_props(im, &a, 1))
		 : NULL;
}

/* x repeated along size-1 dimensions up to dims (same rank). */
static ttc_value *broadcast_to(struct onx *im, ttc_value *x,
			       const int64_t *dims)
{
	int64_t f[MAXR];
	bool same = true;

	if (!x)
		return NULL;
	for (unsigned d = 0; d < onx_rank(x); d++) {
		f[d] = onx_dims(x)[d] == dims[d] ? 1 : dims[d];
		same &= f[d] == 1;
	}
	if (same)
		return x;
	struct ttc_named_attr a = {"broadcast_dimensions",
				   onx_i64s(im, f, onx_rank(x))};

	return onx_build(im, "ttir.broadcast", &x, 1, onx_props(im, &a, 1));
}

/* Axes from attribute 'axes' (opsets before since) or input i (since
 * on): their count, -ENOENT when absent. */
static int axes_of(struct onx *im, int since, size_t i, int64_t *axes,
		   size_t max)
{
	if (im->opset < since)
		return onx_attr_ints(im, "axes", axes, max);
	if (!onx_has_in(im, i))
		return -ENOENT;
	return onx_in_ints(im, i, axes, max);
}

/* ---- Reshape, Flatten, Transpose, Squeeze, Unsqueeze ---- */

static int reshape(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t shape[MAXR], known = 1, numel;
	int n = x ? onx_in_ints(im, 1, shape, MAXR) : -EINVAL;
	bool allowzero = onx_attr_int(im, "allowzero", 0) != 0;
	int infer = -1;

	if (n < 0)
		return n;
	numel = ttc_type_numel(ttc_value_type(x));
	for (int k = 0; k < n; k++) {
		if (shape[k] == 0 && !allowzero) {
			if ((unsigned)k >= onx_rank(x))
				return onx_fail(im,
						"shape entry %d is 0 (copy) "
						"past the input's rank",
						k);
			shape[k] = onx_dims(x)[k];
		}
		if (shape[k] == -1 && infer < 0)
			infer = k;
		else if (shape[k] < 0 || shape[k] > ONX_MAX_DIM ||
			 __builtin_mul_overflow(known, shape[k], &known))
			return onx_fail(im, "shape entry %d is %lld", k,
					(long long)shape[k]);
	}
	if (infer >= 0) {
		if (!known || numel % known)
			return onx_fail(im,
					"cannot infer the -1 in the shape "
					"of %lld elements",
					(long long)numel);
		shape[infer] = numel / known;
	}
	return onx_out(im, 0, onx_reshape(im, x, shape, (unsigned)n));
}

static int flatten(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t axis = onx_attr_int(im, "axis", 1), dims[2] = {1, 1};
	unsigned r = x ? onx_rank(x) : 0;

	if (!x)
		return -EINVAL;
	if (axis < -(int64_t)r || axis > (int64_t)r)
		return onx_fail(im, "axis %lld is out of range for rank %u",
				(long long)axis, r);
	if (axis < 0)
		axis += r;
	for (unsigned d = 0; d < r; d++)
		dims[d >= axis] *= onx_dims(x)[d];
	return onx_out(im, 0, onx_reshape(im, x, dims, 2));
}

static int transpose(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t perm[MAXR];
	unsigned r = x ? onx_rank(x) : 0;
	int n = onx_attr_ints(im, "perm", perm, MAXR);

	if (!x)
		return -EINVAL;
	if (n == -ENOENT) {
		for (unsigned d = 0; d < r; d++)
			perm[d] = r - 1 - d;
		n = (int)r;
	}
	if (n < 0)
		return n;
	if ((unsigned)n != r)
		return onx_fail(im,
				"attribute 'perm' has %d entries for rank "
				"%u",
				n, r);
	return onx_out(im, 0, onx_permute(im, x, perm, r));
}

static int squeeze(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t axes[MAXR], dims[MAXR];
	bool drop[MAXR] = {false};
	unsigned r = x ? onx_rank(x) : 0, n = 0;
	int na = x ? axes_of(im, 13, 1, axes, MAXR) : -EINVAL;

	if (na == -ENOENT) {
		for (unsigned d = 0; d < r; d++)
			drop[d] = onx_dims(x)[d] == 1;
	} else if (na < 0) {
		return na;
	}
	for (int k = 0; k < na; k++) {
		int d = onx_axis(im, axes[k], r, "axis");

		if (d < 0)
			return -EINVAL;
		if (onx_dims(x)[d] != 1)
			return onx_fail(im, "axis %d has size %lld, not 1", d,
					(long long)onx_dims(x)[d]);
		drop[d] = true;
	}
	for (unsigned d = 0; d < r; d++)
		if (!drop[d])
			dims[n++] = onx_dims(x)[d];
	return onx_out(im, 0, onx_reshape(im, x, dims, n));
}

static int unsqueeze(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t axes[MAXR], dims[MAXR];
	bool ins[MAXR] = {false};
	unsigned r = x ? onx_rank(x) : 0, k = 0;
	int na = x ? axes_of(im, 13, 1, axes, MAXR) : -EINVAL;

	if (na == -ENOENT)
		return onx_fail(im, "axes are missing");
	if (na < 0)
		return na;
	if (r + (unsigned)na > MAXR)
		return onx_unsupported(im, "a result of rank %u", r + na);
	for (int i = 0; i < na; i++) {
		int d = onx_axis(im, axes[i], r + na, "axis");

		if (d < 0)
			return -EINVAL;
		if (ins[d])
			return onx_fail(im, "axis %d is given twice", d);
		ins[d] = true;
	}
	for (unsigned d = 0; d < r + (unsigned)na; d++)
		dims[d] = ins[d] ? 1 : onx_dims(x)[k++];
	return onx_out(im, 0, onx_reshape(im, x, dims, r + na));
}

/* ---- Concat, Split, Slice ---- */

/* Whether every one of xs[n] has an NHWC twin. */
static bool nhwc_twins(ttc_value *const *xs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!onx_nhwc_of(xs[i]))
			return false;
	return n > 0;
}

static int concat_op(struct onx *im)
{
	size_t n = im->node->n_input;
	ttc_value **xs = calloc(n + 1, sizeof(*xs)), *y = NULL;
	int d = -1;

	if (!xs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!(xs[i] = onx_in(im, i)))
			n = 0;
	if (n)
		d = onx_axis(im, onx_attr_int(im, "axis", 0), onx_rank(xs[0]),
			     "axis");
	else if (!im->node->n_input)
		onx_fail(im, "no inputs");
	if (d == 1 && nhwc_twins(xs, n)) {
		/* channels of convolutions: joined in NHWC, along C */
		for (size_t i = 0; i < n; i++)
			xs[i] = onx_nhwc_of(xs[i]);
		y = onx_from_nhwc(im, concat(im, xs, n, 3));
	} else if (d >= 0) {
		y = concat(im, xs, n, (unsigned)d);
	}
	free(xs);
	return onx_out(im, 0, y);
}

static int split(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t sizes[64], at = 0;
	size_t nout = im->node->n_output;
	int n = -ENOENT, d;

	if (!x)
		return -EINVAL;
	if (nout > 64)
		return onx_unsupported(im, "%zu outputs (at most 64)", nout);
	d = onx_axis(im, onx_attr_int(im, "axis", 0), onx_rank(x), "axis");
	if (d < 0)
		return -EINVAL;
	if (im->opset < 13)
		n = onx_attr_ints(im, "split", sizes, 64);
	else if (onx_has_in(im, 1))
		n = onx_in_ints(im, 1, sizes, 64);
	if (n == -ENOENT) {
		/* equal parts */
		if (!nout || onx_dims(x)[d] % (int64_t)nout)
			return onx_fail(im,
					"dimension %d of size %lld does not "
					"split into %zu equal parts",
					d, (long long)onx_dims(x)[d], nout);
		for (size_t i = 0; i < nout; i++)
			sizes[i] = onx_dims(x)[d] / (int64_t)nout;
		n = (int)nout;
	}
	if (n < 0)
		return n;
	if ((size_t)n != nout)
		return onx_fail(im, "%d split sizes for %zu outputs", n, nout);
	for (int i = 0; i < n; i++) {
		if (sizes[i] < 0)
			return onx_fail(im, "split size %d is negative", i);
		at += sizes[i];
	}
	if (at != onx_dims(x)[d])
		return onx_fail(im, "split sizes add up to %lld, not %lld",
				(long long)at, (long long)onx_dims(x)[d]);
	at = 0;
	for (int i = 0; i < n; i++) {
		if (onx_out(im, (size_t)i,
			    slice_dim(im, x, (unsigned)d, at, at + sizes[i])))
			return -EINVAL;
		at += sizes[i];
	}
	return 0;
}

/* ONNX's clamping of a start or end along a dimension of size n. */
static int64_t clamp_index(int64_t v, int64_t n, int64_t lo, int64_t hi)
{
	if (v < 0)
		v += n;
	return v < lo ? lo : v > hi ? hi : v;
}

static int slice_op(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t st[MAXR], en[MAXR], ax[MAXR], sp[MAXR];
	int64_t b[MAXR] = {0}, e[MAXR], s[MAXR];
	unsigned r = x ? onx_rank(x) : 0;
	int n, ne, na, ns = -ENOENT;

	if (!x)
		return -EINVAL;
	if (im->opset < 10) {
		n = onx_attr_ints(im, "starts", st, MAXR);
		ne = onx_attr_ints(im, "ends", en, MAXR);
		na = onx_attr_ints(im, "axes", ax, MAXR);
	} else {
		n = onx_in_ints(im, 1, st, MAXR);
		ne = n < 0 ? n : onx_in_ints(im, 2, en, MAXR);
		na = onx_has_in(im, 3) ? onx_in_ints(im, 3, ax, MAXR) : -ENOENT;
		if (onx_has_in(im, 4))
			ns = onx_in_ints(im, 4, sp, MAXR);
	}
	if (n < 0 || ne < 0)
		return n < 0 ? n : ne;
	if (na == -ENOENT)
		for (na = 0; na < n; na++)
			ax[na] = na;
	if (ns == -ENOENT)
		for (ns = 0; ns < n; ns++)
			sp[ns] = 1;
	if (na < 0 || ns < 0)
		return na < 0 ? na : ns;
	if (ne != n || na != n || ns != n)
		return onx_fail(im,
				"starts, ends, axes and steps have %d, %d, "
				"%d and %d entries",
				n, ne, na, ns);
	for (unsigned d = 0; d < r; d++)
		e[d] = onx_dims(x)[d], s[d] = 1;
	for (int k = 0; k < n; k++) {
		int d = onx_axis(im, ax[k], r, "axis");
		int64_t dim;

		if (d < 0)
			return -EINVAL;
		dim = onx_dims(x)[d];
		if (sp[k] == 0)
			return onx_fail(im, "step %d is 0", k);
		if (sp[k] > 0) {
			b[d] = clamp_index(st[k], dim, 0, dim);
			e[d] = clamp_index(en[k], dim, 0, dim);
			if (e[d] < b[d])
				e[d] = b[d];
			s[d] = sp[k];
			continue;
		}
		/* start down to end (exclusive): reversed, it is
		 * dim-1-start up to dim-1-end stepping -step */
		int64_t from = clamp_index(st[k], dim, 0, dim - 1);
		int64_t to = clamp_index(en[k], dim, -1, dim - 1);

		x = reverse(im, x, (unsigned)d);
		b[d] = dim - 1 - from;
		e[d] = dim - 1 - to;
		if (e[d] < b[d])
			e[d] = b[d];
		s[d] = -sp[k];
	}
	return onx_out(im, 0, slice(im, x, b, e, s));
}

/* ---- Gather, GatherElements ---- */

/* Indices made non-negative: idx < 0 ? idx + n : idx, on the host when
 * they are known. */
static ttc_value *wrap_indices(struct onx *im, ttc_value *idx, int64_t n)
{
	const ttc_type *el = idx ? onx_elem(idx) : NULL;
	const void *data = idx ? onx_data(im, idx) : NULL;

	if (!idx || (is_int(el) && ttc_type_signedness(el) == TTC_UNSIGNED))
		return idx;
	if (data) {
		ttc_tensor view = {ttc_value_type(idx), 0, (void *)data};
		ttc_tensor *h = onx_host_tensor(im, view.type);
		ttc_value *c;

		if (!h)
			return NULL;
		view.numel = h->numel;
		for (size_t i = 0; i < h->numel; i++) {
			double v = ttc_tensor_get(&view, i);

			ttc_tensor_set(h, i, v < 0 ? v + (double)n : v);
		}
		c = onx_const(im, view.type, h->data);
		ttc_tensor_free(h);
		return c;
	}
	return where(
		im, onx_op2(im, "ttir.lt", idx, onx_const_scalar(im, el, 0)),
		onx_op2(im, "ttir.add", idx, onx_const_scalar(im, el, (double)n)),
		idx);
}

/* Known indices made non-negative, range-checked. */
static int fix_indices(struct onx *im, int64_t *v, size_t n, int64_t size)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i] < -size || v[i] >= size)
			return onx_fail(im,
					"index %lld is out of range for a "
					"dimension of %lld",
					(long long)v[i], (long long)size);
		if (v[i] < 0)
			v[i] += size;
	}
	return 0;
}

/* x along axis at the known indices idx[n], by slices and a concat. */
static ttc_value *take_sliced(struct onx *im, ttc_value *x, unsigned axis,
			      const int64_t *idx, size_t n)
{
	ttc_value *parts[MAX_SLICED];
	size_t np = 0;

	/* runs of consecutive indices make one slice */
	for (size_t i = 0; i < n; np++) {
		size_t j = i + 1;

		while (j < n && idx[j] == idx[j - 1] + 1)
			j++;
		parts[np] = slice_dim(im, x, axis, idx[i],
				      idx[i] + (int64_t)(j - i));
		i = j;
	}
	return concat(im, parts, np, axis);
}

/* torch.gather along axis of x with one index list (runtime, flat,
 * non-negative) broadcast over the other dimensions. */
static ttc_value *take_gather(struct onx *im, ttc_value *x, unsigned axis,
			      ttc_value *flat)
{
	int64_t d1[MAXR], full[MAXR];
	unsigned r = onx_rank(x);

	for (unsigned d = 0; d < r; d++) {
		full[d] = d == axis ? onx_dims(flat)[0] : onx_dims(x)[d];
		d1[d] = d == axis ? full[d] : 1;
	}
	ttc_value *ix = broadcast_to(im, onx_reshape(im, flat, d1, r), full);
	struct ttc_named_attr a = {"dim", onx_i32(im, axis)};
	ttc_value *in[2] = {x, ix};

	return onx_build(im, "ttir.gather", in, 2, onx_props(im, &a, 1));
}

static int gather(struct onx *im)
{
	ttc_value *x = onx_in(im, 0), *idx = onx_in(im, 1);
	int64_t out[MAXR], size, nidx, flat;
	unsigned r, q, n = 0;
	int axis;

	if (!x || !idx)
		return -EINVAL;
	r = onx_rank(x), q = onx_rank(idx);
	axis = onx_axis(im, onx_attr_int(im, "axis", 0), r, "axis");
	if (axis < 0)
		return -EINVAL;
	if (r + q - 1 > MAXR)
		return onx_unsupported(im, "a result of rank %u", r + q - 1);
	for (unsigned d = 0; d < (unsigned)axis; d++)
		out[n++] = onx_dims(x)[d];
	for (unsigned d = 0; d < q; d++)
		out[n++] = onx_dims(idx)[d];
	for (unsigned d = axis + 1; d < r; d++)
		out[n++] = onx_dims(x)[d];
	size = onx_dims(x)[axis];
	nidx = ttc_type_numel(ttc_value_type(idx));
	if (!is_int(onx_elem(idx)))
		return onx_fail(im, "indices must be integers");
	if (onx_data(im, idx) && nidx <= MAX_SLICED && nidx > 0) {
		int64_t v[MAX_SLICED];

		if (onx_in_ints(im, 1, v, MAX_SLICED) < 0 ||
		    fix_indices(im, v, (size_t)nidx, size))
			return -EINVAL;
		return onx_out(
			im, 0,
			onx_reshape(im,
				    take_sliced(im, x, axis, v, (size_t)nidx),
				    out, n));
	}
	if (!nidx)
		return onx_unsupported(im, "an empty index tensor");
	idx = wrap_indices(im, idx, size);
	flat = nidx;
	if (axis == 0 && !is_int(onx_elem(x)) && !onx_data(im, idx)) {
		/* a table lookup: rows of x as [size, the rest] */
		int64_t table[2] = {size, ttc_type_numel(ttc_value_type(x)) /
						  (size ? size : 1)};

		return onx_out(
			im, 0,
			onx_reshape(
				im,
				ttc_embedding(im->b,
					      onx_reshape(im, idx, &flat, 1),
					      onx_reshape(im, x, table, 2)),
				out, n));
	}
	return onx_out(im, 0,
		       onx_reshape(im,
				   take_gather(im, x, (unsigned)axis,
					       onx_reshape(im, idx, &flat, 1)),
				   out, n));
}

static int gather_elements(struct onx *im)
{
	ttc_value *x = onx_in(im, 0), *idx = onx_in(im, 1);
	int axis;

	if (!x || !idx)
		return -EINVAL;
	axis = onx_axis(im, onx_attr_int(im, "axis", 0), onx_rank(x), "axis");
	if (axis < 0)
		return -EINVAL;
	if (onx_rank(idx) != onx_rank(x))
		return onx_fail(im, "indices must have the data's rank");
	idx = wrap_indices(im, idx, onx_dims(x)[axis]);
	struct ttc_named_attr a = {"dim", onx_i32(im, axis)};
	ttc_value *in[2] = {x, idx};

	return onx_out(
		im, 0,
		onx_build(im, "ttir.gather", in, 2, onx_props(im, &a, 1)));
}

/* ---- Shape, Size, Constant, ConstantOfShape, Range, EyeLike ---- */

static int shape_op(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t r = x ? onx_rank(x) : 0, start, end;

	if (!x)
		return -EINVAL;
	start = clamp_index(onx_attr_int(im, "start", 0), r, 0, r);
	end = onx_attr(im, "end")
		      ? clamp_index(onx_attr_int(im, "end", r), r, 0, r)
		      : r;
	if (end < start)
		end = start;
	return onx_out(
		im, 0,
		const_i64s(im, onx_dims(x) + start, (size_t)(end - start)));
}

static int size_op(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t n = x ? ttc_type_numel(ttc_value_type(x)) : 0;

	if (!x)
		return -EINVAL;
	return onx_out(
		im, 0,
		onx_const(im,
			  ttc_tensor_type(im->ctx, NULL, 0, i64_elem(im), NULL),
			  &n));
}

/* Output 0: the tensor t as a constant. */
static int const_tensor(struct onx *im, const Onnx__TensorProto *t)
{
	ttc_tensor *h = NULL;
	ttc_value *v;
	int rc = onx_tensor(im->ctx, t, im->o ? im->o->base_dir : NULL, &h);

	if (rc)
		return rc;
	v = onx_const(im, h->type, h->data);
	ttc_tensor_free(h);
	return onx_out(im, 0, v);
}

static int constant(struct onx *im)
{
	const Onnx__AttributeProto *a;
	int64_t n;

	if (onx_attr(im, "sparse_value"))
		return onx_unsupported(im, "attribute 'sparse_value'");
	if (onx_attr(im, "value_string") || onx_attr(im, "value_strings"))
		return onx_unsupported(im, "string constants");
	if ((a = onx_attr(im, "value")) && a->t)
		return const_tensor(im, a->t);
	if ((a = onx_attr(im, "value_float")))
		return onx_out(
			im, 0,
			onx_const_scalar(im, ttc_float_type(im->ctx, TTC_F32),
					 a->f));
	if ((a = onx_attr(im, "value_int")))
		return onx_out(im, 0,
			       onx_const(im,
					 ttc_tensor_type(im->ctx, NULL, 0,
							 i64_elem(im), NULL),
					 &a->i));
	if ((a = onx_attr(im, "value_ints")))
		return onx_out(im, 0, const_i64s(im, a->ints, a->n_ints));
	if ((a = onx_attr(im, "value_floats"))) {
		n = (int64_t)a->n_floats;
		return onx_out(
			im, 0,
			onx_const(im,
				  ttc_tensor_type(
					  im->ctx, &n, 1,
					  ttc_float_type(im->ctx, TTC_F32),
					  NULL),
				  a->floats));
	}
	return onx_fail(im, "no value attribute");
}

/* A constant of dims, elem, every element v. */
static ttc_value *filled(struct onx *im, const int64_t *dims, unsigned rank,
			 const ttc_type *elem, double v)
{
	const ttc_type *t = ttc_tensor_type(im->ctx, dims, rank, elem, NULL);
	ttc_tensor *h = onx_host_tensor(im, t);
	ttc_value *c;

	if (!h)
		return NULL;
	for (size_t i = 0; i < h->numel; i++)
		ttc_tensor_set(h, i, v);
	c = onx_const(im, t, h->data);
	ttc_tensor_free(h);
	return c;
}

static int constant_of_shape(struct onx *im)
{
	const Onnx__AttributeProto *a = onx_attr(im, "value");
	int64_t dims[MAXR];
	int n = onx_in_ints(im, 0, dims, MAXR);
	const ttc_type *elem = ttc_float_type(im->ctx, TTC_F32);
	double v = 0;

	if (n < 0)
		return n;
	if (a && a->t) {
		ttc_tensor *h = NULL;
		int rc = onx_tensor(im->ctx, a->t, NULL, &h);

		if (rc)
			return rc;
		if (h->numel != 1) {
			ttc_tensor_free(h);
			return onx_fail(im, "attribute 'value' must hold one "
					    "value");
		}
		elem = ttc_type_elem(h->type);
		v = ttc_tensor_get(h, 0);
		ttc_tensor_free(h);
	}
	return onx_out(im, 0, filled(im, dims, (unsigned)n, elem, v));
}

static int range(struct onx *im)
{
	double start, limit, delta;
	ttc_value *s = onx_in(im, 0);

	if (!s || onx_in_scalar(im, 0, &start) ||
	    onx_in_scalar(im, 1, &limit) || onx_in_scalar(im, 2, &delta))
		return -ENOTSUP;
	if (delta == 0)
		return onx_fail(im, "delta is 0");
	double c = ceil((limit - start) / delta);
	int64_t n = c > 0 ? (int64_t)c : 0;

	if (n > (1 << 24))
		return onx_unsupported(im, "a range of %lld elements",
				       (long long)n);
	const ttc_type *t = ttc_tensor_type(im->ctx, &n, 1, onx_elem(s), NULL);
	ttc_tensor *h = onx_host_tensor(im, t);
	ttc_value *v;

	if (!h)
		return -ENOMEM;
	for (int64_t i = 0; i < n; i++)
		ttc_tensor_set(h, (size_t)i, start + (double)i * delta);
	v = onx_const(im, t, h->data);
	ttc_tensor_free(h);
	return onx_out(im, 0, v);
}

static int eye_like(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t k = onx_attr_int(im, "k", 0);
	const ttc_type *elem;

	if (!x)
		return -EINVAL;
	elem = onx_elem(x);
	if (onx_attr(im, "dtype")) {
		int32_t dt = (int32_t)onx_attr_int(im, "dtype", 0);

		if (!(elem = onx_elem_type(im->ctx, dt)))
			return onx_unsupported(im, "attribute 'dtype' (%s)",
					       onx_dtype_name(dt));
	}
	if (onx_rank(x) != 2)
		return onx_fail(im, "the input must be 2-D");
	const ttc_type *t = ttc_tensor_type(im->ctx, onx_dims(x), 2, elem, NULL);
	ttc_tensor *h = onx_host_tensor(im, t);
	int64_t rows = onx_dims(x)[0], cols = onx_dims(x)[1];
	ttc_value *v;

	if (!h)
		return -ENOMEM;
	for (int64_t i = 0; i < rows; i++)
		if (i + k >= 0 && i + k < cols)
			ttc_tensor_set(h, (size_t)(i * cols + i + k), 1);
	v = onx_const(im, t, h->data);
	ttc_tensor_free(h);
	return onx_out(im, 0, v);
}

/* ---- Expand, Tile ---- */

static int expand(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t shape[MAXR], in[MAXR], out[MAXR];
	int n = x ? onx_in_ints(im, 1, shape, MAXR) : -EINVAL;
	unsigned r, rx;

	if (n < 0)
		return n;
	rx = onx_rank(x);
	r = rx > (unsigned)n ? rx : (unsigned)n;
	/* bidirectional broadcasting, aligned on the right */
	for (unsigned d = 0; d < r; d++) {
		int64_t a = d + rx >= r ? onx_dims(x)[d + rx - r] : 1;
		int64_t b = d + n >= r ? shape[d + n - r] : 1;

		if (a != b && a != 1 && b != 1)
			return onx_fail(im,
					"shape %lld does not broadcast with "
					"%lld (dimension %u)",
					(long long)b, (long long)a, d);
		in[d] = a;
		out[d] = a == 1 ? b : a;
	}
	return onx_out(im, 0, broadcast_to(im, onx_reshape(im, x, in, r), out));
}

static int tile(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t rep[MAXR];
	int n = x ? onx_in_ints(im, 1, rep, MAXR) : -EINVAL;
	bool same = true;

	if (n < 0)
		return n;
	if ((unsigned)n != onx_rank(x))
		return onx_fail(im, "%d repeats for rank %u", n, onx_rank(x));
	for (int d = 0; d < n; d++) {
		if (rep[d] < 1)
			return onx_unsupported(im,
					       "repeat %lld (an empty "
					       "result)",
					       (long long)rep[d]);
		same &= rep[d] == 1;
	}
	if (same)
		return onx_out(im, 0, x);
	struct ttc_named_attr a = {"repeat_dimensions", onx_i64s(im, rep, n)};

	return onx_out(
		im, 0,
		onx_build(im, "ttir.repeat", &x, 1, onx_props(im, &a, 1)));
}

/* ---- Pad ---- */

/* x (size 1 along dim) repeated n times along dim. */
static ttc_value *repeat_along(struct onx *im, ttc_value *x, unsigned dim,
			       int64_t n)
{
	int64_t dims[MAXR];

	if (!x)
		return NULL;
	memcpy(dims, onx_dims(x), onx_rank(x) * sizeof(*dims));
	dims[dim] = n;
	return broadcast_to(im, x, dims);
}

/* x padded by p before and after along dim by edge or reflect. */
static ttc_value *pad_copy(struct onx *im, ttc_value *x, unsigned dim,
			   int64_t lo, int64_t hi, bool reflect)
{
	ttc_value *parts[3];
	size_t n = 0;
	int64_t size = onx_dims(x)[dim];

	if (lo) {
		if (reflect)
			parts[n++] = reverse(
				im, slice_dim(im, x, dim, 1, lo + 1), dim);
		else
			parts[n++] = repeat_along(
				im, slice_dim(im, x, dim, 0, 1), dim, lo);
	}
	parts[n++] = x;
	if (hi) {
		if (reflect)
			parts[n++] = reverse(
				im,
				slice_dim(im, x, dim, size - 1 - hi, size - 1),
				dim);
		else
			parts[n++] = repeat_along(
				im, slice_dim(im, x, dim, size - 1, size), dim,
				hi);
	}
	return concat(im, parts, n, dim);
}

static int pad(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	const char *mode = onx_attr_str(im, "mode", "constant");
	int64_t pads[2 * MAXR], p[2 * MAXR], b[MAXR] = {0}, e[MAXR], s[MAXR];
	double value = 0;
	unsigned r = x ? onx_rank(x) : 0;
	int n;

	if (!x)
		return -EINVAL;
	if (im->opset < 11) {
		n = onx_attr_ints(im, "pads", pads, 2 * MAXR);
		value = onx_attr_float(im, "value", 0);
	} else {
		n = onx_in_ints(im, 1, pads, 2 * MAXR);
		if (n >= 0 && onx_has_in(im, 2) && onx_in_scalar(im, 2, &value))
			return -ENOTSUP;
	}
	if (n == -ENOENT)
		return onx_fail(im, "attribute 'pads' is missing");
	if (n < 0)
		return n;
	if ((unsigned)n != 2 * r)
		return onx_fail(im, "%d pads for rank %u", n, r);
	/* ONNX: all begins then all ends; ttir.pad: [low, high] per
	 * dimension */
	for (unsigned d = 0; d < r; d++)
		p[2 * d] = pads[d], p[2 * d + 1] = pads[d + r];
	if (!strcmp(mode, "constant")) {
		struct ttc_named_attr a[] = {
			{"padding", onx_i32s(im, p, 2 * r)},
			{"value", onx_f32(im, value)}};
		bool none = true;

		for (unsigned i = 0; i < 2 * r; i++)
			none &= p[i] == 0;
		if (none)
			return onx_out(im, 0, x);
		return onx_out(
			im, 0,
			onx_build(im, "ttir.pad", &x, 1, onx_props(im, a, 2)));
	}
	bool reflect = !strcmp(mode, "reflect");

	if (!reflect && strcmp(mode, "edge"))
		return onx_unsupported(im, "attribute 'mode' %s", mode);
	/* negative pads crop first */
	for (unsigned d = 0; d < r; d++) {
		e[d] = onx_dims(x)[d], s[d] = 1;
		if (p[2 * d] < 0)
			b[d] = -p[2 * d], p[2 * d] = 0;
		if (p[2 * d + 1] < 0)
			e[d] += p[2 * d + 1], p[2 * d + 1] = 0;
		if (e[d] <= b[d])
			return onx_unsupported(im,
					       "pads that crop dimension "
					       "%u away",
					       d);
	}
	x = slice(im, x, b, e, s);
	for (unsigned d = 0; x && d < r; d++) {
		if (!p[2 * d] && !p[2 * d + 1])
			continue;
		if (reflect && (p[2 * d] >= onx_dims(x)[d] ||
				p[2 * d + 1] >= onx_dims(x)[d]))
			return onx_unsupported(im,
					       "mode reflect with pads of "
					       "dimension %u not below its "
					       "size %lld",
					       d, (long long)onx_dims(x)[d]);
		x = pad_copy(im, x, d, p[2 * d], p[2 * d + 1], reflect);
	}
	return onx_out(im, 0, x);
}

/* ---- DepthToSpace, SpaceToDepth ---- */

/* x reshaped to mid, permuted by perm (rank 6), reshaped to out. */
static ttc_value *shuffle(struct onx *im, ttc_value *x, const int64_t *mid,
			  const int64_t *perm, const int64_t *out)
{
	return onx_reshape(im,
			   onx_permute(im, onx_reshape(im, x, mid, 6), perm, 6),
			   out, 4);
}

static int depth_to_space(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t bs = onx_attr_int(im, "blocksize", 0), n, c, h, w;
	const char *mode = onx_attr_str(im, "mode", "DCR");
	bool dcr = !strcmp(mode, "DCR");

	if (!x)
		return -EINVAL;
	if (onx_rank(x) != 4)
		return onx_fail(im, "the input must be 4-D");
	n = onx_dims(x)[0], c = onx_dims(x)[1], h = onx_dims(x)[2],
	w = onx_dims(x)[3];
	if (bs < 1 || c % (bs * bs))
		return onx_fail(im,
				"blocksize %lld does not divide the %lld "
				"channels",
				(long long)bs, (long long)c);
	if (!dcr && strcmp(mode, "CRD"))
		return onx_unsupported(im, "attribute 'mode' %s", mode);
	int64_t dcr_mid[6] = {n, bs, bs, c / (bs * bs), h, w};
	int64_t crd_mid[6] = {n, c / (bs * bs), bs, bs, h, w};
	int64_t dcr_perm[6] = {0, 3, 4, 1, 5, 2};
	int64_t crd_perm[6] = {0, 1, 4, 2, 5, 3};
	int64_t out[4] = {n, c / (bs * bs), h * bs, w * bs};

	return onx_out(im, 0,
		       shuffle(im, x, dcr ? dcr_mid : crd_mid,
			       dcr ? dcr_perm : crd_perm, out));
}

static int space_to_depth(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t bs = onx_attr_int(im, "blocksize", 0), n, c, h, w;

	if (!x)
		return -EINVAL;
	if (onx_rank(x) != 4)
		return onx_fail(im, "the input must be 4-D");
	n = onx_dims(x)[0], c = onx_dims(x)[1], h = onx_dims(x)[2],
	w = onx_dims(x)[3];
	if (bs < 1 || h % bs || w % bs)
		return onx_fail(im, "blocksize %lld does not divide %lldx%lld",
				(long long)bs, (long long)h, (long long)w);
	int64_t mid[6] = {n, c, h / bs, bs, w / bs, bs};
	int64_t perm[6] = {0, 3, 5, 1, 2, 4};
	int64_t out[4] = {n, c * bs * bs, h / bs, w / bs};

	return onx_out(im, 0, shuffle(im, x, mid, perm, out));
}

/* ---- Resize, Upsample ---- */

/* Nearest resizing: the coordinate transformation and the rounding. */
struct nearest {
	const char *ct, *nm;
};

static double source_coord(const struct nearest *m, int64_t x, double scale,
			   int64_t in, int64_t out)
{
	if (!strcmp(m->ct, "half_pixel"))
		return ((double)x + 0.5) / scale - 0.5;
	if (!strcmp(m->ct, "pytorch_half_pixel"))
		return out > 1 ? ((double)x + 0.5) / scale - 0.5 : 0;
	if (!strcmp(m->ct, "align_corners"))
		return out > 1 ? (double)x * (double)(in - 1) /
					 (double)(out - 1)
			       : 0;
	if (!strcmp(m->ct, "asymmetric"))
		return (double)x / scale;
	return ((double)x + 0.5) / scale; /* tf_half_pixel_for_nn */
}

/* The input index output position x reads (ONNX Resize, nearest). */
static int64_t source_index(const struct nearest *m, int64_t x, double scale,
			    int64_t in, int64_t out)
{
	double o = source_coord(m, x, scale, in, out), f = floor(o), i;

	if (!strcmp(m->nm, "floor"))
		i = f;
	else if (!strcmp(m->nm, "ceil"))
		i = ceil(o);
	else if (!strcmp(m->nm, "round_prefer_ceil"))
		i = o - f >= 0.5 ? f + 1 : f;
	else /* round_prefer_floor */
		i = o - f > 0.5 ? f + 1 : f;
	return i < 0 ? 0 : i > (double)(in - 1) ? in - 1 : (int64_t)i;
}

static bool known_mode(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* x along dim resized to out elements, src[k] the input index of output
 * k: a repeat of each element, a strided slice, or a gather. */
static ttc_value *take_along(struct onx *im, ttc_value *x, unsigned dim,
			     const int64_t *src, int64_t out)
{
	int64_t in = onx_dims(x)[dim], step = out > 1 ? src[1] - src[0] : 1;
	int64_t f = out >= in && out % in == 0 ? out / in : 0;
	bool rep = f > 0, strided = step >= 1;

	for (int64_t k = 0; k < out; k++) {
		rep &= f && src[k] == k / (f ? f : 1);
		strided &= src[k] == src[0] + k * step;
	}
	if (rep && out == in)
		return x;
	if (rep) {
		struct ttc_named_attr a[] = {
			{"dim", onx_i32(im, dim)},
			{"repeats", ttc_int_attr(im->ctx, out / in,
						 ttc_int_type(im->ctx, 32,
							      TTC_UNSIGNED))}};

		return onx_build(im, "ttir.repeat_interleave", &x, 1,
				 onx_props(im, a, 2));
	}
	if (strided) {
		int64_t b[MAXR] = {0}, e[MAXR], s[MAXR];

		for (unsigned d = 0; d < onx_rank(x); d++)
			e[d] = onx_dims(x)[d], s[d] = 1;
		b[dim] = src[0], e[dim] = src[out - 1] + 1, s[dim] = step;
		return slice(im, x, b, e, s);
	}
	return take_gather(im, x, dim, const_i64s(im, src, (size_t)out));
}

/* x resized along each dimension d to out[d] elements by scale[d]. */
static int resize_by(struct onx *im, ttc_value *x, const struct nearest *m,
		     const double *scale, const int64_t *out)
{
	for (unsigned d = 0; x && d < onx_rank(x); d++) {
		int64_t in = onx_dims(x)[d];
		int64_t *src;

		if (out[d] < 1 || in < 1)
			return onx_unsupported(im, "an empty dimension %u", d);
		if (!(src = malloc((size_t)out[d] * sizeof(*src))))
			return -ENOMEM;
		for (int64_t k = 0; k < out[d]; k++)
			src[k] = source_index(m, k, scale[d], in, out[d]);
		x = take_along(im, x, d, src, out[d]);
		free(src);
	}
	return onx_out(im, 0, x);
}

/* Input i's floats into out[rank] (known at import time). */
static int in_floats(struct onx *im, size_t i, double *out, unsigned rank)
{
	ttc_value *v = onx_in(im, i);
	const void *data = v ? onx_data(im, v) : NULL;
	ttc_tensor view;

	if (!v)
		return -EINVAL;
	if (!data)
		return onx_unsupported(im,
				       "input %zu ('%s') must be known at "
				       "import time (a constant, an "
				       "initializer, or computed from them)",
				       i, im->node->input[i]);
	view.type = ttc_value_type(v);
	view.data = (void *)data;
	view.numel = (size_t)ttc_type_numel(view.type);
	if (view.numel != rank)
		return onx_fail(im, "input %zu has %zu values for rank %u", i,
				view.numel, rank);
	for (unsigned k = 0; k < rank; k++)
		out[k] = ttc_tensor_get(&view, k);
	return 0;
}

static bool given_nonempty(struct onx *im, size_t i)
{
	const ttc_type *t = onx_in_type(im, i);

	return t && ttc_type_numel(t) > 0;
}

/* The nearest mode's attributes, or unsupported naming them. Upsample
 * and Resize-10 (whose rounding implementations disagree on) are taken
 * with whole factors only, where every reading repeats each element. */
static int nearest_of(struct onx *im, struct nearest *m, bool *legacy)
{
	static const char *const cts[] = {
		"half_pixel", "pytorch_half_pixel",   "align_corners",
		"asymmetric", "tf_half_pixel_for_nn", NULL};
	static const char *const nms[] = {"round_prefer_floor",
					  "round_prefer_ceil", "floor", "ceil",
					  NULL};
	const char *mode = onx_attr_str(im, "mode", "nearest");

	*legacy = !strcmp(im->node->op_type, "Upsample") || im->opset < 11;
	if (strcmp(mode, "nearest"))
		return onx_unsupported(im, "attribute 'mode' %s (only nearest)",
				       mode);
	m->ct = *legacy ? "asymmetric"
			: onx_attr_str(im, "coordinate_transformation_mode",
				       "half_pixel");
	m->nm = *legacy ? "floor"
			: onx_attr_str(im, "nearest_mode",
				       "round_prefer_floor");
	if (!known_mode(m->ct, cts))
		return onx_unsupported(im,
				       "attribute "
				       "'coordinate_transformation_mode' %s",
				       m->ct);
	if (!known_mode(m->nm, nms))
		return onx_unsupported(im, "attribute 'nearest_mode' %s",
				       m->nm);
	return 0;
}

/* The scales of Upsample-7's attribute or the input si. */
static int scales_of(struct onx *im, size_t si, double *scale, unsigned r)
{
	const Onnx__AttributeProto *a = onx_attr(im, "scales");

	if (!a)
		return in_floats(im, si, scale, r);
	if (a->n_floats != r)
		return onx_fail(im, "attribute 'scales' needs %u values", r);
	for (unsigned d = 0; d < r; d++)
		scale[d] = a->floats[d];
	return 0;
}

static int resize(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	struct nearest m = {"", ""};
	double scale[MAXR];
	int64_t out[MAXR];
	unsigned r = x ? onx_rank(x) : 0;
	bool legacy;
	int rc = x ? nearest_of(im, &m, &legacy) : -EINVAL;
	size_t si = legacy ? 1 : 2;

	if (rc)
		return rc;
	if (onx_attr(im, "scales") ||
	    (onx_has_in(im, si) && given_nonempty(im, si))) {
		if ((rc = scales_of(im, si, scale, r)))
			return rc;
		for (unsigned d = 0; d < r; d++)
			out[d] = (int64_t)floor((double)onx_dims(x)[d] *
						scale[d]);
	} else if (!legacy && onx_has_in(im, 3)) {
		int n = onx_in_ints(im, 3, out, MAXR);

		if (n < 0)
			return n;
		if ((unsigned)n != r)
			return onx_fail(im, "%d sizes for rank %u", n, r);
		for (unsigned d = 0; d < r; d++)
			scale[d] = (double)out[d] / (double)onx_dims(x)[d];
	} else {
		return onx_fail(im, "neither scales nor sizes are given");
	}
	for (unsigned d = 0; legacy && d < r; d++)
		if (scale[d] != floor(scale[d]) || scale[d] < 1)
			return onx_unsupported(
				im,
				"scale %g along dimension %u (%s "
				"takes whole factors >= 1 only)",
				scale[d], d, im->node->op_type);
	return resize_by(im, x, &m, scale, out);
}

/* ---- Trilu, OneHot ---- */

static int trilu(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	bool upper = onx_attr_int(im, "upper", 1) != 0;
	int64_t k = 0, dims[2];
	unsigned r = x ? onx_rank(x) : 0;

	if (!x)
		return -EINVAL;
	if (r < 2)
		return onx_fail(im, "the input must be at least 2-D");
	if (onx_has_in(im, 1)) {
		double kk;

		if (onx_in_scalar(im, 1, &kk))
			return -ENOTSUP;
		k = (int64_t)kk;
	}
	dims[0] = onx_dims(x)[r - 2], dims[1] = onx_dims(x)[r - 1];
	const ttc_type *t = ttc_tensor_type(im->ctx, dims, 2, onx_elem(x), NULL);
	ttc_tensor *h = onx_host_tensor(im, t);
	ttc_value *mask;

	if (!h)
		return -ENOMEM;
	/* kept: j - i >= k (upper) or j - i <= k (lower) */
	for (int64_t i = 0; i < dims[0]; i++)
		for (int64_t j = 0; j < dims[1]; j++)
			ttc_tensor_set(h, (size_t)(i * dims[1] + j),
				       upper ? j - i >= k : j - i <= k);
	mask = onx_const(im, t, h->data);
	ttc_tensor_free(h);
	return onx_out(im, 0,
		       where(im, mask, x, onx_const_scalar(im, onx_elem(x), 0)));
}

/* The positions 0..n-1 along axis of a tensor of rank r (1 elsewhere). */
static ttc_value *positions(struct onx *im, int64_t n, unsigned axis,
			    unsigned r, const ttc_type *elem)
{
	double *pos = malloc((size_t)n * sizeof(*pos));
	int64_t dims[MAXR];
	ttc_value *p;

	if (!pos)
		return NULL;
	for (int64_t i = 0; i < n; i++)
		pos[i] = (double)i;
	for (unsigned d = 0; d < r; d++)
		dims[d] = d == axis ? n : 1;
	p = const_of(im, dims, r, elem, pos);
	free(pos);
	return p;
}

/* where(indices == positions along axis, on, off) */
static int one_hot(struct onx *im)
{
	ttc_value *idx = onx_in(im, 0), *vals = onx_in(im, 2);
	double depth;
	int64_t n, id[MAXR], one = 1;
	unsigned r = idx ? onx_rank(idx) : 0;
	int axis, rc = idx && vals ? onx_in_scalar(im, 1, &depth) : -EINVAL;

	if (rc)
		return rc;
	if (r + 1 > MAXR)
		return onx_unsupported(im, "a result of rank %u", r + 1);
	axis = onx_axis(im, onx_attr_int(im, "axis", -1), r + 1, "axis");
	if (axis < 0)
		return -EINVAL;
	n = (int64_t)depth;
	if (n < 1)
		return onx_fail(im, "depth %g", depth);
	if (onx_rank(vals) != 1 || onx_dims(vals)[0] != 2)
		return onx_fail(im, "values must be [off, on]");
	for (unsigned d = 0, k = 0; d <= r; d++)
		id[d] = d == (unsigned)axis ? 1 : onx_dims(idx)[k++];
	/* ONNX casts the indices to integers; negative ones count from
	 * depth */
	if (!is_int(onx_elem(idx)))
		idx = onx_typecast(im, idx, i64_elem(im));
	ttc_value *ix = onx_reshape(im, wrap_indices(im, idx, n), id, r + 1);
	ttc_value *hit =
		onx_op2(im, "ttir.eq", ix,
		      positions(im, n, (unsigned)axis, r + 1, onx_elem(idx)));
	ttc_value *off = onx_reshape(im, slice_dim(im, vals, 0, 0, 1), &one, 0);
	ttc_value *on = onx_reshape(im, slice_dim(im, vals, 0, 1, 2), &one, 0);

	return onx_out(im, 0, where(im, hit, on, off));
}

const struct onx_op onx_ops_shape[] = {
	{"Reshape", reshape, "", 7, 13},
	{"Reshape", reshape, "allowzero", 14, 0},
	{"Flatten", flatten, "axis", 7, 0},
	{"Transpose", transpose, "perm", 7, 0},
	{"Squeeze", squeeze, "axes", 7, 12},
	{"Squeeze", squeeze, "", 13, 0},
	{"Unsqueeze", unsqueeze, "axes", 7, 12},
	{"Unsqueeze", unsqueeze, "", 13, 0},
	{"Concat", concat_op, "axis", 7, 0},
	{"Split", split, "axis,split", 7, 12},
	{"Split", split, "axis", 13, 0},
	{"Slice", slice_op, "starts,ends,axes", 7, 9},
	{"Slice", slice_op, "", 10, 0},
	{"Gather", gather, "axis", 7, 0},
	{"GatherElements", gather_elements, "axis", 11, 0},
	{"Shape", shape_op, "", 7, 14},
	{"Shape", shape_op, "start,end", 15, 0},
	{"Size", size_op, "", 7, 0},
	{"Constant", constant, "value", 7, 10},
	{"Constant", constant, "value,sparse_value", 11, 11},
	{"Constant", constant,
	 "value,sparse_value,value_float,value_floats,value_int,value_ints,"
	 "value_string,value_strings",
	 12, 0},
	{"ConstantOfShape", constant_of_shape, "value", 9, 0},
	{"Range", range, "", 11, 0},
	{"EyeLike", eye_like, "dtype,k", 9, 0},
	{"Expand", expand, "", 8, 0},
	{"Tile", tile, "", 7, 0},
	{"Pad", pad, "mode,pads,value", 7, 10},
	{"Pad", pad, "mode", 11, 0},
	{"DepthToSpace", depth_to_space, "blocksize", 7, 10},
	{"DepthToSpace", depth_to_space, "blocksize,mode", 11, 0},
	{"SpaceToDepth", space_to_depth, "blocksize", 7, 0},
	{"Upsample", resize, "mode,scales", 7, 8},
	{"Upsample", resize, "mode", 9, 9},
	{"Resize", resize, "mode", 10, 10},
	{"Resize", resize,
	 "coordinate_transformation_mode,cubic_coeff_a,exclude_outside,"
	 "extrapolation_value,mode,nearest_mode",
	 11, 0},
	{"Trilu", trilu, "upper", 14, 0},
	{"OneHot", one_hot, "axis", 9, 0},
	{NULL, NULL, NULL, 0, 0},
};
