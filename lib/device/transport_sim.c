// SPDX-License-Identifier: Apache-2.0
/*
 * The chip-model transports. Both map the device image and emulate host
 * windows on it with the model's own checked accesses, so an access is
 * refused here exactly as the device would refuse it. They differ in who
 * hosts the chip:
 *
 *   embedded  this process (one model per board chip, shared by every open
 *             of it in the process)
 *   ttsim     a ttsim daemon, reached over its control socket
 *
 * A daemon can stop or die under an open handle. It marks the image
 * STOPPED when it stops; a thread per ttsim handle sleeps in poll() on
 * the control socket and, when the daemon hangs up (crash included),
 * points the handle's state at a STOPPED word of its own and wakes the
 * image's waiters. Every access checks that one word, and a handle whose
 * state is not READY answers -ENODEV from then on (docs/decisions.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/board.h"
#include "hw/noc.h"
#include "internal.h"
#include "sim/embed.h"

/* Host windows on the model: big enough that a whole L1 fits one. */
#define SIM_WINDOW_SIZE (16ull << 20)

struct simb {
	struct sim_image *img; /* the mapped image */
	/* Its tt_identity.state; &stopped once the daemon hung up on us.
	 * Not the image's own: the daemon may live and serve others. */
	const uint32_t *state;
	uint32_t stopped;
	struct sim_device *hosted; /* embedded: the chip we host */
	int sock; /* ttsim: control connection, else -1 */
	const struct board_info *board;
	/* ttsim: the daemon, and the thread that watches for its end */
	long daemon_pid;
	pthread_t watcher;
	bool watching;
	bool closing; /* we hang up ourselves: not the daemon's end */
	bool died; /* the daemon hung up without marking the image */
};

static struct simb *simb(struct tt_device *dev)
{
	return dev->priv;
}

/* The cheap check before each access: the handle's state word, the
 * image's own until the daemon hangs up on us. */
static bool model_stopped(const struct simb *s)
{
	const uint32_t *state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);

	return __atomic_load_n(state, __ATOMIC_ACQUIRE) != TT_DEV_STATE_READY;
}

/* The handle's model is gone for good: say so. */
static int model_gone(struct tt_device *dev)
{
	struct simb *s = simb(dev);

	if (s->sock < 0)
		return tt_error(-ENODEV, "%s: the embedded chip model has stopped",
				dev->name);
	return tt_error(-ENODEV,
			"%s: the ttsim daemon (pid %ld) serving the device %s; close the handle and open the device again once a daemon serves it",
			dev->name, s->daemon_pid,
			__atomic_load_n(&s->died, __ATOMIC_ACQUIRE) ?
				"exited or died, or dropped this connection" :
				"has stopped");
}

/* ---- embedded: chips hosted in this process, shared by every open ---- */

struct embedded_chip {
	const struct board_info *board;
	unsigned chip;
	struct sim_device *dev;
	unsigned refs;
};

/* Protects chips[]. */
static pthread_mutex_t chips_lock = PTHREAD_MUTEX_INITIALIZER;
static struct embedded_chip chips[8];

static int embedded_board(const struct board_info **out)
{
	const char *name = getenv("TT_SIM_BOARD");

	if (!name || !*name)
		name = BOARD_DEFAULT;
	*out = board_find(name);
	if (!*out)
		return tt_error(-EINVAL,
				"TT_SIM_BOARD='%s' is not a board the model knows (n150, n300, p150, e150)",
				name);
	return 0;
}

static int embedded_count(unsigned *count)
{
	const struct board_info *b;
	int ret = embedded_board(&b);

	if (ret)
		return ret;
	*count = b->chips;
	return 0;
}

static struct embedded_chip *find_chip_locked(const struct board_info *b,
					      unsigned chip)
{
	for (unsigned i = 0; i < sizeof(chips) / sizeof(chips[0]); i++)
		if (chips[i].dev && chips[i].board == b && chips[i].chip == chip)
			return &chips[i];
	return NULL;
}

static int get_chip(const struct board_info *b, unsigned chip,
		    struct sim_device **out)
{
	struct embedded_chip *c;
	char err[SIM_ERR_LEN];
	struct soc_desc *soc;
	int ret = 0;

