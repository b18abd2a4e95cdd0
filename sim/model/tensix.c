// SPDX-License-Identifier: Apache-2.0
/*
 * The tile coprocessor: its register page, its private state per node,
 * and command dispatch (the operations are in tx_fpu.c, tx_matmul.c and
 * sfpu.c; vector instructions, TT_TX_SFPI, in sfpi.c).
 *
 * Private state hangs off the image pointer in a small registry: the
 * image is shared memory and cannot hold host pointers, and every host of
 * the chip in this process (harts, libtt's windows) reaches a node
 * through the same struct sim_image. An image gets its entry from the
 * chip's power-on (sim_tensix_reset), so only the process hosting the
 * chip runs commands.
 */
#include "tensix.h"

#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "tensix_impl.h"
#include "common/tile_io.h"

struct tx_chip {
	struct sim_image *img;
	unsigned nnodes; /* grid_x * grid_y; nodes[] by node index */
	struct tx_node *nodes;
	struct tx_chip *next;
};

static pthread_mutex_t chips_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tx_chip *chips;
/* Bumped (under chips_lock) whenever the list changes: a thread's
 * remembered lookup (find_chip) is good while it has not moved. */
static unsigned long chips_gen;

/* ---- registry ---- */

static struct tx_chip *find_locked(const struct sim_image *img)
{
	struct tx_chip *c;

	for (c = chips; c; c = c->next)
		if (c->img == img)
			return c;
	return NULL;
}

/* The entry of img, or NULL if this process does not host it. Every
 * command asks, so each thread remembers its last answer rather than
 * taking the registry's lock, which all harts' threads share. */
static struct tx_chip *find_chip(const struct sim_image *img)
{
	static _Thread_local struct {
		const struct sim_image *img;
		struct tx_chip *chip;
		unsigned long gen;
	} last;
	unsigned long gen = __atomic_load_n(&chips_gen, __ATOMIC_ACQUIRE);

	if (last.img == img && last.gen == gen && gen)
		return last.chip;
	pthread_mutex_lock(&chips_lock);
	last.img = img;
	last.chip = find_locked(img);
	last.gen = chips_gen;
	pthread_mutex_unlock(&chips_lock);
	return last.chip;
}

static void list_changed_locked(void)
{
	__atomic_store_n(&chips_gen, chips_gen + 1, __ATOMIC_RELEASE);
}

static void free_chip(struct tx_chip *c)
{
	for (unsigned i = 0; i < c->nnodes; i++) {
		pthread_mutex_destroy(&c->nodes[i].lock);
		free(c->nodes[i].dst);
	}
	free(c->nodes);
	free(c);
}

static struct tx_chip *new_chip(struct sim_image *img)
{
	struct tx_chip *c = calloc(1, sizeof(*c));
	unsigned n = img->grid_x * img->grid_y;

	if (!c)
		return NULL;
	c->img = img;
	c->nnodes = n;
	c->nodes = calloc(n ? n : 1, sizeof(*c->nodes));
	if (!c->nodes) {
		free(c);
		return NULL;
	}
	for (unsigned i = 0; i < n; i++) {
		pthread_mutex_init(&c->nodes[i].lock, NULL);
		c->nodes[i].zeroed = UINT32_MAX;
		tx_sfpi_reset(&c->nodes[i].sfpi);
	}
	return c;
}

/* The entry of img, made if needed. An entry left by an image that went
 * away without sim_tensix_release, at the same address, is replaced if
 * its grid differs (and cleared by the caller either way). */
static struct tx_chip *get_chip(struct sim_image *img)
{
	struct tx_chip **pp, *c;

	pthread_mutex_lock(&chips_lock);
	for (pp = &chips; *pp && (*pp)->img != img; pp = &(*pp)->next)
		;
	c = *pp;
	if (c && c->nnodes != img->grid_x * img->grid_y) {
		*pp = c->next;
		free_chip(c);
		c = NULL;
		list_changed_locked();
	}
	if (!c) {
		c = new_chip(img);
		if (c) {
			c->next = chips;
			chips = c;
			list_changed_locked();
		}
	}
	pthread_mutex_unlock(&chips_lock);
	return c;
}

void sim_tensix_release(struct sim_image *img)
{
	struct tx_chip **pp, *c;

	pthread_mutex_lock(&chips_lock);
	for (pp = &chips; *pp && (*pp)->img != img; pp = &(*pp)->next)
		;
	c = *pp;
	if (c) {
		*pp = c->next;
		list_changed_locked();
	}
	pthread_mutex_unlock(&chips_lock);
	if (c)
		free_chip(c);
}

/* ---- registers ---- */

