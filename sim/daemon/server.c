// SPDX-License-Identifier: Apache-2.0
/*
 * The ttsim serving loop (server.h).
 *
 * Start-up order matters: names first (locks), then devices, then sockets.
 * A second daemon asking for a taken name fails before building anything,
 * and a client never reaches a device that is not READY.
 *
 * Shutdown runs the other way: the images are marked STOPPED (clients
 * still mapping them see it), sockets go (no new clients), then the
 * devices, and the locks last. `ttsim stop` waits for the lock to be free,
 * so when it returns the devices are gone, not just unpublished.
 *
 * Every request gets exactly one reply. A request that is not a whole
 * struct sim_req with our magic is answered with -EPROTO and the
 * connection is dropped: after a framing error nothing the client says can
 * be trusted. An unknown op on a well-formed request is answered with
 * -EOPNOTSUPP and the connection kept, so a newer client can fall back.
 */
#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "guestram.h"
#include "ivshmem.h"
#include "proto.h"
#include "rundir.h"

#define LISTEN_BACKLOG 64
/* A held lock is tried again this many times, 10 ms apart: `ttsim list`
 * and `ttsim stop` take it for a moment to tell stale files from live
 * ones, and a daemon that is shutting down lets go of it shortly. */
#define LOCK_TRIES 5
#define PATH_LEN 320

struct srv_dev {
	char name[SIM_NAME_MAX];
	/* Private copies: the identity page is writable by every client. */
	enum tt_hw_board board;
	unsigned chip;
	struct sim_device *dev;
	int lock_fd; /* -1 until the name is ours */
	int listen_fd; /* -1 until the socket file is ours */
	char lock_path[PATH_LEN];
	struct sockaddr_un addr;
	struct sim_ivshmem *ivshmem; /* NULL: not offered to a VM */
};

struct srv_client {
	int fd; /* -1: free slot */
	struct srv_dev *sd;
	uint64_t owner; /* DMA owner tag, unique per connection, never 0 */
	pid_t pid; /* the process that connected (SO_PEERCRED); 0: unknown */
};

struct sim_server {
	char rundir[256];
	unsigned ndev;
	struct srv_dev devs[SIM_MAX_DEVICES];
	unsigned nclients;
	struct srv_client clients[SIM_SERVER_MAX_CLIENTS];
	uint64_t next_owner;
	int sigfd;
	sigset_t old_mask;
	bool mask_set;
	bool stop;
};

static void srv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The daemon's standard error: the terminal with --foreground, else
 * /dev/null. */
static void srv_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ttsim: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* --- names: lock files --- */

/* The pid its holder wrote in a lock file; 0 if none yet. */
static long holder_pid(int fd)
{
	char buf[24], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = 0;
	pid = strtol(buf, &end, 10);
	return end != buf && pid > 0 ? pid : 0;
}

/*
 * Is fd still the file at path? A daemon unlinks its lock file while it
 * still holds the lock, so a lock won on an inode that is already unlinked
 * proves nothing: someone may hold a new file by that name.
 */
static bool same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int write_pid(struct srv_dev *sd, char *err)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	ssize_t w;
	int e = 0;

	if (ftruncate(sd->lock_fd, 0) < 0)
		e = errno;
	else if ((w = pwrite(sd->lock_fd, buf, (size_t)n, 0)) != n)
		e = w < 0 ? errno : EIO;
	if (e)
		snprintf(err, SIM_ERR_LEN, "cannot write %s: %s", sd->lock_path,
			 strerror(e));
	return -e;
}

static int name_busy(struct srv_dev *sd, int fd, char *err)
{
	long pid = holder_pid(fd);

	if (pid)
		snprintf(err, SIM_ERR_LEN,
			 "device %s is already served by ttsim (pid %ld); stop it with 'ttsim stop %s' or choose other names with --name",
			 sd->name, pid, sd->name);
	else
		snprintf(err, SIM_ERR_LEN,
			 "device %s is already served by another ttsim; stop it with 'ttsim stop %s' or choose other names with --name",
			 sd->name, sd->name);
	return -EBUSY;
}