	pthread_mutex_lock(&chips_lock);
	c = find_chip_locked(b, chip);
	if (c)
		goto found;
	for (c = chips; c < chips + 8 && c->dev; c++)
		;
	if (c == chips + 8) {
		ret = tt_error(-EMFILE, "too many embedded chips in this process");
		goto out;
	}
	soc = malloc(sizeof(*soc));
	ret = soc ? soc_desc_builtin(b->soc[chip], soc, err, sizeof(err)) :
		    -ENOMEM;
	if (!ret)
		ret = sim_embed_create(soc, b->id, chip, &c->dev, err);
	free(soc);
	if (ret) {
		tt_error(ret, "embedded %s chip %u: %s", b->name, chip, err);
		goto out;
	}
	c->board = b;
	c->chip = chip;
found:
	c->refs++;
	*out = c->dev;
out:
	pthread_mutex_unlock(&chips_lock);
	return ret;
}

static void put_chip(struct sim_device *dev)
{
	pthread_mutex_lock(&chips_lock);
	for (unsigned i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct embedded_chip *c = &chips[i];

		if (c->dev != dev || --c->refs)
			continue;
		sim_embed_destroy(c->dev);
		memset(c, 0, sizeof(*c));
	}
	pthread_mutex_unlock(&chips_lock);
}

static int load_soc(struct tt_device *dev, const char *name)
{
	char err[SOC_ERR_MAX];
	int ret = soc_desc_builtin(name, &dev->soc, err, sizeof(err));

	if (ret)
		return tt_error(ret, "%s: SoC descriptor: %s", dev->name, err);
	tt_device_info_from_soc(dev);
	return 0;
}

static int embedded_open(struct tt_device *dev, unsigned index)
{
	const struct board_info *b;
	struct simb *s;
	int ret;

	ret = embedded_board(&b);
	if (ret)
		return ret;
	if (index >= b->chips)
		return tt_error(-ENODEV,
				"embedded device %u does not exist (board %s has %u)",
				index, b->name, b->chips);
	s = calloc(1, sizeof(*s));
	if (!s)
		return tt_error(-ENOMEM, "out of memory");
	s->sock = -1;
	s->board = b;
	snprintf(dev->name, sizeof(dev->name), "embedded%u", index);
	ret = load_soc(dev, b->soc[index]);
	if (!ret)
		ret = get_chip(b, index, &s->hosted);
	if (ret) {
		free(s);
		return ret;
	}
	s->img = sim_embed_image(s->hosted);
	s->state = sim_embed_state(s->img);
	dev->priv = s;
	dev->info.board = b->name;
	dev->info.chip = index;
	return 0;
}

static void embedded_close(struct tt_device *dev)
{
	struct simb *s = simb(dev);

	sim_embed_release_owner(s->hosted, (uintptr_t)dev);
	put_chip(s->hosted);
	free(s);
}

/* The model lives in this process: nobody else can have it open. */
static int embedded_processes(struct tt_device *dev, int *pids, unsigned max)
{
	(void)dev;
	if (max)
		pids[0] = (int)getpid();
	return 1;
}

/* ---- ttsim: chips hosted by a daemon ---- */

static int ttsim_count(unsigned *count)
{
	char names[SIM_MAX_DEVICES][SIM_NAME_MAX];
	char err[SIM_ERR_LEN];
	int n = sim_embed_list(names, SIM_MAX_DEVICES, err);

	if (n < 0)
		return tt_error(n, "ttsim: %s", err);
	*count = (unsigned)n;
	return 0;
}

/*
 * The daemon hung up on handle s: fail every later access, and wake
 * whoever waits on the image (others' waits just look again).
 */
static void hung_up(struct simb *s)
{
	if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == &s->stopped)
		return;
	__atomic_store_n(&s->died, !model_stopped(s), __ATOMIC_RELEASE);
	__atomic_store_n(&s->state, &s->stopped, __ATOMIC_RELEASE);
	sim_embed_irq_wake(s->img);
}

