// SPDX-License-Identifier: Apache-2.0
/*
 * The embedded backend API, programs (tt/backend.h): programs added with
 * their parameter bindings, runs whose parameter values come as decimal
 * text (PyBuda's std::map<std::string, std::string>), and the wait for
 * a run that names it when it failed.
 *
 * A binding is resolved once, when its program is added, to a pointer
 * into the program's runtime-argument storage (tt_get_runtime_args: the
 * words never move), so a run only parses its values and stores words.
 * Every run writes every parameter, given or default: a run never
 * depends on the values of the run before it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_internal.h"
#include "lib/program/program_internal.h"

/* "fn: program \"name\"" and the like. */
#define WHERE_MAX (64 + TT_BACKEND_SHOW_BUF)

static struct tt_backend_prog *find_prog(const tt_backend *b, const char *name)
{
	for (unsigned i = 0; i < b->nprogs; i++)
		if (!strcmp(b->progs[i]->name, name))
			return b->progs[i];
	return NULL;
}

static int find_pdef(const struct tt_backend_prog *p, const char *name)
{
	for (unsigned i = 0; i < p->nparams; i++)
		if (!strcmp(p->params[i].name, name))
			return (int)i;
	return -1;
}

void tt_backend_prog_free(struct tt_backend_prog *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nparams; i++) {
		free(p->params[i].name);
		free(p->params[i].words);
	}
	free(p->params);
	tt_program_free(p->prog);
	if (p->host.free)
		p->host.free(p->host.arg);
	free(p->name);
	free(p);
}

/* ---- adding programs ---- */

/* The word binding i writes, which the program's args must have. */
static int bound_word(tt_program *prog, const struct tt_backend_binding *bd,
		      unsigned i, const char *where, uint32_t **word)
{
	char show[TT_BACKEND_SHOW_BUF];
	uint32_t *args;
	unsigned count;
	int ret;

	tt_backend_show(show, bd->param);
	ret = bd->common ? tt_get_common_runtime_args(prog, bd->kernel, &args,
						      &count)
			 : tt_get_runtime_args(prog, bd->kernel, bd->core,
					       &args, &count);
	if (ret)
		return tt_error_wrap(ret, "%s: binding %u (%s)", where, i,
				     show);
	if (bd->index < count) {
		*word = &args[bd->index];
		return 0;
	}
	if (bd->common)
		return tt_error(-EINVAL,
				"%s: binding %u (%s): kernel %u has no common "
				"arg %u (it has %u; set the args before adding "
				"the program)",
				where, i, show, bd->kernel, bd->index, count);
	return tt_error(-EINVAL,
			"%s: binding %u (%s): kernel %u on core (%u,%u) has no "
			"arg %u (it has %u; set the args before adding the "
			"program)",
			where, i, show, bd->kernel, bd->core.x, bd->core.y,
			bd->index, count);
}

/* The parameter that writes word already, or NULL. */
static const char *word_owner(const struct tt_backend_prog *p,
			      const uint32_t *word)
{
	for (unsigned i = 0; i < p->nparams; i++)
		for (unsigned j = 0; j < p->params[i].nwords; j++)
			if (p->params[i].words[j] == word)
				return p->params[i].name;
	return NULL;
}

/* A new parameter of p with no words yet: its index, or -ENOMEM. */
static int new_pdef(struct tt_backend_prog *p,
		    const struct tt_backend_binding *bd)
{
	struct tt_backend_pdef *grown;
	char *name = strdup(bd->param);

	grown = name ? realloc(p->params, (p->nparams + 1) * sizeof(*grown))
		     : NULL;
	if (!grown) {
		free(name);
		return -ENOMEM;
	}
	p->params = grown;
	p->params[p->nparams] = (struct tt_backend_pdef){
		.name = name,
		.def = bd->default_value,
	};
	return (int)p->nparams++;
}

static int add_binding(struct tt_backend_prog *p,
		       const struct tt_backend_binding *bd, unsigned i,
		       const char *where)
{
	char show[TT_BACKEND_SHOW_BUF], other[TT_BACKEND_SHOW_BUF], what[32];
	const char *owner;
	uint32_t *word = NULL;
	int k, ret;

	snprintf(what, sizeof(what), "binding %u parameter", i);
	ret = tt_backend_check_name(where, what, bd->param);
	if (!ret)
		ret = bound_word(p->prog, bd, i, where, &word);
	if (ret)
		return ret;
	tt_backend_show(show, bd->param);
	owner = word_owner(p, word);
	if (owner)
		return tt_error(-EINVAL,
				"%s: binding %u (%s): its word is bound to "
				"parameter %s already",
				where, i, show, tt_backend_show(other, owner));
	k = find_pdef(p, bd->param);
	if (k >= 0 && p->params[k].def != bd->default_value)
		return tt_error(-EINVAL,
				"%s: binding %u (%s): default %" PRIu32
				", an earlier binding of it has %" PRIu32,
				where, i, show, bd->default_value,
				p->params[k].def);
	if (k < 0)
		k = new_pdef(p, bd);
	if (k < 0 || tt_append(&p->params[k].words, &p->params[k].nwords, word))
		return tt_error(-ENOMEM, "%s: out of memory", where);
	return 0;
}

