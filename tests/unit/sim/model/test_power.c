// SPDX-License-Identifier: Apache-2.0
/*
 * The power and thermal model (sim/model/power.c): the electrical formulas, the
 * first-order thermal step and its exactness under any split of time,
 * determinism, the fan, clamping of nonsense inputs, agreement between
 * each board's defaults and the limits in its board info (sim/model/flash.c),
 * and the outlet air temperature.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/model/flash.h"
#include "hw/hart.h"
#include "sim/model/power.h"
#include "common/soc_desc.h"

#define EPS 1e-9

static const enum tt_hw_board boards[] = {
	TT_HW_BOARD_N150,
	TT_HW_BOARD_N300,
	TT_HW_BOARD_P150,
	TT_HW_BOARD_E150,
};
#define NBOARDS (sizeof(boards) / sizeof(boards[0]))

static const char *const socs[] = {
	"wormhole_b0_n150",
	"wormhole_b0_n300",
	"blackhole_p150",
	"grayskull_e150",
};

static void assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g (+-%g)", got, want, tol);
}

/* Busy harts for the given number of harts over dt. */
static struct sim_power_activity busy(double harts, double dt)
{
	return (struct sim_power_activity){.busy_hart_s = harts * dt};
}

/* Harts of one chip of a board: 3 per enabled Tensix node. */
static unsigned harts_of(unsigned b)
{
	static struct soc_desc d;
	char err[SOC_ERR_MAX];

	if (soc_desc_builtin(socs[b], &d, err, sizeof(err)))
		fail_msg("%s: %s", socs[b], err);
	return d.tensix_count * TT_TENSIX_HARTS;
}

/* Steady state: a step much longer than tau. */
static struct sim_power_state settle(const struct sim_power_params *p,
				     double harts, double aiclk, double duty,
				     double ambient)
{
	struct sim_power_activity a = busy(harts, 100.0);
	struct sim_power_state s;

	sim_power_init(p, ambient, &s);
	sim_power_step(p, &s, &a, 100.0, aiclk, duty, ambient);
	return s;
}

/* ------------------------------------------------------------------ */

static void test_defaults_are_sane(void **state)
{
	(void)state;
	for (unsigned b = 0; b < NBOARDS; b++) {
		struct sim_power_params p;

		sim_power_defaults(boards[b], &p);
		assert_true(p.idle_w > 0 && p.hart_w > 0);
		assert_true(p.coproc_j > 0 && p.noc_j_per_byte > 0);
		assert_true(p.aiclk_min > 0 && p.aiclk_min < p.aiclk_max);
		assert_true(p.vdd_min > 0 && p.vdd_min < p.vdd_max);
		assert_true(p.r_th > 0 && p.r_th < p.r_th_still);
		assert_true(p.vreg_efficiency > 0 && p.vreg_efficiency < 1);
		assert_near(p.tau, 1.0, 0);
		assert_true(p.fan_max_rpm > 0);
		assert_true(p.g_air_still > 0 && p.g_air_still < p.g_air);
	}
}

static void test_wormhole_figures(void **state)
{
	struct sim_power_params p, q;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	assert_near(p.idle_w, 20.0, 0);
	assert_near(p.aiclk_min, 500, 0);
	assert_near(p.aiclk_max, 1000, 0);
	/* 216 busy harts add about 80 W. */
	assert_near(216 * p.hart_w, 80.0, 1.0);
	/* An unknown board gets the n150's figures. */
	sim_power_defaults(TT_HW_BOARD_UNKNOWN, &q);
	assert_memory_equal(&p, &q, sizeof(p));
}

static void test_init(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_P150, &p);
	sim_power_init(&p, 31.5, &s);
	assert_near(s.asic_c, 31.5, 0);
	assert_near(s.vreg_c, 31.5, 0);
	assert_near(s.power_w, p.idle_w, 0);
	assert_near(s.vcore_v, p.vdd_min, 0);
	assert_near(s.current_a, p.idle_w / p.vdd_min, EPS);
	assert_near(s.busy_harts, 0, 0);
	assert_near(s.fan_rpm, 0, 0);
}

