// SPDX-License-Identifier: Apache-2.0
/*
 * Host tensors (tt/tensor.h): shape rules and their messages, creation
 * and ownership (copies, wrapped memory, references, views outliving
 * their parent), every format x layout round trip with padding (exact
 * where the format is exact, bounded error where it is lossy), tile
 * placement of elements against the face formula, conversion between
 * any two forms, export/import to caller memory, slices and reshapes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tt.h"

static const enum tt_data_format all_formats[] = {
	TT_FLOAT32, TT_FLOAT16, TT_FLOAT16_B, TT_BFP8_B, TT_BFP4_B, TT_BFP2_B,
	TT_INT32,   TT_UINT32,	TT_UINT16,    TT_INT8,	 TT_UINT8,
};
#define N_FORMATS (sizeof(all_formats) / sizeof(all_formats[0]))

static const struct tt_shape odd_shapes[] = {
	TT_SHAPE(1, 1, 33, 65), TT_SHAPE(2, 3, 32, 32), TT_SHAPE(5),
	TT_SHAPE(70, 3),	TT_SHAPE(2, 1, 64),	TT_SHAPE(1, 2, 1, 100),
};
#define N_SHAPES (sizeof(odd_shapes) / sizeof(odd_shapes[0]))

static void expect_error(int ret, int code, const char *text)
{
	assert_int_equal(ret, code);
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

static tt_tensor *make(struct tt_shape s, enum tt_data_format f,
		       enum tt_tensor_layout l)
{
	tt_tensor *t = NULL;

	if (tt_tensor_create(&s, f, l, &t))
		fail_msg("%s", tt_last_error());
	return t;
}

/* A row-major Float32 tensor of shape s holding value(i) at element i. */
static tt_tensor *f32_tensor(struct tt_shape s, float (*value)(size_t))
{
	tt_tensor *t = make(s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR);
	float *p = tt_tensor_data(t);

	for (size_t i = 0; i < tt_tensor_volume(t); i++)
		p[i] = value(i);
	return t;
}

/* Small non-negative integers: exact in every format (Bfp8_b too: a row's
 * largest value is below 128, so its step is at most 1). */
static float small_int(size_t i)
{
	return (float)((i * 37 + i / 7) % 101);
}

/* Signed values with fractions over a wide range, never 0. */
static float wide(size_t i)
{
	uint32_t h = (uint32_t)i * 2654435761u;
	float m = (float)((h >> 8) | 1) / (float)(1u << 24); /* (0, 1) */

	return (h & 1 ? -1.0f : 1.0f) * m * ldexpf(1.0f, (int)(h >> 28) - 4);
}

/* ---- shapes ---- */

static void test_shape_rules(void **state)
{
	struct tt_shape s1 = TT_SHAPE(7), s2 = TT_SHAPE(3, 7);
	struct tt_shape s3 = TT_SHAPE(2, 3, 7), s4 = TT_SHAPE(5, 2, 3, 7);
	uint64_t d[4];
	size_t v;

	(void)state;
	assert_int_equal(s1.rank, 1);
	assert_int_equal(s4.rank, 4);
	assert_int_equal(s3.dims[0], 2);
	assert_int_equal(tt_shape_wzrc(&s1, d), 0);
	assert_true(d[0] == 1 && d[1] == 1 && d[2] == 1 && d[3] == 7);
	assert_int_equal(tt_shape_wzrc(&s2, d), 0);
	assert_true(d[0] == 1 && d[1] == 1 && d[2] == 3 && d[3] == 7);
	assert_int_equal(tt_shape_wzrc(&s3, d), 0);
	assert_true(d[0] == 1 && d[1] == 2 && d[2] == 3 && d[3] == 7);
	assert_int_equal(tt_shape_wzrc(&s4, d), 0);
	assert_true(d[0] == 5 && d[1] == 2 && d[2] == 3 && d[3] == 7);
	assert_int_equal(tt_shape_volume(&s4, &v), 0);
	assert_int_equal(v, 210);
	/* [1,1,33,65]: 2 x 3 tiles; [2,3,1,1]: one tile per matrix. */
	struct tt_shape p = TT_SHAPE(1, 1, 33, 65), q = TT_SHAPE(2, 3, 1, 1);
	uint64_t tiles;

	assert_int_equal(tt_shape_tiles(&p, &tiles), 0);
	assert_int_equal(tiles, 6);
	assert_int_equal(tt_shape_tiles(&q, &tiles), 0);
	assert_int_equal(tiles, 6);
}

