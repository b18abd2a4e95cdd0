// SPDX-License-Identifier: Apache-2.0
/*
 * The op library's data movement ops (tt/ops/data.h) on the embedded
 * model, compared bit for bit against references computed here (C loops
 * over the logical elements, as NumPy indexing would):
 *
 *  - transpose (WH, HC, CN and any pair), permute (every permutation of
 *    rank 4), reshape, concat (every dim, odd sizes), slice (steps),
 *    pad, repeat, embedding (UInt32 and Int32 indices, out-of-range and
 *    negative ones giving zero rows), tilize and untilize on the device;
 *  - every non-block format (Float32, Float16, Float16_b, Int32, UInt32,
 *    UInt16, Int8, UInt8), shapes of rank 1 to 4 with sizes 1, 31, 32,
 *    33, 65; the block formats (Bfp8_b, Bfp4_b, Bfp2_b) in the calls that
 *    move whole tiles, compared as the values they decode to;
 *  - inputs whose tile padding holds garbage: it never reaches a logical
 *    output, and outputs' padding holds zeros;
 *  - configs (grid, tiles per core, cache pages, L1 placement, a given
 *    output);
 *  - the program cache: a second call builds nothing and still moves its
 *    new buffers' data;
 *  - a refused call for every class of bad input or config, with its
 *    message.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/kbuild/kbuild.h"
#include "ops_testutil.h"
#include "testutil.h"
#include "tmpdir.h"
#include "tt/ops.h"

static const enum tt_data_format all_formats[] = {
	TT_FLOAT32, TT_FLOAT16, TT_FLOAT16_B, TT_INT32,
	TT_UINT32,  TT_UINT16,  TT_INT8,      TT_UINT8,
};
#define NFMT (sizeof(all_formats) / sizeof(all_formats[0]))

/* A host tensor: raw row-major elements of fmt. */
struct host {
	struct tt_shape shape;
	enum tt_data_format fmt;
	size_t es, n;
	uint64_t d[4]; /* [w, z, r, c] */
	unsigned char *v;
};

static void host_free(struct host *h)
{
	free(h->v);
	h->v = NULL;
}

static const unsigned char *elem(const struct host *h, size_t i)
{
	return h->v + i * h->es;
}

static size_t lin(const uint64_t *d, const uint64_t *i)
{
	return (size_t)(((i[0] * d[1] + i[1]) * d[2] + i[2]) * d[3] + i[3]);
}

/*
 * A device tensor of shape s and fmt with varied values (as the device
 * holds them in *h); its tile padding is filled with garbage (0xA5
 * bytes), so that an op reading padding shows.
 */
static tt_device_tensor *dev_tensor(struct fx *f, struct tt_shape s,
				    enum tt_data_format fmt,
				    enum tt_buffer_type where, uint32_t seed,
				    struct host *h)
{
	tt_device_tensor *dt = NULL;
	tt_tensor *t = NULL, *tf = NULL, *tiled = NULL;
	bool uns = fmt == TT_UINT32 || fmt == TT_UINT16 || fmt == TT_UINT8;
	bool small = fmt == TT_INT8 || fmt == TT_UINT8;
	float *p;
	uint64_t d[4];

	TRY(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &tf));
	p = tt_tensor_data(tf);
	for (size_t i = 0; i < tt_tensor_volume(tf); i++) {
		uint32_t u = seed_next(&seed);

		if (small)
			p[i] = uns ? (float)(u % 256) : (float)((int)(u % 256) - 128);
		else if (uns)
			p[i] = (float)(u % 60000);
		else if (fmt == TT_INT32)
			p[i] = (float)((int)(u % 2000000) - 1000000);
		else
			p[i] = ((float)(u % 20000) - 10000.0f) / 64.0f;
	}
	if (tt_data_format_is_block(fmt)) {
		/* Block formats: no element garbage (elements share exponents);
		 * *h gets the values as the device holds them, as Float32. */
		TRY(tt_device_tensor_create(f->dev, &s, fmt, where, &dt));
		TRY(tt_device_tensor_write(dt, NULL, tf));
		TRY(tt_device_tensor_read(dt, NULL, tf));
		if (h) {
			h->shape = s;
			h->fmt = TT_FLOAT32;
			h->es = 4;
			h->n = tt_tensor_volume(tf);
			TRY(tt_shape_wzrc(&s, h->d));
			h->v = malloc(tt_tensor_size(tf));
			assert_non_null(h->v);
			memcpy(h->v, tt_tensor_data(tf), tt_tensor_size(tf));
		}
		tt_tensor_free(tf);
		return dt;
	}
	TRY(tt_tensor_to(tf, fmt, TT_TENSOR_ROW_MAJOR, &t));
	TRY(tt_tensor_to(t, fmt, TT_TENSOR_TILED, &tiled));
	/* Garbage in the padding. */
	TRY(tt_shape_wzrc(&s, d));
	{
		size_t es = tt_data_format_elem_size(fmt);
		uint64_t ht = (d[2] + 31) / 32, wt = (d[3] + 31) / 32;
		unsigned char *b = tt_tensor_data(tiled);

		for (uint64_t m = 0; m < d[0] * d[1]; m++)
			for (uint64_t tr = 0; tr < ht; tr++)
				for (uint64_t tc = 0; tc < wt; tc++)
					for (unsigned r = 0; r < 32; r++)
						for (unsigned c = 0; c < 32; c++) {
							uint64_t R = tr * 32 + r, C = tc * 32 + c;
							size_t off = (size_t)(((m * ht + tr) * wt + tc) * 1024 +
								(r / 16 * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16);

							if (R >= d[2] || C >= d[3])
								memset(b + off * es, 0xA5, es);
						}
	}
	TRY(tt_device_tensor_create(f->dev, &s, fmt, where, &dt));
	TRY(tt_device_tensor_write(dt, NULL, tiled));
	if (h) {
		h->shape = s;
		h->fmt = fmt;
		h->es = tt_data_format_elem_size(fmt);
		h->n = tt_tensor_volume(t);
		memcpy(h->d, d, sizeof(d));
		h->v = malloc(tt_tensor_size(t));
		assert_non_null(h->v);
		memcpy(h->v, tt_tensor_data(t), tt_tensor_size(t));
	}
	tt_tensor_free(tf);
	tt_tensor_free(t);
	tt_tensor_free(tiled);
	return dt;
}

