/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device image: all state of one chip in one shared-memory object
 * (layout in firmware/include/hw/host.h).
 *
 * The creator lays it out from a SoC descriptor; anyone holding the file
 * descriptor can attach. Attaching validates every offset in the identity
 * page and node table against the image size, because the image is shared
 * with other processes and must be treated as untrusted input.
 */
#ifndef TT_SIM_IMAGE_H
#define TT_SIM_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hw/tt_hw.h"
#include "sim/embed.h" /* SIM_ERR_LEN */

struct soc_desc;

struct sim_image {
	int fd; /* the shared-memory object (memfd) */
	uint8_t *base; /* its mapping */
	uint64_t size;
	struct tt_identity *id;
	struct tt_host_regs *regs;
	/* Private, validated copy of the node table (grid_x * grid_y entries):
	 * the shared one may be scribbled on by any client. */
	struct tt_node_desc *nodes;
	unsigned grid_x, grid_y;
	/* Set in the process that runs the chip (device.c): node events for
	 * Tensix nodes are delivered at once, in the writer's thread, not
	 * through the engine; `control` as sim_event_after_write's `always`
	 * (reset lines may have changed). NULL in a client's attachment. */
	void (*node_event)(void *arg, unsigned node_index, bool control);
	void *node_event_arg;
	/* Set in the process that runs the chip (device.c): the fault
	 * (enum sim_inject, inject.h) its host accesses meet. 0 (none) in a
	 * client's attachment. */
	unsigned inject;
};

/*
 * Create the image of one chip. `board` and `chip` are recorded in the
 * identity page. The image starts in state TT_DEV_STATE_INIT.
 * Returns 0 or a negative errno with a message in err (SIM_ERR_LEN bytes).
 */
int sim_image_create(const struct soc_desc *d, enum tt_hw_board board,
		     unsigned chip, struct sim_image **out, char *err);

/*
 * Attach to an existing image through its file descriptor (which the image
 * takes over: it is closed by sim_image_destroy or on failure).
 */
int sim_image_attach(int fd, struct sim_image **out, char *err);

/*
 * The same for an image that is `size` bytes at offset `off` of fd, such
 * as BAR2 of /dev/tenstorrent/N (the kmd transport on the mock device).
 */
int sim_image_attach_at(int fd, off_t off, uint64_t size,
			struct sim_image **out, char *err);

/* Unmap and close. Accepts NULL. */
void sim_image_destroy(struct sim_image *img);

/* Node at NOC 0 coordinates, or NULL outside the grid. */
static inline struct tt_node_desc *sim_image_node(struct sim_image *img,
						  unsigned x, unsigned y)
{
	if (x >= img->grid_x || y >= img->grid_y)
		return NULL;
	return &img->nodes[y * img->grid_x + x];
}

static inline unsigned sim_image_node_index(const struct sim_image *img,
					    const struct tt_node_desc *n)
{
	return n->y * img->grid_x + n->x;
}

/* Register page p of node n, as a pointer into the image. */
static inline uint8_t *sim_image_regs(struct sim_image *img,
				      const struct tt_node_desc *n,
				      enum tt_reg_page p)
{
	return img->base + n->regs_off + (uint64_t)p * TT_REG_PAGE_SIZE;
}

static inline uint32_t *sim_reg32(uint8_t *page, unsigned off)
{
	return (uint32_t *)(void *)(page + off);
}

#endif /* TT_SIM_IMAGE_H */
