// SPDX-License-Identifier: Apache-2.0
/*
 * The RV32 ELF reader (common/elf.c). Files are written in memory by the
 * small writer below (its own field offsets, from the ELF specification,
 * so a wrong offset in the reader shows), then damaged: truncated at
 * every length, every header field made wrong in turn, and a few thousand
 * deterministic random corruptions, each of which must either load with
 * every promise of elf.h kept or fail with a message. Every input lives in
 * a heap buffer of exactly its length, so under ASan any read past it
 * fails the test. A last case loads a program built by the real
 * cross-compiler.
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
#include <unistd.h>

#include <cmocka.h>

#include "common/elfload.h"
#include "tmpdir.h"

/* ------------------------------------------------------------------ */
/* A tiny ELF writer */

#define EHDR 52u
#define PHDR 32u
#define PT_LOAD 1u
#define PT_NOTE 4u
#define ET_EXEC 2u
#define EM_RISCV 243u
#define MAX_W 20

struct wseg {
	uint32_t type, vaddr, filesz, memsz, flags;
};

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

static uint8_t file[0x4000];
static uint32_t seg_off[MAX_W]; /* file offset of each header's data */

/* Header at 0, program headers at 52, data from 0x100 or after the
 * headers, each 16-aligned. Returns the file's length. */
static size_t write_elf(const struct wseg *s, unsigned n, uint32_t entry)
{
	uint32_t off = (EHDR + n * PHDR + 15) & ~15u;

	if (off < 0x100)
		off = 0x100;

	memset(file, 0, sizeof(file));
	memcpy(file, "\177ELF", 4);
	file[4] = 1; /* ELFCLASS32 */
	file[5] = 1; /* ELFDATA2LSB */
	file[6] = 1; /* EV_CURRENT */
	put16(file + 16, ET_EXEC);
	put16(file + 18, EM_RISCV);
	put32(file + 20, 1);
	put32(file + 24, entry);
	put32(file + 28, EHDR); /* e_phoff */
	put32(file + 36, 0);	/* e_flags */
	put16(file + 40, EHDR);
	put16(file + 42, PHDR);
	put16(file + 44, n);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *ph = file + EHDR + i * PHDR;

		seg_off[i] = off;
		put32(ph + 0, s[i].type);
		put32(ph + 4, off);
		put32(ph + 8, s[i].vaddr);
		put32(ph + 12, s[i].vaddr);
		put32(ph + 16, s[i].filesz);
		put32(ph + 20, s[i].memsz);
		put32(ph + 24, s[i].flags);
		put32(ph + 28, 4);
		for (uint32_t j = 0; j < s[i].filesz; j++)
			file[off + j] = (uint8_t)(i * 31 + j);
		off = (off + s[i].filesz + 15) & ~15u;
	}
	return off;
}

/* Program header i, field at byte offset f. */
static void set_ph(unsigned i, unsigned f, uint32_t v)
{
	put32(file + EHDR + i * PHDR + f, v);
}

#define PH_OFFSET 4
#define PH_VADDR 8
#define PH_FILESZ 16
#define PH_MEMSZ 20
#define PH_FLAGS 24

/* The standard valid file: code, a note, data with bss, an empty load. */
static const struct wseg std_segs[] = {
	{PT_LOAD, 0x0, 0x200, 0x200, ELF_SEG_R | ELF_SEG_X},
	{PT_NOTE, 0x0, 0x20, 0x20, ELF_SEG_R},
	{PT_LOAD, 0x1000, 0x80, 0x400, ELF_SEG_R | ELF_SEG_W},
	{PT_LOAD, 0x3000, 0, 0, ELF_SEG_R},
};
#define STD_N 4u
#define STD_ENTRY 0x40u

static size_t std_file(void)
{
	return write_elf(std_segs, STD_N, STD_ENTRY);
}

/* ------------------------------------------------------------------ */
/* Loading from an exact-size heap copy */

static struct elf_image img;
static char err[256];

