// SPDX-License-Identifier: Apache-2.0
/*
 * .npy preamble and header dictionary: a hand-written parser for the
 * small Python-literal grammar in tensor_npy.h, and the writer. The input
 * is untrusted: every read is bounded by the header's length, and every
 * failure says what was wrong where.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tensor_npy.h"

/* A position in the dictionary, and where messages go. */
struct cur {
	const char *start, *p, *end;
	char *err;
	size_t err_len;
};

/* A string token: n bytes at s (not NUL-terminated). */
struct span {
	const char *s;
	size_t n;
};

/* The longest part of a token a message quotes. */
#define QUOTE_MAX 40

__attribute__((format(printf, 4, 5))) static int
fail(char *err, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return code;
}

#define BAD(c, ...) fail((c)->err, (c)->err_len, -EBADMSG, __VA_ARGS__)

static size_t offset(const struct cur *c)
{
	return (size_t)(c->p - c->start);
}

static int quote_len(struct span s)
{
	return (int)(s.n > QUOTE_MAX ? QUOTE_MAX : s.n);
}

static void skip_ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' ||
				 *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

/* Consume ch (after blanks) if it comes next. */
static bool eat(struct cur *c, char ch)
{
	skip_ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

/* Describe the next token for "expected ..., found ..." messages. */
static const char *next_desc(const struct cur *c, char *buf, size_t len)
{
	if (c->p >= c->end)
		return "the end of the header";
	snprintf(buf, len, "'%c' at header offset %zu", *c->p, offset(c));
	return buf;
}

static int parse_str(struct cur *c, struct span *out, const char *what)
{
	char d[48];
	char q;

	skip_ws(c);
	if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
		return BAD(c, "expected %s (a quoted string), found %s", what,
			   next_desc(c, d, sizeof(d)));
	q = *c->p++;
	out->s = c->p;
	while (c->p < c->end && *c->p != q) {
		if (*c->p == '\\')
			return BAD(c,
				   "escape sequence in %s at header offset %zu "
				   "(not supported)",
				   what, offset(c));
		c->p++;
	}
	if (c->p >= c->end)
		return BAD(c, "unterminated string (%s) at header offset %zu",
			   what, (size_t)(out->s - 1 - c->start));
	out->n = (size_t)(c->p - out->s);
	c->p++;
	return 0;
}

static bool span_is(struct span s, const char *word)
{
	return s.n == strlen(word) && !memcmp(s.s, word, s.n);
}

static int parse_bool(struct cur *c, bool *out)
{
	struct span w;
	char d[48];

	skip_ws(c);
	w.s = c->p;
	while (c->p < c->end && ((*c->p >= 'A' && *c->p <= 'Z') ||
				 (*c->p >= 'a' && *c->p <= 'z')))
		c->p++;
	w.n = (size_t)(c->p - w.s);
	if (span_is(w, "True") || span_is(w, "False")) {
		*out = w.n == 4;
		return 0;
	}
	c->p = w.s;
	return BAD(c, "fortran_order must be True or False, found %s",
		   next_desc(c, d, sizeof(d)));
}

/* One dimension: decimal digits and an optional L. */
static int parse_dim(struct cur *c, unsigned index, uint64_t *out)
{
	uint64_t v = 0;
	char d[48];

	skip_ws(c);
	if (c->p >= c->end || *c->p < '0' || *c->p > '9')
		return BAD(c, "shape: expected dimension %u, found %s", index,
			   next_desc(c, d, sizeof(d)));
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*c->p - '0'), &v))
			return fail(c->err, c->err_len, -EOVERFLOW,
				    "shape: dimension %u does not fit 64 bits",
				    index);
		c->p++;
	}
	if (c->p < c->end && (*c->p == 'L' || *c->p == 'l'))
		c->p++;
	*out = v;
	return 0;
}

