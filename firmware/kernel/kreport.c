// SPDX-License-Identifier: Apache-2.0
/*
 * The print ring and error reports (kernel_api/base.h).
 *
 * The ring (hw/l1.h): the kernel writes bytes at wr, the host reads at
 * rd, both free-running counts. The data goes in before wr moves. When
 * the ring is full the kernel sleeps on rd, which the host advances as it
 * reads -- unless nobody reads (printing off): then the kernel, about to
 * halt on an error report, drops the oldest bytes itself rather than wait
 * for ever.
 *
 * An error report is one line, formatted by a small printf of its own
 * (%s %c %d %u %x with l/ll, flags and widths skipped): every kernel
 * links this, only kernels that print link DPRINT's full formatter.
 */
#include "kinternal.h"

/* Is the next byte this run prints in the middle of a line? Zeroed at
 * each start (kstart.S): a run starts at the beginning of one. */
static bool mid_line;

uint32_t ttk_divmod10(uint64_t *v)
{
	uint32_t hi = (uint32_t)(*v >> 32), lo = (uint32_t)*v;
	uint32_t qhi = hi / 10, r = hi % 10, t, q1, q0;

	/* Long division by 16-bit digits: remainder:digit fits 32 bits. */
	t = r << 16 | lo >> 16;
	q1 = t / 10;
	r = t % 10;
	t = r << 16 | (lo & 0xFFFF);
	q0 = t / 10;
	r = t % 10;
	*v = (uint64_t)qhi << 32 | q1 << 16 | q0;
	return r;
}

static uint32_t min3(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t m = a < b ? a : b;

	return m < c ? m : c;
}

void ttk_ring_write(const char *s, uint32_t n)
{
	volatile struct tt_print_ring *r =
		(volatile struct tt_print_ring *)TT_L1_PRINT_RING(ttk_hart);
	bool drained = ttk_flags() & TT_KCTX_F_PRINT;

	while (n) {
		uint32_t wr = r->wr, rd = r->rd, room, at, chunk;

		/* Counts that make no sense (L1 never initialised): start
		 * again where the reader is. */
		if (wr - rd > TT_PRINT_DATA)
			wr = rd;
		room = TT_PRINT_DATA - (wr - rd);
		if (!room) {
			if (!drained) {
				r->rd = rd + (n < TT_PRINT_DATA ? n :
								 TT_PRINT_DATA);
				continue;
			}
			TTK_SET_WAYPOINT("DPW");
			tt_wait_ne(&r->rd, rd);
			TTK_SET_WAYPOINT("DPD");
			continue;
		}
		at = wr % TT_PRINT_DATA;
		chunk = min3(n, room, TT_PRINT_DATA - at);
		for (uint32_t i = 0; i < chunk; i++)
			r->data[at + i] = (uint8_t)s[i];
		ttk_fence();
		r->wr = wr + chunk;
		mid_line = s[chunk - 1] != '\n';
		s += chunk;
		n -= chunk;
	}
}

struct line {
	uint32_t n;
	char buf[TT_PRINT_DATA / 2];
};

static void add(struct line *l, char c)
{
	if (l->n < sizeof(l->buf) - 1)
		l->buf[l->n++] = c;
}

static void add_num(struct line *l, uint64_t v, bool hex)
{
	char rev[24];
	uint32_t n = 0;

	do {
		if (hex) {
			rev[n++] = "0123456789abcdef"[v & 15];
			v >>= 4;
		} else {
			rev[n++] = (char)('0' + ttk_divmod10(&v));
		}
	} while (v);
	while (n)
		add(l, rev[--n]);
}

static void format(struct line *l, const char *f, va_list ap)
{
	while (*f) {
		int size = 0;
		int64_t sv;

		if (*f != '%') {
			add(l, *f++);
			continue;
		}
		f++;
		while ((*f >= '0' && *f <= '9') || *f == '-' || *f == '.' ||
		       *f == '#' || *f == 'l')
			size += *f++ == 'l';
		switch (*f) {
		case 's':
			for (const char *s = va_arg(ap, const char *); *s; s++)
				add(l, *s);
			break;
		case 'c':
			add(l, (char)va_arg(ap, int));
			break;
		case 'd':
			sv = size >= 2 ? va_arg(ap, long long) : va_arg(ap, int);
			if (sv < 0)
				add(l, '-');
			add_num(l, sv < 0 ? -(uint64_t)sv : (uint64_t)sv,
				false);
			break;
		case 'u':
		case 'x':
			add_num(l, size >= 2 ? va_arg(ap, unsigned long long) :
					       va_arg(ap, unsigned int),
				*f == 'x');
			break;
		default:
			add(l, *f);
			break;
		}
		if (*f)
			f++;
	}
}

void ttk_fatal(const char *fmt, ...)
{
	struct line l = { .n = 0 };
	va_list ap;

	/* The report is a line of its own. */
	if (mid_line)
		add(&l, '\n');
	va_start(ap, fmt);
	format(&l, fmt, ap);
	va_end(ap);
	add(&l, '\n');
	ttk_ring_write(l.buf, l.n);
	TTK_SET_WAYPOINT("ERR!");
	ttk_fence();
	for (;;)
		__asm__ volatile("ebreak");
}
