// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA queues (uapi "Part 2", docs/abi.md): one queue of copies per file,
 * run by the device's DMA engine (hw/dmaeng.h), completion by interrupt.
 *
 * The engine has one descriptor ring for the whole device; every file has
 * its own queue of up to TT_DMAQ_DEPTH descriptors. SUBMIT checks a batch
 * (tt_dmaq_check_desc(), pure, tested by tt_dmaq_kunit.c), turns host
 * ranges into bus addresses of the file's own buffers, and appends it to
 * the file's queue; the feeder moves queued descriptors into free ring
 * slots, taking one from each waiting file in turn. The interrupt handler
 * reads CONS, retires what finished and feeds again.
 *
 * All queue and ring state is under one spinlock per device (taken in the
 * hard interrupt handler, so never with a mutex inside it). Everything read
 * from the device (CONS, STATUS, HALTED) is checked before use: a CONS
 * that claims more than was posted is ignored.
 *
 * Errors: every descriptor is posted with HALT, so after a failure the
 * engine stops; the handler latches the error in the failing file's queue,
 * marks that file's other posted slots SKIP, drops its unposted ones, and
 * lets the engine go on. Close marks the file's posted slots SKIP, waits
 * (bounded) until the engine is past all of them, and only then are the
 * file's buffers freed; if the engine never gets there the buffers are
 * leaked rather than freed under it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <hw/dmaeng.h>
#include <hw/host.h>

#include "tenstorrent.h"

/* Per-file queue depth: the UAPI's minimum, so a full batch always fits. */
#define TT_DMAQ_DEPTH TENSTORRENT_DMA_QUEUE_MIN_DEPTH
/* How long close and unbind wait for the engine to pass a file's slots. */
#define TT_DMAQ_QUIESCE_MS 5000

/*
 * A descriptor as the driver keeps it until its slot is reused; @pin holds
 * a tt_pin_get() on the pinned range it uses (UNPIN_PAGES is EBUSY) until
 * tt_dmaq_collect() finds it completed.
 */
struct tt_dmaq_ent {
	u64 bus;
	u64 local;
	u64 cookie;
	u32 len;
	u32 ctrl;
	struct tt_pin *pin;
};

/**
 * struct tt_dmaq - one file's queue (under tt_dmaq_dev.lock)
 * @ents: descriptors by seqno % TT_DMAQ_DEPTH
 * @submitted: last seqno submitted
 * @posted: last seqno given to the engine
 * @completed: last seqno finished (run, failed or cancelled)
 * @reported: last completed seqno WAIT or QUERY returned (POLLIN)
 * @collected: last seqno whose pin reference was dropped (under tf->lock
 *	too)
 * @in_ring: posted and not yet finished
 * @err_seqno: the latched error's descriptor, 0 if none
 * @err_cookie: its cookie
 * @err_code: EIO or ECANCELED
 * @backlog: in tt_dmaq_dev.backlog while @posted < @submitted
 * @wq: WAIT and poll sleep here
 */
struct tt_dmaq {
	struct tt_dmaq_ent ents[TT_DMAQ_DEPTH];
	u64 submitted;
	u64 posted;
	u64 completed;
	u64 reported;
	u64 collected;
	u32 in_ring;
	u64 err_seqno;
	u64 err_cookie;
	u32 err_code;
	struct list_head backlog;
	wait_queue_head_t wq;
};

/* Who a ring slot belongs to; q NULL once its file stopped caring. */
struct tt_dmaq_slot {
	struct tt_dmaq *q;
	u64 seqno;
};

/**
 * struct tt_dmaq_dev - the device's engine (allocated with tt_device)
 * @lock: protects everything below and every struct tt_dmaq
 * @hw: the engine's pages and interrupt, from the backend
 * @tdev: the device
 * @prod: descriptors posted (as written to PROD)
 * @cons: descriptors seen finished (as last read from CONS, checked)
 * @slots: TT_DMA_RING_ENTRIES owners
 * @backlog: queues with descriptors not posted yet
 * @detached: unbound: nothing is posted, everything was cancelled
 * @stuck: the engine did not finish after unbind: free no host memory
 * @idle: close and unbind wait here for the engine
 */
struct tt_dmaq_dev {
	spinlock_t lock; /* protects the ring and every queue */
	struct tt_dma_hw hw;
	struct tt_device *tdev;
	u32 prod;
	u32 cons;
	struct tt_dmaq_slot slots[TT_DMA_RING_ENTRIES];
	struct list_head backlog;
	bool detached;
	bool stuck;
	wait_queue_head_t idle;
};

