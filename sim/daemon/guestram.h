/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A QEMU guest's RAM, made by ttsim so that the model can reach it for
 * DMA (`ttsim run --ivshmem SOCK --guest-ram SIZE[,lowmem=BYTES]`,
 * docs/ttsim.md "Guest RAM").
 *
 * ttsim creates the RAM as a memfd of SIZE bytes, sealed against shrinking
 * and growing, and QEMU opens it by the path /proc/<ttsim pid>/fd/<n> as
 * its memory-backend-file (share=on). Both then map the same pages.
 *
 * A guest driver hands the device guest-physical addresses (no IOMMU in
 * the guest), so the model's host memory table (hostmem.h) gets the RAM at
 * its guest-physical addresses as two fixed regions. QEMU's `pc` machine
 * lays the backend out as
 *
 *   guest-physical [0, lowmem)                  file [0, lowmem)
 *   guest-physical [4 GiB, 4 GiB + SIZE-lowmem)  file [lowmem, SIZE)
 *
 * with the hole between lowmem and 4 GiB for PCI and firmware.
 */
#ifndef TT_SIM_GUESTRAM_H
#define TT_SIM_GUESTRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/model/hostmem.h"

#define SIM_GUEST_RAM_HIGH_BASE 0x100000000ull /* 4 GiB: RAM above lowmem */
#define SIM_GUEST_RAM_PAGE 0x1000ull
/* Largest guest RAM: QEMU moves RAM above 1 TiB on AMD hosts when it
 * would reach the HyperTransport hole below it (pc.c,
 * enforce_amd_1tb_hole); staying at half of that keeps the layout above
 * true on every host. */
#define SIM_GUEST_RAM_MAX (512ull << 30)

struct sim_guest_layout {
	uint64_t size; /* bytes of RAM, the memfd's size */
	uint64_t lowmem; /* bytes below 4 GiB; the rest starts at 4 GiB */
	bool lowmem_given; /* lowmem came from the spec, not QEMU's rule */
};

/* QEMU's default max-ram-below-4g on the pc machine: 3.5 GiB. */
#define SIM_GUEST_PC_MAX_BELOW_4G 0xe0000000ull

/*
 * QEMU 7.2's `pc` (i440fx) machine's RAM below 4 GiB for `size` bytes of
 * RAM and -machine pc,max-ram-below-4g=`max_below_4g` (0: not given, i.e.
 * SIM_GUEST_PC_MAX_BELOW_4G): max_below_4g, lowered to 3 GiB (gigabyte
 * alignment) when the RAM does not fit below it; all of the RAM when it
 * is smaller.
 */
uint64_t sim_guest_pc_split(uint64_t size, uint64_t max_below_4g);

/* The split QEMU's pc machine makes by default. */
uint64_t sim_guest_pc_lowmem(uint64_t size);

/*
 * Parse a byte count: digits, optionally followed by K, M, G or T (powers
 * of 1024, either case). Returns 0, or -EINVAL for anything else
 * (including an overflow).
 */
int sim_parse_bytes(const char *s, uint64_t *out);

/*
 * Parse "SIZE[,lowmem=BYTES]" (the --guest-ram argument). SIZE is a
 * multiple of 4 KiB from 4 KiB to SIM_GUEST_RAM_MAX; lowmem, if given, a
 * multiple of 4 KiB from 4 KiB to min(SIZE, 4 GiB); else
 * sim_guest_pc_lowmem(SIZE). Returns 0, or -EINVAL with a message naming
 * the bad part in err (SIM_ERR_LEN).
 */
int sim_guest_layout_parse(const char *spec, struct sim_guest_layout *out,
			   char *err);

/* A guest's RAM, made by sim_guest_ram_create(). */
struct sim_guest_ram {
	struct sim_guest_layout layout;
	int fd; /* the sealed memfd, kept open for QEMU to find */
	char path[64]; /* /proc/<pid>/fd/<fd>, for QEMU's mem-path */
};

/*
 * Make the memfd of layout->size bytes, sealed (F_SEAL_SHRINK,
 * F_SEAL_GROW, and F_SEAL_SEAL so that nobody can add a write seal under
 * the engine). Its pages cost nothing until touched. Returns 0 or a
 * negative errno with a message in err.
 */
int sim_guest_ram_create(const struct sim_guest_layout *layout,
			 struct sim_guest_ram **out, char *err);

/* Close the memfd (mappings made from it stay valid). NULL ok. */
void sim_guest_ram_destroy(struct sim_guest_ram *gr);

/*
 * Make the RAM reachable through hm at its guest-physical addresses: the
 * two fixed regions of the layout (hostmem.h), owned by no client.
 * Returns 0 or a negative errno with a message in err.
 */
int sim_guest_ram_attach(const struct sim_guest_ram *gr, struct sim_hostmem *hm,
			 char *err);

/*
 * QEMU's options for this RAM into buf: "-object memory-backend-file,...
 * -machine pc,memory-backend=ram0[,max-ram-below-4g=...] -m SIZE", with
 * max-ram-below-4g when the layout's lowmem is not pc's default. Returns
 * 0, or -ERANGE if no max-ram-below-4g makes pc split the RAM at lowmem
 * (the options are then those of the default split: the caller must set
 * up QEMU otherwise, e.g. another machine type).
 */
int sim_guest_ram_qemu_args(const struct sim_guest_ram *gr, char *buf,
			    size_t len);

#endif /* TT_SIM_GUESTRAM_H */
