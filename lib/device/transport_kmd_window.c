// SPDX-License-Identifier: Apache-2.0
/*
 * Host windows of the kmd transport (lib/README.md "The kmd transport").
 *
 * One rule decides how an access travels: it is decoded against the
 * device image's node table exactly as the chip model decodes it
 * (sim_decode). Node memory goes through the fd's TLB window (ALLOCATE_TLB,
 * CONFIGURE_TLB, a write-combined mmap), the path a real card has.
 * Everything else (register pages, the PCIe node's host window, multicast,
 * and every refused access) goes through the device image in BAR2 with the
 * model's own access code, because the mock driver's windows reach node
 * memory only (a register page faults with SIGBUS): on the model a
 * register is a word of the image, so that is what a window onto it would
 * show anyway. After a write that the model must notice (a register, or
 * memory a hart waits on), the model's doorbell is rung: the model sets its
 * pending bits in the image, and ivshmem's doorbell register in BAR0 wakes
 * the ttsim daemon, which cannot see a guest's stores otherwise.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "sim/model/addr.h"
#include "sim/model/event.h"
#include "transport_kmd.h"

/* ivshmem's doorbell register and the value that rings ttsim (its peer
 * id in bits 31:16, vector 0): docs/ttsim.md "Serving QEMU". */
#define IVSHMEM_DOORBELL_REG 3 /* 32-bit word 3, offset 12 */
#define IVSHMEM_RING_TTSIM (1u << 16)

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
	return 0;
}

/* The window itself goes back to the driver when the fd is closed. */
void tt_kmd_window_close(struct tt_device *dev)
{
	struct kmd *k = kmd_of(dev);

	if (k->tlb)
		munmap(k->tlb, k->tlb_size);
	k->tlb = NULL;
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

/* Wake the model after a write it must notice. A fence first: the
 * write-combined stores must be in the image before the daemon looks. */
static void ring(struct kmd *k)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (k->bar0)
		k->bar0[IVSHMEM_DOORBELL_REG] = IVSHMEM_RING_TTSIM;
}

/* Point the TLB at NOC 0 node (x, y), local address base. */
static int point_tlb(struct tt_device *dev, unsigned x, unsigned y,
		     uint64_t base)
{
	struct kmd *k = kmd_of(dev);
	struct tenstorrent_configure_tlb c = {.in.id = k->tlb_id};

	c.in.config.addr = base;
	c.in.config.x_end = (uint16_t)x;
	c.in.config.y_end = (uint16_t)y;
	if (k->tlb_set &&
	    !memcmp(&k->tlb_cfg, &c.in.config, sizeof(c.in.config)))
		return 0;
	k->tlb_set = false;
	if (ioctl(k->fd, TENSTORRENT_IOCTL_CONFIGURE_TLB, &c))
		return tt_error(
			-errno,
			"%s: CONFIGURE_TLB of window %u to %u-%u %#llx: %s",
			dev->name, k->tlb_id, x, y, (unsigned long long)base,
			strerror(errno));
	k->tlb_cfg = c.in.config;
	k->tlb_set = true;
	return 0;
}

/* A refused access, as the device records and reports it. */
static int refused(const struct sim_access *a, enum tt_dev_err e)
{
	struct tt_dev_error rec = {
		.code = (uint8_t)e,
		.op = (uint8_t)a->op,
		.noc = (uint8_t)a->noc,
		.initiator_x = TT_DEV_INITIATOR_HOST,
		.initiator_y = TT_DEV_INITIATOR_HOST,
		.target_x = (uint8_t)a->x,
		.target_y = (uint8_t)a->y,
		.len = (uint32_t)a->len,
		.addr = a->addr,
	};

	return tt_error_device(&rec);
}

/* Node memory through the TLB window. */
static int memory_access(struct tt_device *dev, struct tt_window *w,
			 uint64_t off, const struct sim_target *t, void *buf,
			 size_t len, bool write)
{
	struct kmd *k = kmd_of(dev);
	struct sim_image *img = k->ctx.img;
	uint32_t seq;
	int ret;

	ret = point_tlb(dev, t->node->x, t->node->y, w->cfg.base);
	if (ret)
		return ret;
	if (!write) {
		memcpy(buf, k->tlb + off, len);
		return 0;
	}
	seq = __atomic_load_n(&img->regs->doorbell_seq, __ATOMIC_ACQUIRE);
	memcpy(k->tlb + off, buf, len);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* Rings the model's event if a hart of the node waits here. */
	sim_event_after_write(img, t->node, false);
	if (__atomic_load_n(&img->regs->doorbell_seq, __ATOMIC_ACQUIRE) != seq)
		ring(k);
	return 0;
}

static int window_access(struct tt_device *dev, struct tt_window *w,
			 uint64_t off, void *buf, size_t len, enum tt_dev_op op)
{
	struct kmd *k = kmd_of(dev);
	const struct tt_window_config *c = &w->cfg;
	struct sim_access a = {
		.op = op,
		.noc = c->noc,
		.x = c->x,
		.y = c->y,
		.init_x = TT_DEV_INITIATOR_HOST,
		.init_y = TT_DEV_INITIATOR_HOST,
		.addr = c->base + off,
		.len = len,
	};
	struct sim_target t;
	enum tt_dev_err e;

	if (c->mcast) {
		/* The driver cannot multicast on the mock (EOPNOTSUPP): the
		 * model's own multicast, on the image. */
		e = sim_multicast(&k->ctx, &a, c->x_start, c->y_start, c->x,
				  c->y, buf);
		ring(k);
		return e ? refused(&a, e) : 0;
	}
	e = sim_decode(k->ctx.img, c->noc, c->x, c->y, a.addr, len, &t);
	if (e == TT_DEV_ERR_NONE && t.kind == SIM_TARGET_MEM)
		return memory_access(dev, w, off, &t, buf, len,
				     op != TT_DEV_OP_READ);
	/* Registers, the host window and refusals: the model's rules and
	 * side effects (an NIU write rings its doorbell), the error logged. */
	e = sim_access(&k->ctx, &a, buf);
	if (op != TT_DEV_OP_READ)
		ring(k);
	return e ? refused(&a, e) : 0;
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
