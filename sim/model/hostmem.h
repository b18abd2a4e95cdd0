/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host memory the device can reach: the model's stand-in for the host's
 * IOMMU. Buffers owned by host processes (memfds) are mapped here and given
 * bus addresses; the PCIe node's ATU (hw/pcie.h) turns host-window NOC
 * addresses into bus addresses, and this table turns bus addresses into
 * memory. An address with nothing behind it is a device error, never a
 * host crash.
 *
 * Two kinds of regions share the table:
 *   - DMA buffers of the daemon's clients (sim_hostmem_map): bus addresses
 *     handed out from SIM_BUS_BASE, released with their owner;
 *   - fixed regions (sim_hostmem_map_fixed) at bus addresses the caller
 *     chooses below SIM_BUS_BASE: a QEMU guest's RAM at its guest-physical
 *     addresses (guestram.h). They belong to no client and stay until
 *     sim_hostmem_fini().
 *
 * Only the process that runs the device's engines holds this table.
 */
#ifndef TT_SIM_HOSTMEM_H
#define TT_SIM_HOSTMEM_H

#include <pthread.h>
#include <stdint.h>

#define SIM_HOSTMEM_MAX 256
/*
 * Bus addresses handed out to DMA buffers start here; the ATU's region 0
 * maps the whole host window onto [SIM_BUS_BASE, + 32 GiB). It lies far
 * above any guest-physical address of a QEMU guest's RAM (at most
 * SIM_GUEST_RAM_MAX above 4 GiB, guestram.h), which a guest driver maps
 * with the ATU's other regions, so the two never collide. 2^46 (64 TiB)
 * also stays clear of the 1 TiB boundary where QEMU relocates RAM on AMD
 * hosts, and of any RAM an x86 guest with 46 physical address bits has.
 */
#define SIM_BUS_BASE (1ull << 46)

/* The owner of fixed regions: no client (clients' tags are nonzero). */
#define SIM_HOSTMEM_FIXED 0

struct sim_hostmem_region {
	uint32_t id; /* 0 = free slot */
	uint64_t owner; /* who mapped it; released with the owner */
	uint64_t bus;
	uint64_t size;
	uint8_t *ptr;
};

struct sim_hostmem {
	/* Protects regions[] and next_id. Engines hold it shared while they
	 * copy, so a buffer cannot be unmapped under a transfer. */
	pthread_rwlock_t lock;
	struct sim_hostmem_region regions[SIM_HOSTMEM_MAX];
	uint32_t next_id;
};

void sim_hostmem_init(struct sim_hostmem *hm);
/* Unmap every region. */
void sim_hostmem_fini(struct sim_hostmem *hm);

/*
 * Map `size` bytes of the shared-memory object fd (not consumed) and give
 * it a bus address. The object must be sealed against shrinking
 * (F_SEAL_SHRINK), so the engine can never touch a page that is gone.
 * Returns 0 and fills *id and *bus, or -EINVAL (bad size), -EPERM (not a
 * sealed memfd), -ERANGE (the file is smaller than size), -ENOSPC (table
 * or bus space full), or the mmap error.
 */
int sim_hostmem_map(struct sim_hostmem *hm, int fd, uint64_t size,
		    uint64_t owner, uint32_t *id, uint64_t *bus);

/*
 * Map `size` bytes of fd (not consumed) from file offset `off` at bus
 * addresses [bus, bus + size), owned by no client (SIM_HOSTMEM_FIXED):
 * only sim_hostmem_fini() removes it. bus, off and size must be multiples
 * of 4 KiB and the range must end at or below SIM_BUS_BASE, so fixed
 * regions never meet the buffers handed out above it. The file must be
 * sealed against shrinking, as for sim_hostmem_map. Returns 0, -EINVAL
 * (bad range), -EPERM (not sealed), -ERANGE (the file is too small),
 * -EEXIST (overlaps a region), -ENOSPC (table full), or the mmap error.
 */
int sim_hostmem_map_fixed(struct sim_hostmem *hm, int fd, uint64_t off,
			  uint64_t bus, uint64_t size);

/* Unmap region id of owner; -ENOENT if owner has no such region. Fixed
 * regions are nobody's to unmap. */
int sim_hostmem_unmap(struct sim_hostmem *hm, uint32_t id, uint64_t owner);

/* Unmap every region of owner; returns how many. Fixed regions stay. */
unsigned sim_hostmem_release_owner(struct sim_hostmem *hm, uint64_t owner);

/*
 * Memory behind [bus, bus + len), or NULL if no single region holds it all.
 * On success the table stays read-locked until sim_hostmem_put().
 */
uint8_t *sim_hostmem_get(struct sim_hostmem *hm, uint64_t bus, uint64_t len);
void sim_hostmem_put(struct sim_hostmem *hm);

#endif /* TT_SIM_HOSTMEM_H */
