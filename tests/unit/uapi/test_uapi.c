// SPDX-License-Identifier: Apache-2.0
/*
 * The driver's user ABI (uapi/linux/tenstorrent.h) against the reference
 * (tt-kmd's ioctl.h, IOCTL API version 2) and against the extension layouts
 * docs/abi.md specifies.
 *
 * At build time, for every struct: its size, every member's offset and
 * size, and "sum of member sizes == sizeof", so no struct has padding the
 * compiler inserted; each struct's members are listed once, in the tables
 * below. This file is also built with -Wpadded (tests/meson.build), which
 * catches padding in a struct a table forgot.
 *
 * At run time: the command numbers (type, number, size and direction
 * fields), the constants, the mmap offset scheme, and that the header
 * compiles on its own as C90, C11 and C++.
 */
#include <linux/tenstorrent.h> /* first: it must need nothing else */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"

/* The C++ compiler, from tests/meson.build; g++ is a build dependency
 * (docs/dependencies.md), so a missing one fails the C++ checks. */
#ifndef TT_CXX
#define TT_CXX "c++"
#endif

#define NO_CXX                                                              \
	"no C++ compiler: " TT_CXX " is not found, so the header's C++ "    \
	"half is unchecked; install g++ (make deps)"

/* ------------------------------------------------------------------ */
/* Layout tables: X(T, member, offset, size), offsets from the reference */

#define MSZ(T, m) sizeof(((struct T *)0)->m)

