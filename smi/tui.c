// SPDX-License-Identifier: Apache-2.0
/*
 * The live display (ncursesw): a header, an optional sidebar with host
 * information and a compatibility check, four tabs (device, telemetry,
 * firmware, processes) with one column per device, a status line and the
 * key hints. It redraws at every reading (--interval) and on every key or
 * resize; between them it sleeps in getch(), so an idle display costs
 * almost nothing. It fits 80x24: columns that do not fit are counted in
 * the tab's title instead.
 */
#include <curses.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smi.h"

#define SIDEBAR_W 28
#define LABEL_W 20
#define COL_W 14

enum pair { P_TITLE = 1, P_TAB, P_LABEL, P_OK, P_BAD, P_LIMIT, P_DIM };

enum tab { TAB_DEVICE, TAB_TELEMETRY, TAB_FIRMWARE, TAB_PROCESSES, TABS };

static const char *const tab_names[TABS] = {"Device", "Telemetry", "Firmware",
					    "Processes"};

struct ui {
	struct smi_dev *d;
	unsigned n;
	const struct smi_host *h;
	const struct smi_tui_opts *o;
	enum tab tab;
	bool sidebar, help, limits, averages, color;
	char status[160];
	struct smi_dump *dump;
	double dump_t0;
	/* Running sums for the averages view: [device][metric]. */
	double *sum;
	unsigned *count;
};

static void status(struct ui *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void status(struct ui *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->status, sizeof(u->status), fmt, ap);
	va_end(ap);
}

static attr_t color(const struct ui *u, enum pair p, attr_t mono)
{
	return u->color ? COLOR_PAIR(p) : mono;
}

static void setup_colors(struct ui *u)
{
	short fg = u->o->dark ? COLOR_BLACK : COLOR_WHITE;

	u->color = !u->o->no_color && has_colors();
	if (!u->color)
		return;
	start_color();
	use_default_colors();
	/* "dark" is for light terminal backgrounds: dark text colours. */
	init_pair(P_TITLE, COLOR_WHITE, u->o->dark ? COLOR_BLUE : COLOR_CYAN);
	init_pair(P_TAB, COLOR_BLACK, u->o->dark ? COLOR_YELLOW : COLOR_GREEN);
	init_pair(P_LABEL, u->o->dark ? COLOR_BLUE : COLOR_CYAN, -1);
	init_pair(P_OK, u->o->dark ? COLOR_GREEN : COLOR_GREEN, -1);
	init_pair(P_BAD, COLOR_RED, -1);
	init_pair(P_LIMIT, u->o->dark ? COLOR_MAGENTA : COLOR_YELLOW, -1);
	init_pair(P_DIM, fg, -1);
}

/* ---- readings ---- */

static void accumulate(struct ui *u)
{
	for (unsigned i = 0; i < u->n; i++) {
		const struct smi_dev *d = &u->d[i];

		for (unsigned m = 0; m < smi_nmetrics; m++) {
			const struct smi_metric *x = &smi_metrics[m];

			if (!d->have_telem ||
			    !TT_TELEM_HAS(&d->telem, x->field))
				continue;
			u->sum[i * smi_nmetrics + m] += x->value(&d->telem);
			u->count[i * smi_nmetrics + m]++;
		}
	}
}

static void read_all(struct ui *u)
{
	char err[SMI_ERR_LEN];

	for (unsigned i = 0; i < u->n; i++) {
		unsigned before = u->d[i].reopens;

		smi_refresh(&u->d[i]);
		if (u->d[i].reopens != before)
			status(u, "device %u was reset by another process; "
				  "reopened", i);
	}
	accumulate(u);
	if (u->dump &&
	    smi_dump_row(u->dump, smi_mono_s() - u->dump_t0, u->d, u->n)) {
		smi_dump_finish(u->dump, err, sizeof(err));
		u->dump = NULL;
		status(u, "dump stopped: cannot write to its files");
	}
}

/* ---- drawing helpers ---- */

static void fill_line(int y, attr_t a)
{
	attron(a);
	mvhline(y, 0, ' ', COLS);
	attroff(a);
}

static void header(struct ui *u)
{
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	attr_t a = color(u, P_TITLE, A_REVERSE) | A_BOLD;

	localtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%d %H:%M:%S", &tm);
	fill_line(0, a);
	attron(a);
	mvprintw(0, 1, "tt-smi %s", TT_PROJECT_VERSION);
	mvprintw(0, (COLS - 6) / 2, "TT-SMI");
	mvprintw(0, COLS - (int)strlen(now) - 1, "%s", now);
	attroff(a);
}

