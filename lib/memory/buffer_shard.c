// SPDX-License-Identifier: Apache-2.0
/*
 * Sharded buffer geometry (buffer_shard.h). TT-Metal numbers shards
 * row-major over the grid of shards and hands shard k to core k of the
 * shard grid in orientation order (its corerange_to_cores); we do the
 * same, and store each shard as a full shard-shaped array of pages so
 * every page of a shard has one stride whatever edge it sits on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buffer_shard.h"

static const char *layout_name(const struct tt_buffer *b)
{
	return tt_tensor_memory_layout_name(b->layout);
}

/* Bank of grid core c: L1 logical (x, y) is bank y * w + x; a DRAM grid
 * names bank x as (x, 0). */
static int core_bank(const struct tt_buffer *b,
		     const struct tt_bank_layout *banks, struct tt_xy c,
		     unsigned *bank, const char *what)
{
	if (b->type == TT_BUFFER_DRAM) {
		if (c.y || c.x >= banks->dram_banks)
			return tt_error(-EINVAL,
					"%s: shard core (%u,%u) is not a DRAM bank (x < %u, y = 0)",
					what, c.x, c.y, banks->dram_banks);
		*bank = c.x;
		return 0;
	}
	if (c.x >= banks->grid_w || c.y >= banks->grid_h)
		return tt_error(-EINVAL,
				"%s: shard core (%u,%u) is outside the %ux%u logical grid",
				what, c.x, c.y, banks->grid_w, banks->grid_h);
	*bank = c.y * banks->grid_w + c.x;
	return 0;
}

/* Append core c's bank to the list, refusing a core listed twice. */
static int add_core(struct tt_buffer *b, const struct tt_bank_layout *banks,
		    struct tt_xy c, bool *seen, const char *what)
{
	unsigned bank = 0;
	int ret = core_bank(b, banks, c, &bank, what);

	if (ret)
		return ret;
	if (seen[bank])
		return tt_error(-EINVAL,
				"%s: shard core (%u,%u) appears twice in the shard grid",
				what, c.x, c.y);
	seen[bank] = true;
	b->shard_bank[b->nshards++] = bank;
	return 0;
}

/* The cores of one range, row by row or column by column. */
static int add_range(struct tt_buffer *b, const struct tt_bank_layout *banks,
		     const struct tt_core_range *r, bool row_major, bool *seen,
		     const char *what)
{
	unsigned outer0 = row_major ? r->start.y : r->start.x;
	unsigned outer1 = row_major ? r->end.y : r->end.x;
	unsigned inner0 = row_major ? r->start.x : r->start.y;
	unsigned inner1 = row_major ? r->end.x : r->end.y;
	unsigned bank = 0;
	int ret;

	if (r->start.x > r->end.x || r->start.y > r->end.y)
		return tt_error(-EINVAL,
				"%s: shard grid range (%u,%u)-(%u,%u) has its start after its end",
				what, r->start.x, r->start.y, r->end.x, r->end.y);
	/* Check the far corner first: a huge range fails before the loop. */
	ret = core_bank(b, banks, r->end, &bank, what);
	for (unsigned o = outer0; o <= outer1 && !ret; o++) {
		for (unsigned i = inner0; i <= inner1 && !ret; i++) {
			struct tt_xy c = row_major ? (struct tt_xy){ i, o } :
						     (struct tt_xy){ o, i };

			ret = add_core(b, banks, c, seen, what);
		}
	}
	return ret;
}

/* The grid's cores in orientation order, as banks, in b->shard_bank. */
static int list_cores(struct tt_buffer *b, const struct tt_shard_spec *s,
		      const struct tt_bank_layout *banks, const char *what)
{
	bool seen[TT_BANKS_MAX_L1] = { false };
	int ret = 0;

	if (!s->grid || !s->grid->count ||
	    s->grid->count > TT_CORE_RANGE_SET_MAX)
		return tt_error(-EINVAL, "%s: the shard grid has %u ranges (1..%u)",
				what, s->grid ? s->grid->count : 0,
				TT_CORE_RANGE_SET_MAX);
	if (s->orientation != TT_SHARD_ROW_MAJOR &&
	    s->orientation != TT_SHARD_COL_MAJOR)
		return tt_error(-EINVAL, "%s: shard orientation %d does not exist",
				what, (int)s->orientation);
	b->shard_bank = malloc(b->banks * sizeof(*b->shard_bank));
	if (!b->shard_bank)
		return tt_error(-ENOMEM, "%s: out of host memory", what);
	b->nshards = 0;
	for (unsigned r = 0; r < s->grid->count && !ret; r++)
		ret = add_range(b, banks, &s->grid->ranges[r],
				s->orientation == TT_SHARD_ROW_MAJOR, seen, what);
	return ret;
}

