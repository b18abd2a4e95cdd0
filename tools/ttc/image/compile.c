// SPDX-License-Identifier: Apache-2.0
/*
 * ttc_compile (ttc/compile.h): passes, codegen, kernels, image, each
 * stage timed and reported to the progress callback.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "../ir/internal.h"
#include "tt/core.h"
#include "tt/kernel_set.h"
#include "ttc/compile.h"

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

struct ttc_compile_options ttc_compile_defaults(void)
{
	return (struct ttc_compile_options){
		.passes = ttc_pass_options_default(),
		.codegen = ttc_codegen_defaults(),
	};
}

int ttc_target_of(tt_device *dev, struct ttc_target *out)
{
	const struct tt_device_info *info = tt_device_get_info(dev);
	unsigned w, h;
	int ret;

	if (!info)
		return -ENODEV;
	ret = tt_device_logical_grid(dev, &w, &h);
	if (ret)
		return ret;
	*out = (struct ttc_target){info->arch_name, w, h, info->l1_size,
				   info->dram_size};
	return 0;
}

static void progress(const struct ttc_compile_options *o, const char *stage)
{
	if (o->progress)
		o->progress(o->progress_arg, stage, 0, 0);
}

static int build_kernels(ttc_ctx *ctx, tt_device *dev, const ttc_compiled *c,
			 tt_kernel_set **out)
{
	int ret = tt_kernel_set_create(out);

	if (!ret)
		ret = tt_model_build_kernels(dev, ttc_compiled_desc(c), *out);
	if (ret)
		ttc_diag_addf(ctx, "building the kernels: %s",
			      tt_last_error());
	return ret;
}

int ttc_compile(ttc_module *m, ttc_func *f, tt_device *dev,
		const struct ttc_compile_options *o, ttc_param_fn param,
		void *param_arg, const char *path,
		struct ttc_compile_report *rep)
{
	struct ttc_compile_options opt = o ? *o : ttc_compile_defaults();
	ttc_ctx *ctx = ttc_module_ctx(m);
	struct ttc_compile_report r = {0};
	tt_kernel_set *ks = NULL;
	ttc_compiled *c = NULL;
	double t0 = now_ms(), t1;
	int ret;

	ret = ttc_target_of(dev, &opt.codegen.target);
	if (ret) {
		ttc_diag_addf(ctx, "the target device: %s",
			      tt_last_error());
		return ret;
	}
	progress(&opt, "passes");
	opt.passes.param_value = param;
	opt.passes.param_arg = param_arg;
	ret = ttc_run_passes(m, NULL, 0, &opt.passes, &r.passes);
	t1 = now_ms();
	r.ms_passes = t1 - t0;
	if (!ret) {
		progress(&opt, "codegen");
		ret = ttc_codegen(f, &opt.codegen, param, param_arg, &c);
	}
	t0 = now_ms();
	r.ms_codegen = t0 - t1;
	if (!ret && !opt.no_kernels) {
		progress(&opt, "kernels");
		ret = build_kernels(ctx, dev, c, &ks);
	}
	t1 = now_ms();
	r.ms_kernels = t1 - t0;
	if (!ret) {
		progress(&opt, "write");
		ret = ttc_compiled_write(ctx, c, ks, path);
	}
	r.ms_write = now_ms() - t1;
	if (c) {
		r.ops = ttc_compiled_desc(c)->programs[0].nops;
		r.tensors = ttc_compiled_desc(c)->ntensors;
		ttc_compiled_stats(c, &r.plan);
	}
	r.kernels = ks ? tt_kernel_set_count(ks) : 0;
	if (rep)
		*rep = r;
	if (ks)
		tt_kernel_set_free(ks);
	ttc_compiled_free(c);
	return ret;
}
