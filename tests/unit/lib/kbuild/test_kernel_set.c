// SPDX-License-Identifier: Apache-2.0
/*
 * Kernel sets (tt/kernel_set.h, lib/kbuild/kernel_set.c) and
 * tt_compile_program (tt/program.h): recording every kernel built or found
 * (built, from memory, from disk, by a portable record, from a served
 * set), serving a set to a process without a compiler and with an empty
 * cache, which then runs a program on the embedded device; hostile input
 * to tt_kernel_set_add; a program compiled before its first enqueue.
 *
 * Every test gets a fresh cache directory (TT_KERNEL_CACHE), starts as a
 * new process would (tt_kbuild_reset) and ends with no set recording or
 * serving, so the statistics say exactly how each request was served.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/kbuild/kbuild.h"
#include "lib/kbuild/kcache.h"
#include "lib/kbuild/sha256.h"
#include "lib/dispatch/fd.h"
#include "lib/program/program_internal.h"
#include "testutil.h"

/* ------------------------------------------------------------------ */
/* Fixtures */

static char cache_dir[PATH_MAX]; /* this test's TT_KERNEL_CACHE */
static char empty_dir[PATH_MAX]; /* a second, empty one */
static struct tt_kbuild_stats base;

static void rm_rf(const char *path)
{
	if (path[0])
		test_rmtree(path);
}

static int setup(void **state)
{
	(void)state;
	if (!test_mkdtemp(cache_dir, sizeof(cache_dir), "tt-kset") ||
	    !test_mkdtemp(empty_dir, sizeof(empty_dir), "tt-kset-empty"))
		return -1;
	setenv("TT_KERNEL_CACHE", cache_dir, 1);
	setenv("TT_TRANSPORT", test_transport(), 1);
	unsetenv("TT_KERNEL_CC");
	tt_kbuild_reset();
	tt_kbuild_get_stats(&base);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tt_kernel_set_record(NULL);
	tt_kernel_set_serve(NULL);
	unsetenv("TT_KERNEL_CC");
	rm_rf(cache_dir);
	rm_rf(empty_dir);
	return 0;
}

/* How this test's requests were served so far. */
static struct tt_kbuild_stats stats(void)
{
	struct tt_kbuild_stats s;

	tt_kbuild_get_stats(&s);
	s.mem_hits -= base.mem_hits;
	s.disk_hits -= base.disk_hits;
	s.builds -= base.builds;
	s.portable_hits -= base.portable_hits;
	s.set_hits -= base.set_hits;
	return s;
}

#define assert_error_contains(s)                                         \
	do {                                                             \
		if (!strstr(tt_last_error(), (s)))                       \
			fail_msg("error '%s' lacks '%s'", tt_last_error(), \
				 (s));                                   \
	} while (0)

/* ------------------------------------------------------------------ */
/* Requests */

static const char k_one[] =
	"#include <stdint.h>\n"
	"volatile uint32_t marker[2] = { 0x5E7A0001u, 0 };\n"
	"void kernel_main(void) { marker[1]++; }\n";
static const char k_two[] =
	"#include <stdint.h>\n"
	"volatile uint32_t marker[2] = { 0x5E7A0002u, 0 };\n"
	"void kernel_main(void) { marker[1] += 2; }\n";

static struct tt_kbuild_opts opts(enum tt_kproc proc, const char *src)
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

static tt_kernel_set *set_new(void)
{
	tt_kernel_set *s = NULL;

	assert_int_equal(tt_kernel_set_create(&s), 0);
	assert_non_null(s);
	return s;
}

/*
 * The portable key and ELF of the only kernel built into cache_dir so
 * far: the name of its one .port file, and the <key>.elf that record
 * names (as docs/kernels.md "Without a compiler" lays them out). The ELF
 * is malloc'd.
 */
