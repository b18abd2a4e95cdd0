/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Embedding the chip model: what a program needs to host a chip in its own
 * process or to use one a ttsim daemon hosts, and to reach the chip's
 * device image (hw/host.h) as a host does. The types are opaque and the
 * calls few; everything else of sim/ (model/, daemon/) is the model's own
 * business and may change without its embedders noticing. The internal
 * headers include this one, so each constant here has one definition.
 *
 * Functions that can fail with a message write it to err, SIM_ERR_LEN
 * bytes, and return a negative errno.
 */
#ifndef TT_SIM_EMBED_H
#define TT_SIM_EMBED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hw/arch.h"
#include "hw/host.h"

#define SIM_ERR_LEN 256

struct soc_desc;
struct sim_device; /* a chip hosted by this process */
struct sim_image; /* a device image mapped by this process */

/* ---- hosting a chip in this process ---- */

/*
 * Build and power on a chip for a process that also uses it and waits
 * for it with sim_embed_wait_irq (sim_device_create with
 * SIM_DEVICE_HOST_WAITS; TT_SIM_THREADS and TT_SIM_INJECT apply).
 */
int sim_embed_create(const struct soc_desc *d, enum tt_hw_board board,
		     unsigned chip, struct sim_device **out, char *err);

/* Stop and free the chip. NULL ok. */
void sim_embed_destroy(struct sim_device *dev);

/* The chip's image, valid until sim_embed_destroy. */
struct sim_image *sim_embed_image(struct sim_device *dev);

/* Where a DMA mapping is seen from the device. */
struct sim_embed_dma {
	uint32_t id;
	unsigned noc_x, noc_y; /* PCIe node, NOC 0 coordinates */
	uint64_t noc_local; /* local address in the host window */
};

/*
 * Make `size` bytes of the shared-memory object fd (not consumed)
 * reachable from the device, on behalf of `owner` (any nonzero tag).
 */
int sim_embed_dma_map(struct sim_device *dev, int fd, uint64_t size,
		      uint64_t owner, struct sim_embed_dma *out, char *err);
int sim_embed_dma_unmap(struct sim_device *dev, uint32_t id, uint64_t owner);

/* Drop everything `owner` holds. */
void sim_embed_release_owner(struct sim_device *dev, uint64_t owner);

/* Wait until the interrupt sequence differs from seen, running harts
 * meanwhile; 0 or -ETIMEDOUT (timeout_ms < 0: no limit). */
int sim_embed_wait_irq(struct sim_device *dev, uint32_t seen, int timeout_ms);

/* ---- a chip hosted by a ttsim daemon ---- */

#define SIM_NAME_MAX 32 /* a published device name, with its NUL */
#define SIM_MAX_DEVICES 64 /* devices one runtime directory lists */
/* Connections a daemon serves at once, over all its devices. */
#define SIM_SERVER_MAX_CLIENTS 256

/*
 * The published devices' names, sorted naturally (tt2 < tt10): their
 * count (at most max), or -errno. No runtime directory means none.
 */
int sim_embed_list(char names[][SIM_NAME_MAX], int max, char *err);

/*
 * How long an exchange with a daemon may take: TT_SIM_TIMEOUT_MS, 1 to
 * SIM_TIMEOUT_MS_MAX, else SIM_TIMEOUT_MS_DEFAULT (as `ttsim list` waits).
 */
#define SIM_TIMEOUT_MS_DEFAULT 5000
#define SIM_TIMEOUT_MS_MAX 3600000

/*
 * Connect to device `name`: a control socket, or -errno. Connecting, and
 * every later sim_embed_call on the socket, gives up after the timeout
 * (-ETIMEDOUT); a bad TT_SIM_TIMEOUT_MS is -EINVAL.
 */
int sim_embed_connect(const char *name, char *err);

/*
 * Is `name` left behind by a daemon that died (its socket published, its
 * lock not held)? 1 if so, 0 if a daemon holds it, or -errno.
 */
int sim_embed_stale(const char *name, char *err);

/*
 * Open (creating it, mode 0600) <rundir>/<name>.locks, the file whose
 * bytes clients of device `name` lock with fcntl record locks (byte i is
 * device lock i; docs/ttsim.md). Returns an O_CLOEXEC descriptor, or
 * -errno with a message in err.
 */
int sim_embed_lock_file(const char *name, char *err);

/* Requests of the control protocol (what each carries: sim/daemon/proto.h). */
enum sim_op {
	SIM_OP_HELLO = 1, /* val = {image size, pid, board, chip}, fd = image */
	SIM_OP_DMA_MAP = 2, /* arg = size, fd = memfd; val = {id, bus, x, y,
			     * local} */
	SIM_OP_DMA_UNMAP = 3, /* arg = id */
	SIM_OP_SHUTDOWN = 4,
	SIM_OP_CLIENTS = 5, /* arg = i; val = {count, pids from i} */
};

