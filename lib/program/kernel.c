// SPDX-License-Identifier: Apache-2.0
/*
 * Kernels: configs, source path resolution, creation, one kernel per
 * processor and core, and building through tt_kbuild (kbuild.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "program_internal.h"

/* ---- configs ---- */

struct tt_kernel_config tt_data_movement_config(enum tt_dm_processor proc)
{
	struct tt_kernel_config c = {
		.type = TT_KERNEL_DATA_MOVEMENT,
		.processor = proc,
		.noc = proc == TT_RISCV_1 ? TT_NOC_1 : TT_NOC_0,
	};

	return c;
}

struct tt_kernel_config tt_reader_config(void)
{
	struct tt_kernel_config c = {
		.type = TT_KERNEL_READER,
		.processor = TT_RISCV_1,
		.noc = TT_NOC_1,
	};

	return c;
}

struct tt_kernel_config tt_writer_config(void)
{
	struct tt_kernel_config c = {
		.type = TT_KERNEL_WRITER,
		.processor = TT_RISCV_0,
		.noc = TT_NOC_0,
	};

	return c;
}

struct tt_kernel_config tt_compute_config(void)
{
	struct tt_kernel_config c = {
		.type = TT_KERNEL_COMPUTE,
		.math_fidelity = TT_HIFI4,
	};

	return c;
}

const char *tt_kproc_name(enum tt_kproc p)
{
	switch (p) {
	case TT_KPROC_BRISC:
		return "RISCV_0 (BRISC)";
	case TT_KPROC_NCRISC:
		return "RISCV_1 (NCRISC)";
	default:
		return "the compute processor";
	}
}

static bool is_identifier(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int check_defines(const struct tt_kernel_config *c, const char *fn)
{
	if (c->define_count && !c->defines)
		return tt_error(-EINVAL, "%s: %u defines but defines is NULL",
				fn, c->define_count);
	for (unsigned i = 0; i < c->define_count; i++) {
		const struct tt_define *d = &c->defines[i];

		if (!d->name || !is_identifier(d->name))
			return tt_error(-EINVAL,
					"%s: define %u: name '%s' is not a C identifier",
					fn, i, d->name ? d->name : "(null)");
		if (d->value && strpbrk(d->value, "\r\n"))
			return tt_error(-EINVAL,
					"%s: define %s: the value must be one line",
					fn, d->name);
	}
	return 0;
}

static int check_named(const struct tt_kernel_config *c, const char *fn)
{
	const struct tt_named_arg *a = c->named_compile_args;

	if (c->named_compile_arg_count && !a)
		return tt_error(-EINVAL,
				"%s: %u named compile-time args but named_compile_args is NULL",
				fn, c->named_compile_arg_count);
	if (c->named_compile_arg_count > TT_MAX_NAMED_COMPILE_ARGS)
		return tt_error(-E2BIG,
				"%s: %u named compile-time args, at most %u",
				fn, c->named_compile_arg_count,
				TT_MAX_NAMED_COMPILE_ARGS);
	for (unsigned i = 0; i < c->named_compile_arg_count; i++) {
		if (!a[i].name || !is_identifier(a[i].name) ||
		    strlen(a[i].name) > TT_NAMED_ARG_NAME_MAX)
			return tt_error(-EINVAL,
					"%s: named compile-time arg %u: name '%.160s' is not a C identifier of at most %u characters",
					fn, i, a[i].name ? a[i].name : "(null)",
					TT_NAMED_ARG_NAME_MAX);
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(a[k].name, a[i].name))
				return tt_error(-EINVAL,
						"%s: named compile-time arg '%s' is given twice (%u and %u)",
						fn, a[i].name, k, i);
	}
	return 0;
}

