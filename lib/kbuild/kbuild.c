// SPDX-License-Identifier: Apache-2.0
/*
 * Kernel compilation (kbuild.h): check the request, compute its portable
 * key and ask the served kernel sets (kernel_set.c), then compute its key,
 * look in the memory and disk caches, else run the cross compiler once
 * (compile and link, -MD for the included files), check the ELF against
 * the processor's kernel slot, and keep the result in both caches. What
 * was built or found goes to the recording set, if one records.
 *
 * The compiler is started with an argument vector, never through a
 * shell, so user defines reach it verbatim; they are still checked (C
 * identifiers, no newlines) so nothing they contain can become an option.
 */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/elfload.h"
#include "hw/hart.h"
#include "hw/l1.h"
#include "kbuild.h"
#include "kcache.h"
#include "ksdk.h"
#include "sha256.h"

_Static_assert(TT_KPROC_BRISC == (int)TT_HART_BRISC &&
		       TT_KPROC_NCRISC == (int)TT_HART_NCRISC &&
		       TT_KPROC_COMPUTE == (int)TT_HART_COMPUTE &&
		       TT_KPROC_COUNT == (int)TT_TENSIX_HARTS,
	       "kernel processors are Tensix harts");

#define CT_ARGS_MAX TT_KBUILD_CT_ARGS_MAX
#define DEFINES_MAX TT_KBUILD_DEFINES_MAX
#define DEFINE_NAME_MAX TT_KBUILD_DEFINE_NAME_MAX
#define DEFINE_VALUE_MAX TT_KBUILD_DEFINE_VALUE_MAX
#define NAMED_MAX TT_KBUILD_NAMED_ARGS_MAX
/* Fixed flags + runtime defines + user defines + paths. */
#define ARGS_MAX (64u + DEFINES_MAX)
/* Compiler output kept for the message (tt_error holds 4096 bytes). */
#define CC_OUTPUT_MAX 16384u
#define MSG_MAX 4096u

/* Everything one tt_kbuild() call works with. */
struct kjob {
	const struct tt_kbuild_opts *o;
	char name[PATH_MAX + 32]; /* the kernel in messages */
	char src_path[PATH_MAX]; /* a file kernel's real path */
	const uint8_t *src; /* source text */
	size_t src_len;
	uint8_t *src_buf; /* a file kernel's text, owned */
	uint8_t src_hash[32];
	struct tt_ktoolchain tc;
	struct tt_ksdk sdk;
	/* Compiler arguments that decide the output: flags before the
	 * source (pre) and libraries after it (post). */
	char *pre[ARGS_MAX], *post[4];
	unsigned npre, npost;
	/* The key the caches use; the portable key, which leaves the
	 * compiler out (docs/kernels.md "Without a compiler"). */
	uint8_t key[32];
	uint8_t pkey[32];
	/* No compiler (TT_KERNEL_CC=none, or none found): kernels only from
	 * portable records; cc_why says why there is none. key == pkey. */
	bool no_cc;
	char cc_why[1024];
};

static unsigned long stat_mem, stat_disk, stat_builds, stat_portable,
	stat_set;

void tt_kbuild_get_stats(struct tt_kbuild_stats *s)
{
	s->mem_hits = __atomic_load_n(&stat_mem, __ATOMIC_RELAXED);
	s->disk_hits = __atomic_load_n(&stat_disk, __ATOMIC_RELAXED);
	s->builds = __atomic_load_n(&stat_builds, __ATOMIC_RELAXED);
	s->portable_hits = __atomic_load_n(&stat_portable, __ATOMIC_RELAXED);
	s->set_hits = __atomic_load_n(&stat_set, __ATOMIC_RELAXED);
}

void tt_kbuild_reset(void)
{
	tt_kcache_reset_memory();
	tt_ksdk_reset();
}

/* ---- binaries ---- */

void tt_kbinary_get(struct tt_kbinary *b)
{
	__atomic_add_fetch(&b->refs, 1, __ATOMIC_RELAXED);
}

void tt_kbinary_put(struct tt_kbinary *b)
{
	if (!b || __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL))
		return;
	tt_kdeps_free(b->deps);
	free(b->elf);
	free(b);
}

/*
 * Check an ELF as a kernel for proc's slot: every segment inside the slot,
 * entry at its first byte. what names the ELF in messages (the
 * compiler's output, a kernel set's). *img and *size: its segments and
 * the bytes of the slot they span.
 */
static int slot_check(const char *name, const char *what, const uint8_t *elf,
		      size_t len, enum tt_kproc proc, struct elf_image *img,
		      size_t *size)
{
	uint32_t slot = TT_L1_KERNEL_SLOT(proc), lo = UINT32_MAX;
	uint64_t hi = 0, end;
	char err[256];
	unsigned i;

	if (elf_load(elf, len, img, err, sizeof(err)))
		return tt_error(-ENOEXEC, "kernel %s: %s is not a kernel: %s",
				name, what, err);
	for (i = 0; i < img->count; i++) {
		end = (uint64_t)img->seg[i].vaddr + img->seg[i].memsz;
		lo = img->seg[i].vaddr < lo ? img->seg[i].vaddr : lo;
		hi = end > hi ? end : hi;
	}
	if (lo < slot)
		return tt_error(-ENOEXEC, "kernel %s: linked at 0x%x, below its slot at 0x%x (wrong linker script?)",
				name, lo, slot);
	if (hi - slot > TT_L1_KERNEL_SLOT_SIZE)
		return tt_error(-EFBIG, "kernel %s needs %llu bytes, the slot holds %u",
				name, (unsigned long long)(hi - slot),
				TT_L1_KERNEL_SLOT_SIZE);
	if (img->entry != slot)
		return tt_error(-ENOEXEC, "kernel %s: entry point 0x%x is not the start of its slot 0x%x",
				name, img->entry, slot);
	*size = (size_t)(hi - slot);
	return 0;
}

