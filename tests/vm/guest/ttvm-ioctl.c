// SPDX-License-Identifier: Apache-2.0
/*
 * ttvm-ioctl: guest-side helper of tests/vm/guest/tests.sh, talking to
 * /dev/tenstorrent/N through <linux/tenstorrent.h>. The checks of a node's
 * ioctl arguments, open flags and mmap rules are kselftests
 * (tests/kselftest/); here are the steps of tests.sh's own scenario and
 * the checks that need what it knows (an unbind, the live model).
 *
 *   unknown PATH|FD        issue an unknown command; print "open: E" if the
 *                          open fails, else "ioctl: E" (E an errno name, or 0)
 *   open PATH FLAGS        open with FLAGS (none, or a comma list of excl,
 *                          nonblock, append); print "open: E"
 *   hold PATH FLAGS SECS   the same, then keep the file open SECS seconds
 *   info PATH              GET_DEVICE_INFO as "key=value ..."
 *   driver PATH            GET_DRIVER_INFO as "key=value ..."
 *   unbind PATH BDF        unbind the device under an open file and mapping
 *   model PATH BDF ARCH BOARD CHIP GX GY TENSIX
 *                          the node is a running chip model (ttsim behind
 *                          ivshmem-doorbell): its identity says READY and
 *                          these numbers, and its doorbell rings
 *
 * The check commands print one line per check, "ok - what" or
 * "not ok - what: detail", which tests.sh turns into TAP cases; they exit
 * 0 after printing. Usage errors exit 2.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>

/* Shared with the kselftests: open_dev, get_device_info, map, peek32,
 * signed_image, the child processes; <linux/tenstorrent.h>, <hw/host.h>. */
#include "../../kselftest/ttdev.h"

