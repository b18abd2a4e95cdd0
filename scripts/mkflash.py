#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build the firmware flash bundle (tt-flash.bin) from firmware ELF files.

Usage:
  mkflash.py --include firmware/include --bundle-version A.B.C.D
             --entry KIND ELF A.B.C.D [--entry ...] --output tt-flash.bin

KIND is arc, brisc, ncrisc or compute. Layout (firmware/include/hw/flash.h):
struct tt_flash_header at 0, then the payloads, each 4-byte aligned. A
payload is the ELF's loadable segments flattened into one image from the
lowest address; the zero-filled tail (.bss) becomes bss_size. The model
adds the board information entry when it builds a device, so none is
written here.

Constants (magic, format, kinds, sizes, load regions) are read from the
contract headers rather than repeated here: the headers stay the one
source of truth. Python standard library only.
"""

import argparse
import os
import re
import struct
import sys
import zlib

# struct tt_flash_entry: 8 x u32; struct tt_flash_header: 4 x u32 + entries
# (the C side checks both sizes with _Static_assert).
ENTRY_FMT = '<8I'
HEADER_FMT = '<4I'
BOARD_INFO_SIZE = 128  # struct tt_board_info, room the model needs

# Flash kind -> (enum name, name of the region's base, name of its size)
KINDS = {
    'arc': ('TT_FLASH_ARC_FW', 'TT_ARC_CSM_BASE', 'TT_ARC_CSM_SIZE'),
    'brisc': ('TT_FLASH_BRISC_FW', 'TT_L1_FW_BRISC', 'TT_L1_FW_SIZE'),
    'ncrisc': ('TT_FLASH_NCRISC_FW', 'TT_L1_FW_NCRISC', 'TT_L1_FW_SIZE'),
    'compute': ('TT_FLASH_COMPUTE_FW', 'TT_L1_FW_COMPUTE', 'TT_L1_FW_SIZE'),
}

HEADERS = ('flash.h', 'arc.h', 'l1.h', 'tile.h')

INT_RE = r'(0[xX][0-9A-Fa-f]+|[0-9]+)(?:[uU]?[lL]{0,2})'
DEFINE_RE = re.compile(r'^\s*#\s*define\s+(TT_\w+)\s+\(?' + INT_RE +
                       r'\)?\s*(?:/\*.*)?$')
ENUM_RE = re.compile(r'^\s*(TT_\w+)\s*=\s*' + INT_RE + r'\s*,')

PT_LOAD = 1
EM_RISCV = 243


class Error(Exception):
    pass


def read_constants(include_dir):
    """Integer #defines and enum members of the flash-related headers."""
    consts = {}
    for name in HEADERS:
        path = os.path.join(include_dir, 'hw', name)
        try:
            with open(path, encoding='utf-8') as f:
                lines = f.readlines()
        except OSError as e:
            raise Error('%s: %s' % (path, e.strerror))
        for line in lines:
            m = DEFINE_RE.match(line) or ENUM_RE.match(line)
            if m:
                consts[m.group(1)] = int(m.group(2), 0)
    return consts


def const(consts, name):
    if name not in consts:
        raise Error('contract headers define no %s' % name)
    return consts[name]


def parse_version(text):
    parts = text.split('.')
    if len(parts) != 4 or not all(p.isdigit() and int(p) < 256
                                  for p in parts):
        raise Error('version %r is not a.b.c.d with bytes' % text)
    a, b, c, d = (int(p) for p in parts)
    return a << 24 | b << 16 | c << 8 | d


def load_segments(path, data):
    """(entry, [(vaddr, filedata, memsz)]) of a 32-bit RISC-V executable."""
    if len(data) < 52 or data[:4] != b'\x7fELF':
        raise Error('%s: not an ELF file' % path)
    if data[4] != 1 or data[5] != 1:
        raise Error('%s: not a 32-bit little-endian ELF file' % path)
    (e_type, e_machine, _, e_entry, e_phoff, _, _, _, e_phentsize,
     e_phnum) = struct.unpack_from('<HHIIIIIHHH', data, 16)
    if e_type != 2 or e_machine != EM_RISCV:
        raise Error('%s: not a RISC-V executable' % path)
    if e_phentsize != 32 or e_phoff + 32 * e_phnum > len(data):
        raise Error('%s: bad program header table' % path)
    segs = []
    for i in range(e_phnum):
        (p_type, p_offset, p_vaddr, _, p_filesz, p_memsz, _,
         _) = struct.unpack_from('<8I', data, e_phoff + 32 * i)
        if p_type != PT_LOAD or p_memsz == 0:
            continue
        if p_filesz > p_memsz or p_offset + p_filesz > len(data):
            raise Error('%s: bad segment %d' % (path, i))
        segs.append((p_vaddr, data[p_offset:p_offset + p_filesz], p_memsz))
    if not segs:
        raise Error('%s: nothing to load' % path)
    return e_entry, sorted(segs, key=lambda s: s[0])


