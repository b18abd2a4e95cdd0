// SPDX-License-Identifier: Apache-2.0
/*
 * Image files (tt/image.h, ttc/tti.h; docs/image.md, "Container"): the
 * CRC on known vectors; the reader's refusal of each thing a file can get
 * wrong, one case per check, on hand-built bytes re-sealed so that only
 * the check under test can fire; every truncation of a small image; the
 * writer's round trip through a file (same bytes, aligned in memory, a
 * mapping that survives the file's replacement) and its failures (no
 * file, no temporary file left).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tmpdir.h"
#include "tt/image.h"
#include "ttc/tti.h"

/* ---- a hand-built image ------------------------------------------------
 * header (64) | "a": 16 bytes at 64, align 16 | gap | "params/w1": 32
 * bytes at 128, align 64 | table at 160, 2 entries | end 288. */
#define HB_LEN 288
#define HB_TABLE 160

static uint8_t hb[HB_LEN + 64];

static void set32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void set64(uint8_t *p, uint64_t v)
{
	set32(p, (uint32_t)v);
	set32(p + 4, (uint32_t)(v >> 32));
}

static uint8_t *entry(int i)
{
	return hb + HB_TABLE + i * TT_IMAGE_ENTRY_SIZE;
}

/* Recompute the table's CRC, then the header's: a mutation then fails
 * only its own check. */
static void seal(void)
{
	set32(hb + TT_IMAGE_H_TABLE_CRC,
	      tt_crc32(0, hb + HB_TABLE, 2 * TT_IMAGE_ENTRY_SIZE));
	set32(hb + TT_IMAGE_H_HEADER_CRC, 0);
	set32(hb + TT_IMAGE_H_HEADER_CRC, tt_crc32(0, hb, 64));
}

static void set_entry(int i, const char *name, uint64_t off, uint64_t size,
		      uint32_t align)
{
	uint8_t *e = entry(i);

	memset(e, 0, TT_IMAGE_ENTRY_SIZE);
	strncpy((char *)e, name, TT_IMAGE_NAME_SIZE);
	set64(e + TT_IMAGE_E_OFFSET, off);
	set64(e + TT_IMAGE_E_SIZE, size);
	set32(e + TT_IMAGE_E_ALIGN, align);
	if (off <= HB_LEN && size <= HB_LEN - off)
		set32(e + TT_IMAGE_E_CRC, tt_crc32(0, hb + off, size));
}

static int hand_build(void **state)
{
	(void)state;
	memset(hb, 0, sizeof(hb));
	memcpy(hb, TT_IMAGE_MAGIC, 8);
	set32(hb + TT_IMAGE_H_VERSION, 1);
	set32(hb + TT_IMAGE_H_HEADER_SIZE, 64);
	set64(hb + TT_IMAGE_H_FILE_SIZE, HB_LEN);
	set64(hb + TT_IMAGE_H_TABLE_OFFSET, HB_TABLE);
	set32(hb + TT_IMAGE_H_SECTION_COUNT, 2);
	set32(hb + TT_IMAGE_H_ENTRY_SIZE, 64);
	for (int i = 0; i < 16; i++)
		hb[64 + i] = (uint8_t)(0xa0 + i);
	for (int i = 0; i < 32; i++)
		hb[128 + i] = (uint8_t)i;
	set_entry(0, "a", 64, 16, 16);
	set_entry(1, "params/w1", 128, 32, 64);
	seal();
	return 0;
}

/* Opening len bytes of hb fails with ret and a message holding each of
 * the words given (NULL-terminated). */
static void refused_len(size_t len, int ret, ...)
{
	tt_image *img = (tt_image *)1;
	va_list ap;
	const char *w;

	assert_int_equal(tt_image_open_memory(hb, len, &img), ret);
	assert_null(img);
	va_start(ap, ret);
	while ((w = va_arg(ap, const char *)))
		if (!strstr(tt_last_error(), w))
			fail_msg("\"%s\" not in \"%s\"", w, tt_last_error());
	va_end(ap);
}

