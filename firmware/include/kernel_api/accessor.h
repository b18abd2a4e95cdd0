/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tensor accessors (TT-Metal's TensorAccessor and TensorAccessorArgs,
 * tt_metal/hw/inc/api/tensor/tensor_accessor.h): the NOC address of any
 * page of a buffer, interleaved or sharded, in DRAM or L1, from argument
 * words the host appended with tt_tensor_accessor_args_append (encoding:
 * hw/accessor.h).
 *
 *   TensorAccessorArgs a = TensorAccessorArgs(cta_offset);  compile-time args
 *   TensorAccessorArgs a = TensorAccessorArgs_rt(offset);   unique runtime args
 *   TensorAccessorArgs a = TensorAccessorArgs_crt(offset);  common runtime args
 *   TensorAccessorArgs b = TensorAccessorArgs(a.next_compile_time_args_offset);
 *   TensorAccessor s = TensorAccessor(a, base_address, page_size);
 *   get_noc_addr(id, s[, offset[, noc]])
 *   noc_async_read_page(id, s, dst_l1[, offset[, noc]])
 *   noc_async_write_page(id, s, src_l1[, size[, offset[, noc]]])
 *   get_shard_noc_addr(shard_id, s[, offset])     first page of a shard
 *   noc_async_read_shard(shard_id, s, dst_l1[, noc]), noc_async_write_shard
 *
 * TT-Metal's template offset TensorAccessorArgs<N>() is the macro
 * TensorAccessorArgs(N), its next_compile_time_args_offset() the field of
 * that name (next_runtime_args_offset, next_common_runtime_args_offset for
 * the runtime forms). The accessor is a struct, used by value or by
 * pointer wherever an address generator is (kernel_api/addrgen.h).
 *
 * Pages take page_size rounded up to their memory's alignment, as
 * buffers lay them out. Reported (and the kernel halts): arguments that
 * are not accessor words or run past the kernel's arguments, a page id
 * beyond a sharded buffer's pages, a shard id beyond its shards, and the
 * shard calls on an interleaved buffer.
 */
#ifndef TT_KERNEL_API_ACCESSOR_H
#define TT_KERNEL_API_ACCESSOR_H

#include "hw/accessor.h"
#include "kernel_api/addrgen.h"
#include "kernel_api/args.h"

typedef struct {
	const uint32_t *words; /* the header word and what follows */
	uint32_t next_compile_time_args_offset;
	uint32_t next_runtime_args_offset;
	uint32_t next_common_runtime_args_offset;
} TensorAccessorArgs;

typedef struct {
	uint32_t bank_base_address;
	uint32_t page_size;
	uint32_t flags; /* TT_TA_F_* */
	/* Sharded: the buffer's and a shard's shape in pages. */
	uint32_t rows, cols, shard_rows, shard_cols;
	uint32_t shards_per_row, nshards;
	const uint32_t *xy; /* the banks of the shards, two per word */
} TensorAccessor;

/* Where the words come from (kernel/kfail.c names them). */
#define TTK_TA_CT 0u
#define TTK_TA_RT 1u
#define TTK_TA_CRT 2u

__attribute__((noreturn)) void ttk_ta_args_fail(uint32_t kind, uint32_t off,
						uint32_t count,
						uint32_t header);
__attribute__((noreturn)) void ttk_ta_page_fail(uint32_t id, uint32_t pages,
						bool shard);
__attribute__((noreturn)) void ttk_ta_not_sharded(void);

static inline TensorAccessorArgs ttk_ta_args(const uint32_t *list,
					     uint32_t count, uint32_t off,
					     uint32_t header, uint32_t kind)
{
	TensorAccessorArgs a = { 0, 0, 0, 0 };
	uint32_t n = TT_TA_EXTRA(header), next;

	if (TTK_UNLIKELY(off >= count || !TT_TA_IS_HEADER(header) ||
			 n > count - off - 1 ||
			 ((TT_TA_FLAGS(header) & TT_TA_F_SHARDED) ?
				  n < TT_TA_SHARD_FIXED ||
					  n != TT_TA_SHARD_EXTRA(list[off + 5]) :
				  n != 0)))
		ttk_ta_args_fail(kind, off, count, header);
	a.words = list + off;
	next = off + 1 + n;
	if (kind == TTK_TA_CT)
		a.next_compile_time_args_offset = next;
	else if (kind == TTK_TA_RT)
		a.next_runtime_args_offset = next;
	else
		a.next_common_runtime_args_offset = next;
	return a;
}

