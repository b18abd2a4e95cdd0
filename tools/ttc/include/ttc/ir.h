/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libttc's graph IR: modules holding functions holding ops in SSA form.
 *
 * - Types, attributes and locations are interned in the context: compare
 *   them with ==. They live as long as the context.
 * - A module owns its functions, nested modules, ops and values (one arena
 *   per top-level module; ttc_module_free releases all of it).
 * - A function has one block: its arguments, then ops in order; its last
 *   op is func.return. A value is defined once (an op result or a function
 *   argument) and knows its uses.
 * - An op is registered (its name has a ttc_op_def in the context, see
 *   "Registry") or opaque (kept as written, checked only for SSA rules).
 *
 * Conventions of ttc/common.h: failures return NULL or a negative errno
 * and leave a diagnostic in the context.
 */
#ifndef TTC_IR_H
#define TTC_IR_H

#include "ttc/common.h"

typedef struct ttc_type ttc_type;
typedef struct ttc_attr ttc_attr;
typedef struct ttc_attr ttc_loc; /* locations are attributes of kind LOC */
typedef struct ttc_module ttc_module;
typedef struct ttc_func ttc_func;
typedef struct ttc_op ttc_op;
typedef struct ttc_value ttc_value;
typedef struct ttc_use ttc_use;
struct ttc_op_def;

/* Interned strings: equal names are the same pointer. */
TTC_API const char *ttc_intern(ttc_ctx *ctx, const char *s, size_t len);

/* ---- types ----------------------------------------------------------- */

#define TTC_MAX_RANK 8

enum ttc_type_kind {
	TTC_TYPE_INT,	 /* iN, siN, uiN */
	TTC_TYPE_FLOAT,	 /* f16, bf16, f32, f64 */
	TTC_TYPE_INDEX,	 /* index */
	TTC_TYPE_NONE,	 /* none */
	TTC_TYPE_TENSOR, /* ranked, static tensor<d0x...xE[, encoding]> */
	TTC_TYPE_OPAQUE, /* anything else (!quant.uniform<...>, memref<...>),
			    kept as its text */
};

enum ttc_signedness { TTC_SIGNLESS, TTC_SIGNED, TTC_UNSIGNED };
enum ttc_float_kind { TTC_F16, TTC_BF16, TTC_F32, TTC_F64 };

TTC_API const ttc_type *ttc_int_type(ttc_ctx *ctx, unsigned width,
				     enum ttc_signedness sign);
TTC_API const ttc_type *ttc_float_type(ttc_ctx *ctx, enum ttc_float_kind k);
TTC_API const ttc_type *ttc_index_type(ttc_ctx *ctx);
TTC_API const ttc_type *ttc_none_type(ttc_ctx *ctx);
/*
 * A ranked tensor. rank 0..TTC_MAX_RANK, every dim >= 0; elem is an int
 * type of width 1, 8, 16, 32 or 64, a float type, or an opaque type (for
 * quantized elements); encoding is optional (NULL).
 */
TTC_API const ttc_type *ttc_tensor_type(ttc_ctx *ctx, const int64_t *dims,
					unsigned rank, const ttc_type *elem,
					const ttc_attr *encoding);
/* The same tensor type with another element type (encoding kept). */
TTC_API const ttc_type *ttc_tensor_type_with_elem(ttc_ctx *ctx,
						  const ttc_type *t,
						  const ttc_type *elem);
TTC_API const ttc_type *ttc_opaque_type(ttc_ctx *ctx, const char *text);