static void test_shape_errors(void **state)
{
	struct tt_shape zero = TT_SHAPE(2, 0, 32, 32), r0 = {0};
	struct tt_shape r5 = {.rank = 5, .dims = {1, 1, 1, 1}};
	struct tt_shape big = TT_SHAPE(1u << 31, 1u << 31, 1u << 31, 8);
	uint64_t d[4];
	tt_tensor *t = NULL;

	(void)state;
	expect_error(
		tt_tensor_create(&zero, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t),
		-EINVAL, "tensor shape [2,0,32,32]: dimension 1 is 0");
	assert_null(t);
	expect_error(tt_shape_wzrc(&r0, d), -EINVAL,
		     "tensor shape of rank 0: the rank must be 1 to 4");
	expect_error(tt_shape_wzrc(&r5, d), -EINVAL,
		     "tensor shape of rank 5: the rank must be 1 to 4");
	expect_error(tt_tensor_create(&big, TT_UINT8, TT_TENSOR_ROW_MAJOR, &t),
		     -EOVERFLOW, "does not fit size_t");
	expect_error(tt_tensor_create(NULL, TT_UINT8, TT_TENSOR_ROW_MAJOR, &t),
		     -EINVAL, "tensor shape is NULL");
	assert_null(t);
}

static void test_format_errors(void **state)
{
	struct tt_shape s = TT_SHAPE(1, 1, 33, 65);
	tt_tensor *t = NULL;
	size_t n;

	(void)state;
	expect_error(tt_tensor_create(&s, (enum tt_data_format)4,
				      TT_TENSOR_TILED, &t),
		     -EINVAL, "tensor [1,1,33,65]: 4 is not a data format");
	expect_error(tt_tensor_create(&s, TT_BFP8, TT_TENSOR_TILED, &t),
		     -ENOTSUP, "format Bfp8 is not supported");
	expect_error(tt_tensor_create(&s, TT_BFP4_B, TT_TENSOR_ROW_MAJOR, &t),
		     -EINVAL, "Bfp4_b exists only tiled, not row-major");
	expect_error(
		tt_tensor_create(&s, TT_FLOAT32, (enum tt_tensor_layout)7, &t),
		-EINVAL, "layout 7 is neither row-major");
	expect_error(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_TILED, NULL),
		     -EINVAL, "out is NULL");
	assert_null(t);
	/* Storage sizes: padded to 2 x 3 tiles when tiled. */
	assert_int_equal(
		tt_tensor_storage_size(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &n),
		0);
	assert_int_equal(n, 33 * 65 * 4);
	assert_int_equal(
		tt_tensor_storage_size(&s, TT_FLOAT16_B, TT_TENSOR_TILED, &n),
		0);
	assert_int_equal(n, 6 * 2048);
	assert_int_equal(
		tt_tensor_storage_size(&s, TT_BFP2_B, TT_TENSOR_TILED, &n), 0);
	assert_int_equal(n, 6 * 320);
	assert_int_equal(
		tt_tensor_storage_size(&s, TT_UINT8, TT_TENSOR_ROW_MAJOR, &n),
		0);
	assert_int_equal(n, 33 * 65);
	assert_string_equal(tt_tensor_layout_name(TT_TENSOR_TILED), "tiled");
}

/* ---- creation and ownership ---- */

