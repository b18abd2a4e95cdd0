#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tt-smi end to end, as its users run it: snapshots checked against the
published schema and against what libtt reads, the list, argument errors,
dumps (columns, row timing), reset flows (success, refused while in use,
forced, a device that does not come back), and the live display driven
headless in tmux. Prints TAP; tests/run-suite counts every case.

Environment (set by tests/meson.build): TT_SMI, TTSIM, TELEM_REF (the
programs), SMI_SCHEMA (docs/tt-smi-snapshot.schema.json).
"""
import csv
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import tap  # noqa: E402  (tests/tap.py)

SMI = os.environ['TT_SMI']
TTSIM = os.environ['TTSIM']
REF = os.environ['TELEM_REF']
SCHEMA = json.load(open(os.environ['SMI_SCHEMA']))
TMP = tempfile.mkdtemp(prefix='tt-smi-test-')
RUNDIR = os.path.join(TMP, 'run')
SEED_COLUMNS = ['Timestamp (s)', 'Core Voltage (V)', 'AICLK (MHz)',
                'ARCCLK (MHz)', 'AXICLK (MHz)', 'Core Current (A)',
                'Core Power (W)', 'Core Temp (°C)', 'VREG Temp (°C)',
                'Inlet Temp (°C)', 'Outlet Temp 1 (°C)', 'Outlet Temp 2 (°C)']


def env(transport='embedded', **extra):
    e = dict(os.environ)
    e.update(TT_TRANSPORT=transport, TTSIM_RUNTIME_DIR=RUNDIR, LC_ALL='C.UTF-8')
    e.pop('TT_SIM_INJECT', None)
    e.update(extra)
    return e


def smi(*args, transport='embedded', stdin=subprocess.DEVNULL, cwd=TMP,
        timeout=60, **extra):
    return subprocess.run([SMI, *args], env=env(transport, **extra),
                          stdin=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def expect(p, code, err_has=None):
    assert p.returncode == code, \
        f'exit {p.returncode}, wanted {code}; stderr: {p.stderr.strip()}'
    if err_has:
        assert err_has in p.stderr, f'{err_has!r} not in {p.stderr!r}'


class Daemon:
    """A ttsim daemon on a private runtime directory."""

    def __init__(self, name, board='n150', **extra):
        self.name = name
        p = subprocess.run([TTSIM, 'start', '--board', board, '--name', name],
                           env=env('ttsim', **extra), capture_output=True,
                           text=True, timeout=60)
        assert p.returncode == 0, f'ttsim start: {p.stderr}'

    def stop(self):
        subprocess.run([TTSIM, 'stop', *self.name.split(',')], env=env('ttsim'),
                       capture_output=True, timeout=30)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def snapshot(transport='embedded', *args):
    p = smi('-s', *args, transport=transport)
    expect(p, 0)
    doc = json.loads(p.stdout)
    jsonschema.validate(doc, SCHEMA)
    return doc


# ---- snapshots ----

def test_snapshot_valid_on_embedded_model():
    doc = snapshot()
    assert len(doc['device_info']) == 1
    d = doc['device_info'][0]
    assert d['health'] == 'ok' and d['transport'] == 'embedded'
    t = d['telemetry']
    assert 0.5 < t['voltage_v'] < 1.2 and t['aiclk_mhz'] > 0
    assert t['outlet_temperature_c'] >= t['inlet_temperature_c']
    p = subprocess.run([SMI, '-s'], env=env(), capture_output=True)
    q = subprocess.run([sys.executable, '-m', 'json.tool'], input=p.stdout,
                       capture_output=True)
    assert q.returncode == 0, q.stderr


def ref_reading(transport='ttsim'):
    return json.loads(subprocess.run([REF], env=env(transport),
                                     capture_output=True, text=True,
                                     check=True).stdout)


def within(got, a, b, tol):
    """got is between two readings (either order), give or take tol (the
    snapshot's rounding)."""
    return min(a, b) - tol <= got <= max(a, b) + tol


def compare_with_libtt(d, before, after):
    """Every number and state of a snapshot's device entry d against
    libtt's own readings just before and just after it (telem_ref's
    "snapshot"): static values equal, readings between the two."""
    r0, r1 = before['snapshot'], after['snapshot']
    for k in ('index', 'transport', 'name', 'health'):
        assert d[k] == r0[k] == r1[k], (k, d[k], r0[k], r1[k])
    assert d['error'] is None, d['error']
    assert len(d['cores_needing_recovery']) == r0['cores_needing_recovery'] \
        == r1['cores_needing_recovery'], d['cores_needing_recovery']
    b = d['board_info']
    for k, v in r0['board_info'].items():
        assert b[k] == v == r1['board_info'][k], ('board_info', k, b[k], v)
    assert b['dram_status'] is True
    assert set(b) == set(r0['board_info']) | {
        'dram_status', 'coords', 'pcie_speed', 'pcie_width'}, sorted(b)
    for sect in ('firmwares', 'limits', 'telemetry'):
        got = d[sect]
        assert set(got) == set(r0[sect]), (sect, sorted(got), sorted(r0[sect]))
        for k, v0 in r0[sect].items():
            v1 = r1[sect][k]
            if v0 is None or isinstance(v0, (str, bool)):
                assert got[k] == v0 == v1, (sect, k, got[k], v0, v1)
            elif k == 'heartbeat':
                # counts refreshes: exactly between the two readings
                assert isinstance(got[k], int) and v0 <= got[k] <= v1, \
                    (k, got[k], v0, v1)
            else:
                assert got[k] is not None and within(got[k], v0, v1, 0.01), \
                    (sect, k, got[k], v0, v1)


def test_snapshot_matches_libtt_on_ttsim():
    for board, name in (('n150', 'smi0'), ('p150', 'smi0p')):
        with Daemon(name, board=board):
            # Long enough for the heartbeat to count well past every other
            # small number of the table (update interval, counts, states).
            end = time.monotonic() + 40
            while True:
                before = ref_reading()
                if before['snapshot']['telemetry']['heartbeat'] >= 200 or \
                        time.monotonic() > end:
                    break
                time.sleep(0.25)
            doc = snapshot('ttsim')
            after = ref_reading()
            p = subprocess.run([SMI, '-s'], env=env('ttsim'),
                               capture_output=True)
            q = subprocess.run([sys.executable, '-m', 'json.tool'],
                               input=p.stdout, capture_output=True)
            assert q.returncode == 0, q.stderr
        assert before['snapshot']['telemetry']['heartbeat'] >= 200, before
        d = doc['device_info'][0]
        assert d['transport'] == 'ttsim' and d['name'] == name
        assert d['board_info']['board_type'] == board
        compare_with_libtt(d, before, after)
        # The flat keys the VM tests use agree with the snapshot's.
        assert before['board_id'] == d['board_info']['board_id']
        for k in ('fw_bundle_version', 'cm_fw', 'core_fw', 'dm_app_fw',
                  'dm_bl_fw', 'tt_flash_version'):
            assert d['firmwares'][k] == before[k], (k, d['firmwares'][k])


def test_no_devices_is_exit_3_with_a_valid_snapshot():
    empty = tempfile.mkdtemp(dir=TMP)
    os.chmod(empty, 0o700)
    p = smi('-s', transport='ttsim', TTSIM_RUNTIME_DIR=empty)
    expect(p, 3, 'no Tenstorrent device found')
    doc = json.loads(p.stdout)
    jsonschema.validate(doc, SCHEMA)
    assert doc['device_info'] == [] and doc['processes'] == [], doc
    p = smi('-ls', transport='ttsim', TTSIM_RUNTIME_DIR=empty)
    expect(p, 3, 'no Tenstorrent device found')


def test_compact_and_file_options():
    p = smi('-s', '--compact')
    expect(p, 0)
    assert p.stdout.count('\n') == 1 and json.loads(p.stdout)
    out = os.path.join(TMP, 'snap.json')
    p = smi('-f', out)
    expect(p, 0)
    assert p.stdout == '' and json.load(open(out))['schema_version'] == 3
    p = smi('-f', '-')
    expect(p, 0)
    assert json.loads(p.stdout)['device_info']
    work = tempfile.mkdtemp(dir=TMP)
    p = smi('-f', cwd=work)
    expect(p, 0)
    logs = os.listdir(os.path.join(work, 'tt-smi-logs'))
    assert len(logs) == 1 and re.match(r'tt-smi-snapshot_.*\.json$', logs[0])
    jsonschema.validate(json.load(open(os.path.join(work, 'tt-smi-logs',
                                                    logs[0]))), SCHEMA)
    p = smi('-f', os.path.join(TMP, 'no', 'such', 'dir', 'x.json'))
    expect(p, 1, 'cannot write snapshot')


def test_no_terminal_prints_the_snapshot():
    p = smi(timeout=20)
    expect(p, 0)
    jsonschema.validate(json.loads(p.stdout), SCHEMA)


def test_list():
    p = smi('-ls')
    expect(p, 0)
    lines = p.stdout.splitlines()
    assert lines[0].split()[:2] == ['INDEX', 'BOARD'], lines
    assert re.match(r'0\s+n150\s+wormhole_b0\s+embedded model embedded0\s+-\s+ok$',
                    lines[1]), lines[1]
    with Daemon('smi1a,smi1b', board='n300'):
        p = smi('-ls', transport='ttsim')
    expect(p, 0)
    rows = p.stdout.splitlines()[1:]
    assert [r.split()[0] for r in rows] == ['0', '1'], rows
    assert all('n300' in r and r.endswith('ok') for r in rows), rows


# ---- arguments ----

def test_argument_errors_name_the_word():
    cases = [
        (['--bogus'], 'unknown option --bogus'),
        (['-i', 'abc'], '-i abc: not a number'),
        (['-i', '0'], '-i 0: not a number'),
        (['--interval=nan'], 'nan: not a number'),
        (['-t', 'blue'], '-t blue: unknown theme'),
        (['-dur', '5'], 'goes with -d'),
        (['-s', '-ls'], '-ls cannot be combined with -s'),
        (['extra'], 'unexpected argument extra'),
        (['-d', '-dir'], '-dir needs a value'),
        (['--snapshot=1'], '--snapshot takes no value'),
        (['-d', '-dur', '-3'], '-dur -3: not a number'),
        (['--reset_timeout', '0'], '--reset_timeout 0'),
    ]
    for args, msg in cases:
        p = smi(*args)
        expect(p, 2, msg)
        assert "Try 'tt-smi --help'" in p.stderr


def test_help_and_version():
    p = smi('--help')
    expect(p, 0)
    for word in ('-s, --snapshot', '-ls, --list', '-wr, --warm_reset',
                 '-mr, --mobo_nb_reset', '-dir, --dump_dir', '-dur, --duration',
                 '--compact', '--force', '-y, --yes', 'Exit status',
                 '7  not supported', '5  reset failed', '6  partial success'):
        assert word in p.stdout, word
    p = smi('-v')
    expect(p, 0)
    assert re.match(r'tt-smi \d+\.\d+\.\d+\n$', p.stdout)


def test_mobo_reset_is_not_supported():
    p = smi('-mr')
    expect(p, 7, 'not supported on this host')


# ---- dumps ----

def read_dump(d):
    rows = list(csv.reader(open(os.path.join(d, 'device0.csv'))))
    with open(os.path.join(d, 'telemetry.xlsx'), 'rb') as f:
        assert f.read(2) == b'PK', 'telemetry.xlsx is not a zip'
    return rows[0], rows[1:]


def test_dump_for_a_duration():
    d = os.path.join(TMP, 'dump1')
    p = smi('-d', '-dur', '1.0', '-i', '0.2', '-dir', d)
    expect(p, 0)
    head, rows = read_dump(d)
    assert head == SEED_COLUMNS, head
    assert 5 <= len(rows) <= 6, len(rows)
    t = [float(r[0]) for r in rows]
    assert t[0] < 0.1
    gaps = [b - a for a, b in zip(t, t[1:])]
    assert all(0.1 < g < 0.45 for g in gaps), gaps
    for r in rows:
        assert len(r) == len(SEED_COLUMNS)
        assert r[-1] == '', 'no second outlet sensor: empty, not 0'
        vals = [float(x) for x in r[1:-1]]
        assert 0.5 < vals[0] < 1.2 and vals[1] > 0


def test_dump_until_enter():
    d = os.path.join(TMP, 'dump2')
    p = subprocess.Popen([SMI, '-d', '-i', '0.1', '-dir', d], env=env(),
                         stdin=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=TMP)
    time.sleep(1.0)
    assert p.poll() is None, 'stopped before Enter'
    p.stdin.write('\n')
    p.stdin.flush()
    p.wait(timeout=10)
    assert p.returncode == 0, p.stderr.read()
    _, rows = read_dump(d)
    assert len(rows) >= 3, len(rows)


def test_interrupted_dump_writes_what_it_read():
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        d = os.path.join(TMP, f'dump-sig{sig}')
        p = subprocess.Popen([SMI, '-d', '-dur', '100', '-i', '0.1', '-dir',
                              d], env=env(), stdin=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, cwd=TMP)
        time.sleep(1.0)
        assert p.poll() is None, 'stopped before the signal'
        p.send_signal(sig)
        p.wait(timeout=10)
        err = p.stderr.read()
        assert p.returncode == code, (p.returncode, err)
        assert f'stopped by {signal.Signals(sig).name}' in err, err
        head, rows = read_dump(d)
        assert head == SEED_COLUMNS and len(rows) >= 3, (head, len(rows))


def test_dump_stops_when_its_device_is_gone():
    # A daemon that ends under a dump: the dump writes what it read, says
    # which device is gone and why, and fails instead of writing empty rows.
    d = os.path.join(TMP, 'dump-gone')
    daemon = Daemon('smigone')
    p = subprocess.Popen([SMI, '-d', '-dur', '100', '-i', '0.1', '-dir', d],
                         env=env('ttsim'), stdin=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, cwd=TMP)
    try:
        time.sleep(1.0)
        assert p.poll() is None, 'stopped before the daemon did'
        daemon.stop()
        p.wait(timeout=15)
    finally:
        if p.poll() is None:
            p.kill()
        daemon.stop()
    err = p.stderr.read()
    assert p.returncode == 1, (p.returncode, err)
    assert 'device 0 is gone' in err and 'dump stopped' in err, err
    head, rows = read_dump(d)
    assert head == SEED_COLUMNS and len(rows) >= 3, (head, len(rows))


# ---- reset ----

def test_reset_with_yes():
    p = smi('-r', '0', '--yes', '--reset_timeout', '30')
    expect(p, 0, 'reset done')
    assert 'firmware answering, telemetry fresh' in p.stderr


def test_reset_asks_or_needs_yes():
    p = smi('-r', '0')
    expect(p, 2, 'add --yes')
    p = smi('-wr')
    expect(p, 2, '-wr asks for devices on a terminal')


def test_reset_targets_must_exist():
    p = smi('-r', '7', '--yes')
    expect(p, 3, 'reset target 7: no such device')
    p = smi('-r', 'bogus0', '--yes')
    expect(p, 3, 'reset target bogus0')
    p = smi('-r', '0', 'all', '--yes', '--reset_timeout', '30')
    expect(p, 0, 'reset done')


def test_empty_reset_targets_are_usage_errors():
    # What `-r "$DEVS"` or `-r "0,$DEV"` become with the variable unset:
    # never every device, nor fewer than meant.
    for words, msg in (([''], "-r '': an empty target"),
                       ([' '], "-r ' ': an empty target"),
                       (['0,'], "-r '0,': an empty item"),
                       (['0,,1'], "-r '0,,1': an empty item"),
                       ([',0'], "-r ',0': an empty item"),
                       (['0', ''], "-r '': an empty target")):
        p = smi('-r', *words, '--yes')
        expect(p, 2, msg)
        assert "Try 'tt-smi --help'." in p.stderr, p.stderr
        assert 'resetting' not in p.stderr, p.stderr


def start_holder(d):
    """Another process with the ttsim device open: a tt-smi dump."""
    h = subprocess.Popen([SMI, '-d', '-dur', '60', '-i', '0.5', '-dir', d],
                         env=env('ttsim'), stdin=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, cwd=TMP)
    for _ in range(100):
        doc = snapshot('ttsim')
        if any(x['pid'] == h.pid for x in doc['processes']):
            return h, doc
        time.sleep(0.1)
    h.kill()
    raise AssertionError('the holder never showed among the processes')


def test_reset_refused_in_use_then_forced():
    with Daemon('smi2'):
        h, doc = start_holder(os.path.join(TMP, 'dump3'))
        try:
            proc = [x for x in doc['processes'] if x['pid'] == h.pid][0]
            assert proc['device'] == 0 and 'tt-smi' in proc['cmdline']
            assert proc['user']
            p = smi('-r', '0', '--yes', transport='ttsim')
            expect(p, 5, f'is in use by pid {h.pid}')
            assert '--force' in p.stderr
            p = smi('-r', 'smi2', '--yes', '--force', '--reset_timeout', '30',
                    transport='ttsim')
            expect(p, 0, 'reset done')
            assert 'resetting anyway' in p.stderr
        finally:
            h.kill()
            h.wait()


def test_reset_of_a_device_that_does_not_come_back():
    with Daemon('smi3', TT_SIM_INJECT='reset-dead'):
        p = smi('-r', '0', '--yes', '--reset_timeout', '2', transport='ttsim',
                timeout=60)
    expect(p, 5, 'device 0 (n150 smi3): reset failed')


# ---- the live display, in tmux ----

class Tmux:
    count = 0

    def __init__(self, *args, width=80, height=24, then='',
                 ready='TT-SMI', transport='embedded'):
        Tmux.count += 1
        self.sock = os.path.join(TMP, f'tmux{Tmux.count}.sock')
        e = env()
        cmd = ' '.join([SMI, *args])
        p = self.t(['new-session', '-d', '-s', 'smi', '-x', str(width), '-y',
                    str(height), '-c', TMP,
                    f'env TT_TRANSPORT={transport} TTSIM_RUNTIME_DIR={RUNDIR} '
                    f'TERM=xterm-256color {cmd}{then}'], env=e)
        assert p.returncode == 0, f'tmux: {p.stderr}'
        self.wait_for(ready)

    def t(self, args, env=None):
        return subprocess.run(['tmux', '-S', self.sock, *args], env=env,
                              capture_output=True, text=True, timeout=10)

    def screen(self, escapes=False):
        return self.t(['capture-pane', '-p', '-t', 'smi'] +
                      (['-e'] if escapes else [])).stdout

    def wait_for(self, text, timeout=10):
        end = time.time() + timeout
        while time.time() < end:
            s = self.screen()
            if text in s:
                return s
            time.sleep(0.1)
        raise AssertionError(f'{text!r} never appeared:\n{self.screen()}')

    def keys(self, *k):
        self.t(['send-keys', '-t', 'smi', *k])

    def alive(self):
        return self.t(['has-session', '-t', 'smi']).returncode == 0

    def close(self):
        self.t(['kill-server'])


def test_live_tabs_help_and_keys_in_80x24():
    tm = Tmux()
    try:
        s = tm.wait_for('Core Voltage (V)')
        lines = s.split('\n')
        assert len([l for l in lines if l]) <= 24
        assert all(len(l) <= 80 for l in lines)
        for m in ('Core Current (A)', 'AICLK (MHz)', 'ARCCLK (MHz)',
                  'AXICLK (MHz)', 'Core Temp', 'VREG Temp', 'Inlet Temp',
                  'Outlet Temp', 'Heartbeat', 'Host Info',
                  'Compatibility Check', 'q quit'):
            assert m in s, m
        assert re.search(r'\d{4}-\d\d-\d\d \d\d:\d\d:\d\d', lines[0])
        tm.keys('1')
        s = tm.wait_for('Tensix cores')
        assert 'wormhole_b0' in s and 'Health' in s
        tm.keys('3')
        s = tm.wait_for('FW Bundle')
        assert 'CM FW' in s and '1.0.0.0' in s
        tm.keys('4')
        tm.wait_for('COMMAND')
        tm.keys('h')
        tm.wait_for('this help')
        tm.keys('h')
        time.sleep(0.3)
        assert 'this help' not in tm.screen()
        tm.keys('t')
        time.sleep(0.3)
        assert 'Host Info' not in tm.screen()
        tm.keys('2', 'w')
        s = tm.wait_for('(/limits)')
        assert re.search(r'\d\.\d\d/0\.\d\d', s), s
        tm.keys('w', 'v')
        tm.wait_for('(averages)')
        tm.keys('s')
        tm.wait_for('snapshot written to')
        tm.keys('d')
        tm.wait_for('dumping to')
        time.sleep(1.2)
        tm.keys('d')
        tm.wait_for('dump stopped')
        logs = os.path.join(TMP, 'tt-smi-logs')
        names = os.listdir(logs)
        snaps = [n for n in names if n.startswith('tt-smi-snapshot_')]
        dumps = [n for n in names if n.startswith('tt-smi-dump_')]
        assert snaps and dumps, names
        jsonschema.validate(json.load(open(os.path.join(logs, snaps[0]))),
                            SCHEMA)
        _, rows = read_dump(os.path.join(logs, dumps[0]))
        assert rows
        tm.keys('q')
        for _ in range(50):
            if not tm.alive():
                break
            time.sleep(0.1)
        assert not tm.alive(), 'q did not quit'
    finally:
        tm.close()


def test_live_resizes():
    tm = Tmux()
    try:
        tm.wait_for('Core Voltage (V)')
        tm.t(['resize-window', '-t', 'smi', '-x', '120', '-y', '40'])
        time.sleep(0.8)
        lines = tm.screen().split('\n')
        assert 'q quit' in lines[39], lines[35:]
        assert lines[0].rstrip().endswith(lines[0].split()[-1])
        assert len(lines[0].rstrip()) > 100, 'header not redrawn to the width'
        tm.t(['resize-window', '-t', 'smi', '-x', '60', '-y', '20'])
        time.sleep(0.8)
        lines = tm.screen().split('\n')
        assert 'q quit' in lines[19] or '1-4 tabs' in lines[19], lines
    finally:
        tm.close()


def test_reset_prompts_on_a_terminal():
    then = '; echo EXIT=$?; sleep 60'
    tm = Tmux('-r', '0', then=then, ready='Reset? [y/N]')
    try:
        tm.keys('n', 'Enter')
        s = tm.wait_for('EXIT=')
        assert 'nothing reset' in s and 'EXIT=1' in s, s
    finally:
        tm.close()
    tm = Tmux('-r', '0', '--reset_timeout', '30', then=then,
              ready='Reset? [y/N]')
    try:
        tm.keys('y', 'Enter')
        s = tm.wait_for('EXIT=', timeout=40)
        assert 'reset done' in s and 'EXIT=0' in s, s
    finally:
        tm.close()
    tm = Tmux('-wr', '--reset_timeout', '30', then=then,
              ready='Devices to reset')
    try:
        s = tm.screen()
        assert re.search(r'^0\s+n150', s, re.M), s
        tm.keys('0', 'Enter')
        s = tm.wait_for('EXIT=', timeout=40)
        assert 'reset done' in s and 'EXIT=0' in s, s
    finally:
        tm.close()


def test_live_reopens_a_device_reset_by_another_process():
    with Daemon('smi4'):
        tm = Tmux('-i', '0.2', transport='ttsim')
        try:
            tm.keys('1')
            tm.wait_for('Tensix cores')
            p = smi('-r', '0', '--yes', '--force', '--reset_timeout', '30',
                    transport='ttsim')
            expect(p, 0, 'reset done')
            s = tm.wait_for('reset by another process; reopened')
            time.sleep(1.0)
            s = tm.screen()
            assert 'reset after this handle' not in s, s
            assert re.search(r'Health\s+ok', s), s
            assert tm.alive()
        finally:
            tm.close()


def on_a_terminal(*args, **extra):
    """tt-smi with a pseudo-terminal as stdin and stdout: (exit status,
    what it printed there, its stderr)."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.Popen([SMI, *args], env=env(**extra), stdin=slave,
                         stdout=slave, stderr=subprocess.PIPE, cwd=TMP)
    os.close(slave)
    out, end = b"", time.monotonic() + 30
    while time.monotonic() < end:
        if not select.select([master], [], [], 0.5)[0]:
            if p.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the program closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    try:  # the terminal closes as the process exits: a moment to reap it
        p.wait(timeout=max(1.0, end - time.monotonic()))
    except subprocess.TimeoutExpired:  # a live display, or stuck
        p.kill()
        p.wait()
        raise AssertionError(f'still running after 30 s; printed {out!r}')
    return p.returncode, out.decode().replace('\r\n', '\n'), \
        p.stderr.read().decode()


def test_unusable_term_prints_the_snapshot():
    for term, why in (('dumb', 'the terminal cannot move the cursor'),
                      ('no-such-terminal', 'no such terminal')):
        code, out, err = on_a_terminal(TERM=term)
        assert code == 0, (code, err)
        lines = err.splitlines()
        assert len(lines) == 1, err
        assert f'TERM={term}: {why}' in lines[0], err
        assert 'printing the snapshot (-s) instead' in lines[0], err
        jsonschema.validate(json.loads(out), SCHEMA)


COLOR_ESC = re.compile(r'\x1b\[[0-9;]*(3[0-7]|4[0-7]|38;5|48;5)[0-9;]*m')


def themed_screen(*args):
    tm = Tmux(*args)
    try:
        tm.wait_for('Core Voltage (V)')
        return tm.screen(escapes=True)
    finally:
        tm.close()


def test_themes_and_no_color():
    default = themed_screen()
    dark = themed_screen('-t', 'dark')
    plain = themed_screen('-nc')
    assert COLOR_ESC.search(default), 'default theme has no colour'
    assert COLOR_ESC.search(dark), 'dark theme has no colour'
    assert set(COLOR_ESC.findall(default)) != set(COLOR_ESC.findall(dark)) or \
        COLOR_ESC.findall(default) != COLOR_ESC.findall(dark)
    assert not COLOR_ESC.search(plain), 'colour with --no-color'
    assert 'Core Voltage (V)' in plain


def clean_up():
    subprocess.run([TTSIM, 'stop', '--all'], env=env('ttsim'),
                   capture_output=True, timeout=30)
    shutil.rmtree(TMP, ignore_errors=True)


def main():
    return tap.run(tap.cases_of(globals()), cleanup=clean_up)


if __name__ == '__main__':
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
