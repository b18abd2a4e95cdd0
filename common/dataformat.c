// SPDX-License-Identifier: Apache-2.0
/*
 * Format table, scalar conversions and bulk row-major conversion (see
 * dataformat.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "dataformat.h"
#include "dataformat_impl.h"

struct fmt_info {
	enum df_format fmt;
	const char *name;
	size_t elem;  /* bytes per element, 0 for block formats */
	size_t tile;  /* bytes per 32x32 tile */
	unsigned mag; /* block formats: magnitude bits */
	bool supported;
};

static const struct fmt_info formats[] = {
	{DF_FLOAT32, "Float32", 4, 4096, 0, true},
	{DF_FLOAT16, "Float16", 2, 2048, 0, true},
	{DF_BFP8, "Bfp8", 0, 1088, 7, false},
	{DF_BFP4, "Bfp4", 0, 576, 3, false},
	{DF_FLOAT16_B, "Float16_b", 2, 2048, 0, true},
	{DF_BFP8_B, "Bfp8_b", 0, 1088, 7, true},
	{DF_BFP4_B, "Bfp4_b", 0, 576, 3, true},
	{DF_INT32, "Int32", 4, 4096, 0, true},
	{DF_UINT16, "UInt16", 2, 2048, 0, true},
	{DF_BFP2, "Bfp2", 0, 320, 1, false},
	{DF_INT8, "Int8", 1, 1024, 0, true},
	{DF_BFP2_B, "Bfp2_b", 0, 320, 1, true},
	{DF_UINT32, "UInt32", 4, 4096, 0, true},
	{DF_UINT8, "UInt8", 1, 1024, 0, true},
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

static const struct fmt_info *info(enum df_format fmt)
{
	for (size_t i = 0; i < N_FORMATS; i++)
		if (formats[i].fmt == fmt)
			return &formats[i];
	return NULL;
}

const char *df_name(enum df_format fmt)
{
	const struct fmt_info *fi = info(fmt);

	return fi ? fi->name : "Invalid";
}

enum df_format df_from_name(const char *name)
{
	static const struct {
		const char *alias;
		enum df_format fmt;
	} aliases[] = {
		{"bfloat16", DF_FLOAT16_B}, {"bf16", DF_FLOAT16_B},
		{"fp32", DF_FLOAT32},	    {"float32", DF_FLOAT32},
		{"fp16", DF_FLOAT16},	    {"float16", DF_FLOAT16},
	};

	if (!name)
		return DF_INVALID;
	for (size_t i = 0; i < N_FORMATS; i++)
		if (!strcasecmp(name, formats[i].name))
			return formats[i].fmt;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(name, aliases[i].alias))
			return aliases[i].fmt;
	return DF_INVALID;
}

bool df_is_block(enum df_format fmt)
{
	const struct fmt_info *fi = info(fmt);

	return fi && fi->mag;
}

bool df_is_supported(enum df_format fmt)
{
	const struct fmt_info *fi = info(fmt);

	return fi && fi->supported;
}

unsigned df_bfp_mag_bits(enum df_format fmt)
{
	const struct fmt_info *fi = info(fmt);

	return fi ? fi->mag : 0;
}

size_t df_elem_bytes(enum df_format fmt)
{
	const struct fmt_info *fi = info(fmt);

	return fi ? fi->elem : 0;
}

size_t df_tile_bytes(enum df_format fmt)
{
	const struct fmt_info *fi = info(fmt);

	return fi ? fi->tile : 0;
}

size_t df_bytes(enum df_format fmt, size_t n_elems)
{
	size_t e = df_elem_bytes(fmt), b;

	if (!e || __builtin_mul_overflow(e, n_elems, &b))
		return 0;
	return b;
}

/* ---- scalars ---- */

uint16_t df_f32_to_bf16_rne(float f)
{
	return df_bf16_rne_bits(df_f32_bits(f));
}

uint16_t df_f32_to_bf16_trunc(float f)
{
	uint32_t u = df_f32_bits(f);

	if ((u & 0x7fffffffu) > 0x7f800000u)
		return 0x7fc0;
	return (uint16_t)(u >> 16);
}

float df_bf16_to_f32(uint16_t h)
{
	return df_bits_f32((uint32_t)h << 16);
}

/* Round v right by s bits (1 <= s <= 31) to nearest, ties to even. */
static uint32_t shr_rne(uint32_t v, unsigned s)
{
	uint32_t q = v >> s, rem = v & ((1u << s) - 1), half = 1u << (s - 1);

	return q + (rem > half || (rem == half && (q & 1)));
}

