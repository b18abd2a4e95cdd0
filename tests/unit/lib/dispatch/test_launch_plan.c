// SPDX-License-Identifier: Apache-2.0
/*
 * Launch plans (lib/dispatch/launch_plan.h): when a launch may be replayed and
 * what a replay emits. A plan is only replayed for the third launch of
 * one input in a row, with the new launch word and every other byte as
 * recorded; any change of the input, in place or not, and forgetting
 * the cores' state stop replays.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"
#include "lib/dispatch/launch_plan.h"

#define MAXW 16

struct got {
	struct tt_xy a, b;
	uint32_t addr, len;
	uint8_t data[16];
};

struct sink {
	struct got w[MAXW];
	unsigned n;
	int fail_at; /* call number that fails, or -1 */
};

static int sink_emit(void *ctx, struct tt_xy a, struct tt_xy b, uint32_t addr,
		     const void *data, uint32_t len)
{
	struct sink *s = ctx;

	assert_true(s->n < MAXW && len <= sizeof(s->w[0].data));
	if ((int)s->n == s->fail_at)
		return -5;
	s->w[s->n] = (struct got){ .a = a, .b = b, .addr = addr, .len = len };
	memcpy(s->w[s->n].data, data, len);
	s->n++;
	return 0;
}

struct fixture {
	struct tt_launch_plan p;
	struct tt_launch l;
	struct tt_launch_core cores[2];
	struct tt_kbinary bin;
	uint32_t rta[2][3];
	struct sink out;
};

static const uint32_t seq_addr = TT_L1_LAUNCH_SEQ(1);

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	memset(f->bin.hash, 0xab, sizeof(f->bin.hash));
	f->bin.load_addr = TT_L1_KERNEL_SLOT(1);
	f->bin.image_len = 64;
	for (unsigned i = 0; i < 2; i++) {
		struct tt_launch_core *c = &f->cores[i];

		c->noc = (struct tt_xy){ 1 + i, 1 };
		c->hart[1].bin = &f->bin;
		c->hart[1].rta = f->rta[i];
		c->hart[1].rta_count = 3;
		for (unsigned k = 0; k < 3; k++)
			f->rta[i][k] = 10 * i + k;
	}
	f->l = (struct tt_launch){ .cores = f->cores, .ncores = 2,
				   .fast = true };
	f->out.fail_at = -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tt_launch_plan_free(&f->p);
	free(f);
	return 0;
}

static const struct tt_xy notify = { 1, 10 };

/* One launch made anew with seq: two writes of state, the launch word. */
static void launch(struct fixture *f, uint32_t seq)
{
	const uint32_t state_word = 0x5eed;

	assert_false(tt_launch_plan_replayable(&f->p));
	tt_launch_plan_record_start(&f->p, seq, sink_emit, &f->out);
	assert_int_equal(tt_launch_plan_record_emit(&f->p, f->cores[0].noc,
					     f->cores[1].noc, 0x100,
					     f->rta[0], 12), 0);
	assert_int_equal(tt_launch_plan_record_emit(&f->p, f->cores[1].noc,
					     f->cores[1].noc, 0x200,
					     &state_word, 4), 0);
	assert_int_equal(tt_launch_plan_record_emit(&f->p, f->cores[0].noc,
					     f->cores[1].noc, seq_addr, &seq,
					     4), 0);
	tt_launch_plan_launched(&f->p, 2);
}

static void describe(struct fixture *f)
{
	assert_int_equal(tt_launch_plan_describe(&f->p, &f->l, notify, 0x40), 0);
}

static void make_replayable(struct fixture *f)
{
	describe(f);
	launch(f, 1);
	describe(f);
	launch(f, 2);
	describe(f);
	assert_true(tt_launch_plan_replayable(&f->p));
}

static void test_third_launch_replays_with_its_seq(void **state)
{
	struct fixture *f = *state;
	uint32_t v;

	make_replayable(f);
	assert_int_equal(f->p.counts, 2);
	f->out.n = 0;
	assert_int_equal(tt_launch_plan_replay(&f->p, 77, sink_emit, &f->out), 0);
	assert_int_equal(f->out.n, 3);
	assert_int_equal(f->out.w[0].addr, 0x100);
	assert_int_equal(f->out.w[0].len, 12);
	assert_memory_equal(f->out.w[0].data, f->rta[0], 12);
	assert_int_equal(f->out.w[0].a.x, 1);
	assert_int_equal(f->out.w[0].b.x, 2);
	memcpy(&v, f->out.w[1].data, 4);
	assert_int_equal(v, 0x5eed);
	assert_int_equal(f->out.w[2].addr, seq_addr);
	memcpy(&v, f->out.w[2].data, 4);
	assert_int_equal(v, 77);
}

/* The launch words of all three harts in one write get the new seq in
 * every word; a write that only looks like one (a word that is not this
 * launch's seq, or one past the launch words) is replayed as recorded. */
