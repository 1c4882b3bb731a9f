#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test tracecompass-experiment: the Trace Compass analysis over a real
multi-process capture.

  test_tc_experiment.py KFDTRACE TC-FORK-APP XML BABELTRACE2

records tc-fork-app (a fork, both sides with a buffer object of the same
handle, the child with a failed call) on kfdsim, exports each process's
trace with `kfdtrace export --ctf`, merges them in time order with
babeltrace2, runs the analysis's CTF state provider over the stream with
tc_interp.py and checks that the processes' state stays apart.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_interp  # noqa: E402


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode:
        sys.exit('%s failed (%d): %s' % (argv[:3], r.returncode, r.stderr))
    return r.stdout


def main():
    kfdtrace, app, xml, bt2 = sys.argv[1:5]
    fails = []
    with tempfile.TemporaryDirectory(prefix='kfdtrace-tc-exp-') as work:
        out = os.path.join(work, 'app.kfdtrace')
        child = int(run([kfdtrace, 'record', '-o', out, '--sim', '--', app])
                    .split()[-1])
        # The child's trace: app.<pid>.kfdtrace or app-stem.<pid>.kfdtrace.
        traces = sorted(f for f in os.listdir(work) if f.endswith('.kfdtrace'))
        child_tr = [f for f in traces if f != 'app.kfdtrace' and str(child) in f]
        if 'app.kfdtrace' not in traces or len(child_tr) != 1:
            sys.exit('traces: %s (child %d)' % (traces, child))
        dirs = []
        for i, t in enumerate(['app.kfdtrace', child_tr[0]]):
            d = os.path.join(work, 'ctf%d' % i)
            run([kfdtrace, 'export', '--ctf', d, os.path.join(work, t)])
            dirs.append(d)
        events = tc_interp.parse_events(run([bt2] + dirs))
        pids = sorted({e[2].get('pid') for e in events})
        if len(pids) != 2 or child not in pids:
            sys.exit('pids in the merged stream: %s' % pids)
        parent = [p for p in pids if p != child][0]

        prov = tc_interp.Provider(xml, 'org.kfdtrace.tc.ctf')
        state = prov.run(events)

        # Live BOs at the end, per process, from the events themselves.
        live = {parent: {}, child: {}}
        for ns, name, ctx, pl in events:
            if pl.get('ret') != 0:
                continue
            if name == 'kfd:alloc_memory_of_gpu':
                live[ctx['pid']][pl['handle']] = pl['size']
            elif name == 'kfd:free_memory_of_gpu':
                live[ctx['pid']].pop(pl['handle'], None)
        same = set(live[parent]) & set(live[child])
        if not same:
            fails.append('no handle live in both processes: %s' % live)
        for pid in (parent, child):
            bos = {k[-1]: v for k, v in state.items()
                   if len(k) == 8 and k[:2] == ('Processes', str(pid)) and
                   k[2] == 'GPUs' and k[4] == 'Heaps' and k[6] == 'BOs' and
                   v is not None}
            want = {str(h): s for h, s in live[pid].items()}
            if bos != want:
                fails.append('pid %d: BOs %s, expected %s' % (pid, bos, want))
            count = sum(v for k, v in state.items()
                        if len(k) == 5 and k[:2] == ('Processes', str(pid)) and
                        k[4] == 'bo_count')
            if count != len(live[pid]):
                fails.append('pid %d: bo_count %d, expected %d' %
                             (pid, count, len(live[pid])))
        # Nothing outside Processes/<pid>/.
        for k in state:
            if k[0] != 'Processes' or k[1] not in (str(parent), str(child)):
                fails.append('path outside a process: %s' % '/'.join(k))
        # The child's failed DESTROY_QUEUE is in the stream and changed
        # nothing (only successful calls change the state).
        failed = [e for e in events if e[1] == 'kfd:destroy_queue' and
                  e[2]['pid'] == child and e[3].get('ret') == -1]
        if len(failed) != 1:
            fails.append('failed destroy_queue events: %d' % len(failed))
        if any('Queues' in k or 'QueueIds' in k or 'queue_count' in k
               for k in state):
            fails.append('a failed call changed queue state')
        # Failed-call markers: the child's thread is marked with the failed
        # call's name, the parent's never.
        marks = [(k, v) for ns, k, v in prov.changes
                 if len(k) == 5 and k[2] == 'Threads' and k[4] == 'failed' and
                 v is not None]
        want = [(('Processes', str(child), 'Threads', str(failed[0][2]['tid']),
                  'failed'), 'kfd:destroy_queue')] if failed else []
        if marks != want:
            fails.append('failed-call markers %s, expected %s' % (marks, want))
        print('%d events, pids %d and %d, shared live handles %s, %d state '
              'changes' % (len(events), parent, child,
                           sorted(hex(h) for h in same), len(prov.changes)))
    for f in fails:
        print('FAIL:', f, file=sys.stderr)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