/* One request/response exchange on the control socket. */
static int ttsim_call(struct tt_device *dev, enum sim_op op, uint64_t arg,
		      int fd_in, uint64_t val[SIM_REPLY_VALS], int *fd_out)
{
	struct simb *s = simb(dev);
	char err[SIM_ERR_LEN];
	int ret;

	if (s->img && model_stopped(s))
		return model_gone(dev);
	pthread_mutex_lock(&dev->lock);
	ret = sim_embed_call(s->sock, op, arg, fd_in, val, fd_out, err);
	pthread_mutex_unlock(&dev->lock);
	if (ret == -ENODEV && s->img) {
		hung_up(s); /* the watcher may not have run yet */
		return model_gone(dev);
	}
	if (ret)
		return tt_error(ret, "%s: %s", dev->name, err);
	return 0;
}

/*
 * Sleep until the daemon hangs up, then fail the handle. A daemon that
 * stops marks its image first; one that crashes cannot, and this is how
 * its clients learn.
 */
static void *watch_daemon(void *arg)
{
	struct simb *s = arg;
	struct pollfd p = { .fd = s->sock, .events = POLLRDHUP };

	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	if (!__atomic_load_n(&s->closing, __ATOMIC_ACQUIRE))
		hung_up(s);
	return NULL;
}

/* A small stack, and no signals: the program's handlers run elsewhere. */
static int start_watcher(struct tt_device *dev, struct simb *s)
{
	sigset_t all, old;
	pthread_attr_t attr;
	int ret;

	sigfillset(&all);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&s->watcher, &attr, watch_daemon, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (ret)
		return tt_error(-ret, "%s: cannot start the thread watching the ttsim daemon: %s",
				dev->name, strerror(ret));
	s->watching = true;
	return 0;
}

static void stop_watcher(struct simb *s)
{
	if (!s->watching)
		return;
	__atomic_store_n(&s->closing, true, __ATOMIC_RELEASE);
	shutdown(s->sock, SHUT_RDWR); /* its poll() returns */
	pthread_join(s->watcher, NULL);
	s->watching = false;
}

static int ttsim_attach(struct tt_device *dev, struct simb *s)
{
	uint64_t val[SIM_REPLY_VALS];
	char err[SIM_ERR_LEN];
	int fd = -1, ret;

	ret = ttsim_call(dev, SIM_OP_HELLO, 0, -1, val, &fd);
	if (ret)
		return ret;
	if (fd < 0)
		return tt_error(-EPROTO, "%s: ttsim sent no device image", dev->name);
	ret = sim_embed_attach(fd, &s->img, err);
	if (ret)
		return tt_error(ret, "%s: %s", dev->name, err);
	s->stopped = TT_DEV_STATE_STOPPED;
	s->state = sim_embed_state(s->img);
	s->daemon_pid = (long)val[1];
	/* From the daemon's reply, not the identity page any client may
	 * scribble on. */
	s->board = board_by_id((enum tt_hw_board)val[2]);
	dev->info.board = s->board ? s->board->name : "unknown";
	dev->info.chip = (unsigned)val[3];
	return 0;
}

/* A device whose daemon died is reported as such, with the cure. */
static int check_not_stale(const char *name)
{
	char err[SIM_ERR_LEN];
	int stale = sim_embed_stale(name, err);

	if (stale < 0)
		return tt_error(stale, "ttsim: %s", err);
	if (stale)
		return tt_error(-ENODEV,
				"ttsim device %s is a leftover of a ttsim daemon that is gone (nobody holds %s.lock); 'ttsim stop %s' cleans it up",
				name, name, name);
	return 0;
}

/* A daemon that refuses connections while it still holds its lock is
 * dying (its other threads let go of the lock after its socket): how
 * long to wait for the lock to go before calling it broken. */
#define DYING_WAIT_MS 1000

/* After a refused connection: the stale error once the daemon is gone,
 * 0 if it holds on to its lock. */
static int check_dying(const char *name)
{
	for (int waited = 0;; waited += 10) {
		int ret = check_not_stale(name);

		if (ret || waited >= DYING_WAIT_MS)
			return ret;
		poll(NULL, 0, 10);
	}
}

