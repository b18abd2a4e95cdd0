/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tenstorrent.ko internals: one structure per device, the backend ops that
 * differ between kinds of device, and what the files of the driver offer
 * each other.
 */
#ifndef TT_DRIVER_TENSTORRENT_H
#define TT_DRIVER_TENSTORRENT_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/tenstorrent.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <hw/telemetry.h>

#define TT_NAME "tenstorrent"

/*
 * The UAPI's "resources": RESOURCE0, 1 and 2 are PCI BARs 0, 2 and 4. Each
 * has a UC and a WC mmap region; region 2 * resource + wc.
 */
#define TT_NUM_RESOURCES 3
#define TT_RESOURCE_BAR(res) (2 * (res))

struct tt_device;
struct tt_dma_hw;
struct tt_telemetry;
struct proc_dir_entry;
struct dentry;
struct seq_file;

/**
 * struct tt_backend - what differs between kinds of device
 * @name: short name, for messages
 * @probe: check that the PCI function is a device of this kind and claim
 *	its resources; fill the identity fields of @tdev. Returns -ENODEV when
 *	the function is not ours, logging no more than one debug line, so that
 *	other users of a shared PCI id are left alone. Resources are
 *	device-managed (pcim_*, devm_*): a failed probe needs no undo.
 * @remove: stop using the hardware (optional). Called at unbind, before the
 *	managed resources are released; open files may outlive it.
 * @resources: bit mask of the resources (BIT(0) for RESOURCE0 = BAR0, ...)
 *	that user space may see in QUERY_MAPPINGS and mmap. A BAR that is not
 *	the device's (another function's registers) stays out of it.
 * @apertures: bit mask of the resources that are, instead of a BAR of the
 *	function, the chip's TLB window apertures in that BAR (tlb.c): each
 *	page shows the window it lies in, as configured now, through
 *	@tlb_pfn. For a device whose windows are not BAR pages (the chip
 *	model); a card's BAR0 holds its windows itself.
 * @telemetry: read the firmware's telemetry table into @t (optional).
 *	Called with tdev->lock held and the device attached. Returns
 *	-ENODATA when no valid table is published; every value read from the
 *	device is bounds-checked first.
 * @tlb_configure: point window @id at @c, which tt_tlb_config_check()
 *	accepted; -EOPNOTSUPP for a setting the device cannot honour.
 *	Called with tdev->lock held and the device attached.
 * @tlb_pfn: the page frame that byte @off of a window configured as @c
 *	reaches, or an error (the access faults with SIGBUS); *@read_only
 *	set if the page may only be read (a write faults with SIGBUS).
 *	Called with tdev->lock held and the device attached. A backend
 *	without it has no TLB windows.
 * @atu_set: make outbound ATU region @region map @size bytes of the host
 *	window from offset @base onto bus address @bus; @size 0 closes it.
 *	Called with tdev->lock held and the device attached.
 * @fw_message: send one message to the management firmware and wait up to
 *	@timeout_ms for its answer (hw/msgq.h words; with @rsp NULL, only
 *	for room to post it); -ENODEV if no firmware
 *	runs, -ETIMEDOUT, -EPROTO for a corrupt queue (optional; without it
 *	there is no power management and no ASIC reset). Called with the
 *	reset gate held, never with tdev->lock.
 * @reset_marker: a token that a chip reset changes (optional, with
 *	@reset_done)
 * @reset_done: 0 once the chip has been reset since @marker was taken and
 *	its firmware is ready again, -EAGAIN before
 * @noc_write32: write @val at local address @addr of node (@x, @y) on
 *	NOC @noc, for SET_NOC_CLEANUP; with @check, only say whether the
 *	target can be written (-EOPNOTSUPP, -EINVAL). Called with
 *	tdev->lock held and the device attached (optional).
 * @dma_engine: find the device's DMA engine (hw/dmaeng.h) and fill @hw;
 *	-ENODEV if it has none (optional). Called once, after @probe.
 *
 * One backend exists today, "mock" (the chip model behind QEMU's ivshmem);
 * Wormhole and Blackhole cards will add theirs.
 */
