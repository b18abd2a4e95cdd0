// SPDX-License-Identifier: Apache-2.0
/*
 * Parsing tt-smi's command line. getopt cannot take Tenstorrent tt-smi's options
 * (-ls, -wr, -dir ...) next to single-letter ones, nor optional values
 * given as a separate word (-f FILE, -i 0.5), so this is a small table of
 * options, each matched whole, and every error names the word at fault.
 */
#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { NONE, REQUIRED, OPTIONAL, MULTI };

enum opt_id {
	O_HELP,
	O_VERSION,
	O_THEME,
	O_NO_COLOR,
	O_INTERVAL,
	O_SNAPSHOT,
	O_FILE,
	O_COMPACT,
	O_DUMP,
	O_DUMP_DIR,
	O_DURATION,
	O_LIST,
	O_RESET,
	O_WARM_RESET,
	O_MOBO_RESET,
	O_YES,
	O_FORCE,
	O_RESET_TIMEOUT,
	O_EXTERNAL,
};

struct opt {
	const char *dash;     /* "-s", or NULL */
	const char *dashdash; /* "--snapshot" */
	enum kind kind;
	enum opt_id id;
};

static const struct opt opts[] = {
	{"-h", "--help", NONE, O_HELP},
	{"-v", "--version", NONE, O_VERSION},
	{"-t", "--theme", REQUIRED, O_THEME},
	{"-nc", "--no-color", NONE, O_NO_COLOR},
	{"-i", "--interval", OPTIONAL, O_INTERVAL},
	{"-s", "--snapshot", NONE, O_SNAPSHOT},
	{"-f", "--filename", OPTIONAL, O_FILE},
	{NULL, "--compact", NONE, O_COMPACT},
	{"-d", "--dump", NONE, O_DUMP},
	{"-dir", "--dump_dir", REQUIRED, O_DUMP_DIR},
	{"-dur", "--duration", REQUIRED, O_DURATION},
	{"-ls", "--list", NONE, O_LIST},
	{"-r", "--reset", MULTI, O_RESET},
	{"-wr", "--warm_reset", NONE, O_WARM_RESET},
	{"-mr", "--mobo_nb_reset", NONE, O_MOBO_RESET},
	{"-y", "--yes", NONE, O_YES},
	{NULL, "--force", NONE, O_FORCE},
	{NULL, "--reset_timeout", REQUIRED, O_RESET_TIMEOUT},
	{NULL, "--external", NONE, O_EXTERNAL},
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const struct opt *find(const char *word, size_t len)
{
	for (unsigned i = 0; i < NOPTS; i++) {
		const char *names[2] = {opts[i].dash, opts[i].dashdash};

		for (unsigned k = 0; k < 2; k++)
			if (names[k] && strlen(names[k]) == len &&
			    !strncmp(names[k], word, len))
				return &opts[i];
	}
	return NULL;
}

/* A seconds value: finite, > 0, at most max. */
static int seconds(const char *opt, const char *v, double max, double *out,
		   char *err, unsigned len)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (!*v || *end || errno || !isfinite(d) || d <= 0 || d > max) {
		snprintf(err, len, "%s %s: not a number of seconds in (0, %g]",
			 opt, v, max);
		return -EINVAL;
	}
	*out = d;
	return 0;
}

static int set_mode(struct smi_args *a, enum smi_mode m, const char *word,
		    char *err, unsigned len)
{
	/* -s and -f choose the same mode. */
	if (a->mode != MODE_DEFAULT && a->mode != m) {
		snprintf(err, len, "%s cannot be combined with %s", word,
			 a->mode_word);
		return -EINVAL;
	}
	a->mode = m;
	a->mode_word = word;
	return 0;
}

