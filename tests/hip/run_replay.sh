#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A HIP program captured and replayed: `kfdtrace record --sim=PROFILE` of
# PROG (which must print its PASS line, and whose files must hold every
# ioctl the device answered: tests/common/answered.sh), then replays of
# its files (its own, and its children's: one process tree) on PROFILE and on OTHER,
# serial and --threads, each "match (strict)" without a divergence;
# `kfdtrace stats` and the HTML report show its queues and events; its
# emit-c program builds, runs and captures as the original did.
#   run_replay.sh KFDTRACE PROG PROFILE OTHER
# The thunk is the environment's (LD_LIBRARY_PATH, HIP_TEST_THUNK).
set -u

. "$(dirname "$0")/../common/answered.sh"
kfdtrace=$1
prog=$2
profile=$3
other=$4

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

KFDSIM_IOCTL_COUNT=$dir/count \
	"$kfdtrace" record --sim="$profile" -o "$dir/t.kft" -- "$prog" >"$dir/rec" 2>&1
rc=$?
cat "$dir/rec"
if [ "$rc" -ne 0 ] || ! grep -q '^PASS: ' "$dir/rec"; then
	echo "FAIL: the capture of $prog exited $rc"
	exit 1
fi
# the root's file first, then its children's (t.kft.<pid>.kfdtrace)
files="$dir/t.kft $(ls "$dir" | sed -n 's|^t\.kft\.[0-9][0-9]*\.kfdtrace$|'"$dir"'/&|p')"
check_answered "$kfdtrace" "$dir/count" $files || fail=1

profiles=$profile
[ "$other" != "$profile" ] && profiles="$profile $other"
for p in $profiles; do
	for mode in serial threads; do
		set -- --sim="$p"
		[ "$mode" = threads ] && set -- "$@" --threads
		"$kfdtrace" replay "$@" $files >"$dir/out" 2>&1
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
# emit-c: the capture as a C program (docs/emit-c.md), built warning-free,
# run on the capture's profile under capture. It must exit 0, and its
# capture may differ from the original only by its stand-in SET_EVENTs
# (waits an engine released): equal under kfdtrace diff without them. A program with calls left out (IPC share
# handles from another process) is only built.
if ! "$kfdtrace" emit-c "$dir/t.kft" -o "$dir/repro.c" >"$dir/emit" 2>&1 ||
   ! "${CC:-cc}" -pthread -Wall -Wextra -Werror -o "$dir/repro" "$dir/repro.c" \
	>>"$dir/emit" 2>&1; then
	cat "$dir/emit"
	echo "FAIL: emit-c of the capture did not build"
	fail=1
elif grep -q ', 0 left out' "$dir/emit"; then
	stand_ins=$(sed -n 's/.*, \([0-9]*\) SET_EVENTs standing in.*/\1/p' "$dir/emit")
	if ! "$kfdtrace" record --sim="$profile" -o "$dir/own.kft" -- "$dir/repro" \
		>"$dir/run" 2>&1 || ! grep -q 'every result as captured' "$dir/run"; then
		cat "$dir/emit" "$dir/run"
		echo "FAIL: the emitted program did not exit 0"
		fail=1
	else
		# With no stand-in, kfdtrace diff must find the two equal. With
		# some, each thread's calls must be the original's plus exactly
		# that many SET_EVENTs (diff's alignment can pair the repeated
		# waits of such a thread oddly, so the calls are compared here).
		if [ "${stand_ins:-0}" -eq 0 ]; then
			if ! "$kfdtrace" diff "$dir/t.kft" "$dir/own.kft" >"$dir/diff" 2>&1; then
				cat "$dir/emit" "$dir/diff"
				echo "FAIL: the program's capture differs from the original"
				fail=1
			else
				echo "emit-c: the program exits 0; its capture equals the original"
			fi
		else
			"$kfdtrace" dump --json "$dir/t.kft" >"$dir/a.json" &&
			"$kfdtrace" dump --json "$dir/own.kft" >"$dir/b.json" &&
			python3 - "$dir/a.json" "$dir/b.json" "$stand_ins" <<'PY' || fail=1
import json, sys
def threads(path):
    t = {}
    for line in open(path):
        r = json.loads(line)
        if r['type'] == 'ioctl':
            t.setdefault(r['tid'], []).append((r['seq'], r['name']))
    return [[n for _, n in sorted(v)] for _, v in sorted(t.items(), key=lambda kv: min(kv[1]))]
a, b, budget = threads(sys.argv[1]), threads(sys.argv[2]), int(sys.argv[3])
ok = len(a) == len(b)
for ta, tb in zip(a, b):
    i = 0
    for name in tb:
        if i < len(ta) and ta[i] == name:
            i += 1
        elif name == 'SET_EVENT' and budget > 0:
            budget -= 1
        else:
            ok = False
            break
    ok &= i == len(ta)
ok &= budget == 0
print('emit-c: the program exits 0; its calls are the original\'s plus its %s stand-in SET_EVENTs: %s' % (sys.argv[3], 'yes' if ok else 'NO'))
sys.exit(0 if ok else 1)
PY
		fi
	fi
else
	echo "emit-c: built ($(sed -n 's/.*, \([0-9]*\) left out.*/\1/p' "$dir/emit") calls left out)"
fi
[ "$fail" -eq 0 ] && echo "PASS: $prog captured on $profile, replayed on $profile and $other"
exit "$fail"
