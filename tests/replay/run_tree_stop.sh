#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A tree whose sender stops before its send of fds:
#   run_tree_stop.sh KFDTRACE RP_ALTER RP_XORDER
# rp_xorder's child sends a dma-buf to its parent over a socket. Its
# trace is altered so that its replay diverges at its first GET_VERSION,
# long before the send, and stops there. The parent's receive must not
# wait for that send until --wait-timeout (60 s here): it goes on once
# the child's replay ended, with the note "its replay ended before it",
# serially and with --threads. The tree's verdict names the divergence.
set -u

kfdtrace=$1
alter=$2
xorder=$3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

"$kfdtrace" record -o "$work/t.kft" --sim=mi210 -- "$xorder" >"$work/out" 2>&1 || {
	cat "$work/out"; echo "FAIL: rp_xorder exited $? under record"; exit 1; }
child=$(ls "$work" | sed -n 's|^t\.kft\..*\.kfdtrace$|'"$work"'/&|p')
[ -n "$child" ] || { echo "FAIL: no trace of the child"; exit 1; }
seq=$("$kfdtrace" dump --json --filter GET_VERSION "$child" |
	sed -n '1s|^{"seq":\([0-9]*\),.*|\1|p')
[ -n "$seq" ] || { echo "FAIL: the child's trace has no GET_VERSION"; exit 1; }
mkdir "$work/alt"
cp "$work/t.kft" "$work/alt/"
"$alter" "$child" "$work/alt/$(basename "$child")" "$seq" minor_version 99 || {
	echo "FAIL: rp_alter exited $?"; exit 1; }

for mode in "" --threads; do
	"$kfdtrace" replay --sim=mi210 --wait-timeout 60000 $mode \
		"$work/alt/t.kft" "$work/alt/$(basename "$child")" >"$work/replay" 2>&1
	rc=$?
	if [ "$rc" -ne 1 ] ||
	   ! grep -q 'result:[[:space:]]*diverged (1 of 2 processes diverged)' "$work/replay" ||
	   ! grep -q "^divergence at #$seq GET_VERSION" "$work/replay"; then
		cat "$work/replay"
		echo "FAIL: replay $mode exited $rc without the child's divergence alone"
		fail=1
	elif ! grep -q '^note: .*did not come: its replay ended before it' "$work/replay" ||
	     grep -Eq '^note: .*(did not come in time|went on after)' "$work/replay"; then
		cat "$work/replay"
		echo "FAIL: replay $mode: the parent's receive waited for a send that could not come"
		fail=1
	fi
done

[ "$fail" -eq 0 ] && echo "PASS: a receive goes on once its sender's replay stopped"
exit "$fail"
