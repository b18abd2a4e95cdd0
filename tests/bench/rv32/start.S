/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry of the bench-hart image: a0 (the round count) is set by the host.
 * Clears .bss, sets the stack, calls workload(a0) and stops with ebreak,
 * leaving the result in a0.
 */
	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, __stack_top
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
2:	call	workload
	ebreak
