#!/usr/bin/env bash
# The README's main job (scripts/demo.sh) end to end on the build under
# test: it must exit 0, and what it prints must show a real result — ROCr's
# GPU agent found, a strict replay that matched, and a diff of capture and
# replay that found them equal.
set -euo pipefail

top=$1
build=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

KFDTRACE_BUILD=$build KFDTRACE_DEMO_DIR=$dir/files \
	"$top/scripts/demo.sh" >"$dir/out" 2>&1 || {
	rc=$?
	cat "$dir/out"
	echo "main job: demo.sh exited $rc"
	exit 1
}

fail=0
expect() {
	if ! grep -Eq "$1" "$dir/out"; then
		echo "main job: no line matching '$1'"
		fail=1
	fi
}
expect '^ +[0-9]+ +Name: +gfx90a'
expect 'result: +match \(strict\)'
expect '^equal: '
[ -s "$dir/files/report.html" ] || { echo "main job: no report.html"; fail=1; }
if [ $fail -ne 0 ]; then
	cat "$dir/out"
	exit 1
fi
echo "main job: passed"
