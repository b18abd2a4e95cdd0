/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tt-smi's command line: Tenstorrent tt-smi's options (single-dash words such as
 * -ls, -wr, -dir, -dur included) and today's tt-smi's long ones.
 */
#ifndef TT_SMI_ARGS_H
#define TT_SMI_ARGS_H

#include <stdbool.h>

enum smi_mode {
	MODE_DEFAULT, /* live display, or a snapshot without a terminal */
	MODE_SNAPSHOT,
	MODE_DUMP,
	MODE_LIST,
	MODE_RESET,
	MODE_WARM_RESET, /* -wr: asks for the devices */
	MODE_MOBO_RESET,
	MODE_HELP,
	MODE_VERSION,
};

#define SMI_MAX_TARGETS 64

struct smi_args {
	enum smi_mode mode;
	const char *mode_word; /* the option that chose the mode */
	bool dark, no_color, compact, yes, force;
	double interval_s;    /* > 0 */
	const char *file;     /* -f FILE; "" for -f alone (default path) */
	const char *dump_dir; /* NULL: default */
	double duration_s;    /* 0: until Enter */
	int reset_timeout_ms;
	const char *targets[SMI_MAX_TARGETS];
	unsigned ntargets;
};

/* Parse argv; 0, or -EINVAL with a message naming the bad word in err. */
int smi_parse_args(int argc, char **argv, struct smi_args *a, char *err,
		   unsigned len);

#endif /* TT_SMI_ARGS_H */
