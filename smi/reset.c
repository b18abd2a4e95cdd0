// SPDX-License-Identifier: Apache-2.0
/*
 * Warm reset: ask before resetting (on a terminal, unless --yes), refuse
 * while another process has a device open (unless --force, naming them),
 * reset, wait for the device to come back and verify it: management
 * firmware answering a test message, telemetry fresh (the heartbeat
 * moves). A device that does not pass is a failure, reported as one.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "smi.h"

static double now_ms(void)
{
	return smi_mono_s() * 1e3;
}

static void describe(const struct smi_dev *d, char *buf, size_t len)
{
	if (d->dev)
		snprintf(buf, len, "device %u (%s %s)", d->index, d->info.board,
			 d->info.name);
	else
		snprintf(buf, len, "device %u", d->index);
}

/* "pid 12 (python3 run.py), pid 40 (...)" */
static void list_users(const struct smi_dev *d, char *buf, size_t len)
{
	struct smi_proc p[SMI_MAX_PIDS];
	unsigned k = smi_processes(d, 1, p, SMI_MAX_PIDS);
	size_t used = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < k && used < len; i++)
		used += (size_t)snprintf(
			buf + used, len - used, "%spid %d (%s)", i ? ", " : "",
			p[i].pid, p[i].cmdline[0] ? p[i].cmdline : "?");
}

static bool in_use(const struct smi_dev *d, const struct smi_reset_opts *o)
{
	char who[512], what[128];

	if (!d->npids)
		return false;
	describe(d, what, sizeof(what));
	list_users(d, who, sizeof(who));
	fprintf(stderr, "tt-smi: %s is in use by %s%s\n", what, who,
		o->force ? "; resetting anyway (--force)"
			 : "; stop them first, or add --force");
	return !o->force;
}

static bool confirmed(const struct smi_dev *d, unsigned n, const bool *sel)
{
	char line[64], what[128];

	fprintf(stderr, "tt-smi: about to reset");
	for (unsigned i = 0; i < n; i++)
		if (sel[i]) {
			describe(&d[i], what, sizeof(what));
			fprintf(stderr, "\n    %s", what);
		}
	fprintf(stderr, "\nWhatever runs on them is lost. Reset? [y/N] ");
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return false;
	return !strcmp(line, "y\n") || !strcmp(line, "yes\n") ||
	       !strcmp(line, "Y\n");
}

/* Heartbeat moving within a few refresh intervals: telemetry is live. */
static int check_fresh(struct smi_dev *d, int timeout_ms, char *why, size_t len)
{
	struct tt_telemetry t;
	double start = now_ms(), wait;
	uint32_t first;
	int ret = tt_telemetry_read(d->dev, &t);

	if (ret) {
		snprintf(why, len, "telemetry unreadable: %s", tt_last_error());
		return ret;
	}
	first = t.heartbeat;
	wait = 4.0 * (t.update_interval_ms ? t.update_interval_ms : 100);
	wait = wait < 200 ? 200 : wait > timeout_ms ? timeout_ms : wait;
	while (now_ms() - start < wait) {
		usleep(20000);
		ret = tt_telemetry_read(d->dev, &t);
		if (!ret && t.heartbeat != first)
			return 0;
	}
	snprintf(why, len, "telemetry stale: heartbeat stuck at %u for %.0f ms",
		 (unsigned)first, wait);
	return -ETIMEDOUT;
}

/* The firmware answers TEST on the tools' queue (queue 3 belongs to
 * applications) with n + 1. */
static int verify(struct smi_dev *d, int timeout_ms, char *why, size_t len)
{
	const uint32_t args[7] = {41};
	struct tt_msg_reply r = {0};
	int ret = tt_mgmt_wait_ready(d->dev, timeout_ms);

	if (!ret)
		ret = tt_mgmt_call(d->dev, TT_MGMT_QUEUE_TOOLS, TT_MGMT_TEST,
				   args, &r, timeout_ms);
	if (ret) {
		snprintf(why, len, "firmware not answering: %s",
			 tt_last_error());
		return ret;
	}
	if (r.data[0] != 42) {
		snprintf(why, len,
			 "firmware answers wrongly: TEST 41 gave %u, not 42",
			 (unsigned)r.data[0]);
		return -EPROTO;
	}
	return check_fresh(d, timeout_ms, why, len);
}

static bool reset_one(struct smi_dev *d, const struct smi_reset_opts *o)
{
	char what[128], why[SMI_ERR_LEN];
	double t0 = now_ms();
	int ret;

	describe(d, what, sizeof(what));
	if (!d->dev) {
		fprintf(stderr, "tt-smi: %s: cannot reset: %s\n", what,
			d->error);
		return false;
	}
	fprintf(stderr,
		"tt-smi: resetting %s, waiting up to %d ms for it to come "
		"back...\n",
		what, o->timeout_ms);
	ret = tt_device_reset(d->dev, o->timeout_ms);
	if (ret) {
		fprintf(stderr, "tt-smi: %s: reset failed: %s\n", what,
			tt_last_error());
		return false;
	}
	ret = verify(d, o->timeout_ms, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "tt-smi: %s: reset failed: %s\n", what, why);
		return false;
	}
	smi_refresh(d);
	fprintf(stderr,
		"tt-smi: %s: reset done in %.0f ms; firmware answering, "
		"telemetry fresh\n",
		what, now_ms() - t0);
	return true;
}

int smi_reset(struct smi_dev *d, unsigned n, const bool *sel,
	      const struct smi_reset_opts *o)
{
	unsigned asked = 0, done = 0, refused = 0;

	for (unsigned i = 0; i < n; i++)
		if (sel[i] && in_use(&d[i], o))
			refused++;
	if (refused)
		return SMI_EXIT_RESET_FAILED;
	if (!o->yes) {
		if (!isatty(STDIN_FILENO)) {
			fprintf(stderr, "tt-smi: not resetting without "
					"confirmation: standard input is not a "
					"terminal; add --yes\n");
			return SMI_EXIT_USAGE;
		}
		if (!confirmed(d, n, sel)) {
			fprintf(stderr, "tt-smi: nothing reset\n");
			return SMI_EXIT_ERROR;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		asked++;
		done += reset_one(&d[i], o);
	}
	if (done == asked)
		return SMI_EXIT_OK;
	return done ? SMI_EXIT_PARTIAL : SMI_EXIT_RESET_FAILED;
}
