#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The parts of replay/ include and call each other one way only.

Usage:
  check_parts.py REPLAY_DIR MESON_BUILD LIBRARY
  check_parts.py --self-test

REPLAY_DIR is replay/ (include/ holds the public headers and is no part;
emit/ is walked too). MESON_BUILD (replay/meson.build) documents the parts
in a table of comment lines whose header row is
"| part | holds | files | uses |": one row per part, its name in the
first cell (`base`), what it holds in words in the second, its files in
the third (paths under replay/, fnmatch patterns allowed: "model*.c,
emit/*"), the parts it uses in the last ("base, model"; "-" for none).
A part may use what the parts it uses use (the table names the direct
ones). LIBRARY is the static library built from replay/ (libkfdreplay.a):
`nm -A` on it gives, per object, the functions and data it defines and
those it takes from elsewhere, and so the calls from file to file.

Fails (exit 1, one line per problem) when
  - the documented graph has a cycle, or names a part it has no row for;
  - a .c or .h of REPLAY_DIR matches no row, or more than one;
  - a quoted #include of a file in REPLAY_DIR is by a "../" path;
  - the parts' includes or calls have a cycle;
  - a part includes or calls one the table does not let it use (even
    through the parts it uses);
  - the table lists a use no include and no call of the part makes;
  - an object of LIBRARY has no source in the table.
Includes within one part go any way. Calls between files go one way
everywhere: files that call each other in a cycle fail too, inside a
part as well. With --files the whole call graph from file to file is
printed.
--self-test runs the checks on made-up trees, each with one fault.
Exit 77 when nm is missing (a failure under CI=true).
"""
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from depgraph import find_cycle, judge, parse_deps, write_tree  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
HEADER = ['part', 'holds', 'files', 'uses']
PUBLIC = 'include'
# Objects of generated sources (meson names them so): no part.
GENERATED = 'meson-generated_'


def parse_table(text):
    """[(part, [patterns], set of uses)] from the meson.build comments,
    or an error string."""
    rows = []
    in_table = False
    for line in text.splitlines():
        s = line.strip()
        if not s.startswith('#'):
            if in_table:
                break
            continue
        s = s.lstrip('#').strip()
        if not s.startswith('|'):
            if in_table:
                break
            continue
        cells = [c.strip() for c in s.strip('|').split('|')]
        if not in_table:
            if [c.lower() for c in cells] == HEADER:
                in_table = True
            continue
        if set(''.join(cells)) <= set('-: '):
            continue  # the separator row
        if len(cells) != len(HEADER):
            return 'table row without %d cells: %s' % (len(HEADER), s)
        m = re.fullmatch(r'`([a-z_]+)`', cells[0])
        if not m:
            return 'table row without a `part` first cell: ' + s
        pats = [p.strip() for p in cells[2].replace('`', '').split(',') if p.strip()]
        uses = parse_deps(cells[3])
        rows.append((m.group(1), pats, uses))
    if not rows:
        return 'no "| part | holds | files | uses |" table'
    return rows




def sccs(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    nodes = set(graph) | {d for ds in graph.values() for d in ds}
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return sorted(out)


def closure(uses):
    """{part: every part it may use, directly or through others}."""
    out = {}
    for p in uses:
        seen, todo = set(), list(uses[p])
        while todo:
            q = todo.pop()
            if q in seen:
                continue
            seen.add(q)
            todo.extend(uses.get(q, ()))
        out[p] = seen
    return out


def sources(replay):
    """Paths under REPLAY_DIR of its .c and .h files, include/ left out."""
    out = []
    for root, dirs, files in os.walk(replay):
        dirs[:] = sorted(d for d in dirs
                         if not (root == replay and d == PUBLIC))
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                out.append(os.path.relpath(os.path.join(root, f), replay))
    return sorted(out)


def parse_nm(text):
    """({object: set of symbols it defines}, {object: set it takes})."""
    defs, undefs = {}, {}
    for line in text.splitlines():
        # "lib.a:obj.c.o:0000000000000010 T name" or "lib.a:obj.c.o: U name"
        m = re.match(r'^(?:[^:]*\.a:)?([^:]+):\s*(?:[0-9a-fA-F]+\s+)?([A-Za-z])\s+(\S+)$',
                     line.strip())
        if not m:
            continue
        obj, kind, sym = os.path.basename(m.group(1)), m.group(2), m.group(3)
        defs.setdefault(obj, set())
        undefs.setdefault(obj, set())
        if kind == 'U':
            undefs[obj].add(sym)
        elif kind.isupper():
            defs[obj].add(sym)
    return defs, undefs


def object_name(rel):
    """The object meson makes of source @rel ("emit/emit.c" -> emit_emit.c.o)."""
    return rel.replace('/', '_') + '.o'


def file_calls(srcs, nm_text, problems):
    """{file: {file: sorted symbols}}: calls (and data uses) between files."""
    defs, undefs = parse_nm(nm_text)
    by_obj = {object_name(r): r for r in srcs if r.endswith('.c')}
    owner = {}
    for obj in sorted(defs):
        if obj not in by_obj:
            if not obj.startswith(GENERATED):
                problems.append('object %s: no source of it in the table' % obj)
            continue
        for s in defs[obj]:
            owner[s] = by_obj[obj]
    calls = {}
    for obj in sorted(undefs):
        if obj not in by_obj:
            continue
        src = by_obj[obj]
        for s in undefs[obj]:
            dst = owner.get(s)
            if dst and dst != src:
                calls.setdefault(src, {}).setdefault(dst, []).append(s)
    for src in calls:
        for dst in calls[src]:
            calls[src][dst].sort()
    return calls


def file_includes(replay, srcs, problems):
    """{file: {file: line}}: quoted includes between files of REPLAY_DIR."""
    have = set(srcs)
    inc = {}
    for rel in srcs:
        with open(os.path.join(replay, rel), encoding='utf-8') as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                name = m.group(1)
                if '..' in name.split('/'):
                    problems.append('%s:%d: "%s": a "../" path' % (rel, n, name))
                    continue
                # meson's include_directories: the file's own and replay/.
                here = os.path.normpath(os.path.join(os.path.dirname(rel), name))
                target = here if here in have else (name if name in have else None)
                if target and target != rel:
                    inc.setdefault(rel, {})[target] = n
    return inc


def check(replay, meson_build, nm_text, notes=None, files=False):
    with open(meson_build, encoding='utf-8') as fh:
        table = parse_table(fh.read())
    if isinstance(table, str):
        return [meson_build + ': ' + table]
    problems = []
    uses = {p: u for p, _, u in table}
    for p, _, u in table:
        for q in sorted(u - set(uses)):
            problems.append('the table says %s uses %s, which has no row' % (p, q))
    cycle = find_cycle(uses)
    if cycle:
        problems.append('documented graph has a cycle: ' + ' -> '.join(cycle))
    allowed = closure(uses)

    srcs = sources(replay)
    part = {}
    for rel in srcs:
        hits = [p for p, pats, _ in table
                if any(fnmatch.fnmatchcase(rel, pat) for pat in pats)]
        if len(hits) != 1:
            problems.append('%s: in %s of the table\'s parts (%s), not one'
                            % (rel, len(hits), ', '.join(hits) or 'none'))
            continue
        part[rel] = hits[0]

    inc = file_includes(replay, srcs, problems)
    calls = file_calls(srcs, nm_text, problems)

    # The parts' graph, with one witness per edge.
    edges = {p: {} for p in uses}
    for what, graph in (('includes', inc), ('calls', calls)):
        for src in sorted(graph):
            for dst in sorted(graph[src]):
                a, b = part.get(src), part.get(dst)
                if not a or not b or a == b:
                    continue
                if what == 'includes':
                    why = '%s includes %s' % (src, dst)
                else:
                    why = '%s calls %s (%s)' % (src, dst, ', '.join(graph[src][dst]))
                edges[a].setdefault(b, why)

    for c in sccs({p: set(e) for p, e in edges.items()}):
        problems.append('cycle between parts: ' + ', '.join(c))
        for a in c:
            for b in sorted(edges[a]):
                if b in c:
                    problems.append('  %s -> %s: %s' % (a, b, edges[a][b]))
    for a in sorted(edges):
        for b in sorted(edges[a]):
            if b not in allowed.get(a, set()):
                problems.append('%s uses %s, the table does not let it: %s'
                                % (a, b, edges[a][b]))
        for b in sorted(uses[a] - set(edges[a])):
            problems.append('the table says %s uses %s; no include or call of it does'
                            % (a, b))

    callgraph = {s: set(d) for s, d in calls.items()}
    for c in sccs(callgraph):
        problems.append('%d files call each other in a cycle: %s'
                        % (len(c), ', '.join(c)))
    if notes is not None:
        if files:
            for src in sorted(calls):
                for dst in sorted(calls[src]):
                    notes.append('%s [%s] -> %s [%s]: %s'
                                 % (src, part.get(src), dst, part.get(dst),
                                    ', '.join(calls[src][dst])))
    return problems


def self_test():
    table = ('# | part | holds | files | uses |\n# |---|---|---|---|\n'
             '# | `base` | b | util.c, base.h | - |\n'
             '# | `model` | m | model*.c, model.h | base |\n'
             '# | `top` | t | emit/* | model |\n\nlib = 1\n')
    base = {'util.c': '#include "base.h"\n', 'base.h': '',
            'model.c': '#include "model.h"\n', 'model_io.c': '#include "model.h"\n',
            'model.h': '#include "base.h"\n',
            'emit/e.c': '#include "model.h"\n#include "base.h"\n'}
    nm_ok = ('lib.a:util.c.o:0000 T rp_vec\n'
             'lib.a:model.c.o:0000 T rp_model\n'
             'lib.a:model.c.o: U rp_vec\n'
             'lib.a:model.c.o: U rp_io\n'
             'lib.a:model_io.c.o:0000 T rp_io\n'
             'lib.a:model_io.c.o: U memcpy\n'
             'lib.a:emit_e.c.o:0000 T em\n'
             'lib.a:emit_e.c.o: U rp_model\n'
             'lib.a:meson-generated_rt.c.o:0000 R rt\n')
    # name, files changed, table, nm text, the problem expected (None: none)
    cases = [
        ('clean tree', {}, table, nm_ok, None),
        ('call cycle between parts', {}, table,
         nm_ok + 'lib.a:util.c.o: U em\n', 'cycle between parts: base, model, top'),
        ('call cycle inside a part', {}, table,
         nm_ok + 'lib.a:model_io.c.o: U rp_model\n',
         '2 files call each other in a cycle: model.c, model_io.c'),
        ('include cycle between parts', {'base.h': '#include "model.h"\n'}, table, nm_ok,
         'cycle between parts: base, model'),
        ('cycle in the table', {},
         table.replace('| util.c, base.h | - |', '| util.c, base.h | top |'),
         nm_ok, 'documented graph has a cycle'),
        ('use the table does not allow', {}, table,
         nm_ok.replace('emit_e.c.o: U rp_model', 'emit_e.c.o: U rp_vec')
         + 'lib.a:util.c.o: U rp_io\n',
         'base uses model, the table does not let it'),
        ('stale table use', {'model.h': ''}, table,
         nm_ok.replace('model.c.o: U rp_vec', 'model.c.o: U memset'),
         'the table says model uses base'),
        ('"../" include', {'emit/e.c': '#include "../model.h"\n'}, table, nm_ok,
         'a "../" path'),
        ('file in no part', {'stray.c': ''}, table, nm_ok,
         'stray.c: in 0 of the table\'s parts'),
        ('file in two parts', {}, table.replace('util.c, base.h', 'util.c, base.h, model.c'),
         nm_ok, 'model.c: in 2 of the table\'s parts'),
        ('object without a source', {}, table, nm_ok + 'lib.a:gone.c.o:0000 T g\n',
         'object gone.c.o: no source'),
        ('use of a part without a row', {}, table.replace('| model |', '| model, x |'),
         nm_ok, 'the table says top uses x, which has no row'),
        ('row without four cells', {}, table.replace('| t | emit/*', '| emit/*'), nm_ok,
         'table row without 4 cells'),
        ('no table', {}, 'nothing here\n', nm_ok, 'no "| part | holds | files | uses |" table'),
    ]
    failed = 0
    for i, (name, change, doc, nm_text, want) in enumerate(cases):
        with tempfile.TemporaryDirectory() as d:
            write_tree(os.path.join(d, 'replay'), dict(base, **change))
            os.makedirs(os.path.join(d, 'replay', PUBLIC), exist_ok=True)
            with open(os.path.join(d, 'replay', PUBLIC, 'pub.h'), 'w') as fh:
                fh.write('')
            with open(os.path.join(d, 'meson.build'), 'w', encoding='utf-8') as fh:
                fh.write(doc)
            problems = check(os.path.join(d, 'replay'), os.path.join(d, 'meson.build'),
                             nm_text)
            failed += judge(i, name, problems, want)
    return 1 if failed else 0


def main():
    args = sys.argv[1:]
    if args == ['--self-test']:
        return self_test()
    files = '--files' in args
    args = [a for a in args if a != '--files']
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    nm = shutil.which(os.environ.get('NM', 'nm'))
    if not nm:
        print('nm not found: cannot read the calls between files')
        return 1 if os.environ.get('CI') == 'true' else 77
    nm_text = subprocess.run([nm, '-A', args[2]], check=True, capture_output=True,
                             text=True).stdout
    notes = []
    problems = check(args[0], args[1], nm_text, notes, files)
    for n in notes:
        print(n)
    for p in problems:
        print(p)
    if not problems:
        print('replay parts: the includes and calls go one way, as the table says')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
