// SPDX-License-Identifier: Apache-2.0
/*
 * Telemetry dumps: one row per reading and device, with Tenstorrent tt-smi's
 * columns, to <dir>/device<N>.csv, and to <dir>/telemetry.xlsx (one sheet
 * per device) when tt-smi is built with libxlsxwriter. Rows are written
 * and flushed as they come, so a dump cut short keeps what it read; the
 * workbook is written at the end. A value the device does not publish is
 * an empty cell, not a zero.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smi.h"

#ifdef HAVE_XLSXWRITER
#include <xlsxwriter.h>
#endif

const char *const smi_dump_columns[] = {
	"Timestamp (s)",   "Core Voltage (V)",	 "AICLK (MHz)",
	"ARCCLK (MHz)",	   "AXICLK (MHz)",	 "Core Current (A)",
	"Core Power (W)",  "Core Temp (°C)",	 "VREG Temp (°C)",
	"Inlet Temp (°C)", "Outlet Temp 1 (°C)", "Outlet Temp 2 (°C)",
};
const unsigned smi_dump_ncolumns =
	sizeof(smi_dump_columns) / sizeof(smi_dump_columns[0]);

/* The metric (smi_metrics, by snapshot key) behind each column after the
 * timestamp; NULL: a sensor this chip does not have. */
static const char *const column_metric[] = {
	"voltage_v",
	"aiclk_mhz",
	"arcclk_mhz",
	"axiclk_mhz",
	"current_a",
	"power_w",
	"asic_temperature_c",
	"vreg_temperature_c",
	"inlet_temperature_c",
	"outlet_temperature_c",
	NULL,
};

#define NCOLS (sizeof(column_metric) / sizeof(column_metric[0]))

struct smi_dump {
	char dir[4096];
	unsigned n; /* devices */
	FILE **csv;
	unsigned rows;
#ifdef HAVE_XLSXWRITER
	lxw_workbook *wb;
	lxw_worksheet **ws;
#endif
};

static const struct smi_metric *metric(const char *json)
{
	for (unsigned m = 0; json && m < smi_nmetrics; m++)
		if (!strcmp(smi_metrics[m].json, json))
			return &smi_metrics[m];
	return NULL;
}

/* Column c's value for device d; NAN if not available. */
static double cell(const struct smi_dev *d, unsigned c)
{
	const struct smi_metric *m = metric(column_metric[c]);

	if (!m || !d->have_telem || !TT_TELEM_HAS(&d->telem, m->field))
		return NAN;
	return m->value(&d->telem);
}

static int open_csv(struct smi_dump *dp, unsigned i, unsigned index, char *err,
		    size_t len)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/device%u.csv", dp->dir, index);
	dp->csv[i] = fopen(path, "w");
	if (!dp->csv[i]) {
		snprintf(err, len, "cannot create %s: %s", path,
			 strerror(errno));
		return -errno;
	}
	for (unsigned c = 0; c < smi_dump_ncolumns; c++)
		fprintf(dp->csv[i], "%s%s", c ? "," : "", smi_dump_columns[c]);
	fputc('\n', dp->csv[i]);
	fflush(dp->csv[i]);
	return 0;
}

#ifdef HAVE_XLSXWRITER
static int open_xlsx(struct smi_dump *dp, const struct smi_dev *d, char *err,
		     size_t len)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/telemetry.xlsx", dp->dir);
	dp->wb = workbook_new(path);
	dp->ws = calloc(dp->n, sizeof(*dp->ws));
	if (!dp->wb || !dp->ws) {
		snprintf(err, len, "cannot create %s", path);
		return -EIO;
	}
	for (unsigned i = 0; i < dp->n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "device%u", d[i].index);
		dp->ws[i] = workbook_add_worksheet(dp->wb, name);
		if (!dp->ws[i]) {
			snprintf(err, len, "cannot add sheet %s to %s", name,
				 path);
			return -EIO;
		}
		for (unsigned c = 0; c < smi_dump_ncolumns; c++)
			worksheet_write_string(dp->ws[i], 0, (lxw_col_t)c,
					       smi_dump_columns[c], NULL);
	}
	return 0;
}
#endif

