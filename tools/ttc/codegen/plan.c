// SPDX-License-Identifier: Apache-2.0
/*
 * Placement and the memory plan (docs/compiler.md, "Codegen"):
 *
 * - grid: every op gets the target's whole worker grid (the op library
 *   splits its work over it), one row of it with place_on_one_row, or
 *   the r x c its override_op_size asks for;
 * - places: an activation lives in L1 while the activations alive with
 *   it fit the L1 budget (l1_fraction of every core's L1), else in DRAM.
 *   "greedy" decides in program order, "min_dram" largest first, so that
 *   the most bytes stay off DRAM;
 * - slots: activations of one place and page size whose lifetimes do not
 *   overlap share a buffer (first fit; a slot grows to its largest
 *   tensor); an op never writes the slot of one of its inputs;
 * - limits: L1 slots beyond the budget move to DRAM, largest first, and a
 *   model whose DRAM does not fit fails naming the op that overflows it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/internal.h"
#include "internal.h"

static uint64_t tensor_bytes(const struct cg_tensor *t)
{
	return t->tiles * tt_tile_size(t->t.format);
}

static void lifetimes(ttc_compiled *c)
{
	for (size_t i = 0; i < c->ntensors; i++) {
		struct cg_tensor *t = &c->tensors[i];

		tt_shape_tiles(&t->t.shape, &t->tiles);
		t->first = t->t.kind == TT_MODEL_ACT ||
					   t->t.kind == TT_MODEL_OUTPUT ?
				   ~0u : 0;
		t->last = t->t.kind == TT_MODEL_OUTPUT ? (unsigned)c->nops : 0;
	}
	for (size_t k = 0; k < c->nops; k++) {
		struct cg_op *o = &c->ops[k];

		c->tensors[o->op.out].first = (unsigned)k;
		if (c->tensors[o->op.out].last < k)
			c->tensors[o->op.out].last = (unsigned)k;
		for (unsigned j = 0; j < o->op.nin; j++)
			if (o->in[j] != TT_MODEL_NONE &&
			    c->tensors[o->in[j]].last < k)
				c->tensors[o->in[j]].last = (unsigned)k;
	}
}

static int grid_of(ttc_compiled *c, struct cg_op *o)
{
	unsigned x = c->o.target.grid_x, y = c->o.place_on_one_row ? 1 :
					       c->o.target.grid_y;

	for (size_t i = 0; i < c->o.nop_sizes; i++) {
		const struct ttc_op_size *s = &c->o.op_sizes[i];

		if (strcmp(s->op, o->op.name))
			continue;
		if (!s->r || !s->c || s->c > c->o.target.grid_x ||
		    s->r > c->o.target.grid_y)
			return cg_error(c, o->src, -EINVAL,
					"override_op_size %ux%u for %s: the target grid is %u rows of %u cores",
					s->r, s->c, o->op.name,
					c->o.target.grid_y, c->o.target.grid_x);
		x = s->c;
		y = s->r;
	}
	o->attrs[o->op.nattrs++] = (struct tt_model_attr){
		"grid", cg_printf(c, "%ux%u", x, y)};
	return 0;
}

/* Every override_op_size names an op of the model. */
static int sizes_named(ttc_compiled *c)
{
	for (size_t i = 0; i < c->o.nop_sizes; i++) {
		size_t k = 0;

		while (k < c->nops &&
		       strcmp(c->ops[k].op.name, c->o.op_sizes[i].op))
			k++;
		if (k == c->nops)
			return cg_error(c, NULL, -EINVAL,
					"override_op_size for %s: no op has that name",
					c->o.op_sizes[i].op);
	}
	return 0;
}

/* ---- epochs ---- */

static bool listed(const char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] && !strcmp(list[i], name))
			return true;
	return false;
}

/* Each op's epoch and chip stage (attributes "epoch", "chip" when any
 * break was asked for); every break must name an op. */