static void test_idle_power_at_any_clock(void **state)
{
	(void)state;
	for (unsigned b = 0; b < NBOARDS; b++) {
		struct sim_power_params p;
		struct sim_power_state s;
		struct sim_power_activity none = {0};

		sim_power_defaults(boards[b], &p);
		sim_power_init(&p, 25, &s);
		sim_power_step(&p, &s, &none, 1.0, p.aiclk_min, 100, 25);
		assert_near(s.power_w, p.idle_w, 0);
		sim_power_step(&p, &s, &none, 1.0, p.aiclk_max, 100, 25);
		assert_near(s.power_w, p.idle_w, 0);
		sim_power_step(&p, &s, NULL, 1.0, p.aiclk_max, 100, 25);
		assert_near(s.power_w, p.idle_w, 0);
	}
}

static void test_power_rises_with_busy_harts(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s;
	double last = 0;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	sim_power_init(&p, 25, &s);
	for (unsigned h = 0; h <= 216; h += 24) {
		struct sim_power_activity a = busy(h, 0.5);

		sim_power_step(&p, &s, &a, 0.5, p.aiclk_max, 100, 25);
		assert_near(s.busy_harts, h, EPS);
		/* At aiclk_max and vdd_max the scale is exactly 1. */
		assert_near(s.power_w, p.idle_w + h * p.hart_w, EPS);
		if (h)
			assert_true(s.power_w > last);
		last = s.power_w;
	}
}

static void test_power_rises_with_coproc_and_noc(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s;
	struct sim_power_activity a = {.coproc_ops = 4000000000ull};

	(void)state;
	sim_power_defaults(TT_HW_BOARD_P150, &p);
	sim_power_init(&p, 25, &s);
	sim_power_step(&p, &s, &a, 2.0, p.aiclk_max, 100, 25);
	assert_near(s.coproc_rate, 2e9, 0);
	assert_near(s.power_w, p.idle_w + 2e9 * p.coproc_j, EPS);
	assert_true(s.power_w > p.idle_w);

	a = (struct sim_power_activity){.noc_bytes = 100000000000ull};
	sim_power_step(&p, &s, &a, 1.0, p.aiclk_max, 100, 25);
	assert_near(s.noc_rate, 1e11, 0);
	assert_near(s.coproc_rate, 0, 0);
	assert_near(s.power_w, p.idle_w + 1e11 * p.noc_j_per_byte, EPS);
	assert_true(s.power_w > p.idle_w);

	/* All three add up. */
	a = (struct sim_power_activity){.busy_hart_s = 10,
					.coproc_ops = 1000000000ull,
					.noc_bytes = 1000000000ull};
	sim_power_step(&p, &s, &a, 1.0, p.aiclk_max, 100, 25);
	assert_near(s.power_w,
		    p.idle_w + 10 * p.hart_w + 1e9 * p.coproc_j +
			    1e9 * p.noc_j_per_byte,
		    EPS);
}

static void test_voltage_curve(void **state)
{
	(void)state;
	for (unsigned b = 0; b < NBOARDS; b++) {
		struct sim_power_params p;
		struct sim_power_state s;
		double mid;

		sim_power_defaults(boards[b], &p);
		mid = (p.aiclk_min + p.aiclk_max) / 2;
		sim_power_init(&p, 25, &s);
		sim_power_step(&p, &s, NULL, 0, p.aiclk_min, 100, 25);
		assert_near(s.vcore_v, p.vdd_min, EPS);
		sim_power_step(&p, &s, NULL, 0, p.aiclk_max, 100, 25);
		assert_near(s.vcore_v, p.vdd_max, EPS);
		sim_power_step(&p, &s, NULL, 0, mid, 100, 25);
		assert_near(s.vcore_v, (p.vdd_min + p.vdd_max) / 2, EPS);
		sim_power_step(&p, &s, NULL, 0,
			       p.aiclk_min + 0.25 * (p.aiclk_max - p.aiclk_min),
			       100, 25);
		assert_near(s.vcore_v,
			    p.vdd_min + 0.25 * (p.vdd_max - p.vdd_min), EPS);
		/* Outside the range the clock is taken, the voltage held. */
		sim_power_step(&p, &s, NULL, 0, p.aiclk_min / 2, 100, 25);
		assert_near(s.vcore_v, p.vdd_min, 0);
		sim_power_step(&p, &s, NULL, 0, p.aiclk_max * 2, 100, 25);
		assert_near(s.vcore_v, p.vdd_max, 0);
	}
}

