/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NumPy .npy headers, for readers and writers of arrays that libtt's
 * tensors cannot hold (rank 0 or more than 4, 64-bit or boolean dtypes:
 * libttc's goldens). tt_tensor_load_npy and tt_tensor_save_npy
 * (tt/tensor.h) use the same code.
 *
 * The header is the preamble (magic, version, header length) and a
 * dictionary, a Python literal with exactly the keys 'descr' (a str),
 * 'fortran_order' (True or False) and 'shape' (a tuple), each once, all
 * ASCII. Errors are -EBADMSG (malformed), -ENOTSUP (valid, but not
 * representable here), -EOVERFLOW, with a message in err (without a
 * file name: the caller adds it).
 */
#ifndef TT_NPY_H
#define TT_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tt/common.h"

#define TT_NPY_MAX_RANK 8
/* Magic, version and a 4-byte length: what tt_npy_preamble may need. */
#define TT_NPY_PREAMBLE_MAX 12
/* Room tt_npy_format_header needs: any rank up to TT_NPY_MAX_RANK. */
#define TT_NPY_WRITE_MAX 384

struct tt_npy_header {
	unsigned major, minor;
	size_t data_offset; /* preamble + header length */
	char descr[16];	    /* "<f4" */
	bool fortran_order;
	unsigned rank; /* as in the file; dims holds the first
			  TT_NPY_MAX_RANK */
	uint64_t dims[TT_NPY_MAX_RANK];
};

/*
 * Reads the preamble from the first len bytes of a file (len may be less
 * than TT_NPY_PREAMBLE_MAX for a short file) of file_size bytes: fills
 * major, minor and data_offset, checking the header fits in the file.
 */
TT_API int tt_npy_preamble(const uint8_t *buf, size_t len, uint64_t file_size,
			   struct tt_npy_header *h, char *err, size_t err_len);

/* Parses the header dictionary: the hlen bytes after the preamble. */
TT_API int tt_npy_parse_dict(const char *dict, size_t hlen,
			     struct tt_npy_header *h, char *err,
			     size_t err_len);

/*
 * Writes a version 1.0 preamble and header for descr and a shape of rank
 * (0 to TT_NPY_MAX_RANK) into buf (TT_NPY_WRITE_MAX bytes); returns its
 * length, a multiple of 64 (the data follows, aligned as NumPy aligns
 * it), or 0 for a rank over TT_NPY_MAX_RANK.
 */
TT_API size_t tt_npy_format_header(char *buf, const char *descr,
				   const uint64_t *dims, unsigned rank);

#endif /* TT_NPY_H */