struct tt_backend {
	const char *name;
	int (*probe)(struct tt_device *tdev);
	void (*remove)(struct tt_device *tdev);
	unsigned int resources;
	unsigned int apertures;
	int (*telemetry)(struct tt_device *tdev, struct tt_telemetry *t);
	int (*tlb_configure)(struct tt_device *tdev, u32 id,
			     const struct tenstorrent_noc_tlb_config *c);
	int (*tlb_pfn)(struct tt_device *tdev,
		       const struct tenstorrent_noc_tlb_config *c, u64 off,
		       unsigned long *pfn, bool *read_only);
	void (*atu_set)(struct tt_device *tdev, u32 region, u64 base, u64 size,
			u64 bus);
	int (*fw_message)(struct tt_device *tdev, const u32 *req, u32 *rsp,
			  unsigned int timeout_ms);
	u32 (*reset_marker)(struct tt_device *tdev);
	int (*reset_done)(struct tt_device *tdev, u32 marker);
	int (*noc_write32)(struct tt_device *tdev, u8 noc, u8 x, u8 y,
			   u64 addr, u32 val, bool check);
	int (*dma_engine)(struct tt_device *tdev, struct tt_dma_hw *hw);
};

/**
 * struct tt_dma_hw - a device's DMA engine, as its backend found it
 * @regs: the engine's register page (hw/dmaeng.h)
 * @ring: its TT_DMA_RING_PAGES pages of descriptors
 * @irq: the Linux interrupt its completions raise
 * @grid_x: the NOC grid, for the checks of SUBMIT
 * @grid_y: likewise
 * @ring_doorbell: make the device look at PROD; callable in any context
 */
struct tt_dma_hw {
	void __iomem *regs;
	void __iomem *ring;
	int irq;
	u32 grid_x;
	u32 grid_y;
	void (*ring_doorbell)(struct tt_device *tdev);
};

/* log2 of the largest DMA buffer; tt-kmd's value, reported since 1.0. */
#define TT_MAX_DMA_BUF_SIZE_LOG2 28

#define TT_ATU_MAX_REGIONS 16

/**
 * struct tt_atu - the outbound ATU regions the driver hands out (atu.c)
 * @window: bytes of the PCIe node's host window
 * @noc_base: local address of the window's first byte
 * @first: the first region the driver may use
 * @count: regions in all; 0 if the device has no ATU
 * @used: bit r set while region r maps @size[r] bytes from @base[r]
 * @base: offsets in the window
 * @size: bytes
 * @bus: the bus address region r maps onto (set by the driver, not atu.c)
 * @user: the DMA buffer or pinned range region r serves, and its file
 *	(set by the driver): a reset takes regions away from stale files
 */
struct tt_atu {
	u64 window;
	u64 noc_base;
	u32 first;
	u32 count;
	unsigned long used;
	u64 base[TT_ATU_MAX_REGIONS];
	u64 size[TT_ATU_MAX_REGIONS];
	u64 bus[TT_ATU_MAX_REGIONS];
	const void *user[TT_ATU_MAX_REGIONS];
	struct tt_file *user_file[TT_ATU_MAX_REGIONS];
};

/**
 * struct tt_power_request - one file's SET_POWER_STATE, or the aggregate
 * @flags: TT_POWER_FLAG_* bits; bits past a file's declared count are on
 * @settings: per-index values, 0 where not declared
 */
struct tt_power_request {
	u16 flags;
	u16 settings[14];
};

/**
 * struct tt_tlb_kind - windows of one size
 * @size: bytes per window, a power of two
 * @count: how many
 * @base: offset of the first within the TLB mmap region
 * @bar: the BAR that holds them on the chip (0 or 4)
 * @bar_off: the first one's offset in that BAR
 */
struct tt_tlb_kind {
	u64 size;
	u32 count;
	u64 base;
	u32 bar;
	u64 bar_off;
};

