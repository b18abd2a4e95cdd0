// SPDX-License-Identifier: Apache-2.0
/*
 * Kernel compilation (lib/kbuild/kbuild.c): SHA-256 against the FIPS 180-4
 * examples, kernels built into the slot of each processor, the runtime
 * defines, the memory and disk caches and everything that must
 * invalidate them, compiler and size errors, hostile defines, damaged
 * cache entries, builds without a usable cache directory, and kernels
 * served from a filled cache without the compiler.
 *
 * Every test gets a fresh cache directory (TT_KERNEL_CACHE) and starts as
 * a new process would (tt_kbuild_reset), so the statistics say exactly
 * how each request was served.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/kbuild/kbuild.h"
#include "lib/kbuild/kcache.h"
#include "lib/kbuild/ksdk.h"
#include "lib/kbuild/sha256.h"
#include "hw/l1.h"
#include "tmpdir.h"

/* ------------------------------------------------------------------ */
/* Fixtures */

static char cache_dir[PATH_MAX]; /* this test's TT_KERNEL_CACHE */
static char work_dir[PATH_MAX]; /* this test's files */
static char *saved_sdk; /* TT_KERNEL_SDK as the test run started */
static char *saved_tmpdir; /* TMPDIR likewise */
static struct tt_kbuild_stats base; /* the statistics as the test began */

static void rm_rf(const char *path)
{
	if (path[0])
		test_rmtree(path);
}

static int setup(void **state)
{
	(void)state;
	if (saved_tmpdir)
		setenv("TMPDIR", saved_tmpdir, 1);
	else
		unsetenv("TMPDIR");
	if (!test_mkdtemp(cache_dir, sizeof(cache_dir), "tt-kcache") ||
	    !test_mkdtemp(work_dir, sizeof(work_dir), "tt-kwork"))
		return -1;
	setenv("TT_KERNEL_CACHE", cache_dir, 1);
	unsetenv("TT_KERNEL_CC");
	if (saved_sdk)
		setenv("TT_KERNEL_SDK", saved_sdk, 1);
	else
		unsetenv("TT_KERNEL_SDK");
	tt_kbuild_reset();
	tt_kbuild_get_stats(&base);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(cache_dir);
	rm_rf(work_dir);
	return 0;
}

static struct tt_kbuild_stats stats(void)
{
	struct tt_kbuild_stats s;

	tt_kbuild_get_stats(&s);
	s.mem_hits -= base.mem_hits;
	s.disk_hits -= base.disk_hits;
	s.builds -= base.builds;
	s.portable_hits -= base.portable_hits;
	return s;
}

/* Requests and results */

/* How this test's requests were served so far. */

static const char k_simple[] =
	"#include <stdint.h>\n"
	"volatile uint32_t marker[2] = { 0x5A5A1234u, 0 };\n"
	"void kernel_main(void)\n"
	"{\n"
	"\tmarker[1]++;\n"
	"}\n";

static struct tt_kbuild_opts src_opts(enum tt_kproc proc, const char *src)
{
	struct tt_kbuild_opts o = {
		.proc = proc,
		.source = src,
		.source_len = strlen(src),
	};

	return o;
}

static struct tt_kbinary *build_ok(const struct tt_kbuild_opts *o)
{
	struct tt_kbinary *b = NULL;
	int ret = tt_kbuild(o, &b);

	if (ret)
		fail_msg("tt_kbuild: %d: %s", ret, tt_last_error());
	assert_non_null(b);
	return b;
}

/* tt_kbuild fails with code and a message containing each of the
 * NULL-terminated strings. */
static void build_fails(const struct tt_kbuild_opts *o, int code, ...)
{
	struct tt_kbinary *b = (void *)1;
	const char *want;
	va_list ap;
	int ret = tt_kbuild(o, &b);

	if (ret != code)
		fail_msg("tt_kbuild gave %d (want %d): %s", ret, code,
			 tt_last_error());
	assert_null(b);
	va_start(ap, code);
	while ((want = va_arg(ap, const char *)))
		if (!strstr(tt_last_error(), want))
			fail_msg("message lacks '%s':\n%s", want,
				 tt_last_error());
	va_end(ap);
}

