// SPDX-License-Identifier: Apache-2.0
/*
 * The import: a ModelProto's graph into one function. Graph inputs become
 * the function's first arguments, initializers parameter arguments with
 * their values, then each node in order goes through its converter
 * (ops_*.c). Values known at import time (initializers, constants and
 * what is computed from them alone) carry host data, computed by the
 * goldens as the builder makes each op, so shape chains fold as they are
 * read. Ops no result of which is used and initializers no op reads are
 * dropped at the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ttc/ir/internal.h"

#include "internal.h"

struct ttc_onnx_options ttc_onnx_defaults(void)
{
	return (struct ttc_onnx_options){0};
}

/* ---- the value map ---- */

static size_t slot_of(const struct onx *im, const char *name)
{
	uintptr_t h = (uintptr_t)name;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 7) & (im->mapcap - 1);
}

ttc_value *onx_lookup(struct onx *im, const char *name)
{
	if (!name || !im->mapcap)
		return NULL;
	const char *key = ttc_intern(im->ctx, name, strlen(name));

	for (size_t i = slot_of(im, key);; i = (i + 1) & (im->mapcap - 1)) {
		if (!im->map[i].name)
			return NULL;
		if (im->map[i].name == key)
			return im->map[i].value;
	}
}

static int grow_map(struct onx *im)
{
	struct onx_binding *old = im->map;
	size_t oldcap = im->mapcap;

	im->mapcap = oldcap ? oldcap * 2 : 256;
	im->map = calloc(im->mapcap, sizeof(*im->map));
	if (!im->map)
		return -ENOMEM;
	for (size_t k = 0; k < oldcap; k++) {
		if (!old[k].name)
			continue;
		size_t i = slot_of(im, old[k].name);

		while (im->map[i].name)
			i = (i + 1) & (im->mapcap - 1);
		im->map[i] = old[k];
	}
	free(old);
	return 0;
}

int onx_bind(struct onx *im, const char *name, ttc_value *v)
{
	if ((im->nmap + 1) * 2 > im->mapcap && grow_map(im))
		return -ENOMEM;
	const char *key = ttc_intern(im->ctx, name, strlen(name));
	size_t i = slot_of(im, key);

	while (im->map[i].name && im->map[i].name != key)
		i = (i + 1) & (im->mapcap - 1);
	if (!im->map[i].name)
		im->nmap++;
	im->map[i] = (struct onx_binding){key, v};
	return 0;
}

/* ---- errors ---- */

const char *onx_node_name(const onx_node *n)
{
	if (n->name && *n->name)
		return n->name;
	for (size_t i = 0; i < n->n_output; i++)
		if (n->output[i][0])
			return n->output[i];
	return n->op_type ? n->op_type : "";
}

static int vfail(struct onx *im, int err, const char *what, const char *fmt,
		 va_list ap)
{
	char msg[400];
	const onx_node *n = im->node;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n)
		ttc_diag_addf(im->ctx, "node '%s' (%s, opset %lld): %s%s",
			      onx_node_name(n), n->op_type ? n->op_type : "?",
			      (long long)(im->legacy_opset ? im->legacy_opset :
							     im->opset),
			      what, msg);
	else
		ttc_diag_addf(im->ctx, "%s%s", what, msg);
	return err;
}

