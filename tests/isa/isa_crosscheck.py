#!/usr/bin/env python3
"""Cross-check formats/isa's decoder against LLVM's disassembler.

Every instruction of real gfx90a code objects is disassembled by
llvm-objdump (LLVM 15 as Debian 12 ships it) and decoded by isa_dis (kfd_isa_decode()); the two texts and
lengths must be equal, instruction for instruction.

Required corpus (any mismatch fails): the code objects of the HIP programs
given on the command line (cut out of the offload bundles in their
.hip_fatbin section) and ROCr's blit kernels, the gfx90a code object
embedded in libhsa-runtime64.so.1 (found in KT_AMD_LIBDIR).
Measured corpus (coverage printed, never fails): rocRAND's kernels in
librocrand.so.1, and the code objects of rocSPARSE's librocsparse.so.0
that hold the kernels tests/hip's hip_rocsparse runs (CSR SpMV and
csr2coo; the library's 111 others, some 170 MB, would take minutes), when
installed there.

Two sweeps of the table itself, assembled from raw dwords by llvm-mc:
"table" puts every form of every row (operand fields zero) through both
disassemblers and must match wherever ours decodes; "operands" repeats
each form with random operand fields (a fixed seed), and "sdwa" and "dpp"
the 32-bit vector forms with SDWA or DPP; these print how often the two
disagree, and how often ours accepts what LLVM rejects as invalid.

Exit status 77 (skip) when llvm-objdump, llvm-mc or libhsa-runtime64.so.1
is missing, except under CI=true, where that fails.
"""
import argparse
import collections
import mmap
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

# ELF e_flags: EF_AMDGPU_MACH of each processor with a table.
MACH = {'gfx90a': 0x3f, 'gfx942': 0x4c, 'gfx1030': 0x36, 'gfx908': 0x30}
# LLVM 15 knows gfx940, not gfx942: the two share their encodings.
LLVM_MCPU = {'gfx942': 'gfx940'}
EM_AMDGPU = 224
SHOW = 20


def missing(why):
    if os.environ.get('CI') == 'true':
        print('FAIL: ' + why + ' (required under CI=true)')
        sys.exit(1)
    print('SKIP: ' + why)
    sys.exit(77)