static int parse_shape(struct cur *c, struct tt_npy_header *h)
{
	bool comma = false;
	char d[48];
	int ret;

	if (!eat(c, '('))
		return BAD(c, "shape must be a tuple, found %s",
			   next_desc(c, d, sizeof(d)));
	h->rank = 0;
	if (eat(c, ')'))
		return 0;
	for (;;) {
		uint64_t v = 0;

		ret = parse_dim(c, h->rank, &v);
		if (ret)
			return ret;
		if (h->rank < TT_NPY_MAX_RANK)
			h->dims[h->rank] = v;
		h->rank++;
		comma = eat(c, ',');
		if (eat(c, ')'))
			break;
		if (!comma)
			return BAD(c, "shape: expected ',' or ')', found %s",
				   next_desc(c, d, sizeof(d)));
	}
	if (h->rank == 1 && !comma)
		return BAD(c,
			   "shape (%llu) is not a tuple (a 1-tuple is written "
			   "(%llu,))",
			   (unsigned long long)h->dims[0],
			   (unsigned long long)h->dims[0]);
	return 0;
}

static int parse_descr(struct cur *c, struct tt_npy_header *h)
{
	struct span s;
	int ret;

	skip_ws(c);
	if (c->p < c->end && *c->p == '[')
		return fail(
			c->err, c->err_len, -ENOTSUP,
			"descr is a list: structured dtypes are not supported");
	ret = parse_str(c, &s, "the descr value");
	if (ret)
		return ret;
	if (s.n >= sizeof(h->descr))
		return fail(c->err, c->err_len, -ENOTSUP,
			    "dtype '%.*s...' is not supported", quote_len(s),
			    s.s);
	memcpy(h->descr, s.s, s.n);
	h->descr[s.n] = 0;
	return 0;
}

enum { K_DESCR = 1, K_FORTRAN = 2, K_SHAPE = 4 };

static int parse_item(struct cur *c, struct tt_npy_header *h, unsigned *seen)
{
	static const char *const names[] = {"descr", "fortran_order", "shape"};
	struct span key;
	unsigned k;
	char d[48];
	int ret = parse_str(c, &key, "a key");

	if (ret)
		return ret;
	for (k = 0; k < 3 && !span_is(key, names[k]); k++)
		;
	if (k == 3)
		return BAD(c,
			   "unknown key '%.*s' (only descr, fortran_order and "
			   "shape may appear)",
			   quote_len(key), key.s);
	if (*seen & (1u << k))
		return BAD(c, "key '%s' appears twice", names[k]);
	*seen |= 1u << k;
	if (!eat(c, ':'))
		return BAD(c, "expected ':' after key '%s', found %s", names[k],
			   next_desc(c, d, sizeof(d)));
	if (k == 0)
		return parse_descr(c, h);
	if (k == 1)
		return parse_bool(c, &h->fortran_order);
	return parse_shape(c, h);
}

/* Every byte must be printable ASCII or a blank. */
static int check_bytes(struct cur *c)
{
	for (const char *p = c->start; p < c->end; p++) {
		unsigned char b = (unsigned char)*p;

		if (b >= 0x80)
			return BAD(c,
				   "non-ASCII byte 0x%02x at header offset %zu",
				   b, (size_t)(p - c->start));
		if (b < 0x20 && b != '\t' && b != '\n' && b != '\r')
			return BAD(c,
				   "control byte 0x%02x at header offset %zu",
				   b, (size_t)(p - c->start));
	}
	return 0;
}

static int check_keys(struct cur *c, unsigned seen)
{
	if (!(seen & K_DESCR))
		return BAD(c, "missing key 'descr'");
	if (!(seen & K_FORTRAN))
		return BAD(c, "missing key 'fortran_order'");
	if (!(seen & K_SHAPE))
		return BAD(c, "missing key 'shape'");
	return 0;
}

int tt_npy_parse_dict(const char *dict, size_t hlen, struct tt_npy_header *h,
		      char *err, size_t err_len)
{
	struct cur c = {dict, dict, dict + hlen, err, err_len};
	unsigned seen = 0;
	char d[48];
	int ret;

	if (!dict || !h)
		return tt_error(-EINVAL, "tt_npy_parse_dict: %s is NULL",
				dict ? "h" : "dict");
	ret = check_bytes(&c);
	if (ret)
		return ret;
	if (!eat(&c, '{'))
		return BAD(&c, "the header is not a dictionary: found %s",
			   next_desc(&c, d, sizeof(d)));
	while (!eat(&c, '}')) {
		ret = parse_item(&c, h, &seen);
		if (ret)
			return ret;
		if (!eat(&c, ',') && !(c.p < c.end && *c.p == '}'))
			return BAD(&c, "expected ',' or '}', found %s",
				   next_desc(&c, d, sizeof(d)));
	}
	skip_ws(&c);
	if (c.p < c.end)
		return BAD(&c, "unexpected %s after the dictionary",
			   next_desc(&c, d, sizeof(d)));
	return check_keys(&c, seen);
}

