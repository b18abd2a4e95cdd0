/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libtt internals: the device object and the transport interface.
 *
 * A transport gives libtt a device's description and host windows: a window
 * is a fixed-size aperture onto a node's local address space (a TLB window
 * on a card), configured to a target and a base address that is a multiple
 * of its size. All NOC traffic from the host goes through windows, so the
 * same NOC code serves every transport.
 */
#ifndef TT_LIB_INTERNAL_H
#define TT_LIB_INTERNAL_H

#include <errno.h>
#include <pthread.h>

#include "hw/host.h"
#include "common/soc_desc.h"
#include "tt/device.h"
#include "tt/dma.h"
#include "tt/noc.h"

#define TT_HIDDEN __attribute__((visibility("hidden")))

struct tt_window_config {
	unsigned noc;
	unsigned x, y; /* target, or the rectangle's end corner */
	unsigned x_start, y_start; /* multicast only */
	bool mcast;
	uint64_t base; /* local address of the window's first byte */
};

struct tt_window {
	uint64_t size; /* bytes; a power of two */
	struct tt_window_config cfg;
	bool configured;
	void *priv; /* transport's */
};

struct tt_transport_ops {
	const char *name;
	/* Devices this transport offers. */
	int (*count)(unsigned *count);
	/* Fill dev->info (except index/transport), dev->soc and dev->priv. */
	int (*open)(struct tt_device *dev, unsigned index);
	void (*close)(struct tt_device *dev);
	/* Window size of this device. */
	uint64_t (*window_size)(struct tt_device *dev);
	int (*window_configure)(struct tt_device *dev, struct tt_window *w,
				const struct tt_window_config *cfg);
	/* [off, off + len) lies inside the window. */
	int (*window_write)(struct tt_device *dev, struct tt_window *w,
			    uint64_t off, const void *src, size_t len);
	int (*window_read)(struct tt_device *dev, struct tt_window *w,
			   uint64_t off, void *dst, size_t len);
	int (*dma_alloc)(struct tt_device *dev, struct tt_dma_buf *buf);
	void (*dma_free)(struct tt_device *dev, struct tt_dma_buf *buf);
	/* Copy the device error record at log position seq (0-based) into
	 * *rec; -ENOENT if not recorded yet, -ESTALE if overwritten. */
	int (*error_at)(struct tt_device *dev, uint32_t seq,
			struct tt_dev_error *rec);
	/* Number of device errors ever recorded. */
	uint32_t (*error_head)(struct tt_device *dev);
	/* Device interrupts (hw/host.h): the sequence word, and a sleep until
	 * it differs from `seen` (0, or -ETIMEDOUT after timeout_ms; < 0
	 * waits forever). Interrupt causes are sticky bits in irq_status. */
	uint32_t (*irq_seq)(struct tt_device *dev);
	int (*irq_wait)(struct tt_device *dev, uint32_t seen, int timeout_ms);
	/* Chip resets so far (identity page reset_gen). */
	uint32_t (*reset_gen)(struct tt_device *dev);
	/* Processes that have the device open, each once: up to max pids
	 * stored, the full count returned (tt_device_processes()). */
	int (*processes)(struct tt_device *dev, int *pids, unsigned max);
	/* Device lock `id` (< TT_LOCK_COUNT) for this handle, shared with
	 * other processes; lock.c asks for each id at most once at a time
	 * per process and does the waiting. Without waiting: 0, or -EBUSY
	 * with the holder's pid in *holder (0 if unknown). Released by unlock,
	 * at close and when the process dies. NULL for a chip private to the
	 * process. */
	int (*trylock)(struct tt_device *dev, unsigned id, int *holder);
	void (*unlock)(struct tt_device *dev, unsigned id);
	/* Whether another process holds lock `id`, without taking it: 1
	 * (its pid in *holder, 0 if unknown), 0, or a negative errno. NULL
	 * with trylock. */
	int (*lock_held)(struct tt_device *dev, unsigned id, int *holder);
};

/* Close hooks a device can hold: one per layer above the device layer is
 * plenty. */
#define TT_DEVICE_MAX_CLOSE_HOOKS 8

