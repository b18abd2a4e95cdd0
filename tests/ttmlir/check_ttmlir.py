#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ttc parse against tt-mlir's own TTIR tests.

Usage: check_ttmlir.py [--ttc PATH] TT_MLIR_CHECKOUT

Reads every .mlir file under test/ttmlir/Dialect/TTIR/ of a tt-mlir
checkout. A file is negative when its name says so or it expects a diagnostic
(expected-error, -verify-diagnostics, or a CHECK line matching 'error:');
every other file is positive. Files with '// -----' sections
(split-input-file) are parsed section by section. Positive files should
parse and verify (`ttc parse --allow-unregistered`); negative ones should
fail with a located error (those whose ops ttc does not register are kept
opaque and pass, and those that test a pass's errors verify). Prints one
line per file that does not behave, then the totals; the exit status is
1 only if ttc crashed (docs/compiler.md has the last count and why each
positive file fails).
"""
import argparse
import os
import re
import subprocess
import sys

NEGATIVE = re.compile(r'expected-error|verify-diagnostics|CHECK[^:\n]*:'
                      r'.*error:')


def files(root):
    base = os.path.join(root, 'test', 'ttmlir', 'Dialect', 'TTIR')
    for d, _, names in sorted(os.walk(base)):
        for n in sorted(names):
            if n.endswith('.mlir'):
                yield os.path.join(d, n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ttc', default='build/tools/ttc/ttc')
    ap.add_argument('checkout')
    a = ap.parse_args()
    counts = {'pos': 0, 'pos_ok': 0, 'neg': 0, 'neg_ok': 0}
    crashes = 0
    for path in files(a.checkout):
        text = open(path, encoding='utf-8', errors='replace').read()
        neg = 'negative' in os.path.basename(path) or \
            bool(NEGATIVE.search(text))
        args = [a.ttc, 'parse', '--allow-unregistered', path]
        if 'split-input-file' in text:
            args.insert(2, '--split-input-file')
        p = subprocess.run(args, capture_output=True, text=True,
                           timeout=60)
        rel = os.path.relpath(path, a.checkout)
        first = (p.stderr.splitlines() or [''])[0]
        if p.returncode not in (0, 1):
            crashes += 1
            print(f'CRASH {rel}: exit {p.returncode}: {first}')
            continue
        kind = 'neg' if neg else 'pos'
        counts[kind] += 1
        good = (p.returncode == 1 and re.search(r':\d+:\d+: error:', first)
                if neg else p.returncode == 0)
        counts[kind + '_ok'] += bool(good)
        if not good:
            what = 'parsed' if neg else first.replace(path + ':', '')
            print(f'{"NEG" if neg else "POS"} {rel}: {what}')
    print(f'positive: {counts["pos_ok"]} of {counts["pos"]} parse and '
          f'verify; negative: {counts["neg_ok"]} of {counts["neg"]} fail '
          f'with a located error; crashes: {crashes}')
    return 1 if crashes else 0


if __name__ == '__main__':
    sys.exit(main())