#define refused(ret, ...) refused_len(HB_LEN, ret, __VA_ARGS__, NULL)

static void test_hand_built_opens(void **state)
{
	(void)state;
	tt_image *img;
	struct tt_image_section s;

	assert_int_equal(tt_image_open_memory(hb, HB_LEN, &img), 0);
	assert_int_equal(tt_image_version(img), 1);
	assert_int_equal(tt_image_file_size(img), HB_LEN);
	assert_int_equal(tt_image_section_count(img), 2);
	assert_string_equal(tt_image_path(img), "(memory)");
	assert_int_equal(tt_image_section_at(img, 1, &s), 0);
	assert_string_equal(s.name, "params/w1");
	assert_int_equal(s.offset, 128);
	assert_int_equal(s.size, 32);
	assert_int_equal(s.align, 64);
	assert_memory_equal(s.data, hb + 128, 32);
	assert_int_equal((uintptr_t)s.data % 64, 0);
	assert_int_equal(tt_image_find(img, "a", &s), 0);
	assert_int_equal(s.offset, 64);
	assert_memory_equal(s.data, hb + 64, 16);
	/* A copy: the caller's buffer may change. */
	hb[64] ^= 0xff;
	assert_int_not_equal(((const uint8_t *)s.data)[0], hb[64]);
	assert_int_equal(tt_image_find(img, "b", &s), -ENOENT);
	assert_non_null(strstr(tt_last_error(), "\"b\""));
	assert_non_null(strstr(tt_last_error(), "(memory)"));
	assert_int_equal(tt_image_section_at(img, 2, &s), -ERANGE);
	tt_image_close(img);
}

static void test_null_args(void **state)
{
	(void)state;
	tt_image *img;
	struct tt_image_section s;

	assert_int_equal(tt_image_open(NULL, &img), -EINVAL);
	assert_string_equal(tt_last_error(), "tt_image_open: path is NULL");
	assert_int_equal(tt_image_open("x", NULL), -EINVAL);
	assert_int_equal(tt_image_open_memory(NULL, 8, &img), -EINVAL);
	assert_int_equal(tt_image_open_memory(hb, HB_LEN, NULL), -EINVAL);
	assert_int_equal(tt_image_section_at(NULL, 0, &s), -EINVAL);
	assert_int_equal(tt_image_find(NULL, "a", &s), -EINVAL);
	assert_int_equal(tt_image_section_count(NULL), 0);
	assert_int_equal(tt_image_version(NULL), 0);
	assert_null(tt_image_path(NULL));
	tt_image_close(NULL);
	assert_false(tt_image_name_valid(NULL));
}

/* ---- one refusal per check --------------------------------------------- */

static void test_bad_magic(void **state)
{
	(void)state;
	hb[3] = 'X';
	refused(-EINVAL, "(memory)", "not a tt image", "magic");
	refused_len(3, -EINVAL, "short file", NULL); /* "TTI": may be one */
	hb[1] = 'x';
	refused_len(3, -EINVAL, "not a tt image", NULL);
}

static void test_short(void **state)
{
	(void)state;
	refused_len(63, -EINVAL, "short file", "63 bytes", NULL);
	refused_len(5, -EINVAL, "short file", "5 bytes", NULL);
	refused_len(0, -EINVAL, "short file", NULL);
}

static void test_newer_version(void **state)
{
	(void)state;
	set32(hb + TT_IMAGE_H_VERSION, 2);
	seal();
	refused(-ENOTSUP, "made by a newer ttc: version 2, this libtt reads 1");
	/* Before the header checksum: a newer header may be laid out
	 * differently. */
	set32(hb + TT_IMAGE_H_HEADER_CRC, 0);
	refused(-ENOTSUP, "version 2");
}

