// SPDX-License-Identifier: Apache-2.0
/*
 * tt-smi: watch Tenstorrent devices live, take snapshots, dump telemetry,
 * list devices and warm-reset them. A client of libtt's public API; it
 * works on every transport (the embedded chip model, ttsim daemons, the
 * kernel driver). docs/tt-smi.md describes it for users.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "smi.h"

static void usage(FILE *f)
{
	/* clang-format off */
	fputs(
"Usage: tt-smi [OPTION]...\n"
"\n"
"Monitor and reset Tenstorrent devices. Without options on a terminal, a\n"
"live display; without a terminal, the snapshot (-s) on standard output.\n"
"\n"
"Live display:\n"
"  -t, --theme THEME      default, or dark (for light backgrounds)\n"
"  -nc, --no-color        no colours (highlights in bold and reverse)\n"
"  -i, --interval [S]     seconds between readings (default 0.5); also\n"
"                         the row interval of -d\n"
"      keys: 1-4 tabs (device, telemetry, firmware, processes), t sidebar,\n"
"      h help, w limits, v averages, s snapshot, d start/stop dump, q quit\n"
"\n"
"Snapshot (JSON; keys and units in docs/tt-smi.md):\n"
"  -s, --snapshot         write a snapshot to standard output\n"
"  -f, --filename [FILE]  write it to FILE ('-': standard output; no FILE:\n"
"                         tt-smi-logs/tt-smi-snapshot_<time>.json)\n"
"      --compact          one line of JSON instead of indented\n"
"\n"
"Telemetry dump (CSV per device, plus telemetry.xlsx):\n"
"  -d, --dump             read every interval until Enter (or end of input)\n"
"  -dir, --dump_dir DIR   into DIR (default tt-smi-logs/tt-smi-dump_<time>/)\n"
"  -dur, --duration S     for S seconds instead of until Enter\n"
"\n"
"Devices and reset:\n"
"  -ls, --list            list devices: index, board, address or model,\n"
"                         device path, health\n"
"  -r, --reset [TARGET]...  warm-reset devices: indices, names or paths,\n"
"                         PCI addresses, or all (the default); comma- or\n"
"                         space-separated. Asks first on a terminal,\n"
"                         refuses while other processes use a device,\n"
"                         waits for it to come back and verifies it\n"
"  -wr, --warm_reset      warm reset, asking which devices on the terminal\n"
"  -mr, --mobo_nb_reset   motherboard reset (not supported on this host)\n"
"  -y, --yes              do not ask before resetting\n"
"      --force            reset even while other processes use a device\n"
"      --reset_timeout S  wait at most S seconds for a device (default 60)\n"
"\n"
"  -h, --help             this help\n"
"  -v, --version          the version\n"
"      --external         accepted for compatibility; no effect\n"
"\n"
"Environment: TT_TRANSPORT (kmd, ttsim, embedded, sim) picks the devices, as\n"
"for every libtt program; TT_SIM_BOARD the embedded model's board.\n"
"\n"
"Exit status:\n"
"  0  success\n"
"  1  other error (cannot write a file, reset cancelled at the prompt)\n"
"  2  usage error: bad arguments, an empty reset target, or a reset\n"
"     without --yes and without a terminal\n"
"  3  no device, or no device matches\n"
"  4  a device could not be read (every device, in a snapshot or list)\n"
"  5  reset failed, or refused because a device is in use\n"
"  6  partial success: some devices or resets failed, others did not\n"
"  7  not supported on this host (-mr)\n", f);
	/* clang-format on */
}

static int exit_for_health(const struct smi_dev *d, unsigned n)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++) {
		bad += !d[i].ok;
		/* Degraded is a state the output shows, not a failure to
		 * read it; the operator hears which cores and why. */
		for (int k = 0; d[i].ok && k < d[i].nproblems &&
				k < SMI_MAX_PROBLEMS; k++)
			fprintf(stderr,
				"tt-smi: device %u: degraded: core (%u,%u): %s\n",
				d[i].index, d[i].problems[k].core.x,
				d[i].problems[k].core.y, d[i].problems[k].why);
	}
	if (!bad)
		return SMI_EXIT_OK;
	for (unsigned i = 0; i < n; i++)
		if (!d[i].ok)
			fprintf(stderr, "tt-smi: device %u: %s\n", d[i].index,
				d[i].error);
	return bad == n ? SMI_EXIT_DEVICE : SMI_EXIT_PARTIAL;
}

static int do_snapshot(const struct smi_args *a, struct smi_dev *d, unsigned n)
{
	struct smi_host h;
	char path[512], err[SMI_ERR_LEN];
	const char *to = a->file ? a->file : "-";
	int ret;

	smi_host_read(&h);
	if (a->file && !a->file[0]) {
		if (smi_default_snapshot_path(path, sizeof(path), err,
					      sizeof(err))) {
			fprintf(stderr, "tt-smi: %s\n", err);
			return SMI_EXIT_ERROR;
		}
		to = path;
	}
	ret = smi_snapshot_to(to, &h, d, n, a->compact);
	return ret ? ret : exit_for_health(d, n);
}