/* dt's elements, raw row-major; its padding checked to be zero. */
static void dev_read(struct fx *f, const tt_device_tensor *dt, struct host *h)
{
	tt_tensor *t = NULL, *tiled = NULL;
	const struct tt_shape *s = tt_device_tensor_shape(dt);
	enum tt_data_format fmt = tt_device_tensor_format(dt);
	size_t es;

	/* Block formats are compared (and their padding checked) as the
	 * Float32 values they decode to. */
	if (tt_data_format_is_block(fmt))
		fmt = TT_FLOAT32;
	es = tt_data_format_elem_size(fmt);
	TRY(tt_ops_finish(f->ctx));
	TRY(tt_tensor_create(s, fmt, TT_TENSOR_ROW_MAJOR, &t));
	TRY(tt_device_tensor_read(dt, NULL, t));
	TRY(tt_tensor_create(s, fmt, TT_TENSOR_TILED, &tiled));
	TRY(tt_device_tensor_read(dt, NULL, tiled));
	h->shape = *s;
	h->fmt = fmt;
	h->es = es;
	h->n = tt_tensor_volume(t);
	TRY(tt_shape_wzrc(s, h->d));
	h->v = malloc(tt_tensor_size(t));
	assert_non_null(h->v);
	memcpy(h->v, tt_tensor_data(t), tt_tensor_size(t));
	{
		uint64_t *d = h->d, ht = (d[2] + 31) / 32, wt = (d[3] + 31) / 32;
		const unsigned char *b = tt_tensor_data(tiled);

		for (uint64_t m = 0; m < d[0] * d[1]; m++)
			for (uint64_t tr = 0; tr < ht; tr++)
				for (uint64_t tc = 0; tc < wt; tc++)
					for (unsigned r = 0; r < 32; r++)
						for (unsigned c = 0; c < 32; c++) {
							uint64_t R = tr * 32 + r, C = tc * 32 + c;
							size_t off = (size_t)(((m * ht + tr) * wt + tc) * 1024 +
								(r / 16 * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16);

							if (R < d[2] && C < d[3])
								continue;
							for (size_t k = 0; k < es; k++)
								if (b[off * es + k])
									fail_msg("%s output padding at [%llu,%llu,%llu,%llu] is not zero",
										 tt_data_format_name(fmt),
										 (unsigned long long)(m / d[1]),
										 (unsigned long long)(m % d[1]),
										 (unsigned long long)R,
										 (unsigned long long)C);
						}
	}
	tt_tensor_free(t);
	tt_tensor_free(tiled);
}

/* Output element i of out must be src[i] (NULL: pad bits). */
static void expect_elem(const struct host *out, size_t i,
			const unsigned char *want, const char *what)
{
	static const unsigned char zero[4];

	if (!want)
		want = zero;
	if (memcmp(elem(out, i), want, out->es)) {
		uint32_t got = 0, w = 0;

		memcpy(&got, elem(out, i), out->es);
		memcpy(&w, want, out->es);
		fail_msg("%s %s: element %zu of %zu is 0x%x, want 0x%x", what,
			 tt_data_format_name(out->fmt), i, out->n, got, w);
	}
}

/* [w, z, r, c] of linear index i. */
static void unlin(const uint64_t *d, size_t i, uint64_t *o)
{
	for (int k = 3; k >= 0; k--) {
		o[k] = i % d[k];
		i /= d[k];
	}
}

static struct fx *F(void **state)
{
	return *state;
}

/* ---- transpose and permute ---- */

/* Check out against a permuted by perm (rank of a). */
static void check_permute(const struct host *a, const struct host *out,
			  const unsigned *perm, const char *what)
{
	unsigned n = a->shape.rank, off = 4 - n, P[4];
	uint64_t o[4], i[4];

	for (unsigned K = 0; K < 4; K++)
		P[K] = K < off ? K : perm[K - off] + off;
	for (unsigned K = 0; K < 4; K++)
		assert_int_equal(out->d[K], a->d[P[K]]);
	for (size_t e = 0; e < out->n; e++) {
		unlin(out->d, e, o);
		for (unsigned K = 0; K < 4; K++)
			i[P[K]] = o[K];
		expect_elem(out, e, elem(a, lin(a->d, i)), what);
	}
}

static void run_permute(struct fx *f, struct tt_shape s,
			enum tt_data_format fmt, const unsigned *perm,
			uint32_t seed)
{
	struct host a, o;
	tt_device_tensor *da = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, seed, &a);
	tt_device_tensor *out = NULL;

	TRY(tt_op_permute(f->ctx, da, perm, NULL, &out));
	dev_read(f, out, &o);
	check_permute(&a, &o, perm, "permute");
	host_free(&a);
	host_free(&o);
	tt_device_tensor_free(out);
	tt_device_tensor_free(da);
}

static void run_transpose(struct fx *f, struct tt_shape s,
			  enum tt_data_format fmt, int d0, int d1, uint32_t seed)
{
	struct host a, o;
	tt_device_tensor *da = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, seed, &a);
	tt_device_tensor *out = NULL;
	unsigned perm[4] = { 0, 1, 2, 3 }, n = s.rank;
	unsigned e0 = d0 < 0 ? (unsigned)(d0 + (int)n) : (unsigned)d0;
	unsigned e1 = d1 < 0 ? (unsigned)(d1 + (int)n) : (unsigned)d1;

	perm[e0] = e1;
	perm[e1] = e0;
	TRY(tt_op_transpose(f->ctx, da, d0, d1, NULL, &out));
	assert_int_equal(tt_device_tensor_shape(out)->rank, n);
	dev_read(f, out, &o);
	check_permute(&a, &o, perm, "transpose");
	host_free(&a);
	host_free(&o);
	tt_device_tensor_free(out);
	tt_device_tensor_free(da);
}

static void test_transpose(void **state)
{
	struct fx *f = F(state);

	/* WH of a 33 x 40 tensor, every format: garbage padding must not
	 * show. */
	for (unsigned k = 0; k < NFMT; k++)
		run_transpose(f, TT_SHAPE(33, 40), all_formats[k], -2, -1, 1 + k);
	/* WH, HC, CN of rank 4 with odd sizes */
	run_transpose(f, TT_SHAPE(2, 3, 33, 65), TT_FLOAT16_B, -2, -1, 20);
	run_transpose(f, TT_SHAPE(2, 3, 33, 65), TT_FLOAT16_B, -3, -2, 21);
	run_transpose(f, TT_SHAPE(2, 3, 33, 65), TT_UINT16, 0, 1, 22);
	run_transpose(f, TT_SHAPE(2, 3, 31, 5), TT_INT32, 1, 3, 23);
	run_transpose(f, TT_SHAPE(3, 1, 32), TT_FLOAT32, 0, 2, 24);
	run_transpose(f, TT_SHAPE(65), TT_UINT8, 0, -1, 25);
	run_transpose(f, TT_SHAPE(1, 65), TT_FLOAT16, 0, 1, 26);
	run_transpose(f, TT_SHAPE(65, 1), TT_INT8, 1, 0, 27);
}

