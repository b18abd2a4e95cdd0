#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a C header that holds a text file as one string constant.

usage: embed-text.py INPUT OUTPUT NAME
"""
import sys


def main():
    src, out, name = sys.argv[1:4]
    with open(src, encoding='utf-8') as f:
        text = f.read()
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
