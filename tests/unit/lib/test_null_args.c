// SPDX-License-Identifier: Apache-2.0
/*
 * The error contract of tt/common.h, header by header: every public
 * function given NULL for a handle or a required pointer fails the way its
 * return type says (-EINVAL, NULL, false or 0, or nothing done) and
 * tt_last_error() says "<function>: <argument> is NULL". Destructors take
 * NULL as a no-op and leave the last error alone.
 *
 * Each header has a table of cases: the function's name and an
 * expression that is -EINVAL when the call was refused as the rule says.
 * The handles the expressions need (a device, buffer, program, command
 * queue, tensor) are the group's, in struct fx.
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

struct fx {
	tt_device *dev;
	tt_buffer *buf;
	tt_program *prog;
	tt_command_queue *cq;
	tt_tensor *t;
	tt_backend *b;
	tt_kernel_handle k;
	tt_ops_ctx *ops;
	tt_device_tensor *dt;
};

/* What a refused call returns, as -EINVAL: the int itself; a pointer
 * that is NULL; a plain value that is 0 (false, 0, enum 0); a struct
 * tt_xy of 0, 0; a void call (its message tells). */
#define I(e) (e)
#define P(e) ((e) == NULL ? -EINVAL : 0)
#define Z(e) ((e) == 0 ? -EINVAL : 0)
#define XY(e) (xy_zero(e) ? -EINVAL : 0)
#define V(e) ((e), -EINVAL)

static bool xy_zero(struct tt_xy v)
{
	return !v.x && !v.y;
}

struct null_case {
	const char *fn;
	int (*run)(struct fx *f);
};

/* One runner per case: X(tag, function, expression). */
#define RUNNER(tag, fn, expr)                  \
	static int run_##tag(struct fx *f)     \
	{                                      \
		(void)f;                       \
		return expr;                   \
	}
#define ROW(tag, fn, expr) { #fn, run_##tag },

static const struct tt_xy c00 = { 0, 0 };
static const struct tt_shape shape = TT_SHAPE(32, 32);
static const struct tt_core_range_set one = { 1, { { { 0, 0 }, { 0, 0 } } } };
static const struct tt_core_range r00 = { { 0, 0 }, { 0, 0 } };
static uint32_t words[8];
static uint8_t bytes[64];

/* ---- tt/device.h ---- */
#define DEVICE_CASES(X)                                                        \
	X(dev_count, tt_device_count, I(tt_device_count(NULL)))                \
	X(dev_open, tt_device_open, I(tt_device_open(0, NULL)))                \
	X(dev_info, tt_device_get_info, P(tt_device_get_info(NULL)))           \
	X(dev_core_type, tt_device_core_type,                                  \
	  Z(tt_device_core_type(NULL, 0, 0)))                                  \
	X(dev_harvested, tt_device_core_harvested,                             \
	  Z(tt_device_core_harvested(NULL, 0, 0)))                             \
	X(dev_tensix, tt_device_tensix_core,                                   \
	  I(tt_device_tensix_core(NULL, 0, NULL)))                             \
	X(dev_tensix_out, tt_device_tensix_core,                               \
	  I(tt_device_tensix_core(f->dev, 0, NULL)))                           \
	X(dev_dram, tt_device_dram_core,                                       \
	  I(tt_device_dram_core(NULL, 0, 0, NULL)))                            \
	X(dev_dram_out, tt_device_dram_core,                                   \
	  I(tt_device_dram_core(f->dev, 0, 0, NULL)))                          \
	X(dev_pcie, tt_device_pcie_core, I(tt_device_pcie_core(NULL, NULL)))   \
	X(dev_pcie_out, tt_device_pcie_core,                                   \
	  I(tt_device_pcie_core(f->dev, NULL)))                                \
	X(dev_errors, tt_device_errors, I(tt_device_errors(NULL, NULL, 0)))    \
	X(dev_errors_out, tt_device_errors,                                    \
	  I(tt_device_errors(f->dev, NULL, 4)))                                \
	X(dev_procs, tt_device_processes,                                      \
	  I(tt_device_processes(NULL, NULL, 0)))                               \
	X(dev_procs_out, tt_device_processes,                                  \
	  I(tt_device_processes(f->dev, NULL, 4)))

/* ---- tt/noc.h ---- */
#define NOC_CASES(X)                                                           \
	X(noc_write, tt_noc_write, I(tt_noc_write(NULL, 0, 0, 0, 0, bytes, 4)))  \
	X(noc_write_src, tt_noc_write,                                         \
	  I(tt_noc_write(f->dev, 0, 0, 0, 0, NULL, 4)))                        \
	X(noc_read, tt_noc_read, I(tt_noc_read(NULL, 0, 0, 0, 0, bytes, 4)))   \
	X(noc_read_dst, tt_noc_read,                                           \
	  I(tt_noc_read(f->dev, 0, 0, 0, 0, NULL, 4)))                         \
	X(noc_mcast, tt_noc_multicast,                                         \
	  I(tt_noc_multicast(NULL, 0, c00, c00, 0, bytes, 4)))                 \
	X(noc_mcast_src, tt_noc_multicast,                                     \
	  I(tt_noc_multicast(f->dev, 0, c00, c00, 0, NULL, 4)))                \
	X(noc_write32, tt_noc_write32, I(tt_noc_write32(NULL, 0, 0, 0, 0, 1))) \
	X(noc_read32, tt_noc_read32,                                           \
	  I(tt_noc_read32(NULL, 0, 0, 0, 0, words)))                           \
	X(noc_read32_val, tt_noc_read32,                                       \
	  I(tt_noc_read32(f->dev, 0, 0, 0, 0, NULL)))

/* ---- tt/dma.h ---- */
#define DMA_CASES(X)                                                           \
	X(dma_alloc, tt_dma_buf_alloc, I(tt_dma_buf_alloc(NULL, 4096, NULL)))  \
	X(dma_alloc_out, tt_dma_buf_alloc,                                     \
	  I(tt_dma_buf_alloc(f->dev, 4096, NULL)))                             \
	X(dma_data, tt_dma_buf_data, P(tt_dma_buf_data(NULL)))                 \
	X(dma_size, tt_dma_buf_size, Z(tt_dma_buf_size(NULL)))                 \
	X(dma_xy, tt_dma_buf_noc_xy, XY(tt_dma_buf_noc_xy(NULL)))              \
	X(dma_addr, tt_dma_buf_noc_addr, Z(tt_dma_buf_noc_addr(NULL)))