static void only_port(char pkey[TT_SHA256_HEX_LEN + 1], uint8_t **elf,
		      size_t *len)
{
	char path[PATH_MAX + 80], key[TT_SHA256_HEX_LEN + 1];
	uint8_t *text;
	size_t n, ports = 0;
	struct dirent *e;
	DIR *d = opendir(cache_dir);
	const char *k;

	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l == TT_SHA256_HEX_LEN + 5 &&
		    !strcmp(e->d_name + TT_SHA256_HEX_LEN, ".port")) {
			snprintf(pkey, TT_SHA256_HEX_LEN + 1, "%s", e->d_name);
			ports++;
		}
	}
	closedir(d);
	assert_int_equal(ports, 1);
	snprintf(path, sizeof(path), "%s/%s.port", cache_dir, pkey);
	assert_int_equal(tt_kcache_read_file(path, 4096, &text, &n), 0);
	k = strstr((char *)text, "\nkey ");
	assert_non_null(k);
	snprintf(key, sizeof(key), "%.64s", k + 5);
	free(text);
	snprintf(path, sizeof(path), "%s/%s.elf", cache_dir, key);
	assert_int_equal(tt_kcache_read_file(path, TT_KCACHE_FILE_MAX, elf,
					     len),
			 0);
}

/* s holds exactly one kernel: pkey with elf[0..len). */
static void holds_only(const tt_kernel_set *s, const char *pkey,
		       const uint8_t *elf, size_t len)
{
	const char *k = NULL;
	const void *e = NULL;
	size_t n = 0;

	assert_int_equal(tt_kernel_set_count(s), 1);
	assert_int_equal(tt_kernel_set_at(s, 0, &k, &e, &n), 0);
	assert_string_equal(k, pkey);
	assert_int_equal(n, len);
	assert_memory_equal(e, elf, len);
}

/* ------------------------------------------------------------------ */
/* Recording */

/* A kernel built from a string while a set records: one entry, under the
 * key of its portable record, with the ELF of the cache entry. Nothing
 * after the recording stops. */
static void test_record_build(void **state)
{
	struct tt_kbuild_opts o = opts(TT_KPROC_BRISC, k_one);
	struct tt_kbuild_opts o2 = opts(TT_KPROC_BRISC, k_two);
	char pkey[TT_SHA256_HEX_LEN + 1];
	tt_kernel_set *s = set_new();
	uint8_t *elf;
	size_t len;

	(void)state;
	assert_int_equal(tt_kernel_set_count(s), 0);
	assert_int_equal(tt_kernel_set_record(s), 0);
	assert_int_equal(tt_kernel_set_record(s), 0); /* again: still s */
	tt_kbinary_put(build_ok(&o));
	assert_int_equal(stats().builds, 1);
	assert_int_equal(tt_kernel_set_record(NULL), 0);
	only_port(pkey, &elf, &len);
	holds_only(s, pkey, elf, len);
	/* Not recording any more. */
	tt_kbinary_put(build_ok(&o2));
	assert_int_equal(stats().builds, 2);
	assert_int_equal(tt_kernel_set_count(s), 1);
	free(elf);
	tt_kernel_set_free(s);
}

/* A fresh set recording r receives the kernel o, served as *counter
 * says (one more than before). */
static void record_one(const struct tt_kbuild_opts *o, tt_kernel_set **r)
{
	*r = set_new();
	assert_int_equal(tt_kernel_set_record(*r), 0);
	tt_kbinary_put(build_ok(o));
	assert_int_equal(tt_kernel_set_record(NULL), 0);
}

/* Every way a request is served records the same entry: a build, a
 * memory hit (of an entry made while recording, and of one made before,
 * which is found again on disk), a disk hit, a portable record without a
 * compiler, and a served set. */
