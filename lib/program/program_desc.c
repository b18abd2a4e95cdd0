// SPDX-License-Identifier: Apache-2.0
/*
 * Program descriptors: the imperative calls, made in the documented order
 * (tt/program_desc.h), with errors prefixed by the element.
 */
#include <errno.h>
#include <string.h>

#include "program_internal.h"
#include "tt/program_desc.h"

/* fn, in every helper, is the name the caller called the constructor by
 * (tt_program_create_from_descriptor or its alias), for the messages. */

static int add_cb(const char *fn, tt_program *p,
		  const struct tt_cb_descriptor *d, unsigned i)
{
	struct tt_circular_buffer_config c = {
		.total_size = d->total_size,
		.format_count = d->format_count,
		.buffer = d->buffer,
	};
	tt_cb_handle h;
	int ret;

	if (d->format_count > TT_NUM_CIRCULAR_BUFFERS ||
	    (d->format_count && !d->format_descriptors))
		return tt_error(-EINVAL,
				"%s: cbs[%u]: %u format descriptors at %p",
				fn, i, d->format_count,
				(const void *)d->format_descriptors);
	if (d->format_count)
		memcpy(c.formats, d->format_descriptors,
		       d->format_count * sizeof(c.formats[0]));
	ret = tt_create_circular_buffer(p, d->core_ranges, &c, &h);
	return ret ? tt_error_wrap(ret, "%s: cbs[%u]", fn, i) : 0;
}

static int add_sem(const char *fn, tt_program *p,
		   const struct tt_semaphore_descriptor *d, unsigned i)
{
	int ret = tt_create_semaphore_id(p, d->core_ranges, d->initial_value,
					 d->core_type, d->id,
					 "tt_create_semaphore");

	return ret ? tt_error_wrap(ret, "%s: semaphores[%u]", fn, i) : 0;
}

static int add_kernel(tt_program *p, const struct tt_kernel_descriptor *d)
{
	tt_kernel_handle k;
	int ret;

	switch (d->source_type) {
	case TT_SOURCE_FILE_PATH:
		ret = tt_create_kernel(p, d->kernel_source, d->core_ranges,
				       &d->config, &k);
		break;
	case TT_SOURCE_CODE:
		ret = tt_create_kernel_from_string(p, d->kernel_source,
						   d->core_ranges, &d->config,
						   &k);
		break;
	default:
		return tt_error(-EINVAL, "source type %d does not exist",
				(int)d->source_type);
	}
	if (!ret && d->runtime_args_count)
		ret = tt_set_runtime_args_per_core(p, k, d->runtime_args,
						   d->runtime_args_count);
	if (!ret && d->common_runtime_args_count)
		ret = tt_set_common_runtime_args(p, k, d->common_runtime_args,
						 d->common_runtime_args_count);
	return ret;
}

static int check_arrays(const char *fn, const struct tt_program_descriptor *d)
{
	if ((d->kernel_count && !d->kernels) ||
	    (d->semaphore_count && !d->semaphores) || (d->cb_count && !d->cbs))
		return tt_error(-EINVAL,
				"%s: %u kernels at %p, %u semaphores at %p, %u CBs at %p",
				fn, d->kernel_count, (const void *)d->kernels,
				d->semaphore_count, (const void *)d->semaphores,
				d->cb_count, (const void *)d->cbs);
	return 0;
}

static int fill(const char *fn, tt_program *p,
		const struct tt_program_descriptor *d)
{
	int ret;

	for (unsigned i = 0; i < d->cb_count; i++) {
		ret = add_cb(fn, p, &d->cbs[i], i);
		if (ret)
			return ret;
	}
	for (unsigned i = 0; i < d->semaphore_count; i++) {
		ret = add_sem(fn, p, &d->semaphores[i], i);
		if (ret)
			return ret;
	}
	for (unsigned i = 0; i < d->kernel_count; i++) {
		ret = add_kernel(p, &d->kernels[i]);
		if (ret)
			return tt_error_wrap(ret, "%s: kernels[%u]", fn, i);
	}
	return 0;
}

static int program_from_descriptor(const char *fn,
				   const struct tt_program_descriptor *d,
				   tt_program **out)
{
	tt_program *p;
	int ret;

	if (TT_ARG_NULL_IN(fn, d) || TT_ARG_NULL_IN(fn, out))
		return -EINVAL;
	ret = check_arrays(fn, d);
	if (!ret)
		ret = tt_program_create(&p);
	if (ret)
		return ret;
	ret = fill(fn, p, d);
	if (ret) {
		tt_program_free(p);
		return ret;
	}
	*out = p;
	return 0;
}

int tt_program_create_from_descriptor(const struct tt_program_descriptor *d,
				      tt_program **out)
{
	return program_from_descriptor(__func__, d, out);
}

int tt_create_program_from_descriptor(const struct tt_program_descriptor *d,
				      tt_program **out)
{
	return program_from_descriptor(__func__, d, out);
}
