// SPDX-License-Identifier: Apache-2.0
/*
 * The RV32IM interpreter (see rv32.h).
 *
 * Each instruction is decoded once into a 16-byte record: its handler (as
 * the offset of a label inside rv32_run, for GCC's computed goto), the
 * register numbers, an immediate, and the raw word it was decoded from.
 * Records live in per-page arrays allocated the first time code on that
 * page runs, so a thread that executes 8 KiB of code in a 1.5 MiB region
 * holds 8 pages, not 1536.
 *
 * The records belong to the thread that runs the harts, not to a hart:
 * the harts of one node (one region of memory) share them. Per node, not
 * per layout: nodes hold different code at the same addresses (a
 * dispatch core's dispatcher in the slot where a worker core has its
 * reader), and one set of records for both would be decoded again at
 * every switch between them, which is most of what a small launch costs.
 * A node's harts run different code at different addresses, so theirs
 * stay. A thread alone writes its records, so no record is ever seen
 * half written.
 *
 * Code memory is shared with the host and other harts, who may rewrite it
 * at any time without fence.i. Every handler therefore starts by comparing
 * the current word in memory with the record's raw word, and decodes again
 * on a mismatch. Everything a record derives from its address (AUIPC
 * results, branch targets) stays valid because a page array only ever
 * describes one address range of one region layout.
 *
 * Straight-line execution walks the records and the code words side by
 * side; each page array ends with a sentinel record that looks the next
 * page up, so no handler needs a page-end test. Branches within a page
 * move both pointers by a pre-computed delta; other jumps look the target
 * up (L_jump).
 */
#include "rv32.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/dev_err.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the fast region is accessed as little-endian host words"
#endif

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Code bytes per icache page: a page's records take 4 times as much. */
#define PAGE_SHIFT 10
#define PAGE_BYTES (1u << PAGE_SHIFT)
#define PAGE_INSNS (PAGE_BYTES / 4)

/* Instructions between two looks at the budget and at *stop. */
#define CHUNK 4096

/* Register slot that writes to x0 go to, so x[0] itself stays 0. */
#define XZERO_SINK 32

/*
 * Every handler, in label order. Branches and JAL come in three variants:
 * _N a target further on in the same page, _B a target in the same page at
 * or before the branch (checks *stop), _F any other target (looked up).
 */
/* clang-format off */
#define RV32_OPS(X)                                                      \
	X(DECODE) X(PAGE_END) X(ILLEGAL) X(LUI) X(AUIPC) X(JAL_N) X(JAL_B) \
	X(JAL_F) X(JALR) X(BEQ_N) X(BEQ_B) X(BEQ_F) X(BNE_N) X(BNE_B)      \
	X(BNE_F) X(BLT_N) X(BLT_B) X(BLT_F) X(BGE_N) X(BGE_B) X(BGE_F)     \
	X(BLTU_N) X(BLTU_B) X(BLTU_F) X(BGEU_N) X(BGEU_B) X(BGEU_F) X(LB)  \
	X(LH) X(LW) X(LBU) X(LHU) X(SB) X(SH) X(SW) X(ADDI) X(SLTI)        \
	X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI) X(ADD)     \
	X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND)     \
	X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU)    \
	X(FENCE) X(ECALL) X(EBREAK) X(WFI) X(WAITNE) X(WAITGE)
/* clang-format on */

#define X_ENUM(name) OP_##name,
enum op { RV32_OPS(X_ENUM) OP_COUNT };
#undef X_ENUM

struct rec {
	int32_t h;    /* enum op while decoding, then a label offset */
	uint32_t raw; /* the instruction word this record was made from */
	int32_t imm;  /* immediate, absolute target, or record delta */
	uint8_t rd, rs1, rs2, pad; /* rd 0 is stored as XZERO_SINK */
};

struct page {
	struct rec rec[PAGE_INSNS + 1]; /* + a PAGE_END sentinel */
};

/* The fast region as rv32_run uses it, after sanity checks. */
struct region {
	uint8_t *mem;
	uint32_t base;
	uint32_t size; /* bytes usable for data */
	uint32_t code; /* bytes usable for code: size rounded down to 4 */
};

struct rv32_icache {
	struct region g; /* what the pages describe */
	uint32_t npages;
	struct page *pages[]; /* NULL until code on the page runs */
};

/* ---- decoding ---- */

static inline uint32_t f_rd(uint32_t w)
{
	return (w >> 7) & 31;
}

static inline uint32_t f_rs1(uint32_t w)
{
	return (w >> 15) & 31;
}