int onx_fail(struct onx *im, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(im, -EINVAL, "", fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int onx_unsupported(struct onx *im, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(im, -ENOTSUP, "not supported: ", fmt, ap);
	va_end(ap);
	return -ENOTSUP;
}

/* ---- the graph's arguments ---- */

static bool is_initializer(const Onnx__GraphProto *g, const char *name)
{
	for (size_t i = 0; i < g->n_initializer; i++)
		if (g->initializer[i]->name &&
		    !strcmp(g->initializer[i]->name, name))
			return true;
	return false;
}

static const struct ttc_onnx_shape *given_shape(const struct onx *im,
						const char *name)
{
	for (size_t i = 0; i < im->o->nshapes; i++)
		if (!strcmp(im->o->shapes[i].name, name))
			return &im->o->shapes[i];
	return NULL;
}

static const ttc_tensor *given_value(const struct onx *im, const char *name)
{
	for (size_t i = 0; i < im->o->nconsts; i++)
		if (!strcmp(im->o->consts[i].name, name))
			return im->o->consts[i].value;
	return NULL;
}

static int dim_of(struct onx *im, const Onnx__ValueInfoProto *vi, size_t k,
		  int64_t *d)
{
	const Onnx__TensorShapeProto__Dimension *dim =
		vi->type->tensor_type->shape->dim[k];

	if (dim->value_case ==
	    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
		*d = dim->dim_value;
		if (*d >= 0 && *d <= ONX_MAX_DIM)
			return 0;
		return onx_fail(im, "input '%s': dimension %zu is %lld (0 to "
				    "%lld)", vi->name, k, (long long)*d,
				(long long)ONX_MAX_DIM);
	}
	if (im->o->default_dim > 0) {
		*d = im->o->default_dim;
		return 0;
	}
	return onx_fail(im, "input '%s': dimension %zu%s%s%s is unknown; "
			    "give the input's shape (--input-shape %s=1x3x224x224)",
			vi->name, k,
			dim->value_case ==
					ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM ?
				" ('" : "",
			dim->value_case ==
					ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM ?
				dim->dim_param : "",
			dim->value_case ==
					ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM ?
				"')" : "",
			vi->name);
}

static int input_type(struct onx *im, const Onnx__ValueInfoProto *vi,
		      const ttc_type **out)
{
	const Onnx__TypeProto *tp = vi->type;
	const struct ttc_onnx_shape *s = given_shape(im, vi->name);
	int64_t dims[TTC_MAX_RANK];
	unsigned rank;
	int rc;

	if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
	    !tp->tensor_type->has_elem_type)
		return onx_unsupported(im, "input '%s' is not a tensor "
					   "(sequences, maps and optionals are "
					   "not supported)", vi->name);
	const ttc_type *elem = onx_elem_type(im->ctx,
					     tp->tensor_type->elem_type);

	if (!elem)
		return onx_unsupported(im, "input '%s' has element type %s",
				       vi->name,
				       onx_dtype_name(tp->tensor_type->elem_type));
	if (s) {
		rank = s->rank;
		memcpy(dims, s->dims, sizeof(dims));
	} else if (!tp->tensor_type->shape) {
		return onx_fail(im, "input '%s' has no shape; give it "
				    "(--input-shape %s=1x3x224x224)",
				vi->name, vi->name);
	} else {
		if (tp->tensor_type->shape->n_dim > TTC_MAX_RANK)
			return onx_unsupported(im, "input '%s' has rank %zu (at "
						   "most %d)", vi->name,
					       tp->tensor_type->shape->n_dim,
					       TTC_MAX_RANK);
		rank = (unsigned)tp->tensor_type->shape->n_dim;
		for (unsigned k = 0; k < rank; k++)
			if ((rc = dim_of(im, vi, k, &dims[k])))
				return rc;
	}
	uint64_t numel = 1;

	for (unsigned k = 0; k < rank; k++) {
		if (dims[k] && numel > ONX_MAX_NUMEL / (uint64_t)dims[k])
			return onx_fail(im, "input '%s' has over 2^40 elements",
					vi->name);
		numel *= (uint64_t)dims[k];
	}
	*out = ttc_tensor_type(im->ctx, dims, rank, elem, NULL);
	return *out ? 0 : onx_fail(im, "input '%s' has no valid tensor type",
				   vi->name);
}

/* The arguments: inputs first, then initializers. */
struct args {
	const ttc_type **types;
	const char **names;
	bool *constant; /* an input given a value at import time */
	ttc_tensor **data; /* initializers' values */
	size_t n, ninputs;
};

static void free_args(struct args *a)
{
	for (size_t i = 0; a->data && i < a->n; i++)
		ttc_tensor_free(a->data[i]);
	free(a->types);
	free(a->names);
	free(a->data);
	free(a->constant);
}

static int collect_args(struct onx *im, const Onnx__GraphProto *g,
			const char *base_dir, struct args *a)
{
	size_t max = g->n_input + g->n_initializer;

	a->types = calloc(max + 1, sizeof(*a->types));
	a->names = calloc(max + 1, sizeof(*a->names));
	a->data = calloc(max + 1, sizeof(*a->data));
	a->constant = calloc(max + 1, sizeof(*a->constant));
	if (!a->types || !a->names || !a->data || !a->constant)
		return -ENOMEM;
	for (size_t i = 0; i < g->n_input; i++) {
		const Onnx__ValueInfoProto *vi = g->input[i];

		if (!vi->name || !*vi->name)
			return onx_fail(im, "graph input %zu has no name", i);
		if (is_initializer(g, vi->name) || given_value(im, vi->name))
			continue;
		int rc = input_type(im, vi, &a->types[a->n]);

		if (rc)
			return rc;
		a->names[a->n++] = vi->name;
	}
	a->ninputs = a->n;
	for (size_t i = 0; i < g->n_input; i++) {
		const ttc_tensor *v = given_value(im, g->input[i]->name);

		if (!v || is_initializer(g, g->input[i]->name))
			continue;
		a->data[a->n] = ttc_tensor_clone(v);
		if (!a->data[a->n])
			return -ENOMEM;
		a->types[a->n] = v->type;
		a->constant[a->n] = true;
		a->names[a->n++] = g->input[i]->name;
	}
	for (size_t i = 0; i < g->n_initializer; i++) {
		const Onnx__TensorProto *t = g->initializer[i];

		if (!t->name || !*t->name)
			return onx_fail(im, "initializer %zu has no name", i);
		int rc = onx_tensor(im->ctx, t, base_dir, &a->data[a->n]);

		if (rc)
			return rc;
		a->types[a->n] = a->data[a->n]->type;
		a->names[a->n++] = t->name;
	}
	return 0;
}

static int declare_args(struct onx *im, const struct args *a)
{
	ttc_value **vals = calloc(a->n + 1, sizeof(*vals));
	const char *fname = im->o->func_name ? im->o->func_name : "forward";
	int rc = 0;

	if (!vals)
		return -ENOMEM;
	ttc_func *f = ttc_builder_func(im->b, fname, a->types, a->n, vals);

	for (size_t i = 0; f && !rc && i < a->n; i++) {
		ttc_func_set_arg_loc(f, i, ttc_loc_name(im->ctx, a->names[i],
							NULL));
		if (i >= a->ninputs) {
			struct ttc_named_attr e = {
				"ttcore.argument_type",
				ttc_opaque_attr(im->ctx, a->constant[i] ?
						"#ttcore.argument_type<constant>" :
						"#ttcore.argument_type<parameter>")};

			ttc_func_set_arg_attrs(f, i, ttc_dict_attr(im->ctx, &e, 1));
			rc = ttc_builder_set_data(im->b, vals[i], a->data[i]->data,
						  a->data[i]->numel *
							  ttc_type_elem_bytes(ttc_type_elem(a->types[i])));
		}
		if (!rc)
			rc = onx_bind(im, a->names[i], vals[i]);
	}
	free(vals);
	return f ? rc : -EINVAL;
}

/* ---- nodes ---- */

/* Whether name is one of the comma-separated list. */
static bool in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, name, n))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static int check_attrs(struct onx *im, const struct onx_op *op)
{
	const onx_node *n = im->node;

	for (size_t i = 0; i < n->n_attribute; i++) {
		const char *a = n->attribute[i]->name;

		if (!a || !*a)
			return onx_fail(im, "attribute %zu has no name", i);
		if (!in_list(op->attrs, a))
			return onx_unsupported(im, "attribute '%s'", a);
	}
	return 0;
}

