// SPDX-License-Identifier: Apache-2.0
/*
 * ttsim: serve simulated chips to other processes (docs/ttsim.md).
 *
 *   start, run   build the devices and serve them (server.h)
 *   stop         ask daemons to shut down, and wait until they have
 *   list         what the runtime directory publishes
 *
 * `start` daemonizes. The parent waits on a pipe until the daemon reports
 * that every device is published, or why it could not, so a script can run
 * `ttsim start && app` without racing the daemon. The report is one status
 * byte ('0' ready, '1' failed) followed by the text the parent prints.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/board.h"
#include "guestram.h"
#include "proto.h"
#include "rundir.h"
#include "server.h"
#include "common/soc_desc.h"

#define EXIT_USAGE 2
#define EXIT_NO_DEVICE 3 /* the same in every tool: tools/README.md */
#define STOP_TIMEOUT_MS 10000
#define REPLY_TIMEOUT_S 5
#define LINE_LEN 160
#define PATH_LEN 320
#define GUEST_LINE_LEN 512
/* What start-up reports: a line per device, the guest RAM's lines. */
#define REPORT_LEN (SIM_MAX_DEVICES * LINE_LEN + 2 * GUEST_LINE_LEN)

static const char help_head[] =
"Usage: ttsim start [--board BOARD] [--count N] [--name NAME[,NAME...]]\n"
"                   [--threads N] [--ivshmem PATH [--guest-ram SIZE]]\n"
"                   [--foreground]\n"
"       ttsim run [--board BOARD] [--count N] [--name NAME[,NAME...]]\n"
"                 [--threads N] [--ivshmem PATH [--guest-ram SIZE]]\n"
"       ttsim stop [--all | NAME...]\n"
"       ttsim list\n"
"       ttsim --help | --version\n"
"\n"
"ttsim serves simulated Tenstorrent-class accelerator boards. Each chip is\n"
"published as a named device in the runtime directory; applications (through\n"
"libtt) and tt-smi attach to a device by name and share its memory with the\n"
"daemon. Nothing is written to /dev/shm: memory is passed as file\n"
"descriptors, so it goes away with the processes that hold it.\n"
"\n"
"Commands:\n"
"  start   Build the devices, publish them and serve them from a daemon in\n"
"          the background. Returns when every device is ready, printing one\n"
"          line per device, for example\n"
"            tt0: n150 chip 0, wormhole_b0, grid 10x12, 72 Tensix, pid 1234\n"
"          or fails without leaving anything behind.\n"
"  run     The same as start --foreground.\n"
"  stop    Ask the daemons serving the named devices to shut down and wait\n"
"          (up to 10 s) until they have. Without names, or with --all, stops\n"
"          every published device. A daemon stops all of its devices, not\n"
"          only the one named. Files left by a daemon that died (a stale\n"
"          socket) are removed and reported.\n"
"  list    One line per published device, as start prints it; a device whose\n"
"          daemon died is flagged stale.\n"
"\n"
"Options for start and run:\n"
"  -b, --board BOARD     The board to simulate:\n";