static void test_permute(void **state)
{
	struct fx *f = F(state);
	unsigned perm[4];
	uint32_t seed = 100;

	/* every permutation of rank 4 */
	for (unsigned a = 0; a < 4; a++)
		for (unsigned b = 0; b < 4; b++)
			for (unsigned c = 0; c < 4; c++) {
				unsigned d = 6 - a - b - c;

				if (a == b || a == c || b == c || d > 3 || d == a ||
				    d == b || d == c)
					continue;
				perm[0] = a, perm[1] = b, perm[2] = c, perm[3] = d;
				run_permute(f, TT_SHAPE(2, 3, 33, 5),
					    all_formats[seed % NFMT], perm, seed);
				seed++;
			}
	/* rank 3 */
	perm[0] = 2, perm[1] = 0, perm[2] = 1;
	run_permute(f, TT_SHAPE(3, 31, 33), TT_FLOAT32, perm, 200);
}

/* ---- reshape ---- */

static void run_reshape(struct fx *f, struct tt_shape s, struct tt_shape t,
			enum tt_data_format fmt, uint32_t seed)
{
	struct host a, o;
	tt_device_tensor *da = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, seed, &a);
	tt_device_tensor *out = NULL;

	TRY(tt_op_reshape(f->ctx, da, &t, NULL, &out));
	assert_int_equal(tt_device_tensor_shape(out)->rank, t.rank);
	dev_read(f, out, &o);
	assert_int_equal(o.n, a.n);
	/* the same elements in C order */
	for (size_t e = 0; e < o.n; e++)
		expect_elem(&o, e, elem(&a, e), "reshape");
	host_free(&a);
	host_free(&o);
	tt_device_tensor_free(out);
	tt_device_tensor_free(da);
}

static void test_reshape(void **state)
{
	struct fx *f = F(state);

	for (unsigned k = 0; k < NFMT; k++)
		run_reshape(f, TT_SHAPE(2, 33, 40), TT_SHAPE(40, 66),
			    all_formats[k], 300 + k);
	run_reshape(f, TT_SHAPE(65), TT_SHAPE(5, 13), TT_FLOAT16_B, 310);
	run_reshape(f, TT_SHAPE(1, 31, 32, 33), TT_SHAPE(32736), TT_UINT16, 311);
	run_reshape(f, TT_SHAPE(4, 3, 32, 33), TT_SHAPE(12, 32, 33), TT_INT32, 312);
	run_reshape(f, TT_SHAPE(2, 3, 5, 7), TT_SHAPE(7, 5, 3, 2), TT_FLOAT32, 313);
	run_reshape(f, TT_SHAPE(33, 1), TT_SHAPE(1, 33), TT_UINT8, 314);
}

/* ---- concat ---- */

static void run_concat(struct fx *f, const struct tt_shape *s, unsigned n,
		       int dim, enum tt_data_format fmt, uint32_t seed)
{
	struct host a[4], o;
	tt_device_tensor *da[4], *out = NULL;
	unsigned rank = s[0].rank, D = (unsigned)(dim < 0 ? dim + (int)rank : dim) + 4 - rank;
	uint64_t i4[4], off[5] = { 0 };

	for (unsigned k = 0; k < n; k++) {
		da[k] = dev_tensor(f, s[k], fmt, k % 2 ? TT_BUFFER_L1 : TT_BUFFER_DRAM,
				   seed + k, &a[k]);
		off[k + 1] = off[k] + a[k].d[D];
	}
	TRY(tt_op_concat(f->ctx, (const tt_device_tensor *const *)da, n, dim,
			 NULL, &out));
	dev_read(f, out, &o);
	assert_int_equal(o.d[D], off[n]);
	for (size_t e = 0; e < o.n; e++) {
		unsigned k = 0;

		unlin(o.d, e, i4);
		while (i4[D] >= off[k + 1])
			k++;
		i4[D] -= off[k];
		expect_elem(&o, e, elem(&a[k], lin(a[k].d, i4)), "concat");
	}
	for (unsigned k = 0; k < n; k++) {
		host_free(&a[k]);
		tt_device_tensor_free(da[k]);
	}
	host_free(&o);
	tt_device_tensor_free(out);
}

static void test_concat(void **state)
{
	struct fx *f = F(state);
	const struct tt_shape c3[] = { TT_SHAPE(2, 3, 33, 5), TT_SHAPE(2, 3, 33, 31),
				       TT_SHAPE(2, 3, 33, 1) };
	const struct tt_shape r3[] = { TT_SHAPE(2, 3, 33, 5), TT_SHAPE(2, 3, 1, 5),
				       TT_SHAPE(2, 3, 65, 5) };
	const struct tt_shape z2[] = { TT_SHAPE(2, 3, 33, 5), TT_SHAPE(2, 1, 33, 5) };
	const struct tt_shape w2[] = { TT_SHAPE(2, 3, 33, 5), TT_SHAPE(1, 3, 33, 5) };
	const struct tt_shape v2[] = { TT_SHAPE(31), TT_SHAPE(33) };
	const struct tt_shape m4[] = { TT_SHAPE(31, 32), TT_SHAPE(1, 32),
				       TT_SHAPE(32, 32), TT_SHAPE(33, 32) };

	for (unsigned k = 0; k < NFMT; k++)
		run_concat(f, c3, 3, -1, all_formats[k], 400 + 10 * k);
	run_concat(f, r3, 3, 2, TT_FLOAT16_B, 500);
	run_concat(f, z2, 2, 1, TT_INT32, 510);
	run_concat(f, w2, 2, 0, TT_UINT8, 520);
	run_concat(f, v2, 2, 0, TT_FLOAT32, 530);
	run_concat(f, m4, 4, 0, TT_UINT16, 540);
	run_concat(f, m4, 1, 1, TT_UINT16, 550);
}

/* ---- slice, pad, repeat ---- */

static void run_slice(struct fx *f, struct tt_shape s, const int64_t *st,
		      const int64_t *en, const int64_t *sp,
		      enum tt_data_format fmt, uint32_t seed)
{
	struct host a, o;
	tt_device_tensor *da = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, seed, &a);
	tt_device_tensor *out = NULL;
	unsigned off = 4 - s.rank;
	uint64_t i4[4];

	TRY(tt_op_slice(f->ctx, da, st, en, sp, NULL, &out));
	dev_read(f, out, &o);
	for (unsigned d = 0; d < s.rank; d++)
		assert_int_equal(o.d[d + off],
				 (en[d] - st[d] + (sp ? sp[d] : 1) - 1) / (sp ? sp[d] : 1));
	for (size_t e = 0; e < o.n; e++) {
		unlin(o.d, e, i4);
		for (unsigned d = 0; d < s.rank; d++)
			i4[d + off] = (uint64_t)st[d] + i4[d + off] * (uint64_t)(sp ? sp[d] : 1);
		expect_elem(&o, e, elem(&a, lin(a.d, i4)), "slice");
	}
	host_free(&a);
	host_free(&o);
	tt_device_tensor_free(out);
	tt_device_tensor_free(da);
}