/* ---------------------------------------------------------------------- */
/* pure checks                                                            */

/**
 * tt_dmaq_check_desc() - the checks of one descriptor that need no state
 * @d: the descriptor as the caller gave it
 * @grid_x: the chip's NOC grid
 * @grid_y: likewise
 *
 * Everything but the host range's owner (tt_dmaq_resolve_host()): fields
 * that must be 0, direction, host type, length, alignment, the device
 * range below 2^36, the NOC and the node inside the grid.
 *
 * Return: 0 or -EINVAL.
 */
int tt_dmaq_check_desc(const struct tenstorrent_dma_desc *d, u32 grid_x,
		       u32 grid_y)
{
	const u64 dev_limit = BIT_ULL(TENSTORRENT_DMA_DEVICE_ADDR_BITS);

	if (d->flags || d->reserved0[0] || d->reserved0[1] || d->reserved1)
		return -EINVAL;
	if (d->direction != TENSTORRENT_DMA_TO_DEVICE &&
	    d->direction != TENSTORRENT_DMA_FROM_DEVICE)
		return -EINVAL;
	if (d->host_type != TENSTORRENT_DMA_HOST_DMA_BUF &&
	    d->host_type != TENSTORRENT_DMA_HOST_PINNED)
		return -EINVAL;
	if (d->host_type == TENSTORRENT_DMA_HOST_PINNED && d->buf_index)
		return -EINVAL;
	if (!d->length || d->length > TENSTORRENT_DMA_MAX_LENGTH ||
	    !IS_ALIGNED(d->length, TENSTORRENT_DMA_ALIGN) ||
	    !IS_ALIGNED(d->host_addr, TENSTORRENT_DMA_ALIGN) ||
	    !IS_ALIGNED(d->device_addr, TENSTORRENT_DMA_ALIGN))
		return -EINVAL;
	if (d->device_addr >= dev_limit ||
	    d->length > dev_limit - d->device_addr)
		return -EINVAL;
	if (d->noc > 1 || d->x >= grid_x || d->y >= grid_y)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_dmaq_check_desc);

/**
 * tt_dmaq_hw_ctrl() - the engine's ctrl word for a checked descriptor
 * @d: a descriptor tt_dmaq_check_desc() accepted
 *
 * Return: direction, NOC and node in hw/dmaeng.h's layout, with IRQ and
 * HALT, which the driver always wants.
 */
u32 tt_dmaq_hw_ctrl(const struct tenstorrent_dma_desc *d)
{
	u32 dir = d->direction == TENSTORRENT_DMA_TO_DEVICE ?
			  TT_DMA_DIR_TO_DEVICE : TT_DMA_DIR_FROM_DEVICE;

	return TT_FIELD_PREP(TT_DMA_CTRL_DIR_MASK, dir) |
	       (d->noc ? TT_DMA_CTRL_NOC : 0) | TT_DMA_CTRL_IRQ |
	       TT_DMA_CTRL_HALT | TT_FIELD_PREP(TT_DMA_CTRL_X_MASK, d->x) |
	       TT_FIELD_PREP(TT_DMA_CTRL_Y_MASK, d->y);
}
EXPORT_SYMBOL_IF_KUNIT(tt_dmaq_hw_ctrl);

/* ---------------------------------------------------------------------- */
/* the ring (all under dd->lock)                                          */

static void __iomem *tt_dmaq_slot_addr(struct tt_dmaq_dev *dd, u32 i, u32 off)
{
	return dd->hw.ring + TT_DMA_SLOT_OFF(i) + off;
}

static void tt_dmaq_write64(void __iomem *p, u64 v)
{
	iowrite32(lower_32_bits(v), p);
	iowrite32(upper_32_bits(v), p + 4);
}