/* Whether a diagnostic since the first ndiags names the node. */
static bool is_node_diag(struct onx *im, size_t ndiags)
{
	for (size_t i = ndiags; i < ttc_ctx_diag_count(im->ctx); i++)
		if (!strncmp(ttc_ctx_diag(im->ctx, i)->message, "node '", 6))
			return true;
	return false;
}

/* The ops made for the node (those after before) get its name as their
 * location, unless a converter gave one. */
static void name_new_ops(struct onx *im, ttc_op *before)
{
	const onx_node *n = im->node;
	const char *name = onx_node_name(n);
	const ttc_loc *loc = ttc_loc_name(im->ctx, name, NULL);

	for (ttc_op *op = ttc_builder_last_op(im->b); op && op != before;
	     op = ttc_op_prev(op))
		if (ttc_loc_kind(ttc_op_loc(op)) == TTC_LOC_UNKNOWN)
			ttc_op_set_loc(op, loc);
}

/* Ops whose definition before opset 7 means something else with the
 * same attributes, and the opset from which it is opset 7's. */
static const struct {
	const char *type, *why;
	int same_from;
} legacy_ops[] = {
	{"PRelu", "its slope broadcast otherwise before opset 7", 7},
	{"Dropout", "it trained (is_test 0) by default before opset 7", 7},
	{"BatchNormalization", "it trained (is_test 0) by default before "
			       "opset 7", 7},
	{"Upsample", "it was experimental before opset 7", 7},
	{"Concat", "its axis defaulted to 1 before opset 4", 4},
};