int tt_kbuild_check_elf(const char *name, const void *elf, size_t len,
			enum tt_kproc *proc)
{
	uint32_t base = TT_L1_KERNEL_SLOT(0), off;
	struct elf_image img;
	char err[256];
	size_t size;

	if (elf_load(elf, len, &img, err, sizeof(err)))
		return tt_error(-ENOEXEC, "kernel %s: the ELF is not a kernel: %s",
				name, err);
	off = img.entry - base;
	if (img.entry < base || off % TT_L1_KERNEL_SLOT_SIZE ||
	    off / TT_L1_KERNEL_SLOT_SIZE >= TT_KPROC_COUNT)
		return tt_error(-ENOEXEC, "kernel %s: entry point 0x%x is not the start of a kernel slot (0x%x + n * 0x%x, n < %u)",
				name, img.entry, base, TT_L1_KERNEL_SLOT_SIZE,
				(unsigned)TT_KPROC_COUNT);
	*proc = (enum tt_kproc)(off / TT_L1_KERNEL_SLOT_SIZE);
	return slot_check(name, "the ELF", elf, len, *proc, &img, &size);
}

/* The ELF's bytes kept with the binary while a kernel set records: what
 * a memory hit then records (kernel_set.c). Without memory the binary
 * simply has none, and a memory hit while recording becomes a miss. */
static void keep_elf(struct tt_kbinary *b, const uint8_t *elf, size_t len)
{
	if (!tt_kset_recording())
		return;
	b->elf = malloc(len ? len : 1);
	if (b->elf) {
		memcpy(b->elf, elf, len);
		b->elf_len = len;
	}
}

/*
 * The slot image of an ELF built for j's processor, with hash as its
 * identity. From the disk cache a failure only means the entry is bad;
 * after a build it is the kernel's fault; from a kernel set, the set's.
 */
static int make_binary_as(const struct kjob *j, const char *name,
			  const char *what, const uint8_t hash[32],
			  const uint8_t *elf, size_t len,
			  struct tt_kbinary **out)
{
	uint32_t slot = TT_L1_KERNEL_SLOT(j->o->proc);
	struct elf_image img;
	struct tt_kbinary *b;
	uint8_t *image;
	size_t size;
	unsigned i;
	int ret = slot_check(name, what, elf, len, j->o->proc, &img, &size);

	if (ret)
		return ret;
	b = calloc(1, sizeof(*b) + size);
	if (!b)
		return tt_error(-ENOMEM, "out of memory loading kernel %s",
				j->name);
	image = (uint8_t *)(b + 1);
	for (i = 0; i < img.count; i++)
		if (img.seg[i].filesz)
			memcpy(image + (img.seg[i].vaddr - slot),
			       img.seg[i].file_data, img.seg[i].filesz);
	memcpy(b->hash, hash, sizeof(b->hash));
	b->proc = j->o->proc;
	b->load_addr = b->entry = slot;
	b->image = image;
	b->image_len = size;
	b->refs = 1;
	keep_elf(b, elf, len);
	*out = b;
	return 0;
}

static int make_binary(const struct kjob *j, const uint8_t *elf, size_t len,
		       struct tt_kbinary **out)
{
	return make_binary_as(j, j->name, "the compiler's output", j->key,
			      elf, len, out);
}

/* ---- the request ---- */

static bool is_identifier(const char *s)
{
	size_t i;

	if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		    (*s >= 'A' && *s <= 'Z')))
		return false;
	for (i = 1; s[i]; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* Names the runtime defines itself for a kernel on proc. */
static bool reserved(const char *name, enum tt_kproc proc)
{
	static const char *const all[] = {
		"TT_KERNEL_PROC", "COMPILE_FOR_BRISC", "COMPILE_FOR_NCRISC",
		"COMPILE_FOR_TRISC", "NOC_INDEX", "KERNEL_COMPILE_TIME_ARGS",
		"KERNEL_COMPILE_TIME_ARG_COUNT", "KERNEL_NAMED_COMPILE_TIME_ARGS",
	};
	static const char *const compute[] = {
		"MATH_FIDELITY", "DST_ACCUM_MODE", "APPROX", "DST_SYNC_FULL",
	};
	unsigned i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(name, all[i]))
			return true;
	for (i = 0; proc == TT_KPROC_COMPUTE &&
		    i < sizeof(compute) / sizeof(compute[0]);
	     i++)
		if (!strcmp(name, compute[i]))
			return true;
	return false;
}