/**
 * struct tt_tlb_layout - an architecture's inbound TLB windows
 * @arch: enum tt_hw_arch
 * @kinds: window sizes in id order: ids 0..kinds[0].count - 1 are the
 *	first size, and so on
 * @nkinds: entries of @kinds
 * @count: windows in all
 * @kernel_id: the window the driver keeps for itself
 * @addr_bits: width of the local addresses a window can be pointed at
 */
struct tt_tlb_layout {
	u32 arch;
	const struct tt_tlb_kind *kinds;
	u32 nkinds;
	u32 count;
	u32 kernel_id;
	u32 addr_bits;
};

/**
 * struct tt_tlb - one inbound TLB window
 * @owner: the file that allocated it, or NULL
 * @maps: the VMAs that map it (FREE_TLB fails while there are any)
 * @exports: its live dma-buf exports (tlb_export.c): while there are
 *	any, it is not handed out again, even once @owner gave it up (NULL)
 * @configured: @config is set; until then an access faults
 * @config: where it points
 */
struct tt_tlb {
	struct tt_file *owner;
	unsigned int maps;
	unsigned int exports;
	bool configured;
	struct tenstorrent_noc_tlb_config config;
};

/**
 * struct tt_device - one device
 * @dev: the class device "tenstorrent!N"; its release frees the structure
 * @cdev: the character device /dev/tenstorrent/N
 * @pdev: the PCI function (referenced until release)
 * @backend: the kind of device
 * @backend_priv: the backend's state; valid from its probe to its remove
 * @ordinal: N, or -1 while no number is allocated
 * @proc_dir: /proc/driver/tenstorrent/N, or NULL
 * @debugfs: /sys/kernel/debug/tenstorrent/N, or NULL
 * @lock: protects @detached, @files, @open_count and @excl_open
 * @detached: the device was unbound; open files only get -ENODEV, their
 *	mappings are zapped and fault with SIGBUS
 * @files: the open files (struct tt_file.node), for procfs and zapping
 * @open_count: number of open files
 * @excl_open: an O_EXCL file is open; other opens wait or fail
 * @open_wait: opens waiting for an O_EXCL file to close, or an O_EXCL open
 *	waiting for all files to close
 * @arch: enum tt_hw_arch, as the backend found it
 * @board: enum tt_hw_board
 * @chip_index: position of the chip on its board
 * @hwmon: the hwmon device under the PCI function, or NULL
 * @telem_tags: the telemetry tags published when the device was added:
 *	which tt_* attributes and hwmon channels exist
 * @tlb_layout: the TLB windows, or NULL if the device has none
 * @tlbs: @tlb_layout->count windows, under @lock
 * @dma_capable: the device can reach host memory (DMA buffers)
 * @atu: the ATU regions, under @lock
 * @reset_rwsem: the entry gate: every ioctl holds it for reading, a reset
 *	for writing, so a reset never runs beside a command
 * @reset_gen: resets so far; a file opened before the last is stale and
 *	gets only -ENODEV (under @lock and @reset_rwsem for writing)
 * @needs_hw_init: a reset was started and POST_RESET has not run yet:
 *	only the identity commands and RESET_DEVICE work (likewise)
 * @reset_marker: the backend's marker taken when the reset started
 * @reset_by_fw: that reset was asked of the firmware, which took it
 * @locks: the LOCK_CTL locks held by some file, under @lock
 * @lock_wait: ACQUIRE_BLOCKING waiters, woken at release, reset and unbind
 * @power_sent: the aggregate power request last sent to the firmware
 * @dmaq: the DMA engine and its ring (dmaq.c), or NULL without one
 * @tlb_exports: the live dma-buf exports of TLB windows, under @lock
 *
 * Lifetime: allocated at probe with one reference, which remove drops. Each
 * open file holds one more, so the structure outlives an unbind for as long
 * as files are open; it never touches the hardware once @detached is set.
 */
struct tt_device {
	struct device dev;
	struct cdev cdev;
	struct pci_dev *pdev;
	const struct tt_backend *backend;
	void *backend_priv;
	int ordinal;
	struct proc_dir_entry *proc_dir;
	struct dentry *debugfs;

