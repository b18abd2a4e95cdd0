// SPDX-License-Identifier: Apache-2.0
/*
 * The example programs (tools/examples/) as a user runs them: each
 * binary is started in a child process, once on the embedded model and
 * once against a private ttsim daemon, and must exit 0 with its
 * "<name>: PASS" line. Also: an example whose kernels cannot be found
 * fails with exit status 1 and names the missing kernel file.
 */
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

/* Each example takes well under a second on the model; the limit is for
 * a hang, and leaves the whole program under meson's 120 s. */
#define RUN_TIMEOUT_MS 20000
#define OUT_MAX 16384

struct run {
	int status; /* exit status, or -1: killed, signalled or not run */
	char out[OUT_MAX]; /* stdout and stderr, interleaved, truncated */
};

static void example_path(char *buf, size_t len, const char *name)
{
	const char *root = getenv("TT_BUILD_ROOT");

	snprintf(buf, len, "%s/tools/examples/example-%s",
		 root ? root : "build", name);
}

/* Collect the child's output until it closes the pipe or time is up;
 * false on timeout. */
static bool collect(int fd, struct run *r)
{
	size_t used = 0;
	struct timespec ts;
	double deadline;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	deadline = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 + RUN_TIMEOUT_MS;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char sink[4096];
		double now;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
		if (now >= deadline)
			return false;
		if (poll(&p, 1, (int)(deadline - now)) <= 0)
			continue;
		if (used < sizeof(r->out) - 1)
			n = read(fd, r->out + used, sizeof(r->out) - 1 - used);
		else
			n = read(fd, sink, sizeof(sink)); /* drain, drop */
		if (n <= 0)
			return true;
		if (used < sizeof(r->out) - 1)
			used += (size_t)n;
		r->out[used] = '\0';
	}
}

/* Run example `name` with its output captured; `kernels` (if not NULL)
 * becomes its TT_EXAMPLES_KERNELS. */
static void run_example(const char *name, const char *kernels, struct run *r)
{
	char path[512];
	int pipefd[2], st;
	bool done;
	pid_t pid;

	r->status = -1;
	r->out[0] = '\0';
	example_path(path, sizeof(path), name);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		if (kernels)
			setenv("TT_EXAMPLES_KERNELS", kernels, 1);
		execl(path, path, (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	done = collect(pipefd[0], r);
	close(pipefd[0]);
	if (!done)
		kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (done && WIFEXITED(st))
		r->status = WEXITSTATUS(st);
	else if (!done)
		print_message("# example-%s killed after %d ms\n", name,
			      RUN_TIMEOUT_MS);
}

/* out with every line made a TAP comment, so that nothing an example
 * prints can pass for a test result. */
static const char *as_comment(const char *out)
{
	static char buf[OUT_MAX * 2];
	size_t n = 0;

	for (const char *p = out; *p && n + 8 < sizeof(buf);) {
		size_t len = strcspn(p, "\n");

		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "# %.*s\n",
				      (int)len, p);
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		p += len + (p[len] == '\n');
	}
	buf[n] = '\0';
	return buf;
}

/* The example named by *state runs and passes its own check. */
static void test_example_passes(void **state)
{
	const char *name = *state;
	static struct run r;
	char pass[64];
	const char *line;

	run_example(name, NULL, &r);
	snprintf(pass, sizeof(pass), "%s: PASS (", name);
	line = strstr(r.out, pass);
	if (r.status != 0 || !line)
		fail_msg("example-%s (TT_TRANSPORT=%s): exit status %d, output:\n%s",
			 name, getenv("TT_TRANSPORT"), r.status,
			 as_comment(r.out));
	/* The verdict line, as a TAP comment. */
	print_message("# %.*s\n", (int)strcspn(line, "\n"), line);
}

/* Without its kernels an example fails cleanly, naming the file. */
static void test_missing_kernels(void **state)
{
	static struct run r;
	char dir[256], want[320];

	(void)state;
	assert_non_null(test_mkdtemp(dir, sizeof(dir), "tt-examples"));
	run_example("dram_loopback", dir, &r);
	rmdir(dir);
	snprintf(want, sizeof(want), "%s/dram_loopback/copy.c", dir);
	if (r.status != 1 || !strstr(r.out, want) || strstr(r.out, "PASS"))
		fail_msg("expected exit status 1 naming %s; got %d, output:\n%s",
			 want, r.status, as_comment(r.out));
}

/* ---- transports ---- */

/* A private ttsim daemon, started by the first ttsim case (so that the
 * embedded cases do not depend on it) and stopped after the last. */
static char rundir[128];
static bool daemon_running;

static int embedded(void **state)
{
	(void)state;
	return setenv("TT_TRANSPORT", "embedded", 1);
}

static int ttsim(void **state)
{
	(void)state;
	if (!daemon_running) {
		if (!rundir[0] && !test_rundir(rundir, sizeof(rundir)))
			return -1;
		if (run_ttsim("start --board n150 --name examples") != 0)
			return -1;
		daemon_running = true;
	}
	return setenv("TT_TRANSPORT", "ttsim", 1);
}

static int daemon_down(void **state)
{
	(void)state;
	return ttsim_clean_up(rundir, daemon_running);
}

/* One case per example and transport, named after both. */
#define EXAMPLE(transport, name)                                       \
	{                                                            \
		#transport "_" #name, test_example_passes, transport, NULL, \
			(void *)#name                                \
	}
#define ALL_EXAMPLES(transport)                                          \
	EXAMPLE(transport, dram_loopback), EXAMPLE(transport, eltwise_add),  \
		EXAMPLE(transport, eltwise_exp),                           \
		EXAMPLE(transport, sem_pingpong),                          \
		EXAMPLE(transport, multicast), EXAMPLE(transport, descriptor), \
		EXAMPLE(transport, matmul_single),                         \
		EXAMPLE(transport, matmul_multi),                          \
		EXAMPLE(transport, queue_stream),                          \
		EXAMPLE(transport, embedded_backend),                      \
		EXAMPLE(transport, custom_sfpi_add),                       \
		EXAMPLE(transport, custom_sfpi_smoothstep),                \
		EXAMPLE(transport, ops_mlp), EXAMPLE(transport, ops_attention)

int main(void)
{
	const struct CMUnitTest tests[] = {
		ALL_EXAMPLES(embedded),
		ALL_EXAMPLES(ttsim),
		cmocka_unit_test_setup(test_missing_kernels, embedded),
	};

	return cmocka_run_group_tests_name("examples", tests, NULL,
					   daemon_down);
}
