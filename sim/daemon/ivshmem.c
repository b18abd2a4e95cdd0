// SPDX-License-Identifier: Apache-2.0
/*
 * ttsim as QEMU's ivshmem server (ivshmem.h).
 *
 * Device -> guest: a thread sleeps on the image's interrupt futex
 * (sim_irq_wait) and writes the guest's vector eventfd. Interrupts are
 * raised from many places (the engine, hart threads, and any other
 * process attached to the image), so watching irq_seq catches them all
 * without touching the model; hooking sim_irq_raise would miss raises
 * from other processes. The thread sleeps while nothing happens, and it
 * takes `lock` only to find the guest's eventfd, so a disconnect never
 * closes a descriptor under its feet.
 *
 * Guest -> device: the doorbell eventfds are polled by the daemon's loop
 * (sim_ivshmem_pollfds / sim_ivshmem_handle), which drains them and kicks
 * the model's doorbell.
 */
#include "ivshmem.h"

#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sim/model/doorbell.h"

#define NAME_LEN 32

struct sim_ivshmem {
	char name[NAME_LEN];
	struct sim_image *img;
	struct sockaddr_un addr;
	dev_t sock_dev; /* the socket file we made, to remove only ours */
	ino_t sock_ino;
	int listen_fd;
	int guest_fd; /* -1: no guest */
	int doorbell[SIM_IVSHMEM_DOORBELLS]; /* read by us, -1 if none */
	/* The guest's vectors, written by the thread: under lock. */
	pthread_mutex_t lock;
	int vector[SIM_IVSHMEM_VECTORS];
	pthread_t thread;
	bool thread_started;
	bool stop; /* atomic */
};

static void iv_log(const struct sim_ivshmem *iv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The daemon's standard error, as server.c's log. */
static void iv_log(const struct sim_ivshmem *iv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "ttsim: %s: ivshmem %s: ", iv->name, iv->addr.sun_path);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* --- device -> guest --- */

static void signal_guest(struct sim_ivshmem *iv)
{
	uint64_t one = 1;

	pthread_mutex_lock(&iv->lock);
	/* A full counter (EAGAIN) means the guest has an interrupt pending
	 * already: nothing is lost. */
	if (iv->vector[0] >= 0 &&
	    write(iv->vector[0], &one, sizeof(one)) != sizeof(one) &&
	    errno != EAGAIN)
		iv_log(iv, "cannot signal the guest: %s", strerror(errno));
	pthread_mutex_unlock(&iv->lock);
}

static void *forward_irqs(void *arg)
{
	struct sim_ivshmem *iv = arg;
	struct tt_host_regs *regs = iv->img->regs;
	uint32_t seen = sim_irq_seq(regs);

	for (;;) {
		sim_irq_wait(regs, seen, -1);
		if (__atomic_load_n(&iv->stop, __ATOMIC_ACQUIRE))
			return NULL;
		/* Read again before signalling: raises meanwhile are covered
		 * by this one signal (the guest looks at irq_status). */
		seen = sim_irq_seq(regs);
		signal_guest(iv);
	}
}

/* --- the guest's connection --- */

static void close_fds(int *fd, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (fd[i] >= 0)
			close(fd[i]);
		fd[i] = -1;
	}
}

static void drop_guest(struct sim_ivshmem *iv, const char *why)
{
	if (iv->guest_fd < 0)
		return;
	iv_log(iv, "guest disconnected (%s)", why);
	pthread_mutex_lock(&iv->lock);
	close_fds(iv->vector, SIM_IVSHMEM_VECTORS);
	pthread_mutex_unlock(&iv->lock);
	close_fds(iv->doorbell, SIM_IVSHMEM_DOORBELLS);
	close(iv->guest_fd);
	iv->guest_fd = -1;
}

