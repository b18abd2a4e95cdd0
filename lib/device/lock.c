// SPDX-License-Identifier: Apache-2.0
/*
 * Device locks: advisory locks that every thread, handle and process using
 * a chip sees, released when their holder closes or dies.
 *
 * The transport's lock (trylock/unlock: LOCK_CTL on kmd, fcntl record
 * locks on ttsim's lock file, none for the embedded chip) excludes other
 * processes; on ttsim it belongs to the whole process and on kmd to one
 * handle, so neither tells this process's threads and handles apart. So
 * each (device, lock) has a slot in this process too, and the transport
 * is asked only by the one thread that holds the slot.
 *
 * The runtime lock (TT_LOCK_RUNTIME) is shared instead: every handle of
 * the owning process uses the chip's runtime, one of them holds the
 * transport's lock for all, and it passes to another when that one
 * closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hw/msgq.h"
#include "internal.h"

/* Polling the transport's lock: first and longest sleep. */
#define POLL_MIN_US 100
#define POLL_MAX_US 5000
/* Longest TT_OWNER_WAIT_MS: a day. */
#define OWNER_WAIT_MAX_MS 86400000L

struct slot {
	struct slot *next;
	const struct tt_transport_ops *ops;
	char name[sizeof(((struct tt_device *)0)->name)];
	unsigned id;
	/* Held by a thread of this process, or being taken by one. */
	bool held;
	struct tt_device *holder; /* whose transport lock it is */
	struct tt_device *owners; /* TT_LOCK_RUNTIME: handles sharing it */
	pthread_cond_t freed; /* on CLOCK_MONOTONIC */
};

/*
 * Slots live as long as the process: one per device and lock used, a
 * handful. A forked child starts afresh: it holds none of its parent's
 * locks (fcntl locks are not inherited, its handles are its own).
 */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot *slots;
static pid_t slots_pid;

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* timeout_ms < 0: none (-1). */
static int64_t deadline_ns(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : now_ns() + (int64_t)timeout_ms * 1000000;
}

/* slots_lock held; NULL when out of memory. */
static struct slot *slot_get(struct tt_device *dev, unsigned id)
{
	pthread_condattr_t attr;
	struct slot *s;

	if (slots_pid != getpid()) {
		slots = NULL; /* the parent's: leaked, a few bytes */
		slots_pid = getpid();
	}
	for (s = slots; s; s = s->next)
		if (s->ops == dev->ops && s->id == id &&
		    !strcmp(s->name, dev->name))
			return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->ops = dev->ops;
	s->id = id;
	snprintf(s->name, sizeof(s->name), "%s", dev->name);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->freed, &attr);
	pthread_condattr_destroy(&attr);
	s->next = slots;
	slots = s;
	return s;
}

/* Wait (slots_lock held) for the slot to be released: 0 or -ETIMEDOUT. */
static int slot_wait(struct slot *s, int64_t deadline)
{
	struct timespec at;

	if (deadline < 0)
		return -pthread_cond_wait(&s->freed, &slots_lock);
	at.tv_sec = deadline / 1000000000;
	at.tv_nsec = deadline % 1000000000;
	return -pthread_cond_timedwait(&s->freed, &slots_lock, &at);
}

static void slot_release(struct slot *s)
{
	s->held = false;
	s->holder = NULL;
	pthread_cond_broadcast(&s->freed);
}

static void lock_name(unsigned id, char *buf, size_t len)
{
	if (id >= TT_LOCK_MSGQ(0) && id < TT_LOCK_MSGQ(TT_MSGQ_COUNT))
		snprintf(buf, len, "message queue %u's lock",
			 id - TT_LOCK_MSGQ(0));
	else if (id == TT_LOCK_RUNTIME)
		snprintf(buf, len, "runtime lock");
	else
		snprintf(buf, len, "lock %u", id);
}

/* "process PID (command line)", as far as /proc tells. */
static void describe_pid(int pid, char *buf, size_t len)
{
	char path[64], cmd[160];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
	}
	if (n <= 0) {
		snprintf(buf, len, "process %d", pid);
		return;
	}
	while (n > 0 && !cmd[n - 1])
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (!cmd[i])
			cmd[i] = ' ';
	cmd[n] = 0;
	snprintf(buf, len, "process %d (%s)", pid, cmd);
}