static void tabs(struct ui *u)
{
	int x = 1;

	move(1, 0);
	clrtoeol();
	for (int t = 0; t < TABS; t++) {
		attr_t a = t == (int)u->tab
				   ? color(u, P_TAB, A_REVERSE) | A_BOLD
				   : A_NORMAL;

		attron(a);
		mvprintw(1, x, " %d %s ", t + 1, tab_names[t]);
		attroff(a);
		x += (int)strlen(tab_names[t]) + 5;
	}
}

static void footer(struct ui *u)
{
	move(LINES - 2, 0);
	clrtoeol();
	if (u->status[0])
		mvprintw(LINES - 2, 1, "%.*s", COLS - 2, u->status);
	fill_line(LINES - 1, color(u, P_TITLE, A_REVERSE));
	attron(color(u, P_TITLE, A_REVERSE));
	mvprintw(LINES - 1, 1, "%.*s", COLS - 2,
		 "1-4 tabs  t sidebar  h help  w limits  v averages  s "
		 "snapshot  d dump  q quit");
	attroff(color(u, P_TITLE, A_REVERSE));
}

/* One "label: value" line of the sidebar. */
static void side_line(struct ui *u, int y, const char *label, attr_t va,
		      const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void side_line(struct ui *u, int y, const char *label, attr_t va,
		      const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	attron(color(u, P_LABEL, A_BOLD));
	mvprintw(y, 1, "%-8s", label);
	attroff(color(u, P_LABEL, A_BOLD));
	attron(va);
	printw(" %.*s", SIDEBAR_W - 11, buf);
	attroff(va);
}

static void sidebar(struct ui *u, int top)
{
	const struct smi_host *h = u->h;
	unsigned ok = 0;
	int y = top;

	for (unsigned i = 0; i < u->n; i++)
		ok += u->d[i].ok;
	attron(A_BOLD);
	mvprintw(y++, 1, "Host Info");
	attroff(A_BOLD);
	side_line(u, y++, "OS", 0, "%s %s", h->os, h->platform);
	side_line(u, y++, "Distro", 0, "%s", h->distro);
	side_line(u, y++, "Kernel", 0, "%s", h->kernel);
	side_line(u, y++, "Host", 0, "%s", h->hostname);
	side_line(u, y++, "Memory", 0, "%.1f GiB",
		  (double)h->memory_bytes / (1u << 30));
	y++;
	attron(A_BOLD);
	mvprintw(y++, 1, "Compatibility Check");
	attroff(A_BOLD);
	if (h->driver[0])
		side_line(u, y++, "Driver", color(u, P_OK, 0), "tenstorrent %s",
			  h->driver);
	else
		side_line(u, y++, "Driver", 0, "none (chip model)");
	side_line(u, y++, "Devices", 0, "%u", u->n);
	side_line(u, y++, "Healthy",
		  ok == u->n ? color(u, P_OK, 0) : color(u, P_BAD, A_BOLD),
		  "%u of %u", ok, u->n);
	if (u->n && u->d[0].have_telem) {
		char v[24];

		side_line(u, y++, "FW", 0, "%s",
			  smi_version(u->d[0].telem.fw_bundle, v, sizeof(v)));
	}
	for (int r = top; r < LINES - 2; r++)
		mvaddch(r, SIDEBAR_W, ACS_VLINE);
}

/* ---- the tables: one row per quantity, one column per device ---- */

struct grid {
	int x0, y;	/* left edge, next row */
	unsigned shown; /* devices that fit */
};

static void grid_head(struct ui *u, struct grid *g, const char *title)
{
	int avail = COLS - g->x0 - LABEL_W - 1;

	g->shown = avail > 0 ? (unsigned)(avail / COL_W) : 0;
	if (g->shown > u->n)
		g->shown = u->n;
	attron(A_BOLD);
	mvprintw(g->y, g->x0, "%-*.*s", LABEL_W, LABEL_W, title);
	for (unsigned i = 0; i < g->shown; i++)
		printw("%*s", COL_W, u->d[i].dev ? u->d[i].info.name : "?");
	if (g->shown < u->n)
		printw("  +%u more", u->n - g->shown);
	attroff(A_BOLD);
	g->y++;
}

static void grid_label(struct ui *u, struct grid *g, const char *label)
{
	attron(color(u, P_LABEL, 0));
	mvprintw(g->y, g->x0, "%-*.*s", LABEL_W, LABEL_W, label);
	attroff(color(u, P_LABEL, 0));
}

static void grid_cell(struct grid *g, unsigned i, attr_t a, const char *s)
{
	attron(a);
	mvprintw(g->y, g->x0 + LABEL_W + (int)(i * COL_W), "%*.*s", COL_W,
		 COL_W - 1, s);
	attroff(a);
}

static void tab_device(struct ui *u, struct grid *g)
{
	static const char *const rows[] = {"Transport",	"Board",	"Arch",
					   "Board ID",	"Tensix cores", "DRAM",
					   "PCIe link", "Health"};

	grid_head(u, g, "Device");
	for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		if (g->y >= LINES - 2)
			return;
		grid_label(u, g, rows[r]);
		for (unsigned i = 0; i < g->shown; i++) {
			const struct smi_dev *d = &u->d[i];
			char buf[40] = "-";
			attr_t a = 0;

			if (!d->dev && r != 7)
				snprintf(buf, sizeof(buf), "-");
			else if (r == 0)
				snprintf(buf, sizeof(buf), "%s",
					 d->info.transport);
			else if (r == 1)
				snprintf(buf, sizeof(buf), "%s", d->info.board);
			else if (r == 2)
				snprintf(buf, sizeof(buf), "%s",
					 d->info.arch_name);
			else if (r == 3 && d->have_telem &&
				 TT_TELEM_HAS(&d->telem, TT_TELEM_F_BOARD_ID))
				snprintf(
					buf, sizeof(buf), "%012llx",
					(unsigned long long)(d->telem.board_id &
							     0xFFFFFFFFFFFFull));
			else if (r == 4)
				snprintf(buf, sizeof(buf), "%u",
					 d->info.tensix_count);
			else if (r == 5)
				snprintf(
					buf, sizeof(buf), "%llu GiB ok",
					(unsigned long long)(d->info.dram_size >>
							     30));
			else if (r == 6)
				snprintf(buf, sizeof(buf), "model");
			else if (r == 7) {
				snprintf(buf, sizeof(buf), "%s", smi_health(d));
				a = d->ok && !d->nproblems ?
					    color(u, P_OK, 0) :
					    color(u, P_BAD, A_BOLD) | A_BOLD;
			}
			grid_cell(g, i, a, buf);
		}
		g->y++;
	}
	for (unsigned i = 0; i < u->n && g->y < LINES - 2; i++)
		if (!u->d[i].ok) {
			attron(color(u, P_BAD, A_BOLD));
			mvprintw(g->y++, g->x0, "%u: %.*s", i, COLS - g->x0 - 4,
				 u->d[i].error);
			attroff(color(u, P_BAD, A_BOLD));
		} else if (u->d[i].nproblems) {
			const struct tt_core_problem *p = &u->d[i].problems[0];

			attron(color(u, P_BAD, A_BOLD));
			mvprintw(g->y++, g->x0, "%u: core (%u,%u): %.*s", i,
				 p->core.x, p->core.y, COLS - g->x0 - 20,
				 p->why);
			attroff(color(u, P_BAD, A_BOLD));
		}
}