/* ---- tt/hart.h ---- */
#define HART_CASES(X)                                                          \
	X(hart_status, tt_hart_status, I(tt_hart_status(NULL, c00, 0, NULL)))  \
	X(hart_status_out, tt_hart_status,                                     \
	  I(tt_hart_status(f->dev, c00, 0, NULL)))                             \
	X(hart_load, tt_hart_load_elf,                                         \
	  I(tt_hart_load_elf(NULL, c00, bytes, 4, NULL)))                      \
	X(hart_load_elf, tt_hart_load_elf,                                     \
	  I(tt_hart_load_elf(f->dev, c00, NULL, 4, NULL)))                     \
	X(hart_file, tt_hart_load_elf_file,                                    \
	  I(tt_hart_load_elf_file(NULL, c00, "x", NULL)))                      \
	X(hart_file_path, tt_hart_load_elf_file,                               \
	  I(tt_hart_load_elf_file(f->dev, c00, NULL, NULL)))                   \
	X(hart_launch, tt_hart_launch,                                         \
	  I(tt_hart_launch(NULL, c00, 0, 0, NULL, 0)))                         \
	X(hart_launch_args, tt_hart_launch,                                    \
	  I(tt_hart_launch(f->dev, c00, 0, 0, NULL, 2)))                       \
	X(hart_wait, tt_hart_wait, I(tt_hart_wait(NULL, c00, 0, 0, NULL)))     \
	X(hart_run, tt_hart_run, I(tt_hart_run(NULL, c00, 0, 0, NULL, 0, 0, NULL))) \
	X(hart_raw, tt_hart_exec_raw,                                          \
	  I(tt_hart_exec_raw(NULL, c00, 0, bytes, 4)))                         \
	X(hart_raw_elf, tt_hart_exec_raw,                                      \
	  I(tt_hart_exec_raw(f->dev, c00, 0, NULL, 4)))                         \
	X(core_problems, tt_device_core_problems,                              \
	  I(tt_device_core_problems(NULL, NULL, 0)))                           \
	X(core_problems_out, tt_device_core_problems,                          \
	  I(tt_device_core_problems(f->dev, NULL, 2)))

/* ---- tt/mgmt.h ---- */
#define MGMT_CASES(X)                                                          \
	X(mgmt_call, tt_mgmt_call, I(tt_mgmt_call(NULL, 0, 0, NULL, NULL, 0))) \
	X(mgmt_ready, tt_mgmt_wait_ready, I(tt_mgmt_wait_ready(NULL, 0)))      \
	X(mgmt_reset, tt_device_reset, I(tt_device_reset(NULL, 0)))            \
	X(mgmt_test, tt_mgmt_test, I(tt_mgmt_test(NULL, 1, NULL)))             \
	X(mgmt_power, tt_mgmt_set_power_state,                                 \
	  I(tt_mgmt_set_power_state(NULL, true)))                              \
	X(mgmt_force, tt_mgmt_force_aiclk, I(tt_mgmt_force_aiclk(NULL, 0)))    \
	X(mgmt_aiclk, tt_mgmt_get_aiclk, I(tt_mgmt_get_aiclk(NULL, NULL, NULL))) \
	X(mgmt_aiclk_mhz, tt_mgmt_get_aiclk,                                   \
	  I(tt_mgmt_get_aiclk(f->dev, NULL, NULL)))                            \
	X(mgmt_wdt, tt_mgmt_set_watchdog, I(tt_mgmt_set_watchdog(NULL, 0)))    \
	X(mgmt_fan, tt_mgmt_force_fan, I(tt_mgmt_force_fan(NULL, -1)))         \
	X(mgmt_fw, tt_mgmt_fw_version, I(tt_mgmt_fw_version(NULL, 0, NULL)))   \
	X(mgmt_fw_out, tt_mgmt_fw_version,                                     \
	  I(tt_mgmt_fw_version(f->dev, 0, NULL)))                              \
	X(mgmt_board, tt_mgmt_board_info, I(tt_mgmt_board_info(NULL, NULL)))   \
	X(mgmt_board_out, tt_mgmt_board_info,                                  \
	  I(tt_mgmt_board_info(f->dev, NULL)))

/* ---- tt/telemetry.h ---- */
#define TELEMETRY_CASES(X)                                                     \
	X(tel_read, tt_telemetry_read, I(tt_telemetry_read(NULL, NULL)))       \
	X(tel_read_out, tt_telemetry_read, I(tt_telemetry_read(f->dev, NULL))) \
	X(tel_tag, tt_telemetry_tag, I(tt_telemetry_tag(NULL, 0, NULL)))       \
	X(tel_tag_raw, tt_telemetry_tag, I(tt_telemetry_tag(f->dev, 0, NULL))) \
	X(tel_raw, tt_telemetry_raw, I(tt_telemetry_raw(NULL, NULL, 0)))       \
	X(tel_raw_out, tt_telemetry_raw, I(tt_telemetry_raw(f->dev, NULL, 4))) \
	X(tel_decode, tt_telemetry_decode,                                     \
	  V(tt_telemetry_decode(NULL, 0, NULL)))                               \
	X(tel_decode_e, tt_telemetry_decode,                                   \
	  V(tt_telemetry_decode(NULL, 2, (struct tt_telemetry *)bytes)))       \
	X(tel_fw_str, tt_fw_version_str,                                       \
	  P(tt_fw_version_str(0, NULL, 16)))

/* ---- tt/core.h ---- */
#define CORE_CASES(X)                                                          \
	X(cr_split, tt_split_work_to_cores,                                     \
	  I(tt_split_work_to_cores((struct tt_xy){ 2, 2 }, 4, false, NULL)))   \
	X(cr_ncores, tt_num_cores_to_core_range_set,                           \
	  I(tt_num_cores_to_core_range_set(2, (struct tt_xy){ 2, 2 }, false,   \
					   NULL)))                             \
	X(cr_valid, tt_core_range_valid, Z(tt_core_range_valid(NULL)))         \
	X(cr_num, tt_core_range_num_cores, Z(tt_core_range_num_cores(NULL)))   \
	X(cr_contains, tt_core_range_contains,                                 \
	  Z(tt_core_range_contains(NULL, c00)))                                \
	X(cr_intersects, tt_core_range_intersects,                             \
	  Z(tt_core_range_intersects(NULL, &r00, NULL)))                       \
	X(cr_intersects_b, tt_core_range_intersects,                           \
	  Z(tt_core_range_intersects(&r00, NULL, NULL)))                       \
	X(crs_init, tt_core_range_set_init,                                    \
	  I(tt_core_range_set_init(NULL, &r00, 1)))                            \
	X(crs_init_ranges, tt_core_range_set_init,                             \
	  I(tt_core_range_set_init(&(struct tt_core_range_set){ 0 }, NULL, 1))) \
	X(crs_add, tt_core_range_set_add, I(tt_core_range_set_add(NULL, r00))) \
	X(crs_merge, tt_core_range_set_merge,                                  \
	  I(tt_core_range_set_merge(NULL, &one)))                              \
	X(crs_merge_other, tt_core_range_set_merge,                            \
	  I(tt_core_range_set_merge(&(struct tt_core_range_set){ 0 }, NULL)))  \
	X(crs_check, tt_core_range_set_check, I(tt_core_range_set_check(NULL))) \
	X(crs_contains, tt_core_range_set_contains,                            \
	  Z(tt_core_range_set_contains(NULL, c00)))                            \
	X(crs_intersects, tt_core_range_set_intersects,                        \
	  Z(tt_core_range_set_intersects(NULL, &one)))                         \
	X(crs_num, tt_core_range_set_num_cores,                                \
	  Z(tt_core_range_set_num_cores(NULL)))                                \
	X(crs_bbox, tt_core_range_set_bounding_box,                            \
	  I(tt_core_range_set_bounding_box(NULL, NULL)))                       \
	X(crs_bbox_out, tt_core_range_set_bounding_box,                        \
	  I(tt_core_range_set_bounding_box(&one, NULL)))                       \
	X(crs_equal, tt_core_range_set_equal,                                  \
	  Z(tt_core_range_set_equal(NULL, &one)))                              \
	X(crs_to_cores, tt_core_range_set_to_cores,                            \
	  Z(tt_core_range_set_to_cores(NULL, NULL, 0)))                        \
	X(crs_to_cores_out, tt_core_range_set_to_cores,                        \
	  Z(tt_core_range_set_to_cores(&one, NULL, 4)))                        \
	X(iter_init, tt_core_iter_init, V(tt_core_iter_init(NULL, &one)))      \
	X(iter_next, tt_core_iter_next, Z(tt_core_iter_next(NULL, NULL)))      \
	X(grid, tt_device_logical_grid,                                        \
	  I(tt_device_logical_grid(NULL, NULL, NULL)))                         \
	X(grid_w, tt_device_logical_grid,                                      \
	  I(tt_device_logical_grid(f->dev, NULL, words)))                      \
	X(dispatch_core, tt_device_dispatch_core,                              \
	  I(tt_device_dispatch_core(NULL, NULL)))                              \
	X(worker_core, tt_device_worker_core,                                  \
	  I(tt_device_worker_core(NULL, c00, NULL)))                           \
	X(worker_core_out, tt_device_worker_core,                              \
	  I(tt_device_worker_core(f->dev, c00, NULL)))

