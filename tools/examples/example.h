/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every example shares: the command line's common part (--help,
 * --version, usage errors, the exit status), opening the device, failing
 * with libtt's message, finding the example kernels, timing, and the
 * result check against a host reference (Pearson correlation, as
 * TT-Metal's tests report it).
 *
 * Header-only on purpose: each example stays one program a reader can
 * copy out of the tree with this file.
 */
#ifndef TT_EXAMPLE_H
#define TT_EXAMPLE_H

#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tt.h"

/* The program's name in messages, never its path as typed (meson passes
 * "example-<name>"), and the project's version. */
#ifndef EX_NAME
#define EX_NAME "example"
#endif
#ifndef TT_PROJECT_VERSION
#define TT_PROJECT_VERSION "unknown"
#endif

/* Exit status, the same in every tool of the tree (tools/README.md). */
enum {
	EX_EXIT_FAIL = 1,      /* the check failed, or anything went wrong */
	EX_EXIT_USAGE = 2,     /* bad arguments */
	EX_EXIT_NO_DEVICE = 3, /* libtt offers no device */
};

/* The end of every example's --help. */
#define EX_HELP_COMMON                                                         \
	"\n"                                                                   \
	"  --help     this help\n"                                          \
	"  --version  the version\n"                                        \
	"\n"                                                                   \
	"Exit status: 0 the check passed; 1 it failed or something went\n"  \
	"wrong; 2 usage error; 3 no device.\n"

/* "example-x: what is wrong" and where to look, then exit 2. */
static inline __attribute__((noreturn, format(printf, 1, 2))) void
ex_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(EX_NAME ": ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" EX_NAME " --help'.\n", stderr);
	exit(EX_EXIT_USAGE);
}

/* --version: print it and exit; anything else returns. */
static inline void ex_version_option(const char *arg)
{
	if (strcmp(arg, "--version"))
		return;
	printf("%s %s\n", EX_NAME, TT_PROJECT_VERSION);
	exit(0);
}

/* The command line of an example without arguments of its own: --help,
 * --version, or a usage error. */
static inline void ex_no_args(int argc, char **argv, void (*usage)(FILE *))
{
	if (argc < 2)
		return;
	ex_version_option(argv[1]);
	if (!strcmp(argv[1], "--help")) {
		usage(stdout);
		exit(0);
	}
	if (argv[1][0] == '-')
		ex_usage_error("unknown option '%s'", argv[1]);
	ex_usage_error("unexpected argument '%s'", argv[1]);
}

/* A number argument of option opt: a multiple of mult in mult..max, else a
 * usage error. */
static inline uint32_t ex_parse_count(const char *opt, const char *s,
				      unsigned mult, unsigned max)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v == 0 || v % mult || v > max) {
		if (mult > 1)
			ex_usage_error("%s %s: want a multiple of %u in %u..%u",
				       opt, s, mult, mult, max);
		ex_usage_error("%s %s: want a number in 1..%u", opt, s, max);
	}
	return (uint32_t)v;
}

/* What getopt_long() returned for a bad command line (with opterr = 0 and
 * optstring starting with ':'): a missing value, or an unknown option. */
static inline __attribute__((noreturn)) void ex_getopt_error(int c,
							     char **argv)
{
	if (c == ':')
		ex_usage_error("option '%s' needs a value", argv[optind - 1]);
	if (optopt)
		ex_usage_error("unknown option '-%c'", optopt);
	ex_usage_error("unknown option '%s'", argv[optind - 1]);
}

/* Stop with what failed and libtt's explanation. */
static inline __attribute__((noreturn, format(printf, 1, 2))) void
ex_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(EX_NAME ": ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", tt_last_error());
	exit(EX_EXIT_FAIL);
}

