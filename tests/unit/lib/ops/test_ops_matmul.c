// SPDX-License-Identifier: Apache-2.0
/*
 * The op library's matmul and linear (tt/ops/matmul.h) on the embedded
 * model, against a reference in the test (double sums of the inputs as
 * the device holds them, read back after conversion to their format):
 *
 *  - a shape sweep with sizes 1, 31, 32, 33, 65, 97, ranks 1 to 4, batch
 *    broadcasting of a, of b and of both, and inputs whose tile padding
 *    holds garbage (1e6, infinite in Float16) that must not reach the
 *    result;
 *  - transpose_a, transpose_b and both, with batches;
 *  - linear with a bias ([N] and [1, N]) and fused activations, among
 *    them the ones that need scratch DST tiles;
 *  - every format as in0, in1 and output (PCC >= 0.999 Float32 at HiFi4,
 *    0.99 Float16_b and Float16, 0.98 Bfp8_b, 0.9 Bfp4_b), padding masks
 *    that split a Bfp4_b byte, a narrow block-float output, and every
 *    fidelity (HiFi4 closer to the reference than LoFi);
 *  - each program variant (reuse, 1-D multicast of in0 and of in1, 2-D
 *    multicast) with explicit blocking, an L1 output, a given output;
 *  - the program cache: a second call builds nothing, runs on its own
 *    buffers;
 *  - the profiler's record of a call (shapes, variant, blocking, hit);
 *  - a refused call for every class of bad input or config.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/kbuild/kbuild.h"
#include "ops_testutil.h"
#include "testutil.h"
#include "tmpdir.h"
#include "tt/ops.h"

/* A host operand: its shape, [w, z, r, c] and values (as the device
 * holds them). */
struct operand {
	struct tt_shape shape;
	uint64_t d[4];
	float *v;
};

static uint64_t pad32(uint64_t n)
{
	return (n + 31) / 32 * 32;
}

/*
 * A device tensor of shape s and format fmt with values in [-1, 1); with
 * `garbage` 1, the padding of its last tiles holds 1e6 (the tensor is a
 * view of a padded one), which a matmul must not let into its result; 2,
 * values like the data's (block formats keep both).
 */
