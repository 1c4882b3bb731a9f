#!/usr/bin/env bash
# The main job: record a ROCr workload (Debian's rocminfo, on AMD's thunk)
# on the built-in simulator, summarize the trace, replay it on a fresh
# simulated device with every result checked, and verify the replay against
# the capture with `kfdtrace diff`.
#
# Run scripts/setup.sh first. KFDTRACE_PROFILE picks the simulated device
# (default mi210); files go to $KFDTRACE_DEMO_DIR or a new temp dir.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${KFDTRACE_BUILD:-$top/build}
kfdtrace=$build/tools/kfdtrace/kfdtrace
profile=${KFDTRACE_PROFILE:-mi210}
dir=${KFDTRACE_DEMO_DIR:-$(mktemp -d)}
mkdir -p "$dir"
capture=$dir/rocminfo.kfdtrace
replayed=$dir/replay.kfdtrace
rm -f "$capture" "$replayed"

echo "== record: rocminfo on a simulated $profile"
"$kfdtrace" record -o "$capture" --sim="$profile" -- rocminfo >"$dir/rocminfo.out"
echo "rocminfo agents:"
grep -E '^  Name:' "$dir/rocminfo.out" | sed 's/^ */  /' | sort | uniq -c

echo
echo "== info"
"$kfdtrace" info "$capture"

echo
echo "== stats"
"$kfdtrace" stats "$capture"

echo
echo "== the first KFD requests"
# sed reads to the end, unlike head: under pipefail a reader that closes
# the pipe early would kill dump with SIGPIPE, depending on timing.
"$kfdtrace" dump --filter ioctl "$capture" | sed -n 1,12p

echo
echo "== replay on a fresh simulated $profile, every output field checked"
"$kfdtrace" replay "$capture" --sim="$profile" --verify=strict --record "$replayed"

echo
echo "== verify: capture and replay, aligned by handle, id and fd mapping"
"$kfdtrace" diff "$capture" "$replayed"

echo
echo "== report"
"$kfdtrace" report "$capture" -o "$dir/report.html"
echo "files in $dir: capture, replay trace, report.html (open it in a browser)"