/* One protocol message: a little-endian int64, with fd if fd >= 0. */
static int send_msg(int sock, int64_t val, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	uint64_t le = htole64((uint64_t)val);
	struct iovec iov = { .iov_base = &le, .iov_len = sizeof(le) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.buf;
		m.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == sizeof(le) ? 0 : -EIO;
}

static int make_eventfds(int *fd, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		fd[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (fd[i] < 0)
			return -errno;
	}
	return 0;
}

/*
 * The whole set-up, in QEMU's order. It is a few dozen bytes, so it fits
 * in the socket's buffer: a guest that does not read cannot block us (a
 * send that would block fails and drops it).
 */
static int send_setup(struct sim_ivshmem *iv)
{
	int s = iv->guest_fd, ret;
	unsigned i;

	ret = send_msg(s, SIM_IVSHMEM_VERSION, -1);
	if (!ret)
		ret = send_msg(s, SIM_IVSHMEM_GUEST_ID, -1);
	if (!ret)
		ret = send_msg(s, -1, iv->img->fd);
	for (i = 0; i < SIM_IVSHMEM_DOORBELLS && !ret; i++)
		ret = send_msg(s, SIM_IVSHMEM_DEVICE_ID, iv->doorbell[i]);
	for (i = 0; i < SIM_IVSHMEM_VECTORS && !ret; i++)
		ret = send_msg(s, SIM_IVSHMEM_GUEST_ID, iv->vector[i]);
	return ret;
}

static void accept_guest(struct sim_ivshmem *iv)
{
	int fd, ret;

	fd = accept4(iv->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
		    errno != ECONNABORTED)
			iv_log(iv, "accept: %s", strerror(errno));
		return;
	}
	if (iv->guest_fd >= 0) {
		iv_log(iv, "refused a second guest: one guest at a time");
		close(fd);
		return;
	}
	iv->guest_fd = fd;
	pthread_mutex_lock(&iv->lock);
	ret = make_eventfds(iv->vector, SIM_IVSHMEM_VECTORS);
	pthread_mutex_unlock(&iv->lock);
	if (!ret)
		ret = make_eventfds(iv->doorbell, SIM_IVSHMEM_DOORBELLS);
	if (ret) {
		drop_guest(iv, "cannot make its eventfds");
		return;
	}
	iv_log(iv, "guest connected");
	ret = send_setup(iv);
	if (ret)
		drop_guest(iv, ret == -EAGAIN ? "it does not read" :
						"it went away during set-up");
}

/* QEMU never writes: anything readable is a hang-up or a stranger. */
static void guest_readable(struct sim_ivshmem *iv)
{
	char buf[64];
	ssize_t n = recv(iv->guest_fd, buf, sizeof(buf), MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	drop_guest(iv, n > 0 ? "it wrote to the socket, which QEMU never does" :
		       "hang-up");
}

/* --- guest -> device --- */

static void doorbell_readable(struct sim_ivshmem *iv, int fd)
{
	uint64_t count;

	/* Drain the counter: rings coalesce into one kick, and the engine
	 * looks at everything pending. */
	while (read(fd, &count, sizeof(count)) == sizeof(count))
		;
	sim_doorbell_kick(iv->img->regs);
}

/* --- the daemon's loop --- */

unsigned sim_ivshmem_pollfds(const struct sim_ivshmem *iv, struct pollfd *pfd)
{
	unsigned n = 0;

	pfd[n++] = (struct pollfd){ .fd = iv->listen_fd, .events = POLLIN };
	if (iv->guest_fd < 0)
		return n;
	pfd[n++] = (struct pollfd){ .fd = iv->guest_fd, .events = POLLIN };
	for (unsigned i = 0; i < SIM_IVSHMEM_DOORBELLS; i++)
		pfd[n++] = (struct pollfd){ .fd = iv->doorbell[i],
					    .events = POLLIN };
	return n;
}

/*
 * Entries are matched against the current descriptors, not positions: a
 * guest dropped earlier in this round has closed its doorbells. The
 * listening socket comes last, so a descriptor a new guest gets cannot be
 * mistaken for a stale entry.
 */
void sim_ivshmem_handle(struct sim_ivshmem *iv, const struct pollfd *pfd,
			unsigned n)
{
	bool accept = false;

	for (unsigned i = 0; i < n; i++) {
		if (!pfd[i].revents || pfd[i].fd < 0)
			continue;
		if (pfd[i].fd == iv->listen_fd) {
			accept = true;
			continue;
		}
		for (unsigned k = 0; k < SIM_IVSHMEM_DOORBELLS; k++)
			if (pfd[i].fd == iv->doorbell[k])
				doorbell_readable(iv, pfd[i].fd);
		if (pfd[i].fd == iv->guest_fd)
			guest_readable(iv);
	}
	if (accept)
		accept_guest(iv);
}

/* --- set-up and tear-down --- */

/*
 * A socket file at path: replace it if nobody listens (its server died),
 * refuse if someone does or if it is not a socket at all.
 */
static int clear_path(const struct sim_ivshmem *iv, char *err)
{
	const char *path = iv->addr.sun_path;
	struct stat st;
	int s, ret;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, SIM_ERR_LEN,
			 "ivshmem socket %s: a file that is not a socket is in the way; not replacing it",
			 path);
		return -EEXIST;
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	ret = connect(s, (const struct sockaddr *)&iv->addr, sizeof(iv->addr));
	close(s);
	if (ret == 0) {
		snprintf(err, SIM_ERR_LEN,
			 "ivshmem socket %s is in use by another server",
			 path);
		return -EADDRINUSE;
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot remove stale %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	return 0;
}

static int listen_on(struct sim_ivshmem *iv, char *err)
{
	const char *path = iv->addr.sun_path;
	struct stat st;
	mode_t old;
	int ret;

	ret = clear_path(iv, err);
	if (ret)
		return ret;
	iv->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
						 SOCK_CLOEXEC, 0);
	if (iv->listen_fd < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "socket: %s", strerror(-ret));
		return ret;
	}
	/* As server.c's sockets: only this user may connect. */
	old = umask(0177);
	ret = bind(iv->listen_fd, (const struct sockaddr *)&iv->addr,
		   sizeof(iv->addr));
	umask(old);
	if (ret < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot bind ivshmem socket %s: %s",
			 path, strerror(-ret));
		return ret;
	}
	if (stat(path, &st) == 0) {
		iv->sock_dev = st.st_dev;
		iv->sock_ino = st.st_ino;
	}
	/* QEMU waits for its set-up while it starts: let it queue. */
	if (listen(iv->listen_fd, 4) < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot listen on %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	return 0;
}

