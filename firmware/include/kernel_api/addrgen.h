/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interleaved address generators (TT-Metal's InterleavedAddrGen, in
 * tt_metal/hw/inc/internal/dataflow/dataflow_api_addrgen.h): where page id
 * of an interleaved buffer lives. Page id is in bank id % n at the buffer's
 * address + (id / n) * the aligned page size, n the number of DRAM or L1
 * banks; the banks' NOC coordinates come from the bank table the host wrote
 * at TT_L1_BANKS (hw/l1.h). As in TT-Metal, pages are padded to the
 * alignment of their memory, TTK_DRAM_ALIGN (Wormhole's 32 bytes) or
 * TTK_L1_ALIGN (16), as libtt's allocator lays them out.
 *
 * TT-Metal's class templates are C structs; the template's DRAM flag is
 * the field is_dram (zero-initialised: L1):
 *
 *   InterleavedAddrGen s = { .bank_base_address = a, .page_size = 2048,
 *                            .is_dram = true };
 *   InterleavedAddrGenFast f = { .bank_base_address = a,
 *                                .page_size = 2048,
 *                                .data_format = DataFormat_Float16_b,
 *                                .is_dram = true };
 *   InterleavedPow2AddrGen p = { .bank_base_address = a,
 *                                .log_base_2_of_page_size = 11,
 *                                .is_dram = true };
 *
 * TensorAccessor (kernel_api/accessor.h) is one more generator here.
 *
 * The page forms take a generator by value or by pointer (`s` or `&s`):
 * get_noc_addr(id, s[, offset[, noc]]), noc_async_read_page/_tile,
 * noc_async_write_page/_tile (kernel_api/noc.h). A bank id outside the
 * table, or a table without banks of that kind, is reported.
 */
#ifndef TT_KERNEL_API_ADDRGEN_H
#define TT_KERNEL_API_ADDRGEN_H

#include "kernel_api/noc_addr.h"

typedef struct {
	uint32_t bank_base_address;
	uint32_t page_size;
	bool is_dram;
} InterleavedAddrGen;

typedef struct {
	uint32_t bank_base_address;
	uint32_t page_size;
	uint32_t data_format; /* DataFormat_*; only informative here */
	bool is_dram;
} InterleavedAddrGenFast;

typedef struct {
	uint32_t bank_base_address;
	uint32_t log_base_2_of_page_size;
	bool is_dram;
} InterleavedPow2AddrGen;

/* Page alignment of interleaved buffers when the bank table gives none
 * (libtt fills it in: lib/memory/alloc.h). */
#define TTK_DRAM_ALIGN 32u
#define TTK_L1_ALIGN 16u

static inline uint32_t ttk_page_align(bool is_dram)
{
	const volatile struct tt_bank_table *t = ttk_bank_table();
	uint32_t a = is_dram ? t->dram_align : t->l1_align;

	return a ? a : (is_dram ? TTK_DRAM_ALIGN : TTK_L1_ALIGN);
}

__attribute__((noreturn)) void ttk_bank_fail(uint32_t bank, bool is_dram);

/* NOC address of offset in bank `bank`. */
static inline uint64_t ttk_bank_noc_addr(uint32_t bank, uint32_t offset,
					 bool is_dram)
{
	uint32_t n = ttk_bank_count(is_dram), xy;

	if (TTK_UNLIKELY(bank >= n))
		ttk_bank_fail(bank, is_dram);
	xy = is_dram ? ttk_bank_table()->dram_xy[bank] :
		      ttk_bank_table()->l1_xy[bank];
	return ttk_noc_xy(xy & 0xFF, (xy >> 8) & 0xFF, offset);
}

/* NOC address of byte `offset` of page id of an interleaved buffer. */
static inline uint64_t ttk_page_noc_addr(bool is_dram, uint32_t base,
					 uint32_t page_size, uint32_t id,
					 uint32_t offset)
{
	uint32_t n = ttk_bank_count(is_dram);
	uint32_t align = ttk_page_align(is_dram);
	uint32_t stride = (page_size + align - 1) & ~(align - 1);

	if (TTK_UNLIKELY(n == 0))
		ttk_bank_fail(0, is_dram);
	return ttk_bank_noc_addr(id % n, base + (id / n) * stride + offset,
				 is_dram);
}

/* TensorAccessor, which builds on the above. */
#include "kernel_api/accessor.h"

/* get_noc_addr_from_bank_id(bank, offset, is_dram[, noc]): TT-Metal's
 * get_noc_addr_from_bank_id<DRAM>(bank, offset[, noc]). */
#define get_noc_addr_from_bank_id(...) \
	TTK_OVERLOAD(ttk_get_noc_addr_from_bank_id_, __VA_ARGS__)
#define ttk_get_noc_addr_from_bank_id_3(b, off, dram) \
	ttk_bank_noc_addr((b), (off), (dram))
#define ttk_get_noc_addr_from_bank_id_4(b, off, dram, noc) \
	((void)(noc), ttk_bank_noc_addr((b), (off), (dram)))

/* Per generator type, by value and by pointer: the NOC address of a page
 * (id, gen, offset) and the page size. */
#define TTK_ADDRGEN_FUNCS(suffix, type, size)                                 \
	static inline uint64_t ttk_gaddr_##suffix(uint32_t id, type s,        \
						  uint32_t off)               \
	{                                                                     \
		return ttk_page_noc_addr(s.is_dram, s.bank_base_address,      \
					 size(s), id, off);                   \
	}                                                                     \
	static inline uint64_t ttk_gaddr_##suffix##_p(                        \
		uint32_t id, const type *s, uint32_t off)                     \
	{                                                                     \
		return ttk_gaddr_##suffix(id, *s, off);                       \
	}                                                                     \
	static inline uint32_t ttk_gsize_##suffix(type s)                     \
	{                                                                     \
		return size(s);                                               \
	}                                                                     \
	static inline uint32_t ttk_gsize_##suffix##_p(const type *s)          \
	{                                                                     \
		return size((*s));                                            \
	}

