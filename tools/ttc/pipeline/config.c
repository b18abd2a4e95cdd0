// SPDX-License-Identifier: Apache-2.0
/*
 * PyBuda's set_configuration_options as struct ttc_config: one table row
 * per option (its name, type, field, and why it does not apply here, if
 * it does not), set by name, listed, and mapped to ttc_compile_options.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

enum opt_type { O_BOOL, O_INT, O_STR, O_DF, O_FID };

struct opt {
	const char *name;
	enum opt_type type;
	size_t off;
	const char *why; /* NULL: applied */
};

#define F(field) offsetof(struct ttc_config, field)

/* PyBuda's order. */
static const struct opt opts[] = {
	{"enable_recompute", O_BOOL, F(enable_recompute),
	 "training only: there is no backward pass"},
	{"balancer_policy", O_STR, F(balancer_policy), NULL},
	{"place_on_one_row", O_BOOL, F(place_on_one_row), NULL},
	{"enable_t_streaming", O_BOOL, F(enable_t_streaming),
	 "no t-streaming: each op runs on whole tensors"},
	{"manual_t_streaming", O_BOOL, F(manual_t_streaming),
	 "no t-streaming: each op runs on whole tensors"},
	{"enable_consteval", O_BOOL, F(enable_consteval), NULL},
	{"default_df_override", O_DF, F(default_df_override), NULL},
	{"accumulate_df", O_DF, F(accumulate_df), NULL},
	{"math_fidelity", O_FID, F(math_fidelity), NULL},
	{"performance_trace", O_STR, F(performance_trace),
	 "per-op times come from TT_OPS_PROFILE (ttc run --profile)"},
	{"backend_opt_level", O_INT, F(backend_opt_level),
	 "the op library has one optimization level"},
	{"backend_output_dir", O_STR, F(backend_output_dir), NULL},
	{"backend_device_descriptor_path", O_STR,
	 F(backend_device_descriptor_path),
	 "the device describes itself (tt_device_get_info)"},
	{"backend_cluster_descriptor_path", O_STR,
	 F(backend_cluster_descriptor_path), "one chip: no cluster"},
	{"backend_runtime_params_path", O_STR, F(backend_runtime_params_path),
	 "no backend database: the image holds everything"},
	{"backend_runtime_args", O_STR, F(backend_runtime_args),
	 "the runtime takes no arguments"},
	{"enable_auto_fusing", O_BOOL, F(enable_auto_fusing), NULL},
	{"enable_conv_prestride", O_BOOL, F(enable_conv_prestride),
	 "no host-side prestride: convolutions run as written"},
	{"enable_stable_softmax", O_BOOL, F(enable_stable_softmax),
	 "the op library has one softmax"},
	{"amp_level", O_INT, F(amp_level), NULL},
	{"harvested_rows", O_STR, F(harvested_rows),
	 "harvesting is read from the device"},
	{"store_backend_db_to_yaml", O_BOOL, F(store_backend_db_to_yaml),
	 "no backend database: the image holds everything"},
	{"input_queues_on_host", O_BOOL, F(input_queues_on_host),
	 "inputs always pass through host tensors"},
	{"output_queues_on_host", O_BOOL, F(output_queues_on_host),
	 "outputs always pass through host tensors"},
	{"enable_auto_transposing_placement", O_BOOL,
	 F(enable_auto_transposing_placement),
	 "placement is codegen's, row-major"},
	{"use_interactive_placer", O_BOOL, F(use_interactive_placer),
	 "placement is codegen's, one pass"},
	{"op_intermediates_to_save", O_STR, F(op_intermediates_to_save), NULL},
	{"enable_enumerate_u_kt", O_BOOL, F(enable_enumerate_u_kt),
	 "the op library picks its own block sizes"},
	{"enable_device_tilize", O_BOOL, F(enable_device_tilize),
	 "the host tilizes (tt_tensor_to)"},
	{"dram_placement_algorithm", O_STR, F(dram_placement_algorithm),
	 "DRAM tensors are interleaved over every channel"},
	{"chip_placement_policy", O_STR, F(chip_placement_policy),
	 "one chip per TT device"},
	{"enable_forked_dram_inputs", O_BOOL, F(enable_forked_dram_inputs),
	 "each op reads its inputs itself"},
	{"device_config", O_STR, F(device_config),
	 "the device describes itself (tt_device_get_info)"},
};

_Static_assert(sizeof(opts) / sizeof(opts[0]) == TTC_CONFIG_NOPTIONS,
	       "one row per option");

void ttc_config_init(struct ttc_config *c)
{
	memset(c, 0, sizeof(*c));
	c->enable_consteval = true;
	c->default_df_override = TT_INVALID;
	c->accumulate_df = TT_FLOAT16_B;
	c->math_fidelity = TT_HIFI3;
	c->enable_auto_fusing = true;
	c->input_queues_on_host = true;
	c->output_queues_on_host = true;
	c->use_interactive_placer = true;
	c->enable_enumerate_u_kt = true;
}

void ttc_config_release(struct ttc_config *c)
{
	for (size_t i = 0; i < TTC_CONFIG_NOPTIONS; i++) {
		free(c->owned[i]);
		c->owned[i] = NULL;
	}
}

const char *ttc_config_error(const struct ttc_config *c)
{
	return c->error;
}

const char *const *ttc_config_option_names(size_t *n)
{
	static const char *names[TTC_CONFIG_NOPTIONS];

	for (size_t i = 0; i < TTC_CONFIG_NOPTIONS; i++)
		names[i] = opts[i].name;
	if (n)
		*n = TTC_CONFIG_NOPTIONS;
	return names;
}