static void test_dynamic_power_scales_with_clock(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s;
	struct sim_power_activity a = busy(100, 1);
	double full, v;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	sim_power_init(&p, 25, &s);
	sim_power_step(&p, &s, &a, 1, p.aiclk_max, 100, 25);
	full = s.power_w - p.idle_w;
	sim_power_step(&p, &s, &a, 1, p.aiclk_min, 100, 25);
	v = p.vdd_min / p.vdd_max;
	assert_near(s.power_w - p.idle_w,
		    full * p.aiclk_min / p.aiclk_max * v * v, EPS);
	/* Above aiclk_max only the clock grows. */
	sim_power_step(&p, &s, &a, 1, 2 * p.aiclk_max, 100, 25);
	assert_near(s.power_w - p.idle_w, 2 * full, EPS);
}

static void test_current_is_power_over_voltage(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_P150, &p);
	sim_power_init(&p, 25, &s);
	for (double f = 0; f <= 1600; f += 100) {
		struct sim_power_activity a = busy(f / 10, 0.1);

		sim_power_step(&p, &s, &a, 0.1, f, 100, 25);
		assert_true(s.current_a > 0);
		assert_near(s.current_a, s.power_w / s.vcore_v, EPS);
	}
}

static void test_heats_toward_target_and_cools(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s;
	double target, prev, idle_target;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	sim_power_init(&p, 25, &s);
	target = 25 + p.r_th * (p.idle_w + 216 * p.hart_w);
	prev = s.asic_c;
	for (int i = 1; i <= 50; i++) {
		struct sim_power_activity a = busy(216, 0.1);

		sim_power_step(&p, &s, &a, 0.1, p.aiclk_max, 100, 25);
		assert_true(s.asic_c > prev);
		assert_true(s.asic_c < target);
		assert_true(s.vreg_c > 25);
		prev = s.asic_c;
		if (i == 10) /* one time constant: 1 - 1/e of the way */
			assert_near(s.asic_c,
				    25 + (target - 25) * (1 - exp(-1)), 1e-9);
	}
	assert_near(s.asic_c, target, (target - 25) * exp(-5) * 1.0001);

	/* Idle: back down toward ambient + R x idle power, never below. */
	idle_target = 25 + p.r_th * p.idle_w;
	for (int i = 0; i < 30; i++) {
		sim_power_step(&p, &s, NULL, 0.2, p.aiclk_min, 100, 25);
		assert_true(s.asic_c < prev);
		assert_true(s.asic_c > idle_target);
		prev = s.asic_c;
	}
	assert_near(s.asic_c, idle_target, 0.5);
}

static void test_vreg_temperature(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	s = settle(&p, 216, p.aiclk_max, 100, 25);
	assert_near(s.vreg_c,
		    25 + p.r_th_vreg * s.power_w * (1 - p.vreg_efficiency),
		    1e-6);
	assert_true(s.vreg_c > 25 && s.vreg_c < s.asic_c);
}

