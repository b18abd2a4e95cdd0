#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tt-smi's two figures, against one n150 served by a ttsim daemon (as a
card in a machine: the chip runs whether tt-smi does or not):

  smi_snapshot_ms  process start to JSON written (`tt-smi -s`), median of 30
  smi_live_cpu     CPU time of the live display over 10 s at the default
                   interval, as a fraction of one core (run in tmux)

Usage: bench_smi.py BUILD_DIR
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

BUILD = sys.argv[1] if len(sys.argv) > 1 else 'build'
SMI = os.path.join(BUILD, 'smi', 'tt-smi')
TTSIM = os.path.join(BUILD, 'sim', 'ttsim')
TMP = tempfile.mkdtemp(prefix='bench-smi-')
ENV = dict(os.environ, TT_TRANSPORT='ttsim',
           TTSIM_RUNTIME_DIR=os.path.join(TMP, 'run'))


def cpu_seconds(pid):
    """CPU time of every thread of pid, in ns precision (schedstat)."""
    total = 0
    for tid in os.listdir(f'/proc/{pid}/task'):
        with open(f'/proc/{pid}/task/{tid}/schedstat') as f:
            total += int(f.read().split()[0])
    return total / 1e9


def snapshot_ms():
    out = os.path.join(TMP, 'snap.json')
    times = []
    for _ in range(30):
        t0 = time.perf_counter()
        subprocess.run([SMI, '-s', '-f', out], env=ENV, check=True,
                       stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def live_cpu():
    sock = os.path.join(TMP, 'tmux.sock')
    tmux = ['tmux', '-S', sock]
    subprocess.run(tmux + ['new-session', '-d', '-s', 'b', '-x', '80', '-y',
                           '24', f'exec env TT_TRANSPORT=ttsim '
                           f'TTSIM_RUNTIME_DIR={ENV["TTSIM_RUNTIME_DIR"]} '
                           f'TERM=xterm-256color {SMI}'], check=True)
    try:
        pid = int(subprocess.run(tmux + ['display', '-p', '-t', 'b',
                                         '#{pane_pid}'], check=True,
                                 capture_output=True, text=True).stdout)
        with open(f'/proc/{pid}/comm') as f:
            assert f.read().strip() == 'tt-smi', 'not the display'
        time.sleep(2.0)  # started and drawn
        c0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(10.0)
        c1, t1 = cpu_seconds(pid), time.monotonic()
        return (c1 - c0) / (t1 - t0)
    finally:
        subprocess.run(tmux + ['kill-server'], capture_output=True)


def main():
    subprocess.run([TTSIM, 'start', '--name', 'bench0'], env=ENV, check=True,
                   stdout=subprocess.DEVNULL)
    try:
        ms = snapshot_ms()
        print(f'BENCH name=smi_snapshot_ms value={ms:.2f} unit=ms')
        sys.stdout.flush()
        cpu = live_cpu()
        print(f'BENCH name=smi_live_cpu value={cpu:.4f} unit=fraction_of_a_core')
    finally:
        subprocess.run([TTSIM, 'stop', 'bench0'], env=ENV,
                       capture_output=True)


if __name__ == '__main__':
    main()
