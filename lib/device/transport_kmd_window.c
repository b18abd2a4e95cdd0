// SPDX-License-Identifier: Apache-2.0
/*
 * Host windows of the kmd transport (lib/device/README.md "The kmd transport").
 *
 * One rule decides how an access travels: it is decoded against the
 * checked copy of the device's node table with the contract's decoder
 * (hw/decode.h), the one the chip model uses too. Node memory goes through
 * the fd's TLB window (ALLOCATE_TLB, CONFIGURE_TLB, a write-combined
 * mmap), the path a card has. On a card, registers go through the same
 * window's uncached mapping as aligned 32-bit words, the PCIe node's host
 * window through the write-combined one, multicast through a multicast
 * TLB configuration, and an access the decoder refuses is reported
 * without reaching the device. On the ivshmem mock every access but node
 * memory is the mock's business (transport_kmd_mock.c), as is waking the
 * model after a memory write.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "hw/decode.h"
#include "transport_kmd.h"

/* Window sizes to ask for, largest first: a whole L1 fits the first. */
static const uint64_t tlb_sizes[] = {16ull << 20, 2ull << 20, 1ull << 20};

int tt_kmd_window_open(struct tt_device *dev)
{
	struct kmd *k = kmd_of(dev);
	struct tenstorrent_allocate_tlb a;
	void *p;

	for (unsigned i = 0; i < sizeof(tlb_sizes) / sizeof(tlb_sizes[0]);
	     i++) {
		memset(&a, 0, sizeof(a));
		a.in.size = tlb_sizes[i];
		if (ioctl(k->fd, TENSTORRENT_IOCTL_ALLOCATE_TLB, &a) == 0)
			break;
		a.in.size = 0;
	}
	if (!a.in.size)
		return tt_error(-errno,
				"%s: no TLB window of 16, 2 or 1 MiB: %s",
				dev->name, strerror(errno));
	k->tlb_id = a.out.id;
	k->tlb_size = a.in.size;
	p = mmap(NULL, k->tlb_size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 (off_t)a.out.mmap_offset_wc);
	if (p == MAP_FAILED)
		return tt_error(-errno, "%s: cannot map TLB window %u: %s",
				dev->name, k->tlb_id, strerror(errno));
	k->tlb = p;
	if (k->mock)
		return 0; /* its register pages would be SIGBUS */
	p = mmap(NULL, k->tlb_size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 (off_t)a.out.mmap_offset_uc);
	if (p == MAP_FAILED)
		return tt_error(-errno,
				"%s: cannot map TLB window %u uncached: %s",
				dev->name, k->tlb_id, strerror(errno));
	k->tlb_uc = p;
	return 0;
}

/* The window itself goes back to the driver when the fd is closed. */
void tt_kmd_window_close(struct tt_device *dev)
{
	struct kmd *k = kmd_of(dev);

	if (k->tlb)
		munmap(k->tlb, k->tlb_size);
	if (k->tlb_uc)
		munmap((void *)k->tlb_uc, k->tlb_size);
	k->tlb = NULL;
	k->tlb_uc = NULL;
}

uint64_t tt_kmd_window_size(struct tt_device *dev)
{
	return kmd_of(dev)->tlb_size;
}

int tt_kmd_window_configure(struct tt_device *dev, struct tt_window *w,
			 const struct tt_window_config *cfg)
{
	(void)w;
	if (cfg->x > TT_NOC_MAX_COORD || cfg->y > TT_NOC_MAX_COORD ||
	    cfg->x_start > TT_NOC_MAX_COORD || cfg->y_start > TT_NOC_MAX_COORD)
		return tt_error(-EINVAL,
				"%s: NOC coordinates %u-%u out of range",
				dev->name, cfg->x, cfg->y);
	/* The TLB is pointed lazily, at the first memory access. */
	return 0;
}

/* Point the TLB at cfg, unless it points there already. */
static int point_tlb(struct tt_device *dev,
		     const struct tenstorrent_noc_tlb_config *cfg)
{
	struct kmd *k = kmd_of(dev);
	struct tenstorrent_configure_tlb c = {.in.id = k->tlb_id,
					      .in.config = *cfg};

	if (k->tlb_set && !memcmp(&k->tlb_cfg, cfg, sizeof(*cfg)))
		return 0;
	k->tlb_set = false;
	if (ioctl(k->fd, TENSTORRENT_IOCTL_CONFIGURE_TLB, &c))
		return -errno;
	k->tlb_cfg = *cfg;
	k->tlb_set = true;
	return 0;
}

/* Point the TLB at NOC 0 node (x, y), local address base. */
static int point_unicast(struct tt_device *dev, unsigned x, unsigned y,
			 uint64_t base)
{
	struct tenstorrent_noc_tlb_config cfg = {
		.addr = base,
		.x_end = (uint16_t)x,
		.y_end = (uint16_t)y,
	};
	int ret = point_tlb(dev, &cfg);

	if (ret)
		return tt_error(
			ret, "%s: CONFIGURE_TLB of window %u to %u-%u %#llx: %s",
			dev->name, kmd_of(dev)->tlb_id, x, y,
			(unsigned long long)base, strerror(-ret));
	return 0;
}