static void test_create_queries(void **state)
{
	tt_tensor *t = make(TT_SHAPE(3, 40, 50), TT_INT8, TT_TENSOR_TILED);
	const uint8_t *p = tt_tensor_data(t);

	(void)state;
	assert_int_equal(tt_tensor_shape(t)->rank, 3);
	assert_int_equal(tt_tensor_shape(t)->dims[1], 40);
	assert_int_equal(tt_tensor_format(t), TT_INT8);
	assert_int_equal(tt_tensor_layout(t), TT_TENSOR_TILED);
	assert_int_equal(tt_tensor_volume(t), 3 * 40 * 50);
	assert_int_equal(tt_tensor_size(t), 3 * 2 * 2 * 1024);
	for (size_t i = 0; i < tt_tensor_size(t); i++)
		assert_int_equal(p[i], 0);
	tt_tensor_free(t);
	tt_tensor_free(NULL);
}

static void test_from_data_copies(void **state)
{
	struct tt_shape s = TT_SHAPE(2, 3);
	int32_t src[6] = {1, -2, 3, -4, 5, -6};
	tt_tensor *t;

	(void)state;
	assert_int_equal(tt_tensor_from_data(&s, TT_INT32, TT_TENSOR_ROW_MAJOR,
					     src, sizeof(src), &t),
			 0);
	assert_ptr_not_equal(tt_tensor_data(t), src);
	src[0] = 99;
	assert_int_equal(((int32_t *)tt_tensor_data(t))[0], 1);
	assert_int_equal(((int32_t *)tt_tensor_data(t))[5], -6);
	tt_tensor_free(t);
	expect_error(tt_tensor_from_data(&s, TT_INT32, TT_TENSOR_ROW_MAJOR, src,
					 sizeof(src) - 1, &t),
		     -EINVAL,
		     "tt_tensor_from_data: tensor [2,3] Int32 row-major takes "
		     "24 bytes, not 23");
	expect_error(tt_tensor_from_data(&s, TT_INT32, TT_TENSOR_ROW_MAJOR,
					 NULL, 24, &t),
		     -EINVAL, "src is NULL");
}

static void count_release(void *ctx)
{
	(*(int *)ctx)++;
}

static void test_wrap_and_references(void **state)
{
	struct tt_shape s = TT_SHAPE(4, 8);
	uint16_t mem[32];
	tt_tensor *t, *v;
	int released = 0;

	(void)state;
	for (unsigned i = 0; i < 32; i++)
		mem[i] = (uint16_t)i;
	assert_int_equal(tt_tensor_wrap(&s, TT_UINT16, TT_TENSOR_ROW_MAJOR, mem,
					sizeof(mem), count_release, &released,
					&t),
			 0);
	assert_ptr_equal(tt_tensor_data(t), mem);
	assert_ptr_equal(tt_tensor_ref(t), t);
	tt_tensor_free(t);
	assert_int_equal(released, 0);
	/* A view keeps the wrapped memory referenced after its parent. */
	assert_int_equal(tt_tensor_slice(t, 2, 2, &v), 0);
	tt_tensor_free(t);
	assert_int_equal(released, 0);
	assert_ptr_equal(tt_tensor_data(v), mem + 16);
	assert_int_equal(((uint16_t *)tt_tensor_data(v))[0], 16);
	tt_tensor_free(v);
	assert_int_equal(released, 1);
	/* Failure does not call release. */
	expect_error(tt_tensor_wrap(&s, TT_UINT16, TT_TENSOR_ROW_MAJOR, mem, 63,
				    count_release, &released, &t),
		     -EINVAL, "takes 64 bytes, not 63");
	assert_int_equal(released, 1);
	/* No release callback: the memory simply stays the caller's. */
	assert_int_equal(tt_tensor_wrap(&s, TT_UINT16, TT_TENSOR_ROW_MAJOR, mem,
					sizeof(mem), NULL, NULL, &t),
			 0);
	tt_tensor_free(t);
	assert_int_equal(mem[31], 31);
}

/* ---- layouts ---- */

