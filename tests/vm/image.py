# SPDX-License-Identifier: Apache-2.0
"""Device image files for the guest's ivshmem functions.

The identity page (struct tt_identity, firmware/include/hw/host.h) is what
the driver's mock backend checks at probe; valid images also get a node
table with two Tensix nodes and a PCIe node whose memory and registers lie
in the image, and their node-ID registers, for the tests of TLB windows and
ATU regions (no model runs
behind these images: the memory is only memory). The layouts are repeated
here as struct formats; the constants (signature, contract version, arch,
board and node type numbers) are read from the headers, so they have one
source. Besides valid images, a few broken ones that the driver must refuse.
"""
import os
import re
import struct

# magic_lo, magic_hi, contract_major, contract_minor, state, arch, board,
# chip_index, grid_x, grid_y, tensix_count, image_size, node_table_off,
# node_size, dram_channels, dram_bank_size, worker_l1_size, eth_l1_size,
# soc_name[32], reset_gen, reserved[35]
IDENTITY = struct.Struct('<2I2H7I2Q2IQ2I32sI140x')
assert IDENTITY.size == 256, 'struct tt_identity is 256 bytes (hw/host.h)'
# type, flags, x, y, channel, reserved0, mem_base, mem_size, mem_off,
# regs_off, reserved1
NODE_DESC = struct.Struct('<4B2H5Q')
NODE_DESC_SIZE = 48  # sizeof(struct tt_node_desc), asserted in hw/host.h
assert NODE_DESC.size == NODE_DESC_SIZE
GRID_X, GRID_Y = 10, 12
# (type, x, y, memory bytes, image offset of the memory, of the registers)
NODES = (('TENSIX', 1, 1, 256 << 10, 0x40000, 0x10000),
         ('TENSIX', 2, 1, 256 << 10, 0x80000, 0x20000),
         ('PCIE', 0, 3, 0, 0, 0x30000))

KINDS = ('valid', 'zero', 'half-magic', 'bad-major', 'bad-size',
         'bad-size-hi', 'bad-table', 'bad-grid')


def hw_constants(root):
    """#defines and enumerators of the headers the identity page uses."""
    inc = os.path.join(root, 'firmware', 'include', 'hw')
    text = ''.join(open(os.path.join(inc, h)).read()
                   for h in ('host.h', 'version.h', 'arch.h', 'tile.h',
                             'niu.h'))
    pat = r'(?:#define\s+|^\s*)(TT_\w+)\s*=?\s*(0x[0-9a-fA-F]+|\d+)u?\b'
    return {n: int(v, 0) for n, v in re.findall(pat, text, re.M)}


def identity(c, kind, size, arch='WORMHOLE_B0', board='N150', chip=0):
    """The identity page of one image of `size` bytes."""
    f = dict(magic_lo=c['TT_IDENTITY_MAGIC_LO'],
             magic_hi=c['TT_IDENTITY_MAGIC_HI'],
             major=c['TT_HW_CONTRACT_MAJOR'], minor=c['TT_HW_CONTRACT_MINOR'],
             image_size=size, table_off=c['TT_IMAGE_NODE_TABLE_OFF'],
             node_size=NODE_DESC_SIZE, grid_x=GRID_X, grid_y=GRID_Y)
    if kind == 'zero':
        return bytes(IDENTITY.size)
    if kind == 'half-magic':
        f['magic_hi'] ^= 0x20
    elif kind == 'bad-major':
        f['major'] += 1
    elif kind == 'bad-size':
        f['image_size'] = 2 * size
    elif kind == 'bad-size-hi':  # wrong only in the upper 32 bits
        f['image_size'] = size | 1 << 32
    elif kind == 'bad-table':
        f['node_size'] = NODE_DESC_SIZE + 8
    elif kind == 'bad-grid':
        f['grid_x'] = 0
    elif kind != 'valid':
        raise ValueError(f'unknown image kind {kind!r}')
    return IDENTITY.pack(
        f['magic_lo'], f['magic_hi'], f['major'], f['minor'],
        c['TT_DEV_STATE_READY'], c['TT_HW_ARCH_' + arch],
        c['TT_HW_BOARD_' + board], chip, f['grid_x'], f['grid_y'], 64,
        f['image_size'], f['table_off'], f['node_size'], 8, 1 << 30,
        1 << 20, 256 << 10, b'ttvm-' + arch.lower().encode(), 0)


def node_table(c):
    """The node table of a valid image: NODES, every other entry empty."""
    table = bytearray(GRID_X * GRID_Y * NODE_DESC_SIZE)
    for kind, x, y, mem_size, mem_off, regs_off in NODES:
        NODE_DESC.pack_into(table, (y * GRID_X + x) * NODE_DESC_SIZE,
                            c['TT_NODE_' + kind], 0, x, y, 0xFFFF, 0, 0,
                            mem_size, mem_off, regs_off, 0)
    return bytes(table)


def node_id_registers(c):
    """(offset, bytes) pieces: each node's node-ID registers, as the model
    sets them (hw/tile.h tile control, hw/niu.h NIU 0 and NIU 1, the last
    in NOC 1 coordinates), which TLB windows read."""
    parts = []
    for _, x, y, _, _, regs_off in NODES:
        ids = ((c['TT_REG_TILE_CTRL'], c['TT_TILE_NODE_ID'], x, y),
               (c['TT_REG_NIU0'], c['TT_NIU_NODE_ID'], x, y),
               (c['TT_REG_NIU1'], c['TT_NIU_NODE_ID'], GRID_X - 1 - x,
                GRID_Y - 1 - y))
        for page, off, nx, ny in ids:
            parts.append((regs_off + page * c['TT_REG_PAGE_SIZE'] + off,
                          struct.pack('<I', nx | ny << 6)))
    return parts


def contents(c, kind, size, arch='WORMHOLE_B0', board='N150', chip=0):
    """(offset, bytes) pieces of one image: the identity page, and for a
    valid image the node table and the nodes' node-ID registers."""
    parts = [(0, identity(c, kind, size, arch, board, chip))]
    if kind == 'valid':
        parts.append((c['TT_IMAGE_NODE_TABLE_OFF'], node_table(c)))
        parts += node_id_registers(c)
    return parts


def write(path, parts, size):
    """A sparse file of `size` bytes holding the (offset, bytes) parts."""
    with open(path, 'wb') as f:
        f.truncate(size)
        for off, data in parts:
            f.seek(off)
            f.write(data)
