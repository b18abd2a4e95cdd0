#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the ONNX importer's seed corpus (fuzz/corpus-onnx/): small
valid models of the ops the importer maps, and hostile ones (huge and
negative dims, a cycle, a missing input, an undefined output, a huge
ConstantOfShape, external data outside the model's directory, a bad
opset, a truncated file). Needs Debian's python3-onnx: run by hand
with /usr/bin/python3 when the seeds should change; the files are kept
in the tree, named after what they hold.

Usage: make_onnx_corpus.py [DIR]
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def model(nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, 'g', inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)])


def vi(name, shape, dt=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dt, shape)


def init(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


def seeds():
    x = vi('x', [2, 3])
    y = vi('y', [2, 3])
    yield 'valid-add', model([helper.make_node('Add', ['x', 'x'], ['y'])],
                             [x], [y])
    yield 'valid-unary-chain', model(
        [helper.make_node('Relu', ['x'], ['a']),
         helper.make_node('Sigmoid', ['a'], ['b']),
         helper.make_node('Clip', ['b', 'lo', 'hi'], ['y'])],
        [x], [y], [init('lo', np.float32(0.1)), init('hi', np.float32(0.9))])
    yield 'valid-matmul-init', model(
        [helper.make_node('MatMul', ['x', 'w'], ['y'])],
        [x], [vi('y', [2, 4])], [init('w', np.ones((3, 4), np.float32))])
    yield 'valid-gemm', model(
        [helper.make_node('Gemm', ['x', 'w', 'c'], ['y'], transB=1,
                          alpha=0.5)],
        [x], [vi('y', [2, 4])],
        [init('w', np.ones((4, 3), np.float32)),
         init('c', np.zeros((4,), np.float32))])
    yield 'valid-reshape-shape-chain', model(
        [helper.make_node('Shape', ['x'], ['s']),
         helper.make_node('ReduceProd', ['s'], ['n'], keepdims=1),
         helper.make_node('Reshape', ['x', 'n'], ['y'])],
        [x], [vi('y', [6])])
    yield 'valid-transpose-softmax', model(
        [helper.make_node('Transpose', ['x'], ['t'], perm=[1, 0]),
         helper.make_node('Softmax', ['t'], ['y'], axis=-1)],
        [x], [vi('y', [3, 2])])
    img = vi('img', [1, 2, 5, 5])
    yield 'valid-conv-bn-pool', model(
        [helper.make_node('Conv', ['img', 'w', 'b'], ['c'], pads=[1, 1, 1, 1],
                          strides=[1, 1], kernel_shape=[3, 3]),
         helper.make_node('BatchNormalization', ['c', 's', 'o', 'm', 'v'],
                          ['n']),
         helper.make_node('Relu', ['n'], ['r']),
         helper.make_node('MaxPool', ['r'], ['p'], kernel_shape=[2, 2],
                          strides=[2, 2]),
         helper.make_node('GlobalAveragePool', ['p'], ['g']),
         helper.make_node('Flatten', ['g'], ['y'])],
        [img], [vi('y', [1, 3])],
        [init('w', np.ones((3, 2, 3, 3), np.float32)),
         init('b', np.zeros(3, np.float32)),
         init('s', np.ones(3, np.float32)), init('o', np.zeros(3, np.float32)),
         init('m', np.zeros(3, np.float32)), init('v', np.ones(3, np.float32))])
    yield 'valid-concat-slice-gather', model(
        [helper.make_node('Concat', ['x', 'x'], ['c'], axis=0),
         helper.make_node('Slice', ['c', 'st', 'en'], ['s']),
         helper.make_node('Gather', ['s', 'ix'], ['y'], axis=1)],
        [x], [vi('y', [2, 2])],
        [init('st', np.array([1], np.int64)), init('en', np.array([3], np.int64)),
         init('ix', np.array([0, 2], np.int64))])
    yield 'valid-reduce-where', model(
        [helper.make_node('ReduceMean', ['x'], ['m'], axes=[1]),
         helper.make_node('Greater', ['x', 'm'], ['g']),
         helper.make_node('Where', ['g', 'x', 'm'], ['y'])],
        [x], [y])
    yield 'valid-symbolic-dim', model(
        [helper.make_node('Neg', ['x'], ['y'])],
        [vi('x', ['n', 3])], [vi('y', ['n', 3])])
    yield 'valid-opset7-clip-attrs', model(
        [helper.make_node('Clip', ['x'], ['y'], min=-1.0, max=1.0)],
        [x], [y], opset=7)
    # hostile
    yield 'hostile-huge-dim', model(
        [helper.make_node('Relu', ['x'], ['y'])],
        [vi('x', [1 << 40, 1 << 30])], [vi('y', [1, 1])])
    yield 'hostile-negative-dim', model(
        [helper.make_node('Relu', ['x'], ['y'])],
        [vi('x', [-5, 3])], [y])
    yield 'hostile-cycle', model(
        [helper.make_node('Add', ['x', 'b'], ['a']),
         helper.make_node('Relu', ['a'], ['b'])],
        [x], [vi('b', [2, 3])])
    yield 'hostile-missing-input', model(
        [helper.make_node('Add', ['x', 'nowhere'], ['y'])], [x], [y])
    yield 'hostile-undefined-output', model(
        [helper.make_node('Relu', ['x'], ['a'])], [x], [vi('y', [2, 3])])
    yield 'hostile-huge-constant-of-shape', model(
        [helper.make_node('ConstantOfShape', ['s'], ['y'])],
        [], [vi('y', [1 << 20, 1 << 20])],
        [init('s', np.array([1 << 20, 1 << 20], np.int64))])
    yield 'hostile-huge-reshape', model(
        [helper.make_node('Reshape', ['x', 's'], ['y'])],
        [x], [vi('y', [1])],
        [init('s', np.array([1 << 40, -1], np.int64))])
    short = TensorProto(name='w', data_type=TensorProto.FLOAT, dims=[2, 3],
                        raw_data=b'\0' * 5)
    yield 'hostile-raw-data-short', model(
        [helper.make_node('Add', ['x', 'w'], ['y'])], [x], [y], [short])
    ext = TensorProto(name='w', data_type=TensorProto.FLOAT, dims=[2, 3],
                      data_location=TensorProto.EXTERNAL)
    for k, v in (('location', '../../etc/passwd'), ('offset', '0')):
        e = ext.external_data.add()
        e.key, e.value = k, v
    yield 'hostile-external-escape', model(
        [helper.make_node('Add', ['x', 'w'], ['y'])], [x], [y], [ext])
    yield 'hostile-opset-99', model(
        [helper.make_node('Relu', ['x'], ['y'])], [x], [y], opset=99)
    yield 'hostile-unknown-op', model(
        [helper.make_node('NoSuchOp', ['x'], ['y'])], [x], [y])
    yield 'hostile-unknown-attr', model(
        [helper.make_node('Relu', ['x'], ['y'], bogus=3)], [x], [y])
    yield 'hostile-axis-out-of-range', model(
        [helper.make_node('Softmax', ['x'], ['y'], axis=7)], [x], [y])
    yield 'hostile-rank-9', model(
        [helper.make_node('Relu', ['x'], ['y'])],
        [vi('x', [1] * 9)], [vi('y', [1] * 9)])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'corpus-onnx')
    os.makedirs(out, exist_ok=True)
    for name, m in seeds():
        data = m.SerializeToString()
        with open(os.path.join(out, name + '.onnx'), 'wb') as f:
            f.write(data)
        if name == 'valid-conv-bn-pool':
            with open(os.path.join(out, 'hostile-truncated.onnx'), 'wb') as f:
                f.write(data[:len(data) // 2])


if __name__ == '__main__':
    main()