static inline uint32_t f_rs2(uint32_t w)
{
	return (w >> 20) & 31;
}

static inline uint32_t f_funct3(uint32_t w)
{
	return (w >> 12) & 7;
}

static inline uint32_t f_funct7(uint32_t w)
{
	return w >> 25;
}

static inline int32_t imm_i(uint32_t w)
{
	return (int32_t)w >> 20;
}

static inline int32_t imm_s(uint32_t w)
{
	return ((int32_t)(w & 0xfe000000u) >> 20) | (int32_t)((w >> 7) & 0x1f);
}

static inline int32_t imm_b(uint32_t w)
{
	return ((int32_t)(w & 0x80000000u) >> 19) |
	       (int32_t)(((w & 0x80) << 4) | ((w >> 20) & 0x7e0) |
			 ((w >> 7) & 0x1e));
}

static inline int32_t imm_j(uint32_t w)
{
	return ((int32_t)(w & 0x80000000u) >> 11) |
	       (int32_t)((w & 0xff000) | ((w >> 9) & 0x800) |
			 ((w >> 20) & 0x7fe));
}

/*
 * Variant of a branch or JAL at pc to pc + off: base + 0 (near forward),
 * + 1 (near backward) with *delta in records, or + 2 (far) with *delta the
 * absolute target. Near means fetchable and on the same page.
 */
static enum op pick_target(enum op base, const struct region *g, uint32_t pc,
			   int32_t off, int32_t *delta)
{
	uint32_t t = pc + (uint32_t)off;
	uint32_t to = t - g->base, po = pc - g->base;

	if ((t & 3) || to >= g->code ||
	    (to >> PAGE_SHIFT) != (po >> PAGE_SHIFT)) {
		*delta = (int32_t)t;
		return base + 2;
	}
	*delta = off / 4;
	return base + (off <= 0);
}

static enum op decode_op_imm(uint32_t w, struct rec *r)
{
	static const enum op ops[8] = {OP_ADDI, OP_SLLI, OP_SLTI, OP_SLTIU,
				       OP_XORI, OP_SRLI, OP_ORI,  OP_ANDI};
	uint32_t f3 = f_funct3(w), f7 = f_funct7(w);

	if (f3 == 1 || f3 == 5) {
		/* Shifts: imm[11:5] is funct7; bit 25 set would be RV64's
		 * shamt[5], reserved here. */
		r->imm = (int32_t)f_rs2(w);
		if (f7 == 0)
			return ops[f3];
		return f3 == 5 && f7 == 0x20 ? OP_SRAI : OP_ILLEGAL;
	}
	return ops[f3];
}

static enum op decode_op(uint32_t w)
{
	static const enum op base[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU,
					OP_XOR, OP_SRL, OP_OR,	OP_AND};
	static const enum op muldiv[8] = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU,
					  OP_DIV, OP_DIVU, OP_REM,    OP_REMU};
	uint32_t f3 = f_funct3(w), f7 = f_funct7(w);

	if (f7 == 0)
		return base[f3];
	if (f7 == 1)
		return muldiv[f3];
	if (f7 == 0x20 && f3 == 0)
		return OP_SUB;
	if (f7 == 0x20 && f3 == 5)
		return OP_SRA;
	return OP_ILLEGAL;
}

/* Decode word w at address pc into r; returns the handler. */
static enum op decode(uint32_t w, uint32_t pc, const struct region *g,
		      struct rec *r)
{
	static const enum op loads[8] = {OP_LB,	     OP_LH,	OP_LW,
					 OP_ILLEGAL, OP_LBU,	OP_LHU,
					 OP_ILLEGAL, OP_ILLEGAL};
	static const enum op branches[8] = {OP_BEQ_N,	OP_BNE_N, OP_ILLEGAL,
					    OP_ILLEGAL, OP_BLT_N, OP_BGE_N,
					    OP_BLTU_N,	OP_BGEU_N};
	static const enum op stores[3] = {OP_SB, OP_SH, OP_SW};
	uint32_t f3 = f_funct3(w);
	enum op op;