static void test_record_every_path(void **state)
{
	struct tt_kbuild_opts o = opts(TT_KPROC_NCRISC, k_one);
	char pkey[TT_SHA256_HEX_LEN + 1];
	tt_kernel_set *r[7];
	struct tt_kbuild_stats st;
	uint8_t *elf;
	size_t len;
	unsigned i;

	(void)state;
	/* Built before anything records: its memory entry keeps no ELF. */
	tt_kbinary_put(build_ok(&o));
	only_port(pkey, &elf, &len);
	/* A memory entry without the ELF is found again on disk... */
	record_one(&o, &r[0]);
	st = stats();
	assert_int_equal(st.builds, 1);
	assert_int_equal(st.disk_hits, 1);
	assert_int_equal(st.mem_hits, 0);
	/* ...which keeps it: now a memory hit records. */
	record_one(&o, &r[1]);
	assert_int_equal(stats().mem_hits, 1);
	/* A build while recording. */
	tt_kbuild_reset();
	rm_rf(cache_dir);
	record_one(&o, &r[2]);
	assert_int_equal(stats().builds, 2);
	/* A disk hit (a new process). */
	tt_kbuild_reset();
	record_one(&o, &r[3]);
	assert_int_equal(stats().disk_hits, 2);
	/* A portable record, without a compiler. */
	tt_kbuild_reset();
	setenv("TT_KERNEL_CC", "none", 1);
	record_one(&o, &r[4]);
	assert_int_equal(stats().portable_hits, 1);
	/* A served set (which wins over the memory entry just made). */
	assert_int_equal(tt_kernel_set_serve(r[0]), 0);
	record_one(&o, &r[5]);
	assert_int_equal(stats().set_hits, 1);
	/* And a memory hit of the portable one, no longer served. */
	assert_int_equal(tt_kernel_set_serve(NULL), 0);
	record_one(&o, &r[6]);
	assert_int_equal(stats().mem_hits, 2);
	assert_int_equal(stats().builds, 2);
	for (i = 0; i < 7; i++) {
		holds_only(r[i], pkey, elf, len);
		tt_kernel_set_free(r[i]);
	}
	free(elf);
}

/* One set records at a time; a kernel met with an ELF other than the
 * one the recording set has for its key is reported when recording
 * stops, naming the key, and the set keeps its own. */
static void test_record_conflict(void **state)
{
	struct tt_kbuild_opts o1 = opts(TT_KPROC_BRISC, k_one);
	struct tt_kbuild_opts o2 = opts(TT_KPROC_BRISC, k_two);
	char pkey[TT_SHA256_HEX_LEN + 1], pkey2[TT_SHA256_HEX_LEN + 1];
	tt_kernel_set *s = set_new(), *t = set_new();
	uint8_t *elf1, *elf2;
	size_t len1, len2;

	(void)state;
	tt_kbinary_put(build_ok(&o1));
	only_port(pkey, &elf1, &len1);
	rm_rf(cache_dir);
	tt_kbinary_put(build_ok(&o2));
	only_port(pkey2, &elf2, &len2);
	/* k_two's ELF under k_one's key. */
	assert_int_equal(tt_kernel_set_add(s, pkey, elf2, len2), 0);
	assert_int_equal(tt_kernel_set_record(s), 0);
	assert_int_equal(tt_kernel_set_record(t), -EBUSY);
	assert_error_contains("another kernel set records");
	tt_kbinary_put(build_ok(&o1));
	assert_int_equal(tt_kernel_set_record(NULL), -EEXIST);
	assert_error_contains(pkey);
	assert_error_contains("two different ELF");
	holds_only(s, pkey, elf2, len2);
	/* Reported once; stopping again is fine. */
	assert_int_equal(tt_kernel_set_record(NULL), 0);
	/* Freeing the recording set stops it: t may record. */
	assert_int_equal(tt_kernel_set_record(s), 0);
	tt_kernel_set_free(s);
	assert_int_equal(tt_kernel_set_record(t), 0);
	tt_kbinary_put(build_ok(&o1));
	assert_int_equal(tt_kernel_set_record(NULL), 0);
	holds_only(t, pkey, elf1, len1);
	tt_kernel_set_free(t);
	free(elf1);
	free(elf2);
}

/* ------------------------------------------------------------------ */
/* Adding */

/* The ELF's first PT_LOAD header with the largest address: its memsz. */
static uint8_t *last_memsz(uint8_t *elf)
{
	uint32_t phoff, vaddr, best = 0;
	uint16_t phentsize, phnum, i;
	uint8_t *p, *found = NULL;

	memcpy(&phoff, elf + 28, 4);
	memcpy(&phentsize, elf + 42, 2);
	memcpy(&phnum, elf + 44, 2);
	for (i = 0; i < phnum; i++) {
		uint32_t type;

		p = elf + phoff + (size_t)i * phentsize;
		memcpy(&type, p, 4);
		memcpy(&vaddr, p + 8, 4);
		if (type == 1 && vaddr >= best) { /* PT_LOAD */
			best = vaddr;
			found = p + 20;
		}
	}
	assert_non_null(found);
	return found;
}

