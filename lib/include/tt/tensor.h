/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tensors: host tensors (shape, data format, layout, conversion, .npy
 * files) and device tensors (a tensor's tiles in a device buffer).
 * docs/tensors.md has the whole story; in short:
 *
 * Shape. Rank 1 to 4, PyBuda's [w, z, r, c] convention: c is the last
 * (fastest varying) dimension, r the one before it; a tensor of lower
 * rank fills the dimensions from the right, the missing outer ones being
 * 1 ([c] is [1, 1, 1, c]; [r, c] is [1, 1, r, c]; [z, r, c] is
 * [1, z, r, c]). Every dimension is at least 1. dims[0] is the outermost
 * dimension the caller gave; the rank is kept (a [64, 64] tensor stays
 * rank 2), but two shapes with the same [w, z, r, c] hold the same
 * elements in the same order and are interchangeable wherever shapes are
 * compared.
 *
 * Layout. Row-major: the elements in C order. Tiled: each of the w * z
 * matrices of r x c elements, in order, is tilized as tt_tilize makes
 * it (tt/dataformat.h: 32x32 tiles of four 16x16 faces, tiles row-major),
 * with r and c padded up to multiples of 32 with zeros. The tensor keeps
 * its logical shape; only its storage is padded. Block floating-point
 * formats (Bfp8_b, Bfp4_b, Bfp2_b) exist only tiled.
 *
 * Formats: every enum tt_data_format the converter supports (Float32,
 * Float16, Float16_b, Bfp8_b, Bfp4_b, Bfp2_b, Int32, UInt32, UInt16,
 * Int8, UInt8); Bfp8, Bfp4 and Bfp2 (without "_b") are -ENOTSUP.
 * Conversions are those of tt_convert/tt_tilize_convert (round to
 * nearest even, integers saturate).
 *
 * Ownership. A host tensor is reference counted: the creating call gives
 * the caller one reference, tt_tensor_ref adds one, tt_tensor_free drops
 * one, and the last one frees the tensor. A view (slice, reshape) shares
 * its parent's storage and holds a reference to it. A tensor made by
 * tt_tensor_wrap uses the caller's memory, which must stay valid until
 * the last reference is dropped; then its release callback (if any) is
 * called. Every other tensor owns its storage. Data is not locked:
 * reading one tensor from several threads is safe, writing it while
 * another thread uses it is not; references may be taken and dropped
 * from any thread.
 *
 * Errors: 0 or a negative errno; tt_last_error() names the tensor (shape,
 * format, layout), file or value at fault, e.g. "tensor shape
 * [2,0,32,32]: dimension 1 is 0". -EINVAL bad argument (shape, layout,
 * format where none can be, lengths that do not match), -ENOTSUP a
 * format the converter does not handle, -EOVERFLOW sizes that do not fit
 * size_t, -ENOMEM out of memory. NULL for a required pointer is -EINVAL.
 */
#ifndef TT_TENSOR_H
#define TT_TENSOR_H

#include "buffer.h"
#include "common.h"
#include "dataformat.h"
#include "queue.h"

#define TT_TENSOR_MAX_RANK 4

typedef struct tt_tensor tt_tensor;
typedef struct tt_device_tensor tt_device_tensor;

enum tt_tensor_layout {
	TT_TENSOR_ROW_MAJOR = 0,
	TT_TENSOR_TILED = 1,
};

/* A shape: dims[0 .. rank - 1], outermost first (see above). */
struct tt_shape {
	unsigned rank;
	uint64_t dims[TT_TENSOR_MAX_RANK];
};

/* TT_SHAPE(2, 33, 65) is the rank-3 shape [2, 33, 65]. */
#define TT_SHAPE(...)                                                          \
	((struct tt_shape){TT_SHAPE_NARGS_(__VA_ARGS__, 4, 3, 2, 1, 0),        \
			   {__VA_ARGS__}})
#define TT_SHAPE_NARGS_(a, b, c, d, n, ...) n

/* ---- shapes ---- */

/* The shape as [w, z, r, c] in wzrc; -EINVAL (with a message naming the
 * bad dimension) for a rank outside 1..4 or a dimension of 0. */
TT_API int tt_shape_wzrc(const struct tt_shape *shape, uint64_t wzrc[4]);

/* Number of elements; -EINVAL as above, -EOVERFLOW past size_t. */
TT_API int tt_shape_volume(const struct tt_shape *shape, size_t *volume);

/* Bytes a tensor of this shape, format and layout stores (tiled: padded
 * to whole tiles). -EINVAL (also for a block format row-major),
 * -ENOTSUP, -EOVERFLOW. */
