// SPDX-License-Identifier: Apache-2.0
/*
 * The checks of a model description (tt_model_desc_check): everything the
 * runtime relies on, so that a hostile or damaged manifest is refused
 * with its fault named instead of running. The parser calls it on what it
 * read; ttc on what it is about to write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "tt/buffer.h"

const char *tt_model_attr(const struct tt_model_op *op, const char *name)
{
	for (unsigned i = 0; i < op->nattrs; i++)
		if (strcmp(op->attrs[i].name, name) == 0)
			return op->attrs[i].value;
	return NULL;
}

/* Names show in messages and file names: a tame character set. */
bool tt_model_name_ok(const char *name)
{
	size_t n;

	if (!name)
		return false;
	n = strlen(name);
	if (n == 0 || n > TT_MODEL_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("_.:/-$#", c)))
			return false;
	}
	return true;
}

static int check_shape(const struct tt_model_tensor *t, unsigned i)
{
	uint64_t n = 1;

	if (t->shape.rank < 1 || t->shape.rank > TT_TENSOR_MAX_RANK)
		return tt_error(-EINVAL,
				"model: tensor %u (%s): rank %u is not 1..%u",
				i, t->name, t->shape.rank, TT_TENSOR_MAX_RANK);
	for (unsigned k = 0; k < t->shape.rank; k++) {
		if (t->shape.dims[k] < 1 ||
		    t->shape.dims[k] > TT_MODEL_MAX_DIM)
			return tt_error(-EINVAL,
					"model: tensor %s: dimension %u is %llu, not 1..%llu",
					t->name, k,
					(unsigned long long)t->shape.dims[k],
					TT_MODEL_MAX_DIM);
		n *= t->shape.dims[k];
		if (n > TT_MODEL_MAX_TENSOR_BYTES / 4)
			return tt_error(-EINVAL,
					"model: tensor %s: more than %llu elements",
					t->name,
					TT_MODEL_MAX_TENSOR_BYTES / 4);
	}
	return 0;
}

static bool format_ok(enum tt_data_format f)
{
	return tt_data_format_name(f) != NULL && tt_tile_size(f) > 0;
}

static int check_tensor(const struct tt_model_desc *d, unsigned i)
{
	const struct tt_model_tensor *t = &d->tensors[i];
	uint64_t tiles;
	int ret;

	if (!tt_model_name_ok(t->name))
		return tt_error(-EINVAL,
				"model: tensor %u: bad name (1..%u characters of A-Z a-z 0-9 _.:/-$#)",
				i, TT_MODEL_NAME_MAX);
	for (unsigned j = 0; j < i; j++)
		if (strcmp(d->tensors[j].name, t->name) == 0)
			return tt_error(-EINVAL,
					"model: tensor %s is defined twice (%u and %u)",
					t->name, j, i);
	ret = check_shape(t, i);
	if (ret)
		return ret;
	if (!format_ok(t->format))
		return tt_error(-EINVAL, "model: tensor %s: bad data format %d",
				t->name, (int)t->format);
	if ((unsigned)t->kind > TT_MODEL_ACT)
		return tt_error(-EINVAL, "model: tensor %s: bad kind %d",
				t->name, (int)t->kind);
	if (t->kind == TT_MODEL_PARAM || t->kind == TT_MODEL_CONST) {
		if (!t->section || !*t->section)
			return tt_error(-EINVAL,
					"model: tensor %s: a parameter or constant needs a data section",
					t->name);
		if (!format_ok(t->data_format) ||
		    tt_data_format_is_block(t->data_format))
			return tt_error(-EINVAL,
					"model: tensor %s: data format %s cannot be stored row-major",
					t->name,
					tt_data_format_name(t->data_format) ?: "?");
	}
	if (t->kind != TT_MODEL_ACT) {
		if (t->slot != -1)
			return tt_error(-EINVAL,
					"model: tensor %s: only activations live in slots",
					t->name);
		return 0;
	}
	if (t->slot < 0 || (unsigned)t->slot >= d->nslots)
		return tt_error(-EINVAL,
				"model: tensor %s: slot %d is not one of the %u slots",
				t->name, t->slot, d->nslots);
	tt_shape_tiles(&t->shape, &tiles);
	if (d->slots[t->slot].page_size != (uint32_t)tt_tile_size(t->format) ||
	    d->slots[t->slot].pages < tiles ||
	    d->slots[t->slot].l1 != t->l1)
		return tt_error(-EINVAL,
				"model: tensor %s (%llu tiles of %u bytes, %s) does not fit slot %d (%llu pages of %u bytes, %s)",
				t->name, (unsigned long long)tiles,
				(unsigned)tt_tile_size(t->format),
				t->l1 ? "L1" : "DRAM",
				t->slot,
				(unsigned long long)d->slots[t->slot].pages,
				d->slots[t->slot].page_size,
				d->slots[t->slot].l1 ? "L1" : "DRAM");
	return 0;
}

