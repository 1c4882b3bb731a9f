# SPDX-License-Identifier: MIT
"""What the include-graph checkers share (tests/thunk/check_groups.py,
tests/cli/check_folders.py, tests/replay/check_parts.py): the list of
dependencies in a documented table's cell, a cycle in a graph, the
includes of a tree, and the self-tests' made-up trees and verdicts."""
import os


def parse_deps(cell):
    """The names in a table cell ("a, b"; "-", "—" or empty: none)."""
    deps = cell.replace('`', '').strip()
    if deps in ('-', '—', ''):
        return set()
    return {d.strip() for d in deps.split(',')}


def find_cycle(graph):
    """A list of nodes forming a cycle ({node: set of nodes}), or None."""
    state = {}

    def visit(g, path):
        state[g] = 'open'
        for d in sorted(graph.get(g, ())):
            if state.get(d) == 'open':
                return path[path.index(d):] + [d]
            if d not in state:
                c = visit(d, path + [d])
                if c:
                    return c
        state[g] = 'done'
        return None

    for g in sorted(graph):
        if g not in state:
            c = visit(g, [g])
            if c:
                return c
    return None


def walk_includes(top, dirs, include_re):
    """(dir, path relative to @top, line number, included name) of every
    quoted #include in the .c and .h files below @top/<dir> for @dirs."""
    for g in dirs:
        for root, _, files in os.walk(os.path.join(top, g)):
            for f in sorted(files):
                if not f.endswith(('.c', '.h')):
                    continue
                path = os.path.join(root, f)
                rel = os.path.relpath(path, top)
                with open(path, encoding='utf-8') as fh:
                    for n, line in enumerate(fh, 1):
                        m = include_re.match(line)
                        if m:
                            yield g, rel, n, m.group(1)


def write_tree(top, tree):
    """Write the files of @tree ({path relative to @top: text})."""
    for rel, text in tree.items():
        p = os.path.join(top, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w', encoding='utf-8') as fh:
            fh.write(text)


def judge(i, name, problems, want):
    """A self-test case's verdict, printed: @problems must be empty when
    @want is None, else one must hold @want. Return: 1 when it failed."""
    ok = not problems if want is None else any(want in p for p in problems)
    print('self-test %d (%s): %s%s' % (i, name, 'ok' if ok else 'FAILED',
                                      '' if ok else ' %r' % problems))
    return 0 if ok else 1