uint16_t df_f32_to_f16(float f)
{
	uint32_t u = df_f32_bits(f), a = u & 0x7fffffffu;
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
	uint32_t e = a >> 23;

	if (a > 0x7f800000u) /* NaN: keep the top payload bits, set quiet */
		return sign | 0x7e00u | (uint16_t)((a >> 13) & 0x3ffu);
	if (a >= 0x477ff000u) /* >= 65520 rounds past 65504, the largest */
		return sign | 0x7c00u;
	if (a <= 0x33000000u) /* <= 2^-25: half the least subnormal, even */
		return sign;
	if (e < 113) /* below 2^-14: subnormal, unit 2^-24 */
		return sign |
		       (uint16_t)shr_rne((a & 0x7fffffu) | 0x800000u, 126 - e);
	/* Normal: rebias and round; a carry into the exponent is right. */
	return sign | (uint16_t)shr_rne(a - (112u << 23), 13);
}

float df_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
	float v;

	if (e == 0) {
		v = (float)m * 0x1p-24f; /* exact: m < 2^10 */
		return df_bits_f32(df_f32_bits(v) | sign);
	}
	if (e == 31)
		return df_bits_f32(sign | 0x7f800000u | (m << 13));
	return df_bits_f32(sign | ((e + 112) << 23) | (m << 13));
}

/* Round d to an integer, ties to even, clamped to [lo, hi]; NaN -> 0.
 * d comes from a float or a 32-bit integer, so every step is exact. */
static int64_t round_clamp(double d, int64_t lo, int64_t hi)
{
	int64_t t;
	double frac;

	if (d != d)
		return 0;
	if (d <= (double)lo)
		return lo;
	if (d >= (double)hi)
		return hi;
	t = (int64_t)d; /* toward zero */
	frac = d - (double)t;
	if (frac > 0.5 || (frac == 0.5 && (t & 1)))
		t++;
	else if (frac < -0.5 || (frac == -0.5 && (t & 1)))
		t--;
	return t;
}

int8_t df_f32_to_i8(float f)
{
	return (int8_t)round_clamp(f, INT8_MIN, INT8_MAX);
}

uint8_t df_f32_to_u8(float f)
{
	return (uint8_t)round_clamp(f, 0, UINT8_MAX);
}

uint16_t df_f32_to_u16(float f)
{
	return (uint16_t)round_clamp(f, 0, UINT16_MAX);
}

int32_t df_f32_to_i32(float f)
{
	return (int32_t)round_clamp(f, INT32_MIN, INT32_MAX);
}

uint32_t df_f32_to_u32(float f)
{
	return (uint32_t)round_clamp(f, 0, UINT32_MAX);
}

/* ---- bulk conversion ---- */

static void run_copy(const struct df_conv *c, void *dst, const void *src,
		     size_t n)
{
	memmove(dst, src, n * c->to_size);
}

static void run_f32_bf16(const struct df_conv *c, void *dst, const void *src,
			 size_t n)
{
	const uint32_t *s = src;
	uint16_t *d = dst;

	(void)c;
	for (size_t i = 0; i < n; i++)
		d[i] = df_bf16_rne_bits(s[i]);
}

static void run_bf16_f32(const struct df_conv *c, void *dst, const void *src,
			 size_t n)
{
	const uint16_t *s = src;
	uint32_t *d = dst;

	(void)c;
	for (size_t i = 0; i < n; i++)
		d[i] = (uint32_t)s[i] << 16;
}

static void run_f32_f16(const struct df_conv *c, void *dst, const void *src,
			size_t n)
{
	const float *s = src;
	uint16_t *d = dst;

	(void)c;
	for (size_t i = 0; i < n; i++)
		d[i] = df_f32_to_f16(s[i]);
}

static void run_f16_f32(const struct df_conv *c, void *dst, const void *src,
			size_t n)
{
	const uint16_t *s = src;
	float *d = dst;

	(void)c;
	for (size_t i = 0; i < n; i++)
		d[i] = df_f16_to_f32(s[i]);
}