static int check_slots(const struct tt_model_desc *d)
{
	for (unsigned s = 0; s < d->nslots; s++) {
		const struct tt_model_slot *sl = &d->slots[s];

		if (sl->pages == 0 || sl->page_size == 0 ||
		    sl->pages > TT_MODEL_MAX_TENSOR_BYTES / sl->page_size)
			return tt_error(-EINVAL,
					"model: slot %u: %llu pages of %u bytes is not a buffer",
					s, (unsigned long long)sl->pages,
					sl->page_size);
	}
	return 0;
}

/*
 * Each program in order: every input of an op is an input, parameter or
 * constant, or was written by an earlier op of the program; every op
 * writes an activation or an output; every output is written; and no two
 * activations of one slot are alive at once (a later one would overwrite
 * the earlier before its last use).
 */
struct life {
	unsigned first, last; /* op indices; first UINT_MAX: unwritten */
};

static int check_slot_sharing(const struct tt_model_desc *d,
			      const struct tt_model_program *p,
			      const struct life *life)
{
	for (unsigned a = 0; a < d->ntensors; a++) {
		const struct tt_model_tensor *ta = &d->tensors[a];

		if (ta->kind != TT_MODEL_ACT || life[a].first == ~0u)
			continue;
		for (unsigned b = a + 1; b < d->ntensors; b++) {
			const struct tt_model_tensor *tb = &d->tensors[b];

			if (tb->kind != TT_MODEL_ACT || tb->slot != ta->slot ||
			    life[b].first == ~0u)
				continue;
			if (life[a].first <= life[b].last &&
			    life[b].first <= life[a].last)
				return tt_error(-EINVAL,
						"model: program %s: tensors %s and %s share slot %d but are alive at once (ops %u..%u and %u..%u)",
						p->name, ta->name, tb->name,
						ta->slot, life[a].first,
						life[a].last, life[b].first,
						life[b].last);
		}
	}
	return 0;
}

static int check_op_tensors(const struct tt_model_desc *d,
			    const struct tt_model_program *p, unsigned k,
			    struct life *life)
{
	const struct tt_model_op *op = &p->ops[k];

	for (unsigned j = 0; j < op->nin; j++) {
		unsigned t = op->in[j];
		const struct tt_model_tensor *tt;

		if (t == TT_MODEL_NONE)
			continue;
		if (t >= d->ntensors)
			return tt_error(-EINVAL,
					"model: program %s: op %s: input %u is tensor %u of %u",
					p->name, op->name, j, t, d->ntensors);
		tt = &d->tensors[t];
		if ((tt->kind == TT_MODEL_ACT || tt->kind == TT_MODEL_OUTPUT) &&
		    life[t].first == ~0u)
			return tt_error(-EINVAL,
					"model: program %s: op %s reads %s before any op writes it",
					p->name, op->name, tt->name);
		if (life[t].last < k || life[t].last == ~0u)
			life[t].last = k;
	}
	if (op->out >= d->ntensors)
		return tt_error(-EINVAL,
				"model: program %s: op %s: output is tensor %u of %u",
				p->name, op->name, op->out, d->ntensors);
	if (d->tensors[op->out].kind != TT_MODEL_ACT &&
	    d->tensors[op->out].kind != TT_MODEL_OUTPUT)
		return tt_error(-EINVAL,
				"model: program %s: op %s writes %s, which is not an activation or output",
				p->name, op->name, d->tensors[op->out].name);
	if (life[op->out].first != ~0u)
		return tt_error(-EINVAL,
				"model: program %s: %s is written twice (ops %u and %u)",
				p->name, d->tensors[op->out].name,
				life[op->out].first, k);
	life[op->out].first = k;
	life[op->out].last = k;
	return 0;
}

