/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): conv2d, conv_transpose2d, pools, upsample.
 *
 * Activations on the device are NHWC flattened to a matrix, as ttnn has
 * them: x is [1, 1, N*H*W, C] (or [N*H*W, C]) in tile layout, one row per
 * pixel (n, h, w) in that order, one column per channel; N, H and W are
 * given in the parameters. Outputs have the same form, [1, 1, N*OH*OW,
 * C']. tt_conv_nchw_to_rows / tt_conv_rows_to_nchw convert PyTorch's
 * NCHW host arrays. Weights are made once on the device from PyTorch's
 * [Cout, Cin/groups, KH, KW] (conv_transpose2d: [Cin, Cout/groups, KH,
 * KW]) by tt_conv2d_weights_create / tt_conv_transpose2d_weights_create
 * (docs/ops.md, "Convolution and pooling").
 */
#ifndef TT_OPS_CONV_H
#define TT_OPS_CONV_H

#include "../ops.h"

/* Convolution parameters. */
struct tt_conv2d_params {
	uint32_t batch, in_h, in_w;  /* x's N, H, W */
	uint32_t kernel_h, kernel_w; /* KH, KW */
	uint32_t stride_h, stride_w; /* >= 1 */
	/* Zeros added: top, bottom, left, right. */
	uint32_t pad_top, pad_bottom, pad_left, pad_right;
	uint32_t dilation_h, dilation_w; /* >= 1 */
	uint32_t groups;                 /* >= 1, divides Cin and Cout */
	/* conv_transpose2d only: added to the output's bottom and right. */
	uint32_t out_pad_h, out_pad_w;
};

/* Parameters with stride, dilation and groups 1, no padding. */
TT_API struct tt_conv2d_params tt_conv2d_params_default(void);

/* The output's OH, OW of conv2d (transposed: of conv_transpose2d);
 * -EINVAL naming the dimension when it would be below 1. */
TT_API int tt_conv2d_out_hw(const struct tt_conv2d_params *p, bool transposed,
			    uint32_t *oh, uint32_t *ow);

/*
 * Config of conv2d and conv_transpose2d: an on-device im2col into
 * matmul_block_k. The output matrix [N*OH*OW, Cout] is cut in blocks of
 * block_rows x block_cols tiles, split over the grid's cores; K (KH*KW
 * taps x the input channels padded to 32) is consumed block_k tiles at a
 * time.
 */
struct tt_conv2d_cfg {
	struct tt_xy grid;     /* {0, 0}: the device's whole logical grid */
	uint32_t block_rows;   /* output pixel tiles (32 pixels) per block; 0 auto */
	uint32_t block_cols;   /* output channel tiles per block; 0 auto */
	uint32_t block_k;      /* K tiles per reader transfer (1..255); 0 auto */
	enum tt_ops_mem out_mem; /* auto: where x lives */
	/* Output format (auto: x's). Float32, Float16, Float16_b, Bfp8_b,
	 * Bfp4_b. */
	enum tt_data_format out_format;
	enum tt_math_fidelity math_fidelity; /* auto: HiFi4 */
	/* 32-bit DST (auto: on when x, w or the output is Float32). */
	enum tt_ops_switch fp32_acc;
	struct tt_unary_fn activation; /* applied to conv + bias */
};

TT_API struct tt_conv2d_cfg tt_op_conv2d_config(void);

/*
 * Weights for tt_op_conv2d, from PyTorch's host array w [cout, cin /
 * groups, kh, kw]: a device tensor [1, 1, kh*kw*ceil(cin/32)*32, cout] in
 * fmt (Float32, Float16, Float16_b, Bfp8_b, Bfp4_b) and mem, row (tap,
 * input channel), groups expanded to a block-diagonal matrix (zeros).
 * Blocking write through ctx's queue.
 */
TT_API int tt_conv2d_weights_create(tt_ops_ctx *ctx, const float *w,
				    uint32_t cout, uint32_t cin, uint32_t kh,
				    uint32_t kw, uint32_t groups,
				    enum tt_data_format fmt,
				    enum tt_ops_mem mem, tt_device_tensor **out);

/* The same for tt_op_conv_transpose2d, from w [cin, cout / groups, kh,
 * kw]. */
TT_API int tt_conv_transpose2d_weights_create(tt_ops_ctx *ctx, const float *w,
					      uint32_t cin, uint32_t cout,
					      uint32_t kh, uint32_t kw,
					      uint32_t groups,
					      enum tt_data_format fmt,
					      enum tt_ops_mem mem,
					      tt_device_tensor **out);

/*
 * The matrix tt_conv2d_weights_create (transposed: the transpose2d one)
 * writes, on the host: m[rows x cout] with rows = kh*kw*ceil(cin/32)*32,
 * n = rows * cout values, zeros where no weight goes. For a compiler
 * that stores weights as the device takes them.
 */
TT_API int tt_conv2d_weights_host(const float *w, uint32_t cout, uint32_t cin,
				  uint32_t kh, uint32_t kw, uint32_t groups,
				  bool transposed, float *m, size_t n);

/*
 * out [1, 1, N*OH*OW, Cout] = act(conv2d(x, w) + bias). x [1, 1, N*H*W,
 * Cin]; w from tt_conv2d_weights_create; bias [Cout] or NULL.
 */
TT_API int tt_op_conv2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
			const tt_device_tensor *w, const tt_device_tensor *bias,
			const struct tt_conv2d_params *p,
			const struct tt_conv2d_cfg *cfg, tt_device_tensor **out);