static void free_dump(struct smi_dump *dp)
{
	for (unsigned i = 0; dp->csv && i < dp->n; i++)
		if (dp->csv[i])
			fclose(dp->csv[i]);
	free(dp->csv);
#ifdef HAVE_XLSXWRITER
	free(dp->ws);
#endif
	free(dp);
}

int smi_dump_start(struct smi_dump **out, const char *dir,
		   const struct smi_dev *d, unsigned n, char *err, size_t len)
{
	struct smi_dump *dp = calloc(1, sizeof(*dp));
	char ts[32];
	int ret;

	_Static_assert(NCOLS + 1 == sizeof(smi_dump_columns) /
					    sizeof(smi_dump_columns[0]),
		       "a metric per dump column");
	if (!dp || !(dp->csv = calloc(n, sizeof(*dp->csv)))) {
		free(dp);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	dp->n = n;
	smi_timestamp(ts, sizeof(ts));
	if (dir)
		snprintf(dp->dir, sizeof(dp->dir), "%s", dir);
	else
		snprintf(dp->dir, sizeof(dp->dir), "%s/tt-smi-dump_%s",
			 SMI_LOG_DIR, ts);
	ret = smi_make_dirs(dp->dir);
	if (ret) {
		snprintf(err, len, "cannot make directory %s: %s", dp->dir,
			 strerror(-ret));
		free_dump(dp);
		return ret;
	}
	for (unsigned i = 0; i < n && !ret; i++)
		ret = open_csv(dp, i, d[i].index, err, len);
#ifdef HAVE_XLSXWRITER
	if (!ret)
		ret = open_xlsx(dp, d, err, len);
	if (ret && dp->wb) {
		workbook_close(dp->wb);
		dp->wb = NULL;
	}
#endif
	if (ret) {
		free_dump(dp);
		return ret;
	}
	*out = dp;
	return 0;
}

int smi_dump_row(struct smi_dump *dp, double t, const struct smi_dev *d,
		 unsigned n)
{
	int ret = 0;

	dp->rows++;
	for (unsigned i = 0; i < n && i < dp->n; i++) {
		FILE *f = dp->csv[i];

		fprintf(f, "%.6f", t);
#ifdef HAVE_XLSXWRITER
		worksheet_write_number(dp->ws[i], dp->rows, 0, t, NULL);
#endif
		for (unsigned c = 0; c < NCOLS; c++) {
			double v = cell(&d[i], c);

			fputc(',', f);
			if (isnan(v))
				continue;
			fprintf(f, "%.*f",
				metric(column_metric[c])->decimals + 1, v);
#ifdef HAVE_XLSXWRITER
			worksheet_write_number(dp->ws[i], dp->rows,
					       (lxw_col_t)(c + 1), v, NULL);
#endif
		}
		fputc('\n', f);
		if (fflush(f) || ferror(f))
			ret = -EIO;
	}
	return ret;
}

int smi_dump_finish(struct smi_dump *dp, char *err, size_t len)
{
	int ret = 0;

	for (unsigned i = 0; i < dp->n; i++) {
		if (fclose(dp->csv[i]) && !ret) {
			ret = -errno;
			snprintf(err, len, "cannot write %s/device%u.csv: %s",
				 dp->dir, i, strerror(errno));
		}
		dp->csv[i] = NULL;
	}
#ifdef HAVE_XLSXWRITER
	if (workbook_close(dp->wb) != LXW_NO_ERROR && !ret) {
		ret = -EIO;
		snprintf(err, len, "cannot write %s/telemetry.xlsx", dp->dir);
	}
	dp->wb = NULL;
#endif
	free_dump(dp);
	return ret;
}

const char *smi_dump_dir(const struct smi_dump *dp)
{
	return dp->dir;
}