static int check_type(const struct tt_kernel_config *c, const char *fn)
{
	switch (c->type) {
	case TT_KERNEL_DATA_MOVEMENT:
		if ((unsigned)c->processor > TT_RISCV_1)
			return tt_error(-EINVAL,
					"%s: data movement processor %d is neither RISCV_0 nor RISCV_1",
					fn, (int)c->processor);
		if ((unsigned)c->noc > TT_NOC_1)
			return tt_error(-EINVAL,
					"%s: NOC %d does not exist (0 or 1)",
					fn, (int)c->noc);
		return 0;
	case TT_KERNEL_READER:
	case TT_KERNEL_WRITER:
		return 0;
	case TT_KERNEL_COMPUTE:
		if (c->math_fidelity != TT_LOFI && c->math_fidelity != TT_HIFI2 &&
		    c->math_fidelity != TT_HIFI3 && c->math_fidelity != TT_HIFI4)
			return tt_error(-EINVAL,
					"%s: math fidelity %d is not LoFi (0), HiFi2 (2), HiFi3 (3) or HiFi4 (4)",
					fn, (int)c->math_fidelity);
		return 0;
	case TT_KERNEL_ETHERNET:
		return tt_error(-ENOTSUP,
				"%s: Ethernet kernels are not supported: no Ethernet cores run kernels on the model",
				fn);
	}
	return tt_error(-EINVAL, "%s: kernel type %d does not exist", fn,
			(int)c->type);
}

static int check_config(const struct tt_kernel_config *c, const char *fn)
{
	int ret = check_type(c, fn);

	if (ret)
		return ret;
	if (c->compile_arg_count && !c->compile_args)
		return tt_error(-EINVAL,
				"%s: %u compile-time args but compile_args is NULL",
				fn, c->compile_arg_count);
	if ((unsigned)c->opt_level > TT_OPT_OS)
		return tt_error(-EINVAL, "%s: optimisation level %d does not exist",
				fn, (int)c->opt_level);
	ret = check_named(c, fn);
	return ret ? ret : check_defines(c, fn);
}

/* ---- path resolution ---- */

static bool readable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK);
}

struct tried {
	char list[1024];
	size_t len;
};

static void note(struct tried *t, const char *place)
{
	int n = snprintf(t->list + t->len, sizeof(t->list) - t->len, "%s%s",
			 t->len ? ", " : "", place);

	if (n > 0)
		t->len = t->len + (size_t)n < sizeof(t->list) ?
				 t->len + (size_t)n :
				 sizeof(t->list) - 1;
}

/* dir/name if it is a readable file: a malloc'd copy in *out. */
static bool try_dir(struct tried *t, const char *dir, size_t dlen,
		    const char *name, char **out)
{
	size_t len = dlen + 1 + strlen(name) + 1;
	char *p = malloc(len);

	if (!p)
		return false;
	snprintf(p, len, "%.*s/%s", (int)dlen, dir, name);
	if (readable_file(p)) {
		*out = p;
		return true;
	}
	note(t, p);
	free(p);
	return false;
}

/* Each directory of a colon-separated list, in order. */
static bool try_list(struct tried *t, const char *list, const char *name,
		     char **out)
{
	while (list && *list) {
		const char *end = strchr(list, ':');
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (len && try_dir(t, list, len, name, out))
			return true;
		list = end ? end + 1 : NULL;
	}
	return false;
}

static int resolve(const char *path, const char *fn, char **out)
{
	struct tried t = { .len = 0 };
	char cwd[4096];
	const char *home, *kpath, *kvar;
	char msg[512];
	int ret;

	t.list[0] = 0;
	/* TT-Metal's name for the same list of directories. */
	ret = tt_env_synonym("TT_KERNEL_PATH", "TT_METAL_KERNEL_PATH", &kpath,
			     &kvar);
	if (ret) {
		snprintf(msg, sizeof(msg), "%s", tt_last_error());
		return tt_error(ret, "%s: kernel file '%s': %s", fn, path, msg);
	}
	if (path[0] == '/') {
		if (readable_file(path)) {
			*out = strdup(path);
			return *out ? 0 : tt_error(-ENOMEM, "%s: out of memory", fn);
		}
		note(&t, path);
	} else {
		if (getcwd(cwd, sizeof(cwd)) &&
		    try_dir(&t, cwd, strlen(cwd), path, out))
			return 0;
		if (try_list(&t, kpath, path, out))
			return 0;
		home = getenv("TT_METAL_HOME");
		if (home && *home && try_dir(&t, home, strlen(home), path, out))
			return 0;
		if (!kpath)
			note(&t, "(TT_KERNEL_PATH and TT_METAL_KERNEL_PATH unset)");
		if (!home || !*home)
			note(&t, "(TT_METAL_HOME unset)");
	}
	return tt_error(-ENOENT, "%s: kernel file '%s' not found; tried %s", fn,
			path, t.list);
}