/* PyTorch's conv_transpose2d (pad_top/pad_left as its padding, the
 * bottom and right too, out_pad_* its output_padding); w from
 * tt_conv_transpose2d_weights_create. */
TT_API int tt_op_conv_transpose2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
				  const tt_device_tensor *w,
				  const tt_device_tensor *bias,
				  const struct tt_conv2d_params *p,
				  const struct tt_conv2d_cfg *cfg,
				  tt_device_tensor **out);

/* Pool parameters (padding: -inf for max, 0 for avg). */
struct tt_pool2d_params {
	uint32_t batch, in_h, in_w;
	uint32_t kernel_h, kernel_w;
	uint32_t stride_h, stride_w;
	uint32_t pad_top, pad_bottom, pad_left, pad_right;
	uint32_t dilation_h, dilation_w; /* max only; 1 for avg */
	bool ceil_mode;
	bool count_include_pad; /* avg */
};

/* Kernel 1x1, stride 1 (set kernel and stride: PyTorch's default stride
 * is the kernel), dilation 1, no padding. */
TT_API struct tt_pool2d_params tt_pool2d_params_default(void);

/* The output's OH, OW (PyTorch's rule, ceil_mode included). */
TT_API int tt_pool2d_out_hw(const struct tt_pool2d_params *p, uint32_t *oh,
			    uint32_t *ow);

/* Config of the pools and upsample: output tiles split over the grid. */
struct tt_pool_cfg {
	struct tt_xy grid;       /* {0, 0}: the whole logical grid */
	uint32_t tiles_per_core; /* at most this many output tiles per core; 0 auto */
	enum tt_ops_mem out_mem;
	enum tt_data_format out_format;
	enum tt_ops_switch fp32_acc; /* auto: on for avg and Float32 */
};

TT_API struct tt_pool_cfg tt_op_pool_config(void);

TT_API int tt_op_max_pool2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
			    const struct tt_pool2d_params *p,
			    const struct tt_pool_cfg *cfg,
			    tt_device_tensor **out);
TT_API int tt_op_avg_pool2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
			    const struct tt_pool2d_params *p,
			    const struct tt_pool_cfg *cfg,
			    tt_device_tensor **out);
/* out [1, 1, N, C]: the mean of each image's H*W pixels. */
TT_API int tt_op_global_avg_pool2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
				   uint32_t batch, uint32_t in_h, uint32_t in_w,
				   const struct tt_pool_cfg *cfg,
				   tt_device_tensor **out);
/* out [1, 1, N*H*scale_h*W*scale_w, C]: nearest neighbour. */
TT_API int tt_op_upsample_nearest(tt_ops_ctx *ctx, const tt_device_tensor *x,
				  uint32_t batch, uint32_t in_h, uint32_t in_w,
				  uint32_t scale_h, uint32_t scale_w,
				  const struct tt_pool_cfg *cfg,
				  tt_device_tensor **out);

/* Host conversions: NCHW float array <-> the rows [N*H*W, C]. */
TT_API void tt_conv_nchw_to_rows(const float *nchw, uint32_t n, uint32_t c,
				 uint32_t h, uint32_t w, float *rows);
TT_API void tt_conv_rows_to_nchw(const float *rows, uint32_t n, uint32_t c,
				 uint32_t h, uint32_t w, float *nchw);

#endif /* TT_OPS_CONV_H */