static void test_slice(void **state)
{
	struct fx *f = F(state);
	const int64_t s1[] = { 1, 5 }, e1[] = { 33, 40 };
	const int64_t s4[] = { 1, 0, 3, 2 }, e4[] = { 2, 3, 65, 33 },
		      p4[] = { 1, 2, 3, 5 };
	const int64_t sv[] = { 31 }, ev[] = { 65 }, pv[] = { 2 };
	const int64_t sb[] = { 3 }, eb[] = { 65 }, pb[] = { (int64_t)1 << 40 };

	for (unsigned k = 0; k < NFMT; k++)
		run_slice(f, TT_SHAPE(33, 65), s1, e1, NULL, all_formats[k], 600 + k);
	run_slice(f, TT_SHAPE(2, 3, 65, 33), s4, e4, p4, TT_FLOAT16_B, 610);
	run_slice(f, TT_SHAPE(65), sv, ev, pv, TT_INT32, 611);
	run_slice(f, TT_SHAPE(65), sb, eb, pb, TT_UINT8, 612); /* a huge step */
}

static void run_pad(struct fx *f, struct tt_shape s, const uint64_t *b,
		    const uint64_t *e, float value, enum tt_data_format fmt,
		    uint32_t seed)
{
	struct host a, o;
	tt_device_tensor *da = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, seed, &a);
	tt_device_tensor *out = NULL;
	unsigned off = 4 - s.rank;
	unsigned char pad[4] = { 0 };
	uint64_t i4[4];

	TRY(tt_convert(fmt, pad, sizeof(pad), TT_FLOAT32, &value, 4, 1));
	TRY(tt_op_pad(f->ctx, da, b, e, value, NULL, &out));
	dev_read(f, out, &o);
	for (unsigned d = 0; d < s.rank; d++)
		assert_int_equal(o.d[d + off], a.d[d + off] + (b ? b[d] : 0) + (e ? e[d] : 0));
	for (size_t k = 0; k < o.n; k++) {
		bool in = true;

		unlin(o.d, k, i4);
		for (unsigned d = 0; d < s.rank; d++) {
			uint64_t bb = b ? b[d] : 0;

			if (i4[d + off] < bb || i4[d + off] - bb >= a.d[d + off])
				in = false;
			else
				i4[d + off] -= bb;
		}
		expect_elem(&o, k, in ? elem(&a, lin(a.d, i4)) : pad, "pad");
	}
	host_free(&a);
	host_free(&o);
	tt_device_tensor_free(out);
	tt_device_tensor_free(da);
}

static void test_pad(void **state)
{
	struct fx *f = F(state);
	const uint64_t b2[] = { 1, 31 }, e2[] = { 32, 2 };
	const uint64_t b4[] = { 1, 0, 2, 0 }, e4[] = { 0, 1, 0, 33 };
	const uint64_t b1[] = { 33 };

	for (unsigned k = 0; k < NFMT; k++)
		run_pad(f, TT_SHAPE(33, 5), b2, e2, 7.0f, all_formats[k], 700 + k);
	run_pad(f, TT_SHAPE(2, 1, 31, 32), b4, e4, -1.5f, TT_FLOAT16_B, 710);
	run_pad(f, TT_SHAPE(1), b1, NULL, 3.0f, TT_UINT8, 711);
	run_pad(f, TT_SHAPE(3, 33), NULL, NULL, 3.0f, TT_INT32, 712);
}

static void run_repeat(struct fx *f, struct tt_shape s, const uint64_t *reps,
		       enum tt_data_format fmt, uint32_t seed)
{
	struct host a, o;
	tt_device_tensor *da = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, seed, &a);
	tt_device_tensor *out = NULL;
	unsigned off = 4 - s.rank;
	uint64_t i4[4];

	TRY(tt_op_repeat(f->ctx, da, reps, NULL, &out));
	dev_read(f, out, &o);
	for (unsigned d = 0; d < s.rank; d++)
		assert_int_equal(o.d[d + off], a.d[d + off] * reps[d]);
	for (size_t k = 0; k < o.n; k++) {
		unlin(o.d, k, i4);
		for (unsigned d = 0; d < 4; d++)
			i4[d] %= a.d[d];
		expect_elem(&o, k, elem(&a, lin(a.d, i4)), "repeat");
	}
	host_free(&a);
	host_free(&o);
	tt_device_tensor_free(out);
	tt_device_tensor_free(da);
}

static void test_repeat(void **state)
{
	struct fx *f = F(state);
	const uint64_t r2[] = { 2, 3 }, r4[] = { 2, 1, 3, 1 }, r1[] = { 65 };

	for (unsigned k = 0; k < NFMT; k++)
		run_repeat(f, TT_SHAPE(33, 5), r2, all_formats[k], 800 + k);
	run_repeat(f, TT_SHAPE(1, 2, 31, 33), r4, TT_FLOAT16_B, 810);
	run_repeat(f, TT_SHAPE(1), r1, TT_UINT16, 811);
}

/* ---- embedding ---- */

static void run_embedding(struct fx *f, struct tt_shape xs,
			  enum tt_data_format fx, struct tt_shape ts,
			  enum tt_data_format fmt, uint32_t seed)
{
	struct host tab, o;
	tt_device_tensor *dt = dev_tensor(f, ts, fmt, TT_BUFFER_DRAM, seed, &tab);
	tt_device_tensor *dx = NULL, *out = NULL;
	tt_tensor *x = NULL;
	uint64_t x4[4], V = tab.d[2], D = tab.d[3];
	uint32_t *xv;
	size_t nx;

	TRY(tt_tensor_create(&xs, fx, TT_TENSOR_ROW_MAJOR, &x));
	xv = tt_tensor_data(x);
	nx = tt_tensor_volume(x);
	for (size_t i = 0; i < nx; i++) {
		uint32_t u = seed_next(&seed);

		/* mostly in range; some past the end, some negative */
		xv[i] = u % 10 == 0 ? (uint32_t)V + u % 3 :
			u % 10 == 1 && fx == TT_INT32 ? (uint32_t)-(int32_t)(1 + u % 5) :
			u % (uint32_t)V;
	}
	TRY(tt_device_tensor_create(f->dev, &xs, fx,
				    seed % 2 ? TT_BUFFER_DRAM : TT_BUFFER_L1, &dx));
	TRY(tt_device_tensor_write(dx, NULL, x));
	TRY(tt_op_embedding(f->ctx, dx, dt, NULL, &out));
	assert_int_equal(tt_device_tensor_shape(out)->rank, xs.rank + 1);
	dev_read(f, out, &o);
	TRY(tt_shape_wzrc(&xs, x4));
	assert_int_equal(o.d[1], x4[2]);
	assert_int_equal(o.d[2], x4[3]);
	assert_int_equal(o.d[3], D);
	for (size_t i = 0; i < nx; i++)
		for (uint64_t d = 0; d < D; d++)
			expect_elem(&o, i * D + d,
				    xv[i] < V ? elem(&tab, xv[i] * D + d) : NULL,
				    "embedding");
	tt_tensor_free(x);
	host_free(&tab);
	host_free(&o);
	tt_device_tensor_free(out);
	tt_device_tensor_free(dx);
	tt_device_tensor_free(dt);
}

