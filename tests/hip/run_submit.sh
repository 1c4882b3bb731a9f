#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Submission capture (docs/submissions.md): hip_submit recorded with
# `kfdtrace record --submissions` on PROFILE. The dump must show its 200
# kernel dispatches with their grid and work-group sizes (50 of each of
# the four streams' shapes), barrier packets naming other queues' signals
# and SDMA copies of the bytes it moved; stats must count the packets per
# queue, Perfetto and the HTML report must have a track per queue, the CTF
# export a kfd:submit event per doorbell. Its replay
# publishes every packet again, which the engine runs, and records them. Recorded without --submissions, the trace has no submit record.
#   run_submit.sh KFDTRACE PROG PROFILE
set -u

kfdtrace=$1
prog=$2
profile=$3

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

# HIP leaves out the dependency on an event that has completed, and
# kfdsim's kernels complete within microseconds: whether a
# cross-stream wait becomes a barrier naming another queue's signal is a
# race of the program, not of the capture. So a run without such a
# barrier is recorded again, up to 8 times (about 1 run in 3 has none).
for try in 1 2 3 4 5 6 7 8; do
	if ! "$kfdtrace" record --sim="$profile" --submissions -o "$dir/s.kft" -f -- "$prog" \
		>"$dir/rec" 2>&1 || ! grep -q '^PASS: ' "$dir/rec"; then
		cat "$dir/rec"
		echo "FAIL: the capture of $prog with --submissions"
		exit 1
	fi
	"$kfdtrace" dump --json "$dir/s.kft" >"$dir/s.json" || fail=1
	python3 - "$dir/s.json" <<'PY' && break
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    for p in r.get('packets', []) if r['type'] == 'submit' else []:
        f = p['fields']
        if p['name'] == 'BARRIER_AND' and any(
                f['dep_signal[%d]' % i] not in (0, '0x0') for i in range(5)):
            sys.exit(0)
sys.exit(1)
PY
	echo "note: run $try had no cross-queue barrier (every awaited event had completed)"
done
cat "$dir/rec"
python3 - "$dir/s.json" <<'PY' || fail=1
import collections, json, sys
shapes = collections.Counter()
kinds = collections.Counter()
deps = 0
copied = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['type'] != 'submit':
        continue
    for p in r['packets']:
        f = p['fields']
        kinds[p['name']] += 1
        if p['name'] == 'KERNEL_DISPATCH':
            shapes[(f['grid_size_x'], f['workgroup_size_x'])] += 1
        elif p['name'] == 'BARRIER_AND':
            deps += any(f['dep_signal[%d]' % i] not in (0, '0x0') for i in range(5))
        elif p['name'] == 'COPY_LINEAR':
            copied[r['queue']] += f['bytes_minus_1'] + 1
print('packets:', dict(kinds))
ok = True
for i in range(4):
    n = shapes[(4096 << i, 64 << i)]
    print('stream %d: %d dispatches of grid %d, work-group %d' % (i, n, 4096 << i, 64 << i))
    ok &= n == 50
print('barriers naming another queue\'s signal:', deps)
ok &= deps >= 1
big = sorted(v for v in copied.values() if v >= 1 << 20)
print('SDMA copies: %s bytes per queue' % dict(copied))
ok &= len(big) >= 2
if not ok:
    print('FAIL: the dump does not show what hip_submit submitted')
sys.exit(0 if ok else 1)
PY
"$kfdtrace" stats "$dir/s.kft" >"$dir/stats" 2>&1
if ! grep -q '^submissions: ' "$dir/stats" ||
   [ "$(grep -c 'KERNEL_DISPATCH 50' "$dir/stats")" -lt 4 ]; then
	cat "$dir/stats"
	echo "FAIL: stats does not count 50 dispatches on each stream's queue"
	fail=1
else
	sed -n '/^submissions: /,/^$/p' "$dir/stats"
fi
# Perfetto: one track per queue, the doorbells on it.
"$kfdtrace" export --perfetto "$dir/s.pftrace.json" "$dir/s.kft" >/dev/null 2>&1 || fail=1
python3 - "$dir/s.pftrace.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ev = d['traceEvents'] if isinstance(d, dict) else d
tracks = {e['tid']: e['args']['name'] for e in ev
          if e.get('ph') == 'M' and str(e['args'].get('name', '')).startswith('queue ')}
per = {}
for e in ev:
    if e.get('cat') == 'submit':
        per[e['tid']] = per.get(e['tid'], 0) + 1
print('perfetto queue tracks:', sorted(tracks.values()))
ok = len(tracks) >= 6 and all(t in per for t in tracks)
if not ok:
    print('FAIL: perfetto has no track per queue with its doorbells')
sys.exit(0 if ok else 1)
PY
# The HTML report: a queues section, a track and a table row per queue.
"$kfdtrace" report -o "$dir/r.html" "$dir/s.kft" >/dev/null 2>&1 || fail=1
rows=$(grep -o '<section id="queues">.*</section>' "$dir/r.html" |
       grep -o '<tr><td>[0-9]*</td><td>0x' | wc -l)
echo "report: $rows queues in the queues section"
if [ "$rows" -lt 6 ] || ! grep -q 'class="tick"' "$dir/r.html"; then
	echo "FAIL: the report has no track per queue"
	fail=1
