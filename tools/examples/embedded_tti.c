// SPDX-License-Identifier: Apache-2.0
/*
 * embedded_tti: PyBuda's "Embedded TTI Loading" main() in C, on a model
 * compiled by ttc: tt_backend_load builds the embedded backend from the
 * image (docs/backend.md, docs/image.md), and then the seed's loop runs
 * unchanged: for each inference loop, every input is looked up by name
 * and a microbatch of tensors pushed into it, every program is run with
 * {"$p_loop_count", "<n>"}, and every output is looked up by name, its
 * entries got, checked and popped. At the end, finish.
 *
 * Inputs are seeded values in [-1, 1), or with --input X.npy the tensor
 * of X.npy for the first input; with --expect Y.npy every entry of the
 * first output must match Y.npy (PCC >= 0.99). Without it, the check is
 * that every entry of an output is finite and the same for the same
 * input (every loop pushes the same values).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>

#include "example.h"

#define NAME "embedded_tti"
#define MAX_LOOPS 100000u
#define MAX_MICROBATCH 16u /* the depth of tt_backend_load's queues */

struct run {
	tt_backend *b;
	unsigned microbatch;
	tt_tensor *input0, *expect;
	tt_tensor **first; /* per output: its first entry, float32 */
	size_t checked, bad;
	double worst_pcc;
};

/* <io process>: push a microbatch of every input. */
static void push_inputs(struct run *r)
{
	const char *const *names;
	unsigned n;

	EX_TRY(tt_backend_input_names(r->b, &names, &n));
	for (unsigned i = 0; i < n; i++) {
		struct tt_io_desc d;

		EX_TRY(tt_backend_get_io(r->b, names[i], &d));
		for (unsigned item = 0; item < r->microbatch; item++) {
			tt_tensor *t;

			if (i == 0 && r->input0) {
				EX_TRY(tt_backend_push_input(&d, r->input0, 1000));
				continue;
			}
			EX_TRY(tt_tensor_create(&d.shape, TT_FLOAT32,
						TT_TENSOR_ROW_MAJOR, &t));
			ex_fill_bf16(tt_tensor_data(t), tt_tensor_volume(t),
				     1 + i);
			EX_TRY(tt_backend_push_input(&d, t, 1000));
			tt_backend_free_tensor(t);
		}
	}
}

/* <runtime process>: run every program on the microbatch. */
static void run_programs(struct run *r)
{
	char count[16];
	const struct tt_backend_param params[] = {{"$p_loop_count", count}};
	const char *const *names;
	unsigned n;

	snprintf(count, sizeof(count), "%u", r->microbatch);
	EX_TRY(tt_backend_program_names(r->b, &names, &n));
	for (unsigned i = 0; i < n; i++)
		EX_TRY(tt_backend_run_program(r->b, names[i], params, 1));
}

static void check(struct run *r, unsigned out, tt_tensor *got)
{
	tt_tensor *f;
	const float *y;
	size_t n;

	EX_TRY(tt_tensor_to(got, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &f));
	y = tt_tensor_data(f);
	n = tt_tensor_volume(f);
	for (size_t i = 0; i < n; i++)
		r->bad += !isfinite(y[i]);
	if (out == 0 && r->expect) {
		double pcc;

		if (tt_tensor_volume(r->expect) != n)
			ex_usage_error("--expect has %zu values, output 0 %zu",
				       tt_tensor_volume(r->expect), n);
		pcc = ex_pcc(y, tt_tensor_data(r->expect), n);
		r->worst_pcc = pcc < r->worst_pcc ? pcc : r->worst_pcc;
		r->bad += !(pcc >= 0.99);
	}
	/* The same input gives the same output, bit for bit. */
	if (!r->first[out]) {
		r->first[out] = f;
	} else {
		r->bad += memcmp(tt_tensor_data(r->first[out]), y,
				 n * sizeof(float)) != 0;
		tt_tensor_free(f);
	}
	r->checked++;
}

