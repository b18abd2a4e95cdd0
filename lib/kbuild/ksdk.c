// SPDX-License-Identifier: Apache-2.0
/*
 * Locating the kernel SDK and the cross compiler, and identifying both by
 * content for the kernel cache (ksdk.h). Identities are computed once and
 * kept while the environment names the same SDK and compiler: hashing the
 * SDK reads every header, which a cached kernel build cannot afford.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kcache.h"
#include "ksdk.h"
#include "ksdk_config.h" /* generated: TT_KSDK_BUILD_*, TT_KSDK_INSTALLED */
#include "sha256.h"

extern char **environ;

/* Directory levels below include/ that are hashed; deeper is a loop. */
#define TREE_DEPTH_MAX 16
/* A runtime library this large is not one. */
#define ARCHIVE_MAX (64u << 20)

static pthread_mutex_t ksdk_lock = PTHREAD_MUTEX_INITIALIZER;
/* Valid while the environment says what it said when they were made. */
static struct tt_ksdk sdk_cached;
static char *sdk_key; /* NULL: nothing cached */
static struct tt_ktoolchain tc_cached;
static char *tc_key;

static const char *const ld_scripts[TT_KPROC_COUNT] = {
	[TT_KPROC_BRISC] = "kernel_brisc.ld",
	[TT_KPROC_NCRISC] = "kernel_ncrisc.ld",
	[TT_KPROC_COMPUTE] = "kernel_compute.ld",
};

const char *tt_ksdk_ld_script(enum tt_kproc proc)
{
	return proc < TT_KPROC_COUNT ? ld_scripts[proc] : "kernel_?.ld";
}

void tt_ksdk_reset(void)
{
	pthread_mutex_lock(&ksdk_lock);
	free(sdk_key);
	free(tc_key);
	sdk_key = tc_key = NULL;
	pthread_mutex_unlock(&ksdk_lock);
}

/* ---- hashing files ---- */

static void hash_u64(struct tt_sha256 *s, uint64_t v)
{
	uint8_t b[8];
	unsigned i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	tt_sha256_update(s, b, sizeof(b));
}

static void hash_str(struct tt_sha256 *s, const char *str)
{
	tt_sha256_update(s, str, strlen(str) + 1);
}

/* Feed the content of path to s. */
static int hash_file(struct tt_sha256 *s, const char *path)
{
	uint8_t buf[16384];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return tt_error(-errno, "kernel SDK file %s: %s", path,
				strerror(errno));
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			return tt_error(-e, "kernel SDK file %s: %s", path,
					strerror(e));
		}
		tt_sha256_update(s, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted (bytewise: the hash must not depend on the
 * locale); *names and each name are malloc'd. */
static int list_dir(const char *dir, char ***names, size_t *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL, **nv;
	size_t n = 0, cap = 0;

	if (!d)
		return tt_error(-errno, "kernel SDK directory %s: %s", dir,
				strerror(errno));
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n] = strdup(e->d_name);
		if (!v[n])
			break;
		n++;
	}
	closedir(d);
	if (e) {
		while (n)
			free(v[--n]);
		free(v);
		return tt_error(-ENOMEM, "out of memory listing %s", dir);
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	*count = n;
	return 0;
}

/* Every regular file under path (which has room for PATH_MAX bytes),
 * with its name relative to the tree's root (from path + root_len). */