	r->raw = w;
	r->rd = (uint8_t)(f_rd(w) ? f_rd(w) : XZERO_SINK);
	r->rs1 = (uint8_t)f_rs1(w);
	r->rs2 = (uint8_t)f_rs2(w);
	r->pad = 0;
	r->imm = imm_i(w);
	switch (w & 0x7f) {
	case 0x37: /* LUI */
		r->imm = (int32_t)(w & 0xfffff000u);
		return OP_LUI;
	case 0x17: /* AUIPC: the result is a constant of this address */
		r->imm = (int32_t)(pc + (w & 0xfffff000u));
		return OP_AUIPC;
	case 0x6f:
		return pick_target(OP_JAL_N, g, pc, imm_j(w), &r->imm);
	case 0x67:
		return f3 == 0 ? OP_JALR : OP_ILLEGAL;
	case 0x63:
		op = branches[f3];
		if (op == OP_ILLEGAL)
			return op;
		return pick_target(op, g, pc, imm_b(w), &r->imm);
	case 0x03:
		return loads[f3];
	case 0x23:
		r->imm = imm_s(w);
		return f3 < 3 ? stores[f3] : OP_ILLEGAL;
	case 0x13:
		return decode_op_imm(w, r);
	case 0x33:
		return decode_op(w);
	case 0x0f:
		/* fence and fence.i; their other fields are reserved for
		 * finer-grained fences and ignored, as the ISA asks. */
		return f3 <= 1 ? OP_FENCE : OP_ILLEGAL;
	case 0x73:
		if (w == 0x00000073)
			return OP_ECALL;
		if (w == 0x00100073)
			return OP_EBREAK;
		if (w == 0x10500073)
			return OP_WFI;
		return OP_ILLEGAL; /* CSRs, xRET, ... */
	case TT_OPCODE_CUSTOM0:
		if (f_funct7(w) != 0)
			return OP_ILLEGAL;
		return f3 == 0 ? OP_WAITNE : f3 == 1 ? OP_WAITGE : OP_ILLEGAL;
	default: /* incl. every 16-bit (compressed) encoding */
		return OP_ILLEGAL;
	}
}

/* ---- the decoded-instruction cache ---- */

static void page_reset(struct page *p, uint32_t idx, const struct region *g,
		       const int32_t *ofs)
{
	uint32_t start = idx << PAGE_SHIFT;
	uint32_t valid = g->code - start;

	if (valid > PAGE_BYTES)
		valid = PAGE_BYTES;
	valid /= 4;
	/* Records past the region's end stop execution like the sentinel:
	 * their fetch is re-checked against the region and faults. */
	for (uint32_t i = 0; i <= PAGE_INSNS; i++) {
		p->rec[i].h = ofs[i < valid ? OP_DECODE : OP_PAGE_END];
		p->rec[i].raw = 0;
	}
}

static void icache_free_pages(struct rv32_icache *ic)
{
	for (uint32_t i = 0; i < ic->npages; i++)
		free(ic->pages[i]);
}

/* Regions a thread keeps records for: a chip's nodes (up to 140 Tensix
 * cores and the ARC node on the boards modelled); the least recently used
 * beyond that are dropped. */
#define THREAD_CACHES 160

struct thread_caches {
	struct rv32_icache *ic[THREAD_CACHES]; /* most recently used first */
};

static pthread_key_t caches_key;
static pthread_once_t caches_once = PTHREAD_ONCE_INIT;
static int caches_key_err;

static void icache_free(struct rv32_icache *ic)
{
	if (!ic)
		return;
	icache_free_pages(ic);
	free(ic);
}

/* Thread exit: the thread's records. */
static void caches_release(void *p)
{
	struct thread_caches *tc = p;

	for (unsigned i = 0; i < THREAD_CACHES; i++)
		icache_free(tc->ic[i]);
	free(tc);
}

static void caches_make_key(void)
{
	caches_key_err = pthread_key_create(&caches_key, caches_release);
}

static struct thread_caches *thread_caches(void)
{
	struct thread_caches *tc;

	pthread_once(&caches_once, caches_make_key);
	if (caches_key_err)
		return NULL;
	tc = pthread_getspecific(caches_key);
	if (tc)
		return tc;
	tc = calloc(1, sizeof(*tc));
	if (tc && pthread_setspecific(caches_key, tc)) {
		free(tc);
		tc = NULL;
	}
	return tc;
}

static bool same_region(const struct region *a, const struct region *b)
{
	return a->mem == b->mem && a->base == b->base && a->size == b->size &&
	       a->code == b->code;
}

/* This thread's icache for region g, made if there is none
 * (the least recently used one makes room); NULL when out of memory (the
 * caller then works from a scratch page). */
static struct rv32_icache *icache_get(const struct region *g)
{
	struct thread_caches *tc = thread_caches();
	struct rv32_icache *ic;
	unsigned i;
	uint32_t np;

