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


# ---- ttc info's model, ttc merge, ttc report (docs/ttc.md) ----

ENC = os.path.join(MODELS, 'encoder.mlir')
E = os.path.join(TMP, 'e.npy')
write_npy(E, (128, 256), seeded(128 * 256, 9))


def image_of(name, src, *extra):
    """An image of src in TMP/name.tti, compiled once."""
    img = os.path.join(TMP, name + '.tti')
    if not os.path.exists(img):
        expect(compile_mlp(*extra, model=src, out=img), 0, f'compile {name}')
    return img


def info_json(img):
    import json
    p = run(TTC, 'info', '--json', img)
    expect(p, 0, f'ttc info --json {img}')
    return json.loads(p.stdout)


def test_info_describes_the_model():
    img = image_of('mlp', MLP)
    doc = info_json(img)
    assert {'file', 'version', 'file_size', 'sections'} <= set(doc), doc
    m = doc['model']
    assert m['arch'] == 'wormhole_b0' and len(m['grid']) == 2, m
    assert m['options'] == {'random_params': '1'}, m['options']
    assert m['inputs'] == [{'name': 'x', 'shape': [32, 256],
                            'format': 'Float16_b'}], m['inputs']
    assert [o['name'] for o in m['outputs']] == ['probs'], m['outputs']
    assert m['outputs'][0]['shape'] == [32, 10], m['outputs']
    prog, = m['programs']
    assert prog['name'] == 'forward' and prog['ops'] == 5, prog
    assert prog['op_kinds'] == {'linear': 3, 'layernorm': 1,
                                'softmax': 1}, prog
    # fc1..fc3 and norm: weights and biases; 2-byte Float16_b, tiled.
    assert m['parameters']['count'] == 8, m['parameters']
    assert m['parameters']['bytes'] > 2 * (256 * 512 + 512 * 512), m
    mem = m['memory']
    assert mem['l1_bytes'] + mem['dram_bytes'] == \
        sum(s['bytes'] for s in mem['slots']), mem
    assert all(s['bytes'] == s['page_size'] * s['pages']
               for s in mem['slots']), mem
    kernels = [s for s in doc['sections'] if s['name'].startswith('k/')]
    assert m['kernels'] == len(kernels) > 0, (m['kernels'], len(kernels))
    p = run(TTC, 'info', img)
    expect(p, 0, 'ttc info')
    for want in ('arch:      wormhole_b0', 'x ', '[32, 256] Float16_b',
                 'forward', '5 ops: linear 3 layernorm 1 softmax 1',
                 'parameters: 8,', 'memory plan:', 'kernels:'):
        assert want in p.stdout, (want, p.stdout)


def merged():
    out = os.path.join(TMP, 'ab.tti')
    if not os.path.exists(out):
        p = run(TTC, 'merge', image_of('mlp', MLP),
                image_of('encoder', ENC), '-o', out)
        expect(p, 0, 'ttc merge')
    return out


def run_outputs(img, name, *args):
    d = os.path.join(TMP, name)
    expect(run(TTC, 'run', img, '-o', d, *args), 0, f'ttc run {name}')
    return [read(os.path.join(d, f)) for f in sorted(os.listdir(d))]


def test_merge_then_run_gives_the_single_images_outputs():
    ab = merged()
    m = info_json(ab)['model']
    assert [p['name'] for p in m['programs']] == ['mlp/forward',
                                                  'encoder/forward'], m
    assert [i['name'] for i in m['inputs']] == ['mlp/x', 'encoder/x'], m
    assert set(m['options']) == {'mlp/random_params',
                                 'encoder/random_params'}, m['options']
    single = [info_json(image_of(n, s))['model'] for n, s in
              (('mlp', MLP), ('encoder', ENC))]
    assert len(m['memory']['slots']) == sum(len(s['memory']['slots'])
                                            for s in single), m
    assert m['kernels'] <= sum(s['kernels'] for s in single), m
    both = ('-i', f'mlp/x={X}', '-i', f'encoder/x={E}')
    want = run_outputs(image_of('mlp', MLP), 'm1', '-i', f'x={X}')
    got = run_outputs(ab, 'm2', '--program', 'mlp/forward', *both)
    assert got[0] == want[0], 'mlp/forward of the merged image differs'
    want = run_outputs(image_of('encoder', ENC), 'e1', '-i', f'x={E}')
    got = run_outputs(ab, 'e2', '--program', 'encoder/forward', *both)
    assert got[1] == want[0], 'encoder/forward of the merged image differs'