/* ---- tt/dataformat.h ---- */
#define DATAFORMAT_CASES(X)                                                    \
	X(df_bf16_rand, tt_bf16_random_vector,                                 \
	  I(tt_bf16_random_vector(NULL, 4, 1.0f, 1, 0.0f)))                    \
	X(df_bf16_const, tt_bf16_constant_vector,                              \
	  I(tt_bf16_constant_vector(NULL, 4, 1.0f)))                           \
	X(df_bf16_eye, tt_bf16_identity_matrix,                                \
	  I(tt_bf16_identity_matrix(NULL, 2, 2, 1)))                           \
	X(df_parse, tt_data_format_parse, I(tt_data_format_parse(NULL, NULL))) \
	X(df_tiled, tt_tiled_size, I(tt_tiled_size(TT_FLOAT32, 1, 1, NULL)))   \
	X(df_convert, tt_convert,                                              \
	  I(tt_convert(TT_FLOAT32, NULL, 4, TT_FLOAT32, bytes, 4, 1)))         \
	X(df_convert_src, tt_convert,                                          \
	  I(tt_convert(TT_FLOAT32, bytes, 4, TT_FLOAT32, NULL, 4, 1)))         \
	X(df_tilize, tt_tilize, I(tt_tilize(NULL, 4, bytes, 4, 1, 1, 4, NULL))) \
	X(df_untilize, tt_untilize,                                            \
	  I(tt_untilize(bytes, 4, NULL, 4, 1, 1, 4)))                          \
	X(df_tilize_convert, tt_tilize_convert,                                \
	  I(tt_tilize_convert(TT_FLOAT32, NULL, 4, TT_FLOAT32, bytes, 4, 1, 1))) \
	X(df_untilize_convert, tt_untilize_convert,                            \
	  I(tt_untilize_convert(TT_FLOAT32, bytes, 4, TT_FLOAT32, NULL, 4, 1, 1))) \
	X(df_convert_tiles, tt_convert_tiles,                                  \
	  I(tt_convert_tiles(TT_FLOAT32, NULL, 4, TT_FLOAT32, bytes, 4, 1)))

/* ---- tt/buffer.h ---- */
#define BUFFER_CASES(X)                                                        \
	X(buf_create, tt_buffer_create, I(tt_buffer_create(NULL, &f->buf)))    \
	X(buf_create_dev, tt_buffer_create,                                    \
	  I(tt_buffer_create(&(struct tt_buffer_config){ .size = 64,           \
							 .page_size = 64 },    \
			     &f->buf)))                                        \
	X(buf_create_out, tt_buffer_create,                                    \
	  I(tt_buffer_create(&(struct tt_buffer_config){ .device = f->dev,     \
							 .size = 64,           \
							 .page_size = 64 },    \
			     NULL)))                                           \
	X(buf_create_alias, tt_create_buffer, I(tt_create_buffer(NULL, NULL))) \
	X(buf_dealloc, tt_deallocate_buffer, I(tt_deallocate_buffer(NULL)))    \
	X(buf_assign, tt_assign_global_buffer_to_program,                      \
	  I(tt_assign_global_buffer_to_program(NULL, f->prog)))                \
	X(buf_assign_prog, tt_assign_global_buffer_to_program,                 \
	  I(tt_assign_global_buffer_to_program(f->buf, NULL)))                 \
	X(buf_address, tt_buffer_address, Z(tt_buffer_address(NULL)))          \
	X(buf_size, tt_buffer_size, Z(tt_buffer_size(NULL)))                   \
	X(buf_page, tt_buffer_page_size, Z(tt_buffer_page_size(NULL)))         \
	X(buf_apage, tt_buffer_aligned_page_size,                              \
	  Z(tt_buffer_aligned_page_size(NULL)))                                \
	X(buf_pages, tt_buffer_num_pages, Z(tt_buffer_num_pages(NULL)))        \
	X(buf_type, tt_buffer_type, Z(tt_buffer_type(NULL)))                   \
	X(buf_layout, tt_buffer_layout, Z(tt_buffer_layout(NULL)))             \
	X(buf_device, tt_buffer_device, P(tt_buffer_device(NULL)))             \
	X(buf_allocated, tt_buffer_is_allocated, Z(tt_buffer_is_allocated(NULL))) \
	X(buf_banks, tt_buffer_num_banks, Z(tt_buffer_num_banks(NULL)))        \
	X(buf_bank_size, tt_buffer_bank_size, Z(tt_buffer_bank_size(NULL)))    \
	X(buf_ta, tt_tensor_accessor_args_append,                              \
	  I(tt_tensor_accessor_args_append(NULL, words, 8, &f->k)))            \
	X(buf_ta_args, tt_tensor_accessor_args_append,                         \
	  I(tt_tensor_accessor_args_append(f->buf, NULL, 8, &f->k)))           \
	X(buf_ta_count, tt_tensor_accessor_args_append,                        \
	  I(tt_tensor_accessor_args_append(f->buf, words, 8, NULL)))           \
	X(buf_ta_n, tt_tensor_accessor_args_count,                             \
	  Z(tt_tensor_accessor_args_count(NULL)))                              \
	X(buf_l1_align, tt_device_l1_alignment,                                \
	  Z(tt_device_l1_alignment(NULL)))                                     \
	X(buf_dram_align, tt_device_dram_alignment,                            \
	  Z(tt_device_dram_alignment(NULL)))                                   \
	X(buf_loc, tt_buffer_page_location,                                    \
	  I(tt_buffer_page_location(NULL, 0, NULL)))                           \
	X(buf_loc_out, tt_buffer_page_location,                                \
	  I(tt_buffer_page_location(f->buf, 0, NULL)))                         \
	X(buf_write, tt_write_to_buffer, I(tt_write_to_buffer(NULL, bytes, 64))) \
	X(buf_write_src, tt_write_to_buffer,                                   \
	  I(tt_write_to_buffer(f->buf, NULL, 64)))                             \
	X(buf_read, tt_read_from_buffer, I(tt_read_from_buffer(NULL, bytes, 64))) \
	X(buf_read_dst, tt_read_from_buffer,                                   \
	  I(tt_read_from_buffer(f->buf, NULL, 64)))                            \
	X(buf_wregion, tt_write_to_buffer_region,                              \
	  I(tt_write_to_buffer_region(f->buf, 0, NULL, 4)))                    \
	X(buf_rregion, tt_read_from_buffer_region,                             \
	  I(tt_read_from_buffer_region(NULL, 0, bytes, 4)))                    \
	X(l1_write, tt_write_to_device_l1,                                     \
	  I(tt_write_to_device_l1(NULL, c00, 0, bytes, 4)))                    \
	X(l1_read, tt_read_from_device_l1,                                     \
	  I(tt_read_from_device_l1(f->dev, c00, 0, NULL, 4)))                  \
	X(dram_write, tt_write_to_device_dram_channel,                         \
	  I(tt_write_to_device_dram_channel(f->dev, 0, 0, NULL, 4)))           \
	X(dram_read, tt_read_from_device_dram_channel,                         \
	  I(tt_read_from_device_dram_channel(NULL, 0, 0, bytes, 4)))