	if (!tc)
		return NULL;
	for (i = 0; i < THREAD_CACHES && tc->ic[i]; i++)
		if (same_region(&tc->ic[i]->g, g))
			break;
	if (i == THREAD_CACHES || !tc->ic[i]) {
		i = i == THREAD_CACHES ? THREAD_CACHES - 1 : i;
		icache_free(tc->ic[i]);
		tc->ic[i] = NULL;
		np = (uint32_t)(((uint64_t)g->code + PAGE_BYTES - 1) >>
				PAGE_SHIFT);
		ic = calloc(1, sizeof(*ic) + (size_t)np * sizeof(ic->pages[0]));
		if (!ic)
			return NULL;
		ic->g = *g;
		ic->npages = np;
	} else {
		ic = tc->ic[i];
	}
	memmove(&tc->ic[1], &tc->ic[0], i * sizeof(tc->ic[0]));
	tc->ic[0] = ic;
	return ic;
}

/* Scratch page used when no page can be allocated. */
struct spare {
	struct page page;
	uint32_t idx; /* page it describes, or UINT32_MAX */
};

/* Records of page idx (idx < pages in the region). */
static struct rec *page_get(struct rv32_icache *ic, uint32_t idx,
			    const struct region *g, struct spare *sp,
			    const int32_t *ofs)
{
	struct page *p = ic ? ic->pages[idx] : NULL;

	if (likely(p))
		return p->rec;
	if (ic) {
		p = malloc(sizeof(*p));
		if (p) {
			page_reset(p, idx, g, ofs);
			ic->pages[idx] = p;
			return p->rec;
		}
	}
	if (sp->idx != idx) {
		page_reset(&sp->page, idx, g, ofs);
		sp->idx = idx;
	}
	return sp->page.rec;
}

/* ---- helpers for handlers ---- */

static inline uint32_t ld32(const void *p)
{
	return __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED);
}

static inline uint32_t ld16(const void *p)
{
	return __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
}

static inline uint32_t ld8(const void *p)
{
	return __atomic_load_n((const uint8_t *)p, __ATOMIC_RELAXED);
}

/*
 * Stores are relaxed: a sequentially consistent store costs a locked
 * instruction on x86 and stalls on a cold line, and most of a launch's
 * instructions are one-off stores to cold lines. Ordering the guest asks
 * for comes from its fences (FENCE below); waiters are covered by
 * settle_stores().
 */
static inline void st32(void *p, uint32_t v)
{
	__atomic_store_n((uint32_t *)p, v, __ATOMIC_RELAXED);
}

static inline void st16(void *p, uint32_t v)
{
	__atomic_store_n((uint16_t *)p, (uint16_t)v, __ATOMIC_RELAXED);
}

static inline void st8(void *p, uint32_t v)
{
	__atomic_store_n((uint8_t *)p, (uint8_t)v, __ATOMIC_RELAXED);
}

static inline uint32_t mulh(uint32_t a, uint32_t b)
{
	return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32);
}

static inline uint32_t mulhsu(uint32_t a, uint32_t b)
{
	return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)b) >> 32);
}

static inline uint32_t mulhu(uint32_t a, uint32_t b)
{
	return (uint32_t)(((uint64_t)a * b) >> 32);
}

static inline uint32_t div_s(uint32_t a, uint32_t b)
{
	if (b == 0)
		return UINT32_MAX;
	if (a == 0x80000000u && b == UINT32_MAX)
		return a; /* overflow: the dividend */
	return (uint32_t)((int32_t)a / (int32_t)b);
}

static inline uint32_t div_u(uint32_t a, uint32_t b)
{
	return b ? a / b : UINT32_MAX;
}

static inline uint32_t rem_s(uint32_t a, uint32_t b)
{
	if (b == 0)
		return a;
	if (a == 0x80000000u && b == UINT32_MAX)
		return 0;
	return (uint32_t)((int32_t)a % (int32_t)b);
}

static inline uint32_t rem_u(uint32_t a, uint32_t b)
{
	return b ? a % b : a;
}

static inline uint32_t sra(uint32_t a, uint32_t sh)
{
	return (uint32_t)((int32_t)a >> (sh & 31));
}

/* Sign-extend the low `size` bytes of v. */
static inline uint32_t sext(uint32_t v, unsigned size)
{
	unsigned sh = 32 - 8 * size;

	return (uint32_t)((int32_t)(v << sh) >> sh);
}

static struct region region_of(const struct rv32_hart *h)
{
	struct region g = {h->mem, h->mem_base, h->mem_size, 0};

