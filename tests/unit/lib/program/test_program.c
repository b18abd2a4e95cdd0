// SPDX-License-Identifier: Apache-2.0
/*
 * The program API without a device (tt/program.h): kernels and their
 * configs, path resolution, one kernel per processor, circular buffer
 * rules and updates, semaphore ids, runtime argument limits and fixed
 * counts, and every NULL argument. Layout and finalize are in
 * test_program_finalize.c, descriptors in test_program_desc.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/program/program_internal.h"
#include "tmpdir.h"
#include "tt.h"

#define assert_error_contains(s)                                         \
	do {                                                             \
		if (!strstr(tt_last_error(), (s)))                       \
			fail_msg("error '%s' lacks '%s'", tt_last_error(), \
				 (s));                                   \
	} while (0)

static const char src[] = "void kernel_main(void) {}\n";

static struct tt_xy xy(unsigned x, unsigned y)
{
	struct tt_xy c = { x, y };

	return c;
}

static int new_program(void **state)
{
	tt_program *p;

	if (tt_create_program(&p))
		return -1;
	*state = p;
	return 0;
}

static int free_program(void **state)
{
	tt_program_free(*state);
	return 0;
}

/* A kernel from a string on a range with config c; returns its handle. */
static tt_kernel_handle kernel_on(tt_program *p, struct tt_core_range_set s,
				  const struct tt_kernel_config *c)
{
	tt_kernel_handle k = 99;

	if (tt_create_kernel_from_string(p, src, &s, c, &k))
		fail_msg("%s", tt_last_error());
	return k;
}

/* ---- programs and kernels ---- */

static void test_create_and_free(void **state)
{
	tt_program *a, *b;

	(void)state;
	assert_int_equal(tt_create_program(NULL), -EINVAL);
	assert_int_equal(tt_create_program(&a), 0);
	assert_int_equal(tt_create_program(&b), 0);
	assert_true(tt_program_id(b) > tt_program_id(a));
	assert_int_equal(tt_program_num_kernels(a), 0);
	tt_program_free(a);
	tt_program_free(b);
	tt_program_free(NULL);
}

static void test_kernel_configs(void **state)
{
	struct tt_kernel_config c;

	(void)state;
	c = tt_data_movement_config(TT_RISCV_0);
	assert_int_equal(c.type, TT_KERNEL_DATA_MOVEMENT);
	assert_int_equal(c.noc, TT_NOC_0);
	c = tt_data_movement_config(TT_RISCV_1);
	assert_int_equal(c.processor, TT_RISCV_1);
	assert_int_equal(c.noc, TT_NOC_1);
	c = tt_reader_config();
	assert_int_equal(c.type, TT_KERNEL_READER);
	assert_int_equal(c.processor, TT_RISCV_1);
	assert_int_equal(c.noc, TT_NOC_1);
	c = tt_writer_config();
	assert_int_equal(c.type, TT_KERNEL_WRITER);
	assert_int_equal(c.processor, TT_RISCV_0);
	assert_int_equal(c.noc, TT_NOC_0);
	c = tt_compute_config();
	assert_int_equal(c.type, TT_KERNEL_COMPUTE);
	assert_int_equal(c.math_fidelity, TT_HIFI4);
	assert_false(c.fp32_dest_acc_en || c.dst_full_sync_en ||
		     c.math_approx_mode);
	assert_int_equal(c.opt_level, TT_OPT_DEFAULT);
}

/* Where each config puts the kernel: processor, NOC, optimisation. */
static void test_kernel_placement_by_config(void **state)
{
	tt_program *p = *state;
	struct tt_kernel_config c = tt_data_movement_config(TT_RISCV_1);
	const struct tt_program_kernel *k;
	tt_kernel_handle h;

	c.noc = TT_NOC_0; /* explicit NOC wins */
	h = kernel_on(p, tt_core_range_set_of_core(0, 0), &c);
	k = tt_program_kernel(p, h);
	assert_int_equal(k->proc, TT_KPROC_NCRISC);
	assert_int_equal(k->noc, 0);
	assert_string_equal(p->kernels[h]->opt, "O2");

	c = tt_writer_config();
	h = kernel_on(p, tt_core_range_set_of_core(0, 0), &c);
	assert_int_equal(tt_program_kernel(p, h)->proc, TT_KPROC_BRISC);
	assert_int_equal(tt_program_kernel(p, h)->noc, 0);

	c = tt_compute_config();
	c.math_fidelity = TT_LOFI;
	c.fp32_dest_acc_en = true;
	c.math_approx_mode = true;
	h = kernel_on(p, tt_core_range_set_of_core(0, 0), &c);
	k = tt_program_kernel(p, h);
	assert_int_equal(k->proc, TT_KPROC_COMPUTE);
	assert_string_equal(p->kernels[h]->opt, "O3");
	assert_int_equal(p->kernels[h]->math_fidelity, 0);
	assert_true(p->kernels[h]->fp32_dest_acc);
	assert_true(p->kernels[h]->math_approx);
	assert_false(p->kernels[h]->dst_full_sync);

	/* NULL config: data movement on RISCV_0, NOC 0. */
	c = tt_reader_config();
	h = kernel_on(p, tt_core_range_set_of_core(1, 0), &c);
	assert_int_equal(tt_program_kernel(p, h)->proc, TT_KPROC_NCRISC);
	assert_int_equal(tt_program_kernel(p, h)->noc, 1);
	h = kernel_on(p, tt_core_range_set_of_core(1, 0), NULL);
	assert_int_equal(tt_program_kernel(p, h)->proc, TT_KPROC_BRISC);
	assert_int_equal(tt_program_kernel(p, h)->noc, 0);
	assert_string_equal(tt_program_kernel(p, h)->name, "<string 4>");
	assert_int_equal(tt_program_num_kernels(p), 5);
	assert_null(tt_program_kernel(p, 5));
}

static void test_kernel_config_errors(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_core(0, 0);
	struct tt_define bad_name = { "1X", "2" }, bad_value = { "X", "a\nb" };
	struct tt_kernel_config c;
	tt_kernel_handle k;

	c = tt_data_movement_config(TT_RISCV_0);
	c.processor = (enum tt_dm_processor)2;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	assert_error_contains("processor 2");
	c = tt_data_movement_config(TT_RISCV_0);
	c.noc = (enum tt_noc)2;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	assert_error_contains("NOC 2");
	c = tt_compute_config();
	c.math_fidelity = (enum tt_math_fidelity)1;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	assert_error_contains("math fidelity 1");
	c = tt_compute_config();
	c.opt_level = (enum tt_opt_level)99;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	assert_error_contains("optimisation level 99");
	c = tt_compute_config();
	c.compile_arg_count = 2;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	assert_error_contains("2 compile-time args");
	c = tt_compute_config();
	c.define_count = 1;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	c.defines = &bad_name;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	assert_error_contains("'1X' is not a C identifier");
	c.defines = &bad_value;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	assert_error_contains("define X");
	c.type = (enum tt_kernel_type)9;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -EINVAL);
	assert_error_contains("kernel type 9");

	/* Ethernet kernels: accepted as a type, refused clearly. */
	c.type = TT_KERNEL_ETHERNET;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &k),
			 -ENOTSUP);
	assert_error_contains("no Ethernet cores");

	assert_int_equal(tt_create_kernel_from_string(p, "", &s, NULL, &k),
			 -EINVAL);
	assert_error_contains("source is empty");
	assert_int_equal(tt_program_num_kernels(p), 0);
}