static bool image_has(const struct tt_kbinary *b, const void *p, size_t n)
{
	return memmem(b->image, b->image_len, p, n) != NULL;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The disk entry's files of b. */
static void entry_file(char *buf, size_t len, const struct tt_kbinary *b,
		       const char *ext)
{
	char hex[TT_SHA256_HEX_LEN + 1];

	tt_sha256_hex(b->hash, hex);
	snprintf(buf, len, "%s/%s%s", cache_dir, hex, ext);
}

/* ------------------------------------------------------------------ */
/* SHA-256 */

static void check_digest(const uint8_t d[32], const char *want)
{
	char hex[TT_SHA256_HEX_LEN + 1];

	tt_sha256_hex(d, hex);
	assert_string_equal(hex, want);
}

/* The examples of FIPS 180-4 (NIST's SHA256.pdf, SHA2_Additional.pdf). */
static void test_sha256_vectors(void **state)
{
	static const struct {
		const char *msg, *digest;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	struct tt_sha256 s;
	uint8_t d[32], chunk[1000];
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		tt_sha256(v[i].msg, strlen(v[i].msg), d);
		check_digest(d, v[i].digest);
	}
	/* One million 'a', fed in uneven pieces. */
	memset(chunk, 'a', sizeof(chunk));
	tt_sha256_init(&s);
	for (i = 0; i < 1000000;) {
		unsigned n = 1 + (i * 7) % 997;

		if (n > 1000000 - i)
			n = 1000000 - i;
		tt_sha256_update(&s, chunk, n);
		i += n;
	}
	tt_sha256_final(&s, d);
	check_digest(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Split anywhere, every length around the padding boundaries: the same
 * digest as in one piece, and different for different lengths. */
static void test_sha256_splits(void **state)
{
	uint8_t msg[200], one[32], two[32], prev[32] = { 0 };
	struct tt_sha256 s;
	unsigned len, cut;

	(void)state;
	for (len = 0; len < sizeof(msg); len++)
		msg[len] = (uint8_t)(len * 31 + 7);
	for (len = 0; len <= 130; len++) {
		tt_sha256(msg, len, one);
		assert_memory_not_equal(one, prev, 32);
		memcpy(prev, one, 32);
		for (cut = 0; cut <= len; cut++) {
			tt_sha256_init(&s);
			tt_sha256_update(&s, msg, cut);
			tt_sha256_update(&s, msg + cut, len - cut);
			tt_sha256_final(&s, two);
			assert_memory_equal(one, two, 32);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Building */

static void test_slot_of_each_proc(void **state)
{
	static const uint8_t marker[] = { 0x34, 0x12, 0x5A, 0x5A };
	struct tt_kbinary *b[TT_KPROC_COUNT];
	unsigned p;

	(void)state;
	for (p = 0; p < TT_KPROC_COUNT; p++) {
		struct tt_kbuild_opts o = src_opts(p, k_simple);

		b[p] = build_ok(&o);
		assert_int_equal(b[p]->proc, p);
		assert_int_equal(b[p]->load_addr, TT_L1_KERNEL_SLOT(p));
		assert_int_equal(b[p]->entry, b[p]->load_addr);
		assert_true(b[p]->image_len > 8);
		assert_true(b[p]->image_len <= TT_L1_KERNEL_SLOT_SIZE);
		/* The first word is an instruction (RV32: low bits 11). */
		assert_int_equal(b[p]->image[0] & 3, 3);
		assert_true(image_has(b[p], marker, sizeof(marker)));
		/* Same text, another slot: another kernel. */
		if (p)
			assert_memory_not_equal(b[p]->hash, b[p - 1]->hash, 32);
	}
	assert_int_equal(stats().builds, TT_KPROC_COUNT);
	for (p = 0; p < TT_KPROC_COUNT; p++)
		tt_kbinary_put(b[p]);
}

static const char k_defines[] =
	"#include <stdint.h>\n"
	"#if TT_KERNEL_PROC != 2 || !defined(COMPILE_FOR_TRISC) || \\\n"
	"    defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC) || \\\n"
	"    NOC_INDEX != 1\n"
	"#error runtime defines\n"
	"#endif\n"
	"#if MATH_FIDELITY != 3 || DST_ACCUM_MODE != 1 || APPROX != 0 || \\\n"
	"    DST_SYNC_FULL != 1\n"
	"#error compute defines\n"
	"#endif\n"
	"#if KERNEL_COMPILE_TIME_ARG_COUNT != 3 || FLAG != 1\n"
	"#error counts\n"
	"#endif\n"
	"volatile uint32_t ct[] = { 0xC7A0C7A0u, KERNEL_COMPILE_TIME_ARGS };\n"
	"volatile char greeting[] = GREETING;\n"
	"void kernel_main(void)\n"
	"{\n"
	"\tct[0]++;\n"
	"\tgreeting[0]++;\n"
	"}\n";

/* What the kernel sees: the runtime defines, compile-time arguments and
 * user defines verbatim (shell syntax included: there is no shell). */
static void test_defines_reach_kernel(void **state)
{
	static const uint32_t ct[] = { 7, 0xFFFFFFFFu, 0 };
	static const uint32_t want[] = { 0xC7A0C7A0u, 7, 0xFFFFFFFFu, 0 };
	static const char text[] = "hi there; $(rm -rf /) `x` 'y' \\ \"";
	static const struct tt_kdefine defs[] = {
		{ "FLAG", NULL },
		{ "GREETING",
		  "\"hi there; $(rm -rf /) `x` 'y' \\\\ \\\"\"" },
	};
	struct tt_kbuild_opts o = src_opts(TT_KPROC_COMPUTE, k_defines);
	struct tt_kbinary *b;

	(void)state;
	o.ct_args = ct;
	o.ct_arg_count = 3;
	o.defines = defs;
	o.define_count = 2;
	o.noc = 1;
	o.math_fidelity = 3;
	o.fp32_dest_acc = true;
	o.dst_full_sync = true;
	b = build_ok(&o);
	assert_true(image_has(b, want, sizeof(want)));
	assert_true(image_has(b, text, sizeof(text)));
	tt_kbinary_put(b);
}

/* Named compile-time arguments are constants wherever C needs one (file
 * scope initialisers, array sizes, case labels, _Static_assert), at -O0
 * as at -O2; a name that was not given fails the build naming it. */
static const char k_named[] =
	"#include \"dataflow_api.h\"\n"
	"static const uint32_t fs = get_named_compile_time_arg_val(\"alpha\");\n"
	"volatile uint32_t arr[get_named_compile_time_arg_val(\"beta\")] =\n"
	"\t{ 0xBE7A0001u, get_named_compile_time_arg_val(\"alpha\") };\n"
	"_Static_assert(get_named_compile_time_arg_val(\"beta\") == 3, \"x\");\n"
	"enum { E = get_named_compile_time_arg_val(\"zero\") };\n"
	"volatile uint32_t out;\n"
	"void kernel_main(void)\n"
	"{\n"
	"\tswitch (out) {\n"
	"\tcase get_named_compile_time_arg_val(\"beta\"): out = fs; break;\n"
	"\tdefault: out = E + arr[2] + get_named_compile_time_arg_val(\"big\");\n"
	"\t}\n"
	"#ifdef UNKNOWN\n"
	"\tout = get_named_compile_time_arg_val(\"gamma\");\n"
	"#endif\n"
	"}\n";

static void test_named_args(void **state)
{
	static const struct tt_knamed named[] = {
		{ "alpha", 0xA1FA0005u }, { "beta", 3 }, { "zero", 0 },
		{ "big", 0xFFFFFFFFu },
	};
	static const uint32_t want[] = { 0xBE7A0001u, 0xA1FA0005u, 0 };
	static const struct tt_kdefine unknown[] = { { "UNKNOWN", NULL } };
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, k_named);
	struct tt_kbinary *b;

	(void)state;
	o.named_args = named;
	o.named_arg_count = 4;
	b = build_ok(&o);
	assert_true(image_has(b, want, sizeof(want)));
	tt_kbinary_put(b);
	o.opt_level = "O0";
	b = build_ok(&o);
	assert_true(image_has(b, want, sizeof(want)));
	tt_kbinary_put(b);
	o.opt_level = NULL;
	o.defines = unknown;
	o.define_count = 1;
	build_fails(&o, -ENOEXEC,
		    "get_named_compile_time_arg_val(gamma): no named compile-time argument of this name",
		    NULL);
	/* No named arguments at all: every name is unknown. */
	o.defines = NULL;
	o.define_count = 0;
	o.named_arg_count = 0;
	build_fails(&o, -ENOEXEC,
		    "get_named_compile_time_arg_val(alpha): no named", NULL);
}

/* Names the compiler would misread, too many, and duplicates are refused
 * before it runs. */
static void test_bad_named_args(void **state)
{
	static struct tt_knamed many[TT_KBUILD_NAMED_ARGS_MAX + 1];
	static char names[TT_KBUILD_NAMED_ARGS_MAX + 1][8];
	static const struct tt_knamed quote[] = { { "a\"b", 1 } },
				      paren[] = { { "a)b", 1 } },
				      digit[] = { { "1a", 1 } },
				      empty[] = { { "", 1 } },
				      null[] = { { NULL, 1 } },
				      twice[] = { { "a", 1 }, { "a", 2 } };
	static const struct tt_kdefine reserved[] = {
		{ "KERNEL_NAMED_COMPILE_TIME_ARGS", "1" },
	};
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, k_simple);
	unsigned i;

	(void)state;
	o.named_arg_count = 1;
	o.named_args = quote;
	build_fails(&o, -EINVAL, "named compile-time argument 0: name 'a\"b'",
		    NULL);
	o.named_args = paren;
	build_fails(&o, -EINVAL, "name 'a)b' is not a C identifier", NULL);
	o.named_args = digit;
	build_fails(&o, -EINVAL, "name '1a'", NULL);
	o.named_args = empty;
	build_fails(&o, -EINVAL, "name ''", NULL);
	o.named_args = null;
	build_fails(&o, -EINVAL, "name '(null)'", NULL);
	o.named_args = twice;
	o.named_arg_count = 2;
	build_fails(&o, -EINVAL, "named compile-time argument a is given twice (0 and 1)",
		    NULL);
	o.named_args = NULL;
	o.named_arg_count = 1;
	build_fails(&o, -EINVAL, "1 named compile-time arguments but no array",
		    NULL);
	for (i = 0; i <= TT_KBUILD_NAMED_ARGS_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "n%u", i);
		many[i].name = names[i];
		many[i].value = i;
	}
	o.named_args = many;
	o.named_arg_count = TT_KBUILD_NAMED_ARGS_MAX + 1;
	build_fails(&o, -EINVAL, "257 named compile-time arguments (at most 256)",
		    NULL);
	o.named_arg_count = 0;
	o.defines = reserved;
	o.define_count = 1;
	build_fails(&o, -EINVAL,
		    "define KERNEL_NAMED_COMPILE_TIME_ARGS is set by the runtime",
		    NULL);
	assert_int_equal(stats().builds, 0);
	/* The most there may be build. */
	o.defines = NULL;
	o.define_count = 0;
	o.named_arg_count = TT_KBUILD_NAMED_ARGS_MAX;
	tt_kbinary_put(build_ok(&o));
}

/* A data-movement kernel gets none of the compute defines, and no
 * argument list when it has no arguments. */
static void test_dm_defines(void **state)
{
	static const char src[] =
		"#if TT_KERNEL_PROC != 1 || !defined(COMPILE_FOR_NCRISC) || \\\n"
		"    defined(COMPILE_FOR_TRISC) || NOC_INDEX != 0 || \\\n"
		"    defined(KERNEL_COMPILE_TIME_ARGS) || \\\n"
		"    KERNEL_COMPILE_TIME_ARG_COUNT != 0 || \\\n"
		"    defined(MATH_FIDELITY) || defined(APPROX)\n"
		"#error data-movement defines\n"
		"#endif\n"
		"void kernel_main(void)\n"
		"{\n"
		"}\n";
	/* Compute-only names are free for data-movement kernels. */
	static const struct tt_kdefine defs[] = { { "DST_SYNC", "2" } };
	struct tt_kbuild_opts o = src_opts(TT_KPROC_NCRISC, src);

	(void)state;
	o.defines = defs;
	o.define_count = 1;
	o.math_fidelity = 1; /* ignored: not a compute kernel */
	tt_kbinary_put(build_ok(&o));
}

static const char k_file[] =
	"#include <stdint.h>\n"
	"#include \"k.h\"\n"
	"#include \"hw/l1.h\"\n"
	"volatile uint32_t value[2] = { 0xFEEDF00Du, VALUE };\n"
	"void kernel_main(void)\n"
	"{\n"
	"\tvalue[1] += TT_L1_KERNEL_SLOT_SIZE;\n"
	"}\n";

/* A file kernel is compiled in place: its includes are found next to it. */
static void make_file_kernel_in(const char *dir, char *path, size_t len,
				unsigned value)
{
	char h[PATH_MAX + 8], text[64];

	snprintf(path, len, "%s/k.c", dir);
	snprintf(h, sizeof(h), "%s/k.h", dir);
	write_text(path, k_file);
	snprintf(text, sizeof(text), "#define VALUE %uu\n", value);
	write_text(h, text);
}

static void make_file_kernel(char *path, size_t len, unsigned value)
{
	make_file_kernel_in(work_dir, path, len, value);
}

static bool has_value(const struct tt_kbinary *b, uint32_t value)
{
	uint32_t want[2] = { 0xFEEDF00Du, value };

	return image_has(b, want, sizeof(want));
}

static void test_file_kernel(void **state)
{
	char path[PATH_MAX], deps[PATH_MAX + 80], *text;
	struct tt_kbuild_opts o = { .proc = TT_KPROC_BRISC };
	struct tt_kbinary *b;
	uint8_t *data;
	size_t len;

	(void)state;
	make_file_kernel(path, sizeof(path), 11);
	o.path = path;
	b = build_ok(&o);
	assert_true(has_value(b, 11));
	/* The entry records k.h, not the SDK's or the compiler's headers. */
	entry_file(deps, sizeof(deps), b, ".deps");
	assert_int_equal(tt_kcache_read_file(deps, 1 << 20, &data, &len), 0);
	text = (char *)data;
	assert_non_null(strstr(text, "/k.h\n"));
	assert_null(strstr(text, "l1.h"));
	assert_null(strstr(text, "stdint"));
	assert_null(strstr(text, "/k.c\n"));
	free(data);
	tt_kbinary_put(b);
}

/* ------------------------------------------------------------------ */
/* The caches */

static void test_memory_hit(void **state)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_NCRISC, k_simple);
	struct tt_kbinary *b1, *b2;
	double t0, best = 1e9;
	unsigned i;

	(void)state;
	b1 = build_ok(&o);
	for (i = 0; i < 50; i++) {
		t0 = now_ms();
		b2 = build_ok(&o);
		t0 = now_ms() - t0;
		best = t0 < best ? t0 : best;
		assert_ptr_equal(b1, b2);
		tt_kbinary_put(b2);
	}
	assert_int_equal(stats().builds, 1);
	assert_int_equal(stats().mem_hits, 50);
	assert_true(best < 1.0);
	tt_kbinary_put(b1);
}

static void test_disk_hit(void **state)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_COMPUTE, k_simple);
	struct tt_kbinary *b1, *b2;
	char path[PATH_MAX + 80];
	struct stat st;

	(void)state;
	b1 = build_ok(&o);
	entry_file(path, sizeof(path), b1, ".elf");
	assert_int_equal(stat(path, &st), 0);
	tt_kbuild_reset(); /* a new process */
	b2 = build_ok(&o);
	assert_ptr_not_equal(b1, b2);
	assert_int_equal(stats().builds, 1);
	assert_int_equal(stats().disk_hits, 1);
	assert_memory_equal(b1->hash, b2->hash, 32);
	assert_int_equal(b1->image_len, b2->image_len);
	assert_memory_equal(b1->image, b2->image, b1->image_len);
	tt_kbinary_put(b1);
	tt_kbinary_put(b2);
}

