// SPDX-License-Identifier: Apache-2.0
/*
 * Device image layout. Regions are placed in this order after the node
 * table: register blocks of every node, L1 of Tensix and ETH nodes, ARC CSM,
 * then DRAM channels (2 MiB aligned). The total is rounded up to a power of
 * two because a VM exposes the image as a PCI BAR. Untouched pages of the
 * memfd cost nothing, so the size of DRAM is free until it is used.
 */
#include "image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/soc_desc.h"
#include "hw/decode.h"

#define REGION_ALIGN 0x10000ull /* 64 KiB */
#define DRAM_ALIGN 0x200000ull /* 2 MiB */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static uint64_t pow2_up(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static uint64_t node_mem_size(const struct soc_desc *d, unsigned x, unsigned y)
{
	if (d->node_flags[y][x] & TT_NODE_F_HARVESTED)
		return 0;
	switch (d->node_type[y][x]) {
	case TT_NODE_TENSIX:
		return d->worker_l1_size;
	case TT_NODE_ETH:
		return d->eth_l1_size;
	case TT_NODE_ARC:
		return TT_ARC_CSM_SIZE;
	case TT_NODE_DRAM:
		return d->dram_bank_size;
	default:
		return 0;
	}
}

static uint64_t node_mem_base(enum tt_hw_node_type t)
{
	return t == TT_NODE_ARC ? TT_ARC_CSM_BASE : 0;
}

/* Fill the node table; returns the image size needed. */
static uint64_t layout_nodes(const struct soc_desc *d, struct tt_node_desc *nt)
{
	uint64_t dram_off[TT_DRAM_MAX_CHANNELS];
	uint64_t off = TT_IMAGE_NODE_TABLE_OFF +
		       (uint64_t)d->grid_x * d->grid_y * sizeof(*nt);
	unsigned x, y, c;

	off = align_up(off, REGION_ALIGN);
	for (y = 0; y < d->grid_y; y++) {
		for (x = 0; x < d->grid_x; x++) {
			struct tt_node_desc *n = &nt[y * d->grid_x + x];

			n->type = d->node_type[y][x];
			n->flags = d->node_flags[y][x];
			n->x = (uint8_t)x;
			n->y = (uint8_t)y;
			n->channel = d->node_channel[y][x];
			if (n->type == TT_NODE_NONE)
				continue;
			n->regs_off = off;
			off += TT_REG_BLOCK_SIZE;
		}
	}
	for (y = 0; y < d->grid_y; y++) {
		for (x = 0; x < d->grid_x; x++) {
			struct tt_node_desc *n = &nt[y * d->grid_x + x];

			if (n->type == TT_NODE_DRAM)
				continue;
			n->mem_size = node_mem_size(d, x, y);
			n->mem_base = node_mem_base(n->type);
			if (!n->mem_size)
				continue;
			n->mem_off = off;
			off = align_up(off + n->mem_size, REGION_ALIGN);
		}
	}
	off = align_up(off, DRAM_ALIGN);
	for (c = 0; c < d->dram_channels; c++) {
		dram_off[c] = off;
		off += align_up(d->dram_bank_size, DRAM_ALIGN);
	}
	for (y = 0; y < d->grid_y; y++) {
		for (x = 0; x < d->grid_x; x++) {
			struct tt_node_desc *n = &nt[y * d->grid_x + x];

			if (n->type != TT_NODE_DRAM)
				continue;
			n->mem_size = node_mem_size(d, x, y);
			n->mem_base = TT_DRAM_BASE;
			n->mem_off = n->mem_size ? dram_off[n->channel] : 0;
		}
	}
	return pow2_up(off);
}

