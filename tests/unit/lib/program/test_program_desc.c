// SPDX-License-Identifier: Apache-2.0
/*
 * Program descriptors (tt/program_desc.h): a program made from a
 * descriptor equals the one the imperative calls make (compared on the
 * finalized per-core data and the kernels' build settings), and every
 * error names the descriptor element.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static const struct tt_program_limits no_build = { .skip_build = true };
static const char writer_src[] = "void kernel_main(void) { /* w */ }\n";

struct fixture {
	tt_device *dev;
	tt_buffer *l1;
	char dir[256], reader[300];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct tt_buffer_config bc = { .size = 16384, .page_size = 2048,
				       .type = TT_BUFFER_L1 };
	FILE *k;

	if (!f || tt_device_open(0, &f->dev))
		return -1;
	bc.device = f->dev;
	if (tt_create_buffer(&bc, &f->l1))
		return -1;
	if (!test_mkdtemp(f->dir, sizeof(f->dir), "tt-desc"))
		return -1;
	snprintf(f->reader, sizeof(f->reader), "%s/reader.c", f->dir);
	k = fopen(f->reader, "w");
	if (!k)
		return -1;
	fputs("void kernel_main(void) { /* r */ }\n", k);
	fclose(k);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->reader);
	rmdir(f->dir);
	tt_buffer_free(f->l1);
	tt_device_close(f->dev);
	free(f);
	return 0;
}

/* ---- one program, two ways ---- */

static const uint32_t ct_args[] = { 16, 32 };
static const struct tt_define defines[] = { { "BLOCK", "4" },
					    { "FAST", NULL } };
static const uint32_t w0[] = { 1, 2, 3 }, w1[] = { 4, 5, 6 }, w2[] = { 9 };
static const struct tt_named_arg named[] = { { "tiles", 8 }, { "cb", 16 } };
static const uint32_t common[] = { 0xabc, 0xdef };

struct shape {
	struct tt_core_range_set quad, diag, one, all;
	struct tt_cb_format f0[2], f1[1], f2[1];
	struct tt_core_args rta[3];
	struct tt_kernel_config reader, writer, compute;
};

static void make_shape(struct shape *s)
{
	struct tt_core_args rta[3] = {
		{ { 0, 0 }, w0, 3 },
		{ { 1, 1 }, w1, 3 },
		{ { 0, 1 }, w2, 1 },
	};

	s->quad = tt_core_range_set_of_range(0, 0, 1, 1);
	s->diag = tt_core_range_set_of_range(1, 1, 2, 2);
	s->one = tt_core_range_set_of_core(0, 0);
	s->all = tt_core_range_set_of_range(0, 0, 3, 3);
	s->f0[0] = (struct tt_cb_format){ 0, TT_FLOAT16_B, 2048 };
	s->f0[1] = (struct tt_cb_format){ 16, TT_BFP8_B, 1024 };
	s->f1[0] = (struct tt_cb_format){ 2, TT_FLOAT32, 4096 };
	s->f2[0] = (struct tt_cb_format){ 5, TT_FLOAT16_B, 2048 };
	memcpy(s->rta, rta, sizeof(rta));
	s->reader = tt_reader_config();
	s->reader.compile_args = ct_args;
	s->reader.compile_arg_count = 2;
	s->reader.defines = defines;
	s->reader.define_count = 2;
	s->reader.named_compile_args = named;
	s->reader.named_compile_arg_count = 2;
	s->writer = tt_data_movement_config(TT_RISCV_0);
	s->writer.noc = TT_NOC_1;
	s->writer.opt_level = TT_OPT_O1;
	s->compute = tt_compute_config();
	s->compute.math_fidelity = TT_HIFI2;
	s->compute.fp32_dest_acc_en = true;
	s->compute.dst_full_sync_en = true;
}