/* Call f (a libtt call returning 0 or a negative errno) or stop. */
#define EX_TRY(f)                                                              \
	do {                                                                   \
		if ((f) != 0)                                                  \
			ex_die("%s", #f);                                      \
	} while (0)

/* Open device 0, or stop: with status 3 when libtt offers no device. */
static inline void ex_open_device(tt_device **dev)
{
	unsigned n = 0;

	EX_TRY(tt_device_count(&n));
	if (!n) {
		fprintf(stderr,
			EX_NAME ": no Tenstorrent device found (TT_TRANSPORT=%s)\n",
			getenv("TT_TRANSPORT") ? getenv("TT_TRANSPORT")
					       : "unset");
		exit(EX_EXIT_NO_DEVICE);
	}
	EX_TRY(tt_device_open(0, dev));
}

/*
 * The path of an example kernel, "name/file.c" under the kernels
 * directory: $TT_EXAMPLES_KERNELS if set, else the source tree the
 * examples were built from. The result is in a static buffer.
 */
static inline const char *ex_kernel(const char *rel)
{
	static char path[4096];
	const char *dir = getenv("TT_EXAMPLES_KERNELS");

	if (!dir || !*dir)
		dir = TT_EXAMPLES_KERNEL_DIR;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, rel) >=
	    sizeof(path)) {
		fprintf(stderr, EX_NAME ": kernel path %s/%s is too long\n", dir,
			rel);
		exit(EX_EXIT_FAIL);
	}
	return path;
}

static inline void *ex_xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, EX_NAME ": out of memory (%zu bytes)\n", n);
		exit(EX_EXIT_FAIL);
	}
	return p;
}

/* n values in [-1, 1), already bf16 values (what the device sees). */
static inline void ex_fill_bf16(float *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = tt_bf16_to_float(tt_float_to_bf16(
			(float)(seed >> 8) / 8388608.0f - 1.0f));
	}
}

/* n bfloat16 values in [lo, hi), the same on every run for one seed. */
static inline void ex_fill_bf16_range(uint16_t *v, size_t n, uint32_t seed,
				      float lo, float hi)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		v[i] = tt_float_to_bf16(lo +
					(hi - lo) * (seed >> 8) / 16777216.0f);
	}
}

/* A DRAM buffer of `tiles` tiles of tile_bytes, one tile per page. */
static inline tt_buffer *ex_dram_tiles(tt_device *dev, uint32_t tiles,
				       uint32_t tile_bytes)
{
	struct tt_buffer_config cfg = {
		.device = dev,
		.size = (uint64_t)tiles * tile_bytes,
		.page_size = tile_bytes,
		.type = TT_BUFFER_DRAM,
	};
	tt_buffer *buf;

	EX_TRY(tt_create_buffer(&cfg, &buf));
	return buf;
}

/* Two bfloat16 tiles of tile_bytes at CB index `index` of core. */
static inline void ex_double_buffered_cb(tt_program *prog,
					 const struct tt_core_range_set *core,
					 unsigned index, uint32_t tile_bytes)
{
	struct tt_circular_buffer_config cfg = tt_circular_buffer_config(
		2 * tile_bytes, index, TT_FLOAT16_B, tile_bytes);
	tt_cb_handle cb;

	EX_TRY(tt_create_circular_buffer(prog, core, &cfg, &cb));
}

static inline double ex_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Pearson correlation of got and want (n values); 1 if both constant and
 * equal. */
static inline double ex_pcc(const float *got, const float *want, size_t n)
{
	double sg = 0, sw = 0, sgg = 0, sww = 0, sgw = 0;

	for (size_t i = 0; i < n; i++) {
		sg += got[i];
		sw += want[i];
	}
	sg /= (double)n;
	sw /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double g = got[i] - sg, w = want[i] - sw;

		sgg += g * g;
		sww += w * w;
		sgw += g * w;
	}
	if (sgg == 0 || sww == 0)
		return sgg == sww && sg == sw ? 1.0 : 0.0;
	return sgw / sqrt(sgg * sww);
}

/* Print the verdict line every example ends with; the exit status. */
static inline int ex_verdict(const char *name, int ok, const char *detail)
{
	printf("%s: %s (%s)\n", name, ok ? "PASS" : "FAIL", detail);
	return ok ? 0 : 1;
}

#endif /* TT_EXAMPLE_H */