static void test_kernel_copies_config(void **state)
{
	tt_program *p = *state;
	uint32_t args[3] = { 7, 8, 9 };
	char name[8] = "BLOCK", value[8] = "32";
	struct tt_define d = { name, value };
	struct tt_kernel_config c = tt_compute_config();
	struct tt_kernel_obj *k;

	c.compile_args = args;
	c.compile_arg_count = 3;
	c.defines = &d;
	c.define_count = 1;
	c.opt_level = TT_OPT_OS;
	kernel_on(p, tt_core_range_set_of_core(0, 0), &c);
	/* The caller's arrays may change afterwards. */
	args[0] = 0;
	strcpy(name, "X");
	strcpy(value, "0");
	k = p->kernels[0];
	assert_int_equal(k->ct_count, 3);
	assert_int_equal(k->ct_args[0], 7);
	assert_int_equal(k->define_count, 1);
	assert_string_equal(k->defines[0].name, "BLOCK");
	assert_string_equal(k->defines[0].value, "32");
	assert_string_equal(k->opt, "Os");
	assert_string_equal(k->source, src);
	assert_null(k->path);
}

/* Named compile-time args: copied at creation, every bad form refused
 * naming it, and at most TT_MAX_NAMED_COMPILE_ARGS. */
static void test_named_compile_args(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_core(0, 0);
	static struct tt_named_arg many[TT_MAX_NAMED_COMPILE_ARGS + 1];
	static char names[TT_MAX_NAMED_COMPILE_ARGS + 1][8];
	char name[8] = "tiles", longname[TT_NAMED_ARG_NAME_MAX + 2];
	struct tt_named_arg good[2] = { { name, 8 }, { "cb_out", 16 } };
	struct tt_named_arg twice[2] = { { "a", 1 }, { "a", 2 } };
	struct tt_named_arg bad[1] = { { "a-b", 1 } };
	struct tt_kernel_config c = tt_reader_config();
	struct tt_kernel_obj *k;
	tt_kernel_handle h;

	c.named_compile_args = good;
	c.named_compile_arg_count = 2;
	kernel_on(p, s, &c);
	strcpy(name, "x"); /* the caller's strings may change afterwards */
	good[0].value = 0;
	k = p->kernels[0];
	assert_int_equal(k->named_count, 2);
	assert_string_equal(k->named[0].name, "tiles");
	assert_int_equal(k->named[0].value, 8);
	assert_string_equal(k->named[1].name, "cb_out");
	assert_int_equal(k->named[1].value, 16);

	c = tt_writer_config();
	c.named_compile_arg_count = 1;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &h),
			 -EINVAL);
	assert_error_contains("1 named compile-time args but named_compile_args is NULL");
	c.named_compile_args = bad;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &h),
			 -EINVAL);
	assert_error_contains("named compile-time arg 0: name 'a-b' is not a C identifier");
	bad[0].name = NULL;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &h),
			 -EINVAL);
	assert_error_contains("name '(null)'");
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	bad[0].name = longname;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &h),
			 -EINVAL);
	assert_error_contains("at most 128 characters");
	longname[TT_NAMED_ARG_NAME_MAX] = 0; /* 128 is fine */
	c.named_compile_args = twice;
	c.named_compile_arg_count = 2;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &h),
			 -EINVAL);
	assert_error_contains("named compile-time arg 'a' is given twice (0 and 1)");
	for (unsigned i = 0; i <= TT_MAX_NAMED_COMPILE_ARGS; i++) {
		snprintf(names[i], sizeof(names[i]), "n%u", i);
		many[i].name = names[i];
	}
	c.named_compile_args = many;
	c.named_compile_arg_count = TT_MAX_NAMED_COMPILE_ARGS + 1;
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, &c, &h),
			 -E2BIG);
	assert_error_contains("257 named compile-time args, at most 256");
	assert_int_equal(tt_program_num_kernels(p), 1);
	bad[0].name = longname;
	c.named_compile_args = bad;
	c.named_compile_arg_count = 1;
	kernel_on(p, s, &c);
	c = tt_compute_config();
	c.named_compile_args = many;
	c.named_compile_arg_count = TT_MAX_NAMED_COMPILE_ARGS;
	kernel_on(p, s, &c);
}

static void test_one_kernel_per_processor(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set a = tt_core_range_set_of_range(0, 0, 1, 1);
	struct tt_core_range_set b = tt_core_range_set_of_range(1, 1, 2, 2);
	struct tt_core_range_set far = tt_core_range_set_of_range(5, 5, 6, 6);
	struct tt_kernel_config dm0 = tt_data_movement_config(TT_RISCV_0);
	struct tt_kernel_config w = tt_writer_config();
	struct tt_kernel_config r = tt_reader_config();
	struct tt_kernel_config cc = tt_compute_config();
	tt_kernel_handle k = 77;

	assert_int_equal(kernel_on(p, a, &dm0), 0);
	/* The writer runs on RISCV_0 as well: core (1,1) is taken. */
	assert_int_equal(tt_create_kernel_from_string(p, src, &b, &w, &k),
			 -EEXIST);
	assert_error_contains("kernel 1 (<string 1>) and kernel 0 (<string 0>) would both run on RISCV_0 (BRISC) of core (1,1)");
	assert_int_equal(k, 77);
	assert_int_equal(tt_program_num_kernels(p), 1);
	/* Other processors of the same cores are free. */
	assert_int_equal(kernel_on(p, b, &r), 1);
	assert_int_equal(kernel_on(p, a, &cc), 2);
	assert_int_equal(tt_create_kernel_from_string(p, src, &b, &cc, &k),
			 -EEXIST);
	assert_error_contains("the compute processor of core (1,1)");
	assert_int_equal(tt_create_kernel_from_string(p, src, &a, &r, &k),
			 -EEXIST);
	assert_error_contains("RISCV_1 (NCRISC) of core (1,1)");
	/* Disjoint cores: no conflict. */
	assert_int_equal(kernel_on(p, far, &w), 3);
	assert_int_equal(kernel_on(p, far, &cc), 4);
}

static void test_bad_core_ranges(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set back = tt_core_range_set_of_range(3, 0, 1, 0);
	struct tt_core_range_set e = { 0 };
	struct tt_core_range_set *two = calloc(1, sizeof(*two));
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(2048, 0, TT_FLOAT16_B, 2048);
	tt_kernel_handle k;
	tt_cb_handle cb;
	uint32_t id;

	assert_int_equal(tt_create_kernel_from_string(p, src, &back, NULL, &k),
			 -EINVAL);
	assert_error_contains("tt_create_kernel_from_string: core range (3,0)-(1,0): end before start");
	assert_int_equal(tt_create_kernel_from_string(p, src, &e, NULL, &k),
			 -EINVAL);
	assert_error_contains("empty");
	assert_int_equal(tt_create_kernel_from_string(p, src, NULL, NULL, &k),
			 -EINVAL);
	assert_error_contains("core range set is NULL");
	/* A set filled in by hand with overlapping ranges. */
	two->count = 2;
	two->ranges[0] = tt_core_range(0, 0, 2, 2);
	two->ranges[1] = tt_core_range(2, 0, 3, 0);
	assert_int_equal(tt_create_kernel_from_string(p, src, two, NULL, &k),
			 -EINVAL);
	assert_error_contains("overlap");
	two->count = TT_CORE_RANGE_SET_MAX + 1;
	assert_int_equal(tt_create_kernel_from_string(p, src, two, NULL, &k),
			 -EINVAL);

	assert_int_equal(tt_create_circular_buffer(p, &back, &c, &cb),
			 -EINVAL);
	assert_error_contains("tt_create_circular_buffer: core range (3,0)-(1,0): end before start");
	assert_int_equal(tt_create_semaphore(p, &back, 0, TT_CORE_TENSIX, &id),
			 -EINVAL);
	assert_error_contains("tt_create_semaphore: core range (3,0)-(1,0)");
	assert_int_equal(tt_create_semaphore(p, &e, 0, TT_CORE_TENSIX, &id),
			 -EINVAL);
	assert_int_equal(p->nkernels + p->ncbs + p->nsems, 0);
	free(two);
}

