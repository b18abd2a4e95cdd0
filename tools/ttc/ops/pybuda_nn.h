/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PyBuda's convolutions and pools (ops/pybuda_nn.c): how their
 * attributes give a window, shared by shape inference and the goldens so
 * both read "same" padding and the layouts alike.
 */
#ifndef TTC_OPS_PYBUDA_NN_H
#define TTC_OPS_PYBUDA_NN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ttc/ir.h"

/* A window: kernel, stride, dilation, padding [top, left, bottom, right]. */
struct pybuda_window {
	int64_t k[2], s[2], d[2], p[4];
};

/*
 * The window of attributes stride and dilation (an integer or [h, w])
 * and padding: absent or "same" (the input's extent divided by the
 * stride, rounded up, comes out; the odd pixel of padding goes high), an
 * integer for every side, or [left, right, top, bottom] (PyBuda's
 * order), over an input of extents x[2] (height, width) with kernel
 * k[2]. 0, or -EINVAL with the reason in err.
 */
int pybuda_window(const ttc_attr *stride, const ttc_attr *dilation,
		  const ttc_attr *padding, const int64_t *k, const int64_t *x,
		  struct pybuda_window *w, char *err, size_t len);

/* Which dimension is N, H, W, C: NCHW, or NHWC with channel_last. */
void pybuda_layout(bool channel_last, unsigned *l);

#endif /* TTC_OPS_PYBUDA_NN_H */
