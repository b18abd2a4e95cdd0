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
#include <linux/mutex.h>
#include <linux/pci.h>
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
 * @telemetry: read the firmware's telemetry table into @t (optional).
 *	Called with tdev->lock held and the device attached. Returns
 *	-ENODATA when no valid table is published; every value read from the
 *	device is bounds-checked first.
 * @tlb_configure: point window @id at @c, which tt_tlb_config_check()
 *	accepted; -EOPNOTSUPP for a setting the device cannot honour.
 *	Called with tdev->lock held and the device attached.
 * @tlb_pfn: the page frame that byte @off of a window configured as @c
 *	reaches, or an error (the access faults with SIGBUS). Called with
 *	tdev->lock held and the device attached. A backend without it has
 *	no TLB windows.
 * @atu_set: make outbound ATU region @region map @size bytes of the host
 *	window from offset @base onto bus address @bus; @size 0 closes it.
 *	Called with tdev->lock held and the device attached.
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
	int (*telemetry)(struct tt_device *tdev, struct tt_telemetry *t);
	int (*tlb_configure)(struct tt_device *tdev, u32 id,
			     const struct tenstorrent_noc_tlb_config *c);
	int (*tlb_pfn)(struct tt_device *tdev,
		       const struct tenstorrent_noc_tlb_config *c, u64 off,
		       unsigned long *pfn);
	void (*atu_set)(struct tt_device *tdev, u32 region, u64 base, u64 size,
			u64 bus);
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
 */
struct tt_atu {
	u64 window;
	u64 noc_base;
	u32 first;
	u32 count;
	unsigned long used;
	u64 base[TT_ATU_MAX_REGIONS];
	u64 size[TT_ATU_MAX_REGIONS];
};

/**
 * struct tt_tlb_kind - windows of one size
 * @size: bytes per window, a power of two
 * @count: how many
 * @base: offset of the first within the TLB mmap region (its BAR offset)
 */
struct tt_tlb_kind {
	u64 size;
	u32 count;
	u64 base;
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
 * @configured: @config is set; until then an access faults
 * @config: where it points
 */
struct tt_tlb {
	struct tt_file *owner;
	unsigned int maps;
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
 * @dmaq: the DMA engine and its ring (dmaq.c), or NULL without one
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
	struct tt_dmaq_dev *dmaq;
};

struct tt_dma_buf;
struct tt_dmaq;
struct tt_dmaq_dev;

/**
 * struct tt_file - state of one open file
 * @tdev: the device (one reference held)
 * @file: the file, whose mapping holds this file's mmaps
 * @node: in tdev->files
 * @pid: the thread group that opened it, for procfs
 * @excl: opened with O_EXCL
 * @power_aware: opened with O_APPEND: a client that manages its power
 *	request itself (SET_POWER_STATE); recorded for the power increment
 * @lock: protects @dma_bufs
 * @dma_bufs: the file's DMA buffers by index (dma.c)
 * @dmaq: the file's DMA queue (dmaq.c), or NULL if the device has no
 *	engine
 * @dma_leak: the DMA engine may still reach the buffers: never free them
 */
struct tt_file {
	struct tt_device *tdev;
	struct file *file;
	struct list_head node;
	struct pid *pid;
	bool excl;
	bool power_aware;
	struct mutex lock; /* protects dma_bufs */
	struct tt_dma_buf *dma_bufs[TENSTORRENT_MAX_DMA_BUFS];
	struct tt_dmaq *dmaq;
	bool dma_leak;
};

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
bool tt_device_detached(struct tt_device *tdev);

/* ioctl.c: the commands. */
long tt_ioctl(struct tt_file *tf, unsigned int cmd, void __user *arg);
bool tt_resource_mappable(struct tt_device *tdev, unsigned int res);

/* mmap.c: mappings of BARs. */
int tt_mmap(struct tt_file *tf, struct vm_area_struct *vma);
void tt_mmap_set_flags(struct vm_area_struct *vma);
void tt_zap_mappings(struct tt_device *tdev);

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
int tt_tlb_mmap(struct tt_file *tf, struct vm_area_struct *vma, u64 offset,
		bool wc);

/* dma.c: DMA buffers. */
long tt_ioctl_allocate_dma_buf(struct tt_file *tf,
			       struct tenstorrent_allocate_dma_buf __user *arg);
int tt_dma_mmap(struct tt_file *tf, struct vm_area_struct *vma,
		unsigned int index, u64 offset);
void tt_dma_release_file(struct tt_file *tf);
void tt_dma_detach(struct tt_device *tdev);
int tt_dma_buf_bus(struct tt_file *tf, unsigned int index, u64 offset,
		   u64 len, u64 *bus);

/* dmaq.c: DMA queues. */
int tt_dmaq_probe(struct tt_device *tdev);
void tt_dmaq_detach(struct tt_device *tdev);
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