static void test_version_zero(void **state)
{
	(void)state;
	set32(hb + TT_IMAGE_H_VERSION, 0);
	seal();
	refused(-EINVAL, "field version: 0");
}

static void test_header_crc(void **state)
{
	(void)state;
	hb[TT_IMAGE_H_HEADER_CRC] ^= 1;
	refused(-EINVAL, "header checksum", "header_crc32");
}

static void test_header_size(void **state)
{
	(void)state;
	set32(hb + TT_IMAGE_H_HEADER_SIZE, 128);
	seal();
	refused(-EINVAL, "field header_size: 128");
}

static void test_entry_size(void **state)
{
	(void)state;
	set32(hb + TT_IMAGE_H_ENTRY_SIZE, 32);
	seal();
	refused(-EINVAL, "field entry_size: 32");
}

static void test_reserved(void **state)
{
	(void)state;
	hb[TT_IMAGE_H_RESERVED + 5] = 7;
	seal();
	refused(-EINVAL, "field reserved: byte 5 is 0x07");
}

static void test_file_size(void **state)
{
	(void)state;
	set64(hb + TT_IMAGE_H_FILE_SIZE, HB_LEN + 8);
	seal();
	refused(-EINVAL, "field file_size: 296", "288 bytes");
	set64(hb + TT_IMAGE_H_FILE_SIZE, HB_LEN);
	seal();
	refused_len(HB_LEN + 1, -EINVAL, "field file_size: 288", "289 bytes",
		    NULL);
}

static void test_section_count(void **state)
{
	(void)state;
	set32(hb + TT_IMAGE_H_SECTION_COUNT, TT_IMAGE_MAX_SECTIONS + 1);
	seal();
	refused(-EINVAL, "field section_count: 65537");
}

static void test_table_align(void **state)
{
	(void)state;
	set64(hb + TT_IMAGE_H_TABLE_OFFSET, HB_TABLE + 4);
	seal();
	refused(-EINVAL, "field table_offset: 164 is not a multiple of 8");
}

static void test_table_in_header(void **state)
{
	(void)state;
	set64(hb + TT_IMAGE_H_TABLE_OFFSET, 56);
	seal();
	refused(-EINVAL, "field table_offset: 56 is inside the 64-byte header");
}

static void test_table_past_end(void **state)
{
	(void)state;
	set64(hb + TT_IMAGE_H_TABLE_OFFSET, HB_TABLE + 8);
	seal();
	refused(-EINVAL, "field table_offset: 168", "ends past the file");
	/* offset + size wraps around to a small number */
	set64(hb + TT_IMAGE_H_TABLE_OFFSET, UINT64_MAX - 63);
	seal();
	refused(-EINVAL, "field table_offset: 18446744073709551552",
		"ends past");
}

static void test_table_crc(void **state)
{
	(void)state;
	entry(1)[TT_IMAGE_E_CRC] ^= 1; /* not re-sealed: the table's CRC */
	set32(hb + TT_IMAGE_H_HEADER_CRC, 0);
	set32(hb + TT_IMAGE_H_HEADER_CRC, tt_crc32(0, hb, 64));
	refused(-EINVAL, "table checksum", "table_crc32");
}

static void test_name_unterminated(void **state)
{
	(void)state;
	memset(entry(1), 'n', TT_IMAGE_NAME_SIZE);
	seal();
	refused(-EINVAL, "entry 1", "field name", "not NUL-terminated");
}

static void test_name_padding(void **state)
{
	(void)state;
	entry(0)[20] = 'x';
	seal();
	refused(-EINVAL, "entry 0", "field name \"a\"",
		"byte 20 after its NUL");
}

