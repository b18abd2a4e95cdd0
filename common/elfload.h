/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A strict reader for the programs harts run: 32-bit little-endian RISC-V
 * ELF executables (ELFCLASS32, ELFDATA2LSB, ET_EXEC, EM_RISCV), as made by
 * riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32. Host only.
 *
 * The file is untrusted input: every offset, size and address is checked,
 * overflow-safe, before use, and nothing is read outside [data, data+len).
 * Loading does not copy: segments point into the caller's buffer, which
 * must outlive the image.
 */
#ifndef TT_COMMON_ELFLOAD_H
#define TT_COMMON_ELFLOAD_H

#include <stddef.h>
#include <stdint.h>

#define ELF_MAX_SEGMENTS 16

/* Segment permissions (the values of ELF's PF_X, PF_W, PF_R). */
#define ELF_SEG_X 0x1u
#define ELF_SEG_W 0x2u
#define ELF_SEG_R 0x4u

/* One loadable segment: filesz bytes from the file at vaddr, then
 * memsz - filesz zero bytes. */
struct elf_segment {
	uint32_t vaddr;
	const uint8_t
		*file_data; /* inside the loaded buffer; NULL if filesz 0 */
	uint32_t filesz;
	uint32_t memsz; /* >= filesz, > 0 */
	uint32_t flags; /* ELF_SEG_* (other bits as in the file) */
};

struct elf_image {
	uint32_t entry; /* inside the file data of an executable segment */
	unsigned count; /* 1..ELF_MAX_SEGMENTS */
	struct elf_segment seg[ELF_MAX_SEGMENTS]; /* in program header order,
						   * pairwise disjoint */
};

/*
 * Read an executable from data[0..len). Program headers other than PT_LOAD
 * are ignored, as are PT_LOAD headers with memsz 0. Besides the layout
 * checks, refuses files built for instructions or ABIs a hart lacks
 * (compressed instructions, hard float, RV32E), a misaligned entry point,
 * and more than ELF_MAX_SEGMENTS segments.
 *
 * Returns 0, -ENOEXEC (not an ELF file, or not a 32-bit little-endian
 * RISC-V executable) or -EINVAL (malformed), with a message naming the
 * problem in err (errlen bytes; err may be NULL). On failure *out is
 * zeroed.
 */
int elf_load(const void *data, size_t len, struct elf_image *out, char *err,
	     size_t errlen);

/*
 * Check that every segment of img lies within [lo, hi). Returns 0 or
 * -ERANGE with a message naming the first segment outside.
 */
int elf_check_fits(const struct elf_image *img, uint32_t lo, uint32_t hi,
		   char *err, size_t errlen);

#endif /* TT_COMMON_ELFLOAD_H */