	/* An unaligned or missing region is never accessed directly. */
	if (!g.mem || ((uintptr_t)g.mem & 3) || (g.base & 3))
		g.size = 0;
	/* Addresses do not wrap around the top of the space. */
	if (g.base && g.size > UINT32_MAX - g.base + 1)
		g.size = UINT32_MAX - g.base + 1;
	g.code = g.size & ~3u;
	return g;
}

/* Highest offset + 1 at which an aligned access of size bytes fits. */
static inline uint32_t fit_limit(uint32_t size, unsigned n)
{
	return size >= n ? size - n + 1 : 0;
}

static const uint32_t no_watch[2];
static const int zero_int;

const char *rv32_fault_name(enum tt_hart_fault cause)
{
	return hart_fault_str(cause);
}

void rv32_init(struct rv32_hart *h, uint32_t reset_pc)
{
	memset(h, 0, sizeof(*h));
	h->pc = reset_pc;
}

void rv32_fini(struct rv32_hart *h)
{
	(void)h; /* records belong to threads (see the top of the file) */
}

/* Slow-path load outside the fast region (or straddling its end). */
static enum rv32_cb load_slow(struct rv32_hart *h, const struct region *g,
			      uint32_t a, unsigned size, uint32_t *v)
{
	enum rv32_cb cb;

	*v = 0;
	if (a - g->base < g->size || !h->ops || !h->ops->load)
		return RV32_CB_FAULT;
	cb = h->ops->load(h, a, size, v);
	if (cb != RV32_CB_OK && cb != RV32_CB_STOP)
		return RV32_CB_FAULT;
	if (size < 4)
		*v &= (1u << (8 * size)) - 1;
	return cb;
}

static enum rv32_cb store_slow(struct rv32_hart *h, const struct region *g,
			       uint32_t a, unsigned size, uint32_t v)
{
	enum rv32_cb cb;

	if (a - g->base < g->size || !h->ops || !h->ops->store)
		return RV32_CB_FAULT;
	if (size < 4)
		v &= (1u << (8 * size)) - 1;
	cb = h->ops->store(h, a, size, v);
	return cb == RV32_CB_OK || cb == RV32_CB_STOP ? cb : RV32_CB_FAULT;
}

/*
 * A store's look at the watched range is not ordered after the store, so
 * a waiter that publishes its word meanwhile may neither be reported nor
 * see the store in its own look. A full barrier and one more look at
 * the end of each turn and chunk that stored catches that case: either
 * this look sees the waiter, or the waiter's look (after its barrier)
 * sees the store.
 */
static void settle_stores(struct rv32_hart *h, const uint32_t *watch)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (h->ops && h->ops->stores_settled &&
	    __atomic_load_n(&watch[0], __ATOMIC_RELAXED) !=
		    __atomic_load_n(&watch[1], __ATOMIC_RELAXED))
		h->ops->stores_settled(h);
}

static enum rv32_cb watched(struct rv32_hart *h, uint32_t a, unsigned size)
{
	enum rv32_cb cb;

	if (!h->ops || !h->ops->watched_store)
		return RV32_CB_OK;
	cb = h->ops->watched_store(h, a, size);
	return cb == RV32_CB_OK || cb == RV32_CB_STOP ? cb : RV32_CB_FAULT;
}

/* ---- the interpreter ---- */

/*
 * Register use: r is the current record, cw the code word it describes,
 * n the instructions left in this chunk (counted at the start of each
 * instruction), rem the budget beyond this chunk. x[] is a private copy
 * of the registers with an extra slot that absorbs writes to x0.
 */
#define DISPATCH() goto *(void *)((char *)&&L_DECODE + r->h)

/* Start of a handler: re-decode if the word changed, then count. */
#define INSN(name)                                                             \
	L_##name : if (unlikely(ld32(cw) != r->raw)) goto L_DECODE;            \
	if (unlikely(--n < 0))                                                 \
		goto L_refill;

#define NEXT()                                                                 \
	do {                                                                   \
		r++;                                                           \
		cw++;                                                          \
		DISPATCH();                                                    \
	} while (0)

#define PC() (g.base + (uint32_t)((const uint8_t *)cw - g.mem))

/* End the run at this instruction with a fault; it does not retire. */
#define FAULT(cause, addr)                                                     \
	do {                                                                   \
		n++;                                                           \
		h->fault_cause = (cause);                                      \
		h->fault_addr = (addr);                                        \
		pc = PC();                                                     \
		why = RV32_EXIT_FAULT;                                         \
		goto out;                                                      \
	} while (0)