/* ---- kernel objects ---- */

struct tt_kernel_obj *tt_kernel_find(const tt_program *p, tt_kernel_handle k,
				     const char *fn)
{
	if (k < p->nkernels)
		return p->kernels[k];
	tt_error(-EINVAL, "%s: program %u has no kernel %u (it has %u)", fn,
		 p->id, k, p->nkernels);
	return NULL;
}

void tt_kernel_obj_free(struct tt_kernel_obj *k)
{
	if (!k)
		return;
	if (k->pub.bin)
		tt_kbinary_put(k->pub.bin);
	for (unsigned i = 0; i < k->define_count; i++) {
		free((char *)k->defines[i].name);
		free((char *)k->defines[i].value);
	}
	if (k->rta)
		for (unsigned i = 0; i < k->cores.ncores; i++)
			free(k->rta[i].args);
	for (unsigned i = 0; i < k->named_count; i++)
		free((char *)k->named[i].name);
	free(k->named);
	free(k->defines);
	free(k->ct_args);
	free(k->name);
	free(k->path);
	free(k->source);
	free(k->cell);
	free(k->rta);
	free(k->crta);
	tt_program_rset_free(&k->cores);
	free(k);
}

int tt_kernel_core_index(const struct tt_kernel_obj *k, struct tt_xy c)
{
	const struct tt_core_range *b = &k->cores.box;
	unsigned w = b->end.x - b->start.x + 1;

	if (!tt_core_range_contains(b, c))
		return -1;
	return k->cell[(c.y - b->start.y) * w + (c.x - b->start.x)];
}

/* Number the kernel's cores in iteration order over its bounding box. */
static int index_cores(struct tt_kernel_obj *k)
{
	const struct tt_core_range *b = &k->cores.box;
	unsigned w = b->end.x - b->start.x + 1;
	unsigned cells = w * (b->end.y - b->start.y + 1);
	struct tt_core_range_set s;
	struct tt_core_iter it;
	struct tt_xy c;
	int n = 0;

	k->cell = malloc(cells * sizeof(*k->cell));
	k->rta = calloc(k->cores.ncores, sizeof(*k->rta));
	if (!k->cell || !k->rta)
		return -ENOMEM;
	for (unsigned i = 0; i < cells; i++)
		k->cell[i] = -1;
	tt_program_rset_to_set(&k->cores, &s);
	for (tt_core_iter_init(&it, &s); tt_core_iter_next(&it, &c);) {
		k->rta[n].count = -1;
		k->cell[(c.y - b->start.y) * w + (c.x - b->start.x)] = n++;
	}
	k->crta_count = -1;
	return 0;
}

static char *dup_or_null(const char *s, bool *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = true;
	return d;
}

static int copy_config(struct tt_kernel_obj *k,
		       const struct tt_kernel_config *c)
{
	static const char *const opts[] = { NULL, "O0", "O1", "O2", "O3",
					    "Os" };
	bool fail = false;

	if (c->compile_arg_count) {
		k->ct_args = malloc(c->compile_arg_count * sizeof(uint32_t));
		if (!k->ct_args)
			return -ENOMEM;
		memcpy(k->ct_args, c->compile_args,
		       c->compile_arg_count * sizeof(uint32_t));
		k->ct_count = c->compile_arg_count;
	}
	if (c->define_count) {
		k->defines = calloc(c->define_count, sizeof(*k->defines));
		if (!k->defines)
			return -ENOMEM;
		k->define_count = c->define_count;
		for (unsigned i = 0; i < c->define_count; i++) {
			k->defines[i].name = dup_or_null(c->defines[i].name,
							 &fail);
			k->defines[i].value = dup_or_null(c->defines[i].value,
							  &fail);
		}
	}
	if (c->named_compile_arg_count) {
		k->named = calloc(c->named_compile_arg_count, sizeof(*k->named));
		if (!k->named)
			return -ENOMEM;
		k->named_count = c->named_compile_arg_count;
		for (unsigned i = 0; i < c->named_compile_arg_count; i++) {
			k->named[i].name = dup_or_null(
				c->named_compile_args[i].name, &fail);
			k->named[i].value = c->named_compile_args[i].value;
		}
	}
	k->opt = opts[c->opt_level];
	if (!k->opt)
		k->opt = c->type == TT_KERNEL_COMPUTE ? "O3" : "O2";
	return fail ? -ENOMEM : 0;
}

