// SPDX-License-Identifier: Apache-2.0
/*
 * ops_attention: one causal self-attention block with the op library's
 * eager ops (tt/ops.h):
 *
 *   s = q k^T              tt_op_matmul, transpose_b, batched over heads
 *   p = softmax(s / sqrt(d), causal)   tt_op_softmax: scale and mask
 *   o = p v                tt_op_matmul
 *
 * q, k, v [4 heads, 80 positions, 64] in bfloat16 (80: the last tile of
 * every matrix is padded), default configs. The host computes the same
 * in fp32 from the same bfloat16 inputs, s and p rounded to bfloat16 as
 * the device stores them, and the check is a Pearson correlation of at
 * least 0.99 for p and for o, and p exactly 0 above the diagonal.
 */
#include "example.h"

#define NAME "ops_attention"
#define HEADS 4u
#define SEQ 80u
#define DIM 64u
#define MIN_PCC 0.99

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"Causal self-attention, softmax(q k^T / sqrt(d)) v, %u heads of\n"
		"%u x %u in bfloat16 through tt/ops.h; checked against an fp32\n"
		"host reference (PCC >= %.2f, no weight above the diagonal).\n"
		EX_HELP_COMMON,
		HEADS, SEQ, DIM, MIN_PCC);
}

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

/* The host's attention, head by head: p and o. */
static void host_attention(const float *q, const float *k, const float *v,
			   float *p, float *o)
{
	const float scale = 1.0f / sqrtf((float)DIM);

	for (unsigned h = 0; h < HEADS; h++) {
		const float *qh = q + h * SEQ * DIM, *kh = k + h * SEQ * DIM;
		const float *vh = v + h * SEQ * DIM;
		float *ph = p + h * SEQ * SEQ, *oh = o + h * SEQ * DIM;

		for (unsigned i = 0; i < SEQ; i++) {
			float max = -INFINITY, sum = 0;

			for (unsigned j = 0; j < SEQ; j++) {
				float s = 0;

				for (unsigned d = 0; d < DIM; d++)
					s += qh[i * DIM + d] * kh[j * DIM + d];
				ph[i * SEQ + j] = bf16(s) * scale;
				if (j <= i && ph[i * SEQ + j] > max)
					max = ph[i * SEQ + j];
			}
			for (unsigned j = 0; j < SEQ; j++) {
				float e = j <= i ? expf(ph[i * SEQ + j] - max) : 0;

				ph[i * SEQ + j] = e;
				sum += e;
			}
			for (unsigned j = 0; j < SEQ; j++)
				ph[i * SEQ + j] = bf16(ph[i * SEQ + j] / sum);
		}
		for (unsigned i = 0; i < SEQ; i++)
			for (unsigned d = 0; d < DIM; d++) {
				float s = 0;

				for (unsigned j = 0; j < SEQ; j++)
					s += ph[i * SEQ + j] * vh[j * DIM + d];
				oh[i * DIM + d] = s;
			}
	}
}

int main(int argc, char **argv)
{
	const size_t nq = HEADS * SEQ * DIM, np = HEADS * SEQ * SEQ;
	float *q = ex_xmalloc(nq * sizeof(float));
	float *k = ex_xmalloc(nq * sizeof(float));
	float *v = ex_xmalloc(nq * sizeof(float));
	float *wp = ex_xmalloc(np * sizeof(float));
	float *wo = ex_xmalloc(nq * sizeof(float)), *gp, *go;
	struct tt_matmul_cfg qk = tt_op_matmul_config();
	struct tt_softmax_cfg sm = tt_op_softmax_config();
	tt_device_tensor *dq, *dk, *dv, *ds = NULL, *dp = NULL, *dout = NULL;
	unsigned above = 0;
	double pcc_p, pcc_o;
	tt_ops_ctx *ctx;
	tt_device *dev;
	char detail[160];

	ex_no_args(argc, argv, usage);
	ex_fill_bf16(q, nq, 11);
	ex_fill_bf16(k, nq, 12);
	ex_fill_bf16(v, nq, 13);

	ex_open_device(&dev);
	EX_TRY(tt_ops_ctx_create(dev, &ctx));
	dq = upload(dev, TT_SHAPE(HEADS, SEQ, DIM), q);
	dk = upload(dev, TT_SHAPE(HEADS, SEQ, DIM), k);
	dv = upload(dev, TT_SHAPE(HEADS, SEQ, DIM), v);

	qk.transpose_b = true;
	sm.scale = 1.0f / sqrtf((float)DIM);
	sm.causal = true;
	EX_TRY(tt_op_matmul(ctx, dq, dk, &qk, &ds));
	EX_TRY(tt_op_softmax(ctx, ds, &sm, &dp));
	EX_TRY(tt_op_matmul(ctx, dp, dv, NULL, &dout));
	EX_TRY(tt_ops_finish(ctx));

	host_attention(q, k, v, wp, wo);
	gp = download(dp);
	go = download(dout);
	for (unsigned h = 0; h < HEADS; h++)
		for (unsigned i = 0; i < SEQ; i++)
			for (unsigned j = i + 1; j < SEQ; j++)
				above += gp[(h * SEQ + i) * SEQ + j] != 0;
	pcc_p = ex_pcc(gp, wp, np);
	pcc_o = ex_pcc(go, wo, nq);
	snprintf(detail, sizeof(detail),
		 "PCC probabilities %.5f, output %.5f, %u weights above the diagonal",
		 pcc_p, pcc_o, above);

	tt_device_tensor_free(dq);
	tt_device_tensor_free(dk);
	tt_device_tensor_free(dv);
	tt_device_tensor_free(ds);
	tt_device_tensor_free(dp);
	tt_device_tensor_free(dout);
	tt_ops_ctx_free(ctx);
	tt_device_close(dev);
	free(q);
	free(k);
	free(v);
	free(wp);
	free(wo);
	free(gp);
	free(go);
	return ex_verdict(NAME, pcc_p >= MIN_PCC && pcc_o >= MIN_PCC && !above,
			  detail);
}
