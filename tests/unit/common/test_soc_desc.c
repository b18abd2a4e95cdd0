// SPDX-License-Identifier: Apache-2.0
/*
 * SoC descriptor loader (common/soc_desc.c): the built-in descriptors, the
 * format accepted, and one case per rejected input, each checking the
 * return code, the position and the wording of the error message.
 *
 * Most broken inputs are variations of a small valid descriptor (BASE
 * below, 4x3 grid) built in memory, so each case shows exactly what
 * changed; a few are files under $TT_TEST_DATA/soc/ to exercise loading
 * by path.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/soc_desc.h"

/* Loaded descriptors are ~11 KiB: keep them off the stack. */
static struct soc_desc desc;
static char err[SOC_ERR_MAX];

/* ------------------------------------------------------------------ */
/* Helpers */

/*
 * The small valid descriptor. Line n of the text is BASE[n - 1]; the
 * broken variants replace one line, so positions in the expected messages
 * can be read off the replacement. Appended lines start at line 13.
 */
static const char *const BASE[] = {
	"grid: {x_size: 4, y_size: 3}",
	"arc: [0-0]",
	"pcie: [0-1]",
	"dram: [[0-2, 3-2], [3-0]]",
	"eth: [3-1]",
	"functional_workers: [1-0, 2-0, 1-1, 2-1, 1-2, 2-2]",
	"router_only: []",
	"worker_l1_size: 1048576",
	"dram_bank_size: 1073741824",
	"eth_l1_size: 262144",
	"arch_name: WORMHOLE_B0",
	"features: {}",
};

#define BASE_LINES (sizeof(BASE) / sizeof(BASE[0]))

/*
 * BASE with the line starting "key:" replaced by `line` (dropped if
 * `line` is NULL), then `extra` appended. Caller frees.
 */
static char *variant(const char *key, const char *line, const char *extra)
{
	size_t cap = 4096 + (line ? strlen(line) : 0) +
		     (extra ? strlen(extra) : 0);
	char *buf = malloc(cap);
	size_t klen = key ? strlen(key) : 0;
	size_t o = 0;

	assert_non_null(buf);
	buf[0] = '\0';
	for (size_t i = 0; i < BASE_LINES; i++) {
		const char *l = BASE[i];

		if (key && strncmp(l, key, klen) == 0 && l[klen] == ':') {
			if (!line)
				continue;
			l = line;
		}
		o += (size_t)snprintf(buf + o, cap - o, "%s\n", l);
	}
	if (extra)
		snprintf(buf + o, cap - o, "%s", extra);
	return buf;
}

static int load(const char *text)
{
	memset(err, 0, sizeof(err));
	return soc_desc_load_buffer(text, strlen(text), "t.yaml", &desc, err,
				    sizeof(err));
}

/*
 * The error must read "<origin>:<pos>: <msg>..." exactly up to the end of
 * `msg` (longer libyaml texts are checked by prefix).
 */
static void check_msg(const char *origin, const char *pos, const char *msg)
{
	char want[SOC_ERR_MAX * 2];

	snprintf(want, sizeof(want), "%s:%s: %s", origin, pos, msg);
	if (strncmp(err, want, strlen(want)) != 0) {
		print_error("error message\n  got:  %s\n  want: %s...\n", err,
			    want);
		fail();
	}
}

/* Load `text`; expect -EINVAL and the message at `pos` ("line:col"). */
static void expect_err(const char *text, const char *pos, const char *msg)
{
	int rc = load(text);

	if (rc != -EINVAL)
		print_error("rc %d, message: %s\n", rc, err);
	assert_int_equal(rc, -EINVAL);
	check_msg("t.yaml", pos, msg);
}

/* BASE with one line replaced (or appended) must fail at pos with msg. */
static void expect_variant(const char *key, const char *line,
			   const char *extra, const char *pos, const char *msg)
{
	char *text = variant(key, line, extra);

	expect_err(text, pos, msg);
	free(text);
}

static void expect_variant_ok(const char *key, const char *line,
			      const char *extra)
{
	char *text = variant(key, line, extra);
	int rc = load(text);

	if (rc)
		print_error("unexpected error: %s\n", err);
	assert_int_equal(rc, 0);
	free(text);
}

static const char *data_path(const char *name)
{
	static char path[4096];
	const char *dir = getenv("TT_TEST_DATA");

	if (!dir) {
		print_error("TT_TEST_DATA is not set\n");
		fail();
	}
	snprintf(path, sizeof(path), "%s/soc/%s", dir, name);
	return path;
}

/* Load tests/data/soc/<name>; expect rc and the message at pos. */
static void expect_file_err(const char *name, int want_rc, const char *pos,
			    const char *msg)
{
	const char *path = data_path(name);
	int rc;

	memset(err, 0, sizeof(err));
	rc = soc_desc_load_file(path, &desc, err, sizeof(err));
	if (rc != want_rc)
		print_error("rc %d, message: %s\n", rc, err);
	assert_int_equal(rc, want_rc);
	check_msg(path, pos, msg);
}

static void load_builtin(const char *name)
{
	int rc = soc_desc_builtin(name, &desc, err, sizeof(err));

	if (rc)
		print_error("%s: %s\n", name, err);
	assert_int_equal(rc, 0);
}

static unsigned count_nodes(const struct soc_desc *d, enum tt_hw_node_type t)
{
	unsigned n = 0;

	for (unsigned y = 0; y < d->grid_y; y++)
		for (unsigned x = 0; x < d->grid_x; x++)
			n += d->node_type[y][x] == t;
	return n;
}

static unsigned count_flagged(const struct soc_desc *d)
{
	unsigned n = 0;

	for (unsigned y = 0; y < SOC_MAX_GRID; y++)
		for (unsigned x = 0; x < SOC_MAX_GRID; x++)
			n += (d->node_flags[y][x] & TT_NODE_F_HARVESTED) != 0;
	return n;
}

static void assert_node(const struct soc_desc *d, unsigned x, unsigned y,
			enum tt_hw_node_type type, unsigned channel,
			unsigned flags)
{
	if (d->node_type[y][x] != type || d->node_channel[y][x] != channel ||
	    d->node_flags[y][x] != flags)
		print_error("node %u-%u: type %s channel %u flags %u\n", x, y,
			    soc_node_type_name(d->node_type[y][x]),
			    d->node_channel[y][x], d->node_flags[y][x]);
	assert_int_equal(d->node_type[y][x], type);
	assert_int_equal(d->node_channel[y][x], channel);
	assert_int_equal(d->node_flags[y][x], flags);
	assert_int_equal(soc_desc_node_type(d, x, y), type);
}

/* Every grid position of a real chip holds some node. */
static void assert_grid_full(const struct soc_desc *d)
{
	unsigned none = count_nodes(d, TT_NODE_NONE);

	assert_int_equal(none, 0);
}

