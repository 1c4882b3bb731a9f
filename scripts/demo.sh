#!/usr/bin/env bash
# The main job: record a ROCr workload (Debian's rocminfo on AMD's thunk) on
# the built-in simulator, then summarize the trace.
#
# Run scripts/setup.sh first. KFDTRACE_PROFILE picks the simulated device
# (default mi210); the trace goes to $KFDTRACE_DEMO_OUT or a temp dir.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${KFDTRACE_BUILD:-$top/build}
kfdtrace=$build/tools/kfdtrace/kfdtrace
profile=${KFDTRACE_PROFILE:-mi210}
out=${KFDTRACE_DEMO_OUT:-$(mktemp -d)/rocminfo.kfdtrace}

echo "== record: rocminfo on a simulated $profile"
"$kfdtrace" record -o "$out" --sim="$profile" -- rocminfo >"$out.rocminfo.txt"
grep -E '^\s+Name:\s+gfx' "$out.rocminfo.txt" | sort | uniq -c

echo
echo "== info"
"$kfdtrace" info "$out"

echo
echo "== stats"
"$kfdtrace" stats "$out"

echo
echo "== first KFD ioctls"
"$kfdtrace" dump --filter ioctl "$out" | head -n 25

echo
echo "trace: $out"
