// SPDX-License-Identifier: Apache-2.0
/*
 * Power and thermal model (power.h). Everything here is plain arithmetic on
 * the caller's values: no clocks, no globals, so a replay of the same
 * activity gives bit-identical readings.
 */
#include "power.h"

#include <math.h>
#include <stddef.h>

/*
 * Per-board defaults. Chosen so that, from 25 degC ambient at full fan,
 * every hart busy at aiclk_max settles at 75-85 degC, below the 90 degC
 * throttle limit of the board info (flash.c), and at 60 degC ambient the
 * same load crosses it. Hart counts: 3 harts per enabled Tensix node
 * (n150 216, n300 192 per chip, p150 360, e150 360).
 *
 * Airflow (g_air): with the firmware's fan policy (30% up to 40 degC ASIC,
 * 100% at the throttle limit) an idle board settles near 35-45% duty and
 * a fully busy one near 92%; the conductances put the outlet about 5 degC
 * above the inlet when idle and about 13 degC above under full load
 * (test_power checks 2-8 and 10-20). 8 W/degC is about 6.6 l/s (14 CFM)
 * of air, a blower card's; the larger p150 fan moves half as much again.
 * Still air: natural convection only.
 */
static const struct sim_power_params wormhole = {
	.idle_w = 20.0,
	.hart_w = 0.37, /* 216 busy harts: +80 W */
	.coproc_j = 1e-9,
	.noc_j_per_byte = 10e-12,
	.aiclk_min = 500.0,
	.aiclk_max = 1000.0,
	.vdd_min = 0.70,
	.vdd_max = 0.85,
	.r_th = 0.55, /* 100 W -> 80 degC */
	.r_th_still = 1.20,
	.tau = 1.0,
	.vreg_efficiency = 0.90,
	.r_th_vreg = 3.0,
	.fan_max_rpm = 4800.0,
	.g_air = 8.0, /* idle 20 W at 36%: +4.8 degC; 100 W at 93%: +13 */
	.g_air_still = 2.0,
};

static const struct sim_power_params blackhole = {
	.idle_w = 40.0,
	.hart_w = 0.30, /* 360 busy harts: +108 W */
	.coproc_j = 1e-9,
	.noc_j_per_byte = 8e-12,
	.aiclk_min = 800.0,
	.aiclk_max = 1350.0,
	.vdd_min = 0.70,
	.vdd_max = 0.90,
	.r_th = 0.35, /* 148 W -> 77 degC */
	.r_th_still = 0.90,
	.tau = 1.0,
	.vreg_efficiency = 0.92,
	.r_th_vreg = 2.5,
	.fan_max_rpm = 3600.0,
	.g_air = 12.0, /* idle 40 W at 45%: +5.6 degC; 148 W at 91%: +13 */
	.g_air_still = 3.0,
};

static const struct sim_power_params grayskull = {
	.idle_w = 25.0,
	.hart_w = 0.21, /* 360 busy harts: +75.6 W */
	.coproc_j = 1.2e-9,
	.noc_j_per_byte = 12e-12,
	.aiclk_min = 1000.0,
	.aiclk_max = 1200.0,
	.vdd_min = 0.75,
	.vdd_max = 0.85,
	.r_th = 0.55, /* 100.6 W -> 80 degC */
	.r_th_still = 1.20,
	.tau = 1.0,
	.vreg_efficiency = 0.90,
	.r_th_vreg = 3.0,
	.fan_max_rpm = 4000.0,
	.g_air = 8.0, /* idle 25 W at 42%: +5.6 degC; 101 W at 93%: +13 */
	.g_air_still = 2.0,
};

void sim_power_defaults(enum tt_hw_board board, struct sim_power_params *p)
{
	switch (board) {
	case TT_HW_BOARD_P150:
		*p = blackhole;
		break;
	case TT_HW_BOARD_E150:
		*p = grayskull;
		break;
	case TT_HW_BOARD_N150:
	case TT_HW_BOARD_N300:
	default:
		*p = wormhole;
		break;
	}
}

/* Clamp helpers: NaN compares false, so each caller decides what NaN is. */
static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double sane_ambient(double c)
{
	return isnan(c) ? SIM_POWER_AMBIENT_C : clamp(c, -55.0, 150.0);
}

static double sane_duty(double d)
{
	/* An unreadable fan setting must not cook the chip: assume full. */
	return isnan(d) ? 100.0 : clamp(d, 0.0, 100.0);
}

static double sane_clock(const struct sim_power_params *p, double f)
{
	if (!isfinite(f))
		return p->aiclk_min;
	return f < 0.0 ? 0.0 : f;
}

