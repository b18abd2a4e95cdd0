/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenBLAS as a peer at its best. Debian 12's OpenBLAS 0.3.21 does not know
 * recent Xeons and falls back to its "Prescott" kernels (sgemm on 1024^3
 * about 40 GFLOPS on this kind of CPU instead of about 175), so a ratio
 * against it would flatter us. OpenBLAS reads OPENBLAS_CORETYPE once, when
 * it is loaded; a benchmark therefore picks the best core type the CPU's
 * flags allow, sets it and runs itself again before anything else.
 * A type the user set is kept. The type goes into the BENCH line's vs=.
 */
#ifndef TT_BENCH_OPENBLAS_PEER_H
#define TT_BENCH_OPENBLAS_PEER_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the "flags" line of /proc/cpuinfo lists flag. */
static bool bench_cpu_has(const char *flags, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = flags; (p = strstr(p, flag)); p += n)
		if ((p == flags || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* The best OpenBLAS 0.3.21 core type for this CPU; NULL to let it choose. */
static const char *bench_openblas_best_coretype(void)
{
	static char flags[8192];
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool found = false;

	if (!f)
		return NULL;
	while (!found && fgets(flags, sizeof(flags), f))
		found = !strncmp(flags, "flags", 5);
	fclose(f);
	if (!found)
		return NULL;
	if (bench_cpu_has(flags, "avx512_bf16"))
		return "Cooperlake";
	if (bench_cpu_has(flags, "avx512f") && bench_cpu_has(flags, "avx512bw") &&
	    bench_cpu_has(flags, "avx512dq") && bench_cpu_has(flags, "avx512vl"))
		return "SkylakeX";
	if (bench_cpu_has(flags, "avx2") && bench_cpu_has(flags, "fma"))
		return "Haswell";
	if (bench_cpu_has(flags, "avx"))
		return "Sandybridge";
	return NULL;
}

/*
 * Call first in main(): sets OPENBLAS_CORETYPE and runs the program again
 * if it is not set yet. Returns the core type in use ("default" when the
 * CPU gave no better choice than OpenBLAS's own).
 */
static const char *bench_openblas_peer(char **argv)
{
	const char *set = getenv("OPENBLAS_CORETYPE"), *best;

	if (set && *set)
		return set;
	best = bench_openblas_best_coretype();
	if (!best)
		return "default";
	setenv("OPENBLAS_CORETYPE", best, 1);
	execv("/proc/self/exe", argv);
	fprintf(stderr, "# cannot run again with OPENBLAS_CORETYPE=%s: the peer keeps OpenBLAS's own choice\n",
		best);
	return "default";
}

#endif /* TT_BENCH_OPENBLAS_PEER_H */