static int check_define(const struct kjob *j, unsigned i)
{
	const struct tt_kdefine *d = &j->o->defines[i];
	unsigned k;

	if (!is_identifier(d->name) || strlen(d->name) > DEFINE_NAME_MAX)
		return tt_error(-EINVAL, "kernel %s: define %u name '%s' is not a C identifier of at most %u characters",
				j->name, i, d->name ? d->name : "(null)",
				DEFINE_NAME_MAX);
	if (reserved(d->name, j->o->proc))
		return tt_error(-EINVAL, "kernel %s: define %s is set by the runtime and cannot be given",
				j->name, d->name);
	for (k = 0; k < i; k++)
		if (!strcmp(j->o->defines[k].name, d->name))
			return tt_error(-EINVAL, "kernel %s: define %s is given twice (%u and %u)",
					j->name, d->name, k, i);
	if (d->value && (strlen(d->value) > DEFINE_VALUE_MAX ||
			 strpbrk(d->value, "\n\r")))
		return tt_error(-EINVAL, "kernel %s: define %s: value '%.64s' has a line break or more than %u characters",
				j->name, d->name, d->value, DEFINE_VALUE_MAX);
	return 0;
}

static int check_named(const struct kjob *j)
{
	const struct tt_kbuild_opts *o = j->o;
	unsigned i, k;

	if (o->named_arg_count > NAMED_MAX ||
	    (o->named_arg_count && !o->named_args))
		return tt_error(-EINVAL, "kernel %s: %u named compile-time arguments%s (at most %u)",
				j->name, o->named_arg_count,
				o->named_args ? "" : " but no array", NAMED_MAX);
	for (i = 0; i < o->named_arg_count; i++) {
		const char *n = o->named_args[i].name;

		if (!is_identifier(n) || strlen(n) > DEFINE_NAME_MAX)
			return tt_error(-EINVAL, "kernel %s: named compile-time argument %u: name '%s' is not a C identifier of at most %u characters",
					j->name, i, n ? n : "(null)",
					DEFINE_NAME_MAX);
		for (k = 0; k < i; k++)
			if (!strcmp(o->named_args[k].name, n))
				return tt_error(-EINVAL, "kernel %s: named compile-time argument %s is given twice (%u and %u)",
						j->name, n, k, i);
	}
	return 0;
}

static bool opt_level_ok(const char *l)
{
	static const char *const ok[] = { "O0", "O1", "O2", "O3", "Os" };
	unsigned i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(l, ok[i]))
			return true;
	return false;
}

static int check_opts(const struct kjob *j)
{
	const struct tt_kbuild_opts *o = j->o;
	unsigned i;
	int ret;

	if (o->noc > 1)
		return tt_error(-EINVAL, "kernel %s: NOC %u is not 0 or 1",
				j->name, o->noc);
	if (o->proc == TT_KPROC_COMPUTE &&
	    (o->math_fidelity == 1 || o->math_fidelity > 4))
		return tt_error(-EINVAL, "kernel %s: math fidelity %u is not one of 0 (LoFi), 2 (HiFi2), 3 (HiFi3), 4 (HiFi4)",
				j->name, o->math_fidelity);
	if (o->opt_level && !opt_level_ok(o->opt_level))
		return tt_error(-EINVAL, "kernel %s: optimisation level '%.16s' is not one of O0, O1, O2, O3, Os",
				j->name, o->opt_level);
	if (o->ct_arg_count > CT_ARGS_MAX || (o->ct_arg_count && !o->ct_args))
		return tt_error(-EINVAL, "kernel %s: %u compile-time arguments%s (at most %u)",
				j->name, o->ct_arg_count,
				o->ct_args ? "" : " but no array", CT_ARGS_MAX);
	if (o->define_count > DEFINES_MAX || (o->define_count && !o->defines))
		return tt_error(-EINVAL, "kernel %s: %u defines%s (at most %u)",
				j->name, o->define_count,
				o->defines ? "" : " but no array", DEFINES_MAX);
	for (i = 0; i < o->define_count; i++) {
		ret = check_define(j, i);
		if (ret)
			return ret;
	}
	return check_named(j);
}

/* The source text and the kernel's name for messages. */
static int read_source(struct kjob *j)
{
	const struct tt_kbuild_opts *o = j->o;
	char hex[TT_SHA256_HEX_LEN + 1];
	int ret;

	if (!o->path == !o->source)
		return tt_error(-EINVAL, "kernel %s: give exactly one of a file and a source text",
				j->name);
	if (o->source) {
		j->src = (const uint8_t *)o->source;
		j->src_len = o->source_len ? o->source_len : strlen(o->source);
	} else {
		snprintf(j->name, sizeof(j->name), "%s", o->name ? o->name : o->path);
		if (!realpath(o->path, j->src_path))
			return tt_error(-errno, "kernel %s: %s", j->name,
					strerror(errno));
		ret = tt_kcache_read_file(j->src_path, TT_KCACHE_FILE_MAX,
					  &j->src_buf, &j->src_len);
		if (ret)
			return tt_error(ret, "kernel %s: cannot read %s: %s",
					j->name, j->src_path, strerror(-ret));
		j->src = j->src_buf;
	}
	tt_sha256(j->src, j->src_len, j->src_hash);
	if (o->source) {
		tt_sha256_hex(j->src_hash, hex);
		snprintf(j->name, sizeof(j->name), o->name ? "%s" : "<source %.12s>",
			 o->name ? o->name : hex);
	}
	return 0;
}

/* ---- arguments and key ---- */

static __attribute__((format(printf, 2, 3))) int add_arg(char **v,
							   const char *fmt,
							   ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(v, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*v = NULL;
		return -ENOMEM;
	}
	return 0;
}

#define PRE(...)                                                        \
	do {                                                            \
		if (!ret)                                               \
			ret = add_arg(&j->pre[j->npre++], __VA_ARGS__); \
	} while (0)

