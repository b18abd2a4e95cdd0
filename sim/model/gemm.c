// SPDX-License-Identifier: Apache-2.0
/*
 * C += A x B in single precision (gemm.h), blocked for the caches:
 *
 *   for each KC-deep slice of k:       pack B's slice (kc x n) into
 *                                      NR-wide column panels (fits L2)
 *     for each MC-high block of rows:  (A's block stays in L2)
 *       for each NR-wide panel of B:   (stays in L1)
 *         for each few rows of A:      micro-kernel: those rows x NR of C
 *                                      held in registers over kc steps
 *
 * B is packed so that each step of the micro-kernel loads one aligned
 * cache line of it, whatever ldb is (a column panel read in place would
 * walk a power-of-two stride through a few cache sets). A is read in
 * place: each of the kernel's rows is a short sequential stream. Packing
 * pads a ragged right edge with zeros; the kernel always computes NR
 * columns and only the valid ones are added to C. Six rows x 16 columns
 * is twelve AVX2 accumulators: enough independent FMA chains to cover two
 * FMA units' latency, with room for two B vectors and one broadcast A
 * value; kernels of 4, 3, 2 and 1 rows take the remainders.
 */
#include "gemm.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "scratch.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86 1
#endif

#define MR 6
#define NR 16
#define KC 256
#define MC 96 /* a multiple of MR; MC x KC floats of A stay in L2 */

/* ---- packing B ---- */

static size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* B[kc x n] into panels of NR columns: panel j is kc rows of NR floats,
 * columns past n zero. */
static void pack_b(size_t kc, size_t n, const float *b, size_t ldb, float *bp)
{
	for (size_t j = 0; j < n; j += NR) {
		size_t w = min_sz(NR, n - j);

		if (w == NR) {
			for (size_t p = 0; p < kc; p++, bp += NR)
				memcpy(bp, b + p * ldb + j, NR * sizeof(float));
			continue;
		}
		for (size_t p = 0; p < kc; p++, bp += NR) {
			memcpy(bp, b + p * ldb + j, w * sizeof(float));
			memset(bp + w, 0, (NR - w) * sizeof(float));
		}
	}
}

/* Add the valid nr columns of an R x NR block t to C. */
static void add_block(float *c, size_t ldc, const float *t, unsigned rows,
		      size_t nr)
{
	for (unsigned r = 0; r < rows; r++)
		for (size_t j = 0; j < nr; j++)
			c[r * ldc + j] += t[r * NR + j];
}

/*
 * Micro-kernels: C[R x nr] += A[R x kc] x panel, A read in place (R rows
 * lda apart: R short streams the prefetchers follow), the B panel packed.
 * R is a constant in each instance, so the row loops unroll.
 */
#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE void kernel_c(unsigned rows, size_t kc, const float *a,
				   size_t lda, const float *bp, float *c,
				   size_t ldc, size_t nr)
{
	float acc[MR * NR] = { 0 };

	for (size_t p = 0; p < kc; p++, bp += NR)
#pragma GCC unroll 6
		for (unsigned r = 0; r < rows; r++)
#pragma GCC unroll 16
			for (unsigned j = 0; j < NR; j++)
				acc[r * NR + j] += a[r * lda + p] * bp[j];
	add_block(c, ldc, acc, rows, nr);
}

#define KERNEL_C(R)                                                          \
	static void kernel_c##R(size_t kc, const float *a, size_t lda,       \
				const float *bp, float *c, size_t ldc,       \
				size_t nr)                                   \
	{                                                                    \
		kernel_c(R, kc, a, lda, bp, c, ldc, nr);                     \
	}

KERNEL_C(1)
KERNEL_C(2)
KERNEL_C(3)
KERNEL_C(4)
KERNEL_C(6)

typedef void (*kernel_fn)(size_t kc, const float *a, size_t lda,
			  const float *bp, float *c, size_t ldc, size_t nr);

/* Kernels by rows (1, 2, 3, 4, 6); 5 is done as 3 + 2. */
struct kernels {
	kernel_fn k[MR + 1];
};

static const struct kernels portable = {
	{ NULL, kernel_c1, kernel_c2, kernel_c3, kernel_c4, NULL, kernel_c6 }
};

#ifdef HAVE_X86
#define AVX2 __attribute__((target("avx2,fma")))

