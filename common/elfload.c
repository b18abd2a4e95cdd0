// SPDX-License-Identifier: Apache-2.0
/*
 * Strict RV32 ELF executable reader (elf.h). Fields are read byte by byte
 * at their offsets in the file, so the code assumes neither the host's
 * byte order nor the buffer's alignment. All range arithmetic is done in
 * 64 bits, where 32-bit fields cannot overflow.
 *
 * The format's numbers are spelled out here (from the ELF specification
 * and the RISC-V psABI) rather than taken from glibc's <elf.h>: this
 * directory is on the include path as well, and its elf.h would shadow
 * the system one.
 */
#include "elfload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* e_ident */
#define EI_CLASS 4
#define EI_DATA 5
#define EI_VERSION 6
#define ELFCLASS32 1
#define ELFDATA2LSB 1
#define EV_CURRENT 1

/* Elf32_Ehdr field offsets */
#define EH_TYPE 16
#define EH_MACHINE 18
#define EH_VERSION 20
#define EH_ENTRY 24
#define EH_PHOFF 28
#define EH_FLAGS 36
#define EH_EHSIZE 40
#define EH_PHENTSIZE 42
#define EH_PHNUM 44
#define EHDR_SIZE 52u

/* Elf32_Phdr field offsets */
#define PH_TYPE 0
#define PH_OFFSET 4
#define PH_VADDR 8
#define PH_FILESZ 16
#define PH_MEMSZ 20
#define PH_FLAGS 24
#define PHDR_SIZE 32u

#define ET_EXEC 2
#define ET_DYN 3
#define EM_RISCV 243
#define PT_LOAD 1
#define PN_XNUM 0xFFFFu /* real count elsewhere: not supported */

/* RISC-V e_flags */
#define EF_RISCV_RVC 0x1u
#define EF_RISCV_FLOAT_ABI 0x6u
#define EF_RISCV_RVE 0x8u

static uint32_t get16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t get32(const uint8_t *p)
{
	return get16(p) | get16(p + 2) << 16;
}

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* What the loader needs from the file header, once checked. */
struct ehdr_info {
	uint32_t entry, phoff, phnum;
};

/* e_ident and the fields that say what kind of file this is. */
static int check_identity(const uint8_t *d, size_t len, char *err,
			  size_t errlen)
{
	uint32_t type, machine;

	if (len < EHDR_SIZE)
		return fail(err, errlen, -ENOEXEC,
			    "file is %zu bytes, shorter than the %u-byte ELF "
			    "header",
			    len, EHDR_SIZE);
	if (memcmp(d, "\177ELF", 4) != 0)
		return fail(err, errlen, -ENOEXEC,
			    "not an ELF file (bad magic)");
	if (d[EI_CLASS] != ELFCLASS32)
		return fail(err, errlen, -ENOEXEC,
			    "ELF class %u, not ELFCLASS32 (32-bit)",
			    d[EI_CLASS]);
	if (d[EI_DATA] != ELFDATA2LSB)
		return fail(err, errlen, -ENOEXEC,
			    "data encoding %u, not ELFDATA2LSB (little-endian)",
			    d[EI_DATA]);
	if (d[EI_VERSION] != EV_CURRENT)
		return fail(err, errlen, -ENOEXEC,
			    "ELF ident version %u, not %u", d[EI_VERSION],
			    EV_CURRENT);
	machine = get16(d + EH_MACHINE);
	if (machine != EM_RISCV)
		return fail(err, errlen, -ENOEXEC,
			    "e_machine %u, not EM_RISCV (%u)", machine,
			    EM_RISCV);
	type = get16(d + EH_TYPE);
	if (type != ET_EXEC)
		return fail(err, errlen, -ENOEXEC,
			    "e_type %u, not ET_EXEC (%u)%s", type, ET_EXEC,
			    type == ET_DYN ? ": a shared object or PIE; link "
					     "with -static -no-pie"
					   : "");
	return 0;
}