def test_merge_shares_kernels_and_takes_namespaces():
    mlp = image_of('mlp', MLP)
    out = os.path.join(TMP, 'aa.tti')
    p = run(TTC, 'merge', mlp, mlp, '--name', f'{mlp}=one', '-o', out)
    expect(p, 1, 'one file twice, one namespace given')
    assert 'two tensors named' in p.stderr, p.stderr
    os.makedirs(os.path.join(TMP, 'other'), exist_ok=True)
    copy = os.path.join(TMP, 'other', 'mlp.tti')
    shutil.copy(mlp, copy)
    p = run(TTC, 'merge', mlp, copy, '-o', out)
    expect(p, 1, 'two inputs with one stem')
    assert 'two tensors named mlp/' in p.stderr, p.stderr
    assert not os.path.exists(out), 'a refused merge left a file'
    p = run(TTC, 'merge', mlp, copy, '--name', f'{copy}=b', '-o', out)
    expect(p, 0, 'two namespaces')
    m = info_json(out)['model']
    assert m['kernels'] == info_json(mlp)['model']['kernels'], \
        'one kernel per key'
    got = run_outputs(out, 'b2', '--program', 'b/forward',
                      '-i', f'mlp/x={X}', '-i', f'b/x={X}')
    assert got[1] == run_outputs(mlp, 'b1', '-i', f'x={X}')[0]


def rewrite_section(src, dst, prefix, change):
    """dst: src with the first section whose name starts with prefix
    changed by change(bytearray), every CRC made right again."""
    import zlib
    data = bytearray(read(src))
    table, count = struct.unpack_from('<QI', data, 24)
    for i in range(count):
        e = table + 64 * i
        name = bytes(data[e:e + 40]).rstrip(b'\0').decode()
        if name.startswith(prefix):
            off, size = struct.unpack_from('<QQ', data, e + 40)
            sec = bytearray(data[off:off + size])
            change(sec)
            data[off:off + size] = sec
            struct.pack_into('<I', data, e + 60, zlib.crc32(sec))
            break
    else:
        raise AssertionError(f'no section {prefix}* in {src}')
    struct.pack_into('<I', data, 40,
                     zlib.crc32(bytes(data[table:table + 64 * count])))
    struct.pack_into('<I', data, 44, 0)
    struct.pack_into('<I', data, 44, zlib.crc32(bytes(data[:64])))
    with open(dst, 'wb') as f:
        f.write(data)


def test_merge_refusals():
    mlp = image_of('mlp', MLP)
    out = os.path.join(TMP, 'refused.tti')
    text = os.path.join(TMP, 'text.tti')
    with open(text, 'w') as f:
        f.write('not an image\n')
    p = run(TTC, 'merge', mlp, text, '-o', out)
    expect(p, 1, 'not an image')
    assert 'text.tti' in p.stderr, p.stderr
    bh = image_of('mlp_bh', MLP, '--board', 'p150')
    p = run(TTC, 'merge', mlp, bh, '-o', out)
    expect(p, 1, 'two archs')
    assert 'wormhole_b0' in p.stderr and 'blackhole' in p.stderr, p.stderr
    # One kernel key, two different ELFs.
    other = os.path.join(TMP, 'elf.tti')

    def flip(sec):
        sec[-1] ^= 0xff
    rewrite_section(mlp, other, 'k/', flip)
    expect(run(TTC, 'info', other), 0, 'the rewritten image is valid')
    p = run(TTC, 'merge', mlp, other, '-o', out)
    expect(p, 1, 'two ELFs under one key')
    assert 'different ELFs under one key' in p.stderr, p.stderr
    newer = os.path.join(TMP, 'newer.tti')

    def newer_manifest(sec):
        at = sec.index(b'tti: 1')
        sec[at + 5:at + 6] = b'2'
    rewrite_section(mlp, newer, 'manifest.yaml', newer_manifest)
    p = run(TTC, 'merge', mlp, newer, '-o', out)
    expect(p, 1, 'a newer manifest version')
    assert 'version' in p.stderr, p.stderr
    p = run(TTC, 'merge', mlp, newer, '--name', 'mlp.tti=a b', '-o', out)
    expect(p, 1, 'a namespace of bad characters')
    assert "namespace 'a b'" in p.stderr, p.stderr
    p = run(TTC, 'merge', mlp, image_of('encoder', ENC), '-o',
            os.path.join(TMP, 'no', 'such', 'dir.tti'))
    expect(p, 1, 'an output that cannot be written')
    assert 'dir.tti' in p.stderr, p.stderr
    assert not os.path.exists(out), 'a refused merge left a file'
    for args, why in (((mlp, '-o', out), 'one image'),
                      ((mlp, mlp), 'no -o'),
                      ((mlp, mlp, '--name', 'nosuch.tti=x', '-o', out),
                       '--name of no input'),
                      ((mlp, mlp, '--name', 'x', '-o', out), '--name x')):
        expect(run(TTC, 'merge', *args), 2, why)


