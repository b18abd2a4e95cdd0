// SPDX-License-Identifier: Apache-2.0
/*
 * .npy files (tt/tensor.h): every format saved and loaded back (header
 * text, dtype, values), byte strings as NumPy writes them (every
 * supported dtype in both byte orders, Fortran order, versions 1.0, 2.0
 * and 3.0, from memory and from files), header spellings NumPy's reader
 * accepts, every malformed file rejected with its errno and a message
 * naming the problem and the file, and a mutation fuzz of a valid file
 * (run under ASan/UBSan in build-san: no crash, no overread).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"
#include "tt.h"

/*
 * Files as NumPy (>= 1.24) writes them with np.save (the arrays are in
 * test_numpy_bytes), made by hand from NumPy's format description:
 * sorted keys, repr() values, 21 - len(repr(shape[0])) growth blanks,
 * blanks up to a 64-byte boundary, a newline, then the data.
 */
static const char npy_f4_le[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False"
	", 'shape': (2, 3), }                                         "
	"                 \x0a\x00\x00\x80\xbf\x00\x00\x00\xbf\x00\x00"
	"\x00\x00\x00\x00\x00\x3f\x00\x00\x80\x3f\x00\x00\xc0\x3f";

static const char npy_f4_be[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '>f4', 'fortran_order': False"
	", 'shape': (2, 3), }                                         "
	"                 \x0a\xbf\x80\x00\x00\xbf\x00\x00\x00\x00\x00"
	"\x00\x00\x3f\x00\x00\x00\x3f\x80\x00\x00\x3f\xc0\x00\x00";

static const char npy_f2_le[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '<f2', 'fortran_order': False"
	", 'shape': (2, 3), }                                         "
	"                 \x0a\x00\xbc\x00\xb8\x00\x00\x00"
	"8\x00<\x00"
	">";

static const char npy_f2_be[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '>f2', 'fortran_order': False"
	", 'shape': (2, 3), }                                         "
	"                 \x0a\xbc\x00\xb8\x00\x00\x00"
	"8\x00<\x00>\x00";

static const char npy_i4_le[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '<i4', 'fortran_order': False"
	", 'shape': (6,), }                                           "
	"                 \x0a\xfd\xff\xff\xff\xfe\xff\xff\xff\xff\xff"
	"\xff\xff\x00\x00\x00\x00\x01\x00\x00\x00\xa0\x86\x01\x00";

static const char npy_i4_be[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '>i4', 'fortran_order': False"
	", 'shape': (6,), }                                           "
	"                 \x0a\xff\xff\xff\xfd\xff\xff\xff\xfe\xff\xff"
	"\xff\xff\x00\x00\x00\x00\x00\x00\x00\x01\x00\x01\x86\xa0";

static const char npy_u2_le[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '<u2', 'fortran_order': False"
	", 'shape': (1, 2, 3), }                                      "
	"                 \x0a\x00\x00\x01\x00\x02\x00\xff\xff,\x01\x07"
	"\x00";

static const char npy_u2_be[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '>u2', 'fortran_order': False"
	", 'shape': (1, 2, 3), }                                      "
	"                 \x0a\x00\x00\x00\x01\x00\x02\xff\xff\x01,\x00"
	"\x07";

static const char npy_u4_le[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '<u4', 'fortran_order': False"
	", 'shape': (1, 1, 2, 3), }                                   "
	"                 \x0a\x00\x00\x00\x00\x01\x00\x00\x00\x00(k\xee"
	"\x05\x00\x00\x00\x06\x00\x00\x00\x07\x00\x00\x00";

static const char npy_u4_be[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '>u4', 'fortran_order': False"
	", 'shape': (1, 1, 2, 3), }                                   "
	"                 \x0a\x00\x00\x00\x00\x00\x00\x00\x01\xeek(\x00"
	"\x00\x00\x00\x05\x00\x00\x00\x06\x00\x00\x00\x07";

static const char npy_u1[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '|u1', 'fortran_order': False"
	", 'shape': (3, 2), }                                         "
	"                 \x0a\x00\x01\x02\x7f\x80\xff";

static const char npy_i1[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '|i1', 'fortran_order': False"
	", 'shape': (3, 2), }                                         "
	"                 \x0a\x80\xff\x00\x01\x02\x7f";

static const char npy_f4_fortran[] =
	"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': True,"
	" 'shape': (2, 3), }                                          "
	"                 \x0a\x00\x00\x00\x00\x00\x00@@\x00\x00\x80\x3f"
	"\x00\x00\x80@\x00\x00\x00@\x00\x00\xa0@";

static const char npy_f4_v2[] =
	"\x93NUMPY\x02\x00t\x00\x00\x00{'descr': '<f4', 'fortran_order"
	"': False, 'shape': (2, 3), }                                 "
	"                       \x0a\x00\x00\x80\xbf\x00\x00\x00\xbf\x00"
	"\x00\x00\x00\x00\x00\x00\x3f\x00\x00\x80\x3f\x00\x00\xc0\x3f";

static const char npy_f4_v3[] =
	"\x93NUMPY\x03\x00t\x00\x00\x00{'descr': '<f4', 'fortran_order"
	"': False, 'shape': (2, 3), }                                 "
	"                       \x0a\x00\x00\x80\xbf\x00\x00\x00\xbf\x00"
	"\x00\x00\x00\x00\x00\x00\x3f\x00\x00\x80\x3f\x00\x00\xc0\x3f";

#define BYTES(a) (a), sizeof(a) - 1

static char tmp[256];

static int setup(void **state)
{
	(void)state;
	return test_mkdtemp(tmp, sizeof(tmp), "tt-npy") ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd);
}

static const char *tmp_path(const char *name)
{
	static char path[300];

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	return path;
}

static void expect_error(int ret, int code, const char *text)
{
	assert_int_equal(ret, code);
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static float small_int(size_t i)
{
	return (float)((i * 37 + i / 7) % 101);
}

/* ---- write and read back ---- */

static const struct {
	enum tt_data_format fmt;
	const char *descr;
	enum tt_data_format back; /* format of the loaded tensor */
} saved[] = {
	{TT_FLOAT32, "<f4", TT_FLOAT32},   {TT_FLOAT16, "<f2", TT_FLOAT16},
	{TT_FLOAT16_B, "<f4", TT_FLOAT32}, {TT_BFP8_B, "<f4", TT_FLOAT32},
	{TT_BFP4_B, "<f4", TT_FLOAT32},	   {TT_BFP2_B, "<f4", TT_FLOAT32},
	{TT_INT32, "<i4", TT_INT32},	   {TT_UINT32, "<u4", TT_UINT32},
	{TT_UINT16, "<u2", TT_UINT16},	   {TT_INT8, "|i1", TT_INT8},
	{TT_UINT8, "|u1", TT_UINT8},
};

/* Save t, check the header text, load it and compare with t converted
 * to the loaded format (so lossy formats compare their exact values). */
static void save_and_load(tt_tensor *t, const char *descr,
			  enum tt_data_format back, const char *shape_text)
{
	const char *path = tmp_path("t.npy");
	char dict[200], *file;
	size_t len, hlen;
	tt_tensor *got, *want;

	assert_int_equal(tt_tensor_save_npy(t, path), 0);
	file = read_file(path, &len);
	assert_memory_equal(file, "\x93NUMPY\x01\x00", 8);
	hlen = (unsigned char)file[8] | (unsigned char)file[9] << 8;
	assert_int_equal((10 + hlen) % 64, 0);
	assert_int_equal(file[10 + hlen - 1], '\n');
	snprintf(dict, sizeof(dict),
		 "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
		 descr, shape_text);
	assert_memory_equal(file + 10, dict, strlen(dict));
	assert_int_equal(tt_tensor_load_npy(path, &got), 0);
	assert_int_equal(tt_tensor_format(got), back);
	assert_int_equal(tt_tensor_layout(got), TT_TENSOR_ROW_MAJOR);
	assert_int_equal(tt_tensor_shape(got)->rank, tt_tensor_shape(t)->rank);
	assert_memory_equal(tt_tensor_shape(got)->dims,
			    tt_tensor_shape(t)->dims,
			    tt_tensor_shape(t)->rank * sizeof(uint64_t));
	assert_int_equal(len, 10 + hlen + tt_tensor_size(got));
	assert_int_equal(tt_tensor_to(t, back, TT_TENSOR_ROW_MAJOR, &want), 0);
	assert_memory_equal(tt_tensor_data(got), tt_tensor_data(want),
			    tt_tensor_size(want));
	assert_memory_equal(file + 10 + hlen, tt_tensor_data(want),
			    tt_tensor_size(want));
	tt_tensor_free(got);
	tt_tensor_free(want);
	free(file);
}

static void test_save_load_every_format(void **state)
{
	static const struct {
		struct tt_shape shape;
		const char *text;
	} shapes[] = {
		{TT_SHAPE(2, 3, 33, 5), "(2, 3, 33, 5)"},
		{TT_SHAPE(70), "(70,)"},
		{TT_SHAPE(40, 3), "(40, 3)"},
	};
	tt_tensor *src, *t;

	(void)state;
	for (size_t s = 0; s < 3; s++) {
		float *p;

		assert_int_equal(tt_tensor_create(&shapes[s].shape, TT_FLOAT32,
						  TT_TENSOR_ROW_MAJOR, &src),
				 0);
		p = tt_tensor_data(src);
		for (size_t i = 0; i < tt_tensor_volume(src); i++)
			p[i] = small_int(i) * (i % 3 ? 1.0f : -0.25f);
		for (size_t f = 0; f < sizeof(saved) / sizeof(saved[0]); f++)
			for (int l = 0; l < 2; l++) {
				if (l == 0 &&
				    tt_data_format_is_block(saved[f].fmt))
					continue;
				assert_int_equal(
					tt_tensor_to(src, saved[f].fmt,
						     (enum tt_tensor_layout)l,
						     &t),
					0);
				save_and_load(t, saved[f].descr, saved[f].back,
					      shapes[s].text);
				tt_tensor_free(t);
			}
		tt_tensor_free(src);
	}
}

/* ---- NumPy's bytes ---- */

static tt_tensor *read_ok(const char *buf, size_t len, enum tt_data_format fmt,
			  unsigned rank)
{
	tt_tensor *t = NULL;

	if (tt_tensor_read_npy(buf, len, &t))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_tensor_format(t), fmt);
	assert_int_equal(tt_tensor_shape(t)->rank, rank);
	return t;
}

static void expect_f32(const char *buf, size_t len, const float *want)
{
	tt_tensor *t = read_ok(buf, len, TT_FLOAT32, 2);

	assert_int_equal(tt_tensor_shape(t)->dims[0], 2);
	assert_int_equal(tt_tensor_shape(t)->dims[1], 3);
	assert_memory_equal(tt_tensor_data(t), want, 6 * sizeof(float));
	tt_tensor_free(t);
}

static void expect_bytes(const char *buf, size_t len, enum tt_data_format fmt,
			 unsigned rank, const void *want, size_t n)
{
	tt_tensor *t = read_ok(buf, len, fmt, rank);

	assert_int_equal(tt_tensor_size(t), n);
	assert_memory_equal(tt_tensor_data(t), want, n);
	tt_tensor_free(t);
}

static void test_numpy_bytes(void **state)
{
	/* np.arange(6, dtype=T).reshape(2, 3) * 0.5 - 1 (f4, f2) */
	static const float f[6] = {-1, -0.5, 0, 0.5, 1, 1.5};
	static const uint16_t h[6] = {0xbc00, 0xb800, 0,
				      0x3800, 0x3c00, 0x3e00};
	/* np.array(VALUES, dtype=T) for the rest, reshaped as named */
	static const int32_t i4[6] = {-3, -2, -1, 0, 1, 100000};
	static const uint16_t u2[6] = {0, 1, 2, 65535, 300, 7};
	static const uint32_t u4[6] = {0, 1, 4000000000u, 5, 6, 7};
	static const uint8_t u1[6] = {0, 1, 2, 127, 128, 255};
	static const int8_t i1[6] = {-128, -1, 0, 1, 2, 127};
	tt_tensor *t;

	(void)state;
	expect_f32(BYTES(npy_f4_le), f);
	expect_f32(BYTES(npy_f4_be), f);
	expect_f32(BYTES(npy_f4_v2), f);
	expect_f32(BYTES(npy_f4_v3), f);
	expect_bytes(BYTES(npy_f2_le), TT_FLOAT16, 2, h, sizeof(h));
	expect_bytes(BYTES(npy_f2_be), TT_FLOAT16, 2, h, sizeof(h));
	expect_bytes(BYTES(npy_i4_le), TT_INT32, 1, i4, sizeof(i4));
	expect_bytes(BYTES(npy_i4_be), TT_INT32, 1, i4, sizeof(i4));
	expect_bytes(BYTES(npy_u2_le), TT_UINT16, 3, u2, sizeof(u2));
	expect_bytes(BYTES(npy_u2_be), TT_UINT16, 3, u2, sizeof(u2));
	expect_bytes(BYTES(npy_u4_le), TT_UINT32, 4, u4, sizeof(u4));
	expect_bytes(BYTES(npy_u4_be), TT_UINT32, 4, u4, sizeof(u4));
	expect_bytes(BYTES(npy_u1), TT_UINT8, 2, u1, sizeof(u1));
	expect_bytes(BYTES(npy_i1), TT_INT8, 2, i1, sizeof(i1));
	/* Fortran order: [[0, 1, 2], [3, 4, 5]] stored column by column. */
	t = read_ok(BYTES(npy_f4_fortran), TT_FLOAT32, 2);
	for (int i = 0; i < 6; i++)
		assert_true(((float *)tt_tensor_data(t))[i] == (float)i);
	tt_tensor_free(t);
}

/* A rank-3 Fortran-order file: element (i, j, k) = 100i + 10j + k. */
static void test_fortran_rank3(void **state)
{
	char dict[] = "{'descr': '<i4', 'fortran_order': True, "
		      "'shape': (2, 3, 4), }";
	int32_t data[24], *got;
	size_t len, pre, pad;
	char *img;
	tt_tensor *t;

	(void)state;
	for (int k = 0; k < 4; k++)
		for (int j = 0; j < 3; j++)
			for (int i = 0; i < 2; i++)
				data[i + 2 * j + 6 * k] = 100 * i + 10 * j + k;
	pre = 10;
	pad = (64 - (pre + strlen(dict) + 1) % 64) % 64;
	len = pre + strlen(dict) + pad + 1 + sizeof(data);
	img = malloc(len);
	assert_non_null(img);
	memcpy(img, "\x93NUMPY\x01\x00", 8);
	img[8] = (char)(strlen(dict) + pad + 1);
	img[9] = 0;
	memcpy(img + 10, dict, strlen(dict));
	memset(img + 10 + strlen(dict), ' ', pad);
	img[10 + strlen(dict) + pad] = '\n';
	memcpy(img + len - sizeof(data), data, sizeof(data));
	assert_int_equal(tt_tensor_read_npy(img, len, &t), 0);
	got = tt_tensor_data(t);
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			for (int k = 0; k < 4; k++)
				assert_int_equal(got[(i * 3 + j) * 4 + k],
						 100 * i + 10 * j + k);
	tt_tensor_free(t);
	free(img);
}

/* The same bytes through files: the path is in every message. */
static void test_numpy_files(void **state)
{
	static const float f[6] = {-1, -0.5, 0, 0.5, 1, 1.5};
	const char *path = tmp_path("numpy.npy");
	tt_tensor *t;

	(void)state;
	write_file(path, BYTES(npy_f4_be));
	assert_int_equal(tt_tensor_load_npy(path, &t), 0);
	assert_memory_equal(tt_tensor_data(t), f, sizeof(f));
	tt_tensor_free(t);
	write_file(path, npy_f4_le, sizeof(npy_f4_le) - 2);
	expect_error(tt_tensor_load_npy(path, &t), -EBADMSG, path);
	expect_error(tt_tensor_load_npy(path, &t), -EBADMSG,
		     "truncated: shape [2,3] of '<f4' needs 24 bytes of data, "
		     "the file has 23");
	expect_error(tt_tensor_load_npy(tmp_path("missing.npy"), &t), -ENOENT,
		     "missing.npy\": cannot open");
	expect_error(tt_tensor_load_npy(tmp, &t), -EINVAL,
		     "is a directory, not a regular file");
	expect_error(tt_tensor_read_npy(npy_f4_le, 9, &t), -EBADMSG,
		     "npy data (9 bytes): truncated: 9 bytes, shorter than the "
		     "preamble");
}

/* ---- headers ---- */

/* A .npy image with the given version and dictionary (padded as NumPy
 * does) and dlen bytes of data; *len is its size. */
static char *npy_make(unsigned major, const char *dict, const void *data,
		      size_t dlen, size_t *len)
{
	size_t pre = major == 1 ? 10 : 12, n = strlen(dict);
	size_t pad = (64 - (pre + n + 1) % 64) % 64, hlen = n + pad + 1;
	char *b = malloc(pre + hlen + dlen + 1);

	assert_non_null(b);
	memcpy(b, "\x93NUMPY", 6);
	b[6] = (char)major;
	b[7] = 0;
	b[8] = (char)(hlen & 0xff);
	b[9] = (char)(hlen >> 8);
	if (major != 1)
		b[10] = b[11] = 0;
	memcpy(b + pre, dict, n);
	memset(b + pre + n, ' ', pad);
	b[pre + hlen - 1] = '\n';
	if (dlen)
		memcpy(b + pre + hlen, data, dlen);
	*len = pre + hlen + dlen;
	return b;
}

static const float six[6] = {1, 2, 3, 4, 5, 6};

/* Spellings NumPy's reader accepts, in versions 1.0, 2.0 and 3.0. */
static void test_header_spellings(void **state)
{
	static const char *const ok[] = {
		"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
		"{\"shape\":(2,3),\"descr\":\"<f4\",\"fortran_order\":False}",
		"{'fortran_order': False, 'shape': (2L, 3L), 'descr': '<f4'}",
		"{'descr':'<f4','fortran_order':False,'shape':(2,3,)}",
		"{\t'descr' : '<f4' ,\n'fortran_order' : False ,\r'shape' : ( "
		"2 , 3 ) , }",
		"{'descr': 'f4', 'fortran_order': False, 'shape': (2, 3), }",
		"{'descr': '=f4', 'fortran_order': False, 'shape': (2, 3), }",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		size_t len;
		char *b = npy_make(1 + i % 3, ok[i], six, sizeof(six), &len);
		tt_tensor *t = NULL;

		if (tt_tensor_read_npy(b, len, &t))
			fail_msg("%s: %s", ok[i], tt_last_error());
		assert_int_equal(tt_tensor_shape(t)->rank, 2);
		assert_memory_equal(tt_tensor_data(t), six, sizeof(six));
		tt_tensor_free(t);
		free(b);
	}
}

static const struct bad {
	const char *dict;
	size_t data; /* bytes of data after the header */
	int err;
	const char *msg;
} bad_headers[] = {
	{"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 48,
	 -ENOTSUP, "dtype '<f8' is not supported (supported: <f4,"},
	{"{'descr': 'xyz', 'fortran_order': False, 'shape': (2, 3), }", 24,
	 -ENOTSUP, "dtype 'xyz' is not supported"},
	{"{'descr': '', 'fortran_order': False, 'shape': (2, 3), }", 24,
	 -ENOTSUP, "dtype '' is not supported"},
	{"{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }", 12,
	 -ENOTSUP, "dtype '<i2' is not supported"},
	{"{'descr': '<f4000000000000000', 'fortran_order': False, 'shape': (2, "
	 "3), }",
	 24, -ENOTSUP, "is not supported"},
	{"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
	 8, -ENOTSUP, "descr is a list: structured dtypes are not supported"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 20,
	 -EBADMSG,
	 "truncated: shape [2,3] of '<f4' needs 24 bytes of data, the file has "
	 "20"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 28,
	 -EBADMSG, "4 bytes of trailing garbage after the data"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, "
	 "1099511627776), }",
	 0, -EOVERFLOW, "more bytes than fit size_t"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': "
	 "(18446744073709551616,), }",
	 0, -EOVERFLOW, "shape: dimension 0 does not fit 64 bits"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), '\xe9': 1}",
	 24, -EBADMSG, "non-ASCII byte 0xe9 at header offset 59"},
	{"{'descr': '<f4', 'fortran_order': False,\x01'shape': (2, 3), }", 24,
	 -EBADMSG, "control byte 0x01 at header offset 40"},
	{"{'descr': '<f4', 'fortran_order': False, }", 24, -EBADMSG,
	 "missing key 'shape'"},
	{"{'fortran_order': False, 'shape': (2, 3), }", 24, -EBADMSG,
	 "missing key 'descr'"},
	{"{'descr': '<f4', 'shape': (2, 3), }", 24, -EBADMSG,
	 "missing key 'fortran_order'"},
	{"{}", 24, -EBADMSG, "missing key 'descr'"},
	{"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': "
	 "(2, 3), }",
	 24, -EBADMSG, "key 'descr' appears twice"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'foo': 1}",
	 24, -EBADMSG, "unknown key 'foo'"},
	{"{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3), }", 24,
	 -EBADMSG, "fortran_order must be True or False, found '0'"},
	{"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2, 3), }", 24,
	 -EBADMSG, "fortran_order must be True or False"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }", 24,
	 -EBADMSG, "shape must be a tuple, found '['"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (6), }", 24,
	 -EBADMSG, "shape (6) is not a tuple (a 1-tuple is written (6,))"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }", 24,
	 -EBADMSG, "shape: expected dimension 0, found '-'"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }", 24,
	 -EBADMSG, "shape: expected ',' or ')', found '3'"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3", 24,
	 -EBADMSG, "found the end of the header"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4, -ENOTSUP,
	 "shape () (a scalar, rank 0) is not supported"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 2, 3), }",
	 24, -ENOTSUP, "rank 5 is not supported: rank 1 to 4"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0), }", 0,
	 -ENOTSUP,
	 "shape [2,0] has dimension 1 of 0: empty arrays are not supported"},
	{"{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3), }", 24,
	 -EBADMSG, "expected ',' or '}', found 'f'"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x", 24,
	 -EBADMSG, "unterminated string (a key) at header offset 58"},
	{"{'descr': '<\\f4', 'fortran_order': False, 'shape': (2, 3), }", 24,
	 -EBADMSG, "escape sequence in the descr value"},
	{"{'descr' '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24,
	 -EBADMSG, "expected ':' after key 'descr', found '''"},
	{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } x", 24,
	 -EBADMSG, "unexpected 'x' at header offset 60 after the dictionary"},
	{"['descr', '<f4']", 24, -EBADMSG,
	 "the header is not a dictionary: found '['"},
	{"{'descr': '<f4' 'fortran_order': False, 'shape': (2, 3), }", 24,
	 -EBADMSG, "expected ',' or '}', found '''"},
	{"{'descr': '<f4',, 'fortran_order': False, 'shape': (2, 3), }", 24,
	 -EBADMSG, "expected a key (a quoted string), found ','"},
	{"{descr: '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24,
	 -EBADMSG, "expected a key (a quoted string), found 'd'"},
	{"", 24, -EBADMSG, "the header is not a dictionary: found the end"},
};