/* One check line; returns ok so callers can stop early. */
static bool check(bool ok, const char *what, const char *fmt, ...)
{
	va_list ap;

	printf("%s - %s", ok ? "ok" : "not ok", what);
	if (!ok && fmt) {
		printf(": ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
	return ok;
}

/* ioctl's errno name, or "0" */
static const char *try_ioctl(int fd, unsigned long cmd, void *arg)
{
	return err_name(ioctl(fd, cmd, arg) ? errno : 0);
}

static bool is(const char *got, const char *want)
{
	return strcmp(got, want) == 0;
}

static int parse_flags(const char *s)
{
	char buf[64], *tok, *save;
	int flags = O_RDWR | O_CLOEXEC;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (is(tok, "excl"))
			flags |= O_EXCL;
		else if (is(tok, "nonblock"))
			flags |= O_NONBLOCK;
		else if (is(tok, "append"))
			flags |= O_APPEND;
		else if (!is(tok, "none"))
			return -1;
	}
	return flags;
}

/* ---------------------------------------------------------------------- */
/* info, driver                                                           */

static int cmd_info(int fd)
{
	struct tenstorrent_get_device_info_out o;
	int ret = get_device_info(fd, &o);

	if (ret) {
		printf("ioctl: %s\n", err_name(-ret));
		return 0;
	}
	printf("vendor=%04x device=%04x subsystem_vendor=%04x subsystem=%04x "
	       "bdf=%04x:%02x:%02x.%x dma_log2=%u size=%u reserved=%u\n",
	       o.vendor_id, o.device_id, o.subsystem_vendor_id, o.subsystem_id,
	       o.pci_domain, o.bus_dev_fn >> 8, (o.bus_dev_fn >> 3) & 0x1f,
	       o.bus_dev_fn & 7, o.max_dma_buf_size_log2, o.output_size_bytes,
	       o.reserved);
	return 0;
}

static int cmd_driver(int fd)
{
	struct tenstorrent_get_driver_info a = {
		.in.output_size_bytes = sizeof(a.out)
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_GET_DRIVER_INFO, &a)) {
		printf("ioctl: %s\n", err_name(errno));
		return 0;
	}
	printf("api=%u version=%u.%u.%u size=%u reserved=%u\n",
	       a.out.driver_version, a.out.driver_version_major,
	       a.out.driver_version_minor, a.out.driver_version_patch,
	       a.out.output_size_bytes, a.out.reserved0);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* unbind                                                                 */

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, s, strlen(s));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int cmd_unbind(const char *path, const char *bdf)
{
	struct tenstorrent_get_device_info_out o;
	volatile unsigned char *uc;
	char self[64];
	pid_t waiter;
	int fd, err, st;
	void *p;

	fd = open_dev(path, O_EXCL);
	if (!check(fd >= 0, "O_EXCL open before unbind", "%s", err_name(-fd)))
		return 0;
	uc = map(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	check(uc && signed_image(uc), "mapping before unbind reads the signature",
	      "%s", uc ? "wrong signature" : err_name(err));
	waiter = spawn_open(path, 0);
	st = wait_child(waiter, 200);
	check(st < 0, "a second open waits", "ended with %s", err_name(st));

	check(write_file("/sys/bus/pci/drivers/tenstorrent/unbind", bdf) == 0,
	      "unbind with an O_EXCL file, a mapping and a waiting open", NULL);
	st = wait_child(waiter, 5000);
	check(st == ENODEV, "the waiting open fails with ENODEV", "%s",
	      st < 0 ? "still waiting" : err_name(st));
	if (st < 0)
		reap(waiter);
	if (uc) {
		int64_t v = peek32(uc);

		check(v == -SIGBUS, "the mapping is zapped: a read is SIGBUS",
		      "read %#llx", (long long)v);
	}
	st = get_device_info(fd, &o);
	check(st == -ENODEV, "GET_DEVICE_INFO after unbind is ENODEV", "%s",
	      err_name(-st));
	check(is(try_ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, &o), "ENODEV"),
	      "QUERY_MAPPINGS after unbind is ENODEV", NULL);
	p = map(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	check(!p && err == ENODEV, "mmap after unbind is ENODEV", "%s",
	      p ? "mapped" : err_name(err));
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	st = open_dev(self, 0);
	check(st == -ENODEV, "reopening the file after unbind is ENODEV", "%s",
	      err_name(st < 0 ? -st : 0));
	if (uc)
		munmap((void *)uc, PAGE);
	close(fd);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* model: the node is the chip model, served by ttsim over ivshmem-doorbell */

struct model_want {
	uint32_t arch, board, chip, grid_x, grid_y, tensix;
};

static void model_identity(const volatile unsigned char *img,
			   const struct model_want *w)
{
	const volatile struct tt_identity *id =
		(const volatile void *)(img + TT_IMAGE_IDENTITY_OFF);

	check(signed_image(img), "BAR2 starts with the identity signature",
	      "%#llx %#llx", (long long)peek32(&id->magic_lo),
	      (long long)peek32(&id->magic_hi));
	check(id->state == TT_DEV_STATE_READY,
	      "device state is READY (the model's firmware runs)", "state %u",
	      id->state);
	check(id->arch == w->arch && id->board == w->board &&
		      id->chip_index == w->chip,
	      "arch, board and chip equal what ttsim printed",
	      "arch %u board %u chip %u, want %u %u %u", id->arch, id->board,
	      id->chip_index, w->arch, w->board, w->chip);
	check(id->grid_x == w->grid_x && id->grid_y == w->grid_y &&
		      id->tensix_count == w->tensix,
	      "grid and Tensix count equal what ttsim printed",
	      "grid %ux%u, %u Tensix, want %ux%u, %u", id->grid_x, id->grid_y,
	      id->tensix_count, w->grid_x, w->grid_y, w->tensix);
}

/* Ring the device's doorbell (BAR0 through sysfs: the driver offers only
 * BAR2); the daemon kicks the model, which bumps
 * doorbell_seq in the host registers (hw/host.h): the ring's effect. */
static void model_doorbell(const volatile unsigned char *img, const char *bdf)
{
	const volatile struct tt_host_regs *regs =
		(const volatile void *)(img + TT_IMAGE_HOST_REGS_OFF);
	volatile uint32_t *bar0;
	uint32_t seq;
	int err, ms;

	bar0 = map_bar0(bdf, &err);
	if (!check(bar0, "BAR0 (ivshmem registers) maps through sysfs", "%s",
		   err_name(err)))
		return;
	check(bar0[IVSHMEM_IVPOSITION / 4] == 0, "IVPosition is 0 (peer 0)",
	      "%u", bar0[IVSHMEM_IVPOSITION / 4]);
	seq = regs->doorbell_seq;
	bar0[IVSHMEM_DOORBELL / 4] = IVSHMEM_RING_DEVICE;
	for (ms = 0; ms < 5000 && regs->doorbell_seq == seq; ms += 10)
		sleep_ms(10);
	check(regs->doorbell_seq != seq,
	      "ringing the doorbell (BAR0+12) moves the model's doorbell_seq",
	      "still %u after 5 s", seq);
	munmap((void *)bar0, PAGE);
}

static int cmd_model(const char *path, int fd, const char *bdf, char **num)
{
	struct tenstorrent_get_device_info_out o;
	struct model_want w;
	volatile unsigned char *img;
	int err;

	w = (struct model_want){ atoi(num[0]), atoi(num[1]), atoi(num[2]),
				 atoi(num[3]), atoi(num[4]), atoi(num[5]) };
	err = -get_device_info(fd, &o);
	check(!err && o.vendor_id == 0x1af4 && o.device_id == 0x1110,
	      "GET_DEVICE_INFO gives ivshmem's ids", "%s, ids %04x:%04x",
	      err_name(err), o.vendor_id, o.device_id);
	img = map(fd, TENSTORRENT_MMAP_BAR2_UC, TT_IMAGE_NODE_TABLE_OFF,
		  MAP_SHARED, &err);
	if (!check(img, "mmap of BAR2's first pages", "%s on %s",
		   err_name(err), path))
		return 0;
	model_identity(img, &w);
	model_doorbell(img, bdf);
	munmap((void *)img, TT_IMAGE_NODE_TABLE_OFF);
	return 0;
}

static int cmd_unknown(const char *arg)
{
	int fd;

	if (isdigit((unsigned char)arg[0])) {
		fd = atoi(arg);
	} else {
		fd = open_dev(arg, 0);
		if (fd < 0) {
			printf("open: %s\n", err_name(-fd));
			return 0;
		}
	}
	printf("ioctl: %s\n",
	       try_ioctl(fd, _IO(TENSTORRENT_IOCTL_MAGIC, 0xff), NULL));
	return 0;
}

static int cmd_open(const char *path, const char *flags, int secs)
{
	int f = parse_flags(flags), fd;

	if (f < 0) {
		fprintf(stderr, "ttvm-ioctl: bad flags %s\n", flags);
		return 2;
	}
	fd = open(path, f);
	printf("open: %s\n", err_name(fd < 0 ? errno : 0));
	fflush(stdout);
	if (fd >= 0 && secs > 0)
		sleep(secs);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: ttvm-ioctl unknown PATH|FD | open PATH FLAGS |\n"
		"       hold PATH FLAGS SECS | info|driver PATH |\n"
		"       unbind PATH BDF |\n"
		"       model PATH BDF ARCH BOARD CHIP GRID_X GRID_Y TENSIX\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && is(cmd, "unknown"))
		return cmd_unknown(argv[2]);
	if (argc == 4 && is(cmd, "open"))
		return cmd_open(argv[2], argv[3], 0);
	if (argc == 5 && is(cmd, "hold"))
		return cmd_open(argv[2], argv[3], atoi(argv[4]));
	if (argc == 4 && is(cmd, "unbind"))
		return cmd_unbind(argv[2], argv[3]);
	if (argc == 10 && is(cmd, "model")) {
		fd = open_dev(argv[2], 0);
		if (fd < 0)
			return !check(false, "open", "%s", err_name(-fd));
		return cmd_model(argv[2], fd, argv[3], argv + 4);
	}
	if (argc != 3 || !(is(cmd, "info") || is(cmd, "driver")))
		return usage();

	fd = open_dev(argv[2], 0);
	if (fd < 0) {
		printf("open: %s\n", err_name(-fd));
		return 0;
	}
	if (is(cmd, "info"))
		return cmd_info(fd);
	return cmd_driver(fd);
}