	struct mutex lock; /* protects detached, files, open_count, excl_open */
	bool detached;
	struct list_head files;
	unsigned int open_count;
	bool excl_open;
	wait_queue_head_t open_wait;

	u32 arch;
	u32 board;
	u32 chip_index;
	struct device *hwmon;
	DECLARE_BITMAP(telem_tags, TT_TAG_COUNT_MAX);
	const struct tt_tlb_layout *tlb_layout;
	struct tt_tlb *tlbs;
	bool dma_capable;
	struct tt_atu atu;

	struct rw_semaphore reset_rwsem;
	u32 reset_gen;
	bool needs_hw_init;
	u32 reset_marker;
	bool reset_by_fw;
	DECLARE_BITMAP(locks, TENSTORRENT_RESOURCE_LOCK_COUNT);
	wait_queue_head_t lock_wait;
	struct tt_power_request power_sent;
	struct tt_dmaq_dev *dmaq;
	struct list_head tlb_exports;
};

struct tt_dma_buf;
struct tt_dmaq;
struct tt_dmaq_dev;

/**
 * struct tt_mapping - one mmap of a BAR, an aperture or a TLB window by a
 *	file, and the copies of its VMA (fork, split), for debugfs
 * @node: in tt_file.mappings, under tdev->lock
 * @tf: the file
 * @vmas: the VMAs it describes; it goes with the last
 * @tlb: a TLB window's mapping (@id); else a BAR's or an aperture's
 * @wc: write-combined; else uncached
 * @id: the window
 * @bar: the BAR, as the chip has it (a window's or an aperture's)
 * @offset: first byte in @bar, as mapped
 * @size: bytes, as mapped
 */
struct tt_mapping {
	struct list_head node;
	struct tt_file *tf;
	unsigned int vmas;
	bool tlb;
	bool wc;
	u32 id;
	u32 bar;
	u64 offset;
	u64 size;
};

/**
 * struct tt_file - state of one open file
 * @tdev: the device (one reference held)
 * @file: the file, whose mapping holds this file's mmaps
 * @node: in tdev->files
 * @pid: the thread group that opened it, for procfs
 * @comm: the name of the task that opened it, for debugfs
 * @excl: opened with O_EXCL
 * @power_aware: opened with O_APPEND: a client that manages its power
 *	request itself (SET_POWER_STATE); recorded for the power increment
 * @lock: protects @dma_bufs and @pins
 * @dma_bufs: the file's DMA buffers by index (dma.c)
 * @pins: the file's pinned ranges (pin.c)
 * @reset_gen: the device's reset_gen when the file was opened (or when it
 *	reset the device itself); another value makes the file stale
 * @locks: the LOCK_CTL locks this file holds, under tdev->lock
 * @noc_cleanup: the SET_NOC_CLEANUP write to do at release, under
 *	tdev->lock; enabled unless @noc_cleanup.enabled is 0
 * @power: this file's power request, under tdev->lock
 * @dmaq: the file's DMA queue (dmaq.c), or NULL if the device has no
 *	engine
 * @dma_leak: the DMA engine may still reach the buffers: never free them
 * @peer_maps: the file's MAP_PEER_BAR mappings (peer.c), under @lock
 * @peer_map_count: how many
 * @mappings: its mmaps of BARs, apertures and windows (struct tt_mapping),
 *	under tdev->lock
 */
struct tt_file {
	struct tt_device *tdev;
	struct file *file;
	struct list_head node;
	struct pid *pid;
	char comm[TASK_COMM_LEN];
	bool excl;
	bool power_aware;
	struct mutex lock; /* protects dma_bufs, pins */
	struct tt_dma_buf *dma_bufs[TENSTORRENT_MAX_DMA_BUFS];
	struct list_head pins;
	u32 reset_gen;
	DECLARE_BITMAP(locks, TENSTORRENT_RESOURCE_LOCK_COUNT);
	struct tenstorrent_set_noc_cleanup noc_cleanup;
	struct tt_power_request power;
	struct tt_dmaq *dmaq;
	bool dma_leak;
	struct list_head peer_maps;
	unsigned int peer_map_count;
	struct list_head mappings;
};

