#!/bin/sh
# SPDX-License-Identifier: MIT
#
# What one doorbell costs the ringing thread (bench_doorbell.c), recorded
# on kfdsim without and with --submissions, BENCH_ROUNDS times each
# (default 3), each figure its best. The trace with --submissions must
# hold one submit record per doorbell, none late: else the figure would
# not be what capture costs.
#   bench_doorbell.sh KFDTRACE BENCH_DOORBELL
set -u
kfdtrace=$1
bench=$2
rounds=${BENCH_ROUNDS:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

i=0
while [ "$i" -lt "$rounds" ]; do
	for mode in plain submissions; do
		set -- --sim=mi210
		[ "$mode" = submissions ] && set -- "$@" --submissions
		if ! "$kfdtrace" record "$@" -f -o "$dir/$mode.kft" -- "$bench" \
			>"$dir/$mode.$i.out" 2>&1; then
			cat "$dir/$mode.$i.out"
			echo "FAIL: bench_doorbell under record ($mode)"
			exit 1
		fi
	done
	i=$((i + 1))
done
rung=$(sed -n 's/^doorbells: //p' "$dir/submissions.0.out")
"$kfdtrace" dump "$dir/submissions.kft" | grep 'submit(' >"$dir/submits"
n=$(wc -l <"$dir/submits")
late=$(grep -c 'late' "$dir/submits")
if [ "$n" -ne "$rung" ] || [ "$late" -ne 0 ]; then
	echo "FAIL: $rung doorbells, $n submit records ($late late)"
	exit 1
fi
grep -E '^host_' "$dir/plain.0.out"
for mode in plain submissions; do
	cat "$dir/$mode".*.out | sed -n 's/^doorbell_ns: \([0-9.]*\) least, \([0-9.]*\) median.*/\1 \2/p' |
		sort -n | head -1 | {
		read -r least median
		echo "doorbell_ns ($mode): $least least, $median median"
	}
done
echo "submit records: $n for $rung doorbells, none late"
