// SPDX-License-Identifier: Apache-2.0
/* Goldens of matmul and linear: batched (batch dims broadcast), rank-1
 * operands as NumPy's matmul treats them, transpose_a/b, linear's bias;
 * dot_general, conv2d, conv_transpose2d. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* An operand as a stack of rows x cols matrices. */
struct mat {
	const ttc_type *batch; /* the batch dims as a tensor type */
	size_t rows, cols;
	bool t;
};

static struct mat as_mat(ttc_ctx *ctx, const ttc_type *t, bool is_a,
			 bool transpose)
{
	struct mat m = { .t = transpose && t->rank > 1 };
	unsigned r = t->rank;

	if (r == 1) {
		m.rows = is_a ? 1 : (size_t)t->dims[0];
		m.cols = is_a ? (size_t)t->dims[0] : 1;
	} else {
		m.rows = (size_t)t->dims[r - 2 + m.t];
		m.cols = (size_t)t->dims[r - 1 - m.t];
	}
	m.batch = ttc_tensor_type(ctx, t->dims, r > 2 ? r - 2 : 0, t->elem,
				  NULL);
	return m;
}

static bool is_f32(const ttc_tensor *x)
{
	const ttc_type *e = x->type->elem;

	return e->kind == TTC_TYPE_FLOAT && e->fk == TTC_F32;
}

/* Matrix number bi of x (as m says), row-major and untransposed: x's own
 * storage when it is one already, else converted into dst. */
static const float *load(const ttc_tensor *x, const struct mat *m, size_t bi,
			 float *dst)
{
	size_t base = bi * m->rows * m->cols;

	if (!m->t && is_f32(x))
		return (const float *)x->data + base;
	for (size_t i = 0; i < m->rows; i++)
		for (size_t j = 0; j < m->cols; j++) {
			size_t k = m->t ? j * m->rows + i : i * m->cols + j;

			dst[i * m->cols + j] = (float)ttc_tensor_get(x, base + k);
		}
	return dst;
}

/* The product's rows: the output's own storage when it is f32. */
static float *product_at(ttc_tensor *out, size_t base, float *tmp)
{
	return is_f32(out) ? (float *)out->data + base : tmp;
}

static void store(ttc_tensor *out, size_t base, const float *c, size_t n)
{
	if (is_f32(out))
		return; /* computed in place */
	for (size_t i = 0; i < n; i++)
		ttc_tensor_set(out, base + i, c[i]);
}

static void add_bias(const ttc_tensor *bias, ttc_tensor *out)
{
	const ttc_type *o = out->type;
	int64_t idx[TTC_MAX_RANK] = { 0 };

	for (size_t i = 0; i < out->numel; i++) {
		double b = ttc_tensor_get(bias, bcast_index(bias->type, idx,
							    o->rank));

		ttc_tensor_set(out, i, ttc_tensor_get(out, i) + b);
		next_index(idx, o->dims, o->rank);
	}
}

int golden_matmul(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor *const *out, char *err, size_t len)
{
	ttc_ctx *ctx = ttc_module_ctx(ttc_func_module(ttc_op_func(op)));
	struct mat a = as_mat(ctx, in[0]->type, true,
			      ttc_attr_bool(ttc_op_attr(op, "transpose_a")));
	struct mat b = as_mat(ctx, in[1]->type, false,
			      ttc_attr_bool(ttc_op_attr(op, "transpose_b")));
	size_t m = a.rows, n = b.cols, k = a.cols;
	size_t nb = (size_t)(out[0]->numel / (m * n != 0 ? m * n : 1));
	/* Room for the operands and product that are not f32 as they are. */
	size_t need = (a.t || !is_f32(in[0]) ? m * k : 0) +
		      (b.t || !is_f32(in[1]) ? k * n : 0) +
		      (is_f32(out[0]) ? 0 : m * n);
	float *buf = malloc((need + 1) * sizeof(float));

	if (!buf)
		return gfail(err, len, "out of memory");
	float *fa = buf, *fb = fa + (a.t || !is_f32(in[0]) ? m * k : 0);
	float *fc = fb + (b.t || !is_f32(in[1]) ? k * n : 0);
	/* The output's batch dims, to find each operand's matrix. */
	unsigned orank = out[0]->type->rank;
	unsigned nbd = orank - (in[0]->type->rank > 1) - (in[1]->type->rank > 1);
	int64_t idx[TTC_MAX_RANK] = { 0 };

	for (size_t bi = 0; bi < nb && m * n != 0; bi++) {
		const float *pa = load(in[0], &a, bcast_index(a.batch, idx, nbd),
				       fa);
		const float *pb = load(in[1], &b, bcast_index(b.batch, idx, nbd),
				       fb);
		float *pc = product_at(out[0], bi * m * n, fc);

		ttc_golden_gemm(pa, pb, pc, m, n, k);
		store(out[0], bi * m * n, pc, m * n);
		next_index(idx, out[0]->type->dims, nbd);
	}
	free(buf);
	if (nin > 2 && in[2])
		add_bias(in[2], out[0]);
	return 0;
}