/* May the device's hardware be used now? With tdev->lock or the gate. */
static inline bool tt_device_usable(const struct tt_device *tdev)
{
	return !tdev->detached && !tdev->needs_hw_init;
}

/*
 * May @tf reach the hardware now? Not after unbind, not if the device was
 * reset since @tf was opened, not between a reset and POST_RESET. Called
 * with tdev->lock or the reset gate held.
 */
static inline bool tt_file_usable(const struct tt_file *tf)
{
	const struct tt_device *tdev = tf->tdev;

	return !tdev->detached && tf->reset_gen == tdev->reset_gen &&
	       !tdev->needs_hw_init;
}

static inline int tt_backend_probe(struct tt_device *tdev)
{
	return tdev->backend->probe(tdev);
}

static inline void tt_backend_remove(struct tt_device *tdev)
{
	if (tdev->backend->remove)
		tdev->backend->remove(tdev);
}

/* chardev.c: the class, device numbers and the file operations. */
int tt_chardev_init(unsigned int max_devices);
void tt_chardev_exit(void);
int tt_chardev_add(struct tt_device *tdev);
void tt_chardev_del(struct tt_device *tdev);
void tt_device_detach(struct tt_device *tdev);
bool tt_file_usable_now(struct tt_file *tf);
struct tt_file *tt_file_of(struct file *file);

/* ioctl.c: the commands. */
long tt_ioctl(struct tt_file *tf, unsigned int cmd, void __user *arg);
bool tt_resource_mappable(struct tt_device *tdev, unsigned int res);
int tt_copy_out(void __user *uout, u32 user_size, const void *out,
		size_t out_size);

/* mmap.c: mappings of BARs. */
int tt_mmap(struct tt_file *tf, struct vm_area_struct *vma);
void tt_mmap_set_flags(struct vm_area_struct *vma);
void tt_zap_mappings(struct tt_device *tdev);
struct tt_mapping *tt_mapping_new(struct tt_file *tf, bool tlb, bool wc,
				  u32 id, u32 bar, u64 offset, u64 size);
void tt_mapping_get(struct tt_mapping *m);
void tt_mapping_put(struct tt_mapping *m);

/* tlb.c: TLB windows. */
int tt_tlb_init(struct tt_device *tdev);
long tt_ioctl_allocate_tlb(struct tt_file *tf,
			   struct tenstorrent_allocate_tlb __user *arg);
long tt_ioctl_free_tlb(struct tt_file *tf,
		       struct tenstorrent_free_tlb __user *arg);
long tt_ioctl_configure_tlb(struct tt_file *tf,
			    struct tenstorrent_configure_tlb __user *arg);
int tt_tlb_free_id(struct tt_file *tf, u32 id);
void tt_tlb_release_file(struct tt_file *tf);
void tt_tlb_reclaim_stale(struct tt_device *tdev);
int tt_tlb_mmap(struct tt_file *tf, struct vm_area_struct *vma, u64 offset,
		bool wc);
u64 tt_tlb_aperture_len(struct tt_device *tdev, unsigned int res);
int tt_tlb_aperture_mmap(struct tt_file *tf, struct vm_area_struct *vma,
			 unsigned int res, u64 offset, bool wc);
vm_fault_t tt_tlb_fault_at(struct vm_fault *vmf, struct tt_device *tdev,
			   const struct tt_file *tf, u32 id, u64 off);
vm_fault_t tt_tlb_mkwrite_at(struct tt_device *tdev, const struct tt_file *tf,
			     u32 id, u64 off);
struct tt_tlb *tt_tlb_owned(struct tt_file *tf, u32 id, int *err);
void tt_tlb_unhold(struct tt_device *tdev, u32 id);

/* tlb_export.c: dma-buf exports of TLB windows. */
#if IS_ENABLED(CONFIG_DMA_SHARED_BUFFER)
long tt_ioctl_export_tlb_dmabuf(struct tt_file *tf,
				struct tenstorrent_export_tlb_dmabuf __user *arg);
