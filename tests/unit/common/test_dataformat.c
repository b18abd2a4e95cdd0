// SPDX-License-Identifier: Apache-2.0
/*
 * Data formats and tiles (common/dataformat.h). Rounding is checked
 * against references computed here another way: by picking the nearer of
 * the two neighbouring representable values in double arithmetic. Tile
 * placement is checked against the formula of metal.md 4.1, block formats
 * against hand-computed encodings. Every buffer is a heap allocation of
 * exactly its length, so under ASan any access past it fails the test.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/dataformat.h"

static const enum df_format flat_fmts[] = {
	DF_FLOAT32, DF_FLOAT16, DF_FLOAT16_B, DF_INT8,
	DF_UINT8,   DF_UINT16,	DF_INT32,     DF_UINT32,
};
#define N_FLAT (sizeof(flat_fmts) / sizeof(flat_fmts[0]))

static const enum df_format block_fmts[] = {DF_BFP8_B, DF_BFP4_B, DF_BFP2_B};

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* 2^k by repeated multiplication (independent of the module's tricks). */
static double p2(int k)
{
	double d = 1;

	for (; k > 0; k--)
		d *= 2;
	for (; k < 0; k++)
		d /= 2;
	return d;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rand32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	assert_non_null(p);
	return p;
}

/* ---- references ---- */

/* Value of a bfloat16 magnitude code (0..0x7f80); 0x7f80 counts as 2^128,
 * the value overflow rounds against. */
static double bf16_val(uint32_t c)
{
	if (c >= 0x7f80)
		return p2(128);
	return (double)bitsf(c << 16);
}

/* Value of a half magnitude code; 0x7c00 counts as 2^16. */
static double f16_val(uint32_t c)
{
	uint32_t e = c >> 10, m = c & 0x3ff;

	if (e == 0)
		return m * p2(-24);
	if (e >= 31)
		return p2(16);
	return (1024 + m) * p2((int)e - 25);
}

/* Nearest code to d >= 0 among codes 0..max (values increasing), ties to
 * the even code, by bisection over the code's value. */
static uint32_t nearest(double d, double (*val)(uint32_t), uint32_t max)
{
	uint32_t lo = 0, hi = max;

	if (d >= val(max))
		return max;
	while (hi - lo > 1) { /* val(lo) <= d < val(hi) */
		uint32_t mid = lo + (hi - lo) / 2;

		if (val(mid) <= d)
			lo = mid;
		else
			hi = mid;
	}
	if (d - val(lo) < val(hi) - d)
		return lo;
	if (d - val(lo) > val(hi) - d)
		return hi;
	return (lo & 1) ? hi : lo;
}

static uint16_t ref_bf16(double d)
{
	uint16_t s = d < 0 || (d == 0 && 1 / d < 0) ? 0x8000 : 0;

	if (d != d)
		return 0x7fc0;
	return s | (uint16_t)nearest(s ? -d : d, bf16_val, 0x7f80);
}

static uint16_t ref_f16(double d)
{
	uint16_t s = d < 0 || (d == 0 && 1 / d < 0) ? 0x8000 : 0;

	return s | (uint16_t)nearest(s ? -d : d, f16_val, 0x7c00);
}

/* Round to nearest even integer via floor, clamp, NaN -> 0. */
static int64_t ref_int(double d, int64_t lo, int64_t hi)
{
	int64_t f;
	double diff;

	if (d != d)
		return 0;
	if (d < (double)lo)
		return lo;
	if (d > (double)hi)
		return hi;
	f = (int64_t)d;
	if ((double)f > d)
		f--;
	diff = d - (double)f;
	if (diff > 0.5 || (diff == 0.5 && (f & 1)))
		f++;
	return f < lo ? lo : f > hi ? hi : f;
}

/* ---- format table ---- */

static void test_tables(void **state)
{
	static const struct {
		enum df_format f;
		const char *name;
		size_t tile, elem;
		bool block;
	} t[] = {
		{DF_FLOAT32, "Float32", 4096, 4, false},
		{DF_FLOAT16, "Float16", 2048, 2, false},
		{DF_BFP8, "Bfp8", 1088, 0, true},
		{DF_BFP4, "Bfp4", 576, 0, true},
		{DF_FLOAT16_B, "Float16_b", 2048, 2, false},
		{DF_BFP8_B, "Bfp8_b", 1088, 0, true},
		{DF_BFP4_B, "Bfp4_b", 576, 0, true},
		{DF_INT32, "Int32", 4096, 4, false},
		{DF_UINT16, "UInt16", 2048, 2, false},
		{DF_BFP2, "Bfp2", 320, 0, true},
		{DF_INT8, "Int8", 1024, 1, false},
		{DF_BFP2_B, "Bfp2_b", 320, 0, true},
		{DF_UINT32, "UInt32", 4096, 4, false},
		{DF_UINT8, "UInt8", 1024, 1, false},
	};
	static const int values[] = {0, 1, 2,  3,  5,  6,  7,
				     8, 9, 11, 14, 15, 24, 30};
	size_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(t[i].f, values[i]);
		assert_string_equal(df_name(t[i].f), t[i].name);
		assert_int_equal(df_from_name(t[i].name), t[i].f);
		assert_int_equal(df_tile_bytes(t[i].f), t[i].tile);
		assert_int_equal(df_elem_bytes(t[i].f), t[i].elem);
		assert_int_equal(df_is_block(t[i].f), t[i].block);
		assert_int_equal(df_bytes(t[i].f, 10), t[i].elem * 10);
		if (!t[i].block)
			assert_int_equal(df_tile_bytes(t[i].f),
					 1024 * t[i].elem);
		assert_int_equal(df_tiled_bytes(t[i].f, 33, 64, &n), 0);
		assert_int_equal(n, 4 * t[i].tile);
	}
	assert_int_equal(DF_INVALID, 255);
	assert_string_equal(df_name(DF_INVALID), "Invalid");
	assert_string_equal(df_name((enum df_format)4), "Invalid");
	assert_int_equal(df_tile_bytes((enum df_format)4), 0);
	assert_int_equal(df_from_name("float16_B"), DF_FLOAT16_B);
	assert_int_equal(df_from_name("BFLOAT16"), DF_FLOAT16_B);
	assert_int_equal(df_from_name("bf16"), DF_FLOAT16_B);
	assert_int_equal(df_from_name("fp32"), DF_FLOAT32);
	assert_int_equal(df_from_name("Float32"), DF_FLOAT32);
	assert_int_equal(df_from_name("fp16"), DF_FLOAT16);
	assert_int_equal(df_from_name("uint8"), DF_UINT8);
	assert_int_equal(df_from_name("bfp8"), DF_BFP8);
	assert_int_equal(df_from_name("float"), DF_INVALID);
	assert_int_equal(df_from_name(""), DF_INVALID);
	assert_int_equal(df_from_name(NULL), DF_INVALID);
	assert_true(df_is_supported(DF_BFP8_B));
	assert_false(df_is_supported(DF_BFP8));
	assert_int_equal(df_bytes(DF_FLOAT32, SIZE_MAX / 2), 0);
	assert_int_equal(df_tiled_bytes(DF_FLOAT32, 0, 5, &n), -EINVAL);
	assert_int_equal(df_tiled_bytes(DF_FLOAT32, SIZE_MAX, SIZE_MAX, &n),
			 -EOVERFLOW);
}