/* -DKERNEL_COMPILE_TIME_ARGS=a,b,c */
static int ct_args_define(struct kjob *j)
{
	const struct tt_kbuild_opts *o = j->o;
	size_t cap = 40 + 11 * (size_t)o->ct_arg_count, n;
	char *s = malloc(cap);
	unsigned i;

	if (!s)
		return -ENOMEM;
	n = (size_t)snprintf(s, cap, "-DKERNEL_COMPILE_TIME_ARGS=");
	for (i = 0; i < o->ct_arg_count; i++)
		n += (size_t)snprintf(s + n, cap - n, "%s%u", i ? "," : "",
				      o->ct_args[i]);
	j->pre[j->npre++] = s;
	return 0;
}

/*
 * -DKERNEL_NAMED_COMPILE_TIME_ARGS(X,s)=X(s,"a",1u) X(s,"b",2u): one
 * X-macro over the named arguments, which kernel_api/args.h expands into
 * a lookup by string that folds to a constant.
 */
static int named_args_define(struct kjob *j)
{
	const struct tt_kbuild_opts *o = j->o;
	size_t cap = 64, n, i;
	char *s;

	for (i = 0; i < o->named_arg_count; i++)
		cap += strlen(o->named_args[i].name) + 24;
	s = malloc(cap);
	if (!s)
		return -ENOMEM;
	n = (size_t)snprintf(s, cap, "-DKERNEL_NAMED_COMPILE_TIME_ARGS(X,s)=");
	for (i = 0; i < o->named_arg_count; i++)
		n += (size_t)snprintf(s + n, cap - n, "%sX(s,\"%s\",%uu)",
				      i ? " " : "", o->named_args[i].name,
				      o->named_args[i].value);
	j->pre[j->npre++] = s;
	return 0;
}

static int make_args(struct kjob *j)
{
	static const char *const fixed[] = {
		"-march=rv32im", "-mabi=ilp32", "-mcmodel=medlow",
		/* Nothing is addressed through gp (no start-up code sets
		 * it), a hart faults on misaligned accesses, and address 0
		 * is L1: as for the firmware (firmware/cross/rv32im.ini). */
		"-mno-relax", "-msmall-data-limit=0", "-mstrict-align",
		"-fno-delete-null-pointer-checks",
		"-ffreestanding", "-nostdlib", "-nostartfiles", "-static",
		"-fno-common", "-fno-pic",
		/* Keep memset/memcpy loops from becoming calls. */
		"-fno-tree-loop-distribute-patterns",
		"-ffunction-sections", "-fdata-sections", "-Wall",
	};
	static const char *const proc_define[] = {
		"-DCOMPILE_FOR_BRISC", "-DCOMPILE_FOR_NCRISC",
		"-DCOMPILE_FOR_TRISC",
	};
	const struct tt_kbuild_opts *o = j->o;
	unsigned i;
	int ret = 0;

	PRE("-%s", o->opt_level ? o->opt_level : "O2");
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		PRE("%s", fixed[i]);
	PRE("-I%s", j->sdk.include_dir);
	PRE("-DTT_KERNEL_PROC=%u", (unsigned)o->proc);
	PRE("%s", proc_define[o->proc]);
	PRE("-DNOC_INDEX=%u", o->noc);
	if (!ret && o->ct_arg_count)
		ret = ct_args_define(j);
	PRE("-DKERNEL_COMPILE_TIME_ARG_COUNT=%u", o->ct_arg_count);
	if (!ret && o->named_arg_count)
		ret = named_args_define(j);
	if (o->proc == TT_KPROC_COMPUTE) {
		PRE("-DMATH_FIDELITY=%u", o->math_fidelity);
		PRE("-DDST_ACCUM_MODE=%d", o->fp32_dest_acc);
		PRE("-DAPPROX=%d", o->math_approx);
		PRE("-DDST_SYNC_FULL=%d", o->dst_full_sync);
	}
	for (i = 0; i < o->define_count; i++) {
		if (o->defines[i].value)
			PRE("-D%s=%s", o->defines[i].name, o->defines[i].value);
		else
			PRE("-D%s", o->defines[i].name);
	}
	PRE("-T%s/%s", j->sdk.ld_dir, tt_ksdk_ld_script(o->proc));
	PRE("-Wl,-u,_start");
	PRE("-Wl,--no-warn-rwx-segments");
	PRE("-Wl,--no-relax");
	PRE("-Wl,--gc-sections");
	PRE("-Wl,--build-id=none");
	if (!ret) {
		ret = add_arg(&j->post[0], "-L%s", j->sdk.lib_dir);
		j->npost = 1;
	}
	if (!ret) {
		ret = add_arg(&j->post[1], "-l%s", TT_KSDK_LIB_NAME);
		j->npost = 2;
	}
	if (!ret) {
		ret = add_arg(&j->post[2], "-lgcc");
		j->npost = 3;
	}
	return ret ? tt_error(ret, "out of memory building kernel %s", j->name)
		   : 0;
}

/*
 * An argument as the portable key sees it: the SDK's directories (the
 * arguments make_args builds from them: -I, -T, -L; user defines are all
 * -D) as "<sdk>/include", "<sdk>/ld", "<sdk>/lib", since the SDK's
 * content is in the key and its place is not.
 */
