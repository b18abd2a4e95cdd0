#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs a libFuzzer target a fixed number of times; one TAP case.

Usage: run_fuzz.py TARGET SEED_CORPUS WORK_CORPUS SECONDS [RUNS]

The run is reproducible: a fixed seed, a fixed number of runs (RUNS,
default 150000) and a work corpus emptied first, so a test that passed
passes again on the same code. SECONDS only caps a machine far slower
than ours. Longer, random fuzzing is for developers (docs/testing.md);
what it finds is fixed and kept in the seed corpus as regress-*.
New inputs go to WORK_CORPUS, never to the seed corpus in the tree; a
crash leaves its input there as crash-*.
"""
import os
import shutil
import subprocess
import sys


def main():
    target, seeds, work, secs = sys.argv[1:5]
    runs = sys.argv[5] if len(sys.argv) > 5 else '150000'
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    p = subprocess.run([target, '-seed=1', f'-runs={runs}',
                        f'-max_total_time={secs}', '-timeout=10',
                        '-rss_limit_mb=2048', f'-artifact_prefix={work}/',
                        work, seeds],
                       capture_output=True, text=True)
    print('1..1')
    if p.returncode == 0:
        done = [ln for ln in p.stderr.splitlines() if 'Done' in ln]
        print(f'ok 1 - {os.path.basename(target)} ran clean'
              f' ({done[-1].strip() if done else "no summary"})')
        return 0
    print(f'not ok 1 - {os.path.basename(target)} exit {p.returncode}')
    for ln in p.stderr.splitlines()[-40:]:
        print(f'#   {ln}')
    return 1


if __name__ == '__main__':
    sys.exit(main())