/* ---- tt/program.h and tt/program_desc.h ---- */
#define PROGRAM_CASES(X)                                                       \
	X(k_core, tt_create_kernel_on_core,                                    \
	  I(tt_create_kernel_on_core(NULL, "k.c", c00, NULL, &f->k)))          \
	X(k_core_path, tt_create_kernel_on_core,                               \
	  I(tt_create_kernel_on_core(f->prog, NULL, c00, NULL, &f->k)))        \
	X(k_core_out, tt_create_kernel_on_core,                                \
	  I(tt_create_kernel_on_core(f->prog, "k.c", c00, NULL, NULL)))        \
	X(k_range, tt_create_kernel_on_range,                                  \
	  I(tt_create_kernel_on_range(NULL, "k.c", r00, NULL, &f->k)))         \
	X(k_range_path, tt_create_kernel_on_range,                             \
	  I(tt_create_kernel_on_range(f->prog, NULL, r00, NULL, &f->k)))       \
	X(k_range_out, tt_create_kernel_on_range,                              \
	  I(tt_create_kernel_on_range(f->prog, "k.c", r00, NULL, NULL)))       \
	X(ks_core, tt_create_kernel_from_string_on_core,                       \
	  I(tt_create_kernel_from_string_on_core(NULL, "x", c00, NULL, &f->k))) \
	X(ks_core_src, tt_create_kernel_from_string_on_core,                   \
	  I(tt_create_kernel_from_string_on_core(f->prog, NULL, c00, NULL,     \
						 &f->k)))                      \
	X(ks_core_out, tt_create_kernel_from_string_on_core,                   \
	  I(tt_create_kernel_from_string_on_core(f->prog, "x", c00, NULL,      \
						 NULL)))                       \
	X(ks_range, tt_create_kernel_from_string_on_range,                     \
	  I(tt_create_kernel_from_string_on_range(NULL, "x", r00, NULL,        \
						  &f->k)))                     \
	X(ks_range_src, tt_create_kernel_from_string_on_range,                 \
	  I(tt_create_kernel_from_string_on_range(f->prog, NULL, r00, NULL,    \
						  &f->k)))                     \
	X(ks_range_out, tt_create_kernel_from_string_on_range,                 \
	  I(tt_create_kernel_from_string_on_range(f->prog, "x", r00, NULL,     \
						  NULL)))                      \
	X(sem_core, tt_create_semaphore_on_core,                               \
	  I(tt_create_semaphore_on_core(NULL, c00, 0, TT_CORE_TENSIX, words)))  \
	X(sem_core_id, tt_create_semaphore_on_core,                            \
	  I(tt_create_semaphore_on_core(f->prog, c00, 0, TT_CORE_TENSIX,       \
					NULL)))                                \
	X(sem_range, tt_create_semaphore_on_range,                             \
	  I(tt_create_semaphore_on_range(NULL, r00, 0, TT_CORE_TENSIX, words))) \
	X(sem_range_id, tt_create_semaphore_on_range,                          \
	  I(tt_create_semaphore_on_range(f->prog, r00, 0, TT_CORE_TENSIX,      \
					 NULL)))                               \
	X(prog_create, tt_program_create, I(tt_program_create(NULL)))          \
	X(prog_create_alias, tt_create_program, I(tt_create_program(NULL)))    \
	X(prog_desc, tt_program_create_from_descriptor,                        \
	  I(tt_program_create_from_descriptor(NULL, &f->prog)))                \
	X(prog_desc_alias, tt_create_program_from_descriptor,                  \
	  I(tt_create_program_from_descriptor(NULL, NULL)))                    \
	X(kernel, tt_create_kernel,                                            \
	  I(tt_create_kernel(NULL, "k.c", &one, NULL, &f->k)))                 \
	X(kernel_path, tt_create_kernel,                                       \
	  I(tt_create_kernel(f->prog, NULL, &one, NULL, &f->k)))               \
	X(kernel_str, tt_create_kernel_from_string,                            \
	  I(tt_create_kernel_from_string(f->prog, NULL, &one, NULL, &f->k)))   \
	X(kernel_cores, tt_kernel_get_cores,                                   \
	  I(tt_kernel_get_cores(NULL, f->k, NULL)))                            \
	X(cb_add, tt_circular_buffer_config_add,                               \
	  I(tt_circular_buffer_config_add(NULL, 0, TT_FLOAT32, 32)))           \
	X(cb_create, tt_create_circular_buffer,                                \
	  I(tt_create_circular_buffer(NULL, &one, NULL, NULL)))                \
	X(cb_get, tt_get_circular_buffer_config,                               \
	  I(tt_get_circular_buffer_config(NULL, 0, NULL)))                     \
	X(cb_total, tt_update_circular_buffer_total_size,                      \
	  I(tt_update_circular_buffer_total_size(NULL, 0, 64)))                \
	X(cb_page, tt_update_circular_buffer_page_size,                        \
	  I(tt_update_circular_buffer_page_size(NULL, 0, 0, 64)))              \
	X(cb_addr, tt_update_dynamic_circular_buffer_address,                  \
	  I(tt_update_dynamic_circular_buffer_address(NULL, 0, f->buf)))       \
	X(cb_addr_size, tt_update_dynamic_circular_buffer_address_and_total_size, \
	  I(tt_update_dynamic_circular_buffer_address_and_total_size(NULL, 0,  \
								     f->buf, 64))) \
	X(sem, tt_create_semaphore,                                            \
	  I(tt_create_semaphore(NULL, &one, 0, TT_CORE_TENSIX, words)))        \
	X(sem_id, tt_create_semaphore,                                         \
	  I(tt_create_semaphore(f->prog, &one, 0, TT_CORE_TENSIX, NULL)))      \
	X(rta, tt_set_runtime_args, I(tt_set_runtime_args(NULL, f->k, c00, words, 1))) \
	X(rta_args, tt_set_runtime_args,                                       \
	  I(tt_set_runtime_args(f->prog, f->k, c00, NULL, 1)))                 \
	X(rta_cores, tt_set_runtime_args_cores,                                \
	  I(tt_set_runtime_args_cores(NULL, f->k, &one, words, 1)))            \
	X(rta_per_core, tt_set_runtime_args_per_core,                          \
	  I(tt_set_runtime_args_per_core(NULL, f->k, NULL, 0)))                \
	X(rta_get, tt_get_runtime_args,                                        \
	  I(tt_get_runtime_args(NULL, f->k, c00, NULL, NULL)))                 \
	X(crta, tt_set_common_runtime_args,                                    \
	  I(tt_set_common_runtime_args(NULL, f->k, words, 1)))                 \
	X(crta_get, tt_get_common_runtime_args,                                \
	  I(tt_get_common_runtime_args(NULL, f->k, NULL, NULL)))

