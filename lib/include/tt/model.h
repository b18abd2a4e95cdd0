/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compiled models: what ttc puts in an image file (docs/image.md) and
 * what libtt runs from it, with no compiler on the host.
 *
 * A model is described by plain structs (struct tt_model_desc): its
 * tensors (inputs, outputs, parameters, constants and activations, each
 * with a device shape, a data format and a place), the memory plan's
 * slots (buffers that activations with disjoint lifetimes share), and its
 * programs, each an ordered list of op records. An op record names an op
 * of the device op library (tt/ops.h) and gives its arguments as named
 * text attributes ("fn" = "gelu", "grid" = "8x8"); docs/image.md lists
 * every op and attribute. The manifest of an image is this description
 * as YAML; tt_model_desc_parse and tt_model_desc_emit are the only
 * reader and writer of it, so ttc and the loader cannot disagree.
 *
 * tt_model_load makes a model on a device: it checks the image's target
 * against the device, serves the image's kernels (tt/kernel_set.h),
 * allocates every tensor and slot, writes parameters and constants, and
 * builds every op's program. tt_model_run then runs a program on host
 * tensors. tt_backend_load wraps the same model as PyBuda's embedded
 * backend (tt/backend.h): one input queue per input, one output queue
 * per output, one backend program per program.
 *
 * Errors: 0 or a negative errno, tt_last_error() naming the image, the
 * tensor, op or attribute and the limit.
 */
#ifndef TT_MODEL_H
#define TT_MODEL_H

#include "backend.h"
#include "common.h"
#include "core.h"
#include "dataformat.h"
#include "device.h"
#include "tensor.h"

/* The manifest's version this libtt reads and writes. */
#define TT_MODEL_MANIFEST_VERSION 1u

/* The image section that holds the manifest. */
#define TT_MODEL_MANIFEST_SECTION "manifest.yaml"

enum tt_model_tensor_kind {
	TT_MODEL_INPUT = 0,  /* pushed by the host */
	TT_MODEL_OUTPUT,     /* produced by an op, read by the host */
	TT_MODEL_PARAM,      /* data in the image, updatable */
	TT_MODEL_CONST,      /* data in the image */
	TT_MODEL_ACT,        /* an intermediate, placed in a slot */
};

struct tt_model_tensor {
	const char *name;
	struct tt_shape shape; /* on the device (rank 1..4) */
	enum tt_data_format format;
	enum tt_model_tensor_kind kind;
	bool l1;    /* L1 interleaved, else DRAM interleaved */
	int slot;   /* ACT: the slot it lives in; else -1 (a buffer of its own) */
	/* PARAM, CONST: the section holding its data, row-major in
	 * data_format (a non-block format), little-endian. */
	const char *section;
	enum tt_data_format data_format;
};

/* A buffer of the memory plan: pages of page_size bytes. */
struct tt_model_slot {
	bool l1;
	uint32_t page_size;
	uint64_t pages;
};

struct tt_model_attr {
	const char *name;
	const char *value;
};

struct tt_model_op {
	const char *name;     /* the source op (its location), for messages */
	const char *op;       /* "linear", "unary", ... (docs/image.md) */
	const unsigned *in;   /* tensor indices; TT_MODEL_NONE: absent */
	unsigned nin;
	unsigned out;         /* tensor index */
	const struct tt_model_attr *attrs;
	unsigned nattrs;
};

#define TT_MODEL_NONE 0xffffffffu
/* Limits of an op record. */
#define TT_MODEL_MAX_OP_INPUTS 16u
#define TT_MODEL_MAX_ATTRS 32u

struct tt_model_program {
	const char *name;
	const struct tt_model_op *ops;
	unsigned nops;
};

struct tt_model_desc {
	uint32_t version;      /* TT_MODEL_MANIFEST_VERSION */
	const char *arch;      /* "wormhole_b0", "blackhole" */
	struct tt_xy grid;     /* the worker grid placement used */
	const struct tt_model_tensor *tensors;
	unsigned ntensors;
	const struct tt_model_slot *slots;
	unsigned nslots;
	const struct tt_model_program *programs;
	unsigned nprograms;
	/* Portable keys of the kernels; each ELF is in the section
	 * tt_model_kernel_section names. */
	const char *const *kernels;
	unsigned nkernels;
	/* How it was compiled (recorded, not used to run). */
	const struct tt_model_attr *options;
	unsigned noptions;
};