/* Take <name>.lock, or say who has it. */
static int claim_name(struct srv_dev *sd, char *err)
{
	for (int tries = 1;; tries++) {
		int fd, e;

		fd = open(sd->lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			  0600);
		if (fd < 0) {
			e = errno;
			snprintf(err, SIM_ERR_LEN, "cannot open %s: %s",
				 sd->lock_path, strerror(e));
			return -e;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			if (same_file(fd, sd->lock_path)) {
				sd->lock_fd = fd;
				return write_pid(sd, err);
			}
			/* Lost to an unlink: go again with the new file. */
		} else if (errno != EWOULDBLOCK) {
			e = errno;
			snprintf(err, SIM_ERR_LEN, "cannot lock %s: %s",
				 sd->lock_path, strerror(e));
			close(fd);
			return -e;
		}
		if (tries >= LOCK_TRIES) {
			e = name_busy(sd, fd, err);
			close(fd);
			return e;
		}
		close(fd);
		sleep_ms(10);
	}
}

/* Unlink before unlocking: see same_file(). */
static void release_name(struct srv_dev *sd)
{
	if (sd->lock_fd < 0)
		return;
	unlink(sd->lock_path);
	close(sd->lock_fd);
	sd->lock_fd = -1;
}

/* --- sockets --- */

static int publish(struct srv_dev *sd, char *err)
{
	const char *path = sd->addr.sun_path;
	mode_t old;
	int fd, ret;

	/* The name is ours now, so a socket file left there is stale. */
	if (unlink(path) < 0 && errno != ENOENT) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot remove stale %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "socket: %s", strerror(-ret));
		return ret;
	}
	/* Bound under a temporary name and renamed once it listens: a client
	 * that sees the socket file can connect at once (between bind and
	 * listen a connect would be refused). bind() creates the file with
	 * the umask applied: make it 0600. The engine threads never create
	 * files, so the process-wide umask change is not seen by anyone. */
	struct sockaddr_un tmp = sd->addr;
	size_t len = strlen(path);

	if (len + 2 > sizeof(tmp.sun_path)) {
		close(fd);
		snprintf(err, SIM_ERR_LEN, "socket path too long: %s", path);
		return -ENAMETOOLONG;
	}
	memcpy(tmp.sun_path + len, "~", 2);
	unlink(tmp.sun_path);
	old = umask(0177);
	ret = bind(fd, (const struct sockaddr *)&tmp, sizeof(tmp));
	umask(old);
	if (ret < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot bind %s: %s", tmp.sun_path,
			 strerror(-ret));
		close(fd);
		return ret;
	}
	if (listen(fd, LISTEN_BACKLOG) < 0 || rename(tmp.sun_path, path) < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot listen on %s: %s", path,
			 strerror(-ret));
		unlink(tmp.sun_path);
		close(fd);
		return ret;
	}
	sd->listen_fd = fd;
	return 0;
}

static void unpublish(struct srv_dev *sd)
{
	if (sd->listen_fd < 0)
		return;
	unlink(sd->addr.sun_path);
	close(sd->listen_fd);
	sd->listen_fd = -1;
}

/* --- signals --- */

static int block_signals(struct sim_server *srv, char *err)
{
	sigset_t set;
	int ret;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	ret = pthread_sigmask(SIG_BLOCK, &set, &srv->old_mask);
	if (ret) {
		snprintf(err, SIM_ERR_LEN, "cannot block signals: %s",
			 strerror(ret));
		return -ret;
	}
	srv->mask_set = true;
	srv->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (srv->sigfd < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "signalfd: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

static void restore_signals(struct sim_server *srv)
{
	struct signalfd_siginfo si;

	if (srv->sigfd >= 0) {
		/* Swallow signals that came during shutdown: once unblocked,
		 * their default action would kill us half-way through exit. */
		while (read(srv->sigfd, &si, sizeof(si)) == sizeof(si))
			;
		close(srv->sigfd);
		srv->sigfd = -1;
	}
	if (srv->mask_set)
		pthread_sigmask(SIG_SETMASK, &srv->old_mask, NULL);
	srv->mask_set = false;
}

static void handle_signals(struct sim_server *srv)
{
	struct signalfd_siginfo si;

	while (read(srv->sigfd, &si, sizeof(si)) == sizeof(si)) {
		srv_log("stopping on %s", sigabbrev_np((int)si.ssi_signo));
		srv->stop = true;
	}
}

/* --- clients --- */

/*
 * Close a connection so that the client can still read our last reply.
 * Closing a socket that holds unread requests makes the client's next read
 * fail with ECONNRESET before it sees the reply. Shutting our receive side
 * first stops more requests (the client's send gets EPIPE); the ones
 * already queued, and any descriptors riding on them, are discarded.
 */
static void hang_up(int fd)
{
	char buf[64];

	shutdown(fd, SHUT_RD);
	for (int i = 0; i < 256; i++)
		if (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) <= 0)
			break;
	close(fd);
}

static void drop_client(struct sim_server *srv, struct srv_client *c)
{
	sim_device_release_owner(c->sd->dev, c->owner);
	hang_up(c->fd);
	c->fd = -1;
	c->sd = NULL;
	c->pid = 0;
	srv->nclients--;
}

/*
 * Say why and hang up. The reply waits in the client's socket even if its
 * request was not sent in time (its send then fails with EPIPE), so a
 * client that reads after a failed send still learns the reason.
 */
static void refuse(struct srv_dev *sd, int fd)
{
	struct sim_resp r = { .magic = SIM_PROTO_MAGIC, .status = -EUSERS };

	snprintf(r.msg, sizeof(r.msg),
		 "ttsim device %s: too many clients (at most %d); try again later",
		 sd->name, SIM_SERVER_MAX_CLIENTS);
	sim_proto_send(fd, &r, sizeof(r), -1);
	hang_up(fd);
}

/*
 * The process at the other end of a new connection, in our pid namespace;
 * 0 if it has none there. It is the process that called connect(): a
 * socket passed on or inherited still names its first owner.
 */
static pid_t peer_pid(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
	    len != sizeof(cred) || cred.pid <= 0)
		return 0;
	return cred.pid;
}