/* End the run after this instruction, which retires. */
#define EXIT_AFTER(reason)                                                     \
	do {                                                                   \
		pc = PC() + 4;                                                 \
		why = (reason);                                                \
		goto out;                                                      \
	} while (0)

#define ALU_RR(name, expr)                                                     \
	INSN(name)                                                             \
	{                                                                      \
		uint32_t a = x[r->rs1], b = x[r->rs2];                         \
		x[r->rd] = (expr);                                             \
		NEXT();                                                        \
	}

#define ALU_RI(name, expr)                                                     \
	INSN(name)                                                             \
	{                                                                      \
		uint32_t a = x[r->rs1], b = (uint32_t)r->imm;                  \
		x[r->rd] = (expr);                                             \
		NEXT();                                                        \
	}

/* Near taken branch: move by the record delta. */
#define GO_NEAR()                                                              \
	do {                                                                   \
		int32_t d = r->imm;                                            \
		r += d;                                                        \
		cw += d;                                                       \
		DISPATCH();                                                    \
	} while (0)

/* Near backward: also where a spinning guest notices *stop. */
#define GO_BACK()                                                              \
	do {                                                                   \
		int32_t d = r->imm;                                            \
		r += d;                                                        \
		cw += d;                                                       \
		if (unlikely(__atomic_load_n(stop, __ATOMIC_RELAXED))) {       \
			pc = PC();                                             \
			why = RV32_EXIT_STOP;                                  \
			goto out;                                              \
		}                                                              \
		DISPATCH();                                                    \
	} while (0)

#define GO_FAR()                                                               \
	do {                                                                   \
		npc = (uint32_t)r->imm;                                        \
		goto L_jump;                                                   \
	} while (0)

