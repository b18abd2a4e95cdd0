#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""libtt.so exports its API and nothing else.

Usage: check_exports.py LIBTT_SO INCLUDE_DIR

Cases (TAP):
  1. every name `nm -D --defined-only` lists is declared TT_API in
     INCLUDE_DIR/tt/*.h (no chip-model or common/ internals leak);
  2. every TT_API declaration is exported.
"""
import glob
import os
import re
import subprocess
import sys

# The declared name is the last identifier before the first '(' after
# TT_API (declarations may span lines).
DECL = re.compile(r'\bTT_API\b([^;(]*?)\b([A-Za-z_]\w*)\s*\(', re.S)


def declared(include_dir):
    names = set()
    for h in sorted(glob.glob(os.path.join(include_dir, 'tt', '*.h'))):
        text = open(h, encoding='utf-8').read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        text = re.sub(r'#define[^\n]*', ' ', text)
        names.update(m.group(2) for m in DECL.finditer(text))
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
    lib, inc = sys.argv[1], sys.argv[2]
    api, syms = declared(inc), exported(lib)
    print('1..3')
    ok = case(1, bool(api) and bool(syms),
              f'{len(api)} TT_API declarations, {len(syms)} exported names', [])
    leaked = syms - api
    ok &= case(2, not leaked,
               f'{lib} exports only TT_API names ({len(leaked)} others)', leaked)
    missing = api - syms
    ok &= case(3, not missing,
               f'every TT_API declaration is exported ({len(missing)} not)', missing)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