static void test_malformed_headers(void **state)
{
	static const uint8_t zeros[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_headers) / sizeof(bad_headers[0]);
	     i++) {
		const struct bad *b = &bad_headers[i];
		size_t len;
		char *img = npy_make(1, b->dict, zeros, b->data, &len);
		tt_tensor *t = NULL;
		int ret = tt_tensor_read_npy(img, len, &t);

		if (ret != b->err || !strstr(tt_last_error(), b->msg))
			fail_msg("case %zu (%s): %d \"%s\", expected %d \"%s\"",
				 i, b->dict, ret, tt_last_error(), b->err,
				 b->msg);
		assert_null(t);
		assert_non_null(strstr(tt_last_error(), "npy data ("));
		/* The same through a file names the file. */
		write_file(tmp_path("bad.npy"), img, len);
		expect_error(tt_tensor_load_npy(tmp_path("bad.npy"), &t),
			     b->err, b->msg);
		assert_non_null(strstr(tt_last_error(), "bad.npy\": "));
		free(img);
	}
}

static void test_malformed_preamble(void **state)
{
	char img[sizeof(npy_f4_le)];
	size_t n = sizeof(npy_f4_le) - 1;
	tt_tensor *t = NULL;

	(void)state;
	memcpy(img, npy_f4_le, sizeof(img));
	img[5] = 'Z';
	expect_error(tt_tensor_read_npy(img, n, &t), -EBADMSG, "bad magic");
	expect_error(tt_tensor_read_npy("PK\x03\x04", 4, &t), -EBADMSG,
		     "bad magic: not a .npy file");
	expect_error(tt_tensor_read_npy(img, 0, &t), -EBADMSG,
		     "truncated: 0 bytes");
	expect_error(tt_tensor_read_npy(npy_f4_le, 7, &t), -EBADMSG,
		     "truncated: 7 bytes, shorter than the magic and version");
	memcpy(img, npy_f4_le, sizeof(img));
	img[6] = 4;
	expect_error(tt_tensor_read_npy(img, n, &t), -ENOTSUP,
		     "format version 4.0 is not supported");
	img[6] = 1;
	img[7] = 1;
	expect_error(tt_tensor_read_npy(img, n, &t), -ENOTSUP,
		     "format version 1.1 is not supported");
	img[7] = 0;
	/* Cut inside the header. */
	expect_error(
		tt_tensor_read_npy(img, 50, &t), -EBADMSG,
		"header length 118 runs past the end of the file (50 bytes)");
	/* A header length past the end, and over the limit. */
	img[8] = (char)0x60;
	img[9] = (char)0xea;
	expect_error(tt_tensor_read_npy(img, n, &t), -EBADMSG,
		     "header length 60000 runs past the end of the file (152 "
		     "bytes)");
	expect_error(tt_tensor_read_npy(npy_f4_v2, 100, &t), -EBADMSG,
		     "runs past the end");
	memcpy(img, npy_f4_v2, 12);
	img[10] = (char)0xff;
	img[11] = 0x7f;
	expect_error(tt_tensor_read_npy(img, n, &t), -EBADMSG,
		     "is over the limit of 65536 bytes");
	assert_null(t);
	expect_error(tt_tensor_read_npy(NULL, 5, &t), -EINVAL, "buf is NULL");
}