static int check_legacy(struct onx *im, const onx_node *n)
{
	for (size_t i = 0; i < sizeof(legacy_ops) / sizeof(legacy_ops[0]); i++)
		if (!strcmp(legacy_ops[i].type, n->op_type) &&
		    im->legacy_opset < legacy_ops[i].same_from)
			return onx_unsupported(im, "%s at opset %lld: %s",
					       n->op_type,
					       (long long)im->legacy_opset,
					       legacy_ops[i].why);
	return 0;
}

static int convert_node(struct onx *im, const onx_node *n)
{
	const struct onx_op *op;
	int rc;

	im->node = n;
	if (!n->op_type || !*n->op_type)
		return onx_fail(im, "the node has no op type");
	if (n->domain && *n->domain && strcmp(n->domain, "ai.onnx"))
		return onx_unsupported(im, "domain '%s'", n->domain);
	if (im->legacy_opset && (rc = check_legacy(im, n)))
		return rc;
	op = onx_find_op(n->op_type, im->opset);
	if (!op)
		return onx_unsupported(im, "op type %s at opset %lld has no "
					   "TTIR mapping",
				       n->op_type ? n->op_type : "''",
				       (long long)im->opset);
	for (size_t i = 0; i < n->n_input; i++)
		if (n->input[i][0] && !onx_lookup(im, n->input[i]))
			return onx_fail(im, "input %zu ('%s') is not defined "
					    "by an earlier node, an input or "
					    "an initializer",
					i, n->input[i]);
	rc = check_attrs(im, op);
	if (!rc) {
		ttc_op *before = ttc_builder_last_op(im->b);
		size_t ndiags = ttc_ctx_diag_count(im->ctx);

		rc = op->fn(im);
		if (rc && ttc_ctx_diag_count(im->ctx) == ndiags)
			onx_fail(im, "cannot be imported");
		else if (rc && !is_node_diag(im, ndiags))
			onx_fail(im, "cannot be imported (above)");
		name_new_ops(im, before);
	}
	for (size_t i = 0; !rc && i < n->n_output; i++)
		if (n->output[i][0] && !onx_lookup(im, n->output[i]))
			rc = onx_unsupported(im, "output %zu ('%s') is not "
						 "produced", i, n->output[i]);
	return rc;
}

static int convert_graph(struct onx *im, const Onnx__GraphProto *g)
{
	ttc_value **outs = calloc(g->n_output + 1, sizeof(*outs));
	int rc = 0;

	if (!outs)
		return -ENOMEM;
	for (size_t i = 0; !rc && i < g->n_node; i++)
		rc = convert_node(im, g->node[i]);
	im->node = NULL;
	for (size_t i = 0; !rc && i < g->n_output; i++) {
		outs[i] = onx_lookup(im, g->output[i]->name);
		if (!outs[i])
			rc = onx_fail(im, "graph output '%s' is not produced "
					  "by any node",
				      g->output[i]->name);
	}
	if (!rc)
		rc = ttc_builder_return(im->b, outs, g->n_output);
	free(outs);
	return rc;
}

