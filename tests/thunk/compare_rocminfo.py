#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""rocminfo on our libhsakmt against rocminfo on AMD's, on the simulator.

Usage: compare_rocminfo.py KFDTRACE OUR_LIB_DIR PROFILE

Runs `kfdtrace sim --profile PROFILE -- rocminfo` twice: with our
libhsakmt.so.1 first on the library path, and with Debian's. Both must
exit 0 and list agents, and the outputs must be equal line for line
except for the differences docs/thunk.md documents (IGNORED below).
rocminfo and the directory of Debian's libhsakmt.so.1 come from meson
(KT_ROCMINFO, KT_AMD_LIBDIR; tests/common/meson.build). Exit 77 (skipped)
when either is not installed, 1 under CI=true.
"""
import os
import re
import subprocess
import sys

# Lines allowed to differ, with why (see docs/thunk.md, "rocminfo").
IGNORED = [
    # ROCr prints the frequency of the first GPU's clock counters; when
    # AMD's library fails to take a snapshot it prints uninitialised memory.
    re.compile(r'^System Timestamp Freq\.:'),
]


def run(kfdtrace, rocminfo, profile, lib_dir):
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    if lib_dir:
        env['LD_LIBRARY_PATH'] = lib_dir
    p = subprocess.run([kfdtrace, 'sim', '--profile', profile, '--', rocminfo],
                       env=env, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def keep(line):
    return not any(r.search(line.strip()) for r in IGNORED)


def main():
    kfdtrace, lib_dir, profile = sys.argv[1:4]
    rocminfo = os.environ.get('KT_ROCMINFO', '')
    amd_lib = os.path.join(os.environ.get('KT_AMD_LIBDIR', ''), 'libhsakmt.so.1')
    if not rocminfo or not os.path.exists(rocminfo) or \
       not os.path.isabs(amd_lib) or not os.path.exists(amd_lib):
        ci = os.environ.get('CI') == 'true'
        print('%s: rocminfo or Debian\'s libhsakmt is not installed' %
              ('FAIL (CI=true)' if ci else 'skipped'))
        return 1 if ci else 77
    rc_ours, ours = run(kfdtrace, rocminfo, profile, lib_dir)
    rc_amd, amd = run(kfdtrace, rocminfo, profile, None)
    ok = True
    if rc_ours != 0 or rc_amd != 0:
        print('exit status: ours %d, AMD %d' % (rc_ours, rc_amd))
        ok = False
    if 'Agent 2' not in ours:
        print('no GPU agent listed with our library')
        ok = False
    a = [l for l in ours.splitlines() if keep(l)]
    b = [l for l in amd.splitlines() if keep(l)]
    if a != b:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(
            [l + '\n' for l in b], [l + '\n' for l in a], 'AMD libhsakmt', 'ours'))
        ok = False
    print('%s: %d lines compared' % (profile, len(a)))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
