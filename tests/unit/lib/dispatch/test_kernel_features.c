// SPDX-License-Identifier: Apache-2.0
/*
 * Kernels written the way TT-Metal's current examples are, end to end on
 * the embedded model: TensorAccessor over interleaved and sharded
 * buffers in DRAM and L1, from compile-time, runtime and common runtime
 * arguments; named compile-time arguments; and the errors of both, at
 * build time (an unknown name, an offset past the arguments) and at run
 * time (words that are not accessor arguments, a page or shard out of
 * range).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

#define assert_error_contains(s)                                         \
	do {                                                             \
		if (!strstr(tt_last_error(), (s)))                       \
			fail_msg("error '%s' lacks '%s'", tt_last_error(), \
				 (s));                                   \
	} while (0)

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 29 + seed * 13 + (i >> 7));
}

static tt_buffer *interleaved(tt_device *dev, enum tt_buffer_type type,
			      unsigned pages, unsigned page)
{
	struct tt_buffer_config c = {
		.device = dev, .size = (uint64_t)pages * page,
		.page_size = page, .type = type,
	};
	tt_buffer *b = NULL;

	if (tt_create_buffer(&c, &b))
		fail_msg("%s", tt_last_error());
	return b;
}

/* rows x cols pages of `page` bytes in shards of srows x scols pages. */
static tt_buffer *sharded(tt_device *dev, enum tt_buffer_type type,
			  enum tt_tensor_memory_layout layout,
			  struct tt_core_range_set grid,
			  enum tt_shard_orientation o, unsigned rows,
			  unsigned cols, unsigned srows, unsigned scols,
			  unsigned page)
{
	struct tt_buffer_config c = {
		.device = dev, .size = (uint64_t)rows * cols * page,
		.page_size = page, .type = type, .layout = layout,
		.shard = {
			.spec = { .grid = &grid,
				  .shape = { srows * 32, scols * 32 },
				  .orientation = o },
			.page_shape = { 32, 32 },
			.tensor2d_shape_in_pages = { rows, cols },
		},
	};
	tt_buffer *b = NULL;

	if (tt_create_buffer(&c, &b))
		fail_msg("%s", tt_last_error());
	return b;
}

static void append(tt_buffer *b, uint32_t *w, unsigned cap, unsigned *n)
{
	if (tt_tensor_accessor_args_append(b, w, cap, n))
		fail_msg("%s", tt_last_error());
}

/* Run p on its cores (blocking); 0 or the error. */
static int run(tt_device *dev, tt_program *p)
{
	tt_command_queue *cq;

	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	tt_command_queue_set_timeout(cq, 30000);
	return tt_enqueue_program(cq, p, true);
}

/* Fill src, copy it with the kernel, compare dst with it. */
static void expect_copy(tt_device *dev, tt_program *p, tt_buffer *src,
			tt_buffer *dst, unsigned seed)
{
	size_t n = tt_buffer_size(src);
	uint8_t *in = malloc(n), *out = malloc(n);

	assert_non_null(in);
	assert_non_null(out);
	assert_int_equal(tt_buffer_size(dst), n);
	fill(in, n, seed);
	memset(out, 0xEE, n);
	assert_int_equal(tt_write_to_buffer(src, in, n), 0);
	assert_int_equal(tt_write_to_buffer(dst, out, n), 0);
	if (run(dev, p))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_read_from_buffer(dst, out, n), 0);
	assert_memory_equal(in, out, n);
	free(in);
	free(out);
}

/* Page by page, src to dst through an L1 scratch page: both accessors
 * from compile-time args (the second at the first's
 * next_compile_time_args_offset), sizes as named args. */
