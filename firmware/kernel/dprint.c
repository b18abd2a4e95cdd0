// SPDX-License-Identifier: Apache-2.0
/*
 * DPRINT (debug/dprint.h): a printf subset formatted into this hart's
 * print ring (kreport.c writes the ring). Linked only into kernels that
 * print.
 *
 * Everything is integer arithmetic on 32-bit words, without the C
 * library's or libgcc's 64-bit division. Floats: the binary mantissa is
 * scaled by tens into [1, 10) in 64-bit fixed point, which gives 17 good
 * decimal digits to round from (more digits of a %f print as zeros).
 */
#include "kinternal.h"

#include "debug/dprint.h"

/* Output in pieces of a line (the ring is written by kreport.c). */
struct sink {
	uint32_t n;
	char buf[64];
};

static void flush(struct sink *k)
{
	if (k->n)
		ttk_ring_write(k->buf, k->n);
	k->n = 0;
}

static void put(struct sink *k, char c)
{
	if (k->n == sizeof(k->buf))
		flush(k);
	k->buf[k->n++] = c;
}

static void put_n(struct sink *k, const char *s, uint32_t n)
{
	while (n--)
		put(k, *s++);
}

static void pad(struct sink *k, char c, int n)
{
	while (n-- > 0)
		put(k, c);
}

/* ---- conversion specifications ---- */

struct spec {
	bool left, zero, plus, space, alt;
	int width;
	int prec; /* -1: none */
	int size; /* -2 char, -1 short, 0 int, 1 long, 2 long long */
	char conv;
};

static uint32_t str_len(const char *s, int max)
{
	uint32_t n = 0;

	while (s[n] && (max < 0 || n < (uint32_t)max))
		n++;
	return n;
}

/* A body with a sign/prefix, padded to the width: zeros go between the
 * prefix and the body when asked for. */
static void emit(struct sink *k, const struct spec *sp, const char *prefix,
		 const char *body, uint32_t body_len, bool zero_ok)
{
	uint32_t plen = str_len(prefix, -1);
	int fill = sp->width - (int)(plen + body_len);

	if (!sp->left && !(sp->zero && zero_ok))
		pad(k, ' ', fill);
	put_n(k, prefix, plen);
	if (!sp->left && sp->zero && zero_ok)
		pad(k, '0', fill);
	put_n(k, body, body_len);
	if (sp->left)
		pad(k, ' ', fill);
}

static const char *sign_prefix(const struct spec *sp, bool neg)
{
	return neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
}

static void fmt_int(struct sink *k, const struct spec *sp, uint64_t v,
		    bool neg)
{
	const char *digits = sp->conv == 'X' ? "0123456789ABCDEF" :
					       "0123456789abcdef";
	uint32_t base = sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p' ?
				16 :
			sp->conv == 'o' ? 8 :
					  10;
	char rev[24], body[48], prefix[4] = "";
	uint32_t nd = 0, len = 0;
	int zeros;

	while (v) {
		if (base == 10) {
			rev[nd++] = digits[ttk_divmod10(&v)];
		} else {
			rev[nd++] = digits[v & (base - 1)];
			v >>= base == 16 ? 4 : 3;
		}
	}
	if (!nd && sp->prec != 0)
		rev[nd++] = '0';
	zeros = sp->prec > (int)nd ? sp->prec - (int)nd : 0;
	if (sp->conv == 'd' || sp->conv == 'i') {
		const char *s = sign_prefix(sp, neg);

		prefix[0] = s[0];
		prefix[1] = 0;
	} else if (sp->alt && (base == 16 && nd && rev[nd - 1] != '0')) {
		prefix[0] = '0';
		prefix[1] = sp->conv == 'X' ? 'X' : 'x';
		prefix[2] = 0;
	} else if (sp->conv == 'p') {
		prefix[0] = '0';
		prefix[1] = 'x';
		prefix[2] = 0;
	} else if (sp->alt && base == 8 && !zeros && rev[nd - 1] != '0') {
		zeros = 1;
	}
	while (zeros-- > 0)
		body[len++] = '0';
	while (nd)
		body[len++] = rev[--nd];
	emit(k, sp, prefix, body, len, sp->prec < 0);
}

/* ---- floating point ---- */

#define NDIG 17

/* Shift m left until its top bit is set; returns the shift. */
static int normalise(uint64_t *m)
{
	int s = 0;

	while (!(*m >> 63)) {
		*m <<= 1;
		s++;
	}
	return s;
}

/* m * 2^e2 / 10, m normalised (top bit set) before and after. */
static void div10(uint64_t *m, int *e2)
{
	uint64_t q = *m;
	uint32_t r = ttk_divmod10(&q);
	int s = normalise(&q);

	*m = q | ((r << s) / 10);
	*e2 -= s;
}