/* Post queued descriptors into free slots, one file at a time in turn. */
static void tt_dmaq_feed(struct tt_dmaq_dev *dd)
{
	u32 start = dd->prod;

	lockdep_assert_held(&dd->lock);
	while (!dd->detached && !list_empty(&dd->backlog) &&
	       dd->prod - dd->cons < TT_DMA_RING_ENTRIES) {
		struct tt_dmaq *q = list_first_entry(&dd->backlog,
						     struct tt_dmaq, backlog);
		u64 seqno = q->posted + 1;
		struct tt_dmaq_ent *e = &q->ents[seqno % TT_DMAQ_DEPTH];
		u32 i = dd->prod;

		tt_dmaq_write64(tt_dmaq_slot_addr(dd, i, TT_DMA_DESC_HOST),
				e->bus);
		tt_dmaq_write64(tt_dmaq_slot_addr(dd, i, TT_DMA_DESC_LOCAL),
				e->local);
		iowrite32(e->len, tt_dmaq_slot_addr(dd, i, TT_DMA_DESC_LEN));
		iowrite32(e->ctrl, tt_dmaq_slot_addr(dd, i, TT_DMA_DESC_CTRL));
		iowrite32(0, tt_dmaq_slot_addr(dd, i, TT_DMA_DESC_STATUS));
		iowrite32(lower_32_bits(seqno),
			  tt_dmaq_slot_addr(dd, i, TT_DMA_DESC_TAG));
		dd->slots[i % TT_DMA_RING_ENTRIES] =
			(struct tt_dmaq_slot){ .q = q, .seqno = seqno };
		dd->prod++;
		q->posted = seqno;
		q->in_ring++;
		list_del_init(&q->backlog);
		if (q->posted < q->submitted)
			list_add_tail(&q->backlog, &dd->backlog);
	}
	if (dd->prod == start)
		return;
	wmb(); /* the slots before PROD */
	iowrite32(dd->prod, dd->hw.regs + TT_DMA_PROD);
	dd->hw.ring_doorbell(dd->tdev);
}

/*
 * Cancel everything @q has not finished, keeping its first error: the
 * unposted ones are never posted; all count as completed once the engine
 * is past @q's posted slots (which the caller makes it skip).
 */
static void tt_dmaq_cancel(struct tt_dmaq *q, u32 code)
{
	if (q->completed == q->submitted)
		return;
	if (!q->err_seqno) {
		q->err_seqno = q->completed + 1;
		q->err_cookie = q->ents[q->err_seqno % TT_DMAQ_DEPTH].cookie;
		q->err_code = code;
	}
	q->posted = q->submitted;
	list_del_init(&q->backlog);
	if (!q->in_ring)
		q->completed = q->submitted;
}

/* Mark @q's posted, unfinished slots SKIP: the engine passes them. */
static void tt_dmaq_skip_posted(struct tt_dmaq_dev *dd, struct tt_dmaq *q)
{
	u32 i;

	for (i = dd->cons; i != dd->prod; i++) {
		struct tt_dmaq_slot *s = &dd->slots[i % TT_DMA_RING_ENTRIES];
		void __iomem *ctrl = tt_dmaq_slot_addr(dd, i, TT_DMA_DESC_CTRL);

		if (s->q == q)
			iowrite32(ioread32(ctrl) | TT_DMA_CTRL_SKIP, ctrl);
	}
}

/* A posted descriptor of @q failed: latch it, cancel the rest of @q. */
static void tt_dmaq_failed(struct tt_dmaq_dev *dd, struct tt_dmaq *q,
			   u64 seqno)
{
	if (!q->err_seqno) {
		q->err_seqno = seqno;
		q->err_cookie = q->ents[seqno % TT_DMAQ_DEPTH].cookie;
		q->err_code = EIO;
	}
	tt_dmaq_skip_posted(dd, q);
	/*
	 * Unposted ones are never posted: once the engine is past the
	 * posted ones (skipped), all count as completed (tt_dmaq_reap).
	 */
	q->posted = q->submitted;
	list_del_init(&q->backlog);
}

/*
 * Retire what the engine finished, resume it after a halt, feed it. Called
 * from the interrupt handler and whenever a caller wants fresh state.
 */