TTC_API enum ttc_type_kind ttc_type_kind(const ttc_type *t);
TTC_API unsigned ttc_type_width(const ttc_type *t); /* int/float bits */
TTC_API enum ttc_signedness ttc_type_signedness(const ttc_type *t);
TTC_API enum ttc_float_kind ttc_type_float_kind(const ttc_type *t);
TTC_API unsigned ttc_type_rank(const ttc_type *t);
TTC_API const int64_t *ttc_type_dims(const ttc_type *t);
TTC_API int64_t ttc_type_numel(const ttc_type *t);
TTC_API const ttc_type *ttc_type_elem(const ttc_type *t);
TTC_API const ttc_attr *ttc_type_encoding(const ttc_type *t);
TTC_API const char *ttc_type_text(const ttc_type *t); /* opaque only */
TTC_API bool ttc_type_is_tensor(const ttc_type *t);
/* Bytes of one element in dense storage (i1 takes a byte). */
TTC_API size_t ttc_type_elem_bytes(const ttc_type *elem);

/* ---- attributes ------------------------------------------------------- */

enum ttc_attr_kind {
	TTC_ATTR_UNIT,	      /* a name alone in a dictionary */
	TTC_ATTR_BOOL,	      /* true, false */
	TTC_ATTR_INT,	      /* 3 : si32 */
	TTC_ATTR_FLOAT,	      /* 1.0e-05 : f32 */
	TTC_ATTR_STRING,      /* "text" */
	TTC_ATTR_TYPE,	      /* a type as an attribute */
	TTC_ATTR_ARRAY,	      /* [a, b] */
	TTC_ATTR_DENSE_ARRAY, /* array<i32: 1, 2> */
	TTC_ATTR_DENSE,	      /* dense<...> : tensor<...> */
	TTC_ATTR_DICT,	      /* {a = 1, b} (sorted by name) */
	TTC_ATTR_SYMREF,      /* @name */
	TTC_ATTR_OPAQUE,      /* #dialect.x<...>, affine_map<...>, kept as text */
	TTC_ATTR_LOC,	      /* a location (ttc_loc) */
};

struct ttc_named_attr {
	const char *name;
	const ttc_attr *value;
};

TTC_API const ttc_attr *ttc_unit_attr(ttc_ctx *ctx);
TTC_API const ttc_attr *ttc_bool_attr(ttc_ctx *ctx, bool v);
/* type: an int type or index; NULL means i64. Unsigned values of 64 bits
 * are kept as their bits. */
TTC_API const ttc_attr *ttc_int_attr(ttc_ctx *ctx, int64_t v,
				     const ttc_type *type);
/* type: a float type, NULL means f64. The value is rounded to it. */
TTC_API const ttc_attr *ttc_float_attr(ttc_ctx *ctx, double v,
				       const ttc_type *type);
TTC_API const ttc_attr *ttc_string_attr(ttc_ctx *ctx, const char *s,
					size_t len);
TTC_API const ttc_attr *ttc_type_attr(ttc_ctx *ctx, const ttc_type *t);
TTC_API const ttc_attr *ttc_array_attr(ttc_ctx *ctx,
				       const ttc_attr *const *elems, size_t n);
/* array<elem: v...> with an int element type (values as int64) or a float
 * one (values as double). */
TTC_API const ttc_attr *ttc_dense_int_array_attr(ttc_ctx *ctx,
						 const ttc_type *elem,
						 const int64_t *v, size_t n);
TTC_API const ttc_attr *ttc_dense_float_array_attr(ttc_ctx *ctx,
						   const ttc_type *elem,
						   const double *v, size_t n);
/*
 * dense<...> : type. raw holds the elements in little-endian storage of the
 * element type (ttc_type_elem_bytes each; bf16 and f16 as their 16 bits,
 * i1 as one byte 0/1): numel of them, or one when splat. hex asks the
 * printer for the dense<"0x..."> form.
 */
TTC_API const ttc_attr *ttc_dense_attr(ttc_ctx *ctx, const ttc_type *type,
				       const void *raw, size_t nbytes,
				       bool splat, bool hex);
/* Entries are sorted by name; a duplicate name fails (NULL). */
TTC_API const ttc_attr *ttc_dict_attr(ttc_ctx *ctx,
				      const struct ttc_named_attr *entries,
				      size_t n);
