# SPDX-License-Identifier: Apache-2.0
"""Compile and run end to end (tests/model/README.md).

`ttc compile` makes an image of models/mlp.mlir; separate processes load
and run it (`ttc run`, the seed's embedded-loading example): outputs equal
the goldens (`ttc golden --compare`), bit for bit from run to run and with
no compiler on the host; damaged images, images for another chip and
models that cannot be compiled are refused with their fault named;
`ttc run --verify` passes on the MLP, names the op a damaged parameter
breaks first and refuses a source the image was not made from. TAP on
stdout. TTC, EMBEDDED_TTI name the programs, MODELS the models' folder.
Standard library only (.npy files are written by hand).
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import tap  # noqa: E402

TTC = os.environ['TTC']
EMBEDDED_TTI = os.environ['EMBEDDED_TTI']
MODELS = os.environ['MODELS']
TMP = tempfile.mkdtemp(prefix='ttc-model-')
MLP = os.path.join(MODELS, 'mlp.mlir')
IMAGE = os.path.join(TMP, 'mlp.tti')


def run(*args, env=None, timeout=300):
    e = dict(os.environ, LC_ALL='C.UTF-8')
    e.update(env or {})
    return subprocess.run(list(args), cwd=TMP, capture_output=True,
                          text=True, timeout=timeout, env=e)


def expect(p, code, what):
    if p.returncode != code:
        raise AssertionError(f'{what}: exit {p.returncode}, not {code}\n'
                             f'stdout: {p.stdout}\nstderr: {p.stderr}')


def write_npy(path, shape, values):
    """A little-endian float32 .npy file (format 1.0)."""
    dims = ', '.join(str(d) for d in shape) + (',' if len(shape) == 1 else '')
    header = f"{{'descr': '<f4', 'fortran_order': False, 'shape': ({dims}), }}"
    pad = 64 - (10 + len(header) + 1) % 64
    header += ' ' * pad + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)))
        f.write(header.encode())
        f.write(struct.pack(f'<{len(values)}f', *values))


def seeded(n, seed):
    """n values in [-1, 1) from a linear congruential sequence."""
    out, x = [], seed
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append(((x >> 40) / float(1 << 24)) * 2 - 1)
    return out


X = os.path.join(TMP, 'x.npy')
write_npy(X, (32, 256), seeded(32 * 256, 5))


def compile_mlp(*extra, out=IMAGE, model=MLP):
    return run(TTC, 'compile', model, '--random-params', '1', '-o', out,
               '-q', *extra)


def golden_dir():
    d = os.path.join(TMP, 'golden')
    if not os.path.isdir(d):
        expect(run(TTC, 'golden', MLP, '-i', f'x={X}', '--random', '1',
                   '-o', d), 0, 'ttc golden')
    return d


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def test_compile_writes_an_image():
    p = compile_mlp()
    expect(p, 0, 'ttc compile')
    p = run(TTC, 'info', IMAGE)
    expect(p, 0, 'ttc info')
    for want in ('manifest.yaml', 'k/', 'd/'):
        assert want in p.stdout, p.stdout


def test_run_matches_the_golden_and_repeats_bit_for_bit():
    outs = []
    for i in range(2):
        d = os.path.join(TMP, f'run{i}')
        p = run(TTC, 'run', IMAGE, '-i', f'x={X}', '-o', d)
        expect(p, 0, f'ttc run #{i}')
        outs.append(read(os.path.join(d, 'output_0.npy')))
    assert outs[0] == outs[1], 'two runs in two processes differ'
    p = run(TTC, 'golden', MLP, '-i', f'x={X}', '--random', '1', '-o',
            os.path.join(TMP, 'g2'), '--compare', os.path.join(TMP, 'run0'))
    expect(p, 0, 'ttc golden --compare (PCC >= 0.99)')
    assert '"result": "pass"' in p.stdout, p.stdout


def test_every_model_of_the_tree_matches_its_golden():
    for name in ('encoder', 'cnn'):
        src = os.path.join(MODELS, name + '.mlir')
        img = os.path.join(TMP, name + '.tti')
        out = os.path.join(TMP, name)
        expect(compile_mlp(model=src, out=img), 0, f'compile {name}')
        expect(run(TTC, 'run', img, '--random', '1', '-o', out), 0,
               f'run {name}')
        p = run(TTC, 'golden', src, '--random', '1', '-o', out + '-g',
                '--compare', out)
        expect(p, 0, f'{name} against its golden')
        assert '"result": "pass"' in p.stdout, p.stdout


def test_runs_without_a_compiler_from_an_empty_cache():
    cache = os.path.join(TMP, 'empty-cache')
    os.makedirs(cache)
    d = os.path.join(TMP, 'nocc')
    p = run(TTC, 'run', IMAGE, '-i', f'x={X}', '-o', d,
            env={'TT_KERNEL_CC': 'none', 'TT_KERNEL_CACHE': cache})
    expect(p, 0, 'ttc run without a compiler')
    assert read(os.path.join(d, 'output_0.npy')) == \
        read(os.path.join(TMP, 'run0', 'output_0.npy'))
    assert os.listdir(cache) == [], 'nothing is written to the cache'


def test_an_image_without_kernels_needs_the_compiler():
    img = os.path.join(TMP, 'nok.tti')
    expect(compile_mlp('--no-kernels', out=img), 0, 'compile --no-kernels')
    cache = os.path.join(TMP, 'empty-cache2')
    os.makedirs(cache)
    p = run(TTC, 'run', img, '-i', f'x={X}', '-o', os.path.join(TMP, 'nk'),
            env={'TT_KERNEL_CC': 'none', 'TT_KERNEL_CACHE': cache})
    expect(p, 1, 'kernels neither in the image nor buildable')
    assert 'no compiler to build it' in p.stderr, p.stderr


def test_the_seeds_embedded_loading_example_runs_the_image():
    g = golden_dir()
    p = run(EMBEDDED_TTI, '--input', X, '--expect',
            os.path.join(g, 'output_0.npy'), IMAGE, '2', '3')
    expect(p, 0, 'example-embedded_tti')
    assert 'PASS (2 loops of 3, 6 outputs checked, 0 wrong' in p.stdout, \
        p.stdout


def test_damaged_images_are_refused():
    data = bytearray(read(IMAGE))
    bad = os.path.join(TMP, 'bad.tti')
    with open(bad, 'wb') as f:
        f.write(data[:len(data) // 2])
    p = run(TTC, 'run', bad, '--random', '1')
    expect(p, 1, 'a truncated image')
    assert 'bad.tti' in p.stderr, p.stderr
    data[-5] ^= 0x40  # inside the last data section
    with open(bad, 'wb') as f:
        f.write(data)
    p = run(TTC, 'run', bad, '--random', '1')
    expect(p, 1, 'a flipped bit')
    assert 'checksum' in p.stderr or 'crc' in p.stderr.lower(), p.stderr


def test_an_image_for_another_chip_is_refused():
    p = run(TTC, 'run', IMAGE, '--random', '1',
            env={'TT_SIM_BOARD': 'p150', 'TT_TRANSPORT': 'embedded'})
    expect(p, 1, 'a wormhole image on blackhole')
    assert 'compiled for wormhole_b0, the device is blackhole' in p.stderr, \
        p.stderr


def test_a_smaller_grid_is_refused():
    p = run(TTC, 'run', IMAGE, '--random', '1',
            env={'TT_SIM_BOARD': 'n300', 'TT_TRANSPORT': 'embedded'})
    expect(p, 1, 'an n150 image on the harvested n300')
    assert 'harvested or smaller' in p.stderr, p.stderr


def write_model(name, text):
    path = os.path.join(TMP, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


def test_an_op_without_a_device_op_is_named():
    m = write_model('cumprod.mlir', '''
module {
  func.func @f(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.cumprod"(%x) <{dim = 0 : si32}> : (tensor<32x32xf32>) -> tensor<32x32xf32> loc("running")
    return %0 : tensor<32x32xf32>
  }
}
''')
    p = compile_mlp(model=m, out=os.path.join(TMP, 'c.tti'))
    expect(p, 1, 'cumprod')
    assert "'ttir.cumprod' has no device op" in p.stderr, p.stderr
    assert not os.path.exists(os.path.join(TMP, 'c.tti'))


def test_a_model_too_large_for_the_chip_names_the_op_and_bytes():
    m = write_model('huge.mlir', '''
module {
  func.func @f(%x: tensor<4x32768x32768xbf16>) -> tensor<4x32768x32768xbf16> {
    %0 = "ttir.exp"(%x) : (tensor<4x32768x32768xbf16>) -> tensor<4x32768x32768xbf16> loc("big_exp")
    return %0 : tensor<4x32768x32768xbf16>
  }
}
''')
    p = compile_mlp(model=m, out=os.path.join(TMP, 'h.tti'))
    expect(p, 1, 'a model larger than DRAM')
    assert 'does not fit the device' in p.stderr, p.stderr
    assert 'big_exp' in p.stderr and 'bytes' in p.stderr, p.stderr


def retamper(data, section, change):
    """data (an image) with section's bytes changed by change(bytes), and
    the section's, the table's and the header's CRC-32 made right again:
    the container is sound, only the meaning changed (docs/image.md)."""
    table, = struct.unpack_from('<Q', data, 24)
    count, = struct.unpack_from('<I', data, 32)
    for i in range(count):
        e = table + 64 * i
        if data[e:e + 40].rstrip(b'\0').decode() != section:
            continue
        off, size = struct.unpack_from('<QQ', data, e + 40)
        new = change(bytes(data[off:off + size]))
        assert len(new) == size
        data[off:off + size] = new
        struct.pack_into('<I', data, e + 60, zlib.crc32(new))
        break
    else:
        raise AssertionError(f'no section {section}')
    struct.pack_into('<I', data, 40,
                     zlib.crc32(bytes(data[table:table + 64 * count])))
    struct.pack_into('<I', data, 44, 0)
    struct.pack_into('<I', data, 44, zlib.crc32(bytes(data[:64])))
    return data


def test_run_verify_passes_and_names_a_broken_op():
    p = run(TTC, 'run', IMAGE, '-i', f'x={X}', '-o', os.path.join(TMP, 'v'),
            '--verify', MLP)
    expect(p, 0, 'ttc run --verify')
    assert 'verify: 5 ops checked, 0 failed: PASS' in p.stdout, p.stdout
    # fc2.weight (section d/3, Float16_b) with its elements reversed: a
    # genuine numerical fault in the image, fc2 the first op it shows in.
    info = run(TTC, 'info', IMAGE)
    assert 'd/3' in info.stdout, info.stdout

    def reverse(b):
        return b''.join(b[i:i + 2] for i in range(len(b) - 2, -1, -2))
    bad = os.path.join(TMP, 'broken.tti')
    with open(bad, 'wb') as f:
        f.write(retamper(bytearray(read(IMAGE)), 'd/3', reverse))
    p = run(TTC, 'run', bad, '-i', f'x={X}', '-o', os.path.join(TMP, 'v'),
            '--verify', MLP)
    expect(p, 1, 'ttc run --verify of a broken image')
    # The report, after the outputs' paths, names the op first.
    lines = p.stdout.splitlines()
    assert lines[0].endswith('output_0.npy'), p.stdout
    assert lines[1].startswith('first failing op: fc2 (linear, op #1): pcc'), \
        p.stdout
    assert 'fc2.weight (parameter)' in p.stdout, p.stdout
    assert 'fc1 (activation)' in p.stdout and 'device  min' in p.stdout, \
        p.stdout
    assert 'verify: 5 ops checked' in p.stdout and 'FAIL' in p.stdout
    # With a lower threshold nothing is below it.
    p = run(TTC, 'run', bad, '-i', f'x={X}', '-o', os.path.join(TMP, 'v'),
            '--verify', MLP, '--pcc', '-1')
    expect(p, 0, '--pcc -1')


def test_run_verify_refuses_another_source():
    # An image of a modified copy (fc2 named otherwise) is not the
    # source's: refused, nothing compared.
    with open(MLP) as f:
        text = f.read().replace('loc("fc2")', 'loc("fc2x")')
    other = write_model('mlp2.mlir', text)
    img = os.path.join(TMP, 'mlp2.tti')
    expect(compile_mlp(model=other, out=img), 0, 'compile the copy')
    p = run(TTC, 'run', img, '-i', f'x={X}', '-o', os.path.join(TMP, 'v'),
            '--verify', MLP)
    expect(p, 1, '--verify against another source')
    assert 'the image was not compiled from this source and options' \
        in p.stderr, p.stderr
    assert 'op #1 is fc2x (linear) in the image, fc2 (linear)' in p.stderr
    assert 'ops checked' not in p.stdout, p.stdout
    # Other parameters than the image's: every op from fc1 on differs.
    p = run(TTC, 'run', IMAGE, '-i', f'x={X}', '-o', os.path.join(TMP, 'v'),
            '--verify', MLP, '--random-params', '2')
    expect(p, 1, '--verify with other parameters')
    assert p.stdout.splitlines()[1].startswith('first failing op: fc1 '), \
        p.stdout
    p = run(TTC, 'run', IMAGE, '--random', '1', '--pcc', '0.9')
    expect(p, 2, '--pcc without --verify')


def test_run_usage_errors():
    p = run(TTC, 'run', IMAGE, '-i', 'nosuch=x.npy')
    expect(p, 1, 'an unknown input')
    assert 'has no input of that name' in p.stderr, p.stderr
    p = run(TTC, 'run', IMAGE)
    expect(p, 1, 'no input and no --random')
    assert 'no --input for input x' in p.stderr, p.stderr
    p = run(TTC, 'run', IMAGE, '--loops', '0')
    expect(p, 2, '--loops 0')
    p = run(TTC, 'compile', MLP)
    expect(p, 2, 'compile without -o')


def cleanup():
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(tap.run(tap.cases_of(globals()), cleanup, timed=True))