static void tt_dmaq_reap(struct tt_dmaq_dev *dd)
{
	u32 cons, n, status, halted;
	bool woke = false;

	lockdep_assert_held(&dd->lock);
	if (dd->detached)
		return;
	/*
	 * HALTED before CONS: the engine moves CONS past the failed slot
	 * before it halts, so a halt seen here has its failure in this CONS,
	 * and the failed file's later slots are marked SKIP below before the
	 * engine is let go.
	 */
	halted = ioread32(dd->hw.regs + TT_DMA_HALTED);
	rmb(); /* HALTED before CONS, as above */
	cons = ioread32(dd->hw.regs + TT_DMA_CONS);
	n = cons - dd->cons;
	if (n > dd->prod - dd->cons) {
		dev_warn_ratelimited(&dd->tdev->pdev->dev,
				     "DMA engine CONS %u outside %u..%u: ignored\n",
				     cons, dd->cons, dd->prod);
		return;
	}
	rmb(); /* CONS before the slots' STATUS and the data */
	for (; dd->cons != cons; dd->cons++) {
		struct tt_dmaq_slot *s = &dd->slots[dd->cons % TT_DMA_RING_ENTRIES];
		struct tt_dmaq *q = s->q;

		if (!q)
			continue;
		s->q = NULL;
		q->in_ring--;
		status = ioread32(tt_dmaq_slot_addr(dd, dd->cons,
						    TT_DMA_DESC_STATUS));
		if (status && status != TT_DMA_STATUS_SKIPPED)
			tt_dmaq_failed(dd, q, s->seqno);
		/* A skipped slot of a cancelled queue is already counted. */
		if (s->seqno > q->completed)
			q->completed = s->seqno;
		if (!q->in_ring && q->posted == q->submitted)
			q->completed = q->submitted;
		wake_up_all(&q->wq);
		woke = true;
	}
	if (halted) {
		/* The failed slot's file was handled above; the others go on. */
		iowrite32(0, dd->hw.regs + TT_DMA_HALTED);
		dd->hw.ring_doorbell(dd->tdev);
	}
	tt_dmaq_feed(dd);
	if (woke)
		wake_up_all(&dd->idle);
}

static irqreturn_t tt_dmaq_irq(int irq, void *data)
{
	struct tt_dmaq_dev *dd = data;
	unsigned long flags;

	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	spin_unlock_irqrestore(&dd->lock, flags);
	/*
	 * The vector is the device's only one and MSI-X is not shared:
	 * every interrupt is ours even if it was not the engine's.
	 */
	return IRQ_HANDLED;
}

/* ---------------------------------------------------------------------- */
/* device and file lifetime                                               */

/* At probe: the engine, if the backend finds one, and its interrupt. */
int tt_dmaq_probe(struct tt_device *tdev)
{
	struct tt_dmaq_dev *dd;
	struct tt_dma_hw hw = {};
	int ret;

	if (!tdev->backend->dma_engine || !tdev->dma_capable ||
	    tdev->backend->dma_engine(tdev, &hw))
		return 0; /* no engine: the commands say EOPNOTSUPP */
	dd = kzalloc(sizeof(*dd), GFP_KERNEL);
	if (!dd)
		return -ENOMEM;
	spin_lock_init(&dd->lock);
	INIT_LIST_HEAD(&dd->backlog);
	init_waitqueue_head(&dd->idle);
	dd->hw = hw;
	dd->tdev = tdev;
	/*
	 * Start where the engine is: an earlier driver may have posted (its
	 * slots have no owner here).
	 */
	dd->prod = ioread32(hw.regs + TT_DMA_PROD);
	dd->cons = ioread32(hw.regs + TT_DMA_CONS);
	if (dd->prod - dd->cons > TT_DMA_RING_ENTRIES) {
		dev_err(&tdev->pdev->dev,
			"DMA engine PROD %u and CONS %u are inconsistent: no DMA queues\n",
			dd->prod, dd->cons);
		kfree(dd);
		return 0;
	}
	iowrite32(0, hw.regs + TT_DMA_HALTED);
	ret = request_irq(hw.irq, tt_dmaq_irq, 0, TT_NAME "-dma", dd);
	if (ret) {
		dev_err(&tdev->pdev->dev, "cannot get the DMA interrupt: %d\n",
			ret);
		kfree(dd);
		return 0; /* the device works without DMA queues */
	}
	tdev->dmaq = dd;
	return 0;
}

/* Fresh state: is none of @q's descriptors in the ring any more? */
static bool tt_dmaq_out_of_ring(struct tt_dmaq_dev *dd, struct tt_dmaq *q)
{
	unsigned long flags;
	bool out;

	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	out = !q->in_ring;
	spin_unlock_irqrestore(&dd->lock, flags);
	return out;
}

static bool tt_dmaq_engine_past(struct tt_dmaq_dev *dd, u32 prod)
{
	unsigned long flags;
	bool past;

	spin_lock_irqsave(&dd->lock, flags);
	past = (u32)(ioread32(dd->hw.regs + TT_DMA_CONS) - prod) < 0x80000000u;
	spin_unlock_irqrestore(&dd->lock, flags);
	return past;
}