/* A source text is compiled from <cache>/<hash of text>.c. */
static void test_source_file_named_by_hash(void **state)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, k_simple);
	char hex[TT_SHA256_HEX_LEN + 1], path[PATH_MAX + 80];
	uint8_t h[32], *data;
	size_t len;

	(void)state;
	tt_kbinary_put(build_ok(&o));
	tt_sha256(k_simple, strlen(k_simple), h);
	tt_sha256_hex(h, hex);
	snprintf(path, sizeof(path), "%s/%s.c", cache_dir, hex);
	assert_int_equal(tt_kcache_read_file(path, 1 << 20, &data, &len), 0);
	assert_int_equal(len, strlen(k_simple));
	assert_memory_equal(data, k_simple, len);
	free(data);
}

/* Build o; it must be compiled, not found, and get a hash other than
 * each of the n before. */
static struct tt_kbinary *build_new(const struct tt_kbuild_opts *o,
				    struct tt_kbinary **before, unsigned n)
{
	unsigned long builds = stats().builds;
	struct tt_kbinary *b = build_ok(o);
	unsigned i;

	assert_int_equal(stats().builds, builds + 1);
	for (i = 0; i < n; i++)
		assert_memory_not_equal(b->hash, before[i]->hash, 32);
	return b;
}

static void test_key_covers_request(void **state)
{
	static const uint32_t ct1[] = { 1, 2 }, ct2[] = { 1, 3 };
	static const struct tt_kdefine d1[] = { { "A", "1" } },
				       d2[] = { { "A", "2" } },
				       d3[] = { { "B", "1" } },
				       d4[] = { { "A", NULL } };
	static const struct tt_knamed n1[] = { { "a", 1 } },
				      n2[] = { { "a", 2 } },
				      n3[] = { { "b", 2 } };
	struct tt_kbuild_opts o = src_opts(TT_KPROC_COMPUTE, k_simple);
	struct tt_kbinary *b[20];
	unsigned n = 0, i;
	char other[sizeof(k_simple) + 16];

	(void)state;
	b[n] = build_new(&o, b, n), n++;
	o.defines = d1;
	o.define_count = 1;
	b[n] = build_new(&o, b, n), n++;
	o.defines = d2;
	b[n] = build_new(&o, b, n), n++;
	o.defines = d3;
	b[n] = build_new(&o, b, n), n++;
	o.defines = d4;
	b[n] = build_new(&o, b, n), n++;
	o.ct_args = ct1;
	o.ct_arg_count = 2;
	b[n] = build_new(&o, b, n), n++;
	o.ct_args = ct2;
	b[n] = build_new(&o, b, n), n++;
	o.named_args = n1;
	o.named_arg_count = 1;
	b[n] = build_new(&o, b, n), n++;
	o.named_args = n2;
	b[n] = build_new(&o, b, n), n++;
	o.named_args = n3;
	b[n] = build_new(&o, b, n), n++;
	o.opt_level = "Os";
	b[n] = build_new(&o, b, n), n++;
	o.math_fidelity = 2;
	b[n] = build_new(&o, b, n), n++;
	o.math_approx = true;
	b[n] = build_new(&o, b, n), n++;
	o.noc = 1;
	b[n] = build_new(&o, b, n), n++;
	snprintf(other, sizeof(other), "%s/* other */\n", k_simple);
	o.source = other;
	o.source_len = strlen(other);
	b[n] = build_new(&o, b, n), n++;
	/* And the same request again is the same kernel. */
	o.source = k_simple;
	o.source_len = 0; /* NUL-terminated: the same text */
	{
		struct tt_kbinary *again = build_ok(&o);

		assert_memory_equal(again->hash, b[n - 2]->hash, 32);
		tt_kbinary_put(again);
	}
	for (i = 0; i < n; i++)
		tt_kbinary_put(b[i]);
}

/* Changing a header next to a file kernel rebuilds it, in memory and on
 * disk; restoring it finds the first build again. */