static int load_copy(const uint8_t *data, size_t len, uint8_t **copy)
{
	int ret;

	*copy = malloc(len ? len : 1);
	assert_non_null(*copy);
	memcpy(*copy, data, len);
	memset(err, 0, sizeof(err));
	ret = elf_load(*copy, len, &img, err, sizeof(err));
	return ret;
}

static bool image_is_zero(void)
{
	static const struct elf_image zero;

	return memcmp(&img, &zero, sizeof(img)) == 0;
}

/* Load file[0..len) and expect failure code `code` with `why` in the
 * message, and a zeroed image. */
static void expect_fail(size_t len, int code, const char *why)
{
	uint8_t *copy;
	int ret = load_copy(file, len, &copy);

	free(copy);
	if (ret != code)
		fail_msg("expected %d ('%s'), got %d: '%s'", code, why, ret,
			 err);
	if (!strstr(err, why))
		fail_msg("expected '%s' in: '%s'", why, err);
	assert_true(image_is_zero());
}

static void expect_ok(size_t len)
{
	uint8_t *copy;
	int ret = load_copy(file, len, &copy);

	free(copy);
	if (ret)
		fail_msg("load failed: %s", err);
}

/* Every promise elf.h makes about a loaded image, for data[0..len). */
static void check_invariants(const uint8_t *data, size_t len)
{
	bool entry_ok = false;

	assert_true(img.count >= 1 && img.count <= ELF_MAX_SEGMENTS);
	for (unsigned k = 0; k < img.count; k++) {
		const struct elf_segment *s = &img.seg[k];

		assert_true(s->memsz > 0 && s->filesz <= s->memsz);
		assert_true((uint64_t)s->vaddr + s->memsz <= 0x100000000ull);
		if (s->filesz) {
			assert_true(s->file_data >= data);
			assert_true((size_t)(s->file_data - data) <= len);
			assert_true(s->filesz <=
				    len - (size_t)(s->file_data - data));
		} else {
			assert_null(s->file_data);
		}
		for (unsigned j = 0; j < k; j++) {
			const struct elf_segment *t = &img.seg[j];

			assert_true((uint64_t)s->vaddr + s->memsz <= t->vaddr ||
				    (uint64_t)t->vaddr + t->memsz <= s->vaddr);
		}
		if ((s->flags & ELF_SEG_X) && img.entry >= s->vaddr &&
		    img.entry - s->vaddr < s->filesz)
			entry_ok = true;
	}
	assert_true(entry_ok);
	assert_int_equal(img.entry & 3, 0);
}

/* ------------------------------------------------------------------ */

static void test_valid_file_loads_exactly(void **state)
{
	size_t len = std_file();
	uint8_t *copy;

	(void)state;
	assert_int_equal(load_copy(file, len, &copy), 0);
	assert_int_equal(img.entry, STD_ENTRY);
	assert_int_equal(img.count,
			 2); /* the note and the empty load skipped */
	assert_int_equal(img.seg[0].vaddr, 0);
	assert_ptr_equal(img.seg[0].file_data, copy + seg_off[0]);
	assert_int_equal(img.seg[0].filesz, 0x200);
	assert_int_equal(img.seg[0].memsz, 0x200);
	assert_int_equal(img.seg[0].flags, ELF_SEG_R | ELF_SEG_X);
	assert_int_equal(img.seg[1].vaddr, 0x1000);
	assert_ptr_equal(img.seg[1].file_data, copy + seg_off[2]);
	assert_int_equal(img.seg[1].filesz, 0x80);
	assert_int_equal(img.seg[1].memsz, 0x400);
	assert_int_equal(img.seg[1].flags, ELF_SEG_R | ELF_SEG_W);
	assert_memory_equal(img.seg[1].file_data, file + seg_off[2], 0x80);
	check_invariants(copy, len);
	free(copy);

	/* A NULL message buffer is fine too. */
	assert_int_equal(elf_load(file, len, &img, NULL, 0), 0);
	assert_int_equal(elf_load(NULL, 0, &img, NULL, 0), -ENOEXEC);
	assert_int_equal(elf_load(file, 10, &img, err, 1), -ENOEXEC);
	assert_int_equal(err[0], 0);
}

