/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The chip's power and thermal model: a pure function of activity and
 * time, so the same activity gives the same readings.
 *
 *   power   = idle + busy harts x per-hart power + coprocessor ops x energy
 *             per op + NOC bytes x energy per byte, the dynamic part scaled
 *             by (f / f_max) x (V / V_max)^2
 *   voltage = linear in AICLK between the board's vdd_min at aiclk_min and
 *             vdd_max at aiclk_max
 *   current = power / voltage
 *   asic    = first order: T approaches ambient + R_th(fan) x power with
 *             time constant tau
 *   vreg    = the same, towards ambient + r_th_vreg x power x (1 - eff)
 *   outlet  = ambient + power / G_air(fan): the air leaving the board
 *             carries the board's power away; its conductance G_air (W per
 *             degC of rise, airflow x heat capacity) is linear in the fan
 *             duty between still air and full fan. Air has no thermal mass
 *             here, so the outlet follows power at once, not over tau. The
 *             board's power is the modelled power: the ASIC's, as the
 *             firmware's INPUT_POWER shows (the rest is not modelled).
 *
 * Idle power does not depend on the clock: idle_w is the floor the chip
 * shows at any AICLK, so "idle" reads the same at aiclk_min and aiclk_max.
 * Each step is exact for constant activity over the step, so splitting dt
 * into smaller steps gives the same temperatures (up to rounding).
 * Nonsense inputs are clamped, never propagated (sim_power_step()).
 *
 * Parameters per board come from sim_power_defaults(); tests may change
 * them. Units: W, V, A, degC, seconds, MHz.
 */
#ifndef TT_SIM_POWER_H
#define TT_SIM_POWER_H

#include <stdint.h>

#include "hw/arch.h"

struct sim_power_params {
	double idle_w; /* static + clock tree, at any clock */
	double hart_w; /* one hart busy at aiclk_max, vdd_max */
	double coproc_j; /* energy per coprocessor op */
	double noc_j_per_byte;
	double aiclk_min, aiclk_max; /* MHz */
	double vdd_min, vdd_max; /* V */
	double r_th; /* degC per W at full fan */
	double r_th_still; /* degC per W with the fan stopped */
	double tau; /* s */
	double vreg_efficiency; /* VREG dissipates power x (1 - eff) */
	double r_th_vreg; /* VREG degC per W it dissipates */
	double fan_max_rpm;
	double g_air; /* W per degC of outlet rise, at full fan */
	double g_air_still; /* the same with the fan stopped (convection) */
};

#define SIM_POWER_AMBIENT_C 25.0 /* default inlet air */

/* Activity over one step (differences of the chip's counters). */
struct sim_power_activity {
	double busy_hart_s; /* sum over harts of time spent running */
	uint64_t coproc_ops;
	uint64_t noc_bytes;
};

/* The model's state and its last outputs. */
struct sim_power_state {
	double asic_c; /* ASIC temperature */
	double vreg_c; /* voltage regulator temperature */
	double outlet_c; /* board outlet air (sim_power_outlet_c) */
	double power_w;
	double vcore_v;
	double current_a;
	double busy_harts; /* average over the last step */
	double coproc_rate; /* ops/s, average over the last step */
	double noc_rate; /* bytes/s, average over the last step */
	double fan_rpm;
};

/* Defaults for a board (limits as in hw/flash.h board info); an unknown
 * board gets the n150's. */
void sim_power_defaults(enum tt_hw_board board, struct sim_power_params *p);

/* Power-on state: everything at ambient (the outlet too, until the first
 * sim_power_step), idle. */
void sim_power_init(const struct sim_power_params *p, double ambient_c,
		    struct sim_power_state *s);

/*
 * Advance by dt seconds (dt >= 0; 0 only recomputes the electrical values)
 * with the given activity, clock (MHz), fan duty (0..100) and ambient.
 *
 * With dt == 0 the activity (may be NULL) is ignored and the rates of the
 * last step are kept, so a new clock shows at once (in the outlet too).
 * Clamping: dt NaN or negative -> 0; negative or NaN activity -> 0; AICLK
 * non-finite -> aiclk_min, negative -> 0 (above aiclk_max is allowed, the
 * voltage stays at vdd_max); duty NaN -> 100 (fail safe), else clamped to
 * 0..100; ambient NaN -> SIM_POWER_AMBIENT_C, else clamped to -55..150.
 */
void sim_power_step(const struct sim_power_params *p,
		    struct sim_power_state *s,
		    const struct sim_power_activity *a, double dt,
		    double aiclk_mhz, double fan_duty, double ambient_c);

/*
 * Outlet air temperature for a board dissipating board_w watts into its
 * airflow at the given fan duty (0..100) and inlet (ambient) temperature.
 * Equals the inlet at zero power, rises with power, falls with more fan.
 * Clamping as sim_power_step (ambient, duty); board_w NaN or negative ->
 * 0, +infinity allowed. The result is held at or below 150 degC, the top
 * of the air sensor's range (as for the ambient), so a board with no
 * airflow at all (g_air_still 0, fan stopped) reads 150 under any load.
 */
double sim_power_outlet_c(const struct sim_power_params *p, double ambient_c,
			  double board_w, double fan_duty);

#endif /* TT_SIM_POWER_H */