/* The enabled list is row-major and skips exactly the flagged Tensix. */
static void assert_tensix_list(const struct soc_desc *d)
{
	unsigned n = 0;

	for (unsigned y = 0; y < d->grid_y; y++) {
		for (unsigned x = 0; x < d->grid_x; x++) {
			if (d->node_type[y][x] != TT_NODE_TENSIX ||
			    (d->node_flags[y][x] & TT_NODE_F_HARVESTED))
				continue;
			assert_true(n < d->tensix_count);
			assert_int_equal(d->tensix[n].x, x);
			assert_int_equal(d->tensix[n].y, y);
			n++;
		}
	}
	assert_int_equal(n, d->tensix_count);
	assert_int_equal(count_nodes(d, TT_NODE_TENSIX), d->worker_count);
}

static void assert_mirror_maps(const struct soc_desc *d)
{
	for (unsigned x = 0; x < d->grid_x; x++)
		assert_int_equal(d->noc0_x_to_noc1_x[x], d->grid_x - 1 - x);
	for (unsigned y = 0; y < d->grid_y; y++)
		assert_int_equal(d->noc0_y_to_noc1_y[y], d->grid_y - 1 - y);
}

/* ------------------------------------------------------------------ */
/* Built-in descriptors */

static void test_builtin_names(void **state)
{
	const char *const *names = soc_desc_builtin_names();
	static const char *const want[] = {
		"wormhole_b0_n150", "wormhole_b0_n300", "blackhole_p150",
		"grayskull_e150",
	};
	size_t n = 0;

	(void)state;
	assert_non_null(names);
	while (names[n])
		n++;
	assert_int_equal(n, 4);
	for (size_t i = 0; i < 4; i++) {
		bool found = false;

		for (size_t j = 0; j < n; j++)
			found |= strcmp(names[j], want[i]) == 0;
		assert_true(found);
		load_builtin(want[i]);
		assert_string_equal(desc.name, want[i]);
	}
}

static void test_builtin_n150(void **state)
{
	(void)state;
	load_builtin("wormhole_b0_n150");
	assert_int_equal(desc.arch, TT_HW_ARCH_WORMHOLE_B0);
	assert_int_equal(desc.grid_x, 10);
	assert_int_equal(desc.grid_y, 12);
	assert_int_equal(desc.worker_l1_size, 1499136);
	assert_int_equal(desc.eth_l1_size, 262144);
	assert_int_equal(desc.dram_bank_size, 2147483648ull);
	assert_int_equal(desc.dram_channels, 6);
	for (unsigned c = 0; c < 6; c++)
		assert_int_equal(desc.dram_ports[c], 3);
	assert_int_equal(desc.eth_count, 16);
	assert_int_equal(desc.worker_count, 80);
	assert_int_equal(desc.tensix_count, 72);
	assert_int_equal(desc.router_count, 4);
	assert_int_equal(desc.arc_count, 1);
	assert_int_equal(desc.pcie_count, 1);
	assert_int_equal(desc.security_count, 0);
	assert_int_equal(desc.l2cpu_count, 0);
	assert_int_equal(desc.harvested_rows, 1u << 11);
	assert_int_equal(desc.harvested_cols, 0);
	assert_int_equal(desc.harvested_dram, 0);
	assert_int_equal(desc.harvested_eth, 0);
	assert_node(&desc, 0, 10, TT_NODE_ARC, 0xFFFF, 0);
	assert_node(&desc, 0, 3, TT_NODE_PCIE, 0xFFFF, 0);
	assert_node(&desc, 0, 0, TT_NODE_DRAM, 0, 0);
	assert_node(&desc, 0, 11, TT_NODE_DRAM, 0, 0);
	assert_node(&desc, 5, 7, TT_NODE_DRAM, 5, 0);
	assert_node(&desc, 9, 0, TT_NODE_ETH, 0, 0);
	assert_node(&desc, 4, 6, TT_NODE_ETH, 15, 0);
	assert_node(&desc, 1, 1, TT_NODE_TENSIX, 0xFFFF, 0);
	assert_node(&desc, 9, 11, TT_NODE_TENSIX, 0xFFFF,
		    TT_NODE_F_HARVESTED);
	assert_node(&desc, 0, 2, TT_NODE_ROUTER, 0xFFFF, 0);
	assert_int_equal(count_flagged(&desc), 8);
	assert_int_equal(desc.tensix[0].x, 1);
	assert_int_equal(desc.tensix[0].y, 1);
	assert_int_equal(desc.tensix[71].x, 9);
	assert_int_equal(desc.tensix[71].y, 10);
	assert_grid_full(&desc);
	assert_tensix_list(&desc);
	assert_mirror_maps(&desc);
}

static void test_builtin_n300(void **state)
{
	(void)state;
	load_builtin("wormhole_b0_n300");
	assert_int_equal(desc.arch, TT_HW_ARCH_WORMHOLE_B0);
	assert_int_equal(desc.grid_x, 10);
	assert_int_equal(desc.grid_y, 12);
	assert_int_equal(desc.worker_count, 80);
	assert_int_equal(desc.tensix_count, 64);
	assert_int_equal(desc.harvested_rows, (1u << 1) | (1u << 8));
	assert_int_equal(desc.dram_channels, 6);
	assert_int_equal(desc.eth_count, 16);
	assert_node(&desc, 1, 1, TT_NODE_TENSIX, 0xFFFF,
		    TT_NODE_F_HARVESTED);
	assert_node(&desc, 6, 8, TT_NODE_TENSIX, 0xFFFF,
		    TT_NODE_F_HARVESTED);
	assert_node(&desc, 6, 9, TT_NODE_TENSIX, 0xFFFF, 0);
	assert_int_equal(count_flagged(&desc), 16);
	assert_int_equal(desc.tensix[0].x, 1);
	assert_int_equal(desc.tensix[0].y, 2);
	assert_grid_full(&desc);
	assert_tensix_list(&desc);
	assert_mirror_maps(&desc);
}