def find_tool(names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def sections(data, base=0):
    """The sections of the ELF64 at data[base:]: name -> (offset, size, addr)."""
    shoff = struct.unpack_from('<Q', data, base + 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, base + 0x3a)
    hdrs = []
    for i in range(shnum):
        o = base + shoff + i * shentsize
        name, _, _, addr, off, size = struct.unpack_from('<IIQQQQ', data, o)
        hdrs.append((name, addr, off, size))
    stroff = hdrs[shstrndx][2]
    out = {}
    for name, addr, off, size in hdrs:
        end = data.find(b'\0', base + stroff + name)
        out[data[base + stroff + name:end].decode()] = (off, size, addr)
    return out


def embedded_code_objects(path, mach):
    """Cut the AMDGPU ELF images for mach out of a host library."""
    data = open(path, 'rb').read()
    found = []
    i = data.find(b'\x7fELF', 1)
    while i > 0:
        if (len(data) >= i + 64 and data[i + 4] == 2 and
                struct.unpack_from('<H', data, i + 18)[0] == EM_AMDGPU and
                struct.unpack_from('<I', data, i + 48)[0] & 0xff == mach):
            shoff = struct.unpack_from('<Q', data, i + 0x28)[0]
            shentsize, shnum = struct.unpack_from('<HH', data, i + 0x3a)
            found.append(data[i:i + shoff + shentsize * shnum])
        i = data.find(b'\x7fELF', i + 1)
    return found


def unbundle(path, family, tmp, tag, keep=None, xnack=None):
    """The family's code objects in a HIP binary's or library's .hip_fatbin.

    The section holds clang offload bundles (one per translation unit in a
    library): the magic, the number of entries, then per entry its offset,
    size and target id, all little-endian; a target is
    hipv4-amdgcn-amd-amdhsa--<processor>[:<feature>+|-...]. keep, if
    given, names byte strings one of which a code object must contain;
    xnack ('+' or '-'), the one xnack variant to take. The file is mapped,
    not read: rocSPARSE's library is over a gigabyte.
    """
    with open(path, 'rb') as f:
        data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    secs = sections(data)
    if '.hip_fatbin' not in secs:
        return []
    off, size, _ = secs['.hip_fatbin']
    out = []
    magic = b'__CLANG_OFFLOAD_BUNDLE__'
    prefix = 'hipv4-amdgcn-amd-amdhsa--' + family
    base = data.find(magic, off, off + size)
    while base >= 0:
        pos = base + len(magic)
        count = struct.unpack_from('<Q', data, pos)[0]
        pos += 8
        for _ in range(count):
            eoff, esize, tlen = struct.unpack_from('<QQQ', data, pos)
            pos += 24
            target = data[pos:pos + tlen].decode()
            pos += tlen
            if target != prefix and not target.startswith(prefix + ':'):
                continue
            if xnack and (':xnack' + xnack) not in target:
                continue
            image = data[base + eoff:base + eoff + esize]
            if keep and not any(k in image for k in keep):
                continue
            co = os.path.join(tmp, '%s.%d.co' % (tag, len(out)))
            open(co, 'wb').write(image)
            out.append(co)
        base = data.find(magic, base + len(magic), off + size)
    return out


LINE = re.compile(r'^\t(.*?)\s*// ([0-9A-F]+): ([0-9A-F ]+)')


def llvm_lines(objdump, family, co):
    # the triple: LLVM 15 cannot name it from a code object v6 header
    r = subprocess.run([objdump, '-d', '--triple=amdgcn-amd-amdhsa',
                        '--mcpu=' + LLVM_MCPU.get(family, family), co],
                       capture_output=True, text=True, check=True)
    out = {}
    for line in r.stdout.splitlines():
        m = LINE.match(line)
        if m:
            words = m.group(3).split()
            # the words stop at the first blank: the rest is a branch target
            n = 0
            while n < len(words) and re.fullmatch(r'[0-9A-F]{8}', words[n]):
                n += 1
            out[int(m.group(2), 16)] = (m.group(1), 4 * n)
    return out


def our_lines(tool, family, co):
    data = open(co, 'rb').read()
    text = sections(data).get('.text')
    if not text:
        return {}
    off, size, addr = text
    r = subprocess.run([tool, family, co, str(off), str(size), str(addr)],
                       capture_output=True, text=True, check=True)
    out = {}
    for line in r.stdout.splitlines():
        a, n, t = line.split('\t', 2)
        out[int(a, 16)] = (t, int(n))
    return out


def mnemonic(text):
    return text.split(' ', 1)[0]


def refused_by_both(text, length, got):
    """LLVM prints a word it cannot decode as .long; ours calls it unknown."""
    return (text.startswith('.long ') and length == 4 and got is not None and
            got[1] == 4 and got[0].startswith('unknown'))


def compare(name, objects, args, objdump):
    total = matched = 0
    mnems = set()
    bad = collections.Counter()
    shown = 0
    for co in objects:
        theirs = llvm_lines(objdump, args.family, co)
        ours = our_lines(args.tool, args.family, co)
        for addr in sorted(theirs):
            text, length = theirs[addr]
            total += 1
            mnems.add(mnemonic(text))
            got = ours.get(addr)
            if got == (text, length) or refused_by_both(text, length, got):
                matched += 1
                continue
            bad[mnemonic(text)] += 1
            if shown < args.show:
                shown += 1
                print('  %s+0x%x: llvm "%s" (%d bytes), ours %s' % (
                    os.path.basename(co), addr, text, length,
                    '"%s" (%d bytes)' % got if got else 'nothing at this address'))
    print('%s: %d code objects, %d instructions, %d distinct mnemonics, '
          '%d matched (%.2f%%)' % (name, len(objects), total, len(mnems), matched,
                                   100.0 * matched / total if total else 0.0))
    if bad:
        print('%s: left, by mnemonic: %s' % (name, ', '.join(
            '%s %d' % kv for kv in bad.most_common())))
    return total, matched


NOP = 0xbf800000
SWEEP_VARIANTS = 6


# the source field that selects SDWA (249) or DPP (250) in VOP1/VOP2/VOPC
EXT_SRC0 = {'sdwa': 249, 'dpp': 250}


def sdwa_valid(b):
    """Random SDWA selects made valid: llvm-objdump 15 aborts on reserved ones."""
    for shift in (8, 16, 24):  # dst_sel, src0_sel, src1_sel: 7 is reserved
        if (b >> shift) & 7 == 7:
            b &= ~(1 << shift)
    if (b >> 11) & 3 == 3:  # dst_unused: 3 is reserved
        b &= ~(1 << 11)
    return b


def sweep_forms(tool, family, mode, seed=1):
    """The dword pairs of every form of every row: as listed ('table'),
    with random operand fields ('operands'), or as SDWA or DPP forms of
    the 32-bit vector rows with random fields ('sdwa', 'dpp')."""
    r = subprocess.run([tool, '--rows', family], capture_output=True, text=True,
                       check=True)
    rng = random.Random(seed)
    pairs = []
    for line in r.stdout.splitlines():
        w0, fixed, fmt = line.split()
        w0, fixed = int(w0, 16), int(fixed, 16)
        if mode == 'table':
            pairs.append((w0, 0))
            continue
        if mode in EXT_SRC0 and fmt not in ('VOP1', 'VOP2', 'VOPC'):
            continue
        for _ in range(SWEEP_VARIANTS):
            a = (w0 & fixed) | (rng.getrandbits(32) & ~fixed & 0xffffffff)
            b = rng.getrandbits(32)
            if mode in EXT_SRC0:
                a = (a & ~0x1ff) | EXT_SRC0[mode]
            if mode == 'sdwa':
                b = sdwa_valid(b)
            pairs.append((a, b))
    return pairs


def sweep(name, args, objdump, mc, tmp, chunk=400):
    """Compare the decoders on assembled forms; return (known, differ, invalid)."""
    randomize = name != 'table'
    pairs = sweep_forms(args.tool, args.family, name)
    known = differ = invalid = unknown = crashed = 0
    shown = 0
    for i in range(0, len(pairs), chunk):
        src = os.path.join(tmp, 'sweep.s')
        obj = os.path.join(tmp, 'sweep.o')
        with open(src, 'w') as f:
            for a, b in pairs[i:i + chunk]:
                f.write('.long 0x%08x\n.long 0x%08x\n.long 0x%08x\n.long 0x%08x\n'
                        % (a, b, NOP, NOP))
        subprocess.run([mc, '-arch=amdgcn', '-mcpu=' + LLVM_MCPU.get(args.family, args.family),
                        '-filetype=obj',
                        src, '-o', obj], check=True)
        try:
            theirs = llvm_lines(objdump, args.family, obj)
        except subprocess.CalledProcessError:
            crashed += 1  # llvm-objdump 15 aborts on some invalid words
            continue
        ours = our_lines(args.tool, args.family, obj)
        for addr in sorted(theirs):
            got = ours.get(addr)
            if not got or got[0].startswith('unknown'):
                unknown += 1
                continue
            known += 1
            if got == theirs[addr]:
                continue
            if theirs[addr][0].startswith('.long'):
                invalid += 1
            else:
                differ += 1
            if shown < args.show and (not randomize or not theirs[addr][0].startswith('.long')):
                shown += 1
                print('  %s+0x%x: llvm "%s" (%d bytes), ours "%s" (%d bytes)' % (
                    name, i * 16 + addr, theirs[addr][0], theirs[addr][1], got[0], got[1]))
    print('%s: %d forms, %d instructions decoded by ours, %d unknown to ours, '
          '%d spelled differently, %d that LLVM rejects%s' % (
              name, len(pairs), known, unknown, differ, invalid,
              ', %d chunks skipped (llvm-objdump aborted)' % crashed if crashed else ''))
    return known, differ, invalid


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--tool', required=True)
    ap.add_argument('--family', default='gfx90a')
    ap.add_argument('--show', type=int, default=SHOW)
    ap.add_argument('--rocr', help='the libhsa-runtime64.so.1 whose blit kernels '
                    'to check (default: the one in KT_AMD_LIBDIR)')
    ap.add_argument('hip', nargs='*', help='HIP programs built for the family')
    args = ap.parse_args()

    objdump = find_tool(['llvm-objdump-15', 'llvm-objdump'])
    mc = find_tool(['llvm-mc-15', 'llvm-mc'])
    if not objdump or not mc:
        missing('llvm-objdump or llvm-mc not found')
    libdir = os.environ.get('KT_AMD_LIBDIR', '')
    rocr = args.rocr or os.path.join(libdir, 'libhsa-runtime64.so.1')
    if not args.rocr and not libdir or not os.path.exists(rocr):
        missing('libhsa-runtime64.so.1 not found in KT_AMD_LIBDIR')

    with tempfile.TemporaryDirectory() as tmp:
        objects = []
        for prog in args.hip:
            objects += unbundle(prog, args.family, tmp, os.path.basename(prog))
        if args.hip and not objects:
            print('FAIL: no %s code object in the HIP programs' % args.family)
            return 1
        blits = embedded_code_objects(rocr, MACH[args.family])
        if not blits:
            print('FAIL: no %s code object in %s' % (args.family, rocr))
            return 1
        for n, image in enumerate(blits):
            path = os.path.join(tmp, 'rocr-blit.%d.co' % n)
            open(path, 'wb').write(image)
            objects.append(path)
        total, matched = compare('required', objects, args, objdump)
        status = 0 if total and matched == total else 1

        known, differ, invalid = sweep('table', args, objdump, mc, tmp)
        if not known or differ or invalid:
            status = 1
        for mode in ('operands', 'sdwa', 'dpp'):
            sweep(mode, args, objdump, mc, tmp)

        rocrand = os.path.join(libdir, 'librocrand.so.1')
        if os.path.exists(rocrand):
            compare('rocrand', unbundle(rocrand, args.family, tmp, 'rocrand'),
                    args, objdump)
        else:
            print('rocrand: librocrand.so.1 not installed in KT_AMD_LIBDIR')

        rocsparse = os.path.join(libdir, 'librocsparse.so.0')
        if os.path.exists(rocsparse):
            compare('rocsparse', unbundle(rocsparse, args.family, tmp, 'rocsparse',
                                          keep=(b'csrmv', b'csr2coo_kernel'),
                                          xnack='-'),
                    args, objdump)
        else:
            print('rocsparse: librocsparse.so.0 not installed in KT_AMD_LIBDIR')
    return status


if __name__ == '__main__':
    sys.exit(main())
