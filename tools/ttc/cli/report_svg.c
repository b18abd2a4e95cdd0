// SPDX-License-Identifier: Apache-2.0
/* ttc report's pictures, hand-written SVG (report.h): the core grid with
 * the cores of each op, and live activation bytes over the ops. */
#include <inttypes.h>
#include <string.h>

#include "report.h"

#define CELL 36 /* a core, in pixels */
#define MARGIN 40

void report_xml_str(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			fputc(*s, f);
		}
}

/* Ops are placed from logical (0, 0): core (x, y) is used by every op
 * whose grid covers it. */
static unsigned ops_on_core(const struct tt_model_desc *d, unsigned x,
			    unsigned y)
{
	unsigned n = 0;
	struct tt_xy g;

	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++)
			n += view_op_grid(d, &d->programs[i].ops[k], &g) &&
			     x < g.x && y < g.y;
	return n;
}

static unsigned total_ops(const struct tt_model_desc *d)
{
	unsigned n = 0;

	for (unsigned i = 0; i < d->nprograms; i++)
		n += d->programs[i].nops;
	return n;
}

static void cores(FILE *f, const struct tt_model_desc *d)
{
	unsigned all = total_ops(d);

	for (unsigned y = 0; y < d->grid.y; y++)
		for (unsigned x = 0; x < d->grid.x; x++) {
			unsigned n = ops_on_core(d, x, y);
			/* Darker blue: more ops use the core. */
			unsigned shade = all ? 235 - 160 * n / all : 235;

			fprintf(f,
				"<rect class=\"core\" x=\"%u\" y=\"%u\" "
				"width=\"%u\" height=\"%u\" "
				"fill=\"rgb(%u,%u,255)\" "
				"stroke=\"#888\"><title>core (%u, %u): %u "
				"ops</title></rect>\n",
				MARGIN + x * CELL, MARGIN + y * CELL, CELL,
				CELL, shade, shade, x, y, n);
		}
}

/* Whether op k of program i is the first with its grid (one outline
 * per distinct grid). */
static bool first_grid(const struct tt_model_desc *d, unsigned i, unsigned k,
		       struct tt_xy *g)
{
	struct tt_xy h;

	if (!view_op_grid(d, &d->programs[i].ops[k], g))
		return false;
	for (unsigned a = 0; a <= i; a++)
		for (unsigned b = 0; b < (a == i ? k : d->programs[a].nops);
		     b++)
			if (view_op_grid(d, &d->programs[a].ops[b], &h) &&
			    h.x == g->x && h.y == g->y)
				return false;
	return true;
}

#define OPS_PER_LINE 6 /* legend lines stay inside the picture */

/* The names of the ops on grid g, from the from-th to before the to-th,
 * comma-separated; returns how many ops have that grid. */
static unsigned ops_with_grid(FILE *f, const struct tt_model_desc *d,
			      struct tt_xy g, unsigned from, unsigned to)
{
	unsigned n = 0;
	struct tt_xy h;

	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++)
			if (view_op_grid(d, &d->programs[i].ops[k], &h) &&
			    h.x == g.x && h.y == g.y) {
				if (f && n >= from && n < to) {
					fputs(n > from ? ", " : "", f);
					report_xml_str(
						f, d->programs[i].ops[k].name);
				}
				n++;
			}
	return n;
}

static unsigned legend_lines(const struct tt_model_desc *d, struct tt_xy g)
{
	return (ops_with_grid(NULL, d, g, 0, 0) + OPS_PER_LINE - 1) /
	       OPS_PER_LINE;
}

/* An outline per distinct grid, its label at its bottom-right corner,
 * and legend lines under the grid listing its ops. */
static void outlines(FILE *f, const struct tt_model_desc *d, unsigned y0)
{
	unsigned line = 0;
	struct tt_xy g;

	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++) {
			if (!first_grid(d, i, k, &g))
				continue;
			fprintf(f,
				"<g class=\"op-grid\"><rect x=\"%u\" y=\"%u\" "
				"width=\"%u\" height=\"%u\" fill=\"none\" "
				"stroke=\"#c00\" stroke-width=\"2\"><title>",
				MARGIN, MARGIN, g.x * CELL, g.y * CELL);
			ops_with_grid(f, d, g, 0, ~0u);
			fprintf(f,
				"</title></rect><text x=\"%u\" y=\"%u\" "
				"font-size=\"10\" text-anchor=\"end\" "
				"fill=\"#c00\">%ux%u</text>\n",
				MARGIN + g.x * CELL - 3,
				MARGIN + g.y * CELL - 3, g.x, g.y);
			for (unsigned l = 0; l < legend_lines(d, g); l++) {
				fprintf(f,
					"<text x=\"%u\" y=\"%u\" "
					"font-size=\"11\">",
					MARGIN, y0 + 16 * line++);
				if (!l)
					fprintf(f, "%ux%u: ", g.x, g.y);
				else
					fputs("    ", f);
				ops_with_grid(f, d, g, l * OPS_PER_LINE,
					      (l + 1) * OPS_PER_LINE);
				fprintf(f, "</text>\n");
			}
			fprintf(f, "</g>\n");
		}
}

static unsigned count_lines(const struct tt_model_desc *d)
{
	unsigned n = 0;
	struct tt_xy g;

	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++)
			if (first_grid(d, i, k, &g))
				n += legend_lines(d, g);
	return n;
}