/* Published devices whose daemon lives (internal.h). */
int tt_ttsim_live_count(unsigned *count, char *stale, size_t len)
{
	char names[SIM_MAX_DEVICES][SIM_NAME_MAX];
	char err[SIM_ERR_LEN];
	int n = sim_embed_list(names, SIM_MAX_DEVICES, err);

	*count = 0;
	if (len)
		stale[0] = 0;
	if (n < 0)
		return tt_error(n, "ttsim: %s", err);
	for (int i = 0; i < n; i++) {
		/* One we cannot tell about is counted: its open says why. */
		if (sim_embed_stale(names[i], err) <= 0)
			(*count)++;
		else if (len && !stale[0])
			snprintf(stale, len, "%s", names[i]);
	}
	return 0;
}

static int ttsim_open(struct tt_device *dev, unsigned index)
{
	char names[SIM_MAX_DEVICES][SIM_NAME_MAX];
	char err[SIM_ERR_LEN], soc[sizeof(((struct tt_identity *)0)->soc_name)];
	struct simb *s;
	int n, ret;

	n = sim_embed_list(names, SIM_MAX_DEVICES, err);
	if (n < 0)
		return tt_error(n, "ttsim: %s", err);
	if (index >= (unsigned)n)
		return tt_error(-ENODEV,
				"ttsim device %u does not exist (%d published)",
				index, n);
	s = calloc(1, sizeof(*s));
	if (!s)
		return tt_error(-ENOMEM, "out of memory");
	snprintf(dev->name, sizeof(dev->name), "%s", names[index]);
	dev->priv = s;
	ret = check_not_stale(names[index]);
	if (ret)
		goto err_free;
	s->sock = sim_embed_connect(names[index], err);
	if (s->sock == -ECONNREFUSED)
		ret = check_dying(names[index]);
	if (s->sock < 0) {
		if (!ret)
			ret = tt_error(s->sock, "%s", err);
		goto err_free;
	}
	ret = ttsim_attach(dev, s);
	if (ret)
		goto err_close;
	/* The identity page is shared memory: a copy, NUL-terminated. */
	sim_embed_soc_name(s->img, soc, sizeof(soc));
	ret = load_soc(dev, soc);
	if (!ret)
		ret = start_watcher(dev, s);
	if (ret)
		goto err_image;
	return 0;

err_image:
	sim_embed_detach(s->img);
err_close:
	close(s->sock);
err_free:
	free(s);
	dev->priv = NULL;
	return ret;
}

static void ttsim_close(struct tt_device *dev)
{
	struct simb *s = simb(dev);

	stop_watcher(s);
	sim_embed_detach(s->img);
	close(s->sock); /* the daemon releases what we held */
	free(s);
}

/* Walks of the daemon's client list tried before giving up on a list
 * that keeps changing under us. */
#define CLIENTS_TRIES 4

/*
 * One walk over the daemon's list of processes (SIM_OP_CLIENTS, each
 * listed once by the daemon), up to max of them. Returns their number,
 * -EAGAIN if the list changed between two replies, or an error.
 */
static int clients_walk(struct tt_device *dev, int *pids, unsigned max)
{
	uint64_t count = 0;

	for (uint64_t i = 0;; i += SIM_CLIENTS_PER_REPLY) {
		uint64_t val[SIM_REPLY_VALS];
		int ret = ttsim_call(dev, SIM_OP_CLIENTS, i, -1, val, NULL);

		if (ret)
			return ret;
		if (i && val[0] != count)
			return -EAGAIN;
		count = val[0];
		if (count > SIM_SERVER_MAX_CLIENTS)
			return tt_error(-EPROTO,
					"%s: ttsim reports %llu processes (at most %d)",
					dev->name, (unsigned long long)count,
					SIM_SERVER_MAX_CLIENTS);
		for (unsigned k = 0; k < SIM_CLIENTS_PER_REPLY; k++) {
			uint64_t at = i + k, pid = val[1 + k];

			if (at >= count || at >= max)
				break;
			if (!pid || pid > INT_MAX)
				return tt_error(-EPROTO,
						"%s: ttsim reports pid %llu for process %llu",
						dev->name, (unsigned long long)pid,
						(unsigned long long)at);
			pids[at] = (int)pid;
		}
		if (i + SIM_CLIENTS_PER_REPLY >= count ||
		    i + SIM_CLIENTS_PER_REPLY >= max)
			return (int)count;
	}
}