/* An offset past the compile-time args fails the build when it is a
 * constant, as get_compile_time_arg_val() does. */
#define TensorAccessorArgs(cta_offset)                                 \
	ttk_ta_args(ttk_ct_args, ttk_ct_arg_count, (cta_offset),       \
		    get_compile_time_arg_val(cta_offset), TTK_TA_CT)
#define TensorAccessorArgs_rt(off)                                      \
	ttk_ta_args(ttk_args(false), ttk_arg_count(false), (off),      \
		    (off) < ttk_arg_count(false) ? ttk_args(false)[(off)] : 0, \
		    TTK_TA_RT)
#define TensorAccessorArgs_crt(off)                                    \
	ttk_ta_args(ttk_args(true), ttk_arg_count(true), (off),        \
		    (off) < ttk_arg_count(true) ? ttk_args(true)[(off)] : 0, \
		    TTK_TA_CRT)

static inline TensorAccessor ttk_tensor_accessor(TensorAccessorArgs a,
						 uint32_t base,
						 uint32_t page_size)
{
	TensorAccessor s = { 0 };
	const uint32_t *w = a.words;

	if (TTK_UNLIKELY(!w))
		ttk_ta_args_fail(3, 0, 0, 0);
	s.bank_base_address = base;
	s.page_size = page_size;
	s.flags = TT_TA_FLAGS(w[0]);
	if (s.flags & TT_TA_F_SHARDED) {
		s.rows = w[1];
		s.cols = w[2];
		s.shard_rows = w[3];
		s.shard_cols = w[4];
		s.nshards = w[5];
		s.xy = w + 1 + TT_TA_SHARD_FIXED;
		if (TTK_UNLIKELY(!s.shard_rows || !s.shard_cols))
			ttk_ta_args_fail(4, 0, 0, 0);
		s.shards_per_row = (s.cols + s.shard_cols - 1) / s.shard_cols;
	}
	return s;
}

#define TensorAccessor(args, base, page_size) \
	ttk_tensor_accessor((args), (base), (page_size))

static inline bool ttk_ta_dram(const TensorAccessor *s)
{
	return s->flags & TT_TA_F_DRAM;
}

static inline uint32_t ttk_ta_stride(const TensorAccessor *s)
{
	uint32_t align = ttk_page_align(ttk_ta_dram(s));

	return (s->page_size + align - 1) & ~(align - 1);
}

/* NOC address of byte `off` of shard k's slot `slot`. */
static inline uint64_t ttk_ta_shard_addr(const TensorAccessor *s, uint32_t k,
					 uint32_t slot, uint32_t off)
{
	uint32_t xy = (s->xy[k / 2] >> (k % 2 ? 16 : 0)) & 0xFFFFu;

	return ttk_noc_xy(xy & 0xFF, xy >> 8,
			  s->bank_base_address + slot * ttk_ta_stride(s) + off);
}

static inline uint64_t ttk_ta_noc_addr(const TensorAccessor *s, uint32_t id,
				       uint32_t off)
{
	uint32_t r, c;

	if (!(s->flags & TT_TA_F_SHARDED))
		return ttk_page_noc_addr(ttk_ta_dram(s), s->bank_base_address,
					 s->page_size, id, off);
	if (TTK_UNLIKELY(id / s->cols >= s->rows))
		ttk_ta_page_fail(id, s->rows * s->cols, false);
	r = id / s->cols;
	c = id % s->cols;
	return ttk_ta_shard_addr(s,
				 r / s->shard_rows * s->shards_per_row +
					 c / s->shard_cols,
				 (r % s->shard_rows) * s->shard_cols +
					 c % s->shard_cols,
				 off);
}

/* The address generator forms (kernel_api/addrgen.h's TTK_GEN_SELECT). */
static inline uint64_t ttk_gaddr_ta(uint32_t id, TensorAccessor s,
				    uint32_t off)
{
	return ttk_ta_noc_addr(&s, id, off);
}

