// SPDX-License-Identifier: Apache-2.0
/*
 * Matrix products (MatMul, Gemm, Einsum), the softmax family (Softmax,
 * LogSoftmax, Hardmax) and CumSum.
 */
#include <string.h>

#include "internal.h"

static ttc_value *matmul(struct onx *im, ttc_value *a, ttc_value *b, bool ta,
			 bool tb)
{
	struct ttc_named_attr e[] = {{"transpose_a", onx_bool(im, ta)},
				     {"transpose_b", onx_bool(im, tb)}};
	ttc_value *in[2] = {a, b};

	return onx_build(im, "ttir.matmul", in, 2,
			 ta || tb ? onx_props(im, e, 2) : NULL);
}

/* ---- MatMul ---- */

/* NumPy's matmul: a 1-D a is a row [1, K], a 1-D b a column [K, 1], the
 * dimension added removed from the product; batch dimensions broadcast
 * (ttir.matmul does that). */
static int matmul_op(struct onx *im)
{
	ttc_value *a = onx_in(im, 0), *b = onx_in(im, 1);

	if (!a || !b)
		return -EINVAL;
	unsigned ra = onx_rank(a), rb = onx_rank(b);

	if (!ra || !rb)
		return onx_fail(im, "MatMul's operands must have rank 1 or "
				    "more");
	int64_t row[2] = {1, onx_dims(a)[0]}, col[2] = {onx_dims(b)[0], 1};

	if (ra == 1)
		a = onx_reshape(im, a, row, 2);
	if (rb == 1)
		b = onx_reshape(im, b, col, 2);
	ttc_value *y = matmul(im, a, b, false, false);

	if (!y || (ra > 1 && rb > 1))
		return onx_out(im, 0, y);
	/* drop the added dimensions: the last for b, the one before for a */
	int64_t d[TTC_MAX_RANK];
	unsigned n = 0, r = onx_rank(y);

	for (unsigned k = 0; k < r; k++)
		if (!(rb == 1 && k == r - 1) && !(ra == 1 && k == r - 2))
			d[n++] = onx_dims(y)[k];
	return onx_out(im, 0, onx_reshape(im, y, d, n));
}

/* ---- Gemm ---- */

/* alpha * A' B' + beta * C, A' and B' transposed by transA and transB, C
 * (optional from opset 11) broadcasting to [M, N]. ttir.linear takes
 * exactly A' B' + C. */
static int gemm(struct onx *im)
{
	ttc_value *a = onx_in(im, 0), *b = onx_in(im, 1), *c = NULL;
	double alpha = onx_attr_float(im, "alpha", 1.0);
	double beta = onx_attr_float(im, "beta", 1.0);
	bool ta = onx_attr_int(im, "transA", 0) != 0;
	bool tb = onx_attr_int(im, "transB", 0) != 0;

	if (!a || !b)
		return -EINVAL;
	if (onx_rank(a) != 2 || onx_rank(b) != 2)
		return onx_fail(im, "Gemm's A and B must have rank 2");
	if (im->opset < 11 || onx_has_in(im, 2)) {
		if (!(c = onx_in(im, 2)))
			return -EINVAL;
	}
	/* integers: a fractional scale has no integer result to round to */
	if (ttc_type_kind(onx_elem(a)) == TTC_TYPE_INT &&
	    (alpha != (double)(int64_t)alpha || beta != (double)(int64_t)beta))
		return onx_unsupported(im, "integer inputs with alpha %g, beta "
					   "%g (not integers)", alpha, beta);
	if (c && alpha == 1.0 && beta == 1.0) {
		struct ttc_named_attr e[] = {{"transpose_a", onx_bool(im, ta)},
					     {"transpose_b", onx_bool(im, tb)}};
		ttc_value *in[3] = {a, b, c};

		return onx_out(im, 0, onx_build(im, "ttir.linear", in, 3,
						onx_props(im, e, 2)));
	}
	ttc_value *y = matmul(im, a, b, ta, tb);

	if (alpha != 1.0)
		y = onx_op_scalar(im, "ttir.multiply", y, alpha);
	/* beta 0 drops C, as onnxruntime does */
	if (c && beta != 0.0)
		y = onx_op2(im, "ttir.add", y,
			   beta == 1.0 ? c :
					 onx_op_scalar(im, "ttir.multiply", c, beta));
	return onx_out(im, 0, y);
}