fi
# CTF (babeltrace2): a kfd:submit event per doorbell, packets decoded.
if command -v babeltrace2 >/dev/null 2>&1; then
	"$kfdtrace" export --ctf "$dir/ctf" "$dir/s.kft" >/dev/null 2>&1 || fail=1
	babeltrace2 "$dir/ctf" >"$dir/ctf.txt" 2>&1 || fail=1
	want=$(grep -c '"type":"submit"' "$dir/s.json")
	got=$(grep -c 'kfd:submit' "$dir/ctf.txt")
	echo "ctf: $got of $want doorbells as kfd:submit events"
	if [ "$got" -ne "$want" ] ||
	   ! grep -q 'kfd:submit: .*packets = \[ \[0\] = "KERNEL_DISPATCH{' "$dir/ctf.txt"; then
		echo "FAIL: the CTF export does not have every doorbell"
		fail=1
	fi
else
	echo "babeltrace2 is not installed: the CTF check is not run (scripts/setup.sh installs it)"
fi
# Resubmission: the replay publishes every packet again (serial and
# --threads), the engine runs them all, and the replay's own recording has
# the same packets on each queue, in the same order. A capture without
# =full holds no code: where kfdsim runs shaders (gfx90a) a replayed
# dispatch would fault at its first instruction fetch, as a GPU would, so
# these replays complete dispatches unrun (KFDSIM_SHADERS=0); the =full
# replay below runs them.
for mode in serial threads; do
	set -- --sim="$profile" --record "$dir/r-$mode.kft"
	[ "$mode" = threads ] && set -- "$@" --threads
	KFDSIM_SHADERS=0 "$kfdtrace" replay "$@" "$dir/s.kft" >"$dir/rep" 2>&1
	if ! grep -q '^  result:      match (strict)' "$dir/rep" ||
	   ! grep -q 'doorbells of captured packets published again, 0 not run' "$dir/rep"; then
		cat "$dir/rep"
		echo "FAIL: the replay ($mode) did not resubmit every packet"
		fail=1
		continue
	fi
	grep '^  queues: ' "$dir/rep"
	"$kfdtrace" dump --json "$dir/r-$mode.kft" >"$dir/r.json" || fail=1
	python3 - "$dir/s.json" "$dir/r.json" <<'PY' || fail=1
import json, sys
def queues(path):
    q = {}
    for line in open(path):
        r = json.loads(line)
        if r['type'] != 'submit':
            continue
        seq = q.setdefault((r['gpu_id'], r['queue']), [])
        for p in r['packets']:
            f = p['fields']
            seq.append((p['name'], f.get('grid_size_x'), f.get('workgroup_size_x'),
                        f.get('bytes_minus_1')))
    return sorted(q.values())
a, b = queues(sys.argv[1]), queues(sys.argv[2])
print('replayed packets per queue:', [len(x) for x in b])
if a != b:
    print('FAIL: the replay published other packets than the capture')
sys.exit(0 if a == b else 1)
PY
done
# --submissions=full: the memory the packets reference too. Its replay
# writes it back, so each SDMA copy moves the captured bytes (checked at
# the destination). A limit leaves memory out, said so in the records.
if ! "$kfdtrace" record --sim="$profile" --submissions=full -o "$dir/f.kft" -- "$prog" \
	>"$dir/recf" 2>&1 || ! grep -q '^PASS: ' "$dir/recf"; then
	cat "$dir/recf"
	echo "FAIL: the capture with --submissions=full"
	fail=1
else
	"$kfdtrace" dump "$dir/f.kft" >"$dir/f.txt" 2>&1
	for kind in code kernarg signal copy_source; do
		n=$(grep -c "memory($kind, " "$dir/f.txt")
		echo "memory records of $kind: $n"
		[ "$n" -gt 0 ] || { echo "FAIL: no $kind memory record"; fail=1; }
	done
	if ! grep -q 'memory(copy_source, 0x[0-9a-f]*, 1048576 bytes) <5a5a5a5a' "$dir/f.txt"; then
		echo "FAIL: no 1 MiB copy source holding what hip_submit copied"
		fail=1
	fi
	"$kfdtrace" replay --sim="$profile" "$dir/f.kft" >"$dir/repf" 2>&1
	if ! grep -q '^  result:      match (strict)' "$dir/repf" ||
	   ! grep -q ', 2 SDMA copies moved the captured bytes' "$dir/repf" ||
	   ! grep -q 'published again, 0 not run' "$dir/repf"; then
		cat "$dir/repf"
		echo "FAIL: the replay of the full capture"
		fail=1
	else
		grep -E '^  (queues|memory): ' "$dir/repf"
	fi
	"$kfdtrace" record --sim="$profile" --submissions=full --submissions-limit 65536 \
		-o "$dir/l.kft" -- "$prog" >/dev/null 2>&1
	if ! "$kfdtrace" dump "$dir/l.kft" 2>/dev/null | grep -q "left out: the capture's limit"; then
		echo "FAIL: --submissions-limit left nothing out"
		fail=1
	fi
fi
# Off by default: not one submit record.
"$kfdtrace" record --sim="$profile" -o "$dir/plain.kft" -- "$prog" >"$dir/rec2" 2>&1 ||
	{ cat "$dir/rec2"; fail=1; }
"$kfdtrace" dump "$dir/plain.kft" >"$dir/plain.txt" 2>&1 || fail=1
if grep -q 'submit(\|kfdtrace-submit' "$dir/plain.txt"; then
	echo "FAIL: a capture without --submissions has submit records"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "PASS: $prog's submissions recorded and decoded on $profile"
exit "$fail"