static tt_program *imperative(struct fixture *f, struct shape *s)
{
	struct tt_circular_buffer_config c0 = { .total_size = 8192,
						.format_count = 2 };
	struct tt_circular_buffer_config c1 =
		tt_circular_buffer_config(8192, 2, TT_FLOAT32, 4096);
	struct tt_circular_buffer_config c2 =
		tt_circular_buffer_config(4096, 5, TT_FLOAT16_B, 2048);
	tt_kernel_handle r, w, c;
	tt_program *p;
	tt_cb_handle h;
	uint32_t id;

	memcpy(c0.formats, s->f0, sizeof(s->f0));
	c2.buffer = f->l1;
	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_circular_buffer(p, &s->quad, &c0, &h), 0);
	assert_int_equal(tt_create_circular_buffer(p, &s->diag, &c1, &h), 0);
	assert_int_equal(tt_create_circular_buffer(p, &s->all, &c2, &h), 0);
	assert_int_equal(tt_create_semaphore(p, &s->quad, 3, TT_CORE_TENSIX,
					     &id),
			 0);
	assert_int_equal(id, 0);
	assert_int_equal(tt_create_semaphore(p, &s->one, 9, TT_CORE_TENSIX,
					     &id),
			 0);
	assert_int_equal(id, 1);
	assert_int_equal(tt_create_kernel(p, f->reader, &s->quad, &s->reader,
					  &r),
			 0);
	assert_int_equal(tt_set_runtime_args_per_core(p, r, s->rta, 3), 0);
	assert_int_equal(tt_set_common_runtime_args(p, r, common, 2), 0);
	assert_int_equal(tt_create_kernel_from_string(p, writer_src, &s->diag,
						      &s->writer, &w),
			 0);
	assert_int_equal(tt_create_kernel_from_string(p, writer_src, &s->all,
						      &s->compute, &c),
			 0);
	assert_int_equal(tt_set_common_runtime_args(p, c, common, 1), 0);
	return p;
}

static void describe(struct fixture *f, struct shape *s,
		     struct tt_kernel_descriptor k[3],
		     struct tt_cb_descriptor cb[3],
		     struct tt_semaphore_descriptor sem[2],
		     struct tt_program_descriptor *d)
{
	k[0] = (struct tt_kernel_descriptor){
		.kernel_source = f->reader,
		.source_type = TT_SOURCE_FILE_PATH,
		.core_ranges = &s->quad,
		.config = s->reader,
		.runtime_args = s->rta,
		.runtime_args_count = 3,
		.common_runtime_args = common,
		.common_runtime_args_count = 2,
	};
	k[1] = (struct tt_kernel_descriptor){
		.kernel_source = writer_src,
		.source_type = TT_SOURCE_CODE,
		.core_ranges = &s->diag,
		.config = s->writer,
	};
	k[2] = (struct tt_kernel_descriptor){
		.kernel_source = writer_src,
		.source_type = TT_SOURCE_CODE,
		.core_ranges = &s->all,
		.config = s->compute,
		.common_runtime_args = common,
		.common_runtime_args_count = 1,
	};
	cb[0] = (struct tt_cb_descriptor){ 8192, &s->quad, s->f0, 2, NULL };
	cb[1] = (struct tt_cb_descriptor){ 8192, &s->diag, s->f1, 1, NULL };
	cb[2] = (struct tt_cb_descriptor){ 4096, &s->all, s->f2, 1, f->l1 };
	sem[0] = (struct tt_semaphore_descriptor){ 0, TT_CORE_TENSIX, &s->quad,
						   3 };
	sem[1] = (struct tt_semaphore_descriptor){ 1, TT_CORE_TENSIX, &s->one,
						   9 };
	*d = (struct tt_program_descriptor){ k, 3, sem, 2, cb, 3 };
}

static void assert_words(const uint32_t *a, const uint32_t *b, unsigned n)
{
	if (n)
		assert_memory_equal(a, b, n * sizeof(uint32_t));
	else
		assert_true(!a && !b);
}

static void assert_same_core(const struct tt_program_core *a,
			     const struct tt_program_core *b)
{
	assert_memory_equal(&a->logical, &b->logical, sizeof(a->logical));
	assert_memory_equal(&a->noc, &b->noc, sizeof(a->noc));
	assert_memory_equal(a->kernel, b->kernel, sizeof(a->kernel));
	assert_memory_equal(a->ctx, b->ctx, sizeof(a->ctx));
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		assert_words(a->rta[h], b->rta[h], a->ctx[h].rta_count);
		assert_words(a->crta[h], b->crta[h], a->ctx[h].crta_count);
	}
	assert_true(!a->cbs == !b->cbs);
	if (a->cbs)
		assert_memory_equal(a->cbs, b->cbs, sizeof(*a->cbs));
	assert_int_equal(a->cb_end, b->cb_end);
	assert_int_equal(a->sem_mask, b->sem_mask);
	assert_memory_equal(a->sem, b->sem, sizeof(a->sem));
}