static int check_program_args(const tt_backend *b, const char *name,
			      const tt_program *prog,
			      const struct tt_backend_binding *bindings,
			      unsigned n)
{
	static const char fn[] = "tt_backend_add_program";
	char show[TT_BACKEND_SHOW_BUF];
	int ret;

	if (!b || !prog)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				b ? "program" : "backend");
	ret = tt_backend_check_name(fn, "program", name);
	if (ret)
		return ret;
	if (n && !bindings)
		return tt_error(-EINVAL, "%s: %u bindings but bindings is NULL",
				fn, n);
	if (find_prog(b, name))
		return tt_error(-EEXIST, "%s: there is a program %s already",
				fn, tt_backend_show(show, name));
	for (unsigned i = 0; i < b->nprogs; i++)
		if (b->progs[i]->prog == prog)
			return tt_error(
				-EEXIST,
				"%s: that program is the backend's "
				"already, as %s",
				fn, tt_backend_show(show, b->progs[i]->name));
	return 0;
}

/* Add p to the backend's lists: all or nothing. */
static int attach_prog(tt_backend *b, struct tt_backend_prog *p)
{
	unsigned nnames = b->nprogs;

	/* A name appended without its program is past the end: unseen. */
	if (tt_append(&b->prog_names, &nnames, p->name) ||
	    tt_append(&b->progs, &b->nprogs, p))
		return -ENOMEM;
	return 0;
}

int tt_backend_add_host_program(tt_backend *b, const char *name,
				const char *const *names,
				const uint32_t *defaults, unsigned n,
				const struct tt_backend_host_prog *host)
{
	static const char fn[] = "tt_backend_add_program";
	char where[WHERE_MAX], show[TT_BACKEND_SHOW_BUF];
	struct tt_backend_prog *p;
	int ret = tt_backend_check_name(fn, "program", name);

	if (ret)
		return ret;
	snprintf(where, sizeof(where), "%s: program %s", fn,
		 tt_backend_show(show, name));
	if (find_prog(b, name))
		return tt_error(-EEXIST, "%s: the name is taken", where);
	p = calloc(1, sizeof(*p));
	if (!p || !(p->name = strdup(name))) {
		free(p);
		return tt_error(-ENOMEM, "%s: out of memory", where);
	}
	for (unsigned i = 0; i < n && !ret; i++) {
		ret = tt_backend_check_name(fn, "parameter", names[i]);
		if (!ret && find_pdef(p, names[i]) >= 0)
			ret = tt_error(-EINVAL, "%s: parameter %s twice", where,
				       names[i]);
		if (!ret && new_pdef(p, &(struct tt_backend_binding){
					 .param = names[i],
					 .default_value = defaults[i]}) < 0)
			ret = tt_error(-ENOMEM, "%s: out of memory", where);
	}
	if (!ret && attach_prog(b, p))
		ret = tt_error(-ENOMEM, "%s: out of memory", where);
	if (ret) {
		tt_backend_prog_free(p);
		return ret;
	}
	p->host = *host;
	return 0;
}

int tt_backend_add_program(tt_backend *b, const char *name, tt_program *prog,
			   const struct tt_backend_binding *bindings,
			   unsigned n)
{
	char where[WHERE_MAX], show[TT_BACKEND_SHOW_BUF];
	struct tt_backend_prog *p;
	int ret = check_program_args(b, name, prog, bindings, n);

	if (ret)
		return ret;
	snprintf(where, sizeof(where), "tt_backend_add_program: program %s",
		 tt_backend_show(show, name));
	p = calloc(1, sizeof(*p));
	if (!p || !(p->name = strdup(name))) {
		free(p);
		return tt_error(-ENOMEM, "%s: out of memory", where);
	}
	p->prog = prog;
	for (unsigned i = 0; i < n && !ret; i++)
		ret = add_binding(p, &bindings[i], i, where);
	if (!ret && attach_prog(b, p))
		ret = tt_error(-ENOMEM, "%s: out of memory", where);
	if (ret) {
		p->prog = NULL; /* still the caller's */
		tt_backend_prog_free(p);
	}
	return ret;
}

/* ---- runs ---- */

/* Parse a decimal uint32 (digits only); NULL, or what is wrong with s. */
static const char *parse_u32(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return "is empty";
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return "is not a decimal number (digits only)";
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return "is larger than 4294967295";
	}
	*out = (uint32_t)v;
	return NULL;
}