/* Outputs of a model of several programs (ttc merge's) are written by
 * one program each: each needs a writer in some program, not in all. */
static bool some_program_writes(const struct tt_model_desc *d, unsigned t)
{
	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++)
			if (d->programs[i].ops[k].out == t)
				return true;
	return false;
}

static int check_program(const struct tt_model_desc *d, unsigned i,
			 struct life *life)
{
	const struct tt_model_program *p = &d->programs[i];
	char where[TT_MODEL_NAME_MAX * 2 + 32];
	int ret;

	if (!tt_model_name_ok(p->name))
		return tt_error(-EINVAL, "model: program %u: bad name", i);
	for (unsigned j = 0; j < i; j++)
		if (strcmp(d->programs[j].name, p->name) == 0)
			return tt_error(-EINVAL,
					"model: program %s is defined twice",
					p->name);
	if (p->nops > TT_MODEL_MAX_OPS)
		return tt_error(-EINVAL, "model: program %s: more than %u ops",
				p->name, TT_MODEL_MAX_OPS);
	for (unsigned t = 0; t < d->ntensors; t++)
		life[t] = (struct life){~0u, ~0u};
	for (unsigned k = 0; k < p->nops; k++) {
		if (!tt_model_name_ok(p->ops[k].name))
			return tt_error(-EINVAL,
					"model: program %s: op %u: bad name",
					p->name, k);
		snprintf(where, sizeof(where), "model: program %s: op %s",
			 p->name, p->ops[k].name);
		ret = tt_model_op_check(where, &p->ops[k]);
		if (!ret)
			ret = check_op_tensors(d, p, k, life);
		if (ret)
			return ret;
	}
	for (unsigned t = 0; t < d->ntensors; t++)
		if (d->tensors[t].kind == TT_MODEL_OUTPUT &&
		    life[t].first == ~0u && !some_program_writes(d, t))
			return tt_error(-EINVAL,
					"model: program %s never writes output %s",
					p->name, d->tensors[t].name);
	return check_slot_sharing(d, p, life);
}

void tt_model_kernel_section(const char *key,
			     char name[TT_MODEL_KERNEL_SECTION_MAX])
{
	snprintf(name, TT_MODEL_KERNEL_SECTION_MAX, "k/%.32s", key);
}

static int check_kernels(const struct tt_model_desc *d)
{
	for (unsigned i = 0; i < d->nkernels; i++) {
		const char *k = d->kernels[i];

		if (!k || strlen(k) != 64 ||
		    strspn(k, "0123456789abcdef") != 64)
			return tt_error(-EINVAL,
					"model: kernel %u: not a portable key (64 lowercase hex digits)",
					i);
	}
	return 0;
}

int tt_model_desc_check(const struct tt_model_desc *d)
{
	struct life *life;
	int ret = 0;

	if (!d)
		return tt_error(-EINVAL, "model: no description");
	if (d->version != TT_MODEL_MANIFEST_VERSION)
		return tt_error(d->version > TT_MODEL_MANIFEST_VERSION ?
					-ENOTSUP : -EINVAL,
				"model: manifest version %u; this libtt reads %u",
				d->version, TT_MODEL_MANIFEST_VERSION);
	if (!d->arch || !tt_model_name_ok(d->arch))
		return tt_error(-EINVAL, "model: bad arch");
	if (d->grid.x < 1 || d->grid.y < 1 || d->grid.x > 64 || d->grid.y > 64)
		return tt_error(-EINVAL, "model: grid %ux%u is not 1..64 each",
				d->grid.x, d->grid.y);
	if (d->ntensors > TT_MODEL_MAX_TENSORS)
		return tt_error(-EINVAL, "model: more than %u tensors",
				TT_MODEL_MAX_TENSORS);
	if (d->nprograms < 1)
		return tt_error(-EINVAL, "model: no program");
	ret = check_slots(d);
	for (unsigned i = 0; !ret && i < d->ntensors; i++)
		ret = check_tensor(d, i);
	if (!ret)
		ret = check_kernels(d);
	if (ret)
		return ret;
	life = calloc(d->ntensors ? d->ntensors : 1, sizeof(*life));
	if (!life)
		return tt_error(-ENOMEM, "model: out of memory");
	for (unsigned i = 0; !ret && i < d->nprograms; i++)
		ret = check_program(d, i, life);
	free(life);
	return ret;
}
