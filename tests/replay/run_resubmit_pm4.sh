#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Resubmission of PM4 queues: the PM4 program (tests/kfdsim/pm4_kmt.c, our
# thunk) recorded with --submissions=full on kfdsim (mi210). The replay
# publishes every captured doorbell again, writes the indirect buffers
# back (and the dispatch and atomic cases' code: 6 ranges), and matches (the
# end-of-pipe interrupt and the HW_EXCEPTION event complete the waits as
# captured); with --no-resubmit nothing sets the event the RELEASE_MEM
# case waits on, and the replay diverges.
#   run_resubmit_pm4.sh KFDTRACE PM4_KMT
set -u

kfdtrace=$1
prog=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export KFDSIM_PROFILE=mi210

if ! "$kfdtrace" record -o "$dir/t" --sim --submissions=full -- "$prog" \
		>"$dir/out" 2>&1 || ! grep -q '^pm4: all ok$' "$dir/out"; then
	cat "$dir/out"
	echo "the capture of $prog failed"
	exit 1
fi
"$kfdtrace" replay --sim "$dir/t" >"$dir/replay" 2>&1
rc=$?
cat "$dir/replay"
[ "$rc" -eq 0 ] || { echo "the replay failed ($rc)"; exit 1; }
# Every doorbell the capture recorded is published again.
n=$("$kfdtrace" dump "$dir/t" | grep -c '^\[[0-9]*\] +[0-9.]* submit(')
[ "$n" -gt 0 ] || { echo "the capture holds no doorbell"; exit 1; }
for want in "$n doorbells of captured packets published again" \
	    '6 captured ranges written back' 'result:      match'; do
	grep -qF -- "$want" "$dir/replay" || { echo "no '$want'"; exit 1; }
done
"$kfdtrace" replay --sim --no-resubmit "$dir/t" >"$dir/plain" 2>&1
grep -qF 'result:      diverged' "$dir/plain" || {
	cat "$dir/plain"
	echo "without resubmission the replay should diverge"
	exit 1
}
exit 0