/* ---- kernel paths ---- */

struct paths {
	char root[256], a[300], b[300], home[300], cwd[4096];
};

static void write_file(const char *dir, const char *name)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
}

static void make_paths(struct paths *t)
{
	assert_non_null(test_mkdtemp(t->root, sizeof(t->root), "tt-kpath"));
	snprintf(t->a, sizeof(t->a), "%s/a", t->root);
	snprintf(t->b, sizeof(t->b), "%s/b", t->root);
	snprintf(t->home, sizeof(t->home), "%s/home", t->root);
	assert_int_equal(mkdir(t->a, 0700), 0);
	assert_int_equal(mkdir(t->b, 0700), 0);
	assert_int_equal(mkdir(t->home, 0700), 0);
	assert_non_null(getcwd(t->cwd, sizeof(t->cwd)));
}

static void clean_paths(struct paths *t)
{
	char cmd[400];

	assert_int_equal(chdir(t->cwd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	assert_int_equal(system(cmd), 0);
	unsetenv("TT_KERNEL_PATH");
	unsetenv("TT_METAL_HOME");
}

/* Create a kernel from path; returns the resolved path (static). */
static const char *resolved(tt_program *p, const char *path)
{
	struct tt_core_range_set s =
		tt_core_range_set_of_core(p->nkernels, 0);
	tt_kernel_handle k;

	if (tt_create_kernel(p, path, &s, NULL, &k))
		fail_msg("%s", tt_last_error());
	assert_string_equal(tt_program_kernel(p, k)->name, path);
	return p->kernels[k]->path;
}

static void test_kernel_path_resolution(void **state)
{
	tt_program *p = *state;
	char want[700], env[700];
	struct paths t;

	make_paths(&t);
	write_file(t.a, "k_abs.c");
	write_file(t.a, "k_cwd.c");
	write_file(t.b, "k_kp.c");
	write_file(t.home, "k_home.c");
	write_file(t.home, "k_kp.c"); /* shadowed by TT_KERNEL_PATH */

	/* Absolute. */
	snprintf(want, sizeof(want), "%s/k_abs.c", t.a);
	assert_string_equal(resolved(p, want), want);
	/* Relative to the working directory (stored absolute). */
	assert_int_equal(chdir(t.a), 0);
	assert_non_null(getcwd(env, sizeof(env)));
	snprintf(want, sizeof(want), "%s/k_cwd.c", env);
	assert_string_equal(resolved(p, "k_cwd.c"), want);
	/* Relative to TT_KERNEL_PATH, each directory in turn, before
	 * TT_METAL_HOME. */
	snprintf(env, sizeof(env), "%s::/nonexistent:%s", t.home, t.b);
	setenv("TT_KERNEL_PATH", env, 1);
	setenv("TT_METAL_HOME", t.home, 1);
	snprintf(want, sizeof(want), "%s/k_kp.c", t.home);
	assert_string_equal(resolved(p, "k_kp.c"), want);
	snprintf(env, sizeof(env), "/nonexistent:%s", t.b);
	setenv("TT_KERNEL_PATH", env, 1);
	snprintf(want, sizeof(want), "%s/k_kp.c", t.b);
	assert_string_equal(resolved(p, "k_kp.c"), want);
	/* Relative to TT_METAL_HOME. */
	snprintf(want, sizeof(want), "%s/k_home.c", t.home);
	assert_string_equal(resolved(p, "k_home.c"), want);
	clean_paths(&t);
}

/* TT-Metal's TT_METAL_KERNEL_PATH is TT_KERNEL_PATH by another name:
 * either may be set, both only to the same value. */
static void test_metal_kernel_path(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_core(0, 0);
	char want[700], env[700];
	tt_kernel_handle k;
	struct paths t;

	make_paths(&t);
	write_file(t.b, "k_kp.c");
	unsetenv("TT_KERNEL_PATH");
	unsetenv("TT_METAL_HOME");
	snprintf(env, sizeof(env), "/nonexistent:%s", t.b);
	setenv("TT_METAL_KERNEL_PATH", env, 1);
	snprintf(want, sizeof(want), "%s/k_kp.c", t.b);
	assert_string_equal(resolved(p, "k_kp.c"), want);
	setenv("TT_KERNEL_PATH", env, 1); /* the same: fine */
	assert_string_equal(resolved(p, "k_kp.c"), want);
	setenv("TT_KERNEL_PATH", "", 1); /* empty is unset */
	assert_string_equal(resolved(p, "k_kp.c"), want);
	setenv("TT_KERNEL_PATH", t.b, 1);
	assert_int_equal(tt_create_kernel(p, "k_kp.c", &s, NULL, &k), -EINVAL);
	snprintf(want, sizeof(want),
		 "tt_create_kernel: kernel file 'k_kp.c': TT_KERNEL_PATH='%s' and TT_METAL_KERNEL_PATH='%s' are both set and differ",
		 t.b, env);
	assert_error_contains(want);
	unsetenv("TT_KERNEL_PATH");
	unsetenv("TT_METAL_KERNEL_PATH");
	assert_int_equal(tt_create_kernel(p, "k_kp.c", &s, NULL, &k), -ENOENT);
	clean_paths(&t);
}

static void test_kernel_file_not_found(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_core(0, 0);
	char want[700], env[700];
	tt_kernel_handle k;
	struct paths t;

	make_paths(&t);
	assert_int_equal(chdir(t.a), 0);
	snprintf(env, sizeof(env), "%s:%s", t.b, t.home);
	setenv("TT_KERNEL_PATH", env, 1);
	setenv("TT_METAL_HOME", t.home, 1);
	assert_int_equal(tt_create_kernel(p, "nope.c", &s, NULL, &k), -ENOENT);
	assert_error_contains("tt_create_kernel: kernel file 'nope.c' not found; tried ");
	/* Every place tried, in order. */
	assert_non_null(getcwd(env, sizeof(env)));
	snprintf(want, sizeof(want), "%s/nope.c, %s/nope.c, %s/nope.c, %s/nope.c",
		 env, t.b, t.home, t.home);
	assert_error_contains(want);

	unsetenv("TT_KERNEL_PATH");
	unsetenv("TT_METAL_HOME");
	assert_int_equal(tt_create_kernel(p, "nope.c", &s, NULL, &k), -ENOENT);
	assert_error_contains("(TT_KERNEL_PATH and TT_METAL_KERNEL_PATH unset), (TT_METAL_HOME unset)");

	snprintf(want, sizeof(want), "%s/nope.c", t.a);
	assert_int_equal(tt_create_kernel(p, want, &s, NULL, &k), -ENOENT);
	assert_error_contains(want);
	/* A directory is not a kernel file. */
	assert_int_equal(tt_create_kernel(p, t.b, &s, NULL, &k), -ENOENT);
	assert_int_equal(tt_create_kernel(p, "", &s, NULL, &k), -EINVAL);
	assert_int_equal(tt_program_num_kernels(p), 0);
	clean_paths(&t);
}

/* ---- circular buffers ---- */

static void test_cb_config_helpers(void **state)
{
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(4096, 3, TT_BFP8_B, 1088);

	(void)state;
	assert_int_equal(c.total_size, 4096);
	assert_int_equal(c.format_count, 1);
	assert_int_equal(c.formats[0].buffer_index, 3);
	assert_int_equal(c.formats[0].data_format, TT_BFP8_B);
	assert_int_equal(c.formats[0].page_size, 1088);
	assert_null(c.buffer);
	assert_int_equal(tt_circular_buffer_config_add(&c, 4, TT_FLOAT32, 4096),
			 0);
	assert_int_equal(c.format_count, 2);
	assert_int_equal(tt_circular_buffer_config_add(&c, 3, TT_FLOAT32, 4096),
			 -EINVAL);
	assert_error_contains("CB index 3 is already in the config");
	assert_int_equal(tt_circular_buffer_config_add(&c, 32, TT_FLOAT32, 4),
			 -EINVAL);
	assert_error_contains("CB index 32 out of range (0..31)");
	for (unsigned i = 0; i < TT_NUM_CIRCULAR_BUFFERS; i++)
		tt_circular_buffer_config_add(&c, i, TT_FLOAT32, 4);
	assert_int_equal(c.format_count, 32);
	assert_int_equal(tt_circular_buffer_config_add(&c, 0, TT_FLOAT32, 4),
			 -E2BIG);
	assert_int_equal(tt_circular_buffer_config_add(NULL, 0, TT_FLOAT32, 4),
			 -EINVAL);
}

static int cb_error(tt_program *p, const struct tt_circular_buffer_config *c)
{
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 1, 1);
	tt_cb_handle h = 1234;
	int ret = tt_create_circular_buffer(p, &s, c, &h);

	assert_int_equal(h, 1234);
	return ret;
}

static void test_cb_config_errors(void **state)
{
	tt_program *p = *state;
	struct tt_circular_buffer_config c;

	c = tt_circular_buffer_config(4096, 32, TT_FLOAT16_B, 2048);
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("tt_create_circular_buffer: CB index 32 out of range (0..31)");
	c = tt_circular_buffer_config(4096, 1, TT_FLOAT16_B, 2048);
	c.formats[1] = c.formats[0];
	c.format_count = 2;
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("CB index 1 appears twice");
	c = tt_circular_buffer_config(3000, 0, TT_FLOAT16_B, 2048);
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("CB index 0: total size 3000 is not a multiple of the page size 2048");
	c = tt_circular_buffer_config(4096, 0, TT_FLOAT16_B, 2048);
	assert_int_equal(tt_circular_buffer_config_add(&c, 1, TT_BFP8_B, 1088),
			 0);
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("CB index 1: total size 4096 is not a multiple of the page size 1088");
	c = tt_circular_buffer_config(4096, 0, TT_FLOAT16_B, 0);
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("CB index 0: page size 0");
	c = tt_circular_buffer_config(4096, 0, (enum tt_data_format)4, 2048);
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("CB index 0: 4 is not a data format");
	c.formats[0].data_format = TT_INVALID;
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("255 is not a data format");
	c = tt_circular_buffer_config(0, 0, TT_FLOAT16_B, 2048);
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("total size 0");
	c = tt_circular_buffer_config(4096, 0, TT_FLOAT16_B, 2048);
	c.format_count = 0;
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_error_contains("0 buffer indices");
	c.format_count = 33;
	assert_int_equal(cb_error(p, &c), -EINVAL);
	assert_int_equal(p->ncbs, 0);
}

static void test_cb_index_per_core(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set a = tt_core_range_set_of_range(0, 0, 1, 1);
	struct tt_core_range_set b = tt_core_range_set_of_range(1, 1, 3, 3);
	struct tt_core_range_set far = tt_core_range_set_of_range(4, 4, 4, 4);
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(4096, 5, TT_FLOAT16_B, 2048);
	tt_cb_handle h = 99;

	assert_int_equal(tt_circular_buffer_config_add(&c, 7, TT_FLOAT32, 4096),
			 0);
	assert_int_equal(tt_create_circular_buffer(p, &a, &c, &h), 0);
	assert_int_equal(h, 0);
	/* Index 7 again on overlapping cores: refused, naming index, core
	 * and the other CB. */
	c = tt_circular_buffer_config(4096, 7, TT_FLOAT16_B, 2048);
	assert_int_equal(tt_create_circular_buffer(p, &b, &c, &h), -EEXIST);
	assert_error_contains("CB index 7 on core (1,1) is already used by circular buffer 0");
	/* On other cores, or another index: fine. */
	assert_int_equal(tt_create_circular_buffer(p, &far, &c, &h), 0);
	assert_int_equal(h, 1);
	c.formats[0].buffer_index = 8;
	assert_int_equal(tt_create_circular_buffer(p, &b, &c, &h), 0);
	assert_int_equal(h, 2);
}

static void test_cb_too_many_on_a_core(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_core(2, 3);
	struct tt_circular_buffer_config c;
	tt_cb_handle h;

	for (unsigned i = 0; i < TT_NUM_CIRCULAR_BUFFERS; i++) {
		c = tt_circular_buffer_config(32, i, TT_UINT8, 32);
		assert_int_equal(tt_create_circular_buffer(p, &s, &c, &h), 0);
		assert_int_equal(h, i);
	}
	/* The 33rd CB on the core has no index left. */
	for (unsigned i = 0; i < TT_NUM_CIRCULAR_BUFFERS; i++) {
		c = tt_circular_buffer_config(32, i, TT_UINT8, 32);
		assert_int_equal(tt_create_circular_buffer(p, &s, &c, &h),
				 -EEXIST);
	}
	assert_error_contains("CB index 31 on core (2,3)");
	assert_int_equal(p->ncbs, TT_NUM_CIRCULAR_BUFFERS);
}

static void test_cb_get_and_update(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_core(0, 0);
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(8192, 0, TT_FLOAT16_B, 2048), got;
	tt_cb_handle h;

	assert_int_equal(tt_circular_buffer_config_add(&c, 16, TT_FLOAT32, 4096),
			 0);
	c.formats[5].page_size = 77; /* garbage beyond format_count */
	assert_int_equal(tt_create_circular_buffer(p, &s, &c, &h), 0);
	assert_int_equal(tt_get_circular_buffer_config(p, h, &got), 0);
	assert_int_equal(got.total_size, 8192);
	assert_int_equal(got.format_count, 2);
	assert_int_equal(got.formats[1].buffer_index, 16);
	assert_int_equal(got.formats[1].page_size, 4096);
	assert_int_equal(got.formats[5].page_size, 0);

	assert_int_equal(tt_update_circular_buffer_total_size(p, h, 16384), 0);
	assert_int_equal(tt_update_circular_buffer_page_size(p, h, 0, 1024), 0);
	assert_int_equal(tt_get_circular_buffer_config(p, h, &got), 0);
	assert_int_equal(got.total_size, 16384);
	assert_int_equal(got.formats[0].page_size, 1024);

	/* Every page size must still divide the total size. */
	assert_int_equal(tt_update_circular_buffer_total_size(p, h, 6144),
			 -EINVAL);
	assert_error_contains("total size 6144 is not a multiple of the page size 4096 of CB index 16");
	assert_int_equal(tt_update_circular_buffer_total_size(p, h, 0),
			 -EINVAL);
	assert_int_equal(tt_update_circular_buffer_page_size(p, h, 16, 3000),
			 -EINVAL);
	assert_error_contains("circular buffer 0, CB index 16: page size 3000 does not divide the total size 16384");
	assert_int_equal(tt_update_circular_buffer_page_size(p, h, 16, 0),
			 -EINVAL);
	assert_int_equal(tt_update_circular_buffer_page_size(p, h, 3, 1024),
			 -EINVAL);
	assert_error_contains("circular buffer 0 has no CB index 3");
	assert_int_equal(tt_update_circular_buffer_page_size(p, h, 40, 1024),
			 -EINVAL);
	assert_error_contains("CB index 40 out of range");
	assert_int_equal(tt_get_circular_buffer_config(p, h, &got), 0);
	assert_int_equal(got.total_size, 16384);
	assert_int_equal(got.formats[1].page_size, 4096);

	/* Static CBs have no buffer to move. */
	assert_int_equal(tt_update_dynamic_circular_buffer_address(
				 p, h, (tt_buffer *)&got),
			 -EINVAL);
	assert_error_contains("circular buffer 0 is static");

	assert_int_equal(tt_get_circular_buffer_config(p, 1, &got), -EINVAL);
	assert_error_contains("program");
	assert_error_contains("has no circular buffer 1 (it has 1)");
	assert_int_equal(tt_update_circular_buffer_total_size(p, 9, 4096),
			 -EINVAL);
	assert_int_equal(tt_update_circular_buffer_page_size(p, 9, 0, 4096),
			 -EINVAL);
}

/* ---- semaphores ---- */

static uint32_t sem(tt_program *p, struct tt_core_range_set s)
{
	uint32_t id = 99;

	if (tt_create_semaphore(p, &s, 0, TT_CORE_TENSIX, &id))
		fail_msg("%s", tt_last_error());
	return id;
}

/* TT-Metal's test_semaphores: creates on overlapping core sets give
 * 0, 0, 0, 1, 2, 3, 0. */
static void test_semaphore_ids(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set all = tt_core_range_set_of_range(0, 0, 3, 3);

	assert_int_equal(sem(p, tt_core_range_set_of_range(0, 0, 1, 1)), 0);
	assert_int_equal(sem(p, tt_core_range_set_of_range(2, 0, 3, 1)), 0);
	assert_int_equal(sem(p, tt_core_range_set_of_range(0, 2, 3, 3)), 0);
	assert_int_equal(sem(p, all), 1);
	assert_int_equal(sem(p, all), 2);
	assert_int_equal(sem(p, all), 3);
	assert_int_equal(sem(p, tt_core_range_set_of_range(4, 0, 5, 5)), 0);
	/* The lowest id free on every core of the set. */
	assert_int_equal(sem(p, tt_core_range_set_of_range(3, 3, 4, 4)), 4);
	assert_int_equal(sem(p, tt_core_range_set_of_range(5, 5, 5, 5)), 1);
}

/* The single-core and single-range forms are the set forms. */
static void test_core_and_range_forms(void **state)
{
	tt_program *p = *state;
	struct tt_kernel_config c = tt_reader_config();
	struct tt_core_range_set got;
	tt_kernel_handle k;
	uint32_t id;
	char path[4096];
	FILE *f;

	assert_int_equal(tt_create_kernel_from_string_on_core(
				 p, src, xy(2, 1), &c, &k), 0);
	assert_int_equal(k, 0);
	assert_int_equal(tt_kernel_get_cores(p, k, &got), 0);
	assert_int_equal(got.count, 1);
	assert_int_equal(tt_core_range_set_num_cores(&got), 1);
	assert_true(tt_core_range_set_contains(&got, xy(2, 1)));
	assert_int_equal(tt_create_kernel_from_string_on_range(
				 p, src, tt_core_range(0, 2, 3, 3), &c, &k), 0);
	assert_int_equal(tt_kernel_get_cores(p, k, &got), 0);
	assert_int_equal(tt_core_range_set_num_cores(&got), 8);
	/* Errors name these calls: a bad range, a core taken, NULLs. */
	assert_int_equal(tt_create_kernel_from_string_on_range(
				 p, src, tt_core_range(3, 0, 1, 0), &c, &k),
			 -EINVAL);
	assert_error_contains("tt_create_kernel_from_string_on_range");
	assert_int_equal(tt_create_kernel_from_string_on_core(
				 p, src, xy(1, 2), &c, &k), -EEXIST);
	assert_error_contains("tt_create_kernel_from_string_on_core: kernel 2");
	assert_int_equal(tt_create_kernel_from_string_on_core(
				 p, "", xy(7, 7), &c, &k), -EINVAL);
	/* From a file. */
	assert_non_null(getcwd(path, sizeof(path) - 16));
	strcat(path, "/k_cr.c");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
	assert_int_equal(tt_create_kernel_on_core(p, path, xy(5, 5), NULL, &k),
			 0);
	assert_int_equal(tt_create_kernel_on_range(p, path,
						   tt_core_range(6, 0, 6, 3),
						   NULL, &k), 0);
	assert_int_equal(tt_kernel_get_cores(p, k, &got), 0);
	assert_int_equal(tt_core_range_set_num_cores(&got), 4);
	assert_int_equal(tt_create_kernel_on_core(p, "/nonexistent/k.c",
						  xy(7, 7), NULL, &k),
			 -ENOENT);
	assert_error_contains("tt_create_kernel_on_core: kernel file");
	unlink(path);
	assert_int_equal(tt_program_num_kernels(p), 4);
	/* Semaphores. */
	assert_int_equal(tt_create_semaphore_on_core(p, xy(1, 1), 5,
						     TT_CORE_TENSIX, &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(tt_create_semaphore_on_range(p, tt_core_range(0, 0, 2, 2),
						      6, TT_CORE_TENSIX, &id),
			 0);
	assert_int_equal(id, 1); /* 0 is taken on (1,1) */
	assert_int_equal(tt_create_semaphore_on_range(p, tt_core_range(2, 2, 0, 0),
						      6, TT_CORE_TENSIX, &id),
			 -EINVAL);
	assert_error_contains("tt_create_semaphore_on_range");
	assert_int_equal(tt_create_semaphore_on_core(p, xy(1, 1), 5,
						     TT_CORE_ETH, &id),
			 -ENOTSUP);
	assert_error_contains("tt_create_semaphore_on_core");
}

static void test_semaphore_limits(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_core(1, 1);
	struct tt_core_range_set row = tt_core_range_set_of_range(0, 0, 7, 0);
	uint32_t id = 99;

	for (unsigned i = 0; i < TT_NUM_SEMAPHORES; i++)
		assert_int_equal(sem(p, s), i);
	assert_int_equal(tt_create_semaphore(p, &s, 0, TT_CORE_TENSIX, &id),
			 -ENOSPC);
	assert_error_contains("core (1,1) already has 8 semaphores");
	assert_int_equal(id, 99);
	/* Every id used somewhere in the set, on no single full core. */
	for (unsigned i = 0; i < TT_NUM_SEMAPHORES; i++)
		assert_int_equal(sem(p, tt_core_range_set_of_core(i, 0)), 0);
	for (unsigned i = 1; i < TT_NUM_SEMAPHORES; i++) {
		struct tt_core_range_set one = tt_core_range_set_of_core(i, 0);

		for (unsigned j = 1; j <= i; j++)
			sem(p, one);
	}
	/* Core (i,0) uses ids 0..i: id 7 only on (7,0), which is full. */
	assert_int_equal(tt_create_semaphore(p, &row, 0, TT_CORE_TENSIX, &id),
			 -ENOSPC);
	assert_error_contains("core (7,0) already has 8 semaphores");
	row = tt_core_range_set_of_range(0, 0, 6, 0);
	assert_int_equal(sem(p, row), 7);

	assert_int_equal(tt_create_semaphore(p, &s, 0, TT_CORE_ETH, &id),
			 -ENOTSUP);
	assert_error_contains("Ethernet");
	assert_int_equal(tt_create_semaphore(p, &s, 0, TT_CORE_DRAM, &id),
			 -EINVAL);
	assert_error_contains("core type 3 (dram)");
}

static void test_semaphore_spread_ids(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set row = tt_core_range_set_of_range(0, 0, 7, 0);
	uint32_t id = 99;

	/* Core (i,0) holds only id i (ids given, as descriptors do): no core
	 * is full, yet no id is free on all of them. */
	for (unsigned i = 0; i < TT_NUM_SEMAPHORES; i++) {
		struct tt_core_range_set one = tt_core_range_set_of_core(i, 0);

		assert_int_equal(tt_create_semaphore_id(p, &one, 0,
							TT_CORE_TENSIX, i,
							"test"),
				 0);
	}
	assert_int_equal(tt_create_semaphore(p, &row, 0, TT_CORE_TENSIX, &id),
			 -ENOSPC);
	assert_error_contains("no semaphore id is free on every core of the set (id 7 is used on core (7,0))");
	assert_int_equal(id, 99);
	/* A given id already used on one of the cores. */
	assert_int_equal(tt_create_semaphore_id(p, &row, 0, TT_CORE_TENSIX, 3,
						"test"),
			 -EEXIST);
	assert_error_contains("test: semaphore id 3 is already used on core (3,0)");
	assert_int_equal(tt_create_semaphore_id(p, &row, 0, TT_CORE_TENSIX, 8,
						"test"),
			 -EINVAL);
	assert_error_contains("semaphore id 8 out of range (0..7)");
	assert_int_equal(p->nsems, TT_NUM_SEMAPHORES);
}

/* ---- runtime args ---- */

static void test_runtime_args(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 1, 0);
	uint32_t a[3] = { 1, 2, 3 }, b[3] = { 4, 5, 6 }, *got;
	tt_kernel_handle k = kernel_on(p, s, NULL);
	unsigned n = 99;

	/* Nothing set yet. */
	assert_int_equal(tt_get_runtime_args(p, k, xy(0, 0), &got, &n), 0);
	assert_int_equal(n, 0);
	assert_null(got);
	assert_int_equal(tt_get_common_runtime_args(p, k, &got, &n), 0);
	assert_int_equal(n, 0);

	assert_int_equal(tt_set_runtime_args(p, k, xy(1, 0), a, 3), 0);
	assert_int_equal(tt_get_runtime_args(p, k, xy(1, 0), &got, &n), 0);
	assert_int_equal(n, 3);
	assert_memory_equal(got, a, sizeof(a));
	/* The pointer is the program's storage: writable in place, and the
	 * same storage after a new set of the same count. */
	got[1] = 42;
	assert_int_equal(tt_set_runtime_args(p, k, xy(1, 0), b, 3), 0);
	{
		uint32_t *again;

		assert_int_equal(tt_get_runtime_args(p, k, xy(1, 0), &again,
						     &n),
				 0);
		assert_ptr_equal(again, got);
		assert_memory_equal(again, b, sizeof(b));
	}
	/* The count is fixed once set. */
	assert_int_equal(tt_set_runtime_args(p, k, xy(1, 0), a, 2), -EINVAL);
	assert_error_contains("tt_set_runtime_args: kernel 0 (<string 0>) on core (1,0): the number of runtime args is fixed at 3 once set, cannot change it to 2");
	assert_int_equal(got[0], 4);
	/* A core the kernel is not on. */
	assert_int_equal(tt_set_runtime_args(p, k, xy(2, 0), a, 3), -EINVAL);
	assert_error_contains("kernel 0 (<string 0>) is not placed on core (2,0)");
	assert_int_equal(tt_get_runtime_args(p, k, xy(0, 1), &got, &n),
			 -EINVAL);
	/* A kernel that does not exist. */
	assert_int_equal(tt_set_runtime_args(p, 5, xy(0, 0), a, 3), -EINVAL);
	assert_error_contains("has no kernel 5 (it has 1)");
	assert_int_equal(tt_set_runtime_args(p, k, xy(0, 0), NULL, 3),
			 -EINVAL);
	/* Zero args is a count too. */
	assert_int_equal(tt_set_runtime_args(p, k, xy(0, 0), NULL, 0), 0);
	assert_int_equal(tt_set_runtime_args(p, k, xy(0, 0), a, 1), -EINVAL);
	assert_error_contains("fixed at 0");

	/* Common args. */
	assert_int_equal(tt_set_common_runtime_args(p, k, a, 2), 0);
	assert_int_equal(tt_get_common_runtime_args(p, k, &got, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(got[1], 2);
	assert_int_equal(tt_set_common_runtime_args(p, k, b, 2), 0);
	assert_int_equal(got[1], 5);
	assert_int_equal(tt_set_common_runtime_args(p, k, b, 3), -EINVAL);
	assert_error_contains("kernel 0 (<string 0>): the number of common runtime args is fixed at 2 once set, cannot change it to 3");
}

static void test_runtime_args_limits(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 2, 0);
	uint32_t *w = calloc(400, sizeof(uint32_t));
	tt_kernel_handle k = kernel_on(p, s, NULL);
	tt_kernel_handle k2 = kernel_on(p, s, &(struct tt_kernel_config){
						      .type = TT_KERNEL_READER });

	/* At most 255 unique words. */
	assert_int_equal(tt_set_runtime_args(p, k, xy(0, 0), w, 256), -E2BIG);
	assert_error_contains("tt_set_runtime_args: kernel 0 (<string 0>) on core (0,0): 256 unique args, limit is 255");
	assert_int_equal(tt_set_runtime_args(p, k, xy(0, 0), w, 255), 0);
	/* 255 + 87 = 342 > 341. */
	assert_int_equal(tt_set_common_runtime_args(p, k, w, 87), -E2BIG);
	assert_error_contains("tt_set_common_runtime_args: kernel 0 (<string 0>) on core (0,0): 342 args (255 unique + 87 common), limit is 341 (unique + common)");
	assert_int_equal(tt_set_common_runtime_args(p, k, w, 86), 0);
	/* Now every core of the kernel can have at most 255 unique... */
	assert_int_equal(tt_set_runtime_args(p, k, xy(2, 0), w, 255), 0);
	/* ... and the common count is fixed. */
	assert_int_equal(tt_set_common_runtime_args(p, k, w, 87), -E2BIG);

	/* Common first: unique words are limited by what is left. */
	assert_int_equal(tt_set_common_runtime_args(p, k2, w, 300), 0);
	assert_int_equal(tt_set_runtime_args(p, k2, xy(1, 0), w, 42), -E2BIG);
	assert_error_contains("kernel 1 (<string 1>) on core (1,0): 342 args (42 unique + 300 common), limit is 341 (unique + common)");
	assert_int_equal(tt_set_runtime_args(p, k2, xy(1, 0), w, 41), 0);
	assert_int_equal(tt_set_common_runtime_args(p, k2, w, 342), -E2BIG);
	assert_int_equal(tt_set_common_runtime_args(p, k2, w, 0xffffffffu),
			 -E2BIG);
	free(w);
}

static void test_runtime_args_on_cores(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 3, 3);
	struct tt_core_range_set some = tt_core_range_set_of_range(1, 1, 2, 2);
	struct tt_core_range_set over = tt_core_range_set_of_range(3, 3, 4, 4);
	struct tt_core_range_set bad = tt_core_range_set_of_range(2, 2, 1, 1);
	uint32_t a[2] = { 10, 20 }, *got;
	tt_kernel_handle k = kernel_on(p, s, NULL);
	unsigned n;

	assert_int_equal(tt_set_runtime_args_cores(p, k, &some, a, 2), 0);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			assert_int_equal(tt_get_runtime_args(p, k, xy(x, y),
							     &got, &n),
					 0);
			if (tt_core_range_set_contains(&some, xy(x, y))) {
				assert_int_equal(n, 2);
				assert_int_equal(got[1], 20);
			} else {
				assert_int_equal(n, 0);
			}
		}
	/* All or nothing: (4,3) is not the kernel's, (3,3) stays unset. */
	assert_int_equal(tt_set_runtime_args_cores(p, k, &over, a, 1), -EINVAL);
	assert_error_contains("tt_set_runtime_args_cores: kernel 0 (<string 0>) is not placed on core (4,3)");
	assert_int_equal(tt_get_runtime_args(p, k, xy(3, 3), &got, &n), 0);
	assert_int_equal(n, 0);
	/* A count that changes on one of the cores: nothing changes. */
	some = tt_core_range_set_of_range(2, 2, 3, 3);
	assert_int_equal(tt_set_runtime_args_cores(p, k, &some, a, 1), -EINVAL);
	assert_error_contains("core (2,2): the number of runtime args is fixed at 2");
	assert_int_equal(tt_get_runtime_args(p, k, xy(3, 3), &got, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(tt_set_runtime_args_cores(p, k, &bad, a, 1), -EINVAL);
	assert_error_contains("tt_set_runtime_args_cores: core range (2,2)-(1,1): end before start");
	assert_int_equal(tt_set_runtime_args_cores(p, k, NULL, a, 1), -EINVAL);
}

static void test_runtime_args_per_core(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 3, 0);
	uint32_t w[4] = { 1, 2, 3, 4 }, *got;
	struct tt_core_args list[4] = {
		{ { 0, 0 }, w, 1 },
		{ { 1, 0 }, w, 2 },
		{ { 2, 0 }, w + 1, 3 },
		{ { 3, 0 }, NULL, 0 },
	};
	tt_kernel_handle k = kernel_on(p, s, NULL);
	unsigned n;

	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 4), 0);
	assert_int_equal(tt_get_runtime_args(p, k, xy(2, 0), &got, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(got[0], 2);
	assert_int_equal(tt_get_runtime_args(p, k, xy(1, 0), &got, &n), 0);
	assert_int_equal(n, 2);

	/* The same core twice with different counts: refused, nothing
	 * changed (core (3,0) keeps count 0). */
	list[0].core = xy(3, 0);
	list[0].count = 0;
	list[1].core = xy(3, 0);
	list[1].count = 2;
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 2), -EINVAL);
	assert_error_contains("core (3,0): the number of runtime args is fixed at 0");
	list[1].count = 0;
	list[1].args = NULL;
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 2), 0);
	/* NULL args with a count, a core elsewhere, over the limit. */
	list[0].core = xy(1, 0);
	list[0].count = 2;
	list[0].args = NULL;
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 1), -EINVAL);
	assert_error_contains("entry 0 (core (1,0)): 2 args but args is NULL");
	list[0].core = xy(0, 1);
	list[0].args = w;
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 1), -EINVAL);
	assert_error_contains("is not placed on core (0,1)");
	assert_int_equal(tt_set_runtime_args_per_core(p, k, NULL, 1), -EINVAL);
	assert_int_equal(tt_set_runtime_args_per_core(p, k, NULL, 0), 0);
	assert_int_equal(tt_get_runtime_args(p, k, xy(1, 0), &got, &n), 0);
	assert_int_equal(got[1], 2);
}

