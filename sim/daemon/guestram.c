// SPDX-License-Identifier: Apache-2.0
/*
 * A QEMU guest's RAM for device DMA (guestram.h).
 */
#include "guestram.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/model/image.h"

#define GIB (1ull << 30)
#define FIELD_LEN 32 /* longest SIZE or lowmem text accepted */
#define LOWMEM_KEY "lowmem="

/*
 * QEMU 7.2, hw/i386/pc_piix.c, pc_init1():
 *
 *   if (!pcms->max_ram_below_4g)
 *       pcms->max_ram_below_4g = 0xe0000000;  // default: 3.5G
 *   lowmem = pcms->max_ram_below_4g;
 *   if (machine->ram_size >= pcms->max_ram_below_4g)
 *       if (pcmc->gigabyte_align)            // every pc-i440fx >= 2.0
 *           if (lowmem > 0xc0000000)
 *               lowmem = 0xc0000000;
 *   below_4g_mem_size = ram_size >= lowmem ? lowmem : ram_size;
 *
 * Checked against QEMU 7.2.22's `info mtree` for -m 64M, 3072M (all
 * below), 3583M (all below, up to 0xdff00000) and 3584M, 4G (3 GiB below,
 * the rest at 4 GiB from file offset 3 GiB).
 */
uint64_t sim_guest_pc_split(uint64_t size, uint64_t max_below_4g)
{
	uint64_t max = max_below_4g ? max_below_4g : SIM_GUEST_PC_MAX_BELOW_4G;
	uint64_t lowmem = max;

	if (size >= max && lowmem > 3 * GIB)
		lowmem = 3 * GIB;
	return size >= lowmem ? lowmem : size;
}

uint64_t sim_guest_pc_lowmem(uint64_t size)
{
	return sim_guest_pc_split(size, 0);
}

/* --- parsing --- */

int sim_parse_bytes(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned shift = 0;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	}
	if (shift)
		end++;
	if (*end || v > UINT64_MAX >> shift)
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

/* The text of one comma-separated field into buf; false if too long. */
static bool take_field(const char *s, size_t len, char *buf)
{
	if (len >= FIELD_LEN)
		return false;
	memcpy(buf, s, len);
	buf[len] = 0;
	return true;
}

static int bad_size(const char *text, const char *why, char *err)
{
	snprintf(err, SIM_ERR_LEN, "guest RAM size '%.40s' %s", text, why);
	return -EINVAL;
}

static int parse_size(const char *s, size_t len, uint64_t *size, char *err)
{
	char text[FIELD_LEN];

	if (!take_field(s, len, text))
		return bad_size("...", "is too long", err);
	if (sim_parse_bytes(text, size))
		return bad_size(text,
				"is not a size: give bytes, or a number with K, M, G or T (512M, 4G)",
				err);
	if (!*size)
		return bad_size(text, "is zero", err);
	if (*size % SIM_GUEST_RAM_PAGE)
		return bad_size(text, "is not a multiple of 4 KiB", err);
	if (*size > SIM_GUEST_RAM_MAX)
		return bad_size(text, "is more than the 512 GiB the model supports",
				err);
	return 0;
}

static int bad_lowmem(const char *text, const char *why, char *err)
{
	snprintf(err, SIM_ERR_LEN, "lowmem=%.40s %s", text, why);
	return -EINVAL;
}

/* "lowmem=BYTES", the only option; RAM size already known. */
static int parse_option(const char *s, struct sim_guest_layout *l, char *err)
{
	size_t klen = strlen(LOWMEM_KEY);
	char text[FIELD_LEN];
	uint64_t v;

	if (strncmp(s, LOWMEM_KEY, klen)) {
		snprintf(err, SIM_ERR_LEN,
			 "unknown guest RAM option '%.40s': the only one is lowmem=BYTES",
			 s);
		return -EINVAL;
	}
	if (l->lowmem_given) {
		snprintf(err, SIM_ERR_LEN, "lowmem= is given twice");
		return -EINVAL;
	}
	s += klen;
	if (!take_field(s, strlen(s), text) || sim_parse_bytes(text, &v))
		return bad_lowmem(s, "is not a size: give bytes, or a number with K, M, G or T",
				  err);
	if (!v)
		return bad_lowmem(text, "is zero: a pc guest needs RAM below 4 GiB",
				  err);
	if (v % SIM_GUEST_RAM_PAGE)
		return bad_lowmem(text, "is not a multiple of 4 KiB", err);
	if (v > l->size)
		return bad_lowmem(text, "is more than the guest RAM size", err);
	if (v > SIM_GUEST_RAM_HIGH_BASE)
		return bad_lowmem(text, "is above 4 GiB", err);
	l->lowmem = v;
	l->lowmem_given = true;
	return 0;
}

