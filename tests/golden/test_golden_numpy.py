# SPDX-License-Identifier: Apache-2.0
"""Every op's golden against NumPy (tests/golden/README.md).

For each case this script writes a one-op TTIR module and random inputs
(.npy), runs `ttc golden` on them and compares its output with the value
NumPy computes here, at test time: no stored expectations. Run by Debian's
/usr/bin/python3 (python3-numpy). TAP on stdout; TTC names the program.
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import tap  # noqa: E402

TTC = os.environ['TTC']
TMP = tempfile.mkdtemp(prefix='ttc-golden-')
RNG = np.random.default_rng(26)
# Edge values every unary op meets besides random ones.
EDGES = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e30,
                  -1e30, 1e-30], dtype=np.float32)
ELEM = {np.dtype(np.float32): 'f32', np.dtype(np.float64): 'f64',
        np.dtype(np.float16): 'f16', np.dtype(np.int32): 'i32',
        np.dtype(np.int64): 'i64', np.dtype(np.bool_): 'i1',
        np.dtype(np.uint8): 'ui8'}
CASE = [0]


def ttype(shape, dtype):
    dims = ''.join(f'{d}x' for d in shape)
    return f'tensor<{dims}{ELEM[np.dtype(dtype)]}>'


def module(op, inputs, out, props='', result_dtype=None):
    """The TTIR of one op on arguments shaped as inputs (arrays)."""
    args = ', '.join(f'%arg{i}: {ttype(x.shape, x.dtype)}'
                     for i, x in enumerate(inputs))
    ins = ', '.join(ttype(x.shape, x.dtype) for x in inputs)
    opnds = ', '.join(f'%arg{i}' for i in range(len(inputs)))
    rt = ttype(out.shape, result_dtype or out.dtype)
    p = f' <{{{props}}}>' if props else ''
    return (f'module {{\n  func.func @main({args}) -> {rt} {{\n'
            f'    %0 = "ttir.{op}"({opnds}){p} : ({ins}) -> {rt}\n'
            f'    return %0 : {rt}\n  }}\n}}\n')


def ttc_golden(text, inputs, *extra):
    """Runs ttc golden; the completed process and the output (or None)."""
    CASE[0] += 1
    d = os.path.join(TMP, f'c{CASE[0]}')
    os.makedirs(d)
    path = os.path.join(d, 'm.mlir')
    with open(path, 'w') as f:
        f.write(text)
    args = [TTC, 'golden', path, '-o', d, *extra]
    for i, x in enumerate(inputs):
        np.save(os.path.join(d, f'in{i}.npy'), x)
        args += ['--input', f'arg{i}={os.path.join(d, f"in{i}.npy")}']
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    # Nothing on stderr when it succeeds (UBSan's reports, under the
    # sanitizer build, do not change the exit status).
    assert p.returncode or not p.stderr, p.stderr
    out = os.path.join(d, 'output_0.npy')
    return p, (np.load(out) if p.returncode == 0 else None)


def check(op, inputs, want, props='', rtol=1e-5, atol=1e-6, *extra):
    """ttc golden of op on inputs must equal want (NaN equal to NaN)."""
    want = np.asarray(want)
    p, got = ttc_golden(module(op, inputs, want, props), inputs, *extra)
    assert p.returncode == 0, f'{op}: ttc golden failed:\n{p.stderr}'
    assert got.shape == want.shape, f'{op}: shape {got.shape} != {want.shape}'
    assert got.dtype == want.dtype, f'{op}: dtype {got.dtype} != {want.dtype}'
    if want.dtype.kind == 'f':
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                   equal_nan=True, err_msg=op)
    else:
        np.testing.assert_array_equal(got, want, err_msg=op)


def rand(*shape, dtype=np.float32, lo=-2.0, hi=2.0):
    return RNG.uniform(lo, hi, size=shape).astype(dtype)


def f32(x):
    return np.asarray(x).astype(np.float32)


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def softplus(x):
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


UNARY = {
    'abs': np.abs, 'acos': np.arccos, 'asin': np.arcsin, 'asinh': np.arcsinh,
    'atan': np.arctan, 'cbrt': np.cbrt, 'ceil': np.ceil, 'cos': np.cos,
    'erf': erf, 'erfc': np.vectorize(math.erfc, otypes=[np.float64]),
    'exp': np.exp, 'exp2': np.exp2, 'expm1': np.expm1, 'floor': np.floor,
    'frac': lambda x: x - np.trunc(x),
    'gelu': lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2))),
    'hardsigmoid': lambda x: np.clip(x / 6 + 0.5, 0, 1),
    'log': np.log, 'log1p': np.log1p,
    'mish': lambda x: x * np.tanh(softplus(x)), 'neg': np.negative,
    'reciprocal': lambda x: 1 / x, 'relu': lambda x: np.maximum(x, 0),
    'relu6': lambda x: np.where(np.isnan(x), x, np.clip(x, 0, 6)),
    'rsqrt': lambda x: 1 / np.sqrt(x), 'sigmoid': lambda x: 1 / (1 + np.exp(-x)),
    'sign': np.sign, 'silu': lambda x: x / (1 + np.exp(-x)), 'sin': np.sin,
    'softsign': lambda x: x / (1 + np.abs(x)), 'sqrt': np.sqrt,
    'square': np.square, 'tan': np.tan, 'tanh': np.tanh, 'trunc': np.trunc,
}
PREDICATES = {'isfinite': np.isfinite, 'signbit': np.signbit,
              'logical_not': np.logical_not}


def test_unary_ops_with_edge_values():
    x = np.concatenate([rand(14), EDGES]).reshape(4, 6)
    for name, fn in UNARY.items():
        with np.errstate(all='ignore'):
            want = f32(fn(x.astype(np.float64)))
        check(name, [x], want)
    for name, fn in PREDICATES.items():
        check(name, [x], fn(x))


def test_unary_ranks_0_and_1():
    for x in (np.float32(0.5).reshape(()), rand(1), rand(7)):
        check('exp', [x], f32(np.exp(x.astype(np.float64))))
        check('relu', [x], f32(np.maximum(x, 0)))


BINARY = {
    'add': np.add, 'subtract': np.subtract, 'multiply': np.multiply,
    'div': np.divide, 'maximum': np.maximum, 'minimum': np.minimum,
    'pow': np.power, 'remainder': np.remainder, 'atan2': np.arctan2,
}
COMPARE = {'eq': np.equal, 'ne': np.not_equal, 'gt': np.greater,
           'ge': np.greater_equal, 'lt': np.less, 'le': np.less_equal,
           'logical_and': np.logical_and, 'logical_or': np.logical_or,
           'logical_xor': np.logical_xor}
SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((4, 1, 3), (2, 1)),
          ((), (2, 3)), ((), ()), ((1,), (5,))]


def test_binary_ops_broadcasting():
    for sa, sb in SHAPES:
        a, b = rand(*sa), rand(*sb)
        a.flat[0] = 0  # a zero for div, pow, comparisons
        for name, fn in BINARY.items():
            with np.errstate(all='ignore'):
                want = f32(fn(a.astype(np.float64), b.astype(np.float64)))
            check(name, [a, b], want)
        c = np.where(RNG.uniform(size=sb) < 0.5, b, 0).astype(np.float32)
        for name, fn in COMPARE.items():
            check(name, [a, c], fn(a, c))
        check('eq', [a, a[...]], np.equal(a, a))


def test_binary_edge_values():
    a = np.repeat(EDGES, len(EDGES))
    b = np.tile(EDGES, len(EDGES))
    for name, fn in BINARY.items():
        with np.errstate(all='ignore'):
            want = f32(fn(a.astype(np.float64), b.astype(np.float64)))
        check(name, [a, b], want)
    for name, fn in COMPARE.items():
        check(name, [a, b], fn(a, b))


def test_integer_ops():
    a = RNG.integers(-1000, 1000, size=(3, 4), dtype=np.int32)
    b = RNG.integers(0, 31, size=(4,), dtype=np.int32)
    check('bitwise_and', [a, b], a & b)
    check('bitwise_or', [a, b], a | b)
    check('bitwise_xor', [a, b], a ^ b)
    check('bitwise_not', [a], ~a)
    t = RNG.uniform(size=(5,)) < 0.5
    check('bitwise_not', [t], ~t)
    u = RNG.integers(0, 255, size=(6,), dtype=np.uint8)
    check('bitwise_not', [u], ~u)
    check('add', [u, u], u + u)
    check('logical_left_shift', [a, b], np.left_shift(a, b))
    check('right_shift', [a, b], np.right_shift(a, b))
    check('logical_right_shift', [a, b],
          np.right_shift(a.view(np.uint32), b.astype(np.uint32)).view(np.int32))
    check('add', [a, b], a + b)
    check('multiply', [a, b], a * b)
    check('remainder', [a, b + 1], np.remainder(a, b + 1))
    check('maximum', [a, b], np.maximum(a, b))
    check('neg', [a], -a)
    check('abs', [a], np.abs(a))


def test_where_and_leaky_relu():
    c = RNG.uniform(size=(2, 1, 3)) < 0.5
    a, b = rand(4, 3), rand(3)
    check('where', [c, a, b], np.where(c, a, b))
    cf = c.astype(np.float32)
    check('where', [cf, a, b], np.where(cf != 0, a, b))
    x = np.concatenate([rand(10), EDGES])
    check('leaky_relu', [x], f32(np.where(x < 0, np.float32(0.1) * x, x)),
          'parameter = 1.000000e-01 : f32')


def bf16(x):
    """Round to nearest even bfloat16 (as float32)."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def test_typecast_and_bitcast():
    x = np.array([1.5, -1.5, 2.7, -2.7, 0, 1e6, 3.3e4], dtype=np.float32)
    check('typecast', [x], np.trunc(x).astype(np.int32))
    i = RNG.integers(-100, 100, size=(5,), dtype=np.int32)
    check('typecast', [i], i.astype(np.float32))
    with np.errstate(over='ignore'):
        check('typecast', [x], x.astype(np.float16))
    text = module('typecast', [x], x).replace(
        '-> tensor<7xf32>', '-> tensor<7xbf16>').replace(
        'return %0 : tensor<7xf32>', 'return %0 : tensor<7xbf16>').replace(
        '@main(%arg0: tensor<7xf32>) -> tensor<7xf32>',
        '@main(%arg0: tensor<7xf32>) -> tensor<7xbf16>')
    p, got = ttc_golden(text, [x])
    assert p.returncode == 0, p.stderr
    np.testing.assert_array_equal(got, bf16(x))  # bf16 written as f32
    check('bitcast_convert', [x], x.view(np.int32))
    # A bf16 argument from an f32 array, rounded; the result is bf16 too.
    y = rand(5)
    text = module('neg', [y], y).replace('xf32>', 'xbf16>')
    p, got = ttc_golden(text, [y])
    assert p.returncode == 0, p.stderr
    np.testing.assert_array_equal(got, -bf16(y))