/* Hostile input: keys that are not 64 lowercase hex digits, ELF files
 * that are truncated, not ELF, too large for their slot or not starting
 * at one: -EINVAL naming the key, the set unchanged. */
static void test_add_hostile(void **state)
{
	struct tt_kbuild_opts o = opts(TT_KPROC_NCRISC, k_one);
	char pkey[TT_SHA256_HEX_LEN + 1], bad[TT_SHA256_HEX_LEN + 2];
	static const char *const bad_keys[] = {
		"", "abc", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde",
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
		"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",
		"0123456789abcdeg0123456789abcdef0123456789abcdef0123456789abcdef",
		"0123456789abcdef0123456789abcdef 123456789abcdef0123456789abcdef",
	};
	tt_kernel_set *s = set_new();
	uint8_t *elf, *copy, *m;
	uint32_t v;
	size_t len, i;

	(void)state;
	tt_kbinary_put(build_ok(&o));
	only_port(pkey, &elf, &len);
	for (i = 0; i < sizeof(bad_keys) / sizeof(bad_keys[0]); i++) {
		assert_int_equal(tt_kernel_set_add(s, bad_keys[i], elf, len),
				 -EINVAL);
		assert_error_contains("is not 64 lowercase hex digits");
		assert_error_contains(bad_keys[i]);
	}
	assert_int_equal(tt_kernel_set_add(NULL, pkey, elf, len), -EINVAL);
	assert_error_contains("s is NULL");
	assert_int_equal(tt_kernel_set_add(s, NULL, elf, len), -EINVAL);
	assert_error_contains("portable_key is NULL");
	assert_int_equal(tt_kernel_set_add(s, pkey, NULL, len), -EINVAL);
	assert_error_contains("elf is NULL");
	/* Empty, truncated in the header, the program headers or the code
	 * (the first segment's data starts at 0x1000); not ELF at all.
	 * (Cut after the segments, only symbols and debug information are
	 * lost: that ELF loads as well as the whole one.) */
	for (i = 0; i < 5; i++) {
		static const size_t cuts[] = { 0, 10, 52, 0x1001, 0x1040 };
		size_t cut = cuts[i];

		assert_int_equal(tt_kernel_set_add(s, pkey, elf, cut), -EINVAL);
		assert_error_contains(pkey);
		assert_error_contains("not a kernel");
	}
	assert_int_equal(tt_kernel_set_add(s, pkey, "#!/bin/sh\necho hi\n", 18),
			 -EINVAL);
	assert_error_contains(pkey);
	copy = malloc(len);
	assert_non_null(copy);
	/* A segment that runs past the 32 KiB slot. */
	memcpy(copy, elf, len);
	m = last_memsz(copy);
	v = 40000;
	memcpy(m, &v, 4);
	assert_int_equal(tt_kernel_set_add(s, pkey, copy, len), -EINVAL);
	assert_error_contains(pkey);
	assert_error_contains("the slot holds 32768");
	/* An entry point that is no slot's start. */
	memcpy(copy, elf, len);
	memcpy(&v, copy + 24, 4);
	v += 4;
	memcpy(copy + 24, &v, 4);
	assert_int_equal(tt_kernel_set_add(s, pkey, copy, len), -EINVAL);
	assert_error_contains(pkey);
	assert_error_contains("entry point");
	assert_int_equal(tt_kernel_set_count(s), 0);
	/* The real one; again with the same bytes; other bytes: -EEXIST. */
	assert_int_equal(tt_kernel_set_add(s, pkey, elf, len), 0);
	assert_int_equal(tt_kernel_set_add(s, pkey, elf, len), 0);
	assert_int_equal(tt_kernel_set_count(s), 1);
	memcpy(copy, elf, len);
	copy[len - 1] ^= 0xff; /* the last byte: section names, harmless */
	assert_int_equal(tt_kernel_set_add(s, pkey, copy, len), -EEXIST);
	assert_error_contains(pkey);
	/* Index past the end. */
	assert_int_equal(tt_kernel_set_at(s, 1, NULL, NULL, NULL), -EINVAL);
	assert_error_contains("index 1");
	assert_int_equal(tt_kernel_set_at(NULL, 0, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(tt_kernel_set_count(NULL), 0);
	assert_int_equal(tt_kernel_set_create(NULL), -EINVAL);
	holds_only(s, pkey, elf, len);
	/* Listed in key order whatever the order of adding. */
	snprintf(bad, sizeof(bad), "%s", pkey);
	bad[0] = pkey[0] == '0' ? 'f' : '0';
	assert_int_equal(tt_kernel_set_add(s, bad, elf, len), 0);
	{
		const char *k0, *k1;

		assert_int_equal(tt_kernel_set_at(s, 0, &k0, NULL, NULL), 0);
		assert_int_equal(tt_kernel_set_at(s, 1, &k1, NULL, NULL), 0);
		assert_true(strcmp(k0, k1) < 0);
	}
	tt_kernel_set_free(s);
	tt_kernel_set_free(NULL);
	free(copy);
	free(elf);
}

/* ------------------------------------------------------------------ */
/* Serving */

/* The set has its own copy: the caller's buffer scribbled on after the
 * add changes nothing served. A served kernel is the set's image (not
 * the cache's, not rebuilt), with an identity of its own. */
static void test_serve_copy(void **state)
{
	struct tt_kbuild_opts o = opts(TT_KPROC_BRISC, k_one);
	struct tt_kbinary *built, *served;
	char pkey[TT_SHA256_HEX_LEN + 1];
	tt_kernel_set *s = set_new();
	uint8_t *elf;
	size_t len;

	(void)state;
	built = build_ok(&o);
	only_port(pkey, &elf, &len);
	assert_int_equal(tt_kernel_set_add(s, pkey, elf, len), 0);
	memset(elf, 0xA5, len);
	assert_int_equal(tt_kernel_set_serve(s), 0);
	assert_int_equal(tt_kernel_set_serve(s), 0); /* once only */
	served = build_ok(&o);
	assert_int_equal(stats().set_hits, 1);
	assert_int_equal(stats().builds, 1);
	assert_int_equal(stats().mem_hits, 0);
	assert_int_equal(served->image_len, built->image_len);
	assert_memory_equal(served->image, built->image, built->image_len);
	assert_int_equal(served->load_addr, built->load_addr);
	assert_memory_not_equal(served->hash, built->hash, 32);
	tt_kbinary_put(served);
	/* Stopped: from memory again. */
	assert_int_equal(tt_kernel_set_serve(NULL), 0);
	tt_kbinary_put(build_ok(&o));
	assert_int_equal(stats().mem_hits, 1);
	/* Freeing a served set stops serving it. */
	assert_int_equal(tt_kernel_set_serve(s), 0);
	tt_kernel_set_free(s);
	tt_kbinary_put(build_ok(&o));
	assert_int_equal(stats().set_hits, 1);
	assert_int_equal(stats().mem_hits, 2);
	tt_kbinary_put(built);
	free(elf);
}

/* Several sets serve; the first served that has the key wins. A set's
 * ELF that does not fit the request's processor (a BRISC kernel under an
 * NCRISC request's key) is an error naming the key, not a build. */
static void test_serve_order_and_slot(void **state)
{
	struct tt_kbuild_opts nc = opts(TT_KPROC_NCRISC, k_one);
	struct tt_kbuild_opts br = opts(TT_KPROC_BRISC, k_two);
	char pkey_nc[TT_SHA256_HEX_LEN + 1], pkey_br[TT_SHA256_HEX_LEN + 1];
	tt_kernel_set *a = set_new(), *b = set_new();
	struct tt_kbinary *bin, *want;
	uint8_t *elf_nc, *elf_br;
	size_t len_nc, len_br;

	(void)state;
	want = build_ok(&nc);
	only_port(pkey_nc, &elf_nc, &len_nc);
	rm_rf(cache_dir);
	tt_kbinary_put(build_ok(&br));
	only_port(pkey_br, &elf_br, &len_br);
	assert_int_equal(tt_kernel_set_add(a, pkey_nc, elf_nc, len_nc), 0);
	assert_int_equal(tt_kernel_set_add(b, pkey_nc, elf_br, len_br), 0);
	assert_int_equal(tt_kernel_set_serve(a), 0);
	assert_int_equal(tt_kernel_set_serve(b), 0);
	bin = build_ok(&nc);
	assert_memory_equal(bin->image, want->image, want->image_len);
	tt_kbinary_put(bin);
	/* b alone: its BRISC ELF for the NCRISC request. */
	assert_int_equal(tt_kernel_set_serve(NULL), 0);
	assert_int_equal(tt_kernel_set_serve(b), 0);
	bin = (void *)1;
	assert_int_equal(tt_kbuild(&nc, &bin), -ENOEXEC);
	assert_null(bin);
	assert_error_contains(pkey_nc);
	assert_error_contains("kernel set");
	assert_error_contains("slot");
	assert_int_equal(stats().set_hits, 1);
	assert_int_equal(stats().builds, 2);
	tt_kbinary_put(want);
	tt_kernel_set_free(a);
	tt_kernel_set_free(b);
	free(elf_nc);
	free(elf_br);
}

/* ------------------------------------------------------------------ */
/* On the device */

static const char k_stamp[] =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	*(volatile uint32_t *)get_arg_val(1) = get_arg_val(0) * 3u + 1u;\n"
	"}\n";

struct run {
	tt_device *dev;
	tt_buffer *l1;
	tt_program *p;
	uint32_t where;
};

static tt_device *open_booted(void)
{
	tt_device *dev = NULL;

	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	if (tt_mgmt_wait_ready(dev, BOOT_MS))
		fail_msg("%s", tt_last_error());
	return dev;
}

/* A one-core program of kernel src stamping value * 3 + 1 into r's L1
 * buffer on core (1,0); nothing built yet. */
static tt_program *stamp_program(const struct run *r, const char *src,
				 uint32_t value)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(1, 0);
	uint32_t args[2] = { value, r->where };
	tt_kernel_handle k;
	tt_program *p;

	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_kernel_from_string(p, src, &core, NULL, &k),
			 0);
	assert_int_equal(tt_set_runtime_args(p, k, (struct tt_xy){ 1, 0 },
					     args, 2),
			 0);
	return p;
}

