// SPDX-License-Identifier: Apache-2.0
/*
 * idle_cpu: host CPU time an idle, booted device costs, as a fraction of
 * one core, over 5 s. "Idle" is the state after boot: the management
 * firmware refreshing telemetry every 100 ms and every Tensix hart
 * waiting for a launch. Target: <= 0.02.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "sim/model/device.h"
#include "common/soc_desc.h"

#define WINDOW_S 5.0
#define TARGET 0.02

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool booted(struct sim_device *dev)
{
	uint8_t *ru = sim_image_regs(dev->img, dev->arc, TT_REG_ARC_RESET);

	return __atomic_load_n(sim_reg32(ru, TT_ARC_SCRATCH(0)),
			       __ATOMIC_ACQUIRE) ==
	       TT_ARC_POST(TT_ARC_POST_READY);
}

int main(void)
{
	struct soc_desc *soc = calloc(1, sizeof(*soc));
	struct sim_device *dev;
	char err[SIM_ERR_LEN];
	double t0, c0, frac;

	if (!soc || soc_desc_builtin("wormhole_b0_n150", soc, err, sizeof(err)) ||
	    sim_device_create(soc, TT_HW_BOARD_N150, 0, 0, &dev, err)) {
		fprintf(stderr, "bench-idle: cannot create the device: %s\n", err);
		return 1;
	}
	for (t0 = wall_s(); !booted(dev); usleep(10000)) {
		if (wall_s() - t0 > 10.0) {
			fprintf(stderr, "bench-idle: the firmware did not boot\n");
			return 1;
		}
	}
	usleep(500000); /* let boot-time work settle */
	t0 = wall_s();
	c0 = cpu_s();
	usleep((useconds_t)(WINDOW_S * 1e6));
	frac = (cpu_s() - c0) / (wall_s() - t0);
	printf("BENCH name=idle_cpu value=%.4f unit=cores ratio=%.3f vs=target_%.2f\n",
	       frac, frac / TARGET, TARGET);
	sim_device_destroy(dev);
	free(soc);
	return 0;
}
