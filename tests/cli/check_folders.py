#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The folders of tools/kfdtrace include each other as its meson.build says.

Usage:
  check_folders.py TOOL_DIR
  check_folders.py --self-test

TOOL_DIR is tools/kfdtrace. The comment at the top of its meson.build
names every folder on a line of its own, with the folders it includes:
"#   report/  what it holds  includes: core, stats" ("-" for none, "*"
for any other folder: the command dispatcher's).

Fails (exit 1, one line per problem) when
  - the table has a cycle, or its folders are not the directories of
    TOOL_DIR;
  - a source file sits in TOOL_DIR itself instead of a folder;
  - a quoted #include of a file in TOOL_DIR is not by its path under
    TOOL_DIR ("core/cli.h"): a bare name or a "../" path;
  - the folders' includes, edge by edge, differ from the table: an edge
    the table lacks, or one it lists that no file has any more ("*"
    allows any and lists none).
--self-test runs the checks on made-up trees, each with one fault.
(tests/thunk/check_groups.py holds thunk/ to its table the same way.)
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
ROW = re.compile(r'^#\s+([a-z_]+)/\s.*\bincludes:\s*(.*?)\s*$')
TOP_FILES = {'meson.build'}
ANY = '*'


def parse_table(text):
    """{folder: set of folders it includes, or ANY} from the comment, or an error."""
    table = {}
    for line in text.splitlines():
        if not line.startswith('#'):
            break  # the comment at the top ends at the first statement
        m = ROW.match(line)
        if not m:
            continue
        deps = m.group(2)
        if deps == ANY:
            table[m.group(1)] = ANY
        else:
            table[m.group(1)] = {d.rstrip('/') for d in parse_deps(deps)}
    if not table:
        return 'no "#   folder/ ... includes: ..." lines at the top'
    return table


def expand(table):
    """The table with ANY replaced by every other folder."""
    return {f: (set(table) - {f} if d == ANY else d) for f, d in table.items()}




def scan(tool):
    """(folders, actual edges {folder: set}, problems) from the sources."""
    problems = []
    folders = sorted(d for d in os.listdir(tool)
                     if os.path.isdir(os.path.join(tool, d)))
    for f in sorted(os.listdir(tool)):
        if os.path.isfile(os.path.join(tool, f)) and f not in TOP_FILES:
            problems.append('%s: not in a folder' % f)
    edges = {g: set() for g in folders}
    for g, rel, n, name in walk_includes(tool, folders, INCLUDE):
        problems += check_include(tool, folders, g, rel, n, name, edges)
    return folders, edges, problems


def check_include(tool, folders, g, rel, n, inc, edges):
    where = '%s:%d: "%s"' % (rel, n, inc)
    if '..' in inc.split('/'):
        return [where + ': a "../" path; include by the path under the tool']
    parts = inc.split('/')
    if len(parts) == 1:
        if os.path.exists(os.path.join(tool, os.path.dirname(rel), inc)):
            return [where + ': include by the path under the tool ("%s/%s")'
                    % (os.path.dirname(rel), inc)]
        return []  # not ours (a dependency's header)
    if parts[0] not in folders:
        return []  # not ours (kfdtrace/..., a dependency)
    if parts[0] != g:
        edges[g].add(parts[0])
    return []


def check(tool):
    with open(os.path.join(tool, 'meson.build'), encoding='utf-8') as fh:
        table = parse_table(fh.read())
    if isinstance(table, str):
        return ['meson.build: ' + table]
    problems = []
    allowed = expand(table)
    cycle = find_cycle(allowed)
    if cycle:
        problems.append('the table has a cycle: ' + ' -> '.join(cycle))
    folders, edges, found = scan(tool)
    problems += found
    if set(folders) != set(table):
        problems.append('folders in the table %s, directories %s'
                        % (sorted(table), sorted(folders)))
    cycle = find_cycle(edges)
    if cycle:
        problems.append('include cycle between folders: ' + ' -> '.join(cycle))
    for g in folders:
        for t in sorted(edges[g] - allowed.get(g, set())):
            problems.append('%s/ includes %s/; the table does not allow it' % (g, t))
        if table.get(g) == ANY:
            continue
        for t in sorted(table.get(g, set()) - edges[g]):
            problems.append('the table says %s/ includes %s/, no file of it does' % (g, t))
    return problems


def self_test():
    top = ('# the tool\n#\n#   core/  shared  includes: -\n'
           '#   rep/   reports  includes: core\n'
           '#   cmd/   commands  includes: *\n'
           "executable('x')\n")
    base = {'meson.build': top,
            'core/core.h': '', 'core/a.c': '#include "core/core.h"\n',
            'rep/rep.h': '#include "core/core.h"\n', 'rep/priv.h': '',
            'rep/b.c': '#include "rep/priv.h"\n#include "rep/rep.h"\n',
            'cmd/main.c': '#include "rep/rep.h"\n#include "ksim.h"\n'}
    # name, files changed, the problem expected (None: none)
    cases = [
        ('clean tree', {}, None),
        ('cycle in the code', {'core/a.c': '#include "rep/rep.h"\n'},
         'include cycle between folders'),
        ('a folder includes the dispatcher', {'rep/b.c': '#include "cmd/x.h"\n'},
         'rep/ includes cmd/; the table does not allow it'),
        ('cycle in the table', {'meson.build': top.replace('core/  shared  includes: -',
                                                           'core/  shared  includes: rep')},
         'the table has a cycle'),
        ('"../" include', {'rep/b.c': '#include "rep/rep.h"\n#include "../core/core.h"\n'},
         'a "../" path'),
        ('bare name of a folder file', {'rep/b.c': '#include "priv.h"\n#include "rep/rep.h"\n'},
         'include by the path under the tool ("rep/priv.h")'),
        ('stale table edge', {'rep/rep.h': '', 'rep/b.c': ''},
         'the table says rep/ includes core/'),
        ('undocumented edge', {'meson.build': top.replace('reports  includes: core',
                                                          'reports  includes: -')},
         'rep/ includes core/; the table does not allow it'),
        ('file outside a folder', {'stray.c': ''}, 'stray.c: not in a folder'),
        ('folder missing from the table', {'new/c.c': ''}, 'folders in the table'),
        ('no table', {'meson.build': "executable('x')\n"},
         'no "#   folder/ ... includes: ..." lines'),
    ]
    failed = 0
    for i, (name, change, want) in enumerate(cases):
        with tempfile.TemporaryDirectory() as d:
            write_tree(d, dict(base, **change))
            problems = check(d)
            failed += judge(i, name, problems, want)
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    if not problems:
        print('kfdtrace folders: the includes follow the table in meson.build')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
