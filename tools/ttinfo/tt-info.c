// SPDX-License-Identifier: Apache-2.0
/*
 * tt-info: list the devices libtt can open, with their shape and memory,
 * then what each one's management firmware reports (telemetry).
 * A pure client of libtt's public API.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt.h"

#define DEFAULT_WAIT_MS 5000

/* Exit status, the same for every tool of the tree (tools/README.md). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,	    /* a device cannot be listed or read */
	EXIT_USAGE = 2,	    /* bad arguments */
	EXIT_NO_DEVICE = 3, /* libtt offers no device */
};

struct options {
	bool telemetry;
	int wait_ms; /* for the firmware to be ready */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tt-info [-h] [-V] [-n] [-w MS]\n"
		"\n"
		"List every device libtt can open: transport, board, architecture,\n"
		"NOC grid, Tensix cores, L1 and DRAM sizes; then, once its\n"
		"management firmware is ready, its telemetry: card, serial,\n"
		"firmware versions, clocks, voltage, power, current,\n"
		"temperature, fan, heartbeat and limits.\n"
		"\n"
		"Options:\n"
		"  -h, --help          this help\n"
		"  -V, --version       the version\n"
		"  -n, --no-telemetry  the device list only\n"
		"  -w, --wait MS       wait at most MS milliseconds for the\n"
		"                      firmware to be ready (default 5000)\n"
		"\n"
		"Environment:\n"
		"  TT_TRANSPORT     kmd, ttsim, embedded or sim (default: ttsim if a\n"
		"                 ttsim daemon runs, else the embedded chip model)\n"
		"  TT_SIM_BOARD   board of the embedded model: n150 (default),\n"
		"                 n300, p150, e150\n"
		"  TT_SIM_THREADS threads running the embedded model's harts\n"
		"                 (default: one per CPU)\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  a device cannot be listed or its telemetry cannot be read\n"
		"  2  usage error\n"
		"  3  no device\n");
}

static void print_size(const char *label, uint64_t bytes)
{
	if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0)
		printf("  %-16s %" PRIu64 " GiB\n", label, bytes >> 30);
	else if (bytes % 1024 == 0)
		printf("  %-16s %" PRIu64 " KiB\n", label, bytes >> 10);
	else
		printf("  %-16s %" PRIu64 " bytes\n", label, bytes);
}

static void print_versions(const struct tt_telemetry *t)
{
	char b[16], c[16], k[16];

	if (!TT_TELEM_HAS(t, TT_TELEM_F_FW_BUNDLE) &&
	    !TT_TELEM_HAS(t, TT_TELEM_F_FW_CM) &&
	    !TT_TELEM_HAS(t, TT_TELEM_F_FW_CORE))
		return;
	printf("  %-16s bundle %s, CM %s, core %s\n", "firmware",
	       tt_fw_version_str(t->fw_bundle, b, sizeof(b)),
	       tt_fw_version_str(t->fw_cm, c, sizeof(c)),
	       tt_fw_version_str(t->fw_core, k, sizeof(k)));
}

static void print_power(const struct tt_telemetry *t)
{
	if (TT_TELEM_HAS(t, TT_TELEM_F_AICLK))
		printf("  %-16s AICLK %.0f MHz, AXICLK %.0f MHz, ARCCLK %.0f MHz%s\n",
		       "clocks", t->aiclk_mhz, t->axiclk_mhz, t->arcclk_mhz,
		       t->throttled ? " (throttled)" : "");
	if (TT_TELEM_HAS(t, TT_TELEM_F_VCORE))
		printf("  %-16s %.3f V\n", "VCORE", t->vcore_v);
	if (TT_TELEM_HAS(t, TT_TELEM_F_POWER))
		printf("  %-16s %.1f W\n", "power", t->power_w);
	if (TT_TELEM_HAS(t, TT_TELEM_F_CURRENT))
		printf("  %-16s %.1f A\n", "current", t->current_a);
	if (TT_TELEM_HAS(t, TT_TELEM_F_ASIC_TEMP))
		printf("  %-16s %.1f degC\n", "ASIC temperature",
		       t->asic_temp_c);
	if (TT_TELEM_HAS(t, TT_TELEM_F_VREG_TEMP))
		printf("  %-16s %.1f degC\n", "VREG temperature",
		       t->vreg_temp_c);
	if (TT_TELEM_HAS(t, TT_TELEM_F_BOARD_TEMP))
		printf("  %-16s %.1f degC\n", "board (inlet)", t->board_temp_c);
	if (TT_TELEM_HAS(t, TT_TELEM_F_FAN_PERCENT))
		printf("  %-16s %.0f %%, %.0f rpm\n", "fan", t->fan_percent,
		       t->fan_rpm);
	if (TT_TELEM_HAS(t, TT_TELEM_F_HEARTBEAT))
		printf("  %-16s %" PRIu32 " (refreshed every %" PRIu32 " ms)\n",
		       "heartbeat", t->heartbeat, t->update_interval_ms);
}