static const char help_tail[] =
"  -c, --count N         Number of boards (default 1). A board with several\n"
"                        chips gives one device per chip: --board n300\n"
"                        --count 2 gives four devices.\n"
"  -n, --name NAME[,NAME...]\n"
"                        Device names, one per chip in board order (letters,\n"
"                        digits, '_' and '-', at most 31 characters). The\n"
"                        default is tt0, tt1, ...\n"
"  -t, --threads N       Threads that run each device's harts (default: one\n"
"                        per online CPU; 1 runs them in a reproducible\n"
"                        order). Also TT_SIM_THREADS.\n"
"  -i, --ivshmem PATH    Also offer the devices to QEMU guests as\n"
"                        ivshmem-doorbell PCI devices (BAR2 is the device\n"
"                        image). If PATH is a directory, device NAME is\n"
"                        served on the unix socket PATH/NAME.ivshmem;\n"
"                        otherwise PATH is the socket itself, which needs\n"
"                        exactly one device. Start QEMU with\n"
"                          -chardev socket,path=SOCK,id=tt0\n"
"                          -device ivshmem-doorbell,chardev=tt0,vectors=1\n"
"                        One guest per socket at a time; another is\n"
"                        turned away until the first disconnects. A stale\n"
"                        socket at the path is replaced; any other file\n"
"                        there is an error. The guest is peer 0, the\n"
"                        device peer 1: writing 0x10000 to BAR0 offset 12\n"
"                        rings the device's doorbell, and the device's\n"
"                        interrupts arrive as MSI-X vector 0.\n"
"  -g, --guest-ram SIZE[,lowmem=BYTES]\n"
"                        With --ivshmem: make the guest's RAM, SIZE bytes\n"
"                        (512M, 4G; a multiple of 4 KiB, at most 512G), so\n"
"                        that the devices reach it for DMA at guest-physical\n"
"                        addresses. ttsim prints the line\n"
"                          guest RAM: /proc/PID/fd/N, ...; QEMU: OPTIONS\n"
"                        with the QEMU options that use it:\n"
"                          -object memory-backend-file,id=ram0,size=SIZE,\n"
"                            mem-path=/proc/PID/fd/N,share=on\n"
"                          -machine pc,memory-backend=ram0 -m SIZE\n"
"                        RAM below 4 GiB ends at lowmem, as QEMU's pc\n"
"                        machine makes it (3.5 GiB, or 3 GiB when the RAM\n"
"                        does not fit below 3.5 GiB); the rest is at 4 GiB.\n"
"                        Give lowmem= if QEMU splits the RAM elsewhere.\n"
"                        All the devices share it: they go to one VM.\n"
"  -f, --foreground      Serve from this process instead of a daemon; log to\n"
"                        standard error; stop on SIGTERM, SIGINT or SIGHUP\n"
"                        (a daemon stops on those signals too).\n"
"\n"
"Options for stop:\n"
"  -a, --all             Stop every published device (the default when no\n"
"                        name is given).\n"
"\n"
"Options for every command:\n"
"  -h, --help            Show this help and exit.\n"
"  -V, --version         Show the version and exit (alone, as the command).\n"
"\n"
"Runtime directory:\n"
"  $TTSIM_RUNTIME_DIR if set, else $XDG_RUNTIME_DIR/ttsim, else\n"
"  /tmp/ttsim-UID. It is created with mode 0700 and refused if another user\n"
"  owns it or others may write to it. A device NAME is published as\n"
"  NAME.sock, its control socket (mode 0600), and NAME.lock, locked with\n"
"  flock(2) by the daemon serving it and holding that daemon's pid. A name\n"
"  belongs to one daemon at a time: a second start with a taken name fails\n"
"  and says which daemon has it.\n"
"\n"
"  When a client dies, the daemon releases everything it held. When a\n"
"  daemon dies, its files stay behind, stale; the next start of the same\n"
"  name, or stop, removes them.\n"
"\n"
"Exit status:\n"
"  0   Success.\n"
"  1   Failure: a name is already served, a daemon did not answer or\n"
"      did not stop within 10 s, a device could not be built, or the\n"
"      runtime directory is unusable.\n"
"  2   Usage error: unknown command, option or board, a bad count, or a\n"
"      number of names that does not match the number of chips.\n"
"  3   No device: list finds none published, or a name given to stop is\n"
"      not served (stop without names, when none are, is success).\n"
"\n"
"Examples:\n"
"  ttsim start                          one n150, as tt0\n"
"  ttsim start --board n300 --count 2   two n300 boards, as tt0 to tt3\n"
"  ttsim start --board p150 --name bh0  one p150, as bh0\n"
"  ttsim start --ivshmem /tmp/tt0.sock  one n150 for a QEMU guest too\n"
"  ttsim run --ivshmem /tmp/tt0.sock --guest-ram 512M\n"
"                                       and the guest's RAM for DMA\n"
"  ttsim list\n"
"  ttsim stop tt0\n"
"  ttsim stop --all\n"
"\n"
"See docs/ttsim.md.\n";

static void print_help(FILE *f)
{
	fputs(help_head, f);
	for (const struct board_info *const *b = board_list(); *b; b++)
		fprintf(f, "                          %-5s %s%s\n", (*b)->name,
			(*b)->summary,
			strcmp((*b)->name, BOARD_DEFAULT) ? "" : " (default)");
	fputs(help_tail, f);
}

/* "ttsim: <message>" on stderr, without the newline. */
static void vsay(const char *fmt, va_list ap)
{
	fputs("ttsim: ", stderr);
	vfprintf(stderr, fmt, ap);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	fputs("\nTry 'ttsim --help'.\n", stderr);
	return EXIT_USAGE;
}