static uint32_t *reg(struct sim_image *img, const struct tt_node_desc *n,
		     unsigned off)
{
	return sim_reg32(sim_image_regs(img, n, TT_REG_TENSIX), off);
}

static uint32_t rd(struct sim_image *img, const struct tt_node_desc *n,
		   unsigned off)
{
	return __atomic_load_n(reg(img, n, off), __ATOMIC_ACQUIRE);
}

static void wr(struct sim_image *img, const struct tt_node_desc *n,
	       unsigned off, uint32_t v)
{
	__atomic_store_n(reg(img, n, off), v, __ATOMIC_RELEASE);
}

static unsigned capacity(uint32_t cfg)
{
	return cfg & TT_TX_CFG_FP32_DST ? TT_DST_TILES_32 : TT_DST_TILES_16;
}

/* A 64-bit counter kept as LO/HI registers; only the node's command
 * path writes it (under the node lock). */
static void count(struct sim_image *img, const struct tt_node_desc *n,
		  unsigned lo, uint64_t add)
{
	uint64_t v = rd(img, n, lo) | (uint64_t)rd(img, n, lo + 4) << 32;

	v += add;
	wr(img, n, lo + 4, (uint32_t)(v >> 32));
	wr(img, n, lo, (uint32_t)v);
}

static void reset_node(struct sim_image *img, const struct tt_node_desc *n,
		       struct tx_node *t)
{
	pthread_mutex_lock(&t->lock);
	if (t->dst)
		memset(t->dst, 0, sizeof(float) * TT_DST_TILES_16 * TX_ELEMS);
	t->zeroed = UINT32_MAX;
	tx_sfpi_reset(&t->sfpi);
	for (unsigned off = 0; off <= TT_TX_DST_TILES; off += 4)
		wr(img, n, off, 0);
	wr(img, n, TT_TX_DST_TILES, TT_DST_TILES_16);
	sim_cb_reset(sim_image_regs(img, n, TT_REG_CB));
	pthread_mutex_unlock(&t->lock);
}

void sim_tensix_reset(struct sim_image *img)
{
	struct tx_chip *c = get_chip(img);

	for (unsigned i = 0; i < img->grid_x * img->grid_y; i++) {
		const struct tt_node_desc *n = &img->nodes[i];

		if (n->type != TT_NODE_TENSIX ||
		    (n->flags & TT_NODE_F_HARVESTED))
			continue;
		if (c) {
			reset_node(img, n, &c->nodes[i]);
			continue;
		}
		/* No memory for the state: the registers still reset, and
		 * commands are refused. */
		for (unsigned off = 0; off <= TT_TX_DST_TILES; off += 4)
			wr(img, n, off, 0);
		wr(img, n, TT_TX_DST_TILES, TT_DST_TILES_16);
		sim_cb_reset(sim_image_regs(img, n, TT_REG_CB));
	}
}

/* ---- DST ---- */

float *tx_dst(struct tx_cmd *c, uint32_t d, uint32_t n)
{
	if (d >= c->cap || n > c->cap - d)
		return NULL;
	return c->node->dst + (size_t)d * TX_ELEMS;
}

bool tx_dst_zeroed(const struct tx_cmd *c, uint32_t d)
{
	return c->node->zeroed >> d & 1;
}

/* v rounded to DST's 16-bit format: bfloat16, or half if operand A is
 * Float16. */
static float round16(float v, bool half)
{
	if (half)
		return df_f16_to_f32(df_f32_to_f16(v));
	return df_bf16_to_f32(df_f32_to_bf16_rne(v));
}

