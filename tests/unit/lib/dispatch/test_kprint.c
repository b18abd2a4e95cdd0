// SPDX-License-Identifier: Apache-2.0
/*
 * Kernel printing on the host (lib/dispatch/kprint*.c): which cores print
 * (TT_DPRINT_CORES and its TT-Metal synonym, parsed and checked against
 * the grid), and, end to end on the embedded model, that only the
 * selected cores' lines reach the log, each named by its core and
 * processor, with the choice made again at every launch.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/dispatch/kprint_cores.h"
#include "testutil.h"
#include "tmpdir.h"

static struct tt_kprint_sel sel;

static int parse(const char *spec)
{
	return tt_kprint_parse_cores(spec, "TT_DPRINT_CORES", 8, 8, &sel);
}

static bool on(unsigned x, unsigned y)
{
	return tt_kprint_core_on(&sel, (struct tt_xy){ x, y });
}

static void test_parse_forms(void **state)
{
	(void)state;
	assert_int_equal(parse("all"), 0);
	assert_true(sel.all && on(7, 7) && on(0, 0));
	assert_int_equal(parse(" all "), 0);

	assert_int_equal(parse("1,2"), 0);
	assert_true(on(1, 2) && !on(2, 1) && !on(1, 1));
	assert_int_equal(parse("(3,4)"), 0);
	assert_true(on(3, 4) && !on(4, 3));
	assert_int_equal(parse("(1,1)-(2,3)"), 0);
	assert_true(on(1, 1) && on(2, 3) && on(2, 2) && !on(3, 3) &&
		    !on(0, 1) && !on(1, 4));
	/* Lists: ';', ',' or spaces between items, bare or in parentheses. */
	assert_int_equal(parse("0,0;7,7"), 0);
	assert_true(on(0, 0) && on(7, 7) && !on(0, 7) && sel.n == 2);
	assert_int_equal(parse("(0,0),(1,1) (2,2) ; (3,3)-(4,4)"), 0);
	assert_int_equal(sel.n, 4);
	assert_true(on(4, 3) && on(2, 2) && !on(5, 5));
	/* The grid's last core is in it; the next is not. */
	assert_int_equal(parse("(7,7)"), 0);
	assert_int_equal(parse("(8,7)"), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "8 is outside the 8x8"));
	assert_int_equal(parse("7,8"), -EINVAL);
}

static void test_parse_refusals(void **state)
{
	static const struct {
		const char *spec, *says;
	} bad[] = {
		{ "", "no core" },
		{ "   ", "no core" },
		{ "x", "expected a number at 'x'" },
		{ "1", "expected ','" },
		{ "1,", "expected a number" },
		{ "(1,1", "expected ')'" },
		{ "1,1)", "expected a number at ')'" },
		{ "(2,2)-(1,1)", "top-left core to its bottom-right" },
		{ "(1,1)-", "expected a number" },
		{ "all,1,1", "nothing may follow 'all'" },
		{ "-1,0", "expected a number at '-1,0'" },
		{ "99999999999999999999,0", "outside the 8x8" },
	};
	char many[256] = "";

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].spec), -EINVAL);
		if (!strstr(tt_last_error(), bad[i].says) ||
		    !strstr(tt_last_error(), "TT_DPRINT_CORES="))
			fail_msg("'%s': %s", bad[i].spec, tt_last_error());
		assert_false(sel.on); /* nothing half-parsed stays */
	}
	/* 16 ranges fit; the 17th does not. */
	for (unsigned i = 0; i < 16; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many),
			 "(%u,%u);", i % 8, i / 8);
	assert_int_equal(parse(many), 0);
	assert_int_equal(sel.n, 16);
	strcat(many, "(0,7)");
	assert_int_equal(parse(many), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "at most 16"));
}

/* ---- end to end ---- */

