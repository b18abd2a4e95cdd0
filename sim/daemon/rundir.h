/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where ttsim daemons publish their devices:
 *   $TTSIM_RUNTIME_DIR, else $XDG_RUNTIME_DIR/ttsim, else /tmp/ttsim-<uid>.
 * The directory is private to the user (mode 0700, owned by us); each
 * served device has <name>.sock and <name>.lock (held with flock by the
 * daemon, holding its pid).
 */
#ifndef TT_SIM_RUNDIR_H
#define TT_SIM_RUNDIR_H

#include <stddef.h>

#include "sim/embed.h" /* SIM_NAME_MAX, SIM_MAX_DEVICES */

/*
 * Path of the runtime directory in buf. With `create`, make it if missing.
 * Refuses a directory owned by someone else or writable by others.
 * Returns 0 or -errno with a message in err (SIM_ERR_LEN bytes).
 */
int sim_rundir(char *buf, size_t len, int create, char *err);

/* Is `name` a valid device name ([A-Za-z0-9_-], 1..SIM_NAME_MAX-1)? */
int sim_name_valid(const char *name);

/*
 * Names of the devices published in the runtime directory (sockets
 * present), sorted with numbers in natural order (tt2 < tt10). Returns the
 * count (at most max) or -errno. A missing directory means no devices.
 */
int sim_rundir_list(char names[][SIM_NAME_MAX], int max, char *err);

/*
 * Connect to device `name`; returns a socket or -errno with message. Its
 * sends and receives give up after timeout_ms (EAGAIN), and so does the
 * connect (-ETIMEDOUT); sim_rundir_connect waits SIM_TIMEOUT_MS_DEFAULT.
 */
int sim_rundir_connect_ms(const char *name, int timeout_ms, char *err);
int sim_rundir_connect(const char *name, char *err);

/*
 * Does a daemon hold name's lock? 1 if so, 0 if not or if there is no
 * lock file (a socket left there is stale: its daemon died), or -errno.
 */
int sim_rundir_held(const char *name, char *err);

#endif /* TT_SIM_RUNDIR_H */
