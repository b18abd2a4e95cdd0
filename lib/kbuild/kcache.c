// SPDX-License-Identifier: Apache-2.0
/*
 * The kernel cache (kcache.h): the memory table, the disk entries, the
 * dependency lists that decide whether an entry may still be used, and
 * the cache directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kcache.h"
#include "sha256.h"

#define DEPS_MAGIC "tt-kbuild-deps 1\n"
/* Dependencies an entry may list (a kernel including more is odd). */
#define DEPS_MAX 4096u
/* Memory entries kept; past this the table starts again (the disk still
 * has everything). */
#define MEM_MAX 1024u
#define MEM_BUCKETS 64u

/* ---- files ---- */

int tt_kcache_read_file(const char *path, size_t max, uint8_t **data,
			size_t *len)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return -e;
	}
	if (!S_ISREG(st.st_mode)) { /* a directory, FIFO or device */
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return -EFBIG;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	/* The file may shrink under us: what was read is what counts. */
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	e = n < 0 ? errno : 0;
	close(fd);
	if (e) {
		free(buf);
		return -e;
	}
	buf[got] = '\0';
	*data = buf;
	*len = got;
	return 0;
}

void tt_kcache_tmp_name(char *buf, size_t len, const char *dir,
			const char *stem, const char *suffix)
{
	static unsigned seq;

	snprintf(buf, len, "%s/.%s.%ld.%u%s", dir, stem, (long)getpid(),
		 __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED), suffix);
}

int tt_kcache_write_file(const char *path, const void *data, size_t len)
{
	char tmp[PATH_MAX + 64], dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, ret;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	tt_kcache_tmp_name(tmp, sizeof(tmp), dir, "write", ".tmp");
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = tt_write_all(fd, data, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int file_hash(const char *path, uint8_t out[32])
{
	uint8_t *data;
	size_t len;
	int ret = tt_kcache_read_file(path, TT_KCACHE_FILE_MAX, &data, &len);

	if (ret)
		return ret;
	tt_sha256(data, len, out);
	free(data);
	return 0;
}

/* ---- dependencies ---- */

void tt_kdeps_free(struct tt_kdeps *d)
{
	unsigned i;

	if (!d)
		return;
	for (i = 0; i < d->count; i++)
		free(d->dep[i].path);
	free(d->dep);
	free(d);
}

const char *tt_kdeps_changed(const struct tt_kdeps *d)
{
	uint8_t h[32];
	unsigned i;

	for (i = 0; d && i < d->count; i++)
		if (file_hash(d->dep[i].path, h) ||
		    memcmp(h, d->dep[i].hash, 32))
			return d->dep[i].path;
	return NULL;
}

bool tt_kdeps_current(const struct tt_kdeps *d)
{
	return !tt_kdeps_changed(d);
}

static struct tt_kdeps *deps_new(void)
{
	return calloc(1, sizeof(struct tt_kdeps));
}

/* Append path (len bytes) with hash h; the caller checked the count. */
static int deps_add(struct tt_kdeps *d, const char *path, size_t len,
		    const uint8_t h[32])
{
	struct tt_kdep *v;
	char *p;

	/* Room for 4, then doubled each time it is full. */
	if (!d->count || (d->count >= 4 && !(d->count & (d->count - 1)))) {
		v = realloc(d->dep, (d->count ? 2 * d->count : 4) *
					    sizeof(*v));
		if (!v)
			return -ENOMEM;
		d->dep = v;
	}
	p = strndup(path, len);
	if (!p)
		return -ENOMEM;
	d->dep[d->count].path = p;
	memcpy(d->dep[d->count].hash, h, 32);
	d->count++;
	return 0;
}

static bool under_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n && dir[n - 1] == '/')
		n--;
	return n && !strncmp(path, dir, n) && path[n] == '/';
}

static bool skipped(const char *path, const char *const *skip)
{
	for (; *skip; skip++)
		if (under_dir(path, *skip))
			return true;
	return false;
}

/*
 * One file name of a make rule, starting at *p: "\ " is a space, "\#" a
 * '#', "$$" a '$', "\<newline>" separates names. Returns the name's
 * length in buf, 0 at the end.
 */
