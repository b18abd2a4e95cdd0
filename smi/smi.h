/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tt-smi internals: what the program knows about the host and each device,
 * shared by its modes (snapshot, list, dump, reset, live display).
 */
#ifndef TT_SMI_H
#define TT_SMI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "tt.h"

/* Exit codes (also in --help and docs/tt-smi.md). */
enum smi_exit {
	SMI_EXIT_OK = 0,
	SMI_EXIT_ERROR = 1,	/* anything else: out of memory, cannot write */
	SMI_EXIT_USAGE = 2,	/* bad arguments */
	SMI_EXIT_NO_DEVICE = 3, /* no device, or no device matches */
	SMI_EXIT_DEVICE = 4,	/* a device could not be read */
	SMI_EXIT_RESET_FAILED = 5, /* every reset asked for failed */
	SMI_EXIT_PARTIAL = 6, /* some devices (or resets) failed, some not */
	SMI_EXIT_UNSUPPORTED = 7, /* not possible on this host (-mr) */
};

#define SMI_SCHEMA_VERSION 3
/* Where snapshots and dumps go by default (Tenstorrent tt-smi's ./tt-smi-logs/). */
#define SMI_LOG_DIR "tt-smi-logs"
#define SMI_MAX_PIDS 64
#define SMI_ERR_LEN 256
#define SMI_MAX_PROBLEMS 8

/* A process that has a device open. */
struct smi_proc {
	int pid;
	unsigned device; /* device index */
	char user[32];
	char cmdline[160];
};

/* Everything shown about one device, read at one moment. */
struct smi_dev {
	unsigned index;
	tt_device *dev;		    /* NULL if it could not be opened */
	struct tt_device_info info; /* copied: valid when dev was opened */
	bool ok;		    /* opened, firmware ready, telemetry read */
	char error[SMI_ERR_LEN];    /* why not ok */

	bool have_telem;
	struct tt_telemetry telem;

	unsigned reopens; /* times reopened after another process reset it */
	bool lost;	  /* reset elsewhere and not reopened yet: dev is NULL */

	int npids; /* processes with the device open, this one excluded */
	int pids[SMI_MAX_PIDS];

	/* Cores that need recovery (health "degraded"): how many, and the
	 * first SMI_MAX_PROBLEMS of them. */
	int nproblems;
	struct tt_core_problem problems[SMI_MAX_PROBLEMS];
};

struct smi_host {
	char os[32], distro[96], kernel[96], hostname[96], platform[32];
	uint64_t memory_bytes;
	char driver[64]; /* tenstorrent module version, "" if not loaded */
};

/* CLOCK_MONOTONIC in seconds: readings, dumps and waits are timed by it. */
static inline double smi_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- collect.c: opening devices and reading them ---- */

/* How long a just-opened device may take until its firmware answers. */
#define SMI_READY_MS 5000

/* Count and open every device; *out (calloc'd, *n entries). A device that
 * cannot be opened is kept with ok = false and its error. Returns 0, or
 * -ENODEV when libtt offers no device (message in err). */
int smi_open_all(struct smi_dev **out, unsigned *n, char *err, size_t len);
void smi_close_all(struct smi_dev *d, unsigned n);

/* Read the telemetry and the processes of an open device again. A device
 * another process reset (libtt's handle fails with -ENODEV) is closed and
 * reopened, and reopens counts it; if it cannot be reopened, the next
 * refresh tries again. */
void smi_refresh(struct smi_dev *d);

/* Processes using any of the devices (this one excluded), at most max.
 * Returns how many were stored. */
unsigned smi_processes(const struct smi_dev *d, unsigned n,
		       struct smi_proc *out, unsigned max);

/* "0.1.2.3", or "" for 0 (not published). */
const char *smi_version(uint32_t v, char *buf, size_t len);

/* One word for the device's state: "ok", or "error". */
const char *smi_health(const struct smi_dev *d);

/* ---- host.c ---- */

void smi_host_read(struct smi_host *h);

