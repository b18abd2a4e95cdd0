// SPDX-License-Identifier: Apache-2.0
/*
 * The chip model below libtt: image layout and validation of untrusted
 * images, interrupts, doorbells, and the host-memory table.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/model/device.h"
#include "sim/model/doorbell.h"
#include "common/soc_desc.h"

struct fixture {
	struct soc_desc soc;
	struct sim_device *dev;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char err[SIM_ERR_LEN];

	if (!f || soc_desc_builtin("wormhole_b0_n150", &f->soc, err, sizeof(err)) ||
	    sim_device_create(&f->soc, TT_HW_BOARD_N150, 0, 0, &f->dev, err)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	sim_device_destroy(f->dev);
	free(f);
	return 0;
}

static struct sim_image *img_of(void **state)
{
	return ((struct fixture *)*state)->dev->img;
}

static void test_identity_page(void **state)
{
	struct tt_identity *id = img_of(state)->id;

	assert_int_equal(id->magic_lo, TT_IDENTITY_MAGIC_LO);
	assert_int_equal(id->contract_major, TT_HW_CONTRACT_MAJOR);
	assert_int_equal(id->state, TT_DEV_STATE_READY);
	assert_int_equal(id->arch, TT_HW_ARCH_WORMHOLE_B0);
	assert_int_equal(id->grid_x, 10);
	assert_int_equal(id->tensix_count, 72);
	assert_string_equal(id->soc_name, "wormhole_b0_n150");
	/* A power of two, as a PCI BAR must be. */
	assert_int_equal(id->image_size & (id->image_size - 1), 0);
	assert_true(id->image_size >= 12ull << 30);
}

static void test_dram_ports_share_memory_offsets(void **state)
{
	struct sim_image *img = img_of(state);

	assert_int_equal(sim_image_node(img, 0, 0)->mem_off,
			 sim_image_node(img, 0, 11)->mem_off);
	assert_int_not_equal(sim_image_node(img, 0, 0)->mem_off,
			     sim_image_node(img, 0, 5)->mem_off);
	assert_int_equal(sim_image_node(img, 1, 11)->mem_size, 0); /* harvested */
}

/* A private copy of the image to corrupt. */
static int copy_image(struct sim_image *img, size_t len)
{
	int fd = memfd_create("corrupt", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)img->size), 0);
	assert_int_equal(pwrite(fd, img->base, len, 0), (ssize_t)len);
	return fd;
}

static void expect_attach_fails(int fd, const char *why)
{
	struct sim_image *img = NULL;
	char err[SIM_ERR_LEN];

	assert_int_equal(sim_image_attach(fd, &img, err), -EPROTO);
	assert_null(img);
	if (!strstr(err, why))
		fail_msg("expected '%s' in: %s", why, err);
}

static void test_attach_validates(void **state)
{
	struct sim_image *img = img_of(state), *ok = NULL;
	size_t head = TT_IMAGE_NODE_TABLE_OFF + 120 * sizeof(struct tt_node_desc);
	char err[SIM_ERR_LEN];
	uint32_t bad32;
	uint64_t bad64;
	int fd;

	fd = copy_image(img, head);
	assert_int_equal(sim_image_attach(fd, &ok, err), 0);
	sim_image_destroy(ok);

	fd = copy_image(img, head);
	bad32 = 0x12345678;
	assert_int_equal(pwrite(fd, &bad32, 4, 0), 4);
	expect_attach_fails(fd, "signature");

	fd = copy_image(img, head);
	bad32 = TT_HW_CONTRACT_MAJOR + 1;
	assert_int_equal(pwrite(fd, &bad32, 2,
				offsetof(struct tt_identity, contract_major)), 2);
	expect_attach_fails(fd, "contract");

	fd = copy_image(img, head);
	bad32 = 65; /* more than 6-bit coordinates can name */
	assert_int_equal(pwrite(fd, &bad32, 4, offsetof(struct tt_identity, grid_x)),
			 4);
	expect_attach_fails(fd, "identity");

	/* A node whose memory points past the end of the image. */
	fd = copy_image(img, head);
	bad64 = img->size;
	assert_int_equal(pwrite(fd, &bad64, 8,
				TT_IMAGE_NODE_TABLE_OFF +
					(10 + 1) * sizeof(struct tt_node_desc) +
					offsetof(struct tt_node_desc, mem_off)),
			 8);
	expect_attach_fails(fd, "outside the image");

	fd = memfd_create("tiny", MFD_CLOEXEC);
	assert_int_equal(ftruncate(fd, 100), 0);
	expect_attach_fails(fd, "too small");
}

static void test_private_node_table(void **state)
{
	struct sim_image *img = img_of(state);
	struct tt_node_desc *shared =
		(void *)(img->base + TT_IMAGE_NODE_TABLE_OFF + 11 * 48);
	uint64_t saved = shared->mem_off;

	/* A client scribbling on the shared table cannot redirect the model. */
	shared->mem_off = ~0ull;
	assert_int_equal(sim_image_node(img, 1, 1)->mem_off, saved);
	shared->mem_off = saved;
}