static int failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int failure(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

/* "n150, n300, p150, e150" */
static const char *board_names(void)
{
	static char buf[128];
	size_t n = 0;

	buf[0] = 0;
	for (const struct board_info *const *b = board_list(); *b; b++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      n ? ", " : "", (*b)->name);
	return buf;
}

/* Report a getopt failure; argv[optind - 1] is the offending word. */
static int bad_option(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return usage_error("%s: option '%s' needs a value", cmd,
				   argv[optind - 1]);
	if (optopt)
		return usage_error("%s: unknown option '-%c'", cmd, optopt);
	return usage_error("%s: unknown option '%s'", cmd, argv[optind - 1]);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void format_device(char *buf, size_t len, const char *name,
			  const char *board, unsigned chip, const char *arch,
			  unsigned gx, unsigned gy, unsigned tensix, long pid)
{
	snprintf(buf, len, "%s: %s chip %u, %s, grid %ux%u, %u Tensix, pid %ld",
		 name, board, chip, arch, gx, gy, tensix, pid);
}

/* ------------------------------------------------------------------ */
/* start, run                                                          */
/* ------------------------------------------------------------------ */

struct start_opts {
	const struct board_info *board;
	unsigned count; /* boards */
	unsigned ndev; /* count * chips per board */
	char names[SIM_MAX_DEVICES][SIM_NAME_MAX];
	const char *ivshmem; /* --ivshmem as given, or NULL */
	char ivshmem_path[SIM_MAX_DEVICES][PATH_LEN]; /* absolute, per device */
	const char *guest_ram; /* --guest-ram as given, or NULL */
	struct sim_guest_layout guest; /* parsed from it */
	bool foreground;
};

static int parse_count(const char *s, unsigned *out)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < 1 || v > SIM_MAX_DEVICES)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* Split "a,b,c" into o->names; returns how many names there were. */
static int split_names(struct start_opts *o, const char *list)
{
	const char *p = list;
	int n = 0;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (n < SIM_MAX_DEVICES) {
			if (len >= SIM_NAME_MAX) {
				usage_error("invalid device name '%.*s': at most %d characters",
					    (int)len, p, SIM_NAME_MAX - 1);
				return -1;
			}
			memcpy(o->names[n], p, len);
			o->names[n][len] = 0;
			if (!sim_name_valid(o->names[n])) {
				usage_error("invalid device name '%s': use letters, digits, '_' and '-'",
					    o->names[n]);
				return -1;
			}
			for (int j = 0; j < n; j++) {
				if (!strcmp(o->names[j], o->names[n])) {
					usage_error("device name '%s' is given twice",
						    o->names[n]);
					return -1;
				}
			}
		}
		n++;
		if (!p[len])
			return n;
		p += len + 1;
	}
}

static int check_names(struct start_opts *o, const char *list)
{
	int n;

	if (!list) {
		for (unsigned i = 0; i < o->ndev; i++)
			snprintf(o->names[i], SIM_NAME_MAX, "tt%u", i);
		return 0;
	}
	n = split_names(o, list);
	if (n < 0)
		return EXIT_USAGE;
	if ((unsigned)n != o->ndev)
		return usage_error("--name gives %d name%s, but %u %s board%s %s %u chip%s; give one name per chip",
				   n, n == 1 ? "" : "s", o->count,
				   o->board->name, o->count == 1 ? "" : "s",
				   o->ndev == 1 ? "has" : "have", o->ndev,
				   o->ndev == 1 ? "" : "s");
	return 0;
}

/*
 * The ivshmem socket of each device (--ivshmem): PATH/NAME.ivshmem if PATH
 * is a directory, else PATH itself for the one device. Made absolute: the
 * daemon leaves the current directory.
 */
static int ivshmem_paths(struct start_opts *o)
{
	char cwd[PATH_MAX], base[PATH_LEN];
	struct stat st;
	bool dir;
	int n;

	if (!o->ivshmem)
		return 0;
	if (!*o->ivshmem)
		return usage_error("--ivshmem needs a socket path or a directory");
	if (o->ivshmem[0] == '/') {
		n = snprintf(base, sizeof(base), "%s", o->ivshmem);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return failure("getcwd: %s", strerror(errno));
		n = snprintf(base, sizeof(base), "%s/%s", cwd, o->ivshmem);
	}
	if (n < 0 || (size_t)n >= sizeof(base))
		return usage_error("--ivshmem '%s': the path is too long",
				   o->ivshmem);
	dir = stat(base, &st) == 0 && S_ISDIR(st.st_mode);
	if (!dir && o->ndev > 1)
		return usage_error("--ivshmem '%s' is not a directory, but there are %u devices: give a directory to get one socket per device (DIR/NAME.ivshmem)",
				   o->ivshmem, o->ndev);
	for (unsigned i = 0; i < o->ndev; i++) {
		char path[PATH_LEN];

		n = dir ? snprintf(path, sizeof(path), "%s/%s.ivshmem", base,
				   o->names[i]) :
			  snprintf(path, sizeof(path), "%s", base);
		if (n < 0 || (size_t)n >= sizeof(path))
			return usage_error("--ivshmem '%s': the path is too long",
					   o->ivshmem);
		memcpy(o->ivshmem_path[i], path, sizeof(path));
	}
	return 0;
}