/* ---- tt/queue.h ---- */
#define QUEUE_CASES(X)                                                         \
	X(recover_cores, tt_device_recover_cores,                              \
	  I(tt_device_recover_cores(NULL, NULL)))                              \
	X(cq_wlen, tt_enqueue_write_buffer_len,                                \
	  I(tt_enqueue_write_buffer_len(NULL, f->buf, bytes, 64, true)))       \
	X(cq_wlen_buf, tt_enqueue_write_buffer_len,                            \
	  I(tt_enqueue_write_buffer_len(f->cq, NULL, bytes, 64, true)))        \
	X(cq_wlen_src, tt_enqueue_write_buffer_len,                            \
	  I(tt_enqueue_write_buffer_len(f->cq, f->buf, NULL, 64, true)))       \
	X(cq_rlen, tt_enqueue_read_buffer_len,                                 \
	  I(tt_enqueue_read_buffer_len(NULL, f->buf, bytes, 64, true)))        \
	X(cq_rlen_dst, tt_enqueue_read_buffer_len,                             \
	  I(tt_enqueue_read_buffer_len(f->cq, f->buf, NULL, 64, true)))        \
	X(cq_get, tt_device_command_queue,                                     \
	  I(tt_device_command_queue(NULL, 0, NULL)))                           \
	X(cq_get_out, tt_device_command_queue,                                 \
	  I(tt_device_command_queue(f->dev, 0, NULL)))                         \
	X(enq_write, tt_enqueue_write_buffer,                                  \
	  I(tt_enqueue_write_buffer(NULL, f->buf, bytes, true)))               \
	X(enq_write_buf, tt_enqueue_write_buffer,                              \
	  I(tt_enqueue_write_buffer(f->cq, NULL, bytes, true)))                \
	X(enq_read_dst, tt_enqueue_read_buffer,                                \
	  I(tt_enqueue_read_buffer(f->cq, f->buf, NULL, true)))                \
	X(enq_write_sub, tt_enqueue_write_sub_buffer,                          \
	  I(tt_enqueue_write_sub_buffer(f->cq, f->buf, NULL, 0, 4, true)))     \
	X(enq_read_sub, tt_enqueue_read_sub_buffer,                            \
	  I(tt_enqueue_read_sub_buffer(NULL, f->buf, bytes, 0, 4, true)))      \
	X(enq_prog, tt_enqueue_program, I(tt_enqueue_program(NULL, f->prog, true))) \
	X(enq_prog_p, tt_enqueue_program,                                      \
	  I(tt_enqueue_program(f->cq, NULL, true)))                            \
	X(finish, tt_finish, I(tt_finish(NULL)))                               \
	X(ev_create, tt_event_create, I(tt_event_create(NULL)))                \
	X(ev_record, tt_enqueue_record_event,                                  \
	  I(tt_enqueue_record_event(f->cq, NULL)))                             \
	X(ev_wait, tt_enqueue_wait_for_event,                                  \
	  I(tt_enqueue_wait_for_event(f->cq, NULL)))                           \
	X(ev_sync, tt_event_synchronize, I(tt_event_synchronize(NULL)))        \
	X(ev_query, tt_event_query, I(tt_event_query(NULL)))                   \
	X(sync, tt_synchronize, I(tt_synchronize(NULL)))                       \
	X(cq_timeout, tt_command_queue_set_timeout,                            \
	  V(tt_command_queue_set_timeout(NULL, 5)))

/* ---- tt/tensor.h ---- */
#define TENSOR_CASES(X)                                                        \
	X(sh_wzrc, tt_shape_wzrc, I(tt_shape_wzrc(NULL, NULL)))                \
	X(sh_volume, tt_shape_volume, I(tt_shape_volume(&shape, NULL)))        \
	X(sh_storage, tt_tensor_storage_size,                                  \
	  I(tt_tensor_storage_size(NULL, TT_FLOAT32, TT_TENSOR_TILED, NULL)))  \
	X(sh_tiles, tt_shape_tiles, I(tt_shape_tiles(NULL, NULL)))             \
	X(t_create, tt_tensor_create,                                          \
	  I(tt_tensor_create(NULL, TT_FLOAT32, TT_TENSOR_TILED, NULL)))        \
	X(t_from, tt_tensor_from_data,                                         \
	  I(tt_tensor_from_data(&shape, TT_FLOAT32, TT_TENSOR_TILED, NULL,     \
				4096, NULL)))                                  \
	X(t_wrap, tt_tensor_wrap,                                              \
	  I(tt_tensor_wrap(&shape, TT_FLOAT32, TT_TENSOR_TILED, NULL, 4096,    \
			   NULL, NULL, NULL)))                                 \
	X(t_ref, tt_tensor_ref, P(tt_tensor_ref(NULL)))                        \
	X(t_shape, tt_tensor_shape, P(tt_tensor_shape(NULL)))                  \
	X(t_format, tt_tensor_format, Z(tt_tensor_format(NULL)))               \
	X(t_layout, tt_tensor_layout, Z(tt_tensor_layout(NULL)))               \
	X(t_data, tt_tensor_data, P(tt_tensor_data(NULL)))                     \
	X(t_size, tt_tensor_size, Z(tt_tensor_size(NULL)))                     \
	X(t_volume, tt_tensor_volume, Z(tt_tensor_volume(NULL)))               \
	X(t_copy, tt_tensor_copy, I(tt_tensor_copy(f->t, NULL)))               \
	X(t_to, tt_tensor_to,                                                  \
	  I(tt_tensor_to(NULL, TT_FLOAT32, TT_TENSOR_TILED, NULL)))            \
	X(t_export, tt_tensor_export,                                          \
	  I(tt_tensor_export(f->t, TT_FLOAT32, TT_TENSOR_TILED, NULL, 4096)))  \
	X(t_import, tt_tensor_import,                                          \
	  I(tt_tensor_import(NULL, TT_FLOAT32, TT_TENSOR_TILED, bytes, 4)))    \
	X(t_slice, tt_tensor_slice, I(tt_tensor_slice(NULL, 0, 1, NULL)))      \
	X(t_reshape, tt_tensor_reshape, I(tt_tensor_reshape(f->t, NULL, NULL))) \
	X(t_load, tt_tensor_load_npy, I(tt_tensor_load_npy(NULL, NULL)))       \
	X(t_read, tt_tensor_read_npy, I(tt_tensor_read_npy(NULL, 4, NULL)))    \
	X(t_save, tt_tensor_save_npy, I(tt_tensor_save_npy(f->t, NULL)))       \
	X(dt_create, tt_device_tensor_create,                                  \
	  I(tt_device_tensor_create(NULL, &shape, TT_FLOAT32, TT_BUFFER_DRAM,  \
				    NULL)))                                    \
	X(dt_on_buffer, tt_device_tensor_on_buffer,                            \
	  I(tt_device_tensor_on_buffer(NULL, 0, &shape, TT_FLOAT32, NULL)))    \
	X(dt_view, tt_device_tensor_view,                                      \
	  I(tt_device_tensor_view(NULL, 0, &shape, NULL)))                     \
	X(dt_buffer, tt_device_tensor_buffer, P(tt_device_tensor_buffer(NULL))) \
	X(dt_shape, tt_device_tensor_shape, P(tt_device_tensor_shape(NULL)))   \
	X(dt_format, tt_device_tensor_format, Z(tt_device_tensor_format(NULL))) \
	X(dt_first, tt_device_tensor_first_tile,                               \
	  Z(tt_device_tensor_first_tile(NULL)))                                \
	X(dt_tiles, tt_device_tensor_num_tiles,                                \
	  Z(tt_device_tensor_num_tiles(NULL)))                                 \
	X(dt_write, tt_device_tensor_write,                                    \
	  I(tt_device_tensor_write(NULL, f->cq, f->t)))                        \
	X(dt_read, tt_device_tensor_read,                                      \
	  I(tt_device_tensor_read(NULL, f->cq, f->t)))