/* At most a backlog's worth per round, so that a flood of connections
 * cannot starve the clients already served. */
static void accept_clients(struct sim_server *srv, struct srv_dev *sd)
{
	for (int round = 0; round < LISTEN_BACKLOG; round++) {
		struct srv_client *c = NULL;
		int fd;

		fd = accept4(sd->listen_fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				srv_log("%s: accept: %s", sd->name,
					strerror(errno));
			return;
		}
		if (srv->nclients == SIM_SERVER_MAX_CLIENTS) {
			srv_log("%s: refused a client: already %d connections",
				sd->name, SIM_SERVER_MAX_CLIENTS);
			refuse(sd, fd);
			continue;
		}
		for (unsigned i = 0; !c; i++)
			if (srv->clients[i].fd < 0)
				c = &srv->clients[i];
		c->fd = fd;
		c->sd = sd;
		c->owner = srv->next_owner++;
		c->pid = peer_pid(fd);
		srv->nclients++;
	}
}

static void resp_error(struct sim_resp *r, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void resp_error(struct sim_resp *r, int status, const char *fmt, ...)
{
	va_list ap;

	r->status = status;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
}

static void do_hello(struct srv_dev *sd, struct sim_resp *r, int *send_fd)
{
	r->val[0] = sd->dev->img->size;
	r->val[1] = (uint64_t)getpid();
	r->val[2] = sd->board;
	r->val[3] = sd->chip;
	/* SCM_RIGHTS installs a new descriptor in the client; ours stays. */
	*send_fd = sd->dev->img->fd;
}

static void do_dma_map(struct srv_client *c, const struct sim_req *q, int fd,
		       struct sim_resp *r)
{
	uint64_t size = q->arg[0];
	struct sim_dma_map map;
	int ret;

	if (fd < 0) {
		resp_error(r, -EBADF, "DMA_MAP needs the buffer's file descriptor");
		return;
	}
	ret = sim_device_dma_map(c->sd->dev, fd, size, c->owner, &map, r->msg);
	if (ret) {
		r->status = ret;
		return;
	}
	r->val[0] = map.id;
	r->val[1] = map.bus;
	r->val[2] = map.noc_x;
	r->val[3] = map.noc_y;
	r->val[4] = map.noc_local;
}

static void do_dma_unmap(struct srv_client *c, const struct sim_req *q,
			 struct sim_resp *r)
{
	/* Ids are 32-bit: a larger one cannot be one of ours. */
	if (q->arg[0] > UINT32_MAX ||
	    sim_device_dma_unmap(c->sd->dev, (uint32_t)q->arg[0], c->owner))
		resp_error(r, -ENOENT, "no DMA mapping %llu on this connection",
			   (unsigned long long)q->arg[0]);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/*
 * The distinct pids of sd's clients into out[], ascending; returns how
 * many. A connection that has hung up but that this loop has not dropped
 * yet is left out: a process that has closed the device must not be
 * reported a moment later (tt-smi refuses a reset while one is listed).
 */
static unsigned client_pids(const struct sim_server *srv,
			    const struct srv_dev *sd, pid_t *out)
{
	struct pollfd pfd[SIM_SERVER_MAX_CLIENTS];
	pid_t pid[SIM_SERVER_MAX_CLIENTS];
	unsigned n = 0, live = 0, i;

	for (i = 0; i < SIM_SERVER_MAX_CLIENTS; i++) {
		const struct srv_client *c = &srv->clients[i];

		if (c->fd < 0 || c->sd != sd || !c->pid)
			continue;
		/* POLLHUP and POLLERR come whatever the events asked. */
		pfd[n] = (struct pollfd){ .fd = c->fd };
		pid[n++] = c->pid;
	}
	if (n && poll(pfd, n, 0) < 0)
		memset(pfd, 0, n * sizeof(pfd[0])); /* cannot tell: list all */
	for (i = 0; i < n; i++)
		if (!(pfd[i].revents & (POLLHUP | POLLERR | POLLNVAL)))
			pid[live++] = pid[i];
	qsort(pid, live, sizeof(pid[0]), cmp_pid);
	n = 0;
	for (i = 0; i < live; i++)
		if (!n || out[n - 1] != pid[i])
			out[n++] = pid[i];
	return n;
}

static void do_clients(const struct sim_server *srv,
		       const struct srv_client *c, const struct sim_req *q,
		       struct sim_resp *r)
{
	pid_t pid[SIM_SERVER_MAX_CLIENTS];
	unsigned n = client_pids(srv, c->sd, pid);
	uint64_t first = q->arg[0];

	r->val[0] = n;
	/* Any index is fine; compare without adding so that one near
	 * UINT64_MAX cannot wrap around into the table. */
	for (unsigned k = 0; k < SIM_CLIENTS_PER_REPLY; k++)
		if (first < n && k < n - first)
			r->val[1 + k] = (uint64_t)pid[first + k];
}

/* Answer a well-formed request. */
static void dispatch(struct sim_server *srv, struct srv_client *c,
		     const struct sim_req *q, int fd, struct sim_resp *r,
		     int *send_fd)
{
	switch (q->op) {
	case SIM_OP_HELLO:
		do_hello(c->sd, r, send_fd);
		break;
	case SIM_OP_DMA_MAP:
		do_dma_map(c, q, fd, r);
		break;
	case SIM_OP_DMA_UNMAP:
		do_dma_unmap(c, q, r);
		break;
	case SIM_OP_SHUTDOWN:
		srv_log("stopping: a client asked to shut down (device %s)",
			c->sd->name);
		srv->stop = true;
		break;
	case SIM_OP_CLIENTS:
		do_clients(srv, c, q, r);
		break;
	default:
		resp_error(r, -EOPNOTSUPP, "unknown operation %u", q->op);
		break;
	}
}

static void serve_client(struct sim_server *srv, struct srv_client *c)
{
	struct sim_resp r = { .magic = SIM_PROTO_MAGIC };
	struct sim_req q;
	int fd, send_fd = -1, ret;
	bool drop = false;

	ret = sim_proto_recv(c->fd, &q, sizeof(q), &fd);
	if (ret == -EAGAIN || ret == -EWOULDBLOCK)
		return;
	if (ret == -EPROTO) {
		resp_error(&r, -EPROTO, "malformed request: a request is %zu bytes",
			   sizeof(q));
		drop = true;
	} else if (ret) {
		/* Hung up (-ECONNRESET) or the socket failed: nobody to tell.
		 * An empty message reads as a hang-up too, and may carry a
		 * descriptor. */
		if (fd >= 0)
			close(fd);
		drop_client(srv, c);
		return;
	} else if (q.magic != SIM_PROTO_MAGIC) {
		resp_error(&r, -EPROTO, "bad magic 0x%08x in request", q.magic);
		drop = true;
	} else {
		dispatch(srv, c, &q, fd, &r, &send_fd);
	}
	if (fd >= 0)
		close(fd);
	if (drop)
		srv_log("%s: dropped a client: %s", c->sd->name, r.msg);
	/* A client whose socket is full does not read its replies: drop it
	 * rather than wait for it. */
	if (sim_proto_send(c->fd, &r, sizeof(r), send_fd) < 0 || drop)
		drop_client(srv, c);
}

/* --- the loop --- */

int sim_server_run(struct sim_server *srv, char *err)
{
	struct pollfd pfd[1 + SIM_MAX_DEVICES + SIM_SERVER_MAX_CLIENTS +
			  SIM_MAX_DEVICES * SIM_IVSHMEM_POLLFDS];
	struct srv_client *who[SIM_SERVER_MAX_CLIENTS];
	unsigned first_iv[SIM_MAX_DEVICES], n_iv[SIM_MAX_DEVICES];

	while (!srv->stop) {
		unsigned nfd = 0, first_client, i;

		pfd[nfd++] = (struct pollfd){ .fd = srv->sigfd, .events = POLLIN };
		for (i = 0; i < srv->ndev; i++)
			pfd[nfd++] = (struct pollfd){ .fd = srv->devs[i].listen_fd,
						      .events = POLLIN };
		/* Guests of VMs before the clients, which run to the end. */
		for (i = 0; i < srv->ndev; i++) {
			first_iv[i] = nfd;
			n_iv[i] = srv->devs[i].ivshmem ?
					  sim_ivshmem_pollfds(srv->devs[i].ivshmem,
							      &pfd[nfd]) :
					  0;
			nfd += n_iv[i];
		}
		first_client = nfd;
		for (i = 0; i < SIM_SERVER_MAX_CLIENTS; i++) {
			if (srv->clients[i].fd < 0)
				continue;
			who[nfd - first_client] = &srv->clients[i];
			pfd[nfd++] = (struct pollfd){ .fd = srv->clients[i].fd,
						      .events = POLLIN };
		}
		if (poll(pfd, nfd, -1) < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			snprintf(err, SIM_ERR_LEN, "poll: %s", strerror(e));
			return -e;
		}
		/* Clients before accepts: a slot freed here is not refilled
		 * until the next round, so who[] stays valid. */
		for (i = first_client; i < nfd; i++) {
			struct srv_client *c = who[i - first_client];

			if (pfd[i].revents & POLLIN)
				serve_client(srv, c);
			else if (pfd[i].revents)
				drop_client(srv, c);
		}
		if (pfd[0].revents)
			handle_signals(srv);
		for (i = 0; i < srv->ndev; i++)
			if (pfd[1 + i].revents)
				accept_clients(srv, &srv->devs[i]);
		for (i = 0; i < srv->ndev; i++)
			if (n_iv[i])
				sim_ivshmem_handle(srv->devs[i].ivshmem,
						   &pfd[first_iv[i]], n_iv[i]);
	}
	return 0;
}

/* --- set-up and tear-down --- */

static int check_specs(const struct sim_server_spec *spec, unsigned n,
		       char *err)
{
	if (!n || n > SIM_MAX_DEVICES) {
		snprintf(err, SIM_ERR_LEN, "%u devices: a daemon serves 1 to %d",
			 n, SIM_MAX_DEVICES);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		if (!sim_name_valid(spec[i].name)) {
			snprintf(err, SIM_ERR_LEN,
				 "invalid device name '%.64s': use letters, digits, '_' and '-', at most %d characters",
				 spec[i].name, SIM_NAME_MAX - 1);
			return -EINVAL;
		}
		for (unsigned j = 0; j < i; j++) {
			if (!strcmp(spec[i].name, spec[j].name)) {
				snprintf(err, SIM_ERR_LEN,
					 "device name %s is given twice",
					 spec[i].name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int init_dev(struct sim_server *srv, struct srv_dev *sd,
		    const struct sim_server_spec *s, char *err)
{
	char sock[sizeof(sd->addr.sun_path)], lock[PATH_LEN];

	snprintf(sd->name, sizeof(sd->name), "%s", s->name);
	sd->board = s->board;
	sd->chip = s->chip;
	sd->lock_fd = -1;
	sd->listen_fd = -1;
	sd->addr.sun_family = AF_UNIX;
	if ((size_t)snprintf(sock, sizeof(sock), "%s/%s.sock", srv->rundir,
			     s->name) >= sizeof(sock) ||
	    (size_t)snprintf(lock, sizeof(lock), "%s/%s.lock", srv->rundir,
			     s->name) >= sizeof(lock)) {
		snprintf(err, SIM_ERR_LEN,
			 "socket path for %s is too long; choose a shorter TTSIM_RUNTIME_DIR",
			 s->name);
		return -ENAMETOOLONG;
	}
	memcpy(sd->addr.sun_path, sock, sizeof(sock));
	memcpy(sd->lock_path, lock, sizeof(lock));
	return 0;
}

static int build_device(struct srv_dev *sd, const struct sim_server_spec *s,
			char *err)
{
	char why[SIM_ERR_LEN];
	int ret;

	ret = sim_device_create(s->soc, s->board, s->chip, 0, &sd->dev, why);
	if (ret)
		snprintf(err, SIM_ERR_LEN, "device %s: %.200s", sd->name, why);
	return ret;
}

/* The guest's RAM first: the device reaches it by the time QEMU can
 * connect. */
static int offer_to_vm(struct srv_dev *sd, const struct sim_server_spec *s,
		       char *err)
{
	char why[SIM_ERR_LEN];
	int ret;

	if (s->guest_ram) {
		ret = sim_guest_ram_attach(s->guest_ram, &sd->dev->hostmem, why);
		if (ret) {
			snprintf(err, SIM_ERR_LEN, "device %s: %.200s", sd->name,
				 why);
			return ret;
		}
	}
	if (!s->ivshmem)
		return 0;
	ret = sim_ivshmem_create(s->ivshmem, sd->name, sd->dev->img,
				 &sd->ivshmem, why);
	if (ret)
		snprintf(err, SIM_ERR_LEN, "device %s: %.200s", sd->name, why);
	return ret;
}

/* Every client and device holds descriptors (a device offered to a VM
 * four more: socket, guest, eventfds); make sure they fit. */
static void raise_fd_limit(unsigned ndev)
{
	rlim_t need = SIM_SERVER_MAX_CLIENTS + 8 * (rlim_t)ndev + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
	setrlimit(RLIMIT_NOFILE, &rl);
}

int sim_server_create(const struct sim_server_spec *spec, unsigned n,
		      struct sim_server **out, char *err)
{
	struct sim_server *srv;
	unsigned i;
	int ret;

	ret = check_specs(spec, n, err);
	if (ret)
		return ret;
	srv = calloc(1, sizeof(*srv));
	if (!srv) {
		snprintf(err, SIM_ERR_LEN, "out of memory");
		return -ENOMEM;
	}
	srv->sigfd = -1;
	srv->next_owner = 1;
	for (i = 0; i < SIM_SERVER_MAX_CLIENTS; i++)
		srv->clients[i].fd = -1;
	ret = sim_rundir(srv->rundir, sizeof(srv->rundir), 1, err);
	if (ret)
		goto err_destroy;
	for (; srv->ndev < n; srv->ndev++) {
		ret = init_dev(srv, &srv->devs[srv->ndev], &spec[srv->ndev], err);
		if (ret)
			goto err_destroy;
	}
	ret = block_signals(srv, err);
	if (ret)
		goto err_destroy;
	for (i = 0; i < n && !ret; i++)
		ret = claim_name(&srv->devs[i], err);
	for (i = 0; i < n && !ret; i++)
		ret = build_device(&srv->devs[i], &spec[i], err);
	for (i = 0; i < n && !ret; i++)
		ret = publish(&srv->devs[i], err);
	for (i = 0; i < n && !ret; i++)
		ret = offer_to_vm(&srv->devs[i], &spec[i], err);
	if (ret)
		goto err_destroy;
	raise_fd_limit(n);
	*out = srv;
	return 0;

err_destroy:
	sim_server_destroy(srv);
	return ret;
}

void sim_server_destroy(struct sim_server *srv)
{
	unsigned i;

	if (!srv)
		return;
	/* Mark the images before hanging up: a client learns that the
	 * daemon stopped (not crashed), and its waits wake up. */
	for (i = 0; i < srv->ndev; i++)
		if (srv->devs[i].dev)
			sim_embed_mark_stopped(srv->devs[i].dev->img);
	for (i = 0; i < SIM_SERVER_MAX_CLIENTS; i++)
		if (srv->clients[i].fd >= 0)
			drop_client(srv, &srv->clients[i]);
	for (i = 0; i < srv->ndev; i++)
		unpublish(&srv->devs[i]);
	/* Before the devices: the guest's server borrows the image. */
	for (i = 0; i < srv->ndev; i++)
		sim_ivshmem_destroy(srv->devs[i].ivshmem);
	for (i = 0; i < srv->ndev; i++)
		sim_device_destroy(srv->devs[i].dev);
	for (i = 0; i < srv->ndev; i++)
		release_name(&srv->devs[i]);
	restore_signals(srv);
	free(srv);
}