void report_grid_svg(FILE *f, const struct tt_model_desc *d)
{
	unsigned w = 2 * MARGIN + d->grid.x * CELL;
	unsigned y0 = MARGIN + d->grid.y * CELL + 24;
	unsigned h = y0 + 16 * count_lines(d) + MARGIN;

	if (w < 640)
		w = 640;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		"height=\"%u\" viewBox=\"0 0 %u %u\" "
		"font-family=\"sans-serif\">\n"
		"<text x=\"%u\" y=\"24\" font-size=\"14\">",
		w, h, w, h, MARGIN);
	report_xml_str(f, d->arch);
	fprintf(f,
		": %ux%u cores; each op on the cores from (0, 0) of its grid "
		"(darker: more ops)</text>\n",
		d->grid.x, d->grid.y);
	cores(f, d);
	outlines(f, d, y0);
	fprintf(f, "</svg>\n");
}

/* ---- memory over the ops ---- */

#define CHART_W 720
#define CHART_H 240

static uint64_t peak(const struct tt_model_desc *d)
{
	uint64_t top = 1, l1, dram;

	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++) {
			report_live(d, &d->programs[i], k, &l1, &dram);
			top = l1 > top ? l1 : top;
			top = dram > top ? dram : top;
		}
	return top;
}

/* One series, l1 or DRAM, over every op of every program in order. */
static void series(FILE *f, const struct tt_model_desc *d, bool l1,
		   unsigned nops, uint64_t top)
{
	unsigned x = 0;
	uint64_t a, b;

	fprintf(f,
		"<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2\" points=\"",
		l1 ? "l1" : "dram", l1 ? "#06c" : "#c60");
	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++, x++) {
			report_live(d, &d->programs[i], k, &a, &b);
			fprintf(f, "%s%u,%u", x ? " " : "",
				MARGIN + (nops > 1 ? x * CHART_W / (nops - 1)
						   : 0),
				MARGIN + CHART_H -
					(unsigned)((l1 ? a : b) * CHART_H /
						   top));
		}
	fprintf(f, "\"/>\n");
}

/* A dashed line before each program's first op and each op that starts
 * another epoch, labelled. */
static void breaks(FILE *f, const struct tt_model_desc *d, unsigned nops)
{
	unsigned x = 0;

	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++, x++) {
			const struct tt_model_op *op = &d->programs[i].ops[k];
			unsigned e = view_op_stage(op, "epoch"),
				 px = MARGIN +
				      (nops > 1 ? x * CHART_W / (nops - 1) : 0);

			if (k && view_op_stage(op - 1, "epoch") == e)
				continue;
			fprintf(f,
				"<line class=\"break\" x1=\"%u\" y1=\"%u\" "
				"x2=\"%u\" y2=\"%u\" stroke=\"#999\" "
				"stroke-dasharray=\"4 3\"/>\n"
				"<text x=\"%u\" y=\"%u\" font-size=\"9\" "
				"fill=\"#666\">",
				px, MARGIN, px, MARGIN + CHART_H, px + 2,
				MARGIN - 4 + 10 * (x % 2));
			if (!k)
				report_xml_str(f, d->programs[i].name);
			fprintf(f, "%sepoch %u</text>\n", k ? "" : " ", e);
		}
}

void report_memory_svg(FILE *f, const struct tt_model_desc *d)
{
	unsigned nops = total_ops(d), w = CHART_W + 2 * MARGIN + 120;
	unsigned h = CHART_H + 2 * MARGIN + 30;
	uint64_t top = peak(d);

	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		"height=\"%u\" viewBox=\"0 0 %u %u\" "
		"font-family=\"sans-serif\">\n"
		"<text x=\"%u\" y=\"24\" font-size=\"14\">live activation "
		"bytes per op (%u ops)</text>\n"
		"<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" "
		"stroke=\"#000\"/>\n"
		"<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" "
		"stroke=\"#000\"/>\n"
		"<text x=\"%u\" y=\"%u\" font-size=\"10\" "
		"text-anchor=\"end\">%" PRIu64 "</text>\n"
		"<text x=\"%u\" y=\"%u\" font-size=\"10\" "
		"text-anchor=\"end\">0</text>\n"
		"<text x=\"%u\" y=\"%u\" font-size=\"10\">op index</text>\n",
		w, h, w, h, MARGIN, nops, MARGIN, MARGIN, MARGIN,
		MARGIN + CHART_H, MARGIN, MARGIN + CHART_H, MARGIN + CHART_W,
		MARGIN + CHART_H, MARGIN - 4, MARGIN + 4, top, MARGIN - 4,
		MARGIN + CHART_H, MARGIN + CHART_W / 2, MARGIN + CHART_H + 20);
	series(f, d, true, nops, top);
	series(f, d, false, nops, top);
	breaks(f, d, nops);
	fprintf(f,
		"<text x=\"%u\" y=\"%u\" font-size=\"11\" "
		"fill=\"#06c\">L1</text>\n"
		"<text x=\"%u\" y=\"%u\" font-size=\"11\" "
		"fill=\"#c60\">DRAM</text>\n"
		"</svg>\n",
		MARGIN + CHART_W + 10, MARGIN + 10, MARGIN + CHART_W + 10,
		MARGIN + 26);
}
