// SPDX-License-Identifier: Apache-2.0
/*
 * Matmul and linear (tt/ops/matmul.h): one program shape for every
 * variant (kernels/matmul/): a reader that fetches, masks and (for the
 * multicast variants) shares the operand chunks, a compute kernel that
 * does one matmul_block_k per chunk and sub-block with bias and
 * activation, a writer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul_plan.h"
#include "ops_matmul_compute_src.h"
#include "ops_matmul_reader_src.h"
#include "ops_matmul_writer_src.h"

#define CB_A 0u
#define CB_B 1u
#define CB_ZERO 2u
#define CB_BIAS 3u
#define CB_AT 4u
#define CB_OUT 16u
#define READER_ARGS 43u
#define WRITER_ARGS 11u
#define COMPUTE_ARGS 10u

struct tt_matmul_cfg tt_op_matmul_config(void)
{
	return (struct tt_matmul_cfg){
		.in0_format = TT_OPS_FORMAT_AUTO,
		.in1_format = TT_OPS_FORMAT_AUTO,
		.out_format = TT_OPS_FORMAT_AUTO,
		.interm_format = TT_OPS_FORMAT_AUTO,
		.math_fidelity = TT_OPS_FIDELITY_AUTO,
	};
}

/* A core's sharing words for in0 (row) or in1: role, rectangle, count. */
static int share_args(tt_device *dev, const struct plan *p, bool row,
		      struct tt_xy core, uint32_t *out)
{
	unsigned line = row ? core.y : core.x;
	struct tt_xy sender = row ? (struct tt_xy){ 0, line }
				  : (struct tt_xy){ line, 0 };
	struct tt_core_range lr, r;
	int ret;

	memset(out, 0, 6 * sizeof(*out));
	if (!(row ? p->mcast_a : p->mcast_b))
		return 0;
	if (core.x != sender.x || core.y != sender.y) {
		ret = tt_device_worker_core(dev, sender, &sender);
		out[0] = RECEIVE;
		out[1] = sender.x;
		out[2] = sender.y;
		return ret;
	}
	lr = tt_mm_receivers(p, row, line);
	ret = tt_mm_noc_bounds(dev, lr, &r);
	out[0] = SEND;
	out[1] = r.start.x;
	out[2] = r.start.y;
	out[3] = r.end.x;
	out[4] = r.end.y;
	out[5] = tt_core_range_num_cores(&lr);
	return ret;
}

static int build(tt_ops_ctx *ctx, const struct plan *p,
		 struct tt_ops_entry **out)
{
	struct tt_kernel_config rc = tt_reader_config(), wc = tt_writer_config();
	struct tt_kernel_config cc = tt_compute_config();
	struct tt_core_range_set set;
	tt_kernel_handle kr, kw, kc;
	struct tt_ops_entry *e;
	uint32_t sems[4] = { 0, 0, 0, 0 };
	int ret = 0;
	const struct tt_named_arg rargs[] = {
		{ "SH", p->sh }, { "SW", p->sw }, { "KB", p->kb },
		{ "A_DRAM", p->ma == TT_BUFFER_DRAM },
		{ "B_DRAM", p->mb == TT_BUFFER_DRAM },
		{ "BIAS", p->has_bias },
		{ "BIAS_DRAM", p->mz == TT_BUFFER_DRAM },
		{ "TA", p->ta }, { "TB", p->tb },
		{ "LOCKSTEP", p->lockstep },
	};
	const struct tt_named_arg wargs[] = {
		{ "SH", p->sh }, { "SW", p->sw },
		{ "OUT_DRAM", p->mo == TT_BUFFER_DRAM },
	};
	const struct tt_named_arg cargs[] = {
		{ "SH", p->sh }, { "SW", p->sw }, { "KB", p->kb },
		{ "TA", p->ta }, { "TB", p->tb },
		{ "BIAS", p->has_bias },
		{ "ACT", (uint32_t)p->act.op },
		{ "AP0", fbits(p->act.p0) },
		{ "AP1", fbits(p->act.p1) },
		{ "SCRATCH", p->sh * p->sw },
		{ "LOCKSTEP", p->lockstep },
	};