/* ---- Einsum ---- */

/* Labels: 'A'..'Z' 0..25, 'a'..'z' 26..51, the ellipsis' dimensions
 * 52.. (aligned at the right, as they broadcast). */
enum { NLETTERS = 52, NLABELS = NLETTERS + TTC_MAX_RANK };

struct term {
	int lab[TTC_MAX_RANK];
	unsigned n;
};

static int label_of(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	return -1;
}

/* One term of the equation, s[len], for an operand of rank (ellipsis
 * dimensions: rank minus the letters; rank < 0 for the output, whose
 * ellipsis has nell). 0, or -1 on a malformed term. */
static int parse_term(const char *s, size_t len, int rank, unsigned nell,
		      struct term *t)
{
	unsigned letters = 0;
	bool ell = false;

	for (size_t i = 0; i < len; i++)
		letters += label_of(s[i]) >= 0;
	t->n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ' ')
			continue;
		if (label_of(s[i]) >= 0) {
			if (t->n >= TTC_MAX_RANK)
				return -1;
			t->lab[t->n++] = label_of(s[i]);
			continue;
		}
		if (s[i] != '.' || i + 2 >= len || s[i + 1] != '.' ||
		    s[i + 2] != '.' || ell)
			return -1;
		ell = true;
		i += 2;
		unsigned e = rank < 0 ? nell : (unsigned)rank - letters;

		if (rank >= 0 && (unsigned)rank < letters)
			return -1;
		if (t->n + e > TTC_MAX_RANK || e > nell)
			return -1;
		for (unsigned k = 0; k < e; k++)
			t->lab[t->n++] = NLETTERS + (int)(nell - e + k);
	}
	return rank >= 0 && t->n != (unsigned)rank ? -1 : 0;
}

struct einsum {
	struct term in[2], out;
	unsigned nin;
	int64_t size[NLABELS];
};

/* Where label l is in t, or -1. */
static int find(const struct term *t, int l)
{
	for (unsigned k = 0; k < t->n; k++)
		if (t->lab[k] == l)
			return (int)k;
	return -1;
}

/* The implicit output: the ellipsis, then the letters found once, in
 * alphabetical order. */
static void implicit_output(struct einsum *es, unsigned nell)
{
	unsigned count[NLABELS] = {0};

	for (unsigned i = 0; i < es->nin; i++)
		for (unsigned k = 0; k < es->in[i].n; k++)
			count[es->in[i].lab[k]]++;
	es->out.n = 0;
	for (unsigned k = 0; k < nell; k++)
		es->out.lab[es->out.n++] = NLETTERS + (int)k;
	for (int l = 0; l < NLETTERS && es->out.n < TTC_MAX_RANK; l++)
		if (count[l] == 1)
			es->out.lab[es->out.n++] = l;
}

/* The equation against the operands: es filled, 0; -1 when it is not
 * one we map (malformed, more than two operands, a label repeated in a
 * term, sizes that broadcast). */
static int parse_einsum(const char *eq, ttc_value *const *x, unsigned nin,
			struct einsum *es)
{
	const char *arrow = strstr(eq, "->");
	size_t lhs = arrow ? (size_t)(arrow - eq) : strlen(eq);
	unsigned nell = 0;

	size_t beg[2], end[2];