static void test_builtin_p150(void **state)
{
	(void)state;
	load_builtin("blackhole_p150");
	assert_int_equal(desc.arch, TT_HW_ARCH_BLACKHOLE);
	assert_int_equal(desc.grid_x, 17);
	assert_int_equal(desc.grid_y, 12);
	assert_int_equal(desc.worker_l1_size, 1572864);
	assert_int_equal(desc.eth_l1_size, 262144);
	assert_int_equal(desc.dram_bank_size, 4294967296ull);
	assert_int_equal(desc.dram_channels, 8);
	for (unsigned c = 0; c < 8; c++)
		assert_int_equal(desc.dram_ports[c], 3);
	assert_int_equal(desc.eth_count, 14);
	assert_int_equal(desc.worker_count, 140);
	assert_int_equal(desc.tensix_count, 120);
	assert_int_equal(desc.router_count, 18);
	assert_int_equal(desc.pcie_count, 2);
	assert_int_equal(desc.security_count, 1);
	assert_int_equal(desc.l2cpu_count, 4);
	assert_int_equal(desc.harvested_rows, 0);
	assert_int_equal(desc.harvested_cols, (1u << 7) | (1u << 10));
	assert_int_equal(desc.harvested_eth, (1u << 5) | (1u << 8));
	assert_node(&desc, 8, 0, TT_NODE_ARC, 0xFFFF, 0);
	assert_node(&desc, 11, 0, TT_NODE_PCIE, 0xFFFF, 0);
	assert_node(&desc, 8, 2, TT_NODE_SECURITY, 0xFFFF, 0);
	assert_node(&desc, 8, 3, TT_NODE_L2CPU, 0xFFFF, 0);
	assert_node(&desc, 9, 6, TT_NODE_DRAM, 7, 0);
	assert_node(&desc, 16, 1, TT_NODE_ETH, 1, 0);
	assert_node(&desc, 14, 1, TT_NODE_ETH, 5, TT_NODE_F_HARVESTED);
	assert_node(&desc, 5, 1, TT_NODE_ETH, 8, TT_NODE_F_HARVESTED);
	assert_node(&desc, 12, 1, TT_NODE_ETH, 9, 0);
	assert_node(&desc, 7, 5, TT_NODE_TENSIX, 0xFFFF,
		    TT_NODE_F_HARVESTED);
	assert_node(&desc, 10, 11, TT_NODE_TENSIX, 0xFFFF,
		    TT_NODE_F_HARVESTED);
	assert_node(&desc, 11, 11, TT_NODE_TENSIX, 0xFFFF, 0);
	assert_int_equal(count_flagged(&desc), 22);
	assert_grid_full(&desc);
	assert_tensix_list(&desc);
	assert_mirror_maps(&desc); /* listed explicitly, as the mirror */
}

static void test_builtin_e150(void **state)
{
	(void)state;
	load_builtin("grayskull_e150");
	assert_int_equal(desc.arch, TT_HW_ARCH_GRAYSKULL);
	assert_int_equal(desc.grid_x, 13);
	assert_int_equal(desc.grid_y, 12);
	assert_int_equal(desc.worker_l1_size, 1048576);
	assert_int_equal(desc.eth_l1_size, 0);
	assert_int_equal(desc.dram_bank_size, 1073741824);
	assert_int_equal(desc.dram_channels, 8);
	for (unsigned c = 0; c < 8; c++)
		assert_int_equal(desc.dram_ports[c], 1);
	assert_int_equal(desc.eth_count, 0);
	assert_int_equal(desc.worker_count, 120);
	assert_int_equal(desc.tensix_count, 120);
	assert_int_equal(desc.router_count, 26);
	assert_int_equal(desc.harvested_rows | desc.harvested_cols |
			 desc.harvested_dram | desc.harvested_eth, 0);
	assert_int_equal(count_flagged(&desc), 0);
	assert_node(&desc, 0, 2, TT_NODE_ARC, 0xFFFF, 0);
	assert_node(&desc, 0, 4, TT_NODE_PCIE, 0xFFFF, 0);
	assert_node(&desc, 1, 6, TT_NODE_DRAM, 1, 0);
	assert_node(&desc, 10, 6, TT_NODE_DRAM, 7, 0);
	assert_node(&desc, 0, 0, TT_NODE_ROUTER, 0xFFFF, 0);
	assert_node(&desc, 12, 11, TT_NODE_TENSIX, 0xFFFF, 0);
	assert_grid_full(&desc);
	assert_tensix_list(&desc);
	assert_mirror_maps(&desc);
}

static void test_builtin_unknown(void **state)
{
	(void)state;
	assert_int_equal(soc_desc_builtin("wormhole_b0_n999", &desc, err,
					  sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "wormhole_b0_n999"));
	assert_int_equal(soc_desc_builtin(NULL, &desc, err, sizeof(err)),
			 -ENOENT);
}

/* ------------------------------------------------------------------ */
/* Accepted input */

static void test_load_file_minimal(void **state)
{
	(void)state;
	assert_int_equal(soc_desc_load_file(data_path("good_minimal.yaml"),
					    &desc, err, sizeof(err)), 0);
	assert_string_equal(desc.name, "good_minimal");
	assert_int_equal(desc.arch, TT_HW_ARCH_WORMHOLE_B0);
	assert_int_equal(desc.grid_x, 4);
	assert_int_equal(desc.grid_y, 3);
	assert_int_equal(desc.dram_channels, 2);
	assert_int_equal(desc.dram_ports[0], 2);
	assert_int_equal(desc.dram_ports[1], 1);
	assert_int_equal(desc.eth_count, 1);
	assert_int_equal(desc.worker_count, 6);
	assert_int_equal(desc.tensix_count, 6);
	assert_node(&desc, 3, 2, TT_NODE_DRAM, 0, 0);
	assert_node(&desc, 3, 0, TT_NODE_DRAM, 1, 0);
	assert_node(&desc, 3, 1, TT_NODE_ETH, 0, 0);
	assert_grid_full(&desc);
	assert_tensix_list(&desc);
}

static void test_load_file_umd_style(void **state)
{
	int rc;

	(void)state;
	rc = soc_desc_load_file(data_path("good_umd_style.yaml"), &desc, err,
				sizeof(err));
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	assert_string_equal(desc.name, "umd-style.test");
	assert_int_equal(desc.dram_bank_size, 0x40000000);
	assert_int_equal(desc.dram_channels, 2);
	assert_int_equal(desc.tensix_count, 6);
	assert_node(&desc, 3, 2, TT_NODE_DRAM, 0, 0);
	assert_grid_full(&desc);
}

static void test_default_name_from_origin(void **state)
{
	char *text = variant(NULL, NULL, NULL);

	(void)state;
	assert_int_equal(soc_desc_load_buffer(text, strlen(text),
					      "some/dir/my.chip.yaml", &desc,
					      err, sizeof(err)), 0);
	assert_string_equal(desc.name, "my.chip");
	assert_int_equal(soc_desc_load_buffer(text, strlen(text), NULL, &desc,
					      err, sizeof(err)), 0);
	assert_true(desc.name[0] != '\0');
	free(text);
}

static void test_name_key(void **state)
{
	(void)state;
	expect_variant_ok(NULL, NULL, "name: custom_chip-2\n");
	assert_string_equal(desc.name, "custom_chip-2");
}

static void test_workers_sorted_row_major(void **state)
{
	(void)state;
	expect_variant_ok("functional_workers",
			  "functional_workers: [2-2, 1-2, 2-0, 1-1, 2-1, 1-0]",
			  NULL);
	for (unsigned i = 0; i < 6; i++) {
		assert_int_equal(desc.workers[i].x, 1 + i % 2);
		assert_int_equal(desc.workers[i].y, i / 2);
	}
	assert_tensix_list(&desc);
}