static void test_include_invalidates(void **state)
{
	struct tt_kbuild_opts o = { .proc = TT_KPROC_NCRISC };
	char path[PATH_MAX];
	struct tt_kbinary *b;

	(void)state;
	make_file_kernel(path, sizeof(path), 1);
	o.path = path;
	b = build_ok(&o);
	assert_true(has_value(b, 1));
	tt_kbinary_put(b);

	make_file_kernel(path, sizeof(path), 2); /* same process */
	b = build_ok(&o);
	assert_true(has_value(b, 2));
	assert_int_equal(stats().builds, 2);
	tt_kbinary_put(b);

	tt_kbuild_reset(); /* a new process, the header changed again */
	make_file_kernel(path, sizeof(path), 3);
	b = build_ok(&o);
	assert_true(has_value(b, 3));
	assert_int_equal(stats().builds, 3);
	assert_int_equal(stats().disk_hits, 0);
	tt_kbinary_put(b);

	tt_kbuild_reset(); /* unchanged: from the disk */
	b = build_ok(&o);
	assert_true(has_value(b, 3));
	assert_int_equal(stats().builds, 3);
	assert_int_equal(stats().disk_hits, 1);
	tt_kbinary_put(b);
}

/* The same file in two places includes two different headers: two
 * kernels. */
static void test_same_text_elsewhere(void **state)
{
	struct tt_kbuild_opts o = { .proc = TT_KPROC_BRISC };
	char dir[PATH_MAX + 8], p1[PATH_MAX], p2[PATH_MAX + 16];
	struct tt_kbinary *b1, *b2;

	(void)state;
	make_file_kernel(p1, sizeof(p1), 5);
	snprintf(dir, sizeof(dir), "%s/b", work_dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	make_file_kernel_in(dir, p2, sizeof(p2), 6);
	o.path = p1;
	b1 = build_ok(&o);
	o.path = p2;
	b2 = build_ok(&o);
	assert_true(has_value(b1, 5));
	assert_true(has_value(b2, 6));
	assert_memory_not_equal(b1->hash, b2->hash, 32);
	tt_kbinary_put(b1);
	tt_kbinary_put(b2);
}

/* Many included files, in a directory whose name needs escaping in the
 * compiler's dependency output: each is watched. */
static void test_many_includes(void **state)
{
	struct tt_kbuild_opts o = { .proc = TT_KPROC_COMPUTE };
	char dir[PATH_MAX + 16], path[PATH_MAX + 32], text[128];
	char src[4096] = "#include <stdint.h>\n";
	struct tt_kbinary *b;
	unsigned i, n = strlen(src);

	(void)state;
	snprintf(dir, sizeof(dir), "%s/a b#c$d", work_dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	for (i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "%s/h%u.h", dir, i);
		snprintf(text, sizeof(text), "#define V%u %uu\n", i, i);
		write_text(path, text);
		n += (unsigned)snprintf(src + n, sizeof(src) - n,
					"#include \"h%u.h\"\n", i);
	}
	snprintf(src + n, sizeof(src) - n,
		 "volatile uint32_t value[2] = { 0xFEEDF00Du, V3 + V13 };\n"
		 "void kernel_main(void)\n{\n\tvalue[1]++;\n}\n");
	snprintf(path, sizeof(path), "%s/k.c", dir);
	write_text(path, src);
	o.path = path;
	b = build_ok(&o);
	assert_true(has_value(b, 16));
	tt_kbinary_put(b);
	snprintf(path, sizeof(path), "%s/h13.h", dir);
	write_text(path, "#define V13 100u\n");
	snprintf(path, sizeof(path), "%s/k.c", dir);
	b = build_ok(&o);
	assert_true(has_value(b, 103));
	tt_kbinary_put(b);
	tt_kbuild_reset();
	tt_kbinary_put(build_ok(&o));
	assert_int_equal(stats().builds, 2);
	assert_int_equal(stats().disk_hits, 1);
}

/* A .deps cut at a line end (losing its last dependencies) is not
 * trusted: the header changed meanwhile is seen. */
static void test_deps_cut_at_line(void **state)
{
	struct tt_kbuild_opts o = { .proc = TT_KPROC_NCRISC };
	char path[PATH_MAX], deps[PATH_MAX + 80], *text, *line;
	struct tt_kbinary *b;
	uint8_t *data;
	size_t len;

	(void)state;
	make_file_kernel(path, sizeof(path), 7);
	o.path = path;
	b = build_ok(&o);
	entry_file(deps, sizeof(deps), b, ".deps");
	tt_kbinary_put(b);
	assert_int_equal(tt_kcache_read_file(deps, 1 << 20, &data, &len), 0);
	text = (char *)data;
	line = strstr(text, "\ndep ");
	assert_non_null(line);
	assert_int_equal(truncate(deps, line + 1 - text), 0);
	free(data);
	make_file_kernel(path, sizeof(path), 8);
	tt_kbuild_reset();
	b = build_ok(&o);
	assert_true(has_value(b, 8));
	assert_int_equal(stats().builds, 2);
	tt_kbinary_put(b);
}

/* A thin archive names its members: changing a member changes the SDK's
 * hash although the archive itself is the same. */
static void test_sdk_thin_archive(void **state)
{
	char root[PATH_MAX + 8], cmd[2 * PATH_MAX], path[PATH_MAX + 32];
	uint8_t h[3][32];
	struct tt_ksdk k;
	unsigned i;

	(void)state;
	snprintf(root, sizeof(root), "%s/tsdk", work_dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/include/sub' '%s/ld' '%s/lib' && cd '%s/lib' && "
		 "echo 'member one' > m1.o && echo 'member two' > m2.o && "
		 "ar rcST libttk.a m1.o m2.o",
		 root, root, root, root);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/include/sub/a.h", root);
	write_text(path, "/* a */\n");
	setenv("TT_KERNEL_SDK", root, 1);
	for (i = 0; i < 3; i++) {
		if (i == 1) { /* same size, other content */
			snprintf(path, sizeof(path), "%s/lib/m2.o", root);
			write_text(path, "member TWO\n");
		}
		tt_ksdk_reset();
		assert_int_equal(tt_ksdk_find(&k), 0);
		memcpy(h[i], k.hash, 32);
	}
	assert_memory_not_equal(h[0], h[1], 32);
	assert_memory_equal(h[1], h[2], 32);
	/* And a header in a subdirectory counts too. */
	snprintf(path, sizeof(path), "%s/include/sub/a.h", root);
	write_text(path, "/* A */\n");
	tt_ksdk_reset();
	assert_int_equal(tt_ksdk_find(&k), 0);
	assert_memory_not_equal(k.hash, h[2], 32);
	/* A member that is gone is an error naming it. */
	snprintf(path, sizeof(path), "%s/lib/m1.o", root);
	assert_int_equal(unlink(path), 0);
	tt_ksdk_reset();
	assert_int_equal(tt_ksdk_find(&k), -ENOENT);
	assert_non_null(strstr(tt_last_error(), "m1.o"));
}

/*
 * A private copy of the SDK in use (the library symlinked: a thin archive
 * names its members relative to itself). big: linker scripts with a large
 * region, so that only libtt's own slot check stands in the way.
 */
static void copy_sdk(char *root, size_t len, bool big)
{
	struct tt_ksdk k;
	char cmd[4 * PATH_MAX + 256];

	if (saved_sdk)
		setenv("TT_KERNEL_SDK", saved_sdk, 1);
	else
		unsetenv("TT_KERNEL_SDK");
	assert_int_equal(tt_ksdk_find(&k), 0);
	snprintf(root, len, "%s/sdk", work_dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir '%s' && cp -rL '%s' '%s/include' && cp -rL '%s' '%s/ld' && ln -s '%s' '%s/lib'",
		 root, k.include_dir, root, k.ld_dir, root, k.lib_dir, root);
	assert_int_equal(system(cmd), 0);
	if (big) {
		snprintf(cmd, sizeof(cmd),
			 "sed -i -E 's/LENGTH *= *0x[0-9a-fA-F]+/LENGTH = 0x100000/' '%s'/ld/kernel_*.ld",
			 root);
		assert_int_equal(system(cmd), 0);
	}
	setenv("TT_KERNEL_SDK", root, 1);
}

static void test_sdk_change_invalidates(void **state)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, k_simple);
	struct tt_kbinary *b[3];
	char root[PATH_MAX], path[PATH_MAX + 32];

	(void)state;
	b[0] = build_ok(&o);
	copy_sdk(root, sizeof(root), false);
	b[1] = build_new(&o, b, 1); /* another place: another SDK */
	snprintf(path, sizeof(path), "%s/include/hw/new.h", root);
	write_text(path, "/* a new SDK header */\n");
	tt_kbuild_reset();
	b[2] = build_new(&o, b, 2);
	/* Unchanged since: found on disk. */
	tt_kbuild_reset();
	tt_kbinary_put(build_ok(&o));
	assert_int_equal(stats().disk_hits, 1);
	tt_kbinary_put(b[0]);
	tt_kbinary_put(b[1]);
	tt_kbinary_put(b[2]);
}