static void test_names(void **state)
{
	(void)state;
	static const char *const bad[] = {"",	  "/a",	 "a/../b", "..",
					  "a//b", "a b", "a\x01",  "w\xc3\xa9"};
	char longest[40];

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		hand_build(NULL);
		set_entry(0, bad[i], 64, 16, 16);
		seal();
		refused(-EINVAL, "entry 0", "is not a section name");
		assert_false(tt_image_name_valid(bad[i]));
	}
	memset(longest, 'z', 39);
	longest[39] = 0;
	assert_true(tt_image_name_valid(longest));
	assert_true(tt_image_name_valid("A-z_0.9/x"));
	hand_build(NULL);
	set_entry(0, longest, 64, 16, 16);
	seal();
	tt_image *img;
	assert_int_equal(tt_image_open_memory(hb, HB_LEN, &img), 0);
	tt_image_close(img);
}

static void test_align(void **state)
{
	(void)state;
	static const uint32_t bad[] = {0, 3, 48, 131072, 0x80000000u};

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char want[64];

		set32(entry(0) + TT_IMAGE_E_ALIGN, bad[i]);
		seal();
		snprintf(want, sizeof(want), "field align: %u is not", bad[i]);
		refused(-EINVAL, "section a:", want);
	}
}

static void test_offset_alignment(void **state)
{
	(void)state;
	set32(entry(1) + TT_IMAGE_E_ALIGN, 256);
	seal();
	refused(-EINVAL, "section params/w1: field offset: 128 is not a "
			 "multiple of its align 256");
}

static void test_offset_wraps(void **state)
{
	(void)state;
	set_entry(1, "params/w1", UINT64_MAX - 63, 128, 64);
	seal();
	refused(-EINVAL, "section params/w1", "overflows 64 bits");
}

static void test_section_past_end(void **state)
{
	(void)state;
	set_entry(1, "params/w1", 256, 64, 64);
	seal();
	refused(-EINVAL, "section params/w1", "ends past the file's 288");
	set_entry(1, "params/w1", 320, 0, 64);
	seal();
	refused(-EINVAL, "section params/w1", "offset 320 + size 0");
}

static void test_section_in_header(void **state)
{
	(void)state;
	set_entry(0, "a", 32, 16, 16);
	seal();
	refused(-EINVAL, "section a: field offset: 32 is inside the 64-byte "
			 "header");
	set_entry(0, "a", 0, 0, 1);
	seal();
	refused(-EINVAL, "section a: field offset: 0 is inside");
}

static void test_section_on_table(void **state)
{
	(void)state;
	set_entry(1, "params/w1", 128, 40, 64);
	seal();
	refused(-EINVAL, "section params/w1: bytes 128..167 overlap the "
			 "section table (bytes 160..287)");
}

static void test_overlap(void **state)
{
	(void)state;
	set_entry(0, "a", 112, 32, 16);
	seal();
	refused(-EINVAL, "sections a (bytes 112..143) and params/w1 (bytes "
			 "128..159) overlap");
	/* one inside the other */
	set_entry(0, "a", 144, 8, 16);
	seal();
	refused(-EINVAL, "sections params/w1 (bytes 128..159) and a (bytes "
			 "144..151) overlap");
}

static void test_empty_sections(void **state)
{
	(void)state;
	tt_image *img;
	struct tt_image_section s;

	/* Empty sections overlap nothing, even inside another or at the
	 * file's end. */
	set_entry(0, "a", 144, 0, 16);
	seal();
	assert_int_equal(tt_image_open_memory(hb, HB_LEN, &img), 0);
	tt_image_close(img);
	set_entry(0, "a", HB_LEN, 0, 16);
	seal();
	assert_int_equal(tt_image_open_memory(hb, HB_LEN, &img), 0);
	assert_int_equal(tt_image_find(img, "a", &s), 0);
	assert_int_equal(s.size, 0);
	tt_image_close(img);
}

static void test_duplicate(void **state)
{
	(void)state;
	set_entry(0, "params/w1", 64, 16, 16);
	seal();
	refused(-EINVAL, "section name params/w1 appears twice (table entries "
			 "0 and 1)");
}

