/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ttsim as the server of QEMU's ivshmem-doorbell device: one device image
 * offered to one guest at a time (QEMU's docs/specs/ivshmem-spec.rst for
 * QEMU's side).
 *
 * QEMU connects to a unix stream socket and only ever reads. On connect
 * the server sends 8-byte little-endian integers, each with its own
 * sendmsg() and at most one descriptor:
 *
 *   0                     protocol version, no descriptor
 *   G                     the guest's peer id (SIM_IVSHMEM_GUEST_ID)
 *   -1   + image memfd    BAR2 (the image size is a power of two)
 *   H    + eventfd        SIM_IVSHMEM_DOORBELLS times: the device peer
 *                         (SIM_IVSHMEM_DEVICE_ID), as an existing peer
 *   G    + eventfd        SIM_IVSHMEM_VECTORS times: the guest's MSI-X
 *                         vectors
 *
 * Guest -> device: the guest writes (H << 16) | k to BAR0 offset 12 and
 * QEMU signals doorbell eventfd k; the server then kicks the model's
 * doorbell (sim_doorbell_kick), so the engine looks at doorbell_pending
 * and event_pending in the image as for any other host.
 *
 * Device -> guest: every interrupt the model raises (irq_seq moving,
 * whatever TT_IRQ_* causes) is written to vector 0's eventfd, which QEMU
 * turns into MSI-X vector 0. Interrupts coalesce, as on the other hosts:
 * the guest reads irq_status in BAR2 to learn why.
 *
 * One vector and one doorbell mirror the model: it has one interrupt line
 * (irq_seq, causes in irq_status) and one doorbell (doorbell_seq, blocks
 * in doorbell_pending). QEMU must be started with vectors=1 (its default)
 * or more.
 *
 * Only one guest at a time: a second connection is closed at once (and
 * logged). When the guest goes away (EOF, or it writes anything: QEMU
 * never does) its eventfds are closed and another guest may connect.
 */
#ifndef TT_SIM_IVSHMEM_H
#define TT_SIM_IVSHMEM_H

#include <poll.h>

#include "sim/model/image.h"

#define SIM_IVSHMEM_VERSION 0
#define SIM_IVSHMEM_GUEST_ID 0 /* what the guest reads in IVPosition */
#define SIM_IVSHMEM_DEVICE_ID 1 /* the peer the guest rings */
#define SIM_IVSHMEM_VECTORS 1 /* vector 0: the model's host interrupt */
#define SIM_IVSHMEM_DOORBELLS 1 /* doorbell 0: "look at the image" */

/* Descriptors sim_ivshmem_pollfds() may fill: the listening socket, the
 * guest's connection and its doorbells. */
#define SIM_IVSHMEM_POLLFDS (2 + SIM_IVSHMEM_DOORBELLS)

struct sim_ivshmem;

/*
 * Listen on the unix socket `path` (mode 0600) for a guest of image `img`
 * (borrowed: it must outlive the server). `name` (the device's) prefixes
 * log lines on standard error. A socket file left at `path` by a dead
 * server is replaced; a live one (-EADDRINUSE) or any other file
 * (-EEXIST) is left alone. Starts the thread that forwards interrupts.
 * Returns 0 or a negative errno with a message in err (SIM_ERR_LEN).
 */
int sim_ivshmem_create(const char *path, const char *name,
		       struct sim_image *img, struct sim_ivshmem **out,
		       char *err);

/* The descriptors to poll for POLLIN now, into pfd (at least
 * SIM_IVSHMEM_POLLFDS entries); returns how many. */
unsigned sim_ivshmem_pollfds(const struct sim_ivshmem *iv,
			     struct pollfd *pfd);

/* Act on the result of polling what sim_ivshmem_pollfds() gave: n
 * entries. Never fails: a misbehaving guest is dropped. */
void sim_ivshmem_handle(struct sim_ivshmem *iv, const struct pollfd *pfd,
			unsigned n);

/*
 * Drop the guest, stop the forwarding thread and remove the socket file.
 * Call before the image goes away. Accepts NULL. Stopping the thread
 * raises an interrupt with no cause (irq_seq moves, irq_status does not),
 * so other waiters on the image merely look again.
 */
void sim_ivshmem_destroy(struct sim_ivshmem *iv);

#endif /* TT_SIM_IVSHMEM_H */