static int config_err(struct ttc_config *c, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
	return ret;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "true") || !strcmp(v, "1"))
		*out = true;
	else if (!strcasecmp(v, "false") || !strcmp(v, "0"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

static int parse_int(const char *v, int *out)
{
	char *end;
	long l = strtol(v, &end, 10);

	if (!*v || *end || l < -1000000 || l > 1000000)
		return -EINVAL;
	*out = (int)l;
	return 0;
}

static int set_str(struct ttc_config *c, size_t i, const char *v)
{
	char *copy = strdup(v);

	if (!copy)
		return -ENOMEM;
	free(c->owned[i]);
	c->owned[i] = copy;
	*(const char **)((char *)c + opts[i].off) = copy;
	return 0;
}

static int set_value(struct ttc_config *c, size_t i, const char *v)
{
	void *field = (char *)c + opts[i].off;

	switch (opts[i].type) {
	case O_BOOL:
		return parse_bool(v, field);
	case O_INT:
		return parse_int(v, field);
	case O_STR:
		return set_str(c, i, v);
	case O_DF:
		if (!strcmp(opts[i].name, "default_df_override") &&
		    !strcasecmp(v, "none")) {
			*(enum tt_data_format *)field = TT_INVALID;
			return 0;
		}
		return tt_data_format_parse(v, field) ? -EINVAL : 0;
	case O_FID:
		return ttc_fidelity_parse(v, field);
	}
	return -EINVAL;
}

static const char *type_name(enum opt_type t)
{
	static const char *const names[] = {"true or false", "an integer",
					    "a string",
					    "a data format (Float16_b, ...)",
					    "a fidelity (LoFi, HiFi2, "
					    "HiFi3, HiFi4)"};

	return names[t];
}

int ttc_set_configuration_options(struct ttc_config *c, const char *name,
				  const char *value)
{
	int ret;

	if (!c || !name || !value)
		return -EINVAL;
	for (size_t i = 0; i < TTC_CONFIG_NOPTIONS; i++) {
		if (strcmp(opts[i].name, name))
			continue;
		ret = set_value(c, i, value);
		if (ret == -ENOMEM)
			return config_err(c, ret, "%s: out of memory", name);
		if (ret)
			return config_err(c, -EINVAL, "%s: '%s' is not %s",
					  name, value, type_name(opts[i].type));
		c->set_by_name |= 1ull << i;
		return 0;
	}
	return config_err(c, -ENOENT,
			  "'%s' is not a configuration option (%u options: "
			  "ttc_config_option_names)",
			  name, TTC_CONFIG_NOPTIONS);
}

/* Whether option i differs from its default. */
static bool changed(const struct ttc_config *c, const struct ttc_config *d,
		    size_t i)
{
	const char *a = (const char *)c + opts[i].off;
	const char *b = (const char *)d + opts[i].off;
	const char *sa, *sb;

	switch (opts[i].type) {
	case O_BOOL:
		return *(const bool *)a != *(const bool *)b;
	case O_INT:
		return *(const int *)a != *(const int *)b;
	case O_STR:
		sa = *(const char *const *)a;
		sb = *(const char *const *)b;
		return sa != sb && (!sa || !sb || strcmp(sa, sb));
	case O_DF:
		return *(const enum tt_data_format *)a !=
		       *(const enum tt_data_format *)b;
	case O_FID:
		return *(const enum tt_math_fidelity *)a !=
		       *(const enum tt_math_fidelity *)b;
	}
	return false;
}

size_t ttc_config_unsupported(const struct ttc_config *c, FILE *f)
{
	struct ttc_config d;
	size_t n = 0;

	ttc_config_init(&d);
	for (size_t i = 0; i < TTC_CONFIG_NOPTIONS; i++) {
		if (!opts[i].why ||
		    (!(c->set_by_name & (1ull << i)) && !changed(c, &d, i)))
			continue;
		if (f)
			fprintf(f, "%s: not supported on this system (%s)\n",
				opts[i].name, opts[i].why);
		n++;
	}
	return n;
}

/* PyBuda's balancer policies as codegen's balancers: NLP keeps the
 * widest grids (greedy); Ribbon (CNN, its old name) keeps activations in
 * L1 first (min_dram). */
static const char *balancer_of(const char *policy)
{
	static const char *const map[][2] = {
		{"NLP", "greedy"},	  {"Ribbon", "min_dram"},
		{"CNN", "min_dram"},	  {"greedy", "greedy"},
		{"min_dram", "min_dram"},
	};

	if (!policy)
		return "greedy";
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcasecmp(policy, map[i][0]))
			return map[i][1];
	return NULL;
}

int ttc_config_compile_options(struct ttc_config *c,
			       struct ttc_compile_options *o)
{
	const char *bal = balancer_of(c->balancer_policy);

	if (!bal)
		return config_err(c, -EINVAL,
				  "balancer_policy '%s': the policies here are "
				  "NLP, Ribbon (CNN), greedy and min_dram",
				  c->balancer_policy);
	*o = ttc_compile_defaults();
	o->passes.enable_consteval = c->enable_consteval;
	o->passes.enable_auto_fusing = c->enable_auto_fusing;
	o->passes.default_df = c->default_df_override;
	o->passes.acc_df = c->accumulate_df;
	o->passes.fidelity = c->math_fidelity;
	o->passes.amp_level = c->amp_level;
	o->codegen.default_df = c->default_df_override;
	o->codegen.balancer = bal;
	o->codegen.place_on_one_row = c->place_on_one_row;
	return 0;
}