def mm_ref(a, b, ta=False, tb=False):
    a, b = a.astype(np.float64), b.astype(np.float64)
    if ta:
        a = np.swapaxes(a, -1, -2)
    if tb:
        b = np.swapaxes(b, -1, -2)
    return f32(np.matmul(a, b))


def test_matmul():
    cases = [((3, 4), (4, 5), False, False), ((4, 3), (4, 5), True, False),
             ((3, 4), (5, 4), False, True), ((4, 3), (5, 4), True, True),
             ((2, 3, 4), (4, 5), False, False),
             ((2, 1, 3, 4), (3, 4, 5), False, False),
             ((4,), (4, 5), False, False), ((3, 4), (4,), False, False),
             ((4,), (4,), False, False), ((2, 600), (600, 3), False, False),
             ((1, 1), (1, 1), False, False)]
    for sa, sb, ta, tb in cases:
        a, b = rand(*sa), rand(*sb)
        props = ', '.join(p for p, on in (('transpose_a = true', ta),
                                          ('transpose_b = true', tb)) if on)
        want = mm_ref(a, b, ta, tb)
        # vector . vector is a tensor<1> (TTIR has no scalars)
        check('matmul', [a, b], want.reshape(want.shape or (1,)), props,
              1e-5, 1e-5)
    a, b, bias = rand(2, 3, 4), rand(4, 5), rand(5)
    check('linear', [a, b, bias], f32(mm_ref(a, b) + bias), '', 1e-5, 1e-5)
    a, b = rand(3, 4), rand(5, 4)
    check('linear', [a, b], mm_ref(a, b, False, True), 'transpose_b = true',
          1e-5, 1e-5)


def ints(name, v):
    return f'{name} = [' + ', '.join(f'{x} : i32' for x in v) + ']'


def test_data_movement():
    x = rand(2, 3, 4)
    check('reshape', [x], x.reshape(4, 6), ints('shape', [4, 6]))
    check('transpose', [x], np.swapaxes(x, -1, 0),
          'dim0 = -1 : si32, dim1 = 0 : si32')
    check('permute', [x], np.transpose(x, (2, 0, 1)),
          'permutation = array<i64: 2, 0, 1>')
    y = rand(1, 3, 1)
    check('broadcast', [y], np.broadcast_to(y, (2, 3, 4)).copy(),
          'broadcast_dimensions = array<i64: 2, 1, 4>')
    z = rand(2, 3, 2)
    w = rand(2, 3, 1)
    text = module('concat', [x, z, w], np.concatenate([x, z, w], -1),
                  'dim = -1 : si32')
    p, got = ttc_golden(text, [x, z, w])
    assert p.returncode == 0, p.stderr
    np.testing.assert_array_equal(got, np.concatenate([x, z, w], -1))
    check('concat', [x, x], np.concatenate([x, x], 0), 'dim = 0 : si32')
    props = ', '.join([ints('begins', [0, -2, 3]), ints('ends', [2, 3, 0]),
                       ints('step', [1, 1, -2])])
    check('slice_static', [x], x[0:2, -2:3, 3:0:-2], props)
    props = ', '.join([ints('begins', [1, 0, 0]), ints('ends', [2, 3, 4]),
                       ints('step', [1, 2, 3])])
    check('slice_static', [x], x[1:2, 0:3:2, 0:4:3], props)


REDUCE = {'sum': np.sum, 'mean': np.mean, 'max': np.max, 'min': np.min,
          'prod': np.prod}


def reduce_props(dims, keep):
    p = f'keep_dim = {"true" if keep else "false"}'
    return p + (', ' + ints('dim_arg', dims) if dims is not None else '')