/* ---- scalars ---- */

static void check_bf16(float f)
{
	uint16_t got = df_f32_to_bf16_rne(f);

	if (got != ref_bf16(f))
		fail_msg("bf16(%a = %08x) = %04x, want %04x", (double)f,
			 fbits(f), got, ref_bf16(f));
}

static void test_bf16(void **state)
{
	static const uint32_t picks[] = {
		0x3f808000, /* tie, even below: 1.0 */
		0x3f818000, /* tie, odd below: rounds up */
		0x3f808001, /* just above a tie */
		0x3f807fff, /* just below a tie */
		0x7f7fffff, /* FLT_MAX: rounds into inf */
		0x7f7f7fff, /* stays max finite 0x7f7f */
		0x7f7f8000, /* tie at the top, odd: inf */
		0xff7fffff, 0x80000000, 0x00000000,
		0x7f800000, 0xff800000, 0x00000001, /* least denormal */
		0x00008000,			    /* denormal tie: to 0 */
		0x00018000,			    /* denormal tie: odd, up */
		0x007fffff, /* largest denormal: rounds to FLT_MIN */
		0x80008001,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(picks) / sizeof(picks[0]); i++)
		check_bf16(bitsf(picks[i]));
	assert_int_equal(df_f32_to_bf16_rne(1.0f), 0x3f80);
	assert_int_equal(df_f32_to_bf16_rne(bitsf(0x3f818000)), 0x3f82);
	assert_int_equal(df_f32_to_bf16_rne(bitsf(0x7f7fffff)), 0x7f80);
	assert_int_equal(df_f32_to_bf16_rne(-0.0f), 0x8000);
	assert_int_equal(df_f32_to_bf16_rne(bitsf(0x7fc00001)), 0x7fc0);
	assert_int_equal(df_f32_to_bf16_rne(bitsf(0xff800001)), 0x7fc0);
	assert_int_equal(df_f32_to_bf16_trunc(bitsf(0x3f81ffff)), 0x3f81);
	assert_int_equal(df_f32_to_bf16_trunc(bitsf(0x7f800001)), 0x7fc0);
	assert_int_equal(df_f32_to_bf16_trunc(bitsf(0xbf81ffff)), 0xbf81);
	for (int i = 0; i < 200000; i++) {
		uint32_t u = rand32();

		if ((u & 0x7fffffff) <= 0x7f800000)
			check_bf16(bitsf(u));
	}
	for (uint32_t h = 0; h < 0x10000; h++) {
		float f = df_bf16_to_f32((uint16_t)h);

		assert_int_equal(fbits(f), h << 16);
	}
}

static void check_f16(float f)
{
	uint16_t got = df_f32_to_f16(f);

	if (got != ref_f16(f))
		fail_msg("f16(%a = %08x) = %04x, want %04x", (double)f,
			 fbits(f), got, ref_f16(f));
}

static void test_f16(void **state)
{
	static const float picks[] = {
		1.0f,
		65504.0f,
		65519.99f,
		65520.0f,
		65536.0f,
		1e10f,
		0x1p-14f,	 /* least normal */
		0x1p-24f,	 /* least subnormal */
		0x1p-25f,	 /* tie with 0: to 0 */
		0x1.000002p-25f, /* just above: rounds up */
		0x3p-25f,	 /* tie between 1 and 2 units: 2 */
		0x1.ffcp-15f,	 /* largest subnormal */
		0x1.ffep-15f,	 /* tie: rounds to least normal */
		0x1.002p0f,	 /* tie, even: 1.0 */
		0x1.006p0f,	 /* tie, odd: up */
		-0.0f,
		-1e-30f,
		3.14159f,
		-2.71828f,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(picks) / sizeof(picks[0]); i++)
		check_f16(picks[i]);
	assert_int_equal(df_f32_to_f16(65520.0f), 0x7c00);
	assert_int_equal(df_f32_to_f16(-1e10f), 0xfc00);
	assert_int_equal(df_f32_to_f16(bitsf(0x7f800000)), 0x7c00);
	assert_int_equal(df_f32_to_f16(0x1p-24f), 0x0001);
	assert_int_equal(df_f32_to_f16(0x1p-25f), 0x0000);
	assert_int_equal(df_f32_to_f16(-0.0f), 0x8000);
	assert_int_equal(df_f32_to_f16(bitsf(0x7f800001)) & 0x7e00, 0x7e00);
	assert_int_equal(df_f32_to_f16(bitsf(0xffc00000)), 0xfe00);
	for (int i = 0; i < 200000; i++) {
		uint32_t u = rand32();

		/* Bias toward the half range: exponents 96..160. */
		if (i & 1)
			u = (u & 0x807fffff) | ((96 + (u >> 24) % 64) << 23);
		if ((u & 0x7fffffff) <= 0x7f800000)
			check_f16(bitsf(u));
	}
	for (uint32_t h = 0; h < 0x10000; h++) {
		float f = df_f16_to_f32((uint16_t)h);
		double want = f16_val(h & 0x7fff);

		if ((h & 0x7c00) == 0x7c00) {
			assert_true((h & 0x3ff)
					    ? f != f
					    : fbits(f) == ((h & 0x8000) << 16 |
							   0x7f800000));
			continue;
		}
		if (h & 0x8000)
			want = -want;
		assert_true((double)f == want);
		assert_int_equal(fbits(f) >> 31, h >> 15);
		assert_int_equal(df_f32_to_f16(f), h); /* round trip */
	}
}