/* Several threads asking for the same new kernel all get it. */
static void *build_thread(void *arg)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, k_simple);
	struct tt_kbinary *b = NULL;

	(void)arg;
	if (tt_kbuild(&o, &b))
		return NULL;
	return b;
}

static void test_concurrent_builds(void **state)
{
	pthread_t t[4];
	struct tt_kbinary *b[4];
	unsigned i;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, build_thread, NULL),
				 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_join(t[i], (void **)&b[i]), 0);
	for (i = 0; i < 4; i++) {
		assert_non_null(b[i]);
		assert_memory_equal(b[i]->hash, b[0]->hash, 32);
		assert_int_equal(b[i]->image_len, b[0]->image_len);
		assert_memory_equal(b[i]->image, b[0]->image, b[0]->image_len);
	}
	for (i = 0; i < 4; i++)
		tt_kbinary_put(b[i]);
	tt_kbuild_reset();
	tt_kbinary_put(build_ok(&(struct tt_kbuild_opts){
		.proc = TT_KPROC_BRISC, .source = k_simple }));
	assert_int_equal(stats().disk_hits, 1);
}

/* ------------------------------------------------------------------ */
/* Damaged cache entries are rebuilt */

static void damage_and_rebuild(const char *ext, long size, bool garbage)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_NCRISC, k_simple);
	struct tt_kbinary *b1, *b2;
	char path[PATH_MAX + 80];
	FILE *f;

	b1 = build_ok(&o);
	entry_file(path, sizeof(path), b1, ext);
	if (garbage) {
		f = fopen(path, "r+");
		assert_non_null(f);
		assert_int_equal(fseek(f, size, SEEK_SET), 0);
		fputs("garbage", f);
		assert_int_equal(fclose(f), 0);
	} else {
		assert_int_equal(truncate(path, size), 0);
	}
	tt_kbuild_reset();
	b2 = build_ok(&o);
	assert_int_equal(stats().builds, 2);
	assert_int_equal(stats().disk_hits, 0);
	assert_int_equal(b1->image_len, b2->image_len);
	assert_memory_equal(b1->image, b2->image, b1->image_len);
	/* And the rebuilt entry is good again. */
	tt_kbuild_reset();
	tt_kbinary_put(build_ok(&o));
	assert_int_equal(stats().disk_hits, 1);
	tt_kbinary_put(b1);
	tt_kbinary_put(b2);
}

static void test_corrupt_elf(void **state)
{
	(void)state;
	damage_and_rebuild(".elf", 0, true); /* the ELF header */
}

static void test_corrupt_elf_body(void **state)
{
	(void)state;
	damage_and_rebuild(".elf", 0x1000, true); /* code: only the hash sees it */
}

static void test_truncated_elf(void **state)
{
	(void)state;
	damage_and_rebuild(".elf", 100, false);
}

static void test_truncated_deps(void **state)
{
	(void)state;
	damage_and_rebuild(".deps", 40, false);
}

static void test_corrupt_deps(void **state)
{
	(void)state;
	damage_and_rebuild(".deps", 30, true);
}

/* A cache directory that cannot be made: builds work, nothing stays. */
static void test_no_cache_dir(void **state)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, k_simple);
	char tmp[PATH_MAX + 16], blocker[PATH_MAX + 16];

	(void)state;
	snprintf(blocker, sizeof(blocker), "%s/file", work_dir);
	write_text(blocker, "not a directory\n");
	strcat(blocker, "/cache");
	setenv("TT_KERNEL_CACHE", blocker, 1);
	snprintf(tmp, sizeof(tmp), "%s/tmp", work_dir);
	assert_int_equal(mkdir(tmp, 0700), 0);
	setenv("TMPDIR", tmp, 1);
	tt_kbinary_put(build_ok(&o));
	tt_kbuild_reset();
	tt_kbinary_put(build_ok(&o));
	assert_int_equal(stats().builds, 2);
	assert_int_equal(stats().disk_hits, 0);
	/* The private build directories are gone. */
	assert_int_equal(rmdir(tmp), 0);
}

/* ------------------------------------------------------------------ */
/* Errors */

static void test_syntax_error(void **state)
{
	static const char bad[] =
		"#include <stdint.h>\n"
		"void kernel_main(void)\n"
		"{\n"
		"\tint x = ;\n"
		"}\n";
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, bad);
	char hex[TT_SHA256_HEX_LEN + 1], want[PATH_MAX + 80];
	uint8_t h[32];

	(void)state;
	tt_sha256(bad, strlen(bad), h);
	tt_sha256_hex(h, hex);
	snprintf(want, sizeof(want), "%s/%s.c:4:", cache_dir, hex);
	build_fails(&o, -ENOEXEC, "kernel <source ", "compilation failed:\n",
		    want, "error", NULL);
	o.name = "reader";
	build_fails(&o, -ENOEXEC, "kernel reader: compilation failed:\n", want,
		    NULL);
	/* Failures are not cached. */
	build_fails(&o, -ENOEXEC, want, NULL);
	assert_int_equal(stats().builds, 3);
}

static void test_file_error_names_file(void **state)
{
	struct tt_kbuild_opts o = { .proc = TT_KPROC_COMPUTE };
	char path[PATH_MAX], want[PATH_MAX + 16];

	(void)state;
	snprintf(path, sizeof(path), "%s/broken.c", work_dir);
	write_text(path, "void kernel_main(void)\n{\n\tundeclared = 1;\n}\n");
	o.path = path;
	snprintf(want, sizeof(want), "%s:3:", path);
	build_fails(&o, -ENOEXEC, "compilation failed", want, "undeclared",
		    NULL);
	snprintf(path, sizeof(path), "%s/missing.c", work_dir);
	build_fails(&o, -ENOENT, path, NULL);
}

static void test_link_error(void **state)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_NCRISC,
					   "void nowhere(void);\n"
					   "void kernel_main(void)\n"
					   "{\n"
					   "\tnowhere();\n"
					   "}\n");

	(void)state;
	build_fails(&o, -ENOEXEC, "compilation failed",
		    "undefined reference to `nowhere'", NULL);
}

/* Lots of errors: the first ones are kept, the message says it is cut. */
static void test_long_error_output(void **state)
{
	char *src = malloc(64 * 1024), *p = src;
	struct tt_kbuild_opts o;
	unsigned i;

	(void)state;
	for (i = 0; i < 400; i++)
		p += sprintf(p, "int f%u(void) { return nothing%u; }\n", i, i);
	o = src_opts(TT_KPROC_BRISC, src);
	build_fails(&o, -ENOEXEC, ".c:1:", "nothing0", "cut here", NULL);
	assert_true(strlen(tt_last_error()) < 4096);
	assert_null(strstr(tt_last_error(), "nothing399"));
	free(src);
}

static void test_too_large(void **state)
{
	static const char big[] =
		"#include <stdint.h>\n"
		"volatile uint8_t big[40960] = { 1 };\n"
		"void kernel_main(void)\n"
		"{\n"
		"\tbig[100]++;\n"
		"}\n";
	struct tt_kbuild_opts o = src_opts(TT_KPROC_NCRISC, big);
	char root[PATH_MAX];
	unsigned long need;
	const char *m;

	(void)state;
	/* The SDK's linker scripts stop it, or libtt's check does. */
	build_fails(&o, -EFBIG, "kernel <source ", " needs ",
		    " bytes, the slot holds 32768", NULL);
	m = strstr(tt_last_error(), " needs ");
	need = strtoul(m + 7, NULL, 10);
	assert_true(need > 40960);
	/* With a linker script that lets it through: libtt's check. */
	copy_sdk(root, sizeof(root), true);
	build_fails(&o, -EFBIG, " needs ", " bytes, the slot holds 32768",
		    NULL);
	m = strstr(tt_last_error(), " needs ");
	assert_true(strtoul(m + 7, NULL, 10) > 40960);
}

