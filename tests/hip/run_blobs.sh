#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Memory blobs across the processes of a run (docs/trace-format.md
# 5.4.15): hip_fork (a parent and two children, each starting HIP)
# recorded with `--submissions=full -o DIR/`. A blob that several
# processes used (HIP's code object, above all) is in the run's blob store
# once, and no trace holds its bytes; each process's records of it
# resolve, in the run and in a file read alone (dump shows the bytes). A
# trace copied without its run, and a damaged blob, are named in dump's
# output; the replay of a process says so too. Where no store can be
# made, each trace holds its blobs.
#   run_blobs.sh KFDTRACE PROG
set -u
kfdtrace=$1
prog=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run=$dir/run
store=$run/.kfdtrace-blobs

if ! "$kfdtrace" record --sim=mi210 --submissions=full -o "$run/" -- "$prog" \
	>"$dir/rec" 2>&1 || ! grep -q '^PASS: ' "$dir/rec"; then
	cat "$dir/rec"
	echo "FAIL: the capture of $prog with --submissions=full -o DIR/"
	exit 1
fi
"$kfdtrace" dump --json "$run/" >"$dir/run.json" || { echo "FAIL: dump of the run"; exit 1; }
# shared: the blobs of more than one process (hash, kind)
python3 - "$dir/run.json" "$store" >"$dir/shared" <<'PY' || exit 1
import collections, json, os, sys
pids = collections.defaultdict(set)
kinds = {}
stored = set()
bad = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['type'] != 'memory':
        continue
    if 'missing' in r:
        bad.append('a record of the run does not resolve: %s' % line.strip())
    if 'hash' not in r or not r['flags'] & 16:
        continue
    # STORE (16): the bytes are in the store, none in the file
    stored.add(r['hash'])
    pids[r['hash']].add(r['pid'])
    kinds[r['hash']] = r['kind']
    if r['len'] != r['full_len']:
        bad.append('a blob of the store has %d of %d bytes' % (r['len'], r['full_len']))
files = set(os.listdir(sys.argv[2]))
if files != stored:
    bad.append('the store holds %d files for %d blobs (extra: %s; missing: %s)' %
               (len(files), len(stored), sorted(files - stored)[:3],
                sorted(stored - files)[:3]))
shared = [h for h in pids if len(pids[h]) > 1]
if not any(kinds[h] == 'code' for h in shared):
    bad.append('no code object used by two processes (shared: %s)' %
               [kinds[h] for h in shared])
for b in bad:
    print('FAIL: ' + b, file=sys.stderr)
if bad:
    sys.exit(1)
for h in shared:
    print(h, kinds[h], len(pids[h]))
PY
[ -s "$dir/shared" ] || { echo "FAIL: no blob shared by two processes"; exit 1; }
cat "$dir/shared"
code=$(awk '$2 == "code" { print $1; exit }' "$dir/shared")
nfiles=$(ls "$run"/*.kfdtrace | wc -l)
[ "$nfiles" -ge 2 ] || { echo "FAIL: $nfiles trace files"; exit 1; }

fail=0
# Each file alone, in its run: the code object's bytes are shown.
for f in "$run"/*.kfdtrace; do
	"$kfdtrace" dump "$f" >"$dir/one" 2>&1 || { echo "FAIL: dump $f"; fail=1; }
	if ! grep -q "memory(code, .*in the run's blob store) <" "$dir/one"; then
		echo "FAIL: $f: the code object's bytes are not shown"
		fail=1
	fi
	if grep -q "missing\|damaged" "$dir/one"; then
		grep -m3 "missing\|damaged" "$dir/one"
		echo "FAIL: $f: a blob of the run does not resolve"
		fail=1
	fi
done

# A trace without its run: its blobs are named as missing.
mkdir "$dir/alone"
cp "$(ls "$run"/*.kfdtrace | head -1)" "$dir/alone/"
"$kfdtrace" dump "$dir/alone/" >"$dir/alone.out" 2>&1
if ! grep -q "memory(code, .*missing: blob $code is not in the run's blob store" "$dir/alone.out"; then
	grep -m3 'memory(code' "$dir/alone.out"
	echo "FAIL: a trace read without its run does not name the missing blob"
	fail=1
fi

# A damaged blob: named as damaged, in dump and in the replay.
printf 'damaged' >"$store/$code"
"$kfdtrace" dump "$run/" >"$dir/damaged.out" 2>&1
if ! grep -q "memory(code, .*damaged: blob $code in the run's blob store" "$dir/damaged.out"; then
	grep -m3 'memory(code' "$dir/damaged.out"
	echo "FAIL: a damaged blob is not named"
	fail=1
fi
root=$(ls "$run"/*.kfdtrace | head -1)
"$kfdtrace" replay --sim=mi210 "$root" >"$dir/replay.out" 2>&1
if ! grep -q "not restored: blob $code in the run's blob store is damaged" "$dir/replay.out"; then
	tail -20 "$dir/replay.out"
	echo "FAIL: the replay does not name the damaged blob"
	fail=1
fi
# A store that cannot be made (a file in its place): each trace holds
# its blobs, and they resolve.
mkdir "$dir/nostore"
: >"$dir/nostore/.kfdtrace-blobs"
if ! "$kfdtrace" record --sim=mi210 --submissions=full -o "$dir/nostore/" -- "$prog" \
	>"$dir/rec2" 2>&1 || ! grep -q '^PASS: ' "$dir/rec2"; then
	cat "$dir/rec2"
	echo "FAIL: the capture with no store to write"
	fail=1
fi
"$kfdtrace" dump "$dir/nostore/" >"$dir/nostore.out" 2>&1
if grep -q "in the run's blob store\|missing\|damaged" "$dir/nostore.out" ||
   ! grep -q "memory(code, [^)]*bytes) <" "$dir/nostore.out"; then
	grep -m3 'memory(code' "$dir/nostore.out"
	echo "FAIL: without a store, the traces do not hold their blobs"
	fail=1
fi
[ "$fail" = 0 ] && echo "PASS: run_blobs"
exit "$fail"