/* e_flags: refuse what an RV32IM hart cannot run. */
static int check_flags(uint32_t flags, char *err, size_t errlen)
{
	if (flags & EF_RISCV_RVC)
		return fail(err, errlen, -ENOEXEC,
			    "e_flags 0x%x: built for compressed instructions "
			    "(RVC); harts are RV32IM",
			    flags);
	if (flags & EF_RISCV_FLOAT_ABI)
		return fail(err, errlen, -ENOEXEC,
			    "e_flags 0x%x: hard-float ABI; harts have no FPU "
			    "(use -mabi=ilp32)",
			    flags);
	if (flags & EF_RISCV_RVE)
		return fail(err, errlen, -ENOEXEC,
			    "e_flags 0x%x: RV32E ABI; harts are RV32IM", flags);
	return 0;
}

static int check_ehdr(const uint8_t *d, size_t len, struct ehdr_info *h,
		      char *err, size_t errlen)
{
	uint32_t v, ehsize, phentsize;
	uint64_t phend;
	int ret;

	ret = check_identity(d, len, err, errlen);
	if (ret)
		return ret;
	v = get32(d + EH_VERSION);
	if (v != EV_CURRENT)
		return fail(err, errlen, -EINVAL, "e_version %u, not %u", v,
			    EV_CURRENT);
	ret = check_flags(get32(d + EH_FLAGS), err, errlen);
	if (ret)
		return ret;
	ehsize = get16(d + EH_EHSIZE);
	if (ehsize != EHDR_SIZE)
		return fail(err, errlen, -EINVAL, "e_ehsize %u, expected %u",
			    ehsize, EHDR_SIZE);
	h->entry = get32(d + EH_ENTRY);
	h->phoff = get32(d + EH_PHOFF);
	h->phnum = get16(d + EH_PHNUM);
	phentsize = get16(d + EH_PHENTSIZE);
	if (h->phnum == 0)
		return fail(err, errlen, -EINVAL, "no program headers");
	if (h->phnum == PN_XNUM)
		return fail(err, errlen, -EINVAL,
			    "extended program header numbering (e_phnum "
			    "0x%x) is not supported",
			    PN_XNUM);
	if (phentsize != PHDR_SIZE)
		return fail(err, errlen, -EINVAL, "e_phentsize %u, expected %u",
			    phentsize, PHDR_SIZE);
	phend = (uint64_t)h->phoff + (uint64_t)h->phnum * PHDR_SIZE;
	if (phend > len)
		return fail(err, errlen, -EINVAL,
			    "program headers 0x%x+%u*%u run past the end of "
			    "the 0x%zx-byte file",
			    h->phoff, h->phnum, PHDR_SIZE, len);
	return 0;
}

/* One PT_LOAD header (index i) on its own; fills *s. */
static int read_segment(const uint8_t *d, size_t len, const uint8_t *ph,
			unsigned i, struct elf_segment *s, char *err,
			size_t errlen)
{
	uint32_t offset = get32(ph + PH_OFFSET);

	s->vaddr = get32(ph + PH_VADDR);
	s->filesz = get32(ph + PH_FILESZ);
	s->memsz = get32(ph + PH_MEMSZ);
	s->flags = get32(ph + PH_FLAGS);
	if (s->filesz > s->memsz)
		return fail(err, errlen, -EINVAL,
			    "segment %u: filesz 0x%x exceeds memsz 0x%x", i,
			    s->filesz, s->memsz);
	if (s->filesz && (uint64_t)offset + s->filesz > len)
		return fail(
			err, errlen, -EINVAL,
			"segment %u: file range 0x%x+0x%x runs past the end "
			"of the 0x%zx-byte file",
			i, offset, s->filesz, len);
	if ((uint64_t)s->vaddr + s->memsz > 0x100000000ull)
		return fail(err, errlen, -EINVAL,
			    "segment %u: 0x%x+0x%x wraps the 32-bit address "
			    "space",
			    i, s->vaddr, s->memsz);
	s->file_data = s->filesz ? d + offset : NULL;
	return 0;
}

static bool overlap(const struct elf_segment *a, const struct elf_segment *b)
{
	return (uint64_t)a->vaddr < (uint64_t)b->vaddr + b->memsz &&
	       (uint64_t)b->vaddr < (uint64_t)a->vaddr + a->memsz;
}