void tt_tlb_export_zap(struct tt_device *tdev, s64 id);
void tt_tlb_export_show(struct seq_file *s, struct tt_device *tdev);
#else
static inline long
tt_ioctl_export_tlb_dmabuf(struct tt_file *tf,
			   struct tenstorrent_export_tlb_dmabuf __user *arg)
{
	return -EOPNOTSUPP;
}

static inline void tt_tlb_export_zap(struct tt_device *tdev, s64 id)
{
}

static inline void tt_tlb_export_show(struct seq_file *s,
				      struct tt_device *tdev)
{
}
#endif
int tt_tlb_export_check(const struct tenstorrent_export_tlb_dmabuf *a);

/* peer.c: MAP_PEER_BAR. */
int tt_peer_check(const struct tenstorrent_map_peer_bar_in *in);
long tt_ioctl_map_peer_bar(struct tt_file *tf,
			   struct tenstorrent_map_peer_bar __user *arg);
void tt_peer_release_file(struct tt_file *tf);
void tt_peer_show(struct seq_file *s, struct tt_file *tf, bool addrs);

/* dma.c: DMA buffers. */
long tt_ioctl_allocate_dma_buf(struct tt_file *tf,
			       struct tenstorrent_allocate_dma_buf __user *arg);
int tt_dma_mmap(struct tt_file *tf, struct vm_area_struct *vma,
		unsigned int index, u64 offset);
void tt_dma_release_file(struct tt_file *tf);
void tt_dma_detach(struct tt_device *tdev);
void tt_dma_show(struct seq_file *s, struct tt_file *tf, bool addrs);
int tt_dma_buf_bus(struct tt_file *tf, unsigned int index, u64 offset,
		   u64 len, u64 *bus);
int tt_noc_map_host(struct tt_file *tf, const void *user, u64 size,
		    bool top_down, dma_addr_t bus, u64 *noc_address);
void tt_noc_unmap_host(struct tt_device *tdev, const void *user, int region);
void tt_atu_reclaim_stale(struct tt_device *tdev);
void tt_atu_restore(struct tt_device *tdev);

/* pin.c: pinned user memory. */
struct tt_pin;
int tt_pin_check(u32 flags, u64 va, u64 size);
long tt_ioctl_pin_pages(struct tt_file *tf,
			struct tenstorrent_pin_pages __user *arg);
long tt_ioctl_unpin_pages(struct tt_file *tf,
			  struct tenstorrent_unpin_pages __user *arg);
int tt_unpin(struct tt_file *tf, u64 va, u64 size);
struct tt_pin *tt_pin_find(struct tt_file *tf, u64 va, u64 len,
			   dma_addr_t *bus, bool *read_only);
void tt_pin_get(struct tt_pin *pin);
void tt_pin_put(struct tt_pin *pin);
void tt_pin_release_file(struct tt_file *tf);
void tt_pin_show(struct seq_file *s, struct tt_file *tf, bool addrs);
bool tt_iommu_translates(struct device *dev);

/* lock.c: LOCK_CTL. */
int tt_lock_check(const struct tenstorrent_lock_ctl_in *in);
long tt_ioctl_lock_ctl(struct tt_file *tf,
		       struct tenstorrent_lock_ctl __user *arg);
void tt_lock_release_file(struct tt_file *tf);

/* reset.c: RESET_DEVICE and the entry gate. */
int tt_reset_check(u32 flags);
long tt_ioctl_reset_device(struct tt_file *tf,
			   struct tenstorrent_reset_device __user *arg);

/* power.c: SET_POWER_STATE, SET_NOC_CLEANUP. */
int tt_power_check(const struct tenstorrent_power_state *ps);
int tt_noc_cleanup_check(const struct tenstorrent_set_noc_cleanup *c);
long tt_ioctl_set_power_state(struct tt_file *tf,
			      struct tenstorrent_power_state __user *arg);
long tt_ioctl_set_noc_cleanup(struct tt_file *tf,
			      struct tenstorrent_set_noc_cleanup __user *arg);
