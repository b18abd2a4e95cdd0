/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host tensors (internal side of tt/tensor.h), shared by tensor.c
 * (objects, shapes, views), tensor_convert.c (formats and layouts),
 * tensor_npy*.c (.npy files) and tensor_device.c (device tensors).
 */
#ifndef TT_LIB_TENSOR_INTERNAL_H
#define TT_LIB_TENSOR_INTERNAL_H

#include "lib/device/internal.h"
#include "tt/tensor.h"

/* A shape checked and in [w, z, r, c] form, with its sizes. */
struct tt_tgeom {
	uint64_t w, z, r, c;
	size_t mats;   /* w * z matrices of r x c */
	size_t volume; /* elements */
	size_t tiles;  /* of the tiled form: mats * tiles per matrix */
};

struct tt_tensor {
	unsigned refs; /* atomic */
	struct tt_shape shape;
	struct tt_tgeom g;
	enum tt_data_format fmt;
	enum tt_tensor_layout layout;
	uint8_t *data;
	size_t size;
	/* Who owns data: a view's parent (referenced), or the caller of
	 * tt_tensor_wrap (released), or else the tensor (freed). */
	struct tt_tensor *parent;
	bool wrapped;
	void (*release)(void *ctx);
	void *ctx;
};

/* "[2,0,32,32]" into buf (len >= 100 always holds any shape). */
TT_HIDDEN const char *tt_shape_str(const struct tt_shape *s, char *buf,
				   size_t len);

/* "tensor [1,1,33,65] Float16_b tiled" into buf. */
TT_HIDDEN const char *tt_tensor_describe(const struct tt_tensor *t, char *buf,
					 size_t len);

#define TT_DESC_LEN 160

/* Check shape and fill *g; the message starts with `what`. */
TT_HIDDEN int tt_tgeom_init(struct tt_tgeom *g, const struct tt_shape *shape,
			    const char *what);

/* Check fmt and layout for tensors; the message starts with `what`. */
TT_HIDDEN int tt_tensor_check_format(enum tt_data_format fmt,
				     enum tt_tensor_layout layout,
				     const char *what);

/* Storage bytes of g in fmt and layout (both already checked). */
TT_HIDDEN int tt_tgeom_bytes(const struct tt_tgeom *g, enum tt_data_format fmt,
			     enum tt_tensor_layout layout, size_t *bytes,
			     const char *what);

/* Do two geometries hold the same [w, z, r, c]? */
TT_HIDDEN bool tt_tgeom_same(const struct tt_tgeom *a,
			     const struct tt_tgeom *b);

/*
 * Convert the elements of geometry g from (from, lfrom) at src to (to,
 * lto) at dst; both lengths already checked to be the storage sizes.
 * Returns 0 or the converter's negative errno (no message set).
 */
TT_HIDDEN int tt_tensor_convert_raw(const struct tt_tgeom *g,
				    enum tt_data_format to,
				    enum tt_tensor_layout lto, void *dst,
				    size_t dst_len, enum tt_data_format from,
				    enum tt_tensor_layout lfrom,
				    const void *src, size_t src_len);

#endif /* TT_LIB_TENSOR_INTERNAL_H */