/* Index of element (r, c) of a matrix in its tiled form (tt/dataformat.h):
 * tile (r / 32, c / 32) row-major over tcols tiles, then the face. */
static size_t tiled_index(size_t r, size_t c, size_t tcols)
{
	size_t tile = (r / 32) * tcols + c / 32, tr = r % 32, tc = c % 32;
	size_t face = (tr / 16) * 2 + tc / 16;

	return tile * 1024 + face * 256 + (tr % 16) * 16 + tc % 16;
}

/* Every element of a [w,z,r,c] Float32 row-major tensor is where the face
 * formula says in the tiled Float32 form, and the padding is zero. */
static void test_tile_placement(void **state)
{
	struct tt_shape s = TT_SHAPE(2, 33, 65);
	tt_tensor *rm = f32_tensor(s, wide), *t;
	const float *a, *b;
	size_t per = 3 * 1024, nonzero = 0;

	(void)state;
	assert_int_equal(tt_tensor_to(rm, TT_FLOAT32, TT_TENSOR_TILED, &t), 0);
	assert_int_equal(tt_tensor_size(t), 2 * 6 * 4096);
	a = tt_tensor_data(rm);
	b = tt_tensor_data(t);
	for (size_t m = 0; m < 2; m++)
		for (size_t r = 0; r < 33; r++)
			for (size_t c = 0; c < 65; c++)
				assert_true(
					b[m * 2 * per + tiled_index(r, c, 3)] ==
					a[(m * 33 + r) * 65 + c]);
	for (size_t i = 0; i < 2 * 6 * 1024; i++)
		nonzero += b[i] != 0;
	assert_int_equal(nonzero, 2 * 33 * 65); /* wide() is never 0 */
	tt_tensor_free(rm);
	tt_tensor_free(t);
}

/* The largest error a format may make on v, given the largest magnitude
 * max of v's 16-element face row (block formats share its exponent). */
static double bound(enum tt_data_format f, float v, float row_max)
{
	int e;

	switch (f) {
	case TT_FLOAT16_B:
		return fabs(v) * 0x1p-8;
	case TT_FLOAT16:
		return fabs(v) * 0x1p-11 + 0x1p-24;
	case TT_BFP8_B:
	case TT_BFP4_B:
	case TT_BFP2_B:
		frexpf(row_max, &e); /* row_max in [2^(e-1), 2^e) */
		return ldexp(1.0, e - 1 -
					  (f == TT_BFP8_B   ? 6
					   : f == TT_BFP4_B ? 2
							    : 0));
	default:
		return 0;
	}
}

/* Largest magnitude of the face row holding element (r, c) of matrix m. */
static float row_max(const float *a, size_t m, size_t r, size_t c,
		     const struct tt_shape *s)
{
	size_t cols = s->dims[s->rank - 1];
	size_t rows = s->rank > 1 ? s->dims[s->rank - 2] : 1;
	float mx = 0;

	for (size_t j = c / 16 * 16; j < c / 16 * 16 + 16 && j < cols; j++)
		mx = fmaxf(mx, fabsf(a[(m * rows + r) * cols + j]));
	return mx;
}

static bool exact_for(enum tt_data_format f, float (*value)(size_t))
{
	if (value == small_int)
		return f != TT_BFP4_B && f != TT_BFP2_B;
	return f == TT_FLOAT32;
}

/* fp32 row-major -> f tiled -> f row-major (if not block) and -> fp32
 * row-major: exact, or within the format's bound. */
