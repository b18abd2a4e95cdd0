// SPDX-License-Identifier: Apache-2.0
/*
 * Semaphores: TT_NUM_SEMAPHORES per core; a new one gets the lowest id
 * free on every one of its cores (TT-Metal's rule).
 */
#include <errno.h>
#include <stdlib.h>

#include "program_internal.h"

void tt_sem_obj_free(struct tt_sem_obj *s)
{
	if (!s)
		return;
	tt_program_rset_free(&s->cores);
	free(s);
}

static int check_core_type(enum tt_core_type t, const char *fn)
{
	if (t == TT_CORE_TENSIX)
		return 0;
	if (t == TT_CORE_ETH)
		return tt_error(-ENOTSUP,
				"%s: Ethernet semaphores are not supported: no Ethernet cores run kernels on the model",
				fn);
	return tt_error(-EINVAL,
			"%s: core type %d (%s) cannot hold semaphores (TT_CORE_TENSIX or TT_CORE_ETH)",
			fn, (int)t, tt_core_type_name(t));
}

/* Ids used on some core of r. */
static uint32_t used_ids(const tt_program *p, const struct tt_program_rset *r)
{
	uint32_t used = 0;
	struct tt_xy c;

	for (unsigned i = 0; i < p->nsems; i++)
		if (tt_program_rset_common(&p->sems[i]->cores, r, &c))
			used |= 1u << p->sems[i]->id;
	return used;
}

/* Ids used on core c. */
static uint32_t used_on(const tt_program *p, struct tt_xy c)
{
	uint32_t used = 0;

	for (unsigned i = 0; i < p->nsems; i++)
		if (tt_program_rset_contains(&p->sems[i]->cores, c))
			used |= 1u << p->sems[i]->id;
	return used;
}

/* Every id is used on some core of r: name a full core if there is one,
 * else a core using the last id. */
static int no_free_id(const tt_program *p, const struct tt_program_rset *r,
		      const char *fn)
{
	const uint32_t all = (1u << TT_NUM_SEMAPHORES) - 1;
	struct tt_core_range_set s;
	struct tt_core_iter it;
	struct tt_xy c, some = r->r[0].start;

	tt_program_rset_to_set(r, &s);
	for (tt_core_iter_init(&it, &s); tt_core_iter_next(&it, &c);) {
		uint32_t used = used_on(p, c);

		if (used == all)
			return tt_error(-ENOSPC,
					"%s: core (%u,%u) already has %u semaphores",
					fn, c.x, c.y, TT_NUM_SEMAPHORES);
		if (used >> (TT_NUM_SEMAPHORES - 1))
			some = c;
	}
	return tt_error(-ENOSPC,
			"%s: no semaphore id is free on every core of the set (id %u is used on core (%u,%u))",
			fn, TT_NUM_SEMAPHORES - 1, some.x, some.y);
}

static int add(tt_program *p, struct tt_sem_obj *s, const char *fn)
{
	if (tt_append(&p->sems, &p->nsems, s)) {
		tt_sem_obj_free(s);
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	}
	tt_program_changed(p);
	return 0;
}

static int new_sem(const struct tt_core_range_set *cores, uint32_t initial,
		   const char *fn, struct tt_sem_obj **out)
{
	struct tt_sem_obj *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	s->initial = initial;
	ret = tt_program_rset_from(&s->cores, cores, fn);
	if (ret) {
		free(s);
		return ret;
	}
	*out = s;
	return 0;
}

static int create_semaphore(tt_program *p,
			    const struct tt_core_range_set *cores,
			    uint32_t initial_value, enum tt_core_type core_type,
			    uint32_t *id, const char *fn)
{
	struct tt_sem_obj *s;
	uint32_t used;
	int ret;

	if (!p || !id)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				p ? "id" : "program");
	ret = check_core_type(core_type, fn);
	if (ret)
		return ret;
	ret = new_sem(cores, initial_value, fn, &s);
	if (ret)
		return ret;
	used = used_ids(p, &s->cores);
	if (used == (1u << TT_NUM_SEMAPHORES) - 1) {
		ret = no_free_id(p, &s->cores, fn);
		tt_sem_obj_free(s);
		return ret;
	}
	s->id = (unsigned)__builtin_ctz(~used);
	ret = add(p, s, fn);
	if (!ret)
		*id = s->id;
	return ret;
}

int tt_create_semaphore(tt_program *p, const struct tt_core_range_set *cores,
			uint32_t initial_value, enum tt_core_type core_type,
			uint32_t *id)
{
	return create_semaphore(p, cores, initial_value, core_type, id,
				"tt_create_semaphore");
}

int tt_create_semaphore_on_core(tt_program *p, struct tt_xy core,
				uint32_t initial_value,
				enum tt_core_type core_type, uint32_t *id)
{
	struct tt_core_range_set s = tt_core_range_set_of_core(core.x, core.y);

	return create_semaphore(p, &s, initial_value, core_type, id,
				"tt_create_semaphore_on_core");
}

int tt_create_semaphore_on_range(tt_program *p, struct tt_core_range range,
				 uint32_t initial_value,
				 enum tt_core_type core_type, uint32_t *id)
{
	struct tt_core_range_set s = { .count = 1, .ranges = { range } };

	return create_semaphore(p, &s, initial_value, core_type, id,
				"tt_create_semaphore_on_range");
}

int tt_create_semaphore_id(tt_program *p,
			   const struct tt_core_range_set *cores,
			   uint32_t initial_value, enum tt_core_type core_type,
			   uint32_t id, const char *fn)
{
	struct tt_sem_obj *s;
	struct tt_xy c;
	int ret;

	ret = check_core_type(core_type, fn);
	if (ret)
		return ret;
	if (id >= TT_NUM_SEMAPHORES)
		return tt_error(-EINVAL,
				"%s: semaphore id %u out of range (0..%u)", fn,
				id, TT_NUM_SEMAPHORES - 1);
	ret = new_sem(cores, initial_value, fn, &s);
	if (ret)
		return ret;
	for (unsigned i = 0; i < p->nsems; i++)
		if (p->sems[i]->id == id &&
		    tt_program_rset_common(&p->sems[i]->cores, &s->cores, &c)) {
			tt_sem_obj_free(s);
			return tt_error(-EEXIST,
					"%s: semaphore id %u is already used on core (%u,%u)",
					fn, id, c.x, c.y);
		}
	s->id = id;
	return add(p, s, fn);
}
