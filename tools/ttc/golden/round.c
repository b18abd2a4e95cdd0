// SPDX-License-Identifier: Apache-2.0
/*
 * "As the device rounds": values through a device data format and back,
 * by libtt's one data-format module (tt/dataformat.h). Block formats
 * share an exponent per 16 values of a tile's face row, so they round by
 * 32x32 tiles of the last two dimensions, as the device stores them.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

/* Rows x cols of the matrices the tensor is tiled as: the last dimension
 * is cols, the one before it rows, the rest count matrices (folded into
 * rows: tiles never straddle matrices only if rows % 32 == 0, so each
 * matrix is rounded on its own). */
static int round_matrices(float *v, size_t nmat, size_t rows, size_t cols,
			  enum tt_data_format fmt)
{
	size_t bytes;
	int rc = tt_tiled_size(fmt, rows, cols, &bytes);

	if (rc)
		return rc;
	void *tiles = malloc(bytes);

	if (!tiles)
		return -ENOMEM;
	for (size_t m = 0; m < nmat && !rc; m++) {
		float *x = v + m * rows * cols;
		size_t len = rows * cols * sizeof(float);

		rc = tt_tilize_convert(fmt, tiles, bytes, TT_FLOAT32, x, len,
				       rows, cols);
		if (!rc)
			rc = tt_untilize_convert(TT_FLOAT32, x, len, fmt, tiles,
						 bytes, rows, cols);
	}
	free(tiles);
	return rc;
}

static int round_values(float *v, size_t n, const ttc_type *t,
			enum tt_data_format fmt)
{
	switch (fmt) {
	case TT_FLOAT16_B:
		for (size_t i = 0; i < n; i++)
			v[i] = tt_bf16_to_float(tt_float_to_bf16(v[i]));
		return 0;
	case TT_FLOAT16:
		for (size_t i = 0; i < n; i++)
			v[i] = tt_f16_to_float(tt_float_to_f16(v[i]));
		return 0;
	case TT_BFP8_B:
	case TT_BFP4_B: {
		unsigned r = t->rank;
		size_t cols = r ? (size_t)t->dims[r - 1] : 1;
		size_t rows = r > 1 ? (size_t)t->dims[r - 2] : 1;

		if (!n)
			return 0;
		return round_matrices(v, n / (rows * cols), rows, cols, fmt);
	}
	default:
		return -ENOTSUP;
	}
}

int ttc_tensor_round(ttc_ctx *ctx, ttc_tensor *t, enum tt_data_format fmt)
{
	if (fmt == TT_FLOAT32 || t->type->elem->kind != TTC_TYPE_FLOAT)
		return 0;
	float *v = malloc((t->numel ? t->numel : 1) * sizeof(float));
	int rc;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < t->numel; i++)
		v[i] = (float)ttc_tensor_get(t, i);
	rc = round_values(v, t->numel, t->type, fmt);
	for (size_t i = 0; !rc && i < t->numel; i++)
		ttc_tensor_set(t, i, v[i]);
	free(v);
	if (rc && ctx)
		ttc_diag_addf(ctx, "cannot round to data format %s: "
				   "goldens round through Float32, Float16, "
				   "Float16_b, Bfp8_b and Bfp4_b",
			      tt_data_format_name(fmt));
	return rc;
}