/* ---- the clean-up ---- */

static bool results_unused(const ttc_op *op)
{
	for (size_t i = 0; i < ttc_op_num_results(op); i++)
		if (ttc_value_num_uses(ttc_op_result(op, i)))
			return false;
	return true;
}

static void drop_dead_ops(ttc_func *f)
{
	ttc_op *op = ttc_func_last_op(f);

	while (op) {
		ttc_op *prev = ttc_op_prev(op);

		if (strcmp(ttc_op_name(op), "func.return") && results_unused(op))
			ttc_op_erase(op);
		op = prev;
	}
}

static int make_model(struct onx *im, struct args *a, ttc_onnx_model *om)
{
	om->module = ttc_builder_take_module(im->b);
	om->func = ttc_module_item_func(om->module, 0);
	om->ninputs = a->ninputs;
	drop_dead_ops(om->func);
	om->params = calloc(a->n + 1, sizeof(*om->params));
	if (!om->params)
		return -ENOMEM;
	/* keep the initializers something reads, moving their values along
	 * as the arguments close up */
	size_t k = 0;

	for (size_t i = 0; i < a->n; i++) {
		ttc_value *v = ttc_func_arg(om->func, k);

		if (i >= a->ninputs && !ttc_value_num_uses(v)) {
			ttc_func_erase_arg(om->func, k);
			continue;
		}
		om->params[k++] = a->data[i];
		a->data[i] = NULL;
	}
	om->nargs = k;
	return ttc_module_verify(om->module);
}

/* ---- entry points ---- */

static int find_opset(struct onx *im, const Onnx__ModelProto *m)
{
	im->opset = -1;
	for (size_t i = 0; i < m->n_opset_import; i++) {
		const Onnx__OperatorSetIdProto *o = m->opset_import[i];

		if (!o->domain || !*o->domain || !strcmp(o->domain, "ai.onnx"))
			im->opset = o->version;
	}
	if (im->opset < 0 && !m->n_opset_import)
		im->opset = 1; /* IR version 1 models have no opset_import */
	if (im->opset < 1)
		return onx_unsupported(im, "the model imports no opset of the "
					   "default domain (only %s)",
				       m->opset_import[0]->domain);
	if (im->opset > 17)
		return onx_unsupported(im, "opset %lld (7 to 17 are)",
				       (long long)im->opset);
	if (im->opset < 7) {
		/* Read as opset 7: an op whose older definition has another
		 * meaning shows it by an attribute the converter rejects,
		 * or is in legacy_ops. */
		im->legacy_opset = im->opset;
		im->opset = 7;
	}
	return 0;
}

static int import_model(struct onx *im, const Onnx__ModelProto *m,
			const char *base_dir, ttc_onnx_model *om)
{
	struct args a = {0};
	int rc;

	if (!m->graph)
		return onx_fail(im, "the model has no graph");
	rc = find_opset(im, m);
	om->opset = im->legacy_opset ? im->legacy_opset : im->opset;
	for (size_t i = 0; !rc && i < m->graph->n_output; i++)
		if (!m->graph->output[i]->name || !*m->graph->output[i]->name)
			rc = onx_fail(im, "graph output %zu has no name", i);
	if (!rc)
		rc = collect_args(im, m->graph, base_dir, &a);
	if (!rc)
		rc = declare_args(im, &a);
	if (!rc)
		rc = convert_graph(im, m->graph);
	if (!rc)
		rc = make_model(im, &a, om);
	free_args(&a);
	return rc;
}

