// SPDX-License-Identifier: Apache-2.0
/*
 * fault_client: one user of a device, for tests/faults/run_faults.py.
 * It opens device 0 (TT_TRANSPORT chooses how), waits for its firmware,
 * and runs the steps named on its command line in order, on that one
 * handle: `fault_client kernel-hang run-ok` is a hung kernel followed by
 * a correct program in the same process.
 *
 * Each step prints "STEP: ..." lines on stdout (flushed, so the driver
 * can wait for "running" before it kills us). A libtt call that fails
 * ends the program with "fault_client: STEP: MESSAGE" on stderr and the
 * error's errno as exit status (EBUSY 16, ENODEV 19, EUSERS 87,
 * ETIMEDOUT 110 ...); wrong data is exit 99; a step that expected a
 * failure and saw another is exit 98; usage errors are exit 2.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <time.h>

#include "hw/tt_hw.h"
#include "tt.h"

#define EXIT_WRONG_DATA 99
#define EXIT_WRONG_ERROR 98
#define BOOT_MS 20000
#define RW_BYTES (64u * 1024)
/* Free L1 of the test core, where run-ok's kernel leaves its argument
 * (no CB or L1 buffer in these programs). */
#define RESULT_ADDR 0x50000u

static const char *const good_src =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void) { *(volatile uint32_t *)0x50000 = get_arg_val(0); }\n";
static const char *const hang_src =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void) { for (;;) noc_semaphore_wait((volatile uint32_t *)0x40000, 12345); }\n";
static const char *const fault_src =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void) { ASSERT(get_arg_val(0) == 7); }\n";
/* Seconds of work for the model: killed long before it ends. */
static const char *const long_src =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void) {\n"
	"	for (uint32_t i = 0; i < 0x7fffffffu; i++)\n"
	"		*(volatile uint32_t *)0x50004 = i;\n"
	"}\n";
/* The compiler reads an endless file: its limits must stop it. */
static const char *const zero_src = "#include \"/dev/zero\"\n";

static const struct tt_xy core_xy = { 1, 1 }; /* logical */

static const char *step; /* for messages */

static void say(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", step);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* A libtt call failed with ret: say what and exit with its errno. */
static _Noreturn void die(int ret)
{
	fprintf(stderr, "fault_client: %s: %s\n", step, tt_last_error());
	exit(ret < 0 && -ret < 98 ? -ret : 1);
}

static _Noreturn void wrong_data(const char *what)
{
	fprintf(stderr, "fault_client: %s: %s\n", step, what);
	exit(EXIT_WRONG_DATA);
}

#define CHECK(call)                  \
	do {                         \
		int ret_ = (call);   \
		if (ret_)            \
			die(ret_);   \
	} while (0)

static tt_device *open_booted(void)
{
	tt_device *dev;

	CHECK(tt_device_open(0, &dev));
	CHECK(tt_mgmt_wait_ready(dev, BOOT_MS));
	return dev;
}

static tt_buffer *dram_buffer(tt_device *dev, uint64_t size)
{
	struct tt_buffer_config c = {
		.device = dev, .size = size, .page_size = 2048,
		.type = TT_BUFFER_DRAM, .layout = TT_LAYOUT_INTERLEAVED,
	};
	tt_buffer *b;

	CHECK(tt_buffer_create(&c, &b));
	return b;
}

/* Wait for the driver to close our stdin (or to kill us). */
static void wait_for_eof(void)
{
	char c;

	while (read(0, &c, 1) > 0)
		;
}

/* ---- steps ---- */

/* Own the chip's runtime (a buffer) until stdin closes. */
static void own(tt_device *dev)
{
	tt_buffer *b = dram_buffer(dev, 4096);

	say("owning pid %ld", (long)getpid());
	wait_for_eof();
	tt_buffer_free(b);
}

/* Write and read back a 64 KiB buffer n times, each with its own data. */
static void rw_loop(tt_device *dev, unsigned n)
{
	static uint32_t src[RW_BYTES / 4], got[RW_BYTES / 4];
	tt_buffer *b = dram_buffer(dev, RW_BYTES);
	unsigned bad = 0;

	say("running pid %ld", (long)getpid());
	for (unsigned it = 0; it < n; it++) {
		for (unsigned i = 0; i < RW_BYTES / 4; i++)
			src[i] = (uint32_t)getpid() * 2654435761u ^ it << 16 ^ i;
		CHECK(tt_write_to_buffer(b, src, RW_BYTES));
		memset(got, 0, sizeof(got));
		CHECK(tt_read_from_buffer(b, got, RW_BYTES));
		if (memcmp(src, got, RW_BYTES))
			bad++;
		say("iteration %u %s", it, bad ? "MISMATCH" : "ok");
	}
	tt_buffer_free(b);
	say("mismatches %u", bad);
	if (bad)
		wrong_data("read back differs from what was written");
}

/* Run kernel src on core (1,1) with argument arg; blocking unless
 * !wait. The enqueue's result. */
static int run_kernel(tt_device *dev, const char *src, uint32_t arg, bool wait)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(1, 1);
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p;
	int ret;

	CHECK(tt_device_command_queue(dev, 0, &cq));
	CHECK(tt_create_program(&p));
	ret = tt_create_kernel_from_string(p, src, &core, NULL, &k);
	if (!ret)
		ret = tt_set_runtime_args(p, k, core_xy, &arg, 1);
	if (!ret)
		ret = tt_enqueue_program(cq, p, wait);
	if (wait)
		tt_program_free(p);
	return ret;
}

/* A correct program whose result is checked. */
static void run_ok(tt_device *dev)
{
	uint32_t v = 0xC0DE0000u | (uint32_t)(getpid() & 0xffff), got = 0;

	CHECK(tt_write_to_device_l1(dev, core_xy, RESULT_ADDR, &got, 4));
	CHECK(run_kernel(dev, good_src, v, true));
	CHECK(tt_read_from_device_l1(dev, core_xy, RESULT_ADDR, &got, 4));
	if (got != v)
		wrong_data("the kernel's result is wrong");
	say("result ok");
}

/* A launch that must fail with want; its message is printed. */
static void expect_failure(int ret, int want)
{
	if (ret == want) {
		say("failed as expected (%d): %s", ret, tt_last_error());
		return;
	}
	fprintf(stderr, "fault_client: %s: got %d, wanted %d: %s\n", step, ret,
		want, ret ? tt_last_error() : "no error");
	exit(EXIT_WRONG_ERROR);
}

/* Start a long kernel, say so, and wait to be killed. */
static void kernel_long(tt_device *dev)
{
	CHECK(run_kernel(dev, long_src, 0, false));
	say("running");
	for (;;)
		pause();
}

/*
 * A device-side NOC command (as kernels and drivers issue them) on
 * command buffer 0 of node n's NIU on NOC 0, between its L1 at l1 and
 * targ on node (x, y); waited for. Its status (TT_DEV_ERR_*), or -1 if
 * it never completed. As tests/unit/testutil.h's niu_run.
 */
static int niu_cmd(tt_device *dev, struct tt_xy n, unsigned op, unsigned x,
		   unsigned y, uint64_t targ, uint64_t l1, uint32_t len)
{
	uint64_t base = TT_REG_NIU_ADDR(0) + TT_NIU_CMD(0, 0);
	uint32_t regs[9] = {
		(uint32_t)targ, (uint32_t)(targ >> 32),
		TT_FIELD_PREP(TT_NIU_COORD_X_MASK, x) |
			TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, y),
		(uint32_t)l1, (uint32_t)(l1 >> 32), len,
		TT_FIELD_PREP(TT_NIU_CTRL_OP_MASK, op), 0,
		1, /* ISSUE */
	};
	time_t end = time(NULL) + 10;
	uint32_t v = 1;

	CHECK(tt_noc_write(dev, 0, n.x, n.y, base, regs, sizeof(regs)));
	while (v) {
		CHECK(tt_noc_read32(dev, 0, n.x, n.y, base + TT_NIU_CMD_ISSUE,
				    &v));
		if (time(NULL) > end)
			return -1;
	}
	CHECK(tt_noc_read32(dev, 0, n.x, n.y, base + TT_NIU_CMD_STATUS, &v));
	return (int)v;
}

