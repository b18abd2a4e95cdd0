/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Programs (TT-Metal's host API, tt_metal/api/tt-metalium/host_api.hpp):
 * kernels, circular buffers, semaphores and runtime arguments placed on
 * cores. docs/api.md has the TT-Metal name of every call.
 *
 * A program is built without a device. Cores are logical coordinates
 * (tt/core.h); a core outside the device's logical grid is refused when the
 * program is first enqueued on a device. Every object is identified by a
 * small integer, in creation order from 0: kernel handles, circular buffer
 * handles (each kind numbered separately) and semaphore ids (per core, see
 * tt_create_semaphore).
 *
 * Errors: every call returns 0 or a negative errno and leaves the program
 * unchanged on failure; tt_last_error() names the call, the object (kernel,
 * CB, core, index) and the offending value. NULL for a required pointer is
 * -EINVAL (not an assert) so that bindings can pass through user input.
 *
 * Thread-safety: a program may be used by one thread at a time; different
 * programs are independent. A program must not be changed while a command
 * queue runs it (after tt_finish it may be).
 */
#ifndef TT_PROGRAM_API_H
#define TT_PROGRAM_API_H

#include "common.h"
#include "core.h"
#include "dataformat.h"
#include "device.h"

typedef struct tt_program tt_program;
typedef struct tt_buffer tt_buffer; /* tt/buffer.h */

typedef uint32_t tt_kernel_handle;
typedef uint32_t tt_cb_handle;

/* Per core (and per kernel, for arguments). */
#define TT_NUM_CIRCULAR_BUFFERS 32u /* CB indices 0..31 */
#define TT_NUM_SEMAPHORES 8u
#define TT_MAX_RUNTIME_ARGS 341u /* unique + common words, per kernel */
#define TT_MAX_UNIQUE_RUNTIME_ARGS 255u
/* Per kernel. */
#define TT_MAX_NAMED_COMPILE_ARGS 256u
#define TT_NAMED_ARG_NAME_MAX 128u /* characters of a name */

/* ---- programs ---- */

/* The constructor; its destructor is tt_program_free. tt_create_program
 * (TT-Metal's CreateProgram) is the same constructor by its familiar
 * name. */
TT_API int tt_program_create(tt_program **out);
TT_API int tt_create_program(tt_program **out);

/* Free a program and everything it holds (kernel binaries, references to
 * buffers given to tt_assign_global_buffer_to_program). NULL is ignored. */
TT_API void tt_program_free(tt_program *prog);

/* Keep buf (object and memory) alive at least as long as prog
 * (TT-Metal's AssignGlobalBufferToProgram). */
TT_API int tt_assign_global_buffer_to_program(tt_buffer *buf,
					      tt_program *prog);

/*
 * Build every kernel of prog for dev now (TT-Metal's
 * detail::CompileProgram), as its first enqueue on dev would: the same
 * checks of its cores against dev's grid, the same kernel requests and
 * the same errors (-ENOEXEC naming the kernel for one that does not
 * compile). Nothing is launched and nothing on dev changes; a later
 * enqueue finds the kernels built. Kernels added afterwards are built
 * then, or by another call.
 */
TT_API int tt_compile_program(tt_device *dev, tt_program *prog);

/* ---- kernels ---- */

enum tt_kernel_type {
	/* processor and noc as given (TT-Metal's DataMovementConfig) */
	TT_KERNEL_DATA_MOVEMENT = 0,
	/* RISCV_1 on NOC 1 (ReaderDataMovementConfig) */
	TT_KERNEL_READER = 1,
	/* RISCV_0 on NOC 0 (WriterDataMovementConfig) */
	TT_KERNEL_WRITER = 2,
	/* the compute processor (ComputeConfig) */
	TT_KERNEL_COMPUTE = 3,
	/* an idle Ethernet core (EthernetConfig): refused, -ENOTSUP, as no
	 * device of this stack runs kernels on Ethernet cores */
	TT_KERNEL_ETHERNET = 4,
};

enum tt_dm_processor {
	TT_RISCV_0 = 0, /* BRISC */
	TT_RISCV_1 = 1, /* NCRISC */
};

enum tt_noc {
	TT_NOC_0 = 0,
	TT_NOC_1 = 1,
};

/* TT-Metal's numbering. */
enum tt_math_fidelity {
	TT_LOFI = 0,
	TT_HIFI2 = 2,
	TT_HIFI3 = 3,
	TT_HIFI4 = 4,
};

enum tt_opt_level {
	TT_OPT_DEFAULT = 0, /* O2 for data movement, O3 for compute */
	TT_OPT_O0,
	TT_OPT_O1,
	TT_OPT_O2,
	TT_OPT_O3,
	TT_OPT_OS,
};

/* A preprocessor define for the kernel's compilation: -Dname=value (value
 * NULL: -Dname). name must be a C identifier; value a single line. */
struct tt_define {
	const char *name;
	const char *value;
};

/* A named compile-time argument (one entry of TT-Metal's
 * named_compile_args map): the kernel reads it as the constant
 * get_named_compile_time_arg_val("name"). name must be a C identifier of
 * at most TT_NAMED_ARG_NAME_MAX characters, given once per kernel. */
struct tt_named_arg {
	const char *name;
	uint32_t value;
};

/*
 * How a kernel is built and where it runs. Start from one of the
 * constructors below, which give TT-Metal's defaults, then change fields.
 * (A zero-initialised struct is a data movement kernel on RISCV_0 and
 * NOC 0 -- and, if its type is changed to compute, LoFi, not HiFi4.)
 * Pointed-to arrays are copied by tt_create_kernel*.
 */
struct tt_kernel_config {
	enum tt_kernel_type type;
	/* TT_KERNEL_DATA_MOVEMENT only (READER and WRITER imply them). */
	enum tt_dm_processor processor;
	enum tt_noc noc;
	/* TT_KERNEL_COMPUTE only. */
	enum tt_math_fidelity math_fidelity;
	bool fp32_dest_acc_en; /* 32-bit DST (half the tiles) */
	bool dst_full_sync_en; /* DST not double-buffered */
	bool math_approx_mode; /* approximate vector functions */
	/* Every type. */
	const uint32_t *compile_args; /* get_compile_time_arg_val(i) */
	unsigned compile_arg_count;
	const struct tt_define *defines;
	unsigned define_count;
	enum tt_opt_level opt_level;
	/* get_named_compile_time_arg_val("name"); at most
	 * TT_MAX_NAMED_COMPILE_ARGS (-E2BIG). */
	const struct tt_named_arg *named_compile_args;
	unsigned named_compile_arg_count;
};

/* Data movement on proc, with that processor's preferred NOC (RISCV_0:
 * NOC 0, RISCV_1: NOC 1). */
TT_API struct tt_kernel_config
tt_data_movement_config(enum tt_dm_processor proc);
TT_API struct tt_kernel_config tt_reader_config(void);
TT_API struct tt_kernel_config tt_writer_config(void);
/* HiFi4, no fp32 DST, double-buffered DST, exact math, O3. */
TT_API struct tt_kernel_config tt_compute_config(void);

/*
 * Add a kernel from a C source file (TT-Metal's CreateKernel) on cores.
 * cfg NULL: tt_data_movement_config(TT_RISCV_0). The path is resolved now,
 * like TT-Metal: an absolute path; else relative to the working
 * directory; else relative to each directory of TT_KERNEL_PATH (colon
 * separated), then of TT_METAL_HOME. Not found: -ENOENT with every place
 * tried. The kernel is compiled when the program is first enqueued
 * (compile errors are reported there, with the compiler's messages).
 *
 * Each core runs at most one kernel per processor (RISCV_0, RISCV_1,
 * compute): -EEXIST naming both kernels and a core otherwise.
 */
TT_API int tt_create_kernel(tt_program *prog, const char *path,
			    const struct tt_core_range_set *cores,
			    const struct tt_kernel_config *cfg,
			    tt_kernel_handle *out);

/* The same with the source text itself (CreateKernelFromString). */
TT_API int tt_create_kernel_from_string(tt_program *prog, const char *source,
					const struct tt_core_range_set *cores,
					const struct tt_kernel_config *cfg,
					tt_kernel_handle *out);

/* The same on one core or one range (TT-Metal's CoreCoord and CoreRange
 * core specs); messages name these calls. */
TT_API int tt_create_kernel_on_core(tt_program *prog, const char *path,
				    struct tt_xy core,
				    const struct tt_kernel_config *cfg,
				    tt_kernel_handle *out);
TT_API int tt_create_kernel_on_range(tt_program *prog, const char *path,
				     struct tt_core_range range,
				     const struct tt_kernel_config *cfg,
				     tt_kernel_handle *out);
TT_API int tt_create_kernel_from_string_on_core(
	tt_program *prog, const char *source, struct tt_xy core,
	const struct tt_kernel_config *cfg, tt_kernel_handle *out);
TT_API int tt_create_kernel_from_string_on_range(
	tt_program *prog, const char *source, struct tt_core_range range,
	const struct tt_kernel_config *cfg, tt_kernel_handle *out);

/* The cores a kernel was placed on. */
TT_API int tt_kernel_get_cores(const tt_program *prog, tt_kernel_handle k,
			       struct tt_core_range_set *out);

/* ---- circular buffers ---- */

/* One index of a circular buffer (CircularBufferConfig's per-index data,
 * TT-Metal's CBFormatDescriptor). */
struct tt_cb_format {
	unsigned buffer_index; /* 0 .. TT_NUM_CIRCULAR_BUFFERS - 1 */
	enum tt_data_format data_format;
	uint32_t page_size; /* bytes; usually one tile */
};

/*
 * A circular buffer: total_size bytes of L1 on each of its cores, shared
 * by one or more indices (all the indices see the same memory, each with
 * its own page size and format). total_size must be a multiple of every
 * page size. buffer NULL: the memory is allocated by the program ("static"
 * CB, packed upward from the bottom of free L1 when the program is
 * enqueued); else the CB lives in that L1 buffer ("dynamic" or globally
 * allocated CB), which must be at least total_size bytes.
 */
struct tt_circular_buffer_config {
	uint32_t total_size;
	unsigned format_count;
	struct tt_cb_format formats[TT_NUM_CIRCULAR_BUFFERS];
	tt_buffer *buffer;
};

/* A config with one index. */
TT_API struct tt_circular_buffer_config
tt_circular_buffer_config(uint32_t total_size, unsigned buffer_index,
			  enum tt_data_format fmt, uint32_t page_size);

/* Add an index to a config: -EINVAL if the index is out of range or
 * already there, -E2BIG if the config is full. */
TT_API int tt_circular_buffer_config_add(struct tt_circular_buffer_config *c,
					 unsigned buffer_index,
					 enum tt_data_format fmt,
					 uint32_t page_size);

/*
 * Add a circular buffer on cores (CreateCircularBuffer). Errors (-EINVAL
 * unless said): total size 0 or not a multiple of a page size, page size
 * 0, index out of range or repeated, unknown data format, no index;
 * -EEXIST: an index already used on one of the cores by another CB of the
 * program (the message names index, core and CB); dynamic: the buffer is
 * not L1 or smaller than total_size.
 */
TT_API int tt_create_circular_buffer(tt_program *prog,
				     const struct tt_core_range_set *cores,
				     const struct tt_circular_buffer_config *cfg,
				     tt_cb_handle *out);

/* The CB's current config (with every update applied). */
TT_API int tt_get_circular_buffer_config(const tt_program *prog,
					 tt_cb_handle cb,
					 struct tt_circular_buffer_config *out);

/* Change the total size; every page size must still divide it (and a
 * dynamic CB's buffer must still hold it). Static CBs move when the program
 * is next enqueued. */
TT_API int tt_update_circular_buffer_total_size(tt_program *prog,
						tt_cb_handle cb,
						uint32_t total_size);

/* Change the page size of one index of the CB; it must divide the total
 * size. */
TT_API int tt_update_circular_buffer_page_size(tt_program *prog,
					       tt_cb_handle cb,
					       unsigned buffer_index,
					       uint32_t page_size);

/* Point a dynamic CB at another L1 buffer (at least its total size). A
 * static CB is refused (-EINVAL). */
TT_API int tt_update_dynamic_circular_buffer_address(tt_program *prog,
						     tt_cb_handle cb,
						     tt_buffer *buf);

/* Both at once (UpdateDynamicCircularBufferAddressAndTotalSize). */
TT_API int
tt_update_dynamic_circular_buffer_address_and_total_size(tt_program *prog,
							 tt_cb_handle cb,
							 tt_buffer *buf,
							 uint32_t total_size);

/* ---- semaphores ---- */

/*
 * Add a semaphore on cores with an initial value (CreateSemaphore): the
 * kernels see it at get_semaphore(id), reset to initial_value at every
 * launch. *id is the lowest id free on every one of the cores (ids are
 * per core: semaphores on disjoint cores may share an id). core_type:
 * TT_CORE_TENSIX (TT-Metal's WORKER); TT_CORE_ETH is -ENOTSUP (no device
 * of this stack runs kernels on Ethernet cores); others -EINVAL. -ENOSPC
 * when no id is free on all the cores (TT_NUM_SEMAPHORES per core).
 */
TT_API int tt_create_semaphore(tt_program *prog,
			       const struct tt_core_range_set *cores,
			       uint32_t initial_value,
			       enum tt_core_type core_type, uint32_t *id);

/* The same on one core or one range (CoreCoord, CoreRange). */
TT_API int tt_create_semaphore_on_core(tt_program *prog, struct tt_xy core,
				       uint32_t initial_value,
				       enum tt_core_type core_type,
				       uint32_t *id);
TT_API int tt_create_semaphore_on_range(tt_program *prog,
					struct tt_core_range range,
					uint32_t initial_value,
					enum tt_core_type core_type,
					uint32_t *id);

/* ---- runtime arguments ---- */

/*
 * Runtime arguments (SetRuntimeArgs): unique words per (kernel, core),
 * read by get_arg_val(i), and common words per kernel, read by
 * get_common_arg_val(i). Limits per kernel and core: at most
 * TT_MAX_UNIQUE_RUNTIME_ARGS unique words, and unique + common at most
 * TT_MAX_RUNTIME_ARGS (-E2BIG). Once set, the number of unique args of a
 * core, and the number of common args, are fixed (-EINVAL naming the old
 * and new counts); their values may change at any time and are used by the
 * next enqueue. Setting args on a core the kernel is not on is -EINVAL.
 */

/* Args for one core. */
TT_API int tt_set_runtime_args(tt_program *prog, tt_kernel_handle k,
			       struct tt_xy core, const uint32_t *args,
			       unsigned count);

/* The same args for every core of a set. */
TT_API int tt_set_runtime_args_cores(tt_program *prog, tt_kernel_handle k,
				     const struct tt_core_range_set *cores,
				     const uint32_t *args, unsigned count);

/* One core's args (TT-Metal's vector<CoreCoord> + vector<vector<>> form,
 * and a program descriptor's runtime args). */
struct tt_core_args {
	struct tt_xy core;
	const uint32_t *args;
	unsigned count;
};

/* Different args per core: all or nothing. */
TT_API int tt_set_runtime_args_per_core(tt_program *prog, tt_kernel_handle k,
					const struct tt_core_args *list,
					unsigned n);

/*
 * The stored args of one core: *args points to *count words owned by the
 * program, which may be changed in place (TT-Metal's RuntimeArgsData
 * reference); valid until the program is freed. A core of the kernel with
 * no args set gives *count 0 and *args NULL.
 */
TT_API int tt_get_runtime_args(tt_program *prog, tt_kernel_handle k,
			       struct tt_xy core, uint32_t **args,
			       unsigned *count);

TT_API int tt_set_common_runtime_args(tt_program *prog, tt_kernel_handle k,
				      const uint32_t *args, unsigned count);

/* Like tt_get_runtime_args, for the common args. */
TT_API int tt_get_common_runtime_args(tt_program *prog, tt_kernel_handle k,
				      uint32_t **args, unsigned *count);

#endif /* TT_PROGRAM_API_H */