/* The value of one given parameter into values[], which already holds
 * the defaults; given[] marks what this run set. */
static int take_param(const struct tt_backend_prog *p,
		      const struct tt_backend_param *pa, unsigned i,
		      uint32_t *values, bool *given, const char *where)
{
	char show[TT_BACKEND_SHOW_BUF], val[TT_BACKEND_SHOW_BUF];
	const char *why;
	int k;

	if (!pa->name)
		return tt_error(-EINVAL, "%s: params[%u]: name is NULL", where,
				i);
	tt_backend_show(show, pa->name);
	k = find_pdef(p, pa->name);
	if (k < 0)
		return tt_error(-ENOENT, "%s: no parameter %s (it has %u)",
				where, show, p->nparams);
	if (given[k])
		return tt_error(-EINVAL, "%s: parameter %s is given twice",
				where, show);
	if (!pa->value)
		return tt_error(-EINVAL, "%s: parameter %s: value is NULL",
				where, show);
	why = parse_u32(pa->value, &values[k]);
	if (why)
		return tt_error(-EINVAL, "%s: parameter %s: value %s %s", where,
				show, tt_backend_show(val, pa->value), why);
	given[k] = true;
	return 0;
}

/* Every parameter's value for this run: given, else its default. */
static int run_values(const struct tt_backend_prog *p,
		      const struct tt_backend_param *params, unsigned n,
		      uint32_t *values, const char *where)
{
	bool *given = calloc(p->nparams + 1, sizeof(*given));
	int ret = 0;

	if (!given)
		return tt_error(-ENOMEM, "%s: out of memory", where);
	for (unsigned k = 0; k < p->nparams; k++)
		values[k] = p->params[k].def;
	for (unsigned i = 0; i < n && !ret; i++)
		ret = take_param(p, &params[i], i, values, given, where);
	free(given);
	return ret;
}

static void write_values(struct tt_backend_prog *p, const uint32_t *values)
{
	for (unsigned k = 0; k < p->nparams; k++)
		for (unsigned j = 0; j < p->params[k].nwords; j++)
			*p->params[k].words[j] = values[k];
}

static int start(tt_backend *b, struct tt_backend_prog *p, const char *where)
{
	int ret = tt_enqueue_program(b->cq, p->prog, false);

	if (ret)
		return tt_error_wrap(ret, "%s: run %" PRIu64, where,
				     p->runs + 1);
	b->running = p;
	b->running_run = ++p->runs;
	return 0;
}

int tt_backend_wait_run(tt_backend *b)
{
	char show[TT_BACKEND_SHOW_BUF];
	struct tt_backend_prog *p = b->running;
	int ret;

	if (!p)
		return 0;
	b->running = NULL;
	ret = tt_finish(b->cq);
	if (ret)
		return tt_error_wrap(ret, "program %s run %" PRIu64,
				     tt_backend_show(show, p->name),
				     b->running_run);
	return 0;
}

int tt_backend_run_program(tt_backend *b, const char *name,
			   const struct tt_backend_param *params, unsigned n)
{
	static const char fn[] = "tt_backend_run_program";
	char where[WHERE_MAX], show[TT_BACKEND_SHOW_BUF];
	struct tt_backend_prog *p;
	uint32_t *values;
	int ret;

	if (!b)
		return tt_error(-EINVAL, "%s: backend is NULL", fn);
	ret = tt_backend_check_lookup(fn, "program", name);
	if (ret)
		return ret;
	tt_backend_show(show, name);
	p = find_prog(b, name);
	if (!p)
		return tt_error(-ENOENT, "%s: no program %s", fn, show);
	snprintf(where, sizeof(where), "%s: program %s", fn, show);
	if (n && !params)
		return tt_error(-EINVAL, "%s: %u params but params is NULL",
				where, n);
	values = malloc((p->nparams + 1) * sizeof(*values));
	if (!values)
		return tt_error(-ENOMEM, "%s: out of memory", where);
	ret = run_values(p, params, n, values, where);
	/* The device runs one program at a time: the previous run ends
	 * first, and if it failed this one does not start. */
	if (!ret && (ret = tt_backend_wait_run(b)))
		tt_error_wrap(ret, "%s not started", where);
	if (!ret && p->host.run) {
		/* Host-driven: the run ends before this returns. */
		ret = p->host.run(p->host.arg, values);
		++p->runs;
		if (ret)
			tt_error_wrap(ret, "%s: run %" PRIu64, where, p->runs);
	} else if (!ret) {
		write_values(p, values);
		ret = start(b, p, where);
	}
	free(values);
	return ret;
}

int tt_backend_finish(tt_backend *b)
{
	int ret;

	if (!b)
		return tt_error(-EINVAL, "tt_backend_finish: backend is NULL");
	ret = tt_backend_wait_run(b);
	return ret ? tt_error_wrap(ret, "tt_backend_finish") : 0;
}
