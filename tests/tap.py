# SPDX-License-Identifier: Apache-2.0
"""Run a Python test script's cases as TAP, one line each.

The Python suites (smi/, cli/, faults/) import this to print the plan, an
"ok"/"not ok" line per case and the failure's message and last traceback
lines as diagnostics, then clean up. A failing case never stops the others.
Standard library only.
"""
import sys
import time
import traceback


def cases_of(namespace, words=()):
    """The callables named test_* in namespace (a module's globals()), in
    definition order; with words, only those whose name has one of them."""
    return [f for n, f in list(namespace.items())
            if n.startswith('test_') and callable(f)
            and (not words or any(w in n for w in words))]


def run(cases, cleanup=None, timed=False):
    """Run cases (callables; a case fails by raising), print TAP, call
    cleanup() at the end whatever happens; 1 if any failed, else 0."""
    print(f'1..{len(cases)}', flush=True)
    failed = 0
    try:
        for i, case in enumerate(cases, 1):
            name = case.__name__
            t0 = time.monotonic()
            try:
                case()
            except Exception as e:  # a failed case must not stop the others
                failed += 1
                print(f'not ok {i} - {name}')
                for line in (str(e) or type(e).__name__).splitlines():
                    print(f'# {line}')
                for line in traceback.format_exc().splitlines()[-4:]:
                    print(f'# {line}')
            else:
                took = f' ({time.monotonic() - t0:.1f} s)' if timed else ''
                print(f'ok {i} - {name}{took}')
            sys.stdout.flush()
    finally:
        if cleanup:
            cleanup()
    return 1 if failed else 0