static void test_embedding(void **state)
{
	struct fx *f = F(state);

	for (unsigned k = 0; k < NFMT; k++)
		run_embedding(f, TT_SHAPE(2, 33), k % 2 ? TT_INT32 : TT_UINT32,
			      TT_SHAPE(65, 33), all_formats[k], 900 + k);
	run_embedding(f, TT_SHAPE(31), TT_INT32, TT_SHAPE(1, 1, 5, 65),
		      TT_FLOAT16_B, 910);
	run_embedding(f, TT_SHAPE(1), TT_UINT32, TT_SHAPE(1, 1), TT_FLOAT32, 911);
}

/* ---- tilize, untilize ---- */

static void run_tilize(struct fx *f, struct tt_shape s, enum tt_data_format fmt,
		       enum tt_buffer_type where, uint32_t seed)
{
	struct host a, o, back;
	tt_device_tensor *da = dev_tensor(f, s, fmt, where, seed, &a);
	tt_device_tensor *dt = NULL;
	tt_buffer *rows = NULL;
	unsigned char *rb;

	/* tiles -> rows on the device; the rows are a's elements in C order */
	TRY(tt_op_untilize(f->ctx, da, NULL, &rows));
	assert_int_equal(tt_buffer_page_size(rows), a.d[3] * a.es);
	assert_int_equal(tt_buffer_num_pages(rows), a.d[0] * a.d[1] * a.d[2]);
	assert_int_equal(tt_buffer_type(rows), where);
	TRY(tt_ops_finish(f->ctx));
	rb = malloc(a.n * a.es);
	assert_non_null(rb);
	TRY(tt_enqueue_read_buffer(tt_ops_ctx_queue(f->ctx), rows, rb, true));
	o = a;
	o.v = rb;
	for (size_t e = 0; e < a.n; e++)
		expect_elem(&o, e, elem(&a, e), "untilize");
	/* rows -> tiles on the device */
	TRY(tt_op_tilize(f->ctx, rows, &s, fmt, NULL, &dt));
	dev_read(f, dt, &back);
	for (size_t e = 0; e < a.n; e++)
		expect_elem(&back, e, elem(&a, e), "tilize");
	free(rb);
	host_free(&a);
	host_free(&back);
	tt_buffer_free(rows);
	tt_device_tensor_free(dt);
	tt_device_tensor_free(da);
}

static void test_tilize(void **state)
{
	struct fx *f = F(state);

	for (unsigned k = 0; k < NFMT; k++)
		run_tilize(f, TT_SHAPE(33, 65), all_formats[k], TT_BUFFER_DRAM,
			   1000 + k);
	run_tilize(f, TT_SHAPE(2, 3, 31, 33), TT_FLOAT16_B, TT_BUFFER_L1, 1010);
	run_tilize(f, TT_SHAPE(1), TT_UINT8, TT_BUFFER_DRAM, 1011);
	run_tilize(f, TT_SHAPE(32, 32), TT_INT32, TT_BUFFER_DRAM, 1012);
}

/* ---- configs, cache, errors ---- */

/* Kernel builds and kernel cache lookups so far. */
static unsigned long kbuild_calls(void)
{
	struct tt_kbuild_stats s;

	tt_kbuild_get_stats(&s);
	return s.mem_hits + s.disk_hits + s.builds;
}

static void test_configs(void **state)
{
	struct fx *f = F(state);
	struct tt_data_cfg c = tt_op_data_config();
	struct host a, o;
	tt_device_tensor *da = dev_tensor(f, TT_SHAPE(2, 65, 70), TT_FLOAT16_B,
					  TT_BUFFER_DRAM, 1100, &a);
	tt_device_tensor *out = NULL;
	const unsigned perm[] = { 0, 2, 1 };
	struct tt_xy grids[] = { { 1, 1 }, { 2, 3 }, { 0, 0 } };
	uint32_t tpcs[] = { 0, 3, 5 }, pages[] = { 0, 1, 3 };

	/* grids, splits and cache sizes: the same result */
	for (unsigned g = 0; g < 3; g++)
		for (unsigned t = 0; t < 3; t++) {
			c.grid = grids[g];
			c.tiles_per_core = tpcs[t];
			c.cache_pages = pages[(g + t) % 3];
			if (g == 0 && t > 0)
				continue; /* 18 tiles do not fit 1 core at 1 or 5 */
			TRY(tt_op_permute(f->ctx, da, perm, &c, &out));
			dev_read(f, out, &o);
			check_permute(&a, &o, perm, "config");
			host_free(&o);
			tt_device_tensor_free(out);
			out = NULL;
		}
	/* L1 output, and a given output */
	c = tt_op_data_config();
	c.out_mem = TT_OPS_MEM_L1;
	c.out_format = TT_FLOAT16_B;
	TRY(tt_op_permute(f->ctx, da, perm, &c, &out));
	assert_int_equal(tt_buffer_type(tt_device_tensor_buffer(out)), TT_BUFFER_L1);
	TRY(tt_op_permute(f->ctx, da, perm, NULL, &out));
	dev_read(f, out, &o);
	check_permute(&a, &o, perm, "given output");
	host_free(&o);
	tt_device_tensor_free(out);
	out = NULL;

	/* concat into a given output, on one core, one cache page */
	{
		tt_device_tensor *two[2] = { da, da };
		const struct tt_shape s2 = TT_SHAPE(2, 65, 140);

		TRY(tt_device_tensor_create(f->dev, &s2, TT_FLOAT16_B, TT_BUFFER_L1, &out));
		c = tt_op_data_config();
		c.grid = (struct tt_xy){ 1, 1 };
		c.cache_pages = 1;
		TRY(tt_op_concat(f->ctx, (const tt_device_tensor *const *)two, 2, -1, &c, &out));
		dev_read(f, out, &o);
		for (size_t e = 0; e < o.n; e++) {
			uint64_t i4[4];

			unlin(o.d, e, i4);
			i4[3] %= 70;
			expect_elem(&o, e, elem(&a, lin(a.d, i4)), "given concat");
		}
		host_free(&o);
		tt_device_tensor_free(out);
		out = NULL;
	}
	/* untilize into a given L1 buffer of rows, 3 rows per core; tilize
	 * back into a given tensor */
	{
		struct tt_buffer_config bc = { .device = f->dev, .size = 2 * 65 * 70 * 2,
					       .page_size = 70 * 2, .type = TT_BUFFER_L1 };
		tt_buffer *rows = NULL;
		struct tt_shape s = TT_SHAPE(2, 65, 70);

		TRY(tt_buffer_create(&bc, &rows));
		c = tt_op_data_config();
		c.tiles_per_core = 3;
		c.out_mem = TT_OPS_MEM_L1;
		TRY(tt_op_untilize(f->ctx, da, &c, &rows));
		TRY(tt_device_tensor_create(f->dev, &s, TT_FLOAT16_B, TT_BUFFER_DRAM, &out));
		c = tt_op_data_config();
		c.grid = (struct tt_xy){ 3, 2 };
		c.cache_pages = 5;
		TRY(tt_op_tilize(f->ctx, rows, &s, TT_FLOAT16_B, &c, &out));
		dev_read(f, out, &o);
		for (size_t e = 0; e < o.n; e++)
			expect_elem(&o, e, elem(&a, e), "given rows");
		host_free(&o);
		tt_device_tensor_free(out);
		tt_buffer_free(rows);
	}
	host_free(&a);
	tt_device_tensor_free(da);
}