/* A device, an L1 buffer and the stamp program. */
static void run_up(struct run *r, uint32_t value)
{
	struct tt_buffer_config c = { .size = 64, .page_size = 64,
				      .type = TT_BUFFER_L1 };

	r->dev = open_booted();
	c.device = r->dev;
	assert_int_equal(tt_create_buffer(&c, &r->l1), 0);
	r->where = (uint32_t)tt_buffer_address(r->l1);
	r->p = stamp_program(r, k_stamp, value);
}

static void run_down(struct run *r)
{
	tt_program_free(r->p);
	tt_buffer_free(r->l1);
	tt_device_close(r->dev);
}

/* Enqueue r->p and check the stamp is want. */
static void run_expect(struct run *r, uint32_t want)
{
	tt_command_queue *cq;
	struct tt_xy noc;
	uint32_t zero = 0, v = 0;

	assert_int_equal(tt_device_worker_core(r->dev, (struct tt_xy){ 1, 0 },
					       &noc),
			 0);
	assert_int_equal(tt_noc_write(r->dev, 0, noc.x, noc.y, r->where,
				      &zero, 4),
			 0);
	assert_int_equal(tt_device_command_queue(r->dev, 0, &cq), 0);
	if (tt_enqueue_program(cq, r->p, true))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_noc_read32(r->dev, 0, noc.x, noc.y, r->where, &v),
			 0);
	assert_int_equal(v, want);
}

