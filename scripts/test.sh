#!/usr/bin/env bash
# Run every test: set up and build (scripts/setup.sh), run the meson test
# suites, then run the fuzz targets for a bounded time with clang
# (scripts/ci-fuzz.sh).
#
# KFDTRACE_FUZZ_SECONDS sets how long each fuzz target runs (default 60;
# set it higher for a longer run on demand), KFDTRACE_FUZZ_JOBS how many
# run at once (default: one per core).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${KFDTRACE_BUILD:-$top/build}

# Each stage says how long it took (CI's time budget: docs/reliability.md).
t=$SECONDS
"$top/scripts/setup.sh"
echo "test.sh: setup and build: $((SECONDS - t)) s"

t=$SECONDS
meson test -C "$build" --print-errorlogs --num-processes 2
echo "test.sh: meson test: $((SECONDS - t)) s"

# libFuzzer targets (clang), one per core at a time for KFDTRACE_FUZZ_SECONDS
# each (scripts/ci-fuzz.sh); a crash fails the run and its input is kept.
t=$SECONDS
"$top/scripts/ci-fuzz.sh"
echo "test.sh: fuzzing: $((SECONDS - t)) s"
echo "all tests passed"
