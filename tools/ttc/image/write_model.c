// SPDX-License-Identifier: Apache-2.0
/*
 * A compiled model into an image (docs/image.md): the manifest
 * (libtt's tt_model_desc_emit, so the loader reads exactly what was
 * written), then each parameter's and constant's data, page-aligned so
 * a loader can map it, then the kernels of the set, by portable key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "../ir/internal.h"
#include "../codegen/internal.h"
#include "tt/kernel_set.h"
#include "ttc/compile.h"
#include "ttc/tti.h"

#define DATA_ALIGN 4096u
#define KERNEL_ALIGN 64u

static int add_kernels(ttc_tti_writer *w, const struct tt_kernel_set *ks,
		       const char **keys)
{
	char name[TT_MODEL_KERNEL_SECTION_MAX];
	int ret = 0;

	for (size_t i = 0; !ret && i < tt_kernel_set_count(ks); i++) {
		const void *elf;
		size_t len;

		ret = tt_kernel_set_at(ks, i, &keys[i], &elf, &len);
		if (!ret) {
			tt_model_kernel_section(keys[i], name);
			ret = ttc_tti_add(w, name, elf, len, KERNEL_ALIGN);
		}
	}
	return ret;
}

static int add_manifest(ttc_ctx *ctx, ttc_tti_writer *w,
			const struct tt_model_desc *d)
{
	char *text;
	size_t len;
	int ret = tt_model_desc_emit(d, &text, &len);

	if (ret) {
		ttc_diag_addf(ctx, "the manifest: %s", tt_last_error());
		return ret;
	}
	ret = ttc_tti_add(w, TT_MODEL_MANIFEST_SECTION, text, len, 8);
	free(text);
	return ret;
}

int ttc_compiled_write(ttc_ctx *ctx, const ttc_compiled *c,
		       const struct tt_kernel_set *kernels, const char *path)
{
	size_t nk = kernels ? tt_kernel_set_count(kernels) : 0;
	const char **keys = calloc(nk + 1, sizeof(*keys));
	struct tt_model_desc d = c->desc;
	ttc_tti_writer *w = ttc_tti_writer_new(ctx);
	int ret = keys && w ? 0 : -ENOMEM;

	if (!ret && nk)
		ret = add_kernels(w, kernels, keys);
	d.kernels = keys;
	d.nkernels = (unsigned)nk;
	if (!ret)
		ret = add_manifest(ctx, w, &d);
	for (size_t i = 0; !ret && i < c->ntensors; i++)
		if (c->tensors[i].data)
			ret = ttc_tti_add(w, c->tensors[i].t.section,
					  c->tensors[i].data,
					  c->tensors[i].bytes, DATA_ALIGN);
	if (!ret)
		ret = ttc_tti_write(w, path);
	ttc_tti_writer_free(w);
	free(keys);
	return ret;
}