/* "name" or "outer::@inner" (without the leading @). */
TTC_API const ttc_attr *ttc_symref_attr(ttc_ctx *ctx, const char *name);
TTC_API const ttc_attr *ttc_opaque_attr(ttc_ctx *ctx, const char *text);

TTC_API enum ttc_attr_kind ttc_attr_kind(const ttc_attr *a);
TTC_API bool ttc_attr_bool(const ttc_attr *a);
TTC_API int64_t ttc_attr_int(const ttc_attr *a);
TTC_API double ttc_attr_float(const ttc_attr *a);
/* Strings, symbol references and opaque text; len may be NULL. */
TTC_API const char *ttc_attr_str(const ttc_attr *a, size_t *len);
/* INT, FLOAT: its type; TYPE: the type; DENSE: the tensor type;
 * DENSE_ARRAY: the element type. */
TTC_API const ttc_type *ttc_attr_type(const ttc_attr *a);
/* ARRAY, DENSE_ARRAY, DICT: entries; DENSE: numel. */
TTC_API size_t ttc_attr_size(const ttc_attr *a);
TTC_API const ttc_attr *ttc_attr_array_at(const ttc_attr *a, size_t i);
TTC_API int64_t ttc_attr_dense_array_int(const ttc_attr *a, size_t i);
TTC_API double ttc_attr_dense_array_float(const ttc_attr *a, size_t i);
TTC_API const ttc_attr *ttc_attr_dict_get(const ttc_attr *dict,
					  const char *name);
TTC_API const struct ttc_named_attr *ttc_attr_dict_at(const ttc_attr *dict,
						      size_t i);
/* A dictionary with name set to value (value NULL removes it). */
TTC_API const ttc_attr *ttc_attr_dict_set(ttc_ctx *ctx, const ttc_attr *dict,
					  const char *name,
					  const ttc_attr *value);
TTC_API bool ttc_attr_dense_is_splat(const ttc_attr *a);
TTC_API bool ttc_attr_dense_is_hex(const ttc_attr *a);
TTC_API const void *ttc_attr_dense_raw(const ttc_attr *a, size_t *nbytes);
/* Element i of a dense attribute as a double (a splat has all of them). */
TTC_API double ttc_attr_dense_get(const ttc_attr *a, size_t i);
/*
 * A list of integers from an ARRAY of INT attributes or an int
 * DENSE_ARRAY, into out[max]. Returns the count, or -EINVAL for any other
 * attribute, -E2BIG when more than max.
 */
TTC_API int ttc_attr_ints(const ttc_attr *a, int64_t *out, size_t max);

/* ---- locations -------------------------------------------------------- */

enum ttc_loc_kind {
	TTC_LOC_UNKNOWN,  /* loc(unknown) */
	TTC_LOC_FILE,	  /* loc("file":line:col) */
	TTC_LOC_NAME,	  /* loc("name") or loc("name"(child)) */
	TTC_LOC_CALLSITE, /* loc(callsite(callee at caller)) */
	TTC_LOC_FUSED,	  /* loc(fused[a, b]) or loc(fused<meta>[a, b]) */
};

TTC_API const ttc_loc *ttc_loc_unknown(ttc_ctx *ctx);
TTC_API const ttc_loc *ttc_loc_file(ttc_ctx *ctx, const char *file,
				    unsigned line, unsigned col);
TTC_API const ttc_loc *ttc_loc_name(ttc_ctx *ctx, const char *name,
				    const ttc_loc *child);
TTC_API const ttc_loc *ttc_loc_callsite(ttc_ctx *ctx, const ttc_loc *callee,
					const ttc_loc *caller);
TTC_API const ttc_loc *ttc_loc_fused(ttc_ctx *ctx, const ttc_loc *const *locs,
				     size_t n, const ttc_attr *metadata);