static void round_trip(struct tt_shape s, enum tt_data_format f,
		       float (*value)(size_t))
{
	tt_tensor *src = f32_tensor(s, value), *tiled, *back, *rm;
	const float *a = tt_tensor_data(src), *b;
	size_t cols = s.dims[s.rank - 1], vol = tt_tensor_volume(src);

	assert_int_equal(tt_tensor_to(src, f, TT_TENSOR_TILED, &tiled), 0);
	assert_int_equal(
		tt_tensor_to(tiled, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &back), 0);
	assert_int_equal(tt_tensor_shape(back)->rank, s.rank);
	b = tt_tensor_data(back);
	for (size_t i = 0; i < vol; i++) {
		size_t m = i / cols, c = i % cols;
		double err = fabs((double)a[i] - (double)b[i]);
		double lim = exact_for(f, value)
				     ? 0
				     : bound(f, a[i], row_max(a, 0, m, c, &s));

		if (err > lim)
			fail_msg("%s shape rank %u element %zu: %g became %g "
				 "(bound %g)",
				 tt_data_format_name(f), s.rank, i, a[i], b[i],
				 lim);
	}
	if (!tt_data_format_is_block(f)) {
		/* Tiled and row-major forms of one format hold the same. */
		tt_tensor *direct;

		assert_int_equal(
			tt_tensor_to(src, f, TT_TENSOR_ROW_MAJOR, &direct), 0);
		assert_int_equal(
			tt_tensor_to(tiled, f, TT_TENSOR_ROW_MAJOR, &rm), 0);
		assert_memory_equal(tt_tensor_data(rm), tt_tensor_data(direct),
				    tt_tensor_size(rm));
		tt_tensor_free(direct);
		tt_tensor_free(rm);
	}
	tt_tensor_free(src);
	tt_tensor_free(tiled);
	tt_tensor_free(back);
}

static void test_round_trip_exact(void **state)
{
	(void)state;
	for (size_t s = 0; s < N_SHAPES; s++)
		for (size_t f = 0; f < N_FORMATS; f++)
			round_trip(odd_shapes[s], all_formats[f], small_int);
}

static void test_round_trip_lossy(void **state)
{
	static const enum tt_data_format lossy[] = {
		TT_FLOAT32, TT_FLOAT16, TT_FLOAT16_B,
		TT_BFP8_B,  TT_BFP4_B,	TT_BFP2_B,
	};

	(void)state;
	for (size_t s = 0; s < N_SHAPES; s++)
		for (size_t f = 0; f < sizeof(lossy) / sizeof(lossy[0]); f++)
			round_trip(odd_shapes[s], lossy[f], wide);
}

/* A tiled tensor's padding stays zero through every conversion, and
 * untilizing gives exactly the logical shape back. */
static void test_padding(void **state)
{
	struct tt_shape s = TT_SHAPE(1, 1, 33, 65);
	tt_tensor *src = f32_tensor(s, small_int), *t, *u;

	(void)state;
	for (size_t f = 0; f < N_FORMATS; f++) {
		enum tt_data_format fmt = all_formats[f];
		size_t esz = tt_data_format_elem_size(fmt);

		assert_int_equal(tt_tensor_to(src, fmt, TT_TENSOR_TILED, &t),
				 0);
		if (esz) {
			/* Padding elements (rows 33..63, columns 65..95). */
			const uint8_t *p = tt_tensor_data(t);

			for (size_t r = 0; r < 64; r++)
				for (size_t c = 0; c < 96; c++)
					if (r >= 33 || c >= 65)
						for (size_t k = 0; k < esz; k++)
							assert_int_equal(
								p[tiled_index(
									  r, c,
									  3) *
									  esz +
								  k],
								0);
		}
		assert_int_equal(
			tt_tensor_to(t, TT_UINT8, TT_TENSOR_ROW_MAJOR, &u), 0);
		assert_int_equal(tt_tensor_size(u), 33 * 65);
		for (size_t i = 0; i < 33 * 65; i++)
			if (fmt != TT_BFP4_B && fmt != TT_BFP2_B)
				assert_int_equal(
					((uint8_t *)tt_tensor_data(u))[i],
					(uint8_t)small_int(i));
		tt_tensor_free(t);
		tt_tensor_free(u);
	}
	tt_tensor_free(src);
}

/* Every form into every form: each result equals the reference path
 * (through row-major Float32) exactly. */
