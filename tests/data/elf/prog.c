// SPDX-License-Identifier: Apache-2.0
/*
 * A small hart program for tests/unit/common/test_elf.c, which builds it with
 * riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32 -ffreestanding
 * -nostdlib -T prog.ld: code, initialised data and bss, so the linked file
 * has a code segment, a data segment with a zero-filled tail, and
 * non-loadable program headers (RISC-V attributes) to skip.
 */
volatile unsigned counter = 5;
unsigned table[64];

__attribute__((noinline)) static unsigned work(unsigned n)
{
	return n * n + counter;
}

__attribute__((section(".text.start"), noreturn)) void _start(void)
{
	for (unsigned i = 0; i < 64; i++)
		table[i] = work(i);
	for (;;)
		__asm__ volatile("wfi");
}