static void test_int_scalars(void **state)
{
	static const float v[] = {
		0.5f,	       1.5f,	      2.5f,	   -0.5f,   -1.5f,
		-2.5f,	       127.4f,	      127.5f,	   -128.5f, -129.0f,
		255.5f,	       254.5f,	      1e20f,	   -1e20f,  65535.5f,
		2147483520.0f, 4294967040.0f, 0.49999997f, -0.0f,   3.7f};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(df_f32_to_i8(v[i]), ref_int(v[i], -128, 127));
		assert_int_equal(df_f32_to_u8(v[i]), ref_int(v[i], 0, 255));
		assert_int_equal(df_f32_to_u16(v[i]), ref_int(v[i], 0, 65535));
		assert_int_equal(df_f32_to_i32(v[i]),
				 ref_int(v[i], INT32_MIN, INT32_MAX));
		assert_int_equal(df_f32_to_u32(v[i]),
				 ref_int(v[i], 0, UINT32_MAX));
	}
	assert_int_equal(df_f32_to_i8(2.5f), 2);
	assert_int_equal(df_f32_to_i8(-2.5f), -2);
	assert_int_equal(df_f32_to_i8(3.5f), 4);
	assert_int_equal(df_f32_to_i8(1000.0f), 127);
	assert_int_equal(df_f32_to_i8(-1000.0f), -128);
	assert_int_equal(df_f32_to_u8(-3.0f), 0);
	assert_int_equal(df_f32_to_u8(300.0f), 255);
	assert_int_equal(df_f32_to_i32(3e9f), INT32_MAX);
	assert_int_equal(df_f32_to_i32(-3e9f), INT32_MIN);
	assert_int_equal(df_f32_to_u32(5e9f), UINT32_MAX);
	assert_int_equal(df_f32_to_i32(bitsf(0x7fc00000)), 0);
	assert_int_equal(df_f32_to_u16(bitsf(0x7f800001)), 0);
	assert_int_equal(df_f32_to_u16(bitsf(0x7f800000)), 65535);
}

/* ---- bulk conversion ---- */

/* Exact value of an element (independent decoder). */
static double ref_load(enum df_format f, const uint8_t *p)
{
	uint16_t h;
	uint32_t w;

	if (f == DF_INT8)
		return (int8_t)*p;
	if (f == DF_UINT8)
		return *p;
	if (df_elem_bytes(f) == 2) {
		memcpy(&h, p, 2);
		if (f == DF_UINT16)
			return h;
		if (f == DF_FLOAT16_B)
			return (double)bitsf((uint32_t)h << 16);
		if ((h & 0x7c00) == 0x7c00)
			return (h & 0x3ff)    ? 0.0 / 0.0
			       : (h & 0x8000) ? -1.0 / 0.0
					      : 1.0 / 0.0;
		return (h & 0x8000) ? -f16_val(h & 0x7fff) : f16_val(h);
	}
	memcpy(&w, p, 4);
	if (f == DF_INT32)
		return (int32_t)w;
	if (f == DF_UINT32)
		return w;
	return (double)bitsf(w);
}

/* Expected encoding of the exact value d in format f. */
static void ref_store(enum df_format f, uint8_t *p, double d)
{
	uint16_t h = 0;
	uint32_t w;
	float fl;

	switch (f) {
	case DF_INT8:
		*p = (uint8_t)(int8_t)ref_int(d, -128, 127);
		return;
	case DF_UINT8:
		*p = (uint8_t)ref_int(d, 0, 255);
		return;
	case DF_UINT16:
		h = (uint16_t)ref_int(d, 0, 65535);
		break;
	case DF_FLOAT16:
		h = d != d ? 0x7e00 : ref_f16(d);
		break;
	case DF_FLOAT16_B:
		h = ref_bf16(d);
		break;
	case DF_INT32:
		w = (uint32_t)(int32_t)ref_int(d, INT32_MIN, INT32_MAX);
		memcpy(p, &w, 4);
		return;
	case DF_UINT32:
		w = (uint32_t)ref_int(d, 0, UINT32_MAX);
		memcpy(p, &w, 4);
		return;
	default:
		fl = (float)d;
		memcpy(p, &fl, 4);
		return;
	}
	memcpy(p, &h, 2);
}

static bool same_elem(enum df_format f, const uint8_t *a, const uint8_t *b)
{
	double x, y;

	if (!memcmp(a, b, df_elem_bytes(f)))
		return true;
	x = ref_load(f, a);
	y = ref_load(f, b);
	return x != x && y != y; /* any NaN for a NaN */
}

static const double samples[] = {
	0,	    1,		-1,	      2.5,	     -2.5,	 3.5,
	0.1,	    -0.3,	100.49,	      127.5,	     128,	 -128.5,
	255.5,	    256,	300.7,	      -1000,	     65504,	 65519,
	65520,	    65535.5,	1e5,	      -7e6,	     16777217,	 2.0e9,
	-2.2e9,	    4.2e9,	1e12,	      3e-5,	     6e-8,	 1e-9,
	33554435,   2147483647, 4294967295.0, -2147483648.0, 1.00390625, 257,
	0x1.0081p0,
};
#define N_SAMPLES (sizeof(samples) / sizeof(samples[0]))

/* samples in format f (via the references), n elements. */
static uint8_t *make_src(enum df_format f)
{
	uint8_t *s = xmalloc(N_SAMPLES * df_elem_bytes(f));

	for (size_t i = 0; i < N_SAMPLES; i++)
		ref_store(f, s + i * df_elem_bytes(f), samples[i]);
	return s;
}

/* from's values are all exactly representable in to. */
static bool lossless(enum df_format to, enum df_format from)
{
	static const struct {
		enum df_format from, to[5];
	} t[] = {
		{DF_FLOAT16, {DF_FLOAT32}},
		{DF_FLOAT16_B, {DF_FLOAT32}},
		{DF_INT8, {DF_FLOAT32, DF_FLOAT16, DF_FLOAT16_B, DF_INT32}},
		{DF_UINT8,
		 {DF_FLOAT32, DF_FLOAT16, DF_FLOAT16_B, DF_INT32, DF_UINT16}},
		{DF_UINT16, {DF_FLOAT32, DF_INT32, DF_UINT32}},
	};

	if (to == from)
		return true;
	if (from == DF_UINT8 && to == DF_UINT32)
		return true;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].from == from)
			for (int j = 0; j < 5 && t[i].to[j]; j++)
				if (t[i].to[j] == to)
					return true;
	return false;
}

