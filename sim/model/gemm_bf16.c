// SPDX-License-Identifier: Apache-2.0
/*
 * C += A x B for operands that are bfloat16 values (gemm.h), on the host
 * CPU's AMX tile unit where it has one.
 *
 * Most of the matrix unit's work is on bfloat16 or block-float operands at
 * a fidelity that keeps at most 7 fraction bits: every operand is then a
 * bfloat16 value held in a float. AMX multiplies bfloat16 pairs exactly
 * and sums them in fp32, many times faster than fp32 FMAs. The operands
 * are converted to bfloat16 first (A row-major, B with pairs of rows
 * interleaved, the layout TDPBF16PS reads); a value that does not convert
 * exactly, or is subnormal (AMX reads subnormals as zero), sends the whole
 * product back to the fp32 path, so the operands' values never change.
 *
 * C is walked in 32 x 32 blocks held in four accumulator tiles while k
 * runs; two A tiles (16 rows x 32) and two B tiles (16 row pairs x 16
 * columns) feed four TDPBF16PS per 32 of k.
 */
#include "gemm.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "scratch.h"

#if defined(__x86_64__) && defined(__linux__)
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>
#define HAVE_AMX 1
#endif

#define BLK 32 /* C block edge, and k per step */
#define HALF 16

#ifdef HAVE_AMX
#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILEDATA 18

/* The tile configuration of ldtilecfg, palette 1: every tile used is 16
 * rows of 64 bytes. */
struct tile_config {
	uint8_t palette;
	uint8_t start_row;
	uint8_t reserved[14];
	uint16_t colsb[16];
	uint8_t rows[16];
};

#define AMX __attribute__((target("amx-tile,amx-bf16")))
#define AVX512 __attribute__((target("avx512f,avx512bw")))

/* Lanes of 16 floats' bits that are not bfloat16 values: low 16 bits set,
 * or subnormal (exponent zero, fraction not). */
static AVX512 __mmask16 not_bf16(__m512i u)
{
	__m512i exp = _mm512_set1_epi32(0x7F800000),
		frac = _mm512_set1_epi32(0x007F0000);

	return _mm512_test_epi32_mask(u, _mm512_set1_epi32(0xFFFF)) |
	       (_mm512_testn_epi32_mask(u, exp) &
		_mm512_test_epi32_mask(u, frac));
}

/* A[m x k] (m x k a multiple of 16) row-major as bfloat16; false if a
 * value is not one. */
static AVX512 bool convert_a(size_t m, size_t k, const float *a,
			     uint16_t *out)
{
	__mmask16 bad = 0;

	for (size_t i = 0; i < m * k; i += 16) {
		__m512i u = _mm512_castps_si512(_mm512_loadu_ps(a + i));

		bad |= not_bf16(u);
		_mm256_storeu_si256((__m256i *)(out + i),
				    _mm512_cvtepi32_epi16(
					    _mm512_srli_epi32(u, 16)));
	}
	return !bad;
}

/* B[k x n] (k even, n a multiple of 16) as bfloat16 with rows p and p+1
 * interleaved, the pair of B[p][j] and B[p+1][j] one 32-bit word at
 * out[(p/2) * 2n + 2j] (little-endian: row p in the low half). */
static AVX512 bool convert_b(size_t k, size_t n, const float *b,
			     uint16_t *out)
{
	__m512i hi = _mm512_set1_epi32((int)0xFFFF0000u);
	__mmask16 bad = 0;

	for (size_t p = 0; p < k; p += 2) {
		const float *r0 = b + p * n, *r1 = r0 + n;
		uint16_t *o = out + p * n;

		for (size_t j = 0; j < n; j += 16) {
			__m512i u0 = _mm512_castps_si512(_mm512_loadu_ps(r0 + j)),
				u1 = _mm512_castps_si512(_mm512_loadu_ps(r1 + j));

			bad |= not_bf16(u0) | not_bf16(u1);
			_mm512_storeu_si512(
				o + 2 * j,
				_mm512_or_si512(_mm512_srli_epi32(u0, 16),
						_mm512_and_si512(u1, hi)));
		}
	}
	return !bad;
}

