#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Exports the real networks of tests/onnx/README.md to ONNX, with an
input and torch's output for it.

Usage: export_nets.py OUTDIR [--size N] [--threads N] [NAME...]

For each NAME (default: all of NETS) writes OUTDIR/NAME.onnx,
OUTDIR/NAME.input.npy (seeded, normal) and OUTDIR/NAME.output.npy
(torch's result on the CPU) and prints "NAME SECONDS" (torch's best of
five forward passes). Weights are random from a fixed seed: nothing is
downloaded. --size is the image side of the CNNs (default 224). Needs
Debian's python3-torch, python3-torchvision and python3-onnx: run with
/usr/bin/python3.
"""
import argparse
import os
import time

import numpy as np
import torch
import torchvision


class VggStyle(torch.nn.Module):
    """A VGG-style network: stacks of 3x3 convolutions with ReLU and 2x2
    max pooling, then a classifier (VGG-11's layout, a quarter of its
    widths, so it stays small)."""

    CFG = [16, 'M', 32, 'M', 64, 64, 'M', 128, 128, 'M', 128, 128, 'M']

    def __init__(self, classes=100):
        super().__init__()
        layers, c = [], 3
        for v in self.CFG:
            if v == 'M':
                layers.append(torch.nn.MaxPool2d(2, 2))
            else:
                layers += [torch.nn.Conv2d(c, v, 3, padding=1),
                           torch.nn.BatchNorm2d(v), torch.nn.ReLU(True)]
                c = v
        self.features = torch.nn.Sequential(*layers)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.classifier = torch.nn.Sequential(
            torch.nn.Linear(c, 256), torch.nn.ReLU(True),
            torch.nn.Linear(256, classes))

    def forward(self, x):
        return self.classifier(torch.flatten(self.pool(self.features(x)), 1))


def encoder():
    layer = torch.nn.TransformerEncoderLayer(
        d_model=128, nhead=4, dim_feedforward=256, dropout=0.0,
        batch_first=True)
    return torch.nn.TransformerEncoder(layer, num_layers=2)


NETS = {
    'resnet18': lambda: torchvision.models.resnet18(num_classes=1000),
    'mobilenet_v2': lambda: torchvision.models.mobilenet_v2(num_classes=1000),
    'squeezenet1_1': lambda: torchvision.models.squeezenet1_1(
        num_classes=1000),
    'vgg_style': VggStyle,
    'transformer': encoder,
}


def input_shape(name, size):
    return (1, 32, 128) if name == 'transformer' else (1, 3, size, size)


def randomize_bn(net, g):
    """Batch norms with running statistics that are not the identity, so
    folding them is tested."""
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
            m.weight.data.copy_(torch.rand(m.num_features, generator=g) + 0.5)
            m.bias.data.copy_(torch.randn(m.num_features, generator=g) * 0.1)


def export(name, out, size):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    net = NETS[name]().eval()
    randomize_bn(net, g)
    x = torch.randn(*input_shape(name, size), generator=g)
    path = os.path.join(out, name + '.onnx')
    # outside no_grad: the encoder's fused fast path has no ONNX export
    torch.onnx.export(net, x, path, input_names=['input'],
                      output_names=['output'], opset_version=13,
                      do_constant_folding=True)
    with torch.no_grad():
        best = None
        for _ in range(5):
            t = time.perf_counter()
            y = net(x)
            t = time.perf_counter() - t
            best = t if best is None else min(best, t)
    np.save(os.path.join(out, name + '.input.npy'), x.numpy())
    np.save(os.path.join(out, name + '.output.npy'), y.numpy())
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--size', type=int, default=224)
    ap.add_argument('--threads', type=int, default=0)
    ap.add_argument('names', nargs='*')
    a = ap.parse_intermixed_args()
    if a.threads:
        torch.set_num_threads(a.threads)
    os.makedirs(a.out, exist_ok=True)
    for name in a.names or NETS:
        if name not in NETS:
            ap.error(f'no network {name} (have: {", ".join(NETS)})')
        print(name, f'{export(name, a.out, a.size):.6f}', flush=True)


if __name__ == '__main__':
    main()