static int check_guest_ram(struct start_opts *o)
{
	char err[SIM_ERR_LEN];

	if (!o->guest_ram)
		return 0;
	if (!o->ivshmem)
		return usage_error("--guest-ram needs --ivshmem: the RAM is a QEMU guest's");
	if (sim_guest_layout_parse(o->guest_ram, &o->guest, err))
		return usage_error("--guest-ram '%s': %s", o->guest_ram, err);
	return 0;
}

static int parse_start(int argc, char **argv, struct start_opts *o)
{
	static const struct option longopts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "count", required_argument, NULL, 'c' },
		{ "name", required_argument, NULL, 'n' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "threads", required_argument, NULL, 't' },
		{ "ivshmem", required_argument, NULL, 'i' },
		{ "guest-ram", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *board = BOARD_DEFAULT, *names = NULL;
	unsigned threads;
	int c, ret;

	o->count = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:c:n:ft:i:g:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			board = optarg;
			break;
		case 'c':
			if (parse_count(optarg, &o->count))
				return usage_error("bad count '%s': give a number of boards from 1 to %d",
						   optarg, SIM_MAX_DEVICES);
			break;
		case 'n':
			names = optarg;
			break;
		case 'f':
			o->foreground = true;
			break;
		case 't':
			/* The model reads its thread count from the
			 * environment, so the daemon inherits it. */
			if (parse_count(optarg, &threads))
				return usage_error("bad thread count '%s': give a number from 1 to %d",
						   optarg, SIM_MAX_DEVICES);
			setenv("TT_SIM_THREADS", optarg, 1);
			break;
		case 'i':
			o->ivshmem = optarg;
			break;
		case 'g':
			o->guest_ram = optarg;
			break;
		case 'h':
			print_help(stdout);
			return -1;
		default:
			return bad_option(argv[0], c, argv);
		}
	}
	if (optind < argc)
		return usage_error("%s: unexpected argument '%s'", argv[0],
				   argv[optind]);
	o->board = board_find(board);
	if (!o->board)
		return usage_error("unknown board '%s'; valid boards: %s", board,
				   board_names());
	o->ndev = o->count * o->board->chips;
	if (o->ndev > SIM_MAX_DEVICES)
		return usage_error("%u %s boards have %u chips; a daemon serves at most %d",
				   o->count, o->board->name, o->ndev,
				   SIM_MAX_DEVICES);
	ret = check_names(o, names);
	if (!ret)
		ret = ivshmem_paths(o);
	return ret ? ret : check_guest_ram(o);
}

/* Load each chip's descriptor and describe every device to serve. */
static int build_specs(const struct start_opts *o, struct soc_desc *socs,
		       struct sim_server_spec *spec)
{
	char err[SOC_ERR_MAX];
	unsigned chips = o->board->chips;

	for (unsigned c = 0; c < chips; c++)
		if (soc_desc_builtin(o->board->soc[c], &socs[c], err, sizeof(err)))
			return failure("board %s: %s", o->board->name, err);
	for (unsigned i = 0; i < o->ndev; i++) {
		spec[i].name = o->names[i];
		spec[i].soc = &socs[i % chips];
		spec[i].board = o->board->id;
		spec[i].chip = i % chips;
		spec[i].ivshmem = o->ivshmem ? o->ivshmem_path[i] : NULL;
	}
	return 0;
}

/*
 * The daemon leaves the directory it was started in (so it does not hold
 * a mount busy); a relative runtime directory must survive that. Creating
 * it here also reports a bad directory before anything forks.
 */