static void hash_portable_arg(struct tt_sha256 *s, const struct kjob *j,
			      const char *arg)
{
	static const char *const opt[] = { "-I", "-T", "-L" };
	static const char *const sym[] = { "-I<sdk>/include", "-T<sdk>/ld",
					   "-L<sdk>/lib" };
	const char *dir[] = { j->sdk.include_dir, j->sdk.ld_dir,
			      j->sdk.lib_dir };
	unsigned i;

	for (i = 0; i < 3; i++) {
		size_t n = strlen(dir[i]);

		if (!strncmp(arg, opt[i], 2) && !strncmp(arg + 2, dir[i], n) &&
		    (arg[2 + n] == '\0' || arg[2 + n] == '/')) {
			tt_sha256_update(s, sym[i], strlen(sym[i]));
			tt_sha256_update(s, arg + 2 + n, strlen(arg + 2 + n) + 1);
			return;
		}
	}
	tt_sha256_update(s, arg, strlen(arg) + 1);
}

/* The key (portable: without the compiler's identity and with the SDK's
 * paths left out) into out. */
static void hash_request(const struct kjob *j, bool portable, uint8_t out[32])
{
	struct tt_sha256 s;
	uint8_t n[8];
	unsigned i;

	tt_sha256_init(&s);
	if (portable) {
		tt_sha256_update(&s, "tt-kbuild-portable 1", 21);
	} else {
		tt_sha256_update(&s, "tt-kbuild 1", 12);
		tt_sha256_update(&s, j->tc.id, sizeof(j->tc.id));
	}
	tt_sha256_update(&s, j->sdk.hash, sizeof(j->sdk.hash));
	for (i = 0; i < j->npre; i++) {
		if (portable)
			hash_portable_arg(&s, j, j->pre[i]);
		else
			tt_sha256_update(&s, j->pre[i], strlen(j->pre[i]) + 1);
	}
	tt_sha256_update(&s, "|", 2);
	for (i = 0; i < j->npost; i++) {
		if (portable)
			hash_portable_arg(&s, j, j->post[i]);
		else
			tt_sha256_update(&s, j->post[i],
					 strlen(j->post[i]) + 1);
	}
	/* A file kernel's includes are found next to it: its place matters
	 * as much as its text. */
	if (j->o->path)
		tt_sha256_update(&s, j->src_path, strlen(j->src_path) + 1);
	else
		tt_sha256_update(&s, "", 1);
	for (i = 0; i < 8; i++)
		n[i] = (uint8_t)((uint64_t)j->src_len >> (8 * i));
	tt_sha256_update(&s, n, sizeof(n));
	tt_sha256_update(&s, j->src, j->src_len);
	tt_sha256_final(&s, out);
}

/* The cache's key, once j->pkey is known. */
static void make_key(struct kjob *j)
{
	if (j->no_cc)
		memcpy(j->key, j->pkey, sizeof(j->key));
	else
		hash_request(j, false, j->key);
}

/* ---- caches ---- */

static bool find_in_memory(const struct kjob *j, struct tt_kbinary **out)
{
	struct tt_kbinary *b = tt_kcache_mem_get(j->key);

	/* A set records the ELF, which this entry did not keep: find it
	 * again where it came from (keep_elf). */
	if (b && !b->elf && tt_kset_recording()) {
		tt_kbinary_put(b);
		return false;
	}
	if (b && tt_kdeps_current(b->deps)) {
		__atomic_add_fetch(&stat_mem, 1, __ATOMIC_RELAXED);
		*out = b;
		return true;
	}
	tt_kbinary_put(b);
	return false;
}

/* Make <pkey>.port name the entry j->key (elf[0..len)), which this
 * process's compiler built or found: what a host without a compiler
 * uses. A failure only costs that host the kernel: it is not an error. */
static void record_portable(const struct kjob *j, const char *dir,
			    const uint8_t *elf, size_t len)
{
	struct tt_kport r;

	memset(&r, 0, sizeof(r));
	memcpy(r.key, j->key, 32);
	tt_sha256(elf, len, r.elf);
	r.elf_len = len;
	memcpy(r.tc_id, j->tc.id, 32);
	snprintf(r.cc, sizeof(r.cc), "%s", j->tc.version);
	tt_kcache_port_store(dir, j->pkey, &r);
}

static bool find_on_disk(const struct kjob *j, const struct tt_kcache_dir *dir,
			 struct tt_kbinary **out)
{
	struct tt_kbinary *b = NULL;
	struct tt_kdeps *deps;
	uint8_t *elf;
	size_t len;

	if (!dir->persistent ||
	    tt_kcache_disk_load(dir->path, j->key, &elf, &len, &deps, NULL, 0))
		return false;
	make_binary(j, elf, len, &b);
	if (b) /* this compiler's entry is the one to use without one */
		record_portable(j, dir->path, elf, len);
	free(elf);
	if (!b) {
		tt_kdeps_free(deps);
		return false; /* a damaged entry: rebuild it */
	}
	b->deps = deps;
	tt_kcache_mem_put(b);
	__atomic_add_fetch(&stat_disk, 1, __ATOMIC_RELAXED);
	*out = b;
	return true;
}

/* ---- building ---- */

/* The file the compiler reads: a file kernel in place (its includes and
 * messages refer to where it is), a source text as <dir>/<hash>.c so the
 * compiler's messages name a stable file. */
