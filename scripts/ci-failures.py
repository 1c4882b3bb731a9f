#!/usr/bin/env python3
"""Print the end of each failed test's output, for the end of a CI log.

    ci-failures.py TESTLOG.json...

CI keeps only the tail of its log, and meson prints a failed test's output
where the test ends, long before. This repeats, last, the final lines of
every test whose result is neither OK nor SKIP (a failure, a timeout, an
unexpected pass), from the meson-logs/testlog*.json files named. A file
that does not exist is passed over: its stage did not run.
"""
import json
import os
import sys

TAIL_LINES = 40


def tail(text, n):
    lines = (text or '').rstrip('\n').splitlines()
    return lines[-n:]


def main(paths):
    shown = 0
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path, errors='replace') as f:
            for line in f:
                try:
                    t = json.loads(line)
                except ValueError:
                    continue
                if t.get('result') in ('OK', 'SKIP', 'EXPECTEDFAIL'):
                    continue
                shown += 1
                print('--- %s: %s (%s, %.0f s); its last lines:' % (
                    path, t.get('name'), t.get('result'), t.get('duration') or 0))
                for l in tail(t.get('stdout'), TAIL_LINES // 2):
                    print('  out| ' + l)
                for l in tail(t.get('stderr'), TAIL_LINES):
                    print('  err| ' + l)
    print('ci: %d failed test(s) shown' % shown)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