/* ---- fuzz ---- */

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static const char pick[] = "{}(),:'\" \t\n0123456789LTF<>|=fiu\x80";

/* Apply one random mutation to img (len bytes, room for 8 more). */
static void mutate(char *img, size_t *len, size_t room, uint32_t *seed)
{
	size_t at = rnd(seed) % (*len < 130 ? *len : 130);

	switch (rnd(seed) % 6) {
	case 0:
		img[at] = (char)rnd(seed);
		break;
	case 1:
	case 2:
		img[at] = pick[rnd(seed) % (sizeof(pick) - 1)];
		break;
	case 3:
		*len = rnd(seed) % (*len + 1);
		break;
	case 4: /* insert */
		if (*len < room) {
			memmove(img + at + 1, img + at, *len - at);
			img[at] = pick[rnd(seed) % (sizeof(pick) - 1)];
			++*len;
		}
		break;
	default: /* delete */
		memmove(img + at, img + at + 1, *len - at - 1);
		--*len;
	}
}

/* Read a mutated image from an exact-size heap copy (ASan sees any byte
 * read past it). A success must be a consistent tensor. */
static bool read_mutant(const char *img, size_t len)
{
	char *exact = malloc(len ? len : 1);
	tt_tensor *t = NULL;
	int ret;

	assert_non_null(exact);
	memcpy(exact, img, len);
	ret = tt_tensor_read_npy(exact, len, &t);
	free(exact);
	if (ret) {
		assert_true(ret == -EBADMSG || ret == -ENOTSUP ||
			    ret == -EOVERFLOW);
		assert_null(t);
		assert_non_null(strstr(tt_last_error(), "npy data ("));
		return false;
	}
	assert_true(tt_tensor_size(t) ==
		    tt_tensor_volume(t) *
			    tt_data_format_elem_size(tt_tensor_format(t)));
	assert_true(tt_tensor_size(t) < len);
	tt_tensor_free(t);
	return true;
}