/* <io process>: get, check and pop the microbatch of every output. */
static void pop_outputs(struct run *r)
{
	const char *const *names;
	unsigned n;

	EX_TRY(tt_backend_output_names(r->b, &names, &n));
	for (unsigned i = 0; i < n; i++) {
		struct tt_io_desc d;

		EX_TRY(tt_backend_get_io(r->b, names[i], &d));
		for (unsigned item = 0; item < r->microbatch; item++) {
			tt_tensor *t;

			EX_TRY(tt_backend_get_output(&d, 10000, &t));
			EX_TRY(tt_backend_pop_output(&d, 10000));
			check(r, i, t);
			tt_backend_free_tensor(t);
		}
	}
}

static void usage(FILE *to)
{
	fprintf(to,
		"usage: example-" NAME " [--input X.npy] [--expect Y.npy] MODEL.tti\n"
		"                            [LOOPS [MICROBATCH]]\n"
		"Load MODEL.tti (made by 'ttc compile') with tt_backend_load and run\n"
		"it as PyBuda's Embedded TTI Loading does: LOOPS inference loops\n"
		"(default 2, at most %u), each pushing MICROBATCH entries of every\n"
		"input (default 2, 1..%u), running every program with\n"
		"$p_loop_count = MICROBATCH, getting, checking and popping as many\n"
		"entries of every output.\n"
		"  --input X.npy   the first input's value (else seeded values)\n"
		"  --expect Y.npy  the first output's value (PCC >= 0.99)\n"
		EX_HELP_COMMON,
		MAX_LOOPS, MAX_MICROBATCH);
}

static unsigned number(const char *arg, const char *what, unsigned max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < 1 || v > max)
		ex_usage_error("%s '%s' is not a number in 1..%u", what, arg,
			       max);
	return (unsigned)v;
}

static tt_tensor *load(const char *path)
{
	tt_tensor *t;

	EX_TRY(tt_tensor_load_npy(path, &t));
	return t;
}

int main(int argc, char **argv)
{
	struct run r = {.microbatch = 2, .worst_pcc = 1};
	const char *pos[3] = {NULL};
	unsigned loops = 2, npos = 0, nout;
	const char *const *names;
	char detail[200];
	tt_device *dev;

	for (int i = 1; i < argc; i++) {
		ex_version_option(argv[i]);
		if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if ((!strcmp(argv[i], "--input") || !strcmp(argv[i], "--expect")) &&
		    i + 1 < argc) {
			*(argv[i][2] == 'i' ? &r.input0 : &r.expect) =
				load(argv[i + 1]);
			i++;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			ex_usage_error("unknown option '%s'", argv[i]);
		} else if (npos == 3) {
			ex_usage_error("unexpected argument '%s'", argv[i]);
		} else {
			pos[npos++] = argv[i];
		}
	}
	/* The device first, as every example: no device is exit status 3
	 * whatever else is missing. */
	ex_open_device(&dev);
	if (!npos)
		ex_usage_error("no model given");
	if (pos[1])
		loops = number(pos[1], "LOOPS", MAX_LOOPS);
	if (pos[2])
		r.microbatch = number(pos[2], "MICROBATCH", MAX_MICROBATCH);

	EX_TRY(tt_backend_load(dev, pos[0], &r.b));
	EX_TRY(tt_backend_output_names(r.b, &names, &nout));
	r.first = ex_xmalloc((nout + 1) * sizeof(*r.first));
	memset(r.first, 0, (nout + 1) * sizeof(*r.first));
	for (unsigned loop = 0; loop < loops; loop++) {
		push_inputs(&r);
		run_programs(&r);
		pop_outputs(&r);
	}
	EX_TRY(tt_backend_finish(r.b));

	snprintf(detail, sizeof(detail),
		 "%u loops of %u, %zu outputs checked, %zu wrong, PCC %.5f", loops,
		 r.microbatch, r.checked, r.bad, r.worst_pcc);
	for (unsigned i = 0; i < nout; i++)
		tt_tensor_free(r.first[i]);
	free(r.first);
	tt_tensor_free(r.input0);
	tt_tensor_free(r.expect);
	tt_backend_free(r.b);
	tt_device_close(dev);
	return ex_verdict(NAME, r.checked && r.bad == 0, detail);
}
