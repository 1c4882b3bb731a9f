#!/bin/sh
# SPDX-License-Identifier: MIT
#
# probe_abi23 recorded on kfdsim at ABI X.Y (the probe checks each answer
# itself), its bad inputs decoded clearly by `kfdtrace dump`, and the
# trace replayed strictly on kfdsim at the same ABI.
#   run_probe_abi23.sh KFDTRACE PROBE X.Y
set -u
kfdtrace=$1
probe=$2
abi=$3
minor=${abi#*.}

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

KFDSIM_ABI=$abi "$kfdtrace" record --sim=mi210 -o "$dir/p.kft" -- \
	"$probe" "$minor" >"$dir/rec" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	cat "$dir/rec"
	echo "FAIL: the probe at $abi exited $rc"
	exit 1
fi

"$kfdtrace" dump "$dir/p.kft" >"$dir/dump" 2>&1 || {
	cat "$dir/dump"
	echo "FAIL: dump of the probe's trace"
	exit 1
}
want() {
	if ! grep -F -q -- "$1" "$dir/dump"; then
		echo "FAIL: no dump line with: $1"
		fail=1
	fi
}
want "metadata_ring_size=3000)"
want "device_snapshot.entry_size=4) = 0 {device_snapshot.snapshot_buf_ptr=[<00000000>]}"
if [ "$minor" -ge 23 ]; then
	want "metadata_ring_size=3000) = -1 EINVAL"
	want "PROFILER(op=7) = -1 EINVAL"
	want "PROFILER(op=PMC, pmc.gpu_id="
	want "PROFILER(op=VERSION) = 0 {version=1}"
	want "PROFILER_DLOG(op=4, pad=0x0, data=<32 zero bytes>) = -1 EINVAL"
	want "debug_prop=0x5d6, capability2=0}"
else
	want "PROFILER(op=VERSION) = -1 ENOTTY"
	# Before 1.23 the entry ends after debug_prop (120 bytes).
	want "device_snapshot.entry_size=128) = 0 {device_snapshot.snapshot_buf_ptr=[{exception_status=0, "
	want "debug_prop=0x5d6}], device_snapshot.entry_size=120}"
fi
[ "$fail" -eq 0 ] || { cat "$dir/dump"; exit 1; }

KFDSIM_ABI=$abi "$kfdtrace" replay --sim=mi210 "$dir/p.kft" >"$dir/out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^  result:      match (strict)' "$dir/out" ||
   grep -q 'divergence' "$dir/out"; then
	cat "$dir/out"
	echo "FAIL: the replay at $abi exited $rc or diverged"
	exit 1
fi
echo "probe at $abi: recorded, dumped, replayed: match (strict)"