static const char copy_ct[] =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	const TensorAccessorArgs sa = TensorAccessorArgs(0);\n"
	"	const TensorAccessorArgs da =\n"
	"		TensorAccessorArgs(sa.next_compile_time_args_offset);\n"
	"	const uint32_t page = get_named_compile_time_arg_val(\"page_size\");\n"
	"	const uint32_t n = get_named_compile_time_arg_val(\"num_pages\");\n"
	"	const TensorAccessor s = TensorAccessor(sa, get_arg_val(0), page);\n"
	"	const TensorAccessor d = TensorAccessor(da, get_arg_val(1), page);\n"
	"	uint32_t l1 = get_arg_val(2);\n"
	"	for (uint32_t i = 0; i < n; i++) {\n"
	"		noc_async_read_page(i, s, l1);\n"
	"		noc_async_read_barrier();\n"
	"		noc_async_write_page(i, &d, l1);\n"
	"		noc_async_write_barrier();\n"
	"	}\n"
	"}\n";

/* The same from runtime args (source) and common runtime args (dest),
 * addresses by get_noc_addr. */
static const char copy_rt[] =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	const uint32_t page = get_named_compile_time_arg_val(\"page_size\");\n"
	"	TensorAccessor s = TensorAccessor(TensorAccessorArgs_rt(4),\n"
	"					   get_arg_val(0), page);\n"
	"	TensorAccessor d = TensorAccessor(TensorAccessorArgs_crt(0),\n"
	"					   get_arg_val(1), page);\n"
	"	uint32_t l1 = get_arg_val(2), n = get_arg_val(3);\n"
	"	for (uint32_t i = 0; i < n; i++) {\n"
	"		noc_async_read(get_noc_addr(i, s), l1, page);\n"
	"		noc_async_read_barrier();\n"
	"		noc_async_write(l1, get_noc_addr(i, &d), page);\n"
	"		noc_async_write_barrier();\n"
	"	}\n"
	"}\n";

static tt_program *copy_program(tt_buffer *src, tt_buffer *dst,
				tt_buffer *scratch, bool runtime)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(1, 1);
	struct tt_xy c11 = { 1, 1 };
	struct tt_kernel_config cfg = tt_reader_config();
	struct tt_named_arg named[2] = {
		{ "page_size", (uint32_t)tt_buffer_page_size(src) },
		{ "num_pages", (uint32_t)tt_buffer_num_pages(src) },
	};
	uint32_t ct[2 * TT_TENSOR_ACCESSOR_ARGS_MAX];
	uint32_t rt[4 + TT_TENSOR_ACCESSOR_ARGS_MAX];
	uint32_t crt[TT_TENSOR_ACCESSOR_ARGS_MAX];
	unsigned nct = 0, nrt = 4, ncrt = 0;
	tt_kernel_handle k;
	tt_program *p;

	rt[0] = (uint32_t)tt_buffer_address(src);
	rt[1] = (uint32_t)tt_buffer_address(dst);
	rt[2] = (uint32_t)tt_buffer_address(scratch);
	rt[3] = (uint32_t)tt_buffer_num_pages(src);
	if (runtime) {
		append(src, rt, 4 + TT_TENSOR_ACCESSOR_ARGS_MAX, &nrt);
		append(dst, crt, TT_TENSOR_ACCESSOR_ARGS_MAX, &ncrt);
	} else {
		append(src, ct, 2 * TT_TENSOR_ACCESSOR_ARGS_MAX, &nct);
		append(dst, ct, 2 * TT_TENSOR_ACCESSOR_ARGS_MAX, &nct);
		nrt = 3;
	}
	cfg.compile_args = ct;
	cfg.compile_arg_count = nct;
	cfg.named_compile_args = named;
	cfg.named_compile_arg_count = runtime ? 1 : 2;
	assert_int_equal(tt_create_program(&p), 0);
	if (tt_create_kernel_from_string(p, runtime ? copy_rt : copy_ct, &core,
					 &cfg, &k))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_set_runtime_args(p, k, c11, rt, nrt), 0);
	if (ncrt)
		assert_int_equal(tt_set_common_runtime_args(p, k, crt, ncrt), 0);
	return p;
}

