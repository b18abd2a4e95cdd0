/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * User ABI of the tenstorrent driver: /dev/tenstorrent/N.
 *
 * Part 1 is the ioctl ABI of Tenstorrent's tt-kmd at IOCTL API version 2
 * (TENSTORRENT_DRIVER_VERSION), reproduced to the byte: same magic, command
 * numbers, struct layouts, flag values and mmap offsets, so programs written
 * against tt-kmd (tt-umd, tt-smi, tt-kmd's own tests) work unchanged.
 * Part 2 holds our extensions (DMA queues). docs/abi.md is the prose
 * description of both; the notes here say what a caller must know.
 *
 * Conventions every struct follows:
 *  - All commands are _IO(TENSTORRENT_IOCTL_MAGIC, nr): neither the size nor
 *    the direction is encoded, and an unknown command fails with EINVAL
 *    (not ENOTTY).
 *  - Most commands take { struct X_in in; struct X_out out; }. The driver
 *    reads only `in` and writes only `out`.
 *  - output_size_bytes (in `in`): the number of bytes the caller provides
 *    at `out`. The driver zeroes all of them, then fills
 *    min(output_size_bytes, sizeof(out)); with 0 it writes nothing at all.
 *    This lets `out` grow without breaking older callers.
 *  - The flat commands (SET_NOC_CLEANUP, SET_POWER_STATE,
 *    EXPORT_TLB_DMABUF) start with argsz, which must equal the struct's
 *    size, and flags, which must be 0 unless a flag is defined.
 *  - Every hole is a named reserved member: no struct has compiler-inserted
 *    padding (tests/unit/uapi/test_uapi.c checks each size and offset). tt-kmd
 *    ignores most reserved members; callers should still zero them.
 *  - Some wrappers contain empty structs. Their size is 0 in GNU C but 1 in
 *    C++, so sizeof of such a wrapper differs between the languages; the
 *    driver never uses those sizes, and callers should not either.
 *
 * open(2) flags with a meaning of their own:
 *  - O_EXCL: the open waits until no other fd of the device is open, and
 *    every later open waits until this fd is closed.
 *  - O_NONBLOCK: instead of waiting as above, the open fails with EAGAIN.
 *  - O_APPEND: the fd is "power aware": opening it asks the firmware for
 *    nothing (its initial power request is all off). Without O_APPEND the
 *    open requests every power flag except TT_POWER_FLAG_MAX_AI_CLK and
 *    tells the firmware at once. Reset tools open with O_APPEND so that a
 *    hung chip is not sent messages.
 * After a destructive reset (TENSTORRENT_RESET_DEVICE_*), every fd opened
 * before it, except the one that asked for the reset, fails all ioctls and
 * mmaps with ENODEV; so does every fd of a removed device.
 */
#ifndef _UAPI_LINUX_TENSTORRENT_H
#define _UAPI_LINUX_TENSTORRENT_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* ====================================================================== */
/* Part 1: tt-kmd, IOCTL API version 2                                    */
/* ====================================================================== */

#define TENSTORRENT_DRIVER_VERSION 2 /* GET_DRIVER_INFO.driver_version */

#define TENSTORRENT_IOCTL_MAGIC 0xFA

#define TENSTORRENT_IOCTL_GET_DEVICE_INFO _IO(TENSTORRENT_IOCTL_MAGIC, 0)
/* Never implemented by tt-kmd: always EINVAL. It has no argument struct. */
#define TENSTORRENT_IOCTL_GET_HARVESTING _IO(TENSTORRENT_IOCTL_MAGIC, 1)
#define TENSTORRENT_IOCTL_QUERY_MAPPINGS _IO(TENSTORRENT_IOCTL_MAGIC, 2)
#define TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF _IO(TENSTORRENT_IOCTL_MAGIC, 3)
/* Always EINVAL: DMA buffers live until the fd is closed. */
#define TENSTORRENT_IOCTL_FREE_DMA_BUF _IO(TENSTORRENT_IOCTL_MAGIC, 4)
#define TENSTORRENT_IOCTL_GET_DRIVER_INFO _IO(TENSTORRENT_IOCTL_MAGIC, 5)
#define TENSTORRENT_IOCTL_RESET_DEVICE _IO(TENSTORRENT_IOCTL_MAGIC, 6)
#define TENSTORRENT_IOCTL_PIN_PAGES _IO(TENSTORRENT_IOCTL_MAGIC, 7)
#define TENSTORRENT_IOCTL_LOCK_CTL _IO(TENSTORRENT_IOCTL_MAGIC, 8)
#define TENSTORRENT_IOCTL_MAP_PEER_BAR _IO(TENSTORRENT_IOCTL_MAGIC, 9)
#define TENSTORRENT_IOCTL_UNPIN_PAGES _IO(TENSTORRENT_IOCTL_MAGIC, 10)
#define TENSTORRENT_IOCTL_ALLOCATE_TLB _IO(TENSTORRENT_IOCTL_MAGIC, 11)
#define TENSTORRENT_IOCTL_FREE_TLB _IO(TENSTORRENT_IOCTL_MAGIC, 12)
#define TENSTORRENT_IOCTL_CONFIGURE_TLB _IO(TENSTORRENT_IOCTL_MAGIC, 13)
#define TENSTORRENT_IOCTL_SET_NOC_CLEANUP _IO(TENSTORRENT_IOCTL_MAGIC, 14)
#define TENSTORRENT_IOCTL_SET_POWER_STATE _IO(TENSTORRENT_IOCTL_MAGIC, 15)
#define TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF _IO(TENSTORRENT_IOCTL_MAGIC, 16)

/* Limits */
#define TENSTORRENT_MAX_DMA_BUFS 256	   /* buf_index is 0..255, per fd */
#define TENSTORRENT_MAX_INBOUND_TLBS 256   /* TLB window ids are below this */
#define TENSTORRENT_RESOURCE_LOCK_COUNT 64 /* LOCK_CTL index is 0..63 */

/* ---------------------------------------------------------------------- */
/* 0: GET_DEVICE_INFO - PCI identity of the device                        */

struct tenstorrent_get_device_info_in {
	__u32 output_size_bytes;
};

struct tenstorrent_get_device_info_out {
	__u32 output_size_bytes; /* set to sizeof(this struct), 20 */
	__u16 vendor_id;
	__u16 device_id;
	__u16 subsystem_vendor_id;
	__u16 subsystem_id;
	__u16 bus_dev_fn; /* bus in 15:8, device in 7:3, function in 2:0 */
	/* log2 of the largest ALLOCATE_DMA_BUF size; tt-kmd says 28. */
	__u16 max_dma_buf_size_log2;
	__u16 pci_domain;
	__u16 reserved;
};

struct tenstorrent_get_device_info {
	struct tenstorrent_get_device_info_in in;
	struct tenstorrent_get_device_info_out out;
};

/* ---------------------------------------------------------------------- */
/* 2: QUERY_MAPPINGS - what can be mmapped, and at which offset           */

/* Mapping ids. They name resources; they are not array indices. */
#define TENSTORRENT_MAPPING_UNUSED 0 /* a trailing entry with no mapping */
#define TENSTORRENT_MAPPING_RESOURCE0_UC 1 /* PCI BAR0, uncached */
#define TENSTORRENT_MAPPING_RESOURCE0_WC 2 /* PCI BAR0, write-combined */
#define TENSTORRENT_MAPPING_RESOURCE1_UC 3 /* PCI BAR2 */
#define TENSTORRENT_MAPPING_RESOURCE1_WC 4
#define TENSTORRENT_MAPPING_RESOURCE2_UC 5 /* PCI BAR4 */
#define TENSTORRENT_MAPPING_RESOURCE2_WC 6

struct tenstorrent_mapping {
	__u32 mapping_id; /* TENSTORRENT_MAPPING_* */
	__u32 reserved;
	__u64 mapping_base; /* the mmap offset */
	__u64 mapping_size; /* bytes */
};

struct tenstorrent_query_mappings_in {
	/* Entries the caller provides after `in`. The driver writes the
	 * mappings that exist (UC then WC for each non-empty BAR, in BAR
	 * order) and zeroes the remaining requested entries. */
	__u32 output_mapping_count;
	__u32 reserved;
};

struct tenstorrent_query_mappings_out {
	/* Zero-length array, as in tt-kmd: the caller allocates the tail. */
	struct tenstorrent_mapping mappings[0];
};

struct tenstorrent_query_mappings {
	struct tenstorrent_query_mappings_in in;
	struct tenstorrent_query_mappings_out out;
};

/* ---------------------------------------------------------------------- */
/* 3: ALLOCATE_DMA_BUF - a coherent host buffer the device can reach      */

/* The only flag tt-kmd honours: also give the buffer a NOC address. */
#define TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA 2

struct tenstorrent_allocate_dma_buf_in {
	/* > 0, a page multiple, at most 2^max_dma_buf_size_log2 */
	__u32 requested_size;
	__u8 buf_index; /* chosen by the caller; unused in this fd */
	__u8 flags;	/* TENSTORRENT_ALLOCATE_DMA_BUF_* */
	__u8 reserved0[2];
	__u64 reserved1[2];
};

struct tenstorrent_allocate_dma_buf_out {
	__u64 physical_address; /* bus address (PA or IOVA) */
	__u64 mapping_offset;	/* mmap offset, TENSTORRENT_MMAP_DMA_BUF() */
	__u32 size;
	__u32 reserved0;
	__u64 noc_address; /* with TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA */
	__u64 reserved1;
};

struct tenstorrent_allocate_dma_buf {
	struct tenstorrent_allocate_dma_buf_in in;
	struct tenstorrent_allocate_dma_buf_out out;
};

/* ---------------------------------------------------------------------- */
/* 4: FREE_DMA_BUF - kept for numbering; always EINVAL                    */

struct tenstorrent_free_dma_buf_in {
};

struct tenstorrent_free_dma_buf_out {
};

struct tenstorrent_free_dma_buf {
	struct tenstorrent_free_dma_buf_in in;
	struct tenstorrent_free_dma_buf_out out;
};

/* ---------------------------------------------------------------------- */
/* 5: GET_DRIVER_INFO - ABI version and the driver's semantic version     */

struct tenstorrent_get_driver_info_in {
	__u32 output_size_bytes;
};

struct tenstorrent_get_driver_info_out {
	__u32 output_size_bytes; /* set to sizeof(this struct), 12 */
	__u32 driver_version;	 /* TENSTORRENT_DRIVER_VERSION */
	/* The same version as /sys/module/tenstorrent/version. */
	__u8 driver_version_major;
	__u8 driver_version_minor;
	__u8 driver_version_patch;
	__u8 reserved0;
};

struct tenstorrent_get_driver_info {
	struct tenstorrent_get_driver_info_in in;
	struct tenstorrent_get_driver_info_out out;
};

/* ---------------------------------------------------------------------- */
/* 6: RESET_DEVICE                                                        */

/*
 * `flags` holds ONE of these values; it is not a bit mask. The "legacy"
 * three come first; 3..6 are the current flow: trigger (3, 4 or 5), wait
 * for the device to come back, then POST_RESET. 2..5 invalidate every other
 * fd (ENODEV) and need POST_RESET before the device is usable again; only
 * GET_DEVICE_INFO, GET_DRIVER_INFO and RESET_DEVICE work in between.
 */
#define TENSTORRENT_RESET_DEVICE_RESTORE_STATE 0   /* reload config, re-init */
#define TENSTORRENT_RESET_DEVICE_RESET_PCIE_LINK 1 /* secondary bus reset */
#define TENSTORRENT_RESET_DEVICE_CONFIG_WRITE 2	   /* config-write trigger */
#define TENSTORRENT_RESET_DEVICE_USER_RESET 3	   /* reset done elsewhere */
#define TENSTORRENT_RESET_DEVICE_ASIC_RESET 4	   /* chip reset by firmware */
#define TENSTORRENT_RESET_DEVICE_ASIC_DMC_RESET 5  /* chip + board control */
#define TENSTORRENT_RESET_DEVICE_POST_RESET 6	   /* finish after a reset */

struct tenstorrent_reset_device_in {
	__u32 output_size_bytes;
	__u32 flags; /* TENSTORRENT_RESET_DEVICE_* */
};

struct tenstorrent_reset_device_out {
	__u32 output_size_bytes; /* set to sizeof(this struct), 8 */
	/* 0 success, 1 failure. A failed reset still returns 0 from the
	 * ioctl; only bad arguments make the ioctl itself fail. */
	__u32 result;
};

struct tenstorrent_reset_device {
	struct tenstorrent_reset_device_in in;
	struct tenstorrent_reset_device_out out;
};

/* ---------------------------------------------------------------------- */
/* 7: PIN_PAGES, 10: UNPIN_PAGES - make user memory reachable by DMA      */

/* Only these bits are allowed; any other bit is EINVAL. */
#define TENSTORRENT_PIN_PAGES_CONTIGUOUS 1   /* accepted, not required */
#define TENSTORRENT_PIN_PAGES_NOC_DMA 2	     /* also give a NOC address */
#define TENSTORRENT_PIN_PAGES_NOC_TOP_DOWN 4 /* the same, from the top */
/* The device may only read the pages; needs an IOMMU (else EOPNOTSUPP). */
#define TENSTORRENT_PIN_PAGES_READ_ONLY 8

struct tenstorrent_pin_pages_in {
	__u32 output_size_bytes; /* 8 or 16: the short or extended out */
	__u32 flags;		 /* TENSTORRENT_PIN_PAGES_* */
	__u64 virtual_address;	 /* page aligned */
	__u64 size;		 /* page multiple, > 0 */
};

struct tenstorrent_pin_pages_out {
	__u64 physical_address; /* bus address (PA or IOVA) */
};

/* What the driver fills; the caller sets output_size_bytes to 16 for it. */
struct tenstorrent_pin_pages_out_extended {
	__u64 physical_address;
	__u64 noc_address; /* with PIN_PAGES_NOC_DMA or _NOC_TOP_DOWN */
};

struct tenstorrent_pin_pages {
	struct tenstorrent_pin_pages_in in;
	struct tenstorrent_pin_pages_out out;
};

struct tenstorrent_unpin_pages_in {
	__u64 virtual_address; /* exactly as pinned */
	__u64 size;	       /* exactly as pinned: no partial unpinning */
	__u64 reserved;	       /* must be 0 */
};

struct tenstorrent_unpin_pages_out {
};

struct tenstorrent_unpin_pages {
	struct tenstorrent_unpin_pages_in in;
	struct tenstorrent_unpin_pages_out out;
};

/* ---------------------------------------------------------------------- */
/* 8: LOCK_CTL - 64 advisory locks per device, released at close          */

/* Operations (`flags` holds one value) and what out.value means after. */
#define TENSTORRENT_LOCK_CTL_ACQUIRE 0 /* 1 acquired, 0 held elsewhere */
#define TENSTORRENT_LOCK_CTL_RELEASE 1 /* 1 released, 0 not ours */
#define TENSTORRENT_LOCK_CTL_TEST 2    /* bit 0: held by us, bit 1: by anyone */
/* Sleeps until acquired. A signal ends the wait (EINTR, or a restart
 * with SA_RESTART); a reset or removal ends it with ENODEV. Our source on
 * tt-kmd does not say what out.value holds afterwards (1 is the natural
 * reading; do not rely on it). */
#define TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING 3

/* Conventional use of locks 0..15: one per Ethernet core. */
#define TENSTORRENT_LOCK_INDEX_ETH00 0
#define TENSTORRENT_LOCK_INDEX_ETH01 1
#define TENSTORRENT_LOCK_INDEX_ETH02 2
#define TENSTORRENT_LOCK_INDEX_ETH03 3
#define TENSTORRENT_LOCK_INDEX_ETH04 4
#define TENSTORRENT_LOCK_INDEX_ETH05 5
#define TENSTORRENT_LOCK_INDEX_ETH06 6
#define TENSTORRENT_LOCK_INDEX_ETH07 7
#define TENSTORRENT_LOCK_INDEX_ETH08 8
#define TENSTORRENT_LOCK_INDEX_ETH09 9
#define TENSTORRENT_LOCK_INDEX_ETH10 10
#define TENSTORRENT_LOCK_INDEX_ETH11 11
#define TENSTORRENT_LOCK_INDEX_ETH12 12
#define TENSTORRENT_LOCK_INDEX_ETH13 13
#define TENSTORRENT_LOCK_INDEX_ETH14 14
#define TENSTORRENT_LOCK_INDEX_ETH15 15

struct tenstorrent_lock_ctl_in {
	__u32 output_size_bytes;
	__u32 flags; /* TENSTORRENT_LOCK_CTL_* */
	__u8 index;  /* < TENSTORRENT_RESOURCE_LOCK_COUNT */
	__u8 reserved[3];
};

struct tenstorrent_lock_ctl_out {
	__u8 value;
	__u8 reserved[3];
};

struct tenstorrent_lock_ctl {
	struct tenstorrent_lock_ctl_in in;
	struct tenstorrent_lock_ctl_out out;
};

/* ---------------------------------------------------------------------- */
/* 9: MAP_PEER_BAR - let this device reach a BAR of another device        */

struct tenstorrent_map_peer_bar_in {
	__u32 peer_fd; /* fd of another device of the same kind */
	__u32 peer_bar_index;
	__u32 peer_bar_offset;
	__u32 peer_bar_length; /* > 0, inside the peer's BAR */
	__u32 flags;	       /* must be 0 */
	__u32 reserved;
};

struct tenstorrent_map_peer_bar_out {
	__u64 dma_address; /* as this device sees the peer range */
	__u64 reserved;
};

struct tenstorrent_map_peer_bar {
	struct tenstorrent_map_peer_bar_in in;
	struct tenstorrent_map_peer_bar_out out;
};

/* ---------------------------------------------------------------------- */
/* 11: ALLOCATE_TLB, 12: FREE_TLB, 13: CONFIGURE_TLB - inbound windows    */

struct tenstorrent_allocate_tlb_in {
	__u64 size; /* exactly one of the architecture's window sizes */
	__u64 reserved;
};

struct tenstorrent_allocate_tlb_out {
	__u32 id; /* window id, < TENSTORRENT_MAX_INBOUND_TLBS */
	__u32 reserved0;
	__u64 mmap_offset_uc;
	__u64 mmap_offset_wc;
	__u64 reserved1;
};

struct tenstorrent_allocate_tlb {
	struct tenstorrent_allocate_tlb_in in;
	struct tenstorrent_allocate_tlb_out out;
};

struct tenstorrent_free_tlb_in {
	__u32 id; /* owned by this fd and not mapped (else EPERM / EBUSY) */
};

struct tenstorrent_free_tlb_out {
};

struct tenstorrent_free_tlb {
	struct tenstorrent_free_tlb_in in;
	struct tenstorrent_free_tlb_out out;
};

/* Where a window points: NOC node(s) and a local address. */
struct tenstorrent_noc_tlb_config {
	__u64 addr;  /* aligned to the window size */
	__u16 x_end; /* the target (unicast) or one corner (multicast) */
	__u16 y_end;
	__u16 x_start; /* the other corner (multicast only) */
	__u16 y_start;
	__u8 noc; /* 0 or 1 */
	__u8 mcast;
	__u8 ordering; /* 0 relaxed, 1 strict, 2 posted, 3 posted-strict */
	__u8 linked;
	__u8 static_vc;
	__u8 reserved0[3];
	__u32 reserved1[2];
};

struct tenstorrent_configure_tlb_in {
	__u32 id;
	__u32 reserved;
	struct tenstorrent_noc_tlb_config config;
};

struct tenstorrent_configure_tlb_out {
	__u64 reserved;
};

struct tenstorrent_configure_tlb {
	struct tenstorrent_configure_tlb_in in;
	struct tenstorrent_configure_tlb_out out;
};

/* ---------------------------------------------------------------------- */
/* 14: SET_NOC_CLEANUP - one 32-bit NOC write the driver does at close    */

struct tenstorrent_set_noc_cleanup {
	__u32 argsz;  /* sizeof(this struct) */
	__u32 flags;  /* must be 0 */
	__u8 enabled; /* 0 or 1 */
	__u8 x;	      /* <= 64 */
	__u8 y;	      /* <= 64 */
	__u8 noc;     /* 0 or 1 */
	__u32 reserved0;
	__u64 addr; /* 4-byte aligned */
	__u64 data; /* the low 32 bits are written */
};

/* ---------------------------------------------------------------------- */
/* 15: SET_POWER_STATE - this fd's share of the device's power request    */

/* power_flags bits; the device gets the OR over all fds. */
#define TT_POWER_FLAG_MAX_AI_CLK (1U << 0)
#define TT_POWER_FLAG_MRISC_PHY_WAKEUP (1U << 1)
#define TT_POWER_FLAG_TENSIX_ENABLE (1U << 2)
#define TT_POWER_FLAG_L2CPU_ENABLE (1U << 3)
/* Bit 15 is reserved by the firmware. */

/* `validity`: how many leading flags (0..15) and settings (0..14) count;
 * flags beyond the count are taken as on, settings as absent. */
#define TT_POWER_VALIDITY_FLAGS(n) ((__u8)((n)&0xF))
#define TT_POWER_VALIDITY_SETTINGS(n) ((__u8)(((n)&0xF) << 4))
#define TT_POWER_VALIDITY(flags, settings)                                     \
	((__u8)(TT_POWER_VALIDITY_FLAGS(flags) |                               \
		TT_POWER_VALIDITY_SETTINGS(settings)))

struct tenstorrent_power_state {
	__u32 argsz;		  /* sizeof(this struct) */
	__u32 flags;		  /* must be 0 */
	__u8 reserved0;		  /* must be 0 */
	__u8 validity;		  /* TT_POWER_VALIDITY() */
	__u16 power_flags;	  /* TT_POWER_FLAG_* */
	__u16 power_settings[14]; /* the device gets the maximum over fds */
};

/* ---------------------------------------------------------------------- */
/* 16: EXPORT_TLB_DMABUF - a dma-buf fd for part of an owned TLB window   */

struct tenstorrent_export_tlb_dmabuf {
	__u32 argsz;  /* sizeof(this struct) */
	__u32 flags;  /* must be 0 */
	__u32 tlb_id; /* owned by this fd */
	__s32 fd;     /* out: the dma-buf fd, close-on-exec */
	__u64 offset; /* page aligned, inside the window */
	__u64 size;   /* page multiple, inside the window */
};

/* ---------------------------------------------------------------------- */
/* mmap offsets                                                            */

/*
 * One fd maps everything; the mmap offset selects what. Callers should use
 * the offsets the driver returns (QUERY_MAPPINGS, ALLOCATE_TLB,
 * ALLOCATE_DMA_BUF) rather than these macros; they are here because the
 * scheme is part of the ABI (tt-kmd fixes it, its tests rely on every
 * base + size staying below 2^44) and so that the driver has one source.
 * tt-kmd's own header does not define these names.
 *
 * A mapping must lie inside one region. TLB window mappings need a window
 * this fd owns (else EPERM), may not exceed the window and cannot be split
 * (a partial munmap fails with EINVAL).
 */
#define TENSTORRENT_MMAP_REGION_SHIFT 36
#define TENSTORRENT_MMAP_REGION(n) ((__u64)(n) << TENSTORRENT_MMAP_REGION_SHIFT)
#define TENSTORRENT_MMAP_BAR0_UC TENSTORRENT_MMAP_REGION(0)
#define TENSTORRENT_MMAP_BAR0_WC TENSTORRENT_MMAP_REGION(1)
#define TENSTORRENT_MMAP_BAR2_UC TENSTORRENT_MMAP_REGION(2)
#define TENSTORRENT_MMAP_BAR2_WC TENSTORRENT_MMAP_REGION(3)
#define TENSTORRENT_MMAP_BAR4_UC TENSTORRENT_MMAP_REGION(4)
#define TENSTORRENT_MMAP_BAR4_WC TENSTORRENT_MMAP_REGION(5)
/* Plus the window's offset: its BAR0 offset, or 512 MiB + its BAR4 offset
 * for Blackhole's 4 GiB windows. */
#define TENSTORRENT_MMAP_TLB_UC TENSTORRENT_MMAP_REGION(6)
#define TENSTORRENT_MMAP_TLB_WC TENSTORRENT_MMAP_REGION(7)
/* DMA buffer `index`: 4 GiB apart, starting at (page_size - 256) << 32
 * (0xF00_0000_0000 with 4 KiB pages), so that the 256 buffers end at
 * page_size << 32: their page offsets still fit in 32 bits. */
#define TENSTORRENT_MMAP_DMA_BUF_SHIFT 32
#define TENSTORRENT_MMAP_DMA_BUF(page_size, index)                             \
	(((__u64)(page_size) + (__u64)(index) - 256)                           \
	 << TENSTORRENT_MMAP_DMA_BUF_SHIFT)

/* ====================================================================== */
/* Part 2: extensions (not in tt-kmd)                                     */
/* ====================================================================== */

/*
 * Extension numbers start at 0x80, well after tt-kmd's last (16): tt-kmd
 * numbers its commands in sequence, and because _IO encodes no size, a
 * future tt-kmd command landing on one of our numbers would be read with
 * the wrong struct. Numbers below 0x80 are left to tt-kmd.
 */
#define TENSTORRENT_IOCTL_EXT_BASE 0x80

/* ---------------------------------------------------------------------- */
/* DMA queues                                                             */

/*
 * Every fd has one DMA queue: an ordered list of copies between that fd's
 * own host memory (its DMA buffers or the ranges it pinned) and device
 * memory, run by the device's DMA engine. The driver checks every host
 * range against the fd's own buffers; device addresses are the caller's
 * business, as with TLB windows.
 *
 * Each descriptor gets the next number of the fd's sequence: the first
 * descriptor ever submitted is 1. Descriptors complete in that order, so
 * "completed_seqno = n" means 1..n are all finished. A finished
 * TO_DEVICE copy is in device memory, visible to every later NOC access;
 * a finished FROM_DEVICE copy is in host memory, visible to the CPU.
 * Completion is signalled by an interrupt; WAIT sleeps for it and poll(2)
 * reports it (POLLIN | POLLRDNORM while the completed sequence number is
 * beyond the one last returned to this fd by WAIT or QUERY; POLLOUT |
 * POLLWRNORM while the queue has room and no error is latched; POLLERR
 * while an error is latched; POLLERR | POLLHUP once the fd is stale).
 *
 * Errors: if the device refuses a copy (an address outside the node's
 * map, a harvested node) or a reset cancels queued copies, the fd latches
 * the first failed descriptor (QUERY shows it), every descriptor after it
 * that was already queued is cancelled (completed without running), WAIT
 * for any of them fails with EIO, and SUBMIT fails with EIO until QUERY
 * clears the error with TENSTORRENT_DMA_QUEUE_QUERY_CLEAR_ERROR.
 *
 * Close waits for the copy in progress (the engine never touches freed
 * memory) and drops the rest. UNPIN_PAGES of a range a queued descriptor
 * uses fails with EBUSY. A device without a DMA engine fails all three
 * commands with EOPNOTSUPP; a driver without the extension with EINVAL.
 */
#define TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT                                     \
	_IO(TENSTORRENT_IOCTL_MAGIC, TENSTORRENT_IOCTL_EXT_BASE + 0)
#define TENSTORRENT_IOCTL_DMA_QUEUE_WAIT                                       \
	_IO(TENSTORRENT_IOCTL_MAGIC, TENSTORRENT_IOCTL_EXT_BASE + 1)
#define TENSTORRENT_IOCTL_DMA_QUEUE_QUERY                                      \
	_IO(TENSTORRENT_IOCTL_MAGIC, TENSTORRENT_IOCTL_EXT_BASE + 2)

/* Limits. The queue depth itself is reported by QUERY. */
#define TENSTORRENT_DMA_QUEUE_MAX_BATCH 256   /* descriptors per SUBMIT */
#define TENSTORRENT_DMA_QUEUE_MIN_DEPTH 256   /* a full batch always fits */
#define TENSTORRENT_DMA_MAX_LENGTH (1U << 28) /* bytes per descriptor */
#define TENSTORRENT_DMA_ALIGN 4		    /* host/device address and length */
#define TENSTORRENT_DMA_DEVICE_ADDR_BITS 36 /* a node's local address */
#define TENSTORRENT_DMA_WAIT_FOREVER 0xFFFFFFFFU /* timeout_ms */

/* tenstorrent_dma_desc.direction (0 is invalid, so a zeroed slot fails) */
#define TENSTORRENT_DMA_TO_DEVICE 1   /* host memory -> device memory */
#define TENSTORRENT_DMA_FROM_DEVICE 2 /* device memory -> host memory */

/* tenstorrent_dma_desc.host_type (0 is invalid) */
#define TENSTORRENT_DMA_HOST_DMA_BUF 1 /* buf_index + byte offset */
#define TENSTORRENT_DMA_HOST_PINNED 2  /* a virtual address this fd pinned */

/* One copy of `length` bytes. */
struct tenstorrent_dma_desc {
	/* DMA_BUF: byte offset into DMA buffer `buf_index` of this fd.
	 * PINNED: virtual address (as passed to PIN_PAGES) inside one range
	 * this fd pinned; a FROM_DEVICE copy into a READ_ONLY pin is EPERM.
	 * [host_addr, host_addr + length) must lie inside that one buffer. */
	__u64 host_addr;
	/* Local address on node (x, y): below 2^36, with the whole copy. */
	__u64 device_addr;
	__u64 cookie;	/* the caller's; reported back if this copy fails */
	__u32 length;	/* 1..TENSTORRENT_DMA_MAX_LENGTH */
	__u32 flags;	/* must be 0 */
	__u8 direction; /* TENSTORRENT_DMA_TO_DEVICE or _FROM_DEVICE */
	__u8 host_type; /* TENSTORRENT_DMA_HOST_* */
	__u8 buf_index; /* DMA_BUF: the buffer; PINNED: must be 0 */
	__u8 noc; /* 0 or 1: the NOC used, and whose coordinates x, y are */
	__u8 x;	  /* the node, inside the chip's NOC grid */
	__u8 y;
	__u8 reserved0[2]; /* must be 0 */
	__u64 reserved1;   /* must be 0 */
};

/* SUBMIT: queue a batch, all of it or nothing (EAGAIN if it does not fit). */
struct tenstorrent_dma_queue_submit_in {
	__u32 output_size_bytes;
	__u32 flags;	  /* must be 0 */
	__u64 descs;	  /* user pointer to desc_count descriptors */
	__u32 desc_count; /* 1..TENSTORRENT_DMA_QUEUE_MAX_BATCH */
	__u32 desc_size;  /* sizeof(struct tenstorrent_dma_desc) */
	__u64 reserved;	  /* must be 0 */
};

struct tenstorrent_dma_queue_submit_out {
	__u32 output_size_bytes; /* set to sizeof(this struct), 32 */
	__u32 reserved0;
	__u64 first_seqno; /* the batch's first descriptor */
	__u64 last_seqno;  /* its last: first_seqno + desc_count - 1 */
	__u64 reserved1;
};

struct tenstorrent_dma_queue_submit {
	struct tenstorrent_dma_queue_submit_in in;
	struct tenstorrent_dma_queue_submit_out out;
};

/* WAIT: sleep until descriptor `seqno` has completed (interruptible). */
struct tenstorrent_dma_queue_wait_in {
	__u32 output_size_bytes;
	__u32 flags; /* must be 0 */
	/* At most the last submitted (else EINVAL); 0 returns at once. */
	__u64 seqno;
	/* 0: only check; TENSTORRENT_DMA_WAIT_FOREVER: no limit.
	 * ETIMEDOUT if not completed in time. */
	__u32 timeout_ms;
	__u32 reserved0; /* must be 0 */
	__u64 reserved1; /* must be 0 */
};

struct tenstorrent_dma_queue_wait_out {
	__u32 output_size_bytes; /* set to sizeof(this struct), 24 */
	__u32 reserved0;
	__u64 completed_seqno; /* also written with ETIMEDOUT and EIO */
	__u64 reserved1;
};

struct tenstorrent_dma_queue_wait {
	struct tenstorrent_dma_queue_wait_in in;
	struct tenstorrent_dma_queue_wait_out out;
};

/* QUERY: the queue's state and limits; optionally clear a latched error. */
#define TENSTORRENT_DMA_QUEUE_QUERY_CLEAR_ERROR 1

struct tenstorrent_dma_queue_query_in {
	__u32 output_size_bytes;
	__u32 flags;	/* TENSTORRENT_DMA_QUEUE_QUERY_*; other bits EINVAL */
	__u64 reserved; /* must be 0 */
};

struct tenstorrent_dma_queue_query_out {
	__u32 output_size_bytes; /* set to sizeof(this struct), 72 */
	__u32 depth; /* most descriptors queued at once, >= MIN_DEPTH */
	__u64 submitted_seqno; /* last descriptor submitted, 0 if none */
	__u64 completed_seqno;
	/* The latched error, as it was before any CLEAR_ERROR: the first
	 * failed descriptor's sequence number (0: no error), its cookie,
	 * and why: EIO (the device refused it) or ECANCELED (a reset). */
	__u64 error_seqno;
	__u64 error_cookie;
	__u32 error_code; /* a positive errno value, 0 with no error */
	__u32 max_batch;  /* TENSTORRENT_DMA_QUEUE_MAX_BATCH */
	__u32 max_length; /* TENSTORRENT_DMA_MAX_LENGTH */
	__u32 align;	  /* TENSTORRENT_DMA_ALIGN */
	__u64 reserved[2];
};

struct tenstorrent_dma_queue_query {
	struct tenstorrent_dma_queue_query_in in;
	struct tenstorrent_dma_queue_query_out out;
};

#endif /* _UAPI_LINUX_TENSTORRENT_H */