static void test_program_cache(void **state)
{
	struct fx *f = F(state);
	struct tt_ops_cache_stats s0, s1;
	struct host a, b, o;
	tt_device_tensor *da = dev_tensor(f, TT_SHAPE(3, 33, 40), TT_UINT16,
					  TT_BUFFER_DRAM, 1200, &a);
	tt_device_tensor *db = dev_tensor(f, TT_SHAPE(3, 33, 40), TT_UINT16,
					  TT_BUFFER_DRAM, 1201, &b);
	tt_device_tensor *in2[2] = { da, db };
	tt_device_tensor *out = NULL;
	const unsigned perm[] = { 2, 0, 1 };
	const struct host *srcs[2] = { &a, &b };
	unsigned long k0;

	/* first calls: misses */
	TRY(tt_op_permute(f->ctx, da, perm, NULL, &out));
	tt_device_tensor_free(out);
	out = NULL;
	TRY(tt_op_concat(f->ctx, (const tt_device_tensor *const *)in2, 2, 1, NULL, &out));
	tt_device_tensor_free(out);
	out = NULL;
	TRY(tt_ops_finish(f->ctx));
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	k0 = kbuild_calls();
	/* the same calls on other buffers: hits, nothing built */
	for (unsigned k = 0; k < 2; k++) {
		TRY(tt_op_permute(f->ctx, in2[k], perm, NULL, &out));
		dev_read(f, out, &o);
		check_permute(srcs[k], &o, perm, "cached permute");
		host_free(&o);
		tt_device_tensor_free(out);
		out = NULL;
	}
	in2[0] = db;
	in2[1] = da;
	TRY(tt_op_concat(f->ctx, (const tt_device_tensor *const *)in2, 2, 1, NULL, &out));
	dev_read(f, out, &o);
	for (size_t e = 0; e < o.n; e++) {
		uint64_t i4[4];

		unlin(o.d, e, i4);
		const struct host *h = i4[2] < 33 ? &b : &a;

		i4[2] %= 33;
		expect_elem(&o, e, elem(h, lin(h->d, i4)), "cached concat");
	}
	host_free(&o);
	tt_device_tensor_free(out);
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses);
	assert_int_equal(s1.programs, s0.programs);
	assert_int_equal(s1.hits, s0.hits + 4);
	assert_int_equal(kbuild_calls(), k0); /* no kernel built or looked up */
	host_free(&a);
	host_free(&b);
	tt_device_tensor_free(da);
	tt_device_tensor_free(db);
}