static struct sim_ivshmem *alloc_server(const char *name,
					struct sim_image *img)
{
	struct sim_ivshmem *iv = calloc(1, sizeof(*iv));

	if (!iv)
		return NULL;
	snprintf(iv->name, sizeof(iv->name), "%s", name);
	iv->img = img;
	iv->addr.sun_family = AF_UNIX;
	iv->listen_fd = -1;
	iv->guest_fd = -1;
	for (unsigned i = 0; i < SIM_IVSHMEM_DOORBELLS; i++)
		iv->doorbell[i] = -1;
	for (unsigned i = 0; i < SIM_IVSHMEM_VECTORS; i++)
		iv->vector[i] = -1;
	pthread_mutex_init(&iv->lock, NULL);
	return iv;
}

int sim_ivshmem_create(const char *path, const char *name,
		       struct sim_image *img, struct sim_ivshmem **out,
		       char *err)
{
	struct sim_ivshmem *iv;
	int ret;

	if (!path || !*path || strlen(path) >= sizeof(iv->addr.sun_path)) {
		snprintf(err, SIM_ERR_LEN,
			 "ivshmem socket path '%.64s%s' is empty or too long (at most %zu bytes)",
			 path ? path : "", path && strlen(path) > 64 ? "..." : "",
			 sizeof(iv->addr.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	iv = alloc_server(name, img);
	if (!iv) {
		snprintf(err, SIM_ERR_LEN, "out of memory");
		return -ENOMEM;
	}
	memcpy(iv->addr.sun_path, path, strlen(path) + 1);
	ret = listen_on(iv, err);
	if (!ret) {
		ret = -pthread_create(&iv->thread, NULL, forward_irqs, iv);
		if (ret)
			snprintf(err, SIM_ERR_LEN,
				 "cannot start the ivshmem interrupt thread: %s",
				 strerror(-ret));
		iv->thread_started = !ret;
	}
	if (ret) {
		sim_ivshmem_destroy(iv);
		return ret;
	}
	*out = iv;
	return 0;
}

/* Remove the socket file if it is still the one we bound. */
static void unlink_ours(const struct sim_ivshmem *iv)
{
	struct stat st;

	if (iv->sock_ino && stat(iv->addr.sun_path, &st) == 0 &&
	    st.st_dev == iv->sock_dev && st.st_ino == iv->sock_ino)
		unlink(iv->addr.sun_path);
}

void sim_ivshmem_destroy(struct sim_ivshmem *iv)
{
	if (!iv)
		return;
	drop_guest(iv, "server stopping");
	if (iv->thread_started) {
		__atomic_store_n(&iv->stop, true, __ATOMIC_RELEASE);
		/* The only way to wake a futex waiter that checks the value:
		 * an interrupt with no cause. */
		sim_irq_raise(iv->img->regs, 0);
		pthread_join(iv->thread, NULL);
	}
	if (iv->listen_fd >= 0) {
		unlink_ours(iv);
		close(iv->listen_fd);
	}
	pthread_mutex_destroy(&iv->lock);
	free(iv);
}