	memset(es, 0, sizeof(*es));
	if (nin < 1 || nin > 2)
		return -1;
	es->nin = nin;
	/* the terms' extents, and the most dimensions an ellipsis holds */
	for (unsigned i = 0, at = 0; i < nin; i++) {
		const char *comma = memchr(eq + at, ',', lhs - at);

		if ((i + 1 < nin) != (comma != NULL))
			return -1;
		beg[i] = at;
		end[i] = comma ? (size_t)(comma - eq) : lhs;
		at = (unsigned)end[i] + 1;
		unsigned letters = 0, r = onx_rank(x[i]);

		for (size_t k = beg[i]; k < end[i]; k++)
			letters += label_of(eq[k]) >= 0;
		if (memchr(eq + beg[i], '.', end[i] - beg[i]) && r > letters &&
		    r - letters > nell)
			nell = r - letters;
	}
	for (unsigned i = 0; i < nin; i++)
		if (parse_term(eq + beg[i], end[i] - beg[i],
			       (int)onx_rank(x[i]), nell, &es->in[i]))
			return -1;
	if (arrow) {
		if (parse_term(arrow + 2, strlen(arrow + 2), -1, nell, &es->out))
			return -1;
	} else {
		implicit_output(es, nell);
	}
	for (unsigned i = 0; i < nin; i++)
		for (unsigned k = 0; k < es->in[i].n; k++) {
			int l = es->in[i].lab[k];
			int64_t d = onx_dims(x[i])[k];

			if (find(&es->in[i], l) != (int)k)
				return -1; /* a diagonal */
			if (es->size[l] && es->size[l] != d)
				return -1; /* broadcast or mismatch */
			es->size[l] = d;
		}
	for (unsigned k = 0; k < es->out.n; k++) {
		int l = es->out.lab[k];

		if (find(&es->out, l) != (int)k ||
		    (find(&es->in[0], l) < 0 &&
		     (nin < 2 || find(&es->in[1], l) < 0)))
			return -1;
	}
	return 0;
}

/* Sums operand i over its labels found in no other term. */
static ttc_value *sum_private(struct onx *im, struct einsum *es, unsigned i,
			      ttc_value *x)
{
	struct term *t = &es->in[i], kept = {.n = 0};
	int64_t dims[TTC_MAX_RANK];
	size_t n = 0;

	for (unsigned k = 0; k < t->n; k++) {
		int l = t->lab[k];

		if (find(&es->out, l) < 0 &&
		    (es->nin < 2 || find(&es->in[1 - i], l) < 0))
			dims[n++] = k;
		else
			kept.lab[kept.n++] = l;
	}
	if (!n)
		return x;
	*t = kept;
	return onx_reduce(im, "ttir.sum", x, dims, n, false);
}

/* The permutation taking term from's labels to the order of to's. */
static void perm_to(const struct term *from, const struct term *to,
		    int64_t *perm)
{
	for (unsigned k = 0; k < to->n; k++)
		perm[k] = find(from, to->lab[k]);
}

static int64_t prod_of(const struct einsum *es, const int *lab, unsigned n)
{
	int64_t p = 1;

	for (unsigned k = 0; k < n; k++)
		p *= es->size[lab[k]];
	return p;
}

/* Two operands: labels in both and the output batch (B), in both only
 * contract (K), in one only are free (M for a, N for b). a as [B, M, K],
 * b as [B, K, N] (or [B, N, K] transposed when it is so already), one
 * matmul, then the output's order. */