	if (p->lockstep)
		set = tt_core_range_set_of_range(0, 0, p->cols - 1, p->rows - 1);
	else
		ret = tt_num_cores_to_core_range_set(p->cores, p->grid, true, &set);
	if (ret)
		return ret;
	ret = tt_ops_entry_new(p->fn, p->cores, &e);
	if (ret)
		return ret;
	tt_mm_plan_key(p, &e->key);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_A, p->fa,
				    2 * p->sh * p->kb);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_B, p->fb,
				    2 * p->kb * p->sw);
	if (!ret && p->has_bias)
		ret = tt_ops_add_cb(e->prog, &set, CB_ZERO, p->fz, 1);
	if (!ret && p->has_bias)
		ret = tt_ops_add_cb(e->prog, &set, CB_BIAS, p->fz, 2 * p->sw);
	if (!ret && p->ta)
		ret = tt_ops_add_cb(e->prog, &set, CB_AT, p->fi, p->sh * p->kb);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_OUT, p->fo,
				    2 * p->sh * p->sw);
	for (unsigned i = 0; i < 4 && !ret && (p->mcast_a || p->mcast_b); i++)
		ret = tt_create_semaphore(e->prog, &set, 0, TT_CORE_TENSIX,
					  &sems[i]);
	rc.named_compile_args = rargs;
	rc.named_compile_arg_count = TT_OPS_NARGS(rargs);
	wc.named_compile_args = wargs;
	wc.named_compile_arg_count = TT_OPS_NARGS(wargs);
	cc.named_compile_args = cargs;
	cc.named_compile_arg_count = TT_OPS_NARGS(cargs);
	cc.math_fidelity = p->fid;
	cc.fp32_dest_acc_en = p->fp32;
	cc.dst_full_sync_en = true;
	cc.math_approx_mode = p->approx;
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_matmul_reader,
						   &set, &rc, &kr);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_matmul_compute,
						   &set, &cc, &kc);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_matmul_writer,
						   &set, &wc, &kw);
	for (uint32_t i = 0, start = 0; !ret && i < p->cores; i++) {
		struct tt_ops_core *oc = &e->cores[i];
		uint32_t u0, count, ustride;
		uint32_t r[READER_ARGS], w[WRITER_ARGS], cp[COMPUTE_ARGS];
		unsigned cnt;

		if (p->lockstep) {
			oc->xy = (struct tt_xy){ i % p->cols, i / p->cols };
			u0 = oc->xy.y * p->bc + oc->xy.x;
			count = p->batches;
			ustride = p->br * p->bc;
		} else {
			oc->xy = (struct tt_xy){ i % p->grid.x, i / p->grid.x };
			count = p->units / p->cores + (i < p->units % p->cores);
			u0 = start;
			ustride = 1;
			start += count;
		}
		oc->start = u0;
		oc->tiles = count;
		memset(r, 0, sizeof(r));
		r[6] = u0;
		r[7] = count;
		r[8] = ustride;
		r[9] = p->mt;
		r[10] = p->nt;
		r[11] = p->kt;
		r[12] = p->br;
		r[13] = p->bc;
		r[14] = p->pm;
		r[15] = p->pn;
		r[16] = p->zn;
		r[17] = p->a_sw;
		r[18] = p->a_sz;
		r[19] = p->a_rs;
		r[20] = p->a_cs;
		r[21] = p->b_sw;
		r[22] = p->b_sz;
		r[23] = p->b_rs;
		r[24] = p->b_cs;
		r[25] = p->vk;
		r[26] = p->vn;
		ret = share_args(ctx->dev, p, true, oc->xy, &r[27]);
		if (!ret)
			ret = share_args(ctx->dev, p, false, oc->xy, &r[33]);
		memcpy(&r[39], sems, sizeof(sems));
		cp[0] = count;
		cp[1] = u0;
		cp[2] = ustride;
		cp[3] = p->mt;
		cp[4] = p->nt;
		cp[5] = p->kt;
		cp[6] = p->br;
		cp[7] = p->bc;
		cp[8] = p->pm;
		cp[9] = p->pn;
		w[0] = 0;
		w[1] = 0;
		w[2] = u0;
		w[3] = count;
		w[4] = ustride;
		w[5] = p->mt;
		w[6] = p->nt;
		w[7] = p->br;
		w[8] = p->bc;
		w[9] = p->pm;
		w[10] = p->pn;
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kr, oc->xy, r, READER_ARGS);
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kw, oc->xy, w, WRITER_ARGS);
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kc, oc->xy, cp, COMPUTE_ARGS);
		if (!ret)
			ret = tt_get_runtime_args(e->prog, kr, oc->xy, &oc->rargs, &cnt);
		if (!ret)
			ret = tt_get_runtime_args(e->prog, kw, oc->xy, &oc->wargs, &cnt);
	}
	if (ret) {
		tt_ops_entry_free(e);
		return ret;
	}
	*out = e;
	return 0;
}