static void telemetry_cell(struct ui *u, struct grid *g, unsigned i, unsigned m)
{
	const struct smi_metric *x = &smi_metrics[m];
	const struct smi_dev *d = &u->d[i];
	const struct tt_telemetry *t = &d->telem;
	bool has = d->have_telem && TT_TELEM_HAS(t, x->field);
	bool has_limit = has && x->limit && TT_TELEM_HAS(t, x->limit_field);
	unsigned k = i * smi_nmetrics + m;
	double v = has ? x->value(t) : NAN;
	char buf[40];
	attr_t a = 0;

	if (u->averages && u->count[k])
		v = u->sum[k] / u->count[k];
	if (!has) {
		grid_cell(g, i, color(u, P_DIM, A_DIM), "---");
		return;
	}
	if (has_limit && v >= x->limit(t))
		a = color(u, P_BAD, A_BOLD) | A_BOLD |
		    (u->color ? 0 : A_REVERSE);
	if (u->limits && x->limit) {
		int w;

		snprintf(buf, sizeof(buf), "/ %s", has_limit ? "" : "---");
		if (has_limit)
			snprintf(buf, sizeof(buf), "/%.*f", x->decimals,
				 x->limit(t));
		w = (int)strlen(buf);
		grid_cell(g, i, color(u, P_LIMIT, A_UNDERLINE) | A_BOLD, buf);
		/* the value left of its limit */
		attron(a);
		mvprintw(g->y, g->x0 + LABEL_W + (int)(i * COL_W), "%*.*f",
			 COL_W - w, x->decimals, v);
		attroff(a);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*f", x->decimals, v);
	grid_cell(g, i, a, buf);
}

static void tab_telemetry(struct ui *u, struct grid *g)
{
	grid_head(u, g,
		  u->averages ? "Telemetry (averages)"
		  : u->limits ? "Telemetry (/limits)"
			      : "Telemetry");
	for (unsigned m = 0; m < smi_nmetrics && g->y < LINES - 2; m++) {
		char label[40];

		snprintf(label, sizeof(label), "%s (%s)", smi_metrics[m].name,
			 smi_metrics[m].unit);
		grid_label(u, g, label);
		for (unsigned i = 0; i < g->shown; i++)
			telemetry_cell(u, g, i, m);
		g->y++;
	}
	if (g->y < LINES - 2) {
		grid_label(u, g, "Heartbeat");
		for (unsigned i = 0; i < g->shown; i++) {
			char buf[16] = "---";

			if (u->d[i].have_telem)
				snprintf(buf, sizeof(buf), "%u",
					 (unsigned)u->d[i].telem.heartbeat);
			grid_cell(g, i, 0, buf);
		}
		g->y++;
	}
}

static void tab_firmware(struct ui *u, struct grid *g)
{
	static const struct {
		const char *label;
		size_t off;
	} rows[] = {
		{"FW Bundle", offsetof(struct tt_telemetry, fw_bundle)},
		{"CM FW", offsetof(struct tt_telemetry, fw_cm)},
		{"Core FW", offsetof(struct tt_telemetry, fw_core)},
		{"ETH FW", offsetof(struct tt_telemetry, fw_eth)},
		{"DM App FW", offsetof(struct tt_telemetry, fw_dm_app)},
		{"DM BL FW", offsetof(struct tt_telemetry, fw_dm_bl)},
		{"tt-flash", offsetof(struct tt_telemetry, fw_tt_flash)},
	};

	grid_head(u, g, "Firmware");
	for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		if (g->y >= LINES - 2)
			return;
		grid_label(u, g, rows[r].label);
		for (unsigned i = 0; i < g->shown; i++) {
			const struct smi_dev *d = &u->d[i];
			uint32_t v = 0;
			char buf[24];

			if (d->have_telem)
				memcpy(&v,
				       (const char *)&d->telem + rows[r].off,
				       sizeof(v));
			smi_version(v, buf, sizeof(buf));
			grid_cell(g, i, 0, buf[0] ? buf : "---");
		}
		g->y++;
	}
}