static void assert_same_kernel(const struct tt_kernel_obj *a,
			       const struct tt_kernel_obj *b)
{
	assert_int_equal(a->pub.id, b->pub.id);
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->pub.proc, b->pub.proc);
	assert_int_equal(a->pub.noc, b->pub.noc);
	assert_int_equal(a->type, b->type);
	assert_true(!a->path == !b->path);
	if (a->path)
		assert_string_equal(a->path, b->path);
	assert_true(!a->source == !b->source);
	if (a->source)
		assert_string_equal(a->source, b->source);
	assert_int_equal(a->ct_count, b->ct_count);
	assert_words(a->ct_args, b->ct_args, a->ct_count);
	assert_int_equal(a->define_count, b->define_count);
	for (unsigned i = 0; i < a->define_count; i++) {
		assert_string_equal(a->defines[i].name, b->defines[i].name);
		assert_true(!a->defines[i].value == !b->defines[i].value);
		if (a->defines[i].value)
			assert_string_equal(a->defines[i].value,
					    b->defines[i].value);
	}
	assert_int_equal(a->named_count, b->named_count);
	for (unsigned i = 0; i < a->named_count; i++) {
		assert_string_equal(a->named[i].name, b->named[i].name);
		assert_int_equal(a->named[i].value, b->named[i].value);
	}
	assert_int_equal(a->math_fidelity, b->math_fidelity);
	assert_int_equal(a->fp32_dest_acc, b->fp32_dest_acc);
	assert_int_equal(a->dst_full_sync, b->dst_full_sync);
	assert_int_equal(a->math_approx, b->math_approx);
	assert_string_equal(a->opt, b->opt);
}

static void test_descriptor_equals_imperative(void **state)
{
	struct fixture *f = *state;
	struct tt_kernel_descriptor k[3];
	struct tt_cb_descriptor cb[3];
	struct tt_semaphore_descriptor sem[2];
	struct tt_program_descriptor d;
	const struct tt_program_core *ca, *cd;
	tt_program *a, *b = NULL;
	struct shape s;
	unsigned na, nd;

	make_shape(&s);
	a = imperative(f, &s);
	describe(f, &s, k, cb, sem, &d);
	assert_int_equal(tt_create_program_from_descriptor(&d, &b), 0);
	assert_non_null(b);
	assert_int_equal(tt_program_finalize(a, f->dev, &no_build), 0);
	assert_int_equal(tt_program_finalize(b, f->dev, &no_build), 0);

	ca = tt_program_cores(a, &na);
	cd = tt_program_cores(b, &nd);
	assert_int_equal(na, 16);
	assert_int_equal(na, nd);
	for (unsigned i = 0; i < na; i++)
		assert_same_core(&ca[i], &cd[i]);
	assert_int_equal(tt_program_num_kernels(a), 3);
	assert_int_equal(tt_program_num_kernels(b), 3);
	for (unsigned i = 0; i < 3; i++)
		assert_same_kernel(a->kernels[i], b->kernels[i]);
	assert_int_equal(b->kernels[0]->named_count, 2); /* the reader's */

	tt_program_free(b);

	/* One size different: the layouts differ where it matters. */
	cb[1].total_size = 4096;
	assert_int_equal(tt_create_program_from_descriptor(&d, &b), 0);
	assert_int_equal(tt_program_finalize(b, f->dev, &no_build), 0);
	cd = tt_program_cores(b, &nd);
	assert_int_equal(nd, na);
	assert_memory_equal(ca[0].cbs, cd[0].cbs, sizeof(*ca[0].cbs));
	assert_memory_not_equal(ca[5].cbs, cd[5].cbs, sizeof(*ca[5].cbs));
	tt_program_free(a);
	tt_program_free(b);
}