static void test_missing_compiler(void **state)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, k_simple);
	char script[PATH_MAX + 16];

	(void)state;
	setenv("TT_KERNEL_CC", "/nonexistent", 1);
	build_fails(&o, -ENOENT, "/nonexistent", "gcc-riscv64-unknown-elf",
		    NULL);
	setenv("TT_KERNEL_CC", "no-such-compiler-tt", 1);
	build_fails(&o, -ENOENT, "no-such-compiler-tt", "not found in PATH",
		    "gcc-riscv64-unknown-elf", NULL);
	setenv("TT_KERNEL_CC", "/bin/false", 1);
	build_fails(&o, -ENOEXEC, "/bin/false", "does not run", NULL);
	/* A compiler that dies of a signal while compiling. */
	snprintf(script, sizeof(script), "%s/cc.sh", work_dir);
	write_text(script, "#!/bin/sh\n"
			   "[ \"$1\" = --version ] && { echo fake cc 1.0; exit 0; }\n"
			   "kill -KILL $$\n");
	assert_int_equal(chmod(script, 0755), 0);
	setenv("TT_KERNEL_CC", script, 1);
	build_fails(&o, -ENOEXEC, "killed by signal 9", NULL);
	/* Back to the real one. */
	unsetenv("TT_KERNEL_CC");
	tt_kbinary_put(build_ok(&o));
}

/* A kernel that makes the compiler eat memory (it reads /dev/zero as
 * source) fails at the compiler's memory limit within seconds, named as
 * that; one that makes it hang is killed, with everything it started, at
 * TT_KERNEL_CC_TIMEOUT_S, which is checked like every setting. */
static void test_compiler_limits(void **state)
{
	static const char *const bad[] = { "0", "3601", "1s", "x", "-1" };
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC,
					   "#include \"/dev/zero\"\n");
	char script[PATH_MAX + 16], pidfile[PATH_MAX + 16], want[PATH_MAX + 160];
	char text[PATH_MAX * 2];
	double t0;
	FILE *f;
	int bg = 0;

	(void)state;
	o.name = "zero";
	setenv("TT_KERNEL_CC_TIMEOUT_S", "30", 1);
	t0 = now_ms();
	build_fails(&o, -ENOMEM,
		    "kernel zero: the compiler ",
		    "ran out of its 2048 MiB memory limit", NULL);
	assert_true(now_ms() - t0 < 20000);

	/* A compiler that hangs, and leaves a process of its own. */
	snprintf(script, sizeof(script), "%s/cc.sh", work_dir);
	snprintf(pidfile, sizeof(pidfile), "%s/bg.pid", work_dir);
	snprintf(text, sizeof(text),
		 "#!/bin/sh\n"
		 "[ \"$1\" = --version ] && { echo fake cc 1.0; exit 0; }\n"
		 "[ \"$1\" = -print-search-dirs ] && exit 1\n"
		 "sleep 60 & echo $! > %s\n"
		 "sleep 60\n", pidfile);
	write_text(script, text);
	assert_int_equal(chmod(script, 0755), 0);
	setenv("TT_KERNEL_CC", script, 1);
	setenv("TT_KERNEL_CC_TIMEOUT_S", "1", 1);
	o = src_opts(TT_KPROC_BRISC, k_simple);
	o.name = "sleepy";
	snprintf(want, sizeof(want),
		 "kernel sleepy: the compiler %s did not finish within 1 s and was killed (TT_KERNEL_CC_TIMEOUT_S)",
		 script);
	t0 = now_ms();
	build_fails(&o, -ETIMEDOUT, want, NULL);
	assert_true(now_ms() - t0 < 5000);
	f = fopen(pidfile, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &bg), 1);
	fclose(f);
	/* Killed with the group: gone, or a zombie until it is reaped. */
	for (int i = 0; i < 100 && kill(bg, 0) == 0; i++) {
		char stat[64], st = 0;

		snprintf(stat, sizeof(stat), "/proc/%d/stat", bg);
		f = fopen(stat, "r");
		if (f && fscanf(f, "%*d %*s %c", &st) == 1 && st == 'Z') {
			fclose(f);
			break;
		}
		if (f)
			fclose(f);
		usleep(10000);
	}
	{
		char stat[64], st = 'Z';

		snprintf(stat, sizeof(stat), "/proc/%d/stat", bg);
		f = fopen(stat, "r");
		if (f) {
			assert_int_equal(fscanf(f, "%*d %*s %c", &st), 1);
			fclose(f);
		}
		assert_int_equal(st, 'Z');
	}
	unsetenv("TT_KERNEL_CC");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("TT_KERNEL_CC_TIMEOUT_S", bad[i], 1);
		snprintf(want, sizeof(want),
			 "kernel sleepy: TT_KERNEL_CC_TIMEOUT_S='%s' is not a whole number in 1..3600",
			 bad[i]);
		build_fails(&o, -EINVAL, want, NULL);
	}
	unsetenv("TT_KERNEL_CC_TIMEOUT_S");
	tt_kbinary_put(build_ok(&o));
}

static void test_missing_sdk(void **state)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_BRISC, k_simple);
	char root[PATH_MAX], path[PATH_MAX + 32];

	(void)state;
	snprintf(root, sizeof(root), "%s/nowhere", work_dir);
	setenv("TT_KERNEL_SDK", root, 1);
	build_fails(&o, -ENOENT, "TT_KERNEL_SDK=", root, "include", NULL);
	/* A linker script missing for one processor. */
	copy_sdk(root, sizeof(root), false);
	snprintf(path, sizeof(path), "%s/ld/%s", root,
		 tt_ksdk_ld_script(TT_KPROC_COMPUTE));
	assert_int_equal(unlink(path), 0);
	o.proc = TT_KPROC_COMPUTE;
	build_fails(&o, -ENOENT, "kernel_compute.ld", NULL);
}

static void test_bad_defines(void **state)
{
	static const char *const bad_names[] = {
		"", "1X", "A-B", "-o/tmp/x", "A B", "A=B", "Ä", "NOC_INDEX",
		"KERNEL_COMPILE_TIME_ARGS", "MATH_FIDELITY",
	};
	struct tt_kbuild_opts o = src_opts(TT_KPROC_COMPUTE, k_simple);
	struct tt_kdefine d[2] = { { "OK", "1" }, { NULL, NULL } };
	char longname[TT_KBUILD_DEFINE_NAME_MAX + 2];
	unsigned i;

	(void)state;
	o.defines = d;
	o.define_count = 2;
	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		d[1].name = bad_names[i];
		build_fails(&o, -EINVAL, "define", bad_names[i], NULL);
	}
	d[1].name = NULL;
	build_fails(&o, -EINVAL, "define 1", "(null)", NULL);
	memset(longname, 'A', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	d[1].name = longname;
	build_fails(&o, -EINVAL, "not a C identifier", NULL);
	d[1].name = "OK";
	build_fails(&o, -EINVAL, "define OK is given twice", NULL);
	d[1].name = "V";
	d[1].value = "1\n#include \"/etc/passwd\"";
	build_fails(&o, -EINVAL, "define V", "line break", NULL);
	d[1].value = "1\r";
	build_fails(&o, -EINVAL, "define V", "line break", NULL);
	assert_int_equal(stats().builds, 0);
}

