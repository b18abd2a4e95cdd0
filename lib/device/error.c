// SPDX-License-Identifier: Apache-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "common/dev_err.h"
#include "internal.h"

static _Thread_local char last_error[4096] = "no error";

const char *tt_last_error(void)
{
	return last_error;
}

int tt_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return code;
}

int tt_arg_null(const char *fn, const char *arg)
{
	return tt_error(-EINVAL, "%s: %s is NULL", fn, arg);
}

int tt_error_device(const struct tt_dev_error *rec)
{
	dev_err_format(rec, last_error, sizeof(last_error));
	return -EFAULT;
}