static int hash_tree(struct tt_sha256 *s, char *path, size_t root_len,
		     unsigned depth)
{
	size_t len = strlen(path), i, n = 0;
	char **names = NULL;
	struct stat st;
	int ret;

	if (depth > TREE_DEPTH_MAX)
		return tt_error(-ELOOP, "kernel SDK directory %s: nested more than %u levels deep",
				path, TREE_DEPTH_MAX);
	ret = list_dir(path, &names, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (!ret && len + 1 + strlen(names[i]) >= PATH_MAX)
			ret = tt_error(-ENAMETOOLONG, "kernel SDK path %s/%s is too long",
				       path, names[i]);
		if (!ret) {
			snprintf(path + len, PATH_MAX - len, "/%s", names[i]);
			if (stat(path, &st) < 0) {
				/* a dangling link: not part of the SDK */
			} else if (S_ISDIR(st.st_mode)) {
				tt_sha256_update(s, "D", 1);
				hash_str(s, path + root_len);
				ret = hash_tree(s, path, root_len, depth + 1);
			} else if (S_ISREG(st.st_mode)) {
				tt_sha256_update(s, "F", 1);
				hash_str(s, path + root_len);
				hash_u64(s, (uint64_t)st.st_size);
				ret = hash_file(s, path);
			}
			path[len] = '\0';
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

static int hash_dir(struct tt_sha256 *s, const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s", dir);
	return hash_tree(s, path, strlen(path), 0);
}

/*
 * A GNU thin archive ("!<thin>\n") names its members instead of holding
 * them, so hashing it alone would miss a changed object file: hash each
 * member too (paths are relative to the archive's directory). Layout:
 * 60-byte headers (name[16] ... size[10] at 48, "`\n" at 58); the symbol
 * table "/" and the long-name table "//" keep their data inline, members
 * do not; a long name is "/<offset into //>", ended by "/\n".
 */
static int hash_thin_members(struct tt_sha256 *s, const char *ar,
			     const uint8_t *d, size_t len)
{
	const char *names = NULL;
	size_t names_len = 0, pos = 8, nlen;
	char dir[PATH_MAX], member[PATH_MAX], name[PATH_MAX];
	const char *slash = strrchr(ar, '/');
	int ret;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - ar) : 1,
		 slash ? ar : ".");
	while (pos + 60 <= len) {
		const uint8_t *h = d + pos;
		unsigned long size = strtoul((const char *)h + 48, NULL, 10);
		const char *nm = (const char *)h;

		if (h[58] != '`' || h[59] != '\n')
			return tt_error(-EINVAL, "kernel SDK archive %s: bad member header at offset %zu",
					ar, pos);
		pos += 60;
		if (nm[0] == '/' && (nm[1] == ' ' || nm[1] == '/' ||
				     !strncmp(nm, "/SYM64/", 7))) {
			if (size > len - pos)
				return tt_error(-EINVAL, "kernel SDK archive %s: table at offset %zu runs past the end",
						ar, pos - 60);
			if (nm[1] == '/') {
				names = (const char *)d + pos;
				names_len = size;
			}
			pos += size + (size & 1); /* inline data, even-padded */
			continue;
		}
		if (nm[0] == '/' && names) {
			size_t off = strtoul(nm + 1, NULL, 10);
			const char *end = off < names_len ?
				memchr(names + off, '\n', names_len - off) : NULL;

			if (!end)
				return tt_error(-EINVAL, "kernel SDK archive %s: bad long name at offset %zu",
						ar, pos - 60);
			nlen = (size_t)(end - (names + off));
			nlen -= nlen && names[off + nlen - 1] == '/';
			snprintf(name, sizeof(name), "%.*s", (int)nlen,
				 names + off);
		} else {
			const char *end = memchr(nm, '/', 16);

			nlen = end ? (size_t)(end - nm) : 16;
			snprintf(name, sizeof(name), "%.*s", (int)nlen, nm);
		}
		if (name[0] == '/')
			snprintf(member, sizeof(member), "%s", name);
		else
			snprintf(member, sizeof(member), "%s/%s", dir, name);
		tt_sha256_update(s, "M", 1);
		hash_str(s, name);
		ret = hash_file(s, member);
		if (ret)
			return ret;
	}
	return 0;
}

static int hash_archive(struct tt_sha256 *s, const char *path)
{
	uint8_t *data = NULL;
	size_t len = 0;
	int ret = tt_kcache_read_file(path, ARCHIVE_MAX, &data, &len);

	if (ret)
		return tt_error(ret, "kernel SDK library %s: %s", path,
				strerror(-ret));
	tt_sha256_update(s, data, len);
	if (len >= 8 && !memcmp(data, "!<thin>\n", 8))
		ret = hash_thin_members(s, path, data, len);
	free(data);
	return ret;
}

static int sdk_hash(struct tt_ksdk *k)
{
	struct tt_sha256 s;
	char lib[PATH_MAX];
	int ret;

	tt_sha256_init(&s);
	hash_str(&s, "tt-kernel-sdk 1");
	ret = hash_dir(&s, k->include_dir);
	if (!ret) {
		hash_str(&s, "ld");
		ret = hash_dir(&s, k->ld_dir);
	}
	if (!ret) {
		snprintf(lib, sizeof(lib), "%s/%s", k->lib_dir,
			 TT_KSDK_LIB_FILE);
		hash_str(&s, "lib");
		ret = hash_archive(&s, lib);
	}
	tt_sha256_final(&s, k->hash);
	return ret;
}

/* ---- finding the SDK ---- */

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Check one candidate and fill k with its real paths; otherwise say in
 * why (why_len bytes) what is missing. */
static bool sdk_candidate(struct tt_ksdk *k, const char *where,
			  const char *inc, const char *ld, const char *lib,
			  char *why, size_t why_len)
{
	char libfile[PATH_MAX];

	snprintf(libfile, sizeof(libfile), "%s/%s", lib, TT_KSDK_LIB_FILE);
	if (!is_dir(inc) || !is_dir(ld) || !is_file(libfile)) {
		snprintf(why, why_len, "%s (%s: no %s)", where,
			 !is_dir(inc) ? inc : !is_dir(ld) ? ld : libfile,
			 !is_dir(inc) || !is_dir(ld) ? "such directory" :
						       "such file");
		return false;
	}
	snprintf(k->where, sizeof(k->where), "%s", where);
	if (!realpath(inc, k->include_dir) || !realpath(ld, k->ld_dir) ||
	    !realpath(lib, k->lib_dir)) {
		snprintf(why, why_len, "%s (%s)", where, strerror(errno));
		return false;
	}
	return true;
}

/* Candidate under one root: root/include, root/ld, root/lib. */
static bool sdk_root(struct tt_ksdk *k, const char *where, const char *root,
		     char *why, size_t why_len)
{
	char inc[PATH_MAX], ld[PATH_MAX], lib[PATH_MAX];

	snprintf(inc, sizeof(inc), "%s/include", root);
	snprintf(ld, sizeof(ld), "%s/ld", root);
	snprintf(lib, sizeof(lib), "%s/lib", root);
	return sdk_candidate(k, where, inc, ld, lib, why, why_len);
}

static int sdk_locate(struct tt_ksdk *k, const char *env)
{
	char why[3][PATH_MAX + 64];

	if (env) {
		if (sdk_root(k, "TT_KERNEL_SDK", env, why[0], sizeof(why[0])))
			return 0;
		return tt_error(-ENOENT, "kernel SDK TT_KERNEL_SDK=%s is not usable: %s; it needs include/, ld/ and lib/%s",
				env, why[0], TT_KSDK_LIB_FILE);
	}
	if (sdk_candidate(k, "build tree", TT_KSDK_BUILD_INCLUDE,
			  TT_KSDK_BUILD_LD, TT_KSDK_BUILD_LIB, why[1],
			  sizeof(why[1])))
		return 0;
	if (sdk_root(k, "installed SDK", TT_KSDK_INSTALLED, why[2],
		     sizeof(why[2])))
		return 0;
	return tt_error(-ENOENT, "no kernel SDK found: TT_KERNEL_SDK is not set; %s; %s",
			why[1], why[2]);
}

int tt_ksdk_find(struct tt_ksdk *out)
{
	const char *env = getenv("TT_KERNEL_SDK");
	const char *key = env && *env ? env : "";
	char *nkey;
	int ret = 0;

	pthread_mutex_lock(&ksdk_lock);
	if (sdk_key && !strcmp(sdk_key, key)) {
		*out = sdk_cached;
		goto out;
	}
	ret = sdk_locate(out, *key ? key : NULL);
	if (!ret)
		ret = sdk_hash(out);
	nkey = ret ? NULL : strdup(key);
	if (nkey) {
		free(sdk_key);
		sdk_key = nkey;
		sdk_cached = *out;
	}
out:
	pthread_mutex_unlock(&ksdk_lock);
	return ret;
}

/* ---- the compiler ---- */

/* The environment with LC_ALL=C: messages in one language (libtt looks
 * for the linker's "overflowed by") and plain quotes. NULL if out of
 * memory. */
static char **c_locale_env(void)
{
	size_t n = 0, i, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = malloc((n + 2) * sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7) &&
		    strncmp(environ[i], "LANGUAGE=", 9))
			env[k++] = environ[i];
	env[k++] = "LC_ALL=C";
	env[k] = NULL;
	return env;
}

