/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NumPy .npy headers (internal): the preamble (magic, version, header
 * length) and the header's dictionary, a Python literal of a small fixed
 * grammar:
 *
 *   dict  := '{' [item (',' item)* [',']] '}'
 *   item  := str ':' value
 *   value := str | 'True' | 'False' | tuple
 *   tuple := '(' ')' | '(' int ',' ')' | '(' int (',' int)+ [','] ')'
 *   str   := "'" chars "'" | '"' chars '"'     (no escapes)
 *   int   := digits ['L']                      (Python 2's long suffix)
 *
 * with spaces, tabs and newlines anywhere between tokens. The keys are
 * exactly 'descr' (a str), 'fortran_order' (True or False) and 'shape'
 * (a tuple), each once. Every byte must be ASCII (version 3.0 allows
 * UTF-8, which only field names of structured dtypes need). Errors are
 * -EBADMSG (malformed), -ENOTSUP (valid, but not representable here),
 * -EOVERFLOW, with a message in err (no file name: the caller adds it).
 */
#ifndef TT_LIB_TENSOR_NPY_H
#define TT_LIB_TENSOR_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/device/internal.h"
#include "tt/tensor.h"

#define TT_NPY_MAGIC "\x93NUMPY"
#define TT_NPY_MAGIC_LEN 6
/* Magic, version and a 4-byte length: what tt_npy_preamble may need. */
#define TT_NPY_PREAMBLE_MAX 12
/* NumPy itself refuses headers over 10000 bytes unless told otherwise;
 * a rank-4 shape never needs more than a few hundred. */
#define TT_NPY_HEADER_MAX 65536u
#define TT_NPY_ERR_LEN 256

struct tt_npy_header {
	unsigned major, minor;
	size_t data_offset; /* preamble + header length */
	char descr[16];
	bool fortran_order;
	unsigned rank; /* as in the file (dims holds the first 4) */
	uint64_t dims[TT_TENSOR_MAX_RANK];
};

/*
 * Read the preamble from the first len bytes of the file (len may be
 * less than TT_NPY_PREAMBLE_MAX for a short file) whose size is
 * file_size: fills major, minor and data_offset, checking the header
 * fits in the file.
 */
TT_HIDDEN int tt_npy_preamble(const uint8_t *buf, size_t len,
			      uint64_t file_size, struct tt_npy_header *h,
			      char *err, size_t err_len);

/* Parse the header dictionary (the hlen bytes after the preamble). */
TT_HIDDEN int tt_npy_parse_dict(const char *dict, size_t hlen,
				struct tt_npy_header *h, char *err,
				size_t err_len);

/* Write a version 1.0 preamble and header for descr and shape into buf
 * (at least TT_NPY_WRITE_MAX bytes); returns its length, a multiple of
 * 64. */
#define TT_NPY_WRITE_MAX 256
TT_HIDDEN size_t tt_npy_format_header(char *buf, const char *descr,
				      const struct tt_shape *shape);

#endif /* TT_LIB_TENSOR_NPY_H */