#define TTK_PAGE_SIZE_FIELD(s) ((s).page_size)
#define TTK_PAGE_SIZE_POW2(s) (1u << (s).log_base_2_of_page_size)
TTK_ADDRGEN_FUNCS(iag, InterleavedAddrGen, TTK_PAGE_SIZE_FIELD)
TTK_ADDRGEN_FUNCS(fast, InterleavedAddrGenFast, TTK_PAGE_SIZE_FIELD)
TTK_ADDRGEN_FUNCS(pow2, InterleavedPow2AddrGen, TTK_PAGE_SIZE_POW2)

/* Calls of this are build errors: the argument is no address generator. */
uint64_t ttk_not_an_addrgen(uint32_t, ...) __attribute__((error(
	"expected an address generator (InterleavedAddrGen, InterleavedAddrGenFast, InterleavedPow2AddrGen, TensorAccessor) or a pointer to one")));

/* fn##_<type> for a generator s (value or pointer), else `other`. */
#define TTK_GEN_SELECT(s, fn, other)                                          \
	_Generic((s),                                                         \
		InterleavedAddrGen: fn##_iag,                                 \
		InterleavedAddrGen *: fn##_iag_p,                             \
		const InterleavedAddrGen *: fn##_iag_p,                       \
		InterleavedAddrGenFast: fn##_fast,                            \
		InterleavedAddrGenFast *: fn##_fast_p,                        \
		const InterleavedAddrGenFast *: fn##_fast_p,                  \
		InterleavedPow2AddrGen: fn##_pow2,                            \
		InterleavedPow2AddrGen *: fn##_pow2_p,                        \
		const InterleavedPow2AddrGen *: fn##_pow2_p,                  \
		TensorAccessor: fn##_ta,                                      \
		TensorAccessor *: fn##_ta_p,                                  \
		const TensorAccessor *: fn##_ta_p,                            \
		default: other)

/* NOC address and page size of generator s. */
#define ttk_gen_noc_addr(id, s, off) \
	TTK_GEN_SELECT(s, ttk_gaddr, ttk_not_an_addrgen)((id), (s), (off))
#define ttk_gen_page_size(s) \
	TTK_GEN_SELECT(s, ttk_gsize, ttk_not_an_addrgen)(s)

#endif /* TT_KERNEL_API_ADDRGEN_H */