static void set_processor(struct tt_kernel_obj *k,
			  const struct tt_kernel_config *c)
{
	k->type = c->type;
	switch (c->type) {
	case TT_KERNEL_READER:
		k->pub.proc = TT_KPROC_NCRISC;
		k->pub.noc = 1;
		break;
	case TT_KERNEL_WRITER:
		k->pub.proc = TT_KPROC_BRISC;
		k->pub.noc = 0;
		break;
	case TT_KERNEL_COMPUTE:
		k->pub.proc = TT_KPROC_COMPUTE;
		k->pub.noc = 0;
		k->math_fidelity = c->math_fidelity;
		k->fp32_dest_acc = c->fp32_dest_acc_en;
		k->dst_full_sync = c->dst_full_sync_en;
		k->math_approx = c->math_approx_mode;
		break;
	default:
		k->pub.proc = c->processor == TT_RISCV_1 ? TT_KPROC_NCRISC :
							   TT_KPROC_BRISC;
		k->pub.noc = c->noc;
		break;
	}
}

/* At most one kernel per processor of a core. */
static int check_processor(const tt_program *p, const struct tt_kernel_obj *k,
			   const char *fn)
{
	struct tt_xy c;

	for (unsigned i = 0; i < p->nkernels; i++) {
		const struct tt_kernel_obj *o = p->kernels[i];

		if (o->pub.proc != k->pub.proc ||
		    !tt_program_rset_common(&o->cores, &k->cores, &c))
			continue;
		return tt_error(-EEXIST,
				"%s: kernel %u (%s) and kernel %u (%s) would both run on %s of core (%u,%u)",
				fn, p->nkernels, k->name, o->pub.id, o->name,
				tt_kproc_name(k->pub.proc), c.x, c.y);
	}
	return 0;
}

static int kernel_name(struct tt_kernel_obj *k, const char *path,
		       unsigned id)
{
	char buf[32];

	if (path) {
		k->name = strdup(path);
	} else {
		snprintf(buf, sizeof(buf), "<string %u>", id);
		k->name = strdup(buf);
	}
	return k->name ? 0 : -ENOMEM;
}

static int create(tt_program *p, const char *path, const char *source,
		  const struct tt_core_range_set *cores,
		  const struct tt_kernel_config *cfg, tt_kernel_handle *out,
		  const char *fn)
{
	struct tt_kernel_config def = tt_data_movement_config(TT_RISCV_0);
	struct tt_kernel_obj *k;
	int ret;

	if (!cfg)
		cfg = &def;
	ret = check_config(cfg, fn);
	if (ret)
		return ret;
	k = calloc(1, sizeof(*k));
	if (!k)
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	k->pub.id = p->nkernels;
	set_processor(k, cfg);
	ret = tt_program_rset_from(&k->cores, cores, fn);
	if (!ret && path)
		ret = resolve(path, fn, &k->path);
	if (!ret && (kernel_name(k, path, k->pub.id) || index_cores(k) ||
		     copy_config(k, cfg)))
		ret = tt_error(-ENOMEM, "%s: out of memory", fn);
	if (!ret && source) {
		k->source_len = strlen(source);
		k->source = strdup(source);
		if (!k->source)
			ret = tt_error(-ENOMEM, "%s: out of memory", fn);
	}
	if (!ret)
		ret = check_processor(p, k, fn);
	if (!ret && tt_append(&p->kernels, &p->nkernels, k))
		ret = tt_error(-ENOMEM, "%s: out of memory", fn);
	if (ret) {
		tt_kernel_obj_free(k);
		return ret;
	}
	k->pub.name = k->name;
	tt_program_changed(p);
	*out = k->pub.id;
	return 0;
}

/* The checks of every creating call, naming it (fn). */
static int create_file(tt_program *p, const char *path,
		       const struct tt_core_range_set *cores,
		       const struct tt_kernel_config *cfg,
		       tt_kernel_handle *out, const char *fn)
{
	if (!p || !path || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				!p ? "program" : !path ? "path" : "out");
	if (!*path)
		return tt_error(-EINVAL, "%s: the kernel path is empty", fn);
	return create(p, path, NULL, cores, cfg, out, fn);
}

