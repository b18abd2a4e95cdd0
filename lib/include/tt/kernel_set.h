/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel sets: kernel binaries (RISC-V ELF files) keyed by their portable
 * key, the 64-hex-digit name of a request that leaves the compiler out
 * (docs/kernels.md "Without a compiler"). A compiled model image carries
 * one, so a host without the RISC-V compiler runs the image's kernels
 * (docs/kernels.md "Kernel sets").
 *
 * Recording a set collects every kernel the process builds or finds while
 * it records; serving a set makes its kernels win over the kernel cache
 * and the compiler for requests with the same portable key.
 *
 * Errors: -EINVAL for a bad argument (a key that is not 64 lowercase hex
 * digits, an ELF that is not a kernel for a slot, an index out of range),
 * -EEXIST for a key already in the set with other bytes, -EBUSY when
 * another set records, -ENOMEM; tt_last_error() names the key.
 *
 * Thread-safety: every call may be made from any thread, also while
 * other threads build kernels into a recording set or from a serving one;
 * a set must not be used after (or while) it is freed.
 */
#ifndef TT_KERNEL_SET_H
#define TT_KERNEL_SET_H

#include <stddef.h>

#include "common.h"

typedef struct tt_kernel_set tt_kernel_set;

/* An empty set; its destructor is tt_kernel_set_free. */
TT_API int tt_kernel_set_create(tt_kernel_set **out);

/* Stop recording or serving s (if it does), then free it and its copies.
 * Binaries already built from it stay valid. NULL is ignored. */
TT_API void tt_kernel_set_free(tt_kernel_set *s);

/*
 * Add a copy of elf[0..len) under portable_key (64 lowercase hex digits).
 * The ELF must be what a build would accept: a 32-bit RISC-V executable
 * whose entry point is the start of a processor's kernel slot, every
 * segment inside that slot. The same key again with the same bytes is a
 * no-op; with other bytes it is -EEXIST.
 */
TT_API int tt_kernel_set_add(tt_kernel_set *s, const char *portable_key,
			     const void *elf, size_t len);

/* How many kernels s holds (0 for NULL). */
TT_API size_t tt_kernel_set_count(const tt_kernel_set *s);

/*
 * Kernel i (< tt_kernel_set_count) in the order of their keys, so a set
 * with the same content always lists the same way (while s records, a
 * new key shifts the indices after it). The pointers stay valid until
 * tt_kernel_set_free; any of the three may be NULL.
 */
TT_API int tt_kernel_set_at(const tt_kernel_set *s, size_t i,
			    const char **portable_key, const void **elf,
			    size_t *len);

/*
 * From now on every kernel the process builds or finds (in memory, on
 * disk, by a portable record, in a served set) is also added to s, until
 * tt_kernel_set_record(NULL). One set records at a time: -EBUSY if
 * another does. tt_kernel_set_record(NULL) returns the first error that
 * kept a kernel out of the set while it recorded (-ENOMEM, or -EEXIST for
 * a key met with two different ELF files), else 0.
 */
TT_API int tt_kernel_set_record(tt_kernel_set *s);

/*
 * Serve s (besides the sets served already; a set served twice is served
 * once): a kernel request whose portable key is in a served set uses that
 * set's ELF, before the memory and disk caches and with or without a
 * compiler. The ELF is checked against the request's processor slot as a
 * cached one is; one that does not fit is an error naming the key, never
 * replaced by a build. Sets are searched in the order they were served.
 * tt_kernel_set_serve(NULL) stops serving every set.
 */
TT_API int tt_kernel_set_serve(tt_kernel_set *s);

#endif /* TT_KERNEL_SET_H */
