/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host memory the device can reach: the model's stand-in for the host's
 * IOMMU. Buffers owned by host processes (memfds) are mapped here and given
 * bus addresses; the PCIe node's ATU (hw/pcie.h) turns host-window NOC
 * addresses into bus addresses, and this table turns bus addresses into
 * memory. An address with nothing behind it is a device error, never a
 * host crash.
 *
 * Only the process that runs the device's engines holds this table.
 */
#ifndef TT_SIM_HOSTMEM_H
#define TT_SIM_HOSTMEM_H

#include <pthread.h>
#include <stdint.h>

#define SIM_HOSTMEM_MAX 256
/* Bus addresses handed out; the ATU's default region maps the whole
 * host window onto this range. */
#define SIM_BUS_BASE 0x100000000ull

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

/* Unmap region id of owner; -ENOENT if owner has no such region. */
int sim_hostmem_unmap(struct sim_hostmem *hm, uint32_t id, uint64_t owner);

/* Unmap every region of owner; returns how many. */
unsigned sim_hostmem_release_owner(struct sim_hostmem *hm, uint64_t owner);

/*
 * Memory behind [bus, bus + len), or NULL if no single region holds it all.
 * On success the table stays read-locked until sim_hostmem_put().
 */
uint8_t *sim_hostmem_get(struct sim_hostmem *hm, uint64_t bus, uint64_t len);
void sim_hostmem_put(struct sim_hostmem *hm);

#endif /* TT_SIM_HOSTMEM_H */