/* m * 2^e2 * 10, likewise: m * 10 = (m * 5 / 8) * 16. */
static void mul10(uint64_t *m, int *e2)
{
	uint64_t q = (*m >> 3) * 5 + (((*m & 7) * 5) >> 3);
	int s = normalise(&q);

	*m = q;
	*e2 += 4 - s;
}

/*
 * The decimal digits of m * 2^e2 (m != 0): d[0].d[1]...d[NDIG-1] times
 * 10^(returned exponent).
 */
static int decimal(uint64_t m, int e2, uint8_t d[NDIG])
{
	int e10 = 0;

	e2 -= normalise(&m);
	/* value = m * 2^e2 with m in [2^63, 2^64): >= 10 once e2 + 63 >= 4,
	 * or e2 = -60 and m >= 10 * 2^60; < 1 while e2 + 63 < 0. */
	while (e2 > -60 || (e2 == -60 && m >= 10ull << 60)) {
		div10(&m, &e2);
		e10++;
	}
	while (e2 < -63) {
		mul10(&m, &e2);
		e10--;
	}
	/* Fixed point with 60 fraction bits: value < 10 fits, and so does
	 * a fraction times 10. */
	m >>= -60 - e2;
	for (int i = 0; i < NDIG; i++) {
		d[i] = (uint8_t)(m >> 60);
		m = (m & ((1ull << 60) - 1)) * 10;
	}
	return e10;
}

/* Is the rest of the digits from i on zero? */
static bool zeros_from(const uint8_t d[NDIG], int i)
{
	for (; i < NDIG; i++)
		if (d[i])
			return false;
	return true;
}

/*
 * Keep `keep` significant digits (may be <= 0), rounding to nearest, and
 * an exact half to even as printf does; the exponent grows when the
 * rounding carries out of the first digit.
 */
static void round_digits(uint8_t d[NDIG], int keep, int *e10)
{
	bool up;
	int i;

	if (keep >= NDIG)
		return;
	if (keep < 0) {
		up = false;
	} else {
		up = d[keep] > 5 || (d[keep] == 5 && !zeros_from(d, keep + 1));
		/* A tie rounds up to an even digit (0 is even: down). */
		if (d[keep] == 5 && zeros_from(d, keep + 1))
			up = keep > 0 && d[keep - 1] % 2;
	}
	for (i = keep < 0 ? 0 : keep; i < NDIG; i++)
		d[i] = 0;
	if (!up)
		return;
	for (i = keep - 1; i >= 0 && d[i] == 9; i--)
		d[i] = 0;
	if (i >= 0) {
		d[i]++;
	} else {
		d[0] = 1;
		(*e10)++;
	}
}

static char digit_at(const uint8_t d[NDIG], int i)
{
	return (char)('0' + (i >= 0 && i < NDIG ? d[i] : 0));
}

/* %e body: d.ddd e+XX */
static uint32_t body_e(char *out, const uint8_t d[NDIG], int e10, int prec,
		       bool alt, bool upper)
{
	uint32_t n = 0;
	uint32_t ue = (uint32_t)(e10 < 0 ? -e10 : e10);

	out[n++] = digit_at(d, 0);
	if (prec > 0 || alt)
		out[n++] = '.';
	for (int i = 1; i <= prec; i++)
		out[n++] = digit_at(d, i);
	out[n++] = upper ? 'E' : 'e';
	out[n++] = e10 < 0 ? '-' : '+';
	if (ue >= 100)
		out[n++] = (char)('0' + ue / 100);
	out[n++] = (char)('0' + ue / 10 % 10);
	out[n++] = (char)('0' + ue % 10);
	return n;
}

/* %f body: integer part, then prec fraction digits. */
static uint32_t body_f(char *out, const uint8_t d[NDIG], int e10, int prec,
		       bool alt)
{
	uint32_t n = 0;

	if (e10 < 0)
		out[n++] = '0';
	for (int i = 0; i <= e10; i++)
		out[n++] = digit_at(d, i);
	if (prec > 0 || alt)
		out[n++] = '.';
	for (int i = 1; i <= prec; i++)
		out[n++] = digit_at(d, e10 + i);
	return n;
}

/* %g: drop the fraction's trailing zeros, and a lone point. */
static uint32_t strip_zeros(char *out, uint32_t n)
{
	uint32_t dot = n, exp = n;

	for (uint32_t i = 0; i < n; i++) {
		if (out[i] == '.')
			dot = i;
		if (out[i] == 'e' || out[i] == 'E')
			exp = i;
	}
	if (dot == n)
		return n;
	uint32_t end = exp;

	while (end > dot + 1 && out[end - 1] == '0')
		end--;
	if (end == dot + 1)
		end = dot;
	for (uint32_t i = exp; i < n; i++)
		out[end++] = out[i];
	return end;
}

/* Widest %f body before %e is used instead. */
#define FLOAT_BODY_MAX 120