static void run_write(struct sim_device *dev, unsigned ctrl, unsigned x)
{
	struct tt_node_desc *n = sim_image_node(dev->img, 1, 1);
	uint8_t *niu = sim_image_regs(dev->img, n, TT_REG_NIU0);
	uint32_t seq = sim_irq_seq(dev->img->regs);

	*sim_reg32(niu, TT_NIU_CMD_TARG_LO) = 0;
	*sim_reg32(niu, TT_NIU_CMD_TARG_COORD) = x | (2u << 6);
	*sim_reg32(niu, TT_NIU_CMD_LEN) = 8;
	*sim_reg32(niu, TT_NIU_CMD_CTRL) = TT_NIU_OP_WRITE | ctrl;
	__atomic_store_n(sim_reg32(niu, TT_NIU_CMD_ISSUE), 1, __ATOMIC_RELEASE);
	sim_doorbell_ring(dev->img->regs,
			  TT_DOORBELL_NIU(sim_image_node_index(dev->img, n), 0));
	assert_int_equal(sim_irq_wait(dev->img->regs, seq, 5000), 0);
}

static void test_interrupts(void **state)
{
	struct sim_device *dev = ((struct fixture *)*state)->dev;
	uint32_t *status = &dev->img->regs->irq_status;

	__atomic_store_n(status, 0, __ATOMIC_RELEASE);
	run_write(dev, TT_NIU_CTRL_IRQ, 2);
	assert_int_equal(__atomic_load_n(status, __ATOMIC_ACQUIRE),
			 TT_IRQ_NOC_DONE);
	__atomic_store_n(status, 0, __ATOMIC_RELEASE);
	run_write(dev, 0, 30); /* no node: a device error interrupt */
	assert_true(__atomic_load_n(status, __ATOMIC_ACQUIRE) & TT_IRQ_DEV_ERROR);
}

static void test_doorbell_wait_times_out(void **state)
{
	struct tt_host_regs r;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(sim_doorbell_wait(&r, 0, 20), -ETIMEDOUT);
	sim_doorbell_ring(&r, 37);
	assert_int_equal(sim_doorbell_wait(&r, 0, 20), 0);
	assert_int_equal(sim_doorbell_take(&r, 1), 1u << 5);
	assert_int_equal(sim_doorbell_take(&r, 1), 0);
	sim_doorbell_ring(&r, TT_DOORBELL_WORDS * 32); /* out of range: ignored */
	assert_int_equal(sim_doorbell_seq(&r), 1);
}

static void test_hostmem_owners(void **state)
{
	struct sim_hostmem hm;
	uint64_t bus[3];
	uint32_t id[3];
	int fd = memfd_create("hm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	int loose = memfd_create("loose", MFD_CLOEXEC);

	(void)state;
	assert_int_equal(ftruncate(fd, 8192), 0);
	assert_int_equal(ftruncate(loose, 8192), 0);
	sim_hostmem_init(&hm);
	/* A buffer its owner could still shrink is refused. */
	assert_int_equal(sim_hostmem_map(&hm, fd, 8192, 1, &id[0], &bus[0]),
			 -EPERM);
	assert_int_equal(sim_hostmem_map(&hm, loose, 8192, 1, &id[0], &bus[0]),
			 -EPERM);
	close(loose);
	/* Something that cannot carry seals at all. */
	assert_int_equal(sim_hostmem_map(&hm, STDIN_FILENO, 4096, 1, &id[0],
					 &bus[0]),
			 -EPERM);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	assert_int_equal(ftruncate(fd, 4096), -1); /* the seal holds */
	assert_int_equal(sim_hostmem_map(&hm, fd, 8193, 1, &id[0], &bus[0]),
			 -ERANGE);
	assert_int_equal(sim_hostmem_map(&hm, fd, 8192, 1, &id[0], &bus[0]), 0);
	assert_int_equal(sim_hostmem_map(&hm, fd, 4096, 2, &id[1], &bus[1]), 0);
	assert_int_equal(sim_hostmem_map(&hm, fd, 100, 1, &id[2], &bus[2]), 0);
	assert_true(bus[1] >= bus[0] + 8192);
	assert_non_null(sim_hostmem_get(&hm, bus[1] + 4000, 96));
	sim_hostmem_put(&hm);
	assert_null(sim_hostmem_get(&hm, bus[1] + 4000, 97));
	assert_int_equal(sim_hostmem_unmap(&hm, id[1], 1), -ENOENT); /* not 1's */
	assert_int_equal(sim_hostmem_release_owner(&hm, 1), 2);
	assert_null(sim_hostmem_get(&hm, bus[0], 1));
	assert_non_null(sim_hostmem_get(&hm, bus[1], 1));
	sim_hostmem_put(&hm);
	assert_int_equal(sim_hostmem_map(&hm, fd, 0, 1, &id[0], &bus[0]), -EINVAL);
	sim_hostmem_fini(&hm);
	close(fd);
}

static void test_create_needs_pcie(void **state)
{
	struct soc_desc *d = malloc(sizeof(*d));
	struct sim_device *dev = NULL;
	char err[SIM_ERR_LEN];

	*d = ((struct fixture *)*state)->soc;
	d->pcie_count = 0;
	assert_int_equal(sim_device_create(d, TT_HW_BOARD_N150, 0, 0, &dev, err),
			 -EINVAL);
	assert_non_null(strstr(err, "PCIe"));
	assert_null(dev);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_page),
		cmocka_unit_test(test_dram_ports_share_memory_offsets),
		cmocka_unit_test(test_attach_validates),
		cmocka_unit_test(test_private_node_table),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_doorbell_wait_times_out),
		cmocka_unit_test(test_hostmem_owners),
		cmocka_unit_test(test_create_needs_pcie),
	};

	return cmocka_run_group_tests_name("sim", tests, setup, teardown);
}
