/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the op library's suites (test_ops_*.c) share: the fixture (a booted
 * device and an op context, in *state), refusals with their message,
 * TRY, the seeded generator, a device tensor's values.
 */
#ifndef TT_TESTS_OPS_TESTUTIL_H
#define TT_TESTS_OPS_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tt/ops.h"

struct fx {
	tt_device *dev;
	tt_ops_ctx *ctx;
};

#define TRY(e)                                                       \
	do {                                                         \
		int r_ = (e);                                        \
		if (r_)                                              \
			fail_msg("%s: %d %s", #e, r_, tt_last_error()); \
	} while (0)

static inline void expect_error(int ret, int code, const char *text)
{
	if (ret != code)
		fail_msg("got %d, want %d (%s)", ret, code, tt_last_error());
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

static inline uint32_t seed_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* The device tensor's values as Float32 (after tt_ops_finish). */
static inline float *dev_values(struct fx *f, tt_device_tensor *dt, size_t *n)
{
	tt_tensor *t = NULL;
	float *v;

	TRY(tt_ops_finish(f->ctx));
	TRY(tt_tensor_create(tt_device_tensor_shape(dt), TT_FLOAT32,
			     TT_TENSOR_ROW_MAJOR, &t));
	TRY(tt_device_tensor_read(dt, NULL, t));
	*n = tt_tensor_volume(t);
	v = malloc(*n * sizeof(float));
	assert_non_null(v);
	memcpy(v, tt_tensor_data(t), *n * sizeof(float));
	tt_tensor_free(t);
	return v;
}

static inline int fx_up(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	void *dev;

	if (!f || booted_up(&dev))
		return -1;
	f->dev = dev;
	if (tt_ops_ctx_create(f->dev, &f->ctx)) {
		fprintf(stderr, "# %s\n", tt_last_error());
		return -1;
	}
	*state = f;
	return 0;
}

static inline int fx_down(void **state)
{
	struct fx *f = *state;

	tt_ops_ctx_free(f->ctx);
	tt_device_close(f->dev);
	free(f);
	return 0;
}

#endif /* TT_TESTS_OPS_TESTUTIL_H */