static int import(ttc_ctx *ctx, const void *data, size_t len,
		  const struct ttc_onnx_options *o, const char *base_dir,
		  ttc_onnx_model **out)
{
	struct ttc_onnx_options def = ttc_onnx_defaults();
	struct onx im = {.ctx = ctx, .o = o ? o : &def};
	ttc_onnx_model *om = calloc(1, sizeof(*om));
	Onnx__ModelProto *m;
	int rc = -ENOMEM;

	*out = NULL;
	if (!om)
		return -ENOMEM;
	om->ctx = ctx;
	m = onnx__model_proto__unpack(NULL, len, data);
	if (!m) {
		free(om);
		ttc_diag_addf(ctx, "the ONNX model does not parse (not a "
				   "ModelProto, or damaged)");
		return -EINVAL;
	}
	im.model = m;
	im.b = ttc_builder_new(ctx, NULL);
	if (im.b && !onx_use_folding(&im))
		rc = import_model(&im, m, base_dir, om);
	ttc_builder_free(im.b);
	free(im.map);
	onnx__model_proto__free_unpacked(m, NULL);
	if (rc) {
		ttc_onnx_model_free(om);
		return rc;
	}
	*out = om;
	return 0;
}

int ttc_onnx_import_bytes(ttc_ctx *ctx, const void *data, size_t len,
			  const struct ttc_onnx_options *o,
			  ttc_onnx_model **out)
{
	return import(ctx, data, len, o, o ? o->base_dir : NULL, out);
}

int ttc_onnx_import(ttc_ctx *ctx, const char *path,
		    const struct ttc_onnx_options *o, ttc_onnx_model **out)
{
	char *dir = strdup(path), *slash;
	void *data = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash)
		slash[1] = 0;
	else
		strcpy(dir, ".");
	rc = onx_read_file(ctx, path, &data, &len);
	if (!rc)
		rc = import(ctx, data, len, o,
			    o && o->base_dir ? o->base_dir : dir, out);
	free(data);
	free(dir);
	return rc;
}

void ttc_onnx_model_free(ttc_onnx_model *om)
{
	if (!om)
		return;
	for (size_t i = 0; om->params && i < om->nargs; i++)
		ttc_tensor_free(om->params[i]);
	free(om->params);
	ttc_module_free(om->module);
	free(om);
}

ttc_module *ttc_onnx_module(const ttc_onnx_model *om)
{
	return om->module;
}

ttc_func *ttc_onnx_func(const ttc_onnx_model *om)
{
	return om->func;
}

ttc_module *ttc_onnx_take_module(ttc_onnx_model *om)
{
	ttc_module *m = om->module;

	om->module = NULL;
	return m;
}

size_t ttc_onnx_num_inputs(const ttc_onnx_model *om)
{
	return om->ninputs;
}

int64_t ttc_onnx_opset(const ttc_onnx_model *om)
{
	return om->opset;
}

const ttc_tensor *ttc_onnx_param(void *arg, ttc_func *f, size_t i)
{
	const ttc_onnx_model *om = arg;

	return f == om->func && i < om->nargs ? om->params[i] : NULL;
}

int ttc_onnx_only_op(const char *path, char *op, size_t n)
{
	ttc_ctx *ctx = ttc_ctx_new();
	Onnx__ModelProto *m = NULL;
	void *data = NULL;
	size_t len;
	int rc = -ENOMEM;

	if (ctx && !(rc = onx_read_file(ctx, path, &data, &len))) {
		m = onnx__model_proto__unpack(NULL, len, data);
		rc = !m ? -EINVAL : m->graph && m->graph->n_node == 1;
		if (rc == 1)
			snprintf(op, n, "%s", m->graph->node[0]->op_type);
	}
	if (m)
		onnx__model_proto__free_unpacked(m, NULL);
	free(data);
	ttc_ctx_free(ctx);
	return rc;
}

int ttc_onnx_parse_shape(const char *arg, struct ttc_onnx_shape *s)
{
	const char *eq = strchr(arg, '=');
	const char *p;

	memset(s, 0, sizeof(*s));
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(s->name))
		return -EINVAL;
	memcpy(s->name, arg, (size_t)(eq - arg));
	for (p = eq + 1; *p;) {
		char *end;
		long long d;

		if (s->rank == TTC_MAX_RANK || *p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		d = strtoll(p, &end, 10);
		if (errno || d < 0 || d > (1ll << 31))
			return -EINVAL;
		s->dims[s->rank++] = d;
		p = end;
		if (*p == 'x' && p[1])
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}