static void copy(tt_device *dev, tt_buffer *src, tt_buffer *dst,
		 bool runtime, unsigned seed)
{
	tt_buffer *scratch = interleaved(dev, TT_BUFFER_L1, 1,
					 (unsigned)tt_buffer_page_size(src));
	tt_program *p = copy_program(src, dst, scratch, runtime);

	expect_copy(dev, p, src, dst, seed);
	tt_program_free(p);
	tt_buffer_free(scratch);
}

/* Interleaved DRAM to interleaved L1 and back, with page sizes that are
 * not multiples of the alignment (40: 64 in DRAM, 48 in L1). */
static void test_interleaved(void **state)
{
	tt_device *dev = *state;
	tt_buffer *dram = interleaved(dev, TT_BUFFER_DRAM, 37, 40);
	tt_buffer *l1 = interleaved(dev, TT_BUFFER_L1, 37, 40);
	tt_buffer *dram2 = interleaved(dev, TT_BUFFER_DRAM, 37, 40);

	copy(dev, dram, l1, false, 1);
	copy(dev, l1, dram2, false, 2);
	copy(dev, dram, dram2, true, 3);
	tt_buffer_free(dram);
	tt_buffer_free(l1);
	tt_buffer_free(dram2);
}

/* Sharded L1 (block, both orientations; height; width) and DRAM (height)
 * to interleaved DRAM and back, with edge shards that hold fewer pages. */
static void test_sharded(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set g33 = tt_core_range_set_of_range(0, 0, 2, 2);
	struct tt_core_range_set g4 = tt_core_range_set_of_range(1, 2, 4, 2);
	struct tt_core_range_set banks = tt_core_range_set_of_range(0, 0, 2, 0);
	tt_buffer *d35 = interleaved(dev, TT_BUFFER_DRAM, 35, 48);
	tt_buffer *d24 = interleaved(dev, TT_BUFFER_DRAM, 24, 48);
	tt_buffer *b;

	b = sharded(dev, TT_BUFFER_L1, TT_LAYOUT_BLOCK_SHARDED, g33,
		    TT_SHARD_ROW_MAJOR, 5, 7, 2, 3, 48);
	copy(dev, b, d35, false, 10);
	copy(dev, d35, b, true, 11);
	tt_buffer_free(b);
	b = sharded(dev, TT_BUFFER_L1, TT_LAYOUT_BLOCK_SHARDED, g33,
		    TT_SHARD_COL_MAJOR, 5, 7, 2, 3, 48);
	copy(dev, b, d35, true, 12);
	copy(dev, d35, b, false, 13);
	tt_buffer_free(b);
	b = sharded(dev, TT_BUFFER_L1, TT_LAYOUT_HEIGHT_SHARDED, g4,
		    TT_SHARD_ROW_MAJOR, 7, 5, 2, 5, 48);
	copy(dev, b, d35, false, 14);
	tt_buffer_free(b);
	b = sharded(dev, TT_BUFFER_L1, TT_LAYOUT_WIDTH_SHARDED, g4,
		    TT_SHARD_ROW_MAJOR, 5, 7, 5, 2, 48);
	copy(dev, b, d35, true, 15);
	tt_buffer_free(b);
	b = sharded(dev, TT_BUFFER_DRAM, TT_LAYOUT_HEIGHT_SHARDED, banks,
		    TT_SHARD_ROW_MAJOR, 6, 4, 2, 4, 48);
	copy(dev, b, d24, false, 16);
	copy(dev, d24, b, true, 17);
	tt_buffer_free(b);
	tt_buffer_free(d35);
	tt_buffer_free(d24);
}

/* Whole shards: noc_async_read_shard of every shard into L1, written to
 * a DRAM buffer of one shard slot per page; get_shard_noc_addr of shard
 * k is its first page's address. */