static void test_any_to_any(void **state)
{
	struct tt_shape s = TT_SHAPE(2, 1, 40, 33);
	tt_tensor *src = f32_tensor(s, small_int);

	(void)state;
	for (size_t i = 0; i < N_FORMATS * 2; i++) {
		enum tt_data_format ff = all_formats[i / 2];
		enum tt_tensor_layout fl = (enum tt_tensor_layout)(i % 2);
		tt_tensor *from;

		if (tt_data_format_is_block(ff) && fl == TT_TENSOR_ROW_MAJOR)
			continue;
		assert_int_equal(tt_tensor_to(src, ff, fl, &from), 0);
		for (size_t j = 0; j < N_FORMATS * 2; j++) {
			enum tt_data_format tf = all_formats[j / 2];
			enum tt_tensor_layout tl =
				(enum tt_tensor_layout)(j % 2);
			tt_tensor *a, *ref, *via;

			if (tt_data_format_is_block(tf) &&
			    tl == TT_TENSOR_ROW_MAJOR)
				continue;
			assert_int_equal(tt_tensor_to(from, tf, tl, &a), 0);
			assert_int_equal(tt_tensor_to(from, TT_FLOAT32,
						      TT_TENSOR_ROW_MAJOR,
						      &via),
					 0);
			assert_int_equal(tt_tensor_to(via, tf, tl, &ref), 0);
			assert_int_equal(tt_tensor_size(a),
					 tt_tensor_size(ref));
			assert_memory_equal(tt_tensor_data(a),
					    tt_tensor_data(ref),
					    tt_tensor_size(a));
			tt_tensor_free(a);
			tt_tensor_free(ref);
			tt_tensor_free(via);
		}
		tt_tensor_free(from);
	}
	tt_tensor_free(src);
}

/* Conversions round as the scalar converters do: bf16 to nearest even,
 * integers saturate. */
static void test_conversion_values(void **state)
{
	float in[6] = {1.00390625f, 1.01171875f, -300.0f, 70000.0f, 2.5f, NAN};
	struct tt_shape s = TT_SHAPE(6);
	tt_tensor *t, *u;
	const uint16_t *h;
	const uint8_t *b;

	(void)state;
	assert_int_equal(tt_tensor_from_data(&s, TT_FLOAT32,
					     TT_TENSOR_ROW_MAJOR, in,
					     sizeof(in), &t),
			 0);
	assert_int_equal(tt_tensor_to(t, TT_FLOAT16_B, TT_TENSOR_ROW_MAJOR, &u),
			 0);
	h = tt_tensor_data(u);
	assert_int_equal(h[0], 0x3F80);
	assert_int_equal(h[1], 0x3F82);
	assert_int_equal(h[5], 0x7FC0);
	tt_tensor_free(u);
	assert_int_equal(tt_tensor_to(t, TT_UINT8, TT_TENSOR_TILED, &u), 0);
	b = tt_tensor_data(u);
	assert_int_equal(b[2], 0);	 /* -300 saturates */
	assert_int_equal(b[3], 255);	 /* 70000 saturates */
	assert_int_equal(b[4], 2);	 /* ties to even */
	assert_int_equal(b[5], 0);	 /* NaN */
	assert_int_equal(b[16 * 16], 0); /* row 1 is padding */
	tt_tensor_free(u);
	tt_tensor_free(t);
}

/* ---- copy, export, import ---- */

static void test_copy_rules(void **state)
{
	tt_tensor *a = make(TT_SHAPE(64, 64), TT_FLOAT32, TT_TENSOR_ROW_MAJOR);
	tt_tensor *b = make(TT_SHAPE(1, 1, 64, 64), TT_BFP8_B, TT_TENSOR_TILED);
	tt_tensor *c = make(TT_SHAPE(64, 65), TT_FLOAT32, TT_TENSOR_ROW_MAJOR);
	tt_tensor *v;

	(void)state;
	/* Same [w,z,r,c] with different ranks is fine. */
	assert_int_equal(tt_tensor_copy(b, a), 0);
	expect_error(tt_tensor_copy(c, a), -EINVAL,
		     "tt_tensor_copy: tensor [64,64] Float32 row-major into "
		     "tensor [64,65] Float32 row-major: the shapes differ");
	assert_int_equal(tt_tensor_reshape(a, &TT_SHAPE(64, 64), &v), 0);
	expect_error(tt_tensor_copy(v, a), -EINVAL, "they share storage");
	expect_error(tt_tensor_copy(NULL, a), -EINVAL, "dst is NULL");
	tt_tensor_free(v);
	tt_tensor_free(a);
	tt_tensor_free(b);
	tt_tensor_free(c);
}