/* One long step and many short ones (same activity rate) agree. */
static void test_split_steps_match_one_step(void **state)
{
	struct sim_power_params p;
	struct sim_power_state one, many, uneven;
	struct sim_power_activity a = {.busy_hart_s = 300 * 3.0,
				       .coproc_ops = 3000000000ull,
				       .noc_bytes = 30000000000ull};

	(void)state;
	sim_power_defaults(TT_HW_BOARD_P150, &p);
	sim_power_init(&p, 25, &one);
	many = uneven = one;
	sim_power_step(&p, &one, &a, 3.0, 1200, 60, 25);

	a = (struct sim_power_activity){.busy_hart_s = 300 * 0.001,
					.coproc_ops = 1000000,
					.noc_bytes = 10000000};
	for (int i = 0; i < 3000; i++)
		sim_power_step(&p, &many, &a, 0.001, 1200, 60, 25);
	assert_near(many.asic_c, one.asic_c, 1e-9);
	assert_near(many.vreg_c, one.vreg_c, 1e-9);
	assert_near(many.power_w, one.power_w, 1e-9);

	/* Uneven pieces, with zero-length steps in between. */
	for (double t = 0, dt = 0.0005; t < 3.0 - 1e-12; t += dt, dt *= 1.5) {
		if (t + dt > 3.0)
			dt = 3.0 - t;
		a = (struct sim_power_activity){.busy_hart_s = 300 * dt};
		sim_power_step(&p, &uneven, &a, dt, 1200, 60, 25);
		sim_power_step(&p, &uneven, NULL, 0, 1200, 60, 25);
	}
	/* Same harts, no coprocessor or NOC work this time. */
	a = (struct sim_power_activity){.busy_hart_s = 300 * 3.0};
	sim_power_init(&p, 25, &one);
	sim_power_step(&p, &one, &a, 3.0, 1200, 60, 25);
	assert_near(uneven.asic_c, one.asic_c, 1e-9);
	assert_near(uneven.vreg_c, one.vreg_c, 1e-9);
}

/* A pseudo-random run, twice: bit-identical states. */
static void run_sequence(struct sim_power_state *s)
{
	struct sim_power_params p;
	uint32_t x = 12345;

	sim_power_defaults(TT_HW_BOARD_N300, &p);
	sim_power_init(&p, 25, s);
	for (int i = 0; i < 2000; i++) {
		struct sim_power_activity a;
		double dt;

		x = x * 1103515245u + 12345u;
		dt = (x >> 16) / 65536.0 * 0.01;
		a.busy_hart_s = (x & 0xFF) * dt;
		a.coproc_ops = x >> 8;
		a.noc_bytes = (uint64_t)x << 4;
		sim_power_step(&p, s, &a, dt, 500 + (x % 600), x % 101,
			       20 + (x % 20));
	}
}

static void test_deterministic(void **state)
{
	struct sim_power_state a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0xFF, sizeof(b));
	run_sequence(&a);
	run_sequence(&b);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(isfinite(a.asic_c) && a.asic_c > 20);
}

static void test_fan(void **state)
{
	struct sim_power_params p;
	struct sim_power_state full, half, still;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	full = settle(&p, 216, p.aiclk_max, 100, 25);
	half = settle(&p, 216, p.aiclk_max, 50, 25);
	still = settle(&p, 216, p.aiclk_max, 0, 25);
	assert_true(full.asic_c < half.asic_c && half.asic_c < still.asic_c);
	assert_near(full.asic_c, 25 + p.r_th * full.power_w, 1e-6);
	assert_near(still.asic_c, 25 + p.r_th_still * still.power_w, 1e-6);
	assert_near(half.asic_c,
		    25 + (p.r_th + p.r_th_still) / 2 * half.power_w, 1e-6);
	assert_near(full.fan_rpm, p.fan_max_rpm, 0);
	assert_near(half.fan_rpm, p.fan_max_rpm / 2, 1e-9);
	assert_near(still.fan_rpm, 0, 0);
}

/*
 * Board limits against the model: every hart busy at aiclk_max stays
 * under the throttle limit from 25 degC ambient but crosses it from
 * 60 degC, within TDP and TDC; the AICLK and VDD limits are the model's.
 */
