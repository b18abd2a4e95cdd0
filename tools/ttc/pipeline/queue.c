// SPDX-License-Identifier: Apache-2.0
/*
 * Output queues (PyBuda's output_queue): a FIFO of each input's outputs
 * that a caller pops, waiting with a timeout, from any thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "internal.h"

struct entry {
	struct ttc_outputs o;
	struct entry *next;
};

struct ttc_output_queue {
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct entry *head, **tail;
	size_t n;
};

ttc_output_queue *ttc_output_queue_new(void)
{
	ttc_output_queue *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->more, NULL);
	q->tail = &q->head;
	return q;
}

void ttc_outputs_release(struct ttc_outputs *o)
{
	for (size_t i = 0; o && i < o->n; i++)
		ttc_tensor_free(o->t[i]);
	if (o) {
		free(o->t);
		o->t = NULL;
		o->n = 0;
	}
}

void ttc_output_queue_free(ttc_output_queue *q)
{
	struct entry *e, *next;

	if (!q)
		return;
	for (e = q->head; e; e = next) {
		next = e->next;
		ttc_outputs_release(&e->o);
		free(e);
	}
	pthread_cond_destroy(&q->more);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

size_t ttc_output_queue_size(ttc_output_queue *q)
{
	size_t n;

	pthread_mutex_lock(&q->lock);
	n = q->n;
	pthread_mutex_unlock(&q->lock);
	return n;
}

int pl_queue_push(ttc_output_queue *q, ttc_tensor **t, size_t n)
{
	struct entry *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	e->o = (struct ttc_outputs){t, n};
	pthread_mutex_lock(&q->lock);
	*q->tail = e;
	q->tail = &e->next;
	q->n++;
	pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&q->lock);
	return 0;
}

int ttc_output_queue_pop(ttc_output_queue *q, int timeout_ms,
			 struct ttc_outputs *out)
{
	struct timespec until;
	struct entry *e;
	int ret = 0;

	if (!q || !out)
		return -EINVAL;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&q->lock);
	while (!q->head && ret != ETIMEDOUT)
		ret = timeout_ms < 0 ? pthread_cond_wait(&q->more, &q->lock)
				     : pthread_cond_timedwait(&q->more,
							      &q->lock, &until);
	e = q->head;
	if (e) {
		q->head = e->next;
		if (!q->head)
			q->tail = &q->head;
		q->n--;
	}
	pthread_mutex_unlock(&q->lock);
	if (!e)
		return -ETIMEDOUT;
	*out = e->o;
	free(e);
	return 0;
}