static int do_list(struct smi_dev *d, unsigned n)
{
	printf("%-5s %-6s %-12s %-22s %-20s %s\n", "INDEX", "BOARD", "ARCH",
	       "PCI ADDRESS / MODEL", "DEVICE PATH", "HEALTH");
	for (unsigned i = 0; i < n; i++) {
		const struct tt_device_info *f = &d[i].info;
		bool kmd = d[i].dev && !strcmp(f->transport, "kmd");
		char model[64];

		snprintf(model, sizeof(model), "%s model %s",
			 d[i].dev ? f->transport : "?", d[i].dev ? f->name : "");
		printf("%-5u %-6s %-12s %-22s %-20s %s\n", d[i].index,
		       d[i].dev ? f->board : "?", d[i].dev ? f->arch_name : "?",
		       kmd ? "?" : model, kmd ? f->name : "-",
		       smi_health(&d[i]));
	}
	return exit_for_health(d, n);
}

/* The signal that stopped a dump (SIGINT, SIGTERM), or 0. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* A dump stopped by Ctrl-C or kill still writes what it read: the
 * signals only end the wait. No SA_RESTART, so poll and usleep return. */
static void catch_stop_signals(void)
{
	struct sigaction sa = {.sa_handler = on_stop_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Wait until t (monotonic seconds), a line/EOF on stdin (if watched) or a
 * stop signal. */
static bool wait_until(double t, bool watch_stdin)
{
	for (;;) {
		struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
		double now = smi_mono_s();
		int ms;

		if (stop_signal)
			return true;
		if (now >= t)
			return false;
		ms = (int)((t - now) * 1000.0) + 1;
		if (!watch_stdin) {
			usleep((useconds_t)ms * 1000u);
			continue;
		}
		if (poll(&p, 1, ms) > 0) {
			char buf[256];
			ssize_t got = read(STDIN_FILENO, buf, sizeof(buf));

			if (got <= 0 || memchr(buf, '\n', (size_t)got))
				return true;
		}
	}
}

/* Readings in a row a device may stay lost (its reopen failing) before a
 * dump gives up: a reset elsewhere heals within one, a dead daemon or an
 * unplugged card never does. */
#define DUMP_LOST_READINGS 3

/* The first device lost for DUMP_LOST_READINGS readings in a row, or -1;
 * lost[] counts them. */
static int lost_for_good(const struct smi_dev *d, unsigned n, unsigned *lost)
{
	for (unsigned i = 0; i < n; i++) {
		lost[i] = d[i].lost ? lost[i] + 1 : 0;
		if (lost[i] >= DUMP_LOST_READINGS)
			return (int)i;
	}
	return -1;
}

static int do_dump(const struct smi_args *a, struct smi_dev *d, unsigned n)
{
	unsigned *lost = calloc(n ? n : 1, sizeof(*lost));
	int gone = -1;
	char err[SMI_ERR_LEN];
	struct smi_dump *dp;
	bool tty = isatty(STDERR_FILENO);
	double t0, next;
	unsigned rows = 0;
	int ret;

	catch_stop_signals();
	if (!lost) {
		fprintf(stderr, "tt-smi: out of memory\n");
		return SMI_EXIT_ERROR;
	}
	if (smi_dump_start(&dp, a->dump_dir, d, n, err, sizeof(err))) {
		fprintf(stderr, "tt-smi: %s\n", err);
		free(lost);
		return SMI_EXIT_ERROR;
	}
	if (a->duration_s)
		fprintf(stderr, "tt-smi: dumping to %s for %g s\n",
			smi_dump_dir(dp), a->duration_s);
	else
		fprintf(stderr, "tt-smi: dumping to %s; press Enter to stop\n",
			smi_dump_dir(dp));
	t0 = smi_mono_s();
	for (next = t0;; next += a->interval_s) {
		if (a->duration_s && next - t0 > a->duration_s + 1e-9)
			break;
		if (wait_until(next, !a->duration_s))
			break;
		for (unsigned i = 0; i < n; i++)
			smi_refresh(&d[i]);
		if (smi_dump_row(dp, smi_mono_s() - t0, d, n)) {
			fprintf(stderr,
				"\ntt-smi: cannot write the dump in %s\n",
				smi_dump_dir(dp));
			smi_dump_finish(dp, err, sizeof(err));
			free(lost);
			return SMI_EXIT_ERROR;
		}
		rows++;
		if (tty)
			fprintf(stderr, "\r%u readings", rows);
		gone = lost_for_good(d, n, lost);
		if (gone >= 0)
			break;
	}
	free(lost);
	if (tty)
		fputc('\n', stderr);
	ret = smi_dump_finish(dp, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tt-smi: %s\n", err);
		return SMI_EXIT_ERROR;
	}
	fprintf(stderr, "tt-smi: %u readings of %u device%s written to %s\n",
		rows, n, n == 1 ? "" : "s",
		a->dump_dir ? a->dump_dir : "tt-smi-logs/");
	if (gone >= 0) {
		fprintf(stderr, "tt-smi: device %d is gone (%s); dump stopped\n",
			gone, d[gone].error);
		return SMI_EXIT_ERROR;
	}
	if (stop_signal) {
		fprintf(stderr, "tt-smi: stopped by %s\n",
			stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
		/* The shell's convention for a program ended by a signal. */
		return 128 + stop_signal;
	}
	return exit_for_health(d, n);
}

static int do_reset(const struct smi_args *a, struct smi_dev *d, unsigned n,
		    bool ask)
{
	struct smi_reset_opts o = {.yes = a->yes,
				   .force = a->force,
				   .timeout_ms = a->reset_timeout_ms};
	const char *words[SMI_MAX_TARGETS];
	unsigned nwords = a->ntargets;
	char err[SMI_ERR_LEN], line[256];
	bool *sel = calloc(n, sizeof(*sel));
	int ret;

	if (!sel)
		return SMI_EXIT_ERROR;
	memcpy(words, a->targets, sizeof(words));
	if (ask) {
		if (!isatty(STDIN_FILENO)) {
			fprintf(stderr,
				"tt-smi: -wr asks for devices on a terminal; "
				"use -r TARGET... --yes in scripts\n");
			free(sel);
			return SMI_EXIT_USAGE;
		}
		do_list(d, n);
		fprintf(stderr, "Devices to reset (indices, e.g. 0,1 or all; "
				"Enter to cancel): ");
		if (!fgets(line, sizeof(line), stdin) || line[0] == '\n') {
			fprintf(stderr, "tt-smi: nothing reset\n");
			free(sel);
			return SMI_EXIT_ERROR;
		}
		line[strcspn(line, "\n")] = 0;
		words[0] = line;
		nwords = 1;
		o.yes = true; /* typing the indices was the confirmation */
	}
	if (smi_targets(words, nwords, d, n, sel, err, sizeof(err))) {
		fprintf(stderr, "tt-smi: %s\n", err);
		free(sel);
		return SMI_EXIT_NO_DEVICE;
	}
	ret = smi_reset(d, n, sel, &o);
	free(sel);
	return ret;
}

static int do_live(const struct smi_args *a, struct smi_dev *d, unsigned n)
{
	struct smi_tui_opts o = {.interval_s = a->interval_s,
				 .dark = a->dark,
				 .no_color = a->no_color,
				 .dump_dir = a->dump_dir};
	struct smi_host h;

	smi_host_read(&h);
	return smi_tui(d, n, &h, &o);
}

/* Without a terminal the default mode is the snapshot. */
static bool snapshot_mode(const struct smi_args *a)
{
	return a->mode == MODE_SNAPSHOT ||
	       (a->mode == MODE_DEFAULT &&
		(!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)));
}

static int run(const struct smi_args *a)
{
	struct smi_dev *d = NULL;
	char err[SMI_ERR_LEN];
	unsigned n = 0;
	int ret;

	ret = smi_open_all(&d, &n, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tt-smi: %s\n", err);
		if (ret != -ENODEV)
			return SMI_EXIT_ERROR;
		/* A script reading the snapshot still gets JSON: no devices. */
		if (snapshot_mode(a) && do_snapshot(a, NULL, 0))
			return SMI_EXIT_ERROR;
		return SMI_EXIT_NO_DEVICE;
	}
	switch (a->mode) {
	case MODE_SNAPSHOT:
		ret = do_snapshot(a, d, n);
		break;
	case MODE_LIST:
		ret = do_list(d, n);
		break;
	case MODE_DUMP:
		ret = do_dump(a, d, n);
		break;
	case MODE_RESET:
	case MODE_WARM_RESET:
		ret = do_reset(a, d, n, a->mode == MODE_WARM_RESET);
		break;
	default:
		/* No terminal: never a display, never a question. */
		if (snapshot_mode(a))
			ret = do_snapshot(a, d, n);
		else if (!smi_tui_usable(err, sizeof(err))) {
			/* One line, then what -s would print: the readings
			 * are still worth having on a terminal curses
			 * cannot drive. */
			fprintf(stderr, "tt-smi: %s; printing the snapshot "
					"(-s) instead\n", err);
			ret = do_snapshot(a, d, n);
		} else
			ret = do_live(a, d, n);
	}
	smi_close_all(d, n);
	return ret;
}

int main(int argc, char **argv)
{
	struct smi_args a;
	char err[SMI_ERR_LEN];

	if (smi_parse_args(argc, argv, &a, err, sizeof(err))) {
		fprintf(stderr, "tt-smi: %s\nTry 'tt-smi --help'.\n", err);
		return SMI_EXIT_USAGE;
	}
	switch (a.mode) {
	case MODE_HELP:
		usage(stdout);
		return SMI_EXIT_OK;
	case MODE_VERSION:
		printf("tt-smi %s\n", TT_PROJECT_VERSION);
		return SMI_EXIT_OK;
	case MODE_MOBO_RESET:
		fprintf(stderr,
			"tt-smi: motherboard reset (-mr) is not supported on "
			"this host: it needs a board management controller on "
			"the motherboard's network, and this host has none; "
			"use -r to reset devices\n");
		return SMI_EXIT_UNSUPPORTED;
	default:
		return run(&a);
	}
}
