#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Real networks through the ONNX frontend (tests/onnx/README.md).

Each network of export_nets.py is exported from torch with random
weights, then run by `ttc compile NET.onnx --df Float16_b` (imported and
compiled in bf16) and `ttc run` on the embedded chip model and its output compared with torch's:
PCC >= 0.99. A network that fails to import must name the node; the case
fails either way. TAP on stdout. TTC names the program; ONNX_NET_SIZE the
CNNs' image side (default 224); ONNX_NETS a subset (space-separated).
Run with Debian's /usr/bin/python3 (NumPy, torch, torchvision, onnx).
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import tap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TTC = os.environ['TTC']
SIZE = os.environ.get('ONNX_NET_SIZE', '224')
NETS = os.environ.get('ONNX_NETS', 'resnet18 mobilenet_v2 squeezenet1_1 '
                      'vgg_style transformer').split()
TMP = tempfile.mkdtemp(prefix='ttc-onnx-nets-')


def pcc(a, b):
    a = a.astype(np.float64).ravel()
    b = b.astype(np.float64).ravel()
    if np.array_equal(a, b):
        return 1.0
    return float(np.corrcoef(a, b)[0, 1])


def export():
    p = subprocess.run([sys.executable, os.path.join(HERE, 'export_nets.py'),
                        TMP, '--size', SIZE] + NETS,
                       capture_output=True, text=True, timeout=600)
    if p.returncode:
        raise AssertionError('export failed:\n' + p.stderr[-3000:])


def net_case(name):
    def case():
        """one network"""
        out = os.path.join(TMP, name + '.out')
        image = os.path.join(TMP, name + '.tti')
        for args in (['compile', '-q', '--df', 'Float16_b',
                      os.path.join(TMP, name + '.onnx'), '-o', image],
                     ['run', image, '--input',
                      'input=' + os.path.join(TMP, name + '.input.npy'),
                      '-o', out]):
            p = subprocess.run([TTC] + args, capture_output=True, text=True,
                               timeout=1800)
            if p.returncode:
                raise AssertionError(f'ttc {args[0]}: exit {p.returncode}'
                                     f'\n{p.stderr[-3000:]}')
        got = np.load(os.path.join(out, 'output_0.npy'))
        want = np.load(os.path.join(TMP, name + '.output.npy'))
        if got.size != want.size:
            raise AssertionError(f'{got.shape} values, torch gives '
                                 f'{want.shape}')
        r = pcc(want, got.reshape(want.shape))
        print(f'# {name}: PCC {r:.5f} against torch '
              f'(max abs error {np.abs(want - got.reshape(want.shape)).max():.4g})')
        if not r >= 0.99:
            raise AssertionError(f'PCC {r:.5f} < 0.99')
    case.__name__ = (name if name == 'transformer' else
                     f'{name}_{SIZE}x{SIZE}') + '_matches_torch'
    return case


def main():
    export.__name__ = 'networks_export_from_torch'
    return tap.run([export] + [net_case(n) for n in NETS],
                   cleanup=lambda: shutil.rmtree(TMP, ignore_errors=True))


if __name__ == '__main__':
    sys.exit(main())
