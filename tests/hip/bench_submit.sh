#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The cost of submission capture: bench_cp (launch rate, launch round
# trip, SDMA copy bandwidth, idle CPU) recorded on kfdsim without and with
# --submissions, in one run, with the ratios and the host's system call
# and rdtsc cost (printed by bench_cp) beside them.
#   bench_submit.sh KFDTRACE BENCH_CP
#
# The two modes alternate, BENCH_ROUNDS times each (default 2), and each
# figure keeps its best: on a shared host, noise only ever makes a figure
# worse. The CPU each kind of thread spends a launch and a round trip
# (bench_cp's launch_cpu_ns, round_trip_cpu_ns) is printed beside them,
# each field its least. Load moves it less than the rates, but a thread
# that waits by spinning (HIP's synchronize, kfdsim's engine) still spends
# more while another is slow; it is not a target. bench_cp's own absolute targets (exit 1) do not fail this
# benchmark; the capture's do: round trip <= 2x, launches and SDMA
# bandwidth >= 0.9x, idle CPU <= 1.2x (or within 0.2 points of a core),
# and the trace with --submissions=full (bench_cp repeats one launch
# 22,000 times) at most 2x the size of the one with --submissions.
set -u
kfdtrace=$1
bench=$2
rounds=${BENCH_ROUNDS:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

i=0
while [ "$i" -lt "$rounds" ]; do
	for mode in plain submissions; do
		set -- --sim=mi210
		[ "$mode" = submissions ] && set -- "$@" --submissions
		"$kfdtrace" record "$@" -o "$dir/$mode.kft" -- "$bench" \
			>"$dir/$mode.$i.out" 2>&1
		rc=$?
		# 1: bench_cp missed one of its own targets; the figures stand.
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
			cat "$dir/$mode.$i.out"
			echo "FAIL: bench_cp under record ($mode)"
			exit 1
		fi
	done
	i=$((i + 1))
done
# The same program with --submissions=full: its launches repeat the same
# arguments, which the trace must hold once (content-addressed).
"$kfdtrace" record --sim=mi210 --submissions=full -o "$dir/full.kft" -- "$bench" \
	>"$dir/full.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
	cat "$dir/full.out"
	echo "FAIL: bench_cp under record (full)"
	exit 1
fi
"$kfdtrace" dump "$dir/full.kft" | grep -o 'memory([a-z_]*,[^)]*)' |
	sed -E 's/memory\(([a-z_]*),.*(stored earlier).*/\1 ref/; s/memory\(([a-z_]*),.*(changed from the last).*/\1 delta/; s/memory\(([a-z_]*),.*/\1 stored/' |
	sort | uniq -c >"$dir/full.mem"
grep -E '^host_' "$dir/plain.0.out"
python3 - "$dir" "$rounds" <<'PY'
import re, sys
d, rounds = sys.argv[1], int(sys.argv[2])
# higher is better for these; lower for the others
up = {'launches_per_s', 'sdma_copy_gb_s'}
def figures(mode):
    best = {}
    for i in range(rounds):
        for line in open('%s/%s.%d.out' % (d, mode, i)):
            m = re.match(r'(launches_per_s|launch_round_trip_us|sdma_copy_gb_s|idle_cpu_percent): ([0-9.]+)', line)
            if m:
                k, v = m.group(1), float(m.group(2))
                if k not in best or (v > best[k] if k in up else v < best[k]):
                    best[k] = v
    return best
a, b = figures('plain'), figures('submissions')
# CPU an op by thread (bench_cp, from schedstat): each field's least.
def cpu(mode, what):
    best = {}
    for i in range(rounds):
        for line in open('%s/%s.%d.out' % (d, mode, i)):
            if line.startswith(what + ': '):
                for k, v in re.findall(r'([A-Za-z_-]+) ([0-9.]+)', line.split('(')[0]):
                    v = float(v)
                    if k not in best or v < best[k]:
                        best[k] = v
    return best
for what in ('launch_cpu_ns', 'round_trip_cpu_ns'):
    ca, cb = cpu('plain', what), cpu('submissions', what)
    if 'total' in ca and 'total' in cb:
        print('%s: %.1f recorded, %.1f with --submissions (%+.1f: %s)' %
              (what, ca['total'], cb['total'], cb['total'] - ca['total'],
               ', '.join('%s %+.1f' % (k, cb[k] - ca.get(k, 0))
                         for k in cb if k != 'total')))
ratio = {}
for k in ('launches_per_s', 'launch_round_trip_us', 'sdma_copy_gb_s', 'idle_cpu_percent'):
    ratio[k] = b[k] / a[k] if a[k] else 0
    print('%s: %.2f recorded, %.2f with --submissions (ratio %.2f)' % (k, a[k], b[k], ratio[k]))
import os
sub = os.path.getsize('%s/submissions.kft' % d)
full = os.path.getsize('%s/full.kft' % d)
mem = {}
for line in open('%s/full.mem' % d):
    n, kind, how = line.split()
    mem[(kind, how)] = int(n)
print('trace_bytes: %d with --submissions, %d with --submissions=full (ratio %.2f)' % (sub, full, full / sub))
for kind in ('code', 'kernarg', 'signal', 'copy_source'):
    print('memory %s: %d stored, %d referring to bytes stored earlier, '
          '%d as the words changed' %
          (kind, mem.get((kind, 'stored'), 0), mem.get((kind, 'ref'), 0),
           mem.get((kind, 'delta'), 0)))
bad = []
if full > 2 * sub:
    bad.append('=full trace above 2x')

if ratio['launch_round_trip_us'] > 2:
    bad.append('round trip above 2x')
if ratio['launches_per_s'] < 0.9:
    bad.append('launches below 0.9x')
if ratio['sdma_copy_gb_s'] < 0.9:
    bad.append('SDMA bandwidth below 0.9x')
if ratio['idle_cpu_percent'] > 1.2 and b['idle_cpu_percent'] - a['idle_cpu_percent'] > 0.2:
    bad.append('idle CPU above 1.2x')
print('capture targets: %s' % ('; '.join(bad) if bad else 'met'))
sys.exit(1 if bad else 0)
PY