struct tt_device {
	const struct tt_transport_ops *ops;
	void *priv; /* transport's */
	struct tt_device_info info;
	char name[64];
	struct soc_desc soc;
	/* Serialises use of the host window and of errors_seen. */
	pthread_mutex_t lock;
	struct tt_window win;
	uint32_t errors_seen;
	/* Live DMA buffers (guarded by lock), released at close. */
	struct tt_dma_buf *dma_bufs;
	/* Chip resets this handle has seen; another count means the chip was
	 * reset under it and everything it knew is stale. */
	uint32_t reset_gen;
	/* State the layers above keep per device, made on first use (NULL
	 * until then) and owned by them: memory/'s allocator, dispatch/'s
	 * runtime. The device layer never looks inside; the owners destroy
	 * them through their close hooks. */
	struct tt_allocator *allocator;
	struct tt_runtime *runtime;
	/* Guarded by lock; sorted by level, highest first. */
	struct tt_close_hook {
		int level;
		void (*fn)(struct tt_device *dev);
	} close_hooks[TT_DEVICE_MAX_CLOSE_HOOKS];
	unsigned close_hook_count;
	/* lock.c: the next handle of this process sharing ownership of the
	 * chip's runtime, and whether this one does. */
	struct tt_device *owner_next;
	bool owner;
	/* lock.c: this handle took TT_LOCK_RUNTIME itself rather than
	 * joining a handle of its process that held it: whatever runs on
	 * the chip was left by an earlier owner (dispatch recovers it). */
	bool owner_fresh;
};

struct tt_dma_buf {
	struct tt_device *dev; /* NULL once the device was closed */
	struct tt_dma_buf *next, **pprev; /* in dev->dma_bufs */
	void *data;
	size_t size;
	struct tt_xy noc_xy;
	uint64_t noc_addr;
	int fd; /* backing memfd, or -1 */
	uint64_t handle; /* transport's */
};

/* Transports. */
TT_HIDDEN extern const struct tt_transport_ops tt_transport_embedded;
TT_HIDDEN extern const struct tt_transport_ops tt_transport_ttsim;
/* The ttsim devices whose daemon lives in *count; the first one left
 * behind by a dead daemon, if any, in stale (else ""). 0 or -errno. */
TT_HIDDEN int tt_ttsim_live_count(unsigned *count, char *stale, size_t len);
#ifdef TT_HAVE_KMD
TT_HIDDEN extern const struct tt_transport_ops tt_transport_kmd;
#endif

/* Write all len bytes (retrying short writes and EINTR): 0 or -errno
 * (fileio.c). */
TT_HIDDEN int tt_write_all(int fd, const void *data, size_t len);

/*
 * Settings from the environment (env.c), all read the same way: unset or
 * empty means *out = def; anything else must be a decimal number in
 * [min, max] with nothing after it, or a word of `words` (NULL-ended; *out
 * is its index), or the call fails with -EINVAL and an error naming the
 * variable, its value and what it accepts. No value falls back silently.
 */
TT_HIDDEN int tt_env_uint(const char *name, unsigned long min,
			  unsigned long max, unsigned long def,
			  unsigned long *out);
TT_HIDDEN int tt_env_word(const char *name, const char *const *words,
			  unsigned def, unsigned *out);

/*
 * A variable with a synonym (TT-Metal's name of the same setting, such
 * as TT_METAL_KERNEL_PATH for TT_KERNEL_PATH): *value = the value of
 * whichever is set and not empty (NULL if neither), *which = its name.
 * Both set to different values is -EINVAL naming both: neither silently
 * wins.
 */
TT_HIDDEN int tt_env_synonym(const char *name, const char *synonym,
			     const char **value, const char **which);

/* Take buf off its device's list (dev->lock held); release every DMA
 * buffer of a closing device (dma.c). */
TT_HIDDEN void tt_dma_buf_unlink(struct tt_dma_buf *buf);
TT_HIDDEN void tt_dma_buf_detach_all(struct tt_device *dev);

/* Record a failure for tt_last_error(); returns code (negative errno). */
TT_HIDDEN int tt_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The NULL check of the error contract (tt/common.h), one line a site:
 * TT_CHECK_ARG(dev) in a function returning int; otherwise
 * "if (TT_ARG_NULL(buf)) return 0;" with the function's neutral value.
 * Both name the enclosing function (__func__), so a public function checks
 * its own arguments; a helper that serves several entry points passes the
 * caller's name to TT_ARG_NULL_IN. tt_arg_null records the message and
 * returns -EINVAL (error.c).
 */
