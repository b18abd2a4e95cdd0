// SPDX-License-Identifier: Apache-2.0
#include "scratch.h"

#include <pthread.h>
#include <stdlib.h>

struct slot {
	void *buf;
	size_t cap;
};

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int key_err;

/* Thread exit: every slot of the thread. */
static void release(void *p)
{
	struct slot *s = p;

	for (unsigned i = 0; i < SIM_SCRATCH_SLOTS; i++)
		free(s[i].buf);
	free(s);
}

static void make_key(void)
{
	key_err = pthread_key_create(&key, release);
}

void *sim_scratch(enum sim_scratch_slot slot, size_t bytes)
{
	struct slot *s;
	void *p;

	if ((unsigned)slot >= SIM_SCRATCH_SLOTS)
		return NULL;
	pthread_once(&once, make_key);
	if (key_err)
		return NULL;
	s = pthread_getspecific(key);
	if (!s) {
		s = calloc(SIM_SCRATCH_SLOTS, sizeof(*s));
		if (!s || pthread_setspecific(key, s)) {
			free(s);
			return NULL;
		}
	}
	if (s[slot].cap >= bytes && s[slot].buf)
		return s[slot].buf;
	if (posix_memalign(&p, 64, bytes ? bytes : 64))
		return NULL;
	free(s[slot].buf);
	s[slot].buf = p;
	s[slot].cap = bytes;
	return p;
}