static int create_string(tt_program *p, const char *source,
			 const struct tt_core_range_set *cores,
			 const struct tt_kernel_config *cfg,
			 tt_kernel_handle *out, const char *fn)
{
	if (!p || !source || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				!p ? "program" : !source ? "source" : "out");
	if (!*source)
		return tt_error(-EINVAL, "%s: the kernel source is empty", fn);
	return create(p, NULL, source, cores, cfg, out, fn);
}

int tt_create_kernel(tt_program *p, const char *path,
		     const struct tt_core_range_set *cores,
		     const struct tt_kernel_config *cfg, tt_kernel_handle *out)
{
	return create_file(p, path, cores, cfg, out, "tt_create_kernel");
}

int tt_create_kernel_from_string(tt_program *p, const char *source,
				 const struct tt_core_range_set *cores,
				 const struct tt_kernel_config *cfg,
				 tt_kernel_handle *out)
{
	return create_string(p, source, cores, cfg, out,
			     "tt_create_kernel_from_string");
}

int tt_create_kernel_on_core(tt_program *p, const char *path,
			     struct tt_xy core,
			     const struct tt_kernel_config *cfg,
			     tt_kernel_handle *out)
{
	struct tt_core_range_set s = tt_core_range_set_of_core(core.x, core.y);

	return create_file(p, path, &s, cfg, out, "tt_create_kernel_on_core");
}

int tt_create_kernel_on_range(tt_program *p, const char *path,
			      struct tt_core_range range,
			      const struct tt_kernel_config *cfg,
			      tt_kernel_handle *out)
{
	struct tt_core_range_set s = { .count = 1, .ranges = { range } };

	return create_file(p, path, &s, cfg, out, "tt_create_kernel_on_range");
}

int tt_create_kernel_from_string_on_core(tt_program *p, const char *source,
					 struct tt_xy core,
					 const struct tt_kernel_config *cfg,
					 tt_kernel_handle *out)
{
	struct tt_core_range_set s = tt_core_range_set_of_core(core.x, core.y);

	return create_string(p, source, &s, cfg, out,
			     "tt_create_kernel_from_string_on_core");
}

int tt_create_kernel_from_string_on_range(tt_program *p, const char *source,
					  struct tt_core_range range,
					  const struct tt_kernel_config *cfg,
					  tt_kernel_handle *out)
{
	struct tt_core_range_set s = { .count = 1, .ranges = { range } };

	return create_string(p, source, &s, cfg, out,
			     "tt_create_kernel_from_string_on_range");
}

int tt_kernel_get_cores(const tt_program *p, tt_kernel_handle k,
			struct tt_core_range_set *out)
{
	const struct tt_kernel_obj *o;

	if (!p || !out)
		return tt_error(-EINVAL, "tt_kernel_get_cores: %s is NULL",
				p ? "out" : "program");
	o = tt_kernel_find(p, k, "tt_kernel_get_cores");
	if (!o)
		return -EINVAL;
	tt_program_rset_to_set(&o->cores, out);
	return 0;
}

/* ---- building ---- */

int tt_kernel_build(tt_program *p, struct tt_kernel_obj *k)
{
	struct tt_kbuild_opts o = {
		.proc = k->pub.proc,
		.path = k->path,
		.source = k->source,
		.source_len = k->source_len,
		.ct_args = k->ct_args,
		.ct_arg_count = k->ct_count,
		.defines = k->defines,
		.define_count = k->define_count,
		.named_args = k->named,
		.named_arg_count = k->named_count,
		.noc = k->pub.noc,
		.math_fidelity = k->math_fidelity,
		.fp32_dest_acc = k->fp32_dest_acc,
		.math_approx = k->math_approx,
		.dst_full_sync = k->dst_full_sync,
		.opt_level = k->opt,
	};
	int ret = tt_kbuild(&o, &k->pub.bin);

	if (ret) {
		k->pub.bin = NULL;
		return tt_error_wrap(ret, "program %u: kernel %u (%s)", p->id,
				     k->pub.id, k->name);
	}
	return 0;
}