static void test_section_crc(void **state)
{
	(void)state;
	hb[150] ^= 0x10;
	refused(-EINVAL, "(memory): section params/w1: checksum 0x");
}

/* ---- CRC-32 ------------------------------------------------------------ */

static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
	}
	return ~c;
}

static void test_crc32(void **state)
{
	(void)state;
	static const char fox[] = "The quick brown fox jumps over the lazy dog";
	uint8_t buf[300];

	assert_int_equal(tt_crc32(0, "123456789", 9), 0xCBF43926u);
	assert_int_equal(tt_crc32(0, fox, strlen(fox)), 0x414FA339u);
	assert_int_equal(tt_crc32(0, "", 0), 0);
	assert_int_equal(tt_crc32(0, "a", 1), 0xE8B7BE43u);
	/* Continuing: any split gives the whole's CRC. */
	for (size_t i = 0; i <= 9; i++)
		assert_int_equal(tt_crc32(tt_crc32(0, "123456789", i),
					  "123456789" + i, 9 - i),
				 0xCBF43926u);
	/* Every length and starting alignment against the bit-at-a-time
	 * definition (the 16-byte steps and the tail). */
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 197 + 11);
	for (size_t start = 0; start < 17; start++)
		for (size_t n = 0; start + n <= sizeof(buf); n += 7)
			assert_int_equal(tt_crc32(0, buf + start, n),
					 crc_bitwise(buf + start, n));
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Opening checks every byte: 100 MB must take well under 0.1 s. Timed
 * on 32 MB (about 20 ms here) with a bound loose enough for a loaded
 * machine, tight enough to catch a bit-at-a-time loop; only in optimized
 * builds without sanitizers (a debug ASan build takes about 130 ms). */
static void test_crc32_speed(void **state)
{
	(void)state;
	size_t n = 32u << 20;
	uint8_t *b = malloc(n);
	double best = 1e9;

	assert_non_null(b);
	memset(b, 0x5a, n);
	for (int r = 0; r < 3; r++) {
		double t0 = now_s();
		volatile uint32_t c = tt_crc32(0, b, n);

		(void)c;
		if (now_s() - t0 < best)
			best = now_s() - t0;
	}
	free(b);
	print_message("CRC-32 of 32 MB: %.1f ms\n", best * 1e3);
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
	if (best > 0.2)
		fail_msg("CRC-32 of 32 MB took %.3f s", best);
#endif
}

/* ---- the writer -------------------------------------------------------- */

static ttc_ctx *ctx;
static char dir[256];

static int writer_setup(void **state)
{
	(void)state;
	ctx = ttc_ctx_new();
	return ctx && test_mkdtemp(dir, sizeof(dir), "test_image") ? 0 : -1;
}

static int writer_teardown(void **state)
{
	(void)state;
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ttc_ctx_free(ctx);
	return system(cmd) == 0 ? 0 : -1;
}

static char *path_in(const char *name)
{
	static char p[2][400];
	static int k;

	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

/* The names in dir, sorted, joined by ' '. */
static const char *listing(void)
{
	static char out[1024];
	struct dirent **v;
	int n = scandir(dir, &v, NULL, alphasort);

	out[0] = 0;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(out);

		if (strcmp(v[i]->d_name, ".") && strcmp(v[i]->d_name, ".."))
			snprintf(out + len, sizeof(out) - len, "%s%s",
				 len ? " " : "", v[i]->d_name);
		free(v[i]);
	}
	free(v);
	return out;
}