static int epochs(ttc_compiled *c, unsigned *epoch)
{
	const struct ttc_codegen_options *o = &c->o;
	unsigned e = 0, chip = 0;
	int ret = 0;

	for (size_t k = 0; k < c->nops; k++) {
		struct cg_op *op = &c->ops[k];
		bool cb = listed(o->chip_breaks, o->nchip_breaks, op->op.name);

		if (k && (cb || listed(o->epoch_breaks, o->nepoch_breaks,
				       op->op.name)))
			e++;
		chip += k && cb;
		epoch[k] = e;
		if (o->nepoch_breaks + o->nchip_breaks && !ret)
			ret = cg_attr(c, op, "epoch", "%u", e) ||
			      cg_attr(c, op, "chip", "%u", chip) ? -ENOMEM : 0;
	}
	for (int pass = 0; pass < 2 && !ret; pass++) {
		const char *const *list = pass ? o->chip_breaks : o->epoch_breaks;
		size_t n = pass ? o->nchip_breaks : o->nepoch_breaks;

		for (size_t i = 0; i < n; i++) {
			size_t k = 0;

			while (k < c->nops && strcmp(c->ops[k].op.name, list[i]))
				k++;
			if (k == c->nops)
				return cg_error(c, NULL, -EINVAL,
						"%s break at %s: no op has that name",
						pass ? "chip" : "epoch", list[i]);
		}
	}
	return ret;
}

/* ---- places ---- */

static int cmp_size_desc(const void *a, const void *b, void *arg)
{
	const ttc_compiled *c = arg;
	uint64_t x = tensor_bytes(&c->tensors[*(const unsigned *)a]);
	uint64_t y = tensor_bytes(&c->tensors[*(const unsigned *)b]);

	return x < y ? 1 : x > y ? -1 : (*(const unsigned *)a > *(const unsigned *)b) -
						(*(const unsigned *)a < *(const unsigned *)b);
}

/* Alive from one epoch into another: it must wait in DRAM. */
static bool crosses_epoch(const ttc_compiled *c, const struct cg_tensor *t,
			  const unsigned *epoch)
{
	unsigned last = t->last < c->nops ? t->last : (unsigned)c->nops - 1;

	return t->first < c->nops && epoch[t->first] != epoch[last];
}

static uint64_t l1_budget(const ttc_compiled *c)
{
	double f = c->o.l1_fraction > 0 ? c->o.l1_fraction : 0.25;

	return (uint64_t)((double)c->o.target.l1_bytes * f) *
	       c->o.target.grid_x * c->o.target.grid_y;
}

static void places(ttc_compiled *c, const unsigned *epoch)
{
	uint64_t *live = calloc(c->nops + 1, sizeof(*live));
	unsigned *order = calloc(c->ntensors + 1, sizeof(*order));
	uint64_t budget = l1_budget(c);
	size_t n = 0;

	if (!live || !order)
		goto out;
	for (size_t i = 0; i < c->ntensors; i++)
		if (c->tensors[i].t.kind == TT_MODEL_ACT)
			order[n++] = (unsigned)i;
	if (c->o.balancer && strcmp(c->o.balancer, "min_dram") == 0)
		qsort_r(order, n, sizeof(*order), cmp_size_desc, c);
	for (size_t i = 0; i < n; i++) {
		struct cg_tensor *t = &c->tensors[order[i]];
		uint64_t need = tensor_bytes(t), peak = 0;

		for (unsigned k = t->first; k <= t->last && k < c->nops; k++)
			peak = live[k] > peak ? live[k] : peak;
		t->t.l1 = peak + need <= budget && !crosses_epoch(c, t, epoch);
		if (t->t.l1)
			for (unsigned k = t->first; k <= t->last && k < c->nops;
			     k++)
				live[k] += need;
	}
out:
	free(live);
	free(order);
}

/* ---- slots ---- */

struct slot_use {
	unsigned last; /* last op reading the slot's current tensor */
};

static int assign_slots(ttc_compiled *c)
{
	struct slot_use *use = NULL;

	for (size_t i = 0; i < c->ntensors; i++) {
		struct cg_tensor *t = &c->tensors[i];
		uint32_t ps = (uint32_t)tt_tile_size(t->t.format);
		size_t s;

		if (t->t.kind != TT_MODEL_ACT)
			continue;
		for (s = 0; s < c->nslots; s++)
			if (c->slots[s].l1 == t->t.l1 &&
			    c->slots[s].page_size == ps && use[s].last < t->first)
				break;
		if (s == c->nslots) {
			if (c->nslots == c->capslots) {
				c->capslots = c->capslots ? 2 * c->capslots : 16;
				c->slots = ttc_xrealloc(
					c->slots, c->capslots * sizeof(*c->slots));
				use = ttc_xrealloc(use,
						   c->capslots * sizeof(*use));
			}
			c->slots[s] = (struct tt_model_slot){t->t.l1, ps, 0};
			c->nslots++;
		}
		if (c->slots[s].pages < t->tiles)
			c->slots[s].pages = t->tiles;
		use[s].last = t->last;
		t->t.slot = (int)s;
	}
	free(use);
	return 0;
}

static uint64_t slot_bytes(const struct tt_model_slot *s)
{
	return s->pages * s->page_size;
}