static AVX2 ALWAYS_INLINE void kernel_x(unsigned rows, size_t kc,
					const float *a, size_t lda,
					const float *bp, float *c, size_t ldc,
					size_t nr)
{
	__m256 acc[MR][2];
	float t[MR * NR] __attribute__((aligned(32)));

#pragma GCC unroll 6
	for (unsigned r = 0; r < rows; r++)
		acc[r][0] = acc[r][1] = _mm256_setzero_ps();
#pragma GCC unroll 2
	for (size_t p = 0; p < kc; p++, bp += NR) {
		__m256 b0 = _mm256_load_ps(bp), b1 = _mm256_load_ps(bp + 8);

#pragma GCC unroll 6
		for (unsigned r = 0; r < rows; r++) {
			__m256 x = _mm256_broadcast_ss(a + r * lda + p);

			acc[r][0] = _mm256_fmadd_ps(x, b0, acc[r][0]);
			acc[r][1] = _mm256_fmadd_ps(x, b1, acc[r][1]);
		}
	}
	if (nr == NR) {
#pragma GCC unroll 6
		for (unsigned r = 0; r < rows; r++) {
			float *cr = c + r * ldc;

			_mm256_storeu_ps(cr, _mm256_add_ps(_mm256_loadu_ps(cr),
							   acc[r][0]));
			_mm256_storeu_ps(cr + 8,
					 _mm256_add_ps(_mm256_loadu_ps(cr + 8),
						       acc[r][1]));
		}
		return;
	}
#pragma GCC unroll 6
	for (unsigned r = 0; r < rows; r++) {
		_mm256_store_ps(t + r * NR, acc[r][0]);
		_mm256_store_ps(t + r * NR + 8, acc[r][1]);
	}
	add_block(c, ldc, t, rows, nr);
}

#define KERNEL_X(R)                                                          \
	static AVX2 void kernel_x##R(size_t kc, const float *a, size_t lda,  \
				     const float *bp, float *c, size_t ldc,  \
				     size_t nr)                              \
	{                                                                    \
		kernel_x(R, kc, a, lda, bp, c, ldc, nr);                     \
	}

KERNEL_X(1)
KERNEL_X(2)
KERNEL_X(3)
KERNEL_X(4)
KERNEL_X(6)

static const struct kernels avx2 = {
	{ NULL, kernel_x1, kernel_x2, kernel_x3, kernel_x4, NULL, kernel_x6 }
};

/*
 * AVX-512: the same micro-kernel over two adjacent packed panels at once
 * (rows x 32 columns, one 512-bit vector per panel and row: twelve
 * accumulators for six rows). Each sum runs over p in the same order with
 * the same fused multiply-adds as the AVX2 kernel, so the results are
 * the same bit for bit.
 */
#define AVX512 __attribute__((target("avx512f,avx2,fma")))

static AVX512 ALWAYS_INLINE void kernel_z(unsigned rows, size_t kc,
					  const float *a, size_t lda,
					  const float *bp0, const float *bp1,
					  float *c, size_t ldc)
{
	__m512 acc[MR][2];

#pragma GCC unroll 6
	for (unsigned r = 0; r < rows; r++)
		acc[r][0] = acc[r][1] = _mm512_setzero_ps();
#pragma GCC unroll 2
	for (size_t p = 0; p < kc; p++, bp0 += NR, bp1 += NR) {
		__m512 b0 = _mm512_loadu_ps(bp0), b1 = _mm512_loadu_ps(bp1);

#pragma GCC unroll 6
		for (unsigned r = 0; r < rows; r++) {
			__m512 x = _mm512_set1_ps(a[r * lda + p]);

			acc[r][0] = _mm512_fmadd_ps(x, b0, acc[r][0]);
			acc[r][1] = _mm512_fmadd_ps(x, b1, acc[r][1]);
		}
	}
#pragma GCC unroll 6
	for (unsigned r = 0; r < rows; r++) {
		float *cr = c + r * ldc;

		_mm512_storeu_ps(cr, _mm512_add_ps(_mm512_loadu_ps(cr),
						   acc[r][0]));
		_mm512_storeu_ps(cr + NR, _mm512_add_ps(_mm512_loadu_ps(cr + NR),
							acc[r][1]));
	}
}

typedef void (*kernel2_fn)(size_t kc, const float *a, size_t lda,
			   const float *bp0, const float *bp1, float *c,
			   size_t ldc);

#define KERNEL_Z(R)                                                          \
	static AVX512 void kernel_z##R(size_t kc, const float *a, size_t lda, \
				       const float *bp0, const float *bp1,   \
				       float *c, size_t ldc)                 \
	{                                                                    \
		kernel_z(R, kc, a, lda, bp0, bp1, c, ldc);                   \
	}

KERNEL_Z(1)
KERNEL_Z(2)
KERNEL_Z(3)
KERNEL_Z(4)
KERNEL_Z(6)

static const kernel2_fn avx512[MR + 1] = {
	NULL, kernel_z1, kernel_z2, kernel_z3, kernel_z4, NULL, kernel_z6
};