static void clear_dir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/* '%s'/.[!.]*", dir, dir);
	assert_int_equal(system(cmd), 0);
}

static uint8_t *pattern(size_t n, unsigned seed)
{
	uint8_t *b = malloc(n ? n : 1);

	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)((i * 2654435761u + seed) >> 7);
	return b;
}

static const struct {
	const char *name;
	size_t size;
	uint32_t align;
} rt[] = {
	{"manifest.yaml", 333, 1},   {"kernels/k0.elf", 1000, 8},
	{"empty", 0, 4096},	     {"params/w1", 5000, 64},
	{"params/w2", 70000, 65536}, {"consts/c", 7, 4096},
};

static ttc_tti_writer *round_trip_writer(void)
{
	ttc_tti_writer *w = ttc_tti_writer_new(ctx);

	for (size_t i = 0; i < sizeof(rt) / sizeof(*rt); i++) {
		uint8_t *d = pattern(rt[i].size, (unsigned)i);

		assert_int_equal(
			ttc_tti_add(w, rt[i].name, d, rt[i].size, rt[i].align),
			0);
		free(d);
	}
	return w;
}

static void check_round_trip(tt_image *img)
{
	assert_int_equal(tt_image_section_count(img), sizeof(rt) / sizeof(*rt));
	for (size_t i = 0; i < sizeof(rt) / sizeof(*rt); i++) {
		struct tt_image_section s;
		uint8_t *d = pattern(rt[i].size, (unsigned)i);

		assert_int_equal(tt_image_section_at(img, i, &s), 0);
		assert_string_equal(s.name, rt[i].name);
		assert_int_equal(s.size, rt[i].size);
		assert_int_equal(s.align, rt[i].align);
		assert_int_equal(s.offset % rt[i].align, 0);
		assert_int_equal((uintptr_t)s.data % rt[i].align, 0);
		assert_memory_equal(s.data, d, rt[i].size);
		assert_int_equal(s.crc32, tt_crc32(0, d, rt[i].size));
		assert_int_equal(tt_image_find(img, rt[i].name, &s), 0);
		assert_string_equal(s.name, rt[i].name);
		free(d);
	}
}

static void test_round_trip(void **state)
{
	(void)state;
	ttc_tti_writer *w = round_trip_writer();
	const char *path = path_in("m.tti");
	tt_image *img;
	struct stat st;
	mode_t mask = umask(022);

	umask(mask);
	assert_int_equal(ttc_tti_write(w, path), 0);
	ttc_tti_writer_free(w);
	assert_string_equal(listing(), "m.tti"); /* no temporary file */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644 & ~mask);
	assert_int_equal(tt_image_open(path, &img), 0);
	assert_string_equal(tt_image_path(img), path);
	assert_int_equal(tt_image_file_size(img), st.st_size);
	check_round_trip(img);
	tt_image_close(img);
	clear_dir();
}

/* The mapping keeps the bytes it mapped when the file is replaced (as the
 * writer replaces files, by rename). */
static void test_replaced_while_open(void **state)
{
	(void)state;
	ttc_tti_writer *w = round_trip_writer();
	ttc_tti_writer *w2 = ttc_tti_writer_new(ctx);
	const char *path = path_in("m.tti");
	tt_image *img, *img2;

	assert_int_equal(ttc_tti_write(w, path), 0);
	assert_int_equal(tt_image_open(path, &img), 0);
	assert_int_equal(ttc_tti_add(w2, "other", "xyz", 3, 1), 0);
	assert_int_equal(ttc_tti_write(w2, path), 0);
	check_round_trip(img);
	assert_int_equal(tt_image_open(path, &img2), 0);
	assert_int_equal(tt_image_section_count(img2), 1);
	tt_image_close(img2);
	tt_image_close(img);
	ttc_tti_writer_free(w);
	ttc_tti_writer_free(w2);
	clear_dir();
}

static void write_bytes(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static uint8_t *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	rewind(f);
	b = malloc(*n);
	assert_int_equal(fread(b, 1, *n, f), *n);
	fclose(f);
	return b;
}

/* The writer's bytes, read as a buffer: the same image; and every shorter
 * prefix of a small image, as a file and in memory, a clean refusal. */
