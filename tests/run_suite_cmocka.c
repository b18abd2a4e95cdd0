// SPDX-License-Identifier: Apache-2.0
/*
 * The real cmocka's TAP, for tests/test_run_suite.py: one case passes, one
 * is skipped, one fails. Not a Meson test (its skip and failure are on
 * purpose): only test_run_suite.py runs it, through tests/run-suite.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void passes(void **state)
{
	(void)state;
	assert_int_equal(1, 1);
}

static void is_skipped(void **state)
{
	(void)state;
	skip();
}

static void fails(void **state)
{
	(void)state;
	assert_int_equal(1, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(passes),
		cmocka_unit_test(is_skipped),
		cmocka_unit_test(fails),
	};

	return cmocka_run_group_tests_name("run_suite_cmocka", tests, NULL,
					   NULL);
}
