/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NumPy .npy headers (internal constants; the functions are tt/npy.h's):
 * the preamble (magic, version, header
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
#include "tt/npy.h"
#include "tt/tensor.h"

#define TT_NPY_MAGIC "\x93NUMPY"
#define TT_NPY_MAGIC_LEN 6
/* NumPy itself refuses headers over 10000 bytes unless told otherwise;
 * a rank-8 shape never needs more than a few hundred. */
#define TT_NPY_HEADER_MAX 65536u
#define TT_NPY_ERR_LEN 256

/* The header functions (tensor_npy_header.c) are public: tt/npy.h. */

#endif /* TT_LIB_TENSOR_NPY_H */
