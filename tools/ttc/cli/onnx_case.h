/* SPDX-License-Identifier: Apache-2.0 */
/* One ONNX backend test case run on the goldens and on the device
 * (onnx_case.c), for ttc onnx-test (cmd_onnx_test.c). */
#ifndef TTC_ONNX_CASE_H
#define TTC_ONNX_CASE_H

#include <stdbool.h>
#include <stddef.h>

#include "tt/device.h"

enum onnx_result { ONNX_PASS, ONNX_FAIL, ONNX_UNSUPPORTED };

struct onnx_case_opts {
	double rtol, atol; /* the goldens' comparison */
	tt_device *dev;	   /* also on the device, when not NULL */
};

struct onnx_case_result {
	enum onnx_result cpu, device;
	bool ran_device; /* only a case that passes on the goldens does */
	size_t bound;	 /* integer inputs bound to the first set's values */
	char cpu_why[600], device_why[600];
};

/* Whether dir/name exists. */
bool onnx_case_exists(const char *dir, const char *name);
/* Runs the case in dir on every data set. */
void onnx_case_run(const char *dir, const struct onnx_case_opts *o,
		   struct onnx_case_result *r);

#endif /* TTC_ONNX_CASE_H */
