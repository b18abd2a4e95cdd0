/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry of a kernel (fw/kernel.h): the first word of the image, so a
 * launcher can use the load address as the entry point. It sets up
 * nothing: the core firmware's stack is the kernel's, and arguments pass
 * straight through in a0/a1.
 */
	.option norelax
	.section .text.start, "ax"
	.globl _start
	.type _start, @function
_start:
	j	kmain
	.size _start, . - _start
