/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry of a program kernel: the first byte of its slot (ld/kernel_*.ld).
 * The core firmware calls it as entry(args, nargs) on its own stack, with
 * args = the hart's struct tt_kernel_ctx (hw/l1.h).
 *
 * Globals must start fresh on every launch, also when the host runs a
 * program again without writing its binary again. The loader puts the
 * initial .data at its run address, so the first run after a load keeps
 * a copy of it (in .ttk_copy) and marks __ttk_once; every later run puts
 * the copy back. A new load rewrites __ttk_once with 0. .bss is zeroed
 * every time. Then ttk_main(ctx, nargs) (kruntime.c) runs the kernel and
 * returns straight to the firmware: ra is the firmware's.
 */
	.option norelax

	/* Loaded as 0; 1 once the initial data has been copied away. */
	.section .ttk.once, "aw"
	.balign 4
	.globl __ttk_once
__ttk_once:
	.word 0

	.section .text.start, "ax"
	.globl _start
	.type _start, @function
_start:
	/* a0-a3 are left alone for ttk_main. */
	la	t0, __ttk_data_start
	la	t1, __ttk_data_end
	/* Most kernels have no .data: nothing to keep or put back. */
	beq	t0, t1, 5f
	la	t2, __ttk_data_copy
	la	t3, __ttk_once
	lw	t4, 0(t3)
	bnez	t4, 2f
	/* First run after a load: .data -> copy, then mark. */
1:	bgeu	t0, t1, 3f
	lw	t5, 0(t0)
	sw	t5, 0(t2)
	addi	t0, t0, 4
	addi	t2, t2, 4
	j	1b
3:	li	t4, 1
	sw	t4, 0(t3)
	j	5f
	/* Later runs: copy -> .data. */
2:	bgeu	t0, t1, 5f
	lw	t5, 0(t2)
	sw	t5, 0(t0)
	addi	t0, t0, 4
	addi	t2, t2, 4
	j	2b
5:	la	t0, __ttk_bss_start
	la	t1, __ttk_bss_end
	beq	t0, t1, 7f
	/* Four words a turn while they fit (every kernel start pays this),
	 * then word by word. */
	addi	t2, t1, -16
6:	bgtu	t0, t2, 8f
	sw	zero, 0(t0)
	sw	zero, 4(t0)
	sw	zero, 8(t0)
	sw	zero, 12(t0)
	addi	t0, t0, 16
	j	6b
8:	bgeu	t0, t1, 7f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	8b
7:	tail	ttk_main
	.size _start, . - _start