static void test_launch_words_in_one_write(void **state)
{
	struct fixture *f = *state;
	uint32_t all[3], other[3], past[2], got[3];

	for (uint32_t seq = 1; seq <= 2; seq++) {
		describe(f);
		tt_launch_plan_record_start(&f->p, seq, sink_emit, &f->out);
		for (unsigned h = 0; h < 3; h++)
			all[h] = other[h] = seq;
		other[2] = seq + 100;
		past[0] = past[1] = seq;
		assert_int_equal(tt_launch_plan_record_emit(&f->p, f->cores[0].noc,
						     f->cores[1].noc,
						     TT_L1_LAUNCH_SEQ(0), all,
						     12), 0);
		assert_int_equal(tt_launch_plan_record_emit(&f->p, f->cores[0].noc,
						     f->cores[0].noc,
						     TT_L1_LAUNCH_SEQ(0), other,
						     12), 0);
		assert_int_equal(tt_launch_plan_record_emit(&f->p, f->cores[1].noc,
						     f->cores[1].noc,
						     TT_L1_LAUNCH_SEQ(2), past,
						     8), 0);
		tt_launch_plan_launched(&f->p, 6);
	}
	describe(f);
	assert_true(tt_launch_plan_replayable(&f->p));
	f->out.n = 0;
	assert_int_equal(tt_launch_plan_replay(&f->p, 9, sink_emit, &f->out), 0);
	assert_int_equal(f->out.n, 3);
	memcpy(got, f->out.w[0].data, 12);
	assert_int_equal(got[0], 9);
	assert_int_equal(got[1], 9);
	assert_int_equal(got[2], 9);
	assert_memory_equal(f->out.w[1].data, other, 12);
	assert_memory_equal(f->out.w[2].data, past, 8);
}

/* The input is compared by value: an argument changed in place counts. */
static void test_args_changed_in_place_stop_replay(void **state)
{
	struct fixture *f = *state;

	make_replayable(f);
	f->rta[1][2]++;
	describe(f);
	assert_false(tt_launch_plan_replayable(&f->p));
	launch(f, 3); /* a new input: its writes are not kept */
	describe(f);
	assert_false(tt_launch_plan_replayable(&f->p));
	launch(f, 4);
	describe(f);
	assert_true(tt_launch_plan_replayable(&f->p));
}

static void test_any_input_change_stops_replay(void **state)
{
	struct fixture *f = *state;
	struct tt_kbinary other = f->bin;

	make_replayable(f);
	assert_int_equal(tt_launch_plan_describe(&f->p, &f->l, notify, 0x44), 0);
	assert_false(tt_launch_plan_replayable(&f->p));
	f->l.print = true;
	describe(f);
	assert_false(tt_launch_plan_replayable(&f->p));
	f->l.print = false;
	other.hash[31] ^= 1;
	f->cores[0].hart[1].bin = &other;
	describe(f);
	assert_false(tt_launch_plan_replayable(&f->p));
	f->cores[0].hart[1].bin = &f->bin;
	f->cores[1].sem[0] = 1;
	describe(f);
	assert_false(tt_launch_plan_replayable(&f->p));
	f->cores[1].sem[0] = 0;
	f->l.ncores = 1;
	describe(f);
	assert_false(tt_launch_plan_replayable(&f->p));
	f->l.ncores = 2;
	describe(f);
	assert_true(tt_launch_plan_replayable(&f->p));
}

static void test_forget_stops_replay(void **state)
{
	struct fixture *f = *state;

	make_replayable(f);
	tt_launch_plan_forget(&f->p);
	describe(f);
	assert_false(tt_launch_plan_replayable(&f->p));
	launch(f, 5);
	describe(f);
	/* Its writes were made against a state nobody knew. */
	assert_false(tt_launch_plan_replayable(&f->p));
}

/* A write that fails is not recorded, and an emit error comes back. */
static void test_failed_emit_is_returned(void **state)
{
	struct fixture *f = *state;

	make_replayable(f);
	f->out.n = 0;
	f->out.fail_at = 1;
	assert_int_equal(tt_launch_plan_replay(&f->p, 9, sink_emit, &f->out), -5);
	assert_int_equal(f->out.n, 1);
	tt_launch_plan_record_start(&f->p, 9, sink_emit, &f->out);
	f->out.n = 0;
	assert_int_equal(tt_launch_plan_record_emit(&f->p, f->cores[0].noc,
					     f->cores[0].noc, 0x100, f->rta[0],
					     4), 0);
	assert_int_equal(tt_launch_plan_record_emit(&f->p, f->cores[0].noc,
					     f->cores[0].noc, 0x104, f->rta[0],
					     4), -5);
	assert_int_equal(f->p.nw, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_third_launch_replays_with_its_seq, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_launch_words_in_one_write,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_args_changed_in_place_stop_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_any_input_change_stops_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forget_stops_replay, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_failed_emit_is_returned,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