static void tab_processes(struct ui *u, struct grid *g)
{
	static struct smi_proc p[SMI_MAX_PIDS];
	unsigned k = smi_processes(u->d, u->n, p, SMI_MAX_PIDS);
	int w = COLS - g->x0 - 26;

	attron(A_BOLD);
	mvprintw(g->y++, g->x0, "%-8s %-10s %-5s %s", "PID", "USER", "DEV",
		 "COMMAND");
	attroff(A_BOLD);
	if (!k)
		mvprintw(g->y++, g->x0, "no other process uses a device");
	for (unsigned i = 0; i < k && g->y < LINES - 2; i++)
		mvprintw(g->y++, g->x0, "%-8d %-10.10s %-5u %.*s", p[i].pid,
			 p[i].user, p[i].device, w > 0 ? w : 0, p[i].cmdline);
}

static void help_box(struct ui *u)
{
	static const char *const lines[] = {
		"Keys",
		"",
		"1 2 3 4   device, telemetry, firmware, processes",
		"t         show or hide the host sidebar",
		"w         telemetry: show limits (value/limit)",
		"v         telemetry: averages since start",
		"s         write a snapshot (JSON) to tt-smi-logs/",
		"d         start or stop a telemetry dump (CSV)",
		"h         this help        q  quit",
		"",
		"Values at or over their limit are highlighted.",
	};
	int nl = (int)(sizeof(lines) / sizeof(lines[0]));
	int w = 54 < COLS - 2 ? 54 : COLS - 2, y0 = (LINES - nl - 2) / 2,
	    x0 = (COLS - w) / 2;

	(void)u;
	for (int r = 0; r < nl + 2; r++)
		mvhline(y0 + r, x0, ' ', w);
	attron(A_BOLD);
	mvaddch(y0, x0, ACS_ULCORNER);
	mvhline(y0, x0 + 1, ACS_HLINE, w - 2);
	mvaddch(y0, x0 + w - 1, ACS_URCORNER);
	mvaddch(y0 + nl + 1, x0, ACS_LLCORNER);
	mvhline(y0 + nl + 1, x0 + 1, ACS_HLINE, w - 2);
	mvaddch(y0 + nl + 1, x0 + w - 1, ACS_LRCORNER);
	mvvline(y0 + 1, x0, ACS_VLINE, nl);
	mvvline(y0 + 1, x0 + w - 1, ACS_VLINE, nl);
	attroff(A_BOLD);
	for (int r = 0; r < nl; r++)
		mvprintw(y0 + 1 + r, x0 + 2, "%.*s", w - 4, lines[r]);
}

