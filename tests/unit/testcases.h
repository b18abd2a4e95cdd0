/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which transport the device-layer tests run on, and which of their cases.
 * On the host they run on the embedded model. tests/vm runs some of them in
 * a QEMU guest against /dev/tenstorrent/0 of tenstorrent.ko, whose chip is
 * the model served by ttsim (TT_TEST_TRANSPORT=kmd): there only the cases a
 * program names as applying to a live device behind the driver run (the
 * others change the model's own set-up, need a blank chip, or need the
 * embedded or ttsim transports); TT_TEST_CASES=kmd runs the same cases on
 * any transport. Include after <cmocka.h>.
 */
#ifndef TT_TESTS_TESTCASES_H
#define TT_TESTS_TESTCASES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "embedded", or what TT_TEST_TRANSPORT says. */
static inline const char *test_transport(void)
{
	const char *b = getenv("TT_TEST_TRANSPORT");

	return b && *b ? b : "embedded";
}

static inline bool test_on_kmd(void)
{
	return !strcmp(test_transport(), "kmd");
}

/* The cases named for kmd: on kmd, or where TT_TEST_CASES=kmd asks for
 * them on another transport (tests/vm/run-vm fills the guest's kernel
 * cache by running the op suites' kmd cases on the host). */
static inline bool test_kmd_cases(void)
{
	const char *c = getenv("TT_TEST_CASES");

	return test_on_kmd() || (c && !strcmp(c, "kmd"));
}

static inline bool name_listed(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/*
 * Run a group; on kmd only the cases named in `kmd` (NULL-terminated).
 * A name in `kmd` that is no case of the group fails the run, so a
 * renamed test is never dropped silently.
 */
static inline int run_group(const char *group, const struct CMUnitTest *tests,
			    size_t n, CMFixtureFunction setup,
			    CMFixtureFunction teardown, const char *const *kmd)
{
	struct CMUnitTest *pick;
	size_t k = 0;
	int ret;

	if (!test_kmd_cases())
		return _cmocka_run_group_tests(group, tests, n, setup,
					       teardown);
	for (const char *const *p = kmd; *p; p++) {
		bool found = false;

		for (size_t i = 0; i < n; i++)
			found = found || !strcmp(tests[i].name, *p);
		if (!found) {
			fprintf(stderr, "%s: no case %s\n", group, *p);
			return 1;
		}
	}
	pick = calloc(n, sizeof(*pick));
	if (!pick)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (name_listed(tests[i].name, kmd))
			pick[k++] = tests[i];
	ret = _cmocka_run_group_tests(group, pick, k, setup, teardown);
	free(pick);
	return ret;
}

#define RUN_GROUP(group, tests, setup, teardown, kmd)                          \
	run_group(group, tests, sizeof(tests) / sizeof((tests)[0]), setup,     \
		  teardown, kmd)

#endif /* TT_TESTS_TESTCASES_H */