static void test_limits_agree_with_model(void **state)
{
	(void)state;
	for (unsigned b = 0; b < NBOARDS; b++) {
		struct sim_power_params p;
		struct sim_power_state cool, hot;
		struct tt_board_info bi;
		double harts = harts_of(b);

		sim_power_defaults(boards[b], &p);
		sim_board_info(boards[b], 0, NULL, &bi);
		assert_int_equal(bi.aiclk_min, (uint32_t)p.aiclk_min);
		assert_int_equal(bi.aiclk_max, (uint32_t)p.aiclk_max);
		assert_int_equal(bi.vdd_min,
				 (uint32_t)lround(p.vdd_min * 1000));
		assert_int_equal(bi.vdd_max,
				 (uint32_t)lround(p.vdd_max * 1000));

		cool = settle(&p, harts, p.aiclk_max, 100, 25);
		hot = settle(&p, harts, p.aiclk_max, 100, 60);
		if (!(cool.asic_c >= 75 && cool.asic_c <= 85))
			fail_msg("board %u: full load at 25 degC settles at %g",
				 boards[b], cool.asic_c);
		assert_true(cool.asic_c < bi.thm_limit_throttle);
		assert_true(hot.asic_c > bi.thm_limit_throttle);
		assert_true(bi.thm_limit_shutdown > bi.thm_limit_throttle);
		assert_true(cool.power_w < bi.tdp_limit);
		assert_true(cool.current_a < bi.tdc_limit);
		assert_true(cool.power_w < bi.board_power_limit);
	}
}

/* Wormhole and Blackhole can hold 60 degC ambient by dropping to
 * aiclk_min; Grayskull's clock range is too narrow for that. */
static void test_throttling_to_aiclk_min_is_enough(void **state)
{
	(void)state;
	for (unsigned b = 0; b < 3; b++) {
		struct sim_power_params p;
		struct sim_power_state s;
		struct tt_board_info bi;

		sim_power_defaults(boards[b], &p);
		sim_board_info(boards[b], 0, NULL, &bi);
		s = settle(&p, harts_of(b), p.aiclk_min, 100, 60);
		if (!(s.asic_c < bi.thm_limit_throttle))
			fail_msg("board %u settles at %g at aiclk_min",
				 boards[b], s.asic_c);
	}
}

/* dt == 0: a new clock shows at once; rates and temperatures stay. */
static void test_zero_step(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s, before;
	struct sim_power_activity a = busy(100, 0.5);

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	sim_power_init(&p, 25, &s);
	sim_power_step(&p, &s, &a, 0.5, p.aiclk_max, 100, 25);
	before = s;
	/* Activity passed with dt == 0 cannot be a rate: ignored. */
	a = busy(1000, 1);
	sim_power_step(&p, &s, &a, 0, p.aiclk_min, 100, 25);
	assert_near(s.busy_harts, 100, 0);
	assert_near(s.asic_c, before.asic_c, 0);
	assert_near(s.vreg_c, before.vreg_c, 0);
	assert_near(s.vcore_v, p.vdd_min, 0);
	assert_true(s.power_w < before.power_w && s.power_w > p.idle_w);
}

static void assert_finite_state(const struct sim_power_state *s)
{
	assert_true(isfinite(s->asic_c) && isfinite(s->vreg_c));
	assert_true(isfinite(s->power_w) && s->power_w >= 0);
	assert_true(isfinite(s->vcore_v) && s->vcore_v > 0);
	assert_true(isfinite(s->current_a) && s->current_a >= 0);
	assert_true(isfinite(s->busy_harts) && s->busy_harts >= 0);
	assert_true(isfinite(s->fan_rpm) && s->fan_rpm >= 0);
}

