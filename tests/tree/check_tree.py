#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the tree keeps the shape its READMEs describe.

Cases (TAP, one line each; run by `make test` through Meson):
  - every quoted #include follows the layer rules (LAYERS below, written
    out in each directory's README);
  - a bare #include names a file of the including file's own directory;
  - every directory has a README.md, or is named by an ancestor's README;
  - every path a README names exists;
  - nothing points outside the repository (the team's private notes, a
    sibling checkout's files);
and, for each check, a self-test: a planted violation must be caught.

Usage: check_tree.py [SOURCE_ROOT [BUILD_DIR]]
  SOURCE_ROOT defaults to the tree this file is in. With a Meson build
  directory, the built objects' symbols are checked too: no function of a
  layer calls one of a layer above it, whatever it includes.
Standard library only.
"""
import os
import re
import subprocess
import sys

# ---- the layer rules --------------------------------------------------

# Units, most specific first: a file belongs to the first whose path
# prefix it has.
UNITS = [
    'lib/include', 'lib/device', 'lib/kbuild', 'lib/memory', 'lib/program',
    'lib/dispatch', 'lib/tensor', 'lib/backend', 'lib/ops', 'lib/model',
    'sim/embed.h', 'sim/model', 'sim/daemon', 'sim',
    'firmware/include/hw', 'firmware', 'common', 'uapi', 'driver', 'smi',
    'tools/examples', 'tools/ttinfo',
    'tools/ttc/include', 'tools/ttc/ir', 'tools/ttc/text', 'tools/ttc/ops',
    'tools/ttc/golden', 'tools/ttc/builder', 'tools/ttc/frontends',
    'tools/ttc/passes', 'tools/ttc/codegen', 'tools/ttc/image', 'tools/ttc/pipeline',
    'tools/ttc/cli', 'tools/ttc/fuzz', 'tools/ttc', 'tools', 'tests',
]

HW = 'firmware/include/hw'
FW_API = 'firmware'  # kernel SDK headers: firmware/include/*

# What each unit may include, besides itself. libtt's layers are listed
# lowest first; each may use the ones before it and nothing after.
LIB_ORDER = ['lib/device', 'lib/kbuild', 'lib/memory', 'lib/program',
             'lib/dispatch', 'lib/tensor', 'lib/backend', 'lib/ops',
             'lib/model']
ALLOWED = {
    HW: set(),
    'common': {HW},
    'uapi': set(),
    'driver': {HW, 'uapi'},
    'firmware': {HW},
    # The embedding header is the model's narrow face; its internal
    # headers include it for the constants it defines (SQLite's btree.h
    # and btreeInt.h).
    'sim/embed.h': {HW},
    'sim/model': {'sim/embed.h', 'common', HW},
    'sim/daemon': {'sim/embed.h', 'sim/model', 'common', HW},
    'sim': {'sim/embed.h', 'sim/model', 'sim/daemon', 'common', HW},
    'lib/include': set(),
    'smi': {'lib/include'},
    'tools/ttinfo': {'lib/include'},
    # The compiler's examples (ttir_builder.c) use libttc's public API.
    'tools/examples': {'lib/include', 'tools/ttc/include'},
    'tools': {'lib/include'},
}

# libttc, the compiler (tools/ttc/README.md): its stages lowest first; a
# stage may use the ones before it, libtt's public headers and common/,
# never the chip model. ir/ is below both text/ and ops/, which do not use
# each other; golden/ is above ops/ (not text/); builder/ is above golden/
# (it computes goldens as it builds); passes/ (IR to IR; consteval runs
# goldens; --print-after prints with text/) is above builder/ and text/,
# codegen/ (placement, memory plan, op records) above passes/, image/
# (the .tti writer, the compile driver) above codegen/; pipeline/ (the
# PyBuda flow: devices, modules, options, runs) above image/, using every
# stage; the program (cli/)
# and the fuzzers use the public headers (fuzz_image.c: libtt's).
TTC_PUB = 'tools/ttc/include'
ALLOWED.update({
    TTC_PUB: set(),
    'tools/ttc/ir': {TTC_PUB, 'lib/include', 'common'},
    'tools/ttc/text': {'tools/ttc/ir', TTC_PUB, 'lib/include', 'common'},
    'tools/ttc/ops': {'tools/ttc/ir', TTC_PUB, 'lib/include', 'common'},
    'tools/ttc/golden': {'tools/ttc/ir', 'tools/ttc/ops', TTC_PUB,
                         'lib/include', 'common'},
    'tools/ttc/builder': {'tools/ttc/ir', 'tools/ttc/ops', 'tools/ttc/golden',
                          TTC_PUB, 'lib/include', 'common'},
    # frontends/ (ONNX) build TTIR through the builder, whose goldens fold
    # what is known at import time.
    'tools/ttc/frontends': {'tools/ttc/ir', 'tools/ttc/ops',
                            'tools/ttc/golden', 'tools/ttc/builder',
                            TTC_PUB, 'lib/include', 'common'},
    'tools/ttc/passes': {'tools/ttc/ir', 'tools/ttc/text', 'tools/ttc/ops',
                         'tools/ttc/golden', 'tools/ttc/builder', TTC_PUB,
                         'lib/include', 'common'},
    'tools/ttc/codegen': {'tools/ttc/ir', 'tools/ttc/ops',
                          'tools/ttc/golden', 'tools/ttc/builder',
                          'tools/ttc/passes', TTC_PUB, 'lib/include',
                          'common'},
    'tools/ttc/image': {'tools/ttc/ir', 'tools/ttc/ops', 'tools/ttc/golden',
                        'tools/ttc/builder', 'tools/ttc/passes',
                        'tools/ttc/codegen', TTC_PUB, 'lib/include',
                        'common'},
    'tools/ttc/pipeline': {'tools/ttc/ir', 'tools/ttc/text', 'tools/ttc/ops',
                           'tools/ttc/frontends',
                           'tools/ttc/golden', 'tools/ttc/builder',
                           'tools/ttc/passes', 'tools/ttc/codegen',
                           'tools/ttc/image', TTC_PUB, 'lib/include',
                           'common'},
    'tools/ttc/cli': {TTC_PUB, 'lib/include'},
    'tools/ttc/fuzz': {TTC_PUB, 'lib/include'},
    'tools/ttc': {TTC_PUB, 'lib/include'},
})
# libttc's public headers belong to the stage that implements them.
TTC_PUBLIC_LAYER = {
    'common.h': 'tools/ttc/ir', 'ir.h': 'tools/ttc/ir',
    'text.h': 'tools/ttc/text', 'ops.h': 'tools/ttc/ops',
    'golden.h': 'tools/ttc/golden',
    'builder.h': 'tools/ttc/builder',
    'onnx.h': 'tools/ttc/frontends',
    'passes.h': 'tools/ttc/passes',
    'codegen.h': 'tools/ttc/codegen',
    'tti.h': 'tools/ttc/image', 'compile.h': 'tools/ttc/image',
    'verify.h': 'tools/ttc/image',
    'pipeline.h': 'tools/ttc/pipeline',
}
for i, layer in enumerate(LIB_ORDER):
    ALLOWED[layer] = set(LIB_ORDER[:i]) | {'lib/include', 'common', HW}
ALLOWED['lib/device'] |= {'uapi'}

# The public headers belong to the layer that implements them: a layer may
# include only the public headers of the layers it may use.
PUBLIC_LAYER = {
    'common.h': 'lib/device', 'device.h': 'lib/device',
    'noc.h': 'lib/device', 'dma.h': 'lib/device', 'mgmt.h': 'lib/device',
    'telemetry.h': 'lib/device', 'hart.h': 'lib/device',
    'core.h': 'lib/device',
    'buffer.h': 'lib/memory', 'dataformat.h': 'lib/memory',
    'program.h': 'lib/program', 'program_desc.h': 'lib/program',
    'queue.h': 'lib/dispatch',
    'tensor.h': 'lib/tensor', 'tensor_queue.h': 'lib/tensor',
    'npy.h': 'lib/tensor',
    'backend.h': 'lib/backend',
    'ops.h': 'lib/ops',
    'kernel_set.h': 'lib/kbuild',
    'image.h': 'lib/model', 'model.h': 'lib/model',
}

# The chip model reaches libtt through one header, and only in the files
# that host it or stand in for a card's side effects.
SIM_EMBED = 'sim/embed.h'
SIM_EMBEDDERS = {'lib/device/transport_sim.c',
                 'lib/device/transport_kmd_mock.c'}

# Headers the build generates (in the build directory, not the source).
GENERATED = {'dispatcher_src.h', 'ksdk_config.h', 'fw_version.h'}
# ...and the op library's kernels as text (lib/meson.build), one header per
# kernel: ops_<family>_<kernel>_src.h.
GENERATED_OPS_KERNEL = re.compile(r'ops_[a-z0-9]+_[a-z0-9_]+_src\.h$')


def is_generated(name):
    return name in GENERATED or bool(GENERATED_OPS_KERNEL.match(name))
# libtt's umbrella header, included by users as installed.
PUBLIC_UMBRELLA = 'tt.h'

# Where "dir/file.h" is looked up, after the including file's directory.
INCLUDE_ROOTS = ['', 'lib/include', 'firmware/include', 'uapi',
                 'tools/ttc/include']

# Code built as device kernels or firmware includes the kernel SDK's
# top-level headers by bare name, as TT-Metal kernels do.
KERNEL_DIRS = ('firmware/tests/', 'firmware/dispatch/', 'tests/unit/kernels/', 'tests/bench/kernels/',
               'tools/examples/kernels/', 'tests/bench/rv32/',
               'lib/ops/kernels/')
TEST_HELPERS = 'tests/unit'

# Kernel-side test code follows the kernel's rules, not these.
SKIP = ('tests/kselftest/', 'tests/vm/')

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def unit_of(path):
    for u in UNITS:
        if path == u or path.startswith(u + '/'):
            return u
    return None


def resolve(files, src, name):
    """The tree path an include names, or None."""
    here = os.path.dirname(src)
    cand = os.path.normpath(os.path.join(here, name))
    if cand in files:
        return cand
    if '/' in name:
        for root in INCLUDE_ROOTS:
            cand = os.path.normpath(os.path.join(root, name))
            if cand in files:
                return cand
    return None


def include_edges(root, files):
    """{source: [included name, ...]} for the C files the rules cover."""
    edges = {}
    for f in sorted(files):
        if not f.endswith(('.c', '.h')) or f.startswith(SKIP):
            continue
        with open(os.path.join(root, f), errors='replace') as fh:
            edges[f] = INCLUDE.findall(fh.read())
    return edges


def layer_violations(files, edges):
    bad = []
    for src, names in edges.items():
        u = unit_of(src)
        if u == 'lib/include':
            # A public header is part of the layer that implements it.
            u = PUBLIC_LAYER.get(os.path.basename(src), LIB_ORDER[-1])
        if u == TTC_PUB:
            u = TTC_PUBLIC_LAYER.get(os.path.basename(src), 'tools/ttc/ops')
        if u is None or u == 'tests':
            continue
        for name in names:
            target = resolve(files, src, name)
            if target is None:
                continue  # generated, or reported by bare_violations
            why = forbidden(src, u, target)
            if why:
                bad.append(f'{src}: #include "{name}": {why}')
    return bad


def forbidden(src, u, target):
    if target.startswith('sim/') and src.startswith('lib/'):
        if src in SIM_EMBEDDERS and target == SIM_EMBED:
            return None
        return (f'libtt reaches the chip model only through {SIM_EMBED}, '
                f'and only in {", ".join(sorted(SIM_EMBEDDERS))}')
    t = unit_of(target)
    if t == 'lib/include' and u.startswith('lib/'):
        base = os.path.basename(target)
        owner = PUBLIC_LAYER.get(base)
        if owner and owner != u and owner not in ALLOWED.get(u, set()):
            return f'tt/{base} belongs to {owner}, above {u}'
        return None
    if t == TTC_PUB and u.startswith('tools/ttc/'):
        base = os.path.basename(target)
        owner = TTC_PUBLIC_LAYER.get(base)
        stage = u in TTC_PUBLIC_LAYER.values()
        if stage and owner and owner != u and \
                owner not in ALLOWED.get(u, set()):
            return f'ttc/{base} belongs to {owner}, above {u}'
        return None
    if t == u or (u == 'firmware' and target.startswith(FW_API + '/')):
        return None
    if t in ALLOWED.get(u, set()):
        return None
    return f'{u} may not use {t}'


def bare_violations(files, edges):
    bad = []
    for src, names in edges.items():
        if src.startswith(KERNEL_DIRS):
            continue
        here = os.path.dirname(src)
        for name in names:
            if '/' in name or is_generated(name) or name == PUBLIC_UMBRELLA:
                continue
            if os.path.join(here, name) in files:
                continue
            if src.startswith('tests/') and \
                    os.path.join(TEST_HELPERS, name) in files:
                continue
            bad.append(f'{src}: #include "{name}" is not in {here}/; '
                       'name its directory')
    return bad


# ---- symbols: who calls whom, from the built objects -------------------

# Object directories of a Meson build and the units their objects belong
# to: an object is named after its source path below the directory, with
# '/' turned into '_' ("device_noc.c.o" is lib/device/noc.c).
OBJECT_DIRS = {
    'lib/libtt.so.0.1.0.p': ('lib', [u.split('/')[1] for u in LIB_ORDER]),
    'sim/libttsim.a.p': ('sim', ['model', 'daemon']),
    'tools/ttc/libttc.so.0.1.0.p': ('tools/ttc', ['ir', 'text', 'ops',
                                                  'golden', 'frontends',
                                                  'passes',
                                                  'codegen', 'image']),
}


def object_units(build):
    """{object path: (unit, source path)} for the objects of OBJECT_DIRS."""
    out = {}
    for d, (top, subs) in OBJECT_DIRS.items():
        full = os.path.join(build, d)
        if not os.path.isdir(full):
            continue
        for name in sorted(os.listdir(full)):
            if not name.endswith('.o'):
                continue
            sub = next((x for x in subs if name.startswith(x + '_')), None)
            if sub is None:
                continue  # generated sources (the firmware bundle)
            src = f'{top}/{sub}/' + name[len(sub) + 1:-len('.o')]
            out[os.path.join(full, name)] = (f'{top}/{sub}', src)
    return out


def symbol_tables(objects):
    """{object: (defined symbols, undefined symbols)} from nm."""
    out = {o: (set(), set()) for o in objects}
    if not objects:
        return out
    res = subprocess.run(['nm', '-A', '--defined-only', *objects],
                         capture_output=True, text=True, check=True)
    for line in res.stdout.splitlines():
        obj, _, rest = line.rpartition(':')
        parts = rest.split()
        if len(parts) == 3 and parts[1].isupper():
            out[obj][0].add(parts[2])
    res = subprocess.run(['nm', '-A', '--undefined-only', *objects],
                         capture_output=True, text=True, check=True)
    for line in res.stdout.splitlines():
        obj, _, rest = line.rpartition(':')
        out[obj][1].add(rest.split()[-1])
    return out


def call_violations(units, tables):
    owner = {}
    for obj, (defined, _) in tables.items():
        for sym in defined:
            owner[sym] = units[obj]
    bad = []
    for obj, (_, undefined) in sorted(tables.items()):
        u, src = units[obj]
        for sym in sorted(undefined):
            if sym not in owner:
                continue  # libc, libudev, ...
            t, tsrc = owner[sym]
            if t == u:
                continue
            if u.startswith('tools/ttc/') and t.startswith('lib/'):
                continue  # libtt's exported API (the includes say so)
            if t.startswith('sim/') and u.startswith('lib/'):
                if src in SIM_EMBEDDERS:
                    continue
                bad.append(f'{src} calls {sym} of the chip model ({tsrc})')
            elif t not in ALLOWED.get(u, set()):
                bad.append(f'{src} calls {sym} ({tsrc}): {u} may not use {t}')
    return bad


# ---- READMEs ----------------------------------------------------------

# Path-like words in READMEs: `code` spans and link targets.
CODE = re.compile(r'`([^`\n]+)`')
LINK = re.compile(r'\]\(([^)\s#]+)')
PATHY = re.compile(r'^[\w.+-]+(/[\w.+-]+)*(/|\.\[ch\])?$')
EXTS = ('.c', '.h', '.md', '.py', '.S', '.ld', '.yaml', '.json', '.ini',
        '.in', '.sh', '.build', '.rules', '.config')
# Words that look like paths but name things outside the tree.
OUTSIDE = ('/', '~', 'build', 'build-', '<', 'http', 'linux/', 'sys/',
           'asm/', 'uapi/linux/tenstorrent.h',
           # The kernel's kselftest harness, a path of the Linux source
           # tree (linux-source-6.1), named by tests/kselftest/README.md.
           'tools/testing/selftests/')


def readme_dirs(files):
    dirs = {os.path.dirname(f) for f in files}
    out = set()
    for d in dirs:
        while d:
            out.add(d)
            d = os.path.dirname(d)
    return out


def named_words(text):
    words = set(CODE.findall(text)) | set(LINK.findall(text))
    out = set()
    for w in words:
        for part in re.split(r'[\s,]+', w.strip()):
            part = part.strip('.,;:()')
            if part and PATHY.match(part):
                out.add(part)
    return out


def undocumented_dirs(root, files, readmes):
    bad = []
    for d in sorted(readme_dirs(files)):
        if d.startswith('.') or f'{d}/README.md' in readmes:
            continue
        if not named_by_ancestor(root, d, readmes):
            bad.append(f'{d}/ has no README.md and no README above names it')
    return bad


def named_by_ancestor(root, d, readmes):
    a = os.path.dirname(d)
    while True:
        r = f'{a}/README.md' if a else 'README.md'
        if r in readmes:
            rel = os.path.relpath(d, a or '.')
            words = named_words(readmes[r])
            if rel in words or rel + '/' in words or \
                    any(w.startswith(rel + '/') for w in words):
                return True
        if not a:
            return False
        a = os.path.dirname(a)


def missing_paths(files, readmes, docs=None):
    """Paths READMEs name (relative to the README or the top), and paths
    from the top of the tree that docs/ pages name."""
    dirs = readme_dirs(files)
    exists = set(files) | dirs
    tops = tuple(d + '/' for d in dirs if '/' not in d)
    texts = dict(readmes)
    texts.update(docs or {})
    bad = []
    for r, text in sorted(texts.items()):
        here = os.path.dirname(r)
        for w in sorted(named_words(text)):
            if w.startswith(OUTSIDE) or not looks_like_file(w) or \
                    is_generated(os.path.basename(w)):
                continue
            if r not in readmes and not w.startswith(tops):
                continue  # a docs/ page's words in context
            p = w.rstrip('/')
            bases = [here, ''] + INCLUDE_ROOTS
            # "x.[ch]" names x.c and x.h: one of them will do.
            names = [p[:-4] + 'c', p[:-4] + 'h'] if p.endswith('.[ch]') \
                else [p]
            if any(os.path.normpath(os.path.join(b, n)) in exists
                   for b in bases for n in names):
                continue
            if '/' not in p and any(f.startswith(here) and
                                    os.path.basename(f) == p
                                    for f in files):
                continue  # a file of a subdirectory the row is about
            bad.append(f'{r} names `{w}`, which does not exist')
    return bad


def looks_like_file(w):
    return w.endswith('/') and '/' in w.rstrip('/') or \
        w.endswith(EXTS + ('.[ch]',))


# ---- pointers outside the repository ------------------------------------

# A clone has only this tree: no text may send its reader to the team's
# notes, which sit in a directory beside the checkout (its name, the design
# brief's file name, and the notes' folder are the words below). State the
# fact, or cite a public source.
NOTES_DIR, BRIEF, NOTES = 'shared', 'DESIGN', 'reference'
OUTSIDE_POINTER = re.compile(
    rf'\.\./{NOTES_DIR}/|{NOTES_DIR}/{NOTES}/|{BRIEF}\.md|'
    rf'{NOTES}/[\w-]+\.md')
# This file spells those words out for its own check.
POINTER_SELF = 'tests/tree/check_tree.py'
POINTER_MAX_BYTES = 1 << 20


def pointer_texts(root, files):
    """{path: text} of the text files (of at most 1 MiB) among files."""
    out = {}
    for f in sorted(files):
        if f == POINTER_SELF:
            continue
        full = os.path.join(root, f)
        if not os.path.isfile(full) or \
                os.path.getsize(full) > POINTER_MAX_BYTES:
            continue
        with open(full, 'rb') as fh:
            data = fh.read()
        if b'\0' in data:
            continue  # binary
        out[f] = data.decode('utf-8', errors='replace')
    return out


def outside_pointers(texts):
    bad = []
    for f, text in sorted(texts.items()):
        for n, line in enumerate(text.split('\n'), 1):
            m = OUTSIDE_POINTER.search(line)
            if m:
                bad.append(f'{f}:{n}: points outside the repository '
                           f'({m.group(0)}); state the fact or cite a '
                           'public source')
    return bad


# ---- main -------------------------------------------------------------

def tree_files(root):
    out = subprocess.run(['git', '-C', root, 'ls-files', '--cached',
                          '--others', '--exclude-standard'],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f'check_tree: not a git checkout: {root}')
    return {f for f in out.stdout.split()
            if os.path.exists(os.path.join(root, f))}


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..',
                                        '..'))
    build = sys.argv[2] if len(sys.argv) > 2 else None
    files = tree_files(root)
    edges = include_edges(root, files)
    readmes, docs = {}, {}
    for f in files:
        if os.path.basename(f) == 'README.md' or \
                (f.startswith('docs/') and f.endswith('.md')):
            with open(os.path.join(root, f)) as fh:
                (readmes if f.endswith('README.md') else docs)[f] = fh.read()

    cases = []

    def case(name, problems):
        cases.append((name, problems))

    case('includes follow the layer rules', layer_violations(files, edges))
    if build:
        units = object_units(build)
        tables = symbol_tables(list(units))
        case('the built objects call no layer above their own',
             call_violations(units, tables) if units else
             [f'no libtt objects under {build}'])
        obj = next((o for o in units if units[o][0] == 'lib/device'), None)
        planted = dict(tables)
        if obj:
            planted[obj] = (tables[obj][0],
                            tables[obj][1] | {'tt_allocator_get',
                                              'sim_access'})
        case('a planted upward call and model call are caught',
             [] if len(call_violations(units, planted)) >= 2
             else ['not caught'])
    case('bare includes name the including directory',
         bare_violations(files, edges))
    case('every directory has a README or is named by one',
         undocumented_dirs(root, files, readmes))
    case('every path a README or docs/ page names exists',
         missing_paths(files, readmes, docs))
    texts = pointer_texts(root, files)
    case('nothing points outside the repository', outside_pointers(texts))

    # Self-tests: each check catches a planted violation.
    planted = dict(edges)
    planted['lib/device/device.c'] = edges.get(
        'lib/device/device.c', []) + ['lib/memory/alloc.h']
    planted['lib/device/noc.c'] = ['sim/model/access.h']
    planted['lib/memory/buffer.c'] = ['tt/queue.h']
    caught = layer_violations(files, planted)
    case('a planted upward, model and public-header include is caught',
         [] if len(caught) >= 3 else [f'only caught: {caught}'])
    planted = dict(edges)
    planted['tools/ttc/ir/type.c'] = ['ttc/text.h']
    planted['tools/ttc/text/lexer.c'] = ['tools/ttc/ops/shape.h']
    planted['tools/ttc/ops/ops.c'] = ['sim/model/access.h']
    planted['tools/ttc/ops/eltwise.c'] = ['ttc/golden.h']
    planted['tools/ttc/golden/op.c'] = ['tools/ttc/text/parse.h']
    caught = [c for c in layer_violations(files, planted)
              if c.startswith('tools/ttc/')]
    case('a planted libttc stage, sibling and model include is caught',
         [] if len(caught) >= 5 else [f'only caught: {caught}'])
    planted = {'lib/device/noc.c': ['alloc.h']}
    case('a planted bare cross-directory include is caught',
         [] if bare_violations(files, planted) else ['not caught'])
    planted_files = set(files) | {'lib/device/new_sub/x.c'}
    case('a planted directory without README is caught',
         [] if undocumented_dirs(root, planted_files, readmes)
         else ['not caught'])
    planted = dict(readmes)
    planted['lib/README.md'] = readmes.get('lib/README.md', '') + \
        '\n`device/no_such_file.c`\n'
    case('a planted README naming a missing file is caught',
         [] if missing_paths(files, planted) else ['not caught'])
    planted = {'driver/x.c': f' * ok\n * as in ../{NOTES_DIR}/{NOTES}/kmd.md\n',
               'docs/x.md': f'See `{NOTES}/metal.md` section 2.\n',
               'README.md': f'The brief is {BRIEF}.md.\n'}
    caught = outside_pointers(planted)
    case('a planted pointer outside the repository is caught',
         [] if len(caught) == 3 and
         any(c.startswith('driver/x.c:2:') for c in caught)
         else [f'only caught: {caught}'])

    failed = 0
    print(f'1..{len(cases)}')
    for i, (name, problems) in enumerate(cases, 1):
        if problems:
            failed += 1
            print(f'not ok {i} - {name}')
            for p in problems:
                print(f'#   {p}')
        else:
            print(f'ok {i} - {name}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