def flatten(path, segs):
    """(load_addr, image bytes, bss_size): the segments as one flat image
    followed by zeros. Gaps between segments become zero bytes."""
    base = segs[0][0]
    prev_end = base
    for vaddr, _, memsz in segs:
        if vaddr < prev_end:
            raise Error('%s: segments overlap at 0x%x' % (path, vaddr))
        prev_end = vaddr + memsz
    mem_end = prev_end
    file_end = max((v + len(fd) for v, fd, _ in segs if fd), default=base)
    image = bytearray(file_end - base)
    for vaddr, filedata, _ in segs:
        image[vaddr - base:vaddr - base + len(filedata)] = filedata
    # Whole words, so the firmware can copy the flash word by word.
    pad = -len(image) % 4
    image += bytes(pad)
    return base, bytes(image), max(0, mem_end - file_end - pad)


def make_payload(consts, kind, path, version):
    enum_name, region_base, region_size = KINDS[kind]
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as e:
        raise Error('%s: %s' % (path, e.strerror))
    entry, segs = load_segments(path, data)
    load, image, bss = flatten(path, segs)
    lo = const(consts, region_base)
    hi = lo + const(consts, region_size)
    if load < lo or load + len(image) + bss > hi:
        raise Error('%s: image 0x%x..0x%x is outside its region 0x%x..0x%x'
                    % (path, load, load + len(image) + bss, lo, hi))
    if entry % 4 or not load <= entry < load + len(image):
        raise Error('%s: entry 0x%x is not in the image' % (path, entry))
    return {
        'kind': const(consts, enum_name),
        'image': image,
        'load_addr': load,
        'bss_size': bss,
        'entry': entry,
        'version': version,
    }


def build(consts, bundle_version, payloads):
    max_entries = const(consts, 'TT_FLASH_MAX_ENTRIES')
    flash_size = const(consts, 'TT_ARC_FLASH_SIZE')
    if len(payloads) >= max_entries:
        raise Error('%d entries leave no room for the board information'
                    % len(payloads))
    header_size = struct.calcsize(HEADER_FMT) + \
        max_entries * struct.calcsize(ENTRY_FMT)
    body_start = (header_size + 3) & ~3
    entries = []
    body = bytearray()
    kinds = set()
    for p in payloads:
        if p['kind'] in kinds:
            raise Error('two payloads of kind %d' % p['kind'])
        kinds.add(p['kind'])
        image = p['image']
        offset = body_start + len(body)
        entries.append(struct.pack(ENTRY_FMT, p['kind'], offset, len(image),
                                   p['load_addr'], p['bss_size'], p['entry'],
                                   p['version'],
                                   zlib.crc32(image) & 0xFFFFFFFF))
        body += image + bytes(-len(image) % 4)
    header = struct.pack(HEADER_FMT, const(consts, 'TT_FLASH_MAGIC'),
                         const(consts, 'TT_FLASH_FORMAT'), bundle_version,
                         len(entries))
    header += b''.join(entries)
    header += bytes(header_size - len(header))
    out = header + bytes(body_start - header_size) + bytes(body)
    if len(out) + BOARD_INFO_SIZE > flash_size:
        raise Error('bundle of %d bytes leaves no room in a %d-byte flash'
                    % (len(out), flash_size))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--include', required=True,
                    help='directory holding hw/flash.h')
    ap.add_argument('--bundle-version', required=True)
    ap.add_argument('--entry', nargs=3, action='append', required=True,
                    metavar=('KIND', 'ELF', 'VERSION'))
    ap.add_argument('--output', required=True)
    args = ap.parse_args(argv)
    try:
        consts = read_constants(args.include)
        payloads = []
        for kind, path, ver in args.entry:
            if kind not in KINDS:
                raise Error('unknown kind %r (one of %s)'
                            % (kind, ', '.join(KINDS)))
            payloads.append(make_payload(consts, kind, path,
                                         parse_version(ver)))
        out = build(consts, parse_version(args.bundle_version), payloads)
    except Error as e:
        sys.stderr.write('mkflash: %s\n' % e)
        return 1
    tmp = args.output + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(out)
    os.replace(tmp, args.output)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
