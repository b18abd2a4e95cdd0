#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The command-line contract every program of the tree keeps (tt-info,
tt-smi, ttsim, each example): --version prints the name and the project's
version; --help documents the exit status; an unknown option is exit 2 with
the two-line hint `tool: what is wrong` / `Try 'tool --help'.`, naming the
tool by its name, never its path; no device is exit 3. Prints TAP.

Environment (set by tests/meson.build): TT_INFO, TT_SMI, TTSIM (the
programs), TT_EXAMPLES (the example programs, ':'-separated), TT_VERSION
(meson.project_version()).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import tap  # noqa: E402  (tests/tap.py)

VERSION = os.environ['TT_VERSION']
TMP = tempfile.mkdtemp(prefix='tt-cli-test-')
EMPTY = os.path.join(TMP, 'run')  # a ttsim runtime directory with no device
os.mkdir(EMPTY, 0o700)

# name -> path. Examples first need their kernels, never reached here.
TOOLS = {'tt-info': os.environ['TT_INFO'], 'tt-smi': os.environ['TT_SMI'],
         'ttsim': os.environ['TTSIM']}
EXAMPLES = {os.path.basename(p): p
            for p in os.environ['TT_EXAMPLES'].split(':') if p}
TOOLS.update(EXAMPLES)


def run(name, *args, timeout=60):
    env = dict(os.environ, TT_TRANSPORT='ttsim', TTSIM_RUNTIME_DIR=EMPTY,
               LC_ALL='C.UTF-8')
    env.pop('TT_SIM_INJECT', None)
    # Invoked by its full path: the messages must still say only the name.
    return subprocess.run([TOOLS[name], *args], env=env, cwd=TMP,
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout)


def expect(p, code, what):
    assert p.returncode == code, \
        (f'{what}: exit {p.returncode}, wanted {code}; '
         f'stdout {p.stdout[-300:]!r} stderr {p.stderr[-300:]!r}')


def check_version(name):
    p = run(name, '--version')
    expect(p, 0, '--version')
    assert p.stdout == f'{name} {VERSION}\n', p.stdout
    assert p.stderr == '', p.stderr


def check_help(name):
    p = run(name, '--help')
    expect(p, 0, '--help')
    out = p.stdout
    assert '--version' in out, 'the help does not mention --version'
    assert re.search(r'[Ee]xit status', out), 'no exit status in the help'
    for code in ('0', '1', '2', '3'):
        assert re.search(rf'(^|\W){code}\W', out), \
            f'exit status {code} not documented'
    assert re.search(r'\b3\b[^\n]*no device', out, re.I), \
        'exit status 3 is not "no device"'
    assert re.search(r'\b2\b[^\n]*usage', out, re.I), \
        'exit status 2 is not the usage error'


def check_unknown_option(name):
    for word in ('--no-such-option', '-Z'):
        p = run(name, word)
        expect(p, 2, word)
        lines = p.stderr.splitlines()
        assert len(lines) == 2, f'{word}: not two lines: {p.stderr!r}'
        assert lines[0].startswith(f'{name}: '), lines[0]
        assert word in lines[0] or word[1:] in lines[0], \
            f'{word} not named: {lines[0]!r}'
        assert lines[1] == f"Try '{name} --help'.", lines[1]
        assert os.path.dirname(TOOLS[name]) not in p.stderr, \
            'the message names the path'
        assert p.stdout == '', p.stdout


def check_no_device(name):
    """Exit 3 and one line naming the tool, on a transport with none."""
    args = {'tt-smi': ['-ls'], 'ttsim': ['list']}.get(name, [])
    p = run(name, *args, timeout=120)
    expect(p, 3, 'no device')
    if name != 'ttsim':
        lines = p.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f'{name}: ') and \
            'no Tenstorrent device' in lines[0], p.stderr
    else:
        assert p.stdout == 'no ttsim devices\n', p.stdout


def test_smi_snapshot_without_devices_is_json():
    p = run('tt-smi', '-s')
    expect(p, 3, 'tt-smi -s')
    doc = json.loads(p.stdout)
    assert doc['device_info'] == [], doc['device_info']
    assert 'no Tenstorrent device found' in p.stderr, p.stderr


def test_ttsim_stop_of_no_device():
    p = run('ttsim', 'stop', 'nosuch')
    expect(p, 3, 'ttsim stop nosuch')
    assert 'device nosuch is not served' in p.stderr, p.stderr
    p = run('ttsim', 'stop', '--all')
    expect(p, 0, 'ttsim stop --all with none')


def test_every_example_is_checked():
    assert len(EXAMPLES) >= 10, sorted(EXAMPLES)


def make_case(check, name):
    def case():
        check(name)
    case.__name__ = f'{check.__name__[6:]}: {name}'
    return case


# ttc, the compiler, uses no device: no exit status 3 (docs/ttc.md).
TTC = os.environ['TTC']


def run_ttc(*args, stdin=None):
    return subprocess.run([TTC, *args], cwd=TMP, input=stdin,
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, LC_ALL='C.UTF-8'))


def test_ttc_version_and_help():
    p = run_ttc('--version')
    expect(p, 0, 'ttc --version')
    assert p.stdout == f'ttc {VERSION}\n' and p.stderr == '', p
    for args in (['--help'], ['parse', '--help'], ['ops', '--help'],
                 ['golden', '--help'], ['info', '--help']):
        p = run_ttc(*args)
        expect(p, 0, ' '.join(args))
        assert re.search(r'[Ee]xit status', p.stdout), p.stdout
        for code in ('0', '1', '2'):
            assert re.search(rf'(^|\W){code}\W', p.stdout), (args, code)
        assert re.search(r'\b2\b[^\n]*usage', p.stdout, re.I), args


