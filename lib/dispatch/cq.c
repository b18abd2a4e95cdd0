// SPDX-License-Identifier: Apache-2.0
#include "cq.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "launch.h"
#include "lib/program/program_internal.h"
#include "runtime.h"

#define DEFAULT_TIMEOUT_MS 10000

/* TT_PROGRAM_TIMEOUT_MS: up to a day. */
static int default_timeout(unsigned *ms)
{
	unsigned long v;
	int ret = tt_env_uint("TT_PROGRAM_TIMEOUT_MS", 0, 86400000ul,
			      DEFAULT_TIMEOUT_MS, &v);

	*ms = (unsigned)v;
	return ret;
}

int tt_device_command_queue(tt_device *dev, unsigned cq_id,
			    tt_command_queue **out)
{
	struct tt_runtime *rt;
	struct tt_command_queue *cq;
	unsigned timeout_ms;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	if (cq_id >= TT_CQ_MAX)
		return tt_error(-EINVAL,
				"%s: command queue %u does not exist (0..%u)",
				dev->name, cq_id, TT_CQ_MAX - 1);
	ret = default_timeout(&timeout_ms);
	if (ret)
		return ret;
	rt = tt_runtime_get(dev);
	if (!rt)
		return -ENOMEM;
	pthread_mutex_lock(&rt->cq_lock);
	cq = rt->cqs[cq_id];
	if (!cq) {
		cq = calloc(1, sizeof(*cq));
		if (cq) {
			cq->dev = dev;
			cq->id = cq_id;
			cq->timeout_ms = timeout_ms;
			rt->cqs[cq_id] = cq;
		}
	}
	pthread_mutex_unlock(&rt->cq_lock);
	if (!cq)
		return tt_error(-ENOMEM, "%s: out of memory for command queue %u",
				dev->name, cq_id);
	*out = cq;
	return 0;
}

void tt_cq_destroy_all(struct tt_device *dev)
{
	struct tt_runtime *rt = dev->runtime;

	if (rt->inflight.active)
		tt_launch_wait(dev, &rt->inflight.launch, 1000);
	free(rt->inflight.cores);
	rt->inflight.cores = NULL;
	for (unsigned i = 0; i < TT_CQ_MAX; i++) {
		free(rt->cqs[i]);
		rt->cqs[i] = NULL;
	}
}

void tt_command_queue_set_timeout(tt_command_queue *cq, unsigned timeout_ms)
{
	if (!TT_ARG_NULL(cq))
		cq->timeout_ms = timeout_ms;
}

/* A failure of a command that finished asynchronously, kept for the next
 * waiter. */
static void keep_error(struct tt_command_queue *cq, int err)
{
	if (cq->error)
		return;
	cq->error = err;
	strncpy(cq->error_msg, tt_last_error(), sizeof(cq->error_msg) - 1);
}

static int take_error(struct tt_command_queue *cq)
{
	int err = cq->error;

	if (!err)
		return 0;
	cq->error = 0;
	return tt_error(err, "%s", cq->error_msg);
}

/* Wait for the running program, if any (called with cq_lock held). */
static void settle(struct tt_runtime *rt, struct tt_device *dev)
{
	struct tt_inflight *f = &rt->inflight;
	int ret;

	if (!f->active)
		return;
	ret = tt_launch_wait(dev, &f->launch, f->cq->timeout_ms);
	f->active = false;
	if (ret)
		keep_error(f->cq, ret);
	f->cq->completed = f->seq;
}

/* Non-blocking check of the running program. */
static void poll_inflight(struct tt_runtime *rt, struct tt_device *dev)
{
	struct tt_inflight *f = &rt->inflight;

	if (f->active && tt_launch_poll(dev, &f->launch) != 0)
		settle(rt, dev);
}

/* Everything before the next command is done once the running program
 * is: the queue catches up. */
static void catch_up(struct tt_command_queue *cq)
{
	struct tt_runtime *rt = cq->dev->runtime;

	if (!rt->inflight.active || rt->inflight.cq != cq)
		cq->completed = cq->enqueued;
}

typedef int (*cq_work)(struct tt_command_queue *cq, void *arg);

/*
 * Run one command: wait for the running program, do the work, count the
 * command. A blocking command also reports an earlier asynchronous
 * failure of its queue.
 */
