#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""TAP: the driver's packaging (driver/README.md, "Install").

The DKMS tree (driver/dkms-tree) builds on its own against a kernel's
headers with no warnings, its dkms.conf names the module's own version,
and "make dkms-install" / "make driver-install" with DESTDIR stage the
files where DKMS, modprobe and udev look for them, none world-writable.
"""
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'tests', 'vm'))
import kernel  # noqa: E402  (tests/vm/kernel.py: the Debian 6.1 headers)

cases = []


def case(ok, name, diag=''):
    cases.append(ok)
    print('%s %d - %s' % ('ok' if ok else 'not ok', len(cases), name))
    for line in diag.splitlines()[-20:] if not ok else []:
        print('# ' + line)


def run(args, **kw):
    return subprocess.run(args, cwd=TOP, capture_output=True, text=True,
                          **kw)


def world_writable(root):
    bad = []
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            if not os.path.islink(p) and os.stat(p).st_mode & 0o002:
                bad.append(p)
    return bad


def main():
    found = kernel.find()
    if not found:
        print('not ok 1 - no Debian 6.1 kernel with headers (make deps)')
        print('1..1')
        return 1
    kdir = found[2]
    with tempfile.TemporaryDirectory() as tmp:
        r = run(['python3', 'driver/dkms-tree', tmp])
        src = r.stdout.strip()
        case(r.returncode == 0 and os.path.isdir(src),
             'dkms-tree writes a source tree', r.stderr)
        version = src.rsplit('tenstorrent-', 1)[-1]
        conf = open(os.path.join(src, 'dkms.conf')).read() \
            if os.path.isfile(os.path.join(src, 'dkms.conf')) else ''
        case('PACKAGE_VERSION="%s"' % version in conf and
             'BUILT_MODULE_NAME[0]="tenstorrent"' in conf,
             'dkms.conf names the module and its version ' + version, conf)

        r = run(['make', '-C', kdir, 'M=' + src, 'W=1', 'modules'])
        warn = [line for line in (r.stdout + r.stderr).splitlines()
                if re.search(r'warning:|error:', line)]
        ko = os.path.join(src, 'tenstorrent.ko')
        case(r.returncode == 0 and not warn and os.path.isfile(ko),
             'the tree builds alone against %s with W=1, no warnings' % kdir,
             '\n'.join(warn) or r.stderr)
        r = run(['/usr/sbin/modinfo', '-F', 'version', ko])
        case(r.stdout.strip() == version,
             'the module it builds says version ' + version,
             r.stdout + r.stderr)

        stage = os.path.join(tmp, 'stage')
        r = run(['make', '-s', 'dkms-install', 'DESTDIR=' + stage,
                 'BUILD=' + os.path.join(tmp, 'build')])
        staged = os.path.join(stage, 'usr', 'src', 'tenstorrent-' + version)
        rule = os.path.join(stage, 'etc', 'udev', 'rules.d',
                            '50-tenstorrent.rules')
        case(r.returncode == 0 and
             os.path.isfile(os.path.join(staged, 'dkms.conf')) and
             os.path.isfile(os.path.join(staged, 'include', 'linux',
                                         'tenstorrent.h')),
             'dkms-install stages /usr/src/tenstorrent-' + version,
             r.stdout + r.stderr)
        case(os.path.isfile(rule) and
             (os.stat(rule).st_mode & 0o777) == 0o644,
             'dkms-install stages the udev rule, mode 0644')

        stage2 = os.path.join(tmp, 'stage2')
        r = run(['make', '-s', 'driver-install', 'DESTDIR=' + stage2,
                 'KDIR=' + kdir, 'BUILD=' + os.path.join(tmp, 'build'),
                 'DRIVER_OUT=' + os.path.join(tmp, 'drv')])
        kos = [os.path.join(d, f) for d, _, fs in os.walk(stage2)
               for f in fs if f == 'tenstorrent.ko']
        case(r.returncode == 0 and len(kos) == 1 and
             '/extra/' in kos[0],
             'driver-install stages lib/modules/<kernel>/extra/tenstorrent.ko',
             r.stderr)
        bad = world_writable(stage) + world_writable(stage2)
        case(not bad, 'nothing staged is world-writable', '\n'.join(bad))
    print('1..%d' % len(cases))
    return 0 if all(cases) else 1


if __name__ == '__main__':
    sys.exit(main())