static void test_noc1_default_mirror(void **state)
{
	(void)state;
	expect_variant_ok(NULL, NULL, NULL);
	assert_int_equal(desc.noc0_x_to_noc1_x[0], 3);
	assert_int_equal(desc.noc0_x_to_noc1_x[3], 0);
	assert_int_equal(desc.noc0_y_to_noc1_y[0], 2);
	assert_int_equal(desc.noc0_y_to_noc1_y[2], 0);
	assert_mirror_maps(&desc);
}

static void test_noc1_explicit_maps(void **state)
{
	(void)state;
	expect_variant_ok(NULL, NULL,
			  "noc0_x_to_noc1_x: [1, 0, 3, 2]\n"
			  "noc0_y_to_noc1_y: [0, 1, 2]\n");
	assert_int_equal(desc.noc0_x_to_noc1_x[0], 1);
	assert_int_equal(desc.noc0_x_to_noc1_x[1], 0);
	assert_int_equal(desc.noc0_x_to_noc1_x[2], 3);
	assert_int_equal(desc.noc0_x_to_noc1_x[3], 2);
	assert_int_equal(desc.noc0_y_to_noc1_y[2], 2);
}

static void test_arch_spellings(void **state)
{
	static const struct {
		const char *line;
		enum tt_hw_arch arch;
	} cases[] = {
		{ "arch_name: WORMHOLE_B0", TT_HW_ARCH_WORMHOLE_B0 },
		{ "arch_name: wormhole_b0", TT_HW_ARCH_WORMHOLE_B0 },
		{ "arch_name: BLACKHOLE", TT_HW_ARCH_BLACKHOLE },
		{ "arch_name: blackhole", TT_HW_ARCH_BLACKHOLE },
		{ "arch_name: GRAYSKULL", TT_HW_ARCH_GRAYSKULL },
		{ "arch_name: \"grayskull\"", TT_HW_ARCH_GRAYSKULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		expect_variant_ok("arch_name", cases[i].line, NULL);
		assert_int_equal(desc.arch, cases[i].arch);
	}
}

static void test_no_eth_zero_eth_l1(void **state)
{
	/* The Grayskull case: no ETH nodes, so no ETH L1 either. */
	char *text = variant("eth", "eth: []", NULL);
	char *p = strstr(text, "eth_l1_size: 262144");

	(void)state;
	assert_non_null(p);
	memcpy(p, "eth_l1_size: 0     ", 19);
	assert_int_equal(load(text), 0);
	assert_int_equal(desc.eth_count, 0);
	assert_int_equal(desc.eth_l1_size, 0);
	assert_int_equal(desc.node_type[1][3], TT_NODE_NONE);
	free(text);
}

static void test_harvest_flags(void **state)
{
	(void)state;
	expect_variant_ok(NULL, NULL,
			  "harvesting:\n"
			  "  tensix_rows: [1]\n"
			  "  tensix_cols: [2]\n"
			  "  dram_channels: [0]\n"
			  "  eth_channels: [0]\n");
	assert_int_equal(desc.harvested_rows, 1u << 1);
	assert_int_equal(desc.harvested_cols, 1u << 2);
	assert_int_equal(desc.harvested_dram, 1u << 0);
	assert_int_equal(desc.harvested_eth, 1u << 0);
	assert_int_equal(desc.worker_count, 6);
	assert_int_equal(desc.tensix_count, 2); /* 1-0 and 1-2 */
	assert_int_equal(desc.tensix[0].x, 1);
	assert_int_equal(desc.tensix[0].y, 0);
	assert_int_equal(desc.tensix[1].x, 1);
	assert_int_equal(desc.tensix[1].y, 2);
	assert_node(&desc, 2, 0, TT_NODE_TENSIX, 0xFFFF, TT_NODE_F_HARVESTED);
	assert_node(&desc, 1, 1, TT_NODE_TENSIX, 0xFFFF, TT_NODE_F_HARVESTED);
	assert_node(&desc, 0, 2, TT_NODE_DRAM, 0, TT_NODE_F_HARVESTED);
	assert_node(&desc, 3, 2, TT_NODE_DRAM, 0, TT_NODE_F_HARVESTED);
	assert_node(&desc, 3, 0, TT_NODE_DRAM, 1, 0);
	assert_node(&desc, 3, 1, TT_NODE_ETH, 0, TT_NODE_F_HARVESTED);
	assert_int_equal(count_flagged(&desc), 7);
	assert_tensix_list(&desc);
}

static void test_features_unknown_ignored(void **state)
{
	(void)state;
	expect_variant_ok("features",
			  "features: {noc: {translation_id_enabled: TRUE, "
			  "new_flag: x}, sfpu: {lanes: [32]}}",
			  NULL);
}

static void test_node_type_outside_grid(void **state)
{
	(void)state;
	expect_variant_ok(NULL, NULL, NULL);
	assert_int_equal(soc_desc_node_type(&desc, 1, 1), TT_NODE_TENSIX);
	assert_int_equal(soc_desc_node_type(&desc, 4, 0), TT_NODE_NONE);
	assert_int_equal(soc_desc_node_type(&desc, 0, 3), TT_NODE_NONE);
	assert_int_equal(soc_desc_node_type(&desc, 31, 31), TT_NODE_NONE);
	assert_int_equal(soc_desc_node_type(&desc, 1000, 0), TT_NODE_NONE);
}

static void test_name_functions(void **state)
{
	(void)state;
	assert_string_equal(soc_arch_name(TT_HW_ARCH_WORMHOLE_B0),
			    "wormhole_b0");
	assert_string_equal(soc_arch_name(TT_HW_ARCH_BLACKHOLE), "blackhole");
	assert_string_equal(soc_arch_name(TT_HW_ARCH_GRAYSKULL), "grayskull");
	assert_string_equal(soc_arch_name(TT_HW_ARCH_UNKNOWN), "unknown");
	assert_string_equal(soc_arch_name((enum tt_hw_arch)77), "unknown");
	assert_string_equal(soc_node_type_name(TT_NODE_TENSIX), "tensix");
	assert_string_equal(soc_node_type_name(TT_NODE_DRAM), "dram");
	assert_string_equal(soc_node_type_name(TT_NODE_L2CPU), "l2cpu");
	assert_string_equal(soc_node_type_name(TT_NODE_NONE), "none");
	assert_string_equal(soc_node_type_name(TT_NODE_TYPE_COUNT),
			    "unknown");
}

/* A too-small or missing error buffer must not break anything. */
static void test_small_error_buffer(void **state)
{
	char small[8];
	char *text = variant("arch_name", "arch_name: QUASAR", NULL);

	(void)state;
	memset(small, 'x', sizeof(small));
	assert_int_equal(soc_desc_load_buffer(text, strlen(text), "t.yaml",
					      &desc, small, sizeof(small)),
			 -EINVAL);
	assert_int_equal(small[7], '\0');
	assert_string_equal(small, "t.yaml:");
	assert_int_equal(soc_desc_load_buffer(text, strlen(text), "t.yaml",
					      &desc, NULL, 0), -EINVAL);
	free(text);
}

/* ------------------------------------------------------------------ */
/* Missing and unknown keys */

static void test_err_missing_grid_file(void **state)
{
	(void)state;
	expect_file_err("bad_missing_grid.yaml", -EINVAL, "2:1",
			"missing required key 'grid'");
}

static void test_err_missing_features(void **state)
{
	(void)state;
	expect_variant("features", NULL, NULL, "1:1",
		       "missing required key 'features'");
}

static void test_err_missing_grid_y_size(void **state)
{
	(void)state;
	expect_variant("grid", "grid: {x_size: 4}", NULL, "1:7",
		       "grid: missing required key 'y_size'");
}

static void test_err_unknown_top_key_file(void **state)
{
	(void)state;
	expect_file_err("bad_unknown_key.yaml", -EINVAL, "14:1",
			"unknown top-level key 'dram_bandwidth'");
}

static void test_err_unknown_grid_key(void **state)
{
	(void)state;
	expect_variant("grid", "grid: {x_size: 4, y_size: 3, z_size: 1}",
		       NULL, "1:30", "grid: unknown key 'z_size'");
}

static void test_err_unknown_harvesting_key(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvesting: {tensix_row: [1]}\n", "13:14",
		       "harvesting: unknown key 'tensix_row'");
}