/* ---- tt/npy.h ---- */
#define NPY_CASES(X)                                                           \
	X(npy_pre, tt_npy_preamble,                                            \
	  I(tt_npy_preamble(NULL, 12, 64, NULL, NULL, 0)))                     \
	X(npy_dict, tt_npy_parse_dict,                                         \
	  I(tt_npy_parse_dict(NULL, 8, NULL, NULL, 0)))                        \
	X(npy_fmt, tt_npy_format_header,                                       \
	  Z(tt_npy_format_header(NULL, "<f4", NULL, 0)))

/* ---- tt/tensor_queue.h ---- */
#define TENSOR_QUEUE_CASES(X)                                                  \
	X(tq_create, tt_tensor_queue_create,                                   \
	  I(tt_tensor_queue_create(NULL, &shape, TT_FLOAT32, 2, TT_QUEUE_DRAM, \
				   NULL)))                                     \
	X(tq_push, tt_tensor_queue_push, I(tt_tensor_queue_push(NULL, f->t, 0))) \
	X(tq_get, tt_tensor_queue_get, I(tt_tensor_queue_get(NULL, 0, NULL)))  \
	X(tq_read, tt_tensor_queue_read, I(tt_tensor_queue_read(NULL, f->t, 0))) \
	X(tq_pop, tt_tensor_queue_pop, I(tt_tensor_queue_pop(NULL)))           \
	X(tq_state, tt_tensor_queue_state, I(tt_tensor_queue_state(NULL, NULL))) \
	X(tq_break, tt_tensor_queue_break, I(tt_tensor_queue_break(NULL)))     \
	X(tq_reset, tt_tensor_queue_reset, I(tt_tensor_queue_reset(NULL)))     \
	X(tq_shape, tt_tensor_queue_shape, P(tt_tensor_queue_shape(NULL)))     \
	X(tq_format, tt_tensor_queue_format, Z(tt_tensor_queue_format(NULL)))  \
	X(tq_placement, tt_tensor_queue_placement,                             \
	  Z(tt_tensor_queue_placement(NULL)))                                  \
	X(tq_depth, tt_tensor_queue_depth, Z(tt_tensor_queue_depth(NULL)))     \
	X(tq_entry, tt_tensor_queue_entry_size,                                \
	  Z(tt_tensor_queue_entry_size(NULL)))                                 \
	X(tq_slot, tt_tensor_queue_slot_size, Z(tt_tensor_queue_slot_size(NULL))) \
	X(tq_tiles, tt_tensor_queue_tiles, Z(tt_tensor_queue_tiles(NULL)))     \
	X(tq_xy, tt_tensor_queue_noc_xy, XY(tt_tensor_queue_noc_xy(NULL)))     \
	X(tq_addr, tt_tensor_queue_noc_addr, Z(tt_tensor_queue_noc_addr(NULL))) \
	X(tq_args, tt_tensor_queue_kernel_args,                                \
	  V(tt_tensor_queue_kernel_args(NULL, words)))

/* ---- tt/backend.h ---- */
#define BACKEND_CASES(X)                                                       \
	X(be_create, tt_backend_create, I(tt_backend_create(NULL, &f->b)))     \
	X(be_create_out, tt_backend_create, I(tt_backend_create(f->dev, NULL))) \
	X(be_queue, tt_backend_add_queue,                                      \
	  I(tt_backend_add_queue(NULL, "q", TT_IO_INPUT, &shape, TT_FLOAT32,   \
				 2, TT_QUEUE_DRAM)))                           \
	X(be_program, tt_backend_add_program,                                  \
	  I(tt_backend_add_program(NULL, "p", f->prog, NULL, 0)))              \
	X(be_get_io, tt_backend_get_io, I(tt_backend_get_io(NULL, "q", NULL))) \
	X(be_inputs, tt_backend_input_names,                                   \
	  I(tt_backend_input_names(NULL, NULL, NULL)))                         \
	X(be_outputs, tt_backend_output_names,                                 \
	  I(tt_backend_output_names(NULL, NULL, NULL)))                        \
	X(be_programs, tt_backend_program_names,                               \
	  I(tt_backend_program_names(NULL, NULL, NULL)))                       \
	X(be_push, tt_backend_push_input, I(tt_backend_push_input(NULL, f->t, 0))) \
	X(be_get_out, tt_backend_get_output,                                   \
	  I(tt_backend_get_output(NULL, 0, NULL)))                             \
	X(be_pop, tt_backend_pop_output, I(tt_backend_pop_output(NULL, 0)))    \
	X(be_run, tt_backend_run_program,                                      \
	  I(tt_backend_run_program(NULL, "p", NULL, 0)))                       \
	X(be_finish, tt_backend_finish, I(tt_backend_finish(NULL)))