static void init_node_regs(struct sim_image *img, struct tt_node_desc *n)
{
	uint8_t *ctrl = sim_image_regs(img, n, TT_REG_TILE_CTRL);
	uint32_t id0 = TT_FIELD_PREP(TT_TILE_NODE_ID_X_MASK, n->x) |
		       TT_FIELD_PREP(TT_TILE_NODE_ID_Y_MASK, n->y);
	uint32_t x1 = tt_noc_mirror(n->x, img->grid_x);
	uint32_t y1 = tt_noc_mirror(n->y, img->grid_y);

	*sim_reg32(ctrl, TT_TILE_NODE_ID) = id0;
	*sim_reg32(ctrl, TT_TILE_NODE_TYPE) = n->type;
	*sim_reg32(ctrl, TT_TILE_NODE_FLAGS) = n->flags;
	*sim_reg32(ctrl, TT_TILE_SOFT_RESET) =
		TT_TILE_SOFT_RESET_BRISC | TT_TILE_SOFT_RESET_TRISC |
		TT_TILE_SOFT_RESET_NCRISC;
	*sim_reg32(sim_image_regs(img, n, TT_REG_NIU0), TT_NIU_NODE_ID) = id0;
	*sim_reg32(sim_image_regs(img, n, TT_REG_NIU1), TT_NIU_NODE_ID) =
		TT_FIELD_PREP(TT_TILE_NODE_ID_X_MASK, x1) |
		TT_FIELD_PREP(TT_TILE_NODE_ID_Y_MASK, y1);
}

static int map_image(int fd, off_t off, uint64_t size, struct sim_image **out,
		     char *err)
{
	struct sim_image *img = calloc(1, sizeof(*img));

	if (!img) {
		snprintf(err, SIM_ERR_LEN, "out of memory");
		return -ENOMEM;
	}
	img->base = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_NORESERVE, fd, off);
	if (img->base == MAP_FAILED) {
		int e = errno;

		snprintf(err, SIM_ERR_LEN, "cannot map device image (%llu bytes): %s",
			 (unsigned long long)size, strerror(e));
		free(img);
		return -e;
	}
	img->fd = fd;
	img->size = size;
	img->id = (struct tt_identity *)(void *)(img->base +
						 TT_IMAGE_IDENTITY_OFF);
	img->regs = (struct tt_host_regs *)(void *)(img->base +
						    TT_IMAGE_HOST_REGS_OFF);
	*out = img;
	return 0;
}

static void fill_identity(struct sim_image *img, const struct soc_desc *d,
			  enum tt_hw_board board, unsigned chip)
{
	struct tt_identity *id = img->id;

	id->magic_lo = TT_IDENTITY_MAGIC_LO;
	id->magic_hi = TT_IDENTITY_MAGIC_HI;
	id->contract_major = TT_HW_CONTRACT_MAJOR;
	id->contract_minor = TT_HW_CONTRACT_MINOR;
	id->state = TT_DEV_STATE_INIT;
	id->arch = d->arch;
	id->board = board;
	id->chip_index = chip;
	id->grid_x = d->grid_x;
	id->grid_y = d->grid_y;
	id->tensix_count = d->tensix_count;
	id->image_size = img->size;
	id->node_table_off = TT_IMAGE_NODE_TABLE_OFF;
	id->node_size = sizeof(struct tt_node_desc);
	id->dram_channels = d->dram_channels;
	id->dram_bank_size = d->dram_bank_size;
	id->worker_l1_size = (uint32_t)d->worker_l1_size;
	id->eth_l1_size = (uint32_t)d->eth_l1_size;
	snprintf(id->soc_name, sizeof(id->soc_name), "%s", d->name);
}

int sim_image_create(const struct soc_desc *d, enum tt_hw_board board,
		     unsigned chip, struct sim_image **out, char *err)
{
	struct tt_node_desc *table;
	struct sim_image *img;
	uint64_t size;
	unsigned i;
	int fd, ret;

	table = calloc((size_t)d->grid_x * d->grid_y, sizeof(*table));
	if (!table) {
		snprintf(err, SIM_ERR_LEN, "out of memory");
		return -ENOMEM;
	}
	size = layout_nodes(d, table);
	fd = memfd_create("ttsim-image", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "cannot create device image (%llu bytes): %s",
			 (unsigned long long)size, strerror(-ret));
		goto err_free_table;
	}
	ret = map_image(fd, 0, size, &img, err);
	if (ret)
		goto err_close;
	img->grid_x = d->grid_x;
	img->grid_y = d->grid_y;
	fill_identity(img, d, board, chip);
	img->nodes = table;
	memcpy(img->base + TT_IMAGE_NODE_TABLE_OFF, table,
	       (size_t)d->grid_x * d->grid_y * sizeof(*table));
	for (i = 0; i < d->grid_x * d->grid_y; i++)
		if (img->nodes[i].type != TT_NODE_NONE)
			init_node_regs(img, &img->nodes[i]);
	*out = img;
	return 0;

