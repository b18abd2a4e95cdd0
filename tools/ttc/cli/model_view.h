/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What ttc info, merge and report read from an image's manifest: the
 * parsed description (libtt's tt_model_desc_parse), sizes, lifetimes and
 * grids derived from it, and JSON and shape printing they share.
 */
#ifndef TTC_CLI_MODEL_VIEW_H
#define TTC_CLI_MODEL_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tt/image.h"
#include "tt/model.h"

/* img's manifest, parsed and checked: 0 and *out; 1 when img has no
 * manifest section; a negative errno with tt_last_error() naming it. */
int view_manifest(const tt_image *img, tt_model_manifest **out);

/* A JSON string: quotes, backslashes and control characters escaped. */
void view_json_str(FILE *f, const char *s);
/* "[32, 256]" (text and JSON alike). */
void view_shape(FILE *f, const struct tt_shape *s);

/* An op's attribute, else dflt. */
const char *view_attr(const struct tt_model_op *op, const char *name,
		      const char *dflt);
/* The cores an op runs on: its "grid" attribute ("XxY"), else the whole
 * grid; false when the attribute does not parse. */
bool view_op_grid(const struct tt_model_desc *d, const struct tt_model_op *op,
		  struct tt_xy *out);

/* An op's "epoch" or "chip" attribute (the compile's breaks), else 0. */
unsigned view_op_stage(const struct tt_model_op *op, const char *name);

/* Bytes a tensor takes on the device (tiled, in its format); 0 when the
 * format has no size. */
uint64_t view_tensor_bytes(const struct tt_model_tensor *t);
static inline uint64_t view_slot_bytes(const struct tt_model_slot *s)
{
	return (uint64_t)s->page_size * s->pages;
}

/* The ops of p that touch tensor t: the first that writes or reads it,
 * the last that reads or writes it; false when none does. */
bool view_lifetime(const struct tt_model_program *p, unsigned t,
		   unsigned *first, unsigned *last);

const char *view_kind_name(enum tt_model_tensor_kind k);

/* info_model.c: ttc info's summary of a model, as text or as one JSON
 * object (docs/ttc.md, "ttc info"). */
void info_model_text(FILE *f, const struct tt_model_desc *d);
void info_model_json(FILE *f, const struct tt_model_desc *d);

#endif /* TTC_CLI_MODEL_VIEW_H */