TTC_API enum ttc_loc_kind ttc_loc_kind(const ttc_loc *l);
/* FILE: the file; NAME: the name. */
TTC_API const char *ttc_loc_str(const ttc_loc *l);
TTC_API unsigned ttc_loc_line(const ttc_loc *l);
TTC_API unsigned ttc_loc_col(const ttc_loc *l);
/* NAME: child (or NULL); CALLSITE: 0 callee, 1 caller; FUSED: each. */
TTC_API size_t ttc_loc_num_children(const ttc_loc *l);
TTC_API const ttc_loc *ttc_loc_child(const ttc_loc *l, size_t i);
TTC_API const ttc_attr *ttc_loc_metadata(const ttc_loc *l);

/* ---- text forms of types and attributes --------------------------------- */

/* Writes the MLIR text of t / a into buf (always NUL-terminated when n > 0)
 * and returns the length it needed, like snprintf. */
TTC_API size_t ttc_type_format(const ttc_type *t, char *buf, size_t n);
TTC_API size_t ttc_attr_format(const ttc_attr *a, char *buf, size_t n);

/* ---- modules, functions, ops, values ----------------------------------- */

enum ttc_visibility { TTC_VIS_DEFAULT, TTC_VIS_PUBLIC, TTC_VIS_PRIVATE,
		      TTC_VIS_NESTED };

/* A top-level module (sym_name optional). */
TTC_API ttc_module *ttc_module_new(ttc_ctx *ctx, const char *sym_name);
TTC_API void ttc_module_free(ttc_module *m);
/*
 * A module nested in parent, appended to its items. op_name is the op that
 * holds it: "builtin.module" (NULL) or a wrapper such as
 * "ttcore.device_module", which has no name or attributes of its own.
 */
TTC_API ttc_module *ttc_module_new_nested(ttc_module *parent,
					  const char *sym_name,
					  const char *op_name);
TTC_API ttc_ctx *ttc_module_ctx(const ttc_module *m);
TTC_API const char *ttc_module_name(const ttc_module *m);
TTC_API const char *ttc_module_op_name(const ttc_module *m);
TTC_API ttc_module *ttc_module_parent(const ttc_module *m);
TTC_API const ttc_attr *ttc_module_attrs(const ttc_module *m);
TTC_API void ttc_module_set_attrs(ttc_module *m, const ttc_attr *dict);
TTC_API const ttc_loc *ttc_module_loc(const ttc_module *m);
TTC_API void ttc_module_set_loc(ttc_module *m, const ttc_loc *loc);
/* Items in order: each is a function or a nested module. */
TTC_API size_t ttc_module_num_items(const ttc_module *m);
TTC_API ttc_func *ttc_module_item_func(const ttc_module *m, size_t i);
TTC_API ttc_module *ttc_module_item_module(const ttc_module *m, size_t i);
/* A function of m (not of nested modules) by name, or NULL. */
TTC_API ttc_func *ttc_module_lookup(const ttc_module *m, const char *name);

/* A new function appended to m, with its arguments (values) made. */
TTC_API ttc_func *ttc_func_new(ttc_module *m, const char *name,
			       const ttc_type *const *args, size_t nargs,
			       const ttc_type *const *results, size_t nres);
TTC_API ttc_module *ttc_func_module(const ttc_func *f);
TTC_API const char *ttc_func_name(const ttc_func *f);
TTC_API enum ttc_visibility ttc_func_visibility(const ttc_func *f);
TTC_API void ttc_func_set_visibility(ttc_func *f, enum ttc_visibility v);
/* A declaration has no body (func.func private @f(...) without {...}). */
TTC_API bool ttc_func_is_declaration(const ttc_func *f);
TTC_API void ttc_func_set_declaration(ttc_func *f, bool decl);
TTC_API size_t ttc_func_num_args(const ttc_func *f);
TTC_API ttc_value *ttc_func_arg(const ttc_func *f, size_t i);
TTC_API size_t ttc_func_num_results(const ttc_func *f);
TTC_API const ttc_type *ttc_func_result_type(const ttc_func *f, size_t i);
/* Replaces the result types (a builder knows them at the end). */
TTC_API void ttc_func_set_result_types(ttc_func *f,
				       const ttc_type *const *results,
				       size_t nres);