#define ASSERT_MEMBER(T, m, off, sz)                                           \
	_Static_assert(offsetof(struct T, m) == (off), #T "." #m " offset");   \
	_Static_assert(MSZ(T, m) == (sz), #T "." #m " size");
#define ADD_SIZE(T, m, off, sz) +MSZ(T, m)

/* Every member where the reference puts it, nothing in between, nothing
 * after the last one. */
#define CHECK_LAYOUT(T, size, LIST)                                            \
	LIST(T, ASSERT_MEMBER)                                                 \
	_Static_assert(sizeof(struct T) == (size),                             \
		       "sizeof(struct " #T ") is not " #size);                 \
	_Static_assert(0 LIST(T, ADD_SIZE) == sizeof(struct T),                \
		       "struct " #T " has implicit padding")

/* 0: GET_DEVICE_INFO */
#define L_GET_DEVICE_INFO_IN(T, X) X(T, output_size_bytes, 0, 4)
#define L_GET_DEVICE_INFO_OUT(T, X)                                            \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, vendor_id, 4, 2)                                                  \
	X(T, device_id, 6, 2)                                                  \
	X(T, subsystem_vendor_id, 8, 2)                                        \
	X(T, subsystem_id, 10, 2)                                              \
	X(T, bus_dev_fn, 12, 2)                                                \
	X(T, max_dma_buf_size_log2, 14, 2)                                     \
	X(T, pci_domain, 16, 2)                                                \
	X(T, reserved, 18, 2)
#define L_GET_DEVICE_INFO(T, X) X(T, in, 0, 4) X(T, out, 4, 20)
CHECK_LAYOUT(tenstorrent_get_device_info_in, 4, L_GET_DEVICE_INFO_IN);
CHECK_LAYOUT(tenstorrent_get_device_info_out, 20, L_GET_DEVICE_INFO_OUT);
CHECK_LAYOUT(tenstorrent_get_device_info, 24, L_GET_DEVICE_INFO);

/* 2: QUERY_MAPPINGS */
#define L_MAPPING(T, X)                                                        \
	X(T, mapping_id, 0, 4)                                                 \
	X(T, reserved, 4, 4)                                                   \
	X(T, mapping_base, 8, 8)                                               \
	X(T, mapping_size, 16, 8)
#define L_QUERY_MAPPINGS_IN(T, X)                                              \
	X(T, output_mapping_count, 0, 4)                                       \
	X(T, reserved, 4, 4)
#define L_QUERY_MAPPINGS_OUT(T, X) X(T, mappings, 0, 0)
#define L_QUERY_MAPPINGS(T, X) X(T, in, 0, 8) X(T, out, 8, 0)
CHECK_LAYOUT(tenstorrent_mapping, 24, L_MAPPING);
CHECK_LAYOUT(tenstorrent_query_mappings_in, 8, L_QUERY_MAPPINGS_IN);
CHECK_LAYOUT(tenstorrent_query_mappings_out, 0, L_QUERY_MAPPINGS_OUT);
CHECK_LAYOUT(tenstorrent_query_mappings, 8, L_QUERY_MAPPINGS);
/* The entries follow `in` directly and stay 8-byte aligned. */
_Static_assert(_Alignof(struct tenstorrent_query_mappings) == 8,
	       "query_mappings alignment");

/* 3: ALLOCATE_DMA_BUF */
#define L_ALLOCATE_DMA_BUF_IN(T, X)                                            \
	X(T, requested_size, 0, 4)                                             \
	X(T, buf_index, 4, 1)                                                  \
	X(T, flags, 5, 1)                                                      \
	X(T, reserved0, 6, 2)                                                  \
	X(T, reserved1, 8, 16)
#define L_ALLOCATE_DMA_BUF_OUT(T, X)                                           \
	X(T, physical_address, 0, 8)                                           \
	X(T, mapping_offset, 8, 8)                                             \
	X(T, size, 16, 4)                                                      \
	X(T, reserved0, 20, 4)                                                 \
	X(T, noc_address, 24, 8)                                               \
	X(T, reserved1, 32, 8)
#define L_ALLOCATE_DMA_BUF(T, X) X(T, in, 0, 24) X(T, out, 24, 40)
CHECK_LAYOUT(tenstorrent_allocate_dma_buf_in, 24, L_ALLOCATE_DMA_BUF_IN);
CHECK_LAYOUT(tenstorrent_allocate_dma_buf_out, 40, L_ALLOCATE_DMA_BUF_OUT);
CHECK_LAYOUT(tenstorrent_allocate_dma_buf, 64, L_ALLOCATE_DMA_BUF);

/* 4: FREE_DMA_BUF (empty in GNU C) */
#define L_FREE_DMA_BUF(T, X) X(T, in, 0, 0) X(T, out, 0, 0)
CHECK_LAYOUT(tenstorrent_free_dma_buf, 0, L_FREE_DMA_BUF);

/* 5: GET_DRIVER_INFO */
#define L_GET_DRIVER_INFO_IN(T, X) X(T, output_size_bytes, 0, 4)
#define L_GET_DRIVER_INFO_OUT(T, X)                                            \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, driver_version, 4, 4)                                             \
	X(T, driver_version_major, 8, 1)                                       \
	X(T, driver_version_minor, 9, 1)                                       \
	X(T, driver_version_patch, 10, 1)                                      \
	X(T, reserved0, 11, 1)
#define L_GET_DRIVER_INFO(T, X) X(T, in, 0, 4) X(T, out, 4, 12)
CHECK_LAYOUT(tenstorrent_get_driver_info_in, 4, L_GET_DRIVER_INFO_IN);
CHECK_LAYOUT(tenstorrent_get_driver_info_out, 12, L_GET_DRIVER_INFO_OUT);
CHECK_LAYOUT(tenstorrent_get_driver_info, 16, L_GET_DRIVER_INFO);

/* 6: RESET_DEVICE */
#define L_RESET_DEVICE_IN(T, X)                                                \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, flags, 4, 4)
#define L_RESET_DEVICE_OUT(T, X)                                               \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, result, 4, 4)
#define L_RESET_DEVICE(T, X) X(T, in, 0, 8) X(T, out, 8, 8)
CHECK_LAYOUT(tenstorrent_reset_device_in, 8, L_RESET_DEVICE_IN);
CHECK_LAYOUT(tenstorrent_reset_device_out, 8, L_RESET_DEVICE_OUT);
CHECK_LAYOUT(tenstorrent_reset_device, 16, L_RESET_DEVICE);

/* 7: PIN_PAGES */
#define L_PIN_PAGES_IN(T, X)                                                   \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, flags, 4, 4)                                                      \
	X(T, virtual_address, 8, 8)                                            \
	X(T, size, 16, 8)
#define L_PIN_PAGES_OUT(T, X) X(T, physical_address, 0, 8)
#define L_PIN_PAGES_OUT_EXT(T, X)                                              \
	X(T, physical_address, 0, 8)                                           \
	X(T, noc_address, 8, 8)
#define L_PIN_PAGES(T, X) X(T, in, 0, 24) X(T, out, 24, 8)
CHECK_LAYOUT(tenstorrent_pin_pages_in, 24, L_PIN_PAGES_IN);
CHECK_LAYOUT(tenstorrent_pin_pages_out, 8, L_PIN_PAGES_OUT);
CHECK_LAYOUT(tenstorrent_pin_pages_out_extended, 16, L_PIN_PAGES_OUT_EXT);
CHECK_LAYOUT(tenstorrent_pin_pages, 32, L_PIN_PAGES);

/* 8: LOCK_CTL */
#define L_LOCK_CTL_IN(T, X)                                                    \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, flags, 4, 4)                                                      \
	X(T, index, 8, 1)                                                      \
	X(T, reserved, 9, 3)
#define L_LOCK_CTL_OUT(T, X) X(T, value, 0, 1) X(T, reserved, 1, 3)
#define L_LOCK_CTL(T, X) X(T, in, 0, 12) X(T, out, 12, 4)
CHECK_LAYOUT(tenstorrent_lock_ctl_in, 12, L_LOCK_CTL_IN);
CHECK_LAYOUT(tenstorrent_lock_ctl_out, 4, L_LOCK_CTL_OUT);
CHECK_LAYOUT(tenstorrent_lock_ctl, 16, L_LOCK_CTL);

/* 9: MAP_PEER_BAR */
#define L_MAP_PEER_BAR_IN(T, X)                                                \
	X(T, peer_fd, 0, 4)                                                    \
	X(T, peer_bar_index, 4, 4)                                             \
	X(T, peer_bar_offset, 8, 4)                                            \
	X(T, peer_bar_length, 12, 4)                                           \
	X(T, flags, 16, 4)                                                     \
	X(T, reserved, 20, 4)
#define L_MAP_PEER_BAR_OUT(T, X)                                               \
	X(T, dma_address, 0, 8)                                                \
	X(T, reserved, 8, 8)
#define L_MAP_PEER_BAR(T, X) X(T, in, 0, 24) X(T, out, 24, 16)
CHECK_LAYOUT(tenstorrent_map_peer_bar_in, 24, L_MAP_PEER_BAR_IN);
CHECK_LAYOUT(tenstorrent_map_peer_bar_out, 16, L_MAP_PEER_BAR_OUT);
CHECK_LAYOUT(tenstorrent_map_peer_bar, 40, L_MAP_PEER_BAR);

/* 10: UNPIN_PAGES */
#define L_UNPIN_PAGES_IN(T, X)                                                 \
	X(T, virtual_address, 0, 8)                                            \
	X(T, size, 8, 8)                                                       \
	X(T, reserved, 16, 8)
#define L_UNPIN_PAGES(T, X) X(T, in, 0, 24) X(T, out, 24, 0)
CHECK_LAYOUT(tenstorrent_unpin_pages_in, 24, L_UNPIN_PAGES_IN);
CHECK_LAYOUT(tenstorrent_unpin_pages, 24, L_UNPIN_PAGES);

/* 11: ALLOCATE_TLB */
#define L_ALLOCATE_TLB_IN(T, X) X(T, size, 0, 8) X(T, reserved, 8, 8)
#define L_ALLOCATE_TLB_OUT(T, X)                                               \
	X(T, id, 0, 4)                                                         \
	X(T, reserved0, 4, 4)                                                  \
	X(T, mmap_offset_uc, 8, 8)                                             \
	X(T, mmap_offset_wc, 16, 8)                                            \
	X(T, reserved1, 24, 8)
#define L_ALLOCATE_TLB(T, X) X(T, in, 0, 16) X(T, out, 16, 32)
CHECK_LAYOUT(tenstorrent_allocate_tlb_in, 16, L_ALLOCATE_TLB_IN);
CHECK_LAYOUT(tenstorrent_allocate_tlb_out, 32, L_ALLOCATE_TLB_OUT);
CHECK_LAYOUT(tenstorrent_allocate_tlb, 48, L_ALLOCATE_TLB);

/* 12: FREE_TLB */
#define L_FREE_TLB(T, X) X(T, in, 0, 4) X(T, out, 4, 0)
CHECK_LAYOUT(tenstorrent_free_tlb, 4, L_FREE_TLB);

/* 13: CONFIGURE_TLB */
#define L_NOC_TLB_CONFIG(T, X)                                                 \
	X(T, addr, 0, 8)                                                       \
	X(T, x_end, 8, 2)                                                      \
	X(T, y_end, 10, 2)                                                     \
	X(T, x_start, 12, 2)                                                   \
	X(T, y_start, 14, 2)                                                   \
	X(T, noc, 16, 1)                                                       \
	X(T, mcast, 17, 1)                                                     \
	X(T, ordering, 18, 1)                                                  \
	X(T, linked, 19, 1)                                                    \
	X(T, static_vc, 20, 1)                                                 \
	X(T, reserved0, 21, 3)                                                 \
	X(T, reserved1, 24, 8)
#define L_CONFIGURE_TLB_IN(T, X)                                               \
	X(T, id, 0, 4)                                                         \
	X(T, reserved, 4, 4)                                                   \
	X(T, config, 8, 32)
#define L_CONFIGURE_TLB_OUT(T, X) X(T, reserved, 0, 8)
#define L_CONFIGURE_TLB(T, X) X(T, in, 0, 40) X(T, out, 40, 8)
CHECK_LAYOUT(tenstorrent_noc_tlb_config, 32, L_NOC_TLB_CONFIG);
CHECK_LAYOUT(tenstorrent_configure_tlb_in, 40, L_CONFIGURE_TLB_IN);
CHECK_LAYOUT(tenstorrent_configure_tlb_out, 8, L_CONFIGURE_TLB_OUT);
CHECK_LAYOUT(tenstorrent_configure_tlb, 48, L_CONFIGURE_TLB);

/* 14: SET_NOC_CLEANUP */
#define L_SET_NOC_CLEANUP(T, X)                                                \
	X(T, argsz, 0, 4)                                                      \
	X(T, flags, 4, 4)                                                      \
	X(T, enabled, 8, 1)                                                    \
	X(T, x, 9, 1)                                                          \
	X(T, y, 10, 1)                                                         \
	X(T, noc, 11, 1)                                                       \
	X(T, reserved0, 12, 4)                                                 \
	X(T, addr, 16, 8)                                                      \
	X(T, data, 24, 8)
CHECK_LAYOUT(tenstorrent_set_noc_cleanup, 32, L_SET_NOC_CLEANUP);

/* 15: SET_POWER_STATE */
#define L_POWER_STATE(T, X)                                                    \
	X(T, argsz, 0, 4)                                                      \
	X(T, flags, 4, 4)                                                      \
	X(T, reserved0, 8, 1)                                                  \
	X(T, validity, 9, 1)                                                   \
	X(T, power_flags, 10, 2)                                               \
	X(T, power_settings, 12, 28)
CHECK_LAYOUT(tenstorrent_power_state, 40, L_POWER_STATE);

/* 16: EXPORT_TLB_DMABUF */
#define L_EXPORT_TLB_DMABUF(T, X)                                              \
	X(T, argsz, 0, 4)                                                      \
	X(T, flags, 4, 4)                                                      \
	X(T, tlb_id, 8, 4)                                                     \
	X(T, fd, 12, 4)                                                        \
	X(T, offset, 16, 8)                                                    \
	X(T, size, 24, 8)
CHECK_LAYOUT(tenstorrent_export_tlb_dmabuf, 32, L_EXPORT_TLB_DMABUF);

/* Extensions: DMA queues (layouts of docs/abi.md) */
#define L_DMA_DESC(T, X)                                                       \
	X(T, host_addr, 0, 8)                                                  \
	X(T, device_addr, 8, 8)                                                \
	X(T, cookie, 16, 8)                                                    \
	X(T, length, 24, 4)                                                    \
	X(T, flags, 28, 4)                                                     \
	X(T, direction, 32, 1)                                                 \
	X(T, host_type, 33, 1)                                                 \
	X(T, buf_index, 34, 1)                                                 \
	X(T, noc, 35, 1)                                                       \
	X(T, x, 36, 1)                                                         \
	X(T, y, 37, 1)                                                         \
	X(T, reserved0, 38, 2)                                                 \
	X(T, reserved1, 40, 8)
CHECK_LAYOUT(tenstorrent_dma_desc, 48, L_DMA_DESC);

#define L_DMA_SUBMIT_IN(T, X)                                                  \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, flags, 4, 4)                                                      \
	X(T, descs, 8, 8)                                                      \
	X(T, desc_count, 16, 4)                                                \
	X(T, desc_size, 20, 4)                                                 \
	X(T, reserved, 24, 8)
#define L_DMA_SUBMIT_OUT(T, X)                                                 \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, reserved0, 4, 4)                                                  \
	X(T, first_seqno, 8, 8)                                                \
	X(T, last_seqno, 16, 8)                                                \
	X(T, reserved1, 24, 8)
#define L_DMA_SUBMIT(T, X) X(T, in, 0, 32) X(T, out, 32, 32)
CHECK_LAYOUT(tenstorrent_dma_queue_submit_in, 32, L_DMA_SUBMIT_IN);
CHECK_LAYOUT(tenstorrent_dma_queue_submit_out, 32, L_DMA_SUBMIT_OUT);
CHECK_LAYOUT(tenstorrent_dma_queue_submit, 64, L_DMA_SUBMIT);

#define L_DMA_WAIT_IN(T, X)                                                    \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, flags, 4, 4)                                                      \
	X(T, seqno, 8, 8)                                                      \
	X(T, timeout_ms, 16, 4)                                                \
	X(T, reserved0, 20, 4)                                                 \
	X(T, reserved1, 24, 8)
#define L_DMA_WAIT_OUT(T, X)                                                   \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, reserved0, 4, 4)                                                  \
	X(T, completed_seqno, 8, 8)                                            \
	X(T, reserved1, 16, 8)
#define L_DMA_WAIT(T, X) X(T, in, 0, 32) X(T, out, 32, 24)
CHECK_LAYOUT(tenstorrent_dma_queue_wait_in, 32, L_DMA_WAIT_IN);
CHECK_LAYOUT(tenstorrent_dma_queue_wait_out, 24, L_DMA_WAIT_OUT);
CHECK_LAYOUT(tenstorrent_dma_queue_wait, 56, L_DMA_WAIT);

#define L_DMA_QUERY_IN(T, X)                                                   \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, flags, 4, 4)                                                      \
	X(T, reserved, 8, 8)
#define L_DMA_QUERY_OUT(T, X)                                                  \
	X(T, output_size_bytes, 0, 4)                                          \
	X(T, depth, 4, 4)                                                      \
	X(T, submitted_seqno, 8, 8)                                            \
	X(T, completed_seqno, 16, 8)                                           \
	X(T, error_seqno, 24, 8)                                               \
	X(T, error_cookie, 32, 8)                                              \
	X(T, error_code, 40, 4)                                                \
	X(T, max_batch, 44, 4)                                                 \
	X(T, max_length, 48, 4)                                                \
	X(T, align, 52, 4)                                                     \
	X(T, reserved, 56, 16)
#define L_DMA_QUERY(T, X) X(T, in, 0, 16) X(T, out, 16, 72)
CHECK_LAYOUT(tenstorrent_dma_queue_query_in, 16, L_DMA_QUERY_IN);
CHECK_LAYOUT(tenstorrent_dma_queue_query_out, 72, L_DMA_QUERY_OUT);
CHECK_LAYOUT(tenstorrent_dma_queue_query, 88, L_DMA_QUERY);

/* ------------------------------------------------------------------ */
/* Command numbers */

struct ioctl_ref {
	const char *name;
	unsigned long cmd;
	unsigned long nr; /* from the reference's table (kmd.md §1.2) */
};

/* clang-format off */
#define REF(name, nr) {#name, TENSTORRENT_IOCTL_##name, nr}
/* clang-format on */

static const struct ioctl_ref ioctls[] = {
	REF(GET_DEVICE_INFO, 0),
	REF(GET_HARVESTING, 1),
	REF(QUERY_MAPPINGS, 2),
	REF(ALLOCATE_DMA_BUF, 3),
	REF(FREE_DMA_BUF, 4),
	REF(GET_DRIVER_INFO, 5),
	REF(RESET_DEVICE, 6),
	REF(PIN_PAGES, 7),
	REF(LOCK_CTL, 8),
	REF(MAP_PEER_BAR, 9),
	REF(UNPIN_PAGES, 10),
	REF(ALLOCATE_TLB, 11),
	REF(FREE_TLB, 12),
	REF(CONFIGURE_TLB, 13),
	REF(SET_NOC_CLEANUP, 14),
	REF(SET_POWER_STATE, 15),
	REF(EXPORT_TLB_DMABUF, 16),
	/* Extensions: docs/abi.md */
	REF(DMA_QUEUE_SUBMIT, 0x80),
	REF(DMA_QUEUE_WAIT, 0x81),
	REF(DMA_QUEUE_QUERY, 0x82),
};

#define N_IOCTLS (sizeof(ioctls) / sizeof(ioctls[0]))
#define N_TTKMD 17 /* the first 17 entries are tt-kmd's */

static void test_ioctl_numbers_match_reference(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_IOCTLS; i++) {
		const struct ioctl_ref *r = &ioctls[i];

		print_message("# %-18s 0x%04lx type 0x%02lx nr %3lu size %lu "
			      "dir %lu\n",
			      r->name, r->cmd, (unsigned long)_IOC_TYPE(r->cmd),
			      (unsigned long)_IOC_NR(r->cmd),
			      (unsigned long)_IOC_SIZE(r->cmd),
			      (unsigned long)_IOC_DIR(r->cmd));
		assert_int_equal(_IOC_TYPE(r->cmd), 0xFA);
		assert_int_equal(_IOC_NR(r->cmd), r->nr);
		/* _IO: neither size nor direction encoded */
		assert_int_equal(_IOC_SIZE(r->cmd), 0);
		assert_int_equal(_IOC_DIR(r->cmd), _IOC_NONE);
		/* tt-smi spells RESET_DEVICE as (0xFA << 8) | 6 */
		assert_int_equal(r->cmd, (0xFAul << 8) | r->nr);
	}
	assert_int_equal(TENSTORRENT_IOCTL_MAGIC, 0xFA);
	assert_int_equal(TENSTORRENT_IOCTL_RESET_DEVICE, 0xFA06);
}

static void test_ioctl_numbers_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_IOCTLS; i++)
		for (size_t j = i + 1; j < N_IOCTLS; j++)
			assert_int_not_equal(ioctls[i].cmd, ioctls[j].cmd);
}

/* tt-kmd owns numbers below the extension base; ours start there. */
static void test_extension_numbers_after_ttkmd(void **state)
{
	(void)state;
	assert_true(TENSTORRENT_IOCTL_EXT_BASE > 16);
	for (size_t i = 0; i < N_IOCTLS; i++) {
		unsigned long nr = _IOC_NR(ioctls[i].cmd);

		if (i < N_TTKMD)
			assert_true(nr < TENSTORRENT_IOCTL_EXT_BASE);
		else
			assert_true(nr >= TENSTORRENT_IOCTL_EXT_BASE);
	}
}

/* ------------------------------------------------------------------ */
/* Constants */

static void test_version_and_limits(void **state)
{
	(void)state;
	assert_int_equal(TENSTORRENT_DRIVER_VERSION, 2);
	assert_int_equal(TENSTORRENT_MAX_DMA_BUFS, 256);
	assert_int_equal(TENSTORRENT_MAX_INBOUND_TLBS, 256);
	assert_int_equal(TENSTORRENT_RESOURCE_LOCK_COUNT, 64);
	/* buf_index and lock index are u8: every valid value fits */
	assert_int_equal(TENSTORRENT_MAX_DMA_BUFS - 1,
			 (__u8)(TENSTORRENT_MAX_DMA_BUFS - 1));
	assert_true(TENSTORRENT_RESOURCE_LOCK_COUNT - 1 <= 0xFF);
}

static void test_mapping_ids(void **state)
{
	(void)state;
	assert_int_equal(TENSTORRENT_MAPPING_UNUSED, 0);
	assert_int_equal(TENSTORRENT_MAPPING_RESOURCE0_UC, 1);
	assert_int_equal(TENSTORRENT_MAPPING_RESOURCE0_WC, 2);
	assert_int_equal(TENSTORRENT_MAPPING_RESOURCE1_UC, 3);
	assert_int_equal(TENSTORRENT_MAPPING_RESOURCE1_WC, 4);
	assert_int_equal(TENSTORRENT_MAPPING_RESOURCE2_UC, 5);
	assert_int_equal(TENSTORRENT_MAPPING_RESOURCE2_WC, 6);
}

static void test_reset_flags(void **state)
{
	(void)state;
	/* values of one enumeration, not bits */
	assert_int_equal(TENSTORRENT_RESET_DEVICE_RESTORE_STATE, 0);
	assert_int_equal(TENSTORRENT_RESET_DEVICE_RESET_PCIE_LINK, 1);
	assert_int_equal(TENSTORRENT_RESET_DEVICE_CONFIG_WRITE, 2);
	assert_int_equal(TENSTORRENT_RESET_DEVICE_USER_RESET, 3);
	assert_int_equal(TENSTORRENT_RESET_DEVICE_ASIC_RESET, 4);
	assert_int_equal(TENSTORRENT_RESET_DEVICE_ASIC_DMC_RESET, 5);
	assert_int_equal(TENSTORRENT_RESET_DEVICE_POST_RESET, 6);
}

static void test_pin_and_dma_buf_flags(void **state)
{
	unsigned all = TENSTORRENT_PIN_PAGES_CONTIGUOUS |
		       TENSTORRENT_PIN_PAGES_NOC_DMA |
		       TENSTORRENT_PIN_PAGES_NOC_TOP_DOWN |
		       TENSTORRENT_PIN_PAGES_READ_ONLY;

	(void)state;
	assert_int_equal(TENSTORRENT_PIN_PAGES_CONTIGUOUS, 1);
	assert_int_equal(TENSTORRENT_PIN_PAGES_NOC_DMA, 2);
	assert_int_equal(TENSTORRENT_PIN_PAGES_NOC_TOP_DOWN, 4);
	assert_int_equal(TENSTORRENT_PIN_PAGES_READ_ONLY, 8);
	assert_int_equal(all, 0xF); /* distinct bits */
	assert_int_equal(TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA, 2);
}

static void test_lock_constants(void **state)
{
	static const unsigned eth[16] = {
		TENSTORRENT_LOCK_INDEX_ETH00, TENSTORRENT_LOCK_INDEX_ETH01,
		TENSTORRENT_LOCK_INDEX_ETH02, TENSTORRENT_LOCK_INDEX_ETH03,
		TENSTORRENT_LOCK_INDEX_ETH04, TENSTORRENT_LOCK_INDEX_ETH05,
		TENSTORRENT_LOCK_INDEX_ETH06, TENSTORRENT_LOCK_INDEX_ETH07,
		TENSTORRENT_LOCK_INDEX_ETH08, TENSTORRENT_LOCK_INDEX_ETH09,
		TENSTORRENT_LOCK_INDEX_ETH10, TENSTORRENT_LOCK_INDEX_ETH11,
		TENSTORRENT_LOCK_INDEX_ETH12, TENSTORRENT_LOCK_INDEX_ETH13,
		TENSTORRENT_LOCK_INDEX_ETH14, TENSTORRENT_LOCK_INDEX_ETH15,
	};

	(void)state;
	assert_int_equal(TENSTORRENT_LOCK_CTL_ACQUIRE, 0);
	assert_int_equal(TENSTORRENT_LOCK_CTL_RELEASE, 1);
	assert_int_equal(TENSTORRENT_LOCK_CTL_TEST, 2);
	assert_int_equal(TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING, 3);
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(eth[i], i);
}

static void test_power_constants(void **state)
{
	(void)state;
	assert_int_equal(TT_POWER_FLAG_MAX_AI_CLK, 1);
	assert_int_equal(TT_POWER_FLAG_MRISC_PHY_WAKEUP, 2);
	assert_int_equal(TT_POWER_FLAG_TENSIX_ENABLE, 4);
	assert_int_equal(TT_POWER_FLAG_L2CPU_ENABLE, 8);
	/* flags count in bits 0-3, settings count in bits 4-7 */
	assert_int_equal(TT_POWER_VALIDITY_FLAGS(4), 0x04);
	assert_int_equal(TT_POWER_VALIDITY_SETTINGS(14), 0xE0);
	assert_int_equal(TT_POWER_VALIDITY(15, 14), 0xEF);
	assert_int_equal(TT_POWER_VALIDITY(0, 0), 0);
	assert_int_equal(TT_POWER_VALIDITY(3, 1), 0x13);
	/* a count never spills into the other field */
	assert_int_equal(TT_POWER_VALIDITY_FLAGS(0x1F), 0x0F);
	assert_int_equal(TT_POWER_VALIDITY_SETTINGS(0x1F), 0xF0);
	/* the 14 settings the struct holds are all describable */
	assert_int_equal(MSZ(tenstorrent_power_state, power_settings) / 2, 14);
}

/* ------------------------------------------------------------------ */
/* mmap offsets (kmd.md §1.6) */

static void test_mmap_bar_and_tlb_offsets(void **state)
{
	(void)state;
	assert_true(TENSTORRENT_MMAP_BAR0_UC == 0);
	assert_true(TENSTORRENT_MMAP_BAR0_WC == 0x1000000000ull);
	assert_true(TENSTORRENT_MMAP_BAR2_UC == 2ull << 36);
	assert_true(TENSTORRENT_MMAP_BAR2_WC == 3ull << 36);
	assert_true(TENSTORRENT_MMAP_BAR4_UC == 4ull << 36);
	assert_true(TENSTORRENT_MMAP_BAR4_WC == 5ull << 36);
	assert_true(TENSTORRENT_MMAP_TLB_UC == 6ull << 36);
	assert_true(TENSTORRENT_MMAP_TLB_WC == 7ull << 36);
	/* unsigned 64-bit arithmetic even for a large region number */
	assert_true(TENSTORRENT_MMAP_REGION(255) == 255ull << 36);
}

static void test_mmap_dma_buf_offsets(void **state)
{
	static const __u64 page_sizes[] = {4096, 16384, 65536};

	(void)state;
	assert_true(TENSTORRENT_MMAP_DMA_BUF(4096, 0) == 0xF0000000000ull);
	assert_true(TENSTORRENT_MMAP_DMA_BUF(4096, 1) ==
		    0xF0000000000ull + (1ull << 32));
	assert_true(TENSTORRENT_MMAP_DMA_BUF(4096, 255) ==
		    0xF0000000000ull + (255ull << 32));
	/* After every BAR and TLB region (TLB WC ends at 8 << 36). */
	assert_true(TENSTORRENT_MMAP_DMA_BUF(4096, 0) >= 8ull << 36);
	for (size_t i = 0; i < sizeof(page_sizes) / sizeof(page_sizes[0]);
	     i++) {
		__u64 ps = page_sizes[i];
		__u64 end = TENSTORRENT_MMAP_DMA_BUF(ps, 255) + (1ull << 32);

		/* every page offset of every buffer fits in 32 bits */
		assert_true(end / ps == 1ull << 32);
		assert_true(TENSTORRENT_MMAP_DMA_BUF(ps, 0) % ps == 0);
	}
	/* tt-kmd's tests want every mapping below 2^44 with 4 KiB pages */
	assert_true(TENSTORRENT_MMAP_DMA_BUF(4096, 255) + (1ull << 32) <=
		    1ull << 44);
}

/* ------------------------------------------------------------------ */
/* DMA-queue constants */

static void test_dma_queue_constants(void **state)
{
	(void)state;
	/* 0 is never a valid direction or host type: a zeroed descriptor
	 * is refused rather than run */
	assert_int_not_equal(TENSTORRENT_DMA_TO_DEVICE, 0);
	assert_int_not_equal(TENSTORRENT_DMA_FROM_DEVICE, 0);
	assert_int_not_equal(TENSTORRENT_DMA_TO_DEVICE,
			     TENSTORRENT_DMA_FROM_DEVICE);
	assert_int_not_equal(TENSTORRENT_DMA_HOST_DMA_BUF, 0);
	assert_int_not_equal(TENSTORRENT_DMA_HOST_PINNED, 0);
	assert_int_not_equal(TENSTORRENT_DMA_HOST_DMA_BUF,
			     TENSTORRENT_DMA_HOST_PINNED);
	/* a full batch always fits an empty queue */
	assert_true(TENSTORRENT_DMA_QUEUE_MIN_DEPTH >=
		    TENSTORRENT_DMA_QUEUE_MAX_BATCH);
	/* a batch is copied in whole: keep it small */
	assert_true(TENSTORRENT_DMA_QUEUE_MAX_BATCH *
			    sizeof(struct tenstorrent_dma_desc) <=
		    16384);
	/* a length fits the u32 field and is a multiple of the alignment */
	assert_true((__u64)TENSTORRENT_DMA_MAX_LENGTH <= 0xFFFFFFFFull);
	assert_int_equal(TENSTORRENT_DMA_MAX_LENGTH % TENSTORRENT_DMA_ALIGN, 0);
	/* as large as the largest DMA buffer (2^28, kmd.md §1.4) */
	assert_true(TENSTORRENT_DMA_MAX_LENGTH >= 1u << 28);
	assert_int_equal(TENSTORRENT_DMA_DEVICE_ADDR_BITS, 36);
	assert_true(TENSTORRENT_DMA_WAIT_FOREVER == 0xFFFFFFFFu);
	assert_int_equal(TENSTORRENT_DMA_QUEUE_QUERY_CLEAR_ERROR, 1);
}

/* ------------------------------------------------------------------ */
/* The header on its own, in C and C++ */

static char tmp[256];

static int run(const char *cmd)
{
	int rc = system(cmd);

	print_message("# %s -> %d\n", cmd, rc);
	return rc;
}

static int have(const char *prog)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static int setup_tmp(void **state)
{
	(void)state;
	return test_mkdtemp(tmp, sizeof(tmp), "uapi") ? 0 : -1;
}

static int teardown_tmp(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

/* Kernel uapi headers must build as strict C90 too (no // comments, no
 * declarations after statements). -Wpadded again, outside this file. */
static void test_header_standalone_c(void **state)
{
	static const char *stds[] = {"c90", "gnu89", "c11", "gnu11"};
	char src[300], cmd[1024];

	(void)state;
	snprintf(src, sizeof(src), "%s/only.c", tmp);
	write_file(src, "#include <linux/tenstorrent.h>\n"
			"struct tenstorrent_dma_desc d;\n");
	for (size_t i = 0; i < sizeof(stds) / sizeof(stds[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "%s -std=%s -Wall -Wextra -Wpadded -Werror "
			 "-fsyntax-only -I'%s' '%s'",
			 TT_CC, stds[i], TT_UAPI_DIR, src);
		assert_int_equal(run(cmd), 0);
	}
}

/* In C++ the empty structs take one byte, so three wrappers grow (the
 * reference measured 32 and 8 bytes); everything else is identical. */
static const char cxx_src[] =
	"#include <linux/tenstorrent.h>\n"
	"#define S(t, n) static_assert(sizeof(t) == n, #t);\n"
	"S(tenstorrent_get_device_info, 24)\n"
	"S(tenstorrent_query_mappings, 8)\n"
	"S(tenstorrent_mapping, 24)\n"
	"S(tenstorrent_allocate_dma_buf, 64)\n"
	"S(tenstorrent_get_driver_info, 16)\n"
	"S(tenstorrent_reset_device, 16)\n"
	"S(tenstorrent_pin_pages, 32)\n"
	"S(tenstorrent_pin_pages_out_extended, 16)\n"
	"S(tenstorrent_lock_ctl, 16)\n"
	"S(tenstorrent_map_peer_bar, 40)\n"
	"S(tenstorrent_unpin_pages_in, 24)\n"
	"S(tenstorrent_unpin_pages, 32)\n"
	"S(tenstorrent_allocate_tlb, 48)\n"
	"S(tenstorrent_free_tlb, 8)\n"
	"S(tenstorrent_configure_tlb, 48)\n"
	"S(tenstorrent_set_noc_cleanup, 32)\n"
	"S(tenstorrent_power_state, 40)\n"
	"S(tenstorrent_export_tlb_dmabuf, 32)\n"
	"S(tenstorrent_dma_desc, 48)\n"
	"S(tenstorrent_dma_queue_submit, 64)\n"
	"S(tenstorrent_dma_queue_wait, 56)\n"
	"S(tenstorrent_dma_queue_query, 88)\n"
	"static_assert(TENSTORRENT_IOCTL_DMA_QUEUE_QUERY == 0xFA82, \"nr\");\n"
	"static_assert(TENSTORRENT_MMAP_DMA_BUF(4096, 0) == 0xF0000000000ull,"
	" \"dma\");\n";

static void test_header_standalone_cxx(void **state)
{
	static const char *stds[] = {"c++11", "c++17"};
	char src[300], cmd[1024];

	(void)state;
	if (!have(TT_CXX))
		fail_msg("%s", NO_CXX);
	snprintf(src, sizeof(src), "%s/only.cpp", tmp);
	write_file(src, cxx_src);
	for (size_t i = 0; i < sizeof(stds) / sizeof(stds[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "%s -std=%s -Wall -Wextra -Werror -fsyntax-only "
			 "-I'%s' '%s'",
			 TT_CXX, stds[i], TT_UAPI_DIR, src);
		assert_int_equal(run(cmd), 0);
	}
}

/* The compile checks above are not vacuous: the same command rejects a
 * struct with a hole, and a wrong size in C++. */
static void test_compile_checks_can_fail(void **state)
{
	char src[300], cmd[1024];

	(void)state;
	snprintf(src, sizeof(src), "%s/hole.c", tmp);
	write_file(src, "#include <linux/tenstorrent.h>\n"
			"struct hole { __u8 a; __u32 b; };\n"
			"struct hole h;\n");
	snprintf(cmd, sizeof(cmd),
		 "%s -std=c90 -Wall -Wextra -Wpadded -Werror -fsyntax-only "
		 "-I'%s' '%s' 2>/dev/null",
		 TT_CC, TT_UAPI_DIR, src);
	assert_int_not_equal(run(cmd), 0);

	if (!have(TT_CXX))
		fail_msg("%s", NO_CXX);
	snprintf(src, sizeof(src), "%s/wrong.cpp", tmp);
	write_file(src, "#include <linux/tenstorrent.h>\n"
			"static_assert(sizeof(tenstorrent_free_tlb) == 4, "
			"\"C size\");\n");
	snprintf(cmd, sizeof(cmd),
		 "%s -std=c++11 -fsyntax-only -I'%s' '%s' 2>/dev/null", TT_CXX,
		 TT_UAPI_DIR, src);
	assert_int_not_equal(run(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ioctl_numbers_match_reference),
		cmocka_unit_test(test_ioctl_numbers_unique),
		cmocka_unit_test(test_extension_numbers_after_ttkmd),
		cmocka_unit_test(test_version_and_limits),
		cmocka_unit_test(test_mapping_ids),
		cmocka_unit_test(test_reset_flags),
		cmocka_unit_test(test_pin_and_dma_buf_flags),
		cmocka_unit_test(test_lock_constants),
		cmocka_unit_test(test_power_constants),
		cmocka_unit_test(test_mmap_bar_and_tlb_offsets),
		cmocka_unit_test(test_mmap_dma_buf_offsets),
		cmocka_unit_test(test_dma_queue_constants),
		cmocka_unit_test(test_header_standalone_c),
		cmocka_unit_test(test_header_standalone_cxx),
		cmocka_unit_test(test_compile_checks_can_fail),
	};

	return cmocka_run_group_tests_name("uapi", tests, setup_tmp,
					   teardown_tmp);
}
