#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""ONNX frontend benchmarks (docs/testing.md, "Benchmarks").

onnx_resnet18_infer: ResNet-18 (1x3x224x224, random weights from a fixed
seed) exported from torch, compiled by `ttc compile --df Float16_b` and
run by `ttc run --loops 6` on the embedded chip: the best run's time,
against torch on the CPU in the same run, on as many threads as the
chip model's harts run on (every CPU) and with OpenBLAS's best core type
for this CPU; ratio = torch's time / ours (target >= 0.5).
onnx_import_ms: `ttc import` of ResNet-50 (exported at bench time, about
100 MB of weights) to TTIR, best of 5 whole runs of the program
(target <= 500 ms; ratio = 500 / ours).

Usage: bench_onnx.py TTC  (run by make bench with Debian's
/usr/bin/python3: NumPy, torch, torchvision, onnx)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ONNX_TESTS = os.path.join(HERE, '..', 'onnx')


def has_flags(*want):
    with open('/proc/cpuinfo') as f:
        for line in f:
            if line.startswith('flags'):
                have = set(line.split(':', 1)[1].split())
                return all(w in have for w in want)
    return False


def best_coretype():
    """OpenBLAS 0.3.21's best core type for this CPU (it takes this one
    for a Prescott otherwise): as tests/bench/openblas_peer.h picks."""
    if has_flags('avx512_bf16'):
        return 'Cooperlake'
    if has_flags('avx512f', 'avx512bw', 'avx512dq', 'avx512vl'):
        return 'SkylakeX'
    if has_flags('avx2', 'fma'):
        return 'Haswell'
    if has_flags('avx'):
        return 'Sandybridge'
    return None


def ensure_coretype():
    """Runs this script again with OPENBLAS_CORETYPE set, so torch's
    OpenBLAS reads it when it loads."""
    best = best_coretype()
    if best and os.environ.get('OPENBLAS_CORETYPE') != best:
        env = dict(os.environ, OPENBLAS_CORETYPE=best)
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    return os.environ.get('OPENBLAS_CORETYPE', 'OpenBLAS\'s own choice')


def run(*args, timeout=1800):
    p = subprocess.run(list(args), capture_output=True, text=True,
                       timeout=timeout)
    if p.returncode:
        sys.exit(f'bench_onnx: {" ".join(args)}: exit {p.returncode}\n'
                 f'{p.stderr[-2000:]}')
    return p


def resnet18(ttc, tmp, threads, coretype):
    p = run(sys.executable, os.path.join(ONNX_TESTS, 'export_nets.py'), tmp,
            '--size', '224', '--threads', str(threads), 'resnet18')
    torch_s = float(p.stdout.split()[1])
    net = os.path.join(tmp, 'resnet18')
    run(ttc, 'compile', '-q', '--df', 'Float16_b', net + '.onnx',
        '-o', net + '.tti')
    p = run(ttc, 'run', net + '.tti', '--input',
            'input=' + net + '.input.npy', '--loops', '6',
            '-o', os.path.join(tmp, 'out'))
    runs = [float(m) for m in re.findall(r'run \d+: ([0-9.]+) ms', p.stderr)]
    ours = min(runs[1:] or runs)  # the first run loads the kernels
    theirs = torch_s * 1000
    print(f'BENCH name=onnx_resnet18_infer value={ours:.1f} unit=ms '
          f'ratio={theirs / ours:.4f} vs=torch-{theirs:.1f}ms-'
          f'{threads}threads-{coretype}', flush=True)


def import_resnet50(ttc, tmp):
    path = os.path.join(tmp, 'resnet50.onnx')
    run(sys.executable, '-c', f'''
import torch, torchvision
torch.manual_seed(0)
m = torchvision.models.resnet50().eval()
torch.onnx.export(m, torch.randn(1, 3, 224, 224), {path!r},
                  input_names=['input'], output_names=['output'],
                  opset_version=13)
''')
    best = None
    for _ in range(5):
        t = time.perf_counter()
        run(ttc, 'import', path, '-o', os.devnull)
        t = (time.perf_counter() - t) * 1000
        best = t if best is None else min(best, t)
    print(f'BENCH name=onnx_import_ms value={best:.1f} unit=ms '
          f'ratio={500 / best:.2f} vs=target-500ms', flush=True)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    coretype = ensure_coretype()
    threads = os.cpu_count() or 1
    tmp = tempfile.mkdtemp(prefix='bench-onnx-')
    try:
        resnet18(sys.argv[1], tmp, threads, coretype)
        import_resnet50(sys.argv[1], tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