static int prepare_rundir(void)
{
	char dir[256], abs[PATH_MAX], err[SIM_ERR_LEN];

	if (sim_rundir(dir, sizeof(dir), 1, err))
		return failure("%s", err);
	if (dir[0] == '/')
		return 0;
	if (!realpath(dir, abs))
		return failure("%s: %s", dir, strerror(errno));
	if (setenv("TTSIM_RUNTIME_DIR", abs, 1) < 0)
		return failure("setenv: %s", strerror(errno));
	return 0;
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

/* Tell whoever waits how start-up went: the parent through report_fd, or
 * our own terminal when there is no parent (-1). */
static void report(int report_fd, bool ok, const char *text)
{
	if (report_fd < 0) {
		fputs(text, ok ? stdout : stderr);
		fflush(ok ? stdout : stderr);
		return;
	}
	write_all(report_fd, ok ? "0" : "1", 1);
	write_all(report_fd, text, strlen(text));
	close(report_fd);
}

/* The guest's RAM, made in the process that serves (its descriptor is
 * what QEMU opens), or NULL without --guest-ram. */
static int make_guest_ram(const struct start_opts *o,
			  struct sim_guest_ram **gr, char *err)
{
	*gr = NULL;
	return o->guest_ram ? sim_guest_ram_create(&o->guest, gr, err) : 0;
}

/* "guest RAM: PATH, SIZE bytes, lowmem L; QEMU: OPTIONS" and, if QEMU's pc
 * machine cannot split the RAM at lowmem, a note saying so. */
static void describe_guest_ram(const struct sim_guest_ram *gr, char *buf,
			       size_t len)
{
	char args[GUEST_LINE_LEN];
	int ret = sim_guest_ram_qemu_args(gr, args, sizeof(args));
	int n;

	n = snprintf(buf, len, "guest RAM: %s, %llu bytes, lowmem %llu; QEMU: %s\n",
		     gr->path, (unsigned long long)gr->layout.size,
		     (unsigned long long)gr->layout.lowmem, args);
	if (ret && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n,
			 "note: QEMU's pc machine cannot put lowmem=%llu bytes below 4 GiB with %llu bytes of RAM; set QEMU up to split it there\n",
			 (unsigned long long)gr->layout.lowmem,
			 (unsigned long long)gr->layout.size);
}

static int serve(const struct start_opts *o, struct sim_server_spec *spec,
		 int report_fd)
{
	char err[SIM_ERR_LEN], text[REPORT_LEN];
	struct sim_guest_ram *gr;
	struct sim_server *srv = NULL;
	size_t n = 0;
	int ret;

	ret = make_guest_ram(o, &gr, err);
	for (unsigned i = 0; i < o->ndev; i++)
		spec[i].guest_ram = gr;
	if (!ret)
		ret = sim_server_create(spec, o->ndev, &srv, err);
	if (ret) {
		snprintf(text, sizeof(text), "ttsim: %s\n", err);
		report(report_fd, false, text);
		sim_guest_ram_destroy(gr);
		return EXIT_FAILURE;
	}
	for (unsigned i = 0; i < o->ndev; i++) {
		const struct soc_desc *d = spec[i].soc;
		char line[LINE_LEN];

		format_device(line, sizeof(line), spec[i].name, o->board->name,
			      spec[i].chip, soc_arch_name(d->arch), d->grid_x,
			      d->grid_y, d->tensix_count, (long)getpid());
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\n", line);
	}
	if (gr)
		describe_guest_ram(gr, text + n, sizeof(text) - n);
	report(report_fd, true, text);
	ret = sim_server_run(srv, err);
	sim_server_destroy(srv);
	sim_guest_ram_destroy(gr);
	if (ret)
		return failure("%s", err);
	return 0;
}

/* The daemon's side of the fork: a session of its own, no terminal, no
 * descriptors but the report pipe. */
static int detach(int report_fd)
{
	int null;

	if (setsid() < 0)
		return -errno;
	null = open("/dev/null", O_RDWR);
	if (null < 0)
		return -errno;
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	if (null > STDERR_FILENO)
		close(null);
	/* Inherited descriptors would keep pipes of whoever started us open
	 * (a test harness waiting for end of output would hang). */
	if (report_fd > STDERR_FILENO + 1)
		close_range(STDERR_FILENO + 1, (unsigned)report_fd - 1, 0);
	close_range((unsigned)report_fd + 1, ~0u, 0);
	if (chdir("/") < 0)
		return -errno;
	/* If the parent dies before reading our report, a write must fail,
	 * not kill us. */
	signal(SIGPIPE, SIG_IGN);
	umask(077);
	return 0;
}

/* The parent's side: print the daemon's report and return the exit code. */
static int wait_ready(int fd, pid_t pid)
{
	char buf[REPORT_LEN + SIM_ERR_LEN];
	size_t n = 0;
	int st;

	while (n < sizeof(buf) - 1) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	close(fd);
	if (n && buf[0] == '0') {
		fputs(buf + 1, stdout);
		return 0;
	}
	/* It failed and exits, or died: do not leave a zombie. */
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (n) {
		fputs(buf + 1, stderr);
		return EXIT_FAILURE;
	}
	if (WIFSIGNALED(st))
		return failure("the daemon was killed by SIG%s during start-up",
			       sigabbrev_np(WTERMSIG(st)));
	return failure("the daemon exited during start-up (status %d)",
		       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

static int daemonize(const struct start_opts *o,
		     struct sim_server_spec *spec)
{
	int pfd[2], ret;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return failure("pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		ret = failure("fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return ret;
	}
	if (pid > 0) {
		close(pfd[1]);
		return wait_ready(pfd[0], pid);
	}
	close(pfd[0]);
	ret = detach(pfd[1]);
	if (ret) {
		char text[SIM_ERR_LEN];

		snprintf(text, sizeof(text), "ttsim: cannot daemonize: %s\n",
			 strerror(-ret));
		report(pfd[1], false, text);
		return EXIT_FAILURE;
	}
	return serve(o, spec, pfd[1]);
}

static int cmd_start(int argc, char **argv, bool foreground)
{
	struct sim_server_spec spec[SIM_MAX_DEVICES];
	struct start_opts o = { .foreground = foreground };
	struct soc_desc *socs;
	int ret;

	ret = parse_start(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = prepare_rundir();
	if (ret)
		return ret;
	socs = calloc(BOARD_MAX_CHIPS, sizeof(*socs));
	if (!socs)
		return failure("out of memory");
	ret = build_specs(&o, socs, spec);
	if (!ret)
		ret = o.foreground ? serve(&o, spec, -1) : daemonize(&o, spec);
	free(socs);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Talking to published devices: list, stop                            */
/* ------------------------------------------------------------------ */

enum probe_state {
	PROBE_OK, /* the daemon answered */
	PROBE_STALE, /* socket refuses, nobody holds the name */
	PROBE_GONE, /* the socket vanished since we listed it */
	PROBE_ERROR, /* see err */
};

struct probe {
	char name[SIM_NAME_MAX];
	enum probe_state state;
	long pid;
	unsigned board, chip;
	struct tt_identity id; /* with the image only */
	char err[SIM_ERR_LEN];
};

static int name_path(char *buf, const char *name, const char *suffix,
		     char *err)
{
	char dir[256];
	int ret = sim_rundir(dir, sizeof(dir), 0, err);

	if (ret)
		return ret;
	snprintf(buf, PATH_LEN, "%s/%s%s", dir, name, suffix);
	return 0;
}

/*
 * Is the name held by a daemon? 1 (and *pid, 0 if unknown) if its lock is
 * held, 0 if not or if there is no lock file, or -errno.
 */
static int lock_held(const char *name, long *pid)
{
	char path[PATH_LEN], err[SIM_ERR_LEN], buf[24];
	ssize_t n;
	int fd, ret;

	*pid = 0;
	ret = name_path(path, name, ".lock", err);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		close(fd);
		return 0;
	}
	ret = errno == EWOULDBLOCK ? 1 : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		*pid = strtol(buf, NULL, 10);
	}
	close(fd);
	return ret;
}

/*
 * Remove the files of a name whose daemon is gone. Only while holding the
 * lock ourselves: then no daemon can be publishing that name meanwhile.
 * Returns 0, -EBUSY if a daemon holds the name, or -errno.
 */
static int remove_stale(const char *name, char *err)
{
	char lock[PATH_LEN], sock[PATH_LEN];
	struct stat a, b;
	int fd, ret;

	ret = name_path(lock, name, ".lock", err);
	if (ret)
		return ret;
	name_path(sock, name, ".sock", err);
	fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, SIM_ERR_LEN, "%s: %s", lock, strerror(-ret));
		return ret;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0 || fstat(fd, &a) < 0 ||
	    stat(lock, &b) < 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
		snprintf(err, SIM_ERR_LEN, "%s is in use by a ttsim starting or stopping",
			 name);
		close(fd);
		return -EBUSY;
	}
	unlink(sock);
	unlink(lock);
	close(fd);
	return 0;
}

static int connect_device(const char *name, char *err)
{
	struct timeval tv = { .tv_sec = REPLY_TIMEOUT_S };
	int s = sim_rundir_connect(name, err);

	if (s < 0)
		return s;
	/* A daemon that hangs must not hang us. */
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return s;
}

/* One request, one reply. Returns the reply's status or a local -errno;
 * err says why when nonzero. */
static int call(int s, const char *name, uint32_t op, struct sim_resp *resp,
		int *fd, char *err)
{
	struct sim_req req = { .magic = SIM_PROTO_MAGIC, .op = op };
	int sent, ret;

	/* A refused connection has its reply queued even if the send fails,
	 * so read regardless. */
	sent = sim_proto_send(s, &req, sizeof(req), -1);
	ret = sim_proto_recv(s, resp, sizeof(*resp), fd);
	if (ret == -EAGAIN || ret == -EWOULDBLOCK) {
		snprintf(err, SIM_ERR_LEN, "%s: no answer from ttsim within %d s",
			 name, REPLY_TIMEOUT_S);
		return -ETIMEDOUT;
	}
	if (ret) {
		snprintf(err, SIM_ERR_LEN, "%s: %s", name,
			 strerror(-(sent ? sent : ret)));
		return sent ? sent : ret;
	}
	if (resp->magic != SIM_PROTO_MAGIC) {
		snprintf(err, SIM_ERR_LEN, "%s: the daemon's reply is malformed",
			 name);
		return -EPROTO;
	}
	if (resp->status) {
		resp->msg[sizeof(resp->msg) - 1] = 0;
		snprintf(err, SIM_ERR_LEN, "%s: %.200s", name, resp->msg);
		return resp->status < 0 ? resp->status : -EPROTO;
	}
	return 0;
}

/* Copy the identity page: the image is shared, so read it once. */
static int read_identity(struct probe *p, int fd)
{
	struct sim_image *img;
	char why[SIM_ERR_LEN];
	int ret;

	if (fd < 0) {
		snprintf(p->err, SIM_ERR_LEN, "%s: the daemon sent no image",
			 p->name);
		return -EPROTO;
	}
	ret = sim_image_attach(fd, &img, why);
	if (ret) {
		snprintf(p->err, SIM_ERR_LEN, "%s: %.200s", p->name, why);
		return ret;
	}
	memcpy(&p->id, img->id, sizeof(p->id));
	sim_image_destroy(img);
	return 0;
}

static void probe(struct probe *p, bool identity)
{
	struct sim_resp resp;
	int s, fd = -1, ret;

	p->state = PROBE_ERROR;
	s = connect_device(p->name, p->err);
	if (s == -ENOENT) {
		p->state = PROBE_GONE;
		return;
	}
	if (s == -ECONNREFUSED && lock_held(p->name, &p->pid) == 0) {
		p->state = PROBE_STALE;
		return;
	}
	if (s == -ECONNREFUSED) {
		snprintf(p->err, SIM_ERR_LEN,
			 "%s: not answering (ttsim pid %ld holds it; starting or stopping?)",
			 p->name, p->pid);
		return;
	}
	if (s < 0)
		return;
	ret = call(s, p->name, SIM_OP_HELLO, &resp, &fd, p->err);
	close(s);
	if (ret) {
		if (fd >= 0)
			close(fd);
		return;
	}
	p->pid = (long)resp.val[1];
	p->board = (unsigned)resp.val[2];
	p->chip = (unsigned)resp.val[3];
	if (identity)
		ret = read_identity(p, fd);
	else if (fd >= 0)
		close(fd);
	if (!ret)
		p->state = PROBE_OK;
}

/* Every published device, probed. Returns how many, or -1 after saying
 * why. */
static int probe_all(struct probe *p, bool identity)
{
	char names[SIM_MAX_DEVICES][SIM_NAME_MAX], err[SIM_ERR_LEN];
	int n = sim_rundir_list(names, SIM_MAX_DEVICES, err);

	if (n < 0) {
		failure("%s", err);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		memcpy(p[i].name, names[i], SIM_NAME_MAX);
		probe(&p[i], identity);
	}
	return n;
}

static const char *state_note(uint32_t state)
{
	switch (state) {
	case TT_DEV_STATE_READY:
		return "";
	case TT_DEV_STATE_INIT:
		return ", starting";
	case TT_DEV_STATE_STOPPED:
		return ", stopped";
	default:
		return ", state unknown";
	}
}

static void print_probe(const struct probe *p)
{
	const struct board_info *b = board_by_id((enum tt_hw_board)p->board);
	char line[LINE_LEN];

	format_device(line, sizeof(line), p->name, b ? b->name : "unknown-board",
		      p->chip, soc_arch_name((enum tt_hw_arch)p->id.arch),
		      p->id.grid_x, p->id.grid_y, p->id.tensix_count, p->pid);
	printf("%s%s\n", line, state_note(p->id.state));
}

static int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct probe p[SIM_MAX_DEVICES];
	int n, c, ret = 0, shown = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c != 'h')
			return bad_option(argv[0], c, argv);
		print_help(stdout);
		return 0;
	}
	if (optind < argc)
		return usage_error("list: unexpected argument '%s'", argv[optind]);
	n = probe_all(p, true);
	if (n < 0)
		return EXIT_FAILURE;
	for (int i = 0; i < n; i++) {
		switch (p[i].state) {
		case PROBE_OK:
			print_probe(&p[i]);
			break;
		case PROBE_STALE:
			printf("%s: stale (its ttsim is gone; 'ttsim stop %s' or the next start removes it)\n",
			       p[i].name, p[i].name);
			break;
		case PROBE_GONE:
			continue;
		case PROBE_ERROR:
			ret = failure("%s", p[i].err);
			break;
		}
		shown++;
	}
	if (!shown) {
		printf("no ttsim devices\n");
		return ret ? ret : EXIT_NO_DEVICE;
	}
	return ret;
}