/* ---- snapshot.c: the JSON snapshot ---- */

/* Write the snapshot of host and devices to f; compact: one line.
 * Returns 0 or -errno of the write. */
int smi_snapshot_write(FILE *f, const struct smi_host *h,
		       const struct smi_dev *d, unsigned n, bool compact);

/* mkdir -p; 0 or -errno. */
int smi_make_dirs(const char *dir);
/* Local time as 2026-11-21_06-50-00, for file names. */
void smi_timestamp(char *buf, size_t len);

/* Default snapshot path: ./tt-smi-logs/tt-smi-snapshot_<timestamp>.json,
 * directories made. Returns 0 or -errno (message in err). */
int smi_default_snapshot_path(char *path, size_t len, char *err, size_t errlen);

/* Write a snapshot to `path` ("-": stdout). Returns an enum smi_exit
 * code; messages on stderr. */
int smi_snapshot_to(const char *path, const struct smi_host *h,
		    const struct smi_dev *d, unsigned n, bool compact);

/* ---- dump.c: telemetry rows to CSV (and XLSX) ---- */

struct smi_dump;

/* Start a dump into dir (made if missing; NULL: the default
 * ./tt-smi-logs/tt-smi-dump_<timestamp>/). Returns 0 or -errno with a
 * message in err. */
int smi_dump_start(struct smi_dump **out, const char *dir,
		   const struct smi_dev *d, unsigned n, char *err, size_t len);
/* Append one row per device, t seconds since the start. */
int smi_dump_row(struct smi_dump *dp, double t, const struct smi_dev *d,
		 unsigned n);
/* Finish (write the XLSX workbook when built with it) and free. Returns
 * 0 or -errno with a message in err. */
int smi_dump_finish(struct smi_dump *dp, char *err, size_t len);
const char *smi_dump_dir(const struct smi_dump *dp);

/* The dump's columns, in order (Tenstorrent tt-smi's table). */
extern const char *const smi_dump_columns[];
extern const unsigned smi_dump_ncolumns;

/* ---- targets.c: which devices a reset names ---- */

/* Parse reset targets (indices, device names or paths, PCI addresses,
 * "all"; separated by commas or spaces) into sel[0..n). Returns 0, or
 * -EINVAL naming the word that matches no device (in err). */
int smi_targets(const char *const *words, unsigned nwords,
		const struct smi_dev *d, unsigned n, bool *sel, char *err,
		size_t len);

/* ---- reset.c ---- */

struct smi_reset_opts {
	bool yes;   /* do not ask */
	bool force; /* even while other processes use a device */
	int timeout_ms;
};

/* Reset the selected devices and verify them. Returns an enum smi_exit. */
int smi_reset(struct smi_dev *d, unsigned n, const bool *sel,
	      const struct smi_reset_opts *o);

/* ---- tui.c: the live display ---- */

struct smi_tui_opts {
	double interval_s;
	bool dark, no_color;
	const char *dump_dir; /* for `d` (NULL: default) */
};

/* Can curses drive the terminal on standard output ($TERM known, with
 * cursor addressing)? If not, false with the reason, naming $TERM, in why. */
bool smi_tui_usable(char *why, size_t len);

/* Run the live display until `q`. Returns an enum smi_exit. */
int smi_tui(struct smi_dev *d, unsigned n, const struct smi_host *h,
	    const struct smi_tui_opts *o);

/* ---- telemetry values as the tables show them ---- */

/* A telemetry quantity: its name, unit, value and limit of a device. */
struct smi_metric {
	const char *name; /* "Core Voltage" */
	const char *unit; /* "V" */
	const char *json; /* "voltage_v" */
	int decimals;
	int field; /* enum tt_telemetry_field that says it was published */
	double (*value)(const struct tt_telemetry *t);
	/* The limit the value is checked against, or NULL. */
	double (*limit)(const struct tt_telemetry *t);
	int limit_field;
};

extern const struct smi_metric smi_metrics[];
extern const unsigned smi_nmetrics;

#endif /* TT_SMI_H */