/* Device-side copies between a DMA buffer and L1 of core (1,1), both
 * ways, each checked, until killed (n = 0) or n times. */
static void dma_loop(tt_device *dev, unsigned n)
{
	static uint8_t src[16384], got[16384];
	const uint64_t l1 = 0x60000;
	struct tt_xy xy, node;
	tt_dma_buf *b;
	uint64_t addr;

	CHECK(tt_device_worker_core(dev, core_xy, &node));
	CHECK(tt_dma_buf_alloc(dev, sizeof(src), &b));
	xy = tt_dma_buf_noc_xy(b);
	addr = tt_dma_buf_noc_addr(b);
	for (unsigned it = 0; !n || it < n; it++) {
		for (size_t i = 0; i < sizeof(src); i++)
			src[i] = (uint8_t)(i * 7 + it);
		memcpy(tt_dma_buf_data(b), src, sizeof(src));
		if (niu_cmd(dev, node, TT_NIU_OP_READ, xy.x, xy.y, addr, l1,
			    sizeof(src)))
			wrong_data("the device's read of host memory failed");
		CHECK(tt_noc_read(dev, 0, node.x, node.y, l1, got, sizeof(got)));
		if (memcmp(got, src, sizeof(src)))
			wrong_data("the device read other bytes than host memory holds");
		for (size_t i = 0; i < sizeof(src); i++)
			src[i] = (uint8_t)(i * 13 + it);
		CHECK(tt_noc_write(dev, 0, node.x, node.y, l1, src, sizeof(src)));
		if (niu_cmd(dev, node, TT_NIU_OP_WRITE, xy.x, xy.y, addr, l1,
			    sizeof(src)))
			wrong_data("the device's write of host memory failed");
		if (memcmp(tt_dma_buf_data(b), src, sizeof(src)))
			wrong_data("host memory differs from what the device wrote");
		if (!it)
			say("running");
	}
	tt_dma_buf_free(b);
	say("done");
}

