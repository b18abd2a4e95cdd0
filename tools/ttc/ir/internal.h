/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The IR's representation, shared by ir/, text/ and ops/ (their READMEs
 * say so). Nothing here is part of the public API.
 */
#ifndef TTC_IR_INTERNAL_H
#define TTC_IR_INTERNAL_H

#include <stdarg.h>

#include "ttc/ir.h"

/* ---- memory ---- */

struct ttc_arena_chunk;
struct ttc_arena {
	struct ttc_arena_chunk *head;
};
/* Zeroed, 16-byte aligned; aborts on out of memory (like xmalloc). */
void *ttc_arena_alloc(struct ttc_arena *a, size_t n);
char *ttc_arena_strndup(struct ttc_arena *a, const char *s, size_t n);
void ttc_arena_release(struct ttc_arena *a);
void *ttc_xmalloc(size_t n);
void *ttc_xrealloc(void *p, size_t n);

/* A growing string. */
struct ttc_buf {
	char *p;
	size_t len, cap;
};
void ttc_buf_put(struct ttc_buf *b, const void *s, size_t n);
void ttc_buf_puts(struct ttc_buf *b, const char *s);
void ttc_buf_putc(struct ttc_buf *b, char c);
void ttc_buf_printf(struct ttc_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ttc_buf_free(struct ttc_buf *b);

/* ---- the context ---- */

struct ttc_intern_entry {
	uint64_t hash;
	size_t keylen;
	const void *key;
	const void *obj;
};

/* A second name of a registered op (ttc_register_alias). */
struct ttc_alias {
	const char *name; /* interned */
	const struct ttc_op_def *def;
};

struct ttc_ctx {
	struct ttc_arena arena; /* interned objects */
	struct ttc_intern_entry *tab;
	size_t tabcap, tablen;
	struct ttc_buf key; /* scratch for building keys */
	struct ttc_diag *diags;
	size_t ndiags, diagcap;
	struct ttc_buf errtext;
	const struct ttc_op_def **defs; /* sorted by name */
	size_t ndefs, defcap;
	struct ttc_alias *aliases; /* sorted by name */
	size_t naliases, aliascap;
	const ttc_type *common[8]; /* cached i64, f64 ... */
	/* Scalar types by kind, and the tensor types met last: the parser
	 * asks for the same few types over and over, and a lookup here costs
	 * no key and no hash. */
	const ttc_type *float_types[TTC_F64 + 1];
	const ttc_type *int_types[65][3]; /* [width][signedness] */
#define TTC_TENSOR_CACHE 64
	const ttc_type *tensor_cache[TTC_TENSOR_CACHE];
};

uint64_t ttc_hash(const void *p, size_t n);
/* The interned object for key, or NULL; *hash is set for ttc_intern_add. */
const void *ttc_intern_find(ttc_ctx *ctx, const void *key, size_t n,
			    uint64_t *hash);
void ttc_intern_add(ttc_ctx *ctx, const void *key, size_t n, uint64_t hash,
		    const void *obj);

/*
 * Records a diagnostic. file/src give the source line for the caret (src
 * NULL: none); loc is printed when there is no line.
 */
void ttc_diag_add(ttc_ctx *ctx, const char *file, const char *src,
		  size_t srclen, unsigned line, unsigned col,
		  const ttc_loc *loc, const char *msg);
void ttc_diag_addf(ttc_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* func.return and func.call, registered in every context. */
void ttc_register_builtin(ttc_ctx *ctx);

/* ---- types and attributes ---- */

struct ttc_type {
	enum ttc_type_kind kind;
	unsigned width;
	enum ttc_signedness sign;
	enum ttc_float_kind fk;
	unsigned rank;
	const int64_t *dims;
	const ttc_type *elem;
	const ttc_attr *enc;
	const char *text;
	/* The printer's text of a tensor type, made once (the printer spends
	 * most of its time on types otherwise). */
	ttc_ctx *ctx;
	const char *cached;
	size_t cached_len;
};

struct ttc_attr {
	enum ttc_attr_kind kind;
	bool b, splat, hex;
	int64_t i;
	double f;
	const char *s;
	size_t len; /* string length; entries of arrays, dicts, dense */
	const ttc_type *type;
	const ttc_attr **elems;		 /* ARRAY; LOC children */
	struct ttc_named_attr *entries;	 /* DICT */
	int64_t *ints;			 /* DENSE_ARRAY of ints */
	double *floats;			 /* DENSE_ARRAY of floats */
	const void *raw;		 /* DENSE */
	size_t nbytes;
	enum ttc_loc_kind lk; /* LOC */
	unsigned line, col;
	const ttc_attr *meta;
};

void ttc_format_type(struct ttc_buf *b, const ttc_type *t);
void ttc_format_attr(struct ttc_buf *b, const ttc_attr *a);
void ttc_format_loc(struct ttc_buf *b, const ttc_loc *l);
/* @name, quoted when name is not an identifier. */
void ttc_format_symbol(struct ttc_buf *b, const char *name);
/* A float in the shortest text that reads back to the same value of its
 * type (MLIR needs a '.' in a float literal); inf/NaN as hex bits. */
void ttc_format_float(struct ttc_buf *b, double v, const ttc_type *t);
/* "i32", "si32", "f32"... as a type; NULL if not one of those. */
const ttc_type *ttc_parse_scalar_type(ttc_ctx *ctx, const char *s, size_t n);
/* Element storage conversions of dense attributes. */
double ttc_elem_load(const ttc_type *elem, const void *p);
void ttc_elem_store(const ttc_type *elem, void *p, double v);
/* Whether a float type can hold v exactly after rounding (for storage). */
double ttc_round_to(const ttc_type *t, double v);

/* ---- modules, functions, ops ---- */

struct ttc_item {
	struct ttc_item *next;
	ttc_func *func;
	ttc_module *mod;
};

struct ttc_module {
	ttc_ctx *ctx;
	struct ttc_arena *arena; /* the root's */
	struct ttc_arena own;	 /* used when root */
	ttc_module *parent;
	const char *name, *op_name;
	const ttc_attr *attrs;
	const ttc_loc *loc;
	struct ttc_item *first, *last;
	size_t nitems;
	unsigned line, col;
	/* Root only: the parsed source, for diagnostics' source lines. */
	const char *file;
	char *src;
	size_t srclen;
	unsigned mark_gen;
};

struct ttc_value {
	const ttc_type *type;
	ttc_op *def;
	ttc_func *arg_of;
	size_t index;
	ttc_use *uses;
	size_t nuses;
	unsigned mark; /* verifier: defined so far */
	size_t num;    /* printer: its number in the function */
};

struct ttc_use {
	ttc_value *value;
	ttc_op *op;
	size_t index;
	ttc_use *next, **pprev;
};

struct ttc_func {
	ttc_module *m;
	const char *name;
	enum ttc_visibility vis;
	bool decl;
	size_t nargs, nres;
	ttc_value *args;
	const ttc_attr **arg_attrs;
	const ttc_loc **arg_locs;
	const ttc_type **res;
	const ttc_attr **res_attrs;
	const ttc_attr *attrs;
	const ttc_loc *loc;
	ttc_op *first, *last;
	size_t nops;
	unsigned line, col;
};

/* Internal op flags. */
enum { TTC_OP_DPS_DEST = 1u << 0 /* an empty that fed a dropped output */ };

struct ttc_op {
	const char *name;
	const struct ttc_op_def *def;
	ttc_module *m;
	ttc_func *func;
	ttc_op *prev, *next;
	size_t nops, opcap;
	ttc_use *ops;
	size_t nres;
	ttc_value *res;
	const ttc_attr *props, *attrs;
	const ttc_loc *loc;
	unsigned line, col;
	unsigned flags;
};

ttc_module *ttc_module_root(const ttc_module *m);
/* Reports msg about op as a diagnostic at its source position. */
void ttc_op_error(const ttc_op *op, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ttc_func_error(const ttc_func *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* TTC_IR_INTERNAL_H */