/*
 * Cancel every queue (ECANCELED) and make the engine skip what is posted;
 * with @detach, post nothing ever again. Returns the PROD the engine must
 * get past. Called with tdev->lock held (for tdev->files).
 */
static u32 tt_dmaq_cancel_all(struct tt_device *tdev, bool detach)
{
	struct tt_dmaq_dev *dd = tdev->dmaq;
	struct tt_file *tf;
	unsigned long flags;
	u32 prod, i;

	lockdep_assert_held(&tdev->lock);
	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	for (i = dd->cons; !dd->detached && i != dd->prod; i++) {
		void __iomem *ctrl = tt_dmaq_slot_addr(dd, i, TT_DMA_DESC_CTRL);

		iowrite32(ioread32(ctrl) | TT_DMA_CTRL_SKIP, ctrl);
	}
	if (detach) {
		/* No interrupt from now on: nobody waits for the slots. */
		for (i = 0; i < TT_DMA_RING_ENTRIES; i++)
			if (dd->slots[i].q) {
				dd->slots[i].q->in_ring = 0;
				dd->slots[i].q = NULL;
			}
	}
	list_for_each_entry(tf, &tdev->files, node) {
		if (!tf->dmaq)
			continue;
		tt_dmaq_cancel(tf->dmaq, ECANCELED);
		wake_up_all(&tf->dmaq->wq);
	}
	if (detach) {
		dd->detached = true;
		wake_up_all(&dd->idle);
	}
	prod = dd->prod;
	if (!dd->detached || detach) {
		iowrite32(0, dd->hw.regs + TT_DMA_HALTED);
		dd->hw.ring_doorbell(tdev);
	}
	spin_unlock_irqrestore(&dd->lock, flags);
	return prod;
}

/*
 * At a reset (RESET_DEVICE, tdev->lock held): every queued copy is
 * cancelled (ECANCELED); the engine skips the posted ones and finishes
 * them, and their files see them complete as it passes.
 */
void tt_dmaq_reset(struct tt_device *tdev)
{
	if (tdev->dmaq)
		tt_dmaq_cancel_all(tdev, false);
}

/*
 * At unbind, before the backend lets go: cancel every queue (ECANCELED),
 * make the engine skip what is posted and wait for it to get past, stop
 * the interrupt, wake every waiter.
 */
void tt_dmaq_detach(struct tt_device *tdev)
{
	struct tt_dmaq_dev *dd = tdev->dmaq;
	u32 prod, i;

	if (!dd)
		return;
	mutex_lock(&tdev->lock);
	prod = tt_dmaq_cancel_all(tdev, true);
	mutex_unlock(&tdev->lock);

	free_irq(dd->hw.irq, dd);
	/* No interrupt any more: look at CONS until the engine is past. */
	for (i = 0; i < TT_DMAQ_QUIESCE_MS / 20; i++) {
		if (tt_dmaq_engine_past(dd, prod))
			return;
		usleep_range(10000, 20000);
	}
	dev_err(&tdev->pdev->dev,
		"DMA engine did not finish within %u ms of unbind\n",
		TT_DMAQ_QUIESCE_MS);
	WRITE_ONCE(dd->stuck, true);
}

/* With the device's last reference. */
void tt_dmaq_free(struct tt_device *tdev)
{
	kfree(tdev->dmaq);
	tdev->dmaq = NULL;
}

int tt_dmaq_open(struct tt_file *tf)
{
	struct tt_dmaq *q;

	if (!tf->tdev->dmaq)
		return 0;
	q = kvzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	INIT_LIST_HEAD(&q->backlog);
	init_waitqueue_head(&q->wq);
	tf->dmaq = q;
	return 0;
}

/*
 * At close, before the file's buffers go: drop what is not posted, make the
 * engine skip what is (the copy in progress ends), and wait until none of
 * the file's slots is left. Returns false if the engine did not get there:
 * the buffers must then not be freed.
 */
