/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel compilation (internal): a kernel's C source, built at run time
 * with the RISC-V cross compiler against the kernel SDK (firmware/include,
 * the kernel linker scripts and runtime library), linked into the kernel
 * slot of its processor (hw/l1.h), cached by content.
 *
 * The cache key is a SHA-256 of the toolchain's identity, the SDK's
 * content, the processor, every flag, define and compile-time argument
 * (positional and named),
 * and the source text; an entry also records the files the source
 * included (outside the SDK) with their hashes and is used only while
 * they are unchanged. Entries live in memory for the process and on disk
 * in the kernel cache directory (TT_KERNEL_CACHE, else
 * $XDG_CACHE_HOME/tt/kernels, else ~/.cache/tt/kernels).
 *
 * Every build or disk hit with a compiler also records the entry under a
 * portable key, which leaves the compiler out and the SDK's paths (not
 * its content); with TT_KERNEL_CC=none or no compiler found, kernels
 * come only from those records (docs/kernels.md "Without a compiler").
 *
 * Kernel sets (tt/kernel_set.h, kernel_set.c) come before all of that: a
 * served set's ELF for the request's portable key is used as is, and a
 * recording set receives every kernel built or found.
 */
#ifndef TT_LIB_KBUILD_H
#define TT_LIB_KBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/device/internal.h"

/* The processor a kernel runs on: its slot and its defines. Values are
 * enum tt_tensix_hart's. */
enum tt_kproc {
	TT_KPROC_BRISC = 0, /* data movement, RISCV_0 */
	TT_KPROC_NCRISC = 1, /* data movement, RISCV_1 */
	TT_KPROC_COMPUTE = 2, /* compute (unpack, math, pack) */
	TT_KPROC_COUNT
};

/* Limits of a request (TT-Metal has none; these keep the compiler's
 * command line sane). */
#define TT_KBUILD_CT_ARGS_MAX 1024u
#define TT_KBUILD_DEFINES_MAX 256u
#define TT_KBUILD_DEFINE_NAME_MAX 128u
#define TT_KBUILD_DEFINE_VALUE_MAX 4096u
#define TT_KBUILD_NAMED_ARGS_MAX 256u

/* A named compile-time argument: get_named_compile_time_arg_val("name")
 * in the kernel (kernel_api/args.h). The name is a C identifier of at
 * most TT_KBUILD_DEFINE_NAME_MAX characters. */
struct tt_knamed {
	const char *name;
	uint32_t value;
};

struct tt_kdefine {
	const char *name; /* a C identifier */
	const char *value; /* NULL: defined as 1 */
};

struct tt_kbuild_opts {
	enum tt_kproc proc;
	/* Exactly one of path and source: a file (resolved by the caller to
	 * a path that exists), or the source text itself. */
	const char *path;
	const char *source;
	size_t source_len; /* 0: source is NUL-terminated */
	/* The kernel in messages; NULL: the path, or "<source HASH>". */
	const char *name;
	const uint32_t *ct_args; /* compile-time arguments */
	unsigned ct_arg_count;
	const struct tt_kdefine *defines;
	unsigned define_count;
	const struct tt_knamed *named_args; /* each name once */
	unsigned named_arg_count;
	unsigned noc; /* 0 or 1: NOC_INDEX */
	/* Compute kernels only. */
	unsigned math_fidelity; /* 0 LoFi, 2 HiFi2, 3 HiFi3, 4 HiFi4 */
	bool fp32_dest_acc;
	bool math_approx;
	bool dst_full_sync;
	/* "O0".."O3", "Os"; NULL = "O2". */
	const char *opt_level;
};

struct tt_kdeps;

/* A built kernel: an image to copy to L1 at load_addr (its slot). Shared
 * and reference-counted: tt_kbinary_put() when done. */
struct tt_kbinary {
	uint8_t hash[32]; /* cache key: same hash, same image */
	enum tt_kproc proc;
	uint32_t load_addr; /* TT_L1_KERNEL_SLOT(proc) */
	uint32_t entry; /* == load_addr */
	const uint8_t *image; /* image_len bytes, zeros for .bss */
	size_t image_len;
	unsigned refs;
	/* Files included outside the SDK (kcache.h); the binary is valid
	 * only while they are unchanged. NULL if none. */
	struct tt_kdeps *deps;
	/* The ELF it was made from, kept only if a kernel set was recording
	 * then (a memory hit records it); NULL otherwise. Owned. */
	uint8_t *elf;
	size_t elf_len;
};

/*
 * Build (or find in the cache) the kernel o describes. On failure returns
 * a negative errno with tt_last_error() set; a compile error gives
 * -ENOEXEC and a message that starts with the kernel's name and contains
 * the compiler's "file:line: error: ..." lines.
 */
TT_HIDDEN int tt_kbuild(const struct tt_kbuild_opts *o,
			struct tt_kbinary **out);

TT_HIDDEN void tt_kbinary_get(struct tt_kbinary *b);
TT_HIDDEN void tt_kbinary_put(struct tt_kbinary *b);

/* How tt_kbuild() calls were served, since the process started. */
struct tt_kbuild_stats {
	unsigned long mem_hits; /* found in memory */
	unsigned long disk_hits; /* found in the cache directory */
	unsigned long builds; /* compiled (successfully or not) */
	/* Found without a compiler, by a portable record (kcache.h). */
	unsigned long portable_hits;
	/* Served by a kernel set (tt_kernel_set_serve). */
	unsigned long set_hits;
};

TT_HIDDEN void tt_kbuild_get_stats(struct tt_kbuild_stats *s);

/* Tests: forget the memory cache and the SDK and compiler identities, as
 * a new process would (the disk cache stays). */
TT_HIDDEN void tt_kbuild_reset(void);

/* ---- kernel sets (kernel_set.c, tt/kernel_set.h) ---- */

/*
 * Check elf[0..len) as tt_kbuild checks every ELF it loads, for the slot
 * its entry point names: *proc is that slot's processor. -ENOEXEC or
 * -EFBIG with a message naming the kernel as name.
 */
TT_HIDDEN int tt_kbuild_check_elf(const char *name, const void *elf,
				  size_t len, enum tt_kproc *proc);

/* True while a set records. */
TT_HIDDEN bool tt_kset_recording(void);

/* Add (pkey, elf) to the recording set, if any; a failure is kept for
 * tt_kernel_set_record(NULL). elf NULL: the ELF was not kept (out of
 * memory), which is such a failure. */
TT_HIDDEN void tt_kset_note(const uint8_t pkey[32], const uint8_t *elf,
			    size_t len);

/* The ELF the first served set holding pkey has: a malloc'd copy in
 * *elf, its SHA-256 in hash. 0, -ENOENT if no served set has it, or
 * -ENOMEM; no message set. */
TT_HIDDEN int tt_kset_find(const uint8_t pkey[32], uint8_t **elf,
			   size_t *len, uint8_t hash[32]);

#endif /* TT_LIB_KBUILD_H */