/* In the child, between fork and exec: only async-signal-safe calls. An
 * exec that fails sends its errno through `err` (close-on-exec, so a
 * successful exec closes it with nothing written). */
static void __attribute__((noreturn))
run_child(char *const argv[], char **env, int out, int err,
	  unsigned timeout_s)
{
	struct rlimit as = { (rlim_t)TT_KSDK_RUN_AS_MIB << 20,
			     (rlim_t)TT_KSDK_RUN_AS_MIB << 20 };
	struct rlimit cpu = { timeout_s, timeout_s + 5 };
	int in = open("/dev/null", O_RDONLY), e;

	if (setpgid(0, 0) < 0 || in < 0 || dup2(in, 0) < 0 ||
	    dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
	    setrlimit(RLIMIT_AS, &as) < 0 || setrlimit(RLIMIT_CPU, &cpu) < 0) {
		e = errno;
		if (write(err, &e, sizeof(e)) < 0)
			_exit(126);
		_exit(126);
	}
	execve(argv[0], argv, env);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static int64_t mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Start argv under the limits; *pid, and *rd the read end of its output. */
static int run_start(char *const argv[], unsigned timeout_s, pid_t *pid,
		     int *rd)
{
	char **env = c_locale_env();
	int p[2], e[2], child_errno = 0;
	ssize_t n;

	if (!env)
		return -ENOMEM;
	if (pipe2(p, O_CLOEXEC) < 0) {
		free(env);
		return -errno;
	}
	if (pipe2(e, O_CLOEXEC) < 0) {
		child_errno = errno;
		close(p[0]);
		close(p[1]);
		free(env);
		return -child_errno;
	}
	*pid = fork();
	if (*pid == 0)
		run_child(argv, env, p[1], e[1], timeout_s);
	child_errno = *pid < 0 ? errno : 0;
	free(env);
	close(p[1]);
	close(e[1]);
	if (*pid > 0) {
		/* Either side may win the race to set the group. */
		setpgid(*pid, *pid);
		do
			n = read(e[0], &child_errno, sizeof(child_errno));
		while (n < 0 && errno == EINTR);
		if (n != sizeof(child_errno))
			child_errno = 0;
		else
			while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
				;
	}
	close(e[0]);
	if (child_errno) {
		close(p[0]);
		return -child_errno;
	}
	*rd = p[0];
	return 0;
}

int tt_ksdk_run(char *const argv[], char *out, size_t cap, size_t *len,
		int *status, unsigned timeout_s)
{
	int64_t deadline = mono_ms() + (int64_t)timeout_s * 1000;
	char sink[4096];
	bool late = false;
	size_t got = 0;
	ssize_t n;
	pid_t pid = 0, r;
	int rd = -1, ret;

	ret = run_start(argv, timeout_s, &pid, &rd);
	if (ret)
		return ret;
	/* Keep the first cap - 1 bytes (the first errors matter most),
	 * drain the rest so the child never blocks on a full pipe. */
	for (;;) {
		struct pollfd pf = { .fd = rd, .events = POLLIN };
		int64_t left = deadline - mono_ms();

		if (left <= 0 || !poll(&pf, 1, (int)left)) {
			late = true;
			break;
		}
		if (got + 1 < cap)
			n = read(rd, out + got, cap - 1 - got);
		else
			n = read(rd, sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (got + 1 < cap)
			got += (size_t)n;
	}
	close(rd);
	if (cap)
		out[got] = '\0';
	*len = got;
	/* Its output closed, the program may still linger: the same
	 * deadline holds. */
	for (;;) {
		if (late)
			kill(-pid, SIGKILL); /* and all it started */
		r = waitpid(pid, status, late ? 0 : WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r == 0 && mono_ms() >= deadline)
			late = true;
		else if (r == 0)
			usleep(1000);
	}
	if (late)
		kill(-pid, SIGKILL); /* what it left behind */
	return late ? -ETIMEDOUT : 0;
}

/* The compiler's path: TT_KERNEL_CC, or TT_KSDK_DEFAULT_CC from PATH. */
static int cc_locate(const char *env, char *path, size_t len)
{
	const char *name = env ? env : TT_KSDK_DEFAULT_CC;
	const char *dirs = getenv("PATH"), *p, *end;

	size_t n;

	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		if (access(path, X_OK) == 0 && is_file(path))
			return 0;
		return tt_error(-ENOENT, "kernel compiler TT_KERNEL_CC=%s: %s; install Debian's gcc-riscv64-unknown-elf (make deps) or point TT_KERNEL_CC at a RISC-V gcc",
				name, access(path, X_OK) ? strerror(errno) :
							   "not a regular file");
	}
	/* An empty PATH element is the working directory. */
	for (p = dirs ? dirs : "/usr/bin:/bin"; p; p = end ? end + 1 : NULL) {
		end = strchr(p, ':');
		n = end ? (size_t)(end - p) : strlen(p);
		snprintf(path, len, "%.*s/%s", n ? (int)n : 1, n ? p : ".",
			 name);
		if (access(path, X_OK) == 0 && is_file(path))
			return 0;
	}
	return tt_error(-ENOENT, "kernel compiler %s%s not found in PATH; install Debian's gcc-riscv64-unknown-elf (make deps) or set TT_KERNEL_CC",
			name, env ? " (TT_KERNEL_CC)" : "");
}

/* gcc -print-search-dirs: "install: <dir>/" on the first line. */
static void cc_install_dir(struct tt_ktoolchain *t)
{
	char *argv[] = { t->cc, "-print-search-dirs", NULL };
	char out[1024], *dir, *nl;
	size_t len;
	int status;

	t->install_dir[0] = '\0';
	if (tt_ksdk_run(argv, out, sizeof(out), &len, &status,
			TT_KSDK_RUN_TIMEOUT_S) ||
	    !WIFEXITED(status) || WEXITSTATUS(status) ||
	    strncmp(out, "install: ", 9))
		return;
	dir = out + 9;
	nl = strchr(dir, '\n');
	if (nl)
		*nl = '\0';
	if (!realpath(dir, t->install_dir))
		t->install_dir[0] = '\0';
}

static int cc_identify(struct tt_ktoolchain *t)
{
	char real[PATH_MAX], *nl;
	char *argv[] = { t->cc, "--version", NULL };
	struct tt_sha256 s;
	struct stat st;
	size_t len;
	int status, ret;

	if (!realpath(t->cc, real) || stat(real, &st) < 0)
		return tt_error(-errno, "kernel compiler %s: %s", t->cc,
				strerror(errno));
	ret = tt_ksdk_run(argv, t->version, sizeof(t->version), &len, &status,
			  TT_KSDK_RUN_TIMEOUT_S);
	if (ret)
		return tt_error(ret == -ENOENT ? -ENOENT : -ENOEXEC,
				"kernel compiler %s cannot be started: %s",
				t->cc, strerror(-ret));
	nl = strchr(t->version, '\n');
	if (nl)
		*nl = '\0';
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !t->version[0])
		return tt_error(-ENOEXEC, "kernel compiler %s does not run: '%s --version' %s %d%s%s",
				t->cc, t->cc,
				WIFEXITED(status) ? "exited with status" :
						    "was killed by signal",
				WIFEXITED(status) ? WEXITSTATUS(status) :
						    WTERMSIG(status),
				t->version[0] ? ": " : "", t->version);
	cc_install_dir(t);
	tt_sha256_init(&s);
	hash_str(&s, "tt-kernel-toolchain 1");
	hash_str(&s, real);
	hash_str(&s, t->install_dir);
	hash_u64(&s, (uint64_t)st.st_size);
	hash_u64(&s, (uint64_t)st.st_mtim.tv_sec);
	hash_u64(&s, (uint64_t)st.st_mtim.tv_nsec);
	hash_str(&s, t->version);
	tt_sha256_final(&s, t->id);
	return 0;
}

int tt_ktoolchain_find(struct tt_ktoolchain *out)
{
	const char *env = getenv("TT_KERNEL_CC"), *path = getenv("PATH");
	char key[PATH_MAX * 2], *nkey;
	int ret = 0;

	if (env && !*env)
		env = NULL;
	/* The compiler found depends on both variables. */
	snprintf(key, sizeof(key), "%s%c%s", env ? env : "", 1,
		 env ? "" : path ? path : "");
	pthread_mutex_lock(&ksdk_lock);
	if (tc_key && !strcmp(tc_key, key)) {
		*out = tc_cached;
		goto out;
	}
	ret = cc_locate(env, out->cc, sizeof(out->cc));
	if (!ret)
		ret = cc_identify(out);
	nkey = ret ? NULL : strdup(key);
	if (nkey) {
		free(tc_key);
		tc_key = nkey;
		tc_cached = *out;
	}
out:
	pthread_mutex_unlock(&ksdk_lock);
	return ret;
}