static void test_bad_requests(void **state)
{
	static const uint32_t ct[1] = { 0 };
	struct tt_kbuild_opts o = src_opts(TT_KPROC_COMPUTE, k_simple);

	(void)state;
	o.proc = (enum tt_kproc)3;
	build_fails(&o, -EINVAL, "processor 3", NULL);
	o.proc = TT_KPROC_COMPUTE;
	o.noc = 2;
	build_fails(&o, -EINVAL, "NOC 2", NULL);
	o.noc = 0;
	o.math_fidelity = 1;
	build_fails(&o, -EINVAL, "math fidelity 1", NULL);
	o.math_fidelity = 5;
	build_fails(&o, -EINVAL, "math fidelity 5", NULL);
	o.math_fidelity = 4;
	o.opt_level = "O9";
	build_fails(&o, -EINVAL, "optimisation level 'O9'", NULL);
	o.opt_level = "-O2 -o /tmp/x";
	build_fails(&o, -EINVAL, "optimisation level", NULL);
	o.opt_level = NULL;
	o.ct_args = ct;
	o.ct_arg_count = 100000;
	build_fails(&o, -EINVAL, "100000 compile-time arguments", NULL);
	o.ct_args = NULL;
	o.ct_arg_count = 1;
	build_fails(&o, -EINVAL, "1 compile-time arguments but no array", NULL);
	o.ct_arg_count = 0;
	o.path = "/dev/null";
	build_fails(&o, -EINVAL, "exactly one of a file and a source", NULL);
	o.path = NULL;
	o.source = NULL;
	o.name = "nothing";
	build_fails(&o, -EINVAL, "kernel nothing: give exactly one", NULL);
	assert_int_equal(stats().builds, 0);
}


/* ------------------------------------------------------------------ */
/* Without a compiler: kernels from a cache filled where there was one */

/* A compute kernel with everything a request can carry. */
static const char k_full[] =
	"#include <stdint.h>\n"
	"#include \"kernel_api/args.h\"\n"
	"volatile uint32_t v[6] = { 0xC0FFEE00u, get_compile_time_arg_val(0),\n"
	"\tget_compile_time_arg_val(1), EXTRA, MATH_FIDELITY,\n"
	"\tget_named_compile_time_arg_val(\"tiles\") };\n"
	"void kernel_main(void)\n"
	"{\n"
	"\tv[1]++;\n"
	"}\n";
static const uint32_t full_ct[] = { 7, 9 };
static const struct tt_kdefine full_defs[] = { { "EXTRA", "0x55u" },
					       { "FLAG", NULL } };
static const struct tt_knamed full_named[] = { { "tiles", 12 } };

static struct tt_kbuild_opts full_opts(void)
{
	struct tt_kbuild_opts o = src_opts(TT_KPROC_COMPUTE, k_full);

	o.name = "full";
	o.ct_args = full_ct;
	o.ct_arg_count = 2;
	o.defines = full_defs;
	o.define_count = 2;
	o.named_args = full_named;
	o.named_arg_count = 1;
	o.math_fidelity = 4;
	o.fp32_dest_acc = true;
	return o;
}

/* As a new process: o gives want's image. */
static void same_image(const struct tt_kbuild_opts *o,
		       const struct tt_kbinary *want)
{
	struct tt_kbinary *b;

	tt_kbuild_reset();
	b = build_ok(o);
	assert_int_equal(b->image_len, want->image_len);
	assert_memory_equal(b->image, want->image, want->image_len);
	assert_int_equal(b->load_addr, want->load_addr);
	tt_kbinary_put(b);
}

/* The name of the only .port file in the cache, and its key. */
static void only_port(char *path, size_t len, uint8_t key[32])
{
	char hex[TT_SHA256_HEX_LEN + 1];
	struct dirent *e;
	unsigned n = 0, i;
	DIR *d = opendir(cache_dir);

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (!strstr(e->d_name, ".port"))
			continue;
		snprintf(path, len, "%s/%s", cache_dir, e->d_name);
		snprintf(hex, sizeof(hex), "%.64s", e->d_name);
		n++;
	}
	closedir(d);
	assert_int_equal(n, 1);
	for (i = 0; i < 32; i++)
		assert_int_equal(sscanf(hex + 2 * i, "%2hhx", &key[i]), 1);
}

/* Fill the cache with the compiler; then, with TT_KERNEL_CC naming a
 * missing compiler, with none in PATH, and with TT_KERNEL_CC=none, the
 * same kernels (a text with compile-time arguments, named ones and
 * defines; a file with an included header) come from the cache, also
 * with the SDK's content in another place; nothing is built. */
static void test_no_cc_from_cache(void **state)
{
	struct tt_kbuild_opts t = full_opts(), f = { .proc = TT_KPROC_BRISC };
	uint32_t want[6] = { 0xC0FFEE00u, 7, 9, 0x55u, 4, 12 };
	char path[PATH_MAX], root[PATH_MAX], *saved_path;
	struct tt_kbinary *bt, *bf;
	unsigned i;

	(void)state;
	make_file_kernel(path, sizeof(path), 5);
	f.path = path;
	bt = build_ok(&t);
	bf = build_ok(&f);
	assert_true(image_has(bt, want, sizeof(want)));
	assert_true(has_value(bf, 5));
	assert_int_equal(stats().builds, 2);
	saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	assert_non_null(saved_path);
	for (i = 0; i < 4; i++) {
		unsetenv("TT_KERNEL_CC");
		setenv("PATH", saved_path, 1);
		if (i == 0) {
			setenv("TT_KERNEL_CC", "/nonexistent/riscv64-unknown-elf-gcc", 1);
		} else if (i == 1) {
			setenv("PATH", work_dir, 1); /* no compiler there */
		} else if (i == 2) {
			setenv("TT_KERNEL_CC", "none", 1);
		} else { /* the SDK's content in another place */
			copy_sdk(root, sizeof(root), false);
			setenv("TT_KERNEL_CC", "none", 1);
		}
		same_image(&t, bt);
		same_image(&f, bf);
	}
	setenv("PATH", saved_path, 1);
	free(saved_path);
	assert_int_equal(stats().builds, 2);
	assert_int_equal(stats().portable_hits, 8);
	/* From memory after the first time, like any entry. */
	tt_kbinary_put(build_ok(&t));
	assert_int_equal(stats().portable_hits, 9);
	tt_kbinary_put(build_ok(&t));
	assert_int_equal(stats().portable_hits, 9);
	assert_int_equal(stats().mem_hits, 1);
	tt_kbinary_put(bt);
	tt_kbinary_put(bf);
}

/* A kernel the cache does not have fails, naming the kernel, the missing
 * compiler and the directory searched; so does one whose request differs
 * in one compile-time argument, and one asked for with another SDK. */
static void test_no_cc_not_cached(void **state)
{
	struct tt_kbuild_opts t = full_opts();
	static const uint32_t other_ct[] = { 7, 10 };
	char root[PATH_MAX], path[PATH_MAX + 32];

	(void)state;
	tt_kbinary_put(build_ok(&t));
	tt_kbuild_reset();
	setenv("TT_KERNEL_CC", "/nonexistent/cc", 1);
	build_fails(&(struct tt_kbuild_opts){ .proc = TT_KPROC_BRISC,
					      .source = k_simple,
					      .name = "uncached" },
		    -ENOENT, "kernel uncached: ", "no compiler to build it",
		    "TT_KERNEL_CC=/nonexistent/cc", cache_dir, ".port", NULL);
	t.ct_args = other_ct;
	build_fails(&t, -ENOENT, "kernel full: ", "no compiler", cache_dir,
		    NULL);
	/* No cache directory at all: said so, and not created. */
	snprintf(path, sizeof(path), "%s/none", work_dir);
	setenv("TT_KERNEL_CACHE", path, 1);
	build_fails(&t, -ENOENT, "kernel full: ", path, "does not exist",
		    NULL);
	assert_int_equal(access(path, F_OK), -1);
	setenv("TT_KERNEL_CACHE", cache_dir, 1);
	t = full_opts();
	setenv("TT_KERNEL_CC", "none", 1);
	tt_kbinary_put(build_ok(&t));
	copy_sdk(root, sizeof(root), false);
	snprintf(path, sizeof(path), "%s/include/hw/new.h", root);
	write_text(path, "/* another SDK */\n");
	tt_kbuild_reset();
	build_fails(&t, -ENOENT, "kernel full: ", "TT_KERNEL_CC=none",
		    cache_dir, NULL);
	assert_int_equal(stats().builds, 1);
	assert_int_equal(stats().portable_hits, 1);
}