void tt_power_open(struct tt_file *tf);
void tt_power_forget(struct tt_device *tdev);
int tt_power_update(struct tt_device *tdev);
void tt_power_release_file(struct tt_file *tf);
void tt_noc_cleanup_run(struct tt_file *tf);

/* dmaq.c: DMA queues. */
int tt_dmaq_probe(struct tt_device *tdev);
void tt_dmaq_detach(struct tt_device *tdev);
void tt_dmaq_reset(struct tt_device *tdev);
void tt_dmaq_collect(struct tt_file *tf);
void tt_dmaq_free(struct tt_device *tdev);
int tt_dmaq_open(struct tt_file *tf);
bool tt_dmaq_release(struct tt_file *tf);
long tt_ioctl_dma_queue_submit(struct tt_file *tf,
			       struct tenstorrent_dma_queue_submit __user *arg);
long tt_ioctl_dma_queue_wait(struct tt_file *tf,
			     struct tenstorrent_dma_queue_wait __user *arg);
long tt_ioctl_dma_queue_query(struct tt_file *tf,
			      struct tenstorrent_dma_queue_query __user *arg);
__poll_t tt_dmaq_poll(struct tt_file *tf, struct file *file,
		      struct poll_table_struct *wait);

/* Pure, for KUnit (tt_dmaq_kunit.c): see dmaq.c. */
int tt_dmaq_check_desc(const struct tenstorrent_dma_desc *d, u32 grid_x,
		       u32 grid_y);
u32 tt_dmaq_hw_ctrl(const struct tenstorrent_dma_desc *d);

/* atu.c, pure, for KUnit (tt_atu_kunit.c). */
void tt_atu_init(struct tt_atu *atu, u64 window, u64 noc_base, u32 first,
		 u32 count);
int tt_atu_alloc(struct tt_atu *atu, u64 size, bool top_down, u64 *base);
void tt_atu_free(struct tt_atu *atu, u32 region);

/* Pure, for KUnit (tt_tlb_kunit.c): see tlb.c. */
const struct tt_tlb_layout *tt_tlb_layout_of(u32 arch);
bool tt_tlb_window(const struct tt_tlb_layout *l, u32 id, u64 *size,
		   u64 *offset);
bool tt_tlb_window_at(const struct tt_tlb_layout *l, u64 offset, u64 len,
		      u32 *id);
int tt_tlb_config_check(const struct tt_tlb_layout *l, u64 size,
			const struct tenstorrent_noc_tlb_config *c);

/**
 * struct tt_mmap_window - the pages of a BAR an mmap offset selects
 * @res: the resource (RESOURCE0 is BAR0, RESOURCE1 BAR2, RESOURCE2 BAR4)
 * @first: the first page, within the BAR
 * @wc: write-combined; else uncached
 */
struct tt_mmap_window {
	unsigned int res;
	unsigned long first;
	bool wc;
};

/* Pure, for KUnit (tt_mmap_kunit.c): see mmap.c. */
bool tt_mmap_decode(unsigned long pgoff, unsigned long pages,
		    const unsigned long bar_pages[TT_NUM_RESOURCES],
		    struct tt_mmap_window *w);

/* debugfs.c: /sys/kernel/debug/tenstorrent/N/mappings. */
__printf(4, 5)
void tt_debugfs_row(struct seq_file *s, const struct tt_file *tf,
		    const char *type, const char *fmt, ...);
void tt_debugfs_init(void);
void tt_debugfs_exit(void);
void tt_debugfs_add(struct tt_device *tdev);
void tt_debugfs_del(struct tt_device *tdev);

/* procfs.c: /proc/driver/tenstorrent/N/pids. */
int tt_procfs_init(void);
void tt_procfs_exit(void);
void tt_procfs_add(struct tt_device *tdev);
void tt_procfs_del(struct tt_device *tdev);

/* pci.c: binding to PCI functions. */
extern struct pci_driver tt_pci_driver;

/* mock.c */
extern const struct tt_backend tt_mock_backend;

#endif /* TT_DRIVER_TENSTORRENT_H */
