/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ttc report's view of one model: per program and op, the bytes of
 * activations alive (report_live), and the pictures (report_svg.c): the
 * core grid with each op's cores, and live L1 and DRAM bytes over the
 * ops. docs/ttc.md, "ttc report".
 */
#ifndef TTC_CLI_REPORT_H
#define TTC_CLI_REPORT_H

#include "model_view.h"

/* Bytes of activations alive at op k of program p, by place (an
 * activation is alive from the op that writes it to the last that reads
 * it, inclusive). */
void report_live(const struct tt_model_desc *d,
		 const struct tt_model_program *p, unsigned k, uint64_t *l1,
		 uint64_t *dram);

/* Text escaped for XML (&, <, >, ", '). */
void report_xml_str(FILE *f, const char *s);

/* grid.svg and memory.svg of d (docs/ttc.md). */
void report_grid_svg(FILE *f, const struct tt_model_desc *d);
void report_memory_svg(FILE *f, const struct tt_model_desc *d);

#endif /* TTC_CLI_REPORT_H */