TT_API int tt_tensor_storage_size(const struct tt_shape *shape,
				  enum tt_data_format fmt,
				  enum tt_tensor_layout layout, size_t *bytes);

/* Tiles of the shape tiled: w * z * ceil(r / 32) * ceil(c / 32). */
TT_API int tt_shape_tiles(const struct tt_shape *shape, uint64_t *tiles);

/* Name of a layout: "row-major", "tiled", or "invalid". */
TT_API const char *tt_tensor_layout_name(enum tt_tensor_layout layout);

/* ---- host tensors: creation and lifetime ---- */

/* A new tensor, its storage zeroed (in every format, zero bytes are the
 * value 0). */
TT_API int tt_tensor_create(const struct tt_shape *shape,
			    enum tt_data_format fmt,
			    enum tt_tensor_layout layout, tt_tensor **out);

/* A new tensor holding a copy of src, which is laid out as fmt and layout
 * say; len must be tt_tensor_storage_size exactly. */
TT_API int tt_tensor_from_data(const struct tt_shape *shape,
			       enum tt_data_format fmt,
			       enum tt_tensor_layout layout, const void *src,
			       size_t len, tt_tensor **out);

/*
 * A tensor over the caller's memory (no copy): data (len bytes, exactly
 * the storage size) must stay valid until the last reference is dropped,
 * which calls release(ctx) if release is not NULL. On failure release is
 * not called.
 */
TT_API int tt_tensor_wrap(const struct tt_shape *shape, enum tt_data_format fmt,
			  enum tt_tensor_layout layout, void *data, size_t len,
			  void (*release)(void *ctx), void *ctx,
			  tt_tensor **out);

/* Take one more reference; returns t. */
TT_API tt_tensor *tt_tensor_ref(tt_tensor *t);

/* Drop one reference (the last frees). NULL is ignored. */
TT_API void tt_tensor_free(tt_tensor *t);

/* ---- queries ---- */

/* The shape as created (owned by the tensor). */
TT_API const struct tt_shape *tt_tensor_shape(const tt_tensor *t);
TT_API enum tt_data_format tt_tensor_format(const tt_tensor *t);
TT_API enum tt_tensor_layout tt_tensor_layout(const tt_tensor *t);
/* The storage (tt_tensor_size bytes), writable. */
TT_API void *tt_tensor_data(const tt_tensor *t);
/* Bytes of storage. */
TT_API size_t tt_tensor_size(const tt_tensor *t);
/* Logical elements (the product of the dimensions). */
TT_API size_t tt_tensor_volume(const tt_tensor *t);

/* ---- conversion ---- */

/*
 * Copy src's elements into dst, converting format and layout: their
 * shapes must have the same [w, z, r, c]. Tilizing pads with zeros,
 * untilizing drops the padding. dst and src must not share storage
 * (-EINVAL). Nothing is written on failure.
 */
TT_API int tt_tensor_copy(tt_tensor *dst, const tt_tensor *src);

/* A new tensor: t's elements in fmt and layout. */
TT_API int tt_tensor_to(const tt_tensor *t, enum tt_data_format fmt,
			enum tt_tensor_layout layout, tt_tensor **out);

/* Write t's elements into dst (len bytes, exactly the storage size of t's
 * shape in fmt and layout) in fmt and layout. */
TT_API int tt_tensor_export(const tt_tensor *t, enum tt_data_format fmt,
			    enum tt_tensor_layout layout, void *dst,
			    size_t len);

/* Replace t's elements with those at src (len bytes laid out as fmt and
 * layout with t's shape), converting to t's format and layout. */
TT_API int tt_tensor_import(tt_tensor *t, enum tt_data_format fmt,
			    enum tt_tensor_layout layout, const void *src,
			    size_t len);

/* ---- views (share the parent's storage, hold a reference to it) ---- */

/*
 * Elements start .. start + count - 1 of the outermost dimension
 * (dims[0]); the view has t's rank with dims[0] = count. Row-major
 * tensors slice on any rank. Tiled tensors slice on rank 3 and 4 (whole
 * matrices) and on rank 2 in whole tile rows (start a multiple of 32,
 * count a multiple of 32 or reaching the end); a tiled rank-1 tensor
 * cannot be sliced.
 */
TT_API int tt_tensor_slice(tt_tensor *t, uint64_t start, uint64_t count,
			   tt_tensor **out);

/* The same storage seen with another shape: the same volume for a
 * row-major tensor; the same r and c and the same w * z for a tiled one. */
