#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A HIP program captured and replayed: `kfdtrace record --sim=PROFILE` of
# PROG (which must print its PASS line), then replays of its files (its
# own, and its children's: one process tree) on PROFILE and on OTHER,
# serial and --threads, each "match (strict)" without a divergence;
# `kfdtrace stats` and the HTML report show its queues and events.
#   run_replay.sh KFDTRACE PROG PROFILE OTHER
# The thunk is the environment's (LD_LIBRARY_PATH, HIP_TEST_THUNK).
set -u

kfdtrace=$1
prog=$2
profile=$3
other=$4

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

"$kfdtrace" record --sim="$profile" -o "$dir/t.kft" -- "$prog" >"$dir/rec" 2>&1
rc=$?
cat "$dir/rec"
if [ "$rc" -ne 0 ] || ! grep -q '^PASS: ' "$dir/rec"; then
	echo "FAIL: the capture of $prog exited $rc"
	exit 1
fi

profiles=$profile
[ "$other" != "$profile" ] && profiles="$profile $other"
for p in $profiles; do
	for mode in serial threads; do
		set -- --sim="$p"
		[ "$mode" = threads ] && set -- "$@" --threads
		# the root's file first, then its children's (t.kft.<pid>)
		"$kfdtrace" replay "$@" "$dir/t.kft" $(ls "$dir" |
			sed -n 's|^t\.kft\.[0-9][0-9]*$|'"$dir"'/&|p') \
			>"$dir/out" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ] ||
		   ! grep -q '^  result:      match (strict)' "$dir/out" ||
		   grep -q 'divergence' "$dir/out"; then
			cat "$dir/out"
			echo "FAIL: replay on $p ($mode) exited $rc or diverged"
			fail=1
		else
			echo "replay on $p ($mode): match (strict)" \
			     "$(grep -o '[0-9]* event interrupts' "$dir/out" || true)"
		fi
	done
done

"$kfdtrace" stats "$dir/t.kft" >"$dir/stats" 2>&1
for row in CREATE_QUEUE CREATE_EVENT; do
	if ! grep -Eq "^$row +[1-9]" "$dir/stats"; then
		cat "$dir/stats"
		echo "FAIL: stats shows no $row"
		fail=1
	fi
done
# The HTML report draws each queue's lifetime and counts the events.
"$kfdtrace" report -o "$dir/r.html" "$dir/t.kft" >"$dir/rep" 2>&1
if ! grep -q '>queue [0-9]' "$dir/r.html" || ! grep -q 'CREATE_EVENT' "$dir/r.html"; then
	cat "$dir/rep"
	echo "FAIL: the report shows no queue lifetime or no CREATE_EVENT"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "PASS: $prog captured on $profile, replayed on $profile and $other"
exit "$fail"