/* Enqueue and check the stamp of k_stamp. */
static void run_check(struct run *r, uint32_t value)
{
	run_expect(r, value * 3u + 1u);
}

static bool dir_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	unsigned n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return !n;
}

/*
 * What an image does: record the kernels of a program run with the
 * compiler (the dispatcher too, under fast dispatch), then, as a host
 * without the compiler and with an empty kernel cache, serve the set and
 * run the same program: right results, every kernel from the set.
 * Without the set that host cannot run it.
 */
static void test_serve_without_compiler(void **state)
{
	tt_kernel_set *s = set_new();
	struct tt_kbuild_stats st;
	tt_command_queue *cq;
	struct run r;
	bool fast;
	size_t n;

	(void)state;
	assert_int_equal(tt_fd_wanted(&fast), 0);
	assert_int_equal(tt_kernel_set_record(s), 0);
	run_up(&r, 7);
	run_check(&r, 7);
	run_down(&r);
	assert_int_equal(tt_kernel_set_record(NULL), 0);
	/* The kernel, and the dispatcher under fast dispatch. */
	n = tt_kernel_set_count(s);
	assert_int_equal(n, fast ? 2 : 1);
	/* Another host: no compiler, an empty cache, a new process. */
	setenv("TT_KERNEL_CC", "none", 1);
	setenv("TT_KERNEL_CACHE", empty_dir, 1);
	tt_kbuild_reset();
	tt_kbuild_get_stats(&base);
	run_up(&r, 11);
	assert_int_equal(tt_device_command_queue(r.dev, 0, &cq), 0);
	assert_int_equal(tt_enqueue_program(cq, r.p, true), -ENOENT);
	assert_error_contains("no compiler");
	assert_int_equal(tt_kernel_set_serve(s), 0);
	run_check(&r, 11);
	run_down(&r);
	st = stats();
	assert_int_equal(st.set_hits, n);
	assert_int_equal(st.builds + st.disk_hits + st.portable_hits, 0);
	assert_true(dir_empty(empty_dir));
	tt_kernel_set_free(s);
}

