// SPDX-License-Identifier: Apache-2.0
/* ttc info: what an image file (.tti) holds, as a table or JSON: its
 * sections and, when it has a manifest, the model (info_model.c). */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tt/image.h"

#include "cli.h"
#include "model_view.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc info [--json] FILE.tti\n"
		"\n"
		"Check an image file whole (every field, offset and checksum)\n"
		"and describe it: the format version, the file's size and\n"
		"every section (name, offset, size, alignment, CRC-32) and,\n"
		"when it holds a model, the model: target, compile options,\n"
		"inputs and outputs, programs and their ops, parameters, the\n"
		"memory plan and the kernels.\n"
		"\n"
		"Options:\n"
		"      --json  one JSON document: {\"file\", \"version\", "
		"\"file_size\",\n"
		"              \"sections\": [{\"name\", \"offset\", \"size\", "
		"\"align\",\n"
		"              \"crc32\"}], \"model\": {...}} (docs/ttc.md;\n"
		"              \"model_error\": a manifest that fails)\n"
		"  -h, --help  this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the file cannot be read or is not a valid image\n"
		"  2  usage error\n");
}

void info_sections_text(FILE *f, const tt_image *img)
{
	size_t n = tt_image_section_count(img);
	struct tt_image_section s;

	fprintf(f, "%-39s %12s %12s %6s %10s\n", "section", "offset", "size",
		"align", "crc32");
	for (size_t i = 0; i < n; i++) {
		if (tt_image_section_at(img, i, &s))
			continue;
		fprintf(f, "%-39s %12" PRIu64 " %12" PRIu64 " %6u 0x%08x\n",
			s.name, s.offset, s.size, s.align, s.crc32);
	}
}

void info_sections_json(FILE *f, const tt_image *img)
{
	size_t n = tt_image_section_count(img);
	struct tt_image_section s;

	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (tt_image_section_at(img, i, &s))
			continue;
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		view_json_str(f, s.name);
		fprintf(f,
			", \"offset\": %" PRIu64 ", \"size\": %" PRIu64
			", \"align\": %u, \"crc32\": %u}",
			s.offset, s.size, s.align, s.crc32);
	}
	fputc(']', f);
}

static void print_text(const tt_image *img, const struct tt_model_desc *d)
{
	printf("file:      %s\n", tt_image_path(img));
	printf("version:   %u\n", tt_image_version(img));
	printf("file size: %" PRIu64 " bytes\n", tt_image_file_size(img));
	printf("sections:  %zu\n\n", tt_image_section_count(img));
	info_sections_text(stdout, img);
	if (d) {
		printf("\n");
		info_model_text(stdout, d);
	}
}

static void print_json(const tt_image *img, const struct tt_model_desc *d,
		       const char *bad)
{
	printf("{\"file\": ");
	view_json_str(stdout, tt_image_path(img));
	printf(", \"version\": %u, \"file_size\": %" PRIu64 ", \"sections\": ",
	       tt_image_version(img), tt_image_file_size(img));
	info_sections_json(stdout, img);
	if (d) {
		printf(", \"model\": ");
		info_model_json(stdout, d);
	}
	if (*bad) {
		printf(", \"model_error\": ");
		view_json_str(stdout, bad);
	}
	printf("}\n");
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	bool json = false;
	int c;
	tt_image *img;
	tt_model_manifest *man = NULL;
	const struct tt_model_desc *d;
	char bad[512] = "";

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (c == 'j')
			json = true;
		else
			return usage_error("info", "unknown option '%s'",
					   argv[optind - 1]);
	}
	if (optind + 1 != argc)
		return usage_error("info", "%s",
				   optind == argc ? "no image file given"
						  : "one image file at a time");
	if (tt_image_open(argv[optind], &img)) {
		fprintf(stderr, "ttc: %s\n", tt_last_error());
		return EXIT_FAIL;
	}
	/* The container is valid: its sections are listed even when its
	 * manifest does not check (the fault goes with them). */
	if (view_manifest(img, &man) < 0)
		snprintf(bad, sizeof(bad), "%s", tt_last_error());
	d = man ? tt_model_manifest_desc(man) : NULL;
	if (json)
		print_json(img, d, bad);
	else
		print_text(img, d);
	if (*bad)
		fprintf(stderr, "ttc: no model described: %s\n", bad);
	tt_model_manifest_free(man);
	tt_image_close(img);
	return EXIT_OK;
}