static size_t depfile_word(const char **p, char *buf, size_t cap)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' ||
	       (s[0] == '\\' && s[1] == '\n'))
		s += s[0] == '\\' ? 2 : 1;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n' &&
	       !(s[0] == '\\' && s[1] == '\n')) {
		if ((s[0] == '\\' && (s[1] == ' ' || s[1] == '#')) ||
		    (s[0] == '$' && s[1] == '$'))
			s++;
		if (n + 1 < cap)
			buf[n++] = *s;
		s++;
	}
	buf[n] = '\0';
	*p = s;
	return n;
}

int tt_kdeps_from_depfile(const char *depfile, const char *source,
			  const char *const *skip, struct tt_kdeps **out)
{
	char word[PATH_MAX];
	const char *p;
	uint8_t *text, h[32];
	struct tt_kdeps *d;
	size_t len;
	int ret = tt_kcache_read_file(depfile, TT_KCACHE_FILE_MAX, &text, &len);

	*out = NULL;
	if (ret)
		return tt_error(ret, "kernel dependency file %s: %s", depfile,
				strerror(-ret));
	/* The rule's target is "k:" (-MT k); the prerequisites follow. */
	p = strchr((char *)text, ':');
	d = deps_new();
	if (!p || !d) {
		free(text);
		free(d);
		return !d ? tt_error(-ENOMEM, "out of memory reading %s", depfile)
			  : tt_error(-EINVAL, "kernel dependency file %s has no rule",
				     depfile);
	}
	for (p++; !ret && depfile_word(&p, word, sizeof(word));) {
		if (!strcmp(word, source) || skipped(word, skip))
			continue;
		if (d->count == DEPS_MAX)
			ret = tt_error(-E2BIG, "kernel includes more than %u files (%s)",
				       DEPS_MAX, word);
		else if ((ret = file_hash(word, h)))
			tt_error(ret, "included file %s: %s", word,
				 strerror(-ret));
		else if (deps_add(d, word, strlen(word), h))
			ret = tt_error(-ENOMEM, "out of memory reading %s",
				       depfile);
	}
	free(text);
	if (ret || !d->count) {
		tt_kdeps_free(d);
		return ret;
	}
	*out = d;
	return 0;
}

/* ---- the cache directory ---- */

/* mkdir -p, 0700 for what it creates (the XDG convention for caches). */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", path);
	for (i = 1; buf[i]; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST)
			return -errno;
		buf[i] = '/';
	}
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		return -errno;
	return access(buf, W_OK | X_OK) ? -errno : 0;
}

/* TT_KERNEL_CACHE, else $XDG_CACHE_HOME/tt/kernels, else
 * ~/.cache/tt/kernels; false if none can be named. */
static bool dir_wanted(char *buf, size_t len)
{
	const char *env = getenv("TT_KERNEL_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s/tt/kernels", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/tt/kernels", home);
	else
		return false;
	return n > 0 && (size_t)n < len;
}

int tt_kcache_dir_open(struct tt_kcache_dir *d)
{
	const char *tmp = getenv("TMPDIR");

	/* Checked every time: it may have been deleted since (only memory
	 * misses get here). */
	d->persistent = dir_wanted(d->path, sizeof(d->path));
	if (d->persistent && !make_dirs(d->path))
		return 0;
	/* No cache then, but kernels still build. */
	d->persistent = false;
	snprintf(d->path, sizeof(d->path), "%s/tt-kbuild-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(d->path))
		return tt_error(-errno, "cannot create a directory to build kernels in (%s): %s",
				d->path, strerror(errno));
	return 0;
}

int tt_kcache_dir_find(struct tt_kcache_dir *d)
{
	d->persistent = false;
	if (!dir_wanted(d->path, sizeof(d->path)))
		return tt_error(-ENOENT, "no kernel cache directory: TT_KERNEL_CACHE, XDG_CACHE_HOME and HOME are all unset");
	return 0;
}

void tt_kcache_dir_close(struct tt_kcache_dir *d)
{
	char path[PATH_MAX + 256];
	struct dirent *e;
	DIR *dir;

	if (d->persistent)
		return;
	dir = opendir(d->path);
	while (dir && (e = readdir(dir))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", d->path,
				 e->d_name);
			unlink(path);
		}
	}
	if (dir)
		closedir(dir);
	rmdir(d->path);
}