err_close:
	if (fd >= 0)
		close(fd);
err_free_table:
	free(table);
	return ret;
}

/* Check one node entry of an untrusted image (hw/decode.h). */
static int check_node(const struct sim_image *img, unsigned i, char *err)
{
	const struct tt_node_desc *n = &img->nodes[i];

	switch (tt_node_check(n, i, img->grid_x, img->size)) {
	case TT_NODE_OK:
		return 0;
	case TT_NODE_CORRUPT:
		snprintf(err, SIM_ERR_LEN, "device image: node %u is corrupt", i);
		return -EPROTO;
	default:
		snprintf(err, SIM_ERR_LEN,
			 "device image: node %u-%u has regions outside the image",
			 n->x, n->y);
		return -EPROTO;
	}
}

static int check_identity(const struct tt_identity *id, uint64_t size,
			  char *err)
{
	switch (tt_identity_check(id, size)) {
	case TT_IDENTITY_OK:
		return 0;
	case TT_IDENTITY_BAD_MAGIC:
		snprintf(err, SIM_ERR_LEN, "not a device image: bad signature");
		return -EPROTO;
	case TT_IDENTITY_BAD_CONTRACT:
		snprintf(err, SIM_ERR_LEN,
			 "device image uses chip contract %u.%u; this build knows %u.x",
			 id->contract_major, id->contract_minor,
			 TT_HW_CONTRACT_MAJOR);
		return -EPROTO;
	default:
		snprintf(err, SIM_ERR_LEN, "device image: identity page is corrupt");
		return -EPROTO;
	}
}

int sim_image_attach(int fd, struct sim_image **out, char *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size < TT_IMAGE_NODE_TABLE_OFF) {
		snprintf(err, SIM_ERR_LEN, "not a device image: too small");
		close(fd);
		return -EPROTO;
	}
	return sim_image_attach_at(fd, 0, (uint64_t)st.st_size, out, err);
}

int sim_image_attach_at(int fd, off_t off, uint64_t size,
			struct sim_image **out, char *err)
{
	struct sim_image *img;
	unsigned i;
	int ret;

	if (size < TT_IMAGE_NODE_TABLE_OFF) {
		snprintf(err, SIM_ERR_LEN, "not a device image: too small");
		close(fd);
		return -EPROTO;
	}
	ret = map_image(fd, off, size, &img, err);
	if (ret) {
		close(fd);
		return ret;
	}
	ret = check_identity(img->id, img->size, err);
	if (ret)
		goto err_destroy;
	img->grid_x = img->id->grid_x;
	img->grid_y = img->id->grid_y;
	img->nodes = calloc((size_t)img->grid_x * img->grid_y,
			    sizeof(*img->nodes));
	if (!img->nodes) {
		snprintf(err, SIM_ERR_LEN, "out of memory");
		ret = -ENOMEM;
		goto err_destroy;
	}
	memcpy(img->nodes, img->base + TT_IMAGE_NODE_TABLE_OFF,
	       (size_t)img->grid_x * img->grid_y * sizeof(*img->nodes));
	for (i = 0; i < img->grid_x * img->grid_y; i++) {
		ret = check_node(img, i, err);
		if (ret)
			goto err_destroy;
	}
	*out = img;
	return 0;

err_destroy:
	sim_image_destroy(img);
	return ret;
}

void sim_image_destroy(struct sim_image *img)
{
	if (!img)
		return;
	munmap(img->base, img->size);
	close(img->fd);
	free(img->nodes);
	free(img);
}