static int source_file(struct kjob *j, const char *dir, char *path,
		       size_t len)
{
	char hex[TT_SHA256_HEX_LEN + 1];
	uint8_t *old = NULL;
	size_t old_len;
	int ret;

	if (j->o->path) {
		snprintf(path, len, "%s", j->src_path);
		return 0;
	}
	tt_sha256_hex(j->src_hash, hex);
	snprintf(path, len, "%s/%s.c", dir, hex);
	if (!tt_kcache_read_file(path, TT_KCACHE_FILE_MAX, &old, &old_len) &&
	    old_len == j->src_len && !memcmp(old, j->src, old_len)) {
		free(old);
		return 0;
	}
	free(old);
	ret = tt_kcache_write_file(path, j->src, j->src_len);
	return ret ? tt_error(ret, "kernel %s: cannot write %s: %s", j->name,
			      path, strerror(-ret))
		   : 0;
}

/* A failed compiler run: the slot overflowing the linker's region is a
 * size error, anything else a compile error with the compiler's words. */
static int compile_failed(const struct kjob *j, int status, const char *out,
			  size_t len)
{
	const char *over = strstr(out, "' overflowed by ");
	char prefix[PATH_MAX + 64];
	size_t room, keep;

	if (!WIFEXITED(status))
		return tt_error(-ENOEXEC, "kernel %s: the compiler %s was killed by signal %d (%s)",
				j->name, j->tc.cc, WTERMSIG(status),
				strsignal(WTERMSIG(status)));
	if (over)
		return tt_error(-EFBIG, "kernel %s needs %lu bytes, the slot holds %u",
				j->name, TT_L1_KERNEL_SLOT_SIZE +
						 strtoul(over + 16, NULL, 10),
				TT_L1_KERNEL_SLOT_SIZE);
	snprintf(prefix, sizeof(prefix), "kernel %s: compilation failed:\n",
		 j->name);
	/* Keep the first errors, cut at a line end, and say so. */
	room = MSG_MAX - 1 - strlen(prefix) - 48;
	keep = len;
	if (strlen(prefix) + 48 >= MSG_MAX)
		keep = 0;
	else if (len > room) {
		for (keep = room; keep && out[keep - 1] != '\n'; keep--)
			;
		if (!keep) /* one huge line */
			keep = room;
	}
	if (!len)
		return tt_error(-ENOEXEC, "%sthe compiler exited with status %d and said nothing",
				prefix, WEXITSTATUS(status));
	return tt_error(-ENOEXEC, "%s%.*s%s", prefix, (int)keep, out,
			keep < len ? "[... compiler output cut here]" : "");
}

/* A compiler stopped by a limit of tt_ksdk_run (ksdk.h) is reported as
 * that, not as the kernel's compile errors; 0 if no limit was hit. */
static int over_limit(const struct kjob *j, int status, const char *out,
		      unsigned timeout_s)
{
	bool cpu = (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) ||
		   strstr(out, "CPU time limit exceeded");

	if (cpu)
		return tt_error(-ETIMEDOUT,
				"kernel %s: the compiler %s used up its %u s of CPU time (TT_KERNEL_CC_TIMEOUT_S)",
				j->name, j->tc.cc, timeout_s);
	if (strstr(out, "out of memory") ||
	    strstr(out, "virtual memory exhausted") ||
	    strstr(out, "Cannot allocate memory"))
		return tt_error(-ENOMEM,
				"kernel %s: the compiler %s ran out of its %u MiB memory limit",
				j->name, j->tc.cc, TT_KSDK_RUN_AS_MIB);
	return 0;
}

/* gcc: compile and link in one run, included files in dep_tmp. */
static int run_compiler(struct kjob *j, const char *src, const char *elf_tmp,
			const char *dep_tmp)
{
	char *argv[ARGS_MAX + 16], *out;
	unsigned n = 0, i;
	size_t len;
	unsigned long timeout_s;
	int status, ret;

	ret = tt_env_uint("TT_KERNEL_CC_TIMEOUT_S", 1, TT_KSDK_RUN_TIMEOUT_MAX_S,
			  TT_KSDK_RUN_TIMEOUT_S, &timeout_s);
	if (ret) {
		char why[256];

		snprintf(why, sizeof(why), "%s", tt_last_error());
		return tt_error(ret, "kernel %s: %s", j->name, why);
	}
	argv[n++] = j->tc.cc;
	for (i = 0; i < j->npre; i++)
		argv[n++] = j->pre[i];
	argv[n++] = "-MD";
	argv[n++] = "-MF";
	argv[n++] = (char *)dep_tmp;
	argv[n++] = "-MT";
	argv[n++] = "k";
	argv[n++] = (char *)src;
	for (i = 0; i < j->npost; i++)
		argv[n++] = j->post[i];
	argv[n++] = "-o";
	argv[n++] = (char *)elf_tmp;
	argv[n] = NULL;
	out = malloc(CC_OUTPUT_MAX);
	if (!out)
		return tt_error(-ENOMEM, "out of memory building kernel %s",
				j->name);
	__atomic_add_fetch(&stat_builds, 1, __ATOMIC_RELAXED);
	ret = tt_ksdk_run(argv, out, CC_OUTPUT_MAX, &len, &status,
			  (unsigned)timeout_s);
	if (ret == -ETIMEDOUT)
		ret = tt_error(-ETIMEDOUT,
			       "kernel %s: the compiler %s did not finish within %lu s and was killed (TT_KERNEL_CC_TIMEOUT_S)",
			       j->name, j->tc.cc, timeout_s);
	else if (ret)
		ret = tt_error(ret == -ENOENT ? -ENOENT : -ENOEXEC,
			       "kernel %s: cannot run the compiler %s: %s",
			       j->name, j->tc.cc, strerror(-ret));
	else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ret = over_limit(j, status, out, (unsigned)timeout_s);
		if (!ret)
			ret = compile_failed(j, status, out, len);
	}
	free(out);
	return ret;
}