/* Cut short anywhere, the file must be refused, never over-read. */
static void test_truncated_everywhere(void **state)
{
	size_t len = std_file();

	(void)state;
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy;
		int ret = load_copy(file, n, &copy);

		free(copy);
		if (ret >= 0)
			fail_msg("loaded when cut to %zu of %zu bytes", n, len);
		assert_true(ret == -EINVAL || ret == -ENOEXEC);
		assert_true(err[0] != 0);
		assert_true(image_is_zero());
	}
	expect_fail(51, -ENOEXEC,
		    "file is 51 bytes, shorter than the 52-byte ELF header");
	expect_fail(EHDR + 3 * PHDR + 5, -EINVAL,
		    "program headers 0x34+4*32 run past the end of the "
		    "0x99-byte file");
	expect_fail(len - 1, -EINVAL,
		    "segment 2: file range 0x320+0x80 runs past the end of the "
		    "0x39f-byte file");
	expect_ok(len);
}

static void test_wrong_identity(void **state)
{
	size_t len = std_file();

	(void)state;
	file[0] = 0x7E;
	expect_fail(len, -ENOEXEC, "not an ELF file");
	std_file();
	file[4] = 2;
	expect_fail(len, -ENOEXEC, "ELF class 2, not ELFCLASS32");
	std_file();
	file[5] = 2;
	expect_fail(len, -ENOEXEC, "data encoding 2, not ELFDATA2LSB");
	std_file();
	file[6] = 0;
	expect_fail(len, -ENOEXEC, "ELF ident version 0");
	std_file();
	put16(file + 18, 62); /* x86-64 */
	expect_fail(len, -ENOEXEC, "e_machine 62, not EM_RISCV (243)");
	std_file();
	put16(file + 16, 3);
	expect_fail(len, -ENOEXEC,
		    "e_type 3, not ET_EXEC (2): a shared object");
	put16(file + 16, 1);
	expect_fail(len, -ENOEXEC, "e_type 1, not ET_EXEC");
	std_file();
	put32(file + 20, 2);
	expect_fail(len, -EINVAL, "e_version 2, not 1");
	std_file();
	put16(file + 40, 64);
	expect_fail(len, -EINVAL, "e_ehsize 64, expected 52");
}

static void test_flags_a_hart_cannot_run(void **state)
{
	size_t len = std_file();

	(void)state;
	put32(file + 36, 0x1);
	expect_fail(len, -ENOEXEC, "e_flags 0x1: built for compressed");
	put32(file + 36, 0x4);
	expect_fail(len, -ENOEXEC, "hard-float ABI");
	put32(file + 36, 0x2);
	expect_fail(len, -ENOEXEC, "hard-float ABI");
	put32(file + 36, 0x8);
	expect_fail(len, -ENOEXEC, "RV32E");
	put32(file + 36, 0x10); /* TSO: harmless for an in-order hart */
	expect_ok(len);
}

static void test_program_header_table(void **state)
{
	size_t len = std_file();

	(void)state;
	put16(file + 44, 0);
	expect_fail(len, -EINVAL, "no program headers");
	put16(file + 44, 0xFFFF);
	expect_fail(len, -EINVAL, "extended program header numbering");
	put16(file + 44, 0xFFFE);
	expect_fail(len, -EINVAL, "program headers 0x34+65534*32 run past");
	std_file();
	put16(file + 42, 56);
	expect_fail(len, -EINVAL, "e_phentsize 56, expected 32");
	std_file();
	put32(file + 28, (uint32_t)len);
	expect_fail(len, -EINVAL, "run past the end");
	put32(file + 28, 0xFFFFFFF0u); /* wraps in 32-bit arithmetic */
	expect_fail(len, -EINVAL, "program headers 0xfffffff0+4*32 run past");
	/* A table ending exactly at the end of the file, then one byte
	 * short of it. */
	std_file();
	memcpy(file + len, file + EHDR, STD_N * PHDR);
	put32(file + 28, (uint32_t)len);
	expect_ok(len + STD_N * PHDR);
	expect_fail(len + STD_N * PHDR - 1, -EINVAL,
		    "program headers 0x3a0+4*32 run past the end of the "
		    "0x41f-byte file");
	/* The table may sit anywhere inside, even unaligned (it still ends
	 * before the data at 0x100). */
	std_file();
	memmove(file + 0x35, file + EHDR, STD_N * PHDR);
	put32(file + 28, 0x35);
	expect_ok(len);
}