bool tt_dmaq_release(struct tt_file *tf)
{
	struct tt_dmaq_dev *dd = tf->tdev->dmaq;
	struct tt_dmaq *q = tf->dmaq;
	unsigned long flags;
	bool quiet;
	u32 i;

	if (!q)
		return true;
	spin_lock_irqsave(&dd->lock, flags);
	list_del_init(&q->backlog);
	tt_dmaq_reap(dd);
	if (!dd->detached)
		tt_dmaq_skip_posted(dd, q);
	spin_unlock_irqrestore(&dd->lock, flags);

	wait_event_timeout(dd->idle, tt_dmaq_out_of_ring(dd, q),
			   msecs_to_jiffies(TT_DMAQ_QUIESCE_MS));

	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	quiet = !q->in_ring && !dd->stuck;
	/*
	 * Whatever is left is no longer this file's; unbind no longer sees
	 * the queue (it looks under this lock).
	 */
	for (i = 0; i < TT_DMA_RING_ENTRIES; i++)
		if (dd->slots[i].q == q)
			dd->slots[i].q = NULL;
	tf->dmaq = NULL;
	spin_unlock_irqrestore(&dd->lock, flags);
	if (!quiet)
		dev_err(&tf->tdev->pdev->dev,
			"DMA engine still busy with a closed file's copies: its DMA buffers are leaked\n");
	kvfree(q);
	return quiet;
}

/* ---------------------------------------------------------------------- */
/* the commands                                                           */

/*
 * The bus address of [host_addr, + length) of @d, which must lie in one
 * host range of this file. Called with tf->lock held.
 */
static int tt_dmaq_resolve_host(struct tt_file *tf,
				const struct tenstorrent_dma_desc *d,
				struct tt_dmaq_ent *e)
{
	dma_addr_t bus;
	bool read_only;