/* ---- tt/ops.h ---- */
static tt_ops_ctx *dummy_ops;
static tt_device_tensor *dummy_dt;
static struct tt_ops_cache_stats ops_stats;
static const struct tt_unary_fn ufn = { TT_UNARY_EXP, 0, 0 };
#define OPS_CASES(X) \
	X(ops_create, tt_ops_ctx_create, I(tt_ops_ctx_create(NULL, &dummy_ops))) \
	X(ops_create_out, tt_ops_ctx_create, I(tt_ops_ctx_create(f->dev, NULL))) \
	X(ops_device, tt_ops_ctx_device, P(tt_ops_ctx_device(NULL))) \
	X(ops_queue, tt_ops_ctx_queue, P(tt_ops_ctx_queue(NULL))) \
	X(ops_finish, tt_ops_finish, I(tt_ops_finish(NULL))) \
	X(ops_stats, tt_ops_cache_stats, I(tt_ops_cache_stats(NULL, &ops_stats))) \
	X(ops_stats_out, tt_ops_cache_stats, I(tt_ops_cache_stats(f->ops, NULL))) \
	X(ops_clear, tt_ops_cache_clear, I(tt_ops_cache_clear(NULL))) \
	X(ops_prof, tt_ops_profile_start, I(tt_ops_profile_start(NULL, "p"))) \
	X(ops_prof_prefix, tt_ops_profile_start, I(tt_ops_profile_start(f->ops, NULL))) \
	X(ops_prof_stop, tt_ops_profile_stop, I(tt_ops_profile_stop(NULL))) \
	X(op_unary, tt_op_unary, I(tt_op_unary(NULL, f->dt, &ufn, NULL, &dummy_dt))) \
	X(op_unary_a, tt_op_unary, I(tt_op_unary(f->ops, NULL, &ufn, NULL, &dummy_dt))) \
	X(op_unary_fn, tt_op_unary, I(tt_op_unary(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_unary_out, tt_op_unary, I(tt_op_unary(f->ops, f->dt, &ufn, NULL, NULL))) \
	X(op_binary, tt_op_binary, I(tt_op_binary(NULL, TT_BINARY_ADD, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_binary_b, tt_op_binary, I(tt_op_binary(f->ops, TT_BINARY_ADD, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_exp, tt_op_exp, I(tt_op_exp(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_exp_a, tt_op_exp, I(tt_op_exp(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_log, tt_op_log, I(tt_op_log(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_log_a, tt_op_log, I(tt_op_log(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_sqrt, tt_op_sqrt, I(tt_op_sqrt(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_sqrt_a, tt_op_sqrt, I(tt_op_sqrt(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_rsqrt, tt_op_rsqrt, I(tt_op_rsqrt(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_rsqrt_a, tt_op_rsqrt, I(tt_op_rsqrt(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_recip, tt_op_recip, I(tt_op_recip(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_recip_a, tt_op_recip, I(tt_op_recip(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_sigmoid, tt_op_sigmoid, I(tt_op_sigmoid(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_sigmoid_a, tt_op_sigmoid, I(tt_op_sigmoid(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_tanh, tt_op_tanh, I(tt_op_tanh(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_tanh_a, tt_op_tanh, I(tt_op_tanh(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_gelu, tt_op_gelu, I(tt_op_gelu(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_gelu_a, tt_op_gelu, I(tt_op_gelu(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_gelu_tanh, tt_op_gelu_tanh, I(tt_op_gelu_tanh(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_gelu_tanh_a, tt_op_gelu_tanh, I(tt_op_gelu_tanh(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_relu, tt_op_relu, I(tt_op_relu(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_relu_a, tt_op_relu, I(tt_op_relu(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_silu, tt_op_silu, I(tt_op_silu(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_silu_a, tt_op_silu, I(tt_op_silu(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_abs, tt_op_abs, I(tt_op_abs(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_abs_a, tt_op_abs, I(tt_op_abs(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_neg, tt_op_neg, I(tt_op_neg(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_neg_a, tt_op_neg, I(tt_op_neg(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_sign, tt_op_sign, I(tt_op_sign(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_sign_a, tt_op_sign, I(tt_op_sign(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_square, tt_op_square, I(tt_op_square(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_square_a, tt_op_square, I(tt_op_square(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_sin, tt_op_sin, I(tt_op_sin(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_sin_a, tt_op_sin, I(tt_op_sin(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_cos, tt_op_cos, I(tt_op_cos(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_cos_a, tt_op_cos, I(tt_op_cos(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_erf, tt_op_erf, I(tt_op_erf(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_erf_a, tt_op_erf, I(tt_op_erf(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_relu6, tt_op_relu6, I(tt_op_relu6(NULL, f->dt, NULL, &dummy_dt))) \
	X(op_relu6_a, tt_op_relu6, I(tt_op_relu6(f->ops, NULL, NULL, &dummy_dt))) \
	X(op_clip, tt_op_clip, I(tt_op_clip(NULL, f->dt, 0, 1, NULL, &dummy_dt))) \
	X(op_clip_out, tt_op_clip, I(tt_op_clip(f->ops, f->dt, 0, 1, NULL, NULL))) \
	X(op_leaky_relu, tt_op_leaky_relu, I(tt_op_leaky_relu(NULL, f->dt, 0.1f, NULL, &dummy_dt))) \
	X(op_leaky_relu_out, tt_op_leaky_relu, I(tt_op_leaky_relu(f->ops, f->dt, 0.1f, NULL, NULL))) \
	X(op_elu, tt_op_elu, I(tt_op_elu(NULL, f->dt, 1, NULL, &dummy_dt))) \
	X(op_elu_out, tt_op_elu, I(tt_op_elu(f->ops, f->dt, 1, NULL, NULL))) \
	X(op_power, tt_op_power, I(tt_op_power(NULL, f->dt, 2, NULL, &dummy_dt))) \
	X(op_power_out, tt_op_power, I(tt_op_power(f->ops, f->dt, 2, NULL, NULL))) \
	X(op_typecast, tt_op_typecast, I(tt_op_typecast(NULL, f->dt, TT_FLOAT32, NULL, &dummy_dt))) \
	X(op_typecast_a, tt_op_typecast, I(tt_op_typecast(f->ops, NULL, TT_FLOAT32, NULL, &dummy_dt))) \
	X(op_add, tt_op_add, I(tt_op_add(NULL, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_add_b, tt_op_add, I(tt_op_add(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_add_out, tt_op_add, I(tt_op_add(f->ops, f->dt, f->dt, NULL, NULL))) \
	X(op_sub, tt_op_sub, I(tt_op_sub(NULL, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_sub_b, tt_op_sub, I(tt_op_sub(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_sub_out, tt_op_sub, I(tt_op_sub(f->ops, f->dt, f->dt, NULL, NULL))) \
	X(op_mul, tt_op_mul, I(tt_op_mul(NULL, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_mul_b, tt_op_mul, I(tt_op_mul(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_mul_out, tt_op_mul, I(tt_op_mul(f->ops, f->dt, f->dt, NULL, NULL))) \
	X(op_div, tt_op_div, I(tt_op_div(NULL, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_div_b, tt_op_div, I(tt_op_div(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_div_out, tt_op_div, I(tt_op_div(f->ops, f->dt, f->dt, NULL, NULL))) \
	X(op_max, tt_op_max, I(tt_op_max(NULL, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_max_b, tt_op_max, I(tt_op_max(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_max_out, tt_op_max, I(tt_op_max(f->ops, f->dt, f->dt, NULL, NULL))) \
	X(op_min, tt_op_min, I(tt_op_min(NULL, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_min_b, tt_op_min, I(tt_op_min(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_min_out, tt_op_min, I(tt_op_min(f->ops, f->dt, f->dt, NULL, NULL))) \
	X(op_matmul, tt_op_matmul, I(tt_op_matmul(NULL, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_matmul_b, tt_op_matmul, I(tt_op_matmul(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_matmul_out, tt_op_matmul, I(tt_op_matmul(f->ops, f->dt, f->dt, NULL, NULL))) \
	X(op_linear, tt_op_linear, I(tt_op_linear(NULL, f->dt, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_linear_w, tt_op_linear, I(tt_op_linear(f->ops, f->dt, NULL, NULL, NULL, &dummy_dt))) \
	X(op_linear_out, tt_op_linear, I(tt_op_linear(f->ops, f->dt, f->dt, NULL, NULL, NULL)))

/* ---- tt/ops/data.h ---- */
static const unsigned data_perm[] = { 0, 1 };
static const int64_t data_st[] = { 0, 0 }, data_en[] = { 1, 1 };
static const uint64_t data_reps[] = { 1, 1 };
static const struct tt_shape data_shape = { 2, { 32, 32 } };
static tt_buffer *dummy_rows;
#define DATA_OPS_CASES(X) \
	X(op_transpose, tt_op_transpose, I(tt_op_transpose(NULL, f->dt, 0, 1, NULL, &dummy_dt))) \
	X(op_transpose_a, tt_op_transpose, I(tt_op_transpose(f->ops, NULL, 0, 1, NULL, &dummy_dt))) \
	X(op_transpose_out, tt_op_transpose, I(tt_op_transpose(f->ops, f->dt, 0, 1, NULL, NULL))) \
	X(op_permute, tt_op_permute, I(tt_op_permute(NULL, f->dt, data_perm, NULL, &dummy_dt))) \
	X(op_permute_perm, tt_op_permute, I(tt_op_permute(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_reshape, tt_op_reshape, I(tt_op_reshape(NULL, f->dt, &data_shape, NULL, &dummy_dt))) \
	X(op_reshape_shape, tt_op_reshape, I(tt_op_reshape(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_concat, tt_op_concat, I(tt_op_concat(NULL, (const tt_device_tensor *const *)&f->dt, 1, 0, NULL, &dummy_dt))) \
	X(op_concat_in, tt_op_concat, I(tt_op_concat(f->ops, NULL, 1, 0, NULL, &dummy_dt))) \
	X(op_slice, tt_op_slice, I(tt_op_slice(NULL, f->dt, data_st, data_en, NULL, NULL, &dummy_dt))) \
	X(op_slice_start, tt_op_slice, I(tt_op_slice(f->ops, f->dt, NULL, data_en, NULL, NULL, &dummy_dt))) \
	X(op_slice_end, tt_op_slice, I(tt_op_slice(f->ops, f->dt, data_st, NULL, NULL, NULL, &dummy_dt))) \
	X(op_pad, tt_op_pad, I(tt_op_pad(NULL, f->dt, NULL, NULL, 0, NULL, &dummy_dt))) \
	X(op_pad_out, tt_op_pad, I(tt_op_pad(f->ops, f->dt, NULL, NULL, 0, NULL, NULL))) \
	X(op_repeat, tt_op_repeat, I(tt_op_repeat(NULL, f->dt, data_reps, NULL, &dummy_dt))) \
	X(op_repeat_reps, tt_op_repeat, I(tt_op_repeat(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_embedding, tt_op_embedding, I(tt_op_embedding(NULL, f->dt, f->dt, NULL, &dummy_dt))) \
	X(op_embedding_indices, tt_op_embedding, I(tt_op_embedding(f->ops, NULL, f->dt, NULL, &dummy_dt))) \
	X(op_embedding_table, tt_op_embedding, I(tt_op_embedding(f->ops, f->dt, NULL, NULL, &dummy_dt))) \
	X(op_tilize, tt_op_tilize, I(tt_op_tilize(NULL, dummy_rows, &data_shape, TT_FLOAT32, NULL, &dummy_dt))) \
	X(op_tilize_rows, tt_op_tilize, I(tt_op_tilize(f->ops, NULL, &data_shape, TT_FLOAT32, NULL, &dummy_dt))) \
	X(op_untilize, tt_op_untilize, I(tt_op_untilize(NULL, f->dt, NULL, &dummy_rows))) \
	X(op_untilize_out, tt_op_untilize, I(tt_op_untilize(f->ops, f->dt, NULL, NULL)))

#define ALL_CASES(X)                                                           \
	DEVICE_CASES(X) NOC_CASES(X) DMA_CASES(X) HART_CASES(X) MGMT_CASES(X)  \
	TELEMETRY_CASES(X) CORE_CASES(X) DATAFORMAT_CASES(X) BUFFER_CASES(X)   \
	PROGRAM_CASES(X) QUEUE_CASES(X) TENSOR_CASES(X) NPY_CASES(X)           \
	TENSOR_QUEUE_CASES(X)                                                  \
	BACKEND_CASES(X) OPS_CASES(X) DATA_OPS_CASES(X)

ALL_CASES(RUNNER)

/* A message no NULL check writes, so a check that sets none is caught. */
static void clear_error(void)
{
	enum tt_data_format fmt;

	assert_int_equal(tt_data_format_parse("no-such-format", &fmt), -EINVAL);
}

/* Every case of one header's table; all failures are listed, then the
 * test fails. */
static void run_table(struct fx *f, const struct null_case *c, size_t n)
{
	unsigned bad = 0;

	for (size_t i = 0; i < n; i++) {
		const char *msg;
		size_t len = strlen(c[i].fn);
		int ret;

		clear_error();
		ret = c[i].run(f);
		msg = tt_last_error();
		if (ret == -EINVAL && !strncmp(msg, c[i].fn, len) &&
		    !strncmp(msg + len, ": ", 2) && strstr(msg, " is NULL"))
			continue;
		print_message("# %s: returned %d, message \"%s\"\n", c[i].fn,
			      ret, msg);
		bad++;
	}
	if (bad)
		fail_msg("%u of %zu NULL cases break the contract", bad, n);
}

#define TABLE_TEST(name, CASES)                                       \
	static void test_##name(void **state)                         \
	{                                                             \
		static const struct null_case cases[] = { CASES(ROW) }; \
		run_table(*state, cases, sizeof(cases) / sizeof(cases[0])); \
	}

TABLE_TEST(device, DEVICE_CASES)
TABLE_TEST(noc, NOC_CASES)
TABLE_TEST(dma, DMA_CASES)
TABLE_TEST(hart, HART_CASES)
TABLE_TEST(mgmt, MGMT_CASES)
TABLE_TEST(telemetry, TELEMETRY_CASES)
TABLE_TEST(core, CORE_CASES)
TABLE_TEST(dataformat, DATAFORMAT_CASES)
TABLE_TEST(buffer, BUFFER_CASES)
TABLE_TEST(program, PROGRAM_CASES)
TABLE_TEST(queue, QUEUE_CASES)
TABLE_TEST(tensor, TENSOR_CASES)
TABLE_TEST(npy, NPY_CASES)
TABLE_TEST(tensor_queue, TENSOR_QUEUE_CASES)
TABLE_TEST(backend_api, BACKEND_CASES)
TABLE_TEST(ops, OPS_CASES)
TABLE_TEST(data_ops, DATA_OPS_CASES)

/* Destructors take NULL and do nothing, not even set a message. */
static void test_destructors(void **state)
{
	(void)state;
	clear_error();
	tt_device_close(NULL);
	tt_dma_buf_free(NULL);
	tt_buffer_free(NULL);
	tt_program_free(NULL);
	tt_event_free(NULL);
	tt_tensor_free(NULL);
	tt_device_tensor_free(NULL);
	tt_tensor_queue_free(NULL);
	tt_backend_free(NULL);
	tt_backend_free_tensor(NULL);
	tt_ops_ctx_free(NULL);
	assert_non_null(strstr(tt_last_error(), "no-such-format"));
}

/* The fixture: a booted device, a 64-byte DRAM buffer, a program with one
 * kernel, command queue 0 and a 32x32 float tensor. */
static int fx_up(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct tt_buffer_config c = { .size = 64, .page_size = 64 };
	void *dev;

	if (!f || booted_up(&dev))
		return -1;
	f->dev = dev;
	c.device = f->dev;
	if (tt_buffer_create(&c, &f->buf) || tt_program_create(&f->prog) ||
	    tt_create_kernel_from_string(f->prog, "void kernel_main(void) {}\n",
					 &one, NULL, &f->k) ||
	    tt_device_command_queue(f->dev, 0, &f->cq) ||
	    tt_tensor_create(&shape, TT_FLOAT32, TT_TENSOR_TILED, &f->t) ||
	    tt_ops_ctx_create(f->dev, &f->ops) ||
	    tt_device_tensor_create(f->dev, &shape, TT_FLOAT16_B,
				    TT_BUFFER_DRAM, &f->dt))
		return -1;
	*state = f;
	return 0;
}

static int fx_down(void **state)
{
	struct fx *f = *state;

	tt_tensor_free(f->t);
	tt_device_tensor_free(f->dt);
	tt_ops_ctx_free(f->ops);
	tt_program_free(f->prog);
	tt_buffer_free(f->buf);
	tt_device_close(f->dev);
	free(f);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_noc),
		cmocka_unit_test(test_dma),
		cmocka_unit_test(test_hart),
		cmocka_unit_test(test_mgmt),
		cmocka_unit_test(test_telemetry),
		cmocka_unit_test(test_core),
		cmocka_unit_test(test_dataformat),
		cmocka_unit_test(test_buffer),
		cmocka_unit_test(test_program),
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_tensor),
		cmocka_unit_test(test_npy),
		cmocka_unit_test(test_tensor_queue),
		cmocka_unit_test(test_backend_api),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_data_ops),
		cmocka_unit_test(test_destructors),
	};

	return cmocka_run_group_tests_name("null_args", tests, fx_up, fx_down);
}