/* Gone: no socket, and nobody holds the lock. */
static bool device_gone(const char *name)
{
	char sock[PATH_LEN], err[SIM_ERR_LEN];
	struct stat st;
	long pid;

	if (name_path(sock, name, ".sock", err) == 0 && lstat(sock, &st) == 0)
		return false;
	return lock_held(name, &pid) == 0;
}

/* Shut down the daemon with pid p->pid through device p, and wait for all
 * of its devices (those in all[] with that pid) to be gone. */
static int stop_daemon(const struct probe *p, const struct probe *all, int n)
{
	char err[SIM_ERR_LEN], names[SIM_MAX_DEVICES * (SIM_NAME_MAX + 2)];
	struct sim_resp resp;
	size_t len = 0;
	long deadline;
	int s, ret;

	s = connect_device(p->name, err);
	if (s < 0)
		return failure("%s", err);
	ret = call(s, p->name, SIM_OP_SHUTDOWN, &resp, NULL, err);
	close(s);
	if (ret)
		return failure("%s", err);
	names[0] = 0;
	deadline = now_ms() + STOP_TIMEOUT_MS;
	for (int i = 0; i < n; i++) {
		if (all[i].state != PROBE_OK || all[i].pid != p->pid)
			continue;
		while (!device_gone(all[i].name)) {
			if (now_ms() > deadline)
				return failure("%s: ttsim pid %ld did not stop within %d s",
					       all[i].name, p->pid,
					       STOP_TIMEOUT_MS / 1000);
			sleep_ms(10);
		}
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
					len ? ", " : "", all[i].name);
	}
	printf("stopped %s (ttsim pid %ld)\n", names, p->pid);
	return 0;
}