static void fmt_float(struct sink *k, struct spec *sp, uint64_t bits)
{
	bool neg = bits >> 63, upper = sp->conv >= 'A' && sp->conv <= 'Z';
	uint32_t ex = (uint32_t)(bits >> 52) & 0x7FF;
	uint64_t frac = bits & ((1ull << 52) - 1);
	char conv = (char)(sp->conv | 0x20), out[FLOAT_BODY_MAX + 16];
	uint8_t d[NDIG] = { 0 };
	int prec = sp->prec < 0 ? 6 : sp->prec, e10 = 0;
	uint32_t n;

	if (ex == 0x7FF) {
		sp->zero = false;
		emit(k, sp, sign_prefix(sp, neg && !frac),
		     frac ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"),
		     3, false);
		return;
	}
	if (ex || frac)
		e10 = decimal(ex ? frac | 1ull << 52 : frac,
			      ex ? (int)ex - 1075 : -1074, d);
	if (prec > FLOAT_BODY_MAX - 40)
		prec = FLOAT_BODY_MAX - 40;
	if (conv == 'g') {
		int p = prec ? prec : 1;

		round_digits(d, p, &e10);
		if (e10 < p && e10 >= -4) {
			conv = 'f';
			prec = p - 1 - e10;
		} else {
			conv = 'e';
			prec = p - 1;
		}
	}
	if (conv == 'f' && e10 + 1 + prec > FLOAT_BODY_MAX - 8)
		conv = 'e';
	if (conv == 'f') {
		round_digits(d, e10 + 1 + prec, &e10);
		n = body_f(out, d, e10, prec, sp->alt);
	} else {
		round_digits(d, prec + 1, &e10);
		n = body_e(out, d, e10, prec, sp->alt, upper);
	}
	if ((sp->conv | 0x20) == 'g' && !sp->alt)
		n = strip_zeros(out, n);
	emit(k, sp, sign_prefix(sp, neg), out, n, true);
}

/* ---- the format loop ---- */

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .prec = -1 };
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->prec = 0;
		if (*f == '*') {
			sp->prec = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->prec = sp->prec * 10 + (*f++ - '0');
	}
	for (;; f++) {
		if (*f == 'l' || *f == 'j')
			sp->size += *f == 'j' ? 2 : 1;
		else if (*f == 'h')
			sp->size--;
		else if (*f != 'z' && *f != 't')
			break;
	}
	sp->conv = *f;
	return *f ? f + 1 : f;
}

static void fmt_arg(struct sink *k, struct spec *sp, va_list *ap)
{
	int64_t sv;
	uint64_t uv;
	const char *s;
	char c;
	union {
		double d;
		uint64_t u;
	} dv;

	switch (sp->conv) {
	case 'd':
	case 'i':
		sv = sp->size >= 2 ? va_arg(*ap, long long) :
		     sp->size == 1 ? va_arg(*ap, long) :
				     va_arg(*ap, int);
		if (sp->size == -1)
			sv = (short)sv;
		else if (sp->size <= -2)
			sv = (signed char)sv;
		fmt_int(k, sp, sv < 0 ? -(uint64_t)sv : (uint64_t)sv, sv < 0);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		uv = sp->size >= 2 ? va_arg(*ap, unsigned long long) :
		     sp->size == 1 ? va_arg(*ap, unsigned long) :
				     va_arg(*ap, unsigned int);
		if (sp->size == -1)
			uv = (unsigned short)uv;
		else if (sp->size <= -2)
			uv = (unsigned char)uv;
		fmt_int(k, sp, uv, false);
		break;
	case 'p':
		fmt_int(k, sp, (uintptr_t)va_arg(*ap, void *), false);
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		emit(k, sp, "", &c, 1, false);
		break;
	case 's':
		s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		emit(k, sp, "", s, str_len(s, sp->prec), false);
		break;
	case 'f':
	case 'F':
	case 'e':
	case 'E':
	case 'g':
	case 'G':
		dv.d = va_arg(*ap, double);
		fmt_float(k, sp, dv.u);
		break;
	case '%':
		put(k, '%');
		break;
	default:
		/* Not ours: shown as written. */
		put(k, '%');
		if (sp->conv)
			put(k, sp->conv);
		break;
	}
}

static void vformat(struct sink *k, const char *f, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	while (*f) {
		struct spec sp;

		if (*f != '%') {
			put(k, *f++);
			continue;
		}
		f = parse_spec(f + 1, &sp, &aq);
		fmt_arg(k, &sp, &aq);
	}
	va_end(aq);
	flush(k);
}

void ttk_dprintf(const char *fmt, ...)
{
	struct sink k = { .n = 0 };
	va_list ap;

	if (!(ttk_flags() & TT_KCTX_F_PRINT))
		return;
	va_start(ap, fmt);
	vformat(&k, fmt, ap);
	va_end(ap);
}