def test_reductions():
    x = rand(2, 3, 4)
    x[1, 2, 3] = np.nan
    for dims in ([1], [-1], [0, 2], None):
        for keep in (True, False):
            ax = tuple(dims) if dims is not None else None
            for name, fn in REDUCE.items():
                want = f32(fn(x.astype(np.float64), axis=ax, keepdims=keep))
                check(name, [x], want, reduce_props(dims, keep))
    y = rand(3, 5)
    y[0, 1] = y[0, 4] = 5  # first of equal maxima
    want = np.argmax(y, axis=1).astype(np.int32)
    check('argmax', [y], want, reduce_props([1], False))
    want = np.argmax(y, axis=0, keepdims=True).astype(np.int32)
    check('argmax', [y], want, reduce_props([0], True))
    b = (RNG.uniform(size=(3, 4)) < 0.7).astype(np.float32)
    check('reduce_and', [b], np.all(b != 0, axis=1), reduce_props([1], False))
    check('reduce_or', [b], np.any(b != 0, axis=0), reduce_props([0], False))
    s = np.float32(3).reshape(())
    check('sum', [s], s, reduce_props(None, False))


def softmax(x, d):
    x = x.astype(np.float64)
    e = np.exp(x - np.max(x, axis=d, keepdims=True))
    return f32(e / np.sum(e, axis=d, keepdims=True))


def test_softmax():
    x = rand(3, 4, 5, lo=-30, hi=30)
    for d in (-1, 0, 1):
        check('softmax', [x], softmax(x, d), f'dimension = {d} : si32')
    check('softmax', [x], softmax(x, -1),
          'dimension = -1 : si32, numericStable = true')


def run_noarg(op, props, rt):
    text = (f'module {{\n  func.func @main() -> {rt} {{\n'
            f'    %0 = "ttir.{op}"() <{{{props}}}> : () -> {rt}\n'
            f'    return %0 : {rt}\n  }}\n}}\n')
    p, got = ttc_golden(text, [])
    assert p.returncode == 0, p.stderr
    return got


def test_creation_ops():
    got = run_noarg('constant', 'value = dense<[[1.5, -2.0], [3.0, 4.25]]> : '
                    'tensor<2x2xf32>', 'tensor<2x2xf32>')
    np.testing.assert_array_equal(got, [[1.5, -2.0], [3.0, 4.25]])
    got = run_noarg('constant', 'value = dense<7> : tensor<3xi32>',
                    'tensor<3xi32>')
    np.testing.assert_array_equal(got, np.full(3, 7, np.int32))
    got = run_noarg('full', 'shape = array<i32: 2, 3>, fill_value = 2.5 : f32',
                    'tensor<2x3xf32>')
    np.testing.assert_array_equal(got, np.full((2, 3), 2.5, np.float32))
    got = run_noarg('full', 'shape = array<i32: 4>, fill_value = -3 : i32',
                    'tensor<4xi32>')
    np.testing.assert_array_equal(got, np.full(4, -3, np.int32))
    got = run_noarg('zeros', 'shape = array<i32: 2>', 'tensor<2xf32>')
    np.testing.assert_array_equal(got, np.zeros(2, np.float32))
    got = run_noarg('ones', 'shape = array<i32: 1, 2>', 'tensor<1x2xf32>')
    np.testing.assert_array_equal(got, np.ones((1, 2), np.float32))
    text = ('module {\n  func.func @main() -> tensor<2x2xf32> {\n'
            '    %0 = ttir.empty() : tensor<2x2xf32>\n'
            '    return %0 : tensor<2x2xf32>\n  }\n}\n')
    p, got = ttc_golden(text, [])
    assert p.returncode == 0 and got.shape == (2, 2), p.stderr


def test_device_rounding():
    a, b = rand(64, 64), rand(64)
    for fmt, rnd in (('bf16', bf16),
                     ('fp16', lambda v: f32(np.asarray(v).astype(np.float16)))):
        p, got = ttc_golden(module('add', [a, b], a), [a, b], '--format', fmt)
        assert p.returncode == 0, p.stderr
        want = rnd(rnd(a).astype(np.float64) + rnd(b))
        np.testing.assert_array_equal(got, want, err_msg=fmt)
    for fmt, bits in (('bfp8_b', 7), ('bfp4_b', 3)):
        p, got = ttc_golden(module('add', [a, b], a), [a, b], '--format', fmt)
        assert p.returncode == 0, p.stderr
        # Each value keeps `bits` bits of mantissa below its row's shared
        # exponent: the error is under 2 ulps of the largest of 16.
        exact = (a + b).reshape(-1, 16)
        scale = 2.0 ** np.ceil(np.log2(np.abs(exact).max(axis=1)))
        err = np.abs(got.reshape(-1, 16) - exact).max(axis=1)
        assert (err <= 4 * scale * 2.0 ** -bits).all(), (fmt, err / scale)


