#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare the dynamic exports of our libhsakmt.so.1 with Debian's.

Usage: check_exports.py OURS DEBIAN VERSION_SCRIPT

Every symbol Debian's library exports must be exported by ours, defined
and with the same version node (HSAKMT_1); every symbol we export must be
an hsaKmt* function in HSAKMT_1; the version script must list exactly what
we export; the SONAME must be libhsakmt.so.1. DEBIAN is the path meson
found it at, '' when it did not. Exit 77 (skipped) without Debian's
library (1 under CI=true), 1 on any difference.
"""
import os
import re
import subprocess
import sys


def exports(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        kind, name = parts[1], parts[2]
        base, _, ver = name.partition('@@')
        if kind == 'A':          # the version node itself
            continue
        syms[base] = (kind, ver)
    return syms


def soname(lib):
    out = subprocess.run(['readelf', '-d', lib], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r'\(SONAME\)\s+Library soname: \[(.*)\]', out)
    return m.group(1) if m else None


def main():
    ours_path, debian_path, ver_script = sys.argv[1:4]
    if not debian_path or not os.path.exists(debian_path):
        ci = os.environ.get('CI') == 'true'
        print('%s: Debian\'s libhsakmt.so.1 is not installed (%s)' %
              ('FAIL (CI=true)' if ci else 'skipped', debian_path or 'not found'))
        return 1 if ci else 77
    ours, debian = exports(ours_path), exports(debian_path)
    errors = []
    for name, (kind, ver) in sorted(debian.items()):
        if name not in ours:
            errors.append('missing: %s' % name)
        elif ours[name][1] != ver or ours[name][0] != 'T':
            errors.append('%s: ours %s@%s, Debian %s@%s' %
                          (name, ours[name][0], ours[name][1], kind, ver))
    for name, (kind, ver) in sorted(ours.items()):
        if not name.startswith('hsaKmt') or ver != 'HSAKMT_1' or kind != 'T':
            errors.append('unexpected export: %s %s@%s' % (kind, name, ver))
    listed = set(re.findall(r'\b(hsaKmt\w+);', open(ver_script).read()))
    for name in sorted(listed - set(ours)):
        errors.append('listed in the version script but not defined: %s' % name)
    for name in sorted(set(ours) - listed):
        errors.append('exported but not in the version script: %s' % name)
    if soname(ours_path) != 'libhsakmt.so.1':
        errors.append('SONAME is %s' % soname(ours_path))
    for e in errors:
        print(e)
    print('%d exports, Debian %d, %d problems' % (len(ours), len(debian), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