/* A count or time that must be finite and non-negative. */
static double sane_amount(double v)
{
	return isfinite(v) && v > 0.0 ? v : 0.0;
}

/* Core voltage: the V/f curve is a straight line, held at its ends. */
static double vcore(const struct sim_power_params *p, double f)
{
	double span = p->aiclk_max - p->aiclk_min;
	double v;

	if (!(span > 0.0))
		return p->vdd_max;
	v = p->vdd_min + (p->vdd_max - p->vdd_min) * (f - p->aiclk_min) / span;
	return clamp(v, p->vdd_min, p->vdd_max);
}

/* Electrical values from the state's activity rates and the clock. */
static void electrical(const struct sim_power_params *p,
		       struct sim_power_state *s, double f)
{
	double v = vcore(p, f);
	double scale = 1.0, dyn;

	if (p->aiclk_max > 0.0 && p->vdd_max > 0.0)
		scale = (f / p->aiclk_max) * (v / p->vdd_max) *
			(v / p->vdd_max);
	dyn = s->busy_harts * p->hart_w + s->coproc_rate * p->coproc_j +
	      s->noc_rate * p->noc_j_per_byte;
	s->vcore_v = v;
	s->power_w = p->idle_w + dyn * scale;
	s->current_a = v > 0.0 ? s->power_w / v : 0.0;
}

/* Thermal resistance at a fan duty: linear between still air and full. */
static double r_th_at(const struct sim_power_params *p, double duty)
{
	return p->r_th_still + (p->r_th - p->r_th_still) * duty / 100.0;
}

/* Highest outlet reading: the air sensor's range, as for the ambient. */
#define OUTLET_MAX_C 150.0

/* Airflow conductance at a fan duty: linear between still air and full. */
static double g_air_at(const struct sim_power_params *p, double duty)
{
	return p->g_air_still + (p->g_air - p->g_air_still) * duty / 100.0;
}

double sim_power_outlet_c(const struct sim_power_params *p, double ambient_c,
			  double board_w, double fan_duty)
{
	/* sane_ambient() keeps amb at or below OUTLET_MAX_C. */
	double amb = sane_ambient(ambient_c);
	double g = g_air_at(p, sane_duty(fan_duty));

	/* No heat, no rise, whatever the airflow (NaN compares false). */
	if (!(board_w > 0.0))
		return amb;
	/* No airflow (or nonsense parameters): the air cannot carry the heat
	 * away, so the sensor pegs at the top of its range. */
	if (!(g > 0.0))
		return OUTLET_MAX_C;
	/* fmin also drops the NaN of an infinite power over an infinite g. */
	return fmin(amb + board_w / g, OUTLET_MAX_C);
}

void sim_power_init(const struct sim_power_params *p, double ambient_c,
		    struct sim_power_state *s)
{
	double amb = sane_ambient(ambient_c);

	*s = (struct sim_power_state){.asic_c = amb, .vreg_c = amb,
				      .outlet_c = amb};
	electrical(p, s, p->aiclk_min);
}

void sim_power_step(const struct sim_power_params *p, struct sim_power_state *s,
		    const struct sim_power_activity *a, double dt,
		    double aiclk_mhz, double fan_duty, double ambient_c)
{
	double amb = sane_ambient(ambient_c);
	double duty = sane_duty(fan_duty);
	double target, vreg_target, k;

	if (!(dt > 0.0))
		dt = 0.0;
	if (dt > 0.0) {
		/* Rates are averages over the step; an infinite step averages
		 * any finite activity away. */
		s->busy_harts = a ? sane_amount(a->busy_hart_s) / dt : 0.0;
		s->coproc_rate = a ? (double)a->coproc_ops / dt : 0.0;
		s->noc_rate = a ? (double)a->noc_bytes / dt : 0.0;
	}
	electrical(p, s, sane_clock(p, aiclk_mhz));
	s->fan_rpm = duty / 100.0 * p->fan_max_rpm;
	s->outlet_c = sim_power_outlet_c(p, amb, s->power_w, duty);
	if (dt == 0.0)
		return;

	/*
	 * Exact solution of dT/dt = (target - T) / tau for a constant target
	 * over the step, so any dt (and any split of it) gives the same
	 * curve; expm1 keeps small steps precise.
	 */
	k = p->tau > 0.0 ? -expm1(-dt / p->tau) : 1.0;
	target = amb + r_th_at(p, duty) * s->power_w;
	vreg_target =
		amb + p->r_th_vreg * s->power_w * (1.0 - p->vreg_efficiency);
	s->asic_c += (target - s->asic_c) * k;
	s->vreg_c += (vreg_target - s->vreg_c) * k;
}