/* The dimensions of rank r in neither list a nor b, ascending. */
static int free_dims(unsigned r, const int64_t *a, int na, const int64_t *b,
		     int nb, int64_t *out)
{
	unsigned used = 0;
	int n = 0;

	for (int i = 0; i < na; i++)
		used |= 1u << a[i];
	for (int i = 0; i < nb; i++)
		used |= 1u << b[i];
	for (unsigned d = 0; d < r; d++)
		if (!(used & (1u << d)))
			out[n++] = d;
	return n;
}

/* dot_general (StableHLO's): the result's dims are the batch dims, lhs's
 * free dims, rhs's free dims; each value sums the products over the
 * contracting dims in double. */
int golden_dot_general(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		       ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *a = in[0]->type, *b = in[1]->type;
	int64_t bl[TTC_MAX_RANK], cl[TTC_MAX_RANK], br[TTC_MAX_RANK],
		cr[TTC_MAX_RANK], fl[TTC_MAX_RANK], fr[TTC_MAX_RANK];
	int64_t cd[TTC_MAX_RANK], sa[TTC_MAX_RANK], sb[TTC_MAX_RANK];
	int64_t o[TTC_MAX_RANK] = { 0 };
	int nb = op_ints(op, "batch_dims_lhs", bl);
	int nc = op_ints(op, "contract_dims_lhs", cl);

	(void)nin;
	if (nb < 0 || nc < 0 || op_ints(op, "batch_dims_rhs", br) != nb ||
	    op_ints(op, "contract_dims_rhs", cr) != nc)
		return gfail(err, len, "bad batch or contracting dimensions");
	int nfl = free_dims(a->rank, bl, nb, cl, nc, fl);

	free_dims(b->rank, br, nb, cr, nc, fr);
	for (int k = 0; k < nc; k++)
		cd[k] = a->dims[cl[k]];
	strides_of(a, sa);
	strides_of(b, sb);
	for (size_t i = 0; i < out[0]->numel; i++) {
		int64_t base_a = 0, base_b = 0, c[TTC_MAX_RANK] = { 0 };
		double acc = 0;
		unsigned j = 0;

		for (int k = 0; k < nb; k++, j++) {
			base_a += o[j] * sa[bl[k]];
			base_b += o[j] * sb[br[k]];
		}
		for (int k = 0; k < nfl; k++, j++)
			base_a += o[j] * sa[fl[k]];
		for (; j < out[0]->type->rank; j++)
			base_b += o[j] * sb[fr[j - nb - nfl]];
		do {
			int64_t ka = base_a, kb = base_b;

			for (int k = 0; k < nc; k++) {
				ka += c[k] * sa[cl[k]];
				kb += c[k] * sb[cr[k]];
			}
			acc += ttc_tensor_get(in[0], (size_t)ka) *
			       ttc_tensor_get(in[1], (size_t)kb);
		} while (next_index(c, cd, (unsigned)nc));
		ttc_tensor_set(out[0], i, acc);
		next_index(o, out[0]->type->dims, out[0]->type->rank);
	}
	return 0;
}

/* The layout attributes of a convolution (which dim is N, H, W, C). */
static void conv_layout(const ttc_op *op, unsigned *l)
{
	static const char *const names[] = { "batch_dim", "height_dim",
					     "width_dim", "channel_dim" };

	for (int i = 0; i < 4; i++)
		l[i] = (unsigned)ttc_attr_int(ttc_op_attr(op, names[i]));
}

static size_t at4(const ttc_type *t, const unsigned *l, int64_t n, int64_t h,
		  int64_t w, int64_t c)
{
	int64_t st[4], v[4];

	strides_of(t, st);
	v[l[0]] = n, v[l[1]] = h, v[l[2]] = w, v[l[3]] = c;
	return (size_t)(v[0] * st[0] + v[1] * st[1] + v[2] * st[2] +
			v[3] * st[3]);
}

/* A convolution's operands and sizes (see golden_conv_core). */
struct conv {
	ttc_tensor *const *in;
	const ttc_type *x, *o;
	const unsigned *l; /* the layout: which dim is N, H, W, C */
	bool tr;	   /* transposed */
	int64_t kh, kw, icg, ocg;
	double *acc; /* the output's sums */
};

/* One (input tap, weight tap) pair at batch b: position (y, x) of the
 * side the loops run over (conv2d's output, conv_transpose2d's input)
 * and (yy, xx) of the other, weight tap (a, e); every channel pair of a
 * group adds to one output value. */