static ttc_value *einsum2(struct onx *im, struct einsum *es, ttc_value *a,
			  ttc_value *b)
{
	int bl[TTC_MAX_RANK], ml[TTC_MAX_RANK], kl[TTC_MAX_RANK],
		nl[TTC_MAX_RANK];
	unsigned nb = 0, nm = 0, nk = 0, nn = 0;
	struct term ta = {.n = 0}, tb = {.n = 0}, tbt = {.n = 0}, ty = {.n = 0};
	int64_t perm[TTC_MAX_RANK];

	for (unsigned k = 0; k < es->in[0].n; k++) {
		int l = es->in[0].lab[k];

		if (find(&es->in[1], l) < 0)
			ml[nm++] = l;
		else if (find(&es->out, l) >= 0)
			bl[nb++] = l;
		else
			kl[nk++] = l;
	}
	for (unsigned k = 0; k < es->in[1].n; k++)
		if (find(&es->in[0], es->in[1].lab[k]) < 0)
			nl[nn++] = es->in[1].lab[k];
	const int *parts_a[] = {bl, ml, kl}, *parts_b[] = {bl, kl, nl},
		  *parts_bt[] = {bl, nl, kl}, *parts_y[] = {bl, ml, nl};
	const unsigned na[] = {nb, nm, nk}, nbb[] = {nb, nk, nn},
		       nbt[] = {nb, nn, nk}, ny[] = {nb, nm, nn};

	for (unsigned p = 0; p < 3; p++) {
		memcpy(ta.lab + ta.n, parts_a[p], na[p] * sizeof(int));
		ta.n += na[p];
		memcpy(tb.lab + tb.n, parts_b[p], nbb[p] * sizeof(int));
		tb.n += nbb[p];
		memcpy(tbt.lab + tbt.n, parts_bt[p], nbt[p] * sizeof(int));
		tbt.n += nbt[p];
		memcpy(ty.lab + ty.n, parts_y[p], ny[p] * sizeof(int));
		ty.n += ny[p];
	}
	int64_t B = prod_of(es, bl, nb), M = prod_of(es, ml, nm),
		K = prod_of(es, kl, nk), N = prod_of(es, nl, nn);
	bool trans = true;

	perm_to(&es->in[1], &tbt, perm);
	for (unsigned k = 0; k < tbt.n; k++)
		trans &= perm[k] == k;
	perm_to(&es->in[0], &ta, perm);
	a = onx_permute(im, a, perm, ta.n);
	if (!trans) {
		perm_to(&es->in[1], &tb, perm);
		b = onx_permute(im, b, perm, tb.n);
	}
	/* [B, M, K] . [B, K, N], without B when there is no batch */
	int64_t da[3] = {B, M, K}, db[3] = {B, trans ? N : K, trans ? K : N};
	unsigned r = nb ? 3 : 2;

	a = onx_reshape(im, a, da + 3 - r, r);
	b = onx_reshape(im, b, db + 3 - r, r);
	ttc_value *y = matmul(im, a, b, false, trans);
	int64_t dy[TTC_MAX_RANK];

	for (unsigned k = 0; k < ty.n; k++)
		dy[k] = es->size[ty.lab[k]];
	y = onx_reshape(im, y, dy, ty.n);
	perm_to(&ty, &es->out, perm);
	return onx_permute(im, y, perm, ty.n);
}

static int einsum(struct onx *im)
{
	const char *eq = onx_attr_str(im, "equation", NULL);
	ttc_value *x[2] = {NULL, NULL};
	unsigned nin = (unsigned)im->node->n_input;
	struct einsum es;
	int64_t perm[TTC_MAX_RANK];

	if (!eq)
		return onx_fail(im, "attribute 'equation' is missing");
	for (unsigned i = 0; i < nin && i < 2; i++)
		if (!(x[i] = onx_in(im, i)))
			return -EINVAL;
	if (parse_einsum(eq, x, nin, &es))
		return onx_unsupported(im, "equation '%s' (one or two operands "
					   "without diagonals or broadcasting "
					   "are mapped)", eq);
	for (unsigned i = 0; i < nin; i++)
		x[i] = sum_private(im, &es, i, x[i]);
	if (nin == 2)
		return onx_out(im, 0, einsum2(im, &es, x[0], x[1]));
	perm_to(&es.in[0], &es.out, perm);
	return onx_out(im, 0, onx_permute(im, x[0], perm, es.out.n));
}

/* ---- Softmax, LogSoftmax, Hardmax ---- */

/* x - log(sum(exp(x))) along d, as (x - m) - log(sum(exp(x - m))) with
 * m the maximum: exp does not overflow and no result underflows. */
static ttc_value *log_softmax(struct onx *im, ttc_value *x, int64_t d)
{
	ttc_value *z = onx_op2(im, "ttir.subtract", x,
			      onx_reduce(im, "ttir.max", x, &d, 1, true));
	ttc_value *s = onx_reduce(im, "ttir.sum", onx_op1(im, "ttir.exp", z), &d,
				   1, true);

	return onx_op2(im, "ttir.subtract", z, onx_op1(im, "ttir.log", s));
}

/* One at the first maximum along d, zero elsewhere: argmax compared with
 * the positions along d. */