static AMX void amx_configure(void)
{
	struct tile_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.palette = 1;
	for (unsigned t = 0; t < 8; t++) {
		cfg.colsb[t] = 64;
		cfg.rows[t] = HALF;
	}
	_tile_loadconfig(&cfg);
}

/* C[32 x 32] at c (row stride n floats) += A's 32 rows (stride k) x B's
 * 32 columns (interleaved, stride 2n bfloat16), over all of k. */
static AMX void amx_block(size_t n, size_t k, const uint16_t *a,
			  const uint16_t *bv, float *c)
{
	size_t sc = n * sizeof(float), sa = k * sizeof(uint16_t),
	       sb = 2 * n * sizeof(uint16_t);

	_tile_loadd(0, c, sc);
	_tile_loadd(1, c + HALF, sc);
	_tile_loadd(2, c + HALF * n, sc);
	_tile_loadd(3, c + HALF * n + HALF, sc);
	for (size_t p = 0; p < k; p += BLK) {
		const uint16_t *b = bv + p * n;

		_tile_loadd(4, a + p, sa);
		_tile_loadd(5, a + HALF * k + p, sa);
		_tile_loadd(6, b, sb);
		_tile_loadd(7, b + 2 * HALF, sb);
		_tile_dpbf16ps(0, 4, 6);
		_tile_dpbf16ps(1, 4, 7);
		_tile_dpbf16ps(2, 5, 6);
		_tile_dpbf16ps(3, 5, 7);
	}
	_tile_stored(0, c, sc);
	_tile_stored(1, c + HALF, sc);
	_tile_stored(2, c + HALF * n, sc);
	_tile_stored(3, c + HALF * n + HALF, sc);
}

static AMX void amx_gemm(size_t m, size_t n, size_t k, const uint16_t *a,
			 const uint16_t *bv, float *c)
{
	amx_configure();
	for (size_t i = 0; i < m; i += BLK)
		for (size_t j = 0; j < n; j += BLK)
			amx_block(n, k, a + i * k, bv + 2 * j, c + i * n + j);
	/* Back to the init state: a context switch then saves no tiles. */
	_tile_release();
}

/* 1: AMX usable, 0: not, -1: not decided yet. The permission to use the
 * tile data is the process's, asked for once. */
static int amx_state = -1;

static bool amx_usable(void)
{
	int v = __atomic_load_n(&amx_state, __ATOMIC_RELAXED);

	if (v < 0) {
		__builtin_cpu_init();
		v = __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("amx-tile") &&
		    __builtin_cpu_supports("amx-bf16") &&
		    syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM,
			    XFEATURE_XTILEDATA) == 0;
		__atomic_store_n(&amx_state, v, __ATOMIC_RELAXED);
	}
	return v;
}
#else
static bool amx_usable(void)
{
	return false;
}
#endif

int sim_gemm_bf16(size_t m, size_t n, size_t k, const float *a,
		  const float *b, float *c)
{
	uint16_t *ab, *bb;

	if (!amx_usable() || m % BLK || n % BLK || k % BLK)
		return -ENOTSUP;
	if (!m || !n || !k)
		return 0;
	ab = sim_scratch(SIM_SCRATCH_BF16_A, m * k * sizeof(uint16_t));
	bb = sim_scratch(SIM_SCRATCH_BF16_B, k * n * sizeof(uint16_t));
	if (!ab || !bb)
		return -ENOMEM;
#ifdef HAVE_AMX
	if (!convert_a(m, k, a, ab) || !convert_b(k, n, b, bb))
		return -ERANGE;
	amx_gemm(m, n, k, ab, bb, c);
	return 0;
#else
	(void)a;
	(void)b;
	(void)c;
	return -ENOTSUP;
#endif
}

const char *sim_gemm_bf16_impl(void)
{
	return amx_usable() ? "amx" : "none";
}
