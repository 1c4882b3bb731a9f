#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A HIP program of ours built with the modern root's hipcc, then run on
# kfdsim or recorded and replayed as run_client.sh does:
#   run_hip.sh run KFDTRACE OUTDIR SOURCE PROFILE -- [ARG...]
#   run_hip.sh capture KFDTRACE OUTDIR SOURCE PROFILE OTHER_PROFILE -- [ARG...]
#   run_hip.sh record KFDTRACE OUTDIR SOURCE PROFILE -- [ARG...]
#   run_hip.sh smi KFDTRACE OUTDIR SOURCE PROFILE --
# A run must exit 0 and print "PASS: ". record is capture without the
# replay and emit-c (run_client.sh --record-only). smi runs the program as the KFD process beside rocm-smi
# (tests/kfdsim/run_rocm_smi.sh). The program is built for gfx90a,
# gfx942 and gfx1030 into OUTDIR (again only when SOURCE is newer), under
# a lock, since tests run in parallel. The environment may change that:
#   RUN_HIP_ARCHS   the architectures built for (default: the three)
#   RUN_HIP_FLAGS   more hipcc options (C++ standard, libraries, features)
#   RUN_HIP_NAME    the program's name in OUTDIR (default: SOURCE's), for
#                   one source built with other options
#   RUN_HIP_NEEDS   a header the program needs from the root: without it
#                   the test is skipped (77), and fails under CI=true
set -u

here=$(dirname "$0")
mode=$1
kfdtrace=$2
outdir=$3
src=$4
profile=$5
if [ "$mode" = capture ]; then
	other=$6
	shift 7
else
	shift 6
fi

root=${KFDTRACE_MODERN_ROOT:-/var/cache/kfdtrace/rocm-sid}
needs=${RUN_HIP_NEEDS:-}
if [ -n "$needs" ] && [ -x "$root/usr/bin/rocminfo" ] &&
   [ ! -e "$root/usr/include/$needs" ]; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: the ROCm 6.4 root has no $needs (scripts/setup.sh)"
		exit 1
	fi
	echo "skipped: the ROCm 6.4 root has no $needs (scripts/setup.sh)"
	exit 77
fi

archs=
for a in ${RUN_HIP_ARCHS:-gfx90a gfx942 gfx1030}; do
	archs="$archs --offload-arch=$a"
done
mkdir -p "$outdir"
exe=$outdir/${RUN_HIP_NAME:-$(basename "$src" .hip)}
(
	flock 9
	if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
		# shellcheck disable=SC2086 # lists of options
		"$here/in_root.sh" hipcc $archs -O2 -Wall -Werror ${RUN_HIP_FLAGS:-} \
			-o "$exe.new" "$src" && mv "$exe.new" "$exe"
	fi
) 9>"$exe.lock"
rc=$?
[ "$rc" -eq 77 ] && exit 77
if [ "$rc" -ne 0 ] || [ ! -x "$exe" ]; then
	echo "FAIL: the modern root's hipcc could not build $src"
	exit 1
fi

if [ "$mode" = smi ]; then
	exec "$here/in_root.sh" "$here/../kfdsim/run_rocm_smi.sh" "$kfdtrace" "$profile" "$exe"
fi
if [ "$mode" = capture ]; then
	exec "$here/run_client.sh" "$kfdtrace" "$profile" "$other" '^PASS: ' -- "$exe" "$@"
fi
if [ "$mode" = record ]; then
	exec "$here/run_client.sh" --record-only "$kfdtrace" "$profile" '' '^PASS: ' -- \
		"$exe" "$@"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$here/in_root.sh" "$kfdtrace" sim --profile "$profile" -- "$exe" "$@" >"$out" 2>&1
rc=$?
cat "$out"
if [ "$rc" -ne 0 ] || ! grep -q '^PASS: ' "$out"; then
	echo "FAIL: $(basename "$exe") exited $rc on $profile"
	exit 1
fi