static int ttsim_processes(struct tt_device *dev, int *pids, unsigned max)
{
	for (int tries = 0; tries < CLIENTS_TRIES; tries++) {
		int ret = clients_walk(dev, pids, max);

		if (ret != -EAGAIN)
			return ret;
	}
	return tt_error(-EAGAIN,
			"%s: the processes using the device kept changing while being listed; try again",
			dev->name);
}

/*
 * Device locks: fcntl record locks on the device's lock file in the
 * runtime directory, byte i for lock i (sim_embed_lock_file), so the
 * kernel releases them when the holder dies and F_GETLK names it. They
 * belong to the process, and closing any descriptor of the file drops
 * them all: so the process keeps one descriptor per file, open while it
 * holds any of its locks (lock.c asks for each at most once at a time).
 */
struct lock_file {
	char name[SIM_NAME_MAX];
	int fd;
	unsigned holds;
};

static pthread_mutex_t lock_files_mu = PTHREAD_MUTEX_INITIALIZER;
static struct lock_file lock_files[SIM_MAX_DEVICES];
static pid_t lock_files_pid; /* a forked child holds none of them */

/* The process's descriptor of dev's lock file (lock_files_mu held). */
static int lock_file_get(struct tt_device *dev, struct lock_file **out)
{
	struct lock_file *free_lf = NULL;
	char err[SIM_ERR_LEN];

	if (lock_files_pid != getpid()) {
		memset(lock_files, 0, sizeof(lock_files));
		lock_files_pid = getpid();
	}
	for (unsigned i = 0; i < SIM_MAX_DEVICES; i++) {
		struct lock_file *lf = &lock_files[i];

		if (lf->holds && !strcmp(lf->name, dev->name)) {
			*out = lf;
			return 0;
		}
		if (!lf->holds && !free_lf)
			free_lf = lf;
	}
	if (!free_lf)
		return tt_error(-EMFILE,
				"%s: locks held on too many ttsim devices",
				dev->name);
	free_lf->fd = sim_embed_lock_file(dev->name, err);
	if (free_lf->fd < 0)
		return tt_error(free_lf->fd, "%s: %s", dev->name, err);
	snprintf(free_lf->name, sizeof(free_lf->name), "%s", dev->name);
	*out = free_lf;
	return 0;
}

/*
 * Byte id of dev's lock file: taken (take) or tested. Taking: 0, or -EBUSY
 * with the holder's pid in *holder. Testing: 1 held by another process
 * (F_GETLK does not see this process's own locks), 0 free. The file's
 * descriptor is shared by all of this process's locks on it, since
 * closing any descriptor of the file drops every lock the process holds
 * on it.
 */
static int lock_byte(struct tt_device *dev, unsigned id, bool take,
		     int *holder)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			    .l_start = id, .l_len = 1 };
	struct lock_file *lf = NULL;
	int ret;

	*holder = 0;
	pthread_mutex_lock(&lock_files_mu);
	ret = lock_file_get(dev, &lf);
	if (ret) {
		pthread_mutex_unlock(&lock_files_mu);
		return ret;
	}
	if (take && fcntl(lf->fd, F_SETLK, &fl) == 0) {
		lf->holds++;
	} else if (!take || errno == EAGAIN || errno == EACCES) {
		bool known = fcntl(lf->fd, F_GETLK, &fl) == 0;

		if (known && fl.l_type != F_UNLCK)
			*holder = fl.l_pid;
		if (take)
			ret = -EBUSY;
		else if (known)
			ret = fl.l_type != F_UNLCK;
		else
			ret = tt_error(-errno,
				       "%s: cannot test byte %u of its lock file: %s",
				       dev->name, id, strerror(errno));
	} else {
		ret = tt_error(-errno,
			       "%s: cannot lock byte %u of its lock file: %s",
			       dev->name, id, strerror(errno));
	}
	if (!lf->holds)
		close(lf->fd);
	pthread_mutex_unlock(&lock_files_mu);
	return ret;
}

static int ttsim_trylock(struct tt_device *dev, unsigned id, int *holder)
{
	return lock_byte(dev, id, true, holder);
}

static int ttsim_lock_held(struct tt_device *dev, unsigned id, int *holder)
{
	return lock_byte(dev, id, false, holder);
}