#define BRANCH(name, cond)                                                     \
	INSN(name##_N)                                                         \
	{                                                                      \
		uint32_t a = x[r->rs1], b = x[r->rs2];                         \
		if (cond)                                                      \
			GO_NEAR();                                             \
		NEXT();                                                        \
	}                                                                      \
	INSN(name##_B)                                                         \
	{                                                                      \
		uint32_t a = x[r->rs1], b = x[r->rs2];                         \
		if (cond)                                                      \
			GO_BACK();                                             \
		NEXT();                                                        \
	}                                                                      \
	INSN(name##_F)                                                         \
	{                                                                      \
		uint32_t a = x[r->rs1], b = x[r->rs2];                         \
		if (cond)                                                      \
			GO_FAR();                                              \
		NEXT();                                                        \
	}

/* Loads and stores: the fast region inline, everything else out of line. */
#define LOAD(name, n_bytes, ldfn, signed_)                                     \
	INSN(name)                                                             \
	{                                                                      \
		uint32_t a = x[r->rs1] + (uint32_t)r->imm, o = a - g.base;     \
		if (likely(o < lim##n_bytes && !(o & (n_bytes - 1)))) {        \
			uint32_t v = ldfn(g.mem + o);                          \
			x[r->rd] = signed_ ? sext(v, n_bytes) : v;             \
			NEXT();                                                \
		}                                                              \
		ma = a;                                                        \
		msize = n_bytes;                                               \
		msigned = signed_;                                             \
		goto L_load_slow;                                              \
	}

#define STORE(name, n_bytes, stfn)                                             \
	INSN(name)                                                             \
	{                                                                      \
		uint32_t a = x[r->rs1] + (uint32_t)r->imm, o = a - g.base;     \
		uint32_t v = x[r->rs2];                                        \
		if (likely(o < lim##n_bytes && !(o & (n_bytes - 1)))) {        \
			stfn(g.mem + o, v);                                    \
			stored = true;                                         \
			wlo = __atomic_load_n(&watch[0], __ATOMIC_RELAXED);    \
			if (likely(a - wlo >=                                  \
				   __atomic_load_n(&watch[1],                  \
						   __ATOMIC_RELAXED) - wlo))   \
				NEXT();                                        \
			ma = a;                                                \
			msize = n_bytes;                                       \
			goto L_watched;                                        \
		}                                                              \
		ma = a;                                                        \
		msize = n_bytes;                                               \
		mval = v;                                                      \
		goto L_store_slow;                                             \
	}

enum rv32_exit rv32_run(struct rv32_hart *h, uint64_t max_insns)
{
#define X_OFS(name) [OP_##name] = (int32_t)(&&L_##name - &&L_DECODE),
	static const int32_t ofs[OP_COUNT] = {RV32_OPS(X_OFS)};
#undef X_OFS
	const struct region g = region_of(h);
	const uint32_t lim1 = fit_limit(g.size, 1), lim2 = fit_limit(g.size, 2);
	const uint32_t lim4 = fit_limit(g.size, 4);
	const uint32_t *watch = h->store_watch ? h->store_watch : no_watch;
	uint32_t wlo;
	bool wait_ge, stored = false;
	const int *stop = h->stop ? h->stop : &zero_int;
	struct rv32_icache *ic = icache_get(&g);
	struct spare spare;
	uint32_t x[XZERO_SINK + 1];
	uint64_t rem = max_insns;
	int64_t n = 0;
	struct rec *r;
	const uint32_t *cw;
	uint32_t npc = h->pc, pc, foff, ma = 0, mval = 0;
	unsigned msize = 0;
	bool msigned = false;
	enum rv32_exit why;
	enum rv32_cb cb;

	spare.idx = UINT32_MAX;
	memcpy(x, h->x, sizeof(h->x));
	x[0] = 0;
	h->fault_cause = TT_HART_FAULT_NONE;
	h->fault_addr = 0;
	goto L_fetch;

L_jump: /* a taken jump to npc: a chance to notice *stop */
	if (unlikely(__atomic_load_n(stop, __ATOMIC_RELAXED))) {
		pc = npc;
		why = RV32_EXIT_STOP;
		goto out;
	}
L_fetch: /* look npc up; not an instruction, nothing is counted */
	foff = npc - g.base;
	if (unlikely(npc & 3)) {
		h->fault_cause = TT_HART_FAULT_FETCH_ALIGN;
		goto fetch_fault;
	}
	if (unlikely(foff >= g.code)) {
		h->fault_cause = TT_HART_FAULT_FETCH_ACCESS;
		goto fetch_fault;
	}
	r = page_get(ic, foff >> PAGE_SHIFT, &g, &spare, ofs) +
	    ((foff & (PAGE_BYTES - 1)) >> 2);
	cw = (const uint32_t *)(g.mem + foff);
	DISPATCH();
fetch_fault:
	h->fault_addr = npc;
	pc = npc;
	why = RV32_EXIT_FAULT;
	goto out;

L_refill: /* the chunk ran out before this instruction, which has not
	   * been counted */
	n = 0;
	if (stored) {
		settle_stores(h, watch);
		stored = false;
	}
	if (!rem) {
		pc = PC();
		why = RV32_EXIT_BUDGET;
		goto out;
	}
	if (__atomic_load_n(stop, __ATOMIC_RELAXED)) {
		pc = PC();
		why = RV32_EXIT_STOP;
		goto out;
	}
	n = rem < CHUNK ? (int64_t)rem : CHUNK;
	rem -= (uint64_t)n;
	DISPATCH();

L_DECODE:
	r->h = ofs[decode(ld32(cw), PC(), &g, r)];
	DISPATCH();
L_PAGE_END: /* ran off the page (or the region): look the next word up */
	npc = PC();
	goto L_fetch;

	INSN(ILLEGAL)
	{
		FAULT(TT_HART_FAULT_ILLEGAL, r->raw);
	}

	INSN(LUI)
	{
		x[r->rd] = (uint32_t)r->imm;
		NEXT();
	}
	INSN(AUIPC)
	{
		x[r->rd] = (uint32_t)r->imm;
		NEXT();
	}
	INSN(JAL_N)
	{
		x[r->rd] = PC() + 4;
		GO_NEAR();
	}
	INSN(JAL_B)
	{
		x[r->rd] = PC() + 4;
		GO_BACK();
	}
	INSN(JAL_F)
	{
		x[r->rd] = PC() + 4;
		GO_FAR();
	}
	INSN(JALR)
	{
		npc = (x[r->rs1] + (uint32_t)r->imm) & ~1u;
		x[r->rd] = PC() + 4;
		goto L_jump;
	}

	BRANCH(BEQ, a == b)
	BRANCH(BNE, a != b)
	BRANCH(BLT, (int32_t)a < (int32_t)b)
	BRANCH(BGE, (int32_t)a >= (int32_t)b)
	BRANCH(BLTU, a < b)
	BRANCH(BGEU, a >= b)

	LOAD(LB, 1, ld8, true)
	LOAD(LH, 2, ld16, true)
	LOAD(LW, 4, ld32, false)
	LOAD(LBU, 1, ld8, false)
	LOAD(LHU, 2, ld16, false)
	STORE(SB, 1, st8)
	STORE(SH, 2, st16)
	STORE(SW, 4, st32)

	ALU_RI(ADDI, a + b)
	ALU_RI(SLTI, (int32_t)a < (int32_t)b)
	ALU_RI(SLTIU, a < b)
	ALU_RI(XORI, a ^ b)
	ALU_RI(ORI, a | b)
	ALU_RI(ANDI, a & b)
	ALU_RI(SLLI, a << b)
	ALU_RI(SRLI, a >> b)
	ALU_RI(SRAI, sra(a, b))

	ALU_RR(ADD, a + b)
	ALU_RR(SUB, a - b)
	ALU_RR(SLL, a << (b & 31))
	ALU_RR(SLT, (int32_t)a < (int32_t)b)
	ALU_RR(SLTU, a < b)
	ALU_RR(XOR, a ^ b)
	ALU_RR(SRL, a >> (b & 31))
	ALU_RR(SRA, sra(a, b))
	ALU_RR(OR, a | b)
	ALU_RR(AND, a & b)
	ALU_RR(MUL, a * b)
	ALU_RR(MULH, mulh(a, b))
	ALU_RR(MULHSU, mulhsu(a, b))
	ALU_RR(MULHU, mulhu(a, b))
	ALU_RR(DIV, div_s(a, b))
	ALU_RR(DIVU, div_u(a, b))
	ALU_RR(REM, rem_s(a, b))
	ALU_RR(REMU, rem_u(a, b))

	INSN(FENCE)
	{
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		NEXT();
	}
	INSN(ECALL)
	{
		FAULT(TT_HART_FAULT_ECALL, 0);
	}
	INSN(EBREAK)
	{
		FAULT(TT_HART_FAULT_EBREAK, 0);
	}
	INSN(WFI)
	{
		EXIT_AFTER(RV32_EXIT_WFI);
	}
	INSN(WAITNE)
	{
		wait_ge = false;
		goto L_wait;
	}
	INSN(WAITGE)
	{
		wait_ge = true;
		goto L_wait;
	}

L_load_slow: /* ma, msize, msigned: r is the load */
	if (ma & (msize - 1))
		FAULT(TT_HART_FAULT_LOAD_ALIGN, ma);
	h->pc = PC();
	cb = load_slow(h, &g, ma, msize, &mval);
	if (cb == RV32_CB_FAULT)
		FAULT(TT_HART_FAULT_LOAD_ACCESS, ma);
	x[r->rd] = msigned ? sext(mval, msize) : mval;
	if (cb == RV32_CB_STOP)
		EXIT_AFTER(RV32_EXIT_STOP);
	NEXT();
L_wait: /* r is a tt.waitne or tt.waitge */
	{
		uint32_t a = x[r->rs1], o = a - g.base, v, want = x[r->rs2];

		cb = RV32_CB_OK;
		if (unlikely(a & 3))
			FAULT(TT_HART_FAULT_LOAD_ALIGN, a);
		if (likely(o < lim4)) {
			v = ld32(g.mem + o);
		} else {
			h->pc = PC();
			cb = load_slow(h, &g, a, 4, &v);
			if (cb == RV32_CB_FAULT)
				FAULT(TT_HART_FAULT_LOAD_ACCESS, a);
		}
		if (wait_ge ? (int32_t)(v - want) < 0 : v == want) {
			h->wait_addr = a;
			h->wait_val = wait_ge ? want : v;
			h->wait_ge = wait_ge;
			EXIT_AFTER(RV32_EXIT_WAIT);
		}
		if (cb == RV32_CB_STOP)
			EXIT_AFTER(RV32_EXIT_STOP);
		NEXT();
	}
L_store_slow: /* ma, msize, mval: r is the store */
	if (ma & (msize - 1))
		FAULT(TT_HART_FAULT_STORE_ALIGN, ma);
	h->pc = PC();
	cb = store_slow(h, &g, ma, msize, mval);
	goto store_done;
L_watched: /* a fast-region store at ma, msize while someone waits */
	h->pc = PC();
	cb = watched(h, ma, msize);
store_done:
	if (cb == RV32_CB_FAULT)
		FAULT(TT_HART_FAULT_STORE_ACCESS, ma);
	if (cb == RV32_CB_STOP)
		EXIT_AFTER(RV32_EXIT_STOP);
	NEXT();

out:
	if (stored)
		settle_stores(h, watch);
	h->pc = pc;
	memcpy(h->x, x, sizeof(h->x));
	h->x[0] = 0;
	h->instret += max_insns - rem - (uint64_t)n;
	return why;
}