static inline uint64_t ttk_gaddr_ta_p(uint32_t id, const TensorAccessor *s,
				      uint32_t off)
{
	return ttk_ta_noc_addr(s, id, off);
}

static inline uint32_t ttk_gsize_ta(TensorAccessor s)
{
	return s.page_size;
}

static inline uint32_t ttk_gsize_ta_p(const TensorAccessor *s)
{
	return s->page_size;
}

/* ---- whole shards ---- */

static inline const TensorAccessor *ttk_ta_shard_check(const TensorAccessor *s,
						       uint32_t k)
{
	if (TTK_UNLIKELY(!(s->flags & TT_TA_F_SHARDED)))
		ttk_ta_not_sharded();
	if (TTK_UNLIKELY(k >= s->nshards))
		ttk_ta_page_fail(k, s->nshards, true);
	return s;
}

static inline uint64_t ttk_ta_shard_noc_addr(const TensorAccessor *s,
					     uint32_t k, uint32_t off)
{
	return ttk_ta_shard_addr(ttk_ta_shard_check(s, k), k, 0, off);
}

/* Bytes of a whole shard slot. */
static inline uint32_t ttk_ta_shard_bytes(const TensorAccessor *s)
{
	return s->shard_rows * s->shard_cols * ttk_ta_stride(s);
}

static inline uint64_t ttk_shard_addr_v(uint32_t k, TensorAccessor s,
					uint32_t off)
{
	return ttk_ta_shard_noc_addr(&s, k, off);
}

static inline uint64_t ttk_shard_addr_p(uint32_t k, const TensorAccessor *s,
					uint32_t off)
{
	return ttk_ta_shard_noc_addr(s, k, off);
}

static inline uint32_t ttk_shard_bytes_v(TensorAccessor s)
{
	return ttk_ta_shard_bytes(&s);
}

static inline uint32_t ttk_shard_bytes_p(const TensorAccessor *s)
{
	return ttk_ta_shard_bytes(s);
}

#define TTK_TA_SELECT(s, fn)                                              \
	_Generic((s), TensorAccessor: fn##_v, TensorAccessor *: fn##_p,    \
		 const TensorAccessor *: fn##_p)

#define get_shard_noc_addr(...) \
	TTK_OVERLOAD(ttk_get_shard_noc_addr_, __VA_ARGS__)
#define ttk_get_shard_noc_addr_2(k, s) \
	TTK_TA_SELECT(s, ttk_shard_addr)((k), (s), 0)
#define ttk_get_shard_noc_addr_3(k, s, off) \
	TTK_TA_SELECT(s, ttk_shard_addr)((k), (s), (off))
#define ttk_get_shard_noc_addr_4(k, s, off, noc) \
	((void)(noc), TTK_TA_SELECT(s, ttk_shard_addr)((k), (s), (off)))

/* A whole shard slot (edge shards included: their unused pages too). */
#define noc_async_read_shard(...) \
	TTK_OVERLOAD(ttk_noc_async_read_shard_, __VA_ARGS__)
#define ttk_noc_async_read_shard_3(k, s, dst) \
	ttk_noc_async_read_shard_4(k, s, dst, noc_index)
#define ttk_noc_async_read_shard_4(k, s, dst, noc)                        \
	ttk_noc_read((noc), TTK_TA_SELECT(s, ttk_shard_addr)((k), (s), 0), \
		     (dst), TTK_TA_SELECT(s, ttk_shard_bytes)(s))
#define noc_async_write_shard(...) \
	TTK_OVERLOAD(ttk_noc_async_write_shard_, __VA_ARGS__)
#define ttk_noc_async_write_shard_3(k, s, src) \
	ttk_noc_async_write_shard_4(k, s, src, noc_index)
#define ttk_noc_async_write_shard_4(k, s, src, noc)                \
	ttk_noc_write((noc), (src),                                  \
		      TTK_TA_SELECT(s, ttk_shard_addr)((k), (s), 0),   \
		      TTK_TA_SELECT(s, ttk_shard_bytes)(s))

#endif /* TT_KERNEL_API_ACCESSOR_H */