static void print_limits(const struct tt_telemetry *t)
{
	if (TT_TELEM_HAS(t, TT_TELEM_F_TDP_LIMIT))
		printf("  %-16s TDP %.0f W, TDC %.0f A, AICLK max %.0f MHz\n",
		       "limits", t->tdp_limit_w, t->tdc_limit_a,
		       t->aiclk_max_mhz);
	if (TT_TELEM_HAS(t, TT_TELEM_F_VDD_LIMITS))
		printf("  %-16s VDD %.3f-%.3f V, throttle %.0f degC, shutdown %.0f degC\n",
		       "", t->vdd_min_v, t->vdd_max_v, t->thm_limit_throttle_c,
		       t->thm_limit_shutdown_c);
}

/* Wait for the firmware, then print its telemetry. 0 or 1 (failed). */
static int show_telemetry(tt_device *dev, unsigned index,
			  const struct options *o)
{
	struct tt_telemetry t;

	if (tt_mgmt_wait_ready(dev, o->wait_ms) ||
	    tt_telemetry_read(dev, &t)) {
		fprintf(stderr, "tt-info: device %u: %s\n", index,
			tt_last_error());
		return 1;
	}
	if (TT_TELEM_HAS(&t, TT_TELEM_F_BOARD_ID))
		printf("  %-16s %s (type 0x%02x), serial %016llX\n", "card",
		       t.card_name, t.card_type,
		       (unsigned long long)t.board_id);
	print_versions(&t);
	print_power(&t);
	print_limits(&t);
	return 0;
}

static int show(unsigned index, const struct options *o)
{
	const struct tt_device_info *i;
	tt_device *dev;
	int status = 0, ret = tt_device_open(index, &dev);

	if (ret) {
		fprintf(stderr, "tt-info: device %u: %s\n", index, tt_last_error());
		return 1;
	}
	i = tt_device_get_info(dev);
	printf("device %u: %s (%s transport)\n", index, i->name, i->transport);
	printf("  %-16s %s chip %u, %s (%s)\n", "board", i->board, i->chip,
	       i->arch_name, i->soc_name);
	printf("  %-16s %ux%u\n", "NOC grid", i->grid_x, i->grid_y);
	printf("  %-16s %u\n", "Tensix cores", i->tensix_count);
	print_size("L1 per core", i->l1_size);
	print_size("L1 total", i->l1_size * i->tensix_count);
	printf("  %-16s %u x %" PRIu64 " GiB = %" PRIu64 " GiB\n",
	       "DRAM channels", i->dram_channels, i->dram_channel_size >> 30,
	       i->dram_size >> 30);
	if (o->telemetry)
		status = show_telemetry(dev, index, o);
	tt_device_close(dev);
	return status;
}

static int parse_ms(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 0 || v > 3600 * 1000)
		return -1;
	*out = (int)v;
	return 0;
}

/* "tt-info: what is wrong" and where to look; the usage error status. */
static __attribute__((format(printf, 1, 2))) int
usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("tt-info: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'tt-info --help'.\n", stderr);
	return EXIT_USAGE;
}

/* Parse argv into o: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "no-telemetry", no_argument, NULL, 'n' },
		{ "wait", required_argument, NULL, 'w' },
		{ 0 }
	};
	int opt;

	/* getopt's own messages would name the program by its path. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hVnw:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("tt-info %s\n", TT_PROJECT_VERSION);
			return EXIT_OK;
		case 'n':
			o->telemetry = false;
			break;
		case 'w':
			if (parse_ms(optarg, &o->wait_ms))
				return usage_error("-w wants milliseconds in 0..3600000, not '%s'",
						   optarg);
			break;
		case ':':
			return usage_error("option '%s' needs a value",
					   argv[optind - 1]);
		default:
			if (optopt)
				return usage_error("unknown option '-%c'",
						   optopt);
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind != argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = { .telemetry = true, .wait_ms = DEFAULT_WAIT_MS };
	unsigned count;
	int status = parse_args(argc, argv, &o);

	if (status >= 0)
		return status;
	if (tt_device_count(&count)) {
		fprintf(stderr, "tt-info: %s\n", tt_last_error());
		return EXIT_FAIL;
	}
	if (!count) {
		fprintf(stderr, "tt-info: no Tenstorrent device found\n");
		return EXIT_NO_DEVICE;
	}
	status = EXIT_OK;
	for (unsigned i = 0; i < count; i++)
		status |= show(i, &o);
	return status;
}