static void test_hostile_inputs(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s, ref, before;
	struct sim_power_activity a = busy(100, 1), bad;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);

	/* Negative and NaN dt: nothing moves. */
	sim_power_init(&p, 25, &s);
	sim_power_step(&p, &s, &a, 1, p.aiclk_max, 100, 25);
	before = s;
	sim_power_step(&p, &s, &a, -5, p.aiclk_max, 100, 40);
	assert_near(s.asic_c, before.asic_c, 0);
	assert_near(s.busy_harts, before.busy_harts, 0);
	sim_power_step(&p, &s, &a, NAN, p.aiclk_max, 100, 40);
	assert_near(s.asic_c, before.asic_c, 0);
	assert_finite_state(&s);

	/* Duty 250 is 100, -20 is 0, NaN is 100 (fail safe). */
	sim_power_init(&p, 25, &ref);
	sim_power_step(&p, &ref, &a, 1, p.aiclk_max, 100, 25);
	sim_power_init(&p, 25, &s);
	sim_power_step(&p, &s, &a, 1, p.aiclk_max, 250, 25);
	assert_memory_equal(&s, &ref, sizeof(s));
	sim_power_init(&p, 25, &s);
	sim_power_step(&p, &s, &a, 1, p.aiclk_max, NAN, 25);
	assert_memory_equal(&s, &ref, sizeof(s));
	sim_power_init(&p, 25, &s);
	sim_power_step(&p, &s, &a, 1, p.aiclk_max, -20, 25);
	assert_near(s.fan_rpm, 0, 0);
	assert_true(s.asic_c > ref.asic_c);

	/* NaN ambient is the default 25; absurd ambients are clamped. */
	sim_power_init(&p, NAN, &s);
	assert_near(s.asic_c, SIM_POWER_AMBIENT_C, 0);
	sim_power_step(&p, &s, &a, 1, p.aiclk_max, 100, NAN);
	assert_memory_equal(&s, &ref, sizeof(s));
	sim_power_init(&p, 1e300, &s);
	assert_near(s.asic_c, 150, 0);
	sim_power_step(&p, &s, &a, 1, p.aiclk_max, 100, -INFINITY);
	assert_true(s.asic_c < 150 && s.asic_c > -55);

	/* Clock: NaN and infinite read as aiclk_min, negative as stopped. */
	sim_power_init(&p, 25, &s);
	sim_power_step(&p, &s, &a, 1, NAN, 100, 25);
	assert_near(s.vcore_v, p.vdd_min, 0);
	assert_true(s.power_w > p.idle_w);
	sim_power_step(&p, &s, &a, 1, INFINITY, 100, 25);
	assert_near(s.vcore_v, p.vdd_min, 0);
	assert_finite_state(&s);
	sim_power_step(&p, &s, &a, 1, -1000, 100, 25);
	assert_near(s.power_w, p.idle_w, 0);
	assert_near(s.vcore_v, p.vdd_min, 0);

	/* Negative or NaN activity is none; an infinite step averages any
	 * activity away and settles. */
	bad = (struct sim_power_activity){.busy_hart_s = -50};
	sim_power_step(&p, &s, &bad, 1, p.aiclk_max, 100, 25);
	assert_near(s.busy_harts, 0, 0);
	bad.busy_hart_s = NAN;
	sim_power_step(&p, &s, &bad, 1, p.aiclk_max, 100, 25);
	assert_near(s.busy_harts, 0, 0);
	assert_near(s.power_w, p.idle_w, 0);
	sim_power_step(&p, &s, &a, INFINITY, p.aiclk_max, 100, 25);
	assert_near(s.asic_c, 25 + p.r_th * p.idle_w, 1e-9);
	assert_finite_state(&s);
}

/* ---- outlet air ---- */

static void test_outlet_is_inlet_without_power(void **state)
{
	static const double ambients[] = { -55, -10.5, 0, 25, 60, 150 };
	static const double no_power[] = { 0, -0.0, -1, -1e300, -INFINITY,
					   NAN };

	(void)state;
	for (unsigned b = 0; b < NBOARDS; b++) {
		struct sim_power_params p;

		sim_power_defaults(boards[b], &p);
		for (size_t a = 0; a < sizeof(ambients) / sizeof(*ambients); a++)
			for (size_t w = 0; w < sizeof(no_power) / sizeof(*no_power);
			     w++)
				for (double d = 0; d <= 100; d += 25)
					assert_near(sim_power_outlet_c(&p, ambients[a],
								       no_power[w], d),
						    ambients[a], 0);
	}
}

/* amb + P / G, G linear in duty between still air and full fan. */
static void test_outlet_formula(void **state)
{
	struct sim_power_params p;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	assert_near(sim_power_outlet_c(&p, 25, 80, 100), 25 + 80 / p.g_air,
		    EPS);
	assert_near(sim_power_outlet_c(&p, 25, 80, 0),
		    25 + 80 / p.g_air_still, EPS);
	assert_near(sim_power_outlet_c(&p, 30, 80, 50),
		    30 + 80 / ((p.g_air + p.g_air_still) / 2), EPS);
}

