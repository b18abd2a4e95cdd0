/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Control protocol between the ttsim daemon and its clients (libtt, tools).
 *
 * One AF_UNIX SOCK_SEQPACKET socket per device, <rundir>/<name>.sock.
 * A client sends a struct sim_req and reads one struct sim_resp; a file
 * descriptor may ride along either way as SCM_RIGHTS. Memory is shared
 * through those descriptors only, so nothing outlives the processes that
 * hold it: no names in /dev/shm, nothing to leak.
 *
 *   HELLO      -> resp.val = {image size, daemon pid, board, chip index},
 *                 fd = the device image (map it with sim_image_attach)
 *   DMA_MAP    arg[0] = size, fd = memfd of the buffer, at least size
 *              bytes and sealed with F_SEAL_SHRINK
 *              -> val = {id, bus address, noc x, noc y, noc local address}
 *   DMA_UNMAP  arg[0] = id
 *   SHUTDOWN   stop the daemon (every device it serves)
 *   CLIENTS    arg[0] = index i
 *              -> val[0] = number of processes connected to this device
 *                 now, val[1 + k] = pid of process i + k for k below
 *                 SIM_CLIENTS_PER_REPLY (0 where i + k is out of range)
 *
 * CLIENTS lists each process once, however many connections it holds
 * (libtt opens one per device handle), in ascending pid order, the asking
 * process included. Pids are learnt at connect time (SO_PEERCRED) and are
 * those of the daemon's pid namespace, so a process the daemon cannot see
 * is not listed, nor is a connection that has hung up. Each reply is a
 * consistent snapshot; a walk over several replies is not, so a client
 * restarts it when val[0] changes.
 *
 * Everything a client holds is released when its connection closes, so a
 * crashed client leaves nothing behind in the daemon.
 */
#ifndef TT_SIM_PROTO_H
#define TT_SIM_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "sim/embed.h" /* enum sim_op, SIM_CLIENTS_PER_REPLY */
#include "sim/model/image.h"

#define SIM_PROTO_MAGIC 0x31505454u /* "TTP1" */

struct sim_req {
	uint32_t magic;
	uint32_t op; /* enum sim_op */
	uint64_t arg[3];
};

struct sim_resp {
	uint32_t magic;
	int32_t status; /* 0 or a negative errno */
	uint64_t val[SIM_REPLY_VALS];
	char msg[SIM_ERR_LEN]; /* NUL-terminated when status != 0 */
};

/* Pids in one CLIENTS reply: val[1] .. val[4]. */
_Static_assert(SIM_CLIENTS_PER_REPLY <
		       sizeof(((struct sim_resp *)0)->val) / sizeof(uint64_t),
	       "CLIENTS pids must fit in val[] after the count");

/* Send msg (len bytes) with an optional fd (-1: none). 0 or -errno. */
int sim_proto_send(int sock, const void *msg, size_t len, int fd);

/*
 * Receive exactly len bytes into msg and an optional fd into *fd (-1 when
 * none; fd may be NULL to refuse descriptors, which are then closed).
 * Returns 0, -ECONNRESET at end of stream, -EPROTO for a short or oversized
 * message, or -errno.
 */
int sim_proto_recv(int sock, void *msg, size_t len, int *fd);

#endif /* TT_SIM_PROTO_H */
