// SPDX-License-Identifier: Apache-2.0
/*
 * Programs to launch descriptions: what the command queues hand the
 * launcher, from a finalized program (program_internal.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/memory/alloc.h"
#include "dispatch.h"
#include "lib/program/program_internal.h"

static void fill_hart(const tt_program *prog, const struct tt_program_core *pc,
		      unsigned h, struct tt_launch_hart *out)
{
	const struct tt_program_kernel *k;

	if (pc->kernel[h] < 0)
		return;
	k = tt_program_kernel(prog, (unsigned)pc->kernel[h]);
	if (!k)
		return;
	out->bin = k->bin;
	out->name = k->name;
	out->kernel_id = k->id;
	out->noc = k->noc;
	out->rta = pc->rta[h];
	out->rta_count = pc->ctx[h].rta_count;
	out->crta = pc->crta[h];
	out->crta_count = pc->ctx[h].crta_count;
}

int tt_dispatch_program_cores(tt_program *prog, struct tt_device *dev,
			      struct tt_launch_core **cores, unsigned *n)
{
	const struct tt_program_limits lim = {
		.l1_cb_limit = tt_alloc_l1_lowest,
	};
	const struct tt_program_core *pc;
	struct tt_launch_core *lc;
	unsigned count;
	int ret;

	ret = tt_program_finalize(prog, dev, &lim);
	if (ret)
		return ret;
	pc = tt_program_cores(prog, &count);
	lc = calloc(count ? count : 1, sizeof(*lc));
	if (!lc)
		return tt_error(-ENOMEM, "out of memory launching program %u",
				tt_program_id(prog));
	for (unsigned i = 0; i < count; i++) {
		lc[i].logical = pc[i].logical;
		lc[i].noc = pc[i].noc;
		for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
			fill_hart(prog, &pc[i], h, &lc[i].hart[h]);
		if (pc[i].cbs) {
			lc[i].cbs = pc[i].cbs->cb;
			lc[i].cb_mask = pc[i].cbs->mask;
		}
		lc[i].sem_mask = pc[i].sem_mask;
		for (unsigned s = 0; s < TT_SEM_COUNT; s++)
			lc[i].sem[s] = pc[i].sem[s];
	}
	*cores = lc;
	*n = count;
	return 0;
}