def test_report_writes_text_json_and_svgs():
    import json
    import xml.etree.ElementTree as ET
    ab = merged()
    d = os.path.join(TMP, 'report')
    p = run(TTC, 'report', ab, '-o', d)
    expect(p, 0, 'ttc report')
    r = json.load(open(os.path.join(d, 'report.json')))
    m = info_json(ab)['model']
    assert r['grid'] == m['grid'] and r['arch'] == m['arch'], r['grid']
    assert [len(p['ops']) for p in r['programs']] == \
        [p['ops'] for p in m['programs']]
    for prog in r['programs']:
        for op in prog['ops']:
            assert 1 <= op['grid'][0] <= r['grid'][0], op
            assert 1 <= op['grid'][1] <= r['grid'][1], op
            assert op['cores'] == op['grid'][0] * op['grid'][1], op
            assert op['inputs'] and op['output']['kind'] in ('act', 'output')
    for s in r['slots']:
        for t in s['tensors']:
            assert t['bytes'] <= s['bytes'], (s, t)
            assert t['first_op'] <= t['last_op'], t
    tot = r['totals']
    assert 0 < tot['peak_live_l1_bytes'] <= tot['slots_l1_bytes'], tot
    assert tot['peak_live_dram_bytes'] <= tot['slots_dram_bytes'], tot
    text = open(os.path.join(d, 'report.txt')).read()
    for want in ('program mlp/forward: 5 ops', 'op 0 mlp/fc1: linear',
                 'slot 0', 'totals:'):
        assert want in text, (want, text[:2000])
    ns = '{http://www.w3.org/2000/svg}'
    grid = ET.parse(os.path.join(d, 'grid.svg')).getroot()
    assert grid.tag == ns + 'svg', grid.tag
    cores = [e for e in grid.iter(ns + 'rect') if e.get('class') == 'core']
    assert len(cores) == r['grid'][0] * r['grid'][1], len(cores)
    assert 'mlp/fc1' in ''.join(grid.itertext())
    mem = ET.parse(os.path.join(d, 'memory.svg')).getroot()
    lines = {e.get('class'): e.get('points').split()
             for e in mem.iter(ns + 'polyline')}
    nops = sum(len(p['ops']) for p in r['programs'])
    assert len(lines['l1']) == len(lines['dram']) == nops, lines.keys()


def test_report_refusals():
    text = os.path.join(TMP, 'text.tti')
    with open(text, 'w') as f:
        f.write('not an image\n')
    p = run(TTC, 'report', text, '-o', os.path.join(TMP, 'r2'))
    expect(p, 1, 'not an image')
    assert 'text.tti' in p.stderr, p.stderr
    expect(run(TTC, 'report', image_of('mlp', MLP)), 2, 'no -o')
    expect(run(TTC, 'report', '-o', TMP), 2, 'no image')


