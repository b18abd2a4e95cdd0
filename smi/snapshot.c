// SPDX-License-Identifier: Apache-2.0
/*
 * The snapshot: host and devices at one moment, as JSON (docs/tt-smi.md
 * and docs/tt-smi-snapshot.schema.json). Keys follow today's tt-smi;
 * values are numbers in the unit their key names, or null when the
 * device does not publish them -- never padded display strings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "json.h"
#include "smi.h"

static void iso_time(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char zone[8];

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	/* +hhmm -> +hh:mm, as ISO 8601 extended format writes it */
	snprintf(buf + strlen(buf), len - strlen(buf), ".%03ld%.3s:%.2s",
		 ts.tv_nsec / 1000000, zone, zone + 3);
}

static void host_info(struct jw *w, const struct smi_host *h)
{
	jw_object(w, "host_info");
	jw_string(w, "os", h->os);
	jw_string(w, "distro", h->distro);
	jw_string(w, "kernel", h->kernel);
	jw_string(w, "hostname", h->hostname);
	jw_string(w, "platform", h->platform);
	jw_uint(w, "memory_bytes", h->memory_bytes);
	jw_string(w, "driver", h->driver[0] ? h->driver : NULL);
	jw_end(w);
	jw_object(w, "host_sw_vers");
	jw_string(w, "tt_smi", TT_PROJECT_VERSION);
	jw_string(w, "libtt", TT_PROJECT_VERSION);
	jw_end(w);
}

static void board_info(struct jw *w, const struct smi_dev *d)
{
	const struct tt_device_info *i = &d->info;
	char id[24];

	jw_object(w, "board_info");
	jw_string(w, "board_type", d->dev ? i->board : NULL);
	if (d->have_telem && TT_TELEM_HAS(&d->telem, TT_TELEM_F_BOARD_ID)) {
		snprintf(id, sizeof(id), "%016llx",
			 (unsigned long long)d->telem.board_id);
		jw_string(w, "board_id", id);
	} else {
		jw_null(w, "board_id");
	}
	jw_string(w, "arch", d->dev ? i->arch_name : NULL);
	if (d->dev) {
		jw_uint(w, "chip", i->chip);
		jw_uint(w, "tensix_cores", i->tensix_count);
		jw_uint(w, "dram_channels", i->dram_channels);
		jw_uint(w, "dram_bytes", i->dram_size);
	} else {
		jw_null(w, "chip");
		jw_null(w, "tensix_cores");
		jw_null(w, "dram_channels");
		jw_null(w, "dram_bytes");
	}
	/* The chip model's DRAM needs no training; a real card reports it. */
	if (d->dev)
		jw_bool(w, "dram_status", true);
	else
		jw_null(w, "dram_status");
	jw_null(w, "coords");
	jw_null(w, "pcie_speed");
	jw_null(w, "pcie_width");
	jw_end(w);
}

static void telemetry(struct jw *w, const struct smi_dev *d)
{
	const struct tt_telemetry *t = &d->telem;

	jw_object(w, "telemetry");
	for (unsigned m = 0; m < smi_nmetrics; m++) {
		const struct smi_metric *x = &smi_metrics[m];

		if (d->have_telem && TT_TELEM_HAS(t, x->field))
			jw_number(w, x->json, x->value(t), x->decimals + 2);
		else
			jw_null(w, x->json);
	}
	if (d->have_telem && TT_TELEM_HAS(t, TT_TELEM_F_FAN_PERCENT))
		jw_number(w, "fan_percent", t->fan_percent, 1);
	else
		jw_null(w, "fan_percent");
	if (d->have_telem && TT_TELEM_HAS(t, TT_TELEM_F_HEARTBEAT))
		jw_uint(w, "heartbeat", t->heartbeat);
	else
		jw_null(w, "heartbeat");
	if (d->have_telem && TT_TELEM_HAS(t, TT_TELEM_F_THROTTLED))
		jw_bool(w, "throttled", t->throttled);
	else
		jw_null(w, "throttled");
	jw_end(w);
}

static void version(struct jw *w, const char *key, const struct smi_dev *d,
		    int field, uint32_t v)
{
	char buf[24];

	if (d->have_telem && TT_TELEM_HAS(&d->telem, field) && v)
		jw_string(w, key, smi_version(v, buf, sizeof(buf)));
	else
		jw_null(w, key);
}

static void firmwares(struct jw *w, const struct smi_dev *d)
{
	const struct tt_telemetry *t = &d->telem;

	jw_object(w, "firmwares");
	version(w, "fw_bundle_version", d, TT_TELEM_F_FW_BUNDLE, t->fw_bundle);
	version(w, "tt_flash_version", d, TT_TELEM_F_FW_TT_FLASH,
		t->fw_tt_flash);
	version(w, "cm_fw", d, TT_TELEM_F_FW_CM, t->fw_cm);
	version(w, "core_fw", d, TT_TELEM_F_FW_CORE, t->fw_core);
	version(w, "eth_fw", d, TT_TELEM_F_FW_ETH, t->fw_eth);
	version(w, "dm_bl_fw", d, TT_TELEM_F_FW_DM_BL, t->fw_dm_bl);
	version(w, "dm_app_fw", d, TT_TELEM_F_FW_DM_APP, t->fw_dm_app);
	jw_end(w);
}

static void limit(struct jw *w, const char *key, const struct smi_dev *d,
		  int field, double v)
{
	if (d->have_telem && TT_TELEM_HAS(&d->telem, field))
		jw_number(w, key, v, 3);
	else
		jw_null(w, key);
}