/* ------------------------------------------------------------------ */
/* Wrong types */

static void test_err_string_for_int(void **state)
{
	(void)state;
	expect_variant("worker_l1_size", "worker_l1_size: big", NULL, "8:17",
		       "worker_l1_size: expected an integer, got 'big'");
}

static void test_err_float_for_int(void **state)
{
	(void)state;
	expect_variant("worker_l1_size", "worker_l1_size: 1.5e6", NULL,
		       "8:17",
		       "worker_l1_size: expected an integer, got '1.5e6'");
}

static void test_err_mapping_for_sequence(void **state)
{
	(void)state;
	expect_variant("arc", "arc: {x: 1}", NULL, "2:6",
		       "arc: expected a sequence, got a mapping");
}

static void test_err_sequence_for_int(void **state)
{
	(void)state;
	expect_variant("dram_bank_size", "dram_bank_size: [1]", NULL, "9:17",
		       "dram_bank_size: expected an integer, got a sequence");
}

static void test_err_scalar_for_mapping(void **state)
{
	(void)state;
	expect_variant("grid", "grid: 10", NULL, "1:7",
		       "grid: expected a mapping, got '10'");
}

static void test_err_empty_value(void **state)
{
	(void)state;
	expect_variant("eth", "eth:", NULL, "5:5",
		       "eth: expected a sequence, got an empty value");
}

static void test_err_top_level_not_mapping(void **state)
{
	(void)state;
	expect_err("- a\n- b\n", "1:1",
		   "top level: expected a mapping, got a sequence");
}

static void test_err_arch_not_scalar(void **state)
{
	(void)state;
	expect_variant("arch_name", "arch_name: [BLACKHOLE]", NULL, "11:12",
		       "arch_name: expected an architecture name, got a "
		       "sequence");
}

/* ------------------------------------------------------------------ */
/* Sizes */

static void test_err_negative_size(void **state)
{
	(void)state;
	expect_variant("worker_l1_size", "worker_l1_size: -1", NULL, "8:17",
		       "worker_l1_size: must be greater than 0, got -1");
}

static void test_err_zero_size(void **state)
{
	(void)state;
	expect_variant("dram_bank_size", "dram_bank_size: 0", NULL, "9:17",
		       "dram_bank_size: must be greater than 0, got 0");
}

static void test_err_size_beyond_noc_address(void **state)
{
	(void)state;
	expect_variant("dram_bank_size", "dram_bank_size: 0x2000000000", NULL,
		       "9:17",
		       "dram_bank_size: 137438953472 is too large (maximum "
		       "68719476736)");
}

static void test_err_int_overflow(void **state)
{
	(void)state;
	expect_variant("worker_l1_size",
		       "worker_l1_size: 99999999999999999999999", NULL, "8:17",
		       "worker_l1_size: '99999999999999999999999' is out of "
		       "range (maximum 68719476736)");
}

static void test_err_eth_l1_zero_with_eth(void **state)
{
	(void)state;
	expect_variant("eth_l1_size", "eth_l1_size: 0", NULL, "10:14",
		       "eth_l1_size: must be greater than 0 when eth lists "
		       "nodes");
}

/* ------------------------------------------------------------------ */
/* Coordinates */

static void test_err_coord_x_separator(void **state)
{
	(void)state;
	expect_variant("arc", "arc: [3x4]", NULL, "2:7",
		       "arc[0]: malformed coordinate '3x4' (expected \"x-y\")");
}

static void test_err_coord_letters(void **state)
{
	(void)state;
	expect_variant("pcie", "pcie: [a-b]", NULL, "3:8",
		       "pcie[0]: malformed coordinate 'a-b'");
}

static void test_err_coord_missing_y(void **state)
{
	(void)state;
	expect_variant("eth", "eth: [1-]", NULL, "5:7",
		       "eth[0]: malformed coordinate '1-'");
}

static void test_err_coord_trailing_garbage(void **state)
{
	(void)state;
	expect_variant("arc", "arc: [\"0-0 \"]", NULL, "2:7",
		       "arc[0]: malformed coordinate '0-0 '");
}

static void test_err_coord_outside_grid(void **state)
{
	(void)state;
	expect_variant("functional_workers",
		       "functional_workers: [1-0, 99-1]", NULL, "6:27",
		       "functional_workers[1]: coordinate '99-1' is outside "
		       "the 4x3 grid");
}

/* Exactly one past the last column or row is outside; x = 3 and y = 2,
 * the last ones, are inside (the valid descriptor uses 3-2). */
static void test_err_coord_at_grid_edge(void **state)
{
	(void)state;
	expect_variant("functional_workers",
		       "functional_workers: [1-0, 4-1]", NULL, "6:27",
		       "functional_workers[1]: coordinate '4-1' is outside "
		       "the 4x3 grid");
	expect_variant("functional_workers",
		       "functional_workers: [1-0, 2-3]", NULL, "6:27",
		       "functional_workers[1]: coordinate '2-3' is outside "
		       "the 4x3 grid");
}

static void test_err_dram_coord_outside_grid(void **state)
{
	(void)state;
	expect_variant("dram", "dram: [[0-2, 3-2], [5-99]]", NULL, "4:21",
		       "dram[1][0]: coordinate '5-99' is outside the 4x3 grid");
}