def test_info_and_report_of_a_manifest_that_does_not_check():
    bad = os.path.join(TMP, 'badman.tti')

    def misspell(sec):
        at = sec.index(b'tensors:')
        sec[at:at + 8] = b'tensorz:'
    rewrite_section(image_of('mlp', MLP), bad, 'manifest.yaml', misspell)
    p = run(TTC, 'info', '--json', bad)
    expect(p, 0, 'info of a valid container with a bad manifest')
    import json
    doc = json.loads(p.stdout)
    assert 'model' not in doc and 'tensorz' in doc['model_error'], doc
    assert len(doc['sections']) > 1, doc
    assert 'no model described' in p.stderr, p.stderr
    p = run(TTC, 'report', bad, '-o', os.path.join(TMP, 'r3'))
    expect(p, 1, 'report of a bad manifest')
    assert 'tensorz' in p.stderr, p.stderr
    p = run(TTC, 'merge', image_of('mlp', MLP), bad, '-o',
            os.path.join(TMP, 'r3.tti'))
    expect(p, 1, 'merge of a bad manifest')


def test_merge_keeps_a_smaller_models_grid():
    import json
    small = image_of('small', MLP, '--board', 'n300')
    assert info_json(small)['model']['grid'] == [8, 7]
    out = os.path.join(TMP, 'se.tti')
    expect(run(TTC, 'merge', small, image_of('encoder', ENC), '-o', out),
           0, 'merge an 8x7 and an 8x8 image')
    assert info_json(out)['model']['grid'] == [8, 8]
    d = os.path.join(TMP, 'report-se')
    expect(run(TTC, 'report', out, '-o', d), 0, 'report')
    r = json.load(open(os.path.join(d, 'report.json')))
    grids = [op['grid'] for op in r['programs'][0]['ops']]
    assert grids == [[8, 7]] * 5, grids
    want = run_outputs(small, 's1', '-i', f'x={X}')
    got = run_outputs(out, 's2', '--program', 'small/forward',
                      '-i', f'small/x={X}', '-i', f'encoder/x={E}')
    assert got[0] == want[0], 'small/forward of the merged image differs'
    # Ops with no grid of their own ran on their model's whole grid:
    # merged, they keep it rather than take the larger one.
    bare = os.path.join(TMP, 'bare.tti')

    def drop_grids(sec):
        assert sec.count(b', "grid": "8x7"') == 5, sec
        sec[:] = sec.replace(b', "grid": "8x7"', b' ' * 15)
    rewrite_section(small, bare, 'manifest.yaml', drop_grids)
    expect(run(TTC, 'merge', bare, image_of('encoder', ENC), '-o', out),
           0, 'merge ops without grids')
    expect(run(TTC, 'report', out, '-o', d), 0, 'report')
    r = json.load(open(os.path.join(d, 'report.json')))
    grids = [op['grid'] for op in r['programs'][0]['ops']]
    assert grids == [[8, 7]] * 5, grids
    run_outputs(out, 's3', '--program', 'bare/forward',
                '-i', f'bare/x={X}', '-i', f'encoder/x={E}')


def test_report_shows_epochs():
    import json
    import xml.etree.ElementTree as ET
    img = image_of('enc-epochs', ENC, '--epoch-break', 'attn.scores')
    d = os.path.join(TMP, 'report-epochs')
    expect(run(TTC, 'report', img, '-o', d), 0, 'report')
    r = json.load(open(os.path.join(d, 'report.json')))
    ops = r['programs'][0]['ops']
    cut = [o['name'] for o in ops].index('attn.scores')
    assert [o['epoch'] for o in ops] == [0] * cut + [1] * (len(ops) - cut)
    assert [(e['epoch'], e['first_op'], e['last_op'])
            for e in r['epochs']] == [(0, 0, cut - 1),
                                      (1, cut, len(ops) - 1)], r['epochs']
    for e in r['epochs']:
        live = [o['live_l1_bytes'] for o in ops[e['first_op']:
                                                e['last_op'] + 1]]
        assert e['peak_live_l1_bytes'] == max(live), (e, live)
    ns = '{http://www.w3.org/2000/svg}'
    mem = ET.parse(os.path.join(d, 'memory.svg')).getroot()
    assert len([e for e in mem.iter(ns + 'line')
                if e.get('class') == 'break']) == 2
    assert f'op {cut} attn.scores' in open(os.path.join(d, 'report.txt')) \
        .read()


def cleanup():
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(tap.run(tap.cases_of(globals()), cleanup, timed=True))