static void test_segment_ranges(void **state)
{
	size_t len = std_file();

	(void)state;
	set_ph(2, PH_FILESZ, 0x401);
	expect_fail(len, -EINVAL,
		    "segment 2: filesz 0x401 exceeds memsz 0x400");
	std_file();
	set_ph(2, PH_FILESZ, 0x100);
	expect_fail(len, -EINVAL,
		    "segment 2: file range 0x320+0x100 runs past the end of "
		    "the 0x3a0-byte file");
	std_file();
	set_ph(2, PH_OFFSET, 0xFFFFFFFFu);
	expect_fail(len, -EINVAL, "segment 2: file range 0xffffffff+0x80");
	std_file();
	set_ph(0, PH_OFFSET, (uint32_t)len - 0x1FF);
	expect_fail(len, -EINVAL, "segment 0: file range");

	/* Address space: ending at the top is fine, one more byte wraps. */
	std_file();
	set_ph(2, PH_VADDR, 0xFFFFFC00u);
	expect_ok(len);
	assert_int_equal(img.seg[1].vaddr, 0xFFFFFC00u);
	set_ph(2, PH_VADDR, 0xFFFFFC01u);
	expect_fail(len, -EINVAL, "segment 2: 0xfffffc01+0x400 wraps");
	set_ph(2, PH_MEMSZ, 0xFFFFFFFFu);
	set_ph(2, PH_VADDR, 0x1000);
	expect_fail(len, -EINVAL, "segment 2: 0x1000+0xffffffff wraps");

	/* A bss-only segment needs no file bytes, wherever its offset. */
	std_file();
	set_ph(2, PH_FILESZ, 0);
	set_ph(2, PH_OFFSET, 0xFFFFFFF0u);
	expect_ok(len);
	assert_null(img.seg[1].file_data);
	assert_int_equal(img.seg[1].memsz, 0x400);
}

static void test_overlapping_segments(void **state)
{
	size_t len = std_file();

	(void)state;
	set_ph(2, PH_VADDR, 0x1FF);
	expect_fail(len, -EINVAL,
		    "segments 0 and 2 overlap: 0x0+0x200 and 0x1ff+0x400");
	set_ph(2, PH_VADDR, 0x200); /* adjacent is fine */
	expect_ok(len);
	/* The data segment's bss covering the code. */
	set_ph(2, PH_VADDR, 0xFFFFFF00u);
	set_ph(2, PH_MEMSZ, 0x100);
	set_ph(2, PH_FILESZ, 0x80);
	expect_ok(len);
	set_ph(0, PH_VADDR, 0xFFFFFE80u);
	set_ph(0, PH_FILESZ, 0x180);
	set_ph(0, PH_MEMSZ, 0x180);
	put32(file + 24, 0xFFFFFE80u);
	expect_fail(len, -EINVAL, "segments 0 and 2 overlap");
}