static void test_truncated(void **state)
{
	(void)state;
	ttc_tti_writer *w = ttc_tti_writer_new(ctx);
	const char *path = path_in("t.tti"), *cut = path_in("cut.tti");
	size_t n;
	uint8_t *b;
	tt_image *img;

	assert_int_equal(ttc_tti_add(w, "a", "hello", 5, 1), 0);
	assert_int_equal(ttc_tti_add(w, "b/c", "world!!!", 8, 64), 0);
	assert_int_equal(ttc_tti_write(w, path), 0);
	ttc_tti_writer_free(w);
	b = read_all(path, &n);
	assert_int_equal(n, 64 + 64 + 8 + 2 * 64);
	assert_int_equal(tt_image_open_memory(b, n, &img), 0);
	tt_image_close(img);
	for (size_t len = 0; len < n; len++) {
		img = (tt_image *)1;
		assert_int_equal(tt_image_open_memory(b, len, &img), -EINVAL);
		assert_null(img);
		write_bytes(cut, b, len);
		assert_int_equal(tt_image_open(cut, &img), -EINVAL);
		assert_non_null(strstr(tt_last_error(), cut));
	}
	free(b);
	clear_dir();
}

/* The writer lays a file out exactly as docs/image.md says: the same two
 * sections give the hand-built image, byte for byte. */
static void test_writer_layout(void **state)
{
	(void)state;
	ttc_tti_writer *w = ttc_tti_writer_new(ctx);
	const char *path = path_in("hb.tti");
	uint8_t *b;
	size_t n;

	hand_build(NULL);
	assert_int_equal(ttc_tti_add(w, "a", hb + 64, 16, 16), 0);
	assert_int_equal(ttc_tti_add(w, "params/w1", hb + 128, 32, 64), 0);
	assert_int_equal(ttc_tti_write(w, path), 0);
	ttc_tti_writer_free(w);
	b = read_all(path, &n);
	assert_int_equal(n, HB_LEN);
	assert_memory_equal(b, hb, HB_LEN);
	free(b);
	clear_dir();
}

static void test_open_errors(void **state)
{
	(void)state;
	tt_image *img;

	assert_int_equal(tt_image_open(path_in("missing.tti"), &img), -ENOENT);
	assert_non_null(strstr(tt_last_error(), "missing.tti: cannot open"));
	assert_int_equal(tt_image_open(dir, &img), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "not a regular file"));
	/* A FIFO with no writer: refused at once, not waited on. */
	assert_int_equal(mkfifo(path_in("fifo"), 0600), 0);
	assert_int_equal(tt_image_open(path_in("fifo"), &img), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "fifo: not a regular file"));
	write_bytes(path_in("elf"),
		    "\x7f"
		    "ELF\2\1\1\0\0\0\0\0\0\0\0\0",
		    16);
	assert_int_equal(tt_image_open(path_in("elf"), &img), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "elf: not a tt image"));
	clear_dir();
}

static void test_writer_refusals(void **state)
{
	(void)state;
	ttc_tti_writer *w = ttc_tti_writer_new(ctx);

	assert_null(ttc_tti_writer_new(NULL));
	assert_int_equal(ttc_tti_add(w, "x", "1", 1, 1), 0);
	assert_int_equal(ttc_tti_add(w, "x", "2", 1, 1), -EEXIST);
	assert_non_null(strstr(ttc_ctx_error(ctx), "\"x\": a section of this"));
	assert_int_equal(ttc_tti_add(w, "a/../b", "2", 1, 1), -EINVAL);
	assert_non_null(
		strstr(ttc_ctx_error(ctx), "\"a/../b\": not a section"));
	assert_int_equal(ttc_tti_add(w, "/abs", "2", 1, 1), -EINVAL);
	assert_int_equal(ttc_tti_add(w, NULL, "2", 1, 1), -EINVAL);
	assert_int_equal(ttc_tti_add(w, "y", NULL, 1, 1), -EINVAL);
	assert_int_equal(ttc_tti_add(w, "y", "2", 1, 3), -EINVAL);
	assert_non_null(strstr(ttc_ctx_error(ctx), "\"y\": align"));
	assert_int_equal(ttc_tti_add(w, "y", "2", 1, 131072), -EINVAL);
	assert_int_equal(ttc_tti_add(w, "y", "2", 1, 0), -EINVAL);
	assert_int_equal(ttc_tti_add(w, "y", NULL, 0, 1), 0);
	assert_int_equal(ttc_tti_add(NULL, "z", "2", 1, 1), -EINVAL);
	assert_int_equal(ttc_tti_write(NULL, "p"), -EINVAL);
	assert_int_equal(ttc_tti_write(w, NULL), -EINVAL);
	ttc_tti_writer_free(w);
	ttc_tti_writer_free(NULL);
	ttc_ctx_clear_diags(ctx);
}

