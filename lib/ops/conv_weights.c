// SPDX-License-Identifier: Apache-2.0
/*
 * conv2d's host side of its operands: the weight matrices made from
 * PyTorch's weight arrays (taps x padded input channels by output
 * channels, groups expanded block-diagonal), and the NCHW <-> rows
 * conversions of host arrays (docs/ops.md, "Convolution and pooling").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"

void tt_conv_nchw_to_rows(const float *nchw, uint32_t n, uint32_t c,
			  uint32_t h, uint32_t w, float *rows)
{
	if (!nchw || !rows) {
		tt_error(-EINVAL, "tt_conv_nchw_to_rows: %s is NULL", !nchw ? "nchw" : "rows");
		return;
	}
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = 0; k < c; k++)
			for (uint32_t y = 0; y < h; y++)
				for (uint32_t x = 0; x < w; x++)
					rows[(((size_t)b * h + y) * w + x) * c + k] =
						nchw[(((size_t)b * c + k) * h + y) * w + x];
}

void tt_conv_rows_to_nchw(const float *rows, uint32_t n, uint32_t c,
			  uint32_t h, uint32_t w, float *nchw)
{
	if (!rows || !nchw) {
		tt_error(-EINVAL, "tt_conv_rows_to_nchw: %s is NULL", !rows ? "rows" : "nchw");
		return;
	}
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = 0; k < c; k++)
			for (uint32_t y = 0; y < h; y++)
				for (uint32_t x = 0; x < w; x++)
					nchw[(((size_t)b * c + k) * h + y) * w + x] =
						rows[(((size_t)b * h + y) * w + x) * c + k];
}

/* Write a [1, 1, rows, cols] matrix of host values to a new device tensor. */
static int matrix_to_device(tt_ops_ctx *ctx, const char *fn, const float *m,
			    uint64_t rows, uint64_t cols,
			    enum tt_data_format fmt, enum tt_ops_mem mem,
			    tt_device_tensor **out)
{
	struct tt_shape s = TT_SHAPE(1, 1, rows, cols);
	enum tt_buffer_type bt = TT_BUFFER_DRAM;
	tt_tensor *t = NULL;
	int ret;

	switch (mem) {
	case TT_OPS_MEM_AUTO:
	case TT_OPS_MEM_DRAM:
		bt = TT_BUFFER_DRAM;
		break;
	case TT_OPS_MEM_L1:
		bt = TT_BUFFER_L1;
		break;
	default:
		return tt_error(-EINVAL, "%s: mem %d is not a placement (0 auto, 1 DRAM, 2 L1)",
				fn, (int)mem);
	}
	if (!tt_ops_format_ok(fmt))
		return tt_error(-ENOTSUP, "%s: fmt %s: the weights are Float32, Float16, Float16_b, Bfp8_b or Bfp4_b",
				fn, tt_data_format_name(fmt));
	ret = tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t);
	if (ret)
		return ret;
	memcpy(tt_tensor_data(t), m, rows * cols * sizeof(float));
	ret = tt_device_tensor_create(ctx->dev, &s, fmt, bt, out);
	if (!ret) {
		ret = tt_device_tensor_write(*out, ctx->cq, t);
		if (ret) {
			tt_device_tensor_free(*out);
			*out = NULL;
		}
	}
	tt_tensor_free(t);
	return ret;
}

/* The checks of a weight shape; 0 or -errno naming fn. */
static int check_weights(const char *fn, uint32_t cin, uint32_t cout,
			 uint32_t kh, uint32_t kw, uint32_t groups)
{
	uint64_t rows = (uint64_t)kh * kw * ((cin + 31u) / 32u * 32u);

	if (!cin || !cout || !kh || !kw || !groups)
		return tt_error(-EINVAL, "%s: cin %u, cout %u, kernel %ux%u, groups %u: each must be at least 1",
				fn, cin, cout, kh, kw, groups);
	if (cin % groups || cout % groups)
		return tt_error(-EINVAL, "%s: groups %u does not divide cin %u and cout %u",
				fn, groups, cin, cout);
	if (rows * cout > (1ull << 28))
		return tt_error(-E2BIG, "%s: %llu x %u weights; at most 2^28 values",
				fn, (unsigned long long)rows, cout);
	return 0;
}