static void draw(struct ui *u)
{
	bool side = u->sidebar && COLS >= SIDEBAR_W + LABEL_W + COL_W + 2;
	struct grid g = {.x0 = side ? SIDEBAR_W + 2 : 1, .y = 3};

	erase();
	header(u);
	tabs(u);
	if (side)
		sidebar(u, 3);
	switch (u->tab) {
	case TAB_DEVICE:
		tab_device(u, &g);
		break;
	case TAB_TELEMETRY:
		tab_telemetry(u, &g);
		break;
	case TAB_FIRMWARE:
		tab_firmware(u, &g);
		break;
	default:
		tab_processes(u, &g);
	}
	footer(u);
	if (u->help)
		help_box(u);
	refresh();
}

/* ---- keys ---- */

static void snapshot_key(struct ui *u)
{
	char path[512], err[SMI_ERR_LEN];
	FILE *f;

	if (smi_default_snapshot_path(path, sizeof(path), err, sizeof(err))) {
		status(u, "snapshot: %s", err);
		return;
	}
	f = fopen(path, "w");
	if (!f || smi_snapshot_write(f, u->h, u->d, u->n, false)) {
		status(u, "snapshot: cannot write %s", path);
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	status(u, "snapshot written to %s", path);
}

static void dump_key(struct ui *u)
{
	char err[SMI_ERR_LEN];

	if (u->dump) {
		char dir[512];

		snprintf(dir, sizeof(dir), "%s", smi_dump_dir(u->dump));
		if (smi_dump_finish(u->dump, err, sizeof(err)))
			status(u, "dump: %s", err);
		else
			status(u, "dump stopped; written to %s", dir);
		u->dump = NULL;
		return;
	}
	if (smi_dump_start(&u->dump, u->o->dump_dir, u->d, u->n, err,
			   sizeof(err))) {
		status(u, "dump: %s", err);
		return;
	}
	u->dump_t0 = smi_mono_s();
	status(u, "dumping to %s (d to stop)", smi_dump_dir(u->dump));
}

/* Returns false to quit. */
static bool key(struct ui *u, int c)
{
	switch (c) {
	case 'q':
	case 'Q':
		return false;
	case '1':
	case '2':
	case '3':
	case '4':
		u->tab = (enum tab)(c - '1');
		break;
	case 't':
		u->sidebar = !u->sidebar;
		break;
	case 'h':
		u->help = !u->help;
		break;
	case 'w':
		u->limits = !u->limits;
		break;
	case 'v':
		u->averages = !u->averages;
		break;
	case 's':
		snapshot_key(u);
		break;
	case 'd':
		dump_key(u);
		break;
	case 27: /* Esc closes the help */
		u->help = false;
		break;
	default:
		break;
	}
	return true;
}

int smi_tui(struct smi_dev *d, unsigned n, const struct smi_host *h,
	    const struct smi_tui_opts *o)
{
	struct ui u = {.d = d,
		       .n = n,
		       .h = h,
		       .o = o,
		       .tab = TAB_TELEMETRY,
		       .sidebar = true};
	double next;
	char err[SMI_ERR_LEN];

	u.sum = calloc((size_t)n * smi_nmetrics, sizeof(*u.sum));
	u.count = calloc((size_t)n * smi_nmetrics, sizeof(*u.count));
	if (!u.sum || !u.count) {
		free(u.sum);
		free(u.count);
		fprintf(stderr, "tt-smi: out of memory\n");
		return SMI_EXIT_ERROR;
	}
	setlocale(LC_ALL, "");
	initscr();
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	setup_colors(&u);
	accumulate(&u);
	next = smi_mono_s() + o->interval_s;
	for (;;) {
		double left = next - smi_mono_s();
		int c;

		draw(&u);
		timeout(left > 0 ? (int)(left * 1000.0) + 1 : 0);
		c = getch();
		if (c != ERR && !key(&u, c))
			break;
		if (smi_mono_s() >= next) {
			read_all(&u);
			next += o->interval_s;
			if (next < smi_mono_s())
				next = smi_mono_s() + o->interval_s;
		}
	}
	endwin();
	if (u.dump)
		smi_dump_finish(u.dump, err, sizeof(err));
	free(u.sum);
	free(u.count);
	return SMI_EXIT_OK;
}