static struct probe *find_probe(struct probe *p, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(p[i].name, name))
			return &p[i];
	return NULL;
}

static int stop_one(struct probe *t, struct probe *all, int n, long *done,
		    int *ndone)
{
	char err[SIM_ERR_LEN];

	switch (t->state) {
	case PROBE_OK:
		for (int i = 0; i < *ndone; i++)
			if (done[i] == t->pid)
				return 0; /* stopped with an earlier name */
		done[(*ndone)++] = t->pid;
		return stop_daemon(t, all, n);
	case PROBE_STALE:
		if (remove_stale(t->name, err))
			return failure("%s", err);
		printf("%s: removed stale socket (its ttsim is gone)\n", t->name);
		return 0;
	case PROBE_GONE:
		return 0;
	default:
		return failure("%s", t->err);
	}
}

static int cmd_stop(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct probe p[SIM_MAX_DEVICES];
	long done[SIM_MAX_DEVICES];
	int n, c, ndone = 0, ret = 0;
	bool all = false;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ah", longopts, NULL)) != -1) {
		if (c == 'a') {
			all = true;
			continue;
		}
		if (c != 'h')
			return bad_option(argv[0], c, argv);
		print_help(stdout);
		return 0;
	}
	if (all && optind < argc)
		return usage_error("stop: give device names or --all, not both");
	for (int i = optind; i < argc; i++)
		if (!sim_name_valid(argv[i]))
			return usage_error("stop: invalid device name '%s'", argv[i]);
	n = probe_all(p, false);
	if (n < 0)
		return EXIT_FAILURE;
	if (optind == argc) {
		if (!n)
			printf("no ttsim devices\n");
		for (int i = 0; i < n; i++)
			if (stop_one(&p[i], p, n, done, &ndone))
				ret = EXIT_FAILURE;
		return ret;
	}
	for (int i = optind; i < argc; i++) {
		struct probe *t = find_probe(p, n, argv[i]);

		if (!t) {
			failure("device %s is not served by any ttsim (see 'ttsim list')",
				argv[i]);
			if (!ret)
				ret = EXIT_NO_DEVICE;
		} else if (stop_one(t, p, n, done, &ndone))
			ret = EXIT_FAILURE;
	}
	return ret;
}

/* ------------------------------------------------------------------ */

/* With 0, 1 or 2 closed, our own files could land on them and be taken
 * for standard streams (and clobbered when the daemon detaches). */
static void ensure_std_fds(void)
{
	int fd;

	do
		fd = open("/dev/null", O_RDWR);
	while (fd >= 0 && fd <= STDERR_FILENO);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	const char *cmd;

	ensure_std_fds();
	if (argc < 2)
		return usage_error("no command given; commands: start, run, stop, list");
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("ttsim %s\n", TT_PROJECT_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "start"))
		return cmd_start(argc - 1, argv + 1, false);
	if (!strcmp(cmd, "run"))
		return cmd_start(argc - 1, argv + 1, true);
	if (!strcmp(cmd, "stop"))
		return cmd_stop(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return cmd_list(argc - 1, argv + 1);
	if (cmd[0] == '-')
		return usage_error("unknown option '%s'", cmd);
	return usage_error("unknown command '%s'; commands: start, run, stop, list",
			   cmd);
}