TTC_API const ttc_attr *ttc_func_arg_attrs(const ttc_func *f, size_t i);
TTC_API void ttc_func_set_arg_attrs(ttc_func *f, size_t i, const ttc_attr *d);
TTC_API const ttc_loc *ttc_func_arg_loc(const ttc_func *f, size_t i);
TTC_API void ttc_func_set_arg_loc(ttc_func *f, size_t i, const ttc_loc *l);
TTC_API const ttc_attr *ttc_func_result_attrs(const ttc_func *f, size_t i);
TTC_API void ttc_func_set_result_attrs(ttc_func *f, size_t i,
				       const ttc_attr *d);
/* The function's own attributes (func.func ... attributes {...}). */
TTC_API const ttc_attr *ttc_func_attrs(const ttc_func *f);
TTC_API void ttc_func_set_attrs(ttc_func *f, const ttc_attr *dict);
TTC_API const ttc_loc *ttc_func_loc(const ttc_func *f);
TTC_API void ttc_func_set_loc(ttc_func *f, const ttc_loc *loc);
TTC_API ttc_op *ttc_func_first_op(const ttc_func *f);
TTC_API ttc_op *ttc_func_last_op(const ttc_func *f);
TTC_API size_t ttc_func_num_ops(const ttc_func *f);

/*
 * A new, detached op (insert it with ttc_func_append or
 * ttc_op_insert_before/after). name is "dialect.op"; its registered
 * definition, if any, is looked up. props (<{...}>) and attrs ({...}) are
 * dictionaries or NULL; loc NULL means unknown. Operands must be values of
 * the same module.
 */
TTC_API ttc_op *ttc_op_create(ttc_module *m, const char *name,
			      ttc_value *const *operands, size_t nops,
			      const ttc_type *const *results, size_t nres,
			      const ttc_attr *props, const ttc_attr *attrs,
			      const ttc_loc *loc);
TTC_API const char *ttc_op_name(const ttc_op *op);
TTC_API const struct ttc_op_def *ttc_op_get_def(const ttc_op *op);
TTC_API ttc_func *ttc_op_func(const ttc_op *op); /* NULL when detached */
TTC_API ttc_op *ttc_op_next(const ttc_op *op);
TTC_API ttc_op *ttc_op_prev(const ttc_op *op);
TTC_API size_t ttc_op_num_operands(const ttc_op *op);
TTC_API ttc_value *ttc_op_operand(const ttc_op *op, size_t i);
TTC_API size_t ttc_op_num_results(const ttc_op *op);
TTC_API ttc_value *ttc_op_result(const ttc_op *op, size_t i);
TTC_API const ttc_attr *ttc_op_props(const ttc_op *op);
TTC_API const ttc_attr *ttc_op_attrs(const ttc_op *op);
TTC_API void ttc_op_set_props(ttc_op *op, const ttc_attr *dict);
TTC_API void ttc_op_set_attrs(ttc_op *op, const ttc_attr *dict);
/* A named attribute: the property, else the discardable attribute, else
 * the registered default; NULL when none. */
TTC_API const ttc_attr *ttc_op_attr(const ttc_op *op, const char *name);
TTC_API const ttc_loc *ttc_op_loc(const ttc_op *op);
TTC_API void ttc_op_set_loc(ttc_op *op, const ttc_loc *loc);
/* Where the op was parsed (1-based), or 0, 0. */
TTC_API void ttc_op_source_pos(const ttc_op *op, unsigned *line,
			       unsigned *col);

TTC_API const ttc_type *ttc_value_type(const ttc_value *v);
/* The defining op, or NULL for a function argument. */
TTC_API ttc_op *ttc_value_def(const ttc_value *v);
/* The function of an argument; NULL for an op result. */
TTC_API ttc_func *ttc_value_func_arg_owner(const ttc_value *v);
/* The result number, or the argument number. */
TTC_API size_t ttc_value_index(const ttc_value *v);
TTC_API ttc_use *ttc_value_first_use(const ttc_value *v);
TTC_API size_t ttc_value_num_uses(const ttc_value *v);
TTC_API ttc_use *ttc_use_next(const ttc_use *u);
TTC_API ttc_op *ttc_use_op(const ttc_use *u);
TTC_API size_t ttc_use_index(const ttc_use *u);