/* The callers have checked cq. */
static int run_command(struct tt_command_queue *cq, cq_work work, void *arg,
		       bool blocking)
{
	struct tt_runtime *rt;
	int ret;

	rt = cq->dev->runtime;
	pthread_mutex_lock(&rt->cq_lock);
	settle(rt, cq->dev);
	cq->enqueued++;
	ret = work(cq, arg);
	catch_up(cq);
	if (blocking) {
		settle(rt, cq->dev);
		if (!ret)
			ret = take_error(cq);
	}
	pthread_mutex_unlock(&rt->cq_lock);
	return ret;
}

struct xfer {
	tt_buffer *buf;
	void *host;
	uint64_t offset, size;
	bool write;
};

static int do_xfer(struct tt_command_queue *cq, void *arg)
{
	struct xfer *x = arg;

	(void)cq;
	return x->write ? tt_dispatch_buffer_write(x->buf, x->offset,
						   x->host, x->size) :
			  tt_dispatch_buffer_read(x->buf, x->offset, x->host,
						  x->size);
}

/* The whole buffer, [offset, offset + size), or the whole buffer whose
 * size the caller gives (it must be the buffer's). */
enum xfer_span { REGION, WHOLE, WHOLE_LEN };

/* fn is the caller's name; host is its src or dst. */
static int xfer(const char *fn, tt_command_queue *cq, tt_buffer *buf,
		void *host, uint64_t offset, uint64_t size, bool write,
		enum xfer_span span)
{
	struct xfer x = { buf, host, offset, size, write };

	if (TT_ARG_NULL_IN(fn, cq) || TT_ARG_NULL_IN(fn, buf))
		return -EINVAL;
	if (!host)
		return tt_arg_null(fn, write ? "src" : "dst");
	if (span != REGION)
		x.size = tt_dispatch_buffer_size(buf);
	if (span == WHOLE_LEN && size != x.size)
		return tt_error(-EINVAL,
				"%s: %llu bytes given for a buffer of %llu bytes (use the sub-buffer calls for part of it)",
				fn, (unsigned long long)size,
				(unsigned long long)x.size);
	/* Reads always complete before returning: the data is only useful
	 * once it is there, and a later blocking call would wait anyway. */
	return run_command(cq, do_xfer, &x, true);
}

int tt_enqueue_write_buffer(tt_command_queue *cq, tt_buffer *buf,
			    const void *src, bool blocking)
{
	(void)blocking;
	return xfer(__func__, cq, buf, (void *)src, 0, 0, true, WHOLE);
}

int tt_enqueue_write_buffer_len(tt_command_queue *cq, tt_buffer *buf,
				const void *src, size_t len, bool blocking)
{
	(void)blocking;
	return xfer(__func__, cq, buf, (void *)src, 0, len, true, WHOLE_LEN);
}

int tt_enqueue_read_buffer(tt_command_queue *cq, tt_buffer *buf, void *dst,
			   bool blocking)
{
	(void)blocking;
	return xfer(__func__, cq, buf, dst, 0, 0, false, WHOLE);
}

int tt_enqueue_read_buffer_len(tt_command_queue *cq, tt_buffer *buf,
			       void *dst, size_t len, bool blocking)
{
	(void)blocking;
	return xfer(__func__, cq, buf, dst, 0, len, false, WHOLE_LEN);
}

int tt_enqueue_write_sub_buffer(tt_command_queue *cq, tt_buffer *buf,
				const void *src, uint64_t offset,
				uint64_t size, bool blocking)
{
	(void)blocking;
	return xfer(__func__, cq, buf, (void *)src, offset, size, true,
		    REGION);
}

int tt_enqueue_read_sub_buffer(tt_command_queue *cq, tt_buffer *buf,
			       void *dst, uint64_t offset, uint64_t size,
			       bool blocking)
{
	(void)blocking;
	return xfer(__func__, cq, buf, dst, offset, size, false, REGION);
}

static int do_program(struct tt_command_queue *cq, void *arg)
{
	struct tt_runtime *rt = cq->dev->runtime;
	struct tt_inflight *f = &rt->inflight;
	struct tt_launch_core *cores;
	unsigned n;
	int ret;

	ret = tt_dispatch_program_cores(arg, cq->dev, &cores, &n);
	if (ret)
		return ret;
	free(f->cores);
	f->cores = cores;
	f->launch = (struct tt_launch){ .cores = cores, .ncores = n,
					.program_id = tt_program_id(arg) };
	ret = tt_launch_start(cq->dev, &f->launch);
	if (ret)
		return ret;
	f->active = true;
	f->cq = cq;
	f->seq = cq->enqueued;
	return 0;
}