static const char shards_kernel[] =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	const TensorAccessorArgs sa = TensorAccessorArgs(0);\n"
	"	const TensorAccessorArgs da =\n"
	"		TensorAccessorArgs(sa.next_compile_time_args_offset);\n"
	"	TensorAccessor s = TensorAccessor(sa, get_arg_val(0), 48);\n"
	"	TensorAccessor d = TensorAccessor(da, get_arg_val(1),\n"
	"				   get_named_compile_time_arg_val(\"slot\"));\n"
	"	uint32_t l1 = get_arg_val(2);\n"
	"	for (uint32_t k = 0; k < s.nshards; k++) {\n"
	"		ASSERT(get_shard_noc_addr(k, s) == get_noc_addr(get_arg_val(3 + k), s));\n"
	"		noc_async_read_shard(k, &s, l1);\n"
	"		noc_async_read_barrier();\n"
	"		noc_async_write_page(k, d, l1);\n"
	"		noc_async_write_barrier();\n"
	"	}\n"
	"}\n";

static void test_whole_shards(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set g33 = tt_core_range_set_of_range(0, 0, 2, 2);
	struct tt_core_range_set core = tt_core_range_set_of_core(1, 1);
	struct tt_xy c11 = { 1, 1 };
	/* 5x7 pages in 2x3 shards: 9 shards, each slot 6 pages of 48. */
	tt_buffer *b = sharded(dev, TT_BUFFER_L1, TT_LAYOUT_BLOCK_SHARDED, g33,
			       TT_SHARD_ROW_MAJOR, 5, 7, 2, 3, 48);
	tt_buffer *out = interleaved(dev, TT_BUFFER_DRAM, 9, 6 * 48);
	tt_buffer *scratch = interleaved(dev, TT_BUFFER_L1, 1, 6 * 48);
	struct tt_named_arg slot = { "slot", 6 * 48 };
	struct tt_kernel_config cfg = tt_writer_config();
	uint32_t ct[40], rt[12];
	uint8_t in[35 * 48], got[9 * 6 * 48];
	unsigned n = 0;
	tt_kernel_handle k;
	tt_program *p;

	append(b, ct, 40, &n);
	append(out, ct, 40, &n);
	cfg.compile_args = ct;
	cfg.compile_arg_count = n;
	cfg.named_compile_args = &slot;
	cfg.named_compile_arg_count = 1;
	rt[0] = (uint32_t)tt_buffer_address(b);
	rt[1] = (uint32_t)tt_buffer_address(out);
	rt[2] = (uint32_t)tt_buffer_address(scratch);
	for (unsigned s = 0; s < 9; s++) /* the first page of shard s */
		rt[3 + s] = s / 3 * 2 * 7 + s % 3 * 3;
	fill(in, sizeof(in), 20);
	assert_int_equal(tt_write_to_buffer(b, in, sizeof(in)), 0);
	assert_int_equal(tt_create_program(&p), 0);
	if (tt_create_kernel_from_string(p, shards_kernel, &core, &cfg, &k))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_set_runtime_args(p, k, c11, rt, 12), 0);
	if (run(dev, p))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_read_from_buffer(out, got, sizeof(got)), 0);
	for (unsigned pg = 0; pg < 35; pg++) {
		unsigned r = pg / 7, c = pg % 7;
		unsigned s = r / 2 * 3 + c / 3, at = r % 2 * 3 + c % 3;

		assert_memory_equal(got + (s * 6 + at) * 48, in + pg * 48, 48);
	}
	tt_program_free(p);
	tt_buffer_free(scratch);
	tt_buffer_free(out);
	tt_buffer_free(b);
}

/* ---- TT-Metal's other kernel names ---- */

