#!/usr/bin/env bash
# Fuzzing, the last part of scripts/test.sh: a clang -Dfuzz=true build of
# the libFuzzer targets (tests/fuzz), then each target over a copy of its
# seed corpus (tests/fuzz/corpus/<name>/) and exploring for a bounded time,
# KFDTRACE_FUZZ_JOBS targets at a time (one per core).
#
# Fails if any target finds a crash, leak, timeout or out-of-memory: the
# input is kept in <fuzz build>/fuzz-artifacts/<name>/ and the script
# prints the command that reproduces it and where to add it to the seed
# corpus (the regression test replays the corpus in every test run).
#
#   KFDTRACE_FUZZ_SECONDS  seconds each target explores (default 60; longer
#                          runs on demand, e.g. 3600)
#   KFDTRACE_FUZZ_JOBS     targets run at once (default: the number of cores)
#   KFDTRACE_FUZZ_TARGETS  names to run, e.g. "decode trace_reader" (default all)
#   KFDTRACE_BUILD         the main build directory (default build/)
#   KFDTRACE_FUZZ_BUILD    this build's directory (default <main build>-fuzz)
set -euo pipefail

# shellcheck source=scripts/ci-lib.sh
. "$(dirname "$0")/ci-lib.sh"
top=$ci_top
build=${KFDTRACE_BUILD:-$top/build}
fuzz_build=${KFDTRACE_FUZZ_BUILD:-$build-fuzz}
seconds=${KFDTRACE_FUZZ_SECONDS:-60}
jobs=${KFDTRACE_FUZZ_JOBS:-$(nproc)}
t0=$SECONDS

if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: clang is not installed (scripts/setup.sh installs it)" >&2
	exit 1
fi
CC=clang ci_setup "$fuzz_build" -Dfuzz=true -Dbuildtype=debug
# Only the libFuzzer programs and what they load at run time (the
# babeltrace2 plugin: whatever the suite's corpus tests depend on, not
# their regression drivers).
build_targets=$(ci_suite_targets "$fuzz_build" fuzz --no-test-programs \
	--executables-ending _fuzz)
# shellcheck disable=SC2086
ninja -C "$fuzz_build" --quiet $build_targets
echo "fuzz: build: $((SECONDS - t0)) s"

targets=()
for t in "$fuzz_build"/tests/fuzz/*_fuzz; do
	[ -x "$t" ] || continue
	name=$(basename "$t" _fuzz)
	if [ -n "${KFDTRACE_FUZZ_TARGETS:-}" ] &&
	   [[ " $KFDTRACE_FUZZ_TARGETS " != *" $name "* ]]; then
		continue
	fi
	targets+=("$name")
done
if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz: no targets in $fuzz_build/tests/fuzz" >&2
	exit 1
fi

out=$fuzz_build/fuzz-runs
artifacts=$fuzz_build/fuzz-artifacts
rm -rf "$out" "$artifacts"
mkdir -p "$out" "$artifacts"

# One target: its seed corpus copied into a working corpus (new inputs go
# there, not into the source tree), its output in <name>.log, its exit
# status in <name>.rc. -timeout: one input running that long is a hang.
run_target() {
	local name=$1 rc=0
	local work=$out/$name.corpus

	mkdir -p "$work" "$artifacts/$name"
	cp -r "$top/tests/fuzz/corpus/$name"/. "$work"/ 2>/dev/null || true
	(cd "$fuzz_build" && exec "tests/fuzz/${name}_fuzz" -max_total_time="$seconds" \
		-timeout=30 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$artifacts/$name/" "$work") >"$out/$name.log" 2>&1 || rc=$?
	echo "$rc" >"$out/$name.rc"
}

count_files() {
	local f=("$1"/*)

	[ -e "${f[0]}" ] && echo ${#f[@]} || echo 0
}

t1=$SECONDS
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, $jobs at a time: ${targets[*]}"
running=0
for name in "${targets[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	run_target "$name" &
	running=$((running + 1))
done
wait

status=0
for name in "${targets[@]}"; do
	rc=$(cat "$out/$name.rc" 2>/dev/null || echo missing)
	log=$out/$name.log
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	seeds=$(count_files "$top/tests/fuzz/corpus/$name")
	now=$(count_files "$out/$name.corpus")
	if [ "$rc" = 0 ]; then
		echo "fuzz: $name: passed, ${runs:-?} inputs run, corpus $seeds -> $now files"
		continue
	fi
	status=1
	echo "fuzz: $name: FAILED (exit status $rc), ${runs:-?} inputs run; the report:"
	grep -E 'ERROR:|SUMMARY:|^ *#[0-3] 0x|deadly signal|ALARM|out-of-memory|leak of|Test unit written' \
		"$log" | head -n 40 | sed 's/^/    /' || true
	found=0
	for f in "$artifacts/$name"/*; do
		[ -f "$f" ] || continue
		found=1
		echo "fuzz: $name: reproducer: $f"
		echo "      reproduce: (cd $fuzz_build && tests/fuzz/${name}_fuzz $f)"
		echo "      once fixed, keep it: cp $f tests/fuzz/corpus/$name/<what it found>"
	done
	[ "$found" = 1 ] || echo "fuzz: $name: no reproducer written; full log $log"
done
echo "fuzz: runs: $((SECONDS - t1)) s"
echo "fuzz: total $((SECONDS - t0)) s, $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
