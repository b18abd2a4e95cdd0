/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel SDK and the cross compiler kernels are built with (internal).
 *
 * The SDK is a directory triple: headers (firmware/include), the
 * per-processor linker scripts (kernel_<proc>.ld) and the runtime library
 * libttk.a. The first of these that holds all three is used:
 *   1. $TT_KERNEL_SDK: <dir>/include, <dir>/ld, <dir>/lib/libttk.a;
 *   2. the build tree libtt was built in (paths compiled in);
 *   3. the installed SDK, <datadir>/tt/sdk (same layout as 1).
 * The compiler is $TT_KERNEL_CC, else riscv64-unknown-elf-gcc from PATH.
 *
 * Both are identified by content for the kernel cache: the SDK by a
 * SHA-256 of every file in it, the compiler by its real path, size, mtime
 * and the first line of its --version. Each is computed once per process
 * (again only if the environment names another SDK or compiler).
 */
#ifndef TT_LIB_KSDK_H
#define TT_LIB_KSDK_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/device/internal.h"
#include "kbuild.h"

/* File names inside the SDK: the one place to change them. */
#define TT_KSDK_LIB_NAME "ttk" /* -lttk: lib/libttk.a */
#define TT_KSDK_LIB_FILE "lib" TT_KSDK_LIB_NAME ".a"
/* The compiler used when TT_KERNEL_CC is not set. */
#define TT_KSDK_DEFAULT_CC "riscv64-unknown-elf-gcc"

struct tt_ksdk {
	char where[64]; /* for messages: "TT_KERNEL_SDK", "build tree", ... */
	char include_dir[PATH_MAX]; /* real paths */
	char ld_dir[PATH_MAX];
	char lib_dir[PATH_MAX]; /* holds TT_KSDK_LIB_FILE */
	uint8_t hash[32];
};

struct tt_ktoolchain {
	char cc[PATH_MAX]; /* the compiler driver, as found */
	char version[160]; /* first line of its --version */
	/* Its own files (stdint.h, ...): covered by its identity, so not
	 * recorded as a kernel's dependencies. Empty if unknown. */
	char install_dir[PATH_MAX];
	uint8_t id[32]; /* SHA-256 of real path, size, mtime, version */
};

/* Find the SDK (see above) and fill *out; -ENOENT naming every place
 * searched if there is none. */
TT_HIDDEN int tt_ksdk_find(struct tt_ksdk *out);

/* Find the compiler and fill *out; -ENOENT if there is none, -ENOEXEC if
 * it does not run. */
TT_HIDDEN int tt_ktoolchain_find(struct tt_ktoolchain *out);

/* Linker script file name of a processor's kernels: "kernel_brisc.ld". */
TT_HIDDEN const char *tt_ksdk_ld_script(enum tt_kproc proc);

/* Forget the SDK hash and compiler identity (tests: as in a new process). */
TT_HIDDEN void tt_ksdk_reset(void);

/*
 * Limits of every program tt_ksdk_run starts, each process it starts in
 * turn included: address space, and CPU time as long as its wall-clock
 * time (TT_KERNEL_CC_TIMEOUT_S, 1..3600 s, for kernel builds).
 */
#define TT_KSDK_RUN_AS_MIB 2048u
#define TT_KSDK_RUN_TIMEOUT_S 120u
#define TT_KSDK_RUN_TIMEOUT_MAX_S 3600u

/*
 * Run argv[0] (a path; no shell, no PATH search) with argv, the
 * environment plus LC_ALL=C, stdin from /dev/null, and stdout and stderr
 * together into out: the first cap - 1 bytes
 * are kept, NUL-terminated, *len says how many, the rest is read and
 * dropped. It runs in a process group of its own under the limits above;
 * after timeout_s seconds the whole group is killed. *status is
 * waitpid's. Returns 0 once the program has run (whatever its status),
 * -ETIMEDOUT if it was killed for taking too long, or a negative errno if
 * it could not be started.
 */
TT_HIDDEN int tt_ksdk_run(char *const argv[], char *out, size_t cap,
			  size_t *len, int *status, unsigned timeout_s);

#endif /* TT_LIB_KSDK_H */
