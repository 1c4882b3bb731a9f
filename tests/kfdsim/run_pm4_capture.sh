#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The PM4 program recorded with --submissions on kfdsim (mi210, our
# thunk): the capture holds submit records of its PM4 queues, and `dump`
# decodes their packets by name, numbered by the write pointer's dwords.
# A doorbell the GPU writes is recorded only with the CPU's next one.
# The dispatch case recorded with --submissions=full replays to its end:
# its queue waits for what the shaders store, so the replayed shaders
# (whose code the capture holds) stored the same.
#   run_pm4_capture.sh KFDTRACE PM4_KMT
set -u

kfdtrace=$1
prog=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

if ! KFDSIM_PROFILE=mi210 "$kfdtrace" record -o "$dir/t" --sim --submissions \
		-- "$prog" >"$dir/out" 2>&1; then
	cat "$dir/out"
	echo "the capture of $prog failed"
	exit 1
fi
cat "$dir/out"
grep -q '^pm4: all ok$' "$dir/out" || { echo "the program failed"; exit 1; }
"$kfdtrace" dump "$dir/t" >"$dir/dump" 2>&1 || { cat "$dir/dump"; exit 1; }
rc=0
for want in ', pm4, dwords 0..' '] WRITE_DATA{control=0x100500, dst=0x' \
	    '] RELEASE_MEM{event=0x514, control=0x22000000, addr=0x' \
	    '] WAIT_REG_MEM{control=0x13, addr=0x' \
	    '] INDIRECT_BUFFER{ib_base=0x' '] ACQUIRE_MEM{' '] SET_SH_REG{' \
	    '] NOP{}' '] UNKNOWN{bytes=<000100c000000000>}, [2] WRITE_DATA{' \
	    '] SET_SH_REG{reg_offset=COMPUTE_PGM_LO}' \
	    '] SET_SH_REG{reg_offset=COMPUTE_USER_DATA_0}' \
	    '] DISPATCH_DIRECT{dim_x=100, dim_y=1, dim_z=1, initiator=0x21}'; do
	if ! grep -qF -- "$want" "$dir/dump"; then
		echo "dump has no '$want'"
		rc=1
	fi
done
[ "$rc" -eq 0 ] || grep 'submit(' "$dir/dump" | head -20

# A PM4 queue the GPU rings (case gpudb): the capture sees no store, so
# no record holds the packet then; the CPU's next doorbell on that queue
# records it together with its own packet, in one record.
if ! KFDSIM_PROFILE=mi210 "$kfdtrace" record -o "$dir/g" --sim --submissions \
		-- "$prog" gpudb >"$dir/gout" 2>&1 ||
		! grep -q '^pm4: gpudb ok$' "$dir/gout"; then
	cat "$dir/gout"
	echo "the capture of $prog gpudb failed"
	exit 1
fi
"$kfdtrace" dump "$dir/g" >"$dir/gdump" 2>&1 || { cat "$dir/gdump"; exit 1; }
grep 'submit(' "$dir/gdump" | sed 's/^.*submit(//' >"$dir/gsub"
n=$(wc -l <"$dir/gsub")
if [ "$n" -ne 2 ] ||
   ! sed -n 1p "$dir/gsub" | grep -q '^queue=1, .*dwords 0\.\.16) {\[0\] RELEASE_MEM{.*\[8\] RELEASE_MEM{' ||
   ! sed -n 2p "$dir/gsub" | grep -q '^queue=0, .*dwords 0\.\.10) {\[0\] WRITE_DATA{.*\[5\] WRITE_DATA{' ||
   grep -q 'unseen' "$dir/gsub"; then
	echo "gpudb: not the records expected:"
	cat "$dir/gsub"
	rc=1
fi

# The dispatch case, with what its packets reference: the replay runs
# both shaders (their code is a memory record) and the WAIT_REG_MEMs on
# their results are met. Without shaders the queue stops at the first.
if ! KFDSIM_PROFILE=mi210 "$kfdtrace" record -o "$dir/d" --sim --submissions=full \
		-- "$prog" dispatch >"$dir/dout" 2>&1 ||
		! grep -q '^pm4: dispatch ok$' "$dir/dout"; then
	cat "$dir/dout"
	echo "the capture of $prog dispatch failed"
	exit 1
fi
"$kfdtrace" dump "$dir/d" >"$dir/ddump" 2>&1 || { cat "$dir/ddump"; exit 1; }
grep -q ' memory(code, 0x[0-9a-f]*, 4096 bytes)' "$dir/ddump" ||
	{ echo "dispatch: no code memory record"; rc=1; }
KFDSIM_PROFILE=mi210 "$kfdtrace" replay --sim "$dir/d" >"$dir/dreplay" 2>&1
for want in 'queues:      1 doorbells of captured packets published again, 0 not run to the end' \
	    'result:      match (strict)'; do
	grep -qF -- "$want" "$dir/dreplay" || { echo "dispatch replay: no '$want'"; rc=1; }
done
KFDSIM_SHADERS=0 KFDSIM_PROFILE=mi210 "$kfdtrace" replay --sim "$dir/d" \
	>"$dir/dplain" 2>&1
grep -qF ', 1 not run to the end' "$dir/dplain" ||
	{ echo "dispatch replay without shaders: the queue should not end"; rc=1; }
[ "$rc" -eq 0 ] || cat "$dir/dreplay"
exit $rc
