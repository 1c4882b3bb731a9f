#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The KFD requests of our libhsakmt against AMD's, for the same program.

Usage:
  compare_ioctls.py [--amd-lib DIR] KFDTRACE OUR_LIB_DIR PROFILE KERNEL PROGRAM [ARGS...]
  compare_ioctls.py --self-test

Records PROGRAM twice with `kfdtrace record --sim=PROFILE` (KFDSIM_KERNEL
set to KERNEL): once with our libhsakmt.so.1 first on the library path,
once with Debian's (AMD's 5.2.3). Both runs must exit 0. Then, for each
process (the program and the children it forks, in fork order), the
sequences of ioctl requests are compared: the file they went to (kfd or
render), the request, and whether it succeeded (else its errno). An
ALLOC_MEMORY_OF_GPU also carries what it asked for: its flags (VRAM, GTT
or USERPTR, COHERENT, UNCACHED, ...), its size and its gpu_id; a
MAP_MEMORY_TO_GPU the GPUs it maps on. The
sequences must be equal except where ALLOWED explains a difference; each
entry there is a deliberate difference documented in docs/thunk.md
("Differences from AMD's 5.2.3 library"). Debian's library is taken
from the directory meson found it in (KT_AMD_LIBDIR, tests/common). Exit
77 (skipped) when it is not installed, 1 under CI=true.

--amd-lib DIR takes AMD's library from DIR instead (AMD's 6.2 from
Debian trixie, in the modern tier's root: docs/rocm-tiers.md), and
allows also what ALLOWED_62 lists; CI=true makes a missing one a failure.

