/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A Python peer of a benchmark: Debian's /usr/bin/python3 (its NumPy and
 * PyTorch) runs a script given as text, with the thread count as its
 * argument and in OMP_NUM_THREADS and OPENBLAS_NUM_THREADS, and what it
 * prints comes back. The script goes on the command line (python3 -c),
 * so no file is written anywhere.
 */
#ifndef TT_BENCH_PYTHON_PEER_H
#define TT_BENCH_PYTHON_PEER_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Run script on `threads` threads, OpenBLAS on `blas_threads` of its own;
 * its standard output (at most len - 1 bytes) into out. Its standard
 * error is dropped if quiet. 0 when it ran and exited 0, else -1.
 */
static int bench_python_peer_blas(const char *script, int threads,
				  int blas_threads, bool quiet, char *out,
				  size_t len)
{
	char n[16], nb[16];
	size_t got = 0;
	ssize_t r;
	int fd[2], status;
	pid_t pid;

	snprintf(n, sizeof(n), "%d", threads);
	snprintf(nb, sizeof(nb), "%d", blas_threads);
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		int null = quiet ? open("/dev/null", O_WRONLY) : -1;

		dup2(fd[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(fd[0]);
		setenv("OMP_NUM_THREADS", n, 1);
		setenv("OPENBLAS_NUM_THREADS", nb, 1);
		execl("/usr/bin/python3", "python3", "-c", script, n, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (got + 1 < len && (r = read(fd[0], out + got, len - 1 - got)) > 0)
		got += (size_t)r;
	out[got] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* The same with OpenBLAS on as many threads as the script. */
static inline int bench_python_peer(const char *script, int threads,
				    bool quiet, char *out, size_t len)
{
	return bench_python_peer_blas(script, threads, threads, quiet, out,
				      len);
}

#endif /* TT_BENCH_PYTHON_PEER_H */
