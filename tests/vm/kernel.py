#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The guest kernel: the newest installed Debian 6.1 kernel (linux-image-amd64)
that also has its headers (linux-headers-amd64), so that a module built
against those headers loads in it. The ABI number (6.1.0-N) is never
hard-coded: Debian bumps it with every kernel update.

As a program: print the kernel build directory (--kdir) or the kernel image
(--vmlinuz), or nothing and exit 1 when there is no such kernel.
"""
import glob
import os
import re
import sys

VERSION = re.compile(r'^6\.1\.0-(\d+)-amd64$')


def _build_dir(version):
    for d in (f'/lib/modules/{version}/build',
              f'/usr/src/linux-headers-{version}'):
        if os.path.isfile(os.path.join(d, 'Makefile')):
            return d
    return None


def find():
    """(version, vmlinuz, kdir) of the newest usable kernel, or None."""
    best = None
    for vmlinuz in glob.glob('/boot/vmlinuz-6.1.0-*-amd64'):
        version = os.path.basename(vmlinuz)[len('vmlinuz-'):]
        m = VERSION.match(version)
        kdir = _build_dir(version) if m else None
        if kdir and (best is None or int(m.group(1)) > best[0]):
            best = (int(m.group(1)), version, vmlinuz, kdir)
    return best[1:] if best else None


def main():
    k = find()
    if not k:
        return 1
    print(k[1] if '--vmlinuz' in sys.argv else k[2])
    return 0


if __name__ == '__main__':
    sys.exit(main())