/* L1 slots beyond the budget go to DRAM, largest first. */
static void fit_l1(ttc_compiled *c)
{
	uint64_t total = 0, budget = l1_budget(c);

	for (size_t s = 0; s < c->nslots; s++)
		total += c->slots[s].l1 ? slot_bytes(&c->slots[s]) : 0;
	while (total > budget) {
		size_t big = c->nslots;

		for (size_t s = 0; s < c->nslots; s++)
			if (c->slots[s].l1 &&
			    (big == c->nslots ||
			     slot_bytes(&c->slots[s]) > slot_bytes(&c->slots[big])))
				big = s;
		c->slots[big].l1 = false;
		total -= slot_bytes(&c->slots[big]);
		for (size_t i = 0; i < c->ntensors; i++)
			if (c->tensors[i].t.slot == (int)big)
				c->tensors[i].t.l1 = false;
	}
	c->stats.l1_peak = total;
}

/* DRAM: parameters, constants, inputs, outputs and DRAM slots. */
static int fit_dram(ttc_compiled *c)
{
	uint64_t total = 0, have = c->o.target.dram_bytes;

	for (size_t s = 0; s < c->nslots; s++)
		c->stats.dram_peak += c->slots[s].l1 ? 0 : slot_bytes(&c->slots[s]);
	total = c->stats.dram_peak;
	for (size_t i = 0; i < c->ntensors; i++) {
		struct cg_tensor *t = &c->tensors[i];
		const ttc_op *op = NULL;

		if (t->t.kind == TT_MODEL_ACT) {
			t->t.l1 ? c->stats.l1_tensors++ : c->stats.dram_tensors++;
			continue;
		}
		total += tensor_bytes(t);
		if (t->t.kind == TT_MODEL_PARAM || t->t.kind == TT_MODEL_CONST)
			c->stats.params += tensor_bytes(t);
		if (!have || total <= have)
			continue;
		for (size_t k = 0; k < c->nops; k++)
			if (c->ops[k].op.out == i)
				op = c->ops[k].src;
		return cg_error(c, op, -ENOSPC,
				"the model does not fit the device's DRAM: with %s (%llu bytes) it needs %llu bytes, the device has %llu",
				t->t.name, (unsigned long long)tensor_bytes(t),
				(unsigned long long)total,
				(unsigned long long)have);
	}
	if (have && total > have)
		return cg_error(c, NULL, -ENOSPC,
				"the model's activations need %llu bytes of DRAM, the device has %llu",
				(unsigned long long)total,
				(unsigned long long)have);
	c->stats.slots = (unsigned)c->nslots;
	return 0;
}

static int describe(ttc_compiled *c)
{
	c->dt = ttc_xmalloc((c->ntensors + 1) * sizeof(*c->dt));
	c->dops = ttc_xmalloc((c->nops + 1) * sizeof(*c->dops));
	for (size_t i = 0; i < c->ntensors; i++)
		c->dt[i] = c->tensors[i].t;
	for (size_t k = 0; k < c->nops; k++) {
		c->dops[k] = c->ops[k].op;
		c->dops[k].in = c->ops[k].in;
		c->dops[k].attrs = c->ops[k].attrs;
	}
	c->prog = (struct tt_model_program){"forward", c->dops,
					     (unsigned)c->nops};
	c->desc = (struct tt_model_desc){
		.version = TT_MODEL_MANIFEST_VERSION,
		.arch = c->o.target.arch,
		.grid = {c->o.target.grid_x, c->o.target.grid_y},
		.tensors = c->dt,
		.ntensors = (unsigned)c->ntensors,
		.slots = c->slots,
		.nslots = (unsigned)c->nslots,
		.programs = &c->prog,
		.nprograms = 1,
		.options = c->o.record,
		.noptions = (unsigned)c->o.nrecord,
	};
	return 0;
}

int cg_plan(ttc_compiled *c)
{
	unsigned *epoch = calloc(c->nops + 1, sizeof(*epoch));
	int ret = epoch ? 0 : -ENOMEM;

	lifetimes(c);
	for (size_t k = 0; !ret && k < c->nops; k++)
		ret = grid_of(c, &c->ops[k]);
	if (!ret)
		ret = sizes_named(c);
	if (!ret)
		ret = epochs(c, epoch);
	if (ret) {
		free(epoch);
		return ret;
	}
	places(c, epoch);
	free(epoch);
	ret = assign_slots(c);
	if (!ret) {
		fit_l1(c);
		ret = fit_dram(c);
	}
	return ret ? ret : describe(c);
}
