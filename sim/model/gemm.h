/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Single-precision matrix product for the coprocessor's matrix unit
 * (tensix.c): C += A x B on row-major float matrices.
 *
 * Two implementations with the same blocking (panels of A and B packed
 * into per-thread scratch, a register-blocked micro-kernel): portable C,
 * and AVX2+FMA (with AVX-512 for whole 32-column panel pairs) chosen at run
 * time by what the host CPU has. The order of
 * the additions is fixed per shape, so a result does not depend on the
 * thread or the call; the two implementations may differ in the last bits.
 */
#ifndef TT_SIM_GEMM_H
#define TT_SIM_GEMM_H

#include <stddef.h>

/*
 * C[m x n] += A[m x k] x B[k x n]; lda, ldb, ldc are row strides in
 * elements (>= k, n, n). Any m, n, k (0 does nothing). C must not overlap
 * A or B. Returns 0, or -ENOMEM if the packing scratch cannot be had (C
 * is then unchanged).
 */
int sim_gemm(size_t m, size_t n, size_t k, const float *a, size_t lda,
	     const float *b, size_t ldb, float *c, size_t ldc);

/* The same, forcing the portable implementation (tests, benchmarks). */
int sim_gemm_portable(size_t m, size_t n, size_t k, const float *a, size_t lda,
		      const float *b, size_t ldb, float *c, size_t ldc);

/* Name of the implementation sim_gemm uses here: "avx512", "avx2" or
 * "portable". */
const char *sim_gemm_impl(void);

/*
 * C[m x n] += A[m x k] x B[k x n], dense (lda = k, ldb = ldc = n), where
 * every value of A and B is a bfloat16 held in a float (low 16 bits zero,
 * not subnormal): the products are exact and summed in fp32, in an order
 * fixed per shape that differs from sim_gemm's, so the last bits may too.
 * Runs on the host's AMX tile unit (gemm_bf16.c). Returns 0; -ENOTSUP
 * where the host has no AMX or m, n or k is not a multiple of 32; -ERANGE
 * if a value of A or B is not such a bfloat16; -ENOMEM. On an error C is
 * unchanged and sim_gemm gives the product.
 */
int sim_gemm_bf16(size_t m, size_t n, size_t k, const float *a,
		  const float *b, float *c);

/* "amx" where sim_gemm_bf16 runs here, else "none". */
const char *sim_gemm_bf16_impl(void);

#endif /* TT_SIM_GEMM_H */