static void test_err_coord_not_scalar(void **state)
{
	(void)state;
	expect_variant("arc", "arc: [[0-0]]", NULL, "2:7",
		       "arc[0]: expected a coordinate \"x-y\", got a "
		       "sequence");
}

static void test_err_node_listed_twice(void **state)
{
	(void)state;
	expect_variant("functional_workers",
		       "functional_workers: [1-0, 2-0, 1-1, 2-1, 1-2, 2-2, "
		       "1-0]",
		       NULL, "6:52",
		       "functional_workers[6]: node 1-0 is already listed as "
		       "functional_workers[0]");
}

static void test_err_node_in_two_categories(void **state)
{
	(void)state;
	expect_variant("router_only", "router_only: [0-0]", NULL, "7:15",
		       "router_only[0]: node 0-0 is already listed as arc[0]");
}

static void test_err_eth_on_dram_node(void **state)
{
	(void)state;
	expect_variant("eth", "eth: [3-2]", NULL, "5:7",
		       "eth[0]: node 3-2 is already listed as dram[0][1]");
}

/* ------------------------------------------------------------------ */
/* Counts */

static void test_err_dram_channel_no_ports(void **state)
{
	(void)state;
	expect_variant("dram", "dram: [[0-2, 3-2], []]", NULL, "4:20",
		       "dram[1]: a DRAM channel needs at least one endpoint");
}

static void test_err_dram_channel_too_many_ports(void **state)
{
	(void)state;
	expect_variant("dram", "dram: [[0-2, 3-2, 1-0, 2-0, 1-1], [3-0]]",
		       NULL, "4:29",
		       "dram[0][4]: more than 4 endpoints in one DRAM channel");
}

static void test_err_dram_channel_not_sequence(void **state)
{
	(void)state;
	expect_variant("dram", "dram: [0-2, 3-0]", NULL, "4:8",
		       "dram[0]: expected a sequence, got '0-2'");
}

static void test_err_dram_no_channels(void **state)
{
	(void)state;
	expect_variant("dram", "dram: []", NULL, "4:7",
		       "dram: at least one channel is required");
}

static void test_err_too_many_dram_channels(void **state)
{
	char line[512] = "dram: [";

	(void)state;
	for (int i = 0; i < 17; i++)
		strcat(line, "[0-2], ");
	strcat(line, "]");
	/* Item 16 starts after "dram: [" and 16 * "[0-2], ". */
	expect_variant("dram", line, NULL, "4:120",
		       "dram[16]: more than 16 DRAM channels");
}

static void test_err_too_many_eth(void **state)
{
	char line[512] = "eth: [";

	(void)state;
	for (int i = 0; i < 33; i++)
		strcat(line, "3-1, ");
	strcat(line, "]");
	expect_variant("eth", line, NULL, "5:167",
		       "eth[32]: more than 32 eth nodes");
}

static void test_err_too_many_arc(void **state)
{
	(void)state;
	expect_variant("arc",
		       "arc: [0-0, 0-0, 0-0, 0-0, 0-0, 0-0, 0-0, 0-0, 0-0]",
		       NULL, "2:47", "arc[8]: more than 8 arc nodes");
}

static void test_err_grid_too_large(void **state)
{
	(void)state;
	expect_variant("grid", "grid: {x_size: 33, y_size: 3}", NULL, "1:16",
		       "grid.x_size: 33 is too large (maximum 32)");
}

static void test_err_grid_zero(void **state)
{
	(void)state;
	expect_variant("grid", "grid: {x_size: 4, y_size: 0}", NULL, "1:27",
		       "grid.y_size: must be greater than 0, got 0");
}

/* ------------------------------------------------------------------ */
/* Harvesting */

static void test_err_harvest_col_without_tensix(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvesting: {tensix_cols: [0]}\n",
		       "13:28",
		       "harvesting.tensix_cols[0]: column 0 holds no Tensix "
		       "node");
}

static void test_err_harvest_row_without_tensix(void **state)
{
	(void)state;
	expect_variant("functional_workers",
		       "functional_workers: [1-0, 2-0, 1-1, 2-1]",
		       "harvesting: {tensix_rows: [2]}\n", "13:28",
		       "harvesting.tensix_rows[0]: row 2 holds no Tensix node");
}

static void test_err_harvest_row_outside_grid(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvesting: {tensix_rows: [3]}\n",
		       "13:28",
		       "harvesting.tensix_rows[0]: row 3 is outside the 4x3 "
		       "grid");
}

static void test_err_harvest_listed_twice(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvesting: {tensix_rows: [1, 1]}\n",
		       "13:31", "harvesting.tensix_rows[1]: 1 is listed twice");
}

static void test_err_harvest_dram_channel_range(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvesting: {dram_channels: [2]}\n",
		       "13:30",
		       "harvesting.dram_channels[0]: DRAM channel 2 does not "
		       "exist (dram lists 2)");
}

static void test_err_harvest_eth_channel_range(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvesting: {eth_channels: [1]}\n",
		       "13:29",
		       "harvesting.eth_channels[0]: ETH channel 1 does not "
		       "exist (eth lists 1)");
}

static void test_err_harvest_negative(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvesting: {tensix_rows: [-1]}\n",
		       "13:28",
		       "harvesting.tensix_rows[0]: must not be negative, got "
		       "-1");
}

static void test_err_harvesting_not_mapping(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvesting: [1]\n", "13:13",
		       "harvesting: expected a mapping, got a sequence");
}

static void test_err_umd_harvested_workers(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "harvested_workers: [1-0]\n", "13:20",
		       "harvested_workers: must be empty; use "
		       "harvesting.tensix_rows/tensix_cols");
}

/* ------------------------------------------------------------------ */
/* NOC 1 maps */

static void test_err_noc1_map_length(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "noc0_x_to_noc1_x: [3, 2, 1]\n", "13:19",
		       "noc0_x_to_noc1_x: has 3 entries, expected 4 (the grid "
		       "size)");
}

static void test_err_noc1_map_not_permutation(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "noc0_x_to_noc1_x: [3, 2, 2, 0]\n",
		       "13:26",
		       "noc0_x_to_noc1_x[2]: 2 appears twice (the map must be "
		       "a permutation)");
}

static void test_err_noc1_map_out_of_range(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "noc0_y_to_noc1_y: [0, 1, 3]\n", "13:26",
		       "noc0_y_to_noc1_y[2]: 3 is too large (maximum 2)");
}

/* ------------------------------------------------------------------ */
/* features, name, arch */

static void test_err_feature_wrong_int(void **state)
{
	(void)state;
	expect_variant("features", "features: {unpacker: {version: two}}",
		       NULL, "12:32",
		       "features.unpacker.version: expected an integer, got "
		       "'two'");
}

static void test_err_feature_wrong_bool(void **state)
{
	(void)state;
	expect_variant("features",
		       "features: {noc: {translation_id_enabled: maybe}}",
		       NULL, "12:42",
		       "features.noc.translation_id_enabled: expected true or "
		       "false, got 'maybe'");
}