static tt_device_tensor *make(struct fx *f, struct tt_shape s,
			      enum tt_data_format fmt, enum tt_buffer_type where,
			      int garbage, uint32_t seed, struct operand *op)
{
	struct tt_shape ps = s;
	tt_device_tensor *full = NULL, *dt = NULL;
	tt_tensor *t = NULL;
	uint64_t pd[4], rows, cols;
	float *p;

	op->shape = s;
	TRY(tt_shape_wzrc(&s, op->d));
	ps.dims[s.rank - 1] = pad32(s.dims[s.rank - 1]);
	if (s.rank > 1)
		ps.dims[s.rank - 2] = pad32(s.dims[s.rank - 2]);
	TRY(tt_shape_wzrc(&ps, pd));
	rows = pd[2];
	cols = pd[3];
	TRY(tt_tensor_create(&ps, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	p = tt_tensor_data(t);
	for (uint64_t i = 0; i < tt_tensor_volume(t); i++) {
		uint64_t c = i % cols, r = i / cols % rows;
		bool pad = c >= op->d[3] || r >= op->d[2];
		float v = (float)seed_next(&seed) / 8388608.0f - 1.0f;

		/* garbage 1: 1e6 in the padding; 2: values like the data's */
		p[i] = !pad ? v : garbage == 1 ? 1e6f : garbage == 2 ? v : 0.0f;
	}
	TRY(tt_device_tensor_create(f->dev, &ps, fmt, where, &full));
	TRY(tt_device_tensor_write(full, NULL, t));
	TRY(tt_device_tensor_read(full, NULL, t));
	op->v = malloc(sizeof(float) * op->d[0] * op->d[1] * op->d[2] * op->d[3]);
	assert_non_null(op->v);
	for (uint64_t m = 0, j = 0; m < pd[0] * pd[1]; m++)
		for (uint64_t r = 0; r < op->d[2]; r++)
			for (uint64_t c = 0; c < op->d[3]; c++)
				op->v[j++] = p[(m * rows + r) * cols + c];
	tt_tensor_free(t);
	TRY(tt_device_tensor_view(full, 0, &s, &dt));
	tt_device_tensor_free(full);
	return dt;
}

static double pcc(const float *x, const double *y, size_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	for (size_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double a = x[i] - mx, b = y[i] - my;

		sxy += a * b;
		sxx += a * a;
		syy += b * b;
	}
	if (sxx == 0 || syy == 0) {
		for (size_t i = 0; i < n; i++)
			if (fabs(x[i] - y[i]) > 1e-2 * (1 + fabs(y[i])))
				return 0;
		return 1;
	}
	return sxy / sqrt(sxx * syy);
}

static double act_ref(const struct tt_unary_fn *a, double x)
{
	switch (a->op) {
	case TT_UNARY_NONE: return x;
	case TT_UNARY_RELU: return x > 0 ? x : 0;
	case TT_UNARY_GELU: return 0.5 * x * (1 + erf(x / sqrt(2)));
	case TT_UNARY_GELU_TANH:
		return 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
	case TT_UNARY_SILU: return x / (1 + exp(-x));
	case TT_UNARY_SIGMOID: return 1 / (1 + exp(-x));
	case TT_UNARY_TANH: return tanh(x);
	case TT_UNARY_MISH: return x * tanh(x > 20 ? x : log1p(exp(x)));
	case TT_UNARY_ELU: return x < 0 ? a->p0 * expm1(x) : x;
	case TT_UNARY_CLIP: return fmin(fmax(x, a->p0), a->p1);
	default: fail_msg("no reference for activation %d", (int)a->op);
	}
	return 0;
}

/*
 * The reference of act(op(a) x op(b) + bias) with NumPy's matmul rules
 * (tt/ops/matmul.h), into *out (malloc'd); *n its elements.
 */
static double *reference(const struct operand *a, const struct operand *b,
			 const struct operand *bias, bool ta, bool tb,
			 const struct tt_unary_fn *act, size_t *n)
{
	bool tav = ta && a->shape.rank > 1, tbv = b->shape.rank == 1 || tb;
	uint64_t m = tav ? a->d[3] : a->d[2], k = tav ? a->d[2] : a->d[3];
	uint64_t nn = tbv ? b->d[2] : b->d[3];
	uint64_t ow = a->d[0] > b->d[0] ? a->d[0] : b->d[0];
	uint64_t oz = a->d[1] > b->d[1] ? a->d[1] : b->d[1];
	double *o;

	*n = ow * oz * m * nn;
	o = malloc(sizeof(double) * *n);
	assert_non_null(o);
	for (uint64_t w = 0; w < ow; w++) {
		for (uint64_t z = 0; z < oz; z++) {
			uint64_t am = ((a->d[0] > 1 ? w : 0) * a->d[1] +
				       (a->d[1] > 1 ? z : 0)) * a->d[2] * a->d[3];
			uint64_t bm = ((b->d[0] > 1 ? w : 0) * b->d[1] +
				       (b->d[1] > 1 ? z : 0)) * b->d[2] * b->d[3];

			for (uint64_t i = 0; i < m; i++) {
				for (uint64_t j = 0; j < nn; j++) {
					double s = bias ? bias->v[j] : 0;

					for (uint64_t q = 0; q < k; q++) {
						double x = a->v[am + (tav ? q * m + i : i * k + q)];
						double y = b->v[bm + (tbv ? j * k + q : q * nn + j)];

						s += x * y;
					}
					o[((w * oz + z) * m + i) * nn + j] = act_ref(act, s);
				}
			}
		}
	}
	return o;
}

static double min_pcc(enum tt_data_format f)
{
	switch (f) {
	case TT_FLOAT32: return 0.999;
	case TT_BFP8_B: return 0.98;
	case TT_BFP4_B: return 0.9;
	default: return 0.99;
	}
}

/* One case of the sweep. */
struct mm_case {
	struct tt_shape a, b, bias; /* bias.rank 0: none */
	enum tt_data_format fa, fb;
	int garbage; /* as make's */
};

static double run_case(struct fx *f, const struct mm_case *mc,
		       const struct tt_matmul_cfg *cfg, double want)
{
	struct operand a, b, z;
	tt_device_tensor *da, *db, *dz = NULL, *out = NULL;
	struct tt_matmul_cfg c = cfg ? *cfg : tt_op_matmul_config();
	enum tt_data_format fa = mc->fa ? mc->fa : TT_FLOAT16_B;
	enum tt_data_format fb = mc->fb ? mc->fb : fa;
	double *ref, got_pcc;
	float *got;
	size_t n, m;
	char what[256];

	da = make(f, mc->a, fa, TT_BUFFER_DRAM, mc->garbage, 11, &a);
	db = make(f, mc->b, fb, TT_BUFFER_DRAM, mc->garbage, 22, &b);
	if (mc->bias.rank)
		dz = make(f, mc->bias, fb, TT_BUFFER_DRAM, mc->garbage, 33, &z);
	if (dz || cfg)
		TRY(tt_op_linear(f->ctx, da, db, dz, &c, &out));
	else
		TRY(tt_op_matmul(f->ctx, da, db, NULL, &out));
	got = dev_values(f, out, &m);
	ref = reference(&a, &b, dz ? &z : NULL, c.transpose_a, c.transpose_b,
			&c.activation, &n);
	assert_int_equal(m, n);
	got_pcc = pcc(got, ref, n);
	snprintf(what, sizeof(what),
		 "a [%llu,%llu,%llu,%llu] %s b [%llu,%llu,%llu,%llu] %s ta %d tb %d bias %d act %d",
		 (unsigned long long)a.d[0], (unsigned long long)a.d[1],
		 (unsigned long long)a.d[2], (unsigned long long)a.d[3],
		 tt_data_format_name(fa), (unsigned long long)b.d[0],
		 (unsigned long long)b.d[1], (unsigned long long)b.d[2],
		 (unsigned long long)b.d[3], tt_data_format_name(fb),
		 c.transpose_a, c.transpose_b, dz != NULL, (int)c.activation.op);
	if (!(got_pcc >= want))
		fail_msg("%s: PCC %.6f < %.3f (got[0] %g ref[0] %g)", what, got_pcc,
			 want, (double)got[0], ref[0]);
	free(got);
	free(ref);
	free(a.v);
	free(b.v);
	if (dz)
		free(z.v);
	tt_device_tensor_free(da);
	tt_device_tensor_free(db);
	tt_device_tensor_free(dz);
	tt_device_tensor_free(out);
	return got_pcc;
}

#define NOBIAS { 0, { 0 } }

/* Odd sizes, ranks 1-4, batch broadcasting, garbage in the padding. */
static void test_shapes(void **state)
{
	struct fx *f = *state;
	const struct mm_case cases[] = {
		{ TT_SHAPE(1, 1), TT_SHAPE(1, 1), NOBIAS, 0, 0, true },
		{ TT_SHAPE(31, 33), TT_SHAPE(33, 65), NOBIAS, 0, 0, true },
		{ TT_SHAPE(33, 31), TT_SHAPE(31, 1), NOBIAS, 0, 0, true },
		{ TT_SHAPE(65, 97), TT_SHAPE(97, 33), NOBIAS, 0, 0, true },
		{ TT_SHAPE(64, 64), TT_SHAPE(64, 64), NOBIAS, 0, 0, false },
		{ TT_SHAPE(1, 70), TT_SHAPE(70, 31), NOBIAS, 0, 0, true },
		/* rank 1 */
		{ TT_SHAPE(45), TT_SHAPE(45, 40), NOBIAS, 0, 0, true },
		{ TT_SHAPE(40, 45), TT_SHAPE(45), NOBIAS, 0, 0, true },
		{ TT_SHAPE(45), TT_SHAPE(45), NOBIAS, 0, 0, true },
		/* batches: a's, b's, both, broadcast both ways */
		{ TT_SHAPE(3, 33, 40), TT_SHAPE(40, 50), NOBIAS, 0, 0, true },
		{ TT_SHAPE(33, 40), TT_SHAPE(2, 40, 50), NOBIAS, 0, 0, true },
		{ TT_SHAPE(2, 3, 20, 70), TT_SHAPE(2, 3, 70, 36), NOBIAS, 0, 0, true },
		{ TT_SHAPE(2, 1, 20, 33), TT_SHAPE(1, 3, 33, 36), NOBIAS, 0, 0, true },
		{ TT_SHAPE(2, 3, 40, 33), TT_SHAPE(33, 65), NOBIAS, 0, 0, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(f, &cases[i], NULL, 0.99);
}

static void test_transposes(void **state)
{
	struct fx *f = *state;
	struct tt_matmul_cfg c = tt_op_matmul_config();
	const struct mm_case ta = { TT_SHAPE(2, 70, 33), TT_SHAPE(70, 45), NOBIAS, 0, 0, true };
	const struct mm_case tb = { TT_SHAPE(33, 70), TT_SHAPE(2, 45, 70), NOBIAS, 0, 0, true };
	const struct mm_case both = { TT_SHAPE(3, 40, 65), TT_SHAPE(3, 31, 40), NOBIAS, 0, 0, true };
	const struct mm_case big = { TT_SHAPE(200, 96), TT_SHAPE(130, 200), NOBIAS, 0, 0, true };

	c.transpose_a = true;
	run_case(f, &ta, &c, 0.99);
	c.transpose_a = false;
	c.transpose_b = true;
	run_case(f, &tb, &c, 0.99);
	c.transpose_a = true;
	run_case(f, &both, &c, 0.99);
	run_case(f, &big, &c, 0.99);
}

/* linear: bias [N] and [1, N], activations (mish needs two scratch DST
 * tiles, elu one). */
static void test_linear(void **state)
{
	struct fx *f = *state;
	struct tt_matmul_cfg c = tt_op_matmul_config();
	const struct mm_case z1 = { TT_SHAPE(2, 40, 70), TT_SHAPE(70, 33), TT_SHAPE(33), 0, 0, true };
	const struct mm_case z2 = { TT_SHAPE(65, 64), TT_SHAPE(64, 100), TT_SHAPE(1, 100), 0, 0, true };
	const struct mm_case nob = { TT_SHAPE(65, 64), TT_SHAPE(64, 100), NOBIAS, 0, 0, true };
	const struct mm_case zk = { TT_SHAPE(3, 50, 1), TT_SHAPE(1, 70), TT_SHAPE(70), 0, 0, true };
	const struct tt_unary_fn acts[] = {
		{ TT_UNARY_RELU, 0, 0 }, { TT_UNARY_GELU, 0, 0 },
		{ TT_UNARY_GELU_TANH, 0, 0 }, { TT_UNARY_SILU, 0, 0 },
		{ TT_UNARY_MISH, 0, 0 }, { TT_UNARY_ELU, 0.5f, 0 },
		{ TT_UNARY_CLIP, -0.5f, 0.25f },
	};

	run_case(f, &z1, &c, 0.99);
	run_case(f, &z2, &c, 0.99);
	run_case(f, &zk, &c, 0.99); /* K = 1: the bias is half the result */
	run_case(f, &nob, &c, 0.99);
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		c.activation = acts[i];
		run_case(f, i % 2 ? &z1 : &z2, &c, 0.99);
	}
	/* bias, activation and both transposes at once */
	c.transpose_a = c.transpose_b = true;
	{
		const struct mm_case t = { TT_SHAPE(70, 40), TT_SHAPE(33, 70), TT_SHAPE(33), 0, 0, true };

		run_case(f, &t, &c, 0.99);
	}
}

/* Each format as in0, in1 and output. */
static void test_formats(void **state)
{
	struct fx *f = *state;
	const enum tt_data_format fmts[] = { TT_FLOAT32, TT_FLOAT16,
					     TT_FLOAT16_B, TT_BFP8_B, TT_BFP4_B };
	struct tt_matmul_cfg c = tt_op_matmul_config();

	for (size_t i = 0; i < 5; i++) {
		/* odd K and N: Bfp4_b's padding masks split bytes */
		struct mm_case mc = { TT_SHAPE(2, 45, 99), TT_SHAPE(99, 69), TT_SHAPE(69),
				      fmts[i], fmts[i], true };

		c.out_format = fmts[i];
		run_case(f, &mc, &c, min_pcc(fmts[i]));
	}
	/* A narrow block-float output: 1e6 left in the padding columns of b
	 * or of the bias would give output padding that shares the exponent
	 * of every valid output. */
	{
		struct mm_case mc = { TT_SHAPE(40, 33), TT_SHAPE(33, 5), TT_SHAPE(5),
				      TT_FLOAT16_B, TT_FLOAT16_B, 1 };

		c.out_format = TT_BFP8_B;
		run_case(f, &mc, &c, 0.98);
	}
	/* Bfp4_b operands whose padding holds values like the data's (1e6
	 * would flush their valid neighbours to 0): with K = 1 the mask of
	 * each row of a and of (transposed) b splits the byte holding the
	 * only valid value and the first padding one. */
	{
		struct mm_case mc = { TT_SHAPE(40, 1), TT_SHAPE(40, 1), NOBIAS,
				      TT_BFP4_B, TT_BFP4_B, 2 };

		c.out_format = TT_FLOAT16_B;
		c.transpose_b = true;
		run_case(f, &mc, &c, 0.9);
		c.transpose_b = false;
	}
	/* mixed: bf16 x bfp8 into Float32; Float32 x bf16 into Bfp8_b */
	{
		struct mm_case mc = { TT_SHAPE(45, 100), TT_SHAPE(100, 70), NOBIAS,
				      TT_FLOAT16_B, TT_BFP8_B, true };

		c.out_format = TT_FLOAT32;
		run_case(f, &mc, &c, 0.98);
		mc.fa = TT_FLOAT32;
		mc.fb = TT_FLOAT16_B;
		c.out_format = TT_BFP8_B;
		run_case(f, &mc, &c, 0.98);
	}
	/* transpose_a stages in0 in the intermediate format */
	{
		struct mm_case mc = { TT_SHAPE(100, 45), TT_SHAPE(100, 70), NOBIAS,
				      TT_BFP8_B, TT_BFP8_B, true };

		c = tt_op_matmul_config();
		c.transpose_a = true;
		run_case(f, &mc, &c, 0.98);
		c.interm_format = TT_FLOAT32;
		run_case(f, &mc, &c, 0.98);
	}
}

/* Every fidelity on Float32: HiFi4 meets 0.999, each is at least 0.98,
 * and HiFi4 is closer to the reference than LoFi. */
static void test_fidelity(void **state)
{
	struct fx *f = *state;
	const enum tt_math_fidelity fids[] = { TT_LOFI, TT_HIFI2, TT_HIFI3, TT_HIFI4 };
	struct tt_matmul_cfg c = tt_op_matmul_config();
	const struct mm_case mc = { TT_SHAPE(64, 96), TT_SHAPE(96, 64), NOBIAS,
				    TT_FLOAT32, TT_FLOAT32, false };
	double p[4];

	for (int i = 0; i < 4; i++) {
		c.math_fidelity = fids[i];
		p[i] = run_case(f, &mc, &c, fids[i] == TT_HIFI4 ? 0.999 : 0.98);
	}
	assert_true(p[3] > p[0]);
	assert_true(p[3] >= p[1]);
}

/* Each variant explicitly, with explicit blocking; an L1 output and a
 * given output. */
static void test_variants(void **state)
{
	struct fx *f = *state;
	struct tt_matmul_cfg c = tt_op_matmul_config();
	const struct mm_case mc = { TT_SHAPE(2, 200, 150), TT_SHAPE(150, 230), TT_SHAPE(230), 0, 0, true };
	const struct mm_case mt = { TT_SHAPE(130, 200), TT_SHAPE(2, 100, 130), TT_SHAPE(100), 0, 0, true };

	c.variant = TT_MATMUL_REUSE;
	run_case(f, &mc, &c, 0.99);
	c.per_core_m = 2;
	c.per_core_n = 3;
	c.out_subblock_h = 2;
	c.out_subblock_w = 1;
	c.in0_block_w = 1;
	run_case(f, &mc, &c, 0.99);

	c = tt_op_matmul_config();
	c.variant = TT_MATMUL_MCAST_2D;
	run_case(f, &mc, &c, 0.99);
	c.per_core_m = 4;
	c.per_core_n = 2;
	c.out_subblock_h = 2;
	c.out_subblock_w = 2;
	c.in0_block_w = 5;
	c.out_mem = TT_OPS_MEM_L1;
	run_case(f, &mc, &c, 0.99);
	c.transpose_a = c.transpose_b = true;
	c.in0_block_w = 0;
	run_case(f, &mt, &c, 0.99);

	c = tt_op_matmul_config();
	c.variant = TT_MATMUL_MCAST_1D;
	run_case(f, &mc, &c, 0.99); /* in0 multicast along a row */
	c.mcast_in0 = TT_OPS_OFF;
	run_case(f, &mc, &c, 0.99); /* in1 down a column */
	c.per_core_m = 3;
	c.out_subblock_h = 3;
	c.out_subblock_w = 2;
	c.in0_block_w = 1;
	run_case(f, &mc, &c, 0.99);
	c.grid = (struct tt_xy){ 1, 1 };
	c.per_core_m = 0;
	c.out_subblock_h = c.out_subblock_w = 0;
	run_case(f, &mc, &c, 0.99); /* one core */
}

/* A given output is written in place; its format and placement rule. */
static void test_given_output(void **state)
{
	struct fx *f = *state;
	struct operand a, b;
	tt_device_tensor *da, *db, *out = NULL, *given;
	struct tt_shape os = TT_SHAPE(33, 40);
	float *got;
	size_t n;
	double *ref;
	const struct tt_unary_fn none = { TT_UNARY_NONE, 0, 0 };

	da = make(f, TT_SHAPE(33, 50), TT_FLOAT16_B, TT_BUFFER_DRAM, true, 1, &a);
	db = make(f, TT_SHAPE(50, 40), TT_FLOAT16_B, TT_BUFFER_L1, true, 2, &b);
	TRY(tt_device_tensor_create(f->dev, &os, TT_FLOAT32, TT_BUFFER_L1, &given));
	out = given;
	TRY(tt_op_matmul(f->ctx, da, db, NULL, &out));
	assert_ptr_equal(out, given);
	got = dev_values(f, out, &n);
	ref = reference(&a, &b, NULL, false, false, &none, &n);
	assert_true(pcc(got, ref, n) >= 0.99);
	free(got);
	free(ref);
	free(a.v);
	free(b.v);
	tt_device_tensor_free(da);
	tt_device_tensor_free(db);
	tt_device_tensor_free(given);
}

static unsigned long kbuild_calls(void)
{
	struct tt_kbuild_stats s;

	tt_kbuild_get_stats(&s);
	return s.mem_hits + s.disk_hits + s.builds;
}

/* A second call with the same key builds nothing and computes on its own
 * buffers; another shape is a miss. */
static void test_program_cache(void **state)
{
	struct fx *f = *state;
	struct tt_ops_cache_stats s0, s1;
	struct operand a1, b1, a2, b2, z1, z2;
	tt_device_tensor *da1, *db1, *da2, *db2, *dz1, *dz2;
	tt_device_tensor *o1 = NULL, *o2 = NULL, *o3 = NULL;
	const struct tt_unary_fn none = { TT_UNARY_NONE, 0, 0 };
	double *ref;
	float *got;
	unsigned long k0;
	size_t n;

	TRY(tt_ops_cache_clear(f->ctx));
	da1 = make(f, TT_SHAPE(2, 70, 90), TT_FLOAT16_B, TT_BUFFER_DRAM, true, 1, &a1);
	db1 = make(f, TT_SHAPE(90, 100), TT_FLOAT16_B, TT_BUFFER_DRAM, true, 2, &b1);
	dz1 = make(f, TT_SHAPE(100), TT_FLOAT16_B, TT_BUFFER_DRAM, true, 3, &z1);
	da2 = make(f, TT_SHAPE(2, 70, 90), TT_FLOAT16_B, TT_BUFFER_DRAM, true, 4, &a2);
	db2 = make(f, TT_SHAPE(90, 100), TT_FLOAT16_B, TT_BUFFER_DRAM, true, 5, &b2);
	dz2 = make(f, TT_SHAPE(100), TT_FLOAT16_B, TT_BUFFER_DRAM, true, 6, &z2);
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	TRY(tt_op_linear(f->ctx, da1, db1, dz1, NULL, &o1));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s1.hits, s0.hits);
	assert_int_equal(s1.programs, 1);
	TRY(tt_ops_finish(f->ctx));

	k0 = kbuild_calls();
	TRY(tt_op_linear(f->ctx, da2, db2, dz2, NULL, &o2));
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	assert_int_equal(s0.hits, s1.hits + 1);
	assert_int_equal(s0.misses, s1.misses);
	assert_int_equal(s0.programs, 1);
	TRY(tt_ops_finish(f->ctx));
	assert_int_equal(kbuild_calls(), k0);

	got = dev_values(f, o1, &n);
	ref = reference(&a1, &b1, &z1, false, false, &none, &n);
	assert_true(pcc(got, ref, n) >= 0.99);
	free(got);
	free(ref);
	got = dev_values(f, o2, &n);
	ref = reference(&a2, &b2, &z2, false, false, &none, &n);
	assert_true(pcc(got, ref, n) >= 0.99);
	free(got);
	free(ref);

	/* Without the bias: another program. */
	TRY(tt_op_linear(f->ctx, da1, db2, NULL, NULL, &o3));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s1.programs, 2);
	TRY(tt_ops_finish(f->ctx));

	free(a1.v); free(b1.v); free(z1.v); free(a2.v); free(b2.v); free(z2.v);
	tt_device_tensor_free(da1);
	tt_device_tensor_free(db1);
	tt_device_tensor_free(dz1);
	tt_device_tensor_free(da2);
	tt_device_tensor_free(db2);
	tt_device_tensor_free(dz2);
	tt_device_tensor_free(o1);
	tt_device_tensor_free(o2);
	tt_device_tensor_free(o3);
}

/* A profiled call: its record names the op, the shapes and the config
 * (variant, blocking), and says whether the cache hit. */
static void test_profile(void **state)
{
	struct fx *f = *state;
	char dir[256], prefix[300], path[320], *csv;
	struct operand x;
	tt_device_tensor *a, *b, *o = NULL;
	struct tt_matmul_cfg c = tt_op_matmul_config();
	FILE *fp;
	long len;

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ops-mm-prof"));
	snprintf(prefix, sizeof(prefix), "%s/prof", dir);
	a = make(f, TT_SHAPE(2, 64, 70), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 1, &x);
	free(x.v);
	b = make(f, TT_SHAPE(70, 96), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 2, &x);
	free(x.v);
	c.variant = TT_MATMUL_MCAST_2D;
	c.per_core_m = 1;
	c.per_core_n = 3;
	TRY(tt_ops_profile_start(f->ctx, prefix));
	TRY(tt_op_matmul(f->ctx, a, b, &c, &o));
	TRY(tt_op_matmul(f->ctx, a, b, &c, &o));
	TRY(tt_ops_profile_stop(f->ctx));
	snprintf(path, sizeof(path), "%s.csv", prefix);
	fp = fopen(path, "r");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	csv = calloc(1, (size_t)len + 1);
	assert_non_null(csv);
	assert_int_equal(fread(csv, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	if (!strstr(csv, "\"tt_op_matmul\",\"a [2,64,70] Float16_b; b [70,96] Float16_b -> [2,64,96] Float16_b\",\"mcast_2d grid") ||
	    !strstr(csv, "cores 2 block 1x3 sub-block 1x3") ||
	    !strstr(csv, "act identity\",0,2,12,") ||
	    !strstr(csv, "act identity\",1,2,12,"))
		fail_msg("profile CSV lacks the call: %s", csv);
	free(csv);
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
	tt_device_tensor_free(o);
}

static void test_errors(void **state)
{
	struct fx *f = *state;
	struct operand x;
	tt_device_tensor *a, *b, *b2, *bt, *z, *zb, *ai, *klong, *o = NULL, *wrong;
	struct tt_matmul_cfg c;
	struct tt_shape ws = TT_SHAPE(64, 64);

	a = make(f, TT_SHAPE(2, 64, 96), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 1, &x);
	free(x.v);
	b = make(f, TT_SHAPE(96, 64), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 2, &x);
	free(x.v);
	b2 = make(f, TT_SHAPE(80, 64), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 3, &x);
	free(x.v);
	bt = make(f, TT_SHAPE(3, 96, 64), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 4, &x);
	free(x.v);
	z = make(f, TT_SHAPE(3, 64), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 5, &x);
	free(x.v);
	zb = make(f, TT_SHAPE(65), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 6, &x);
	free(x.v);
	klong = make(f, TT_SHAPE(32, 8160), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 7, &x);
	free(x.v);
	TRY(tt_device_tensor_create(f->dev, &ws, TT_INT32, TT_BUFFER_DRAM, &ai));

	/* arguments */
	expect_error(tt_op_matmul(NULL, a, b, NULL, &o), -EINVAL, "tt_op_matmul: ctx is NULL");
	expect_error(tt_op_matmul(f->ctx, NULL, b, NULL, &o), -EINVAL, "a is NULL");
	expect_error(tt_op_linear(f->ctx, a, NULL, NULL, NULL, &o), -EINVAL, "tt_op_linear: w is NULL");
	expect_error(tt_op_matmul(f->ctx, a, b, NULL, NULL), -EINVAL, "out is NULL");
	expect_error(tt_op_matmul(f->ctx, ai, b, NULL, &o), -ENOTSUP, "a is Int32");
	/* shapes */
	expect_error(tt_op_matmul(f->ctx, a, b2, NULL, &o), -EINVAL,
		     "K does not match: a [2,64,96] has K 96, b [80,64] has K 80");
	expect_error(tt_op_matmul(f->ctx, a, bt, NULL, &o), -EINVAL,
		     "batch dimensions do not broadcast");
	expect_error(tt_op_linear(f->ctx, a, b, z, NULL, &o), -EINVAL,
		     "bias [3,64] is not a row of N = 64");
	expect_error(tt_op_linear(f->ctx, a, b, zb, NULL, &o), -EINVAL,
		     "bias [65] is not a row of N = 64");
	/* config */
	c = tt_op_matmul_config();
	c.grid = (struct tt_xy){ 100, 1 };
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -EINVAL,
		     "cfg.grid 100x1 does not fit the device's");
	c = tt_op_matmul_config();
	c.per_core_m = 2;
	c.per_core_n = 2;
	c.out_subblock_h = 3;
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -EINVAL,
		     "cfg.out_subblock_h x w 3 x 1 does not divide the block per_core_m x per_core_n 2 x 2");
	c = tt_op_matmul_config();
	c.in0_block_w = 2;
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -EINVAL,
		     "cfg.in0_block_w 2 does not divide K's 3 tiles");
	{
		tt_device_tensor *a8;
		struct tt_matmul_cfg d = tt_op_matmul_config();

		a8 = make(f, TT_SHAPE(128, 96), TT_FLOAT16_B, TT_BUFFER_DRAM, false, 8, &x);
		free(x.v);
		d.per_core_m = 4;
		d.per_core_n = 2;
		d.out_subblock_h = 4;
		d.out_subblock_w = 2;
		d.fp32_acc = TT_OPS_ON;
		d.activation = (struct tt_unary_fn){ TT_UNARY_MISH, 0, 0 };
		expect_error(tt_op_matmul(f->ctx, a8, b, &d, &o), -EINVAL,
			     "cfg.out_subblock_h x w 4 x 2 needs 10 DST tiles (2 more for the activation); DST holds 8 with fp32 accumulation");
		d.activation.op = TT_UNARY_NONE;
		d.variant = TT_MATMUL_MCAST_2D;
		d.out_subblock_h = d.out_subblock_w = 0;
		d.per_core_m = 1;
		d.per_core_n = 1;
		d.grid = (struct tt_xy){ 2, 2 };
		expect_error(tt_op_matmul(f->ctx, a8, b, &d, &o), -EINVAL,
			     "cfg.variant mcast_2d: 4 x 2 blocks of 1 x 1 tiles (per_core_m x per_core_n) need a 2x4 grid; cfg.grid is 2x2");
		d = tt_op_matmul_config();
		d.variant = TT_MATMUL_MCAST_1D;
		d.per_core_m = 2;
		expect_error(tt_op_matmul(f->ctx, a8, b, &d, &o), -EINVAL,
			     "cfg.variant mcast_1d with in0 multicast: cfg.per_core_m 2 must cover all 4 tiles of M");
		tt_device_tensor_free(a8);
	}
	c = tt_op_matmul_config();
	c.in0_block_w = 255;
	c.out_subblock_h = 1;
	c.out_subblock_w = 2;
	{
		tt_device_tensor *bl;

		bl = make(f, TT_SHAPE(8160, 64), TT_FLOAT32, TT_BUFFER_DRAM, false, 9, &x);
		free(x.v);
		expect_error(tt_op_matmul(f->ctx, klong, bl, &c, &o), -ENOMEM,
			     "tt_op_matmul: circular buffers need");
		assert_non_null(strstr(tt_last_error(), "bytes of L1 per core (sub-block 1x2, in0_block_w 255, double-buffered), a core has"));
		tt_device_tensor_free(bl);
	}
	c = tt_op_matmul_config();
	c.in0_format = TT_BFP8_B;
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -EINVAL,
		     "cfg.in0_format Bfp8_b but a is Float16_b");
	c = tt_op_matmul_config();
	c.out_format = TT_INT32;
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -ENOTSUP,
		     "cfg.out_format Int32 (8): matmul takes");
	c = tt_op_matmul_config();
	c.variant = (enum tt_matmul_variant)9;
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -EINVAL, "cfg.variant 9 is not");
	c = tt_op_matmul_config();
	c.math_fidelity = (enum tt_math_fidelity)7;
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -EINVAL, "cfg.math_fidelity 7 is not");
	c = tt_op_matmul_config();
	c.activation.op = TT_UNARY_OP_COUNT;
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -EINVAL, "cfg.activation");
	c = tt_op_matmul_config();
	c.per_core_m = 5;
	expect_error(tt_op_matmul(f->ctx, a, b, &c, &o), -EINVAL,
		     "cfg.per_core_m 5 x per_core_n 0: the output has 2 x 2 tiles");
	/* a given output of the wrong shape */
	{
		struct tt_shape s = TT_SHAPE(64, 64);

		TRY(tt_device_tensor_create(f->dev, &s, TT_FLOAT16_B, TT_BUFFER_DRAM, &wrong));
		o = wrong;
		expect_error(tt_op_matmul(f->ctx, a, b, NULL, &o), -EINVAL,
			     "out is [64,64]; the result is [2,64,64]");
		tt_device_tensor_free(wrong);
	}
	assert_null(NULL);
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
	tt_device_tensor_free(b2);
	tt_device_tensor_free(bt);
	tt_device_tensor_free(z);
	tt_device_tensor_free(zb);
	tt_device_tensor_free(ai);
	tt_device_tensor_free(klong);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_transposes),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_fidelity),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_given_output),
		cmocka_unit_test(test_program_cache),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_errors),
	};

	/* In the VM guest (TT_TEST_TRANSPORT=kmd, tests/unit/testcases.h):
	 * every case but the profiler's, which parses its files with
	 * Python, which the guest has not. */
	static const char *const kmd[] = {
		"test_shapes", "test_transposes", "test_linear",
		"test_formats", "test_fidelity", "test_variants",
		"test_given_output", "test_program_cache", "test_errors", NULL,
	};

	return RUN_GROUP("ops_matmul", tests, fx_up, fx_down, kmd);
}