static int apply(struct smi_args *a, const struct opt *o, const char *word,
		 const char *val, char *err, unsigned len)
{
	double s;
	int ret = 0;

	switch (o->id) {
	case O_HELP:
		return set_mode(a, MODE_HELP, word, err, len);
	case O_VERSION:
		return set_mode(a, MODE_VERSION, word, err, len);
	case O_THEME:
		if (strcmp(val, "default") && strcmp(val, "dark")) {
			snprintf(err, len,
				 "%s %s: unknown theme (default or dark)", word,
				 val);
			return -EINVAL;
		}
		a->dark = !strcmp(val, "dark");
		return 0;
	case O_NO_COLOR:
		a->no_color = true;
		return 0;
	case O_INTERVAL:
		if (val)
			ret = seconds(word, val, 3600, &a->interval_s, err,
				      len);
		return ret;
	case O_SNAPSHOT:
		return set_mode(a, MODE_SNAPSHOT, word, err, len);
	case O_FILE:
		a->file = val ? val : "";
		return set_mode(a, MODE_SNAPSHOT, word, err, len);
	case O_COMPACT:
		a->compact = true;
		return 0;
	case O_DUMP:
		return set_mode(a, MODE_DUMP, word, err, len);
	case O_DUMP_DIR:
		a->dump_dir = val;
		return 0;
	case O_DURATION:
		return seconds(word, val, 366.0 * 86400, &a->duration_s, err,
			       len);
	case O_LIST:
		return set_mode(a, MODE_LIST, word, err, len);
	case O_RESET:
		return set_mode(a, MODE_RESET, word, err, len);
	case O_WARM_RESET:
		return set_mode(a, MODE_WARM_RESET, word, err, len);
	case O_MOBO_RESET:
		return set_mode(a, MODE_MOBO_RESET, word, err, len);
	case O_YES:
		a->yes = true;
		return 0;
	case O_FORCE:
		a->force = true;
		return 0;
	case O_RESET_TIMEOUT:
		ret = seconds(word, val, 3600, &s, err, len);
		if (!ret)
			a->reset_timeout_ms = (int)(s * 1000.0);
		return ret;
	case O_EXTERNAL:
		return 0;
	}
	return 0;
}

/*
 * A reset target word is items separated by commas, an item words
 * separated by blanks. An empty word or item ("", "0,", "0,,1") is what an
 * unset shell variable leaves: a usage error, never a smaller or larger
 * set of devices than meant.
 */
static int check_target(const char *opt, const char *w, char *err,
			unsigned len)
{
	const char *p = w;

	for (;;) {
		size_t item = strcspn(p, ",");

		if (strspn(p, " \t") >= item) {
			snprintf(err, len,
				 "%s '%s': %s (give device indices, names, "
				 "PCI addresses, or all)",
				 opt, w,
				 w[strspn(w, " \t")] ? "an empty item in the list"
						       : "an empty target");
			return -EINVAL;
		}
		if (!p[item])
			return 0;
		p += item + 1;
	}
}

/* Is argv[i] a value for an option that takes one optionally? */
static bool takes_next(const struct opt *o, const char *next)
{
	if (!next)
		return false;
	if (o->id == O_FILE && !strcmp(next, "-"))
		return true;
	return next[0] != '-';
}

int smi_parse_args(int argc, char **argv, struct smi_args *a, char *err,
		   unsigned len)
{
	memset(a, 0, sizeof(*a));
	a->interval_s = 0.5;
	a->reset_timeout_ms = 60000;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i], *eq = strchr(w, '='), *val = NULL;
		size_t nlen = eq && !strncmp(w, "--", 2) ? (size_t)(eq - w)
							 : strlen(w);
		const struct opt *o = w[0] == '-' ? find(w, nlen) : NULL;
		int ret;

		if (!o) {
			snprintf(err, len,
				 w[0] == '-' ? "unknown option %s"
					     : "unexpected argument %s",
				 w);
			return -EINVAL;
		}
		if (nlen != strlen(w))
			val = eq + 1;
		if (val && (o->kind == NONE || o->kind == MULTI)) {
			snprintf(err, len, "%.*s takes no value after '='",
				 (int)nlen, w);
			return -EINVAL;
		}
		if (!val && o->kind == REQUIRED) {
			if (i + 1 >= argc) {
				snprintf(err, len, "%s needs a value", w);
				return -EINVAL;
			}
			val = argv[++i];
		}
		if (!val && o->kind == OPTIONAL && takes_next(o, argv[i + 1]))
			val = argv[++i];
		while (o->kind == MULTI && i + 1 < argc &&
		       argv[i + 1][0] != '-') {
			if (a->ntargets == SMI_MAX_TARGETS) {
				snprintf(err, len, "%s: more than %d targets",
					 w, SMI_MAX_TARGETS);
				return -EINVAL;
			}
			if (check_target(w, argv[i + 1], err, len))
				return -EINVAL;
			a->targets[a->ntargets++] = argv[++i];
		}
		ret = apply(a, o, w, val, err, len);
		if (ret)
			return ret;
	}
	if (a->dump_dir && a->mode != MODE_DUMP && a->mode != MODE_DEFAULT) {
		snprintf(err, len, "-dir/--dump_dir goes with -d/--dump");
		return -EINVAL;
	}
	if (a->duration_s && a->mode != MODE_DUMP) {
		snprintf(err, len, "-dur/--duration goes with -d/--dump");
		return -EINVAL;
	}
	return 0;
}
