// SPDX-License-Identifier: Apache-2.0
/*
 * TT_DPRINT_CORES (kprint_cores.h): which cores' kernels print, as
 * TT-Metal's TT_METAL_DPRINT_CORES says it, "(x,y)", "(x0,y0)-(x1,y1)" or
 * "all", plus the bare "x,y" its users also type.
 */
#include "kprint_cores.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kprint.h"
#include "tt/core.h"

#define VAR "TT_DPRINT_CORES"
#define METAL_VAR "TT_METAL_DPRINT_CORES"

struct parser {
	const char *spec, *at, *var;
	unsigned w, h;
};

static int bad(const struct parser *p, const char *what)
{
	return tt_error(-EINVAL,
			"%s='%s': %s at '%s' (want all, x,y, (x,y) or (x0,y0)-(x1,y1), separated by ';' or ',')",
			p->var, p->spec, what, *p->at ? p->at : "the end");
}

static void skip_spaces(struct parser *p)
{
	while (isspace((unsigned char)*p->at))
		p->at++;
}

static int number(struct parser *p, unsigned limit, unsigned *out)
{
	unsigned long v;
	char *end;

	skip_spaces(p);
	if (!isdigit((unsigned char)*p->at))
		return bad(p, "expected a number");
	errno = 0;
	v = strtoul(p->at, &end, 10);
	if (errno || v >= limit)
		return tt_error(-EINVAL,
				"%s='%s': %.*s is outside the %ux%u logical grid",
				p->var, p->spec, (int)(end - p->at), p->at,
				p->w, p->h);
	p->at = end;
	*out = (unsigned)v;
	return 0;
}

static bool take(struct parser *p, char c)
{
	skip_spaces(p);
	if (*p->at != c)
		return false;
	p->at++;
	return true;
}

/* "x,y" or "(x,y)". */
static int core(struct parser *p, unsigned *x, unsigned *y)
{
	bool paren = take(p, '(');
	int ret = number(p, p->w, x);

	if (!ret && !take(p, ','))
		ret = bad(p, "expected ','");
	if (!ret)
		ret = number(p, p->h, y);
	if (!ret && paren && !take(p, ')'))
		ret = bad(p, "expected ')'");
	return ret;
}

static int range(struct parser *p, struct tt_kprint_sel *sel)
{
	unsigned x0, y0, x1, y1;
	int ret = core(p, &x0, &y0);

	if (ret)
		return ret;
	x1 = x0;
	y1 = y0;
	if (take(p, '-') && (ret = core(p, &x1, &y1)))
		return ret;
	if (x1 < x0 || y1 < y0)
		return bad(p, "a range must go from its top-left core to its bottom-right one");
	if (sel->n == TT_KPRINT_RANGES)
		return bad(p, "too many cores and ranges (at most 16)");
	sel->r[sel->n].x0 = (uint8_t)x0;
	sel->r[sel->n].y0 = (uint8_t)y0;
	sel->r[sel->n].x1 = (uint8_t)x1;
	sel->r[sel->n].y1 = (uint8_t)y1;
	sel->n++;
	return 0;
}

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

int tt_kprint_parse_cores(const char *spec, const char *var, unsigned w,
			  unsigned h, struct tt_kprint_sel *sel)
{
	struct parser p = { .spec = spec, .at = spec, .var = var,
			    .w = w, .h = h };
	int ret = 0;

	memset(sel, 0, sizeof(*sel));
	sel->on = true;
	sel->hash = fnv1a(spec);
	skip_spaces(&p);
	if (!strncmp(p.at, "all", 3)) {
		p.at += 3;
		skip_spaces(&p);
		sel->all = true;
		if (*p.at)
			ret = bad(&p, "nothing may follow 'all'");
	} else if (!*p.at) {
		ret = bad(&p, "no core");
	}
	while (!ret && !sel->all && *p.at) {
		ret = range(&p, sel);
		while (!ret && (take(&p, ';') || take(&p, ',')))
			;
	}
	if (ret)
		memset(sel, 0, sizeof(*sel));
	return ret;
}

bool tt_kprint_core_on(const struct tt_kprint_sel *sel, struct tt_xy logical)
{
	if (!sel->on || sel->all)
		return sel->on;
	for (unsigned i = 0; i < sel->n; i++)
		if (logical.x >= sel->r[i].x0 && logical.x <= sel->r[i].x1 &&
		    logical.y >= sel->r[i].y0 && logical.y <= sel->r[i].y1)
			return true;
	return false;
}

int tt_kprint_select(struct tt_device *dev, struct tt_kprint_sel *sel)
{
	const char *spec, *var;
	unsigned w = 0, h = 0;
	int ret = tt_env_synonym(VAR, METAL_VAR, &spec, &var);

	memset(sel, 0, sizeof(*sel));
	if (ret)
		return ret;
	if (!spec) {
		sel->on = sel->all = tt_kprint_enabled();
		return 0;
	}
	ret = tt_device_logical_grid(dev, &w, &h);
	return ret ? ret : tt_kprint_parse_cores(spec, var, w, h, sel);
}