static void describe_config(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%s grid %ux%u cores %u block %ux%u sub-block %ux%u in0_block_w %u mcast in0 %d in1 %d out %s %s fidelity %d fp32_acc %d act %s%s%s%s",
		 tt_mm_variant_names[p->variant], p->grid.x, p->grid.y, p->cores,
		 p->pm, p->pn, p->sh, p->sw, p->kb, p->mcast_a, p->mcast_b,
		 tt_data_format_name(p->fo), tt_buffer_type_name(p->mo),
		 (int)p->fid, p->fp32,
		 tt_unary_op_name(p->act.op) ? tt_unary_op_name(p->act.op) : "?",
		 p->ta ? " transpose_a" : "", p->tb ? " transpose_b" : "",
		 p->has_bias ? " bias" : "");
}

static int prepare_out(tt_ops_ctx *ctx, struct plan *p, tt_device_tensor **out,
		       bool *created, const struct tt_matmul_cfg *c)
{
	char s1[100];
	int ret;

	*created = false;
	if (!*out) {
		ret = tt_device_tensor_create(ctx->dev, &p->oshape, p->fo, p->mo,
					      out);
		if (ret)
			return tt_error(ret, "%s: output %s %s in %s: %s", p->fn,
					tt_ops_shape_str(&p->oshape, s1, sizeof(s1)),
					tt_data_format_name(p->fo),
					tt_buffer_type_name(p->mo), tt_last_error());
		*created = true;
		return 0;
	}
	ret = tt_ops_check_given_out(p->fn, *out, p->o, &p->oshape,
				     c->out_format, c->out_mem, p->mo);
	if (ret)
		return ret;
	return 0;
}

static int check_act(const char *fn, const struct tt_unary_fn *u)
{
	if ((unsigned)u->op >= TT_UNARY_OP_COUNT)
		return tt_error(-EINVAL, "%s: cfg.activation %d is not a unary function (0..%d)",
				fn, (int)u->op, TT_UNARY_OP_COUNT - 1);
	if (u->op == TT_UNARY_POWER &&
	    !(u->p0 >= 0 && u->p0 <= 64 && u->p0 == (float)(int)u->p0))
		return tt_error(-EINVAL, "%s: cfg.activation power: exponent %g is not an integer 0..64",
				fn, (double)u->p0);
	if (u->op == TT_UNARY_CLIP && !(u->p0 <= u->p1))
		return tt_error(-EINVAL, "%s: cfg.activation clip: lower bound %g above upper bound %g",
				fn, (double)u->p0, (double)u->p1);
	return 0;
}