static void test_outlet_rises_with_power(void **state)
{
	(void)state;
	for (unsigned b = 0; b < NBOARDS; b++) {
		struct sim_power_params p;

		sim_power_defaults(boards[b], &p);
		for (double d = 0; d <= 100; d += 20) {
			double last = sim_power_outlet_c(&p, 25, 0, d);

			for (double w = 0.5; w <= 200; w += 0.5) {
				double t = sim_power_outlet_c(&p, 25, w, d);

				if (!(t > last))
					fail_msg("board %u duty %g: %g W gives %g degC, not above %g",
						 boards[b], d, w, t, last);
				last = t;
			}
		}
	}
}

static void test_outlet_falls_with_fan(void **state)
{
	(void)state;
	for (unsigned b = 0; b < NBOARDS; b++) {
		struct sim_power_params p;
		double last;

		sim_power_defaults(boards[b], &p);
		last = sim_power_outlet_c(&p, 25, 60, 0);
		for (double d = 1; d <= 100; d++) {
			double t = sim_power_outlet_c(&p, 25, 60, d);

			assert_true(t < last && t > 25);
			last = t;
		}
	}
}

/* The firmware's automatic fan (docs/firmware.md): 30% up to 40 degC,
 * linear to 100% at the throttle limit. */
static double fan_policy(double asic_c, double throttle_c)
{
	if (asic_c <= 40)
		return 30;
	if (asic_c >= throttle_c)
		return 100;
	return 30 + 70 * (asic_c - 40) / (throttle_c - 40);
}

/* Settle under the fan policy with `harts` busy at `aiclk`. */
static struct sim_power_state settle_with_fan(const struct sim_power_params *p,
					      unsigned b, double harts,
					      double aiclk)
{
	struct sim_power_state s;
	struct tt_board_info bi;
	double duty = 30;

	sim_board_info(boards[b], 0, NULL, &bi);
	sim_power_init(p, 25, &s);
	for (int i = 0; i < 600; i++) {
		struct sim_power_activity a = busy(harts, 0.1);

		sim_power_step(p, &s, &a, 0.1, aiclk, duty, 25);
		duty = fan_policy(s.asic_c, bi.thm_limit_throttle);
	}
	return s;
}

/* The documented figures: an idle board a few degC above its inlet, a
 * fully busy one 10-20 degC above, with the firmware's fan policy. */
static void test_outlet_figures(void **state)
{
	(void)state;
	for (unsigned b = 0; b < NBOARDS; b++) {
		struct sim_power_params p;
		struct sim_power_state idle, full;

		sim_power_defaults(boards[b], &p);
		idle = settle_with_fan(&p, b, 0, p.aiclk_min);
		full = settle_with_fan(&p, b, harts_of(b), p.aiclk_max);
		if (!(idle.outlet_c > 25 + 2 && idle.outlet_c < 25 + 8))
			fail_msg("board %u: idle outlet %g degC", boards[b],
				 idle.outlet_c);
		if (!(full.outlet_c > 25 + 10 && full.outlet_c < 25 + 20))
			fail_msg("board %u: busy outlet %g degC", boards[b],
				 full.outlet_c);
	}
}

/* sim_power_step keeps outlet_c, at once even for dt == 0. */
static void test_outlet_in_step(void **state)
{
	struct sim_power_params p;
	struct sim_power_state s;
	struct sim_power_activity a = busy(216, 0.5);

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	sim_power_init(&p, 31, &s);
	assert_near(s.outlet_c, 31, 0);
	sim_power_step(&p, &s, &a, 0.5, p.aiclk_max, 70, 31);
	assert_near(s.outlet_c, sim_power_outlet_c(&p, 31, s.power_w, 70), 0);
	assert_true(s.outlet_c > 31 + 5);
	/* A lower clock: less power, a cooler outlet, with no time passing. */
	sim_power_step(&p, &s, NULL, 0, p.aiclk_min, 70, 31);
	assert_near(s.outlet_c, sim_power_outlet_c(&p, 31, s.power_w, 70), 0);
	/* Hostile step inputs reach the outlet clamped as elsewhere. */
	sim_power_step(&p, &s, NULL, 0, p.aiclk_min, NAN, NAN);
	assert_near(s.outlet_c,
		    sim_power_outlet_c(&p, SIM_POWER_AMBIENT_C, s.power_w, 100),
		    0);
}