static void test_err_features_not_mapping(void **state)
{
	(void)state;
	expect_variant("features", "features: []", NULL, "12:11",
		       "features: expected a mapping, got a sequence");
}

static void test_err_feature_group_not_mapping(void **state)
{
	(void)state;
	expect_variant("features", "features: {math: 5}", NULL, "12:18",
		       "features.math: expected a mapping, got '5'");
}

static void test_err_arch_unknown(void **state)
{
	(void)state;
	expect_variant("arch_name", "arch_name: QUASAR", NULL, "11:12",
		       "arch_name: unknown architecture 'QUASAR' (expected "
		       "WORMHOLE_B0, BLACKHOLE or GRAYSKULL)");
}

static void test_err_name_bad_chars(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "name: 'has space'\n", "13:7",
		       "name: 'has space' may only hold letters, digits and "
		       "_ - . +");
}

static void test_err_name_too_long(void **state)
{
	(void)state;
	expect_variant(NULL, NULL,
		       "name: abcdefghijklmnopqrstuvwxyz0123456789\n", "13:7",
		       "name: 'abcdefghijklmnopqrstuvwxyz0123456789' is longer "
		       "than 31 characters");
}

static void test_err_ignored_key_wrong_type(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "dram_address_offsets: [0, x]\n", "13:27",
		       "dram_address_offsets[1]: expected an integer, got "
		       "'x'");
}

/* ------------------------------------------------------------------ */
/* YAML structure */

static void test_err_syntax_file(void **state)
{
	(void)state;
	expect_file_err("bad_syntax.yaml", -EINVAL, "4:12",
			"invalid YAML: did not find expected key");
}

static void test_err_syntax_unclosed_flow(void **state)
{
	(void)state;
	expect_variant("grid", "grid: {x_size: 4, y_size: 3", NULL, "2:4",
		       "invalid YAML: did not find expected ',' or '}'");
}

static void test_err_empty_file(void **state)
{
	(void)state;
	expect_file_err("empty.yaml", -EINVAL, "1:1",
			"empty descriptor (no YAML document)");
}

static void test_err_empty_buffer(void **state)
{
	(void)state;
	expect_err("", "1:1", "empty descriptor (no YAML document)");
}

static void test_err_file_not_found(void **state)
{
	char want[4200];
	const char *path = data_path("does_not_exist.yaml");

	(void)state;
	assert_int_equal(soc_desc_load_file(path, &desc, err, sizeof(err)),
			 -ENOENT);
	snprintf(want, sizeof(want), "%s: cannot open: %s", path,
		 strerror(ENOENT));
	assert_string_equal(err, want);
}

static void test_err_read_directory(void **state)
{
	const char *path = data_path("");

	(void)state;
	assert_int_equal(soc_desc_load_file(path, &desc, err, sizeof(err)),
			 -EIO);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "read error"));
}

static void test_err_truncated_file(void **state)
{
	(void)state;
	/* libyaml puts the end of a stream on a new line. */
	expect_file_err("truncated.yaml", -EINVAL, "6:1",
			"invalid YAML: did not find expected ',' or ']'");
}

static void test_err_duplicate_key_file(void **state)
{
	(void)state;
	expect_file_err("bad_dup_key.yaml", -EINVAL, "14:1",
			"duplicate key 'arc' (first at line 3, column 1)");
}

static void test_err_duplicate_nested_key(void **state)
{
	(void)state;
	expect_variant("grid", "grid: {x_size: 4, x_size: 5}", NULL, "1:19",
		       "duplicate key 'x_size' (first at line 1, column 8)");
}

static void test_err_anchor_file(void **state)
{
	(void)state;
	expect_file_err("bad_anchor.yaml", -EINVAL, "4:7",
			"anchors (&p) are not supported");
}

static void test_err_alias(void **state)
{
	(void)state;
	expect_variant("eth", "eth: *nodes", NULL, "5:6",
		       "aliases (*nodes) are not supported");
}

static void test_err_two_documents(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "---\nfoo: 1\n", "13:1",
		       "more than one YAML document");
}

static void test_err_complex_key(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "? [a]\n: 1\n", "13:3",
		       "mapping keys must be scalars, got a sequence");
}

static void test_err_control_character(void **state)
{
	(void)state;
	expect_variant(NULL, NULL, "x: \x01\n", "13:4",
		       "invalid YAML: control characters are not allowed");
}

/* ------------------------------------------------------------------ */
/* Hostile input */

/* libyaml itself limits simple keys to 1024 characters. */
static void test_err_long_key(void **state)
{
	size_t n = 1000;
	char *extra = malloc(n + 8);

	(void)state;
	assert_non_null(extra);
	memset(extra, 'k', n);
	memcpy(extra + n, ": 1\n", 5);
	expect_variant(NULL, NULL, extra, "13:1",
		       "unknown top-level key 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
		       "kkkkkkkkk...'");
	assert_true(strlen(err) < sizeof(err));
	free(extra);
}

static void test_err_long_value(void **state)
{
	size_t n = 200000;
	char *line = malloc(n + 16);

	(void)state;
	assert_non_null(line);
	memcpy(line, "arc: [", 6);
	memset(line + 6, '7', n);
	memcpy(line + 6 + n, "-1]", 4);
	expect_variant("arc", line, NULL, "2:7",
		       "arc[0]: malformed coordinate '7777777777777777777777777"
		       "777777777777777...' (expected \"x-y\")");
	free(line);
}

static void test_err_deep_nesting(void **state)
{
	size_t depth = 100000;
	char *text = malloc(depth + 16);

	(void)state;
	assert_non_null(text);
	memcpy(text, "a: ", 3);
	memset(text + 3, '[', depth);
	text[3 + depth] = '\0';
	/* The root mapping is level 1, so the 32nd '[' is one too many. */
	expect_err(text, "1:35", "nesting deeper than 32 levels");
	free(text);
}

static void test_err_deep_block_mappings(void **state)
{
	size_t levels = 200, o = 0;
	char *text = malloc(levels * (levels + 4) + 16);

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < levels; i++) {
		memset(text + o, ' ', i);
		o += i;
		memcpy(text + o, "k:\n", 3);
		o += 3;
	}
	text[o] = '\0';
	expect_err(text, "33:33", "nesting deeper than 32 levels");
	free(text);
}

static void test_err_too_many_nodes(void **state)
{
	size_t count = 70000, o;
	char *extra = malloc(count * 5 + 32);
	char *text;

	(void)state;
	assert_non_null(extra);
	o = (size_t)sprintf(extra, "junk: [");
	for (size_t i = 0; i < count; i++, o += 5)
		memcpy(extra + o, "0-0, ", 5);
	memcpy(extra + o, "]\n", 3);
	text = variant(NULL, NULL, extra);
	assert_int_equal(load(text), -EINVAL);
	if (!strstr(err, "t.yaml:13:") ||
	    !strstr(err, ": too many YAML nodes (limit 65536)"))
		print_error("message: %s\n", err);
	assert_non_null(strstr(err, "t.yaml:13:"));
	assert_non_null(strstr(err, ": too many YAML nodes (limit 65536)"));
	free(text);
	free(extra);
}