static int run(tt_ops_ctx *ctx, const char *fn, const tt_device_tensor *a,
	       const tt_device_tensor *b, const tt_device_tensor *z,
	       bool linear, const struct tt_matmul_cfg *cfg,
	       tt_device_tensor **out)
{
	struct tt_matmul_cfg cc = cfg ? *cfg : tt_op_matmul_config();
	const struct tt_matmul_cfg *c = &cc;
	double t0 = tt_ops_now_us();
	struct tt_ops_entry *e;
	struct tt_ops_key key;
	struct plan p;
	bool created, hit;
	int ret;

	memset(&p, 0, sizeof(p));
	p.fn = fn;
	if (!ctx)
		return tt_error(-EINVAL, "%s: ctx is NULL", fn);
	if (!a)
		return tt_error(-EINVAL, "%s: a is NULL", fn);
	if (!b)
		return tt_error(-EINVAL, "%s: %s is NULL", fn, linear ? "w" : "b");
	if (!out)
		return tt_error(-EINVAL, "%s: out is NULL", fn);
	ret = tt_ops_check_tensor(ctx, fn, "a", a);
	if (!ret)
		ret = tt_ops_check_tensor(ctx, fn, linear ? "w" : "b", b);
	if (!ret && z)
		ret = tt_ops_check_tensor(ctx, fn, "bias", z);
	if (!ret && *out)
		ret = tt_ops_check_tensor(ctx, fn, "out", *out);
	if (ret)
		return ret;
	if (*out) {
		enum tt_buffer_type t = tt_buffer_type(tt_device_tensor_buffer(*out));

		if (cc.out_format == TT_OPS_FORMAT_AUTO)
			cc.out_format = tt_device_tensor_format(*out);
		if (cc.out_mem == TT_OPS_MEM_AUTO)
			cc.out_mem = t == TT_BUFFER_L1 ? TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
	}
	p.has_bias = z != NULL;
	p.act = c->activation;
	ret = check_act(fn, &p.act);
	if (!ret)
		ret = tt_mm_plan_shapes(&p, a, b, z, c);
	if (!ret)
		ret = tt_mm_plan_config(ctx, &p, c, a, b, z);
	if (!ret)
		ret = prepare_out(ctx, &p, out, &created, c);
	if (ret)
		return ret;

	tt_mm_plan_key(&p, &key);
	e = tt_ops_cache_find(ctx, &key);
	hit = e != NULL;
	if (!e) {
		ret = build(ctx, &p, &e);
		if (ret)
			goto fail;
		tt_ops_cache_add(ctx, e);
	}
	/* Only the runtime arguments change from call to call. */
	{
		uint32_t aaddr = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(a));
		uint32_t afirst = (uint32_t)tt_device_tensor_first_tile(a);
		uint32_t baddr = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(b));
		uint32_t bfirst = (uint32_t)tt_device_tensor_first_tile(b);
		uint32_t zaddr = z ? (uint32_t)tt_buffer_address(tt_device_tensor_buffer(z)) : 0;
		uint32_t zfirst = z ? (uint32_t)tt_device_tensor_first_tile(z) : 0;
		uint32_t oaddr = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(*out));
		uint32_t ofirst = (uint32_t)tt_device_tensor_first_tile(*out);

		for (unsigned i = 0; i < e->ncores; i++) {
			uint32_t *r = e->cores[i].rargs, *w = e->cores[i].wargs;

			r[0] = aaddr;
			r[1] = afirst;
			r[2] = baddr;
			r[3] = bfirst;
			r[4] = zaddr;
			r[5] = zfirst;
			w[0] = oaddr;
			w[1] = ofirst;
		}
	}
	ret = tt_ops_enqueue(ctx, e->prog, false);
	if (ret)
		goto fail;
	if (ctx->prof_prefix) {
		struct tt_ops_rec r = { .hit = hit, .cores = p.cores,
					.tiles = (uint64_t)p.batches * p.mt * p.nt,
					.start_us = t0 };
		char s1[100], s2[100], s3[100];
		double t1 = tt_ops_now_us();

		ret = tt_finish(ctx->cq);
		r.enqueue_us = t1 - t0;
		r.finish_us = tt_ops_now_us() - t1;
		snprintf(r.name, sizeof(r.name), "%s", fn);
		snprintf(r.shapes, sizeof(r.shapes), "a %s %s; b %s %s%s -> %s %s",
			 tt_ops_shape_str(tt_device_tensor_shape(a), s1, sizeof(s1)),
			 tt_data_format_name(p.fa),
			 tt_ops_shape_str(tt_device_tensor_shape(b), s2, sizeof(s2)),
			 tt_data_format_name(p.fb), z ? "; bias" : "",
			 tt_ops_shape_str(&p.oshape, s3, sizeof(s3)),
			 tt_data_format_name(p.fo));
		describe_config(&p, r.config, sizeof(r.config));
		tt_ops_profile_record(ctx, &r);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	if (created) {
		tt_device_tensor_free(*out);
		*out = NULL;
	}
	return ret;
}

int tt_op_matmul(tt_ops_ctx *ctx, const tt_device_tensor *a,
		 const tt_device_tensor *b, const struct tt_matmul_cfg *cfg,
		 tt_device_tensor **out)
{
	return run(ctx, "tt_op_matmul", a, b, NULL, false, cfg, out);
}

int tt_op_linear(tt_ops_ctx *ctx, const tt_device_tensor *a,
		 const tt_device_tensor *w, const tt_device_tensor *bias,
		 const struct tt_matmul_cfg *cfg, tt_device_tensor **out)
{
	return run(ctx, "tt_op_linear", a, w, bias, true, cfg, out);
}
