# SPDX-License-Identifier: Apache-2.0
"""The chip model behind a guest: a ttsim daemon serving QEMU.

The `model` scenario boots a guest whose PCI function is an
ivshmem-doorbell device on ttsim's ivshmem socket (docs/ttsim.md, "Serving
QEMU"): BAR2 is the running model's device image. The daemon runs as
`ttsim run` (start --foreground) in a child process, so that this harness
owns its log (standard error, into a file) and its exit status, with a
private runtime directory so that it meets no other daemon. `ttsim stop`
ends it as a user would.
"""
import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time

import qemu

# What `ttsim start` prints per device once it is ready.
READY = re.compile(r'^(?P<name>\S+): (?P<board>\w+) chip (?P<chip>\d+), '
                   r'(?P<arch>\w+), grid (?P<gx>\d+)x(?P<gy>\d+), '
                   r'(?P<tensix>\d+) Tensix, pid (?P<pid>\d+)$')
# The daemon's log lines that one guest's visit explains; any other line
# (a refused or dropped peer, a failed signal, an accept error) is a fault.
EXPECTED_LOG = re.compile(
    r'^ttsim: \S+: ivshmem \S+: guest (connected|disconnected \(hang-up\))$|'
    r'^ttsim: stopping: a client asked to shut down \(device \S+\)$')
# The line after it: the guest's RAM, which QEMU maps (--guest-ram).
GUEST_RAM = re.compile(r'^guest RAM: (?P<path>\S+), (?P<size>\d+) bytes')
NAME = 'ttvm0'


class Daemon:
    """One ttsim daemon serving one board (an n150, a p150) on an ivshmem
    socket."""

    def __init__(self, ttsim, log_path, board='n150'):
        self.ttsim = ttsim
        self.log_path = log_path
        self.board = board
        self.tmp = tempfile.mkdtemp(prefix='ttvm-model-')
        self.sock = os.path.join(self.tmp, 'ivs.sock')
        self.env = dict(os.environ,
                        TTSIM_RUNTIME_DIR=os.path.join(self.tmp, 'run'))
        self.proc = None
        self.device = None
        self.guest_ram = None
        self._out = b''

    def start(self, timeout=60):
        """Start the daemon; return (ok, diagnostics). On success
        self.device holds the fields of its ready line and self.guest_ram
        the path of the guest's RAM, which the daemon made."""
        log = open(self.log_path, 'w')
        try:
            self.proc = subprocess.Popen(
                [self.ttsim, 'run', '--board', self.board, '--name', NAME,
                 '--ivshmem', self.sock, '--guest-ram', f'{qemu.RAM_MIB}M'],
                env=self.env,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=log, text=True)
        except OSError as e:
            return False, [f'cannot run {self.ttsim}: {e}']
        finally:
            log.close()
        line = self._line(timeout)
        m = READY.match(line or '')
        if not m:
            return False, [f'ttsim printed {line!r}, want a ready line',
                           *self.log_lines()[-20:]]
        self.device = m.groupdict()
        ram = self._line(timeout)
        g = GUEST_RAM.match(ram or '')
        if not g or int(g['size']) != qemu.RAM_MIB << 20:
            return False, [f'ttsim printed {ram!r}, want its guest RAM line '
                           f'of {qemu.RAM_MIB} MiB', *self.log_lines()[-20:]]
        self.guest_ram = g['path']
        return True, [line, ram]

    def _line(self, timeout):
        """The next line of the daemon's standard output, or None. Read
        with os.read, past the file object's buffer: ttsim writes several
        lines at once, and a line already in that buffer would leave
        select() waiting for nothing."""
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b'\n' not in self._out:
            ready, _, _ = select.select(
                [fd], [], [], max(0, deadline - time.monotonic()))
            chunk = os.read(fd, 4096) if ready else b''
            if not chunk:
                return None
            self._out += chunk
        line, self._out = self._out.split(b'\n', 1)
        return line.decode(errors='replace').strip()

    def serving(self):
        """Whether the daemon still runs and `ttsim list` shows its device
        (not stale); with the list's output."""
        if self.proc is None or self.proc.poll() is not None:
            return False, ['the daemon has exited'
                           f' (status {self.proc and self.proc.returncode})']
        p = subprocess.run([self.ttsim, 'list'], env=self.env,
                           capture_output=True, text=True, timeout=30)
        out = (p.stdout + p.stderr).splitlines()
        ok = p.returncode == 0 and any(
            ln.startswith(f'{NAME}: ') and 'stale' not in ln for ln in out)
        return ok, out

    def stop(self, timeout=30):
        """`ttsim stop`, then wait for the daemon; return its exit status
        (None if it had to be killed) and diagnostics. Always leaves no
        process and no temporary files behind."""
        diag = []
        status = None
        if self.proc is not None:
            if self.proc.poll() is None:
                p = subprocess.run([self.ttsim, 'stop', NAME], env=self.env,
                                   capture_output=True, text=True,
                                   timeout=timeout)
                diag += (p.stdout + p.stderr).splitlines()
            try:
                status = self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                diag.append(f'the daemon did not exit within {timeout} s: '
                            f'killed')
            self.proc.stdout.close()
        if os.path.exists(self.sock):
            diag.append(f'the daemon left its socket {self.sock}')
            status = status or -1
        shutil.rmtree(self.tmp, ignore_errors=True)
        return status, diag

    def log_lines(self):
        try:
            with open(self.log_path) as f:
                return f.read().splitlines()
        except OSError as e:
            return [f'no daemon log: {e}']

    def unexpected_log(self):
        """The daemon's log lines that are not a guest's normal visit."""
        return [ln for ln in self.log_lines() if not EXPECTED_LOG.match(ln)]


def kernel_args(dev, hw):
    """ttvm.model= for guest/tests.sh: the identity numbers (hw/ headers)
    of what ttsim printed."""
    arch = hw[f'TT_HW_ARCH_{dev["arch"].upper()}']
    board = hw[f'TT_HW_BOARD_{dev["board"].upper()}']
    return (f'ttvm.model={arch}:{board}:{dev["chip"]}:{dev["gx"]}:'
            f'{dev["gy"]}:{dev["tensix"]}')


def telemetry_args(daemon, telem_ref):
    """(ttvm.telem= for guest/tests.sh, diagnostics): what libtt decodes from
    the same chip (tests/smi/telem_ref), which the driver's tt_* attributes
    and hwmon channels must match. None if libtt could not read it."""
    env = dict(daemon.env, TT_TRANSPORT='ttsim')
    try:
        p = subprocess.run([telem_ref], env=env, capture_output=True,
                           text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, [f'{telem_ref}: {e}']
    if p.returncode:
        return None, [f'{telem_ref} exited {p.returncode}'] + \
            p.stderr.splitlines()
    r = json.loads(p.stdout)
    fields = [r['card_type'], r['board_id'].upper(), r['fw_bundle_version'],
              r['cm_fw'], r['dm_app_fw'], r['dm_bl_fw'],
              r['tt_flash_version'], round(r['vdd_max_v'] * 1000),
              round(r['tdc_limit_a'] * 1000), round(r['tdp_limit_w'] * 1e6),
              round(r['thm_limit_c'] * 1000)]
    return 'ttvm.telem=' + ':'.join(str(f) for f in fields), []