/* Who holds it: the pid when the transport knows it, else the other
 * processes that have the device open. */
static void describe_holder(struct tt_device *dev, int pid, char *buf,
			    size_t len)
{
	int pids[8], n = 0, at;

	if (pid > 0) {
		describe_pid(pid, buf, len);
		return;
	}
	if (dev->ops->processes)
		n = dev->ops->processes(dev, pids, 8);
	at = snprintf(buf, len, "another process");
	for (int i = 0, k = 0; i < n && i < 8 && at < (int)len; i++) {
		if (pids[i] == (int)getpid())
			continue;
		at += snprintf(buf + at, len - (size_t)at, "%s%d",
			       k++ ? ", " : " (one of pids ", pids[i]);
	}
	if (n > 0 && at < (int)len && strchr(buf, '('))
		snprintf(buf + at, len - (size_t)at, ")");
}

/*
 * The transport's lock, polled until the deadline (< 0: none): 0, -EBUSY
 * with *holder set, or the transport's error.
 */
static int transport_take(struct tt_device *dev, unsigned id,
			  int64_t deadline, int *holder)
{
	unsigned us = POLL_MIN_US;

	if (!dev->ops->trylock)
		return 0;
	for (;;) {
		int64_t left;
		int ret;

		*holder = 0;
		ret = dev->ops->trylock(dev, id, holder);
		if (ret != -EBUSY)
			return ret;
		left = deadline < 0 ? INT64_MAX : deadline - now_ns();
		if (left <= 0)
			return -EBUSY;
		if ((int64_t)us * 1000 > left)
			us = (unsigned)(left / 1000) + 1;
		usleep(us);
		us = us * 2 > POLL_MAX_US ? POLL_MAX_US : us * 2;
	}
}

static int lock_busy(struct tt_device *dev, unsigned id, int code, int pid,
		     int timeout_ms)
{
	char what[48], who[256];

	lock_name(id, what, sizeof(what));
	describe_holder(dev, pid, who, sizeof(who));
	if (code == -EBUSY)
		return tt_error(code, "%s: %s is held by %s", dev->name, what,
				who);
	return tt_error(code, "%s: %s still held by %s after %d ms", dev->name,
			what, who, timeout_ms);
}

int tt_device_lock(struct tt_device *dev, unsigned id, int timeout_ms)
{
	int64_t deadline = deadline_ns(timeout_ms);
	int code = timeout_ms ? -ETIMEDOUT : -EBUSY;
	int holder = 0, ret = 0;
	struct slot *s;

	if (id >= TT_LOCK_COUNT || id == TT_LOCK_RUNTIME)
		return tt_error(-EINVAL, "%s: no exclusive device lock %u",
				dev->name, id);
	pthread_mutex_lock(&slots_lock);
	s = slot_get(dev, id);
	while (s && s->held && !ret)
		ret = slot_wait(s, deadline);
	if (s && !ret)
		s->held = true;
	pthread_mutex_unlock(&slots_lock);
	if (!s)
		return tt_error(-ENOMEM, "%s: out of memory for a lock",
				dev->name);
	if (ret)
		return lock_busy(dev, id, code, (int)getpid(), timeout_ms);
	ret = transport_take(dev, id, deadline, &holder);
	pthread_mutex_lock(&slots_lock);
	if (ret)
		slot_release(s);
	else
		s->holder = dev;
	pthread_mutex_unlock(&slots_lock);
	if (ret == -EBUSY)
		return lock_busy(dev, id, code, holder, timeout_ms);
	return ret;
}

void tt_device_unlock(struct tt_device *dev, unsigned id)
{
	struct slot *s;

	pthread_mutex_lock(&slots_lock);
	s = slot_get(dev, id);
	if (s && s->held && s->holder == dev) {
		if (dev->ops->unlock)
			dev->ops->unlock(dev, id);
		slot_release(s);
	}
	pthread_mutex_unlock(&slots_lock);
}

/* ---- the runtime lock, shared by the owning process's handles ---- */

/* TT_OWNER_WAIT_MS: how long tt_device_own() waits; 0 unset. */
static int owner_wait_ms(int *ms)
{
	unsigned long n;
	int ret = tt_env_uint("TT_OWNER_WAIT_MS", 0, OWNER_WAIT_MAX_MS, 0, &n);

	*ms = (int)n;
	return ret;
}