static const char names_kernel[] =
	"#include \"dataflow_api.h\"\n"
	"FORCE_INLINE uint32_t twice(uint32_t x) { return 2 * x; }\n"
	"static FORCE_INLINE uint32_t thrice(uint32_t x) { return 3 * x; }\n"
	"ALWI uint32_t plus1(uint32_t x) { return x + 1; }\n"
	"static const uint8_t text[8] = \"memcpy!\";\n"
	"void kernel_main(void)\n"
	"{\n"
	"	volatile tt_l1_ptr uint32_t *out =\n"
	"		(volatile tt_l1_ptr uint32_t *)get_arg_val(0);\n"
	"	out[0] = VALID;\n"
	"	out[1] = INVALID;\n"
	"	out[2] = twice(21);\n"
	"	out[3] = plus1(thrice(0) + 41);\n"
	"	memset((void *)&out[4], 0x5A, 8);\n"
	"	memcpy((void *)&out[6], text, sizeof(text));\n"
	"	out[8] = strlen((const char *)text) + (memcmp(text, \"memcpy!\", 8) == 0);\n"
	"}\n";

static void test_kernel_names(void **state)
{
	tt_device *dev = *state;
	tt_buffer *b = interleaved(dev, TT_BUFFER_L1, 1, 64);
	uint32_t addr = (uint32_t)tt_buffer_address(b), got[9];
	struct tt_xy c11 = { 1, 1 };
	tt_kernel_handle k;
	tt_program *p;

	assert_int_equal(tt_create_program(&p), 0);
	if (tt_create_kernel_from_string_on_core(p, names_kernel, c11, NULL,
						 &k))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_set_runtime_args(p, k, c11, &addr, 1), 0);
	if (run(dev, p))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_read_from_device_l1(dev, c11, addr, got,
						sizeof(got)), 0);
	assert_int_equal(got[0], 1);
	assert_int_equal(got[1], 0);
	assert_int_equal(got[2], 42);
	assert_int_equal(got[3], 42);
	assert_int_equal(got[4], 0x5A5A5A5Au);
	assert_int_equal(got[5], 0x5A5A5A5Au);
	assert_memory_equal(&got[6], "memcpy!", 8);
	assert_int_equal(got[8], 8);
	tt_program_free(p);
	tt_buffer_free(b);
}

/* add_init and matmul_tile in a compute kernel: A + I and A x I of a
 * tile A of small integers (exact in bfloat16) and the identity I, the
 * tiles read with TensorAccessor and made with the bf16 helpers. */
static const char eye_reader[] =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	const TensorAccessorArgs aa = TensorAccessorArgs(0);\n"
	"	const TensorAccessorArgs ia =\n"
	"		TensorAccessorArgs(aa.next_compile_time_args_offset);\n"
	"	TensorAccessor a = TensorAccessor(aa, get_arg_val(0), 2048);\n"
	"	TensorAccessor eye = TensorAccessor(ia, get_arg_val(1), 2048);\n"
	"	cb_reserve_back(0, 1);\n"
	"	noc_async_read_page(0, a, get_write_ptr(0));\n"
	"	cb_reserve_back(1, 1);\n"
	"	noc_async_read_page(0, eye, get_write_ptr(1));\n"
	"	noc_async_read_barrier();\n"
	"	cb_push_back(0, 1);\n"
	"	cb_push_back(1, 1);\n"
	"}\n";

static const char eye_compute[] =
	"#include \"compute_kernel_api.h\"\n"
	"ALWI void both(void)\n"
	"{\n"
	"	add_tiles(0, 1, 0, 0, 0);\n"
	"	matmul_tile(0, 1, 0, 0, 1);\n"
	"}\n"
	"void kernel_main(void)\n"
	"{\n"
	"	binary_op_init_common(0, 1, 16);\n"
	"	add_init(0, 1);\n"
	"	cb_wait_front(0, 1);\n"
	"	cb_wait_front(1, 1);\n"
	"	tile_regs_acquire();\n"
	"	both();\n"
	"	tile_regs_commit();\n"
	"	tile_regs_wait();\n"
	"	cb_reserve_back(16, 2);\n"
	"	pack_tile(0, 16);\n"
	"	pack_tile(1, 16);\n"
	"	cb_push_back(16, 2);\n"
	"	tile_regs_release();\n"
	"	cb_pop_front(0, 1);\n"
	"	cb_pop_front(1, 1);\n"
	"}\n";

