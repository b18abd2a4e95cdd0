// SPDX-License-Identifier: Apache-2.0
/*
 * ops_mlp: a two-layer MLP's forward pass with the op library's eager
 * ops (tt/ops.h), the way an application links libtt and calls ttnn-like
 * ops without writing a kernel:
 *
 *   h = gelu(x W1 + b1)   tt_op_linear, gelu fused on the vector unit
 *   y = h W2 + b2         tt_op_linear
 *
 * x [64, 256], W1 [256, 512], W2 [512, 100] in bfloat16 (100 columns: the
 * output's last tile is padded, the ops handle it), every op with its
 * default config (NULL: the op chooses the grid and blocking). The host
 * computes the same in fp32 from the same bfloat16 inputs and h rounded
 * to bfloat16 as the device stores it; the check is a Pearson
 * correlation of at least 0.99 (bfloat16 outputs).
 *
 * It runs the forward pass twice: the second call of each op finds its
 * program in the context's cache and only rewrites runtime arguments
 * (the verdict line shows the hits).
 */
#include "example.h"

#define NAME "ops_mlp"
#define BATCH 64u
#define IN 256u
#define HID 512u
#define OUT 100u
#define MIN_PCC 0.99

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"A two-layer MLP, y = gelu(x W1 + b1) W2 + b2, with x %ux%u,\n"
		"W1 %ux%u and W2 %ux%u in bfloat16, through tt/ops.h; checked\n"
		"against an fp32 host reference (PCC >= %.2f).\n" EX_HELP_COMMON,
		BATCH, IN, IN, HID, HID, OUT, MIN_PCC);
}

/* A bfloat16 device tensor of shape s holding v (rounded to bfloat16). */
static tt_device_tensor *upload(tt_device *dev, struct tt_shape s,
				const float *v)
{
	tt_device_tensor *dt;
	tt_tensor *t;

	EX_TRY(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	memcpy(tt_tensor_data(t), v, tt_tensor_volume(t) * sizeof(float));
	EX_TRY(tt_device_tensor_create(dev, &s, TT_FLOAT16_B, TT_BUFFER_DRAM,
				       &dt));
	EX_TRY(tt_device_tensor_write(dt, NULL, t));
	tt_tensor_free(t);
	return dt;
}

static float *download(const tt_device_tensor *dt)
{
	tt_tensor *t;
	float *v;

	EX_TRY(tt_tensor_create(tt_device_tensor_shape(dt), TT_FLOAT32,
				TT_TENSOR_ROW_MAJOR, &t));
	EX_TRY(tt_device_tensor_read(dt, NULL, t));
	v = ex_xmalloc(tt_tensor_volume(t) * sizeof(float));
	memcpy(v, tt_tensor_data(t), tt_tensor_volume(t) * sizeof(float));
	tt_tensor_free(t);
	return v;
}

static float bf16(float x)
{
	return tt_bf16_to_float(tt_float_to_bf16(x));
}

/* y[m][n] = act(sum_k x[m][k] w[k][n] + b[n]) in fp32; gelu if act. */
static void host_linear(const float *x, const float *w, const float *b,
			float *y, unsigned m, unsigned k, unsigned n, int act)
{
	for (unsigned i = 0; i < m; i++)
		for (unsigned j = 0; j < n; j++) {
			float s = b[j];

			for (unsigned p = 0; p < k; p++)
				s += x[i * k + p] * w[p * n + j];
			if (act)
				s = 0.5f * s * (1.0f + erff(s / sqrtf(2.0f)));
			y[i * n + j] = s;
		}
}

int main(int argc, char **argv)
{
	float *x = ex_xmalloc(BATCH * IN * sizeof(float));
	float *w1 = ex_xmalloc(IN * HID * sizeof(float));
	float *w2 = ex_xmalloc(HID * OUT * sizeof(float));
	float *b1 = ex_xmalloc(HID * sizeof(float));
	float *b2 = ex_xmalloc(OUT * sizeof(float));
	float *h = ex_xmalloc(BATCH * HID * sizeof(float));
	float *want = ex_xmalloc(BATCH * OUT * sizeof(float)), *got;
	struct tt_matmul_cfg gelu = tt_op_matmul_config();
	struct tt_ops_cache_stats st;
	tt_device_tensor *dx, *dw1, *dw2, *db1, *db2, *dh = NULL, *dy = NULL;
	tt_ops_ctx *ctx;
	tt_device *dev;
	char detail[160];
	double pcc, t0, ms[2];

	ex_no_args(argc, argv, usage);
	ex_fill_bf16(x, BATCH * IN, 1);
	ex_fill_bf16(w1, IN * HID, 2);
	ex_fill_bf16(w2, HID * OUT, 3);
	ex_fill_bf16(b1, HID, 4);
	ex_fill_bf16(b2, OUT, 5);
	/* Weights scaled so that activations stay near 1, as trained
	 * weights keep them. */
	for (unsigned i = 0; i < IN * HID; i++)
		w1[i] = bf16(w1[i] / 8);
	for (unsigned i = 0; i < HID * OUT; i++)
		w2[i] = bf16(w2[i] / 8);

	ex_open_device(&dev);
	EX_TRY(tt_ops_ctx_create(dev, &ctx));
	dx = upload(dev, TT_SHAPE(BATCH, IN), x);
	dw1 = upload(dev, TT_SHAPE(IN, HID), w1);
	dw2 = upload(dev, TT_SHAPE(HID, OUT), w2);
	db1 = upload(dev, TT_SHAPE(HID), b1);
	db2 = upload(dev, TT_SHAPE(OUT), b2);
	gelu.activation = (struct tt_unary_fn){ TT_UNARY_GELU, 0, 0 };

	for (int run = 0; run < 2; run++) {
		t0 = ex_now_ms();
		EX_TRY(tt_op_linear(ctx, dx, dw1, db1, &gelu, &dh));
		EX_TRY(tt_op_linear(ctx, dh, dw2, db2, NULL, &dy));
		EX_TRY(tt_ops_finish(ctx));
		ms[run] = ex_now_ms() - t0;
	}
	EX_TRY(tt_ops_cache_stats(ctx, &st));

	/* The host's layer 2 starts from h as the device stored it. */
	host_linear(x, w1, b1, h, BATCH, IN, HID, 1);
	for (unsigned i = 0; i < BATCH * HID; i++)
		h[i] = bf16(h[i]);
	host_linear(h, w2, b2, want, BATCH, HID, OUT, 0);
	got = download(dy);
	pcc = ex_pcc(got, want, BATCH * OUT);
	snprintf(detail, sizeof(detail),
		 "PCC %.5f, first pass %.1f ms, cached %.1f ms, cache %llu hits %llu misses",
		 pcc, ms[0], ms[1], (unsigned long long)st.hits,
		 (unsigned long long)st.misses);

	tt_device_tensor_free(dx);
	tt_device_tensor_free(dw1);
	tt_device_tensor_free(dw2);
	tt_device_tensor_free(db1);
	tt_device_tensor_free(db2);
	tt_device_tensor_free(dh);
	tt_device_tensor_free(dy);
	tt_ops_ctx_free(ctx);
	tt_device_close(dev);
	free(x);
	free(w1);
	free(w2);
	free(b1);
	free(b2);
	free(h);
	free(want);
	free(got);
	return ex_verdict(NAME, pcc >= MIN_PCC && st.hits == 2 && st.misses == 2,
			  detail);
}
