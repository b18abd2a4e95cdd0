// SPDX-License-Identifier: Apache-2.0
/*
 * The compiled-model runtime (tt/model.h) on the embedded device: small
 * descriptions written here, their kernels built with
 * tt_model_build_kernels, put in an image with ttc's writer, loaded with
 * tt_model_load and run.
 *
 * - ops: one model per op record kind, checked against a host reference
 *   (PCC >= 0.99 in Float16_b; data movement exactly);
 * - parameters in Float32 and Float16_b sections, updated in place
 *   (the next run sees it); non-parameters and unknown names refused;
 * - activations sharing slots along a chain; tt_model_run_each reading
 *   every op's result of it (each against its host value) and stopping
 *   when the visitor says so;
 * - tt_model_run's argument errors and inputs of another shape;
 * - load refusals naming the fault: no manifest, another arch, a grid
 *   larger than the device's, a kernel section missing, a data section
 *   of the wrong size, a damaged image;
 * - tt_backend_load: queues by name, $p_loop_count entries per run, a run
 *   with no input (TT_MODEL_QUEUE_TIMEOUT_MS keeps it short), two
 *   programs;
 * - last, a host without a compiler and with an empty cache (as
 *   test_kernel_set does it: tt_kbuild_reset, TT_KERNEL_CC=none): an
 *   image without kernels is refused naming a kernel, one with kernels
 *   gives the same bytes as with the compiler.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
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
#include "testutil.h"
#include "ttc/common.h"
#include "ttc/tti.h"
#include "tt/kernel_set.h"
#include "tt/model.h"

#define TRY(e)                                                                 \
	do {                                                                   \
		int r_ = (e);                                                  \
		if (r_)                                                        \
			fail_msg("%s: %d %s", #e, r_, tt_last_error());        \
	} while (0)

static void expect_error(int ret, int code, const char *text)
{
	if (ret != code)
		fail_msg("got %d, want %d (%s)", ret, code, tt_last_error());
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

/* ------------------------------------------------------------------ */
/* Fixture: the device and a directory for the images */

static tt_device *dev;
static char dir[PATH_MAX];
static unsigned nimages;

static int group_up(void **state)
{
	void *d;

	(void)state;
	if (!dir[0] && !test_mkdtemp(dir, sizeof(dir), "tt-model-run"))
		return -1;
	if (booted_up(&d))
		return -1;
	dev = d;
	return 0;
}

static int group_down(void **state)
{
	(void)state;
	tt_device_close(dev);
	dev = NULL;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Images */

struct sec {
	const char *name;
	const void *data;
	size_t size;
};

enum {
	W_NO_KERNELS = 1,  /* neither listed nor stored */
	W_DROP_KERNEL = 2, /* listed, the first one not stored */
	W_NO_MANIFEST = 4,
	W_BAD_MANIFEST = 8, /* a manifest that does not parse */
};

/* Write d (its kernels built on dev), the sections s, to a new image. */
static void write_image(struct tt_model_desc d, const struct sec *s,
			unsigned ns, unsigned flags, char *path)
{
	tt_kernel_set *ks;
	const char **keys;
	ttc_ctx *ctx = ttc_ctx_new();
	ttc_tti_writer *w = ttc_tti_writer_new(ctx);
	char *text, name[TT_MODEL_KERNEL_SECTION_MAX];
	size_t n, len;

	assert_non_null(w);
	TRY(tt_kernel_set_create(&ks));
	TRY(tt_model_build_kernels(dev, &d, ks));
	n = tt_kernel_set_count(ks);
	assert_true(n > 0);
	keys = calloc(n, sizeof(*keys));
	assert_non_null(keys);
	for (size_t i = 0; i < n; i++)
		TRY(tt_kernel_set_at(ks, i, &keys[i], NULL, NULL));
	if (!(flags & W_NO_KERNELS)) {
		d.kernels = keys;
		d.nkernels = (unsigned)n;
	}
	TRY(tt_model_desc_emit(&d, &text, &len));
	if (flags & W_BAD_MANIFEST)
		TRY(ttc_tti_add(w, TT_MODEL_MANIFEST_SECTION, "tti: 1\narch: [",
				15, 8));
	else if (!(flags & W_NO_MANIFEST))
		TRY(ttc_tti_add(w, TT_MODEL_MANIFEST_SECTION, text, len, 8));
	for (unsigned i = 0; i < ns; i++)
		TRY(ttc_tti_add(w, s[i].name, s[i].data, s[i].size, 64));
	for (size_t i = (flags & W_DROP_KERNEL) ? 1 : 0;
	     !(flags & W_NO_KERNELS) && i < n; i++) {
		const void *elf;
		size_t elen;

		TRY(tt_kernel_set_at(ks, i, NULL, &elf, &elen));
		tt_model_kernel_section(keys[i], name);
		TRY(ttc_tti_add(w, name, elf, elen, 64));
	}
	snprintf(path, PATH_MAX, "%s/m%u.tti", dir, nimages++);
	TRY(ttc_tti_write(w, path));
	free(text);
	free(keys);
	tt_kernel_set_free(ks);
	ttc_tti_writer_free(w);
	ttc_ctx_free(ctx);
}

static tt_model *load(struct tt_model_desc d, const struct sec *s, unsigned ns)
{
	char path[PATH_MAX];
	tt_model *m;

	write_image(d, s, ns, 0, path);
	TRY(tt_model_load(dev, path, &m));
	return m;
}

/* ------------------------------------------------------------------ */
/* Values */

/* Seeded values in [-1, 1) that Float16_b holds exactly. */
static void fill(float *v, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t u;

		seed = seed * 1664525u + 1013904223u;
		v[i] = (float)(seed >> 8) / (float)(1u << 23) - 1.0f;
		memcpy(&u, &v[i], 4);
		u &= 0xffff0000u;
		memcpy(&v[i], &u, 4);
	}
}

/* Float16_b data of v (the top half of each float). */
static uint16_t *to_bf16(const float *v, size_t n)
{
	uint16_t *h = malloc(n * 2 + 2);

	assert_non_null(h);
	for (size_t i = 0; i < n; i++) {
		uint32_t u;

		memcpy(&u, &v[i], 4);
		h[i] = (uint16_t)(u >> 16);
	}
	return h;
}