/* ---- rewriting ---------------------------------------------------------- */

TTC_API int ttc_func_append(ttc_func *f, ttc_op *op);
TTC_API int ttc_op_insert_before(ttc_op *pos, ttc_op *op);
TTC_API int ttc_op_insert_after(ttc_op *pos, ttc_op *op);
/* Unlinks op from its function; it stays valid and may be inserted again. */
TTC_API void ttc_op_detach(ttc_op *op);
/* Removes op; fails (-EBUSY) while any of its results has a use. */
TTC_API int ttc_op_erase(ttc_op *op);
TTC_API int ttc_op_set_operand(ttc_op *op, size_t i, ttc_value *v);
/* Removes operand i (and its use). */
TTC_API int ttc_op_remove_operand(ttc_op *op, size_t i);
/* Every use of from now uses to (types must be equal: -EINVAL). */
TTC_API int ttc_value_replace_all_uses(ttc_value *from, ttc_value *to);
/* Removes argument i of f, which must have no uses; the later ones move
 * down. 0 or -EINVAL. */
TTC_API int ttc_func_erase_arg(ttc_func *f, size_t i);
/* A detached copy of op; operands NULL keeps op's, else nops new ones. */
TTC_API ttc_op *ttc_op_clone(const ttc_op *op, ttc_value *const *operands,
			     size_t nops);

/* ---- verification -------------------------------------------------------- */

/*
 * Checks m and its nested modules: unique function names, SSA dominance in
 * each function's block, operand types equal to their values' types, one
 * terminator (func.return with the function's result types) at the end,
 * func.call targets and types, and each registered op's definition
 * (operand count, attributes, its verifier and shape inference). Returns
 * the number of errors (each a diagnostic in the context).
 */
TTC_API int ttc_module_verify(ttc_module *m);
/* The checks of one op alone (no SSA rules); the number of errors. */
TTC_API int ttc_op_verify(ttc_op *op);

/* ---- registry ------------------------------------------------------------ */

/* What an attribute of an op must be. */
enum ttc_attr_spec_kind {
	TTC_AK_ANY,
	TTC_AK_BOOL,
	TTC_AK_INT,    /* an INT of any width and signedness */
	TTC_AK_FLOAT,  /* a FLOAT */
	TTC_AK_NUMBER, /* an INT or a FLOAT */
	TTC_AK_STRING,
	TTC_AK_INTS, /* [1 : i32, ...] or array<iN: ...> */
	TTC_AK_INT_OR_INTS,
	TTC_AK_DENSE, /* dense<...> : tensor<...> */
	TTC_AK_TYPE,
};

enum ttc_attr_presence { TTC_ATTR_REQUIRED, TTC_ATTR_OPTIONAL,
			 TTC_ATTR_DEFAULT };

struct ttc_attr_spec {
	const char *name;
	enum ttc_attr_spec_kind kind;
	enum ttc_attr_presence presence;
	/* TTC_ATTR_DEFAULT: the default, of type def_type ("i32", "si32",
	 * "ui32", "i64", "f32", ...; unused for bool and string). */
	const char *def_type;
	int64_t def_int; /* bool: 0 or 1 */
	double def_float;
	const char *def_str;
};

/* Operand and result types handed to shape inference. */
struct ttc_infer {
	ttc_ctx *ctx;
	const struct ttc_op_def *def;
	const ttc_type *const *in; /* operand types */
	size_t nin;
	const ttc_attr *props; /* dictionary or NULL */
	const ttc_attr *attrs; /* dictionary or NULL */
	char err[256];	       /* what is wrong, without the op's name */
};