/* ---- memory ---- */

struct mem_entry {
	struct mem_entry *next;
	struct tt_kbinary *b;
};

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mem_entry *mem_table[MEM_BUCKETS];
static unsigned mem_count;

static struct mem_entry **mem_slot(const uint8_t key[32])
{
	struct mem_entry **e = &mem_table[key[0] % MEM_BUCKETS];

	while (*e && memcmp((*e)->b->hash, key, 32))
		e = &(*e)->next;
	return e;
}

struct tt_kbinary *tt_kcache_mem_get(const uint8_t key[32])
{
	struct tt_kbinary *b = NULL;
	struct mem_entry *e;

	pthread_mutex_lock(&mem_lock);
	e = *mem_slot(key);
	if (e) {
		b = e->b;
		tt_kbinary_get(b);
	}
	pthread_mutex_unlock(&mem_lock);
	return b;
}

static void mem_clear_locked(void)
{
	struct mem_entry *e;
	unsigned i;

	for (i = 0; i < MEM_BUCKETS; i++) {
		while ((e = mem_table[i])) {
			mem_table[i] = e->next;
			tt_kbinary_put(e->b);
			free(e);
		}
	}
	mem_count = 0;
}

void tt_kcache_mem_put(struct tt_kbinary *b)
{
	struct mem_entry **slot, *e;

	pthread_mutex_lock(&mem_lock);
	slot = mem_slot(b->hash);
	if (*slot) {
		tt_kbinary_put((*slot)->b);
		(*slot)->b = b;
		tt_kbinary_get(b);
	} else {
		if (mem_count >= MEM_MAX) {
			mem_clear_locked();
			slot = mem_slot(b->hash);
		}
		e = malloc(sizeof(*e));
		if (e) { /* else simply not cached */
			e->b = b;
			e->next = NULL;
			tt_kbinary_get(b);
			*slot = e;
			mem_count++;
		}
	}
	pthread_mutex_unlock(&mem_lock);
}

void tt_kcache_reset_memory(void)
{
	pthread_mutex_lock(&mem_lock);
	mem_clear_locked();
	pthread_mutex_unlock(&mem_lock);
}

/* ---- disk ---- */

static void entry_path(char *buf, size_t len, const char *dir,
		       const uint8_t key[32], const char *ext)
{
	char hex[TT_SHA256_HEX_LEN + 1];

	tt_sha256_hex(key, hex);
	snprintf(buf, len, "%s/%s%s", dir, hex, ext);
}