static void conv_tap(const struct conv *c, int64_t b, int64_t y, int64_t x,
		     int64_t yy, int64_t xx, int64_t a, int64_t e)
{
	int64_t oc = c->o->dims[c->l[3]];

	for (int64_t co = 0; co < oc; co++) {
		int64_t gi = co / c->ocg;

		for (int64_t ci = 0; ci < c->icg; ci++) {
			int64_t ch = gi * c->icg + ci;
			/* conv2d's weight (O, C/g, KH, KW), the transposed
			 * one's (C, O/g, KH, KW) */
			int64_t wi = c->tr ? ch * c->ocg + co % c->ocg :
					     co * c->icg + ci;
			double wv = ttc_tensor_get(c->in[1], (size_t)(
				(wi * c->kh + a) * c->kw + e));
			size_t xi = c->tr ? at4(c->x, c->l, b, y, x, ch) :
					    at4(c->x, c->l, b, yy, xx, ch);
			size_t oi = c->tr ? at4(c->o, c->l, b, yy, xx, co) :
					    at4(c->o, c->l, b, y, x, co);

			c->acc[oi] += wv * ttc_tensor_get(c->in[0], xi);
		}
	}
}

/*
 * A convolution: weight (O, C/groups, KH, KW), or transposed (C,
 * O/groups, KH, KW). Both pair position (y, x) with (y * stride - pad +
 * k * dilation) on the other side: conv2d's output with its input,
 * conv_transpose2d's input with its output (each input tap scattered).
 * bias, when given, holds one value per output channel. Sums in double.
 */
int golden_conv_core(const struct golden_conv_params *cp,
		     ttc_tensor *const *in, size_t nin,
		     ttc_tensor *const *out, char *err, size_t len)
{
	struct conv c = { .in = in, .x = in[0]->type, .o = out[0]->type,
			  .l = cp->l, .tr = cp->tr };
	const ttc_type *wt = in[1]->type;
	const int64_t *s = cp->s, *d = cp->d, *p = cp->p;

	if (c.x->rank != 4 || wt->rank != 4 || c.o->rank != 4 || cp->g < 1)
		return gfail(err, len, "bad operands or attributes");
	/* (h, w): the side the loops run over; (hh, ww): the other. */
	const ttc_type *run = c.tr ? c.x : c.o, *other = c.tr ? c.o : c.x;
	int64_t n = c.x->dims[c.l[0]];
	int64_t h = run->dims[c.l[1]], w = run->dims[c.l[2]];
	int64_t hh = other->dims[c.l[1]], ww = other->dims[c.l[2]];

	c.kh = wt->dims[2];
	c.kw = wt->dims[3];
	c.icg = c.x->dims[c.l[3]] / cp->g;
	c.ocg = c.o->dims[c.l[3]] / cp->g;
	c.acc = calloc(out[0]->numel ? out[0]->numel : 1, sizeof(*c.acc));
	if (!c.acc)
		return gfail(err, len, "out of memory");
	for (int64_t b = 0; b < n; b++)
		for (int64_t y = 0; y < h; y++)
			for (int64_t x = 0; x < w; x++)
				for (int64_t a = 0; a < c.kh; a++) {
					int64_t yy = y * s[0] - p[0] + a * d[0];

					for (int64_t e = 0; e < c.kw; e++) {
						int64_t xx = x * s[1] - p[1] +
							     e * d[1];

						if (yy >= 0 && yy < hh &&
						    xx >= 0 && xx < ww)
							conv_tap(&c, b, y, x,
								 yy, xx, a, e);
					}
				}
	int64_t idx[4] = { 0 };

	for (size_t i = 0; i < out[0]->numel; i++) {
		double bv = nin > 2 ? ttc_tensor_get(in[2],
						     (size_t)idx[c.l[3]]) : 0;

		ttc_tensor_set(out[0], i, c.acc[i] + bv);
		next_index(idx, c.o->dims, 4);
	}
	free(c.acc);
	return 0;
}

/* conv2d, conv_transpose2d: padding [top, left, bottom, right], the
 * layout from the *_dim attributes. */
int golden_conv(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		ttc_tensor *const *out, char *err, size_t len)
{
	struct golden_conv_params cp = {
		.g = ttc_attr_int(ttc_op_attr(op, "groups")),
		.tr = !strcmp(ttc_op_name(op), "ttir.conv_transpose2d"),
	};

	if (ttc_op_attr(op, "flattened_compat_info"))
		return gfail(err, len, "a flattened convolution "
				       "(flattened_compat_info) has no golden");
	if (op_hw(op, "stride", cp.s) || op_hw(op, "dilation", cp.d) ||
	    op_padding(op, cp.p))
		return gfail(err, len, "bad operands or attributes");
	conv_layout(op, cp.l);
	return golden_conv_core(&cp, in, nin, out, err, len);
}