static const char eye_writer[] =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	TensorAccessor out = TensorAccessor(TensorAccessorArgs(0),\n"
	"					   get_arg_val(0), 2048);\n"
	"	cb_wait_front(16, 2);\n"
	"	noc_async_write_page(0, out, get_read_ptr(16));\n"
	"	noc_async_write_page(1, out, get_read_ptr(16) + 2048);\n"
	"	noc_async_write_barrier();\n"
	"	cb_pop_front(16, 2);\n"
	"}\n";

static void test_compute_names(void **state)
{
	tt_device *dev = *state;
	tt_buffer *a = interleaved(dev, TT_BUFFER_DRAM, 1, 2048);
	tt_buffer *eye = interleaved(dev, TT_BUFFER_DRAM, 1, 2048);
	tt_buffer *out = interleaved(dev, TT_BUFFER_DRAM, 2, 2048);
	struct tt_xy c = { 2, 1 };
	uint16_t am[1024], im[1024], at[1024], it[1024], got[2048], want[1024];
	uint32_t ct[4], args[2];
	unsigned n = 0;
	struct tt_kernel_config rc = tt_reader_config(), wc = tt_writer_config();
	struct tt_kernel_config cc = tt_compute_config();
	struct tt_circular_buffer_config cb;
	tt_kernel_handle kr, kc, kw;
	tt_cb_handle h;
	tt_program *p;

	for (unsigned i = 0; i < 1024; i++)
		am[i] = tt_float_to_bf16((float)(i % 17) - 8.0f);
	assert_int_equal(tt_bf16_identity_matrix(im, 32, 32, 32), 0);
	assert_int_equal(tt_tilize(at, sizeof(at), am, sizeof(am), 32, 32, 2,
				   NULL), 0);
	assert_int_equal(tt_tilize(it, sizeof(it), im, sizeof(im), 32, 32, 2,
				   NULL), 0);
	assert_int_equal(tt_write_to_buffer(a, at, sizeof(at)), 0);
	assert_int_equal(tt_write_to_buffer(eye, it, sizeof(it)), 0);
	append(a, ct, 4, &n);
	append(eye, ct, 4, &n);
	rc.compile_args = ct;
	rc.compile_arg_count = n;
	n = 0;
	append(out, ct + 2, 2, &n);
	wc.compile_args = ct + 2;
	wc.compile_arg_count = n;

	assert_int_equal(tt_create_program(&p), 0);
	cb = tt_circular_buffer_config(2048, 0, TT_FLOAT16_B, 2048);
	{
		struct tt_core_range_set s = tt_core_range_set_of_core(c.x, c.y);

		assert_int_equal(tt_create_circular_buffer(p, &s, &cb, &h), 0);
		cb = tt_circular_buffer_config(2048, 1, TT_FLOAT16_B, 2048);
		assert_int_equal(tt_create_circular_buffer(p, &s, &cb, &h), 0);
		cb = tt_circular_buffer_config(4096, 16, TT_FLOAT16_B, 2048);
		assert_int_equal(tt_create_circular_buffer(p, &s, &cb, &h), 0);
	}
	if (tt_create_kernel_from_string_on_core(p, eye_reader, c, &rc, &kr) ||
	    tt_create_kernel_from_string_on_core(p, eye_compute, c, &cc, &kc) ||
	    tt_create_kernel_from_string_on_core(p, eye_writer, c, &wc, &kw))
		fail_msg("%s", tt_last_error());
	args[0] = (uint32_t)tt_buffer_address(a);
	args[1] = (uint32_t)tt_buffer_address(eye);
	assert_int_equal(tt_set_runtime_args(p, kr, c, args, 2), 0);
	args[0] = (uint32_t)tt_buffer_address(out);
	assert_int_equal(tt_set_runtime_args(p, kw, c, args, 1), 0);
	if (run(dev, p))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_read_from_buffer(out, got, sizeof(got)), 0);
	/* A + I, then A x I = A, both tilized. */
	for (unsigned i = 0; i < 1024; i++)
		want[i] = tt_float_to_bf16(tt_bf16_to_float(am[i]) +
					   (i / 32 == i % 32 ? 1.0f : 0.0f));
	assert_int_equal(tt_tilize(it, sizeof(it), want, sizeof(want), 32, 32,
				   2, NULL), 0);
	assert_memory_equal(got, it, 2048);
	assert_memory_equal(got + 1024, at, 2048);
	tt_program_free(p);
	tt_buffer_free(a);
	tt_buffer_free(eye);
	tt_buffer_free(out);
}

