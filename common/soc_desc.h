/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SoC descriptors: the shape of one chip (grid, node kinds, memory sizes,
 * harvesting), loaded from YAML in the format of tt-umd's soc_descriptor
 * (docs/soc-descriptor.md) plus a `harvesting` section.
 *
 * A loaded descriptor is a plain value: no allocation, safe to copy.
 * Loading validates everything; an error message names the file, line and
 * column of the offending YAML node and what was wrong with it.
 */
#ifndef TT_COMMON_SOC_DESC_H
#define TT_COMMON_SOC_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "hw/arch.h"
#include "hw/dram.h"

#define SOC_MAX_GRID 32 /* nodes per axis; NOC coordinates are 6 bits */
#define SOC_MAX_NODES (SOC_MAX_GRID * SOC_MAX_GRID)
#define SOC_MAX_ETH 32
#define SOC_MAX_SMALL 8 /* arc, pcie, security, l2cpu lists */
#define SOC_ERR_MAX 256 /* room for an error message */

struct soc_xy {
	uint8_t x, y;
};

struct soc_desc {
	char name[32]; /* descriptor name: file stem, or `name:` */
	enum tt_hw_arch arch;
	unsigned grid_x, grid_y;

	uint64_t worker_l1_size; /* bytes */
	uint64_t eth_l1_size; /* bytes, 0 if no ETH nodes */
	uint64_t dram_bank_size; /* bytes per channel */

	unsigned arc_count, pcie_count, security_count, l2cpu_count;
	struct soc_xy arc[SOC_MAX_SMALL], pcie[SOC_MAX_SMALL];
	struct soc_xy security[SOC_MAX_SMALL], l2cpu[SOC_MAX_SMALL];

	unsigned dram_channels; /* 1..TT_DRAM_MAX_CHANNELS */
	unsigned dram_ports[TT_DRAM_MAX_CHANNELS]; /* endpoints per channel */
	struct soc_xy dram[TT_DRAM_MAX_CHANNELS][TT_DRAM_MAX_PORTS];

	unsigned eth_count; /* list order = ETH channel number */
	struct soc_xy eth[SOC_MAX_ETH];

	unsigned worker_count; /* physical Tensix nodes, row-major */
	struct soc_xy workers[SOC_MAX_NODES];
	unsigned router_count;
	struct soc_xy routers[SOC_MAX_NODES];

	/* NOC 0 -> NOC 1 coordinate maps; mirror (grid - 1 - c) if absent. */
	uint8_t noc0_x_to_noc1_x[SOC_MAX_GRID];
	uint8_t noc0_y_to_noc1_y[SOC_MAX_GRID];

	/* Harvesting: bit n = NOC 0 row y=n / column x=n / DRAM channel n /
	 * ETH channel n fused off. Rows and columns must hold Tensix nodes. */
	uint32_t harvested_rows;
	uint32_t harvested_cols;
	uint32_t harvested_dram;
	uint32_t harvested_eth;

	/* Derived by the loader. */
	uint8_t node_type[SOC_MAX_GRID][SOC_MAX_GRID]; /* [y][x] tt_hw_node_type */
	uint8_t node_flags[SOC_MAX_GRID][SOC_MAX_GRID]; /* [y][x] TT_NODE_F_* */
	uint16_t node_channel[SOC_MAX_GRID][SOC_MAX_GRID]; /* DRAM/ETH channel
							    * or 0xFFFF */
	unsigned tensix_count; /* enabled Tensix nodes */
	struct soc_xy tensix[SOC_MAX_NODES]; /* enabled, row-major (logical) */
};

/*
 * Load a descriptor from a YAML file. On failure returns a negative errno
 * (-ENOENT, -EINVAL, ...) and writes "file:line:col: message" to err.
 */
int soc_desc_load_file(const char *path, struct soc_desc *out, char *err,
		       size_t errlen);

/* Same, from a buffer; `origin` names it in error messages. */
int soc_desc_load_buffer(const char *text, size_t len, const char *origin,
			 struct soc_desc *out, char *err, size_t errlen);

/*
 * Load one of the descriptors built into the program (the YAML files in common/socs/),
 * by name, e.g. "wormhole_b0_n150". -ENOENT if there is none by that name.
 */
int soc_desc_builtin(const char *name, struct soc_desc *out, char *err,
		     size_t errlen);

/* NULL-terminated list of built-in descriptor names. */
const char *const *soc_desc_builtin_names(void);

/* Node kind at NOC 0 coordinates; TT_NODE_NONE outside the grid. */
enum tt_hw_node_type soc_desc_node_type(const struct soc_desc *d, unsigned x,
					unsigned y);

/* Name of an architecture ("wormhole_b0", ...) and of a node type. */
const char *soc_arch_name(enum tt_hw_arch arch);
const char *soc_node_type_name(enum tt_hw_node_type t);

#endif /* TT_COMMON_SOC_DESC_H */
