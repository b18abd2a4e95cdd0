// SPDX-License-Identifier: Apache-2.0
/*
 * tt-info: list the devices libtt can open, with their shape and memory.
 * A pure client of libtt's public API.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tt.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tt-info [-h]\n"
		"\n"
		"List every device libtt can open: backend, board, architecture,\n"
		"NOC grid, Tensix cores, L1 and DRAM sizes.\n"
		"\n"
		"Environment:\n"
		"  TT_BACKEND     kmd, ttsim, embedded or sim (default: ttsim if a\n"
		"                 ttsim daemon runs, else the embedded chip model)\n"
		"  TT_SIM_BOARD   board of the embedded model: n150 (default),\n"
		"                 n300, p150, e150\n"
		"\n"
		"Exit status: 0 on success, 1 if a device cannot be listed,\n"
		"2 on a usage error.\n");
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

static int show(unsigned index)
{
	const struct tt_device_info *i;
	tt_device *dev;
	int ret = tt_device_open(index, &dev);

	if (ret) {
		fprintf(stderr, "tt-info: device %u: %s\n", index, tt_last_error());
		return 1;
	}
	i = tt_device_get_info(dev);
	printf("device %u: %s (%s backend)\n", index, i->name, i->backend);
	printf("  %-16s %s chip %u, %s (%s)\n", "board", i->board, i->chip,
	       i->arch_name, i->soc_name);
	printf("  %-16s %ux%u\n", "NOC grid", i->grid_x, i->grid_y);
	printf("  %-16s %u\n", "Tensix cores", i->tensix_count);
	print_size("L1 per core", i->l1_size);
	print_size("L1 total", i->l1_size * i->tensix_count);
	printf("  %-16s %u x %" PRIu64 " GiB = %" PRIu64 " GiB\n",
	       "DRAM channels", i->dram_channels, i->dram_channel_size >> 30,
	       i->dram_size >> 30);
	tt_device_close(dev);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned count;
	int opt, status = 0;

	while ((opt = getopt(argc, argv, "h")) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return 0;
		}
		usage(stderr);
		return 2;
	}
	if (optind != argc) {
		fprintf(stderr, "tt-info: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (tt_device_count(&count)) {
		fprintf(stderr, "tt-info: %s\n", tt_last_error());
		return 1;
	}
	if (!count)
		printf("no devices\n");
	for (unsigned i = 0; i < count; i++)
		status |= show(i);
	return status;
}