static unsigned hex_digit(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

/* "<hex> rest\n" at *p: the hash, then *p at rest; -1 if malformed. */
static int parse_hash(char **p, uint8_t h[32])
{
	unsigned i;

	if (strspn(*p, "0123456789abcdef") != TT_SHA256_HEX_LEN ||
	    (*p)[TT_SHA256_HEX_LEN] != ' ')
		return -1;
	for (i = 0; i < 32; i++)
		h[i] = (uint8_t)(hex_digit((*p)[2 * i]) << 4 |
				 hex_digit((*p)[2 * i + 1]));
	*p += TT_SHA256_HEX_LEN + 1;
	return 0;
}

/* Parse a .deps file (NUL-terminated text); -1 if it is not whole. */
static int deps_parse(char *t, uint8_t elf_hash[32], size_t *elf_len,
		      struct tt_kdeps **out)
{
	struct tt_kdeps *d = deps_new();
	char *nl, *end;
	uint8_t h[32];
	bool whole = false;

	if (!d || strncmp(t, DEPS_MAGIC, strlen(DEPS_MAGIC)))
		goto bad;
	t += strlen(DEPS_MAGIC);
	if (strncmp(t, "elf ", 4))
		goto bad;
	t += 4;
	if (parse_hash(&t, elf_hash))
		goto bad;
	*elf_len = strtoul(t, &end, 10);
	if (end == t || *end != '\n')
		goto bad;
	for (t = end + 1; (nl = strchr(t, '\n')); t = nl + 1) {
		if (!strcmp(t, "end\n")) {
			whole = true;
			break;
		}
		if (strncmp(t, "dep ", 4) || d->count == DEPS_MAX)
			goto bad;
		t += 4;
		if (parse_hash(&t, h) || t == nl ||
		    deps_add(d, t, (size_t)(nl - t), h))
			goto bad;
	}
	if (!whole)
		goto bad;
	if (!d->count) {
		tt_kdeps_free(d);
		d = NULL;
	}
	*out = d;
	return 0;
bad:
	tt_kdeps_free(d);
	return -1;
}

/* Say why an entry was not used, if the caller wants to know. */
static __attribute__((format(printf, 3, 4))) void say(char *why, size_t len,
						       const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

int tt_kcache_disk_load(const char *dir, const uint8_t key[32], uint8_t **elf,
			size_t *elf_len, struct tt_kdeps **deps, char *why,
			size_t why_len)
{
	char path[PATH_MAX + 80];
	uint8_t *text, *data = NULL, want[32], got[32];
	size_t len, n = 0;
	struct tt_kdeps *d = NULL;
	const char *changed;
	int ret;

	entry_path(path, sizeof(path), dir, key, ".deps");
	if (tt_kcache_read_file(path, TT_KCACHE_FILE_MAX, &text, &len)) {
		say(why, why_len, "%s is missing", path);
		return -ENOENT;
	}
	ret = strlen((char *)text) != len ||
	      deps_parse((char *)text, want, &n, &d);
	free(text);
	if (ret) {
		say(why, why_len, "%s is damaged", path);
		goto miss;
	}
	changed = tt_kdeps_changed(d);
	if (changed) {
		say(why, why_len, "the included file %s changed since the kernel was built",
		    changed);
		goto miss;
	}
	entry_path(path, sizeof(path), dir, key, ".elf");
	if (tt_kcache_read_file(path, TT_KCACHE_FILE_MAX, &data, &len) ||
	    len != n) {
		say(why, why_len, "%s is missing or not the size its .deps records",
		    path);
		goto miss;
	}
	tt_sha256(data, len, got);
	if (memcmp(got, want, 32)) {
		say(why, why_len, "%s is damaged (not the SHA-256 its .deps records)",
		    path);
		goto miss;
	}
	*elf = data;
	*elf_len = len;
	*deps = d;
	return 0;
miss:
	free(data);
	tt_kdeps_free(d);
	return -ENOENT;
}

static char *deps_format(const uint8_t *elf, size_t len,
			 const struct tt_kdeps *d, size_t *out_len)
{
	char hex[TT_SHA256_HEX_LEN + 1], *t, *p;
	uint8_t h[32];
	size_t cap = 128, i;

	for (i = 0; d && i < d->count; i++)
		cap += strlen(d->dep[i].path) + TT_SHA256_HEX_LEN + 8;
	t = p = malloc(cap);
	if (!t)
		return NULL;
	tt_sha256(elf, len, h);
	tt_sha256_hex(h, hex);
	p += sprintf(p, "%self %s %zu\n", DEPS_MAGIC, hex, len);
	for (i = 0; d && i < d->count; i++) {
		tt_sha256_hex(d->dep[i].hash, hex);
		p += sprintf(p, "dep %s %s\n", hex, d->dep[i].path);
	}
	p += sprintf(p, "end\n");
	*out_len = (size_t)(p - t);
	return t;
}

int tt_kcache_disk_store(const char *dir, const uint8_t key[32],
			 const char *elf_tmp, const uint8_t *elf, size_t len,
			 const struct tt_kdeps *deps)
{
	char path[PATH_MAX + 80], *text = NULL;
	size_t text_len, i;
	int ret = 0;

	/* A name with a newline cannot be recorded: do not cache. */
	for (i = 0; deps && i < deps->count; i++)
		if (strchr(deps->dep[i].path, '\n'))
			ret = -EINVAL;
	if (!ret)
		text = deps_format(elf, len, deps, &text_len);
	if (!ret && !text)
		ret = -ENOMEM;
	entry_path(path, sizeof(path), dir, key, ".elf");
	if (!ret && rename(elf_tmp, path) < 0)
		ret = -errno;
	if (ret)
		unlink(elf_tmp);
	entry_path(path, sizeof(path), dir, key, ".deps");
	if (!ret)
		ret = tt_kcache_write_file(path, text, text_len);
	free(text);
	return ret;
}

/* ---- portable records ---- */

/*
 * A .port file (kcache.h):
 *
 *   tt-kbuild-portable 1
 *   key <the entry's key>
 *   elf <sha256> <size>
 *   toolchain <identity> <first line of --version>
 *   end
 */
#define PORT_MAGIC "tt-kbuild-portable 1\n"

int tt_kcache_port_store(const char *dir, const uint8_t pkey[32],
			 const struct tt_kport *r)
{
	char path[PATH_MAX + 80], key[TT_SHA256_HEX_LEN + 1];
	char elf[TT_SHA256_HEX_LEN + 1], tc[TT_SHA256_HEX_LEN + 1];
	char text[sizeof(r->cc) + 4 * TT_SHA256_HEX_LEN + 128];
	char cc[sizeof(r->cc)];
	struct tt_kport old;
	size_t i;
	int n;

	/* Already naming this entry: leave it (no write per cache hit). */
	if (!tt_kcache_port_load(dir, pkey, &old) &&
	    !memcmp(old.key, r->key, 32) && !memcmp(old.elf, r->elf, 32) &&
	    old.elf_len == r->elf_len && !memcmp(old.tc_id, r->tc_id, 32))
		return 0;
	/* The version line is for people: printable, on one line. */
	snprintf(cc, sizeof(cc), "%s", r->cc);
	for (i = 0; cc[i]; i++)
		if ((unsigned char)cc[i] < 0x20 || cc[i] == 0x7f)
			cc[i] = '?';
	tt_sha256_hex(r->key, key);
	tt_sha256_hex(r->elf, elf);
	tt_sha256_hex(r->tc_id, tc);
	n = snprintf(text, sizeof(text), "%skey %s\nelf %s %zu\ntoolchain %s %s\nend\n",
		     PORT_MAGIC, key, elf, r->elf_len, tc, cc);
	if (n < 0 || (size_t)n >= sizeof(text))
		return -EOVERFLOW;
	entry_path(path, sizeof(path), dir, pkey, ".port");
	return tt_kcache_write_file(path, text, (size_t)n);
}

/* "<hex><term>" at *p: the hash, then *p after term; -1 if malformed. */
static int parse_hash_to(char **p, uint8_t h[32], char term)
{
	unsigned i;

	if (strspn(*p, "0123456789abcdef") != TT_SHA256_HEX_LEN ||
	    (*p)[TT_SHA256_HEX_LEN] != term)
		return -1;
	for (i = 0; i < 32; i++)
		h[i] = (uint8_t)(hex_digit((*p)[2 * i]) << 4 |
				 hex_digit((*p)[2 * i + 1]));
	*p += TT_SHA256_HEX_LEN + 1;
	return 0;
}

int tt_kcache_port_load(const char *dir, const uint8_t pkey[32],
			struct tt_kport *r)
{
	char path[PATH_MAX + 80], *t, *end, *nl;
	uint8_t *text;
	size_t len;
	int ret = -EINVAL;

	entry_path(path, sizeof(path), dir, pkey, ".port");
	if (tt_kcache_read_file(path, 4096, &text, &len))
		return -ENOENT;
	memset(r, 0, sizeof(*r));
	t = (char *)text;
	if (strlen(t) != len || strncmp(t, PORT_MAGIC, strlen(PORT_MAGIC)))
		goto out;
	t += strlen(PORT_MAGIC);
	if (strncmp(t, "key ", 4))
		goto out;
	t += 4;
	if (parse_hash_to(&t, r->key, '\n') || strncmp(t, "elf ", 4))
		goto out;
	t += 4;
	if (parse_hash_to(&t, r->elf, ' '))
		goto out;
	r->elf_len = strtoul(t, &end, 10);
	if (end == t || *end != '\n' || strncmp(end + 1, "toolchain ", 10))
		goto out;
	t = end + 11;
	if (parse_hash_to(&t, r->tc_id, ' '))
		goto out;
	nl = strchr(t, '\n');
	if (!nl || strcmp(nl, "\nend\n"))
		goto out;
	snprintf(r->cc, sizeof(r->cc), "%.*s", (int)(nl - t), t);
	ret = 0;
out:
	free(text);
	return ret;
}
