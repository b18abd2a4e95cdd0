/* SPDX-License-Identifier: Apache-2.0 */
/* Milliseconds for tests that poll processes and files with deadlines. */
#ifndef TT_TESTS_CLOCK_H
#define TT_TESTS_CLOCK_H

#include <time.h>

/* CLOCK_MONOTONIC in milliseconds. */
static inline long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

#endif /* TT_TESTS_CLOCK_H */
