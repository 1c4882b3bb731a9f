#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A HIP program of ours built with the modern root's hipcc, then recorded
# and replayed as run_client.sh does:
#   run_hip.sh KFDTRACE OUTDIR SOURCE PROFILE OTHER_PROFILE -- [ARG...]
# The program is built for gfx90a, gfx942 and gfx1030 into OUTDIR (again
# only when SOURCE is newer), under a lock, since tests run in parallel.
set -u

here=$(dirname "$0")
kfdtrace=$1
outdir=$2
src=$3
profile=$4
other=$5
shift 6

mkdir -p "$outdir"
exe=$outdir/$(basename "$src" .hip)
(
	flock 9
	if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
		"$here/in_root.sh" hipcc --offload-arch=gfx90a --offload-arch=gfx942 \
			--offload-arch=gfx1030 -O2 -Wall -Werror -o "$exe.new" "$src" &&
			mv "$exe.new" "$exe"
	fi
) 9>"$exe.lock"
rc=$?
[ "$rc" -eq 77 ] && exit 77
if [ "$rc" -ne 0 ] || [ ! -x "$exe" ]; then
	echo "FAIL: the modern root's hipcc could not build $src"
	exit 1
fi

exec "$here/run_client.sh" "$kfdtrace" "$profile" "$other" '^PASS: ' -- "$exe" "$@"
