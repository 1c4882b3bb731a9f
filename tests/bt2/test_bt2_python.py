#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test bt2-python: every field of every event reads through python3-bt2.

  test_bt2_python.py KFDTRACE GEN-BT2-TRACE PLUGIN-DIR TC-FORK-APP

python3-bt2 2.0 asserts on the labels of an enumeration value that no
mapping matches: a combination of flags, an errno without a name. The
test reads gen-bt2-trace's "all", "rows" and "seek" traces (every record
type, every schema row, failed calls, multi-bit flags) and a recording of
tc-fork-app on kfdsim, through source.kfdtrace.trace (with its call_begin
events) and through the CTF `kfdtrace export --ctf` writes (src.ctf.fs).
Every field of every event is read: integers, the labels of every
enumeration, strings, arrays, the chosen option of every variant. A flags
field with a "<name>_names" companion is an integer. The environment's
kfd_abi is what `kfdtrace info --json` says.

Without python3-bt2 (Debian's python3-bt2) the test is skipped (exit
77), and fails under CI=true.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import bt2
except ImportError:
    why = 'python3-bt2 is not installed (import bt2 failed)'
    if os.environ.get('CI') == 'true':
        sys.exit('%s: required under CI=true' % why)
    print('skipped: ' + why)
    sys.exit(77)


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode:
        sys.exit('%s failed (%d): %s' % (argv[:3], r.returncode, r.stderr))
    return r.stdout


class Reader:
    """Counts what it read; collects what it could not."""

    def __init__(self):
        self.fields = 0
        self.labels = 0
        self.events = 0
        self.classes = set()
        self.bad = []

    def walk(self, f, where):
        self.fields += 1
        try:
            if isinstance(f, bt2._EnumerationFieldConst):
                labels = f.labels
                if not labels:
                    self.bad.append('%s: no label for %d' % (where, int(f)))
                self.labels += 1
                int(f)
            elif isinstance(f, bt2._IntegerFieldConst):
                int(f)
            elif isinstance(f, bt2._BoolFieldConst):
                bool(f)
            elif isinstance(f, bt2._RealFieldConst):
                float(f)
            elif isinstance(f, bt2._BitArrayFieldConst):
                int(f.value_as_integer)
            elif isinstance(f, bt2._StringFieldConst):
                str(f)
            elif isinstance(f, bt2._StructureFieldConst):
                for name, m in f.items():
                    self.walk(m, where + '.' + name)
                self.flags_are_integers(f, where)
            elif isinstance(f, bt2._ArrayFieldConst):
                for i, e in enumerate(f):
                    self.walk(e, '%s[%d]' % (where, i))
            elif isinstance(f, bt2._VariantFieldConst):
                self.walk(f.selected_option, '%s<%d>' % (
                    where, f.selected_option_index))
            elif isinstance(f, bt2._OptionFieldConst):
                if f.field is not None:
                    self.walk(f.field, where + '?')
            else:
                self.bad.append('%s: field of unknown kind %s' %
                                (where, type(f).__name__))
        except AssertionError as e:
            self.bad.append('%s: AssertionError %s' % (where, e))

    def flags_are_integers(self, st, where):
        for name, m in st.items():
            base = name[:-len('_names')] if name.endswith('_names') else None
            if base and base in st and \
                    isinstance(st[base], bt2._EnumerationFieldConst):
                self.bad.append('%s.%s: a flags field is an enumeration' %
                                (where, base))

    def event(self, ev):
        self.events += 1
        self.classes.add(ev.name)
        for part, f in (('common', ev.common_context_field),
                        ('specific', ev.specific_context_field),
                        ('payload', ev.payload_field)):
            if f is not None:
                self.walk(f, '%s %s' % (ev.name, part))


def read(spec, reader, envs):
    for msg in bt2.TraceCollectionMessageIterator(spec):
        if type(msg) is bt2._EventMessageConst:
            reader.event(msg.event)
        elif type(msg) is bt2._StreamBeginningMessageConst:
            env = msg.stream.trace.environment
            envs.append({k: env[k] for k in env})


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    kfdtrace, gen, plugin_dir, app = sys.argv[1:]
    plugins = bt2.find_plugins_in_path(plugin_dir)
    kfd = [p for p in plugins if p.name == 'kfdtrace']
    if not kfd:
        sys.exit('no kfdtrace plugin in %s' % plugin_dir)
    src = kfd[0].source_component_classes['trace']
    ctf = bt2.find_plugin('ctf').source_component_classes['fs']
    bad = 0
    with tempfile.TemporaryDirectory(prefix='kfdtrace-bt2py-') as work:
        traces = []
        for mode, extra in (('all', []), ('rows', []), ('seek', ['3000'])):
            path = os.path.join(work, mode + '.kfdtrace')
            run([gen, mode, path] + extra)
            traces.append(path)
        rec = os.path.join(work, 'rec') + '/'
        run([kfdtrace, 'record', '-o', rec, '--sim', '--', app])
        traces += sorted(os.path.join(rec, n) for n in os.listdir(rec))
        for i, path in enumerate(traces):
            info = json.loads(run([kfdtrace, 'info', '--json', path]))
            out = os.path.join(work, 'ctf%d' % i)
            run([kfdtrace, 'export', '--ctf', out, path])
            for how, spec in (
                    ('plugin', bt2.ComponentSpec(src, {
                        'inputs': [path], 'begin-events': True})),
                    ('ctf', bt2.ComponentSpec(ctf, {'inputs': [out]}))):
                r, envs = Reader(), []
                read([spec], r, envs)
                name = '%s (%s)' % (os.path.basename(path), how)
                for b in r.bad[:10]:
                    print('%s: %s' % (name, b))
                abi = envs[0].get('kfd_abi') if envs else None
                want = info.get('kfd_abi') or 'unknown'
                if abi != want:
                    print('%s: environment kfd_abi %r, info says %r' %
                          (name, abi, want))
                    bad += 1
                bad += len(r.bad) > 0
                if not r.events or not r.labels:
                    print('%s: %d events, %d enumerations read' %
                          (name, r.events, r.labels))
                    bad += 1
                print('%s: %d events of %d classes, %d fields (%d '
                      'enumerations) read; kfd_abi %s' %
                      (name, r.events, len(r.classes), r.fields, r.labels,
                       abi))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
