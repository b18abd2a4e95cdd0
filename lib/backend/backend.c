// SPDX-License-Identifier: Apache-2.0
/*
 * The embedded backend API (tt/backend.h): the backend object, its named
 * queues, lookups and listings, and the data calls (push_input,
 * get_output, pop_output), each a tensor queue call with the queue's
 * name put in front of its message. Programs and runs are in
 * embedded_program.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_internal.h"
#include "lib/program/program_internal.h"

/* ---- names ---- */

const char *tt_backend_show(char buf[TT_BACKEND_SHOW_BUF], const char *name)
{
	size_t n = 0;

	buf[n++] = '"';
	for (; *name && n < TT_BACKEND_SHOW_MAX + 1; name++)
		buf[n++] = (unsigned char)*name < 0x20 || *name == 0x7f ? '?'
									: *name;
	buf[n++] = '"';
	if (*name) {
		memcpy(&buf[n], "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

int tt_backend_check_lookup(const char *fn, const char *what, const char *name)
{
	if (!name)
		return tt_error(-EINVAL, "%s: %s name is NULL", fn, what);
	if (!*name)
		return tt_error(-EINVAL, "%s: %s name is empty", fn, what);
	return 0;
}

int tt_backend_check_name(const char *fn, const char *what, const char *name)
{
	char show[TT_BACKEND_SHOW_BUF];
	size_t len;
	int ret = tt_backend_check_lookup(fn, what, name);

	if (ret)
		return ret;
	len = strnlen(name, TT_BACKEND_NAME_MAX + 1);
	if (len > TT_BACKEND_NAME_MAX)
		return tt_error(-ENAMETOOLONG,
				"%s: %s name %s is longer than %u bytes", fn,
				what, tt_backend_show(show, name),
				TT_BACKEND_NAME_MAX);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return tt_error(
				-EINVAL,
				"%s: %s name %s has a control character "
				"at byte %zu",
				fn, what, tt_backend_show(show, name), i);
	return 0;
}

static const char *kind_name(enum tt_io_kind kind)
{
	return kind == TT_IO_INPUT ? "input" : "output";
}

static struct tt_backend_io *find_io(const tt_backend *b, const char *name)
{
	for (unsigned i = 0; i < b->nios; i++)
		if (!strcmp(b->ios[i]->name, name))
			return b->ios[i];
	return NULL;
}

tt_tensor_queue *tt_backend_queue(const tt_backend *b, const char *name)
{
	struct tt_backend_io *io = find_io(b, name);

	return io ? io->q : NULL;
}

/* ---- the backend ---- */

int tt_backend_create(tt_device *dev, tt_backend **out)
{
	tt_backend *b;
	int ret;

	if (!dev || !out)
		return tt_error(-EINVAL, "tt_backend_create: %s is NULL",
				dev ? "out" : "dev");
	b = calloc(1, sizeof(*b));
	if (!b)
		return tt_error(-ENOMEM, "tt_backend_create: out of memory");
	ret = tt_device_command_queue(dev, TT_CQ_MAX - 1, &b->cq);
	if (ret) {
		free(b);
		return tt_error_wrap(ret, "tt_backend_create");
	}
	b->dev = dev;
	*out = b;
	return 0;
}

static void io_free(struct tt_backend_io *io)
{
	tt_tensor_queue_free(io->q);
	free(io->name);
	free(io);
}

/* Stop what runs (breaking the queues ends every wait of its kernels),
 * keeping the caller's last error: freeing is not a failure. */
static void abandon_run(tt_backend *b)
{
	char saved[1024];

	if (!b->running)
		return;
	snprintf(saved, sizeof(saved), "%s", tt_last_error());
	for (unsigned i = 0; i < b->nios; i++)
		tt_tensor_queue_break(b->ios[i]->q);
	tt_backend_wait_run(b);
	tt_error(0, "%s", saved);
}

void tt_backend_free(tt_backend *b)
{
	if (!b)
		return;
	abandon_run(b);
	for (unsigned i = 0; i < b->nprogs; i++)
		tt_backend_prog_free(b->progs[i]);
	for (unsigned i = 0; i < b->nios; i++)
		io_free(b->ios[i]);
	free(b->progs);
	free(b->prog_names);
	free(b->ios);
	free(b->names[0]);
	free(b->names[1]);
	free(b);
}

/* ---- queues ---- */

static int check_queue_args(tt_backend *b, const char *name,
			    enum tt_io_kind kind)
{
	static const char fn[] = "tt_backend_add_queue";
	char show[TT_BACKEND_SHOW_BUF];
	int ret;

	if (!b)
		return tt_error(-EINVAL, "%s: backend is NULL", fn);
	ret = tt_backend_check_name(fn, "queue", name);
	if (ret)
		return ret;
	if (kind != TT_IO_INPUT && kind != TT_IO_OUTPUT)
		return tt_error(-EINVAL,
				"%s: queue %s: kind %d is neither TT_IO_INPUT "
				"nor TT_IO_OUTPUT",
				fn, tt_backend_show(show, name), (int)kind);
	if (find_io(b, name))
		return tt_error(-EEXIST, "%s: there is a queue %s already (%s)",
				fn, tt_backend_show(show, name),
				kind_name(find_io(b, name)->kind));
	return 0;
}

/* Append io to the backend's lists: all or nothing. */
static int attach_io(tt_backend *b, struct tt_backend_io *io)
{
	unsigned k = io->kind - 1, nios = b->nios;

	/* A queue appended without its name is past the end: unseen. */
	if (tt_append(&b->ios, &nios, io) ||
	    tt_append(&b->names[k], &b->nnames[k], io->name))
		return -ENOMEM;
	b->nios = nios;
	return 0;
}

int tt_backend_add_queue(tt_backend *b, const char *name, enum tt_io_kind kind,
			 const struct tt_shape *shape, enum tt_data_format fmt,
			 unsigned depth, enum tt_queue_placement placement)
{
	char show[TT_BACKEND_SHOW_BUF];
	struct tt_backend_io *io;
	int ret = check_queue_args(b, name, kind);

	if (ret)
		return ret;
	io = calloc(1, sizeof(*io));
	if (!io || !(io->name = strdup(name))) {
		free(io);
		return tt_error(-ENOMEM, "tt_backend_add_queue: out of memory");
	}
	io->kind = kind;
	ret = tt_tensor_queue_create(b->dev, shape, fmt, depth, placement,
				     &io->q);
	if (ret) {
		io_free(io);
		return tt_error_wrap(ret, "tt_backend_add_queue: %s %s",
				     kind_name(kind),
				     tt_backend_show(show, name));
	}
	if (attach_io(b, io)) {
		io_free(io);
		return tt_error(-ENOMEM, "tt_backend_add_queue: out of memory");
	}
	return 0;
}

/* ---- lookups and listings ---- */

int tt_backend_get_io(const tt_backend *b, const char *name,
		      struct tt_io_desc *out)
{
	static const char fn[] = "tt_backend_get_io";
	char show[TT_BACKEND_SHOW_BUF];
	struct tt_backend_io *io;
	int ret;

	if (!b || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				b ? "out" : "backend");
	ret = tt_backend_check_lookup(fn, "queue", name);
	if (ret)
		return ret;
	io = find_io(b, name);
	if (!io)
		return tt_error(-ENOENT, "%s: no input or output named %s", fn,
				tt_backend_show(show, name));
	*out = (struct tt_io_desc){
		.name = io->name,
		.kind = io->kind,
		.shape = *tt_tensor_queue_shape(io->q),
		.format = tt_tensor_queue_format(io->q),
		.depth = tt_tensor_queue_depth(io->q),
		.placement = tt_tensor_queue_placement(io->q),
		.queue = io->q,
		.io = io,
	};
	return 0;
}

static int list(const tt_backend *b, char **arr, unsigned n,
		const char *const **names, unsigned *count, const char *fn)
{
	if (!b || !names || !count)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				!b	 ? "backend"
				: !names ? "names"
					 : "count");
	*names = (const char *const *)arr;
	*count = n;
	return 0;
}

int tt_backend_input_names(const tt_backend *b, const char *const **names,
			   unsigned *count)
{
	return list(b, b ? b->names[0] : NULL, b ? b->nnames[0] : 0, names,
		    count, "tt_backend_input_names");
}

int tt_backend_output_names(const tt_backend *b, const char *const **names,
			    unsigned *count)
{
	return list(b, b ? b->names[1] : NULL, b ? b->nnames[1] : 0, names,
		    count, "tt_backend_output_names");
}

int tt_backend_program_names(const tt_backend *b, const char *const **names,
			     unsigned *count)
{
	return list(b, b ? b->prog_names : NULL, b ? b->nprogs : 0, names,
		    count, "tt_backend_program_names");
}

/* ---- data ---- */

/* The queue behind a descriptor of the kind fn wants. */
static int desc_queue(const struct tt_io_desc *d, enum tt_io_kind want,
		      const char *fn, struct tt_backend_io **io)
{
	char show[TT_BACKEND_SHOW_BUF];

	if (!d || !d->io)
		return tt_error(-EINVAL, "%s: %s", fn,
				d ? "descriptor was not filled by "
				    "tt_backend_get_io"
				  : "descriptor is NULL");
	if (d->io->kind != want)
		return tt_error(-EINVAL, "%s: %s is an %s, not an %s", fn,
				tt_backend_show(show, d->io->name),
				kind_name(d->io->kind), kind_name(want));
	*io = d->io;
	return 0;
}

/* A tensor queue call's result, its message prefixed with the queue. */
static int io_result(int ret, const struct tt_backend_io *io, const char *fn)
{
	char show[TT_BACKEND_SHOW_BUF];

	if (!ret)
		return 0;
	return tt_error_wrap(ret, "%s: %s %s", fn, kind_name(io->kind),
			     tt_backend_show(show, io->name));
}

int tt_backend_push_input(const struct tt_io_desc *in, const tt_tensor *t,
			  int timeout_ms)
{
	static const char fn[] = "tt_backend_push_input";
	struct tt_backend_io *io;
	int ret = desc_queue(in, TT_IO_INPUT, fn, &io);

	if (ret)
		return ret;
	if (!t)
		return tt_error(-EINVAL, "%s: tensor is NULL", fn);
	return io_result(tt_tensor_queue_push(io->q, t, timeout_ms), io, fn);
}

int tt_backend_get_output(const struct tt_io_desc *out, int timeout_ms,
			  tt_tensor **t)
{
	static const char fn[] = "tt_backend_get_output";
	struct tt_backend_io *io;
	int ret = desc_queue(out, TT_IO_OUTPUT, fn, &io);

	if (ret)
		return ret;
	if (!t)
		return tt_error(-EINVAL, "%s: tensor pointer is NULL", fn);
	return io_result(tt_tensor_queue_get(io->q, timeout_ms, t), io, fn);
}

/*
 * Tensor queues pop without waiting; PyBuda's pop_output waits. An
 * empty queue is waited on with tt_tensor_queue_get (the queue's own
 * sleeps, interrupts and timeouts); the copy it makes is the price of
 * popping an entry nobody read, which PyBuda's flow never does.
 */
int tt_backend_pop_output(const struct tt_io_desc *out, int timeout_ms)
{
	static const char fn[] = "tt_backend_pop_output";
	struct tt_backend_io *io;
	tt_tensor *head;
	int ret = desc_queue(out, TT_IO_OUTPUT, fn, &io);

	if (ret)
		return ret;
	ret = tt_tensor_queue_pop(io->q);
	if (ret == -EAGAIN && timeout_ms != TT_TQ_NONBLOCK) {
		ret = tt_tensor_queue_get(io->q, timeout_ms, &head);
		if (!ret) {
			tt_tensor_free(head);
			ret = tt_tensor_queue_pop(io->q);
		}
	}
	return io_result(ret, io, fn);
}

void tt_backend_free_tensor(tt_tensor *t)
{
	tt_tensor_free(t);
}
