// SPDX-License-Identifier: Apache-2.0
#include "hostmem.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "hw/pcie.h"

#define BUS_ALIGN 0x1000ull

void sim_hostmem_init(struct sim_hostmem *hm)
{
	memset(hm, 0, sizeof(*hm));
	pthread_rwlock_init(&hm->lock, NULL);
	hm->next_id = 1;
}

static void unmap_slot(struct sim_hostmem_region *r)
{
	munmap(r->ptr, r->size);
	memset(r, 0, sizeof(*r));
}

void sim_hostmem_fini(struct sim_hostmem *hm)
{
	for (unsigned i = 0; i < SIM_HOSTMEM_MAX; i++)
		if (hm->regions[i].id)
			unmap_slot(&hm->regions[i]);
	pthread_rwlock_destroy(&hm->lock);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Lowest free bus range of `size` bytes (first fit); 0 if none. Bus
 * addresses are never 0, since SIM_BUS_BASE is not. */
static uint64_t find_bus_gap(const struct sim_hostmem *hm, uint64_t size)
{
	uint64_t cand = SIM_BUS_BASE, end = SIM_BUS_BASE + TT_PCIE_HOST_WINDOW_SIZE;
	bool moved = true;

	while (moved) {
		moved = false;
		for (unsigned i = 0; i < SIM_HOSTMEM_MAX; i++) {
			const struct sim_hostmem_region *r = &hm->regions[i];

			if (r->id && r->bus < cand + size &&
			    cand < r->bus + align_up(r->size, BUS_ALIGN)) {
				cand = r->bus + align_up(r->size, BUS_ALIGN);
				moved = true;
			}
		}
	}
	return cand + size <= end ? cand : 0;
}

static struct sim_hostmem_region *free_slot(struct sim_hostmem *hm)
{
	for (unsigned i = 0; i < SIM_HOSTMEM_MAX; i++)
		if (!hm->regions[i].id)
			return &hm->regions[i];
	return NULL;
}

/*
 * The engine touches these pages at any time, so every one of them must
 * exist for as long as the mapping does: the file must hold `end` bytes
 * and be sealed against shrinking, or a page gone would kill this process
 * with SIGBUS. fcntl fails on anything that cannot carry seals.
 */
static int check_backing(int fd, uint64_t end)
{
	int seals = fcntl(fd, F_GET_SEALS);
	struct stat st;

	if (seals < 0 || !(seals & F_SEAL_SHRINK))
		return -EPERM;
	if (fstat(fd, &st) < 0)
		return -errno;
	return (uint64_t)st.st_size < end ? -ERANGE : 0;
}

/* Fill free slot r, under the write lock; returns its id (never 0). */
static uint32_t take_slot(struct sim_hostmem *hm, struct sim_hostmem_region *r,
			  uint64_t owner, uint64_t bus, uint64_t size, void *p)
{
	*r = (struct sim_hostmem_region){
		.id = hm->next_id++,
		.owner = owner,
		.bus = bus,
		.size = size,
		.ptr = p,
	};
	if (!hm->next_id)
		hm->next_id = 1;
	return r->id;
}

int sim_hostmem_map(struct sim_hostmem *hm, int fd, uint64_t size,
		    uint64_t owner, uint32_t *id, uint64_t *bus)
{
	struct sim_hostmem_region *r;
	uint64_t addr;
	void *p;
	int ret = 0;

	if (!size || size > TT_PCIE_HOST_WINDOW_SIZE ||
	    owner == SIM_HOSTMEM_FIXED)
		return -EINVAL;
	ret = check_backing(fd, size);
	if (ret)
		return ret;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	pthread_rwlock_wrlock(&hm->lock);
	r = free_slot(hm);
	addr = r ? find_bus_gap(hm, size) : 0;
	if (!addr) {
		ret = -ENOSPC;
		munmap(p, size);
		goto out;
	}
	*id = take_slot(hm, r, owner, addr, size, p);
	*bus = addr;
out:
	pthread_rwlock_unlock(&hm->lock);
	return ret;
}

static bool overlaps_any(const struct sim_hostmem *hm, uint64_t bus,
			 uint64_t size)
{
	for (unsigned i = 0; i < SIM_HOSTMEM_MAX; i++) {
		const struct sim_hostmem_region *r = &hm->regions[i];

		if (r->id && r->bus < bus + size && bus < r->bus + r->size)
			return true;
	}
	return false;
}

static bool page_aligned(uint64_t v)
{
	return !(v & (BUS_ALIGN - 1));
}

int sim_hostmem_map_fixed(struct sim_hostmem *hm, int fd, uint64_t off,
			  uint64_t bus, uint64_t size)
{
	struct sim_hostmem_region *r;
	void *p;
	int ret;

	/* Below SIM_BUS_BASE, which also rules out wrapping around. */
	if (!size || !page_aligned(off | bus | size) || bus > SIM_BUS_BASE ||
	    size > SIM_BUS_BASE - bus || off > UINT64_MAX - size)
		return -EINVAL;
	ret = check_backing(fd, off + size);
	if (ret)
		return ret;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)off);
	if (p == MAP_FAILED)
		return -errno;
	pthread_rwlock_wrlock(&hm->lock);
	r = free_slot(hm);
	ret = !r ? -ENOSPC : overlaps_any(hm, bus, size) ? -EEXIST : 0;
	if (ret)
		munmap(p, size);
	else
		take_slot(hm, r, SIM_HOSTMEM_FIXED, bus, size, p);
	pthread_rwlock_unlock(&hm->lock);
	return ret;
}

int sim_hostmem_unmap(struct sim_hostmem *hm, uint32_t id, uint64_t owner)
{
	int ret = -ENOENT;

	if (owner == SIM_HOSTMEM_FIXED)
		return ret;
	pthread_rwlock_wrlock(&hm->lock);
	for (unsigned i = 0; id && i < SIM_HOSTMEM_MAX; i++) {
		if (hm->regions[i].id == id && hm->regions[i].owner == owner) {
			unmap_slot(&hm->regions[i]);
			ret = 0;
			break;
		}
	}
	pthread_rwlock_unlock(&hm->lock);
	return ret;
}

unsigned sim_hostmem_release_owner(struct sim_hostmem *hm, uint64_t owner)
{
	unsigned n = 0;

	if (owner == SIM_HOSTMEM_FIXED)
		return 0;
	pthread_rwlock_wrlock(&hm->lock);
	for (unsigned i = 0; i < SIM_HOSTMEM_MAX; i++) {
		if (hm->regions[i].id && hm->regions[i].owner == owner) {
			unmap_slot(&hm->regions[i]);
			n++;
		}
	}
	pthread_rwlock_unlock(&hm->lock);
	return n;
}

uint8_t *sim_hostmem_get(struct sim_hostmem *hm, uint64_t bus, uint64_t len)
{
	pthread_rwlock_rdlock(&hm->lock);
	for (unsigned i = 0; i < SIM_HOSTMEM_MAX; i++) {
		const struct sim_hostmem_region *r = &hm->regions[i];

		if (r->id && bus >= r->bus && bus - r->bus < r->size &&
		    len <= r->size - (bus - r->bus))
			return r->ptr + (bus - r->bus);
	}
	pthread_rwlock_unlock(&hm->lock);
	return NULL;
}

void sim_hostmem_put(struct sim_hostmem *hm)
{
	pthread_rwlock_unlock(&hm->lock);
}