static int check_ld_script(const struct kjob *j)
{
	char path[PATH_MAX + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", j->sdk.ld_dir,
		 tt_ksdk_ld_script(j->o->proc));
	if (stat(path, &st) == 0)
		return 0;
	return tt_error(-ENOENT, "kernel %s: the kernel SDK (%s) has no linker script %s",
			j->name, j->sdk.where, path);
}

static int build_in(struct kjob *j, const struct tt_kcache_dir *dir,
		    struct tt_kbinary **out)
{
	char hex[TT_SHA256_HEX_LEN + 1], src[PATH_MAX + 80];
	char elf_tmp[PATH_MAX + 128], dep_tmp[PATH_MAX + 128];
	const char *skip[] = { j->sdk.include_dir, j->tc.install_dir, NULL };
	struct tt_kdeps *deps = NULL;
	struct tt_kbinary *b = NULL;
	uint8_t *elf = NULL;
	size_t len;
	int ret;

	tt_sha256_hex(j->key, hex);
	tt_kcache_tmp_name(elf_tmp, sizeof(elf_tmp), dir->path, hex, ".elf");
	tt_kcache_tmp_name(dep_tmp, sizeof(dep_tmp), dir->path, hex, ".d");
	ret = source_file(j, dir->path, src, sizeof(src));
	if (!ret)
		ret = run_compiler(j, src, elf_tmp, dep_tmp);
	if (!ret) {
		ret = tt_kcache_read_file(elf_tmp, TT_KCACHE_FILE_MAX, &elf,
					  &len);
		if (ret)
			tt_error(ret, "kernel %s: cannot read the compiler's output %s: %s",
				 j->name, elf_tmp, strerror(-ret));
	}
	if (!ret)
		ret = make_binary(j, elf, len, &b);
	if (!ret)
		ret = tt_kdeps_from_depfile(dep_tmp, src, skip, &deps);
	if (!ret && dir->persistent &&
	    !tt_kcache_disk_store(dir->path, j->key, elf_tmp, elf, len, deps))
		record_portable(j, dir->path, elf, len);
	unlink(elf_tmp); /* gone already if stored */
	unlink(dep_tmp);
	free(elf);
	if (ret) {
		tt_kbinary_put(b);
		return ret;
	}
	b->deps = deps;
	tt_kcache_mem_put(b);
	*out = b;
	return 0;
}

/* From the disk cache, else compiled. */
static int find_or_build(struct kjob *j, struct tt_kbinary **out)
{
	struct tt_kcache_dir dir;
	int ret = tt_kcache_dir_open(&dir);

	if (ret)
		return ret;
	if (!find_on_disk(j, &dir, out)) {
		ret = check_ld_script(j);
		if (!ret)
			ret = build_in(j, &dir, out);
	}
	tt_kcache_dir_close(&dir);
	return ret;
}

/* ---- without a compiler ---- */

/* TT_KERNEL_CC=none, or no compiler found: j->no_cc, and why. A compiler
 * that is there but does not run is an error, as before. */
static int find_toolchain(struct kjob *j)
{
	const char *env = getenv("TT_KERNEL_CC");
	int ret;

	if (env && !strcmp(env, "none")) {
		j->no_cc = true;
		snprintf(j->cc_why, sizeof(j->cc_why), "TT_KERNEL_CC=none");
		return 0;
	}
	ret = tt_ktoolchain_find(&j->tc);
	if (ret == -ENOENT) {
		j->no_cc = true;
		snprintf(j->cc_why, sizeof(j->cc_why), "%s", tt_last_error());
		return 0;
	}
	return ret;
}

/* The entry the portable record for j->pkey names, checked as every disk
 * entry is (.deps whole, included files unchanged, the ELF's size and
 * hash) and against the record; else -ENOENT naming the kernel, the
 * missing compiler, the directory and what was wrong. */
static int find_portable(struct kjob *j, struct tt_kbinary **out)
{
	char why[PATH_MAX + 128], hex[TT_SHA256_HEX_LEN + 1];
	struct tt_kcache_dir dir;
	struct tt_kdeps *deps = NULL;
	struct tt_kbinary *b = NULL;
	struct tt_kport r;
	uint8_t *elf = NULL, h[32];
	size_t len = 0;
	int ret = tt_kcache_dir_find(&dir);

	if (ret)
		return tt_error(-ENOENT, "kernel %s: no compiler to build it (%s) and %s",
				j->name, j->cc_why, tt_last_error());
	tt_sha256_hex(j->pkey, hex);
	ret = tt_kcache_port_load(dir.path, j->pkey, &r);
	if (ret == -ENOENT && access(dir.path, F_OK))
		snprintf(why, sizeof(why), "it does not exist (%s)",
			 strerror(errno));
	else if (ret == -ENOENT)
		snprintf(why, sizeof(why), "it has no %s.port (fill the cache on a host with the compiler, with the same SDK and request)",
			 hex);
	else if (ret)
		snprintf(why, sizeof(why), "its %s.port is damaged", hex);
	else
		ret = tt_kcache_disk_load(dir.path, r.key, &elf, &len, &deps,
					  why, sizeof(why));
	if (!ret) {
		tt_sha256(elf, len, h);
		if (len != r.elf_len || memcmp(h, r.elf, 32)) {
			snprintf(why, sizeof(why), "the entry its %s.port names is not the ELF recorded there",
				 hex);
			ret = -ENOENT;
		}
	}
	if (!ret) {
		ret = make_binary(j, elf, len, &b);
		if (ret) {
			char msg[MSG_MAX];

			snprintf(msg, sizeof(msg), "%s", tt_last_error());
			snprintf(why, sizeof(why), "its entry is not a usable kernel: %.*s",
				 (int)(sizeof(why) - 40), msg);
		}
	}
	free(elf);
	if (ret) {
		tt_kdeps_free(deps);
		return tt_error(-ENOENT, "kernel %s: no compiler to build it (%s), and the kernel cache %s cannot serve it: %s",
				j->name, j->cc_why, dir.path, why);
	}
	b->deps = deps;
	tt_kcache_mem_put(b);
	__atomic_add_fetch(&stat_portable, 1, __ATOMIC_RELAXED);
	*out = b;
	return 0;
}

