#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The cost of submission capture: bench_cp (launch rate, launch round
# trip, SDMA copy bandwidth, idle CPU) recorded on kfdsim without and with
# --submissions, in one run, with the ratios and the host's system call
# and rdtsc cost (printed by bench_cp) beside them.
#   bench_submit.sh KFDTRACE BENCH_CP
set -u
kfdtrace=$1
bench=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

for mode in plain submissions; do
	set -- --sim=mi210
	[ "$mode" = submissions ] && set -- "$@" --submissions
	"$kfdtrace" record "$@" -o "$dir/$mode.kft" -- "$bench" >"$dir/$mode.out" 2>&1 || {
		cat "$dir/$mode.out"
		echo "FAIL: bench_cp under record ($mode)"
		exit 1
	}
done
grep -E '^host_' "$dir/plain.out"
python3 - "$dir/plain.out" "$dir/submissions.out" <<'PY'
import re, sys
def figures(path):
    f = {}
    for line in open(path):
        m = re.match(r'(launches_per_s|launch_round_trip_us|sdma_copy_gb_s|idle_cpu_percent): ([0-9.]+)', line)
        if m:
            f[m.group(1)] = float(m.group(2))
    return f
a, b = figures(sys.argv[1]), figures(sys.argv[2])
for k in ('launches_per_s', 'launch_round_trip_us', 'sdma_copy_gb_s', 'idle_cpu_percent'):
    print('%s: %.2f recorded, %.2f with --submissions (ratio %.2f)' % (k, a[k], b[k], b[k] / a[k] if a[k] else 0))
PY
