#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a C header that holds a text file as one string constant.

usage: embed-text.py INPUT OUTPUT NAME

A line `#include "path"` naming a file relative to the including file
("x.h" next to it, "../common/x.h") is replaced by that file's text
(recursively, each file once), so that a kernel built from the string,
which has no directory to look in, still gets the headers it shares with
other kernels. Other includes (the kernel SDK's) stay as they are.
"""
import os
import re
import sys

LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$')


def inline(path, seen):
    """The text of path with its local includes inlined."""
    here = os.path.dirname(path)
    out = []
    with open(path, encoding='utf-8') as f:
        for line in f.read().splitlines(keepends=True):
            m = LOCAL_INCLUDE.match(line)
            target = (os.path.normpath(os.path.join(here, m.group(1)))
                      if m else None)
            if not target or not os.path.isfile(target):
                out.append(line)
                continue
            if target not in seen:
                seen.add(target)
                out.append(f'/* {m.group(1)}, inlined by embed-text.py */\n')
                out.append(inline(target, seen))
    return ''.join(out)


def main():
    src, out, name = sys.argv[1:4]
    text = inline(src, {os.path.abspath(src)})
    lines = [f'/* Generated from {src.split("/")[-1]} by embed-text.py. */',
             f'static const char {name}[] =']
    for line in text.splitlines(keepends=True):
        esc = line.replace('\\', '\\\\').replace('"', '\\"')
        esc = esc.replace('\n', '\\n').replace('\t', '\\t')
        lines.append(f'\t"{esc}"')
    lines[-1] += ';'
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