static void test_segment_counts(void **state)
{
	struct wseg s[MAX_W];
	size_t len;

	(void)state;
	for (unsigned i = 0; i < MAX_W; i++)
		s[i] = (struct wseg){PT_LOAD, i * 0x100, 0x10, 0x100,
				     ELF_SEG_R | ELF_SEG_X};
	len = write_elf(s, 16, 0);
	expect_ok(len);
	assert_int_equal(img.count, 16);
	len = write_elf(s, 17, 0);
	expect_fail(len, -EINVAL, "segment 16: more than 16 loadable segments");
	/* Non-loadable headers do not count. */
	s[3].type = PT_NOTE;
	len = write_elf(s, 17, 0);
	expect_ok(len);
	assert_int_equal(img.count, 16);

	for (unsigned i = 0; i < 3; i++)
		s[i].type = PT_NOTE;
	len = write_elf(s, 3, 0);
	expect_fail(len, -EINVAL, "no loadable segment (PT_LOAD)");
	s[1] = (struct wseg){PT_LOAD, 0, 0, 0, ELF_SEG_X};
	len = write_elf(s, 3, 0);
	expect_fail(len, -EINVAL, "no loadable segment");
}

static void test_entry_point(void **state)
{
	size_t len = std_file();

	(void)state;
	put32(file + 24, 0x1FC); /* last word of the code */
	expect_ok(len);
	put32(file + 24, 0x200);
	expect_fail(len, -EINVAL, "entry point 0x200 is outside every segment");
	put32(file + 24, 0x1010);
	expect_fail(len, -EINVAL,
		    "entry point 0x1010 is in segment 2, which is not "
		    "executable");
	put32(file + 24, 0x42);
	expect_fail(len, -EINVAL, "entry point 0x42 is not 4-byte aligned");
	/* In the zero-filled tail of an executable segment. */
	std_file();
	set_ph(2, PH_FLAGS, ELF_SEG_R | ELF_SEG_X);
	put32(file + 24, 0x1100);
	expect_fail(len, -EINVAL,
		    "entry point 0x1100 is in segment 2 past its file data "
		    "(0x1000+0x80)");
	put32(file + 24, 0x1080); /* first byte past the file data */
	expect_fail(len, -EINVAL, "entry point 0x1080 is in segment 2 past");
	put32(file + 24, 0x107C);
	expect_ok(len);
	put32(file + 24, 0x1000);
	expect_ok(len);
}

/* xorshift32: a fixed sequence, so failures reproduce. */
static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void test_random_corruption(void **state)
{
	size_t len = std_file();
	size_t head = EHDR + STD_N * PHDR;
	unsigned loaded = 0, refused = 0;
	uint32_t x = 0x2545F491u;
	static uint8_t base[sizeof(file)];

	(void)state;
	memcpy(base, file, len);
	for (unsigned round = 0; round < 5000; round++) {
		unsigned edits = 1 + rnd(&x) % 4;
		uint8_t *copy;
		int ret;

		memcpy(file, base, len);
		for (unsigned e = 0; e < edits; e++) {
			/* Mostly the headers, where the decisions are. */
			size_t at =
				rnd(&x) % 4 ? rnd(&x) % head : rnd(&x) % len;
			uint32_t how = rnd(&x);

			if (how & 1)
				file[at] ^= (uint8_t)(1u << (how >> 1) % 8);
			else
				file[at] = (uint8_t)(how >> 8);
		}
		ret = load_copy(file, len, &copy);
		if (ret == 0) {
			check_invariants(copy, len);
			loaded++;
		} else {
			assert_true(ret == -EINVAL || ret == -ENOEXEC);
			if (!err[0])
				fail_msg("round %u: refused without a message",
					 round);
			assert_true(image_is_zero());
			refused++;
		}
		free(copy);
	}
	/* Both outcomes must be common, or the test proves little. */
	assert_true(loaded > 500 && refused > 500);
}

static void test_check_fits(void **state)
{
	size_t len = std_file();
	uint8_t *copy;

	(void)state;
	assert_int_equal(load_copy(file, len, &copy), 0);
	free(copy);
	assert_int_equal(elf_check_fits(&img, 0, 0x1400, err, sizeof(err)), 0);
	assert_int_equal(elf_check_fits(&img, 0, 0x13FF, err, sizeof(err)),
			 -ERANGE);
	assert_string_equal(
		err, "segment at 0x1000+0x400 lies outside [0x0, 0x13ff)");
	assert_int_equal(
		elf_check_fits(&img, 0x100, 0x100000, err, sizeof(err)),
		-ERANGE);
	assert_non_null(strstr(err, "segment at 0x0+0x200"));
	assert_int_equal(elf_check_fits(&img, 0x2000, 0x1000, NULL, 0),
			 -ERANGE);
	assert_int_equal(elf_check_fits(&img, 0, 0xFFFFFFFFu, NULL, 0), 0);
}

