#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The ONNX importer from the command line (tests/onnx/README.md).

Bad models get errors that name what is wrong (the node's name, op type
and opset, and the attribute, input or tensor), never a wrong graph;
symbolic shapes need --input-shape; external data files are read from
the model's directory and nothing outside it; what imports computes what
onnx's reference evaluator (NumPy) computes. TAP on stdout. TTC names
the program. Run with Debian's /usr/bin/python3 (python3-onnx).
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import tap  # noqa: E402

TTC = os.environ['TTC']
TMP = tempfile.mkdtemp(prefix='ttc-onnx-import-')


def vi(name, shape, dt=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dt, shape)


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, 'g', inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)])
    path = os.path.join(TMP, name + '.onnx')
    with open(path, 'wb') as f:
        f.write(m.SerializeToString())
    return path


def ttc(*args):
    return subprocess.run([TTC] + list(args), capture_output=True, text=True,
                          timeout=120, cwd=TMP)


def refused(path, *want, code=1, args=()):
    p = ttc('import', path, *args)
    if p.returncode != code:
        raise AssertionError(f'exit {p.returncode}, not {code}\n{p.stderr}')
    for w in want:
        if w not in p.stderr:
            raise AssertionError(f'{w!r} not in the message:\n{p.stderr}')


X = vi('x', [2, 3])
Y = vi('y', [2, 3])


def test_unsupported_op_is_named():
    path = save('lstm', [helper.make_node('Det', ['x'], ['y'], name='det1')],
                [vi('x', [2, 3, 3])], [vi('y', [2])])
    refused(path, "node 'det1' (Det, opset 13)", 'op type Det at opset 13')


def test_unknown_attribute_is_named():
    path = save('attr', [helper.make_node('Relu', ['x'], ['y'], name='r',
                                          alpha=2.0)], [X], [Y])
    refused(path, "node 'r' (Relu, opset 13)", "attribute 'alpha'")


def test_unsupported_attribute_value_is_named():
    path = save('cubic', [helper.make_node(
        'Resize', ['x', '', 's'], ['y'], name='up', mode='cubic')],
        [vi('x', [1, 1, 2, 2])], [vi('y', [1, 1, 4, 4])],
        [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), 's')])
    refused(path, "node 'up' (Resize, opset 13)", "'mode'", 'cubic')


def test_missing_input_is_named():
    path = save('missing', [helper.make_node('Add', ['x', 'nowhere'], ['y'],
                                             name='add')], [X], [Y])
    refused(path, "node 'add' (Add, opset 13)", "input 1 ('nowhere')")


def test_cycle_is_refused():
    path = save('cycle', [helper.make_node('Add', ['x', 'b'], ['a'], name='n1'),
                          helper.make_node('Relu', ['a'], ['b'], name='n2')],
                [X], [vi('b', [2, 3])])
    refused(path, "node 'n1'", "input 1 ('b') is not defined by an earlier")


def test_undefined_output_is_named():
    path = save('noout', [helper.make_node('Relu', ['x'], ['a'])], [X], [Y])
    refused(path, "graph output 'y' is not produced")


def test_runtime_shape_input_is_named():
    path = save('reshape', [helper.make_node('Reshape', ['x', 's'], ['y'],
                                             name='rs')],
                [X, vi('s', [2], TensorProto.INT64)], [vi('y', [3, 2])])
    refused(path, "node 'rs' (Reshape, opset 13)", "input 1 ('s')",
            'must be known at import time')


def test_axis_out_of_range_is_named():
    path = save('axis', [helper.make_node('Softmax', ['x'], ['y'], name='sm',
                                          axis=5)], [X], [Y])
    refused(path, "node 'sm' (Softmax, opset 13)", '5')


def test_newer_opset_is_refused():
    path = save('opset18', [helper.make_node('Relu', ['x'], ['y'])], [X], [Y],
                opset=18)
    refused(path, 'opset 18 (7 to 17 are)')


def test_damaged_file_is_refused():
    path = os.path.join(TMP, 'damaged.onnx')
    with open(path, 'wb') as f:
        f.write(b'\x08\x07\x12\xff\xff\xff\xff\x0f garbage')
    refused(path, 'does not parse')