def test_ttc_usage_errors():
    cases = [(['--no-such-option'], 'ttc'), (['-Z'], 'ttc'),
             ([], 'ttc'), (['frobnicate'], 'ttc'),
             (['parse', '--no-such-option', 'x'], 'ttc parse'),
             (['parse'], 'ttc parse'), (['parse', 'a', 'b'], 'ttc parse'),
             (['parse', '-o'], 'ttc parse'), (['ops', '--bogus'], 'ttc ops'),
             (['ops', 'extra'], 'ttc ops'),
             (['golden'], 'ttc golden'), (['golden', 'a', 'b'], 'ttc golden'),
             (['golden', '--input', 'x', 'f'], 'ttc golden'),
             (['golden', '--random', 'abc', 'f'], 'ttc golden'),
             (['golden', '--format', 'bfp2', 'f'], 'ttc golden'),
             (['golden', '-o'], 'ttc golden'),
             (['golden', '--pcc', 'x', 'f'], 'ttc golden'),
             (['golden', '--atol', '-1', 'f'], 'ttc golden'),
             (['info'], 'ttc info'), (['info', 'a', 'b'], 'ttc info'),
             (['info', '--bogus', 'a'], 'ttc info')]
    for args, hint in cases:
        p = run_ttc(*args)
        expect(p, 2, ' '.join(args))
        lines = p.stderr.splitlines()
        assert len(lines) == 2 and lines[0].startswith('ttc: '), p.stderr
        assert lines[1] == f"Try '{hint} --help'.", lines
        assert os.path.dirname(TTC) not in p.stderr
        assert p.stdout == '', p.stdout


def test_ttc_parse_exit_statuses():
    good = ('module {\n  func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> '
            '{\n    %0 = "ttir.exp"(%arg0) : (tensor<2xf32>) -> '
            'tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n}\n')
    p = run_ttc('parse', '-', stdin=good)
    expect(p, 0, 'ttc parse -')
    assert p.stdout == good, p.stdout
    p = run_ttc('parse', '-', stdin=good.replace('exp', 'nope'))
    expect(p, 1, 'unknown op')
    assert p.stderr.startswith("<stdin>:3:10: error: unknown op "
                               "'ttir.nope'"), p.stderr
    p = run_ttc('parse', '--allow-unregistered', '-',
                stdin=good.replace('exp', 'nope'))
    expect(p, 0, '--allow-unregistered')
    p = run_ttc('parse', os.path.join(TMP, 'missing.mlir'))
    expect(p, 1, 'missing file')
    assert p.stderr.startswith('ttc: ') and 'missing.mlir' in p.stderr
    out = os.path.join(TMP, 'out.mlir')
    p = run_ttc('parse', '-o', out, '--print-loc', '-', stdin=good)
    expect(p, 0, '-o')
    with open(out) as f:
        assert 'loc(' not in f.read()  # parsed from text: no locations


def test_ttc_ops_json():
    p = run_ttc('ops', '--json')
    expect(p, 0, 'ttc ops --json')
    ops = {o['name']: o for o in json.loads(p.stdout)['ops']}
    assert len(ops) > 80, len(ops)
    mm = ops['ttir.matmul']
    assert mm['operands'] == ['a', 'b'], mm
    assert {'name': 'transpose_a', 'kind': 'bool',
            'presence': 'default'} in mm['attributes'], mm
    assert ops['ttir.concat']['variadic'] is True
    # PyBuda's names of TTIR ops, and PyBuda's own ops
    aliases = {a['name']: a['op'] for a in json.loads(p.stdout)['aliases']}
    assert aliases['pybuda.matmul'] == 'ttir.linear', aliases
    assert 'pybuda.matmul' not in ops and 'pybuda.hslice' in ops
    p = run_ttc('ops')
    assert 'pybuda.clip              = ttir.clamp_scalar\n' in p.stdout


# Images made by libttc's writer, and broken ones (the fuzzer's seeds).
IMAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                      'tools', 'ttc', 'fuzz', 'corpus-image')


def test_ttc_info():
    small = os.path.join(IMAGES, 'valid-small')
    p = run_ttc('info', small)
    expect(p, 0, 'ttc info')
    assert 'version:   1\n' in p.stdout and '448 bytes' in p.stdout, p.stdout
    assert re.search(r'^params/w +128 +64 +64 0x[0-9a-f]{8}$', p.stdout,
                     re.M), p.stdout
    p = run_ttc('info', '--json', small)
    expect(p, 0, 'ttc info --json')
    doc = json.loads(p.stdout)
    assert doc['version'] == 1 and doc['file_size'] == 448, doc
    assert [s['name'] for s in doc['sections']] == [
        'manifest.yaml', 'kernels/k0.elf', 'params/w', 'empty'], doc
    assert doc['sections'][2] == {'name': 'params/w', 'offset': 128,
                                  'size': 64, 'align': 64,
                                  'crc32': doc['sections'][2]['crc32']}
    p = run_ttc('info', os.path.join(IMAGES, 'broken-section-crc'))
    expect(p, 1, 'ttc info of a broken image')
    assert p.stderr.startswith('ttc: ') and 'broken-section-crc: section ' \
        'kernels/k0.elf: checksum' in p.stderr and p.stdout == '', p
    p = run_ttc('info', os.path.join(TMP, 'missing.tti'))
    expect(p, 1, 'ttc info of a missing file')
    assert 'missing.tti: cannot open' in p.stderr, p.stderr


TESTS = [make_case(c, n) for n in TOOLS
         for c in (check_version, check_help, check_unknown_option,
                   check_no_device)]
TESTS += tap.cases_of(globals())


def main():
    return tap.run(TESTS, cleanup=lambda: shutil.rmtree(TMP, ignore_errors=True))


if __name__ == '__main__':
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