/* ------------------------------------------------------------------ */
/* A program from the real toolchain */

#define CROSS "riscv64-unknown-elf-"

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return st == 0 ? 0 : -1;
}

static void test_real_toolchain_program(void **state)
{
	const char *data = getenv("TT_TEST_DATA");
	char dir[256], cmd[1536], elf_path[300], bin_path[300];
	uint8_t *elf, *text;
	size_t elf_len, text_len;

	(void)state;
	if (!data || run(CROSS "gcc --version >/dev/null 2>&1")) {
		skip();
		return;
	}
	assert_non_null(test_mkdtemp(dir, sizeof(dir), "tt-elf"));
	snprintf(elf_path, sizeof(elf_path), "%s/prog.elf", dir);
	snprintf(bin_path, sizeof(bin_path), "%s/text.bin", dir);
	snprintf(cmd, sizeof(cmd),
		 CROSS "gcc -march=rv32im -mabi=ilp32 -ffreestanding "
		       "-nostdlib -O2 -T '%s/elf/prog.ld' '%s/elf/prog.c' "
		       "-o '%s' && " CROSS "objcopy -O binary -j .text '%s' "
		       "'%s'",
		 data, data, elf_path, elf_path, bin_path);
	assert_int_equal(run(cmd), 0);
	elf = read_all(elf_path, &elf_len);
	text = read_all(bin_path, &text_len);

	if (elf_load(elf, elf_len, &img, err, sizeof(err)))
		fail_msg("real program refused: %s", err);
	check_invariants(elf, elf_len);
	assert_int_equal(img.entry, 0x100); /* prog.ld */
	assert_int_equal(img.count, 2);	    /* code, data + bss */
	/* The code segment holds .text at 0x100, byte for byte. */
	assert_true(img.seg[0].flags & ELF_SEG_X);
	assert_true(img.seg[0].vaddr <= 0x100);
	assert_true(img.seg[0].vaddr + img.seg[0].filesz >= 0x100 + text_len);
	assert_memory_equal(img.seg[0].file_data + (0x100 - img.seg[0].vaddr),
			    text, text_len);
	/* Data: `counter` initialised, `table` zero-filled after it. */
	assert_int_equal(img.seg[1].vaddr, 0x1000);
	assert_true(img.seg[1].flags & ELF_SEG_W);
	assert_false(img.seg[1].flags & ELF_SEG_X);
	assert_true(img.seg[1].memsz >= img.seg[1].filesz + 64 * 4);
	assert_int_equal(img.seg[1].file_data[0], 5);
	/* It fits a Wormhole Tensix L1, and not above 0x1000 alone. */
	assert_int_equal(elf_check_fits(&img, 0, 1499136, err, sizeof(err)), 0);
	assert_int_equal(
		elf_check_fits(&img, 0x1000, 1499136, err, sizeof(err)),
		-ERANGE);

	free(elf);
	free(text);
	unlink(elf_path);
	unlink(bin_path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_file_loads_exactly),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_wrong_identity),
		cmocka_unit_test(test_flags_a_hart_cannot_run),
		cmocka_unit_test(test_program_header_table),
		cmocka_unit_test(test_segment_ranges),
		cmocka_unit_test(test_overlapping_segments),
		cmocka_unit_test(test_segment_counts),
		cmocka_unit_test(test_entry_point),
		cmocka_unit_test(test_random_corruption),
		cmocka_unit_test(test_check_fits),
		cmocka_unit_test(test_real_toolchain_program),
	};

	return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
