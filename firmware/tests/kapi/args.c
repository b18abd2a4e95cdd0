// SPDX-License-Identifier: Apache-2.0
/*
 * Arguments and identity: writes what the kernel API says about them to
 * the L1 words at runtime argument 0 (the order is the host test's,
 * tests/unit/firmware/test_kapi.c). Built with compile-time arguments 7,11,13.
 */
#include "dataflow_api.h"

/* Globals must start fresh on every run: .data at its initial value,
 * .bss at zero. */
static uint32_t initialised = 100;
static uint32_t zeroed;

void kernel_main(void)
{
	volatile uint32_t *out = (volatile uint32_t *)get_arg_val(0);
	uint64_t self = get_noc_addr(0x1234);
	uint32_t n = 0;

	out[n++] = initialised++;
	out[n++] = zeroed++;
	out[n++] = get_arg_val(1);
	out[n++] = get_arg_val(2);
	out[n++] = get_common_arg_val(0);
	out[n++] = get_common_arg_val(1);
	out[n++] = get_arg_addr(1);
	out[n++] = get_common_arg_addr(0);
	out[n++] = get_compile_time_arg_val(0);
	out[n++] = get_compile_time_arg_val(1);
	out[n++] = get_compile_time_arg_val(2);
	out[n++] = KERNEL_COMPILE_TIME_ARG_COUNT;
	/* A variable index, checked at run time. */
	out[n++] = get_compile_time_arg_val(get_arg_val(3));
	out[n++] = get_absolute_logical_x();
	out[n++] = get_absolute_logical_y();
	out[n++] = get_relative_logical_x();
	out[n++] = get_relative_logical_y();
	out[n++] = my_x[0];
	out[n++] = my_y[0];
	out[n++] = my_x[noc_index];
	out[n++] = noc_index;
	out[n++] = (uint32_t)self;
	out[n++] = (uint32_t)(self >> 32);
	out[n++] = TT_KERNEL_PROC;
	out[n++] = 0xC0FFEE;
}