static void test_outlet_hostile_inputs(void **state)
{
	struct sim_power_params p, none;

	(void)state;
	sim_power_defaults(TT_HW_BOARD_N150, &p);
	/* Duty: NaN is full fan, beyond 0..100 clamped. */
	assert_near(sim_power_outlet_c(&p, 25, 50, NAN),
		    sim_power_outlet_c(&p, 25, 50, 100), 0);
	assert_near(sim_power_outlet_c(&p, 25, 50, 1e9),
		    sim_power_outlet_c(&p, 25, 50, 100), 0);
	assert_near(sim_power_outlet_c(&p, 25, 50, -INFINITY),
		    sim_power_outlet_c(&p, 25, 50, 0), 0);
	/* Ambient: NaN is the default, absurd values clamped. */
	assert_near(sim_power_outlet_c(&p, NAN, 50, 100),
		    sim_power_outlet_c(&p, SIM_POWER_AMBIENT_C, 50, 100), 0);
	assert_near(sim_power_outlet_c(&p, -1e300, 0, 100), -55, 0);
	assert_near(sim_power_outlet_c(&p, -INFINITY, 16, 100),
		    -55 + 16 / p.g_air, EPS);
	assert_near(sim_power_outlet_c(&p, INFINITY, 0, 100), 150, 0);
	/* The sensor's range ends at 150 degC: huge or infinite power. */
	assert_near(sim_power_outlet_c(&p, 25, 1e12, 100), 150, 0);
	assert_near(sim_power_outlet_c(&p, 25, INFINITY, 0), 150, 0);
	assert_near(sim_power_outlet_c(&p, 149, 100, 100), 150, 0);
	/* No airflow at all: pegged under load, the inlet without it. */
	none = p;
	none.g_air = none.g_air_still = 0;
	assert_near(sim_power_outlet_c(&none, 25, 1, 50), 150, 0);
	assert_near(sim_power_outlet_c(&none, 25, 0, 50), 25, 0);
	none.g_air = none.g_air_still = NAN;
	assert_near(sim_power_outlet_c(&none, 25, 1, 50), 150, 0);
	none.g_air = none.g_air_still = INFINITY; /* inf - inf: NaN */
	assert_near(sim_power_outlet_c(&none, 25, 50, 50), 150, 0);
	assert_near(sim_power_outlet_c(&none, 25, 0, 50), 25, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_are_sane),
		cmocka_unit_test(test_wormhole_figures),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_idle_power_at_any_clock),
		cmocka_unit_test(test_power_rises_with_busy_harts),
		cmocka_unit_test(test_power_rises_with_coproc_and_noc),
		cmocka_unit_test(test_voltage_curve),
		cmocka_unit_test(test_dynamic_power_scales_with_clock),
		cmocka_unit_test(test_current_is_power_over_voltage),
		cmocka_unit_test(test_heats_toward_target_and_cools),
		cmocka_unit_test(test_vreg_temperature),
		cmocka_unit_test(test_split_steps_match_one_step),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_fan),
		cmocka_unit_test(test_limits_agree_with_model),
		cmocka_unit_test(test_throttling_to_aiclk_min_is_enough),
		cmocka_unit_test(test_zero_step),
		cmocka_unit_test(test_hostile_inputs),
		cmocka_unit_test(test_outlet_is_inlet_without_power),
		cmocka_unit_test(test_outlet_formula),
		cmocka_unit_test(test_outlet_rises_with_power),
		cmocka_unit_test(test_outlet_falls_with_fan),
		cmocka_unit_test(test_outlet_figures),
		cmocka_unit_test(test_outlet_in_step),
		cmocka_unit_test(test_outlet_hostile_inputs),
	};

	return cmocka_run_group_tests_name("power", tests, NULL, NULL);
}