static void ttsim_unlock(struct tt_device *dev, unsigned id)
{
	struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET,
			    .l_start = id, .l_len = 1 };

	pthread_mutex_lock(&lock_files_mu);
	for (unsigned i = 0; i < SIM_MAX_DEVICES; i++) {
		struct lock_file *lf = &lock_files[i];

		if (lock_files_pid != getpid() || !lf->holds ||
		    strcmp(lf->name, dev->name))
			continue;
		fcntl(lf->fd, F_SETLK, &fl);
		if (!--lf->holds)
			close(lf->fd);
		break;
	}
	pthread_mutex_unlock(&lock_files_mu);
}

/* ---- windows, shared ---- */

static uint64_t sim_window_size(struct tt_device *dev)
{
	(void)dev;
	return SIM_WINDOW_SIZE;
}

static int sim_window_configure(struct tt_device *dev, struct tt_window *w,
				const struct tt_window_config *cfg)
{
	(void)w;
	if (cfg->x > TT_NOC_MAX_COORD || cfg->y > TT_NOC_MAX_COORD ||
	    cfg->x_start > TT_NOC_MAX_COORD || cfg->y_start > TT_NOC_MAX_COORD)
		return tt_error(-EINVAL, "%s: NOC coordinates %u-%u out of range",
				dev->name, cfg->x, cfg->y);
	return 0;
}

static int window_access(struct tt_device *dev, struct tt_window *w,
			 uint64_t off, void *buf, size_t len, enum tt_dev_op op)
{
	const struct tt_window_config *c = &w->cfg;
	struct sim_host_access a = {
		.op = op, .noc = c->noc, .x = c->x, .y = c->y,
		.x_start = c->x_start, .y_start = c->y_start,
		.addr = c->base + off, .len = len,
	};
	enum tt_dev_err e;

	if (model_stopped(simb(dev)))
		return model_gone(dev);
	e = sim_embed_access(simb(dev)->img, &a, buf);
	if (e) {
		struct tt_dev_error rec = {
			.code = (uint8_t)e, .op = (uint8_t)op, .noc = (uint8_t)c->noc,
			.initiator_x = TT_DEV_INITIATOR_HOST,
			.initiator_y = TT_DEV_INITIATOR_HOST,
			.target_x = (uint8_t)c->x, .target_y = (uint8_t)c->y,
			.len = (uint32_t)len, .addr = a.addr,
		};

		return tt_error_device(&rec);
	}
	return 0;
}

static int sim_window_write(struct tt_device *dev, struct tt_window *w,
			    uint64_t off, const void *src, size_t len)
{
	return window_access(dev, w, off, (void *)src, len,
			     w->cfg.mcast ? TT_DEV_OP_MCAST : TT_DEV_OP_WRITE);
}

static int sim_window_read(struct tt_device *dev, struct tt_window *w,
			   uint64_t off, void *dst, size_t len)
{
	if (w->cfg.mcast)
		return tt_error(-EINVAL, "%s: cannot read through a multicast window",
				dev->name);
	return window_access(dev, w, off, dst, len, TT_DEV_OP_READ);
}

/* ---- DMA buffers: memfds the device's host maps ---- */