TT_HIDDEN int tt_arg_null(const char *fn, const char *arg);
#define TT_ARG_NULL_IN(fn, arg) (!(arg) && tt_arg_null((fn), #arg))
#define TT_ARG_NULL(arg) TT_ARG_NULL_IN(__func__, arg)
/* A data pointer is required only when its length is not 0. */
#define TT_ARG_NULL_LEN(arg, len) ((len) && TT_ARG_NULL(arg))
#define TT_CHECK_ARG(arg)                                                     \
	do {                                                                  \
		if (TT_ARG_NULL(arg))                                         \
			return -EINVAL;                                       \
	} while (0)

/* The data-format converter's error code as words, for messages
 * (dataformat_api.c). */
TT_HIDDEN const char *tt_convert_why(int ret);

/* Describe a refused access as the device would log it; returns -EFAULT. */
TT_HIDDEN int tt_error_device(const struct tt_dev_error *rec);

/*
 * 0 if the chip has not been reset since this handle last synchronised,
 * else -ENODEV with a "device was reset" message. Every operation checks
 * after touching the device, so no stale data is ever returned.
 */
TT_HIDDEN int tt_device_check_live(struct tt_device *dev);

/*
 * Have fn(dev) run when dev is closed, before the transport lets go of the
 * device: how a layer above this one tears down the state it keeps per
 * device, so that the device layer calls nothing above it. Hooks of a
 * higher level run first (a layer may use the ones below it while it
 * closes); registering the same fn again does nothing. Returns 0, or
 * -ENOSPC when TT_DEVICE_MAX_CLOSE_HOOKS are taken (a libtt bug).
 */
TT_HIDDEN int tt_device_on_close(struct tt_device *dev, int level,
				 void (*fn)(struct tt_device *dev));

/*
 * Device locks (lock.c): advisory, one set per chip, shared by every
 * thread, handle and process using it, released when the holder closes or
 * dies. Numbers (docs/abi.md, for LOCK_CTL): 0..15 are the Ethernet cores'
 * by the driver's convention; libtt uses 16..19 and 24.
 */
#define TT_LOCK_COUNT 64
#define TT_LOCK_MSGQ(q) (16u + (q)) /* message queue q (< TT_MSGQ_COUNT) */
#define TT_LOCK_RUNTIME 24u /* the chip's runtime: memory and programs */

/*
 * Take lock `id` for dev, waiting at most timeout_ms (< 0: no limit).
 * Exclusive: another thread or handle of this process waits as another
 * process does. -EBUSY (timeout_ms 0) or -ETIMEDOUT names the device, the
 * lock and its holder's pid when known.
 */
TT_HIDDEN int tt_device_lock(struct tt_device *dev, unsigned id,
			     int timeout_ms);
TT_HIDDEN void tt_device_unlock(struct tt_device *dev, unsigned id);

/*
 * Make this process the owner of the chip's runtime (TT_LOCK_RUNTIME) for
 * dev, until dev closes: what every user of device memory or programs
 * calls first. Handles of one process share ownership. Does not wait
 * unless TT_OWNER_WAIT_MS says how long; -EBUSY names the owner's pid
 * and command line.
 */
TT_HIDDEN int tt_device_own(struct tt_device *dev);

/*
 * Whether some process owns the chip's runtime now (this one included):
 * 1 (*pid its pid, 0 if the transport does not say), 0, or a negative
 * errno. Takes nothing: monitors ask it.
 */
TT_HIDDEN int tt_device_runtime_owned(struct tt_device *dev, int *pid);

/* Fill the soc-derived parts of dev->info from dev->soc. */
TT_HIDDEN void tt_device_info_from_soc(struct tt_device *dev);

/* Restart the core firmware of one Tensix hart (hart.c): whatever it runs
 * stops, and it serves launches again from a clean mailbox. */
TT_HIDDEN int tt_hart_restart_firmware(struct tt_device *dev,
				       struct tt_xy core, unsigned hart);

#endif /* TT_LIB_INTERNAL_H */
