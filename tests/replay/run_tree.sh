#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A run of several processes recorded on kfdsim, looked at and replayed:
#   run_tree.sh KFDTRACE PROFILE PROCS GPUS serial|both -- COMMAND [ARG...]
# 1. COMMAND exits 0 under `kfdtrace record --sim=PROFILE`, which writes
#    one trace per process: PROCS of them, each whole (`info`), together
#    holding every ioctl the device answered (KFDSIM_IOCTL_COUNT,
#    tests/common/answered.sh);
# 2. `stats` of the run has PROCS processes and, when GPUS is not 0, VRAM
#    allocations on GPUS distinct GPUs; `report` of it is complete, with
#    PROCS processes, the device's count of ioctls and (GPUS not 0) GPUS
#    GPUs;
# 3. the run replays as a tree, serially and (both) with --threads, with
#    a strict match in every process and no
#    process left waiting for another (the notes "did not come in time",
#    "went on after").
set -u

here=$(dirname "$0")
. "$here/../common/answered.sh"
kfdtrace=$1
profile=$2
procs=$3
gpus=$4
modes=$5
shift 6

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

KFDSIM_IOCTL_COUNT=$work/count \
	"$kfdtrace" record -o "$work/t.kft" --sim="$profile" -- "$@" >"$work/out" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	cat "$work/out"
	echo "FAIL: $* exited $rc under record on $profile"
	exit 1
fi
files="$work/t.kft $(ls "$work" | sed -n 's|^t\.kft\..*\.kfdtrace$|'"$work"'/&|p')"
n=$(echo $files | wc -w)
if [ "$n" -ne "$procs" ]; then
	cat "$work/out"
	echo "FAIL: the run wrote $n traces, want $procs"
	fail=1
fi
for f in $files; do
	"$kfdtrace" info "$f" >"$work/info" 2>&1
	grep -Eq '^integrity:[[:space:]]+ok' "$work/info" || {
		cat "$work/info"; echo "FAIL: $f is not whole"; fail=1; }
done
check_answered "$kfdtrace" "$work/count" $files || fail=1
answered=$(od -An -t u8 -N 8 "$work/count" | tr -d ' ')

# stats: a block per process; VRAM rows name the GPU in their first column
if ! "$kfdtrace" stats $files >"$work/stats" 2>&1; then
	cat "$work/stats"
	echo "FAIL: stats exited non-zero"
	fail=1
fi
n=$(grep -c '^== process' "$work/stats")
[ "$n" -eq "$procs" ] || { echo "FAIL: stats shows $n processes, want $procs"; fail=1; }
if [ "$gpus" -ne 0 ]; then
	n=$(awk '$2 == "VRAM" && $1 ~ /^0x/ { print $1 }' "$work/stats" | sort -u | wc -l)
	[ "$n" -eq "$gpus" ] || {
		echo "FAIL: stats shows VRAM on $n GPUs, want $gpus"; fail=1; }
fi

# report: the header badge, the tiles and a lane per process
tile() {
	sed -n 's|.*<div class="v">\([^<]*\)</div><div class="k">'"$1"'</div>.*|\1|p' \
		"$work/report.html" | head -n 1
}
if ! "$kfdtrace" report -o "$work/report.html" $files >"$work/report.out" 2>&1; then
	cat "$work/report.out"
	echo "FAIL: report exited non-zero"
	fail=1
fi
grep -q '<span class="badge ok">complete</span>' "$work/report.html" || {
	echo "FAIL: the report does not call the run complete"; fail=1; }
[ "$(tile processes)" = "$procs" ] || {
	echo "FAIL: the report shows $(tile processes) processes, want $procs"; fail=1; }
[ "$(tile ioctls)" = "$answered" ] || {
	echo "FAIL: the report shows $(tile ioctls) ioctls, the device answered $answered"
	fail=1; }
if [ "$gpus" -ne 0 ] && [ "$(tile GPUs)" != "$gpus" ]; then
	echo "FAIL: the report shows $(tile GPUs) GPUs, want $gpus"
	fail=1
fi
n=$(grep -o '<h3 class="proc">[^<]*' "$work/report.html" | sort -u | wc -l)
[ "$n" -eq "$procs" ] || {
	echo "FAIL: the report has lanes for $n processes, want $procs"; fail=1; }

# A process waits for another only as long as --wait-timeout: 60 s, not
# the 5 s default, so that 64 threads on a slow host (ASan, two tests at
# once on two cores) are not taken for processes waiting in vain.
replay() {
	"$kfdtrace" replay --sim="$profile" --wait-timeout 60000 "$@" $files \
		>"$work/replay" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] ||
	   ! grep -q 'result:[[:space:]]*match (strict) in every process' "$work/replay"; then
		cat "$work/replay"
		echo "FAIL: replay $* exited $rc without a strict match in every process"
		fail=1
	elif grep -E '^note: .*(did not come in time|went on after)' "$work/replay"; then
		echo "FAIL: replay $*: a process waited for another in vain"
		fail=1
	fi
}
replay
[ "$modes" = serial ] ||
	replay --threads

[ "$fail" -eq 0 ] && echo "PASS: $* on $profile: $procs processes recorded whole, looked at, replayed"
exit "$fail"