static void test_fuzz_header(void **state)
{
	const size_t base = sizeof(npy_f4_le) - 1;
	unsigned ok = 0, bad = 0;
	uint32_t seed = 0x12345678;

	(void)state;
	for (int iter = 0; iter < 30000; iter++) {
		char img[sizeof(npy_f4_le) + 8];
		size_t len = base;

		memcpy(img, npy_f4_le, base);
		for (uint32_t m = rnd(&seed) % 4 + 1; m && len; m--)
			mutate(img, &len, sizeof(img), &seed);
		if (read_mutant(img, len))
			ok++;
		else
			bad++;
	}
	print_message("# fuzz: %u accepted, %u rejected\n", ok, bad);
	assert_true(ok > 100);
	assert_true(bad > 10000);
}

/* A FIFO is refused at once, by its type, instead of blocking in open()
 * until a writer comes (an alarm fails the suite if it blocks). */
static void test_load_fifo_refused(void **state)
{
	const char *path = tmp_path("fifo.npy");
	char want[PATH_MAX + 64];
	tt_tensor *t = NULL;

	(void)state;
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(want, sizeof(want),
		 "npy file \"%s\": is a FIFO, not a regular file", path);
	alarm(10);
	expect_error(tt_tensor_load_npy(path, &t), -EINVAL, want);
	alarm(0);
	assert_null(t);
	assert_int_equal(unlink(path), 0);
}

static void test_save_errors(void **state)
{
	struct tt_shape s = TT_SHAPE(3);
	tt_tensor *t;

	(void)state;
	assert_int_equal(
		tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t), 0);
	expect_error(tt_tensor_save_npy(t, tmp_path("no/such/dir.npy")),
		     -ENOENT, "dir.npy\": cannot write");
	expect_error(tt_tensor_save_npy(NULL, "x"), -EINVAL, "tensor is NULL");
	tt_tensor_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_load_every_format),
		cmocka_unit_test(test_numpy_bytes),
		cmocka_unit_test(test_fortran_rank3),
		cmocka_unit_test(test_numpy_files),
		cmocka_unit_test(test_header_spellings),
		cmocka_unit_test(test_malformed_headers),
		cmocka_unit_test(test_malformed_preamble),
		cmocka_unit_test(test_fuzz_header),
		cmocka_unit_test(test_load_fifo_refused),
		cmocka_unit_test(test_save_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