/* Push and get tensors through a DRAM tensor queue until killed (n = 0)
 * or n times. */
static void queue_loop(tt_device *dev, unsigned n)
{
	struct tt_shape shape = TT_SHAPE(32, 64);
	tt_tensor *t, *dst;
	tt_tensor_queue *q;
	float *v, *w;

	CHECK(tt_tensor_queue_create(dev, &shape, TT_FLOAT16_B, 4,
				     TT_QUEUE_DRAM, &q));
	CHECK(tt_tensor_create(&shape, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	CHECK(tt_tensor_create(&shape, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &dst));
	v = tt_tensor_data(t);
	w = tt_tensor_data(dst);
	for (unsigned it = 0; !n || it < n; it++) {
		for (size_t i = 0; i < 32 * 64; i++)
			v[i] = (float)((i + it) % 256); /* exact in bf16 */
		CHECK(tt_tensor_queue_push(q, t, 5000));
		CHECK(tt_tensor_queue_read(q, dst, 5000));
		CHECK(tt_tensor_queue_pop(q));
		if (memcmp(v, w, 32 * 64 * sizeof(float)))
			wrong_data("a tensor came out of the queue changed");
		if (!it)
			say("running");
	}
	tt_tensor_free(t);
	tt_tensor_free(dst);
	tt_tensor_queue_free(q);
	say("done");
}

/* n management messages, each answer checked. */
static void mgmt_loop(tt_device *dev, unsigned n)
{
	uint32_t base = (uint32_t)getpid() << 12;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t got = 0;

		CHECK(tt_mgmt_test(dev, base + i, &got));
		if (got != base + i + 1)
			wrong_data("a management message got another's answer");
	}
	say("%u answers ok", n);
}

/* Open n more handles of device 0 and keep them until stdin closes. */
static void hold(unsigned n)
{
	tt_device **devs = calloc(n ? n : 1, sizeof(*devs));

	if (!devs)
		exit(1);
	for (unsigned i = 0; i < n; i++)
		CHECK(tt_device_open(0, &devs[i]));
	say("holding %u", n);
	wait_for_eof();
	for (unsigned i = 0; i < n; i++)
		tt_device_close(devs[i]);
	free(devs);
}

static void load_npy(const char *path)
{
	tt_tensor *t;

	CHECK(tt_tensor_load_npy(path, &t));
	tt_tensor_free(t);
	say("loaded");
}

static unsigned count_arg(int argc, char **argv, int *i)
{
	char *end;
	unsigned long n;

	if (*i + 1 >= argc) {
		fprintf(stderr, "fault_client: %s needs a count\n", argv[*i]);
		exit(2);
	}
	n = strtoul(argv[++*i], &end, 10);
	if (*end || n > 1000000) {
		fprintf(stderr, "fault_client: %s: bad count %s\n", step,
			argv[*i]);
		exit(2);
	}
	return (unsigned)n;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fault_client STEP...\n"
		"steps: own, rw-loop N, run-ok, kernel-hang, kernel-fault, kernel-long,\n"
		"       kernel-zero, dma-loop N (0: forever), queue-loop N, mgmt-loop N,\n"
		"       hold N, load-npy PATH (no device)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	tt_device *dev = NULL;

	if (argc < 2)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		step = argv[i];
		if (!strcmp(step, "load-npy")) {
			if (i + 1 >= argc)
				usage();
			load_npy(argv[++i]);
			continue;
		}
		if (!strcmp(step, "hold")) {
			hold(count_arg(argc, argv, &i));
			continue;
		}
		if (!dev) {
			dev = open_booted();
			if (!strcmp(step, "open")) {
				say("opened");
				continue;
			}
		}
		if (!strcmp(step, "own"))
			own(dev);
		else if (!strcmp(step, "rw-loop"))
			rw_loop(dev, count_arg(argc, argv, &i));
		else if (!strcmp(step, "run-ok"))
			run_ok(dev);
		else if (!strcmp(step, "kernel-hang"))
			expect_failure(run_kernel(dev, hang_src, 0, true),
				       -ETIMEDOUT);
		else if (!strcmp(step, "kernel-fault"))
			expect_failure(run_kernel(dev, fault_src, 3, true),
				       -EFAULT);
		else if (!strcmp(step, "kernel-zero"))
			CHECK(run_kernel(dev, zero_src, 0, true));
		else if (!strcmp(step, "kernel-long"))
			kernel_long(dev);
		else if (!strcmp(step, "dma-loop"))
			dma_loop(dev, count_arg(argc, argv, &i));
		else if (!strcmp(step, "queue-loop"))
			queue_loop(dev, count_arg(argc, argv, &i));
		else if (!strcmp(step, "mgmt-loop"))
			mgmt_loop(dev, count_arg(argc, argv, &i));
		else if (strcmp(step, "open"))
			usage();
	}
	tt_device_close(dev);
	return 0;
}