/* A core with no args yet, listed twice in one call: the first entry
 * fixes its count for the second (as if applied in order), so different
 * counts are refused and nothing is stored; equal counts store the last
 * entry's values. */
static void test_runtime_args_per_core_fresh_core_twice(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 3, 0);
	uint32_t w[64], *got;
	struct tt_core_args list[3];
	tt_kernel_handle k = kernel_on(p, s, NULL);
	unsigned n;

	for (unsigned i = 0; i < 64; i++)
		w[i] = 100 + i;
	/* Growing: 2 then 64 words (a store of the second into the first's
	 * room would overrun it). */
	list[0] = (struct tt_core_args){ { 2, 0 }, w, 2 };
	list[1] = (struct tt_core_args){ { 2, 0 }, w, 64 };
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 2), -EINVAL);
	assert_error_contains("tt_set_runtime_args_per_core: kernel 0 (<string 0>) on core (2,0): the number of runtime args is fixed at 2 once set, cannot change it to 64");
	assert_int_equal(tt_get_runtime_args(p, k, xy(2, 0), &got, &n), 0);
	assert_int_equal(n, 0);
	assert_null(got);
	/* Shrinking, with another core between: refused, nothing stored on
	 * either core. */
	list[0] = (struct tt_core_args){ { 3, 0 }, w, 5 };
	list[1] = (struct tt_core_args){ { 1, 0 }, w + 8, 2 };
	list[2] = (struct tt_core_args){ { 3, 0 }, w, 1 };
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 3), -EINVAL);
	assert_error_contains("on core (3,0): the number of runtime args is fixed at 5 once set, cannot change it to 1");
	assert_int_equal(tt_get_runtime_args(p, k, xy(3, 0), &got, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(tt_get_runtime_args(p, k, xy(1, 0), &got, &n), 0);
	assert_int_equal(n, 0);
	/* Equal counts: the last entry wins. */
	list[0] = (struct tt_core_args){ { 2, 0 }, w, 3 };
	list[1] = (struct tt_core_args){ { 2, 0 }, w + 10, 3 };
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 2), 0);
	assert_int_equal(tt_get_runtime_args(p, k, xy(2, 0), &got, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(got[0], 110);
	assert_int_equal(got[2], 112);
	/* Now fixed at 3 by the call before. */
	list[0].count = 4;
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 1), -EINVAL);
	assert_error_contains("on core (2,0): the number of runtime args is fixed at 3 once set, cannot change it to 4");
	/* Zero args twice: fixed at 0, no words. */
	list[0] = (struct tt_core_args){ { 0, 0 }, NULL, 0 };
	list[1] = (struct tt_core_args){ { 0, 0 }, NULL, 0 };
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 2), 0);
	list[1] = (struct tt_core_args){ { 0, 0 }, w, 1 };
	assert_int_equal(tt_set_runtime_args_per_core(p, k, list, 2), -EINVAL);
	assert_error_contains("on core (0,0): the number of runtime args is fixed at 0 once set, cannot change it to 1");
}

