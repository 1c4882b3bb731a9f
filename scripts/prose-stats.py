#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sentence lengths of the Markdown pages, in words.

  prose-stats.py [--check] [--long N] FILE...

Counts each sentence of each paragraph and list item, outside fenced code,
tables and headings. A list item without a full stop is one unit. Inline
code counts as words. Prints, per file and for all files, the number of
units and the median and 90th percentile of their lengths. The targets
(docs/CodingStyle.md): median at most 14 words, p90 at most 30.

--long N also prints every unit longer than N words, with its line.
--check exits 1 when the figures of all files together miss a target;
without it the script only reports (CI runs it so).
"""
import re
import sys

MEDIAN_MAX = 14
P90_MAX = 30

# A sentence ends at . ! or ? followed by a space and a capital, a quote,
# a backtick or an opening bracket; abbreviations that end in a dot do not
# end one.
END = re.compile(r'(?<=[.!?])\s+(?=[A-Z`"(*\[])')
ABBREV = re.compile(r'(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bNo|\bFig)\.$')


def units(text):
    """(line, words) of every sentence or list item of @text."""
    out = []
    para, start = [], 0
    fence = False

    def flush():
        if not para:
            return
        joined = ' '.join(s.strip() for s in para)
        parts, cur = [], ''
        for piece in END.split(joined):
            cur = f'{cur} {piece}' if cur else piece
            if not ABBREV.search(cur):
                parts.append(cur)
                cur = ''
        if cur:
            parts.append(cur)
        for p in parts:
            words = [w for w in p.split() if re.search(r'[0-9A-Za-z]', w)]
            if words:
                out.append((start, len(words), p))
        para.clear()

    for no, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith('```') or s.startswith('~~~'):
            flush()
            fence = not fence
            continue
        if fence or line.startswith('    ') and not para:
            continue
        if not s or s.startswith('|') or s.startswith('#') or \
           s.startswith('<!--') or re.fullmatch(r'[-*_=]{3,}', s):
            flush()
            continue
        item = re.match(r'([-*+]|\d+[.)])\s+(.*)', s)
        if item:
            flush()
            start = no
            para.append(item.group(2))
            continue
        if not para:
            start = no
        para.append(s)
    flush()
    return out


def figures(lengths):
    if not lengths:
        return 0, 0
    v = sorted(lengths)
    med = v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
    p90 = v[min(len(v) - 1, int(0.9 * len(v)))]
    return med, p90


def main(argv):
    check = '--check' in argv
    long_n = None
    files = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == '--check':
            pass
        elif a == '--long':
            i += 1
            long_n = int(argv[i])
        else:
            files.append(a)
        i += 1
    if not files:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    everything = []
    print(f'{"file":40} {"units":>6} {"median":>7} {"p90":>5}')
    for f in files:
        with open(f, encoding='utf-8') as fh:
            u = units(fh.read())
        lengths = [n for _, n, _ in u]
        everything += lengths
        med, p90 = figures(lengths)
        print(f'{f:40} {len(lengths):6} {med:7g} {p90:5g}')
        if long_n is not None:
            for line, n, text in u:
                if n > long_n:
                    print(f'  {f}:{line}: {n} words: {text[:100]}')
    med, p90 = figures(everything)
    ok = med <= MEDIAN_MAX and p90 <= P90_MAX
    print(f'{"all":40} {len(everything):6} {med:7g} {p90:5g}  '
          f'(targets: median <= {MEDIAN_MAX}, p90 <= {P90_MAX}: '
          f'{"met" if ok else "missed"})')
    return 1 if check and not ok else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