static const char *const hello =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	DPRINT(\"hello %u %u\\n\", (unsigned)get_arg_val(0),\n"
	"	       (unsigned)get_arg_val(1));\n"
	"}\n";

static char log_path[512];

/* Run hello on logical cores (0,0)-(1,1); the lines it logged. */
static int run_hello(tt_device *dev, char *out, size_t len)
{
	struct tt_core_range_set cores = tt_core_range_set_of_range(0, 0, 1, 1);
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p;
	FILE *f;
	long start;
	size_t n;
	int ret;

	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_kernel_from_string(p, hello, &cores, NULL,
						      &k), 0);
	for (unsigned y = 0; y < 2; y++)
		for (unsigned x = 0; x < 2; x++) {
			uint32_t args[2] = { x, y };

			assert_int_equal(tt_set_runtime_args(p, k,
							     (struct tt_xy){ x, y },
							     args, 2), 0);
		}
	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	/* libtt keeps the log open and appends: read what this run added. */
	f = fopen(log_path, "a+");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	start = ftell(f);
	ret = tt_enqueue_program(cq, p, true);
	tt_program_free(p);
	fseek(f, start, SEEK_SET);
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	fclose(f);
	return ret;
}

static unsigned lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_only_selected_cores_print(void **state)
{
	tt_device *dev = *state;
	char out[4096];

	setenv("TT_DPRINT_FILE", log_path, 1);
	unsetenv("TT_DPRINT");
	setenv("TT_DPRINT_CORES", "(1,0)", 1);
	assert_int_equal(run_hello(dev, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "core (1,0) BRISC: hello 1 0\n"));
	assert_int_equal(lines(out), 1);

	/* Chosen again at the next launch of the same program. */
	setenv("TT_DPRINT_CORES", "(0,1);(1,1)", 1);
	assert_int_equal(run_hello(dev, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "core (0,1) BRISC: hello 0 1\n"));
	assert_non_null(strstr(out, "core (1,1) BRISC: hello 1 1\n"));
	assert_int_equal(lines(out), 2);

	/* TT-Metal's name does the same; TT_DPRINT alone prints all. */
	unsetenv("TT_DPRINT_CORES");
	setenv("TT_METAL_DPRINT_CORES", "0,0", 1);
	assert_int_equal(run_hello(dev, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "hello 0 0\n"));
	assert_int_equal(lines(out), 1);
	unsetenv("TT_METAL_DPRINT_CORES");
	setenv("TT_DPRINT", "1", 1);
	assert_int_equal(run_hello(dev, out, sizeof(out)), 0);
	assert_int_equal(lines(out), 4);
	unsetenv("TT_DPRINT");
	assert_int_equal(run_hello(dev, out, sizeof(out)), 0);
	assert_int_equal(lines(out), 0);
}

static void test_bad_selection_refuses_the_launch(void **state)
{
	tt_device *dev = *state;
	char out[512];

	setenv("TT_DPRINT_FILE", log_path, 1);
	setenv("TT_DPRINT_CORES", "(1,1)-(0,0)", 1);
	assert_int_equal(run_hello(dev, out, sizeof(out)), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "TT_DPRINT_CORES='(1,1)-(0,0)'"));
	setenv("TT_DPRINT_CORES", "(0,0)", 1);
	setenv("TT_METAL_DPRINT_CORES", "(1,1)", 1);
	assert_int_equal(run_hello(dev, out, sizeof(out)), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "are both set and differ"));
	/* The same value under both names is fine. */
	setenv("TT_METAL_DPRINT_CORES", "(0,0)", 1);
	assert_int_equal(run_hello(dev, out, sizeof(out)), 0);
	assert_int_equal(lines(out), 1);
	unsetenv("TT_DPRINT_CORES");
	unsetenv("TT_METAL_DPRINT_CORES");
}

static int up(void **state)
{
	static char dir[256];

	if (!test_mkdtemp(dir, sizeof(dir), "tt-kprint"))
		return -1;
	snprintf(log_path, sizeof(log_path), "%s/dprint.log", dir);
	return booted_up(state);
}

int main(void)
{
	const struct CMUnitTest parsing[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_refusals),
	};
	const struct CMUnitTest e2e[] = {
		cmocka_unit_test(test_only_selected_cores_print),
		cmocka_unit_test(test_bad_selection_refuses_the_launch),
	};

	return cmocka_run_group_tests_name("kprint_parse", parsing, NULL,
					   NULL) +
	       cmocka_run_group_tests_name("kprint", e2e, up, booted_down);
}