int sim_guest_layout_parse(const char *spec, struct sim_guest_layout *out,
			   char *err)
{
	char opt[FIELD_LEN + sizeof(LOWMEM_KEY)];
	struct sim_guest_layout l = { 0 };
	size_t len = strcspn(spec, ",");
	int ret;

	ret = parse_size(spec, len, &l.size, err);
	for (spec += len; !ret && *spec; spec += len) {
		spec++; /* the comma */
		len = strcspn(spec, ",");
		if (!len) {
			snprintf(err, SIM_ERR_LEN, "empty guest RAM option (a stray comma)");
			return -EINVAL;
		}
		if (len >= sizeof(opt)) {
			snprintf(err, SIM_ERR_LEN, "guest RAM option '%.40s...' is too long",
				 spec);
			return -EINVAL;
		}
		memcpy(opt, spec, len);
		opt[len] = 0;
		ret = parse_option(opt, &l, err);
	}
	if (ret)
		return ret;
	if (!l.lowmem_given)
		l.lowmem = sim_guest_pc_lowmem(l.size);
	*out = l;
	return 0;
}

/* --- the memfd --- */

int sim_guest_ram_create(const struct sim_guest_layout *layout,
			 struct sim_guest_ram **out, char *err)
{
	struct sim_guest_ram *gr = calloc(1, sizeof(*gr));
	const char *what = "memfd_create";
	int ret = 0;

	if (!gr) {
		snprintf(err, SIM_ERR_LEN, "out of memory");
		return -ENOMEM;
	}
	gr->layout = *layout;
	gr->fd = memfd_create("ttsim-guest-ram", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (gr->fd < 0)
		ret = -errno;
	/* Sealed before anyone else can open it: QEMU (or anyone) cannot
	 * truncate it under the engine, which would kill us with SIGBUS. */
	if (!ret && ftruncate(gr->fd, (off_t)layout->size) < 0) {
		ret = -errno;
		what = "ftruncate";
	}
	if (!ret && fcntl(gr->fd, F_ADD_SEALS,
			  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		ret = -errno;
		what = "sealing";
	}
	if (ret) {
		snprintf(err, SIM_ERR_LEN, "cannot make %llu bytes of guest RAM (%s): %s",
			 (unsigned long long)layout->size, what, strerror(-ret));
		sim_guest_ram_destroy(gr);
		return ret;
	}
	snprintf(gr->path, sizeof(gr->path), "/proc/%ld/fd/%d", (long)getpid(),
		 gr->fd);
	*out = gr;
	return 0;
}

void sim_guest_ram_destroy(struct sim_guest_ram *gr)
{
	if (!gr)
		return;
	if (gr->fd >= 0)
		close(gr->fd);
	free(gr);
}

static int map_part(const struct sim_guest_ram *gr, struct sim_hostmem *hm,
		    uint64_t off, uint64_t gpa, uint64_t size, char *err)
{
	int ret = sim_hostmem_map_fixed(hm, gr->fd, off, gpa, size);

	if (ret)
		snprintf(err, SIM_ERR_LEN,
			 "cannot map guest RAM at guest-physical 0x%llx (%llu bytes): %s",
			 (unsigned long long)gpa, (unsigned long long)size,
			 strerror(-ret));
	return ret;
}

int sim_guest_ram_attach(const struct sim_guest_ram *gr,
			 struct sim_hostmem *hm, char *err)
{
	const struct sim_guest_layout *l = &gr->layout;
	int ret = map_part(gr, hm, 0, 0, l->lowmem, err);

	if (!ret && l->size > l->lowmem)
		ret = map_part(gr, hm, l->lowmem, SIM_GUEST_RAM_HIGH_BASE,
			       l->size - l->lowmem, err);
	return ret;
}

/* --- QEMU's options --- */

/* A size as QEMU reads it: the largest of T, G, M, K that divides it. */
static void format_size(char *buf, size_t len, uint64_t v)
{
	static const char unit[] = "KMGT";
	int u = 3;

	while (u >= 0 && v % (1ull << (10 * (u + 1))))
		u--;
	if (u < 0)
		snprintf(buf, len, "%lluB", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c",
			 (unsigned long long)(v >> (10 * (u + 1))), unit[u]);
}

/* The max-ram-below-4g that makes pc split at lowmem: 0 for the default,
 * UINT64_MAX if none does. */
static uint64_t pc_max_below(const struct sim_guest_layout *l)
{
	if (sim_guest_pc_lowmem(l->size) == l->lowmem)
		return 0;
	if (sim_guest_pc_split(l->size, l->lowmem) == l->lowmem)
		return l->lowmem;
	/* All of it below 4 GiB: a limit above the RAM keeps it whole. */
	if (sim_guest_pc_split(l->size, SIM_GUEST_RAM_HIGH_BASE) == l->lowmem)
		return SIM_GUEST_RAM_HIGH_BASE;
	return UINT64_MAX;
}

int sim_guest_ram_qemu_args(const struct sim_guest_ram *gr, char *buf,
			    size_t len)
{
	uint64_t max = pc_max_below(&gr->layout);
	char size[24], below[48] = "";

	format_size(size, sizeof(size), gr->layout.size);
	if (max && max != UINT64_MAX) {
		strcpy(below, ",max-ram-below-4g=");
		format_size(below + strlen(below), sizeof(below) - strlen(below),
			    max);
	}
	snprintf(buf, len,
		 "-object memory-backend-file,id=ram0,size=%s,mem-path=%s,share=on -machine pc,memory-backend=ram0%s -m %s",
		 size, gr->path, below, size);
	return max == UINT64_MAX ? -ERANGE : 0;
}