/* A write that fails names the path and leaves neither the image nor a
 * temporary file; an image already there stays as it was. */
static void test_write_failures(void **state)
{
	(void)state;
	ttc_tti_writer *w = round_trip_writer();
	struct rlimit old, lim;
	char *p;
	size_t n;

	assert_int_equal(ttc_tti_write(w, path_in("no/such/dir/m.tti")),
			 -ENOENT);
	assert_non_null(strstr(ttc_ctx_error(ctx), "no/such/dir/m.tti"));
	assert_int_equal(ttc_tti_write(w, "/dev/null/m.tti"), -ENOTDIR);
	assert_non_null(strstr(ttc_ctx_error(ctx), "/dev/null/m.tti"));
	/* The target is a directory: the rename fails, after the write. */
	assert_int_equal(mkdir(path_in("d.tti"), 0755), 0);
	assert_true(ttc_tti_write(w, path_in("d.tti")) < 0);
	assert_string_equal(listing(), "d.tti");
	/* A file size limit stops the write half way (EFBIG, even for
	 * root); the image already at the path survives. */
	write_bytes(path_in("m.tti"), "old", 3);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 50000;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	int ret = ttc_tti_write(w, path_in("m.tti"));
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(ret, -EFBIG);
	assert_non_null(strstr(ttc_ctx_error(ctx), "m.tti: write"));
	assert_string_equal(listing(), "d.tti m.tti");
	p = (char *)read_all(path_in("m.tti"), &n);
	assert_int_equal(n, 3);
	assert_memory_equal(p, "old", 3);
	free(p);
	ttc_tti_writer_free(w);
	ttc_ctx_clear_diags(ctx);
	clear_dir();
}

#define HB(t) cmocka_unit_test_setup(t, hand_build)

int main(void)
{
	const struct CMUnitTest reader[] = {
		HB(test_hand_built_opens),
		HB(test_null_args),
		HB(test_bad_magic),
		HB(test_short),
		HB(test_newer_version),
		HB(test_version_zero),
		HB(test_header_crc),
		HB(test_header_size),
		HB(test_entry_size),
		HB(test_reserved),
		HB(test_file_size),
		HB(test_section_count),
		HB(test_table_align),
		HB(test_table_in_header),
		HB(test_table_past_end),
		HB(test_table_crc),
		HB(test_name_unterminated),
		HB(test_name_padding),
		HB(test_names),
		HB(test_align),
		HB(test_offset_alignment),
		HB(test_offset_wraps),
		HB(test_section_past_end),
		HB(test_section_in_header),
		HB(test_section_on_table),
		HB(test_overlap),
		HB(test_empty_sections),
		HB(test_duplicate),
		HB(test_section_crc),
		cmocka_unit_test(test_crc32),
		cmocka_unit_test(test_crc32_speed),
	};
	const struct CMUnitTest writer[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_replaced_while_open),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_writer_layout),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_writer_refusals),
		cmocka_unit_test(test_write_failures),
	};
	int fails =
		cmocka_run_group_tests_name("image reader", reader, NULL, NULL);

	return fails |
	       cmocka_run_group_tests_name("image writer", writer, writer_setup,
					   writer_teardown);
}
