#!/usr/bin/env bash
# Run every test: set up and build (scripts/setup.sh), run the meson test
# suites, then run the fuzz targets for a bounded time with clang.
#
# KFDTRACE_FUZZ_SECONDS sets how long each fuzz target runs (default 30).
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

# libFuzzer needs clang; each target runs its corpus and then explores for
# a bounded time. Crashes fail the run and leave their input in the build dir.
if command -v clang >/dev/null 2>&1; then
	t=$SECONDS
	fuzz_build=$build-fuzz
	if [ -f "$fuzz_build/build.ninja" ]; then
		meson setup --reconfigure "$fuzz_build" "$top" >/dev/null
	else
		CC=clang meson setup "$fuzz_build" "$top" -Dfuzz=true \
			-Dbuildtype=debug >/dev/null
	fi
	ninja -C "$fuzz_build"
	echo "test.sh: fuzz build: $((SECONDS - t)) s"
	t=$SECONDS
	seconds=${KFDTRACE_FUZZ_SECONDS:-30}
	for target in "$fuzz_build"/tests/fuzz/*_fuzz; do
		[ -x "$target" ] || continue
		name=$(basename "$target")
		corpus="$top/tests/fuzz/corpus/${name%_fuzz}"
		work=$(mktemp -d)
		cp -r "$corpus"/. "$work"/ 2>/dev/null || true
		echo "fuzz: $name for ${seconds}s"
		(cd "$fuzz_build" && "$target" -max_total_time="$seconds" \
			-max_len=65536 -print_final_stats=1 "$work" 2>&1 | tail -n 12)
		rm -rf "$work"
	done
	echo "test.sh: fuzz runs: $((SECONDS - t)) s"
fi
echo "all tests passed"
