#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A GoogleTest program of a ROCm library's test package, inside the modern
# root on kfdsim, judged on completion, recorded and replayed:
#   run_gtest.sh KFDTRACE PROFILE VALUE_CHECK PROGRAM [ARG...]
# Where its meson test runs it with KFDSIM_SHADERS=0 (the interpreter is
# too slow for that library), a library's kernels compute nothing and its
# value checks fail. The program must still run every test to the end:
# exit 0 or 1 (not a signal or a hang), print GoogleTest's "N tests from
# M test suites ran", and every failure it reports must be a value check,
# the line after "...: Failure" matching VALUE_CHECK (grep -E); a
# VALUE_CHECK of "-" allows no failure at all (shaders on). A failure
# of anything else (a HIP or library status) is a failure here. It runs
# under `kfdtrace record`: the trace must hold every ioctl the device
# answered and replay with a strict match, serially and with --threads.
set -u

here=$(dirname "$0")
. "$here/../common/answered.sh"
kfdtrace=$1
profile=$2
value_check=$3
shift 3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
trace=$work/run.kfdtrace
KFDSIM_IOCTL_COUNT=$work/count "$here/in_root.sh" timeout 600 \
	"$kfdtrace" record -o "$trace" --sim="$profile" -- "$@" >"$out" 2>&1
rc=$?
[ "$rc" -eq 77 ] && { cat "$out"; exit 77; }
tail -n 5 "$out"
if [ "$rc" -gt 1 ]; then
	echo "FAIL: $* exited $rc on $profile"
	exit 1
fi
ran=$(grep -E '^\[==========\] [0-9]+ tests? from [0-9]+ test suites? ran' "$out")
if [ -z "$ran" ]; then
	echo "FAIL: $* did not finish its tests"
	exit 1
fi
failures=$(grep -c ': Failure$' "$out")
if [ "$value_check" = - ]; then
	if [ "$failures" -ne 0 ]; then
		grep -A3 ': Failure$' "$out" | head -n 20
		echo "FAIL: $failures checks failed; with shaders on none may"
		exit 1
	fi
	values=0
else
	values=$(grep -A1 ': Failure$' "$out" | grep -cE -- "$value_check")
fi
echo "$ran; $failures failed checks, $values of them value checks"
if [ "$failures" -ne "$values" ]; then
	grep -A3 ': Failure$' "$out" | grep -vE -- "$value_check" | head -n 20
	echo "FAIL: a check other than a value check failed"
	exit 1
fi
check_answered "$kfdtrace" "$work/count" "$work"/run*.kfdtrace || exit 1
for mode in "" --threads; do
	"$kfdtrace" replay "$work"/run*.kfdtrace --sim="$profile" $mode >"$work/replay" 2>&1
	rc=$?
	# A --threads wait time-out in a rare interleaving of auto-reset
	# events (docs/replay.md, Limits): said, and replayed once more.
	if [ "$rc" -ne 0 ] && [ "$mode" = --threads ] &&
	   grep -qE '^divergence at #[0-9]+ WAIT_EVENTS: wait_result: captured 0x0, replayed 0x1$' \
		"$work/replay"; then
		grep -m1 '^divergence' "$work/replay"
		echo "note: the --threads wait time-out of docs/replay.md, Limits; replaying again"
		"$kfdtrace" replay "$work"/run*.kfdtrace --sim="$profile" $mode >"$work/replay" 2>&1
		rc=$?
	fi
	if [ "$rc" -ne 0 ] || ! grep -q 'result:[[:space:]]*match (strict)' "$work/replay"; then
		tail -n 20 "$work/replay"
		echo "FAIL: replay $mode exited $rc without a strict match"
		exit 1
	fi
done
echo "recorded complete; replayed with a strict match, serially and with --threads"
exit 0
