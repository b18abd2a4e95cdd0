/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The embedded backend API (docs/backend.md): the C form of PyBuda's
 * "Embedded TTI Loading" calls, a thin layer over tensor queues
 * (tt/tensor_queue.h) and programs (tt/program.h, tt/queue.h).
 *
 * A tt_backend holds, on one device, named input and output queues (it
 * creates and owns the tensor queues) and named programs (it takes them
 * over), each program with named parameters such as "$p_loop_count" that
 * write runtime arguments of its kernels. An application then repeats
 *
 *   push_input    for each input name: a host tensor into that queue
 *   run_program   for each program: set its parameters, start it
 *   get_output    for each output name: the head entry as a host tensor
 *   pop_output    ... and drop it from the queue
 *
 * and ends with tt_backend_finish. "Backend" is PyBuda's word for this
 * object; the device backends that tt_device_open chooses from
 * (TT_TRANSPORT=embedded, ttsim, kmd) are another thing.
 *
 * Runs. The device runs one program at a time: tt_backend_run_program
 * returns once the run has started, but it first waits for the run
 * before it (of any program of the backend) to end. So before starting
 * the next run, make sure the one in progress can end without the
 * calling thread: its inputs pushed, room in the output queues for what
 * it produces, or other threads serving the queues. Runs go on command
 * queue 1 of the device (TT_CQ_MAX - 1), so that the application's own
 * commands on queue 0 keep their errors to themselves.
 *
 * Errors: 0 or a negative errno, with tt_last_error() naming the backend
 * object (input, output, program, parameter) and the fault. NULL for a
 * required pointer, and an empty name, are -EINVAL; an unknown name is
 * -ENOENT, a name given twice -EEXIST, a name longer than
 * TT_BACKEND_NAME_MAX bytes -ENAMETOOLONG (lookups: -ENOENT). A failed
 * call changes nothing.
 *
 * Thread-safety: build the backend (create, add_*) in one thread before
 * anything else uses it. After that, lookups and listings may run in any
 * thread; each queue may have one thread pushing (an input) or getting
 * and popping (an output), as tt/tensor_queue.h says, alongside the
 * thread that runs programs. run_program and finish belong to one thread
 * at a time.
 */
#ifndef TT_BACKEND_H
#define TT_BACKEND_H

#include "program.h"
#include "tensor.h"
#include "tensor_queue.h"

typedef struct tt_backend tt_backend;
struct tt_backend_io; /* private: one queue of a backend */

/* Longest name (bytes, without the NUL) of a queue, program or parameter. */
#define TT_BACKEND_NAME_MAX 255u

/* Which way a queue carries tensors, seen from the host. */
enum tt_io_kind {
	TT_IO_INPUT = 1,  /* the host pushes, a kernel consumes */
	TT_IO_OUTPUT = 2, /* a kernel produces, the host gets and pops */
};

/*
 * A queue of a backend by name (PyBuda's tt_dram_io_desc). Filled by
 * tt_backend_get_io; every pointer in it is the backend's and valid until
 * tt_backend_free. The I/O calls below use only `io`: changing the other
 * fields changes nothing.
 */
struct tt_io_desc {
	const char *name;
	enum tt_io_kind kind;
	struct tt_shape shape;
	enum tt_data_format format;
	unsigned depth;
	enum tt_queue_placement placement;
	/* The tensor queue itself: give tt_tensor_queue_kernel_args(queue,
	 * ...) to the kernels that serve it. */
	tt_tensor_queue *queue;
	struct tt_backend_io *io;
};

/* ---- building ---- */

/* A new backend on dev, with no queues and no programs. The device must
 * stay open until tt_backend_free. */
TT_API int tt_backend_create(tt_device *dev, tt_backend **out);

/*
 * Free the backend, its queues and its programs. Runs still in progress
 * are abandoned: every queue is broken first (tt_tensor_queue_break), so
 * that kernels waiting on one stop, then the runs are waited for. NULL is
 * ignored.
 */
TT_API void tt_backend_free(tt_backend *b);

/*
 * Add a queue `name` of `kind`, created as tt_tensor_queue_create(dev,
 * shape, fmt, depth, placement) makes it (its errors, e.g. -EINVAL for a
 * depth of 0). Inputs and outputs share one set of names.
 */
TT_API int tt_backend_add_queue(tt_backend *b, const char *name,
				enum tt_io_kind kind,
				const struct tt_shape *shape,
				enum tt_data_format fmt, unsigned depth,
				enum tt_queue_placement placement);

