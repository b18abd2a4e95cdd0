/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A simulated chip, as hosted by one process (the ttsim daemon, or an
 * application through libtt's embedded model): its image, the host memory
 * its engines can reach, and the engine thread that answers doorbells.
 *
 * Clients in other processes attach to the image (sim_image_attach) and
 * ask the host for services (DMA mappings) through the control protocol
 * (proto.h); clients in this process call these functions directly.
 */
#ifndef TT_SIM_DEVICE_H
#define TT_SIM_DEVICE_H

#include <pthread.h>
#include <stdbool.h>

#include "access.h"

struct soc_desc;

struct sim_device {
	struct sim_image *img;
	struct sim_hostmem hostmem;
	struct sim_ctx ctx;
	pthread_t engine;
	bool stop; /* atomic; set to end the engine thread */
	struct tt_node_desc *pcie; /* the node whose ATU maps host memory */
};

/* Where a DMA mapping is seen from the device. */
struct sim_dma_map {
	uint32_t id;
	uint64_t bus; /* host bus address */
	unsigned noc_x, noc_y; /* PCIe node, NOC 0 coordinates */
	uint64_t noc_local; /* local address in the host window */
};

/*
 * Build a chip from a descriptor and start its engine. The image is READY
 * on return. Returns 0 or a negative errno with a message in err.
 */
int sim_device_create(const struct soc_desc *d, enum tt_hw_board board,
		      unsigned chip, struct sim_device **out, char *err);

/* Stop the engine, mark the image STOPPED, release everything. NULL ok. */
void sim_device_destroy(struct sim_device *dev);

/*
 * Make `size` bytes of the shared-memory object fd (not consumed) reachable
 * from the device, on behalf of `owner` (any nonzero tag).
 */
int sim_device_dma_map(struct sim_device *dev, int fd, uint64_t size,
		       uint64_t owner, struct sim_dma_map *out, char *err);
int sim_device_dma_unmap(struct sim_device *dev, uint32_t id, uint64_t owner);

/* Drop everything `owner` holds (its process went away). */
void sim_device_release_owner(struct sim_device *dev, uint64_t owner);

#endif /* TT_SIM_DEVICE_H */
