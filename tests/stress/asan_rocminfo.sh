#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rocminfo (not instrumented) on kfdsim in an AddressSanitizer build, with
# the sanitizer runtime first in LD_PRELOAD, as it must be for a program
# that is not built with it (`kfdtrace sim` would put libkfdsim.so first).
# With THUNK_DIR, ROCr loads kfdtrace's libhsakmt from there instead of
# Debian's. It must exit 0 and list the profile's agents.
#   asan_rocminfo.sh PRELOAD PROFILE GFX_NAME GPU_COUNT CPU_COUNT [THUNK_DIR]
# Exit 77 (meson's "skipped") when rocminfo is not installed.
set -u

preload=$1
profile=$2
gfx=$3
gpus=$4
cpus=$5
thunk_dir=${6:-}

rocminfo=$(command -v rocminfo 2>/dev/null || true)
if [ -z "$rocminfo" ]; then
	echo "rocminfo is not installed (Debian package rocminfo); skipping"
	exit 77
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ -n "$thunk_dir" ]; then
	LD_LIBRARY_PATH=$thunk_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		LD_PRELOAD=$preload KFDSIM_PROFILE=$profile "$rocminfo" >"$out" 2>&1
else
	LD_PRELOAD=$preload KFDSIM_PROFILE=$profile "$rocminfo" >"$out" 2>&1
fi
rc=$?
cat "$out"
if [ "$rc" -ne 0 ]; then
	echo "FAIL: rocminfo exited $rc on profile $profile"
	exit 1
fi
fail=0
n=$(grep -Ec "^[[:space:]]+Name:[[:space:]]+$gfx[[:space:]]*\$" "$out")
[ "$n" -eq "$gpus" ] || { echo "FAIL: $n agents named $gfx, want $gpus"; fail=1; }
n=$(grep -Ec "^[[:space:]]+Device Type:[[:space:]]+GPU[[:space:]]*\$" "$out")
[ "$n" -eq "$gpus" ] || { echo "FAIL: $n GPU agents, want $gpus"; fail=1; }
n=$(grep -Ec "^[[:space:]]+Device Type:[[:space:]]+CPU[[:space:]]*\$" "$out")
[ "$n" -eq "$cpus" ] || { echo "FAIL: $n CPU agents, want $cpus"; fail=1; }
exit $fail