/* A refused access, as the device records and reports it. */
static int refused(const struct tt_window_config *c, uint64_t addr,
		   size_t len, enum tt_dev_op op, enum tt_dev_err e)
{
	struct tt_dev_error rec = {
		.code = (uint8_t)e,
		.op = (uint8_t)op,
		.noc = (uint8_t)c->noc,
		.initiator_x = TT_DEV_INITIATOR_HOST,
		.initiator_y = TT_DEV_INITIATOR_HOST,
		.target_x = (uint8_t)c->x,
		.target_y = (uint8_t)c->y,
		.len = (uint32_t)len,
		.addr = addr,
	};

	return tt_error_device(&rec);
}

/* Node memory, or a card's host window: the write-combined mapping. */
static int memory_access(struct tt_device *dev, struct tt_window *w,
			 uint64_t off, const struct tt_node_desc *n, void *buf,
			 size_t len, bool write)
{
	struct kmd *k = kmd_of(dev);
	int ret = point_unicast(dev, n->x, n->y, w->cfg.base);

	if (ret)
		return ret;
	if (!write) {
		memcpy(buf, k->tlb + off, len);
		return 0;
	}
	memcpy(k->tlb + off, buf, len);
	if (k->mock)
		tt_kmd_mock_mem_written(dev, n->x, n->y);
	return 0;
}

/* A card's registers: whole aligned words through the uncached mapping
 * (the contract's rule for register accesses, hw/tile.h). */
static int register_access(struct tt_device *dev, struct tt_window *w,
			   uint64_t off, const struct tt_node_desc *n,
			   void *buf, size_t len, bool write)
{
	struct kmd *k = kmd_of(dev);
	volatile uint32_t *reg;
	uint32_t v;
	int ret;

	if (off % 4 || len % 4)
		return refused(&w->cfg, w->cfg.base + off, len,
			       write ? TT_DEV_OP_WRITE : TT_DEV_OP_READ,
			       TT_DEV_ERR_ALIGN);
	ret = point_unicast(dev, n->x, n->y, w->cfg.base);
	if (ret)
		return ret;
	reg = k->tlb_uc + off / 4;
	for (size_t i = 0; i < len / 4; i++) {
		if (write) {
			memcpy(&v, (uint8_t *)buf + 4 * i, 4);
			reg[i] = v;
		} else {
			v = reg[i];
			memcpy((uint8_t *)buf + 4 * i, &v, 4);
		}
	}
	return 0;
}

/* A card's multicast: the driver configures the rectangle, or says why
 * not (EOPNOTSUPP where it cannot multicast). */
static int multicast(struct tt_device *dev, struct tt_window *w, uint64_t off,
		     const void *buf, size_t len)
{
	const struct tt_window_config *c = &w->cfg;
	struct tenstorrent_noc_tlb_config cfg = {
		.addr = c->base,
		.x_end = (uint16_t)c->x,
		.y_end = (uint16_t)c->y,
		.x_start = (uint16_t)c->x_start,
		.y_start = (uint16_t)c->y_start,
		.noc = (uint8_t)c->noc,
		.mcast = 1,
	};
	int ret = point_tlb(dev, &cfg);

	if (ret)
		return tt_error(ret,
				"%s: multicast to %u-%u..%u-%u on NOC %u through the driver: %s",
				dev->name, c->x_start, c->y_start, c->x, c->y,
				c->noc, strerror(-ret));
	memcpy(kmd_of(dev)->tlb + off, buf, len);
	return 0;
}

/* On the mock: the model's rules and side effects, the error logged. */
static int mock_access(struct tt_device *dev, const struct tt_window_config *c,
		       uint64_t addr, void *buf, size_t len, enum tt_dev_op op)
{
	enum tt_dev_err e = tt_kmd_mock_access(dev, c, addr, buf, len, op);

	return e ? refused(c, addr, len, op, e) : 0;
}

static int window_access(struct tt_device *dev, struct tt_window *w,
			 uint64_t off, void *buf, size_t len, enum tt_dev_op op)
{
	struct kmd *k = kmd_of(dev);
	const struct tt_window_config *c = &w->cfg;
	uint64_t addr = c->base + off;
	bool write = op != TT_DEV_OP_READ;
	struct tt_target t;
	enum tt_dev_err e;

	if (c->mcast)
		return k->mock ? mock_access(dev, c, addr, buf, len, op) :
				 multicast(dev, w, off, buf, len);
	e = tt_decode(k->nodes, k->grid_x, k->grid_y, c->noc, c->x, c->y,
		      addr, len, &t);
	if (!e && t.kind == TT_TARGET_MEM)
		return memory_access(dev, w, off, &k->nodes[t.node], buf, len,
				     write);
	if (k->mock)
		return mock_access(dev, c, addr, buf, len, op);
	if (e)
		return refused(c, addr, len, op, e);
	if (t.kind == TT_TARGET_REG)
		return register_access(dev, w, off, &k->nodes[t.node], buf,
				       len, write);
	/* The PCIe node's host window. */
	return memory_access(dev, w, off, &k->nodes[t.node], buf, len, write);
}

int tt_kmd_window_write(struct tt_device *dev, struct tt_window *w, uint64_t off,
		     const void *src, size_t len)
{
	return window_access(dev, w, off, (void *)src, len,
			     w->cfg.mcast ? TT_DEV_OP_MCAST : TT_DEV_OP_WRITE);
}

int tt_kmd_window_read(struct tt_device *dev, struct tt_window *w, uint64_t off,
		    void *dst, size_t len)
{
	if (w->cfg.mcast)
		return tt_error(-EINVAL,
				"%s: cannot read through a multicast window",
				dev->name);
	return window_access(dev, w, off, dst, len, TT_DEV_OP_READ);
}
