#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Debian's rocminfo on a simulated machine: it must exit 0 and list the
# profile's GPU agents.
#   run_rocminfo.sh KFDTRACE PROFILE GFX_NAME GPU_COUNT CPU_COUNT [TEXT]
#   run_rocminfo.sh --preload=LIBS PROFILE GFX_NAME GPU_COUNT CPU_COUNT [TEXT]
# The first starts it with `kfdtrace sim`; the second with LD_PRELOAD=LIBS
# as given, for sanitizer builds, whose runtime must come first (`kfdtrace
# sim` puts libkfdsim.so first).
# TEXT, when given, must appear in the output as whole lines (a warning ROCr
# prints).
# Exit 77 (meson's "skipped") when rocminfo is not installed.
set -u

kfdtrace=$1
profile=$2
gfx=$3
gpus=$4
cpus=$5
text=${6:-}

rocminfo=$(command -v rocminfo 2>/dev/null || true)
if [ -z "$rocminfo" ]; then
	echo "rocminfo is not installed (Debian package rocminfo); skipping"
	exit 77
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
case $kfdtrace in
--preload=*)
	LD_PRELOAD=${kfdtrace#--preload=} KFDSIM_PROFILE=$profile \
		"$rocminfo" >"$out" 2>&1 ;;
*)
	"$kfdtrace" sim --profile "$profile" -- "$rocminfo" >"$out" 2>&1 ;;
esac
rc=$?
cat "$out"
if [ "$rc" -ne 0 ]; then
	echo "FAIL: rocminfo exited $rc on profile $profile"
	exit 1
fi

fail=0
# Agent blocks print "  Name:   gfx90a" and "  Device Type:   GPU".
n=$(grep -Ec "^[[:space:]]+Name:[[:space:]]+$gfx[[:space:]]*\$" "$out")
if [ "$n" -ne "$gpus" ]; then
	echo "FAIL: $n agents named $gfx, want $gpus"
	fail=1
fi
n=$(grep -Ec "^[[:space:]]+Device Type:[[:space:]]+GPU[[:space:]]*\$" "$out")
if [ "$n" -ne "$gpus" ]; then
	echo "FAIL: $n GPU agents, want $gpus"
	fail=1
fi
n=$(grep -Ec "^[[:space:]]+Device Type:[[:space:]]+CPU[[:space:]]*\$" "$out")
if [ "$n" -ne "$cpus" ]; then
	echo "FAIL: $n CPU agents, want $cpus"
	fail=1
fi
# The ISA each GPU agent reports names the same target.
n=$(grep -Ec "Name:[[:space:]]+amdgcn-amd-amdhsa--$gfx" "$out")
if [ "$n" -lt "$gpus" ]; then
	echo "FAIL: $n ISAs for $gfx, want at least $gpus"
	fail=1
fi
# each line of TEXT, in order, on consecutive output lines
if [ -n "$text" ]; then
	want=$(printf '%s\n' "$text" | wc -l)
	first=$(printf '%s\n' "$text" | head -n 1)
	found=0
	for at in $(grep -nF -- "$first" "$out" | cut -d: -f1); do
		if [ "$(tail -n +"$at" "$out" | head -n "$want")" = "$text" ]; then
			found=1
		fi
	done
	if [ "$found" -ne 1 ]; then
		echo "FAIL: the output lacks the lines:"
		printf '%s\n' "$text"
		fail=1
	fi
fi
[ "$fail" -eq 0 ] && echo "PASS: rocminfo lists $gpus x $gfx and $cpus CPU agent(s) on $profile"
exit "$fail"
