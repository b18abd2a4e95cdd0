#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/run-suite's counting: passed, failed and skipped cases in every
TAP form the suites print (cmocka 1.1.5's "not ok N # SKIP name", later
cmocka's "ok N # SKIP name", the scripts' "ok N - name # SKIP why"), a
crash, a program that reports nothing, the summary line and the exit
status. The programs are small fakes, and the real cmocka's output from
run_suite_cmocka (RUN_SUITE_CMOCKA, set by tests/meson.build). Prints TAP.
"""
import contextlib
import importlib.machinery
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tap  # noqa: E402  (tests/tap.py)

suite = importlib.machinery.SourceFileLoader(
    'run_suite', os.path.join(HERE, 'run-suite')).load_module()


def prog(text, status=0, signal=None):
    """A test program printing text and exiting with status (or killed by
    signal)."""
    end = (f'os.kill(os.getpid(), {signal})' if signal
           else f'sys.exit({status})')
    return [sys.executable, '-c',
            f'import os, sys\nsys.stdout.write({text!r})\n'
            f'sys.stdout.flush()\n{end}']


def run(tests, *flags, ci=False):
    """run-suite over one fake build holding tests ({name: cmd}), as CI
    runs it (TT_CI set) or not, whatever this process's environment; its
    exit status and output lines."""
    suite.tests_of = lambda build: [
        {'name': n, 'cmd': c, 'env': {}, 'timeout': 30}
        for n, c in tests.items()]
    out = io.StringIO()
    argv, env_ci = sys.argv, os.environ.pop('TT_CI', None)
    sys.argv = ['run-suite', '--build', 'fake', '-j', '1'] + list(flags)
    if ci:
        os.environ['TT_CI'] = '1'
    try:
        with contextlib.redirect_stdout(out):
            status = suite.main()
    finally:
        sys.argv = argv
        os.environ.pop('TT_CI', None)
        if env_ci is not None:
            os.environ['TT_CI'] = env_ci
    return status, out.getvalue().splitlines()


def expect(lines, want):
    assert want in lines, f'no line {want!r} in:\n' + '\n'.join(lines)


def test_cmocka_115_skip():
    st, lines = run({'a': prog('1..3\nok 1 - one\nnot ok 2 # SKIP two\n'
                               'not ok 3 - three\n# 0x1 != 0x2\n'
                               '# not ok - group\n', 1)})
    expect(lines, 'fake: a: 1 passed, 1 failed, 1 skipped  FAILED')
    expect(lines, '    SKIPPED two')
    expect(lines, '    FAILED three')
    assert lines[-1] == '1 passed, 1 failed, 1 skipped', lines[-1]
    assert st == 1


def test_cmocka_117_skip():
    st, lines = run({'a': prog('1..2\nok 1 - one\nok 2 # SKIP two\n'
                               '# ok - group\n')})
    expect(lines, 'fake: a: 1 passed, 0 failed, 1 skipped  ok')
    expect(lines, '    SKIPPED two')
    assert lines[-1] == '1 passed, 0 failed, 1 skipped' and st == 0


def test_script_skip_with_reason():
    st, lines = run({'a': prog('ok 1 - one # SKIP no disk\n'
                               'ok 2 - two # skip\nok 3 - three\n1..3\n')})
    expect(lines, '    SKIPPED one (no disk)')
    expect(lines, '    SKIPPED two')
    assert lines[-1] == '1 passed, 0 failed, 2 skipped' and st == 0


def test_skips_printed_without_verbose_passes_with():
    _, quiet = run({'a': prog('ok 1 - one\nnot ok 2 # SKIP two\n')})
    _, loud = run({'a': prog('ok 1 - one\nnot ok 2 # SKIP two\n')}, '-v')
    assert '    ok one' not in quiet and '    SKIPPED two' in quiet
    assert '    ok one' in loud and '    SKIPPED two' in loud


def test_only_skips_is_not_a_failure():
    st, lines = run({'a': prog('1..1\nnot ok 1 # SKIP two\n')})
    assert lines[-1] == '0 passed, 0 failed, 1 skipped' and st == 0


def test_crash_counts_as_a_failure():
    st, lines = run({'a': prog('ok 1 - one\nnot ok 2 # SKIP two\n',
                               signal=11)})
    expect(lines, '    FAILED (program exited: -11)')
    assert lines[-1] == '1 passed, 1 failed, 1 skipped' and st == 1


def test_nothing_reported_is_a_failure():
    st, lines = run({'a': prog('hello\nok\n')})
    expect(lines, '    FAILED (no test case ran)')
    assert lines[-1] == '0 passed, 1 failed, 0 skipped' and st == 1


def test_totals_over_programs():
    st, lines = run({'a': prog('ok 1 - one\nnot ok 2 # SKIP two\n'),
                     'b': prog('ok 1 - x\nok 2 - y\nok 3 # SKIP z\n'),
                     'c': prog('not ok 1 - w\n', 1)})
    assert lines[-1] == '3 passed, 1 failed, 2 skipped' and st == 1


def test_ci_counts_skips_as_failed():
    tests = {'a': prog('ok 1 - one\nok 2 # SKIP two\n')}
    st, lines = run(tests, ci=True)
    assert lines[-3:] == ['1 passed, 0 failed, 1 skipped',
                          'CI: the 1 skipped cases count as failed',
                          '1 passed, 1 failed'] and st == 1
    st, lines = run({'a': prog('ok 1 - one\n')}, ci=True)
    assert lines[-2:] == ['1 passed, 0 failed, 0 skipped',
                          '1 passed, 0 failed'] and st == 0


def test_real_cmocka():
    st, lines = run({'c': [os.environ['RUN_SUITE_CMOCKA']]})
    expect(lines, 'fake: c: 1 passed, 1 failed, 1 skipped  FAILED')
    expect(lines, '    SKIPPED is_skipped')
    expect(lines, '    FAILED fails')
    assert lines[-1] == '1 passed, 1 failed, 1 skipped' and st == 1


if __name__ == '__main__':
    sys.exit(tap.run(tap.cases_of(globals())))