/* The image section of a kernel's ELF: "k/" and the first 32 hex digits
 * of its portable key (section names are short; 128 bits tell kernels
 * apart). */
#define TT_MODEL_KERNEL_SECTION_MAX 35
TT_API void tt_model_kernel_section(const char *key,
				    char name[TT_MODEL_KERNEL_SECTION_MAX]);

/* A parsed description: desc points into memory owned by it. */
typedef struct tt_model_manifest tt_model_manifest;

/*
 * Parse and check a manifest (YAML text of len bytes; what names it in
 * messages). Every name, index, shape, format and op record is checked
 * (docs/image.md); nothing is trusted. -EINVAL naming the line and what.
 */
TT_API int tt_model_desc_parse(const char *what, const void *text, size_t len,
			       tt_model_manifest **out);
TT_API const struct tt_model_desc *
tt_model_manifest_desc(const tt_model_manifest *m);
TT_API void tt_model_manifest_free(tt_model_manifest *m);

/* Check a description as the parser does (ttc checks what it wrote). */
TT_API int tt_model_desc_check(const struct tt_model_desc *d);

/* The manifest of d as YAML text in a new malloc'd buffer (*len bytes,
 * NUL-terminated). Checks d first. */
TT_API int tt_model_desc_emit(const struct tt_model_desc *d, char **text,
			      size_t *len);

/* ---- running ---- */

typedef struct tt_model tt_model;

/* Load the image at path onto dev (see above). */
TT_API int tt_model_load(tt_device *dev, const char *path, tt_model **out);
TT_API void tt_model_free(tt_model *m);
TT_API const struct tt_model_desc *tt_model_get_desc(const tt_model *m);

/*
 * Run program (NULL: the first) once: inputs[i] is the model's i-th input
 * (tensors of kind INPUT, in order; any format and layout of its shape),
 * outputs[i] receives a new host tensor for the i-th output, in its
 * format, tiled layout. Waits for the device. With several programs (a
 * merged image), the inputs and outputs may instead be just the
 * program's: the inputs it reads and the outputs it writes, in order
 * (docs/image.md).
 */
TT_API int tt_model_run(tt_model *m, const char *program,
			tt_tensor *const *inputs, size_t ninputs,
			tt_tensor **outputs, size_t noutputs);

/*
 * tt_model_run, with every op's result read back (PyBuda's
 * intermediates; verification compares them with goldens): after each op
 * of the program, in order, the device is waited for, the op's output
 * tensor read into a new host tensor (its device shape and format, tiled
 * layout; valid during the call only) and visit called with the op's
 * index in the program and its record. A non-zero return of visit stops
 * the run and is returned (outputs are then NULL). Slower than
 * tt_model_run: the device idles while the host reads.
 */
TT_API int tt_model_run_each(tt_model *m, const char *program,
			     tt_tensor *const *inputs, size_t ninputs,
			     tt_tensor **outputs, size_t noutputs,
			     int (*visit)(void *arg, unsigned op_index,
					  const struct tt_model_op *op,
					  const tt_tensor *result),
			     void *arg);

/* Replace a parameter's value on the device (PyBuda's
 * update_device_parameters): t of the parameter's shape, any format. */
TT_API int tt_model_update_param(tt_model *m, const char *name,
				 const tt_tensor *t);

/*
 * The kernels every program of d needs, built for dev (with the compiler;
 * nothing runs) and added to set: ttc calls this to put them in an
 * image. Parameters are not written.
 */
struct tt_kernel_set;
TT_API int tt_model_build_kernels(tt_device *dev,
				  const struct tt_model_desc *d,
				  struct tt_kernel_set *set);

/* PyBuda's embedded backend from the image at path (see above). */
TT_API int tt_backend_load(tt_device *dev, const char *path,
			   tt_backend **out);

#endif /* TT_MODEL_H */