static bool cpu_has_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

static bool cpu_has_avx512(void)
{
	__builtin_cpu_init();
	return cpu_has_avx2() && __builtin_cpu_supports("avx512f");
}
#else
static bool cpu_has_avx2(void)
{
	return false;
}

static bool cpu_has_avx512(void)
{
	return false;
}
#endif

/* Rows for the next kernel with `left` rows to go: sixes, without a
 * tail of one or two rows when smaller kernels can share it (8 = 4 + 4,
 * 10 = 6 + 4, 7 = 4 + 3, 5 = 3 + 2). */
static unsigned next_rows(size_t left)
{
	if (left >= 10 || left == 6 || left == 9)
		return 6;
	if (left == 7 || left == 8 || left == 4)
		return 4;
	return left == 5 ? 3 : (unsigned)left;
}

/* ---- the blocked driver ---- */

/* C[mc x nr] += A[mc x kc] x one packed B panel, a few rows at a time. */
static void panel(const struct kernels *ks, size_t mc, size_t kc,
		  const float *a, size_t lda, const float *bp, float *c,
		  size_t ldc, size_t nr)
{
	size_t ir = 0;

	while (ir < mc) {
		unsigned rows = next_rows(mc - ir);

		ks->k[rows](kc, a + ir * lda, lda, bp, c + ir * ldc, ldc, nr);
		ir += rows;
	}
}

#ifdef HAVE_X86
/* The same over two whole panels (32 columns) with the AVX-512 kernels. */
static void panel2(size_t mc, size_t kc, const float *a, size_t lda,
		   const float *bp, float *c, size_t ldc)
{
	size_t ir = 0;

	while (ir < mc) {
		unsigned rows = next_rows(mc - ir);

		avx512[rows](kc, a + ir * lda, lda, bp, bp + kc * NR,
			     c + ir * ldc, ldc);
		ir += rows;
	}
}
#endif

static int gemm_run(const struct kernels *ks, size_t m, size_t n, size_t k,
		    const float *a, size_t lda, const float *b, size_t ldb,
		    float *c, size_t ldc, bool wide)
{
	size_t np = (n + NR - 1) / NR * NR;
	float *bp;

	if (!m || !n || !k)
		return 0;
	bp = sim_scratch(SIM_SCRATCH_GEMM, KC * np * sizeof(float));
	if (!bp)
		return -ENOMEM;
	for (size_t pc = 0; pc < k; pc += KC) {
		size_t kc = min_sz(KC, k - pc);

		pack_b(kc, n, b + pc * ldb, ldb, bp);
		for (size_t ic = 0; ic < m; ic += MC) {
			size_t mc = min_sz(MC, m - ic);

			size_t jr = 0;

#ifdef HAVE_X86
			for (; wide && jr + 2 * NR <= n; jr += 2 * NR)
				panel2(mc, kc, a + ic * lda + pc, lda,
				       bp + jr * kc, c + ic * ldc + jr, ldc);
#else
			(void)wide;
#endif
			for (; jr < n; jr += NR)
				panel(ks, mc, kc, a + ic * lda + pc, lda,
				      bp + jr * kc, c + ic * ldc + jr, ldc,
				      min_sz(NR, n - jr));
		}
	}
	return 0;
}

/* 2: AVX-512 (with AVX2 for ragged edges), 1: AVX2+FMA, 0: portable,
 * -1: not decided yet. */
static int use_simd = -1;

static int pick_simd(void)
{
	int v = __atomic_load_n(&use_simd, __ATOMIC_RELAXED);

	if (v < 0) {
		v = cpu_has_avx512() ? 2 : cpu_has_avx2() ? 1 : 0;
		__atomic_store_n(&use_simd, v, __ATOMIC_RELAXED);
	}
	return v;
}

int sim_gemm(size_t m, size_t n, size_t k, const float *a, size_t lda,
	     const float *b, size_t ldb, float *c, size_t ldc)
{
#ifdef HAVE_X86
	int v = pick_simd();

	if (v)
		return gemm_run(&avx2, m, n, k, a, lda, b, ldb, c, ldc, v == 2);
#endif
	return gemm_run(&portable, m, n, k, a, lda, b, ldb, c, ldc, false);
}

int sim_gemm_portable(size_t m, size_t n, size_t k, const float *a, size_t lda,
		      const float *b, size_t ldb, float *c, size_t ldc)
{
	return gemm_run(&portable, m, n, k, a, lda, b, ldb, c, ldc, false);
}

const char *sim_gemm_impl(void)
{
	static const char *const names[] = { "portable", "avx2", "avx512" };

	return names[pick_simd()];
}