/* Another handle of the process takes over the transport's lock from one
 * that closes (slots_lock held). */
static void hand_over(struct slot *s)
{
	for (struct tt_device *o = s->owners; o; o = o->owner_next) {
		int holder;

		if (!o->ops->trylock || !o->ops->trylock(o, s->id, &holder)) {
			s->holder = o;
			return;
		}
	}
	/* Another process took it in between: the remaining handles no
	 * longer own the chip (docs/api.md, "Sharing a device"). */
	for (struct tt_device *o = s->owners; o; o = o->owner_next)
		o->owner = false;
	s->owners = NULL;
	slot_release(s);
}

static void disown(struct tt_device *dev)
{
	struct tt_device **pp;
	struct slot *s;

	pthread_mutex_lock(&slots_lock);
	s = dev->owner ? slot_get(dev, TT_LOCK_RUNTIME) : NULL;
	if (!s)
		goto out;
	for (pp = &s->owners; *pp && *pp != dev; pp = &(*pp)->owner_next)
		;
	if (*pp)
		*pp = dev->owner_next;
	dev->owner = false;
	dev->owner_next = NULL;
	if (s->holder != dev)
		goto out;
	if (dev->ops->unlock)
		dev->ops->unlock(dev, TT_LOCK_RUNTIME);
	s->holder = NULL;
	if (s->owners)
		hand_over(s);
	else
		slot_release(s);
out:
	pthread_mutex_unlock(&slots_lock);
}

/* Join the process's owners (slots_lock held). */
static void join_owners(struct slot *s, struct tt_device *dev)
{
	dev->owner_next = s->owners;
	s->owners = dev;
	__atomic_store_n(&dev->owner, true, __ATOMIC_RELEASE);
}

/* Last of the close hooks: the layers above have let go of the chip. */
#define OWNER_CLOSE_LEVEL 0

int tt_device_own(struct tt_device *dev)
{
	int holder = 0, ret, wait_ms;
	struct slot *s;

	if (__atomic_load_n(&dev->owner, __ATOMIC_ACQUIRE))
		return 0;
	ret = owner_wait_ms(&wait_ms);
	if (!ret) /* first: disown() does nothing until dev owns */
		ret = tt_device_on_close(dev, OWNER_CLOSE_LEVEL, disown);
	if (ret)
		return ret;
	pthread_mutex_lock(&slots_lock);
	s = slot_get(dev, TT_LOCK_RUNTIME);
	/* Another thread of ours may be taking it: its own wait is bounded. */
	while (s && s->held && !s->owners)
		slot_wait(s, -1);
	if (s && !dev->owner && s->owners)
		join_owners(s, dev);
	if (!s || dev->owner) {
		pthread_mutex_unlock(&slots_lock);
		return s ? 0 : tt_error(-ENOMEM, "%s: out of memory for a lock",
					dev->name);
	}
	s->held = true;
	pthread_mutex_unlock(&slots_lock);
	ret = transport_take(dev, TT_LOCK_RUNTIME, deadline_ns(wait_ms),
			     &holder);
	pthread_mutex_lock(&slots_lock);
	if (ret) {
		slot_release(s);
	} else {
		s->holder = dev;
		dev->owner_fresh = true;
		join_owners(s, dev);
		pthread_cond_broadcast(&s->freed);
	}
	pthread_mutex_unlock(&slots_lock);
	if (ret == -EBUSY) {
		char who[256];

		describe_holder(dev, holder, who, sizeof(who));
		return tt_error(-EBUSY,
				"%s: the chip's memory and programs belong to %s; monitoring still works (set TT_OWNER_WAIT_MS to wait for it)",
				dev->name, who);
	}
	return ret;
}

int tt_device_runtime_owned(struct tt_device *dev, int *pid)
{
	struct slot *s;
	bool ours;

	*pid = 0;
	pthread_mutex_lock(&slots_lock);
	s = slot_get(dev, TT_LOCK_RUNTIME);
	ours = s && s->owners;
	pthread_mutex_unlock(&slots_lock);
	if (ours) {
		*pid = (int)getpid();
		return 1;
	}
	/* No transport lock: the chip is this process's alone. */
	if (!dev->ops->lock_held)
		return 0;
	return dev->ops->lock_held(dev, TT_LOCK_RUNTIME, pid);
}
