/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arguments and identity, for every kind of kernel (TT-Metal's
 * tt_metal/hw/inc/api/dataflow/dataflow_api.h):
 *
 *   get_arg_val(i)            unique runtime argument i (uint32_t)
 *   get_arg_addr(i)           its L1 address
 *   get_common_arg_val(i)     common runtime argument i
 *   get_common_arg_addr(i)
 *   get_compile_time_arg_val(i)
 *   get_named_compile_time_arg_val("name")
 *   get_absolute_logical_x/y(), get_relative_logical_x/y()
 *   my_x[noc], my_y[noc]      this core's NOC 0 coordinates (base.h)
 *
 * TT-Metal's get_arg_val<T> is get_arg_val() returning uint32_t; cast for
 * other 4-byte types. An index at or past the number of arguments the
 * host set is reported and halts the kernel (TT-Metal checks this only
 * under its watcher).
 */
#ifndef TT_KERNEL_API_ARGS_H
#define TT_KERNEL_API_ARGS_H

#include "kernel_api/base.h"

__attribute__((noreturn)) void ttk_arg_fail(uint32_t i, bool common);

static inline uint32_t get_arg_val(uint32_t i)
{
	if (TTK_UNLIKELY(i >= ttk_arg_count(false)))
		ttk_arg_fail(i, false);
	return ttk_args(false)[i];
}

static inline uint32_t get_common_arg_val(uint32_t i)
{
	if (TTK_UNLIKELY(i >= ttk_arg_count(true)))
		ttk_arg_fail(i, true);
	return ttk_args(true)[i];
}

/* Addresses may point one past the last argument, as arrays do. */
static inline uint32_t get_arg_addr(uint32_t i)
{
	if (TTK_UNLIKELY(i > ttk_arg_count(false)))
		ttk_arg_fail(i, false);
	return (uint32_t)(uintptr_t)&ttk_args(false)[i];
}

static inline uint32_t get_common_arg_addr(uint32_t i)
{
	if (TTK_UNLIKELY(i > ttk_arg_count(true)))
		ttk_arg_fail(i, true);
	return (uint32_t)(uintptr_t)&ttk_args(true)[i];
}

/*
 * Compile-time arguments: the host passes KERNEL_COMPILE_TIME_ARGS=a,b,c
 * and KERNEL_COMPILE_TIME_ARG_COUNT=3. With a constant index the value
 * folds into the code, and an index past the count is a build error; a
 * variable index past the count is reported at run time.
 */
#ifndef KERNEL_COMPILE_TIME_ARG_COUNT
#define KERNEL_COMPILE_TIME_ARG_COUNT 0
#endif

static const uint32_t ttk_ct_args[KERNEL_COMPILE_TIME_ARG_COUNT + 1]
	__attribute__((unused)) = {
#ifdef KERNEL_COMPILE_TIME_ARGS
		KERNEL_COMPILE_TIME_ARGS
#endif
};

uint32_t ttk_ct_arg_out_of_range(void) __attribute__((error(
	"get_compile_time_arg_val(): index not below KERNEL_COMPILE_TIME_ARG_COUNT")));
__attribute__((noreturn)) void ttk_ct_arg_fail(uint32_t i, uint32_t count);

/* A variable and a "+ 1", so that a count of 0 draws no "always true"
 * warning; both fold all the same (the constant test even at -O0). */
static const uint32_t ttk_ct_arg_count __attribute__((unused)) =
	KERNEL_COMPILE_TIME_ARG_COUNT;

static inline uint32_t ttk_ct_arg(uint32_t i)
{
	if (TTK_UNLIKELY(i >= ttk_ct_arg_count))
		ttk_ct_arg_fail(i, ttk_ct_arg_count);
	return ttk_ct_args[i];
}

#define get_compile_time_arg_val(i)                                   \
	(__builtin_constant_p(i) ?                                    \
		 ((uint64_t)(i) + 1 > KERNEL_COMPILE_TIME_ARG_COUNT ? \
			  ttk_ct_arg_out_of_range() :                  \
			  ttk_ct_args[(i)]) :                          \
		 ttk_ct_arg(i))

/*
 * Named compile-time arguments: the host passes them as one X-macro,
 * KERNEL_NAMED_COMPILE_TIME_ARGS(X, s) = X(s, "a", 1u) X(s, "b", 2u) ...
 * get_named_compile_time_arg_val("a") compares its string literal with
 * every name (__builtin_strcmp of two literals folds, at -O0 too), so the
 * result is a constant wherever an integer constant is needed: static
 * initialisers, array sizes, case labels, _Static_assert. A name the host
 * did not give fails the build with a static assertion naming it:
 *   error: static assertion failed: "get_named_compile_time_arg_val(gamma):
 *   no named compile-time argument of this name"
 * The argument must be a string literal (it is pasted into the message).
 */
#ifndef KERNEL_NAMED_COMPILE_TIME_ARGS
#define KERNEL_NAMED_COMPILE_TIME_ARGS(X, s)
#endif

#define TTK_NAMED_IS(s, name, v) __builtin_strcmp((s), name) == 0 ||
#define TTK_NAMED_VAL(s, name, v) __builtin_strcmp((s), name) == 0 ? (v) :

#define get_named_compile_time_arg_val(name)                                 \
	((uint32_t)(0 * sizeof(struct {                                        \
		_Static_assert(KERNEL_NAMED_COMPILE_TIME_ARGS(TTK_NAMED_IS,    \
							      name) 0,         \
			       "get_named_compile_time_arg_val(" name          \
			       "): no named compile-time argument of this "    \
			       "name");                                        \
		int ttk_unused_;                                               \
	}) + (KERNEL_NAMED_COMPILE_TIME_ARGS(TTK_NAMED_VAL, name) 0u)))

/* The core in the host's logical coordinates. One sub-device: relative
 * and absolute coordinates are the same. */
static inline uint32_t get_absolute_logical_x(void)
{
	if (!ttk_logical_known)
		ttk_find_logical();
	return ttk_logical_x;
}

static inline uint32_t get_absolute_logical_y(void)
{
	if (!ttk_logical_known)
		ttk_find_logical();
	return ttk_logical_y;
}

static inline uint32_t get_relative_logical_x(void)
{
	return get_absolute_logical_x();
}

static inline uint32_t get_relative_logical_y(void)
{
	return get_absolute_logical_y();
}

#endif /* TT_KERNEL_API_ARGS_H */