/* The one kernel a set recorded while r->p ran. */
static tt_kernel_set *record_run(struct run *r, uint32_t want)
{
	tt_kernel_set *s = set_new();

	assert_int_equal(tt_kernel_set_record(s), 0);
	run_expect(r, want);
	assert_int_equal(tt_kernel_set_record(NULL), 0);
	assert_int_equal(tt_kernel_set_count(s), 1);
	return s;
}

/*
 * On the device, a served set wins over the cache even when the cache
 * has the request (here by its portable record, without a compiler),
 * and its kernel replaces the cache's in the core's slot: the slot
 * upload goes by the binary's identity, which must differ when the ELF
 * does. The set holds another kernel's ELF under k_stamp's key, so which
 * one ran shows in the result. Stopped, the cache's runs again.
 */
static void test_serve_wins_on_device(void **state)
{
	static const char k_alt[] =
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void)\n"
		"{\n"
		"	*(volatile uint32_t *)get_arg_val(1) = get_arg_val(0) * 5u + 2u;\n"
		"}\n";
	tt_kernel_set *a, *b, *swapped = set_new();
	const char *key;
	const void *elf;
	size_t len;
	struct run r;

	(void)state;
	/* With the compiler: bring the device's dispatcher up, then record
	 * each kernel alone. */
	run_up(&r, 4);
	run_check(&r, 4);
	tt_program_free(r.p);
	r.p = stamp_program(&r, k_stamp, 9);
	a = record_run(&r, 28);
	tt_program_free(r.p);
	r.p = stamp_program(&r, k_alt, 9);
	b = record_run(&r, 47);
	assert_int_equal(tt_kernel_set_at(a, 0, &key, NULL, NULL), 0);
	assert_int_equal(tt_kernel_set_at(b, 0, NULL, &elf, &len), 0);
	assert_int_equal(tt_kernel_set_add(swapped, key, elf, len), 0);
	/* Without it: k_stamp from its portable record, then served. */
	setenv("TT_KERNEL_CC", "none", 1);
	tt_kbuild_reset();
	tt_kbuild_get_stats(&base);
	tt_program_free(r.p);
	r.p = stamp_program(&r, k_stamp, 10);
	run_expect(&r, 31);
	assert_int_equal(stats().portable_hits, 1);
	assert_int_equal(tt_kernel_set_serve(swapped), 0);
	tt_program_free(r.p);
	r.p = stamp_program(&r, k_stamp, 10);
	run_expect(&r, 52);
	assert_int_equal(stats().set_hits, 1);
	assert_int_equal(tt_kernel_set_serve(NULL), 0);
	tt_program_free(r.p);
	r.p = stamp_program(&r, k_stamp, 10);
	run_expect(&r, 31);
	assert_int_equal(stats().mem_hits, 1);
	run_down(&r);
	tt_kernel_set_free(a);
	tt_kernel_set_free(b);
	tt_kernel_set_free(swapped);
}

