/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The embedded backend API (tt/backend.h), internal side: the objects
 * shared by embedded.c (the backend, its queues, names, data calls) and
 * embedded_program.c (programs, parameters, runs).
 *
 * Names are few (a model has a handful of queues and programs), so every
 * lookup is a linear search in order of addition.
 */
#ifndef TT_LIB_BACKEND_INTERNAL_H
#define TT_LIB_BACKEND_INTERNAL_H

#include "lib/device/internal.h"
#include "tt/backend.h"
#include "tt/queue.h"

/* What a message shows of a name: at most this many bytes of it. */
#define TT_BACKEND_SHOW_MAX 64u

struct tt_backend_io {
	char *name;
	enum tt_io_kind kind;
	tt_tensor_queue *q;
};

/* A program parameter: its default and every runtime-arg word it writes
 * (pointers into the program's argument storage, which never moves). */
struct tt_backend_pdef {
	char *name;
	uint32_t def;
	uint32_t **words;
	unsigned nwords;
};

/* A program the host drives (a compiled model's, lib/model/): run()
 * does the whole run, synchronously, with every parameter's value in
 * the order given; free() drops arg with the program. */
struct tt_backend_host_prog {
	int (*run)(void *arg, const uint32_t *values);
	void (*free)(void *arg);
	void *arg;
};

struct tt_backend_prog {
	char *name;
	tt_program *prog; /* NULL for a host-driven program */
	struct tt_backend_host_prog host;
	struct tt_backend_pdef *params;
	unsigned nparams;
	uint64_t runs; /* started so far; the messages' run numbers */
};

struct tt_backend {
	tt_device *dev;
	tt_command_queue *cq;
	struct tt_backend_io **ios; /* inputs and outputs, in order */
	unsigned nios;
	char **names[2]; /* input, output names (TT_IO_* - 1), in order */
	unsigned nnames[2];
	struct tt_backend_prog **progs;
	unsigned nprogs;
	char **prog_names;
	/* The last run started and not yet waited for, and its number. */
	struct tt_backend_prog *running;
	uint64_t running_run;
};

/*
 * A name fit to add as `what` ("input", "program", "parameter"): not
 * NULL (-EINVAL), not empty (-EINVAL), at most TT_BACKEND_NAME_MAX bytes
 * (-ENAMETOOLONG), no control characters (-EINVAL, so that messages stay
 * one line). The message starts with fn.
 */
TT_HIDDEN int tt_backend_check_name(const char *fn, const char *what,
				    const char *name);

/* A name to look up: NULL or empty is -EINVAL (a long one is merely not
 * found). */
TT_HIDDEN int tt_backend_check_lookup(const char *fn, const char *what,
				      const char *name);

/* name as a message shows it: in quotes, at most TT_BACKEND_SHOW_MAX
 * bytes then "...", control characters as '?'. Returns buf. */
#define TT_BACKEND_SHOW_BUF (TT_BACKEND_SHOW_MAX + 8)
TT_HIDDEN const char *tt_backend_show(char buf[TT_BACKEND_SHOW_BUF],
				      const char *name);

/* embedded_program.c */

/*
 * Add a host-driven program: parameters names[n] with defaults[n] (each
 * name once). On success the backend owns host->arg (host->free drops
 * it); on failure it stays the caller's.
 */
TT_HIDDEN int tt_backend_add_host_program(tt_backend *b, const char *name,
					  const char *const *names,
					  const uint32_t *defaults, unsigned n,
					  const struct tt_backend_host_prog *host);

/* The queue named name (input or output), or NULL. */
TT_HIDDEN tt_tensor_queue *tt_backend_queue(const tt_backend *b,
					    const char *name);

/* Wait for the run in progress, if any; its error names the run. */
TT_HIDDEN int tt_backend_wait_run(tt_backend *b);
TT_HIDDEN void tt_backend_prog_free(struct tt_backend_prog *p);

#endif /* TT_LIB_BACKEND_INTERNAL_H */