/* ---- errors ---- */

/* A one-kernel program on core (0,1) with compile-time args ct and
 * runtime args rt. */
static tt_program *one_kernel(const char *src, const uint32_t *ct,
			      unsigned nct, const uint32_t *rt, unsigned nrt,
			      const struct tt_named_arg *named,
			      unsigned nnamed)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 1);
	struct tt_kernel_config cfg = tt_writer_config();
	tt_kernel_handle k;
	tt_program *p;

	cfg.compile_args = ct;
	cfg.compile_arg_count = nct;
	cfg.named_compile_args = named;
	cfg.named_compile_arg_count = nnamed;
	assert_int_equal(tt_create_program(&p), 0);
	if (tt_create_kernel_from_string(p, src, &core, &cfg, &k))
		fail_msg("%s", tt_last_error());
	if (nrt)
		assert_int_equal(tt_set_runtime_args(p, k, (struct tt_xy){ 0, 1 },
						     rt, nrt), 0);
	return p;
}

/* The kernel halts with a report; the chip is reset afterwards. */
static void expect_fault(tt_device *dev, tt_program *p, const char *want)
{
	assert_int_equal(run(dev, p), -EFAULT);
	assert_error_contains("core (0,1)");
	assert_error_contains(want);
	tt_program_free(p);
	assert_int_equal(tt_device_reset(dev, 10000), 0);
}

