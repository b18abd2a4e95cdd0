#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A shared library exports its API and nothing else.

Usage: check_exports.py [--api MACRO] [--def-prefix P] LIB HEADER_DIR

libtt.so's API is declared TT_API in lib/include/tt/*.h and its
subdirectories (tt/ops/*.h); libttc.so's
TTC_API in tools/ttc/include/ttc/*.h, plus one function per line
NAME(op) of its *.def lists (P + op, ttc_ for the builder's ops).

Cases (TAP):
  1. there are declarations and exported names;
  2. every name `nm -D --defined-only` lists is declared with MACRO in
     HEADER_DIR/*.h (no chip-model or common/ internals leak);
  3. every declaration is exported.
"""
import argparse
import glob
import os
import re
import subprocess
import sys


def declared(header_dir, macro, def_prefix):
    # The declared name is the last identifier before the first '(' after
    # the macro (declarations may span lines).
    decl = re.compile(r'\b' + macro + r'\b([^;(]*?)\b([A-Za-z_]\w*)\s*\(',
                      re.S)
    names = set()
    # the headers and those of their subdirectories (tt/ops/*.h)
    for h in sorted(glob.glob(os.path.join(header_dir, '**', '*.h'),
                              recursive=True)):
        text = open(h, encoding='utf-8').read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        # macros, continuation lines included
        text = re.sub(r'#define(?:[^\n]*\\\n)*[^\n]*', ' ', text)
        names.update(m.group(2) for m in decl.finditer(text))
    for d in sorted(glob.glob(os.path.join(header_dir, '*.def'))):
        if def_prefix is None:
            continue
        text = open(d, encoding='utf-8').read()
        names.update(def_prefix + m.group(1) for m in
                     re.finditer(r'^\w+\((\w+)\)', text, re.M))
    return names


def exported(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        f = line.split()
        # Version nodes (A) are not symbols of the library's code.
        if len(f) == 3 and f[1] != 'A':
            names.add(f[2])
    return names


def case(i, good, name, extra):
    print(f'{"ok" if good else "not ok"} {i} - {name}')
    for n in sorted(extra)[:50]:
        print(f'#   {n}')
    if len(extra) > 50:
        print(f'#   ... and {len(extra) - 50} more')
    return good


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--api', default='TT_API', help='the export macro')
    ap.add_argument('--def-prefix', help='prefix of the names *.def lists')
    ap.add_argument('lib')
    ap.add_argument('header_dir')
    a = ap.parse_args()
    api = declared(a.header_dir, a.api, a.def_prefix)
    syms = exported(a.lib)
    lib = os.path.basename(a.lib)
    print('1..3')
    ok = case(1, bool(api) and bool(syms), f'{len(api)} {a.api} '
              f'declarations, {len(syms)} exported names', [])
    leaked = syms - api
    ok &= case(2, not leaked, f'{lib} exports only {a.api} names '
               f'({len(leaked)} others)', leaked)
    missing = api - syms
    ok &= case(3, not missing, f'every {a.api} declaration is exported '
               f'({len(missing)} not)', missing)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