static void test_errors(void **state)
{
	struct fx *f = F(state);
	struct tt_data_cfg c = tt_op_data_config();
	struct tt_ops_cache_stats s0, s1;
	tt_device_tensor *a = dev_tensor(f, TT_SHAPE(2, 33, 40), TT_FLOAT16_B,
					 TT_BUFFER_DRAM, 1300, NULL);
	tt_device_tensor *b = dev_tensor(f, TT_SHAPE(2, 31, 40), TT_FLOAT16_B,
					 TT_BUFFER_DRAM, 1301, NULL);
	tt_device_tensor *i = dev_tensor(f, TT_SHAPE(2, 33, 40), TT_INT32,
					 TT_BUFFER_DRAM, 1302, NULL);
	tt_device_tensor *bfp = NULL, *f32 = NULL, *o = NULL, *wrong = NULL;
	tt_device_tensor *ab[2] = { a, b }, *ai[2] = { a, i };
	const unsigned bad_perm[] = { 0, 0, 1 }, big_perm[] = { 0, 3, 1 },
		       perm[] = { 0, 2, 1 };
	const int64_t st[] = { 0, 0, 0 }, en[] = { 2, 33, 40 }, en2[] = { 2, 34, 40 },
		      zs[] = { 1, 0, 1 }, ns[] = { 1, -1, 1 }, ms[] = { 0, -1, 0 };
	const uint64_t reps0[] = { 1, 0, 1 };
	struct tt_shape bad_shape = TT_SHAPE(2, 33, 41), zero_shape = TT_SHAPE(2, 0, 40);
	tt_buffer *rows = NULL;

	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(32, 32), TT_BFP8_B,
				    TT_BUFFER_DRAM, &bfp));
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(40, 33), TT_FLOAT32,
				    TT_BUFFER_DRAM, &wrong));
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(2, 40, 33), TT_FLOAT32,
				    TT_BUFFER_DRAM, &f32));
	TRY(tt_ops_cache_stats(f->ctx, &s0));

	/* NULL arguments */
	expect_error(tt_op_transpose(NULL, a, 0, 1, NULL, &o), -EINVAL, "tt_op_transpose: ctx is NULL");
	expect_error(tt_op_transpose(f->ctx, NULL, 0, 1, NULL, &o), -EINVAL, "tt_op_transpose: a is NULL");
	expect_error(tt_op_transpose(f->ctx, a, 0, 1, NULL, NULL), -EINVAL, "tt_op_transpose: out is NULL");
	expect_error(tt_op_permute(f->ctx, a, NULL, NULL, &o), -EINVAL, "tt_op_permute: perm is NULL");
	expect_error(tt_op_reshape(f->ctx, a, NULL, NULL, &o), -EINVAL, "tt_op_reshape: shape is NULL");
	expect_error(tt_op_concat(f->ctx, NULL, 2, 0, NULL, &o), -EINVAL, "tt_op_concat: in is NULL");
	expect_error(tt_op_slice(f->ctx, a, NULL, en, NULL, NULL, &o), -EINVAL, "tt_op_slice: start is NULL");
	expect_error(tt_op_repeat(f->ctx, a, NULL, NULL, &o), -EINVAL, "tt_op_repeat: reps is NULL");
	expect_error(tt_op_embedding(f->ctx, NULL, a, NULL, &o), -EINVAL, "tt_op_embedding: indices is NULL");
	expect_error(tt_op_tilize(f->ctx, NULL, &bad_shape, TT_FLOAT32, NULL, &o), -EINVAL, "tt_op_tilize: rows is NULL");
	expect_error(tt_op_untilize(f->ctx, a, NULL, NULL), -EINVAL, "tt_op_untilize: out is NULL");

	/* dims out of range */
	expect_error(tt_op_transpose(f->ctx, a, 0, 3, NULL, &o), -EINVAL,
		     "tt_op_transpose: dim1 3 is out of range for rank 3 (-3..2)");
	expect_error(tt_op_transpose(f->ctx, a, -4, 0, NULL, &o), -EINVAL,
		     "tt_op_transpose: dim0 -4 is out of range for rank 3");
	expect_error(tt_op_concat(f->ctx, (const tt_device_tensor *const *)ab, 2, 3, NULL, &o),
		     -EINVAL, "tt_op_concat: dim 3 is out of range for rank 3");
	/* not a permutation */
	expect_error(tt_op_permute(f->ctx, a, bad_perm, NULL, &o), -EINVAL,
		     "tt_op_permute: perm [0,0,1] is not a permutation of 0..2 (a has rank 3): entry 1 is 0, repeated");
	expect_error(tt_op_permute(f->ctx, a, big_perm, NULL, &o), -EINVAL,
		     "entry 1 is 3, out of range");
	/* reshape volume */
	expect_error(tt_op_reshape(f->ctx, a, &bad_shape, NULL, &o), -EINVAL,
		     "tt_op_reshape: shape [2,33,41] has 2706 elements; a [2,33,40] has 2640");
	expect_error(tt_op_reshape(f->ctx, a, &zero_shape, NULL, &o), -EINVAL,
		     "tt_op_reshape: shape: ");
	/* shapes that do not concat, formats that differ */
	expect_error(tt_op_concat(f->ctx, (const tt_device_tensor *const *)ab, 2, 2, NULL, &o),
		     -EINVAL, "tt_op_concat: in[1] [2,31,40] does not concat with in[0] [2,33,40] along dim 2: dimension 1 is 31, not 33");
	expect_error(tt_op_concat(f->ctx, (const tt_device_tensor *const *)ai, 2, 0, NULL, &o),
		     -EINVAL, "tt_op_concat: in[1] is Int32, in[0] Float16_b: one format");
	expect_error(tt_op_concat(f->ctx, (const tt_device_tensor *const *)ab, 0, 0, NULL, &o),
		     -EINVAL, "tt_op_concat: n 0: 1..64 tensors");
	/* slices out of bounds, zero and negative steps */
	expect_error(tt_op_slice(f->ctx, a, st, en2, NULL, NULL, &o), -EINVAL,
		     "tt_op_slice: end[1] 34: dimension 1 of a is 33 and start[1] 0 (start < end <= 33)");
	expect_error(tt_op_slice(f->ctx, a, ms, en, NULL, NULL, &o), -EINVAL,
		     "tt_op_slice: start[1] -1 is outside dimension 1 of a (0..32)");
	expect_error(tt_op_slice(f->ctx, a, st, en, zs, NULL, &o), -EINVAL,
		     "tt_op_slice: step[1] 0: a step is at least 1");
	expect_error(tt_op_slice(f->ctx, a, st, en, ns, NULL, &o), -EINVAL,
		     "tt_op_slice: step[1] -1: a step is at least 1");
	expect_error(tt_op_repeat(f->ctx, a, reps0, NULL, &o), -EINVAL,
		     "tt_op_repeat: reps[1] 0: at least 1");
	/* formats */
	expect_error(tt_op_transpose(f->ctx, bfp, 0, 1, NULL, &o), -ENOTSUP,
		     "tt_op_transpose: the input is Bfp8_b: block formats share an exponent among 16 elements, so they move only as whole tiles");
	expect_error(tt_op_embedding(f->ctx, i, bfp, NULL, &o), -ENOTSUP,
		     "tt_op_embedding: table is Bfp8_b: block formats share an exponent");
	expect_error(tt_op_untilize(f->ctx, bfp, NULL, &rows), -ENOTSUP,
		     "tt_op_untilize: a is Bfp8_b");
	c.out_format = TT_FLOAT32;
	expect_error(tt_op_transpose(f->ctx, a, 0, 1, &c, &o), -ENOTSUP,
		     "tt_op_transpose: cfg.out_format Float32: the data movement ops do not convert; the output is Float16_b");
	expect_error(tt_op_embedding(f->ctx, a, a, NULL, &o), -ENOTSUP,
		     "tt_op_embedding: indices are Float16_b; UInt32 or Int32");
	/* configs */
	c = tt_op_data_config();
	c.grid = (struct tt_xy){ 100, 1 };
	expect_error(tt_op_transpose(f->ctx, a, 0, 1, &c, &o), -EINVAL,
		     "tt_op_transpose: cfg.grid 100x1 does not fit the device's");
	c = tt_op_data_config();
	c.grid = (struct tt_xy){ 1, 1 };
	c.tiles_per_core = 1;
	expect_error(tt_op_transpose(f->ctx, a, 0, 1, &c, &o), -EINVAL,
		     "tt_op_transpose: cfg.tiles_per_core 1: 66 tiles need 66 cores, cfg.grid 1x1 has 1");
	c = tt_op_data_config();
	c.cache_pages = 65;
	expect_error(tt_op_transpose(f->ctx, a, 0, 1, &c, &o), -EINVAL,
		     "tt_op_transpose: cfg.cache_pages 65: at most 64");
	c = tt_op_data_config();
	c.out_mem = (enum tt_ops_mem)7;
	expect_error(tt_op_transpose(f->ctx, a, 0, 1, &c, &o), -EINVAL,
		     "tt_op_transpose: cfg.out_mem 7 is not a placement");
	/* L1 needed vs available: rows of 2 MiB */
	{
		struct tt_buffer_config bc = { .device = f->dev, .size = 4u << 20,
					       .page_size = 2u << 20, .type = TT_BUFFER_DRAM };
		struct tt_shape wide = TT_SHAPE(2, 524288);

		TRY(tt_buffer_create(&bc, &rows));
		expect_error(tt_op_tilize(f->ctx, rows, &wide, TT_FLOAT32, NULL, &o), -ENOMEM,
			     "tt_op_tilize: needs 2101248 bytes of L1 per core (cfg.cache_pages 1 x 2097152-byte input pages + 4096 bytes of output), a core has");
		expect_error(tt_op_tilize(f->ctx, rows, &bad_shape, TT_FLOAT32, NULL, &o), -EINVAL,
			     "tt_op_tilize: rows has 2 pages of 2097152 bytes; a [2,33,41] Float32 tensor is 66 rows of 164 bytes");
	}
	/* a given output that does not fit */
	expect_error(tt_op_transpose(f->ctx, a, 1, 2, NULL, &wrong), -EINVAL,
		     "tt_op_transpose: out is [40,33]; the result is [2,40,33]");
	expect_error(tt_op_transpose(f->ctx, a, 1, 2, NULL, &f32), -EINVAL,
		     "tt_op_transpose: out is Float32; the result is Float16_b");
	c = tt_op_data_config();
	c.out_mem = TT_OPS_MEM_L1;
	expect_error(tt_op_permute(f->ctx, a, perm, &c, &f32), -EINVAL,
		     "tt_op_permute: out is in DRAM; cfg.out_mem asks for L1");

	/* nothing ran, nothing was made */
	assert_null(o);
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses);
	assert_int_equal(s1.hits, s0.hits);
	tt_buffer_free(rows);
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
	tt_device_tensor_free(i);
	tt_device_tensor_free(bfp);
	tt_device_tensor_free(f32);
	tt_device_tensor_free(wrong);
}