	lockdep_assert_held(&tf->lock);
	e->pin = NULL;
	switch (d->host_type) {
	case TENSTORRENT_DMA_HOST_DMA_BUF:
		return tt_dma_buf_bus(tf, d->buf_index, d->host_addr,
				      d->length, &e->bus);
	case TENSTORRENT_DMA_HOST_PINNED:
		/* Held until the descriptor completes: UNPIN is EBUSY. */
		e->pin = tt_pin_find(tf, d->host_addr, d->length, &bus,
				     &read_only);
		if (!e->pin)
			return -EINVAL;
		if (read_only && d->direction == TENSTORRENT_DMA_FROM_DEVICE) {
			e->pin = NULL;
			return -EPERM;
		}
		tt_pin_get(e->pin);
		e->bus = bus;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Drop the pin references of @n entries that were never queued. */
static void tt_dmaq_put_ents(struct tt_dmaq_ent *ents, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (ents[i].pin)
			tt_pin_put(ents[i].pin);
}

/* Drop the pin references of completed descriptors. With both locks. */
static void tt_dmaq_collect_locked(struct tt_dmaq *q)
{
	for (; q->collected < q->completed; q->collected++) {
		struct tt_dmaq_ent *e =
			&q->ents[(q->collected + 1) % TT_DMAQ_DEPTH];

		if (e->pin) {
			tt_pin_put(e->pin);
			e->pin = NULL;
		}
	}
}

/**
 * tt_dmaq_collect() - let go of the pins of completed descriptors
 * @tf: the file, whose lock the caller holds
 *
 * For UNPIN_PAGES (pin.c), before it looks at a pin's busy count.
 */
void tt_dmaq_collect(struct tt_file *tf)
{
	struct tt_dmaq_dev *dd = tf->tdev->dmaq;
	unsigned long flags;

	lockdep_assert_held(&tf->lock);
	if (!tf->dmaq)
		return;
	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	tt_dmaq_collect_locked(tf->dmaq);
	spin_unlock_irqrestore(&dd->lock, flags);
}

/* Stale fds are refused by tt_ioctl() on entry; here: is there an engine. */
static int tt_dmaq_usable(struct tt_file *tf)
{
	return tf->dmaq ? 0 : -EOPNOTSUPP;
}

long tt_ioctl_dma_queue_submit(struct tt_file *tf,
			       struct tenstorrent_dma_queue_submit __user *arg)
{
	struct tenstorrent_dma_queue_submit_out out = {};
	struct tenstorrent_dma_queue_submit_in in;
	struct tt_dmaq_dev *dd = tf->tdev->dmaq;
	struct tenstorrent_dma_desc *descs;
	struct tt_dmaq_ent *ents;
	struct tt_dmaq *q = tf->dmaq;
	unsigned long flags;
	int ret;
	u32 i;

	ret = tt_dmaq_usable(tf);
	if (ret)
		return ret;
	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	if (in.flags || in.reserved || !in.desc_count ||
	    in.desc_count > TENSTORRENT_DMA_QUEUE_MAX_BATCH ||
	    in.desc_size != sizeof(*descs))
		return -EINVAL;
	descs = memdup_user(u64_to_user_ptr(in.descs),
			    (size_t)in.desc_count * sizeof(*descs));
	if (IS_ERR(descs))
		return PTR_ERR(descs);
	ents = kmalloc_array(in.desc_count, sizeof(*ents), GFP_KERNEL);
	if (!ents) {
		kfree(descs);
		return -ENOMEM;
	}
	for (i = 0; i < in.desc_count && !ret; i++)
		ret = tt_dmaq_check_desc(&descs[i], dd->hw.grid_x,
					 dd->hw.grid_y);
	if (ret)
		goto out_free;
	/* tf->lock throughout: the pins found stay until queued or put. */
	mutex_lock(&tf->lock);
	for (i = 0; i < in.desc_count && !ret; i++) {
		ents[i] = (struct tt_dmaq_ent){
			.local = descs[i].device_addr,
			.cookie = descs[i].cookie,
			.len = descs[i].length,
			.ctrl = tt_dmaq_hw_ctrl(&descs[i]),
		};
		ret = tt_dmaq_resolve_host(tf, &descs[i], &ents[i]);
	}
	if (ret) {
		tt_dmaq_put_ents(ents, i);
		mutex_unlock(&tf->lock);
		goto out_free;
	}

	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	/* The slots about to be reused must hold no pin any more. */
	tt_dmaq_collect_locked(q);
	if (dd->detached)
		ret = -ENODEV;
	else if (q->err_seqno)
		ret = -EIO;
	else if (q->submitted - q->completed + in.desc_count > TT_DMAQ_DEPTH)
		ret = -EAGAIN;
	if (!ret) {
		out.first_seqno = q->submitted + 1;
		for (i = 0; i < in.desc_count; i++)
			q->ents[(q->submitted + 1 + i) % TT_DMAQ_DEPTH] = ents[i];
		q->submitted += in.desc_count;
		out.last_seqno = q->submitted;
		if (list_empty(&q->backlog))
			list_add_tail(&q->backlog, &dd->backlog);
		tt_dmaq_feed(dd);
	}
	spin_unlock_irqrestore(&dd->lock, flags);
	if (ret)
		tt_dmaq_put_ents(ents, in.desc_count);
	mutex_unlock(&tf->lock);
	if (ret)
		goto out_free;
	out.output_size_bytes = sizeof(out);
	/* The batch is queued: a failed copy-out cannot take it back. */
	ret = tt_copy_out(&arg->out, in.output_size_bytes, &out, sizeof(out));
out_free:
	kfree(descs);
	kfree(ents);
	return ret;
}

/*
 * Is @tf stale (reset since it was opened) or its device gone? Racy, for
 * sleepers that a reset or an unbind wakes.
 */
static bool tt_dmaq_stale(struct tt_file *tf)
{
	return READ_ONCE(tf->tdev->detached) ||
	       READ_ONCE(tf->reset_gen) != READ_ONCE(tf->tdev->reset_gen);
}

/* Fresh state: is @seqno of @tf's queue done, or is waiting pointless? */
static bool tt_dmaq_done(struct tt_file *tf, u64 seqno)
{
	struct tt_dmaq_dev *dd = tf->tdev->dmaq;
	unsigned long flags;
	bool done;

	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	done = tf->dmaq->completed >= seqno || dd->detached;
	spin_unlock_irqrestore(&dd->lock, flags);
	return done || tt_dmaq_stale(tf);
}

long tt_ioctl_dma_queue_wait(struct tt_file *tf,
			     struct tenstorrent_dma_queue_wait __user *arg)
{
	struct tenstorrent_dma_queue_wait_out out = {};
	struct tenstorrent_dma_queue_wait_in in;
	struct tt_dmaq_dev *dd = tf->tdev->dmaq;
	struct tt_dmaq *q = tf->dmaq;
	unsigned long flags;
	long left = 1;
	int ret;

	/* Outside the entry gate (ioctl.c): check what the gate checks. */
	if (!tt_file_usable_now(tf))
		return -ENODEV;
	ret = tt_dmaq_usable(tf);
	if (ret)
		return ret;
	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	if (in.flags || in.reserved0 || in.reserved1)
		return -EINVAL;
	spin_lock_irqsave(&dd->lock, flags);
	if (in.seqno > q->submitted)
		ret = -EINVAL;
	spin_unlock_irqrestore(&dd->lock, flags);
	if (ret)
		return ret;

	if (in.timeout_ms == TENSTORRENT_DMA_WAIT_FOREVER)
		left = wait_event_interruptible(q->wq,
						tt_dmaq_done(tf, in.seqno));
	else if (in.timeout_ms)
		left = wait_event_interruptible_timeout(q->wq,
							tt_dmaq_done(tf, in.seqno),
							msecs_to_jiffies(in.timeout_ms));
	else
		left = tt_dmaq_done(tf, in.seqno);
	if (in.timeout_ms == TENSTORRENT_DMA_WAIT_FOREVER && !left)
		left = 1; /* wait_event_interruptible() returns 0 when done */
	if (left < 0)
		return left; /* -ERESTARTSYS: EINTR, or restarted */
	if (tt_dmaq_stale(tf))
		return -ENODEV;

	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	out.completed_seqno = q->completed;
	q->reported = max(q->reported, q->completed);
	if (q->completed < in.seqno)
		ret = dd->detached ? -ENODEV : -ETIMEDOUT;
	else if (q->err_seqno && q->err_seqno <= in.seqno)
		ret = -EIO;
	spin_unlock_irqrestore(&dd->lock, flags);
	if (ret == -ENODEV)
		return ret;
	out.output_size_bytes = sizeof(out);
	if (tt_copy_out(&arg->out, in.output_size_bytes, &out, sizeof(out)))
		return -EFAULT;
	return ret;
}

long tt_ioctl_dma_queue_query(struct tt_file *tf,
			      struct tenstorrent_dma_queue_query __user *arg)
{
	struct tenstorrent_dma_queue_query_out out = {};
	struct tenstorrent_dma_queue_query_in in;
	struct tt_dmaq_dev *dd = tf->tdev->dmaq;
	struct tt_dmaq *q = tf->dmaq;
	unsigned long flags;
	int ret;

	ret = tt_dmaq_usable(tf);
	if (ret)
		return ret;
	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	if (in.flags & ~TENSTORRENT_DMA_QUEUE_QUERY_CLEAR_ERROR || in.reserved)
		return -EINVAL;
	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	out.depth = TT_DMAQ_DEPTH;
	out.submitted_seqno = q->submitted;
	out.completed_seqno = q->completed;
	out.error_seqno = q->err_seqno;
	out.error_cookie = q->err_cookie;
	out.error_code = q->err_code;
	q->reported = max(q->reported, q->completed);
	if (in.flags & TENSTORRENT_DMA_QUEUE_QUERY_CLEAR_ERROR) {
		q->err_seqno = 0;
		q->err_cookie = 0;
		q->err_code = 0;
	}
	spin_unlock_irqrestore(&dd->lock, flags);
	out.output_size_bytes = sizeof(out);
	out.max_batch = TENSTORRENT_DMA_QUEUE_MAX_BATCH;
	out.max_length = TENSTORRENT_DMA_MAX_LENGTH;
	out.align = TENSTORRENT_DMA_ALIGN;
	return tt_copy_out(&arg->out, in.output_size_bytes, &out,
				sizeof(out));
}

__poll_t tt_dmaq_poll(struct tt_file *tf, struct file *file,
		      struct poll_table_struct *wait)
{
	struct tt_dmaq_dev *dd = tf->tdev->dmaq;
	struct tt_dmaq *q = tf->dmaq;
	unsigned long flags;
	__poll_t mask = 0;

	if (!q)
		return EPOLLERR;
	poll_wait(file, &q->wq, wait);
	spin_lock_irqsave(&dd->lock, flags);
	tt_dmaq_reap(dd);
	/* A stale file can learn nothing more: its commands are ENODEV. */
	if (dd->detached || tt_dmaq_stale(tf)) {
		mask = EPOLLERR | EPOLLHUP;
	} else {
		if (q->completed > q->reported)
			mask |= EPOLLIN | EPOLLRDNORM;
		if (q->err_seqno)
			mask |= EPOLLERR;
		else if (q->submitted - q->completed < TT_DMAQ_DEPTH)
			mask |= EPOLLOUT | EPOLLWRNORM;
	}
	spin_unlock_irqrestore(&dd->lock, flags);
	return mask;
}