--self-test checks the comparison itself on made-up sequences.
"""
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

# Debian's library, in the directory meson found it in (tests/common).
DEBIAN_LIB = os.path.join(os.environ.get('KT_AMD_LIBDIR', ''), 'libhsakmt.so.1')

# Requests our library sends at hsaKmtCloseKFD for what the application
# left behind.
TEARDOWN = {'kfd:DESTROY_QUEUE', 'kfd:DESTROY_EVENT', 'kfd:UNMAP_MEMORY_FROM_GPU',
            'kfd:FREE_MEMORY_OF_GPU'}


def close_teardown(side, ours_hunk, amd_hunk, ours_rest):
    """docs/thunk.md, "Memory" and "Queues": at close our library destroys
    the queues and events and unmaps and frees the buffers the application
    left; AMD's leaves them to the kernel's process teardown. Allowed: a
    hunk only in our sequence, made of those requests, after which our
    process sends nothing but such requests (the close's own teardown)."""
    return (side == 'ours' and not amd_hunk and
            all(strip(r) in TEARDOWN for r in ours_hunk + ours_rest))


# Each entry: (name, predicate). A predicate gets the side that has the
# extra records ('ours', 'amd' or 'both'), our hunk, AMD's hunk, and every
# record of ours after the hunk; it returns True when it explains the hunk.
ALLOWED = [
    ('close-teardown', close_teardown),
]

RENDER_QUERIES = {'render:DRM_VERSION', 'render:AMDGPU_INFO'}


def render_requery(side, ours_hunk, amd_hunk, ours_rest):
    """docs/rocm-tiers.md: render-node queries AMD's 6.2 makes once. Our
    library (as AMD's 5.2.3) reads the topology again at
    hsaKmtAcquireSystemProperties, querying the render nodes, which 6.2
    did at hsaKmtOpenKFD only; and 6.2 shares its libdrm device with the
    program's own (amdgpu_device_initialize), which beside ours queries
    the node itself. Allowed: a hunk only in our sequence, made of those
    queries."""
    return (side == 'ours' and not amd_hunk and
            all(strip(r) in RENDER_QUERIES for r in ours_hunk))


def queue_page_gtt(side, ours_hunk, amd_hunk, ours_rest):
    """docs/rocm-tiers.md: AMD's 6.2 allocates a queue's page as GTT on the
    queue's GPU, where 5.2.3, and ours, register paged memory as USERPTR
    of the first GPU. Allowed: one allocation on each side, equal but for
    that flag and the GPU."""
    def strip_gpu(r):
        return re.sub(r',gpu 0x[0-9a-f]+\)', ',gpu ?)', r)
    return (side == 'both' and len(ours_hunk) == 1 and len(amd_hunk) == 1 and
            ours_hunk[0].startswith('kfd:ALLOC_MEMORY_OF_GPU(USERPTR|') and
            strip_gpu(ours_hunk[0].replace('(USERPTR|', '(GTT|', 1)) ==
            strip_gpu(amd_hunk[0]))


# What AMD's 6.2 does differently from 5.2.3, which our library follows.
ALLOWED_62 = [
    ('render-requery', render_requery),
    ('queue-page-gtt', queue_page_gtt),
]


def request(r):
    """One ioctl record as compared: 'kfd:NAME:OUTCOME', with the flags,
    size and gpu_id of an allocation after the name
    ('kfd:ALLOC_MEMORY_OF_GPU(USERPTR|COHERENT|...,0x3c9b000,gpu 0xab12):ok')
    and the GPUs of a mapping, sorted ('kfd:MAP_MEMORY_TO_GPU(on 0xab12):ok')."""
    outcome = 'ok' if r.get('ret') != -1 else r.get('errno') or str(r.get('err'))
    name = r.get('name')
    if name == 'ALLOC_MEMORY_OF_GPU':
        a = r.get('in') or {}
        flags = a.get('flags') or {}
        name += '(%s,%#x,gpu %#x)' % ('|'.join(flags.get('names') or [hex(flags.get('value', 0))]),
                                      a.get('size', 0), a.get('gpu_id', 0))
    elif name == 'MAP_MEMORY_TO_GPU':
        ids = (r.get('in') or {}).get('device_ids_array_ptr')
        # The GPUs as a set: the kernel maps on each, in any order.
        name += '(on %s)' % (','.join('%#x' % i for i in sorted(ids))
                             if isinstance(ids, list) else '?')
    return '%s:%s:%s' % (r.get('file'), name, outcome)


def strip(rec):
    """'kfd:FREE_MEMORY_OF_GPU:ok' -> 'kfd:FREE_MEMORY_OF_GPU'."""
    return rec.rsplit(':', 1)[0]


def compare(ours, amd, rules=None):
    """Compare two request sequences of one process.

    Return (problems, allowed): lists of strings, the unexplained hunks
    and the ones RULES (by default ALLOWED) explained (with the rule's
    name)."""
    rules = ALLOWED if rules is None else rules
    problems, allowed = [], []
    # The common head and tail first: the matcher is quadratic on the long
    # runs of identical requests programs make (4096 CREATE_EVENTs).
    head = 0
    while head < min(len(ours), len(amd)) and ours[head] == amd[head]:
        head += 1
    tail = 0
    while (tail < min(len(ours), len(amd)) - head and
           ours[len(ours) - 1 - tail] == amd[len(amd) - 1 - tail]):
        tail += 1
    mid_amd, mid_ours = amd[head:len(amd) - tail], ours[head:len(ours) - tail]
    sm = difflib.SequenceMatcher(a=mid_amd, b=mid_ours, autojunk=False)
    for tag, a0, a1, b0, b1 in sm.get_opcodes():
        if tag == 'equal':
            continue
        amd_hunk, ours_hunk = mid_amd[a0:a1], mid_ours[b0:b1]
        a0, b0, b1 = a0 + head, b0 + head, b1 + head
        side = 'ours' if not amd_hunk else 'amd' if not ours_hunk else 'both'
        rule = next((n for n, p in rules if p(side, ours_hunk, amd_hunk, ours[b1:])), None)
        text = 'at AMD #%d / ours #%d: AMD %s, ours %s' % (
            a0, b0, amd_hunk[:6] + (['...'] if len(amd_hunk) > 6 else []),
            ours_hunk[:6] + (['...'] if len(ours_hunk) > 6 else []))
        (allowed if rule else problems).append(('%s: ' % rule if rule else '') + text)
    return problems, allowed


def dump(kfdtrace, path):
    """The records of one trace file, as dicts."""
    p = subprocess.run([kfdtrace, 'dump', path, '--json'], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        raise RuntimeError('kfdtrace dump %s: %s' % (path, p.stderr.strip()))
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def processes(kfdtrace, path, label='main'):
    """[(label, [request, ...])] for the traced process and, depth first in
    fork order, the children it forked (traced to STEM.<pid>.kfdtrace, STEM
    being FILE without its .kfdtrace)."""
    seq, children = [], []
    for r in dump(kfdtrace, path):
        if r.get('type') == 'ioctl':
            seq.append(request(r))
        elif r.get('type') == 'fork' and r.get('child_pid'):
            children.append(r['child_pid'])
    out = [(label, seq)]
    for i, pid in enumerate(children):
        stem = path[:-len('.kfdtrace')] if path.endswith('.kfdtrace') else path
        child = '%s.%d.kfdtrace' % (stem, pid)
        if not os.path.exists(child):
            raise RuntimeError('%s: no trace of forked child %d' % (path, pid))
        out += processes(kfdtrace, child, '%s/child%d' % (label, i))
    return out


def resolved_thunk(lib_dir, program):
    """The libhsakmt.so.1 the dynamic loader picks for PROGRAM (by its
    LD_TRACE_LOADED_OBJECTS listing), so a run cannot silently use the
    other library."""
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    env.pop('LD_PRELOAD', None)
    if lib_dir:
        env['LD_LIBRARY_PATH'] = lib_dir
    env['LD_TRACE_LOADED_OBJECTS'] = '1'
    p = subprocess.run([program[0]], env=env, capture_output=True, text=True, timeout=60)
    m = re.search(r'libhsakmt\.so\.1 => (\S+)', p.stdout)
    return os.path.realpath(m.group(1)) if m else None


def record(kfdtrace, profile, kernel, lib_dir, out, program):
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    env.pop('KFDSIM_MACHINE', None)
    if lib_dir:
        env['LD_LIBRARY_PATH'] = lib_dir
    env['KFDSIM_KERNEL'] = kernel
    p = subprocess.run([kfdtrace, 'record', '-o', out, '--sim=' + profile, '--'] + program,
                       env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def run(argv):
    amd_dir, rules = None, ALLOWED
    if argv[0] == '--amd-lib':
        amd_dir, rules, argv = argv[1], ALLOWED + ALLOWED_62, argv[2:]
    kfdtrace, lib_dir, profile, kernel = argv[:4]
    program = argv[4:]
    amd_lib = os.path.join(amd_dir, 'libhsakmt.so.1') if amd_dir else DEBIAN_LIB
    if not os.path.isabs(amd_lib) or not os.path.exists(amd_lib):
        print('AMD libhsakmt %s missing: %s' % (
            amd_lib, 'FAIL under CI=true' if os.environ.get('CI') == 'true' else 'skipped'))
        return 1 if os.environ.get('CI') == 'true' else 77
    ours_lib = os.path.join(lib_dir, 'libhsakmt.so.1')
    if not os.path.exists(ours_lib):
        print('%s: missing' % ours_lib)
        return 1
    for lib, want in ((lib_dir, ours_lib), (amd_dir, amd_lib)):
        got = resolved_thunk(lib, program)
        if got != os.path.realpath(want):
            print('%s would load %s, not %s' % (program[0], got, want))
            return 1
    with tempfile.TemporaryDirectory(prefix='kt-cmp-') as tmp:
        ok = True
        traces = {}
        for side, lib in (('ours', lib_dir), ('amd', amd_dir)):
            path = os.path.join(tmp, side + '.kfdtrace')
            rc, log = record(kfdtrace, profile, kernel, lib, path, program)
            if rc != 0:
                print('%s library: %s exited %d\n%s' % (side, ' '.join(program), rc, log[-4000:]))
                ok = False
            traces[side] = processes(kfdtrace, path)
        if not ok:
            return 1
        ours, amd = traces['ours'], traces['amd']
        if len(ours) != len(amd):
            print('processes traced: ours %d, AMD %d' % (len(ours), len(amd)))
            return 1
        total = 0
        for (label, o), (_, a) in zip(ours, amd):
            problems, allowed = compare(o, a, rules)
            total += len(o)
            for t in allowed:
                print('%s: allowed %s' % (label, t))
            for t in problems:
                print('%s: DIFFERENT %s' % (label, t))
                ok = False
            print('%s: %d requests (ours), %d (AMD)' % (label, len(o), len(a)))
        if total == 0:
            print('no KFD request recorded: is the capture working?')
            ok = False
        print('%s/%s: %s' % (profile, kernel, 'same requests' if ok else 'sequences differ'))
        return 0 if ok else 1


def self_test():
    """The comparison catches what it must and allows only ALLOWED."""
    base = ['kfd:GET_VERSION:ok', 'kfd:ALLOC_MEMORY_OF_GPU:ok', 'kfd:MAP_MEMORY_TO_GPU:ok',
            'kfd:UNMAP_MEMORY_FROM_GPU:ok', 'kfd:FREE_MEMORY_OF_GPU:ok']
    checks = []
    # Equal: nothing to report.
    checks.append(compare(base, list(base)) == ([], []))
    # A request of ours AMD does not send, in the middle: reported.
    p, a = compare(base[:2] + ['kfd:ALLOC_MEMORY_OF_GPU:ok'] + base[2:], base)
    checks.append(len(p) == 1 and not a)
    # A different outcome: reported.
    p, a = compare(base[:1] + ['kfd:ALLOC_MEMORY_OF_GPU:ENOMEM'] + base[2:], base)
    checks.append(len(p) == 1 and not a)
    # A request AMD sends and we do not: reported.
    p, a = compare(base[:3] + base[4:], base)
    checks.append(len(p) == 1 and not a)
    # Our teardown at close of what the program left: allowed.
    ours = base + ['kfd:DESTROY_QUEUE:ok', 'kfd:DESTROY_EVENT:ok',
                   'kfd:UNMAP_MEMORY_FROM_GPU:ok', 'kfd:FREE_MEMORY_OF_GPU:ok']
    p, a = compare(ours, base)
    checks.append(not p and len(a) == 1 and a[0].startswith('close-teardown'))
    # Teardown requests followed by more work: not the close's.
    p, a = compare(base[:2] + ['kfd:DESTROY_QUEUE:ok'] + base[2:], base)
    checks.append(len(p) == 1 and not a)
    # AMD tearing down where we do not: not allowed.
    p, a = compare(base, ours)
    checks.append(len(p) == 1 and not a)
    # An allocation compared with its flags, size and GPU: the same request
    # with other flags (GTT for USERPTR|COHERENT) is reported.
    def alloc(names, size=0x3cb1000, gpu=0xab12):
        return request({'type': 'ioctl', 'file': 'kfd', 'name': 'ALLOC_MEMORY_OF_GPU', 'ret': 0,
                        'in': {'size': size, 'gpu_id': gpu, 'flags': {'names': names}}})
    userptr = alloc(['USERPTR', 'COHERENT', 'WRITABLE'])
    checks.append(userptr == 'kfd:ALLOC_MEMORY_OF_GPU(USERPTR|COHERENT|WRITABLE,0x3cb1000,'
                  'gpu 0xab12):ok')
    for other in (alloc(['GTT', 'WRITABLE']), alloc(['USERPTR', 'COHERENT', 'WRITABLE'], 0x1000),
                  alloc(['USERPTR', 'COHERENT', 'WRITABLE'], gpu=0x5d3c)):
        p, a = compare(base[:1] + [other] + base[2:], base[:1] + [userptr] + base[2:])
        checks.append(len(p) == 1 and not a)
    # A mapping compared with its GPUs.
    maps = [request({'type': 'ioctl', 'file': 'kfd', 'name': 'MAP_MEMORY_TO_GPU', 'ret': 0,
                     'in': {'device_ids_array_ptr': ids}}) for ids in ([0xab12], [0x5d3c])]
    checks.append(maps[0] == 'kfd:MAP_MEMORY_TO_GPU(on 0xab12):ok' and maps[0] != maps[1])
    # Our render-node queries AMD's 6.2 does not repeat: allowed against
    # 6.2 only, and nothing but those queries.
    queries = ['render:DRM_VERSION:ok', 'render:AMDGPU_INFO:ok']
    p, a = compare(base[:2] + queries + base[2:], base, ALLOWED + ALLOWED_62)
    checks.append(not p and len(a) == 1 and a[0].startswith('render-requery'))
    p, a = compare(base[:2] + queries + base[2:], base)
    checks.append(len(p) == 1 and not a)
    p, a = compare(base[:2] + queries + ['kfd:ALLOC_MEMORY_OF_GPU:ok'] + base[2:], base,
                   ALLOWED + ALLOWED_62)
    checks.append(len(p) == 1 and not a)
    # A USERPTR page of ours against AMD 6.2's GTT one: allowed against
    # 6.2 only, and only when nothing else differs.
    page = ['kfd:ALLOC_MEMORY_OF_GPU(USERPTR|UNCACHED|COHERENT|WRITABLE,0x1000,gpu 0xab12):ok']
    gtt = [page[0].replace('(USERPTR|', '(GTT|')]
    p, a = compare(base[:2] + page + base[2:], base[:2] + gtt + base[2:], ALLOWED + ALLOWED_62)
    checks.append(not p and len(a) == 1 and a[0].startswith('queue-page-gtt'))
    p, a = compare(base[:2] + page + base[2:], base[:2] + gtt + base[2:])
    checks.append(len(p) == 1 and not a)
    p, a = compare(base[:2] + page + base[2:],
                   base[:2] + [gtt[0].replace('0x1000', '0x2000')] + base[2:],
                   ALLOWED + ALLOWED_62)
    checks.append(len(p) == 1 and not a)
    for i, c in enumerate(checks):
        print('self-test %d: %s' % (i, 'ok' if c else 'FAILED'))
    return 0 if all(checks) else 1


if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    if len(sys.argv) < 6:
        print(__doc__)
        sys.exit(2)
    sys.exit(run(sys.argv[1:]))
