#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The debug kernel of the VM tests: Debian's linux-source-6.1 with KASAN,
lockdep, kmemleak, UBSAN and KUnit (tests/vm/debug.config), built once and
cached outside the repository.

The cache directory is $TT_DEBUG_KERNEL_CACHE, else $XDG_CACHE_HOME/tt-stack,
else ~/.cache/tt-stack. The kernel lives in debug-kernel-<key>, where <key>
hashes everything the build depends on: the source tarball, the config
fragment, this recipe, the compiler and the linker. A missing kernel is
built in a temporary directory next to it and renamed when complete, so a
killed build leaves nothing that looks usable; a lock file keeps two runs
from building the same kernel at once (the second waits and then uses it).
The tree is kept after the build: modules are built against it with
"make -C <tree> M=<dir>" (it has had modules_prepare and has Module.symvers).

As a program: build if needed, then print the tree's path (progress on
stderr); --check prints it only if it is already built (exit 1 otherwise);
--key prints the key.
"""
import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = '/usr/src/linux-source-6.1.tar.xz'
FRAGMENT = os.path.join(HERE, 'debug.config')
# Bump when the steps in _build change in a way that changes the result.
RECIPE = 1


def cache_dir():
    base = os.environ.get('TT_DEBUG_KERNEL_CACHE')
    if not base:
        xdg = os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache')
        base = os.path.join(xdg, 'tt-stack')
    return base


def _tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    except OSError:
        return 'missing'
    return out.splitlines()[0] if out else 'unknown'


def key():
    """Hash of the build's inputs; None if the source tarball is missing."""
    if not os.path.isfile(SOURCE):
        return None
    h = hashlib.sha256()
    with open(SOURCE, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    with open(FRAGMENT, 'rb') as f:
        h.update(f.read())
    h.update(f'recipe {RECIPE}\n'.encode())
    h.update(_tool_version(['gcc', '--version']).encode())
    h.update(_tool_version(['ld', '--version']).encode())
    return h.hexdigest()[:16]


def tree_dir(k):
    return os.path.join(cache_dir(), f'debug-kernel-{k}')


def bzimage(tree):
    return os.path.join(tree, 'arch', 'x86', 'boot', 'bzImage')


def version(tree):
    """The kernel release, e.g. 6.1.192-ttdebug."""
    with open(os.path.join(tree, 'include', 'config',
                           'kernel.release')) as f:
        return f.read().strip()


def _complete(tree):
    return all(os.path.isfile(p) for p in (
        bzimage(tree), os.path.join(tree, 'Module.symvers'),
        os.path.join(tree, 'include', 'config', 'kernel.release')))


def _log(msg):
    print(f'debug-kernel: {msg}', file=sys.stderr, flush=True)


def _make(tree, *targets, log):
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL')}
    cmd = ['make', '-C', tree, f'-j{os.cpu_count() or 1}',
           'LOCALVERSION=-ttdebug', *targets]
    log.write(f'$ {" ".join(cmd)}\n')
    log.flush()
    p = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    if p.returncode:
        raise RuntimeError(f'"make {" ".join(targets)}" failed '
                           f'(exit {p.returncode})')


def _wanted():
    """The fragment's settings as {CONFIG_X: 'y' | 'n' | value}."""
    want = {}
    for line in open(FRAGMENT):
        line = line.strip()
        if line.startswith('CONFIG_'):
            name, _, value = line.partition('=')
            want[name] = value
        elif line.startswith('# CONFIG_') and line.endswith(' is not set'):
            want[line[2:-len(' is not set')]] = 'n'
    return want


def _check_config(tree):
    """Every line of the fragment is in the final .config: olddefconfig
    silently drops an option whose dependencies are not met."""
    have = {}
    for line in open(os.path.join(tree, '.config')):
        line = line.strip()
        if line.startswith('CONFIG_'):
            name, _, value = line.partition('=')
            have[name] = value
    lost = [f'{n}={v} (got {have.get(n, "n")})'
            for n, v in _wanted().items() if have.get(n, 'n') != v]
    if lost:
        raise RuntimeError('options of tests/vm/debug.config lost by '
                           'olddefconfig: ' + ', '.join(lost))


def _build(tmp, log):
    t0 = time.monotonic()
    _log(f'extracting {SOURCE}')
    os.makedirs(tmp)
    subprocess.run(['tar', '-xf', SOURCE, '-C', tmp,
                    '--strip-components=1'], check=True)
    _log('configuring: tinyconfig + tests/vm/debug.config')
    _make(tmp, 'tinyconfig', log=log)
    env = dict(os.environ, KCONFIG_CONFIG='.config')
    p = subprocess.run([os.path.join(tmp, 'scripts', 'kconfig',
                                     'merge_config.sh'), '-m', '.config',
                        FRAGMENT], cwd=tmp, env=env, stdout=log,
                       stderr=subprocess.STDOUT)
    if p.returncode:
        raise RuntimeError('merge_config.sh failed')
    _make(tmp, 'olddefconfig', log=log)
    _check_config(tmp)
    _log(f'building bzImage (about 3 min on 2 cores; log {log.name})')
    _make(tmp, 'bzImage', log=log)
    # modules_prepare alone leaves no Module.symvers; "modules" writes it
    # (there are no in-tree modules) so that modpost checks the module's
    # symbols against vmlinux.
    _log('modules_prepare, Module.symvers')
    _make(tmp, 'modules_prepare', 'modules', log=log)
    if not _complete(tmp):
        raise RuntimeError('build finished without bzImage or Module.symvers')
    _log(f'built in {time.monotonic() - t0:.0f} s')


def ensure():
    """Path of the built tree, building it if missing. Raises RuntimeError
    with a message (and leaves the log) if the build fails."""
    k = key()
    if k is None:
        raise RuntimeError(f'no {SOURCE} (package linux-source-6.1)')
    tree = tree_dir(k)
    if _complete(tree):
        return tree
    os.makedirs(cache_dir(), exist_ok=True)
    return _ensure_locked(k, tree)


def _ensure_locked(k, tree):
    with open(tree + '.lock', 'w') as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _log(f'another run is building {tree}; waiting for it')
            fcntl.flock(lock, fcntl.LOCK_EX)
        if _complete(tree):
            return tree
        # Leftovers of killed builds of this key (the lock says none runs).
        for old in glob.glob(tree + '.tmp-*'):
            shutil.rmtree(old, ignore_errors=True)
        if os.path.exists(tree):
            shutil.rmtree(tree)
        tmp = f'{tree}.tmp-{os.getpid()}'
        log_path = tree + '.log'
        _log(f'building the debug kernel {k} in {tmp}')
        with open(log_path, 'w') as log:
            try:
                _build(tmp, log)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                shutil.rmtree(tmp, ignore_errors=True)
                raise RuntimeError(f'{e}; see {log_path}') from None
        os.rename(tmp, tree)
        _log(f'ready: {tree}')
        return tree


def main():
    if '--key' in sys.argv:
        k = key()
        print(k or '')
        return 0 if k else 1
    if '--check' in sys.argv:
        k = key()
        if k and _complete(tree_dir(k)):
            print(tree_dir(k))
            return 0
        return 1
    try:
        print(ensure())
    except RuntimeError as e:
        _log(f'error: {e}')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