/* Values in a reply; pids in one CLIENTS reply (val[1] ..). */
#define SIM_REPLY_VALS 5
#define SIM_CLIENTS_PER_REPLY 4

/*
 * One request on control socket sock and its reply: op with argument arg
 * and fd_in (-1: none); the reply's values in val and its descriptor in
 * *fd_out (-1 when none; fd_out NULL refuses one). Returns 0, or -errno
 * with the reason in err: no answer in time (-ETIMEDOUT), the daemon hung
 * up (-ENODEV: it stopped or died), the connection failed, the reply is
 * malformed (-EPROTO), or the daemon refused (its message; a refusal
 * queued before the daemon hung up is read even when the send failed).
 * Not thread-safe on one socket.
 */
int sim_embed_call(int sock, enum sim_op op, uint64_t arg, int fd_in,
		   uint64_t val[SIM_REPLY_VALS], int *fd_out, char *err);

/* ---- a device image ---- */

/* Attach to the image behind fd (taken over: closed by sim_embed_detach
 * or on failure), checking it; _at: `size` bytes at offset off of fd. */
int sim_embed_attach(int fd, struct sim_image **out, char *err);
int sim_embed_attach_at(int fd, off_t off, uint64_t size,
			struct sim_image **out, char *err);
void sim_embed_detach(struct sim_image *img); /* NULL ok */

/* A host's access through a window. */
struct sim_host_access {
	enum tt_dev_op op; /* READ, WRITE or MCAST */
	unsigned noc;
	unsigned x, y; /* the target on noc; MCAST: one corner */
	unsigned x_start, y_start; /* MCAST: the other corner */
	uint64_t addr; /* local address */
	uint64_t len;
};

/*
 * Copy between buf and the chip as the device would (READ: chip -> buf),
 * with the model's side effects; a multicast writes every enabled Tensix
 * node of the rectangle. A refused access is recorded in the device error
 * log and its TT_DEV_ERR_* returned.
 */
enum tt_dev_err sim_embed_access(struct sim_image *img,
				 const struct sim_host_access *a, void *buf);

/*
 * Test hook of TT_SIM_INJECT=noc-fail (docs/ttsim.md): arm the fault for
 * this process. The host access (a sim_embed_access call) `after` accesses
 * from now (0: the next) to a chip this process built with the fault is
 * refused with TT_DEV_ERR_NOC, nothing moved, and recorded in the device
 * error log; the accesses before and after it are served. Each arming
 * fires once; negative disarms. Chips without the fault never fail, and
 * do not count. Returns the accesses the previous arming still had to go
 * (-1: it fired, or none was armed), so a test can count the accesses an
 * operation makes.
 */
long sim_embed_noc_fail_arm(long after);

/*
 * After a write into node memory that did not go through
 * sim_embed_access (NOC 0 node x, y): tell the model if a hart of the
 * node waits there. True if the model must be woken from outside (its
 * doorbell sequence moved).
 */
bool sim_embed_node_written(struct sim_image *img, unsigned x, unsigned y);

/* The device error log: records ever written, and record seq (0, or
 * -ESTALE if its slot holds another one). */
uint32_t sim_embed_error_head(struct sim_image *img);
int sim_embed_error_read(struct sim_image *img, uint32_t seq,
			 struct tt_dev_error *rec);

/* The interrupt sequence, and a wait for it to differ from seen. */
uint32_t sim_embed_irq_seq(struct sim_image *img);
int sim_embed_irq_wait(struct sim_image *img, uint32_t seen, int timeout_ms);

/*
 * The image's state word (tt_identity.state, enum tt_dev_state), for a
 * cheap check before each access: it leaves TT_DEV_STATE_READY when the
 * model stops (its daemon marks it on the way out).
 */
const uint32_t *sim_embed_state(struct sim_image *img);

/* Mark a ready image STOPPED (its host stops) and wake its waiters. */
void sim_embed_mark_stopped(struct sim_image *img);

/* Wake whoever waits on the interrupt sequence (a spurious interrupt:
 * waiters look at the device again). */
void sim_embed_irq_wake(struct sim_image *img);

/* Chip resets so far (tt_identity.reset_gen). */
uint32_t sim_embed_reset_gen(struct sim_image *img);

/* The SoC descriptor name of the identity page, NUL-terminated in buf. */
void sim_embed_soc_name(struct sim_image *img, char *buf, size_t len);

#endif /* TT_SIM_EMBED_H */