static void test_convert_pairs(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_FLAT; i++)
		for (size_t j = 0; j < N_FLAT; j++) {
			enum df_format from = flat_fmts[i], to = flat_fmts[j];
			size_t fs = df_elem_bytes(from), ts = df_elem_bytes(to);
			uint8_t *src = make_src(from);
			uint8_t *dst = xmalloc(N_SAMPLES * ts);
			uint8_t *back = xmalloc(N_SAMPLES * fs);
			uint8_t want[4];

			assert_int_equal(df_convert(to, dst, N_SAMPLES * ts,
						    from, src, N_SAMPLES * fs,
						    N_SAMPLES),
					 0);
			for (size_t k = 0; k < N_SAMPLES; k++) {
				ref_store(to, want,
					  ref_load(from, src + k * fs));
				if (!same_elem(to, want, dst + k * ts))
					fail_msg("%s -> %s: sample %zu (%g)",
						 df_name(from), df_name(to), k,
						 ref_load(from, src + k * fs));
			}
			if (lossless(to, from)) {
				assert_int_equal(df_convert(from, back,
							    N_SAMPLES * fs, to,
							    dst, N_SAMPLES * ts,
							    N_SAMPLES),
						 0);
				for (size_t k = 0; k < N_SAMPLES; k++)
					assert_true(same_elem(from,
							      src + k * fs,
							      back + k * fs));
			}
			free(src);
			free(dst);
			free(back);
		}
}