static void test_accessor_errors(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set g33 = tt_core_range_set_of_range(0, 0, 2, 2);
	tt_buffer *b = sharded(dev, TT_BUFFER_L1, TT_LAYOUT_BLOCK_SHARDED, g33,
			       TT_SHARD_ROW_MAJOR, 5, 7, 2, 3, 48);
	tt_buffer *il = interleaved(dev, TT_BUFFER_DRAM, 4, 64);
	uint32_t ct[16], rt[16] = { 0 };
	unsigned n = 0, nil = 0;
	uint32_t il_ct[2];

	append(b, ct, 16, &n);
	append(il, il_ct, 2, &nil);
	rt[0] = 7; /* no accessor header */
	/* Words that are no accessor args, from each kind of argument. */
	expect_fault(dev,
		     one_kernel("#include \"dataflow_api.h\"\n"
				"void kernel_main(void) { TensorAccessorArgs a = TensorAccessorArgs(1); (void)a; }\n",
				ct, n, NULL, 0, NULL, 0),
		     "TensorAccessorArgs: compile-time argument 1 is 0x5, not the first word of tt_tensor_accessor_args_append");
	expect_fault(dev,
		     one_kernel("#include \"dataflow_api.h\"\n"
				"void kernel_main(void) { TensorAccessorArgs a = TensorAccessorArgs_rt(0); (void)a; }\n",
				NULL, 0, rt, 1, NULL, 0),
		     "runtime argument 0 is 0x7, not the first word");
	expect_fault(dev,
		     one_kernel("#include \"dataflow_api.h\"\n"
				"void kernel_main(void) { TensorAccessorArgs a = TensorAccessorArgs_rt(3); (void)a; }\n",
				NULL, 0, rt, 2, NULL, 0),
		     "TensorAccessorArgs: runtime argument 3 out of range: the kernel has 2");
	/* Cut short: the header claims words the kernel lacks. */
	expect_fault(dev,
		     one_kernel("#include \"dataflow_api.h\"\n"
				"void kernel_main(void) { TensorAccessorArgs a = TensorAccessorArgs_rt(0); (void)a; }\n",
				NULL, 0, ct, 5, NULL, 0),
		     "runtime arguments from 0 are not tensor accessor words of a whole buffer");
	/* Page and shard ids out of range, shard calls on interleaved. */
	expect_fault(dev,
		     one_kernel("#include \"dataflow_api.h\"\n"
				"void kernel_main(void) { TensorAccessor s = TensorAccessor(TensorAccessorArgs(0), 0x80000, 48);\n"
				"  (void)get_noc_addr(get_arg_val(0), s); }\n",
				ct, n, (uint32_t[]){ 35 }, 1, NULL, 0),
		     "TensorAccessor: page 35 out of range: the sharded buffer has 35");
	expect_fault(dev,
		     one_kernel("#include \"dataflow_api.h\"\n"
				"void kernel_main(void) { TensorAccessor s = TensorAccessor(TensorAccessorArgs(0), 0x80000, 48);\n"
				"  (void)get_shard_noc_addr(get_arg_val(0), &s); }\n",
				ct, n, (uint32_t[]){ 9 }, 1, NULL, 0),
		     "TensorAccessor: shard 9 out of range: the sharded buffer has 9");
	expect_fault(dev,
		     one_kernel("#include \"dataflow_api.h\"\n"
				"void kernel_main(void) { TensorAccessor s = TensorAccessor(TensorAccessorArgs(0), 0x80000, 64);\n"
				"  (void)get_shard_noc_addr(0, s); }\n",
				il_ct, nil, NULL, 0, NULL, 0),
		     "shard calls need a sharded buffer; this one is interleaved");
	/* A constant offset past the compile-time args does not build. */
	{
		tt_program *p = one_kernel(
			"#include \"dataflow_api.h\"\n"
			"void kernel_main(void) { TensorAccessorArgs a = TensorAccessorArgs(1); (void)a; }\n",
			il_ct, nil, NULL, 0, NULL, 0);

		assert_int_equal(run(dev, p), -ENOEXEC);
		assert_error_contains("index not below KERNEL_COMPILE_TIME_ARG_COUNT");
		tt_program_free(p);
	}
	tt_buffer_free(il);
	tt_buffer_free(b);
}

/* An unknown name fails the program's build naming it; the kernel's
 * other names and values are fine. */
static void test_named_unknown(void **state)
{
	static const struct tt_named_arg named[] = { { "tiles", 4 } };
	tt_program *p = one_kernel(
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void) { DPRINT(\"%u\", get_named_compile_time_arg_val(\"tiles\") +\n"
		"  get_named_compile_time_arg_val(\"tile\")); }\n",
		NULL, 0, NULL, 0, named, 1);

	assert_int_equal(run(*state, p), -ENOEXEC);
	assert_error_contains("kernel 0 (<string 0>)");
	assert_error_contains("get_named_compile_time_arg_val(tile): no named compile-time argument of this name");
	tt_program_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_sharded),
		cmocka_unit_test(test_whole_shards),
		cmocka_unit_test(test_kernel_names),
		cmocka_unit_test(test_compute_names),
		cmocka_unit_test(test_named_unknown),
		cmocka_unit_test(test_accessor_errors),
	};

	return cmocka_run_group_tests_name("kernel_features", tests, booted_up,
					   booted_down);
}
