/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Program descriptors (TT-Metal's ProgramDescriptor,
 * tt_metal/api/tt-metalium/program_descriptors.hpp): a whole program as
 * plain structs, turned into a program by one call. The result is exactly
 * the program the imperative calls of tt/program.h make, in this order:
 *
 *   1. every CB descriptor, in order (tt_create_circular_buffer: CB
 *      handles are the indices in cbs[]);
 *   2. every semaphore descriptor (with the id it gives);
 *   3. every kernel descriptor, in order (tt_create_kernel or
 *      tt_create_kernel_from_string: kernel handles are the indices in
 *      kernels[]), each followed by its runtime args (per core, in
 *      order) and its common runtime args.
 *
 * The descriptor is only read during the call. An error names the
 * descriptor element ("kernels[2]: ...") and frees everything made.
 */
#ifndef TT_PROGRAM_DESC_API_H
#define TT_PROGRAM_DESC_API_H

#include "common.h"
#include "core.h"
#include "device.h"
#include "program.h"

enum tt_kernel_source_type {
	TT_SOURCE_FILE_PATH = 0, /* resolved as by tt_create_kernel */
	TT_SOURCE_CODE = 1, /* the source text itself */
};

/* KernelDescriptor. config carries the variant (reader, writer, data
 * movement with processor and NOC, compute with its settings) and the
 * compile-time args, defines and optimisation level. */
struct tt_kernel_descriptor {
	const char *kernel_source;
	enum tt_kernel_source_type source_type;
	const struct tt_core_range_set *core_ranges;
	struct tt_kernel_config config;
	const struct tt_core_args *runtime_args;
	unsigned runtime_args_count;
	const uint32_t *common_runtime_args;
	unsigned common_runtime_args_count; /* 0: none set */
};

/* CBDescriptor (CBFormatDescriptor is struct tt_cb_format). buffer:
 * NULL for a static CB, else the L1 buffer of a dynamic one. */
struct tt_cb_descriptor {
	uint32_t total_size;
	const struct tt_core_range_set *core_ranges;
	const struct tt_cb_format *format_descriptors;
	unsigned format_count;
	tt_buffer *buffer;
};

/* SemaphoreDescriptor: an explicit id, free on all of its cores. */
struct tt_semaphore_descriptor {
	uint32_t id;
	enum tt_core_type core_type; /* TT_CORE_TENSIX */
	const struct tt_core_range_set *core_ranges;
	uint32_t initial_value;
};

struct tt_program_descriptor {
	const struct tt_kernel_descriptor *kernels;
	unsigned kernel_count;
	const struct tt_semaphore_descriptor *semaphores;
	unsigned semaphore_count;
	const struct tt_cb_descriptor *cbs;
	unsigned cb_count;
};

/* Make the program d describes (TT-Metal's Program(ProgramDescriptor)),
 * freed by tt_program_free. Errors as the imperative calls, prefixed
 * with the element. tt_create_program_from_descriptor is the same
 * constructor by the name of the verb-first calls. */
TT_API int tt_program_create_from_descriptor(
	const struct tt_program_descriptor *d, tt_program **out);
TT_API int tt_create_program_from_descriptor(
	const struct tt_program_descriptor *d, tt_program **out);

#endif /* TT_PROGRAM_DESC_API_H */