def test_short_initializer_is_named():
    w = TensorProto(name='w', data_type=TensorProto.FLOAT, dims=[2, 3],
                    raw_data=b'\0' * 5)
    path = save('short', [helper.make_node('Add', ['x', 'w'], ['y'])], [X],
                [Y], [w])
    refused(path, "tensor 'w'", 'raw_data holds 5 bytes')


def test_symbolic_dim_needs_a_shape():
    path = save('sym', [helper.make_node('Neg', ['x'], ['y'])],
                [vi('x', ['batch', 3])], [vi('y', ['batch', 3])])
    refused(path, "input 'x': dimension 0 ('batch') is unknown",
            '--input-shape x=')
    p = ttc('import', path, '--input-shape', 'x=5x3')
    if p.returncode or 'tensor<5x3xf32>' not in p.stdout:
        raise AssertionError(p.stderr + p.stdout)


def test_bad_input_shape_is_a_usage_error():
    path = save('sym2', [helper.make_node('Neg', ['x'], ['y'])], [X], [Y])
    for bad in ('x', '=2x3', 'x=2y3', 'x=2x', 'x=-1'):
        refused(path, '--input-shape', code=2, args=('--input-shape', bad))


def external_model(location, escape=False):
    w = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3),
                                'w')
    w.ClearField('raw_data')
    w.data_location = TensorProto.EXTERNAL
    for k, v in (('location', location), ('offset', '16'), ('length', '24')):
        e = w.external_data.add()
        e.key, e.value = k, v
    return save('ext' + ('-escape' if escape else ''),
                [helper.make_node('Add', ['x', 'w'], ['y'])], [X], [Y], [w])


def test_external_data_is_read_from_the_model_directory():
    with open(os.path.join(TMP, 'weights.bin'), 'wb') as f:
        f.write(b'\xee' * 16 + np.arange(6, dtype=np.float32).tobytes())
    path = external_model('weights.bin')
    x = np.ones((2, 3), np.float32)
    np.save(os.path.join(TMP, 'x.npy'), x)
    p = ttc('golden', path, '--input', 'x=' + os.path.join(TMP, 'x.npy'),
            '-o', os.path.join(TMP, 'ext-out'))
    if p.returncode:
        raise AssertionError(p.stderr)
    y = np.load(os.path.join(TMP, 'ext-out', 'output_0.npy'))
    if not np.array_equal(y, x + np.arange(6).reshape(2, 3)):
        raise AssertionError(f'{y}')


def test_external_data_outside_the_directory_is_refused():
    path = external_model('../outside.bin', escape=True)
    refused(path, "tensor 'w'", "'../outside.bin' is not a relative path "
            "inside the model's directory")


def test_import_writes_ttir_that_parses_and_params():
    w = numpy_helper.from_array(np.full((3, 4), 0.5, np.float32), 'fc::weight')
    path = save('mm', [helper.make_node('MatMul', ['x', 'fc::weight'], ['y'],
                                        name='fc')],
                [X], [vi('y', [2, 4])], [w])
    mlir = os.path.join(TMP, 'mm.mlir')
    p = ttc('import', path, '-o', mlir, '--params', os.path.join(TMP, 'pp'))
    if p.returncode:
        raise AssertionError(p.stderr)
    text = open(mlir).read()
    for want in ('argument_type<parameter>', 'loc("fc::weight")',
                 '"ttir.matmul"', 'loc("fc")'):
        if want not in text:
            raise AssertionError(f'{want!r} not in:\n{text}')
    if ttc('parse', mlir).returncode:
        raise AssertionError('the TTIR written does not parse')
    npy = os.path.join(TMP, 'pp', 'fc__weight.npy')
    if not np.array_equal(np.load(npy), np.full((3, 4), 0.5, np.float32)):
        raise AssertionError('parameter file')
    # the file name is accepted as the parameter's name
    np.save(os.path.join(TMP, 'x.npy'), np.ones((2, 3), np.float32))
    p = ttc('golden', mlir, '--input', 'x=' + os.path.join(TMP, 'x.npy'),
            '--input', 'fc__weight=' + npy, '-o', os.path.join(TMP, 'mm-out'))
    y = np.load(os.path.join(TMP, 'mm-out', 'output_0.npy'))
    if p.returncode or not np.allclose(y, 1.5):
        raise AssertionError(p.stderr + str(y))