/* ---- kernel sets ---- */

/*
 * A served kernel set's ELF for j->pkey (kernel_set.c): 1 and *out if a
 * set has it, 0 if none does. Its identity is the ELF's, not the
 * request's key: the slot upload skips a binary with the same hash, and
 * a set's ELF may differ from what the cache holds for the request. Not
 * kept in the memory cache, which answers by the request's key.
 */
static int find_in_sets(const struct kjob *j, struct tt_kbinary **out)
{
	char name[sizeof(j->name) + TT_SHA256_HEX_LEN + 64];
	char hex[TT_SHA256_HEX_LEN + 1];
	struct tt_sha256 s;
	uint8_t *elf, h[32];
	size_t len;
	int ret = tt_kset_find(j->pkey, &elf, &len, h);

	if (ret == -ENOENT)
		return 0;
	if (ret)
		return tt_error(ret, "kernel %s: out of memory reading a kernel set",
				j->name);
	tt_sha256_init(&s);
	tt_sha256_update(&s, "tt-kernel-set 1", 16);
	tt_sha256_update(&s, h, sizeof(h));
	tt_sha256_final(&s, h);
	tt_sha256_hex(j->pkey, hex);
	/* Its messages start "kernel NAME", as tt_kbuild's must. */
	snprintf(name, sizeof(name), "%s (served by a kernel set as portable key %s)",
		 j->name, hex);
	ret = make_binary_as(j, name, "its ELF", h, elf, len, out);
	free(elf);
	if (ret)
		return ret;
	__atomic_add_fetch(&stat_set, 1, __ATOMIC_RELAXED);
	return 1;
}

/* Add what was built or found to the recording set, if one records. */
static void record_in_set(const struct kjob *j, const struct tt_kbinary *b)
{
	if (tt_kset_recording())
		tt_kset_note(j->pkey, b->elf, b->elf_len);
}

/* ---- the entry point ---- */

static void job_free(struct kjob *j)
{
	unsigned i;

	for (i = 0; i < j->npre; i++)
		free(j->pre[i]);
	for (i = 0; i < j->npost; i++)
		free(j->post[i]);
	free(j->src_buf);
	free(j);
}

/* Prefix a message that does not name the kernel yet with its name. */
static int name_error(const struct kjob *j, int ret)
{
	char msg[MSG_MAX], want[sizeof(j->name) + 8];

	snprintf(msg, sizeof(msg), "%s", tt_last_error());
	snprintf(want, sizeof(want), "kernel %s", j->name);
	if (!strncmp(msg, want, strlen(want)))
		return ret;
	return tt_error(ret, "kernel %s: %s", j->name, msg);
}

int tt_kbuild(const struct tt_kbuild_opts *o, struct tt_kbinary **out)
{
	struct kjob *j;
	int ret;

	assert(o && out);
	*out = NULL;
	if (o->proc >= TT_KPROC_COUNT)
		return tt_error(-EINVAL, "kernel %s: processor %u is not one of 0 (BRISC), 1 (NCRISC), 2 (compute)",
				o->name ? o->name : o->path ? o->path : "(source)",
				(unsigned)o->proc);
	j = calloc(1, sizeof(*j));
	if (!j)
		return tt_error(-ENOMEM, "out of memory building a kernel");
	j->o = o;
	snprintf(j->name, sizeof(j->name), "%s",
		 o->name ? o->name : o->path ? o->path : "<source>");
	ret = read_source(j);
	if (!ret)
		ret = check_opts(j);
	if (!ret)
		ret = tt_ksdk_find(&j->sdk);
	if (!ret)
		ret = make_args(j);
	/* Served sets first: they need no compiler, not even a working
	 * one, only the SDK the portable key holds. */
	if (!ret) {
		hash_request(j, true, j->pkey);
		ret = find_in_sets(j, out);
	}
	if (!ret)
		ret = find_toolchain(j);
	if (!ret) {
		make_key(j);
		if (!find_in_memory(j, out))
			ret = j->no_cc ? find_portable(j, out)
				       : find_or_build(j, out);
	}
	if (ret > 0)
		ret = 0;
	if (!ret)
		record_in_set(j, *out);
	if (ret)
		ret = name_error(j, ret);
	job_free(j);
	return ret;
}