static void test_export_import(void **state)
{
	struct tt_shape s = TT_SHAPE(1, 1, 33, 65);
	tt_tensor *src = f32_tensor(s, small_int), *t;
	size_t n;
	uint8_t *buf;

	(void)state;
	assert_int_equal(
		tt_tensor_storage_size(&s, TT_BFP8_B, TT_TENSOR_TILED, &n), 0);
	buf = malloc(n);
	assert_non_null(buf);
	assert_int_equal(
		tt_tensor_export(src, TT_BFP8_B, TT_TENSOR_TILED, buf, n), 0);
	expect_error(
		tt_tensor_export(src, TT_BFP8_B, TT_TENSOR_TILED, buf, n - 1),
		-EINVAL, "Bfp8_b tiled takes 6528 bytes, not 6527");
	expect_error(
		tt_tensor_export(src, TT_BFP8_B, TT_TENSOR_ROW_MAJOR, buf, n),
		-EINVAL, "Bfp8_b exists only tiled");
	expect_error(tt_tensor_export(src, TT_FLOAT32, TT_TENSOR_ROW_MAJOR,
				      tt_tensor_data(src), tt_tensor_size(src)),
		     -EINVAL, "the caller's memory overlaps the tensor");
	/* Import those tiles into a UInt16 row-major tensor: the values. */
	t = make(s, TT_UINT16, TT_TENSOR_ROW_MAJOR);
	assert_int_equal(
		tt_tensor_import(t, TT_BFP8_B, TT_TENSOR_TILED, buf, n), 0);
	for (size_t i = 0; i < 33 * 65; i++)
		assert_int_equal(((uint16_t *)tt_tensor_data(t))[i],
				 (uint16_t)small_int(i));
	expect_error(tt_tensor_import(t, TT_BFP8_B, TT_TENSOR_TILED, buf, 5),
		     -EINVAL, "takes 6528 bytes, not 5");
	tt_tensor_free(t);
	tt_tensor_free(src);
	free(buf);
}

/* ---- views ---- */

static void test_slice_row_major(void **state)
{
	tt_tensor *t = f32_tensor(TT_SHAPE(4, 3, 5), small_int), *v, *w;
	const float *p;

	(void)state;
	assert_int_equal(tt_tensor_slice(t, 1, 2, &v), 0);
	assert_int_equal(tt_tensor_shape(v)->dims[0], 2);
	assert_int_equal(tt_tensor_shape(v)->rank, 3);
	assert_int_equal(tt_tensor_volume(v), 30);
	p = tt_tensor_data(v);
	assert_true(p[0] == small_int(15));
	/* A view of a view; writes reach the root's storage. */
	assert_int_equal(tt_tensor_slice(v, 1, 1, &w), 0);
	((float *)tt_tensor_data(w))[0] = -7.0f;
	assert_true(((float *)tt_tensor_data(t))[30] == -7.0f);
	tt_tensor_free(t);
	tt_tensor_free(v);
	assert_true(((float *)tt_tensor_data(w))[0] == -7.0f);
	tt_tensor_free(w);
}