/* ------------------------------------------------------------------ */
/* tt_compile_program */

/* Compiled before the first enqueue: the kernels are built then, and
 * the enqueue asks for nothing more and runs right. */
static void test_compile_program(void **state)
{
	static const char k_other[] =
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void) /* another kernel */\n"
		"{\n"
		"	*(volatile uint32_t *)get_arg_val(1) = get_arg_val(0) * 3u + 1u;\n"
		"}\n";
	struct tt_kbuild_stats st;
	struct run r;

	(void)state;
	/* A first launch brings up what the device itself needs (the
	 * dispatcher, under fast dispatch). */
	run_up(&r, 5);
	run_check(&r, 5);
	tt_program_free(r.p);
	r.p = stamp_program(&r, k_other, 6);
	tt_kbuild_get_stats(&base);
	assert_null(tt_program_kernel(r.p, 0)->bin);
	if (tt_compile_program(r.dev, r.p))
		fail_msg("%s", tt_last_error());
	assert_non_null(tt_program_kernel(r.p, 0)->bin);
	assert_int_equal(stats().builds, 1);
	/* Again: nothing to build, nothing asked for. */
	assert_int_equal(tt_compile_program(r.dev, r.p), 0);
	run_check(&r, 6);
	run_check(&r, 6);
	st = stats();
	assert_int_equal(st.builds, 1);
	assert_int_equal(st.mem_hits + st.disk_hits + st.portable_hits +
				 st.set_hits,
			 0);
	run_down(&r);
}

/* A kernel that does not compile: tt_compile_program returns the build
 * error the enqueue would; a core outside the grid likewise. NULL
 * arguments are refused. */
static void test_compile_program_errors(void **state)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	char msg[4096];
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_device *dev;
	tt_program *p;

	(void)state;
	dev = open_booted();
	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_kernel_from_string(
				 p, "void kernel_main(void) { nope(; }\n",
				 &core, NULL, &k),
			 0);
	assert_int_equal(tt_compile_program(dev, p), -ENOEXEC);
	assert_error_contains("kernel 0 (<string 0>)");
	assert_error_contains("compilation failed");
	assert_error_contains(":1:");
	snprintf(msg, sizeof(msg), "%s", tt_last_error());
	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	assert_int_equal(tt_enqueue_program(cq, p, true), -ENOEXEC);
	assert_string_equal(tt_last_error(), msg);
	tt_program_free(p);
	/* Outside the grid. */
	assert_int_equal(tt_create_program(&p), 0);
	core = tt_core_range_set_of_core(200, 0);
	assert_int_equal(tt_create_kernel_from_string(p, k_stamp, &core, NULL,
						      &k),
			 0);
	assert_int_equal(tt_compile_program(dev, p), -EINVAL);
	assert_error_contains("outside");
	snprintf(msg, sizeof(msg), "%s", tt_last_error());
	assert_int_equal(tt_enqueue_program(cq, p, true), -EINVAL);
	assert_string_equal(tt_last_error(), msg);
	/* A failed build is not cached: each call asked the compiler. */
	assert_int_equal(stats().builds, 2);
	assert_int_equal(tt_compile_program(NULL, p), -EINVAL);
	assert_error_contains("tt_compile_program: dev is NULL");
	assert_int_equal(tt_compile_program(dev, NULL), -EINVAL);
	assert_error_contains("tt_compile_program: prog is NULL");
	tt_program_free(p);
	tt_device_close(dev);
}

/* ------------------------------------------------------------------ */

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_record_build),
		T(test_record_every_path),
		T(test_record_conflict),
		T(test_add_hostile),
		T(test_serve_copy),
		T(test_serve_order_and_slot),
		T(test_serve_without_compiler),
		T(test_serve_wins_on_device),
		T(test_compile_program),
		T(test_compile_program_errors),
	};

	return cmocka_run_group_tests_name("kernel_set", tests, NULL, NULL);
}
