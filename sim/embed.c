// SPDX-License-Identifier: Apache-2.0
/*
 * The embedding interface (embed.h) over the model's internals: thin
 * wrappers, so that an embedder never sees struct sim_image, struct
 * sim_ctx or the protocol's wire format.
 */
#include "embed.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "common/env.h"
#include "sim/daemon/proto.h"
#include "sim/daemon/rundir.h"
#include "sim/model/access.h"
#include "sim/model/device.h"
#include "sim/model/doorbell.h"
#include "sim/model/errlog.h"
#include "sim/model/event.h"
#include "sim/model/inject.h"

/* ---- hosting ---- */

int sim_embed_create(const struct soc_desc *d, enum tt_hw_board board,
		     unsigned chip, struct sim_device **out, char *err)
{
	return sim_device_create(d, board, chip, SIM_DEVICE_HOST_WAITS, out,
				 err);
}

void sim_embed_destroy(struct sim_device *dev)
{
	sim_device_destroy(dev);
}

struct sim_image *sim_embed_image(struct sim_device *dev)
{
	return dev->img;
}

int sim_embed_dma_map(struct sim_device *dev, int fd, uint64_t size,
		      uint64_t owner, struct sim_embed_dma *out, char *err)
{
	struct sim_dma_map map;
	int ret = sim_device_dma_map(dev, fd, size, owner, &map, err);

	if (ret)
		return ret;
	*out = (struct sim_embed_dma){
		.id = map.id,
		.noc_x = map.noc_x,
		.noc_y = map.noc_y,
		.noc_local = map.noc_local,
	};
	return 0;
}

int sim_embed_dma_unmap(struct sim_device *dev, uint32_t id, uint64_t owner)
{
	return sim_device_dma_unmap(dev, id, owner);
}

void sim_embed_release_owner(struct sim_device *dev, uint64_t owner)
{
	sim_device_release_owner(dev, owner);
}

int sim_embed_wait_irq(struct sim_device *dev, uint32_t seen, int timeout_ms)
{
	return sim_device_wait_irq(dev, seen, timeout_ms);
}

/* ---- a ttsim daemon ---- */

int sim_embed_list(char names[][SIM_NAME_MAX], int max, char *err)
{
	return sim_rundir_list(names, max, err);
}

/* TT_SIM_TIMEOUT_MS, checked as every setting is (common/env.h). */
static int timeout_ms(int *ms, char *err)
{
	unsigned long v;
	int ret = env_uint("TT_SIM_TIMEOUT_MS", 1, SIM_TIMEOUT_MS_MAX,
			   SIM_TIMEOUT_MS_DEFAULT, &v, err, SIM_ERR_LEN);

	*ms = (int)v;
	return ret;
}

int sim_embed_connect(const char *name, char *err)
{
	int ms, ret = timeout_ms(&ms, err);

	return ret ? ret : sim_rundir_connect_ms(name, ms, err);
}

int sim_embed_stale(const char *name, char *err)
{
	int held = sim_rundir_held(name, err);

	return held < 0 ? held : !held;
}

/* The receive timeout sim_embed_connect set on sock, for messages. */
static long sock_timeout_ms(int sock)
{
	struct timeval tv = {0};
	socklen_t len = sizeof(tv);

	getsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, &len);
	return (long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* Why an exchange failed, in err; the errno to return. */
static int lost(int sock, int ret, char *err)
{
	switch (ret) {
	case -EAGAIN:
		snprintf(err, SIM_ERR_LEN,
			 "the ttsim daemon did not answer within %ld ms (is it stopped or hung? TT_SIM_TIMEOUT_MS sets the limit)",
			 sock_timeout_ms(sock));
		return -ETIMEDOUT;
	case -ECONNRESET:
	case -EPIPE:
	case -ENOTCONN:
		snprintf(err, SIM_ERR_LEN,
			 "the ttsim daemon hung up: it stopped or died");
		return -ENODEV;
	default:
		snprintf(err, SIM_ERR_LEN,
			 "lost contact with the ttsim daemon: %s",
			 strerror(-ret));
		return ret;
	}
}

int sim_embed_lock_file(const char *name, char *err)
{
	char path[PATH_MAX];
	int fd, ret = sim_rundir(path, sizeof(path), 0, err);

	if (ret)
		return ret;
	if (!sim_name_valid(name)) {
		snprintf(err, SIM_ERR_LEN, "'%s' is not a device name", name);
		return -EINVAL;
	}
	/* sim_rundir() left room for a name and a suffix. */
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s.locks",
		 name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot open %s: %s", path,
			 strerror(-ret));
	}
	return fd < 0 ? ret : fd;
}