def test_shape_chain_folds():
    """Shape -> Gather -> Unsqueeze -> Concat -> Reshape, as exporters
    write a flatten, imports as one reshape and no shape ops."""
    path = save('chain', [
        helper.make_node('Shape', ['x'], ['s']),
        helper.make_node('Gather', ['s', 'zero'], ['n'], axis=0),
        helper.make_node('Unsqueeze', ['n', 'ax'], ['n1']),
        helper.make_node('Concat', ['n1', 'minus1'], ['shape'], axis=0),
        helper.make_node('Reshape', ['x', 'shape'], ['y'], name='flat')],
        [vi('x', [2, 3, 4])], [vi('y', [2, 12])],
        [numpy_helper.from_array(np.array(0, np.int64), 'zero'),
         numpy_helper.from_array(np.array([0], np.int64), 'ax'),
         numpy_helper.from_array(np.array([-1], np.int64), 'minus1')])
    p = ttc('import', path)
    if p.returncode:
        raise AssertionError(p.stderr)
    ops = [ln for ln in p.stdout.splitlines() if '"ttir.' in ln]
    if len(ops) != 1 or 'ttir.reshape' not in ops[0] or '12' not in ops[0]:
        raise AssertionError('\n'.join(ops))


def test_layers_stay_nhwc():
    """Conv -> Relu -> Add (a per-channel bias) -> MaxPool -> Conv ->
    Concat of two convs: the activations stay NHWC between the layers,
    so only the input's and the output's permutes are left (and the
    bias's, a constant the compile folds)."""
    def w(name, o, c):
        return numpy_helper.from_array(
            np.random.default_rng(len(name)).standard_normal(
                (o, c, 3, 3)).astype(np.float32), name)
    path = save('layers', [
        helper.make_node('Conv', ['x', 'w1'], ['c1'], pads=[1, 1, 1, 1]),
        helper.make_node('Relu', ['c1'], ['r1']),
        helper.make_node('Add', ['r1', 'bias'], ['a1']),
        helper.make_node('MaxPool', ['a1'], ['p1'], kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node('Conv', ['p1', 'w2'], ['c2'], pads=[1, 1, 1, 1]),
        helper.make_node('Conv', ['p1', 'w3'], ['c3'], pads=[1, 1, 1, 1]),
        helper.make_node('Concat', ['c2', 'c3'], ['y'], axis=1)],
        [vi('x', [1, 3, 8, 8])], [vi('y', [1, 8, 4, 4])],
        [w('w1', 4, 3), w('w2', 4, 4), w('w3', 4, 4),
         numpy_helper.from_array(np.ones((4, 1, 1), np.float32), 'bias')])
    p = ttc('import', path)
    if p.returncode:
        raise AssertionError(p.stderr)
    n = sum(1 for ln in p.stdout.splitlines()
            if '"ttir.permute"' in ln and '-> tensor<1x1x1x4xf32>' not in ln)
    if n != 2:
        raise AssertionError(f'{n} permutes, not 2:\n{p.stdout}')


def test_docs_list_every_op():
    """docs/onnx.md's table names every op --list-ops prints."""
    p = ttc('import', '--list-ops')
    ops = {ln.split()[0] for ln in p.stdout.splitlines()}
    if p.returncode or len(ops) < 100:
        raise AssertionError(p.stderr + p.stdout)
    doc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            '..', '..', 'docs', 'onnx.md')).read()
    missing = sorted(op for op in ops if f'| {op} |' not in doc)
    if missing:
        raise AssertionError(f'docs/onnx.md lacks {missing}')


def main():
    cases = [v for k, v in sorted(globals().items()) if k.startswith('test_')]
    return tap.run(cases, cleanup=lambda: shutil.rmtree(TMP, ignore_errors=True))


if __name__ == '__main__':
    sys.exit(main())