/* ---- NULL arguments ---- */

static void test_null_arguments(void **state)
{
	tt_program *p = *state;
	struct tt_core_range_set s = tt_core_range_set_of_core(0, 0);
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(2048, 0, TT_FLOAT16_B, 2048);
	tt_kernel_handle k;
	tt_cb_handle h;
	uint32_t id, *args;
	unsigned n;

	assert_int_equal(tt_create_kernel(NULL, "k.c", &s, NULL, &k), -EINVAL);
	assert_error_contains("tt_create_kernel: program is NULL");
	assert_int_equal(tt_create_kernel(p, NULL, &s, NULL, &k), -EINVAL);
	assert_error_contains("path is NULL");
	assert_int_equal(tt_create_kernel(p, "k.c", &s, NULL, NULL), -EINVAL);
	assert_int_equal(tt_create_kernel_from_string(NULL, src, &s, NULL, &k),
			 -EINVAL);
	assert_int_equal(tt_create_kernel_from_string(p, NULL, &s, NULL, &k),
			 -EINVAL);
	assert_error_contains("source is NULL");
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, NULL, NULL),
			 -EINVAL);
	assert_int_equal(tt_kernel_get_cores(NULL, 0, &s), -EINVAL);
	assert_int_equal(tt_kernel_get_cores(p, 0, NULL), -EINVAL);
	assert_int_equal(tt_kernel_get_cores(p, 0, &s), -EINVAL);

	assert_int_equal(tt_create_circular_buffer(NULL, &s, &c, &h), -EINVAL);
	assert_int_equal(tt_create_circular_buffer(p, &s, NULL, &h), -EINVAL);
	assert_error_contains("config is NULL");
	assert_int_equal(tt_create_circular_buffer(p, &s, &c, NULL), -EINVAL);
	assert_int_equal(tt_create_circular_buffer(p, NULL, &c, &h), -EINVAL);
	assert_int_equal(tt_get_circular_buffer_config(NULL, 0, &c), -EINVAL);
	assert_int_equal(tt_get_circular_buffer_config(p, 0, NULL), -EINVAL);
	assert_int_equal(tt_update_circular_buffer_total_size(NULL, 0, 1),
			 -EINVAL);
	assert_int_equal(tt_update_circular_buffer_page_size(NULL, 0, 0, 1),
			 -EINVAL);
	assert_int_equal(tt_update_dynamic_circular_buffer_address(NULL, 0,
								   NULL),
			 -EINVAL);
	assert_int_equal(tt_update_dynamic_circular_buffer_address(p, 0, NULL),
			 -EINVAL);
	assert_error_contains("buffer is NULL");
	assert_int_equal(
		tt_update_dynamic_circular_buffer_address_and_total_size(
			NULL, 0, NULL, 1),
		-EINVAL);

	assert_int_equal(tt_create_semaphore(NULL, &s, 0, TT_CORE_TENSIX, &id),
			 -EINVAL);
	assert_int_equal(tt_create_semaphore(p, &s, 0, TT_CORE_TENSIX, NULL),
			 -EINVAL);
	assert_int_equal(tt_create_semaphore(p, NULL, 0, TT_CORE_TENSIX, &id),
			 -EINVAL);

	k = kernel_on(p, s, NULL);
	assert_int_equal(tt_set_runtime_args(NULL, k, xy(0, 0), &id, 1),
			 -EINVAL);
	assert_int_equal(tt_set_runtime_args_cores(NULL, k, &s, &id, 1),
			 -EINVAL);
	assert_int_equal(tt_set_runtime_args_per_core(NULL, k, NULL, 0),
			 -EINVAL);
	assert_int_equal(tt_get_runtime_args(NULL, k, xy(0, 0), &args, &n),
			 -EINVAL);
	assert_int_equal(tt_get_runtime_args(p, k, xy(0, 0), NULL, &n),
			 -EINVAL);
	assert_int_equal(tt_get_runtime_args(p, k, xy(0, 0), &args, NULL),
			 -EINVAL);
	assert_int_equal(tt_set_common_runtime_args(NULL, k, &id, 1), -EINVAL);
	assert_int_equal(tt_set_common_runtime_args(p, k, NULL, 1), -EINVAL);
	assert_int_equal(tt_get_common_runtime_args(NULL, k, &args, &n),
			 -EINVAL);
	assert_int_equal(tt_get_common_runtime_args(p, k, NULL, &n), -EINVAL);
	assert_int_equal(tt_get_common_runtime_args(p, 3, &args, &n), -EINVAL);
	assert_int_equal(tt_program_hold_buffer(NULL, NULL), -EINVAL);
	assert_int_equal(tt_program_hold_buffer(p, NULL), -EINVAL);
}

