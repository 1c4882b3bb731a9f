#!/usr/bin/env bash
# Run every test: set up and build (scripts/setup.sh), run the meson test
# suites (and fail if they left kfdsim machine state in /dev/shm), then run
# the fuzz targets for a bounded time with clang (scripts/ci-fuzz.sh).
#
# KFDTRACE_FUZZ_SECONDS sets how long each fuzz target runs (default 60;
# set it higher for a longer run on demand), KFDTRACE_FUZZ_JOBS how many
# run at once (default: one per core). KFDTRACE_TC_XSD_DIR names the
# directory of Trace Compass's XML analysis schemas for the tracecompass-xsd
# test; when unset, the checkout's ../shared/tracecompass-xsd if it exists
# (scripts/ci-lib.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/ci-lib.sh
. "$top/scripts/ci-lib.sh"
build=${KFDTRACE_BUILD:-$top/build}

# Each stage says how long it took (CI's time budget: docs/reliability.md).
t=$SECONDS
"$top/scripts/setup.sh"
echo "test.sh: setup and build: $((SECONDS - t)) s"

# kfdsim machine state files (/dev/shm/kfdsim-*, docs/kfdsim.md) that no
# live process uses: every process of a machine holds a shared flock() on
# its file, and the header names the process that made it (a 32-bit pid at
# byte 16: the header table in docs/kfdsim.md).
stale_machines() {
	local f owner
	for f in /dev/shm/kfdsim-*; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		flock --nonblock --exclusive "$f" true 2>/dev/null || continue
		owner=$(od -An -t d4 -j 16 -N 4 "$f" 2>/dev/null | tr -d ' ')
		if [ -n "$owner" ] && [ "$owner" -gt 0 ] 2>/dev/null &&
		   kill -0 "$owner" 2>/dev/null; then
			continue
		fi
		echo "$f"
	done
}

t=$SECONDS
shm_before=$(ls -d /dev/shm/kfdsim-* 2>/dev/null || true)
meson test -C "$build" --print-errorlogs --num-processes 2
echo "test.sh: meson test: $((SECONDS - t)) s"

# Every run removes its machine; a killed one's is reclaimed by the next.
# What the tests left behind, and was not there before, is a leak.
leaked=$(comm -13 <(echo "$shm_before" | sort) <(stale_machines | sort) | sed '/^$/d')
if [ -n "$leaked" ]; then
	echo "test.sh: the tests left simulated machines' state in /dev/shm:" >&2
	echo "$leaked" >&2
	exit 1
fi

# libFuzzer targets (clang), one per core at a time for KFDTRACE_FUZZ_SECONDS
# each (scripts/ci-fuzz.sh); a crash fails the run and its input is kept.
t=$SECONDS
"$top/scripts/ci-fuzz.sh"
echo "test.sh: fuzzing: $((SECONDS - t)) s"
echo "all tests passed"
