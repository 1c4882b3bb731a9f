#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The commands on the big run (big_run.sh: 2 processes, 4 threads, about
# a million ioctls, recorded with `record -o DIR/`), each checked against
# the program's own counts in big-run.out:
#   info --json	two processes, the child under the root, the ioctl counts
#   stats		each process's and the run's ioctls and failures
#   dump --order time	every record once, times never going back, pids
#   diff		the run against itself: every pair equal
#   replay --json	the tree replayed on kfdsim: every call's result and
#			every id the kernel chose match (--verify=results:
#			under load the two processes' AVAILABLE_MEMORY
#			values can differ by an allocation the other made,
#			as the tree's clock order is per record, not per
#			kernel instant; unloaded the strict replay matches)
#
# Usage: big_run_cli.sh KFDTRACE RUN-DIR BIG-RUN-OUT
set -eu
kfdtrace=$1 dir=$2 counts=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

total=$(awk '{n += $4} END {print n}' "$counts")
failed=$(awk '{n += $6} END {print n}' "$counts")

"$kfdtrace" info --json "$dir" > "$tmp/info.json"
python3 - "$tmp/info.json" "$counts" <<'PY' || fail "info --json"
import json, sys
d = json.load(open(sys.argv[1]))
want = {}
for line in open(sys.argv[2]):
    f = line.split()
    want[int(f[1])] = (int(f[3]), int(f[5]))
procs = d['processes']
assert d['run']['processes'] == 2, d['run']
assert [p['depth'] for p in procs] == [0, 1], procs
assert procs[1]['ppid'] == procs[0]['pid']
for p in procs:
    assert (p['ioctls'], p['failed_ioctls']) == want[p['pid']], p
    assert p['integrity'] == 'ok'
assert d['run']['ioctls'] == sum(v[0] for v in want.values())
print('info: 2 processes, %d ioctls' % d['run']['ioctls'])
PY

"$kfdtrace" stats "$dir" > "$tmp/stats"
run_line=$(sed -n '/^== run: 2 processes/,/^$/p' "$tmp/stats" | grep '^records:')
echo "$run_line" | grep -q "ioctls: $total, failed: $failed\$" ||
	fail "stats: run total '$run_line', want $total ioctls, $failed failed"
test "$(grep -c '^== process big-run-app\[' "$tmp/stats")" -eq 2 ||
	fail "stats: two process sections"

"$kfdtrace" dump --order time "$dir" > "$tmp/dump" 2> "$tmp/dump.err"
records=$("$kfdtrace" info --json "$dir" | python3 -c \
	'import json,sys; print(json.load(sys.stdin)["run"]["records"])')
test "$(wc -l < "$tmp/dump")" -eq "$records" ||
	fail "dump: $(wc -l < "$tmp/dump") lines for $records records"
# A record can be late by any time (a thread preempted in a call): dump
# holds each for 2 s of later calls, and says how many it could not place.
# Every step back in time must be one it said.
back=$(awk '{ t = substr($3, 2) + 0; if (t < last) bad++; last = t }
	END { print bad + 0 }' "$tmp/dump")
said=$(sed -n 's/.*warning: \([0-9]*\) records came more than.*/\1/p' \
	"$tmp/dump.err")
test "$back" -eq "${said:-0}" ||
	fail "dump --order time: time went back $back times, ${said:-0} said"
test "$back" -lt 100 || fail "dump --order time: time went back $back times"
test "$(cut -d' ' -f1 "$tmp/dump" | sort -u | wc -l)" -eq 2 ||
	fail "dump: lines of two pids"

"$kfdtrace" diff -q "$dir" "$dir" > "$tmp/diff" ||
	{ cat "$tmp/diff"; fail "diff of the run with itself"; }
grep -q "run: 2 process pairs compared, 0 without a partner: equal" \
	"$tmp/diff" || fail "diff summary"

"$kfdtrace" replay --sim --verify=results --json "$dir" > "$tmp/replay.json" \
	2> "$tmp/replay.err" ||
	{ tail -30 "$tmp/replay.err"; fail "replay of the run"; }
python3 - "$tmp/replay.json" "$total" <<'PY' || { tail -30 "$tmp/replay.err"; fail "replay --json"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d['verdict'] == 'match' and d['verify'] == 'results', d
assert d['ioctls'] == int(sys.argv[2]), d
assert d['divergences'] == 0
print('replay: match (results), %d ioctls, %d handles mapped'
      % (d['ioctls'], d['mapped_handles']))
PY
echo "big run: info, stats, dump, diff and replay agree with the program"