/* The profiler records data movement calls: name, shapes, cache hit. */
static void test_profile(void **state)
{
	struct fx *f = F(state);
	char dir[256], prefix[300], cmd[1200];
	tt_device_tensor *a = dev_tensor(f, TT_SHAPE(33, 40), TT_INT32,
					 TT_BUFFER_DRAM, 1400, NULL);
	tt_device_tensor *o1 = NULL, *o2 = NULL;

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ops-data-prof"));
	snprintf(prefix, sizeof(prefix), "%s/prof", dir);
	TRY(tt_ops_cache_clear(f->ctx)); /* the first call below builds */
	TRY(tt_ops_profile_start(f->ctx, prefix));
	TRY(tt_op_transpose(f->ctx, a, 0, 1, NULL, &o1));
	TRY(tt_op_transpose(f->ctx, a, 0, 1, NULL, &o2));
	TRY(tt_ops_profile_stop(f->ctx));
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json, csv, sys\n"
		 "t = json.load(open(sys.argv[1] + \".json\"))\n"
		 "x = [e for e in t[\"traceEvents\"] if e[\"ph\"] == \"X\" and e[\"tid\"] == 1]\n"
		 "assert [e[\"name\"] for e in x] == [\"tt_op_transpose\"] * 2, x\n"
		 "assert [e[\"args\"][\"cache_hit\"] for e in x] == [False, True], x\n"
		 "r = list(csv.DictReader(open(sys.argv[1] + \".csv\")))\n"
		 "assert all(\"a [33,40] Int32 -> [40,33]\" in w[\"shapes\"] for w in r), r\n"
		 "assert all(\"cache_pages 32\" in w[\"config\"] for w in r), r\n' %s",
		 prefix);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	tt_device_tensor_free(o1);
	tt_device_tensor_free(o2);
	tt_device_tensor_free(a);
}

/* ---- block formats: whole-tile moves ---- */

static void test_block_formats(void **state)
{
	struct fx *f = F(state);
	static const enum tt_data_format bf[] = { TT_BFP8_B, TT_BFP4_B, TT_BFP2_B };
	const unsigned pzw[] = { 1, 0, 2, 3 };
	const int64_t st[] = { 1, 0, 0, 0 }, en[] = { 2, 3, 33, 65 },
		      sp[] = { 1, 2, 1, 1 };
	const uint64_t reps[] = { 2, 3, 1, 1 };

	for (unsigned k = 0; k < 3; k++) {
		struct tt_shape s = TT_SHAPE(2, 3, 33, 65);
		const struct tt_shape c2[] = { TT_SHAPE(2, 3, 33, 65), TT_SHAPE(2, 1, 33, 65) };

		run_transpose(f, s, bf[k], 0, 1, 1500 + k);
		run_permute(f, s, bf[k], pzw, 1510 + k);
		run_reshape(f, s, TT_SHAPE(6, 33, 65), bf[k], 1520 + k);
		run_concat(f, c2, 2, 1, bf[k], 1530 + 10 * k);
		run_slice(f, s, st, en, sp, bf[k], 1560 + k);
		run_repeat(f, TT_SHAPE(1, 1, 31, 40), reps, bf[k], 1570 + k);
	}
}

/* Views (tensors on pages of a larger buffer) in and out: the first
 * pages are runtime args too. */
static void test_views(void **state)
{
	struct fx *f = F(state);
	struct host a, o;
	tt_device_tensor *base = dev_tensor(f, TT_SHAPE(4, 32, 64), TT_UINT16,
					    TT_BUFFER_DRAM, 1600, &a);
	tt_device_tensor *obase = NULL, *v = NULL, *ov = NULL;
	const struct tt_shape vs = TT_SHAPE(3, 32, 64), os = TT_SHAPE(3, 64, 32);
	const struct tt_shape big = TT_SHAPE(5, 64, 32);

	TRY(tt_device_tensor_view(base, 2, &vs, &v)); /* matrices 1..3 */
	TRY(tt_device_tensor_create(f->dev, &big, TT_UINT16, TT_BUFFER_DRAM, &obase));
	TRY(tt_device_tensor_view(obase, 4, &os, &ov)); /* matrices 2..4 */
	for (int k = 0; k < 2; k++) { /* a miss, then a hit */
		TRY(tt_op_transpose(f->ctx, v, -1, -2, NULL, &ov));
		dev_read(f, ov, &o);
		for (size_t e = 0; e < o.n; e++) {
			uint64_t i4[4], j4[4];

			unlin(o.d, e, i4);
			j4[0] = 0;
			j4[1] = i4[1] + 1;
			j4[2] = i4[3];
			j4[3] = i4[2];
			expect_elem(&o, e, elem(&a, lin(a.d, j4)), "view");
		}
		host_free(&o);
	}
	host_free(&a);
	tt_device_tensor_free(ov);
	tt_device_tensor_free(v);
	tt_device_tensor_free(obase);
	tt_device_tensor_free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transpose),
		cmocka_unit_test(test_permute),
		cmocka_unit_test(test_reshape),
		cmocka_unit_test(test_concat),
		cmocka_unit_test(test_slice),
		cmocka_unit_test(test_pad),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_embedding),
		cmocka_unit_test(test_tilize),
		cmocka_unit_test(test_block_formats),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_program_cache),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("ops_data", tests, fx_up, fx_down);
}
