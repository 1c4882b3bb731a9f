#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The groups of thunk/ include each other along the documented DAG only.

Usage:
  check_groups.py THUNK_DIR DOC
  check_groups.py --self-test

THUNK_DIR is thunk/: one directory per group (include/ holds the public
headers and is no group). DOC (docs/thunk.md) documents the groups in a
table whose header row is "| group | holds | includes |": one row per
group, its directory in the first cell (`core/`), the groups it includes
in the last ("core, topology"; "-" for none).

Fails (exit 1, one line per problem) when
  - the documented graph has a cycle, or its groups are not the
    directories of THUNK_DIR;
  - a source file sits in THUNK_DIR itself instead of a group;
  - a quoted #include of a file in THUNK_DIR, .c or .h, is not by its path
    under THUNK_DIR ("memory/fmm.h"): a bare name or a "../" path;
  - a file includes another group's header other than the one the group
    offers the others, named after it (memory/memory.h);
  - the groups' includes, edge by edge, differ from the table: an edge
    the table lacks, or one it lists that no file has any more.
--self-test runs the checks on made-up trees, each with one fault.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from depgraph import (find_cycle, judge, parse_deps,  # noqa: E402
                      walk_includes, write_tree)

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
HEADER = ['group', 'holds', 'includes']
# Files THUNK_DIR itself may hold.
TOP_FILES = {'meson.build', 'libhsakmt.ver'}
PUBLIC = 'include'


def parse_doc(text):
    """{group: set of groups it includes} from the table, or an error string."""
    graph = {}
    in_table = False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if not in_table:
            if line.startswith('|') and [c.lower() for c in cells] == HEADER:
                in_table = True
            continue
        if not line.startswith('|'):
            break
        if set(''.join(cells)) <= set('-: '):
            continue  # the separator row
        m = re.fullmatch(r'`([a-z_]+)/`', cells[0])
        if not m:
            return 'table row without a `group/` first cell: ' + line
        graph[m.group(1)] = parse_deps(cells[-1].replace('/', ''))
    if not graph:
        return 'no "| group | holds | includes |" table'
    return graph




def scan(thunk):
    """(actual edges {group: set}, problems) from the sources."""
    problems = []
    groups = sorted(d for d in os.listdir(thunk)
                    if os.path.isdir(os.path.join(thunk, d)) and d != PUBLIC)
    for f in sorted(os.listdir(thunk)):
        if os.path.isfile(os.path.join(thunk, f)) and f not in TOP_FILES:
            problems.append('%s: not in a group directory' % f)
    edges = {g: set() for g in groups}
    for g, rel, n, name in walk_includes(thunk, groups, INCLUDE):
        problems += check_include(thunk, groups, g, rel, n, name, edges)
    return groups, edges, problems


def check_include(thunk, groups, g, rel, n, inc, edges):
    where = '%s:%d: "%s"' % (rel, n, inc)
    if inc.startswith('hsakmt/'):
        return []  # public headers, include/hsakmt/
    if '..' in inc.split('/'):
        return [where + ': a "../" path; include by the path under thunk/']
    parts = inc.split('/')
    if len(parts) == 1:
        here = os.path.join(thunk, os.path.dirname(rel), inc)
        if os.path.exists(here) or os.path.exists(os.path.join(thunk, inc)):
            return [where + ': include by the path under thunk/ ("%s/%s")'
                    % (os.path.dirname(rel), inc)]
        return []  # not ours (a system or dependency header)
    if parts[0] not in groups:
        return []  # not ours (kfdtrace/..., a dependency)
    if not os.path.exists(os.path.join(thunk, inc)):
        return [where + ': no such file in thunk/']
    t = parts[0]
    if t == g:
        return []
    if inc != '%s/%s.h' % (t, t):
        return [where + ': private to %s/; other groups include %s/%s.h only' % (t, t, t)]
    edges[g].add(t)
    return []


def check(thunk, doc_path):
    with open(doc_path, encoding='utf-8') as fh:
        doc = parse_doc(fh.read())
    if isinstance(doc, str):
        return [doc_path + ': ' + doc]
    problems = []
    cycle = find_cycle(doc)
    if cycle:
        problems.append('documented graph has a cycle: ' + ' -> '.join(cycle))
    groups, edges, found = scan(thunk)
    problems += found
    if set(groups) != set(doc):
        problems.append('groups in the table %s, directories %s'
                        % (sorted(doc), sorted(groups)))
    cycle = find_cycle(edges)
    if cycle:
        problems.append('include cycle between groups: ' + ' -> '.join(cycle))
    for g in groups:
        for t in sorted(edges[g] - doc.get(g, set())):
            problems.append('%s/ includes %s/%s.h; the table does not allow it' % (g, t, t))
        for t in sorted(doc.get(g, set()) - edges[g]):
            problems.append('the table says %s/ includes %s/, no file of it does' % (g, t))
    return problems


def self_test():
    doc_ok = ('| group | holds | includes |\n|---|---|---|\n'
              '| `core/` | x | - |\n| `mem/` | y | core |\n')
    base = {'core/core.h': '', 'core/a.c': '#include "core/core.h"\n',
            'mem/mem.h': '#include "core/core.h"\n', 'mem/priv.h': '',
            'mem/b.c': '#include "mem/priv.h"\n#include "mem/mem.h"\n'}
    # name, files changed, table, the problem expected (None: none)
    cases = [
        ('clean tree', {}, doc_ok, None),
        ('cycle in the code', {'core/a.c': '#include "mem/mem.h"\n'}, doc_ok,
         'include cycle between groups: core -> mem -> core'),
        ('cycle in the table', {}, doc_ok.replace('| `core/` | x | - |', '| `core/` | x | mem |'),
         'documented graph has a cycle'),
        ('private header of another group', {'core/a.c': '#include "mem/priv.h"\n'}, doc_ok,
         'private to mem/'),
        ('"../" include', {'mem/b.c': '#include "mem/mem.h"\n#include "../core/core.h"\n'},
         doc_ok, 'a "../" path'),
        ('bare name of a group file', {'mem/b.c': '#include "priv.h"\n#include "mem/mem.h"\n'},
         doc_ok, 'include by the path under thunk/ ("mem/priv.h")'),
        ('stale table edge', {'mem/mem.h': '', 'mem/b.c': ''}, doc_ok,
         'the table says mem/ includes core/'),
        ('undocumented edge', {}, doc_ok.replace('| `mem/` | y | core |', '| `mem/` | y | - |'),
         'mem/ includes core/core.h; the table does not allow it'),
        ('file outside a group', {'stray.c': ''}, doc_ok, 'stray.c: not in a group'),
        ('group missing from the table', {'new/c.c': ''}, doc_ok, 'groups in the table'),
        ('no table', {}, 'nothing here\n', 'no "| group | holds | includes |" table'),
    ]
    failed = 0
    for i, (name, change, doc, want) in enumerate(cases):
        with tempfile.TemporaryDirectory() as d:
            write_tree(os.path.join(d, 'thunk'), dict(base, **change))
            os.makedirs(os.path.join(d, 'thunk', PUBLIC), exist_ok=True)
            with open(os.path.join(d, 'doc.md'), 'w', encoding='utf-8') as fh:
                fh.write(doc)
            problems = check(os.path.join(d, 'thunk'), os.path.join(d, 'doc.md'))
            failed += judge(i, name, problems, want)
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(sys.argv[1], sys.argv[2])
    for p in problems:
        print(p)
    if not problems:
        print('thunk groups: the includes follow the documented DAG')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