/* One element of any non-block format as a double (always exact). */
static double load(enum df_format fmt, const uint8_t *p)
{
	uint16_t h;
	uint32_t w;

	switch (fmt) {
	case DF_INT8:
		return (int8_t)p[0];
	case DF_UINT8:
		return p[0];
	default:
		break;
	}
	if (df_elem_bytes(fmt) == 2) {
		memcpy(&h, p, 2);
		if (fmt == DF_UINT16)
			return h;
		return fmt == DF_FLOAT16 ? df_f16_to_f32(h) : df_bf16_to_f32(h);
	}
	memcpy(&w, p, 4);
	if (fmt == DF_INT32)
		return (int32_t)w;
	if (fmt == DF_UINT32)
		return w;
	return df_bits_f32(w);
}

/*
 * d (exact value of a float or 32-bit integer) rounded to float with
 * round-to-odd: a 24-bit result that rounds once more to bfloat16 or half
 * exactly as d itself would.
 */
static float to_f32_odd(double d)
{
	float f = (float)d;
	uint32_t u;

	if ((double)f == d || f != f)
		return f;
	u = df_f32_bits(f);
	if (f > 0 ? (double)f > d : (double)f < d)
		u--; /* step the magnitude back toward d */
	return df_bits_f32(u | 1u);
}

static void store(enum df_format fmt, uint8_t *p, double d)
{
	uint16_t h;
	uint32_t w;

	switch (fmt) {
	case DF_INT8:
		p[0] = (uint8_t)(int8_t)round_clamp(d, INT8_MIN, INT8_MAX);
		return;
	case DF_UINT8:
		p[0] = (uint8_t)round_clamp(d, 0, UINT8_MAX);
		return;
	case DF_UINT16:
		h = (uint16_t)round_clamp(d, 0, UINT16_MAX);
		break;
	case DF_FLOAT16:
		h = df_f32_to_f16(to_f32_odd(d));
		break;
	case DF_FLOAT16_B:
		h = df_f32_to_bf16_rne(to_f32_odd(d));
		break;
	case DF_INT32:
		w = (uint32_t)(int32_t)round_clamp(d, INT32_MIN, INT32_MAX);
		memcpy(p, &w, 4);
		return;
	case DF_UINT32:
		w = (uint32_t)round_clamp(d, 0, UINT32_MAX);
		memcpy(p, &w, 4);
		return;
	default: /* Float32 */
		w = df_f32_bits((float)d);
		memcpy(p, &w, 4);
		return;
	}
	memcpy(p, &h, 2);
}

static void run_generic(const struct df_conv *c, void *dst, const void *src,
			size_t n)
{
	const uint8_t *s = src;
	uint8_t *d = dst;

	for (size_t i = 0; i < n; i++)
		store(c->to, d + i * c->to_size,
		      load(c->from, s + i * c->from_size));
}

void df_conv_init(struct df_conv *c, enum df_format to, enum df_format from)
{
	c->to = to;
	c->from = from;
	c->to_size = df_elem_bytes(to);
	c->from_size = df_elem_bytes(from);
	if (to == from)
		c->run = run_copy;
	else if (to == DF_FLOAT16_B && from == DF_FLOAT32)
		c->run = run_f32_bf16;
	else if (to == DF_FLOAT32 && from == DF_FLOAT16_B)
		c->run = run_bf16_f32;
	else if (to == DF_FLOAT16 && from == DF_FLOAT32)
		c->run = run_f32_f16;
	else if (to == DF_FLOAT32 && from == DF_FLOAT16)
		c->run = run_f16_f32;
	else
		c->run = run_generic;
}

/* 0 if fmt is supported and not a block format. */
static int check_flat(enum df_format fmt)
{
	if (!info(fmt))
		return -EINVAL;
	if (!df_is_supported(fmt))
		return -ENOTSUP;
	return df_is_block(fmt) ? -EINVAL : 0;
}

int df_convert(enum df_format to, void *dst, size_t dst_len,
	       enum df_format from, const void *src, size_t src_len, size_t n)
{
	struct df_conv c;
	size_t need_d, need_s;
	int ret = check_flat(to);

	if (!ret)
		ret = check_flat(from);
	if (ret)
		return ret;
	if (__builtin_mul_overflow(n, df_elem_bytes(to), &need_d) ||
	    __builtin_mul_overflow(n, df_elem_bytes(from), &need_s))
		return -EOVERFLOW;
	if (dst_len < need_d || src_len < need_s)
		return -ENOBUFS;
	if (!n)
		return 0;
	if (!dst || !src)
		return -EINVAL;
	df_conv_init(&c, to, from);
	c.run(&c, dst, src, n);
	return 0;
}