int sim_embed_call(int sock, enum sim_op op, uint64_t arg, int fd_in,
		   uint64_t val[SIM_REPLY_VALS], int *fd_out, char *err)
{
	struct sim_req req = {
		.magic = SIM_PROTO_MAGIC,
		.op = op,
		.arg = {arg},
	};
	struct sim_resp resp;
	int sent, ret;

	/* A daemon that refuses us (too many clients) queues its reason
	 * and hangs up, maybe before our request goes out: read it even
	 * when the send fails. */
	sent = sim_proto_send(sock, &req, sizeof(req), fd_in);
	if (sent == -EAGAIN) /* not even taking requests: no reply to wait for */
		return lost(sock, sent, err);
	ret = sim_proto_recv(sock, &resp, sizeof(resp), fd_out);
	if (ret)
		return lost(sock, sent && ret != -EAGAIN ? sent : ret, err);
	if (resp.magic != SIM_PROTO_MAGIC || resp.status > 0) {
		snprintf(err, SIM_ERR_LEN, "malformed reply from ttsim");
		return -EPROTO;
	}
	memcpy(val, resp.val, sizeof(resp.val));
	resp.msg[sizeof(resp.msg) - 1] = 0;
	if (resp.status) {
		snprintf(err, SIM_ERR_LEN, "%s", resp.msg);
		return resp.status;
	}
	if (sent)
		return lost(sock, sent, err);
	return 0;
}

/* ---- the image ---- */

int sim_embed_attach(int fd, struct sim_image **out, char *err)
{
	return sim_image_attach(fd, out, err);
}

int sim_embed_attach_at(int fd, off_t off, uint64_t size,
			struct sim_image **out, char *err)
{
	return sim_image_attach_at(fd, off, size, out, err);
}

void sim_embed_detach(struct sim_image *img)
{
	sim_image_destroy(img);
}

/* A host's window reaches the image only: the host memory behind the
 * PCIe node belongs to whoever runs the chip. */
enum tt_dev_err sim_embed_access(struct sim_image *img,
				 const struct sim_host_access *a, void *buf)
{
	struct sim_ctx ctx = {.img = img};
	struct sim_access sa = {
		.op = a->op,
		.noc = a->noc,
		.x = a->x,
		.y = a->y,
		.init_x = TT_DEV_INITIATOR_HOST,
		.init_y = TT_DEV_INITIATOR_HOST,
		.addr = a->addr,
		.len = a->len,
	};

	enum tt_dev_err e;

	/* TT_SIM_INJECT=noc-fail: the armed access fails on the NOC, with
	 * nothing moved, as a real failing transaction is reported. */
	if (img->inject && sim_inject_noc_fires(img))
		return sim_errlog_record(img, TT_DEV_ERR_NOC, &sa);
	if (a->op == TT_DEV_OP_MCAST)
		return sim_multicast(&ctx, &sa, a->x_start, a->y_start, a->x,
				     a->y, buf);
	e = sim_access(&ctx, &sa, buf);
	if (!e && img->inject)
		sim_inject_host_read(img, &sa, buf);
	return e;
}

long sim_embed_noc_fail_arm(long after)
{
	return sim_inject_noc_arm(after);
}

bool sim_embed_node_written(struct sim_image *img, unsigned x, unsigned y)
{
	const struct tt_node_desc *n = sim_image_node(img, x, y);
	uint32_t seq;

	if (!n)
		return false;
	seq = sim_doorbell_seq(img->regs);
	sim_event_after_write(img, n, false);
	return sim_doorbell_seq(img->regs) != seq;
}

uint32_t sim_embed_error_head(struct sim_image *img)
{
	return sim_errlog_head(img->regs);
}

int sim_embed_error_read(struct sim_image *img, uint32_t seq,
			 struct tt_dev_error *rec)
{
	return sim_errlog_read(img->regs, seq, rec);
}

uint32_t sim_embed_irq_seq(struct sim_image *img)
{
	return sim_irq_seq(img->regs);
}

int sim_embed_irq_wait(struct sim_image *img, uint32_t seen, int timeout_ms)
{
	return sim_irq_wait(img->regs, seen, timeout_ms);
}

const uint32_t *sim_embed_state(struct sim_image *img)
{
	return &img->id->state;
}

void sim_embed_mark_stopped(struct sim_image *img)
{
	uint32_t ready = TT_DEV_STATE_READY;

	__atomic_compare_exchange_n(&img->id->state, &ready,
				    TT_DEV_STATE_STOPPED, false,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	sim_irq_raise(img->regs, 0);
}

void sim_embed_irq_wake(struct sim_image *img)
{
	sim_irq_raise(img->regs, 0);
}

uint32_t sim_embed_reset_gen(struct sim_image *img)
{
	return __atomic_load_n(&img->id->reset_gen, __ATOMIC_ACQUIRE);
}

/* The identity page is shared memory: copy before trusting it. */
void sim_embed_soc_name(struct sim_image *img, char *buf, size_t len)
{
	size_t n = sizeof(img->id->soc_name);

	if (!len)
		return;
	if (n > len)
		n = len;
	memcpy(buf, img->id->soc_name, n);
	buf[n - 1] = 0;
}
