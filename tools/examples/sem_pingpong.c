// SPDX-License-Identifier: Apache-2.0
/*
 * sem_pingpong: two cores bounce a counter back and forth 500 times,
 * each throw signalled with noc_semaphore_inc on the other core's
 * semaphore and awaited with noc_semaphore_wait. The players sit at
 * opposite corners of the logical grid; kernels address each other by
 * NOC coordinates, which the host looks up (tt_device_worker_core) and
 * passes as runtime arguments. The host then reads what each player
 * holds from its L1 and checks the counter and the semaphore counts.
 *
 * Kernel: kernels/sem_pingpong/pingpong.c (both players, the role is a
 * runtime argument).
 */
#include "example.h"

#define NAME "sem_pingpong"
#define ROUNDS 500u
#define RESULT_BYTES 16u /* ball, semaphore, rounds, unused */

struct player {
	struct tt_xy logical, noc;
	uint32_t args[6];
	uint32_t result[RESULT_BYTES / 4];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"Two cores bounce a counter %u times with semaphores.\n"
		EX_HELP_COMMON,
		ROUNDS);
}

/* Does p hold what it should after ROUNDS rounds? */
static bool check(const struct player *p, uint32_t ball)
{
	bool ok = p->result[0] == ball && p->result[1] == ROUNDS &&
		  p->result[2] == ROUNDS;

	if (!ok)
		fprintf(stderr,
			"core (%u,%u): ball %u, semaphore %u, rounds %u; expected %u, %u, %u\n",
			p->logical.x, p->logical.y, p->result[0], p->result[1],
			p->result[2], ball, ROUNDS, ROUNDS);
	return ok;
}

int main(int argc, char **argv)
{
	struct tt_kernel_config dm = tt_data_movement_config(TT_RISCV_0);
	struct tt_buffer_config rcfg = {
		.size = RESULT_BYTES,
		.page_size = RESULT_BYTES,
		.type = TT_BUFFER_L1,
	};
	struct player pl[2];
	struct tt_core_args per_core[2];
	struct tt_core_range_set cores;
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_buffer *result;
	tt_program *prog;
	tt_device *dev;
	unsigned w, h;
	uint32_t sem;
	double t0, ms;
	bool ok;
	char detail[160];

	ex_no_args(argc, argv, usage);
	ex_open_device(&dev);
	EX_TRY(tt_device_command_queue(dev, 0, &cq));
	EX_TRY(tt_device_logical_grid(dev, &w, &h));
	if (w * h < 2)
		ex_die("a grid of %ux%u cores has no room for two players", w,
		       h);
	pl[0].logical = (struct tt_xy){ 0, 0 };
	pl[1].logical = (struct tt_xy){ w - 1, h - 1 };
	for (int i = 0; i < 2; i++)
		EX_TRY(tt_device_worker_core(dev, pl[i].logical, &pl[i].noc));

	/* Each player's ball and results: one L1 buffer reserves the same
	 * address on every core. */
	rcfg.device = dev;
	EX_TRY(tt_create_buffer(&rcfg, &result));

	cores = tt_core_range_set_of_core(pl[0].logical.x, pl[0].logical.y);
	EX_TRY(tt_core_range_set_add(
		&cores, tt_core_range(pl[1].logical.x, pl[1].logical.y,
				      pl[1].logical.x, pl[1].logical.y)));
	EX_TRY(tt_create_program(&prog));
	EX_TRY(tt_create_semaphore(prog, &cores, 0, TT_CORE_TENSIX, &sem));
	EX_TRY(tt_create_kernel(prog, ex_kernel("sem_pingpong/pingpong.c"),
				&cores, &dm, &k));
	for (int i = 0; i < 2; i++) {
		const struct player *peer = &pl[1 - i];
		uint32_t *a = pl[i].args;

		a[0] = peer->noc.x;
		a[1] = peer->noc.y;
		a[2] = ROUNDS;
		a[3] = i == 0; /* player 0 throws first */
		a[4] = sem;
		a[5] = (uint32_t)tt_buffer_address(result);
		per_core[i] = (struct tt_core_args){ pl[i].logical, a, 6 };
	}
	EX_TRY(tt_set_runtime_args_per_core(prog, k, per_core, 2));

	t0 = ex_now_ms();
	EX_TRY(tt_enqueue_program(cq, prog, true));
	ms = ex_now_ms() - t0;
	for (int i = 0; i < 2; i++)
		EX_TRY(tt_read_from_device_l1(dev, pl[i].logical,
					      tt_buffer_address(result),
					      pl[i].result, RESULT_BYTES));

	ok = check(&pl[0], 2 * ROUNDS) & check(&pl[1], 2 * ROUNDS - 1);
	snprintf(detail, sizeof(detail),
		 "%u rounds between cores (%u,%u) and (%u,%u), counter %u, %.1f ms",
		 ROUNDS, pl[0].logical.x, pl[0].logical.y, pl[1].logical.x,
		 pl[1].logical.y, pl[0].result[0], ms);

	tt_program_free(prog);
	tt_buffer_free(result);
	tt_device_close(dev);
	return ex_verdict(NAME, ok, detail);
}