TT_API int tt_tensor_reshape(tt_tensor *t, const struct tt_shape *shape,
			     tt_tensor **out);

/* ---- .npy files (NumPy's format, versions 1.0, 2.0 and 3.0) ----
 *
 * dtype <-> format: '<f4' Float32, '<f2' Float16, '<i4' Int32, '<u4'
 * UInt32, '<u2' UInt16, '|u1' UInt8, '|i1' Int8; either byte order on
 * read ('>', '<', '|', '='), little-endian on write. NumPy has no
 * bfloat16 or block format: Float16_b and Bfp*_b tensors are written as
 * '<f4' (every value exactly), and read back as Float32. Arrays with
 * fortran_order True are read (transposed into C order). Shapes of rank
 * 1..4 with no zero dimension. A tensor is written row-major in its
 * logical shape, whatever its layout; files are read into a row-major
 * tensor. Malformed files are -EBADMSG, well-formed files this library
 * cannot represent (other dtypes, rank 0 or > 4, empty arrays) -ENOTSUP,
 * sizes past size_t -EOVERFLOW; the message names the file and the fault.
 */

TT_API int tt_tensor_load_npy(const char *path, tt_tensor **out);

/* The same from a .npy image in memory (named "npy data" in messages). */
TT_API int tt_tensor_read_npy(const void *buf, size_t len, tt_tensor **out);

/* Write t to path (created or truncated; mode 0666 before umask). */
TT_API int tt_tensor_save_npy(const tt_tensor *t, const char *path);

/* ---- device tensors ----
 *
 * A device tensor is a shape and a format placed in a device buffer in
 * tile layout: tile k of the tensor (tiles in [w, z] matrix order, each
 * matrix's tiles row-major, as a tiled host tensor stores them) is page
 * first_tile + k of the buffer, whose page size must be the format's
 * tile size. It holds a reference to its buffer. Transfers take a
 * command queue of the buffer's device, which orders them with its
 * programs (blocking), or NULL for direct I/O (tt_write_to_buffer's
 * path, for when no program runs).
 */

/* An interleaved DRAM or L1 buffer of exactly the tensor's tiles, page
 * size tt_tile_size(fmt), and the tensor on it (first_tile 0). */
TT_API int tt_device_tensor_create(tt_device *dev, const struct tt_shape *shape,
				   enum tt_data_format fmt,
				   enum tt_buffer_type type,
				   tt_device_tensor **out);

/* A tensor on pages first_tile .. first_tile + tiles - 1 of buf (any
 * buffer whose page size is the format's tile size). */
TT_API int tt_device_tensor_on_buffer(tt_buffer *buf, uint64_t first_tile,
				      const struct tt_shape *shape,
				      enum tt_data_format fmt,
				      tt_device_tensor **out);

/*
 * A view of dt's tiles first_tile .. (relative to dt) with its own shape
 * (NULL: [n, 32, 32] for the n = the rest of dt's tiles), in dt's format;
 * it must lie inside dt. A view is an independent object on the same
 * buffer: freeing dt does not invalidate it. [n, 32, 32] views n tiles
 * one by one.
 */
TT_API int tt_device_tensor_view(const tt_device_tensor *dt,
				 uint64_t first_tile,
				 const struct tt_shape *shape,
				 tt_device_tensor **out);

/* Drop the tensor (and its buffer reference). NULL is ignored. */
TT_API void tt_device_tensor_free(tt_device_tensor *dt);

TT_API tt_buffer *tt_device_tensor_buffer(const tt_device_tensor *dt);
TT_API const struct tt_shape *
tt_device_tensor_shape(const tt_device_tensor *dt);
TT_API enum tt_data_format tt_device_tensor_format(const tt_device_tensor *dt);
/* The first page of the buffer it occupies, and how many. */
TT_API uint64_t tt_device_tensor_first_tile(const tt_device_tensor *dt);
TT_API uint64_t tt_device_tensor_num_tiles(const tt_device_tensor *dt);

/* Write src (same [w, z, r, c], any format and layout) into dt, tilizing
 * and converting as needed. */
TT_API int tt_device_tensor_write(tt_device_tensor *dt, tt_command_queue *cq,
				  const tt_tensor *src);

/* Read dt into dst (same [w, z, r, c], any format and layout), converting
 * and untilizing as needed. */
TT_API int tt_device_tensor_read(const tt_device_tensor *dt,
				 tt_command_queue *cq, tt_tensor *dst);

#endif /* TT_TENSOR_H */