/* Collect the PT_LOAD segments; phdr[k] is the header index of seg[k]. */
static int read_segments(const uint8_t *d, size_t len,
			 const struct ehdr_info *h, struct elf_image *img,
			 unsigned *phdr, char *err, size_t errlen)
{
	for (unsigned i = 0; i < h->phnum; i++) {
		const uint8_t *ph = d + h->phoff + (size_t)i * PHDR_SIZE;
		struct elf_segment s;
		int ret;

		if (get32(ph + PH_TYPE) != PT_LOAD || get32(ph + PH_MEMSZ) == 0)
			continue;
		ret = read_segment(d, len, ph, i, &s, err, errlen);
		if (ret)
			return ret;
		for (unsigned k = 0; k < img->count; k++)
			if (overlap(&img->seg[k], &s))
				return fail(err, errlen, -EINVAL,
					    "segments %u and %u overlap: "
					    "0x%x+0x%x and 0x%x+0x%x",
					    phdr[k], i, img->seg[k].vaddr,
					    img->seg[k].memsz, s.vaddr,
					    s.memsz);
		if (img->count == ELF_MAX_SEGMENTS)
			return fail(err, errlen, -EINVAL,
				    "segment %u: more than %u loadable "
				    "segments",
				    i, ELF_MAX_SEGMENTS);
		phdr[img->count] = i;
		img->seg[img->count++] = s;
	}
	if (img->count == 0)
		return fail(err, errlen, -EINVAL,
			    "no loadable segment (PT_LOAD)");
	return 0;
}

/* The entry point must be an instruction the file provides. */
static int check_entry(const struct elf_image *img, const unsigned *phdr,
		       char *err, size_t errlen)
{
	uint32_t e = img->entry;

	if (e & 3)
		return fail(err, errlen, -EINVAL,
			    "entry point 0x%x is not 4-byte aligned", e);
	for (unsigned k = 0; k < img->count; k++) {
		const struct elf_segment *s = &img->seg[k];

		if (e < s->vaddr || e - s->vaddr >= s->memsz)
			continue;
		if (!(s->flags & ELF_SEG_X))
			return fail(err, errlen, -EINVAL,
				    "entry point 0x%x is in segment %u, which "
				    "is not executable",
				    e, phdr[k]);
		if (e - s->vaddr >= s->filesz)
			return fail(err, errlen, -EINVAL,
				    "entry point 0x%x is in segment %u past "
				    "its file data (0x%x+0x%x)",
				    e, phdr[k], s->vaddr, s->filesz);
		return 0;
	}
	return fail(err, errlen, -EINVAL,
		    "entry point 0x%x is outside every segment", e);
}

int elf_load(const void *data, size_t len, struct elf_image *out, char *err,
	     size_t errlen)
{
	const uint8_t *d = data;
	unsigned phdr[ELF_MAX_SEGMENTS];
	struct ehdr_info h = {0};
	int ret;

	memset(out, 0, sizeof(*out));
	if (!d)
		len = 0;
	ret = check_ehdr(d, len, &h, err, errlen);
	if (!ret)
		ret = read_segments(d, len, &h, out, phdr, err, errlen);
	if (!ret) {
		out->entry = h.entry;
		ret = check_entry(out, phdr, err, errlen);
	}
	if (ret)
		memset(out, 0, sizeof(*out));
	return ret;
}

int elf_check_fits(const struct elf_image *img, uint32_t lo, uint32_t hi,
		   char *err, size_t errlen)
{
	for (unsigned k = 0; k < img->count && k < ELF_MAX_SEGMENTS; k++) {
		const struct elf_segment *s = &img->seg[k];

		if (s->vaddr < lo || (uint64_t)s->vaddr + s->memsz > hi)
			return fail(err, errlen, -ERANGE,
				    "segment at 0x%x+0x%x lies outside "
				    "[0x%x, 0x%x)",
				    s->vaddr, s->memsz, lo, hi);
	}
	return 0;
}