static void test_descriptor_cb_handles_and_sizes(void **state)
{
	struct fixture *f = *state;
	struct tt_kernel_descriptor k[3];
	struct tt_cb_descriptor cb[3];
	struct tt_semaphore_descriptor sem[2];
	struct tt_program_descriptor d;
	struct tt_circular_buffer_config c;
	tt_program *p;
	struct shape s;

	make_shape(&s);
	describe(f, &s, k, cb, sem, &d);
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), 0);
	/* CB handles are the indices of cbs[]. */
	assert_int_equal(tt_get_circular_buffer_config(p, 1, &c), 0);
	assert_int_equal(c.formats[0].buffer_index, 2);
	assert_int_equal(tt_get_circular_buffer_config(p, 2, &c), 0);
	assert_ptr_equal(c.buffer, f->l1);
	assert_int_equal(tt_update_circular_buffer_total_size(p, 0, 16384), 0);
	tt_program_free(p);

	/* An empty descriptor is an empty program. */
	memset(&d, 0, sizeof(d));
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), 0);
	assert_int_equal(tt_program_num_kernels(p), 0);
	tt_program_free(p);
}

static void test_descriptor_errors(void **state)
{
	struct fixture *f = *state;
	struct tt_kernel_descriptor k[3];
	struct tt_cb_descriptor cb[3];
	struct tt_semaphore_descriptor sem[2];
	struct tt_program_descriptor d;
	struct tt_core_args far = { { 5, 5 }, w2, 1 };
	tt_program *p = (tt_program *)&d;
	struct shape s;

	make_shape(&s);
	describe(f, &s, k, cb, sem, &d);
	assert_int_equal(tt_create_program_from_descriptor(NULL, &p), -EINVAL);
	assert_int_equal(tt_create_program_from_descriptor(&d, NULL), -EINVAL);

	k[1].kernel_source = "nope.c";
	k[1].source_type = TT_SOURCE_FILE_PATH;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -ENOENT);
	assert_error_contains("tt_create_program_from_descriptor: kernels[1]: tt_create_kernel: kernel file 'nope.c' not found");
	assert_ptr_equal(p, &d); /* untouched */
	k[1].source_type = (enum tt_kernel_source_type)7;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	assert_error_contains("kernels[1]: source type 7 does not exist");
	describe(f, &s, k, cb, sem, &d);

	k[0].runtime_args = &far;
	k[0].runtime_args_count = 1;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	assert_error_contains("kernels[0]: tt_set_runtime_args_per_core: kernel 0 (");
	assert_error_contains("is not placed on core (5,5)");
	describe(f, &s, k, cb, sem, &d);

	k[2].common_runtime_args_count = 400;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -E2BIG);
	assert_error_contains("kernels[2]: tt_set_common_runtime_args");
	describe(f, &s, k, cb, sem, &d);

	s.f1[0].buffer_index = 32;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	assert_error_contains("tt_create_program_from_descriptor: cbs[1]: tt_create_circular_buffer: CB index 32 out of range (0..31)");
	s.f1[0].buffer_index = 0; /* used by cbs[0] on core (1,1) */
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EEXIST);
	assert_error_contains("cbs[1]: tt_create_circular_buffer: CB index 0 on core (1,1) is already used by circular buffer 0");
	make_shape(&s);
	cb[0].format_count = 33;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	assert_error_contains("cbs[0]: 33 format descriptors");
	cb[0].format_count = 1;
	cb[0].format_descriptors = NULL;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	describe(f, &s, k, cb, sem, &d);

	sem[1].id = 0; /* already on (0,0) */
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EEXIST);
	assert_error_contains("semaphores[1]: tt_create_semaphore: semaphore id 0 is already used on core (0,0)");
	sem[1].id = 8;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	assert_error_contains("semaphores[1]: tt_create_semaphore: semaphore id 8 out of range");
	sem[1].id = 1;
	sem[1].core_type = TT_CORE_ETH;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -ENOTSUP);
	assert_error_contains("semaphores[1]");
	describe(f, &s, k, cb, sem, &d);

	d.kernels = NULL;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	assert_error_contains("3 kernels at (nil)");
	d.kernels = k;
	d.cbs = NULL;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	d.cbs = cb;
	d.semaphores = NULL;
	assert_int_equal(tt_create_program_from_descriptor(&d, &p), -EINVAL);
	assert_ptr_equal(p, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor_equals_imperative),
		cmocka_unit_test(test_descriptor_cb_handles_and_sizes),
		cmocka_unit_test(test_descriptor_errors),
	};

	setenv("TT_TRANSPORT", "embedded", 1);
	unsetenv("TT_SIM_BOARD");
	setenv("TT_FIRMWARE", "/dev/null", 1);
	return cmocka_run_group_tests_name("program_desc", tests, setup,
					   teardown);
}
