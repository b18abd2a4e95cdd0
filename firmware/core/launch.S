/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Entering and leaving a kernel (core.c). The firmware never returns into
 * its own frames after a kernel, so neither sp nor any callee-saved
 * register has to survive the kernel: both directions reload sp from
 * __stack_top (ld/fw.ld).
 */
	.option norelax
	.text

	/* run_kernel(args a0, nargs a1, hart a2, node_id a3, entry a4):
	 * entry(args, nargs, hart, node_id). */
	.globl run_kernel
	.type run_kernel, @function
run_kernel:
	la	sp, __stack_top
	la	ra, kernel_return
	jr	a4
	.size run_kernel, . - run_kernel

	/* The kernel returns here with its result in a0. */
	.type kernel_return, @function
kernel_return:
	la	sp, __stack_top
	j	kernel_done
	.size kernel_return, . - kernel_return
