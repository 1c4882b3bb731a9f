#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Print kfdtrace's --help as help2man reads a synopsis.

Usage: man_help.py KFDTRACE [COMMAND] --help

help2man takes the Usage: line and the "or:" lines after it as the
SYNOPSIS. kfdtrace's --help continues a long Usage: line on indented
lines and gives further forms as indented "kfdtrace ..." lines; this
joins the first onto their line and turns the second into "or:" lines.
Nothing else changes.
"""
import subprocess
import sys


def main():
    text = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, check=True,
                          universal_newlines=True).stdout
    out, usage = [], False
    for line in text.split('\n'):
        body = line.strip()
        if line.startswith('Usage:'):
            usage = True
        elif usage and line.startswith(' ') and body:
            if body.startswith('kfdtrace '):
                out.append('   or: ' + body)
            else:
                out[-1] += ' ' + body
            continue
        else:
            usage = False
        out.append(line)
    sys.stdout.write('\n'.join(out))


if __name__ == '__main__':
    main()
