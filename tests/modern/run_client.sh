#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A real client of the modern ROCm root, recorded on kfdsim and replayed:
#   run_client.sh [--record-only] KFDTRACE PROFILE OTHER_PROFILE EXPECT -- COMMAND [ARG...]
# 1. COMMAND runs inside the root (in_root.sh) under `kfdtrace record` on
#    PROFILE and exits 0; its output holds the line EXPECT (a regular
#    expression, grep -E), when EXPECT is not empty;
# 2. the trace is whole: `info` says "integrity: ok", with an END record,
#    and the trace files of the run hold every ioctl the device answered
#    (KFDSIM_IOCTL_COUNT, tests/common/answered.sh);
# 3. the run (its processes as a tree) replays with a strict match
#    serially and with --threads on PROFILE, and serially on
#    OTHER_PROFILE (another machine of the same GPU family) when that is
#    not empty;
# 4. emit-c's program of the first process builds with gcc -Wall
#    -Wextra -Werror and, when the run is that one process, exits 0
#    under `kfdtrace sim` on PROFILE.
# With --record-only, steps 1 and 2 only. RUN_CLIENT_INFO (lines of
# regular expressions) adds to step 2 what `info` of the run must show.
# Replay and emit-c run outside the root: they do not load ROCm.
set -u

here=$(dirname "$0")
. "$here/../common/answered.sh"
record_only=0
if [ "${1:-}" = --record-only ]; then
	record_only=1
	shift
fi
kfdtrace=$1
profile=$2
other=$3
expect=$4
shift 5

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trace=$work/client.kfdtrace
fail=0

KFDSIM_IOCTL_COUNT=$work/count \
	"$here/in_root.sh" "$kfdtrace" record -o "$trace" --sim="$profile" -- "$@" \
	>"$work/out" 2>&1
rc=$?
[ "$rc" -eq 77 ] && { cat "$work/out"; exit 77; }
if [ "$rc" -ne 0 ]; then
	cat "$work/out"
	echo "FAIL: $* exited $rc under record on $profile"
	exit 1
fi
if [ -n "$expect" ] && ! grep -Eq -- "$expect" "$work/out"; then
	cat "$work/out"
	echo "FAIL: the output of $* lacks /$expect/"
	fail=1
fi

"$kfdtrace" info "$trace" >"$work/info" 2>&1 || {
	cat "$work/info"; echo "FAIL: info exited $?"; exit 1; }
grep -Eq '^integrity:[[:space:]]+ok' "$work/info" || {
	cat "$work/info"; echo "FAIL: the trace is not whole"; fail=1; }
grep -Eq '^[[:space:]]+end[[:space:]]+1$' "$work/info" || {
	cat "$work/info"; echo "FAIL: the trace has no END record"; fail=1; }
# The run's files: the root's, and its children's (client.<pid>.kfdtrace).
children=$(ls "$work" | sed -n 's|^client\..*\.kfdtrace$|'"$work"'/&|p')
check_answered "$kfdtrace" "$work/count" "$trace" $children || fail=1
# RUN_CLIENT_INFO: lines (grep -E, one per line) that `info` of the run's
# files must hold, when set.
if [ -n "${RUN_CLIENT_INFO:-}" ]; then
	"$kfdtrace" info "$trace" $children >"$work/info-run" 2>&1
	echo "$RUN_CLIENT_INFO" | while IFS= read -r want; do
		grep -Eq -- "$want" "$work/info-run" || {
			cat "$work/info-run"; echo "FAIL: info lacks /$want/"; exit 1; }
	done || fail=1
fi
if [ "$record_only" -eq 1 ]; then
	[ "$fail" -eq 0 ] && echo "PASS: $* on $profile: recorded whole"
	exit "$fail"
fi

# Every file of the run: a program that forks is replayed as its tree.
replay() {
	"$kfdtrace" replay "$work"/client*.kfdtrace "$@" >"$work/replay" 2>&1
	rc=$?
	# The same race as emit-c's below, in the replay (docs/replay.md,
	# Event ages): said, and run once more.
	if [ "$rc" -ne 0 ] && grep -q 'the event was set more often live than in the capture' \
		"$work/replay"; then
		grep -m1 '^divergence at ' "$work/replay"
		echo "note: an event age ahead of the stand-ins' (docs/replay.md, Event ages); replaying again"
		"$kfdtrace" replay "$work"/client*.kfdtrace "$@" >"$work/replay" 2>&1
		rc=$?
	fi
	if [ "$rc" -ne 0 ] || ! grep -q 'result:[[:space:]]*match (strict)' "$work/replay"; then
		cat "$work/replay"
		echo "FAIL: replay $* exited $rc without a strict match"
		fail=1
	fi
}
replay --sim="$profile"
replay --sim="$profile" --threads
[ -n "$other" ] && replay --sim="$other"

# emit-c writes one process. Alone on the machine, a process of a run
# whose others also used the GPU sees other values (available memory,
# ids), so the program is checked when the run is that one process; it
# must still build.
nprocs=$(ls "$work"/client*.kfdtrace | wc -l)
if ! "$kfdtrace" emit-c "$trace" -o "$work/repro.c" >"$work/emit" 2>&1 ||
   ! gcc -pthread -Wall -Wextra -Werror -o "$work/repro" "$work/repro.c" >>"$work/emit" 2>&1; then
	cat "$work/emit"
	echo "FAIL: emit-c's program did not build"
	fail=1
elif [ "$nprocs" -gt 1 ]; then
	echo "emit-c: built; not run: the run has $nprocs processes"
else
	"$kfdtrace" sim --profile "$profile" -- "$work/repro" >>"$work/emit" 2>&1
	rc=$?
	# A wait whose returned event age ran one ahead of the stand-in sets'
	# (docs/emit-c.md, Event ages): said, and run once more.
	if [ "$rc" -ne 0 ] && grep -qE '^repro: #[0-9]+ WAIT_EVENTS: events\[[0-9]+\]\.data: bytes differ at \+0 ' \
		"$work/emit"; then
		grep -m1 '^repro: ' "$work/emit"
		echo "note: an event age ahead of the stand-ins' (docs/emit-c.md, Event ages); running again"
		"$kfdtrace" sim --profile "$profile" -- "$work/repro" >"$work/emit" 2>&1
		rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		cat "$work/emit"
		echo "FAIL: emit-c's program exited $rc"
		fail=1
	fi
fi

[ "$fail" -eq 0 ] && echo "PASS: $* on $profile: recorded whole, replayed, emitted"
exit "$fail"