/* Damage one file of the entry, then ask without a compiler: refused,
 * saying what is wrong, never used. */
static void no_cc_damaged(const char *ext, long off, bool garbage,
			  const char *says)
{
	struct tt_kbuild_opts o = full_opts();
	char path[PATH_MAX + 80];
	struct tt_kbinary *b;
	uint8_t pk[32];
	FILE *f;

	b = build_ok(&o);
	if (strcmp(ext, ".port"))
		entry_file(path, sizeof(path), b, ext);
	else
		only_port(path, sizeof(path), pk);
	tt_kbinary_put(b);
	if (off < 0) { /* flip a digit of the record's ELF hash */
		uint8_t *text;
		size_t len;
		char *h;

		assert_int_equal(tt_kcache_read_file(path, 4096, &text, &len), 0);
		h = strstr((char *)text, "\nelf ");
		assert_non_null(h);
		h[5] = h[5] == '0' ? '1' : '0';
		write_text(path, (char *)text);
		free(text);
	} else if (garbage) {
		f = fopen(path, "r+");
		assert_non_null(f);
		assert_int_equal(fseek(f, off, SEEK_SET), 0);
		fputs("garbage", f);
		assert_int_equal(fclose(f), 0);
	} else {
		assert_int_equal(truncate(path, off), 0);
	}
	tt_kbuild_reset();
	setenv("TT_KERNEL_CC", "none", 1);
	build_fails(&o, -ENOENT, "kernel full: ", "TT_KERNEL_CC=none",
		    cache_dir, says, NULL);
	assert_int_equal(stats().portable_hits, 0);
}

static void test_no_cc_damaged(void **state)
{
	static const struct {
		const char *ext;
		long off;
		bool garbage;
		const char *says;
	} cases[] = {
		{ ".elf", 0x1000, true, ".elf is damaged" },
		{ ".elf", 0, true, ".elf is damaged" },
		{ ".elf", 100, false, "not the size" },
		{ ".deps", 40, false, ".deps is damaged" },
		{ ".deps", 30, true, ".deps is damaged" },
		{ ".port", 30, true, ".port is damaged" },
		{ ".port", 100, false, ".port is damaged" },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (i) { /* a fresh cache */
			teardown(state);
			assert_int_equal(setup(state), 0);
		}
		no_cc_damaged(cases[i].ext, cases[i].off, cases[i].garbage,
			      cases[i].says);
	}
	/* A whole record naming another ELF than its entry has. */
	teardown(state);
	assert_int_equal(setup(state), 0);
	no_cc_damaged(".port", -1, false, "is not the ELF recorded there");
}

/* A header the kernel included was edited since the cache was filled:
 * refused, naming it; put back, the kernel is served again. */
static void test_no_cc_include_changed(void **state)
{
	struct tt_kbuild_opts o = { .proc = TT_KPROC_NCRISC };
	char path[PATH_MAX];
	struct tt_kbinary *b;

	(void)state;
	make_file_kernel(path, sizeof(path), 1);
	o.path = path;
	tt_kbinary_put(build_ok(&o));
	make_file_kernel(path, sizeof(path), 2);
	tt_kbuild_reset();
	setenv("TT_KERNEL_CC", "none", 1);
	build_fails(&o, -ENOENT, "TT_KERNEL_CC=none", "/k.h changed",
		    cache_dir, NULL);
	make_file_kernel(path, sizeof(path), 1);
	tt_kbuild_reset();
	b = build_ok(&o);
	assert_true(has_value(b, 1));
	tt_kbinary_put(b);
	/* In the same process too: edited again, the memory entry goes. */
	make_file_kernel(path, sizeof(path), 3);
	build_fails(&o, -ENOENT, "/k.h changed", NULL);
	assert_int_equal(stats().builds, 1);
	assert_int_equal(stats().portable_hits, 1);
}

/* Two compilers built the same request: the record names the entry the
 * last process with a compiler built or used, and a host without one
 * gets that one. */
static void test_no_cc_last_compiler_wins(void **state)
{
	struct tt_kbuild_opts o = full_opts();
	char script[PATH_MAX + 16], text[2 * PATH_MAX + 64], port[PATH_MAX + 80];
	struct tt_ktoolchain tc, t2;
	struct tt_kbinary *b, *b2;
	struct tt_kport r;
	uint8_t first[32], pk[32];

	(void)state;
	assert_int_equal(tt_ktoolchain_find(&tc), 0);
	/* Another compiler: a script that runs the real one (another
	 * identity, the same output). */
	snprintf(script, sizeof(script), "%s/other-gcc", work_dir);
	snprintf(text, sizeof(text), "#!/bin/sh\nexec '%s' \"$@\"\n", tc.cc);
	write_text(script, text);
	assert_int_equal(chmod(script, 0755), 0);

	b = build_ok(&o);
	memcpy(first, b->hash, 32);
	tt_kbinary_put(b);
	tt_kbuild_reset();
	setenv("TT_KERNEL_CC", script, 1);
	assert_int_equal(tt_ktoolchain_find(&t2), 0);
	b = build_ok(&o);
	assert_memory_not_equal(first, b->hash, 32); /* another entry */
	tt_kbinary_put(b);
	assert_int_equal(stats().builds, 2);
	/* One record, naming the second compiler's entry ... */
	only_port(port, sizeof(port), pk);
	assert_int_equal(tt_kcache_port_load(cache_dir, pk, &r), 0);
	assert_memory_equal(r.tc_id, t2.id, 32);
	assert_memory_not_equal(r.key, first, 32);
	/* ... until the first compiler uses its own (a disk hit). */
	unsetenv("TT_KERNEL_CC");
	tt_kbuild_reset();
	b = build_ok(&o);
	assert_int_equal(stats().disk_hits, 1);
	only_port(port, sizeof(port), pk);
	assert_int_equal(tt_kcache_port_load(cache_dir, pk, &r), 0);
	assert_memory_equal(r.key, first, 32);
	assert_memory_equal(r.tc_id, tc.id, 32);
	assert_string_equal(r.cc, tc.version);
	setenv("TT_KERNEL_CC", "none", 1);
	tt_kbuild_reset();
	b2 = build_ok(&o);
	assert_int_equal(stats().portable_hits, 1);
	assert_int_equal(b2->image_len, b->image_len);
	assert_memory_equal(b2->image, b->image, b->image_len);
	assert_int_equal(stats().builds, 2);
	tt_kbinary_put(b);
	tt_kbinary_put(b2);
}

/* ------------------------------------------------------------------ */

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_sha256_splits),
		T(test_slot_of_each_proc),
		T(test_defines_reach_kernel),
		T(test_dm_defines),
		T(test_named_args),
		T(test_bad_named_args),
		T(test_file_kernel),
		T(test_memory_hit),
		T(test_disk_hit),
		T(test_source_file_named_by_hash),
		T(test_key_covers_request),
		T(test_include_invalidates),
		T(test_same_text_elsewhere),
		T(test_many_includes),
		T(test_deps_cut_at_line),
		T(test_sdk_change_invalidates),
		T(test_sdk_thin_archive),
		T(test_concurrent_builds),
		T(test_corrupt_elf),
		T(test_corrupt_elf_body),
		T(test_truncated_elf),
		T(test_truncated_deps),
		T(test_corrupt_deps),
		T(test_no_cache_dir),
		T(test_syntax_error),
		T(test_file_error_names_file),
		T(test_link_error),
		T(test_long_error_output),
		T(test_too_large),
		T(test_missing_compiler),
		T(test_compiler_limits),
		T(test_missing_sdk),
		T(test_bad_defines),
		T(test_bad_requests),
		T(test_no_cc_from_cache),
		T(test_no_cc_not_cached),
		T(test_no_cc_damaged),
		T(test_no_cc_include_changed),
		T(test_no_cc_last_compiler_wins),
	};

	if (getenv("TT_KERNEL_SDK"))
		saved_sdk = strdup(getenv("TT_KERNEL_SDK"));
	if (getenv("TMPDIR"))
		saved_tmpdir = strdup(getenv("TMPDIR"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