int tt_enqueue_program(tt_command_queue *cq, tt_program *prog, bool blocking)
{
	TT_CHECK_ARG(cq);
	if (!prog)
		return tt_error(-EINVAL, "tt_enqueue_program: program is NULL");
	if (!cq->dev->runtime)
		return tt_error(-EINVAL, "tt_enqueue_program: bad queue");
	return run_command(cq, do_program, prog, blocking);
}

int tt_finish(tt_command_queue *cq)
{
	int ret;

	if (!cq)
		return tt_error(-EINVAL, "tt_finish: command queue is NULL");
	pthread_mutex_lock(&cq->dev->runtime->cq_lock);
	settle(cq->dev->runtime, cq->dev);
	cq->completed = cq->enqueued;
	ret = take_error(cq);
	pthread_mutex_unlock(&cq->dev->runtime->cq_lock);
	return ret;
}

int tt_synchronize(tt_device *dev)
{
	int ret = 0;

	if (!dev)
		return tt_error(-EINVAL, "tt_synchronize: device is NULL");
	if (!dev->runtime)
		return 0;
	for (unsigned i = 0; i < TT_CQ_MAX; i++) {
		struct tt_command_queue *cq = dev->runtime->cqs[i];
		int r = cq ? tt_finish(cq) : 0;

		if (!ret)
			ret = r;
	}
	return ret;
}

int tt_event_create(tt_event **out)
{
	if (!out)
		return tt_error(-EINVAL, "tt_event_create: out is NULL");
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : tt_error(-ENOMEM, "out of memory for an event");
}

void tt_event_free(tt_event *ev)
{
	free(ev);
}

static int do_record(struct tt_command_queue *cq, void *arg)
{
	struct tt_event *ev = arg;

	ev->cq = cq;
	ev->seq = cq->enqueued;
	return 0;
}

int tt_enqueue_record_event(tt_command_queue *cq, tt_event *ev)
{
	if (!ev)
		return tt_error(-EINVAL, "tt_enqueue_record_event: event is NULL");
	/* Recording must not wait for the running program: it is what the
	 * host polls instead of waiting. */
	if (!cq)
		return tt_error(-EINVAL,
				"tt_enqueue_record_event: command queue is NULL");
	pthread_mutex_lock(&cq->dev->runtime->cq_lock);
	cq->enqueued++;
	do_record(cq, ev);
	catch_up(cq);
	pthread_mutex_unlock(&cq->dev->runtime->cq_lock);
	return 0;
}

static int check_recorded(const char *fn, tt_event *ev)
{
	if (!ev)
		return tt_error(-EINVAL, "%s: event is NULL", fn);
	if (!ev->cq)
		return tt_error(-EINVAL, "%s: event was never recorded", fn);
	return 0;
}

int tt_enqueue_wait_for_event(tt_command_queue *cq, tt_event *ev)
{
	int ret = check_recorded("tt_enqueue_wait_for_event", ev);

	if (ret)
		return ret;
	if (!cq)
		return tt_error(-EINVAL,
				"tt_enqueue_wait_for_event: command queue is NULL");
	if (ev->cq->dev != cq->dev)
		return tt_error(-EINVAL,
				"tt_enqueue_wait_for_event: event of %s, queue of %s",
				ev->cq->dev->name, cq->dev->name);
	/* Later commands of cq start only after ev: with one program
	 * running at a time on the device, waiting for it here is exactly
	 * that. */
	return tt_event_synchronize(ev);
}

int tt_event_synchronize(tt_event *ev)
{
	struct tt_command_queue *cq;
	struct tt_runtime *rt;
	int ret = check_recorded("tt_event_synchronize", ev);

	if (ret)
		return ret;
	cq = ev->cq;
	rt = cq->dev->runtime;
	pthread_mutex_lock(&rt->cq_lock);
	if (cq->completed < ev->seq)
		settle(rt, cq->dev);
	catch_up(cq);
	ret = take_error(cq);
	pthread_mutex_unlock(&rt->cq_lock);
	return ret;
}

int tt_event_query(tt_event *ev)
{
	struct tt_command_queue *cq;
	struct tt_runtime *rt;
	int ret = check_recorded("tt_event_query", ev);

	if (ret)
		return ret;
	cq = ev->cq;
	rt = cq->dev->runtime;
	pthread_mutex_lock(&rt->cq_lock);
	if (cq->completed < ev->seq)
		poll_inflight(rt, cq->dev);
	catch_up(cq);
	ret = cq->completed >= ev->seq;
	pthread_mutex_unlock(&rt->cq_lock);
	return ret;
}
