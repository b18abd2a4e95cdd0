// SPDX-License-Identifier: Apache-2.0
/*
 * bench-ops-conv: the op library's convolution (tt/ops/conv.h) on the
 * embedded model.
 *
 *   op_conv2d_resnet: a ResNet-50 3x3 layer, N=1, 56x56, 64 -> 64
 *     channels, stride 1, padding 1, no bias, bfloat16 activations and
 *     weights, tt_op_conv2d's default config, program cached (one
 *     warm-up call), enqueue to finish; value in GFLOPS (2 x N x OH x OW
 *     x Cout x Cin x 9); ratio = PyTorch's time / ours, PyTorch being
 *     /usr/bin/python3's torch on the CPU with torch.set_num_threads =
 *     the threads the chip model runs harts on, its best of float32 and
 *     bfloat16 (the best of 20 runs each, as ours is the best of 7: the
 *     machine may be loaded), OPENBLAS_CORETYPE set as
 *     tests/bench/openblas_peer.h does (printed in vs=, with whether
 *     torch used mkldnn); target >= 0.5. The result is checked against a
 *     host reference (PCC >= 0.99) before it is timed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "openblas_peer.h"
#include "python_peer.h"
#include "tt.h"

#define N 1u
#define H 56u
#define W 56u
#define C 64u
#define K 3u
#define RUNS 7
#define MAX_HART_THREADS 64

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* CPU seconds of the process (every thread). */
static double cpu_s(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static void die(const char *what)
{
	fprintf(stderr, "bench-ops-conv: %s: %s\n", what, tt_last_error());
	exit(1);
}

/* Threads the model runs harts on (as bench-matmul finds them). */
static int hart_threads(void)
{
	const char *v = getenv("TT_SIM_THREADS");
	long n;

	if (v && *v) {
		char *end;
		unsigned long t = strtoul(v, &end, 10);

		if (!*end && t >= 1 && t <= MAX_HART_THREADS)
			return (int)t;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > MAX_HART_THREADS ? MAX_HART_THREADS : (int)n;
}

static const char peer_py[] =
	"import sys, time\n"
	"try:\n"
	"    import torch, torch.nn.functional as F\n"
	"except Exception as e:\n"
	"    print('none', 0, 'no_torch'); sys.exit(0)\n"
	"torch.set_num_threads(int(sys.argv[1]))\n"
	"best = None\n"
	"for dt in (torch.float32, torch.bfloat16):\n"
	"    x = torch.randn(1, 64, 56, 56).to(dt); w = torch.randn(64, 64, 3, 3).to(dt)\n"
	"    with torch.no_grad():\n"
	"        for _ in range(5): F.conv2d(x, w, padding=1)\n"
	"        ts = []\n"
	"        for _ in range(20):\n"
	"            t0 = time.perf_counter(); F.conv2d(x, w, padding=1); ts.append(time.perf_counter() - t0)\n"
	"    m = min(ts) * 1e6\n"
	"    name = 'fp32' if dt == torch.float32 else 'bf16'\n"
	"    if best is None or m < best[1]: best = (name, m)\n"
	"mk = 'mkldnn' if torch.backends.mkldnn.enabled and torch.backends.mkldnn.is_available() else 'nomkldnn'\n"
	"print(best[0], best[1], 'torch' + torch.__version__.split('+')[0] + '_' + mk)\n";

int main(int argc, char **argv)
{
	const char *core = bench_openblas_peer(argv);
	const int threads = hart_threads();
	struct tt_conv2d_params p = tt_conv2d_params_default();
	tt_device_tensor *x = NULL, *w = NULL, *o = NULL;
	float *xv, *wv, *got;
	tt_tensor *t;
	tt_ops_ctx *ctx;
	tt_device *dev;
	double best = 0, cpu0, flops, torch_us = 0, sxy = 0, sxx = 0, syy = 0;
	char name[32] = "none", tag[64] = "no_torch", out[256];
	uint32_t seed = 1;

	(void)argc;
	if (tt_device_open(0, &dev) || tt_ops_ctx_create(dev, &ctx))
		die("device");
	xv = malloc(sizeof(float) * N * H * W * C);
	wv = malloc(sizeof(float) * C * C * K * K);
	if (!xv || !wv)
		die("memory");
	for (size_t i = 0; i < N * H * W * C; i++) {
		seed = seed * 1664525u + 1013904223u;
		xv[i] = (float)((int)(seed >> 25) - 64) / 64.0f;
	}
	for (size_t i = 0; i < C * C * K * K; i++) {
		seed = seed * 1664525u + 1013904223u;
		wv[i] = (float)((int)(seed >> 25) - 64) / 256.0f;
	}
	if (tt_tensor_create(&TT_SHAPE(1, 1, N * H * W, C), TT_FLOAT32,
			     TT_TENSOR_ROW_MAJOR, &t))
		die("tensor");
	memcpy(tt_tensor_data(t), xv, sizeof(float) * N * H * W * C);
	if (tt_device_tensor_create(dev, &TT_SHAPE(1, 1, N * H * W, C), TT_FLOAT16_B,
				    TT_BUFFER_DRAM, &x) ||
	    tt_device_tensor_write(x, NULL, t))
		die("x");
	if (tt_conv2d_weights_create(ctx, wv, C, C, K, K, 1, TT_FLOAT16_B,
				     TT_OPS_MEM_DRAM, &w))
		die("w");
	p.batch = N;
	p.in_h = H;
	p.in_w = W;
	p.kernel_h = p.kernel_w = K;
	p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = 1;
	if (tt_op_conv2d(ctx, x, w, NULL, &p, NULL, &o) || tt_ops_finish(ctx))
		die("warm-up");
	/* check: the inputs are exact in bfloat16 */
	if (tt_device_tensor_read(o, NULL, t))
		die("read");
	got = tt_tensor_data(t);
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t xx = 0; xx < W; xx++)
			for (uint32_t co = 0; co < C; co++) {
				double s = 0, g = got[(y * W + xx) * C + co];

				for (uint32_t kh = 0; kh < K; kh++)
					for (uint32_t kw = 0; kw < K; kw++) {
						int ih = (int)(y + kh) - 1, iw = (int)(xx + kw) - 1;

						if (ih < 0 || iw < 0 || ih >= (int)H || iw >= (int)W)
							continue;
						for (uint32_t ci = 0; ci < C; ci++)
							s += (double)xv[(ih * W + iw) * C + ci] *
							     wv[((co * C + ci) * K + kh) * K + kw];
					}
				sxy += s * g;
				sxx += s * s;
				syy += g * g;
			}
	if (!(sxy / sqrt(sxx * syy) >= 0.99)) {
		fprintf(stderr, "bench-ops-conv: wrong result: correlation %.4f\n",
			sxy / sqrt(sxx * syy));
		return 1;
	}
	cpu0 = cpu_s();
	for (int r = 0; r < RUNS; r++) {
		double t0 = now_us(), dt;

		if (tt_op_conv2d(ctx, x, w, NULL, &p, NULL, &o) || tt_ops_finish(ctx))
			die("op_conv2d_resnet");
		dt = now_us() - t0;
		best = r == 0 || dt < best ? dt : best;
	}
	if (bench_python_peer(peer_py, threads, true, out, sizeof(out)) ||
	    sscanf(out, "%31s %lf %63s", name, &torch_us, tag) != 3)
		torch_us = 0;
	cpu0 = (cpu_s() - cpu0) / RUNS;
	flops = 2.0 * N * H * W * C * C * K * K;
	fprintf(stderr, "# model %.0f us (%.0f us of CPU a call), torch %s %.0f us on %d threads\n",
		best, cpu0 * 1e6, name, torch_us, threads);
	printf("BENCH name=op_conv2d_resnet value=%.2f unit=GFLOPS ratio=%.3f vs=%s_conv2d_%s_%dthreads_OPENBLAS_CORETYPE=%s\n",
	       flops / best / 1e3, torch_us > 0 ? torch_us / best : 0.0, tag, name,
	       threads, core);
	tt_tensor_free(t);
	free(xv);
	free(wv);
	tt_device_tensor_free(x);
	tt_device_tensor_free(w);
	tt_device_tensor_free(o);
	tt_ops_ctx_free(ctx);
	tt_device_close(dev);
	return 0;
}