/* The fast paths on many random values, against the scalar functions. */
static void test_convert_fast(void **state)
{
	enum { N = 4097 };
	uint32_t *f = xmalloc(N * 4), *g = xmalloc(N * 4);
	uint16_t *h = xmalloc(N * 2);

	(void)state;
	for (int i = 0; i < N; i++)
		f[i] = rand32();
	assert_int_equal(
		df_convert(DF_FLOAT16_B, h, N * 2, DF_FLOAT32, f, N * 4, N), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(h[i], ref_bf16(bitsf(f[i])));
	assert_int_equal(
		df_convert(DF_FLOAT32, g, N * 4, DF_FLOAT16_B, h, N * 2, N), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(g[i], (uint32_t)h[i] << 16);
	assert_int_equal(
		df_convert(DF_FLOAT16, h, N * 2, DF_FLOAT32, f, N * 4, N), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(h[i], df_f32_to_f16(bitsf(f[i])));
	assert_int_equal(
		df_convert(DF_FLOAT32, g, N * 4, DF_FLOAT16, h, N * 2, N), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(g[i], fbits(df_f16_to_f32(h[i])));
	assert_int_equal(
		df_convert(DF_UINT32, g, N * 4, DF_UINT32, f, N * 4, N), 0);
	assert_memory_equal(f, g, N * 4);
	free(f);
	free(g);
	free(h);
}

static void test_convert_hostile(void **state)
{
	uint8_t src[16] = {0}, dst[16];

	(void)state;
	memset(dst, 0x5a, sizeof(dst));
	assert_int_equal(
		df_convert(DF_FLOAT32, dst, 15, DF_FLOAT16_B, src, 8, 4),
		-ENOBUFS);
	assert_int_equal(
		df_convert(DF_FLOAT32, dst, 16, DF_FLOAT16_B, src, 7, 4),
		-ENOBUFS);
	for (size_t i = 0; i < sizeof(dst); i++)
		assert_int_equal(dst[i], 0x5a);
	assert_int_equal(df_convert(DF_FLOAT32, dst, 16, DF_FLOAT32, src, 16,
				    SIZE_MAX / 2),
			 -EOVERFLOW);
	assert_int_equal(df_convert(DF_BFP8_B, dst, 16, DF_FLOAT32, src, 16, 1),
			 -EINVAL);
	assert_int_equal(df_convert(DF_FLOAT32, dst, 16, DF_BFP8, src, 16, 1),
			 -ENOTSUP);
	assert_int_equal(
		df_convert((enum df_format)4, dst, 16, DF_FLOAT32, src, 16, 1),
		-EINVAL);
	assert_int_equal(
		df_convert(DF_FLOAT32, dst, 16, (enum df_format)99, src, 16, 1),
		-EINVAL);
	assert_int_equal(
		df_convert(DF_FLOAT32, NULL, 16, DF_FLOAT32, src, 16, 1),
		-EINVAL);
	assert_int_equal(
		df_convert(DF_FLOAT32, NULL, 0, DF_FLOAT32, NULL, 0, 0), 0);
}

/* ---- tilize ---- */

static const size_t shapes[][2] = {
	{32, 32}, {64, 96}, {1, 1}, {33, 17}, {40, 70}, {100, 5}, {16, 48},
};
#define N_SHAPES (sizeof(shapes) / sizeof(shapes[0]))

static size_t tiles_of(size_t rows, size_t cols)
{
	return ((rows + 31) / 32) * ((cols + 31) / 32);
}

/* Offset in elements of matrix element (r, c) in the tiled layout. */
static size_t tiled_index(size_t r, size_t c, size_t cols)
{
	size_t tcols = (cols + 31) / 32, tile = (r / 32) * tcols + c / 32;
	size_t tr = r % 32, tc = c % 32;
	size_t face = (tr / 16) * 2 + tc / 16;

	return tile * 1024 + face * 256 + (tr % 16) * 16 + tc % 16;
}

static void check_tilize_shape(size_t rows, size_t cols, size_t es)
{
	size_t n = rows * cols, nt = tiles_of(rows, cols) * 1024;
	uint8_t *src = xmalloc(n * es), *t = xmalloc(nt * es);
	uint8_t *back = xmalloc(n * es), pad[8];
	bool *seen = calloc(nt, 1);

	assert_non_null(seen);
	for (size_t i = 0; i < n * es; i++)
		src[i] = (uint8_t)(i * 7 + i / 251 + 1);
	memset(pad, 0xee, sizeof(pad));
	assert_int_equal(
		df_tilize(t, nt * es, src, n * es, rows, cols, es, pad), 0);
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++) {
			size_t k = tiled_index(r, c, cols);

			assert_memory_equal(t + k * es,
					    src + (r * cols + c) * es, es);
			seen[k] = true;
		}
	for (size_t k = 0; k < nt; k++)
		if (!seen[k])
			assert_memory_equal(t + k * es, pad, es);
	assert_int_equal(df_untilize(back, n * es, t, nt * es, rows, cols, es),
			 0);
	assert_memory_equal(back, src, n * es);
	/* Zero padding by default. */
	assert_int_equal(
		df_tilize(t, nt * es, src, n * es, rows, cols, es, NULL), 0);
	for (size_t k = 0; k < nt; k++)
		if (!seen[k])
			for (size_t b = 0; b < es; b++)
				assert_int_equal(t[k * es + b], 0);
	free(src);
	free(t);
	free(back);
	free(seen);
}

static void test_tilize_placement(void **state)
{
	static const size_t sizes[] = {1, 2, 4, 3, 8};

	(void)state;
	for (size_t s = 0; s < N_SHAPES; s++)
		for (size_t e = 0; e < sizeof(sizes) / sizeof(sizes[0]); e++)
			check_tilize_shape(shapes[s][0], shapes[s][1],
					   sizes[e]);
	/* The example of metal.md 4.1: faces of a bf16 tile 0x200 apart. */
	assert_int_equal(tiled_index(0, 16, 32) * 2, 0x200);
	assert_int_equal(tiled_index(16, 0, 32) * 2, 0x400);
	assert_int_equal(tiled_index(31, 31, 32), 1023);
}

/* Fused tilize+convert equals convert then tilize, for every pair. */
static void test_tilize_convert(void **state)
{
	(void)state;
	for (size_t s = 0; s < N_SHAPES; s++)
		for (size_t i = 0; i < N_FLAT; i++)
			for (size_t j = 0; j < N_FLAT; j++) {
				enum df_format from = flat_fmts[i];
				enum df_format to = flat_fmts[j];
				size_t rows = shapes[s][0], cols = shapes[s][1];
				size_t n = rows * cols,
				       nt = tiles_of(rows, cols);
				size_t fs = df_elem_bytes(from);
				size_t ts = df_elem_bytes(to);
				uint8_t *src = xmalloc(n * fs);
				uint8_t *conv = xmalloc(n * ts);
				uint8_t *want = xmalloc(nt * 1024 * ts);
				uint8_t *got = xmalloc(nt * 1024 * ts);
				uint8_t *back = xmalloc(n * ts);

				for (size_t k = 0; k < n; k++)
					ref_store(from, src + k * fs,
						  samples[k % N_SAMPLES] *
							  (k % 3 ? 1 : -1));
				assert_int_equal(df_convert(to, conv, n * ts,
							    from, src, n * fs,
							    n),
						 0);
				assert_int_equal(df_tilize(want, nt * 1024 * ts,
							   conv, n * ts, rows,
							   cols, ts, NULL),
						 0);
				assert_int_equal(
					df_tilize_convert(
						to, got, nt * 1024 * ts, from,
						src, n * fs, rows, cols),
					0);
				assert_memory_equal(got, want, nt * 1024 * ts);
				/* Untilize back into the same format. */
				assert_int_equal(df_untilize_convert(
							 to, back, n * ts, to,
							 got, nt * 1024 * ts,
							 rows, cols),
						 0);
				assert_memory_equal(back, conv, n * ts);
				/* Untilize converting: to -> from. */
				free(back);
				back = xmalloc(n * fs);
				assert_int_equal(df_untilize_convert(
							 from, back, n * fs, to,
							 got, nt * 1024 * ts,
							 rows, cols),
						 0);
				for (size_t k = 0; k < n; k++) {
					uint8_t w8[4];

					ref_store(from, w8,
						  ref_load(to, conv + k * ts));
					assert_true(same_elem(from, w8,
							      back + k * fs));
				}
				free(src);
				free(conv);
				free(want);
				free(got);
				free(back);
			}
}

static void test_tilize_hostile(void **state)
{
	uint8_t *src = xmalloc(40 * 40 * 4), *dst = xmalloc(4 * 4096);
	size_t sl = 40 * 40 * 4, dl = 4 * 4096;

	(void)state;
	memset(src, 1, sl);
	memset(dst, 0x5a, dl);
	assert_int_equal(df_tilize(dst, dl - 1, src, sl, 40, 40, 4, NULL),
			 -ENOBUFS);
	assert_int_equal(df_tilize(dst, dl, src, sl - 1, 40, 40, 4, NULL),
			 -ENOBUFS);
	assert_int_equal(df_tilize(dst, dl, src, sl, 0, 40, 4, NULL), -EINVAL);
	assert_int_equal(df_tilize(dst, dl, src, sl, 40, 0, 4, NULL), -EINVAL);
	assert_int_equal(df_tilize(dst, dl, src, sl, 40, 40, 0, NULL), -EINVAL);
	/* elements of up to 16 bytes; 17 is refused even with room for it */
	uint8_t *big = xmalloc(2 * 32 * 32 * 17);

	memset(big, 3, 32 * 32 * 17);
	assert_int_equal(df_tilize(big + 32 * 32 * 17, 32 * 32 * 17, big,
				   32 * 32 * 17, 32, 32, 16, NULL),
			 0);
	assert_int_equal(df_tilize(big + 32 * 32 * 17, 32 * 32 * 17, big,
				   32 * 32 * 17, 32, 32, 17, NULL),
			 -EINVAL);
	assert_int_equal(df_untilize(big + 32 * 32 * 17, 32 * 32 * 17, big,
				     32 * 32 * 17, 32, 32, 17),
			 -EINVAL);
	free(big);
	assert_int_equal(
		df_tilize(dst, dl, src, sl, SIZE_MAX / 64, 1 << 20, 4, NULL),
		-EOVERFLOW);
	assert_int_equal(
		df_tilize(dst, dl, src, sl, SIZE_MAX, SIZE_MAX, 1, NULL),
		-EOVERFLOW);
	assert_int_equal(df_untilize(src, sl - 1, dst, dl, 40, 40, 4),
			 -ENOBUFS);
	assert_int_equal(df_untilize(src, sl, dst, dl - 1, 40, 40, 4),
			 -ENOBUFS);
	assert_int_equal(df_untilize(src, sl, dst, dl, 40, 0, 4), -EINVAL);
	assert_int_equal(df_tilize_convert(DF_FLOAT16_B, dst, 2 * 4 * 1024 - 1,
					   DF_FLOAT32, src, sl, 40, 40),
			 -ENOBUFS);
	assert_int_equal(df_tilize_convert(DF_FLOAT16_B, dst, dl, DF_FLOAT32,
					   src, sl - 1, 40, 40),
			 -ENOBUFS);
	assert_int_equal(df_tilize_convert(DF_BFP8_B, dst, 4 * 1088 - 1,
					   DF_FLOAT32, src, sl, 40, 40),
			 -ENOBUFS);
	assert_int_equal(df_tilize_convert(DF_FLOAT16_B, dst, dl, DF_FLOAT32,
					   src, sl, 0, 40),
			 -EINVAL);
	assert_int_equal(df_tilize_convert(DF_FLOAT16_B, dst, dl, DF_FLOAT32,
					   src, sl, SIZE_MAX, SIZE_MAX),
			 -EOVERFLOW);
	assert_int_equal(df_tilize_convert(DF_BFP8, dst, dl, DF_FLOAT32, src,
					   sl, 40, 40),
			 -ENOTSUP);
	assert_int_equal(df_tilize_convert(DF_FLOAT32, dst, dl, DF_BFP8_B, src,
					   sl, 40, 40),
			 -EINVAL);
	assert_int_equal(df_tilize_convert((enum df_format)12, dst, dl,
					   DF_FLOAT32, src, sl, 40, 40),
			 -EINVAL);
	assert_int_equal(df_untilize_convert(DF_BFP4_B, src, sl, DF_FLOAT32,
					     dst, dl, 40, 40),
			 -EINVAL);
	assert_int_equal(df_untilize_convert(DF_FLOAT32, src, sl, DF_BFP2, dst,
					     dl, 40, 40),
			 -ENOTSUP);
	assert_int_equal(df_untilize_convert(DF_FLOAT32, src, sl, DF_BFP8_B,
					     dst, 4 * 1088 - 1, 40, 40),
			 -ENOBUFS);
	assert_int_equal(df_untilize_convert(DF_FLOAT32, src, sl - 1, DF_BFP8_B,
					     dst, dl, 40, 40),
			 -ENOBUFS);
	for (size_t i = 0; i < dl; i++)
		assert_int_equal(dst[i], 0x5a);
	assert_int_equal(df_tilize(NULL, dl, src, sl, 40, 40, 4, NULL),
			 -EINVAL);
	free(src);
	free(dst);
}

/* ---- block floating point ---- */

static unsigned mag_bits(enum df_format f)
{
	return f == DF_BFP8_B ? 7 : f == DF_BFP4_B ? 3 : 1;
}

/* Code of element i (tile order) of an encoded tile, read by hand. */
static unsigned code_at(enum df_format f, const uint8_t *tile, unsigned i)
{
	unsigned bits = mag_bits(f) + 1, per = 8 / bits;

	return (tile[64 + i / per] >> ((i % per) * bits)) & ((1u << bits) - 1);
}

/* Encode a tile whose row `row` (0..63, face-major) is v[0..15], all
 * other rows zero. Returns a malloc'd tile of exactly its size. */
static uint8_t *encode_row(enum df_format f, unsigned row, const float *v)
{
	float tile[1024] = {0};
	uint8_t *t = xmalloc(df_tile_bytes(f));

	memcpy(&tile[row * 16], v, 16 * sizeof(float));
	assert_int_equal(df_bfp_encode_tile(f, t, tile), 0);
	return t;
}

static void test_bfp_identical(void **state)
{
	float ones[16], neg[16];

	(void)state;
	for (int i = 0; i < 16; i++) {
		ones[i] = 1.0f;
		neg[i] = -1.0f;
	}
	for (size_t k = 0; k < 3; k++) {
		enum df_format f = block_fmts[k];
		unsigned w = mag_bits(f), lead = 1u << (w - 1);
		uint8_t *t = encode_row(f, 0, ones), *u;
		float back[1024];

		assert_int_equal(t[0], 127);
		for (unsigned i = 1; i < 64; i++)
			assert_int_equal(t[i], 0);
		for (unsigned i = 0; i < 16; i++)
			assert_int_equal(code_at(f, t, i), lead);
		/* Whole bytes: 0x40 / 0x44 / 0x55. */
		assert_int_equal(t[64], f == DF_BFP8_B	 ? 0x40
					: f == DF_BFP4_B ? 0x44
							 : 0x55);
		for (unsigned i = 16; i < 1024; i++)
			assert_int_equal(code_at(f, t, i), 0);
		u = encode_row(f, 0, neg);
		assert_int_equal(u[64], f == DF_BFP8_B	 ? 0xc0
					: f == DF_BFP4_B ? 0xcc
							 : 0xff);
		assert_int_equal(df_bfp_decode_tile(f, back, u), 0);
		for (unsigned i = 0; i < 16; i++)
			assert_true(back[i] == -1.0f);
		assert_true(back[16] == 0.0f);
		free(t);
		free(u);
	}
}

static void test_bfp_exponents(void **state)
{
	/* Max 4.0 (E = 129): smaller values lose bits, tiny ones vanish. */
	const float v[16] = {4.0f,	1.0f,	  0.5f,	     3.0f,
			     -1.5f,	0x1p-10f, 0.3f,	     -0.0f,
			     0.0f,	2.75f,	  0x1.fcp1f, 0x1p-5f,
			     0x1.8p-6f, 0x1p-6f,  -4.0f,     1.25f};
	/* Bfp8 (unit 2^(129-127-6) = 1/16): value*16, rounded to even. */
	static const unsigned m8[16] = {64, 16, 8,	   48, 0x80 | 24, 0,
					5,  0,	0,	   44, 64,	  0,
					0,  0,	0x80 | 64, 20};
	/* Bfp4 (unit 1): 4, 1, 0.5->0 (tie even), 3, -1.5 -> 2, ... */
	static const unsigned m4[16] = {4, 1, 0, 3, 8 | 2, 0, 0,     0,
					0, 3, 4, 0, 0,	   0, 8 | 4, 1};
	/* Bfp2 (unit 4): only 4.0 and values >= 2 survive... and tie 2 -> 0. */
	static const unsigned m2[16] = {1, 0, 0, 1, 0, 0, 0,	 0,
					0, 1, 1, 0, 0, 0, 2 | 1, 0};
	static const enum df_format fs[3] = {DF_BFP8_B, DF_BFP4_B, DF_BFP2_B};
	const unsigned *want[3] = {m8, m4, m2};

	(void)state;
	for (int k = 0; k < 3; k++) {
		uint8_t *t = encode_row(fs[k], 0, v);

		assert_int_equal(t[0], 129);
		for (unsigned i = 0; i < 16; i++)
			if (code_at(fs[k], t, i) != want[k][i])
				fail_msg("%s elem %u: %x want %x",
					 df_name(fs[k]), i,
					 code_at(fs[k], t, i), want[k][i]);
		free(t);
	}
}

static void test_bfp_rounding(void **state)
{
	/* Bfp8, E = 127 (1.0 in the row): unit 2^-6. */
	const float v[16] = {
		1.0f,
		1.0f + 0x1p-7f,	  /* tie, 64 even: stays 64 */
		1.0f + 0x3p-7f,	  /* tie, 65 odd: 66 */
		1.0f + 0x1.2p-7f, /* above tie: 65 */
		0x1.fffffep0f,	  /* rounds to 128: saturates at 127 */
		0x1.fcp0f,	  /* 127 exactly */
		-0x1.fffffep0f,
		0x1p-7f,	/* half a unit, tie to 0 */
		0x1.000002p-7f, /* just above: 1 */
	};
	static const unsigned want[16] = {64, 64, 66, 65, 127, 127, 0xff, 0, 1};
	uint8_t *t = encode_row(DF_BFP8_B, 5, v);
	float back[1024];

	(void)state;
	assert_int_equal(t[5], 127);
	for (unsigned i = 0; i < 16; i++)
		if (code_at(DF_BFP8_B, t, 5 * 16 + i) != want[i])
			fail_msg("elem %u: %x want %x", i,
				 code_at(DF_BFP8_B, t, 5 * 16 + i), want[i]);
	assert_int_equal(df_bfp_decode_tile(DF_BFP8_B, back, t), 0);
	assert_true(back[5 * 16 + 4] == 127.0f / 64);
	assert_true(back[5 * 16 + 6] == -127.0f / 64);
	assert_true(back[5 * 16 + 2] == 66.0f / 64);
	free(t);
}

static void test_bfp_special(void **state)
{
	float v[16] = {0};
	uint8_t *t;
	float back[1024];

	(void)state;
	/* All zero (and -0): exponent 0, codes 0 with sign clear. */
	v[3] = -0.0f;
	t = encode_row(DF_BFP8_B, 0, v);
	assert_int_equal(t[0], 0);
	assert_int_equal(code_at(DF_BFP8_B, t, 3), 0);
	free(t);
	/* Denormals flush to zero, and do not set the exponent. */
	v[0] = bitsf(0x00400000);
	v[1] = -bitsf(0x007fffff);
	t = encode_row(DF_BFP4_B, 0, v);
	assert_int_equal(t[0], 0);
	assert_int_equal(code_at(DF_BFP4_B, t, 0), 0);
	assert_int_equal(code_at(DF_BFP4_B, t, 1), 0);
	free(t);
	v[2] = 0x1p-126f; /* least normal: exponent 1 */
	t = encode_row(DF_BFP8_B, 0, v);
	assert_int_equal(t[0], 1);
	assert_int_equal(code_at(DF_BFP8_B, t, 2), 64);
	assert_int_equal(code_at(DF_BFP8_B, t, 0), 0);
	assert_int_equal(df_bfp_decode_tile(DF_BFP8_B, back, t), 0);
	assert_true(back[2] == 0x1p-126f);
	free(t);
	/* inf -> max magnitude at exponent 254, NaN -> positive max. */
	memset(v, 0, sizeof(v));
	v[0] = bitsf(0x7f800000);
	v[1] = bitsf(0xff800000);
	v[2] = bitsf(0xffc00001);
	v[3] = 1.0f;
	v[4] = bitsf(0x7f7fffff);
	t = encode_row(DF_BFP8_B, 0, v);
	assert_int_equal(t[0], 254);
	assert_int_equal(code_at(DF_BFP8_B, t, 0), 0x7f);
	assert_int_equal(code_at(DF_BFP8_B, t, 1), 0xff);
	assert_int_equal(code_at(DF_BFP8_B, t, 2), 0x7f);
	assert_int_equal(code_at(DF_BFP8_B, t, 3), 0);
	assert_int_equal(code_at(DF_BFP8_B, t, 4), 0x7f);
	assert_int_equal(df_bfp_decode_tile(DF_BFP8_B, back, t), 0);
	assert_true(back[0] == 0x1.fcp127f);
	assert_true(back[1] == -0x1.fcp127f);
	free(t);
	assert_int_equal(df_bfp_encode_tile(DF_FLOAT32, back, back), -EINVAL);
	assert_int_equal(df_bfp_encode_tile(DF_BFP8, back, back), -EINVAL);
	assert_int_equal(df_bfp_decode_tile(DF_BFP4, back, back), -EINVAL);
}

static void test_bfp_layout(void **state)
{
	float tile[1024] = {0};
	uint8_t t8[1088], t4[576], t2[320];
	float back[1024];

	(void)state;
	/* Each row r gets max 2^(r-32): exponent byte r = 95 + r. */
	for (unsigned r = 0; r < 64; r++)
		tile[r * 16 + r % 16] = p2((int)r - 32);
	assert_int_equal(df_bfp_encode_tile(DF_BFP8_B, t8, tile), 0);
	for (unsigned r = 0; r < 64; r++)
		assert_int_equal(t8[r], 95 + r);
	/* Element 0 in the least significant bits. */
	memset(tile, 0, sizeof(tile));
	tile[0] = 1.0f;
	tile[17] = -1.0f; /* row 1, element 1 */
	assert_int_equal(df_bfp_encode_tile(DF_BFP4_B, t4, tile), 0);
	assert_int_equal(t4[64], 0x04);
	assert_int_equal(t4[64 + 8], 0xc0);
	assert_int_equal(df_bfp_encode_tile(DF_BFP2_B, t2, tile), 0);
	assert_int_equal(t2[64], 0x01);
	assert_int_equal(t2[64 + 4], 0x0c);
	/* Decoding hand-built bytes: E = 130, code -5 -> -5 * 2^(3-6). */
	memset(t8, 0, sizeof(t8));
	t8[2] = 130;
	t8[64 + 32 + 1] = 0x85;
	assert_int_equal(df_bfp_decode_tile(DF_BFP8_B, back, t8), 0);
	assert_true(back[33] == -0.625f);
	assert_true(back[32] == 0.0f);
	/* Bfp2: E = 127, code 1 in bits 2..3 of byte 0 -> element 1 = 1.0 */
	memset(t2, 0, sizeof(t2));
	t2[0] = 127;
	t2[64] = 0x04;
	assert_int_equal(df_bfp_decode_tile(DF_BFP2_B, back, t2), 0);
	assert_true(back[1] == 1.0f && back[0] == 0.0f);
}

static float rand_float(void)
{
	/* Random sign and significand, exponents over 2^-20..2^20. */
	uint32_t u = rand32();

	return bitsf((u & 0x807fffffu) | ((107u + rand32() % 40) << 23));
}

/* Per 16-element row, |x - decoded| <= 2^-(w-1) * max |x|. */
static void check_row_error(enum df_format f, const float *x, const float *y)
{
	double max = 0, bound;

	for (int i = 0; i < 16; i++)
		if (x[i] > max || -x[i] > max)
			max = x[i] < 0 ? -x[i] : x[i];
	bound = max * p2(-(int)(mag_bits(f) - 1));
	for (int i = 0; i < 16; i++) {
		double e = (double)x[i] - (double)y[i];

		if (e > bound || -e > bound)
			fail_msg("%s: %a decoded %a, row max %a", df_name(f),
				 (double)x[i], (double)y[i], max);
	}
}

static void test_bfp_roundtrip(void **state)
{
	static const size_t dims[][2] = {{64, 96}, {40, 50}, {1, 3}};

	(void)state;
	for (size_t k = 0; k < 3; k++)
		for (size_t d = 0; d < 3; d++) {
			enum df_format f = block_fmts[k];
			size_t rows = dims[d][0], cols = dims[d][1];
			size_t n = rows * cols;
			size_t tl = tiles_of(rows, cols) * df_tile_bytes(f);
			float *x = xmalloc(n * 4), *y = xmalloc(n * 4);
			float *xt = xmalloc(tiles_of(rows, cols) * 4096);
			float *yt = xmalloc(tiles_of(rows, cols) * 4096);
			uint8_t *t = xmalloc(tl);

			for (size_t i = 0; i < n; i++)
				x[i] = rand_float();
			assert_int_equal(df_tilize_convert(f, t, tl, DF_FLOAT32,
							   x, n * 4, rows,
							   cols),
					 0);
			assert_int_equal(df_untilize_convert(DF_FLOAT32, y,
							     n * 4, f, t, tl,
							     rows, cols),
					 0);
			/* Compare row by row in tile order. */
			assert_int_equal(
				df_tilize(xt, tiles_of(rows, cols) * 4096, x,
					  n * 4, rows, cols, 4, NULL),
				0);
			assert_int_equal(
				df_tilize(yt, tiles_of(rows, cols) * 4096, y,
					  n * 4, rows, cols, 4, NULL),
				0);
			for (size_t r = 0; r < tiles_of(rows, cols) * 64; r++)
				check_row_error(f, xt + r * 16, yt + r * 16);
			/* Other formats through the block ones. */
			if (d == 0) {
				uint16_t *h = xmalloc(n * 2);
				int8_t *i8 = xmalloc(n);

				assert_int_equal(df_untilize_convert(
							 DF_FLOAT16_B, h, n * 2,
							 f, t, tl, rows, cols),
						 0);
				assert_int_equal(
					df_untilize_convert(DF_INT8, i8, n, f,
							    t, tl, rows, cols),
					0);
				for (size_t i = 0; i < n; i++) {
					assert_int_equal(h[i], ref_bf16(y[i]));
					assert_int_equal(
						i8[i],
						ref_int(y[i], -128, 127));
				}
				assert_int_equal(df_tilize_convert(
							 f, t, tl, DF_FLOAT16_B,
							 h, n * 2, rows, cols),
						 0);
				free(h);
				free(i8);
			}
			free(x);
			free(y);
			free(xt);
			free(yt);
			free(t);
		}
}

/* Tiles of `from` (rows x cols of quarter-integers) for the tile tests. */
static uint8_t *quarter_tiles(enum df_format from, size_t rows, size_t cols)
{
	size_t n = rows * cols, tb = tiles_of(rows, cols) * df_tile_bytes(from);
	float *m = xmalloc(n * 4);
	uint8_t *t = xmalloc(tb);

	for (size_t k = 0; k < n; k++)
		m[k] = (float)((int)(k * 53 % 401) - 200) * 0.25f;
	assert_int_equal(df_tilize_convert(from, t, tb, DF_FLOAT32, m, n * 4,
					   rows, cols),
			 0);
	free(m);
	return t;
}

/* Tiles to tiles, every pair of supported formats: the same bytes as
 * untilizing to fp32 and tilizing again (padding stays zero). */
static void test_convert_tiles(void **state)
{
	enum df_format all[N_FLAT + 3];
	const size_t rows = 40, cols = 70, nt = tiles_of(40, 70);

	(void)state;
	memcpy(all, flat_fmts, sizeof(flat_fmts));
	memcpy(all + N_FLAT, block_fmts, sizeof(block_fmts));
	for (size_t i = 0; i < N_FLAT + 3; i++)
		for (size_t j = 0; j < N_FLAT + 3; j++) {
			enum df_format from = all[i], to = all[j];
			size_t fb = nt * df_tile_bytes(from);
			size_t tb = nt * df_tile_bytes(to);
			uint8_t *src = quarter_tiles(from, rows, cols);
			uint8_t *got = xmalloc(tb), *want = xmalloc(tb);
			float *flat = xmalloc(rows * cols * 4);

			assert_int_equal(df_convert_tiles(to, got, tb, from,
							  src, fb, nt),
					 0);
			assert_int_equal(df_untilize_convert(DF_FLOAT32, flat,
							     rows * cols * 4,
							     from, src, fb,
							     rows, cols),
					 0);
			assert_int_equal(df_tilize_convert(to, want, tb,
							   DF_FLOAT32, flat,
							   rows * cols * 4,
							   rows, cols),
					 0);
			if (memcmp(got, want, tb))
				fail_msg("%s -> %s tiles differ", df_name(from),
					 df_name(to));
			free(src);
			free(got);
			free(want);
			free(flat);
		}
}

static void test_convert_tiles_hostile(void **state)
{
	uint8_t *src = quarter_tiles(DF_BFP8_B, 32, 32), *dst = xmalloc(2048);

	(void)state;
	assert_int_equal(df_convert_tiles(DF_FLOAT16_B, dst, 2047, DF_BFP8_B,
					  src, 1088, 1),
			 -ENOBUFS);
	assert_int_equal(df_convert_tiles(DF_FLOAT16_B, dst, 2048, DF_BFP8_B,
					  src, 1087, 1),
			 -ENOBUFS);
	assert_int_equal(df_convert_tiles(DF_FLOAT16_B, dst, 2048, DF_BFP8, src,
					  1088, 1),
			 -ENOTSUP);
	assert_int_equal(df_convert_tiles((enum df_format)4, dst, 2048,
					  DF_BFP8_B, src, 1088, 1),
			 -EINVAL);
	assert_int_equal(df_convert_tiles(DF_FLOAT16_B, dst, 2048, DF_BFP8_B,
					  src, 1088, SIZE_MAX / 1000),
			 -EOVERFLOW);
	assert_int_equal(df_convert_tiles(DF_FLOAT16_B, NULL, 0, DF_BFP8_B,
					  NULL, 0, 0),
			 0);
	assert_int_equal(df_convert_tiles(DF_FLOAT16_B, NULL, 2048, DF_BFP8_B,
					  src, 1088, 1),
			 -EINVAL);
	free(src);
	free(dst);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_bf16),
		cmocka_unit_test(test_f16),
		cmocka_unit_test(test_int_scalars),
		cmocka_unit_test(test_convert_pairs),
		cmocka_unit_test(test_convert_fast),
		cmocka_unit_test(test_convert_hostile),
		cmocka_unit_test(test_tilize_placement),
		cmocka_unit_test(test_tilize_convert),
		cmocka_unit_test(test_tilize_hostile),
		cmocka_unit_test(test_bfp_identical),
		cmocka_unit_test(test_bfp_exponents),
		cmocka_unit_test(test_bfp_rounding),
		cmocka_unit_test(test_bfp_special),
		cmocka_unit_test(test_bfp_layout),
		cmocka_unit_test(test_bfp_roundtrip),
		cmocka_unit_test(test_convert_tiles),
		cmocka_unit_test(test_convert_tiles_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
