# SPDX-License-Identifier: MIT
"""What the include-graph checkers share (tests/thunk/check_groups.py,
tests/cli/check_folders.py, tests/replay/check_parts.py): the list of
dependencies in a documented table's cell, and a cycle in a graph."""


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