static void test_slice_tiled(void **state)
{
	tt_tensor *rm = f32_tensor(TT_SHAPE(3, 2, 33, 40), small_int), *t, *v;
	tt_tensor *want, *got, *m2;

	(void)state;
	assert_int_equal(tt_tensor_to(rm, TT_BFP8_B, TT_TENSOR_TILED, &t), 0);
	assert_int_equal(tt_tensor_slice(t, 2, 1, &v), 0);
	assert_int_equal(tt_tensor_size(v), tt_tensor_size(t) / 3);
	assert_int_equal(tt_tensor_slice(rm, 2, 1, &want), 0);
	assert_int_equal(tt_tensor_to(v, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &got),
			 0);
	assert_memory_equal(tt_tensor_data(got), tt_tensor_data(want),
			    tt_tensor_size(want));
	tt_tensor_free(v);
	tt_tensor_free(got);
	tt_tensor_free(want);
	tt_tensor_free(t);
	/* Rank 2: whole tile rows only; the last partial one is allowed. */
	m2 = f32_tensor(TT_SHAPE(70, 40), small_int);
	assert_int_equal(tt_tensor_to(m2, TT_FLOAT16_B, TT_TENSOR_TILED, &t),
			 0);
	assert_int_equal(tt_tensor_slice(t, 32, 38, &v), 0);
	assert_int_equal(tt_tensor_size(v), 2 * 2 * 2048);
	assert_int_equal(tt_tensor_to(v, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &got),
			 0);
	assert_true(((float *)tt_tensor_data(got))[0] == small_int(32 * 40));
	tt_tensor_free(got);
	tt_tensor_free(v);
	expect_error(tt_tensor_slice(t, 16, 32, &v), -EINVAL,
		     "rows [16, +32) are not whole tile rows");
	expect_error(tt_tensor_slice(t, 40, 31, &v), -EINVAL,
		     "[40, +31) is not inside dimension 0 (70)");
	expect_error(tt_tensor_slice(t, 0, 0, &v), -EINVAL,
		     "is not inside dimension 0");
	tt_tensor_free(t);
	tt_tensor_free(m2);
	t = make(TT_SHAPE(100), TT_FLOAT32, TT_TENSOR_TILED);
	expect_error(tt_tensor_slice(t, 32, 32, &v), -EINVAL,
		     "not whole tile rows");
	tt_tensor_free(t);
	tt_tensor_free(rm);
}

static void test_reshape(void **state)
{
	tt_tensor *t = f32_tensor(TT_SHAPE(2, 3, 32, 32), small_int), *v, *u;

	(void)state;
	assert_int_equal(tt_tensor_reshape(t, &TT_SHAPE(6, 1024), &v), 0);
	assert_ptr_equal(tt_tensor_data(v), tt_tensor_data(t));
	tt_tensor_free(v);
	expect_error(tt_tensor_reshape(t, &TT_SHAPE(6, 1025), &v), -EINVAL,
		     "another number of elements");
	assert_int_equal(tt_tensor_to(t, TT_FLOAT16_B, TT_TENSOR_TILED, &u), 0);
	assert_int_equal(tt_tensor_reshape(u, &TT_SHAPE(6, 32, 32), &v), 0);
	tt_tensor_free(v);
	expect_error(tt_tensor_reshape(u, &TT_SHAPE(3, 2, 64, 16), &v), -EINVAL,
		     "a tiled tensor keeps r, c and w * z");
	tt_tensor_free(u);
	tt_tensor_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape_rules),
		cmocka_unit_test(test_shape_errors),
		cmocka_unit_test(test_format_errors),
		cmocka_unit_test(test_create_queries),
		cmocka_unit_test(test_from_data_copies),
		cmocka_unit_test(test_wrap_and_references),
		cmocka_unit_test(test_tile_placement),
		cmocka_unit_test(test_round_trip_exact),
		cmocka_unit_test(test_round_trip_lossy),
		cmocka_unit_test(test_padding),
		cmocka_unit_test(test_any_to_any),
		cmocka_unit_test(test_conversion_values),
		cmocka_unit_test(test_copy_rules),
		cmocka_unit_test(test_export_import),
		cmocka_unit_test(test_slice_row_major),
		cmocka_unit_test(test_slice_tiled),
		cmocka_unit_test(test_reshape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
