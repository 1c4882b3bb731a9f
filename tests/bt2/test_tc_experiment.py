#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test tracecompass-experiment: the Trace Compass analysis over a real
multi-process capture.

  test_tc_experiment.py KFDTRACE TC-FORK-APP XML BABELTRACE2

records tc-fork-app (a fork, both sides with a buffer object of the same
handle, the child with a failed call) on kfdsim, exports each process's
trace with `kfdtrace export --ctf`, merges them in time order with
babeltrace2, runs the analysis's CTF state provider over the stream with
tc_interp.py and checks that the processes' state stays apart; that each
thread's call state (Processes/<pid>/Threads/<tid>, and its "api" child)
is the call's name exactly from the entry to the exit of its calls, and
that the latency pattern's segments are the calls, both against
`kfdtrace dump --json` of the same traces; and that the export has one
kfd:call_begin per call, at its entry, in time order.
"""
import json
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


def calls_of(kfdtrace, path):
    """The ioctls and API calls of a trace, as dump --json has them, with
    times in the export's time base (the clock's offset from info)."""
    info = json.loads(run([kfdtrace, 'info', '--json', path]))
    off = int(str(info['start_realtime_ns']), 0) - \
        int(str(info['start_monotonic_ns']), 0)
    calls = []
    for line in run([kfdtrace, 'dump', '--json', path]).splitlines():
        r = json.loads(line)
        if r['type'] == 'ioctl':
            name, kind = 'kfd:' + (r.get('event') or 'unknown_ioctl'), 'ioctl'
        elif r['type'] == 'api_call':
            name, kind = r['name'], 'api'
        else:
            continue
        calls.append({'pid': info['pid'], 'tid': r['tid'], 'seq': r['seq'],
                      'begin': r['ts'] + off, 'dur': r.get('dur_ns', 0),
                      'name': name, 'kind': kind})
    return calls


def intervals(changes, key):
    """[(begin, end, value)] of the non-null values of @key, from the
    provider's changes (changes at one time: the last one holds)."""
    at = {}
    for t, k, v in changes:
        if k == key:
            at[t] = v
    ts = sorted(at)
    out = []
    for i, t in enumerate(ts):
        if at[t] is not None:
            out.append((t, ts[i + 1] if i + 1 < len(ts) else None, at[t]))
    return out


def check_calls(xml, events, prov, calls, fails):
    """Entries, per-thread call state and latency segments against calls."""
    # One entry per call, at its entry; time never goes back.
    begins = [e for e in events if e[1] == 'kfd:call_begin']
    got = sorted((e[2]['pid'], e[2]['tid'], e[2]['seq'], e[0], e[3]['name'],
                  e[3]['kind'], e[3]['begin_ns'], e[3]['end_ns'],
                  e[3]['dur_ns']) for e in begins)
    want = sorted((c['pid'], c['tid'], c['seq'], c['begin'], c['name'],
                   c['kind'], c['begin'], c['begin'] + c['dur'], c['dur'])
                  for c in calls)
    if got != want:
        fails.append('call_begin events differ from the calls: %d vs %d, '
                     'first difference %s' %
                     (len(got), len(want),
                      next(((g, w) for g, w in zip(got, want) if g != w),
                           None)))
    if any(b[0] < a[0] for a, b in zip(events, events[1:])):
        fails.append('the merged stream goes back in time')
    for pid in sorted({c['pid'] for c in calls}):
        for tid in sorted({c['tid'] for c in calls if c['pid'] == pid}):
            for kind, sub in (('ioctl', ()), ('api', ('api',))):
                key = ('Processes', str(pid), 'Threads', str(tid)) + sub
                got = intervals(prov.changes, key)
                want = sorted((c['begin'], c['begin'] + c['dur'], c['name'])
                              for c in calls if c['pid'] == pid and
                              c['tid'] == tid and c['kind'] == kind and
                              c['dur'] > 0)
                if got != want:
                    fails.append('%s: state %s, expected %s' %
                                 ('/'.join(key), got[:4], want[:4]))
    # No call state on a thread without calls.
    threads = {(str(c['pid']), str(c['tid'])) for c in calls}
    for t, k, v in prov.changes:
        if v is not None and k[0] == 'Processes' and len(k) >= 4 and \
                k[2] == 'Threads' and (len(k) == 4 or k[4:] == ('api',)) \
                and (k[1], k[3]) not in threads:
            fails.append('call state on %s without calls' % '/'.join(k))
    # The latency pattern: a segment per call, its name and duration.
    segs = tc_interp.PatternProvider(xml, 'org.kfdtrace.tc.latency').run(events)
    got = sorted((f['pid'], f['tid'], f['seq'], n, b, e - b, f['kind'],
                  f['ret'] is not None) for n, b, e, f in segs)
    want = sorted((c['pid'], c['tid'], c['seq'], c['name'], c['begin'],
                   c['dur'], c['kind'], True) for c in calls)
    if got != want:
        fails.append('segments differ from the calls: %d vs %d, first '
                     'difference %s' %
                     (len(got), len(want),
                      next(((g, w) for g, w in zip(got, want) if g != w),
                           None)))
    return len(segs)


def main():
    kfdtrace, app, xml, bt2 = sys.argv[1:5]
    fails = []
    with tempfile.TemporaryDirectory(prefix='kfdtrace-tc-exp-') as work:
        out = os.path.join(work, 'app.kfdtrace')
        # --api: the thunk's hsaKmt* calls too, spans around their ioctls.
        child = int(run([kfdtrace, 'record', '-o', out, '--sim', '--api',
                         '--', app])
                    .split()[-1])
        # The child's trace: app.<pid>.kfdtrace or app-stem.<pid>.kfdtrace.
        traces = sorted(f for f in os.listdir(work) if f.endswith('.kfdtrace'))
        child_tr = [f for f in traces if f != 'app.kfdtrace' and str(child) in f]
        if 'app.kfdtrace' not in traces or len(child_tr) != 1:
            sys.exit('traces: %s (child %d)' % (traces, child))
        dirs, calls = [], []
        for i, t in enumerate(['app.kfdtrace', child_tr[0]]):
            d = os.path.join(work, 'ctf%d' % i)
            run([kfdtrace, 'export', '--ctf', d, os.path.join(work, t)])
            dirs.append(d)
            calls += calls_of(kfdtrace, os.path.join(work, t))
        # Seconds since the epoch: the time base of end_ns and begin_ns.
        events = tc_interp.parse_events(run([bt2, '--clock-seconds'] + dirs))
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
        nsegs = check_calls(xml, events, prov, calls, fails)
        print('%d events, pids %d and %d, shared live handles %s, %d state '
              'changes, %d calls (%d API), %d latency segments' %
              (len(events), parent, child, sorted(hex(h) for h in same),
               len(prov.changes), len(calls),
               sum(c['kind'] == 'api' for c in calls), nsegs))
    for f in fails:
        print('FAIL:', f, file=sys.stderr)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