void tx_dst_written(struct tx_cmd *c, uint32_t d, const uint16_t *idx,
		    unsigned n)
{
	float *t = c->node->dst + (size_t)d * TX_ELEMS;
	bool half = c->a_fmt == DF_FLOAT16;

	c->node->zeroed &= ~(1u << d);
	if (c->fp32)
		return;
	if (!idx) {
		df_round_to(half ? DF_FLOAT16 : DF_FLOAT16_B, t, TX_ELEMS);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		t[idx[i]] = round16(t[idx[i]], half);
}

/* ---- commands ---- */

static enum tt_tx_err tx_zero(struct tx_cmd *c)
{
	uint32_t n = c->arg[0] ? c->arg[0] : 1;
	float *t;

	if (c->sub || c->flags)
		return TT_TX_ERR_OP;
	t = tx_dst(c, c->dst, n);
	if (!t)
		return TT_TX_ERR_DST;
	memset(t, 0, sizeof(float) * TX_ELEMS * n);
	for (uint32_t i = 0; i < n; i++)
		c->node->zeroed |= 1u << (c->dst + i);
	return TT_TX_OK;
}

typedef enum tt_tx_err (*op_fn)(struct tx_cmd *c);

static const op_fn ops[TT_TX_OP_COUNT] = {
	[TT_TX_ZERO] = tx_zero,
	[TT_TX_COPY] = tx_copy,
	[TT_TX_ELTWISE] = tx_eltwise,
	[TT_TX_MATMUL] = tx_matmul,
	[TT_TX_REDUCE] = tx_reduce,
	[TT_TX_SFPU] = tx_sfpu,
	[TT_TX_SFPU_BINARY] = tx_sfpu_binary,
	[TT_TX_PACK] = tx_pack,
	[TT_TX_TILIZE] = tx_tilize,
};

static void load_cmd(struct tx_cmd *c, struct sim_image *img,
		     const struct tt_node_desc *n, uint32_t cmd)
{
	uint32_t cfg = rd(img, n, TT_TX_CFG);

	c->l1 = img->base + n->mem_off;
	c->l1_size = n->mem_size;
	c->a_addr = rd(img, n, TT_TX_A_ADDR);
	c->a_fmt = rd(img, n, TT_TX_A_FMT);
	c->b_addr = rd(img, n, TT_TX_B_ADDR);
	c->b_fmt = rd(img, n, TT_TX_B_FMT);
	c->out_addr = rd(img, n, TT_TX_OUT_ADDR);
	c->out_fmt = rd(img, n, TT_TX_OUT_FMT);
	c->dst = rd(img, n, TT_TX_DST);
	for (unsigned i = 0; i < 4; i++)
		c->arg[i] = rd(img, n, TT_TX_ARG0 + 4 * i);
	c->op = TT_FIELD_GET(TT_TX_CMD_OP_MASK, cmd);
	c->sub = TT_FIELD_GET(TT_TX_CMD_SUB_MASK, cmd);
	c->flags = TT_FIELD_GET(TT_TX_CMD_FLAGS_MASK, cmd);
	c->cap = capacity(cfg);
	c->fp32 = cfg & TT_TX_CFG_FP32_DST;
	c->approx = cfg & TT_TX_CFG_APPROX;
	c->fidelity = TT_FIELD_GET(TT_TX_CFG_FIDELITY_MASK, cfg);
}

static enum tt_tx_err dispatch(struct tx_cmd *c, uint32_t cmd)
{
	if (cmd >> 24 || c->op >= TT_TX_OP_COUNT || !ops[c->op])
		return TT_TX_ERR_OP;
	return ops[c->op](c);
}

/* Run command cmd (off TT_TX_CMD) or vector instruction cmd (TT_TX_SFPI). */
static enum tt_dev_err run(struct sim_image *img, const struct tt_node_desc *n,
			   unsigned off, uint32_t cmd)
{
	struct tx_chip *chip;
	struct tx_cmd c = { 0 };
	enum tt_tx_err e;

	chip = find_chip(img);
	if (!chip)
		return TT_DEV_ERR_BAD_CMD; /* not hosted in this process */
	c.node = &chip->nodes[sim_image_node_index(img, n)];
	pthread_mutex_lock(&c.node->lock);
	if (!c.node->dst)
		c.node->dst = calloc(TT_DST_TILES_16 * TX_ELEMS, sizeof(float));
	if (!c.node->dst) {
		pthread_mutex_unlock(&c.node->lock);
		return TT_DEV_ERR_BAD_CMD;
	}
	load_cmd(&c, img, n, cmd);
	e = off == TT_TX_SFPI ? tx_sfpi(&c, cmd) : dispatch(&c, cmd);
	wr(img, n, TT_TX_STATUS, e);
	if (e == TT_TX_OK) {
		count(img, n, TT_TX_OPS_LO, 1);
		count(img, n, TT_TX_FLOPS_LO, c.macs);
	}
	pthread_mutex_unlock(&c.node->lock);
	/* Harts of the node may wait on what a pack wrote to L1. */
	if (c.wrote_l1)
		sim_event_after_write(img, n, false);
	return e == TT_TX_OK ? TT_DEV_ERR_NONE : TT_DEV_ERR_BAD_CMD;
}

enum tt_dev_err sim_tensix_write(struct sim_image *img,
				 const struct tt_node_desc *n, unsigned off,
				 uint32_t v)
{
	switch (off) {
	case TT_TX_CMD:
	case TT_TX_SFPI:
		return run(img, n, off, v); /* both keep reading 0 */
	case TT_TX_CFG:
		wr(img, n, off, v);
		wr(img, n, TT_TX_DST_TILES, capacity(v));
		return TT_DEV_ERR_NONE;
	default:
		wr(img, n, off, v);
		return TT_DEV_ERR_NONE;
	}
}