/* m[rows x cout] (zeroed) from w: row (tap, input channel), groups
 * block-diagonal. */
static void fill_weights(const float *w, uint32_t cin, uint32_t cout,
			 uint32_t kh, uint32_t kw, uint32_t groups, bool tr,
			 float *m)
{
	const uint32_t cig = cin / groups, cog = cout / groups;
	const uint64_t cp = (cin + 31u) / 32u * 32u;

	for (uint32_t ci = 0; ci < cin; ci++) {
		const uint32_t g = ci / cig;

		for (uint32_t j = 0; j < cog; j++) {
			const uint32_t co = g * cog + j;

			for (uint32_t y = 0; y < kh; y++)
				for (uint32_t x = 0; x < kw; x++) {
					/* conv: w[co][ci % cig][y][x];
					 * transposed: w[ci][j][y][x] */
					size_t src = tr ?
						(((size_t)ci * cog + j) * kh + y) * kw + x :
						(((size_t)co * cig + ci % cig) * kh + y) * kw + x;
					uint64_t row = ((uint64_t)y * kw + x) * cp + ci;

					m[row * cout + co] = w[src];
				}
		}
	}
}

int tt_conv2d_weights_host(const float *w, uint32_t cout, uint32_t cin,
			   uint32_t kh, uint32_t kw, uint32_t groups,
			   bool transposed, float *m, size_t n)
{
	static const char fn[] = "tt_conv2d_weights_host";
	uint64_t rows = (uint64_t)kh * kw * ((cin + 31u) / 32u * 32u);
	int ret;

	if (!w || !m)
		return tt_error(-EINVAL, "%s: %s is NULL", fn, !w ? "w" : "m");
	ret = check_weights(fn, cin, cout, kh, kw, groups);
	if (ret)
		return ret;
	if (n != rows * cout)
		return tt_error(-EINVAL, "%s: m has %zu values, the matrix %llu x %u",
				fn, n, (unsigned long long)rows, cout);
	memset(m, 0, n * sizeof(float));
	fill_weights(w, cin, cout, kh, kw, groups, transposed, m);
	return 0;
}

static int weights(tt_ops_ctx *ctx, const char *fn, const float *w,
		   uint32_t cin, uint32_t cout, uint32_t kh, uint32_t kw,
		   uint32_t groups, bool tr, enum tt_data_format fmt,
		   enum tt_ops_mem mem, tt_device_tensor **out)
{
	uint64_t rows;
	float *m;
	int ret;

	if (!ctx || !w || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				!ctx ? "ctx" : !w ? "w" : "out");
	*out = NULL;
	ret = check_weights(fn, cin, cout, kh, kw, groups);
	if (ret)
		return ret;
	rows = (uint64_t)kh * kw * ((cin + 31u) / 32u * 32u);
	m = calloc(rows * cout, sizeof(float));
	if (!m)
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	fill_weights(w, cin, cout, kh, kw, groups, tr, m);
	ret = matrix_to_device(ctx, fn, m, rows, cout, fmt, mem, out);
	free(m);
	return ret;
}

int tt_conv2d_weights_create(tt_ops_ctx *ctx, const float *w, uint32_t cout,
			     uint32_t cin, uint32_t kh, uint32_t kw,
			     uint32_t groups, enum tt_data_format fmt,
			     enum tt_ops_mem mem, tt_device_tensor **out)
{
	return weights(ctx, "tt_conv2d_weights_create", w, cin, cout, kh, kw,
		       groups, false, fmt, mem, out);
}

int tt_conv_transpose2d_weights_create(tt_ops_ctx *ctx, const float *w,
				       uint32_t cin, uint32_t cout, uint32_t kh,
				       uint32_t kw, uint32_t groups,
				       enum tt_data_format fmt,
				       enum tt_ops_mem mem,
				       tt_device_tensor **out)
{
	return weights(ctx, "tt_conv_transpose2d_weights_create", w, cin, cout,
		       kh, kw, groups, true, fmt, mem, out);
}