static bool is_magic_prefix(const uint8_t *buf, size_t len)
{
	return !memcmp(buf, TT_NPY_MAGIC,
		       len < TT_NPY_MAGIC_LEN ? len : TT_NPY_MAGIC_LEN);
}

int tt_npy_preamble(const uint8_t *buf, size_t len, uint64_t file_size,
		    struct tt_npy_header *h, char *err, size_t err_len)
{
	size_t lbytes;
	uint32_t hlen;

	if (!buf || !h)
		return tt_error(-EINVAL, "tt_npy_preamble: %s is NULL",
				buf ? "h" : "buf");
	if (!is_magic_prefix(buf, len))
		return fail(err, err_len, -EBADMSG,
			    "bad magic: not a .npy file (it does not start "
			    "with \\x93NUMPY)");
	if (len < 8)
		return fail(err, err_len, -EBADMSG,
			    "truncated: %zu bytes, shorter than the magic and "
			    "version",
			    len);
	h->major = buf[6];
	h->minor = buf[7];
	if (h->major < 1 || h->major > 3 || h->minor)
		return fail(err, err_len, -ENOTSUP,
			    "format version %u.%u is not supported (1.0, 2.0 "
			    "and 3.0 are)",
			    h->major, h->minor);
	lbytes = h->major == 1 ? 2 : 4;
	if (len < 8 + lbytes)
		return fail(err, err_len, -EBADMSG,
			    "truncated: %zu bytes, shorter than the preamble",
			    len);
	hlen = buf[8] | (uint32_t)buf[9] << 8;
	if (lbytes == 4)
		hlen |= (uint32_t)buf[10] << 16 | (uint32_t)buf[11] << 24;
	if (hlen > TT_NPY_HEADER_MAX)
		return fail(err, err_len, -EBADMSG,
			    "header length %u is over the limit of %u bytes",
			    hlen, TT_NPY_HEADER_MAX);
	h->data_offset = 8 + lbytes + hlen;
	if (h->data_offset > file_size)
		return fail(err, err_len, -EBADMSG,
			    "header length %u runs past the end of the file "
			    "(%llu bytes)",
			    hlen, (unsigned long long)file_size);
	return 0;
}

size_t tt_npy_format_header(char *buf, const char *descr,
			    const uint64_t *dims, unsigned rank)
{
	char *dict = buf + 10;
	size_t n, pad, hlen;

	if (!buf || !descr || (rank && !dims))
		return (size_t)tt_error(0, "tt_npy_format_header: %s is NULL",
					!buf ? "buf" : !descr ? "descr" : "dims");
	if (rank > TT_NPY_MAX_RANK)
		return (size_t)tt_error(0, "tt_npy_format_header: rank %u is "
					   "over %d",
					rank, TT_NPY_MAX_RANK);
	n = (size_t)sprintf(
		dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
		descr);
	for (unsigned i = 0; i < rank; i++)
		n += (size_t)sprintf(dict + n, "%s%llu", i ? ", " : "",
				     (unsigned long long)dims[i]);
	n += (size_t)sprintf(dict + n, "%s), }", rank == 1 ? "," : "");
	/* Pad with blanks so the data starts 64-byte aligned, as NumPy. */
	pad = (64 - (10 + n + 1) % 64) % 64;
	memset(dict + n, ' ', pad);
	dict[n + pad] = '\n';
	hlen = n + pad + 1;
	memcpy(buf, TT_NPY_MAGIC, TT_NPY_MAGIC_LEN);
	buf[6] = 1;
	buf[7] = 0;
	buf[8] = (char)(hlen & 0xff);
	buf[9] = (char)(hlen >> 8);
	return 10 + hlen;
}
