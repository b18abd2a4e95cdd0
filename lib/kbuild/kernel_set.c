// SPDX-License-Identifier: Apache-2.0
/*
 * Kernel sets (tt/kernel_set.h): ELF files by portable key, sorted by key;
 * the one set that records and the list of sets that serve
 * (docs/kernels.md "Kernel sets").
 *
 * tt_kbuild runs on several threads at once, so one lock guards the
 * recording set, the served list and the entries of every set. It is
 * never held while calling into the rest of kbuild: a served ELF is
 * copied out under it and loaded after (so a set may be freed while a
 * build uses its kernel), and a recorded ELF is copied in under it. The
 * memory cache's own lock (kcache.c) is a different one, never taken
 * with this one held, so the two cannot deadlock. The pointer checks of
 * tt_kset_recording and tt_kset_find without the lock are only a fast
 * path: the answer is taken again under it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild.h"
#include "sha256.h"
#include "tt/kernel_set.h"

struct kset_entry {
	uint8_t pkey[32];
	char key[TT_SHA256_HEX_LEN + 1]; /* pkey in hex, as given */
	uint8_t hash[32]; /* the ELF's SHA-256 */
	size_t len;
	uint8_t elf[]; /* len bytes, never changed after the add */
};

struct tt_kernel_set {
	struct kset_entry **e; /* sorted by pkey; each entry stays put */
	size_t count, cap;
	bool serving;
	struct tt_kernel_set *next_served;
	/* The first failure while recording, for tt_kernel_set_record. */
	int err;
	char err_msg[256];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static tt_kernel_set *recorder;
static tt_kernel_set *served; /* in the order served, via next_served */

/* ---- entries ---- */

/* The index of pkey in s, or where it would go (*found false). */
static size_t find_locked(const tt_kernel_set *s, const uint8_t pkey[32],
			  bool *found)
{
	size_t lo = 0, hi = s->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(s->e[mid]->pkey, pkey, 32);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

static struct kset_entry *entry_new(const uint8_t pkey[32], const void *elf,
				    size_t len)
{
	struct kset_entry *e = malloc(sizeof(*e) + (len ? len : 1));

	if (!e)
		return NULL;
	memcpy(e->pkey, pkey, 32);
	tt_sha256_hex(pkey, e->key);
	memcpy(e->elf, elf, len);
	e->len = len;
	tt_sha256(elf, len, e->hash);
	return e;
}

static bool same_elf(const struct kset_entry *a, const struct kset_entry *b)
{
	return a->len == b->len && !memcmp(a->hash, b->hash, 32);
}

/*
 * Put e in s (which then owns it): 0; 1 if s has the same ELF under the
 * key already (e is freed); -EEXIST if another ELF (e is not taken);
 * -ENOMEM.
 */
static int insert_locked(tt_kernel_set *s, struct kset_entry *e)
{
	struct kset_entry **v;
	bool found;
	size_t at = find_locked(s, e->pkey, &found);

	if (found) {
		if (!same_elf(s->e[at], e))
			return -EEXIST;
		free(e);
		return 1;
	}
	if (s->count == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;

		v = realloc(s->e, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->e = v;
		s->cap = cap;
	}
	memmove(s->e + at + 1, s->e + at, (s->count - at) * sizeof(*s->e));
	s->e[at] = e;
	s->count++;
	return 0;
}

/* 64 lowercase hex digits into 32 bytes. */
static bool parse_key(const char *key, uint8_t out[32])
{
	unsigned i;

	if (strlen(key) != TT_SHA256_HEX_LEN ||
	    strspn(key, "0123456789abcdef") != TT_SHA256_HEX_LEN)
		return false;
	for (i = 0; i < 32; i++) {
		unsigned hi = (unsigned)key[2 * i];
		unsigned lo = (unsigned)key[2 * i + 1];

		hi = hi <= '9' ? hi - '0' : hi - 'a' + 10;
		lo = lo <= '9' ? lo - '0' : lo - 'a' + 10;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* ---- the API ---- */

int tt_kernel_set_create(tt_kernel_set **out)
{
	TT_CHECK_ARG(out);
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return tt_error(-ENOMEM, "tt_kernel_set_create: out of memory");
	return 0;
}

static void unserve_locked(tt_kernel_set *s)
{
	tt_kernel_set **p = &served;

	while (*p && *p != s)
		p = &(*p)->next_served;
	if (*p)
		__atomic_store_n(p, s->next_served, __ATOMIC_RELEASE);
	s->next_served = NULL;
	s->serving = false;
}

void tt_kernel_set_free(tt_kernel_set *s)
{
	size_t i;

	if (!s)
		return;
	pthread_mutex_lock(&lock);
	if (recorder == s)
		__atomic_store_n(&recorder, NULL, __ATOMIC_RELEASE);
	if (s->serving)
		unserve_locked(s);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < s->count; i++)
		free(s->e[i]);
	free(s->e);
	free(s);
}

int tt_kernel_set_add(tt_kernel_set *s, const char *portable_key,
		      const void *elf, size_t len)
{
	struct kset_entry *e;
	enum tt_kproc proc;
	uint8_t pkey[32];
	char msg[4096];
	int ret;

	TT_CHECK_ARG(s);
	TT_CHECK_ARG(portable_key);
	if (TT_ARG_NULL_LEN(elf, len))
		return -EINVAL;
	if (!parse_key(portable_key, pkey))
		return tt_error(-EINVAL, "tt_kernel_set_add: key '%.80s' is not 64 lowercase hex digits (a portable key)",
				portable_key);
	/* Checked as a build checks its output, for the slot the entry
	 * point names: a set never holds what no request could use. */
	if (tt_kbuild_check_elf(portable_key, elf ? elf : "", len, &proc)) {
		snprintf(msg, sizeof(msg), "%s", tt_last_error());
		return tt_error(-EINVAL, "tt_kernel_set_add: %s", msg);
	}
	e = entry_new(pkey, elf ? elf : "", len);
	if (!e)
		return tt_error(-ENOMEM, "tt_kernel_set_add: kernel %s: out of memory (%zu bytes)",
				portable_key, len);
	pthread_mutex_lock(&lock);
	ret = insert_locked(s, e);
	pthread_mutex_unlock(&lock);
	if (ret < 0)
		free(e);
	if (ret == -EEXIST)
		return tt_error(-EEXIST, "tt_kernel_set_add: kernel %s is in the set already, with another ELF",
				portable_key);
	if (ret < 0)
		return tt_error(ret, "tt_kernel_set_add: kernel %s: out of memory",
				portable_key);
	return 0;
}

size_t tt_kernel_set_count(const tt_kernel_set *s)
{
	size_t n;

	if (TT_ARG_NULL(s))
		return 0;
	pthread_mutex_lock(&lock);
	n = s->count;
	pthread_mutex_unlock(&lock);
	return n;
}

int tt_kernel_set_at(const tt_kernel_set *s, size_t i,
		     const char **portable_key, const void **elf, size_t *len)
{
	const struct kset_entry *e = NULL;
	size_t n;

	TT_CHECK_ARG(s);
	pthread_mutex_lock(&lock);
	n = s->count;
	if (i < n)
		e = s->e[i];
	pthread_mutex_unlock(&lock);
	if (!e)
		return tt_error(-EINVAL, "tt_kernel_set_at: index %zu is not below the set's %zu kernels",
				i, n);
	if (portable_key)
		*portable_key = e->key;
	if (elf)
		*elf = e->elf;
	if (len)
		*len = e->len;
	return 0;
}

int tt_kernel_set_record(tt_kernel_set *s)
{
	char msg[sizeof(s->err_msg)];
	tt_kernel_set *r;
	int ret = 0;

	pthread_mutex_lock(&lock);
	r = recorder;
	if (!s && r) {
		ret = r->err;
		snprintf(msg, sizeof(msg), "%s", r->err_msg);
		r->err = 0;
		__atomic_store_n(&recorder, NULL, __ATOMIC_RELEASE);
	} else if (s && r && r != s) {
		ret = -EBUSY;
	} else if (s && !r) {
		s->err = 0;
		__atomic_store_n(&recorder, s, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	if (ret == -EBUSY)
		return tt_error(-EBUSY, "tt_kernel_set_record: another kernel set records; stop it first with tt_kernel_set_record(NULL)");
	if (ret)
		return tt_error(ret, "tt_kernel_set_record: %s", msg);
	return 0;
}

int tt_kernel_set_serve(tt_kernel_set *s)
{
	tt_kernel_set **p = &served;

	pthread_mutex_lock(&lock);
	if (!s) {
		while (served)
			unserve_locked(served);
	} else if (!s->serving) {
		while (*p)
			p = &(*p)->next_served;
		s->serving = true;
		s->next_served = NULL;
		__atomic_store_n(p, s, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	return 0;
}

/* ---- kbuild's side (kbuild.h) ---- */

bool tt_kset_recording(void)
{
	return __atomic_load_n(&recorder, __ATOMIC_ACQUIRE) != NULL;
}

static void record_failed_locked(tt_kernel_set *s, int err,
				 const uint8_t pkey[32], const char *why)
{
	char hex[TT_SHA256_HEX_LEN + 1];

	if (s->err)
		return;
	tt_sha256_hex(pkey, hex);
	s->err = err;
	snprintf(s->err_msg, sizeof(s->err_msg), "kernel %s %s", hex, why);
}

void tt_kset_note(const uint8_t pkey[32], const uint8_t *elf, size_t len)
{
	struct kset_entry *e;
	bool found;
	size_t at;
	int ret;

	pthread_mutex_lock(&lock);
	if (!recorder)
		goto out;
	if (!elf) {
		record_failed_locked(recorder, -ENOMEM, pkey,
				     "was not recorded: its ELF was not kept (out of memory, or recording started during its build)");
		goto out;
	}
	/* Every memory hit gets here: compare before hashing anything. */
	at = find_locked(recorder, pkey, &found);
	if (found) {
		e = recorder->e[at];
		if (e->len != len || memcmp(e->elf, elf, len))
			record_failed_locked(recorder, -EEXIST, pkey,
					     "was met with two different ELF files; the set keeps the first");
		goto out;
	}
	e = entry_new(pkey, elf, len);
	ret = e ? insert_locked(recorder, e) : -ENOMEM;
	if (ret < 0) {
		free(e);
		record_failed_locked(recorder, ret, pkey,
				     "was not recorded: out of memory");
	}
out:
	pthread_mutex_unlock(&lock);
}

int tt_kset_find(const uint8_t pkey[32], uint8_t **elf, size_t *len,
		 uint8_t hash[32])
{
	const struct kset_entry *e = NULL;
	tt_kernel_set *s;
	bool found;
	size_t at;
	int ret = -ENOENT;

	if (!__atomic_load_n(&served, __ATOMIC_ACQUIRE))
		return -ENOENT;
	pthread_mutex_lock(&lock);
	for (s = served; s && !e; s = s->next_served) {
		at = find_locked(s, pkey, &found);
		if (found)
			e = s->e[at];
	}
	if (e) {
		*elf = malloc(e->len ? e->len : 1);
		ret = *elf ? 0 : -ENOMEM;
	}
	if (!ret) {
		memcpy(*elf, e->elf, e->len);
		*len = e->len;
		memcpy(hash, e->hash, 32);
	}
	pthread_mutex_unlock(&lock);
	return ret;
}