/* Shard and page shapes: nonzero, the shard a whole number of pages. */
static int shard_shape(struct tt_buffer *b,
		       const struct tt_shard_spec_buffer *spec,
		       const char *what)
{
	const uint32_t *s = spec->spec.shape, *p = spec->page_shape;

	if (!s[0] || !s[1] || !p[0] || !p[1])
		return tt_error(-EINVAL,
				"%s: shard shape %ux%u and page shape %ux%u must not be 0",
				what, s[0], s[1], p[0], p[1]);
	if (s[0] % p[0] || s[1] % p[1])
		return tt_error(-EINVAL,
				"%s: shard shape %ux%u is not a whole number of %ux%u pages",
				what, s[0], s[1], p[0], p[1]);
	b->shard_rows = s[0] / p[0];
	b->shard_cols = s[1] / p[1];
	return 0;
}

/* The buffer as rows x cols pages, and the shards that cover it. */
static int tensor_shape(struct tt_buffer *b,
			const struct tt_shard_spec_buffer *spec,
			const char *what)
{
	b->rows = spec->tensor2d_shape_in_pages[0];
	b->cols = spec->tensor2d_shape_in_pages[1];
	if (b->rows * b->cols != b->num_pages)
		return tt_error(-EINVAL,
				"%s: %llux%llu pages (tensor2d_shape_in_pages) is not its %llu pages",
				what, (unsigned long long)b->rows,
				(unsigned long long)b->cols,
				(unsigned long long)b->num_pages);
	if (b->layout == TT_LAYOUT_HEIGHT_SHARDED && b->shard_cols != b->cols)
		return tt_error(-EINVAL,
				"%s: height sharded, but shards are %u pages wide and the buffer %llu",
				what, b->shard_cols, (unsigned long long)b->cols);
	if (b->layout == TT_LAYOUT_WIDTH_SHARDED && b->shard_rows != b->rows)
		return tt_error(-EINVAL,
				"%s: width sharded, but shards are %u pages tall and the buffer %llu",
				what, b->shard_rows, (unsigned long long)b->rows);
	b->shards_per_row = (b->cols + b->shard_cols - 1) / b->shard_cols;
	return 0;
}

int tt_buffer_shard_setup(struct tt_buffer *b,
			  const struct tt_shard_spec_buffer *spec,
			  const struct tt_bank_layout *banks, const char *what)
{
	uint64_t down, shards;
	int ret;

	ret = shard_shape(b, spec, what);
	if (!ret)
		ret = tensor_shape(b, spec, what);
	if (!ret)
		ret = list_cores(b, &spec->spec, banks, what);
	if (ret)
		return ret;
	down = (b->rows + b->shard_rows - 1) / b->shard_rows;
	shards = down * b->shards_per_row;
	if (shards > b->nshards)
		return tt_error(-EINVAL,
				"%s: %s into %llu shards (%llux%llu of %ux%u pages) but the shard grid has %u cores",
				what, layout_name(b), (unsigned long long)shards,
				(unsigned long long)down,
				(unsigned long long)b->shards_per_row,
				b->shard_rows, b->shard_cols, b->nshards);
	b->nshards = (unsigned)shards;
	return 0;
}

void tt_buffer_shard_locate(const struct tt_buffer *b, uint64_t page,
			    unsigned *bank, uint64_t *addr)
{
	uint64_t r = page / b->cols, c = page % b->cols;
	uint64_t k = r / b->shard_rows * b->shards_per_row + c / b->shard_cols;
	uint64_t slot = (r % b->shard_rows) * b->shard_cols + c % b->shard_cols;

	*bank = b->shard_bank[k];
	*addr = b->address + slot * b->aligned_page_size;
}