static void test_kernel_get_cores(void **state)
{
	tt_program *p = *state;
	struct tt_core_range r[] = { tt_core_range(0, 0, 1, 1),
				     tt_core_range(5, 0, 5, 3) };
	struct tt_core_range_set s, got;
	tt_kernel_handle k;

	assert_int_equal(tt_core_range_set_init(&s, r, 2), 0);
	assert_int_equal(tt_create_kernel_from_string(p, src, &s, NULL, &k), 0);
	assert_int_equal(tt_kernel_get_cores(p, k, &got), 0);
	assert_int_equal(got.count, 2);
	assert_true(tt_core_range_set_equal(&s, &got));
	assert_int_equal(tt_kernel_get_cores(p, k + 1, &got), -EINVAL);
	assert_error_contains("has no kernel 1");
}

#define T(f) cmocka_unit_test_setup_teardown(f, new_program, free_program)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_and_free),
		cmocka_unit_test(test_kernel_configs),
		T(test_kernel_placement_by_config),
		T(test_kernel_config_errors),
		T(test_named_compile_args),
		T(test_kernel_copies_config),
		T(test_one_kernel_per_processor),
		T(test_bad_core_ranges),
		T(test_kernel_path_resolution),
		T(test_kernel_file_not_found),
		T(test_metal_kernel_path),
		T(test_kernel_get_cores),
		cmocka_unit_test(test_cb_config_helpers),
		T(test_cb_config_errors),
		T(test_cb_index_per_core),
		T(test_cb_too_many_on_a_core),
		T(test_cb_get_and_update),
		T(test_semaphore_ids),
		T(test_core_and_range_forms),
		T(test_semaphore_limits),
		T(test_semaphore_spread_ids),
		T(test_runtime_args),
		T(test_runtime_args_limits),
		T(test_runtime_args_on_cores),
		T(test_runtime_args_per_core),
		T(test_runtime_args_per_core_fresh_core_twice),
		T(test_null_arguments),
	};

	unsetenv("TT_KERNEL_PATH");
	unsetenv("TT_METAL_HOME");
	return cmocka_run_group_tests_name("program", tests, NULL, NULL);
}