static int dma_backing(struct tt_device *dev, struct tt_dma_buf *buf)
{
	buf->fd = memfd_create("tt-dma", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (buf->fd < 0 || ftruncate(buf->fd, (off_t)buf->size) < 0 ||
	    fcntl(buf->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL) < 0)
		goto err;
	buf->data = mmap(NULL, buf->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 buf->fd, 0);
	if (buf->data != MAP_FAILED)
		return 0;
	buf->data = NULL;
err:
	if (buf->fd >= 0)
		close(buf->fd);
	buf->fd = -1;
	return tt_error(-errno, "%s: cannot allocate a %zu-byte DMA buffer: %s",
			dev->name, buf->size, strerror(errno));
}

static void dma_release_backing(struct tt_dma_buf *buf)
{
	munmap(buf->data, buf->size);
	close(buf->fd);
}

static int sim_dma_alloc(struct tt_device *dev, struct tt_dma_buf *buf)
{
	struct simb *s = simb(dev);
	struct sim_embed_dma map = {0};
	char err[SIM_ERR_LEN];
	int ret = dma_backing(dev, buf);

	if (ret)
		return ret;
	if (s->hosted) {
		ret = sim_embed_dma_map(s->hosted, buf->fd, buf->size,
					 (uintptr_t)dev, &map, err);
		if (ret)
			tt_error(ret, "%s: %s", dev->name, err);
	} else {
		uint64_t val[SIM_REPLY_VALS];

		ret = ttsim_call(dev, SIM_OP_DMA_MAP, buf->size, buf->fd, val,
				 NULL);
		map.id = (uint32_t)val[0];
		map.noc_x = (unsigned)val[2];
		map.noc_y = (unsigned)val[3];
		map.noc_local = val[4];
	}
	if (ret) {
		dma_release_backing(buf);
		return ret;
	}
	buf->handle = map.id;
	buf->noc_xy.x = map.noc_x;
	buf->noc_xy.y = map.noc_y;
	buf->noc_addr = map.noc_local;
	return 0;
}

static void sim_dma_free(struct tt_device *dev, struct tt_dma_buf *buf)
{
	struct simb *s = simb(dev);

	if (s->hosted) {
		sim_embed_dma_unmap(s->hosted, (uint32_t)buf->handle,
				     (uintptr_t)dev);
	} else {
		uint64_t val[SIM_REPLY_VALS];

		ttsim_call(dev, SIM_OP_DMA_UNMAP, buf->handle, -1, val, NULL);
	}
	dma_release_backing(buf);
}

/* ---- device error log, read from the image ---- */

static uint32_t sim_error_head(struct tt_device *dev)
{
	return sim_embed_error_head(simb(dev)->img);
}

static int sim_error_at(struct tt_device *dev, uint32_t seq,
			struct tt_dev_error *rec)
{
	return sim_embed_error_read(simb(dev)->img, seq, rec);
}

/* ---- interrupts and resets, through the image ---- */

static uint32_t sim_irq_seq_op(struct tt_device *dev)
{
	return sim_embed_irq_seq(simb(dev)->img);
}

static int sim_irq_wait_op(struct tt_device *dev, uint32_t seen,
			   int timeout_ms)
{
	struct simb *s = simb(dev);
	int ret;

	if (model_stopped(s))
		return model_gone(dev);
	if (s->hosted)
		return sim_embed_wait_irq(s->hosted, seen, timeout_ms);
	/* The watcher wakes us if the daemon goes meanwhile. */
	ret = sim_embed_irq_wait(s->img, seen, timeout_ms);
	return model_stopped(s) ? model_gone(dev) : ret;
}

static uint32_t sim_reset_gen(struct tt_device *dev)
{
	return sim_embed_reset_gen(simb(dev)->img);
}

const struct tt_transport_ops tt_transport_embedded = {
	.name = "embedded",
	.count = embedded_count,
	.open = embedded_open,
	.close = embedded_close,
	.window_size = sim_window_size,
	.window_configure = sim_window_configure,
	.window_write = sim_window_write,
	.window_read = sim_window_read,
	.dma_alloc = sim_dma_alloc,
	.dma_free = sim_dma_free,
	.error_at = sim_error_at,
	.error_head = sim_error_head,
	.irq_seq = sim_irq_seq_op,
	.irq_wait = sim_irq_wait_op,
	.reset_gen = sim_reset_gen,
	.processes = embedded_processes,
};

const struct tt_transport_ops tt_transport_ttsim = {
	.name = "ttsim",
	.count = ttsim_count,
	.open = ttsim_open,
	.close = ttsim_close,
	.window_size = sim_window_size,
	.window_configure = sim_window_configure,
	.window_write = sim_window_write,
	.window_read = sim_window_read,
	.dma_alloc = sim_dma_alloc,
	.dma_free = sim_dma_free,
	.error_at = sim_error_at,
	.error_head = sim_error_head,
	.irq_seq = sim_irq_seq_op,
	.irq_wait = sim_irq_wait_op,
	.reset_gen = sim_reset_gen,
	.processes = ttsim_processes,
	.trylock = ttsim_trylock,
	.unlock = ttsim_unlock,
	.lock_held = ttsim_lock_held,
};
