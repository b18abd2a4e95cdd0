/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Start-up code of the firmware images (not of kernels). The linker script
 * puts .text.start first, so the image's entry is its first word; it
 * defines __stack_top (the top of the image's region) and the word-aligned
 * bounds of .bss.
 */
	.option norelax
	.section .text.start, "ax"
	.globl _start
	.type _start, @function
_start:
	la	sp, __stack_top
	/* The loader zeroes .bss too, but a hart that is reset and
	 * released again without a reload must not see the last run's. */
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
2:	call	main
	/* main does not return; if it does, halt where the host can see it. */
3:	ebreak
	j	3b
	.size _start, . - _start
