/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel cache (internal): built kernels by key (kbuild.h), in memory
 * for the process and on disk in the kernel cache directory.
 *
 * A disk entry is two files named by the key's hex: <hex>.elf, the linked
 * kernel, and <hex>.deps, text naming the ELF's SHA-256 and size and every
 * file the source included outside the SDK with its SHA-256:
 *
 *   tt-kbuild-deps 1
 *   elf <sha256> <size>
 *   dep <sha256> <path>        (any number)
 *   end
 *
 * Both are written to temporary names and renamed into place, the ELF
 * first: a reader that meets an ELF and a .deps from different writers
 * sees the ELF hash differ and rebuilds. Anything unexpected in an entry
 * (truncation, a changed include, a bad ELF) is a miss, never an error.
 */
#ifndef TT_LIB_KCACHE_H
#define TT_LIB_KCACHE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kbuild.h"

/* Files an entry depends on besides its key. */
struct tt_kdep {
	char *path;
	uint8_t hash[32];
};

struct tt_kdeps {
	unsigned count;
	struct tt_kdep *dep;
};

/* The largest file the cache reads (kernel sources, ELF files, .deps). */
#define TT_KCACHE_FILE_MAX (16u << 20)

/* Read a whole file of at most max bytes into a malloc'd buffer (with a
 * NUL after the data). Returns 0 or a negative errno (-EFBIG if larger),
 * without setting a message. */
TT_HIDDEN int tt_kcache_read_file(const char *path, size_t max,
				  uint8_t **data, size_t *len);

/* Write data to path atomically (a temporary file in the same directory,
 * then rename). Returns 0 or a negative errno, without a message. */
TT_HIDDEN int tt_kcache_write_file(const char *path, const void *data,
				   size_t len);

/* A unique temporary name in dir for this process and thread:
 * "<dir>/.<stem>.<pid>.<n><suffix>". */
TT_HIDDEN void tt_kcache_tmp_name(char *buf, size_t len, const char *dir,
				  const char *stem, const char *suffix);

/*
 * The files listed in a gcc depfile (-MD -MF), except the source itself
 * and files under the directories in skip (NULL-terminated: the SDK's
 * headers and the compiler's, covered by their identities), with their
 * current SHA-256. *out is NULL if there are none.
 */
TT_HIDDEN int tt_kdeps_from_depfile(const char *depfile, const char *source,
				    const char *const *skip,
				    struct tt_kdeps **out);

/* True if every file in d (may be NULL) still has its recorded hash. */
TT_HIDDEN bool tt_kdeps_current(const struct tt_kdeps *d);

/* The first file in d that no longer has its recorded hash (or cannot be
 * read), or NULL if none. */
TT_HIDDEN const char *tt_kdeps_changed(const struct tt_kdeps *d);

TT_HIDDEN void tt_kdeps_free(struct tt_kdeps *d);

/* Where entries go: the cache directory, or, if it cannot be created or
 * written, a private temporary directory used for one build only. */
struct tt_kcache_dir {
	char path[PATH_MAX];
	bool persistent;
};

/* Fill *d; only fails if not even a temporary directory can be made. */
TT_HIDDEN int tt_kcache_dir_open(struct tt_kcache_dir *d);

/* Only to read entries (no compiler, docs/kernels.md): the cache
 * directory as named, not created, whether or not it exists or is
 * writable; -ENOENT with a message if none can be named. */
TT_HIDDEN int tt_kcache_dir_find(struct tt_kcache_dir *d);

/* Done with d: a private directory is removed with its content. */
TT_HIDDEN void tt_kcache_dir_close(struct tt_kcache_dir *d);

/* The memory cache: the entry for key with a reference taken, or NULL. */
TT_HIDDEN struct tt_kbinary *tt_kcache_mem_get(const uint8_t key[32]);

/* Insert b (the cache takes its own reference), replacing an entry with
 * the same key. */
TT_HIDDEN void tt_kcache_mem_put(struct tt_kbinary *b);

/* Drop every memory entry (tests: a fresh process sees only the disk). */
TT_HIDDEN void tt_kcache_reset_memory(void);

/*
 * The disk entry for key in dir: its ELF file (malloc'd) and dependencies
 * (NULL if none), only if the .deps file is whole, every dependency is
 * unchanged and the ELF has the recorded size and hash. -ENOENT otherwise
 * (no message set; why, if not NULL, gets why_len bytes saying what was
 * wrong).
 */
TT_HIDDEN int tt_kcache_disk_load(const char *dir, const uint8_t key[32],
				  uint8_t **elf, size_t *elf_len,
				  struct tt_kdeps **deps, char *why,
				  size_t why_len);

/*
 * Make the ELF at elf_tmp (a file in dir, whose content is elf[0..len))
 * the entry for key, recording deps. Returns 0 or a negative errno (no
 * message set); elf_tmp is gone either way.
 */
TT_HIDDEN int tt_kcache_disk_store(const char *dir, const uint8_t key[32],
				   const char *elf_tmp, const uint8_t *elf,
				   size_t len, const struct tt_kdeps *deps);

/*
 * Portable records (docs/kernels.md "Without a compiler"): <pkey>.port
 * names the entry (by its key) that a build with a compiler made or used
 * last for the portable key pkey, which leaves the compiler out, with the
 * ELF's hash and size and the toolchain that built it:
 *
 *   tt-kbuild-portable 1
 *   key <key>
 *   elf <sha256> <size>
 *   toolchain <identity> <first line of its --version>
 *   end
 */
struct tt_kport {
	uint8_t key[32]; /* the entry: <key>.elf, <key>.deps */
	uint8_t elf[32]; /* its ELF's SHA-256 */
	size_t elf_len;
	uint8_t tc_id[32]; /* the toolchain's identity (ksdk.h) */
	char cc[160]; /* its --version line */
};

/* Write the record for pkey (atomically), unless it already says r.
 * Returns 0 or a negative errno, without a message. */
TT_HIDDEN int tt_kcache_port_store(const char *dir, const uint8_t pkey[32],
				   const struct tt_kport *r);

/* Read the record for pkey: 0, -ENOENT if there is none, -EINVAL if it
 * is not whole. No message set. */
TT_HIDDEN int tt_kcache_port_load(const char *dir, const uint8_t pkey[32],
				  struct tt_kport *r);

#endif /* TT_LIB_KCACHE_H */