static void limits(struct jw *w, const struct smi_dev *d)
{
	const struct tt_telemetry *t = &d->telem;

	jw_object(w, "limits");
	limit(w, "vdd_min_v", d, TT_TELEM_F_VDD_LIMITS, t->vdd_min_v);
	limit(w, "vdd_max_v", d, TT_TELEM_F_VDD_LIMITS, t->vdd_max_v);
	limit(w, "tdp_limit_w", d, TT_TELEM_F_TDP_LIMIT, t->tdp_limit_w);
	limit(w, "tdc_limit_a", d, TT_TELEM_F_TDC_LIMIT, t->tdc_limit_a);
	limit(w, "asic_fmax_mhz", d, TT_TELEM_F_AICLK_MAX, t->aiclk_max_mhz);
	limit(w, "thm_limit_c", d, TT_TELEM_F_THM_LIMIT_THROTTLE,
	      t->thm_limit_throttle_c);
	limit(w, "therm_trip_c", d, TT_TELEM_F_THM_LIMIT_SHUTDOWN,
	      t->thm_limit_shutdown_c);
	limit(w, "board_power_limit_w", d, TT_TELEM_F_BOARD_POWER_LIMIT,
	      t->board_power_limit_w);
	jw_end(w);
}

/* "cores_needing_recovery": what makes the health "degraded". */
static void problems(struct jw *w, const struct smi_dev *d)
{
	jw_array(w, "cores_needing_recovery");
	for (int i = 0; i < d->nproblems && i < SMI_MAX_PROBLEMS; i++) {
		const struct tt_core_problem *p = &d->problems[i];

		jw_object(w, NULL);
		jw_uint(w, "x", p->core.x);
		jw_uint(w, "y", p->core.y);
		jw_uint(w, "hart", p->hart);
		if (p->pid)
			jw_int(w, "pid", p->pid);
		else
			jw_null(w, "pid");
		jw_string(w, "why", p->why);
		jw_end(w);
	}
	jw_end(w);
	if (d->nproblems > SMI_MAX_PROBLEMS)
		jw_int(w, "cores_needing_recovery_total", d->nproblems);
}

static void device(struct jw *w, const struct smi_dev *d)
{
	jw_object(w, NULL);
	jw_uint(w, "index", d->index);
	jw_string(w, "transport", d->dev ? d->info.transport : NULL);
	jw_string(w, "name", d->dev ? d->info.name : NULL);
	jw_null(w, "bus_id");
	jw_string(w, "health", smi_health(d));
	jw_string(w, "error", d->ok ? NULL : d->error);
	problems(w, d);
	board_info(w, d);
	telemetry(w, d);
	firmwares(w, d);
	limits(w, d);
	jw_end(w);
}

static void processes(struct jw *w, const struct smi_dev *d, unsigned n)
{
	static struct smi_proc p[SMI_MAX_PIDS];
	unsigned k = smi_processes(d, n, p, SMI_MAX_PIDS);

	jw_array(w, "processes");
	for (unsigned i = 0; i < k; i++) {
		jw_object(w, NULL);
		jw_int(w, "pid", p[i].pid);
		jw_string(w, "user", p[i].user);
		jw_uint(w, "device", p[i].device);
		jw_string(w, "cmdline", p[i].cmdline);
		jw_end(w);
	}
	jw_end(w);
}

int smi_snapshot_write(FILE *f, const struct smi_host *h,
		       const struct smi_dev *d, unsigned n, bool compact)
{
	char now[48];
	struct jw w;

	iso_time(now, sizeof(now));
	jw_init(&w, f, compact);
	jw_object(&w, NULL);
	jw_uint(&w, "schema_version", SMI_SCHEMA_VERSION);
	jw_string(&w, "time", now);
	host_info(&w, h);
	jw_array(&w, "device_info");
	for (unsigned i = 0; i < n; i++)
		device(&w, &d[i]);
	jw_end(&w);
	processes(&w, d, n);
	jw_end(&w);
	return jw_finish(&w);
}

/* mkdir -p for a relative or absolute directory path. */
static int make_dirs(const char *dir)
{
	char tmp[4096];
	size_t len = strlen(dir);

	if (len >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, dir, len + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int smi_make_dirs(const char *dir)
{
	return make_dirs(dir);
}

void smi_timestamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%d_%H-%M-%S", &tm);
}

int smi_default_snapshot_path(char *path, size_t len, char *err, size_t errlen)
{
	char ts[32];
	int ret = make_dirs(SMI_LOG_DIR);

	if (ret) {
		snprintf(err, errlen, "cannot make directory %s: %s",
			 SMI_LOG_DIR, strerror(-ret));
		return ret;
	}
	smi_timestamp(ts, sizeof(ts));
	snprintf(path, len, "%s/tt-smi-snapshot_%s.json", SMI_LOG_DIR, ts);
	return 0;
}

int smi_snapshot_to(const char *path, const struct smi_host *h,
		    const struct smi_dev *d, unsigned n, bool compact)
{
	bool to_stdout = !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	int ret;

	if (!f) {
		fprintf(stderr, "tt-smi: cannot write snapshot %s: %s\n", path,
			strerror(errno));
		return SMI_EXIT_ERROR;
	}
	ret = smi_snapshot_write(f, h, d, n, compact);
	if (!to_stdout && fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "tt-smi: cannot write snapshot %s: %s\n",
			to_stdout ? "to standard output" : path,
			strerror(-ret));
		return SMI_EXIT_ERROR;
	}
	if (!to_stdout)
		fprintf(stderr, "tt-smi: snapshot written to %s\n", path);
	return SMI_EXIT_OK;
}