static tt_tensor *host(const struct tt_shape *sh, const float *v)
{
	tt_tensor *t;

	TRY(tt_tensor_create(sh, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	memcpy(tt_tensor_data(t), v, tt_tensor_volume(t) * sizeof(float));
	return t;
}

/* t's values as Float32, row-major, in a new array; frees t. */
static float *values(tt_tensor *t, size_t *n)
{
	tt_tensor *f;
	float *v;

	assert_non_null(t);
	TRY(tt_tensor_to(t, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &f));
	*n = tt_tensor_volume(f);
	v = malloc(*n * sizeof(float) + 4);
	assert_non_null(v);
	memcpy(v, tt_tensor_data(f), *n * sizeof(float));
	tt_tensor_free(f);
	tt_tensor_free(t);
	return v;
}

static double pcc(const float *a, const float *b, size_t n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;

	for (size_t i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= (double)n;
	mb /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	if (saa == 0 && sbb == 0)
		return 1;
	return sab / sqrt(saa * sbb);
}

/* Run m's first program on the inputs (Float32 arrays of the inputs'
 * shapes); its only output's values against want: exact, or PCC. */
static void run_check(tt_model *m, const float *const *in, unsigned nin,
		      const float *want, bool exact)
{
	const struct tt_model_desc *d = tt_model_get_desc(m);
	tt_tensor *x[4], *y = NULL;
	unsigned k = 0;
	float *got;
	size_t n;

	for (unsigned i = 0; i < d->ntensors; i++)
		if (d->tensors[i].kind == TT_MODEL_INPUT) {
			x[k] = host(&d->tensors[i].shape, in[k]);
			k++;
		}
	assert_int_equal(k, nin);
	TRY(tt_model_run(m, NULL, x, nin, &y, 1));
	for (unsigned i = 0; i < nin; i++)
		tt_tensor_free(x[i]);
	got = values(y, &n);
	if (exact) {
		for (size_t i = 0; i < n; i++)
			if (got[i] != want[i])
				fail_msg("element %zu: got %g, want %g", i,
					 (double)got[i], (double)want[i]);
	} else {
		double p = pcc(got, want, n);

		if (!(p >= 0.99))
			fail_msg("PCC %f < 0.99 (got[0] %g, want[0] %g)", p,
				 (double)got[0], (double)want[0]);
	}
	free(got);
}

/* ------------------------------------------------------------------ */
/* One model of one op: inputs (tensors of kind INPUT or PARAM), one
 * output; PARAM data from the float arrays given, as Float16_b. */

#define S2(r, c) ((struct tt_shape){2, {r, c}})
#define BF TT_FLOAT16_B

struct one {
	const char *op;
	const struct tt_model_attr *attrs;
	unsigned nattrs;
	struct tt_model_tensor t[6]; /* inputs in order, then the output */
	unsigned nin;
	const float *param[6]; /* data of PARAM inputs */
};

static struct tt_model_tensor in_t(const char *name, struct tt_shape sh)
{
	return (struct tt_model_tensor){name,  sh, BF,	 TT_MODEL_INPUT,
					false, -1, NULL, TT_INVALID};
}

static struct tt_model_tensor par_t(const char *name, struct tt_shape sh)
{
	return (struct tt_model_tensor){name,  sh, BF,	 TT_MODEL_PARAM,
					false, -1, name, BF};
}

static struct tt_model_tensor out_t(struct tt_shape sh, enum tt_data_format f)
{
	return (struct tt_model_tensor){"y",   sh, f,	 TT_MODEL_OUTPUT,
					false, -1, NULL, TT_INVALID};
}

static struct tt_model_desc desc_of(const struct tt_model_tensor *t,
				    unsigned nt,
				    const struct tt_model_program *p,
				    unsigned np)
{
	return (struct tt_model_desc){
		.version = TT_MODEL_MANIFEST_VERSION,
		.arch = tt_device_get_info(dev)->arch_name,
		.grid = {1, 1},
		.tensors = t,
		.ntensors = nt,
		.programs = p,
		.nprograms = np,
	};
}

static void one_op(const struct one *o, const float *const *in,
		   const float *want, bool exact)
{
	unsigned idx[6], nx = 0;
	struct sec s[6];
	uint16_t *data[6] = {NULL};
	unsigned ns = 0;
	struct tt_model_op op = {"the_op", o->op,    idx,      o->nin,
				 o->nin,   o->attrs, o->nattrs};
	struct tt_model_program p = {"forward", &op, 1};
	tt_model *m;

	for (unsigned i = 0; i < o->nin; i++) {
		idx[i] = i;
		if (o->t[i].kind == TT_MODEL_PARAM) {
			size_t n;

			TRY(tt_shape_volume(&o->t[i].shape, &n));

			data[i] = to_bf16(o->param[i], n);
			s[ns++] = (struct sec){o->t[i].section, data[i], n * 2};
		} else {
			nx++;
		}
	}
	m = load(desc_of(o->t, o->nin + 1, &p, 1), s, ns);
	run_check(m, in, nx, want, exact);
	tt_model_free(m);
	for (unsigned i = 0; i < 6; i++)
		free(data[i]);
}

#define R 32
#define C 64
static float xa[2 * R * C], xb[2 * R * C], xc[R * C], want[2 * R * C];

static void seeds(void)
{
	fill(xa, 2 * R * C, 1);
	fill(xb, 2 * R * C, 2);
	fill(xc, R * C, 3);
}

static void op_unary(void **state)
{
	static const struct tt_model_attr a[] = {{"fn", "leaky_relu"},
						 {"p0", "0.25"}};
	struct one o = {"unary", a,
			2,	 {in_t("x", S2(R, C)), out_t(S2(R, C), BF)},
			1,	 {0}};

	(void)state;
	seeds();
	for (int i = 0; i < R * C; i++)
		want[i] = xa[i] > 0 ? xa[i] : 0.25f * xa[i];
	one_op(&o, (const float *[]){xa}, want, false);
	/* p0 is read: another slope, another result. */
	for (int i = 0; i < R * C; i++)
		want[i] = xa[i] > 0 ? xa[i] : 0.5f * xa[i];
	{
		static const struct tt_model_attr a2[] = {{"fn", "leaky_relu"},
							  {"p0", "0.5"}};
		o.attrs = a2;
		one_op(&o, (const float *[]){xa}, want, false);
	}
}

static void op_binary(void **state)
{
	static const struct tt_model_attr a[] = {{"fn", "sub"}};
	struct one o = {
		"binary",
		a,
		1,
		{in_t("x", S2(R, C)), par_t("w", S2(R, C)), out_t(S2(R, C), BF)},
		2,
		{0}};

	(void)state;
	seeds();
	o.param[1] = xb;
	for (int i = 0; i < R * C; i++)
		want[i] = xa[i] - xb[i];
	one_op(&o, (const float *[]){xa}, want, false);
}

static void op_where(void **state)
{
	struct one o = {"where",
			NULL,
			0,
			{in_t("c", S2(R, C)), in_t("a", S2(R, C)),
			 in_t("b", S2(R, C)), out_t(S2(R, C), BF)},
			3,
			{0}};

	(void)state;
	seeds();
	for (int i = 0; i < R * C; i++) {
		xc[i] = xc[i] > 0 ? 1.0f : 0.0f;
		want[i] = xc[i] != 0 ? xa[i] : xb[i];
	}
	one_op(&o, (const float *[]){xc, xa, xb}, want, true);
}

static void op_typecast(void **state)
{
	struct one o = {
		"typecast", NULL,
		0,	    {in_t("x", S2(R, C)), out_t(S2(R, C), TT_FLOAT32)},
		1,	    {0}};

	(void)state;
	seeds();
	one_op(&o, (const float *[]){xa}, xa, true);
}

static void op_matmul(void **state)
{
	static const struct tt_model_attr a[] = {{"transpose_b", "true"}};
	struct one o = {
		"matmul",
		a,
		1,
		{in_t("a", S2(R, C)), par_t("b", S2(R, C)), out_t(S2(R, R), BF)},
		2,
		{0}};

	(void)state;
	seeds();
	o.param[1] = xb;
	for (int i = 0; i < R; i++)
		for (int j = 0; j < R; j++) {
			float s = 0;

			for (int k = 0; k < C; k++)
				s += xa[i * C + k] * xb[j * C + k];
			want[i * R + j] = s;
		}
	one_op(&o, (const float *[]){xa}, want, false);
}

static void op_linear(void **state)
{
	static const struct tt_model_attr a[] = {{"activation", "relu"}};
	struct one o = {"linear",
			a,
			1,
			{in_t("x", S2(R, C)), par_t("w", S2(C, R)),
			 par_t("bias", ((struct tt_shape){1, {R}})),
			 out_t(S2(R, R), BF)},
			3,
			{0}};

	(void)state;
	seeds();
	for (int i = 0; i < R; i++)
		xc[i] = xc[i] * 4; /* a bias that shows */
	o.param[1] = xb;
	o.param[2] = xc;
	for (int i = 0; i < R; i++)
		for (int j = 0; j < R; j++) {
			float s = xc[j];

			for (int k = 0; k < C; k++)
				s += xa[i * C + k] * xb[k * R + j];
			want[i * R + j] = s > 0 ? s : 0;
		}
	one_op(&o, (const float *[]){xa}, want, false);
}

static void op_softmax(void **state)
{
	static const struct tt_model_attr a[] = {{"scale", "2"},
						 {"causal", "true"}};
	struct one o = {"softmax", a,
			2,	   {in_t("x", S2(R, R)), out_t(S2(R, R), BF)},
			1,	   {0}};

	(void)state;
	seeds();
	for (int i = 0; i < R; i++) {
		float mx = -1e30f, sum = 0;

		for (int j = 0; j <= i; j++)
			mx = fmaxf(mx, 2 * xa[i * R + j]);
		for (int j = 0; j < R; j++) {
			want[i * R + j] =
				j <= i ? expf(2 * xa[i * R + j] - mx) : 0;
			sum += want[i * R + j];
		}
		for (int j = 0; j < R; j++)
			want[i * R + j] /= sum;
	}
	one_op(&o, (const float *[]){xa}, want, false);
}

static void norm_ref(bool rms, const float *g, const float *b)
{
	for (int i = 0; i < R; i++) {
		double mean = 0, var = 0;

		for (int k = 0; k < C; k++)
			mean += xa[i * C + k];
		mean = rms ? 0 : mean / C;
		for (int k = 0; k < C; k++)
			var += (xa[i * C + k] - mean) * (xa[i * C + k] - mean);
		var /= C;
		for (int k = 0; k < C; k++)
			want[i * C + k] =
				(float)((xa[i * C + k] - mean) /
						sqrt(var + 1e-5) * g[k] +
					(b ? b[k] : 0));
	}
}

static void op_layernorm(void **state)
{
	struct one o = {
		"layernorm",
		NULL,
		0,
		{in_t("x", S2(R, C)), par_t("g", ((struct tt_shape){1, {C}})),
		 par_t("b", ((struct tt_shape){1, {C}})), out_t(S2(R, C), BF)},
		3,
		{0}};

	(void)state;
	seeds();
	o.param[1] = xb;
	o.param[2] = xc;
	norm_ref(false, xb, xc);
	one_op(&o, (const float *[]){xa}, want, false);
}

static void op_rmsnorm(void **state)
{
	static const struct tt_model_attr a[] = {{"eps", "0.00001"}};
	struct one o = {"rmsnorm",
			a,
			1,
			{in_t("x", S2(R, C)),
			 par_t("g", ((struct tt_shape){1, {C}})),
			 out_t(S2(R, C), BF)},
			2,
			{0}};

	(void)state;
	seeds();
	o.param[1] = xb;
	norm_ref(true, xb, NULL);
	one_op(&o, (const float *[]){xa}, want, false);
}

static void op_reduce(void **state)
{
	static const struct tt_model_attr a[] = {
		{"fn", "sum"}, {"dims", "1"}, {"keepdim", "true"}};
	struct one o = {"reduce", a,
			3,	  {in_t("x", S2(R, C)), out_t(S2(R, 1), BF)},
			1,	  {0}};

	(void)state;
	seeds();
	for (int i = 0; i < R; i++) {
		want[i] = 0;
		for (int k = 0; k < C; k++)
			want[i] += xa[i * C + k];
	}
	one_op(&o, (const float *[]){xa}, want, false);
}

static void op_transpose(void **state)
{
	static const struct tt_model_attr a[] = {{"dim0", "0"}, {"dim1", "-1"}};
	struct one o = {"transpose", a,
			2,	     {in_t("x", S2(R, C)), out_t(S2(C, R), BF)},
			1,	     {0}};

	(void)state;
	seeds();
	for (int i = 0; i < R; i++)
		for (int k = 0; k < C; k++)
			want[k * R + i] = xa[i * C + k];
	one_op(&o, (const float *[]){xa}, want, true);
}

static void op_permute(void **state)
{
	static const struct tt_model_attr a[] = {{"perm", "1,0,2"}};
	struct one o = {"permute",
			a,
			1,
			{in_t("x", ((struct tt_shape){3, {2, R, C}})),
			 out_t(((struct tt_shape){3, {R, 2, C}}), BF)},
			1,
			{0}};

	(void)state;
	seeds();
	for (int b = 0; b < 2; b++)
		for (int i = 0; i < R; i++)
			for (int k = 0; k < C; k++)
				want[(i * 2 + b) * C + k] =
					xa[(b * R + i) * C + k];
	one_op(&o, (const float *[]){xa}, want, true);
}

static void op_reshape(void **state)
{
	struct one o = {"reshape", NULL,
			0,	   {in_t("x", S2(R, C)), out_t(S2(C, R), BF)},
			1,	   {0}};

	(void)state;
	seeds();
	one_op(&o, (const float *[]){xa}, xa, true);
}

static void op_concat(void **state)
{
	static const struct tt_model_attr a[] = {{"dim", "-1"}};
	struct one o = {
		"concat",
		a,
		1,
		{in_t("p", S2(R, R)), in_t("q", S2(R, C)), out_t(S2(R, R + C), BF)},
		2,
		{0}};

	(void)state;
	seeds();
	for (int i = 0; i < R; i++) {
		for (int k = 0; k < R; k++)
			want[i * (R + C) + k] = xa[i * R + k];
		for (int k = 0; k < C; k++)
			want[i * (R + C) + R + k] = xb[i * C + k];
	}
	one_op(&o, (const float *[]){xa, xb}, want, true);
}

static void op_slice(void **state)
{
	static const struct tt_model_attr a[] = {
		{"start", "1,32"}, {"end", "32,64"}, {"step", "2,1"}};
	struct one o = {"slice", a,
			3,	 {in_t("x", S2(R, C)), out_t(S2(16, 32), BF)},
			1,	 {0}};
	unsigned n = 0;

	(void)state;
	seeds();
	for (int i = 1; i < R; i += 2)
		for (int k = 32; k < C; k++)
			want[n++] = xa[i * C + k];
	one_op(&o, (const float *[]){xa}, want, true);
}

/* ------------------------------------------------------------------ */
/* Parameters, slots, runs: y = (x * w) + v, w stored as Float32, v as
 * Float16_b, the product in an activation of slot 0. */

static const struct tt_model_tensor p_tensors[] = {
	{"x", {2, {R, C}}, BF, TT_MODEL_INPUT, false, -1, NULL, TT_INVALID},
	{"w", {2, {R, C}}, BF, TT_MODEL_PARAM, false, -1, "d/w", TT_FLOAT32},
	{"v", {2, {R, C}}, TT_FLOAT32, TT_MODEL_PARAM, true, -1, "d/v", BF},
	{"t0", {2, {R, C}}, BF, TT_MODEL_ACT, true, 0, NULL, TT_INVALID},
	{"y",
	 {2, {R, C}},
	 TT_FLOAT32,
	 TT_MODEL_OUTPUT,
	 false,
	 -1,
	 NULL,
	 TT_INVALID},
};
static const struct tt_model_slot p_slots[] = {{true, 2048, 2}};
static const unsigned p_in0[] = {0, 1}, p_in1[] = {3, 2};
static const struct tt_model_attr a_mul[] = {{"fn", "mul"}};
static const struct tt_model_attr a_add[] = {{"fn", "add"}};
static const struct tt_model_op p_ops[] = {
	{"prod", "binary", p_in0, 2, 3, a_mul, 1},
	{"sum", "binary", p_in1, 2, 4, a_add, 1},
};
static const struct tt_model_program p_prog[] = {{"forward", p_ops, 2}};

static float pw[R * C], pv[R * C];
static uint16_t *pv16;

static struct tt_model_desc p_desc(void)
{
	struct tt_model_desc d = desc_of(p_tensors, 5, p_prog, 1);

	d.slots = p_slots;
	d.nslots = 1;
	return d;
}

static tt_model *p_load(void)
{
	seeds();
	fill(pw, R * C, 4);
	fill(pv, R * C, 5);
	free(pv16);
	pv16 = to_bf16(pv, R * C);
	return load(p_desc(),
		    (struct sec[]){{"d/w", pw, sizeof(pw)},
				   {"d/v", pv16, R * C * 2}},
		    2);
}

static void p_want(void)
{
	for (int i = 0; i < R * C; i++)
		want[i] = xa[i] * pw[i] + pv[i];
}

static void params_formats(void **state)
{
	tt_model *m = p_load();

	(void)state;
	p_want();
	run_check(m, (const float *[]){xa}, 1, want, false);
	/* Twice: the slot's activation is rewritten, not accumulated. */
	run_check(m, (const float *[]){xa}, 1, want, false);
	tt_model_free(m);
}

static void params_update(void **state)
{
	tt_model *m = p_load();
	tt_tensor *t;

	(void)state;
	p_want();
	run_check(m, (const float *[]){xa}, 1, want, false);
	fill(pw, R * C, 44);
	t = host(&p_tensors[1].shape, pw);
	TRY(tt_model_update_param(m, "w", t));
	p_want();
	run_check(m, (const float *[]){xa}, 1, want, false);
	/* v in another format than its tensor's. */
	tt_tensor_free(t);
	fill(pv, R * C, 55);
	t = host(&p_tensors[2].shape, pv);
	TRY(tt_model_update_param(m, "v", t));
	p_want();
	run_check(m, (const float *[]){xa}, 1, want, false);
	/* A second model of the same image has its own parameters. */
	{
		tt_model *m2 = p_load();
		float keep[R * C];

		memcpy(keep, want, sizeof(keep));
		p_want();
		run_check(m2, (const float *[]){xa}, 1, want, false);
		tt_model_free(m2);
		memcpy(want, keep, sizeof(keep));
		fill(pw, R * C, 44);
		fill(pv, R * C, 55);
	}
	run_check(m, (const float *[]){xa}, 1, want, false);
	expect_error(tt_model_update_param(m, "x", t), -EINVAL,
		     "x is not a parameter");
	expect_error(tt_model_update_param(m, "t0", t), -EINVAL,
		     "t0 is not a parameter");
	expect_error(tt_model_update_param(m, "nope", t), -ENOENT,
		     "no tensor nope");
	expect_error(tt_model_update_param(m, "w", NULL), -EINVAL, "NULL");
	tt_tensor_free(t);
	/* The refusals changed nothing. */
	run_check(m, (const float *[]){xa}, 1, want, false);
	tt_model_free(m);
}

/* A parameter of another shape is refused, naming it. */
static void params_update_shape(void **state)
{
	tt_model *m = p_load();
	tt_tensor *t;

	(void)state;
	TRY(tt_tensor_create(&S2(R, R), TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	expect_error(tt_model_update_param(m, "w", t), -EINVAL,
		     "tt_model_update_param: parameter w: ");
	if (!strstr(tt_last_error(), "the shapes differ"))
		fail_msg("message \"%s\" names no shape", tt_last_error());
	tt_tensor_free(t);
	tt_model_free(m);
}

/*
 * A chain on three slots, two of them used twice:
 *   a (slot 0) = neg(x); b (slot 1) = abs(x); c (slot 2) = b * b;
 *   d (slot 1, b is dead) = a + c; e (slot 0, a is dead) = d * d;
 *   y = e + c, so y = (x^2 - x)^2 + x^2.
 * c is written while a is alive: slots must not share memory.
 */
static float chain_ref(float x)
{
	float b = fabsf(x), c = b * b, d = -x + c;

	return d * d + c;
}

static tt_model *chain_load(void)
{
#define ACT(n, s)                                                              \
	{                                                                      \
		n, {2, {R, C}}, BF, TT_MODEL_ACT, s == 1, s, NULL, TT_INVALID  \
	}
	static const struct tt_model_tensor t[] = {
		{"x",
		 {2, {R, C}},
		 BF,
		 TT_MODEL_INPUT,
		 false,
		 -1,
		 NULL,
		 TT_INVALID},
		ACT("a", 0),
		ACT("b", 1),
		ACT("c", 2),
		ACT("d", 1),
		ACT("e", 0),
		{"y",
		 {2, {R, C}},
		 BF,
		 TT_MODEL_OUTPUT,
		 false,
		 -1,
		 NULL,
		 TT_INVALID},
	};
#undef ACT
	static const struct tt_model_slot sl[] = {
		{false, 2048, 2}, {true, 2048, 2}, {false, 2048, 3}};
	static const unsigned i0[] = {0}, i2[] = {2, 2}, i3[] = {1, 3},
			      i4[] = {4, 4}, i5[] = {5, 3};
	static const struct tt_model_attr neg[] = {{"fn", "neg"}},
					  abs_[] = {{"fn", "abs"}};
	static const struct tt_model_op ops[] = {
		{"n", "unary", i0, 1, 1, neg, 1},
		{"ab", "unary", i0, 1, 2, abs_, 1},
		{"sq", "binary", i2, 2, 3, a_mul, 1},
		{"ad", "binary", i3, 2, 4, a_add, 1},
		{"sq2", "binary", i4, 2, 5, a_mul, 1},
		{"ad2", "binary", i5, 2, 6, a_add, 1},
	};
	static const struct tt_model_program p[] = {{"forward", ops, 6}};
	struct tt_model_desc d = desc_of(t, 7, p, 1);

	d.slots = sl;
	d.nslots = 3;
	seeds();
	return load(d, NULL, 0);
}

static void chain(void **state)
{
	tt_model *m = chain_load();

	(void)state;
	for (int i = 0; i < R * C; i++)
		want[i] = chain_ref(xa[i]);
	run_check(m, (const float *[]){xa}, 1, want, false);
	/* Another input: nothing of the first run is left over. */
	for (int i = 0; i < R * C; i++)
		want[i] = chain_ref(xb[i]);
	run_check(m, (const float *[]){xb}, 1, want, false);
	tt_model_free(m);
}

/* Two programs each on its own input and output (a merged image's,
 * docs/image.md): run on just what the program uses, or on all. */
static void two_programs(void **state)
{
#define IO(n, k) {n, {2, {R, C}}, BF, k, false, -1, NULL, TT_INVALID}
	static const struct tt_model_tensor t[] = {
		IO("a/x", TT_MODEL_INPUT), IO("b/x", TT_MODEL_INPUT),
		IO("a/y", TT_MODEL_OUTPUT), IO("b/y", TT_MODEL_OUTPUT),
	};
#undef IO
	static const unsigned i0[] = {0}, i1[] = {1};
	static const struct tt_model_attr neg[] = {{"fn", "neg"}},
					  abs_[] = {{"fn", "abs"}};
	static const struct tt_model_op oa[] = {{"a/n", "unary", i0, 1, 2, neg, 1}},
					ob[] = {{"b/n", "unary", i1, 1, 3, abs_, 1}};
	static const struct tt_model_program p[] = {{"a/forward", oa, 1},
						    {"b/forward", ob, 1}};
	tt_tensor *x[2], *y[2] = {NULL};
	tt_model *m;
	float *got;
	size_t n;

	(void)state;
	seeds();
	m = load(desc_of(t, 4, p, 2), NULL, 0);
	x[0] = host(&t[0].shape, xa);
	x[1] = host(&t[1].shape, xb);
	/* b/forward on its own: b/x in, b/y out. */
	TRY(tt_model_run(m, "b/forward", &x[1], 1, y, 1));
	got = values(y[0], &n);
	for (size_t i = 0; i < n; i++)
		if (got[i] != fabsf(xb[i]))
			fail_msg("b/y[%zu]: got %g, want %g", i, (double)got[i],
				 (double)fabsf(xb[i]));
	free(got);
	/* a/forward on all of the model's: a/y is the first output. */
	TRY(tt_model_run(m, "a/forward", x, 2, y, 2));
	got = values(y[0], &n);
	for (size_t i = 0; i < n; i++)
		if (got[i] != -xa[i])
			fail_msg("a/y[%zu]: got %g, want %g", i, (double)got[i],
				 (double)-xa[i]);
	free(got);
	tt_tensor_free(y[1]);
	y[0] = y[1] = NULL;
	expect_error(tt_model_run(m, "a/forward", x, 2, y, 1), -EINVAL,
		     "given 2 and 1 (program a/forward reads 1 and writes 1)");
	assert_null(y[0]);
	tt_tensor_free(x[0]);
	tt_tensor_free(x[1]);
	tt_model_free(m);
}

/* tt_model_run_each on the chain: every op's result (slots shared, so
 * read before the next op overwrites it) against its host value. */
struct each {
	unsigned calls, stop_at;
	int stop_with;
	double pcc[6];
};

static float chain_step(unsigned k, float x)
{
	float b = fabsf(x), c = b * b, d = -x + c, e = d * d;
	const float v[] = {-x, b, c, d, e, e + c};

	return v[k];
}

static int each_visit(void *arg, unsigned k, const struct tt_model_op *op,
		      const tt_tensor *r)
{
	struct each *e = arg;
	static const char *const names[] = {"n", "ab", "sq", "ad", "sq2", "ad2"};
	tt_tensor *copy;
	float *got;
	size_t n;

	assert_int_equal(k, e->calls);
	assert_true(k < 6);
	assert_string_equal(op->name, names[k]);
	assert_int_equal(tt_tensor_layout(r), TT_TENSOR_TILED);
	assert_int_equal(tt_tensor_format(r), BF);
	TRY(tt_tensor_to(r, BF, TT_TENSOR_TILED, &copy));
	got = values(copy, &n);
	assert_int_equal(n, R * C);
	for (size_t i = 0; i < n; i++)
		want[i] = chain_step(k, xa[i]);
	e->pcc[k] = pcc(got, want, n);
	free(got);
	e->calls++;
	return e->calls == e->stop_at ? e->stop_with : 0;
}

static void run_each(void **state)
{
	tt_model *m = chain_load();
	tt_tensor *x = host(&(struct tt_shape){2, {R, C}}, xa), *y = NULL;
	struct each e = {0};

	(void)state;
	TRY(tt_model_run_each(m, NULL, &x, 1, &y, 1, each_visit, &e));
	assert_int_equal(e.calls, 6);
	for (unsigned k = 0; k < 6; k++)
		if (e.pcc[k] < 0.99)
			fail_msg("op %u: pcc %f", k, e.pcc[k]);
	/* The outputs as tt_model_run gives them. */
	{
		size_t n;
		float *got = values(y, &n);

		for (int i = 0; i < R * C; i++)
			want[i] = chain_ref(xa[i]);
		assert_true(pcc(got, want, n) >= 0.99);
		free(got);
	}
	/* visit stops the run with its value: no outputs. */
	e = (struct each){.stop_at = 3, .stop_with = 42};
	y = (tt_tensor *)1;
	assert_int_equal(tt_model_run_each(m, NULL, &x, 1, &y, 1, each_visit,
					   &e),
			 42);
	assert_int_equal(e.calls, 3);
	assert_null(y);
	/* Argument errors as tt_model_run's, and no visitor. */
	expect_error(tt_model_run_each(m, NULL, &x, 1, &y, 1, NULL, NULL),
		     -EINVAL, "visit is NULL");
	expect_error(tt_model_run_each(NULL, NULL, &x, 1, &y, 1, each_visit,
				       &e),
		     -EINVAL, "NULL argument");
	expect_error(tt_model_run_each(m, NULL, &x, 0, &y, 1, each_visit, &e),
		     -EINVAL, "given 0 and 1");
	assert_int_equal(e.calls, 3);
	e = (struct each){0};
	expect_error(tt_model_run_each(m, "nope", &x, 1, &y, 1, each_visit,
				       &e),
		     -ENOENT, "no program nope");
	assert_int_equal(e.calls, 0);
	/* And the model still runs after a stopped run. */
	TRY(tt_model_run_each(m, NULL, &x, 1, &y, 1, each_visit, &e));
	assert_int_equal(e.calls, 6);
	tt_tensor_free(y);
	tt_tensor_free(x);
	tt_model_free(m);
}

static void run_errors(void **state)
{
	tt_model *m = p_load();
	tt_tensor *x = host(&p_tensors[0].shape, xa), *y[2] = {NULL}, *bad;

	(void)state;
	expect_error(tt_model_run(m, NULL, &x, 0, y, 1), -EINVAL,
		     "the model has 1 inputs and 1 outputs, given 0 and 1");
	expect_error(tt_model_run(m, NULL, (tt_tensor *[]){x, x}, 2, y, 1),
		     -EINVAL, "given 2 and 1");
	expect_error(tt_model_run(m, NULL, &x, 1, y, 2), -EINVAL,
		     "given 1 and 2");
	expect_error(tt_model_run(m, "nope", &x, 1, y, 1), -ENOENT,
		     "no program nope");
	expect_error(tt_model_run(m, NULL, NULL, 1, y, 1), -EINVAL, "NULL");
	expect_error(tt_model_run(NULL, NULL, &x, 1, y, 1), -EINVAL, "NULL");
	assert_null(y[0]);
	/* Another shape, same volume and not. */
	TRY(tt_tensor_create(&S2(C, R), TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &bad));
	expect_error(tt_model_run(m, NULL, &bad, 1, y, 1), -EINVAL,
		     "tt_model_run: input x: ");
	if (!strstr(tt_last_error(), "[64,32]") ||
	    !strstr(tt_last_error(), "the shapes differ"))
		fail_msg("message \"%s\" names no shape", tt_last_error());
	assert_null(y[0]);
	tt_tensor_free(bad);
	TRY(tt_tensor_create(&S2(R, R), TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &bad));
	expect_error(tt_model_run(m, NULL, &bad, 1, y, 1), -EINVAL,
		     "input x: ");
	assert_null(y[0]);
	tt_tensor_free(bad);
	/* By name, and still right after the refusals. */
	TRY(tt_model_run(m, "forward", &x, 1, y, 1));
	p_want();
	{
		size_t n;
		float *got = values(y[0], &n);

		assert_true(pcc(got, want, n) >= 0.99);
		free(got);
	}
	/* An input in another format and layout: the same result. */
	TRY(tt_tensor_to(x, BF, TT_TENSOR_TILED, &bad));
	TRY(tt_model_run(m, NULL, &bad, 1, y, 1));
	tt_tensor_free(bad);
	{
		size_t n;
		float *got = values(y[0], &n);

		assert_true(pcc(got, want, n) >= 0.99);
		free(got);
	}
	tt_tensor_free(x);
	tt_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Load refusals */

static void refused(struct tt_model_desc d, const struct sec *s, unsigned ns,
		    unsigned flags, int code, const char *text)
{
	char path[PATH_MAX];
	tt_model *m = (void *)1;

	write_image(d, s, ns, flags, path);
	expect_error(tt_model_load(dev, path, &m), code, text);
	assert_null(m);
}

#define P_SECS                                                                 \
	(struct sec[])                                                         \
	{                                                                      \
		{"d/w", pw, sizeof(pw)},                                       \
		{                                                              \
			"d/v", pv16, R *C * 2                                  \
		}                                                              \
	}

static void load_no_manifest(void **state)
{
	(void)state;
	tt_model_free(p_load());
	refused(p_desc(), P_SECS, 2, W_NO_MANIFEST, -ENOENT,
		"no section named \"manifest.yaml\"");
	/* One that does not parse: the reader's message, the image named. */
	refused(p_desc(), P_SECS, 2, W_BAD_MANIFEST, -EINVAL, ".tti");
}

static void load_arch(void **state)
{
	struct tt_model_desc d = p_desc();

	(void)state;
	tt_model_free(p_load());
	d.arch = "blackhole";
	refused(d, P_SECS, 2, 0, -ENOTSUP, "compiled for blackhole");
}

static void load_grid(void **state)
{
	struct tt_model_desc d = p_desc();
	unsigned w, h;
	char want_s[128];

	(void)state;
	tt_model_free(p_load());
	TRY(tt_device_logical_grid(dev, &w, &h));
	d.grid = (struct tt_xy){w + 1, h};
	snprintf(want_s, sizeof(want_s),
		 "placed on a %ux%u grid of cores; this device has %ux%u",
		 w + 1, h, w, h);
	refused(d, P_SECS, 2, 0, -ENOTSUP, want_s);
	d.grid = (struct tt_xy){w, h + 1};
	snprintf(want_s, sizeof(want_s),
		 "%ux%u grid of cores; this device has %ux%u", w, h + 1, w, h);
	refused(d, P_SECS, 2, 0, -ENOTSUP, want_s);
	/* The device's own grid loads. */
	d.grid = (struct tt_xy){w, h};
	{
		char path[PATH_MAX];
		tt_model *m;

		write_image(d, P_SECS, 2, 0, path);
		TRY(tt_model_load(dev, path, &m));
		tt_model_free(m);
	}
}

static void load_kernel_missing(void **state)
{
	(void)state;
	tt_model_free(p_load());
	refused(p_desc(), P_SECS, 2, W_DROP_KERNEL, -ENOENT, "k/");
}

static void load_data_size(void **state)
{
	(void)state;
	tt_model_free(p_load());
	refused(p_desc(),
		(struct sec[]){{"d/w", pw, sizeof(pw) - 4},
			       {"d/v", pv16, R * C * 2}},
		2, 0, -EINVAL, "tensor w: section d/w has 8188 bytes");
	refused(p_desc(),
		(struct sec[]){{"d/w", pw, sizeof(pw)},
			       {"d/v", pv16, R * C * 2 + 2}},
		2, 0, -EINVAL, "tensor v: section d/v has 4098 bytes");
	/* A data section missing altogether. */
	refused(p_desc(), (struct sec[]){{"d/w", pw, sizeof(pw)}}, 1, 0,
		-ENOENT, "d/v");
}

static void load_damaged(void **state)
{
	char path[PATH_MAX];
	tt_model *m = (void *)1;
	FILE *f;
	long size;
	uint8_t *buf, *hit;

	(void)state;
	tt_model_free(p_load());
	write_image(p_desc(), P_SECS, 2, 0, path);
	f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	buf = malloc((size_t)size);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
	/* One bit of w's data flipped. */
	hit = memmem(buf, (size_t)size, pw, 64);
	assert_non_null(hit);
	hit[5] ^= 0x10;
	rewind(f);
	assert_int_equal(fwrite(buf, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	free(buf);
	assert_true(tt_model_load(dev, path, &m) < 0);
	assert_null(m);
	expect_error(tt_model_load(dev, path, &m), -EINVAL,
		     "section d/w: checksum");
	/* Not an image at all; no file. */
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs("tti: 1\n", f);
	fclose(f);
	assert_true(tt_model_load(dev, path, &m) < 0);
	assert_null(m);
	expect_error(tt_model_load(dev, "/nonexistent/m.tti", &m), -ENOENT,
		     "/nonexistent/m.tti");
	expect_error(tt_model_load(NULL, path, &m), -EINVAL, "dev");
}

/* ------------------------------------------------------------------ */
/* tt_backend_load: x -> neg -> y ("forward") and x -> abs -> y ("other") */

static const struct tt_model_tensor b_tensors[] = {
	{"x", {2, {R, C}}, BF, TT_MODEL_INPUT, false, -1, NULL, TT_INVALID},
	{"y", {2, {R, C}}, BF, TT_MODEL_OUTPUT, false, -1, NULL, TT_INVALID},
};
static const unsigned b_in[] = {0};
static const struct tt_model_attr b_neg[] = {{"fn", "neg"}};
static const struct tt_model_attr b_abs[] = {{"fn", "abs"}};
static const struct tt_model_op b_op0[] = {
	{"n", "unary", b_in, 1, 1, b_neg, 1}};
static const struct tt_model_op b_op1[] = {
	{"a", "unary", b_in, 1, 1, b_abs, 1}};
static const struct tt_model_program b_progs[] = {{"forward", b_op0, 1},
						  {"other", b_op1, 1}};

static tt_backend *b_load(void)
{
	char path[PATH_MAX];
	tt_backend *b;

	write_image(desc_of(b_tensors, 2, b_progs, 2), NULL, 0, 0, path);
	TRY(tt_backend_load(dev, path, &b));
	return b;
}

static void b_push(tt_backend *b, uint32_t seed)
{
	struct tt_io_desc io;
	tt_tensor *t;

	fill(xa, R * C, seed);
	TRY(tt_backend_get_io(b, "x", &io));
	t = host(&b_tensors[0].shape, xa);
	TRY(tt_backend_push_input(&io, t, 1000));
	tt_tensor_free(t);
}

/* The head of y is f(seeded values of seed): neg or abs, exactly. */
static void b_pop(tt_backend *b, uint32_t seed, bool neg)
{
	struct tt_io_desc io;
	tt_tensor *t;
	float *got;
	size_t n;

	fill(xa, R * C, seed);
	TRY(tt_backend_get_io(b, "y", &io));
	TRY(tt_backend_get_output(&io, 1000, &t));
	TRY(tt_backend_pop_output(&io, 1000));
	got = values(t, &n);
	assert_int_equal(n, R * C);
	for (size_t i = 0; i < n; i++)
		if (got[i] != (neg ? -xa[i] : fabsf(xa[i])))
			fail_msg("entry of seed %u, element %zu: %g", seed, i,
				 (double)got[i]);
	free(got);
}

static void backend_flow(void **state)
{
	tt_backend *b = b_load();
	const char *const *names;
	unsigned n;
	struct tt_io_desc io;

	(void)state;
	TRY(tt_backend_input_names(b, &names, &n));
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "x");
	TRY(tt_backend_output_names(b, &names, &n));
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "y");
	TRY(tt_backend_program_names(b, &names, &n));
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "forward");
	assert_string_equal(names[1], "other");
	TRY(tt_backend_get_io(b, "x", &io));
	assert_int_equal(io.kind, TT_IO_INPUT);
	assert_int_equal(io.shape.dims[1], C);
	/* A microbatch of 3: three outputs in order. */
	for (unsigned i = 0; i < 3; i++)
		b_push(b, 10 + i);
	TRY(tt_backend_run_program(
		b, "forward",
		(struct tt_backend_param[]){{"$p_loop_count", "3"}}, 1));
	for (unsigned i = 0; i < 3; i++)
		b_pop(b, 10 + i, true);
	/* The other program, its default loop count of 1. */
	b_push(b, 20);
	b_push(b, 21);
	/* A loop count of 0 takes nothing. */
	TRY(tt_backend_run_program(
		b, "other", (struct tt_backend_param[]){{"$p_loop_count", "0"}},
		1));
	TRY(tt_backend_run_program(b, "other", NULL, 0));
	b_pop(b, 20, false);
	TRY(tt_backend_run_program(b, "forward", NULL, 0));
	b_pop(b, 21, true);
	/* Nothing left behind. */
	TRY(tt_backend_get_io(b, "y", &io));
	{
		tt_tensor *t = NULL;

		assert_int_equal(tt_backend_get_output(&io, TT_TQ_NONBLOCK, &t),
				 -EAGAIN);
		assert_null(t);
	}
	TRY(tt_backend_finish(b));
	tt_backend_free(b);
}

static void backend_no_input(void **state)
{
	tt_backend *b;
	int ret;

	(void)state;
	setenv("TT_MODEL_QUEUE_TIMEOUT_MS", "200", 1);
	b = b_load();
	ret = tt_backend_run_program(b, "forward", NULL, 0);
	expect_error(ret, -ETIMEDOUT, "program \"forward\": run 1: input x: ");
	if (!strstr(tt_last_error(), "no entry within 200 ms"))
		fail_msg("message \"%s\" lacks the timeout", tt_last_error());
	/* Usable after: one pushed, one run. */
	b_push(b, 30);
	TRY(tt_backend_run_program(b, "forward", NULL, 0));
	b_pop(b, 30, true);
	/* Two asked for, one there: the second times out, the first's
	 * output is there. */
	b_push(b, 31);
	expect_error(
		tt_backend_run_program(
			b, "forward",
			(struct tt_backend_param[]){{"$p_loop_count", "2"}}, 1),
		-ETIMEDOUT, "input x");
	b_pop(b, 31, true);
	/* A malformed timeout is refused, naming the variable. */
	setenv("TT_MODEL_QUEUE_TIMEOUT_MS", "0", 1);
	b_push(b, 32);
	expect_error(tt_backend_run_program(b, "forward", NULL, 0), -EINVAL,
		     "TT_MODEL_QUEUE_TIMEOUT_MS");
	setenv("TT_MODEL_QUEUE_TIMEOUT_MS", "200ms", 1);
	expect_error(tt_backend_run_program(b, "forward", NULL, 0), -EINVAL,
		     "TT_MODEL_QUEUE_TIMEOUT_MS");
	/* Unset: the default; the entry pushed is still there. */
	unsetenv("TT_MODEL_QUEUE_TIMEOUT_MS");
	TRY(tt_backend_run_program(b, "forward", NULL, 0));
	b_pop(b, 32, true);
	TRY(tt_backend_finish(b));
	tt_backend_free(b);
}

/*
 * Outputs nobody pops: 16 entries (the queues' depth) fill y; the 17th
 * run times out naming output y and leaves its input entry in x, so a
 * run after a pop makes it; every output is in order.
 */
static void backend_output_full(void **state)
{
	tt_backend *b;

	(void)state;
	setenv("TT_MODEL_QUEUE_TIMEOUT_MS", "200", 1);
	b = b_load();
	for (unsigned i = 0; i < 16; i++)
		b_push(b, 40 + i);
	TRY(tt_backend_run_program(
		b, "forward",
		(struct tt_backend_param[]){{"$p_loop_count", "16"}}, 1));
	b_push(b, 56);
	expect_error(tt_backend_run_program(b, "forward", NULL, 0), -ETIMEDOUT,
		     "program \"forward\": run 2: output y: ");
	b_pop(b, 40, true);
	TRY(tt_backend_run_program(b, "forward", NULL, 0));
	for (unsigned i = 1; i < 17; i++)
		b_pop(b, 40 + i, true);
	TRY(tt_backend_finish(b));
	tt_backend_free(b);
	unsetenv("TT_MODEL_QUEUE_TIMEOUT_MS");
}

static void backend_load_refused(void **state)
{
	tt_backend *b = (void *)1;

	(void)state;
	expect_error(tt_backend_load(dev, "/nonexistent/b.tti", &b), -ENOENT,
		     "/nonexistent/b.tti");
	assert_null(b);
	expect_error(tt_backend_load(dev, "x", NULL), -EINVAL, "out");
	/* The model's refusal, and nothing left behind. */
	{
		struct tt_model_desc d = desc_of(b_tensors, 2, b_progs, 2);
		char path[PATH_MAX];

		d.arch = "blackhole";
		write_image(d, NULL, 0, 0, path);
		b = (void *)1;
		expect_error(tt_backend_load(dev, path, &b), -ENOTSUP,
			     "compiled for blackhole");
		assert_null(b);
	}
}

/* layernorm without gamma (an absent input) and with beta. */
static void op_layernorm_absent(void **state)
{
	static const struct tt_model_tensor t[] = {
		{"x",
		 {2, {R, C}},
		 BF,
		 TT_MODEL_INPUT,
		 false,
		 -1,
		 NULL,
		 TT_INVALID},
		{"b", {1, {C}}, BF, TT_MODEL_PARAM, false, -1, "d/b", BF},
		{"y",
		 {2, {R, C}},
		 BF,
		 TT_MODEL_OUTPUT,
		 false,
		 -1,
		 NULL,
		 TT_INVALID},
	};
	static const unsigned in[] = {0, TT_MODEL_NONE, 1};
	static const struct tt_model_op op[] = {
		{"ln", "layernorm", in, 3, 2, NULL, 0}};
	static const struct tt_model_program p[] = {{"forward", op, 1}};
	float ones[C];
	uint16_t *b16;
	tt_model *m;

	(void)state;
	seeds();
	for (int k = 0; k < C; k++)
		ones[k] = 1;
	b16 = to_bf16(xc, C);
	m = load(desc_of(t, 3, p, 1), (struct sec[]){{"d/b", b16, C * 2}}, 1);
	norm_ref(false, ones, xc);
	run_check(m, (const float *[]){xa}, 1, want, false);
	tt_model_free(m);
	free(b16);
}

/* ------------------------------------------------------------------ */
/* A host without a compiler, an empty cache (the last group) */

static char with_k[PATH_MAX], without_k[PATH_MAX];
static char empty_cache[PATH_MAX], *saved_cache;
static uint8_t *ref_bytes;
static size_t ref_len;

/* Run the model at path on xa; its output's bytes (tiled Float32). */
static int run_bytes(const char *path, uint8_t **bytes, size_t *len)
{
	tt_model *m;
	tt_tensor *x, *y;
	int ret = tt_model_load(dev, path, &m);

	if (ret)
		return ret;
	x = host(&p_tensors[0].shape, xa);
	ret = tt_model_run(m, NULL, &x, 1, &y, 1);
	tt_tensor_free(x);
	tt_model_free(m);
	if (ret)
		return ret;
	*len = tt_tensor_size(y);
	*bytes = malloc(*len);
	assert_non_null(*bytes);
	memcpy(*bytes, tt_tensor_data(y), *len);
	tt_tensor_free(y);
	return 0;
}

static int nocc_up(void **state)
{
	const char *c = getenv("TT_KERNEL_CACHE");

	if (group_up(state))
		return -1;
	/* With the compiler: the images and the reference. */
	tt_model_free(p_load());
	write_image(p_desc(), P_SECS, 2, 0, with_k);
	write_image(p_desc(), P_SECS, 2, W_NO_KERNELS, without_k);
	if (run_bytes(with_k, &ref_bytes, &ref_len))
		return -1;
	group_down(state);
	/* Another host. */
	saved_cache = c ? strdup(c) : NULL;
	if (!test_mkdtemp(empty_cache, sizeof(empty_cache), "tt-model-nocc"))
		return -1;
	setenv("TT_KERNEL_CC", "none", 1);
	setenv("TT_KERNEL_CACHE", empty_cache, 1);
	tt_kbuild_reset();
	/* No set of a model a failed case leaked serves here. */
	tt_kernel_set_serve(NULL);
	return group_up(state);
}

static int nocc_down(void **state)
{
	group_down(state);
	unsetenv("TT_KERNEL_CC");
	if (saved_cache)
		setenv("TT_KERNEL_CACHE", saved_cache, 1);
	free(saved_cache);
	tt_kbuild_reset();
	test_rmtree(empty_cache);
	free(ref_bytes);
	return 0;
}

static void nocc_without_kernels(void **state)
{
	uint8_t *bytes = NULL;
	size_t len;
	int ret;

	(void)state;
	ret = run_bytes(without_k, &bytes, &len);
	assert_int_equal(ret, -ENOENT);
	assert_null(bytes);
	if (!strstr(tt_last_error(), "op prod (binary)") ||
	    !strstr(tt_last_error(), "no compiler to build it") ||
	    !strstr(tt_last_error(), "kernel <source "))
		fail_msg("message \"%s\" does not name the kernel and the "
			 "missing compiler",
			 tt_last_error());
}

static void nocc_with_kernels(void **state)
{
	uint8_t *bytes;
	size_t len;

	(void)state;
	TRY(run_bytes(with_k, &bytes, &len));
	assert_int_equal(len, ref_len);
	assert_memory_equal(bytes, ref_bytes, len);
	free(bytes);
	/* And again, from the same image. */
	TRY(run_bytes(with_k, &bytes, &len));
	assert_memory_equal(bytes, ref_bytes, len);
	free(bytes);
	/* Nothing was built or cached on disk. */
	{
		DIR *dd = opendir(empty_cache);
		struct dirent *e;
		unsigned n = 0;

		assert_non_null(dd);
		while ((e = readdir(dd)))
			n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		closedir(dd);
		assert_int_equal(n, 0);
	}
}

/* ------------------------------------------------------------------ */

int main(void)
{
	const struct CMUnitTest ops[] = {
		cmocka_unit_test(op_unary),
		cmocka_unit_test(op_binary),
		cmocka_unit_test(op_where),
		cmocka_unit_test(op_typecast),
		cmocka_unit_test(op_matmul),
		cmocka_unit_test(op_linear),
		cmocka_unit_test(op_softmax),
		cmocka_unit_test(op_layernorm),
		cmocka_unit_test(op_layernorm_absent),
		cmocka_unit_test(op_rmsnorm),
		cmocka_unit_test(op_reduce),
		cmocka_unit_test(op_transpose),
		cmocka_unit_test(op_permute),
		cmocka_unit_test(op_reshape),
		cmocka_unit_test(op_concat),
		cmocka_unit_test(op_slice),
		cmocka_unit_test(params_formats),
		cmocka_unit_test(params_update),
		cmocka_unit_test(params_update_shape),
		cmocka_unit_test(chain),
		cmocka_unit_test(run_each),
		cmocka_unit_test(run_errors),
		cmocka_unit_test(two_programs),
		cmocka_unit_test(load_no_manifest),
		cmocka_unit_test(load_arch),
		cmocka_unit_test(load_grid),
		cmocka_unit_test(load_kernel_missing),
		cmocka_unit_test(load_data_size),
		cmocka_unit_test(load_damaged),
		cmocka_unit_test(backend_flow),
		cmocka_unit_test(backend_no_input),
		cmocka_unit_test(backend_output_full),
		cmocka_unit_test(backend_load_refused),
	};
	const struct CMUnitTest nocc[] = {
		cmocka_unit_test(nocc_without_kernels),
		cmocka_unit_test(nocc_with_kernels),
	};
	int fails = cmocka_run_group_tests_name("model_run", ops, group_up,
						group_down);

	fails += cmocka_run_group_tests_name("model_run_no_compiler", nocc,
					     nocc_up, nocc_down);
	if (dir[0])
		test_rmtree(dir);
	return fails;
}
