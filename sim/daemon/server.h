/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ttsim daemon's serving loop: a set of named devices, published in the
 * runtime directory (rundir.h) and served over the control protocol
 * (proto.h).
 *
 * For each device <name> the server holds
 *   <rundir>/<name>.lock  flock(LOCK_EX) for the server's lifetime; the file
 *                         holds the server's pid. Whoever holds the lock
 *                         owns the name, so a stale socket is removed only
 *                         by the next holder.
 *   <rundir>/<name>.sock  a listening SOCK_SEQPACKET socket, mode 0600.
 *
 * The loop is single-threaded: poll() over the listening sockets, the
 * client connections and a signalfd. Clients are untrusted: every request
 * is checked, sockets are non-blocking, and a client that breaks the
 * protocol or cannot take its reply is dropped. Whatever a client held
 * (DMA mappings) is released when its connection closes, however it ends.
 * Each connection's process is learnt when it connects (SO_PEERCRED), so
 * that CLIENTS can say which processes use a device.
 *
 * A device may also be offered to a QEMU guest as an ivshmem-doorbell
 * device (ivshmem.h): its socket is polled by the same loop. The guest's
 * RAM (guestram.h), if given, is mapped into the device's host memory
 * table for good: no client owns it.
 */
#ifndef TT_SIM_SERVER_H
#define TT_SIM_SERVER_H

#include "sim/embed.h" /* SIM_SERVER_MAX_CLIENTS: more are refused
			* with -EUSERS and a message */
#include "sim/model/device.h"

struct soc_desc;
struct sim_server;
struct sim_guest_ram;

/* One device to serve. */
struct sim_server_spec {
	const char *name; /* sim_name_valid(), unique within the server */
	const struct soc_desc *soc; /* read during sim_server_create only */
	enum tt_hw_board board;
	unsigned chip; /* position on the board */
	/* If not NULL: also serve the device to a QEMU guest on this unix
	 * socket path (ivshmem.h). */
	const char *ivshmem;
	/* If not NULL: that guest's RAM (guestram.h), which the device then
	 * reaches at its guest-physical addresses, before the guest can
	 * connect. Borrowed: it must outlive the server. Several devices may
	 * share one (one VM with all of them). */
	const struct sim_guest_ram *guest_ram;
};

/*
 * Claim the names, build the devices and publish them, in that order, so
 * that a name already taken fails before any device is built and no client
 * can connect to a half-built set. On return every device is READY and
 * connections queue until sim_server_run(); so do QEMU guests on the
 * ivshmem sockets, which listen by then.
 *
 * Blocks SIGTERM, SIGINT and SIGHUP in the calling thread (before any
 * engine thread starts, so every thread inherits the mask) and receives
 * them through a signalfd; sim_server_destroy() restores the mask. Call it
 * before creating other threads.
 *
 * Returns 0, -EBUSY when a name is served by another process (err names it
 * and that process's pid), or another negative errno with a message in err
 * (SIM_ERR_LEN bytes). On failure nothing is left behind.
 */
int sim_server_create(const struct sim_server_spec *spec, unsigned n,
		      struct sim_server **out, char *err);

/*
 * Serve until a client sends SHUTDOWN or SIGTERM, SIGINT or SIGHUP arrives.
 * Returns 0 on such a stop, or a negative errno with a message in err if
 * the loop itself fails.
 */
int sim_server_run(struct sim_server *srv, char *err);

/*
 * Close every connection, unpublish the sockets, destroy the devices and
 * release the names (lock files removed). Accepts NULL.
 */
void sim_server_destroy(struct sim_server *srv);

#endif /* TT_SIM_SERVER_H */