/*
 * Where a parameter of a program writes: one runtime argument word of a
 * kernel, either of one core (`common` false: word `index` of the args
 * set with tt_set_runtime_args for logical core `core`) or of the
 * kernel's common args (`common` true: word `index` of
 * tt_set_common_runtime_args; `core` is ignored). A parameter bound to
 * several words (say a reader's and a writer's loop count) has one
 * binding per word, all with the same name and default.
 */
struct tt_backend_binding {
	const char *param; /* "$p_loop_count" */
	tt_kernel_handle kernel;
	bool common;
	struct tt_xy core;
	unsigned index;
	uint32_t default_value; /* written by runs that do not set it */
};

/*
 * Add program `name`. The runtime args each binding names must already be
 * set (their counts are fixed then; -EINVAL naming the binding if the
 * word does not exist). -EINVAL also for two bindings of one word, and
 * for one parameter with two defaults. On success the backend owns prog
 * (tt_backend_free frees it; the caller must not) and its parameters'
 * words are the backend's to write; on failure prog stays the caller's.
 * -EEXIST if prog or name is already the backend's.
 */
TT_API int tt_backend_add_program(tt_backend *b, const char *name,
				  tt_program *prog,
				  const struct tt_backend_binding *bindings,
				  unsigned n);

/* ---- names (PyBuda's get_queue_descriptor and name lists) ---- */

/* The queue `name` (an input or an output). -ENOENT if there is none. */
TT_API int tt_backend_get_io(const tt_backend *b, const char *name,
			     struct tt_io_desc *out);

/*
 * The names of the inputs, outputs or programs in the order they were
 * added: *names points to *count strings, owned by the backend and valid
 * until it is changed or freed.
 */
TT_API int tt_backend_input_names(const tt_backend *b,
				  const char *const **names, unsigned *count);
TT_API int tt_backend_output_names(const tt_backend *b,
				   const char *const **names, unsigned *count);
TT_API int tt_backend_program_names(const tt_backend *b,
				    const char *const **names, unsigned *count);

/* ---- data ----
 *
 * timeout_ms as for tensor queues: TT_TQ_NONBLOCK fails at once with
 * -EAGAIN, TT_TQ_FOREVER waits, n > 0 gives -ETIMEDOUT after n ms; a
 * broken queue gives -EPIPE. A descriptor of the wrong kind is -EINVAL.
 */

/* Push t (the input's shape, any format and layout: converted and tilized
 * into the slot) when the input queue has room. t stays the caller's. */
TT_API int tt_backend_push_input(const struct tt_io_desc *in,
				 const tt_tensor *t, int timeout_ms);

/* The output's head entry, when there is one, as a new tiled tensor in
 * the queue's format (free it with tt_backend_free_tensor); the entry
 * stays in the queue until tt_backend_pop_output. */
TT_API int tt_backend_get_output(const struct tt_io_desc *out, int timeout_ms,
				 tt_tensor **t);

/* Drop the output's head entry, waiting for one if the queue is empty. */
TT_API int tt_backend_pop_output(const struct tt_io_desc *out, int timeout_ms);

/* Free a tensor got from tt_backend_get_output (or any host tensor: this
 * is tt_tensor_free). NULL is ignored. */
TT_API void tt_backend_free_tensor(tt_tensor *t);

/* ---- runs ---- */

/* One parameter of a run: its name and its value in decimal. */
struct tt_backend_param {
	const char *name;  /* "$p_loop_count" */
	const char *value; /* "4" */
};

/*
 * Run program `name`: each of its parameters takes the value params give
 * it, else its default, and is written to its words; then the program is
 * started without waiting for it to end (after the previous run ended,
 * see "Runs" above). A value is a decimal number 0..4294967295, digits
 * only. -EINVAL (naming parameter and program) for a value that is not
 * one and for a parameter given twice, -ENOENT for a parameter the
 * program does not have; nothing is written or started then. If the
 * previous run failed, its error is returned (naming its program and run
 * number) and this run is not started. Kernel build errors surface here
 * too, on the program's first run.
 */
TT_API int tt_backend_run_program(tt_backend *b, const char *name,
				  const struct tt_backend_param *params,
				  unsigned n);

/* Wait for the run in progress, if any. Its error, naming its program and
 * run number (a kernel that faulted, a program that hung): -EFAULT,
 * -ETIMEDOUT or the device's code. The backend stays usable. */
TT_API int tt_backend_finish(tt_backend *b);

#endif /* TT_BACKEND_H */