static ttc_value *hardmax(struct onx *im, ttc_value *x, int64_t d)
{
	const ttc_type *i32 = onx_elem_type(im->ctx,
					    ONNX__TENSOR_PROTO__DATA_TYPE__INT32);

	if (!x)
		return NULL;
	ttc_builder_output_elem(im->b, i32);
	ttc_value *idx = onx_reduce(im, "ttir.argmax", x, &d, 1, true);
	const ttc_type *t = ttc_tensor_type_with_elem(im->ctx,
						      ttc_value_type(x), i32);
	const ttc_type *s64 = ttc_int_type(im->ctx, 64, TTC_SIGNED);
	struct ttc_named_attr e[] = {
		{"arange_dimension", onx_i64(im, d)},
		{"end", ttc_int_attr(im->ctx, onx_dims(x)[d], s64)},
		{"start", ttc_int_attr(im->ctx, 0, s64)},
		{"step", ttc_int_attr(im->ctx, 1, s64)},
	};

	ttc_builder_output_type(im->b, t);
	ttc_value *pos = onx_build(im, "ttir.arange", NULL, 0,
				   onx_props(im, e, 4));

	return onx_typecast(im, onx_op2(im, "ttir.eq", idx, pos), onx_elem(x));
}

/* Before opset 13 the input is seen as 2-D, [d0 * ... * d(axis-1),
 * d(axis) * ... ], the op along the second (axis default 1); from 13 along
 * axis (default -1). */
static int softmax(struct onx *im)
{
	const char *t = im->node->op_type;
	ttc_value *x = onx_in(im, 0), *y;
	unsigned rank = onx_in_rank(im, 0);
	bool coerce = im->opset < 13;
	int a = onx_axis(im, onx_attr_int(im, "axis", coerce ? 1 : -1), rank,
			 "axis");

	if (!x || a < 0)
		return -EINVAL;
	/* flattening from the last dimension changes nothing */
	coerce &= (unsigned)a + 1 < rank;
	int64_t d = a, flat[2] = {1, 1};

	if (coerce) {
		for (unsigned k = 0; k < rank; k++)
			flat[k >= (unsigned)a] *= onx_dims(x)[k];
		y = onx_reshape(im, x, flat, 2);
		d = 1;
	} else {
		y = x;
	}
	if (!strcmp(t, "Softmax")) {
		struct ttc_named_attr e = {"dimension", onx_i32(im, d)};

		y = onx_build(im, "ttir.softmax", &y, 1, onx_props(im, &e, 1));
	} else if (!strcmp(t, "LogSoftmax")) {
		y = log_softmax(im, y, d);
	} else {
		y = hardmax(im, y, d);
	}
	return onx_out(im, 0, onx_reshape(im, y, onx_dims(x), rank));
}

/* ---- CumSum ---- */

/* The running sum along axis (a constant input). reverse: of x reversed
 * along axis, reversed back; exclusive: the inclusive sum minus x. */
static int cumsum(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t axis;
	bool rev = onx_attr_int(im, "reverse", 0) != 0;
	bool excl = onx_attr_int(im, "exclusive", 0) != 0;

	if (!x)
		return -EINVAL;
	int n = onx_in_ints(im, 1, &axis, 1);

	if (n < 0)
		return n;
	if (n != 1)
		return onx_fail(im, "input 1 (axis) must hold one value");
	int a = onx_axis(im, axis, onx_rank(x), "axis");

	if (a < 0)
		return -EINVAL;
	int64_t d = a;
	struct ttc_named_attr re = {"dimensions", onx_i64s(im, &d, 1)};
	struct ttc_named_attr ce = {"dim", onx_i64(im, d)};
	const ttc_attr *rp = onx_props(im, &re, 1);

	if (rev)
		x = onx_build(im, "ttir.reverse", &x, 1, rp);
	ttc_value *y = onx_build(im, "ttir.cumsum", &x, 1,
				 onx_props(im, &ce, 1));

	if (excl)
		y = onx_op2(im, "ttir.subtract", y, x);
	if (rev && y)
		y = onx_build(im, "ttir.reverse", &y, 1, rp);
	return onx_out(im, 0, y);
}

const struct onx_op onx_ops_math[] = {
	{"MatMul", matmul_op, "", 7, 0},
	{"Gemm", gemm, "alpha,beta,transA,transB", 7, 0},
	{"Einsum", einsum, "equation", 12, 0},
	{"Softmax", softmax, "axis", 7, 0},
	{"LogSoftmax", softmax, "axis", 7, 0},
	{"Hardmax", softmax, "axis", 7, 0},
	{"CumSum", cumsum, "exclusive,reverse", 11, 0},
	{NULL, NULL, NULL, 0, 0},
};