static void test_err_input_too_large(void **state)
{
	size_t n = (1u << 20) + 1;
	char *text = malloc(n + 1);

	(void)state;
	assert_non_null(text);
	memset(text, '#', n);
	text[n] = '\0';
	assert_int_equal(load(text), -EINVAL);
	assert_string_equal(err, "t.yaml: larger than 1048576 bytes");
	free(text);
}

/* ------------------------------------------------------------------ */

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_names),
		cmocka_unit_test(test_builtin_n150),
		cmocka_unit_test(test_builtin_n300),
		cmocka_unit_test(test_builtin_p150),
		cmocka_unit_test(test_builtin_e150),
		cmocka_unit_test(test_builtin_unknown),
		cmocka_unit_test(test_load_file_minimal),
		cmocka_unit_test(test_load_file_umd_style),
		cmocka_unit_test(test_default_name_from_origin),
		cmocka_unit_test(test_name_key),
		cmocka_unit_test(test_workers_sorted_row_major),
		cmocka_unit_test(test_noc1_default_mirror),
		cmocka_unit_test(test_noc1_explicit_maps),
		cmocka_unit_test(test_arch_spellings),
		cmocka_unit_test(test_no_eth_zero_eth_l1),
		cmocka_unit_test(test_harvest_flags),
		cmocka_unit_test(test_features_unknown_ignored),
		cmocka_unit_test(test_node_type_outside_grid),
		cmocka_unit_test(test_name_functions),
		cmocka_unit_test(test_small_error_buffer),
		cmocka_unit_test(test_err_missing_grid_file),
		cmocka_unit_test(test_err_missing_features),
		cmocka_unit_test(test_err_missing_grid_y_size),
		cmocka_unit_test(test_err_unknown_top_key_file),
		cmocka_unit_test(test_err_unknown_grid_key),
		cmocka_unit_test(test_err_unknown_harvesting_key),
		cmocka_unit_test(test_err_string_for_int),
		cmocka_unit_test(test_err_float_for_int),
		cmocka_unit_test(test_err_mapping_for_sequence),
		cmocka_unit_test(test_err_sequence_for_int),
		cmocka_unit_test(test_err_scalar_for_mapping),
		cmocka_unit_test(test_err_empty_value),
		cmocka_unit_test(test_err_top_level_not_mapping),
		cmocka_unit_test(test_err_arch_not_scalar),
		cmocka_unit_test(test_err_negative_size),
		cmocka_unit_test(test_err_zero_size),
		cmocka_unit_test(test_err_size_beyond_noc_address),
		cmocka_unit_test(test_err_int_overflow),
		cmocka_unit_test(test_err_eth_l1_zero_with_eth),
		cmocka_unit_test(test_err_coord_x_separator),
		cmocka_unit_test(test_err_coord_letters),
		cmocka_unit_test(test_err_coord_missing_y),
		cmocka_unit_test(test_err_coord_trailing_garbage),
		cmocka_unit_test(test_err_coord_outside_grid),
		cmocka_unit_test(test_err_coord_at_grid_edge),
		cmocka_unit_test(test_err_dram_coord_outside_grid),
		cmocka_unit_test(test_err_coord_not_scalar),
		cmocka_unit_test(test_err_node_listed_twice),
		cmocka_unit_test(test_err_node_in_two_categories),
		cmocka_unit_test(test_err_eth_on_dram_node),
		cmocka_unit_test(test_err_dram_channel_no_ports),
		cmocka_unit_test(test_err_dram_channel_too_many_ports),
		cmocka_unit_test(test_err_dram_channel_not_sequence),
		cmocka_unit_test(test_err_dram_no_channels),
		cmocka_unit_test(test_err_too_many_dram_channels),
		cmocka_unit_test(test_err_too_many_eth),
		cmocka_unit_test(test_err_too_many_arc),
		cmocka_unit_test(test_err_grid_too_large),
		cmocka_unit_test(test_err_grid_zero),
		cmocka_unit_test(test_err_harvest_col_without_tensix),
		cmocka_unit_test(test_err_harvest_row_without_tensix),
		cmocka_unit_test(test_err_harvest_row_outside_grid),
		cmocka_unit_test(test_err_harvest_listed_twice),
		cmocka_unit_test(test_err_harvest_dram_channel_range),
		cmocka_unit_test(test_err_harvest_eth_channel_range),
		cmocka_unit_test(test_err_harvest_negative),
		cmocka_unit_test(test_err_harvesting_not_mapping),
		cmocka_unit_test(test_err_umd_harvested_workers),
		cmocka_unit_test(test_err_noc1_map_length),
		cmocka_unit_test(test_err_noc1_map_not_permutation),
		cmocka_unit_test(test_err_noc1_map_out_of_range),
		cmocka_unit_test(test_err_feature_wrong_int),
		cmocka_unit_test(test_err_feature_wrong_bool),
		cmocka_unit_test(test_err_features_not_mapping),
		cmocka_unit_test(test_err_feature_group_not_mapping),
		cmocka_unit_test(test_err_arch_unknown),
		cmocka_unit_test(test_err_name_bad_chars),
		cmocka_unit_test(test_err_name_too_long),
		cmocka_unit_test(test_err_ignored_key_wrong_type),
		cmocka_unit_test(test_err_syntax_file),
		cmocka_unit_test(test_err_syntax_unclosed_flow),
		cmocka_unit_test(test_err_empty_file),
		cmocka_unit_test(test_err_empty_buffer),
		cmocka_unit_test(test_err_file_not_found),
		cmocka_unit_test(test_err_read_directory),
		cmocka_unit_test(test_err_truncated_file),
		cmocka_unit_test(test_err_duplicate_key_file),
		cmocka_unit_test(test_err_duplicate_nested_key),
		cmocka_unit_test(test_err_anchor_file),
		cmocka_unit_test(test_err_alias),
		cmocka_unit_test(test_err_two_documents),
		cmocka_unit_test(test_err_complex_key),
		cmocka_unit_test(test_err_control_character),
		cmocka_unit_test(test_err_long_key),
		cmocka_unit_test(test_err_long_value),
		cmocka_unit_test(test_err_deep_nesting),
		cmocka_unit_test(test_err_deep_block_mappings),
		cmocka_unit_test(test_err_too_many_nodes),
		cmocka_unit_test(test_err_input_too_large),
	};

	/*
	 * Meson runs this with protocol 'tap'; CMOCKA_MESSAGE_OUTPUT in the
	 * environment still overrides the default.
	 */
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("soc_desc", tests, NULL, NULL);
}