def test_call_and_intermediates():
    text = ('module {\n'
            '  func.func private @sq(%arg0: tensor<3xf32>) -> tensor<3xf32> {\n'
            '    %0 = "ttir.multiply"(%arg0, %arg0) : (tensor<3xf32>, '
            'tensor<3xf32>) -> tensor<3xf32>\n'
            '    return %0 : tensor<3xf32>\n  }\n'
            '  func.func @main(%arg0: tensor<3xf32> loc("x")) -> '
            'tensor<3xf32> {\n'
            '    %0 = "ttir.exp"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>\n'
            '    %1 = func.call @sq(%0) : (tensor<3xf32>) -> tensor<3xf32>\n'
            '    return %1 : tensor<3xf32>\n  }\n}\n')
    x = rand(3)
    CASE[0] += 1
    d = os.path.join(TMP, f'c{CASE[0]}')
    os.makedirs(d)
    np.save(os.path.join(d, 'x.npy'), x)
    with open(os.path.join(d, 'm.mlir'), 'w') as f:
        f.write(text)
    p = subprocess.run([TTC, 'golden', os.path.join(d, 'm.mlir'), '--func',
                        'main', '--input', f'x={d}/x.npy', '-o', d, '--all'],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    e = f32(np.exp(x.astype(np.float64)))
    np.testing.assert_allclose(np.load(f'{d}/v0.npy'), e, rtol=1e-6)
    np.testing.assert_allclose(np.load(f'{d}/output_0.npy'), e * e, rtol=1e-6)
    assert os.path.exists(f'{d}/v1.npy'), os.listdir(d)
    assert sorted(os.listdir(d)) == ['m.mlir', 'output_0.npy', 'v0.npy',
                                     'v1.npy', 'x.npy'], os.listdir(d)


def records(stdout):
    import json
    return {r['name']: r for r in map(json.loads, (
        line for line in stdout.splitlines() if line.startswith('{')))}


def test_compare_records():
    a, b = rand(8, 8), rand(8, 8)
    want = f32(a.astype(np.float64) @ b)
    text = module('matmul', [a, b], want)
    CASE[0] += 1
    d = os.path.join(TMP, f'c{CASE[0]}')
    dev = os.path.join(d, 'dev')
    os.makedirs(dev)
    with open(os.path.join(d, 'm.mlir'), 'w') as f:
        f.write(text)
    np.save(f'{d}/a.npy', a)
    np.save(f'{d}/b.npy', b)
    base = [TTC, 'golden', f'{d}/m.mlir', '-i', f'0={d}/a.npy', '-i',
            f'1={d}/b.npy', '-o', d, '--compare', dev]
    # A "device" result with bf16 error: PCC passes, allclose does not.
    np.save(f'{dev}/output_0.npy', bf16(want))
    p = subprocess.run(base, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    r = records(p.stdout)['output_0']
    g = np.load(f'{d}/output_0.npy').astype(np.float64).ravel()
    c = bf16(want).astype(np.float64).ravel()
    assert r['result'] == 'pass' and r['allclose'] is False, r
    assert abs(r['pcc'] - np.corrcoef(g, c)[0, 1]) < 1e-9, r
    assert abs(r['atol'] - np.max(np.abs(g - c))) < 1e-9, r
    rt = np.max(np.abs(g - c) / np.abs(c))
    assert abs(r['rtol'] - rt) <= 1e-7 * rt, (r, rt)
    p = subprocess.run(base + ['--atol', '1e-3'], capture_output=True,
                       text=True)
    assert p.returncode == 1 and records(p.stdout)['output_0']['result'] == \
        'fail', p.stdout
    # Uncorrelated values fail; a missing or mis-shaped file is named.
    np.save(f'{dev}/output_0.npy', rand(8, 8))
    p = subprocess.run(base, capture_output=True, text=True)
    assert p.returncode == 1 and records(p.stdout)['output_0']['pcc'] < 0.9
    np.save(f'{dev}/output_0.npy', rand(4, 4))
    p = subprocess.run(base, capture_output=True, text=True)
    assert p.returncode == 1 and 'tensor<4x4xf32>' in p.stderr, p.stderr
    os.remove(f'{dev}/output_0.npy')
    p = subprocess.run(base, capture_output=True, text=True)
    assert p.returncode == 1 and 'no ' + dev in p.stderr, p.stderr


def expect_fail(args, words):
    p = subprocess.run([TTC, 'golden', *args], capture_output=True,
                       text=True, cwd=TMP)
    assert p.returncode == 1, (args, p.returncode, p.stderr)
    assert 'runtime error' not in p.stderr, p.stderr
    for w in words:
        assert w in p.stderr, (w, p.stderr)


def test_bad_inputs_named():
    d = os.path.join(TMP, 'bad')
    os.makedirs(d)
    a = rand(2, 3)
    m = os.path.join(d, 'm.mlir')
    with open(m, 'w') as f:
        f.write(module('add', [a, a], a))
    np.save(f'{d}/good.npy', a)
    np.save(f'{d}/shape.npy', rand(3, 2))
    np.save(f'{d}/dtype.npy', a.astype(np.float64))
    np.save(f'{d}/c64.npy', a.astype(np.complex64))
    with open(f'{d}/junk.npy', 'wb') as f:
        f.write(b'not an npy file')
    g = f'arg1={d}/good.npy'
    expect_fail([m, '-o', d, '--input', f'arg0={d}/shape.npy', '--input', g],
                ['argument #0', 'tensor<2x3xf32>', 'tensor<3x2xf32>'])
    expect_fail([m, '-o', d, '--input', f'arg0={d}/dtype.npy', '--input', g],
                ['argument #0', 'tensor<2x3xf64>'])
    expect_fail([m, '-o', d, '--input', g], ['no --input for argument #0',
                                             'arg0'])
    expect_fail([m, '-o', d, '--input', f'nope={d}/good.npy'],
                ['--input nope', 'no argument of that name'])
    expect_fail([m, '-o', d, '--input', f'arg0={d}/missing.npy'],
                ['missing.npy', 'No such file'])
    expect_fail([m, '-o', d, '--input', f'arg0={d}/junk.npy', '--input', g],
                ['junk.npy', 'not a .npy file'])
    expect_fail([m, '-o', d, '--input', f'arg0={d}/c64.npy', '--input', g],
                ['c64.npy', 'unsupported'])
    expect_fail([m, '-o', d, '--func', 'other', '--random', '1'],
                ['no function @other'])
    expect_fail([os.path.join(d, 'none.mlir'), '--random', '1'],
                ['none.mlir'])
    p = subprocess.run([TTC, 'golden', m, '-o', d, '--random', '7'],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def arr(name, v):
    if not v:
        return f'{name} = array<i64>'
    return f'{name} = array<i64: ' + ', '.join(map(str, v)) + '>'


def test_squeeze_unsqueeze_reverse():
    x = rand(2, 1, 3)
    check('squeeze', [x], x.reshape(2, 3), 'dim = 1 : si32')
    check('squeeze', [x], x.reshape(2, 3), 'dim = -2 : si32')
    check('unsqueeze', [x], x[None], 'dim = 0 : si32')
    check('unsqueeze', [x], x[..., None], 'dim = -1 : si32')
    check('unsqueeze', [x], x[:, :, None], 'dim = 2 : si32')
    y = rand(2, 3, 4)
    check('reverse', [y], y[::-1, :, ::-1], arr('dimensions', [0, -1]))
    check('reverse', [y], y[:, ::-1], arr('dimensions', [1]))
    check('reverse', [y], y, arr('dimensions', []))
    i = np.arange(6, dtype=np.int32).reshape(2, 3)
    check('reverse', [i], i[:, ::-1], arr('dimensions', [1]))


def test_repeat_and_interleave():
    x = rand(2, 3)
    check('repeat', [x], np.tile(x, (3, 2)), arr('repeat_dimensions', [3, 2]))
    check('repeat', [x], x, arr('repeat_dimensions', [1, 1]))
    y = rand(2, 1, 3)
    check('repeat', [y], np.tile(y, (1, 4, 1)),
          arr('repeat_dimensions', [1, 4, 1]))
    for dim in (0, 1, -1):
        check('repeat_interleave', [x], np.repeat(x, 3, axis=dim),
              f'repeats = 3 : ui32, dim = {dim} : si32')
    check('repeat_interleave', [y], np.repeat(y, 2, axis=1),
          'repeats = 2 : ui32, dim = 1 : si32')


def test_pad():
    x = rand(2, 3)
    check('pad', [x], np.pad(x, ((1, 0), (2, 3)), constant_values=1.5),
          arr('padding', [1, 0, 2, 3]) + ', value = 1.5 : f32')
    check('pad', [x], np.pad(x, ((0, 0), (0, 0))),
          arr('padding', [0, 0, 0, 0]) + ', value = 0.0 : f32')
    # Negative padding crops (torch.nn.functional.pad).
    want = np.pad(x, ((0, 2), (0, 0)), constant_values=-7)[:, 1:2]
    check('pad', [x], want, arr('padding', [0, 2, -1, -1]) +
          ', value = -7.0 : f32')
    i = np.arange(4, dtype=np.int32)
    check('pad', [i], np.pad(i, (2, 1), constant_values=9),
          arr('padding', [2, 1]) + ', value = 9.0 : f32')


def test_clamp():
    x = np.concatenate([rand(14), EDGES]).reshape(4, 6)
    want = np.where(np.isnan(x), x, np.minimum(np.maximum(x, -0.5), 1.25))
    check('clamp_scalar', [x], f32(want), 'min = -0.5 : f32, max = 1.25 : f32')
    # min > max: every value is max (torch.clamp).
    check('clamp_scalar', [x], f32(np.where(np.isnan(x), x, -1.0)),
          'min = 1.0 : f32, max = -1.0 : f32')
    i = np.arange(-5, 5, dtype=np.int32)
    check('clamp_scalar', [i], np.clip(i, -2, 3), 'min = -2 : i32, max = 3 : i32')
    lo, hi = rand(4, 1, lo=-1, hi=0), rand(6, lo=0, hi=1)
    want = np.where(np.isnan(x), x, np.minimum(np.maximum(x, lo), hi))
    check('clamp_tensor', [x, lo, hi], f32(want))


def test_selu_and_gelu_bw():
    x = np.concatenate([rand(14, lo=-4, hi=4), EDGES]).reshape(4, 6)
    xd = x.astype(np.float64)
    with np.errstate(all='ignore'):
        s, a = 1.0507009873390197, 1.6732635498046875
        want = s * (np.maximum(xd, 0) + np.minimum(a * np.expm1(xd), 0))
        want = np.where(np.isnan(xd), xd, want)
        check('selu', [x], f32(want))
        want = 2.0 * (np.maximum(xd, 0) + np.minimum(0.5 * np.expm1(xd), 0))
        want = np.where(np.isnan(xd), xd, want)
        check('selu', [x], f32(want), 'scale = 2.0 : f32, alpha = 0.5 : f32')
    x = rand(3, 4, lo=-4, hi=4)
    g = rand(4)
    xd = x.astype(np.float64)
    cdf = 0.5 * (1 + erf(xd / math.sqrt(2)))
    pdf = np.exp(-xd * xd / 2) / math.sqrt(2 * math.pi)
    check('gelu_bw', [g, x], f32(g * (cdf + xd * pdf)))
    check('gelu_bw', [g, x], f32(g * (cdf + xd * pdf)),
          'approximate = "none"')
    k, c = math.sqrt(2 / math.pi), 0.044715
    t = np.tanh(k * (xd + c * xd ** 3))
    d = 0.5 * (1 + t) + 0.5 * xd * (1 - t * t) * k * (1 + 3 * c * xd * xd)
    check('gelu_bw', [g, x], f32(g * d), 'approximate = "tanh"')
    # The derivative by a central difference of gelu, as a cross-check.
    h = 1e-5
    gelu = lambda v: 0.5 * v * (1 + erf(v / math.sqrt(2)))  # noqa: E731
    num = (gelu(xd + h) - gelu(xd - h)) / (2 * h)
    np.testing.assert_allclose(cdf + xd * pdf, num, rtol=1e-6, atol=1e-8)
    p, _ = ttc_golden(module('gelu_bw', [g, x], x, 'approximate = "nope"'),
                      [g, x])
    assert p.returncode == 1 and 'approximate "nope"' in p.stderr, p.stderr


def test_arange():
    for start, end, step, shape, dim, dt in (
            (0, 5, 1, (5,), 0, np.float32), (2, 11, 3, (2, 3), 1, np.float32),
            (5, -3, -2, (4, 2), 0, np.int32), (-4, 4, 4, (1, 2, 3), 1,
                                               np.float32)):
        v = np.arange(start, end, step).astype(dt)
        b = [1] * len(shape)
        b[dim] = shape[dim]
        want = np.broadcast_to(v.reshape(b), shape).copy()
        check('arange', [], want, f'start = {start} : si64, end = {end} : '
              f'si64, step = {step} : si64, arange_dimension = {dim} : i64')


def test_cumsum_cumprod():
    x = rand(3, 4, 2, lo=0.5, hi=1.5)
    for dim in (0, 1, 2, -1):
        xd = x.astype(np.float64)
        check('cumsum', [x], f32(np.cumsum(xd, axis=dim)), f'dim = {dim} : i64')
        check('cumprod', [x], f32(np.cumprod(xd, axis=dim)),
              f'dim = {dim} : i64')
    i = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    check('cumsum', [i], np.cumsum(i, axis=1, dtype=np.int32), 'dim = 1 : i64')
    check('cumprod', [i], np.cumprod(i, axis=0, dtype=np.int32),
          'dim = 0 : i64')


def pcheck(op, inputs, want, props=''):
    """check for a pybuda.* op."""
    want = np.asarray(want)
    text = module(op, inputs, want, props).replace('"ttir.', '"pybuda.')
    p, got = ttc_golden(text, inputs)
    assert p.returncode == 0, f'{op}: ttc golden failed:\n{p.stderr}'
    assert got.shape == want.shape, f'{op}: shape {got.shape} != {want.shape}'
    assert got.dtype == want.dtype, f'{op}: dtype {got.dtype} != {want.dtype}'
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6,
                               equal_nan=True, err_msg=op)


def test_pybuda_movement():
    x = rand(2, 3, 4, 6)
    # hslice: C in `slices` pieces; piece s of plane z goes to z*slices+s.
    want = x.reshape(2, 3, 4, 3, 2).transpose(0, 1, 3, 2, 4).reshape(
        2, 9, 4, 2)
    pcheck('hslice', [x], want, 'slices = 3 : i32')
    pcheck('hstack', [want], x, 'slices = 3 : i32')
    # hstack of every plane (slices -1, the default).
    y = rand(3, 2, 5)
    pcheck('hstack', [y], np.concatenate(list(y), axis=1)[None])
    pcheck('vslice', [x], x.reshape(2, 6, 2, 6), 'slices = 2 : i32')
    pcheck('vstack', [x], x.reshape(2, 1, 12, 6), 'slices = 3 : i32')
    a, b = rand(2, 3), rand(2, 3)
    for dim in (0, 1, -1):
        d = dim % 2
        pcheck('binary_stack', [a, b], np.stack([a, b], d + 1).reshape(
            [2 * n if i == d else n for i, n in enumerate(a.shape)]),
            f'dim = {dim} : i32')
    pcheck('buffer', [a], a)
    pcheck('identity', [a], a)
    pcheck('identity', [a], a[:, None], 'unsqueeze = "unsqueeze", '
           'unsqueeze_dim = 1 : i32')
    z = rand(3, 10)
    pcheck('index', [z], z[:, 2:9:3], 'dim = 1 : i32, start = 2 : i32, '
           'stop = 9 : i32, stride = 3 : i32')
    pcheck('index', [z], z[:, -2:-1], 'dim = -1 : i32, start = -2 : i32')
    pcheck('index', [z], z[1:], 'dim = 0 : i32, start = 1 : i32, '
           'stop = 3 : i32')
    # select: [start, length] from each block of stride elements.
    pcheck('select', [z], z[:, [1, 2, 6, 7]], 'dim = 1 : i32, '
           'index = [1 : i32, 2 : i32], stride = 5 : i32')
    pcheck('select', [z], z[:, 4:5], 'dim = 1 : i32, index = 4 : i32')
    pcheck('select', [z], z[:, 3:10], 'dim = 1 : i32, '
           'index = [3 : i32, 7 : i32]')


def test_pybuda_values():
    x = rand(3, 4, 5)
    xd = x.astype(np.float64)
    for dim in (0, 1, -1):
        pcheck('reduce_sum', [x], f32(xd.sum(dim, keepdims=True)),
               f'dim = {dim} : i32')
        pcheck('reduce_avg', [x], f32(xd.mean(dim, keepdims=True)),
               f'dim = {dim} : i32')
        pcheck('argmax', [x], f32(np.expand_dims(np.argmax(x, dim), dim)),
               f'dim = {dim} : i32')
    pcheck('argmax', [x], f32(np.argmax(x)).reshape(1, 1, 1))
    # The first of equal maxima.
    t = np.array([[1, 3, 3], [2, 2, 0]], np.float32)
    pcheck('argmax', [t], f32([[1], [0]]), 'dim = 1 : i32')
    pcheck('constant', [], f32([2.5]), 'constant = 2.5 : f32')
    pcheck('constant', [], f32([-3]), 'constant = -3 : i32')
    h = np.array([-2, -0.0, 0, 3, np.inf, -np.inf, np.nan, 1e-30],
                 np.float32).reshape(2, 4)
    v = rand(4)
    # torch.heaviside: rhs where lhs == 0, else lhs > 0 (0 for NaN).
    want = np.where(h == 0, v, (h > 0).astype(np.float32))
    pcheck('heaviside', [h, v], f32(want))


def norm_ref(x, shape, w=None, b=None, eps=1e-5, rms=False):
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    xd = x.astype(np.float64)
    mean = 0 if rms else xd.mean(axes, keepdims=True)
    var = ((xd - mean) ** 2).mean(axes, keepdims=True)
    y = (xd - mean) / np.sqrt(var + eps)
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return f32(y)


def test_layer_and_rms_norm():
    x = rand(2, 3, 8, lo=-3, hi=5)
    w, b = rand(8), rand(8)
    for op, rms in (('layer_norm', False), ('rms_norm', True)):
        ns = arr('normalized_shape', [8])
        check(op, [x], norm_ref(x, [8], rms=rms), ns)
        check(op, [x, w, b], norm_ref(x, [8], w, b, rms=rms),
              ns + ', operandSegmentSizes = array<i32: 1, 1, 1>')
        check(op, [x, w, b], norm_ref(x, [8], w, b, rms=rms), ns)
        check(op, [x, b], norm_ref(x, [8], None, b, rms=rms),
              ns + ', operandSegmentSizes = array<i32: 1, 0, 1>')
        check(op, [x, w], norm_ref(x, [8], w, rms=rms),
              ns + ', operandSegmentSizes = array<i32: 1, 1, 0>')
        w2 = rand(3, 8)
        check(op, [x, w2], norm_ref(x, [3, 8], w2, eps=0.5, rms=rms),
              arr('normalized_shape', [3, 8]) + ', epsilon = 0.5 : f32')
        # A constant row: variance 0, epsilon keeps it finite.
        c = np.full((2, 4), 3.0, np.float32)
        check(op, [c], norm_ref(c, [4], rms=rms), arr('normalized_shape', [4]))


def test_batch_norm_inference():
    x = rand(2, 3, 4, 5)
    for dim in (1, 3, -1):
        n = x.shape[dim]
        sc, off, mu = rand(n), rand(n), rand(n)
        var = rand(n, lo=0.1, hi=2)
        shp = [1] * 4
        shp[dim] = n
        r = lambda v: v.astype(np.float64).reshape(shp)  # noqa: E731
        want = (x - r(mu)) / np.sqrt(r(var) + 1e-3) * r(sc) + r(off)
        check('batch_norm_inference', [x, sc, off, mu, var], f32(want),
              f'epsilon = 1.0e-03 : f32, dimension = {dim} : i32')


def test_embedding():
    w = rand(5, 3)
    # Out-of-range indices clamp to the first or last row (tt-mlir).
    idx = np.array([[0, 4, 2], [7, -3, 1]], np.int32)
    want = w[np.clip(idx, 0, 4)]
    check('embedding', [idx, w], want)
    # Float indices truncate first; weight with leading dims of 1.
    fidx = np.array([1.9, 0.2, 3.999, -0.5, 99.0], np.float32)
    w4 = rand(1, 1, 5, 2)
    check('embedding', [fidx, w4], w4[0, 0][[1, 0, 3, 0, 4]])
    i64 = np.array([3], np.int64)
    check('embedding', [i64, w], w[[3]])


def test_gather():
    x = rand(3, 4)
    for dim in (0, 1, -1):
        n = x.shape[dim]
        idx = RNG.integers(0, n, size=(2, 3)).astype(np.int64)
        # torch.gather: index may be smaller than input outside dim.
        sub = x[tuple(slice(None) if a == dim % 2 else slice(0, k)
                      for a, k in enumerate(idx.shape))]
        check('gather', [x, idx], np.take_along_axis(sub, idx, dim),
              f'dim = {dim} : i32')
    idx = np.array([[0, 3, 3, 1, 2]], np.int32)
    check('gather', [x, idx], np.take_along_axis(x[:1], idx, 1),
          'dim = 1 : i32')
    # An index outside the dimension fails (torch.gather raises).
    for bad in (4, -1):
        idx = np.array([[0, bad]], np.int64)
        p, _ = ttc_golden(module('gather', [x, idx], x[:1, :2],
                                 'dim = 1 : i32'), [x, idx])
        assert p.returncode == 1 and 'outside [0, 4)' in p.stderr, p.stderr
        assert 'runtime error' not in p.stderr, p.stderr


def dot_general_ref(a, b, bl, cl, br, cr):
    """By einsum: batch dims, lhs's free dims, rhs's free dims."""
    la = [chr(97 + i) for i in range(a.ndim)]
    lb = [chr(110 + i) for i in range(b.ndim)]
    for x, y in zip(bl + cl, br + cr):
        lb[y] = la[x]
    fa = [la[d] for d in range(a.ndim) if d not in bl + cl]
    fb = [lb[d] for d in range(b.ndim) if d not in br + cr]
    spec = (''.join(la) + ',' + ''.join(lb) + '->' +
            ''.join(la[d] for d in bl) + ''.join(fa) + ''.join(fb))
    return f32(np.einsum(spec, a.astype(np.float64), b.astype(np.float64)))


def test_dot_general():
    cases = (
        # a batched matmul
        ((2, 3, 4), (2, 4, 5), [0], [2], [0], [1]),
        # batch and contracting dims out of order, two contracting dims
        ((4, 2, 3, 5), (3, 5, 2, 6), [1], [2, 3], [2], [0, 1]),
        # no batch dims: a tensordot; no contracting dims: outer product
        ((3, 4), (4, 2), [], [1], [], [0]),
        ((3,), (2, 2), [], [], [], []),
        # everything contracted: a rank-0 result
        ((3, 2), (3, 2), [], [0, 1], [], [0, 1]),
    )
    for sa, sb, bl, cl, br, cr in cases:
        a, b = rand(*sa), rand(*sb)
        props = ', '.join([arr('batch_dims_lhs', bl),
                           arr('contract_dims_lhs', cl),
                           arr('batch_dims_rhs', br),
                           arr('contract_dims_rhs', cr)])
        check('dot_general', [a, b], dot_general_ref(a, b, bl, cl, br, cr),
              props)
    i = np.arange(6, dtype=np.int32).reshape(2, 3)
    check('dot_general', [i, i.T.copy()], i @ i.T,
          ', '.join([arr('batch_dims_lhs', []), arr('contract_dims_lhs', [1]),
                     arr('batch_dims_rhs', []), arr('contract_dims_rhs', [0])]))


def hw(v):
    return v if isinstance(v, (list, tuple)) else [v, v]


def pad4(p):
    """padding as [top, left, bottom, right]."""
    if isinstance(p, int):
        return [p] * 4
    return [p[0], p[1], p[0], p[1]] if len(p) == 2 else list(p)


def attr_hw(name, v):
    if isinstance(v, int):
        return f'{name} = {v} : i32'
    return f'{name} = array<i32: ' + ', '.join(map(str, v)) + '>'


def pool_ref(x, k, s, d, p, ceil, avg, incl=True):
    """NHWC pooling by explicit windows (PyTorch's rules)."""
    (kh, kw), (sh, sw), (dh, dw) = hw(k), hw(s), hw(d)
    t, l, b, r = pad4(p)
    n, h, w, c = x.shape

    def extent(size, lo, hi, k, s, d):
        span = size + lo + hi - d * (k - 1) - 1
        n = (-(-span // s) if ceil else span // s) + 1
        # PyTorch drops a last window that would start in the padding.
        return n - 1 if ceil and n > 1 and (n - 1) * s >= size + lo else n
    oh, ow = extent(h, t, b, kh, sh, dh), extent(w, l, r, kw, sw, dw)
    out = np.zeros((n, oh, ow, c))
    xd = x.astype(np.float64)
    for i in range(oh):
        for j in range(ow):
            ys = [i * sh - t + a * dh for a in range(kh)]
            xs = [j * sw - l + e * dw for e in range(kw)]
            vals, cnt = [], 0
            for y in ys:
                for xx in xs:
                    if incl and y < h + b and xx < w + r:
                        cnt += 1
                    if 0 <= y < h and 0 <= xx < w:
                        vals.append(xd[:, y, xx, :])
                        cnt += 0 if incl else 1
            v = np.stack(vals)
            if avg:
                out[:, i, j, :] = v.sum(0) / cnt
            else:
                m = v.max(0)
                out[:, i, j, :] = np.where(np.isnan(v).any(0), np.nan, m)
    return f32(out)


def pool_props(k, s, d, p, ceil, incl=None):
    props = [attr_hw('kernel', k), attr_hw('stride', s),
             attr_hw('dilation', d), attr_hw('padding', p),
             f'ceil_mode = {"true" if ceil else "false"}']
    if incl is not None:
        props.append(f'count_include_pad = {"true" if incl else "false"}')
    return ', '.join(props)


POOLS = (  # kernel, stride, dilation, padding, ceil_mode
    (2, 2, 1, 0, False), ([3, 2], [1, 2], 1, [1, 0], False),
    (3, 2, 1, [1, 0, 0, 1], True), (2, 1, [2, 1], 1, False),
    ([3, 3], 2, 1, 1, True), (1, 1, 1, 0, False),
    (2, 2, 1, 1, True))  # ceil's last window would start in the padding


def test_max_pool2d():
    x = rand(2, 7, 6, 3)
    x[0, 0, 0, 0] = np.nan
    for k, s, d, p, ceil in POOLS:
        check('max_pool2d', [x], pool_ref(x, k, s, d, p, ceil, False),
              pool_props(k, s, d, p, ceil))


def test_avg_pool2d():
    x = rand(2, 7, 6, 3)
    for k, s, d, p, ceil in POOLS:
        for incl in (True, False):
            check('avg_pool2d', [x],
                  pool_ref(x, k, s, d, p, ceil, True, incl),
                  pool_props(k, s, d, p, ceil, incl))
    # count_include_pad defaults to true.
    check('avg_pool2d', [x], pool_ref(x, 3, 1, 1, 1, False, True),
          pool_props(3, 1, 1, 1, False))


def conv_ref(x, w, b, s, p, d, g):
    """NHWC conv2d, weight (O, C/g, KH, KW): padded, then correlated."""
    (sh, sw), (dh, dw) = hw(s), hw(d)
    t, l, bo, r = pad4(p)
    xp = np.pad(x.astype(np.float64), ((0, 0), (t, bo), (l, r), (0, 0)))
    o, cg, kh, kw = w.shape
    n, h, wd, c = xp.shape
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (wd - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, oh, ow, o))
    og = o // g
    for a in range(kh):
        for e in range(kw):
            patch = xp[:, a * dh:a * dh + sh * (oh - 1) + 1:sh,
                       e * dw:e * dw + sw * (ow - 1) + 1:sw, :]
            for gi in range(g):
                out[..., gi * og:(gi + 1) * og] += np.einsum(
                    'nhwc,oc->nhwo', patch[..., gi * cg:(gi + 1) * cg],
                    w[gi * og:(gi + 1) * og, :, a, e].astype(np.float64))
    if b is not None:
        out += b.reshape(-1)
    return out


def conv_props(s, p, d, g, extra=''):
    props = [attr_hw('stride', s), attr_hw('padding', p),
             attr_hw('dilation', d), f'groups = {g} : i32']
    return ', '.join(props) + extra


def test_conv2d():
    cases = (  # input, weight, stride, padding, dilation, groups
        ((1, 5, 5, 2), (3, 2, 3, 3), 1, 0, 1, 1),
        ((2, 7, 6, 4), (6, 2, 3, 2), [2, 1], [1, 2], 1, 2),
        ((1, 8, 8, 3), (4, 3, 3, 3), 2, [1, 0, 2, 1], [2, 1], 1),
        ((1, 4, 4, 4), (4, 1, 2, 2), 1, 1, 2, 4),
    )
    for xs, ws, s, p, d, g in cases:
        x, w = rand(*xs), rand(*ws)
        want = f32(conv_ref(x, w, None, s, p, d, g))
        check('conv2d', [x, w], want, conv_props(s, p, d, g), 1e-5, 1e-5)
        b = rand(1, 1, 1, ws[0])
        want = f32(conv_ref(x, w, b, s, p, d, g))
        check('conv2d', [x, w, b], want, conv_props(s, p, d, g), 1e-5,
              1e-5)
    # Another layout: NCHW via the *_dim attributes.
    x, w = rand(1, 5, 5, 2), rand(3, 2, 3, 3)
    want = conv_ref(x, w, None, 1, 1, 1, 1).transpose(0, 3, 1, 2)
    layout = (', batch_dim = 0 : i64, channel_dim = 1 : i64, '
              'height_dim = 2 : i64, width_dim = 3 : i64')
    check('conv2d', [x.transpose(0, 3, 1, 2).copy(), w], f32(want),
          conv_props(1, 1, 1, 1, layout), 1e-5, 1e-5)


def conv_t_ref(x, w, b, s, p, op, d, g):
    """conv_transpose2d as a conv2d: the input spread by stride, padded by
    dilation * (k - 1) - pad (+ output_padding at the end), correlated
    with the flipped kernel, its channels swapped per group."""
    (sh, sw), (dh, dw), (oph, opw) = hw(s), hw(d), hw(op)
    t, l, bo, r = pad4(p)
    n, h, wd, c = x.shape
    cin, og, kh, kw = w.shape
    up = np.zeros((n, (h - 1) * sh + 1, (wd - 1) * sw + 1, c))
    up[:, ::sh, ::sw, :] = x
    ph, pw = dh * (kh - 1), dw * (kw - 1)
    lo_h, hi_h, lo_w, hi_w = ph - t, ph - bo + oph, pw - l, pw - r + opw
    up = np.pad(up, ((0, 0), (max(lo_h, 0), max(hi_h, 0)),
                     (max(lo_w, 0), max(hi_w, 0)), (0, 0)))
    up = up[:, max(-lo_h, 0):up.shape[1] - max(-hi_h, 0),
            max(-lo_w, 0):up.shape[2] - max(-hi_w, 0), :]
    cg = cin // g
    wf = np.zeros((og * g, cg, kh, kw))
    for gi in range(g):
        blk = w[gi * cg:(gi + 1) * cg, :, ::-1, ::-1]  # (cg, og, kh, kw)
        wf[gi * og:(gi + 1) * og] = blk.transpose(1, 0, 2, 3)
    return conv_ref(up, wf, b, 1, 0, d, g)


def test_conv_transpose2d():
    cases = (  # input, weight, stride, padding, output_padding, dil, groups
        ((1, 3, 3, 2), (2, 3, 3, 3), 1, 0, 0, 1, 1),
        ((2, 4, 3, 2), (2, 2, 3, 2), [2, 1], [1, 0], [1, 0], 1, 1),
        ((1, 3, 4, 4), (4, 2, 2, 3), 2, [0, 1, 1, 2], 1, [2, 1], 2),
    )
    for xs, ws, s, p, op, d, g in cases:
        x, w = rand(*xs), rand(*ws)
        for b in (None, rand(ws[1] * g)):
            want = f32(conv_t_ref(x, w, b, s, p, op, d, g))
            ins = [x, w] if b is None else [x, w, b]
            check('conv_transpose2d', ins, want,
                  conv_props(s, p, d, g, ', ' + attr_hw('output_padding',
                                                         op)), 1e-5, 1e-5)


def same4(x_hw, k, s, d):
    """PyBuda's "same" padding as [top, left, bottom, right]: ceil(x / s)
    comes out, the odd pixel of padding goes high."""
    lo, hi = [], []
    for x, kk, ss, dd in zip(x_hw, hw(k), hw(s), hw(d)):
        out = -(-x // ss)
        total = max((out - 1) * ss + dd * (kk - 1) + 1 - x, 0)
        lo.append(total // 2)
        hi.append(total - total // 2)
    return [lo[0], lo[1], hi[0], hi[1]]


def nchw(x):
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def test_pybuda_convolutions():
    # NCHW; padding absent ("same"), an integer, or [left, right, top,
    # bottom]; channel_last keeps NHWC.
    x, w = rand(1, 7, 6, 4), rand(6, 2, 3, 2)
    for s, p, d in ((1, None, 1), (2, None, 1), (1, 1, [2, 1]),
                    ([2, 1], [0, 2, 1, 0], 1)):
        if p is None:
            p4, props = same4((7, 6), (3, 2), s, d), []
        elif isinstance(p, int):
            p4, props = p, [f'padding = {p} : i32']
        else:
            p4 = [p[2], p[0], p[3], p[1]]
            props = [attr_hw('padding', p)]
        props += [attr_hw('stride', s), attr_hw('dilation', d),
                  'groups = 2 : i32']
        b = rand(6)
        want = conv_ref(x, w, b, s, p4, d, 2)
        pcheck('conv2d', [nchw(x), w, b], f32(nchw(want)), ', '.join(props))
        pcheck('conv2d', [x, w, b], f32(want),
               ', '.join(props + ['channel_last = true']))
    # transposed, NCHW, explicit padding
    x, w = rand(1, 3, 4, 2), rand(2, 3, 2, 3)
    want = conv_t_ref(x, w, None, 2, [1, 0, 0, 1], 0, 1, 1)
    pcheck('conv2d_transpose', [nchw(x), w], f32(nchw(want)),
           'stride = 2 : i32, padding = array<i32: 0, 1, 1, 0>')


def test_pybuda_pools():
    x = rand(2, 7, 6, 3)
    for k, s, p, ceil in ((2, 2, 0, False), (3, 1, None, False),
                          (3, 2, [1, 0, 0, 1], True)):
        if p is None:
            p4, props = same4((7, 6), k, s, 1), []
        elif isinstance(p, int):
            p4, props = p, [f'padding = {p} : i32']
        else:
            p4 = [p[2], p[0], p[3], p[1]]
            props = [attr_hw('padding', p)]
        props += [f'kernel_size = {k} : i32', f'stride = {s} : i32',
                  f'ceil_mode = {"true" if ceil else "false"}']
        want = pool_ref(x, k, s, 1, p4, ceil, False)
        pcheck('max_pool2d', [nchw(x)], nchw(want), ', '.join(props))
        want = pool_ref(x, k, s, 1, p4, ceil, True)
        pcheck('avg_pool2d', [nchw(x)], nchw(want), ', '.join(props))
        want = pool_ref(x, k, s, 1, p4, ceil, True, False)
        pcheck('avg_pool2d', [x], want, ', '.join(
            props + ['count_include_pad = false', 'channel_last = true']))
    # divisor_override divides every window's sum by one number.
    sums = pool_ref(x, 2, 2, 1, 0, False, True) * 4
    pcheck('avg_pool2d', [nchw(x)], f32(nchw(sums) / 3),
           'kernel_size = 2 : i32, stride = 2 : i32, padding = 0 : i32, '
           'divisor_override = 3 : i32')


def test_pybuda_nn_values():
    x = rand(2, 3, 5, lo=-3, hi=3)
    xd = x.astype(np.float64)
    for dim in (0, -1):
        e = np.exp(xd - xd.max(dim, keepdims=True))
        pcheck('softmax', [x], f32(e / e.sum(dim, keepdims=True)),
               f'dim = {dim} : i32')
    w, b = rand(5), rand(5)
    pcheck('layernorm', [x, w, b], norm_ref(x, [5], w, b))
    pcheck('layernorm', [x, w, b], norm_ref(x, [5], w, b, eps=0.25),
           'epsilon = 0.25 : f32')
    y = rand(2, 3, 2)
    pcheck('concatenate', [x, y, x], np.concatenate([x, y, x], -1),
           'axis = -1 : i32')
    for mode, np_mode in (('constant', 'constant'), ('replicate', 'edge'),
                          ('reflect', 'reflect')):
        want = np.pad(x, ((0, 0), (0, 2), (1, 3)), mode=np_mode)
        pcheck('pad', [x], want, 'pad = array<i32: 1, 3, 0, 2>, '
               f'mode = "{mode}"')
        want = np.pad(x, ((0, 0), (2, 1), (0, 0)), mode=np_mode)
        pcheck('pad', [x], want, 'pad = array<i32: 2, 1>, '
               f'mode = "{mode}", channel_last = true')
    r = np.array([-1, 0, 0.25, 0.5, 0.75, 2, np.nan], np.float32)
    pcheck('relu', [r], np.maximum(r, 0))
    # PyBuda's definitions: x times its mask (NaN stays NaN).
    with np.errstate(invalid='ignore'):
        pcheck('relu', [r], r * (r >= 0.5), 'threshold = 0.5 : f32')
        capped = 0.5 * (r >= 0.5) + r * ~(r >= 0.5)
        pcheck('relu', [r], f32(capped * (capped >= 0)),
               'threshold = 0.5 : f32, mode = "max"')
    pcheck('gelu', [x], f32(0.5 * xd * (1 + erf(xd / math.sqrt(2)))))
    k = math.sqrt(2 / math.pi)
    pcheck('gelu', [x], f32(0.5 * xd * (1 + np.tanh(k * (xd + 0.044715 *
                                                         xd ** 3)))),
           'approximate = "tanh"')


def test_flattened_window_ops_fail():
    """A flattened op's real sizes are in an attribute we do not read:
    its golden fails, naming why, rather than computing nonsense."""
    flat = (', flattened_compat_info = #ttir<flattened_compat batch_size = 1'
            ', input_height = 4, input_width = 4>')
    x, w = rand(1, 1, 16, 2), rand(3, 2, 1, 1)
    for op, ins, out, props in (
            ('conv2d', [x, w], rand(1, 1, 16, 3), conv_props(1, 0, 1, 1)),
            ('max_pool2d', [x], rand(1, 1, 4, 2),
             pool_props(2, 2, 1, 0, False))):
        p, _ = ttc_golden(module(op, ins, out, props + flat), ins)
        assert p.returncode == 1 and 'flattened' in p.stderr, p.stderr
        assert 'runtime error' not in p.stderr, p.stderr


if __name__ == '__main__':
    sys.exit(tap.run(tap.cases_of(globals(), sys.argv[1:]),
                     cleanup=lambda: shutil.rmtree(TMP, ignore_errors=True)))