/* Result types from operand types and attributes: 0; 1 when these
 * operands and attributes do not fix them (the declared types stand; a
 * builder must give them); or -EINVAL with in->err set. */
typedef int (*ttc_infer_fn)(struct ttc_infer *in, const ttc_type **results);
/* Extra checks of an op beyond its inference (0, or -EINVAL with err). */
typedef int (*ttc_verify_fn)(const ttc_op *op, char *err, size_t errlen);

/* Op flags. */
enum {
	/* The last operand repeats (0 or more), e.g. concat's inputs. */
	TTC_OPF_VARIADIC = 1u << 0,
	/* The last operand may be absent (linear's bias). */
	TTC_OPF_OPTIONAL_LAST = 1u << 1,
	/* Accepts the older destination-passing form: a trailing output
	 * operand, dropped by the parser. */
	TTC_OPF_DPS = 1u << 2,
	/* Inference fixes the result shape, not its element type. */
	TTC_OPF_ELEM_FREE = 1u << 3,
	/* Ends a function's block. */
	TTC_OPF_TERMINATOR = 1u << 4,
	/* Results are variadic (func.call); inference is not used. */
	TTC_OPF_VARIADIC_RESULTS = 1u << 5,
	/* Operands after the first are each optional (MLIR's
	 * AttrSizedOperandSegments): the property operandSegmentSizes says
	 * which are present (layer_norm's weight and bias). */
	TTC_OPF_SEGMENTS = 1u << 6,
};

struct ttc_op_def {
	const char *name;    /* "ttir.add" */
	const char *summary; /* one line */
	const char *const *operands; /* names */
	unsigned noperands;
	unsigned nresults;
	unsigned flags;
	const struct ttc_attr_spec *attrs;
	unsigned nattrs;
	ttc_infer_fn infer;   /* NULL: results are not inferred */
	ttc_verify_fn verify; /* NULL: none beyond inference */
};

/* Registers def (kept by pointer: it must outlive ctx). -EEXIST when the
 * name is taken. */
TTC_API int ttc_register_op(ttc_ctx *ctx, const struct ttc_op_def *def);
TTC_API const struct ttc_op_def *ttc_lookup_op(const ttc_ctx *ctx,
					       const char *name);
/*
 * A second name for a registered op: the same operation with the same
 * operands and attributes under another dialect's spelling (PyBuda's
 * "pybuda.add" is "ttir.add"). Looking the alias up gives target's
 * definition, and an op created or parsed under the alias is that op,
 * named by target (the IR has one spelling per operation). -ENOENT when
 * target is not registered, -EEXIST when alias is taken.
 */
TTC_API int ttc_register_alias(ttc_ctx *ctx, const char *alias,
			       const char *target);
/* Aliases sorted by name: the alias, and (def not NULL) its op. */
TTC_API size_t ttc_op_alias_count(const ttc_ctx *ctx);
TTC_API const char *ttc_op_alias_at(const ttc_ctx *ctx, size_t i,
				    const struct ttc_op_def **def);
/* Registered ops sorted by name (aliases not included). */
TTC_API size_t ttc_op_def_count(const ttc_ctx *ctx);
TTC_API const struct ttc_op_def *ttc_op_def_at(const ttc_ctx *ctx, size_t i);
/* An attribute's value in an inference request: property, attribute, or
 * the spec's default. */
TTC_API const ttc_attr *ttc_infer_attr(struct ttc_infer *in,
				       const char *name);
/* The default of spec as an attribute (NULL when it has none). */
TTC_API const ttc_attr *ttc_attr_spec_default(ttc_ctx *ctx,
					      const struct ttc_attr_spec *s);
/*
 * Runs def's inference on operand types and attributes (the builder's
 * entry). Returns 0, or -EINVAL with a diagnostic naming the op.
 */
TTC_API int ttc_op_infer(ttc_ctx *ctx, const struct ttc_op_def *def,
			 const ttc_type *const *in, size_t nin,
			 const ttc_attr *props, const ttc_type **results);

#endif /* TTC_IR_H */
