# SPDX-License-Identifier: Apache-2.0
"""The guest's initramfs, written as a newc cpio archive by this module, so
that device nodes (/dev/console) need no root and the archive is the same
on every run.
"""
import stat

_MAGIC = b'070701'


def _pad4(n):
    return b'\0' * (-n % 4)


class Cpio:
    """An uncompressed newc archive (the kernel accepts it as initrd)."""

    def __init__(self, path):
        self._f = open(path, 'wb')
        self._ino = 1

    def _entry(self, name, mode, data=b'', rdev=(0, 0)):
        name_b = name.encode() + b'\0'
        fields = (self._ino, mode, 0, 0, 1, 0, len(data), 0, 0,
                  rdev[0], rdev[1], len(name_b), 0)
        head = _MAGIC + b''.join(b'%08X' % v for v in fields)
        self._f.write(head + name_b + _pad4(len(head) + len(name_b)))
        self._f.write(data + _pad4(len(data)))
        self._ino += 1

    def dir(self, name):
        self._entry(name, stat.S_IFDIR | 0o755)

    def file(self, name, data, mode=0o644):
        self._entry(name, stat.S_IFREG | mode, data)

    def symlink(self, name, target):
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, name, major, minor, mode=0o600):
        self._entry(name, stat.S_IFCHR | mode, rdev=(major, minor))

    def close(self):
        self._entry('TRAILER!!!', 0)
        self._f.close()


def _parents(names):
    """Every directory above the paths in names, parents first (the kernel's
    unpacker creates no missing directories)."""
    dirs = set()
    for name in names:
        parts = name.strip('/').split('/')[:-1]
        dirs.update('/'.join(parts[:i + 1]) for i in range(len(parts)))
    return sorted(dirs, key=lambda d: (d.count('/'), d))


def build(path, files):
    """Write an initramfs holding busybox, /dev/console and `files`, a dict
    of guest path -> (host path, mode); their directories are created."""
    c = Cpio(path)
    base = ('bin', 'dev', 'proc', 'sys', 'tmp')
    for d in base + tuple(d for d in _parents(files) if d not in base):
        c.dir(d)
    c.chardev('dev/console', 5, 1)
    for guest, (host, mode) in sorted(files.items()):
        with open(host, 'rb') as f:
            c.file(guest.lstrip('/'), f.read(), mode)
    c.close()
