#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The replay compares what the replayed kernels computed. hip_kernel
# (check) is recorded with --submissions=full on PROFILE: its hipMemcpy
# back reads the kernels' output from VRAM with an SDMA copy, whose
# source the capture holds.
#  - The dump names the kernel of each dispatch (the loader's blit kernel
#    copied the code object into VRAM, and kfdsim ran it).
#  - The replay (serial and --threads) compares that source with what the
#    replayed kernels left there: some bytes, none differing, a strict
#    match.
#  - A copy of the trace whose last launch reads its first input one
#    float further (byte 0 of its kernel arguments 0x00 -> 0x04) makes
#    the replay diverge at that copy source's first wrong byte; with
#    --no-compare it matches.
#  - hip_pinned (check): hipMemset's fill kernel reads its pattern from
#    host memory no packet names; the capture records it, as the fill
#    kernel's arguments name it. The copies back of what it filled are
#    compared, all equal: none lacks the GPU's inputs.
#  - hip_small_copies: HIP writes some 4 KiB copies into VRAM with the
#    CPU, which the trace does not show, and copies back into userptr
#    buffers whose GPU VA is not their CPU address. It replays without
#    a divergence.
#  - hip_blit: device-to-device copies and a hipMemset by HIP's blit
#    kernels, named in the dump; the capture holds the fill's pattern.
#    The copies back compare every byte the blit kernels wrote, all
#    equal. One byte changed in the host-to-device copy's source
#    diverges where the chain of copies took it (+4097 of b); one byte
#    of the fill's pattern, at that byte of c.
#   run_compare.sh KFDTRACE RP_ALTER HIP_KERNEL HIP_PINNED HIP_SMALL_COPIES HIP_BLIT PROFILE
# The thunk is the environment's (LD_LIBRARY_PATH, HIP_TEST_THUNK).
set -u

kfdtrace=$1
alter=$2
prog=$3
pinned=$4
small=$5
blit=$6
profile=$7
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

# record NAME PROG [ARG...]: PROG's capture with --submissions=full in
# $dir/NAME.kft; a capture that fails, or a PROG that does not pass,
# ends the test.
record() {
	name=$1
	shift
	if ! "$kfdtrace" record --sim="$profile" --submissions=full -o "$dir/$name.kft" \
		-- "$@" >"$dir/$name.rec" 2>&1 || ! grep -q '^PASS: ' "$dir/$name.rec"; then
		cat "$dir/$name.rec"
		echo "FAIL: the capture of $1"
		exit 1
	fi
}

# replays OUT PATTERN [REPLAY-ARG...]: replay into $dir/OUT; true when it
# exits 0, diverges nowhere, matches strictly, and its compared line (in
# $line) matches the extended regular expression PATTERN.
replays() {
	out=$1
	pattern=$2
	shift 2
	"$kfdtrace" replay --sim="$profile" "$@" >"$dir/$out" 2>&1
	rc=$?
	line=$(grep '^  compared: ' "$dir/$out")
	[ "$rc" -eq 0 ] && ! grep -q '^divergence' "$dir/$out" &&
		grep -q '^  result:      match (strict)' "$dir/$out" &&
		echo "$line" | grep -Eq "$pattern"
}

record t "$prog" check
"$kfdtrace" dump --seq "$dir/t.kft" >"$dir/dump" 2>&1 || { cat "$dir/dump"; exit 1; }

# vadd's 16 launches, each named from the code object in VRAM.
n=$(grep -c 'KERNEL_DISPATCH{.*kernel="_Z4vaddPKfS0_Pfi"' "$dir/dump")
echo "dispatches named vadd: $n"
[ "$n" -eq 16 ] || { echo "FAIL: not 16 dispatches named vadd"; fail=1; }

for mode in serial threads; do
	set --
	[ "$mode" = threads ] && set -- --threads
	if ! replays out ' [1-9][0-9]* copy sources in VRAM \([1-9][0-9]* bytes\) with the capture: 0 differed$' \
		"$@" "$dir/t.kft"; then
		cat "$dir/out"
		echo "FAIL: the replay ($mode) compared nothing, or not all equal"
		fail=1
	else
		echo "replay ($mode):$line"
	fi
done

# The last launch's kernel arguments: a, b, c, n. a + 4 bytes makes
# c[0] = a[1] + b[0] = 32769.0 (0x47000100), not 32768.0 (0x47000000):
# byte 1 of the copy back is 0x01, not 0x00.
seq=$(grep 'memory(kernarg, ' "$dir/dump" | tail -n 1 | sed 's/^#\([0-9]*\) .*/\1/')
if ! "$alter" "$dir/t.kft" "$dir/bad.kft" "$seq" mem@0 4 >"$dir/alter" 2>&1; then
	cat "$dir/alter"
	echo "FAIL: rp_alter could not change kernarg record #$seq"
	exit 1
fi
"$kfdtrace" replay --sim="$profile" "$dir/bad.kft" >"$dir/bad" 2>&1
rc=$?
want='copy source: captured 0x0, replayed 0x1: bytes differ at +1 of the 262144 bytes at '
if [ "$rc" -eq 0 ] || ! grep -qF -- "$want" "$dir/bad" ||
   ! grep -q 'in VRAM buffer 0x[0-9a-f]* (2097152 bytes)' "$dir/bad" ||
   ! grep -q 'with the capture: 1 differed$' "$dir/bad"; then
	cat "$dir/bad"
	echo "FAIL: the corrupted kernel argument (record #$seq) did not diverge at the first wrong byte"
	fail=1
else
	grep '^divergence' "$dir/bad"
fi
"$kfdtrace" replay --sim="$profile" --no-compare "$dir/bad.kft" >"$dir/nc" 2>&1
if [ $? -ne 0 ] || grep -q '^  compared: ' "$dir/nc" ||
   ! grep -q '^  result:      match (strict)' "$dir/nc"; then
	cat "$dir/nc"
	echo "FAIL: --no-compare compared, or did not match"
	fail=1
fi

record p "$pinned" check
if ! replays pout ': 0 differed(;|$)' "$dir/p.kft" ||
   echo "$line" | grep -q 'more where the capture lacks'; then
	cat "$dir/pout"
	echo "FAIL: $pinned's fills not compared, or not all equal"
	fail=1
else
	echo "replay of $pinned:$line"
fi

record s "$small"
if ! replays sout ' [1-9][0-9]* copy sources in VRAM .*: 0 differed' "$dir/s.kft"; then
	cat "$dir/sout"
	echo "FAIL: $small's replay compared nothing, or diverged"
	fail=1
else
	echo "replay of $small:$line"
fi
record b "$blit"
"$kfdtrace" dump --seq "$dir/b.kft" >"$dir/bdump" 2>&1 || { cat "$dir/bdump"; exit 1; }
for k in __amd_rocclr_copyBuffer __amd_rocclr_fillBufferAligned; do
	grep -q "KERNEL_DISPATCH{.*kernel=\"$k\"" "$dir/bdump" ||
		{ echo "FAIL: no dispatch named $k"; fail=1; }
done
if ! replays bout ' 2 copy sources in VRAM \(2097152 bytes\) with the capture: 0 differed$' \
	"$dir/b.kft"; then
	cat "$dir/bout"
	echo "FAIL: $blit's copies back not all compared, or not all equal"
	fail=1
else
	echo "replay of $blit:$line"
fi
# The first copy source is the host-to-device copy's (a = bytes 7i+1);
# the 8-byte one, the fill's pattern (0x5a).
src=$(grep 'memory(copy_source, ' "$dir/bdump" | head -n 1 | sed 's/^#\([0-9]*\) .*/\1/')
pat=$(grep 'memory(copy_source, .*, 8 bytes)' "$dir/bdump" | head -n 1 | sed 's/^#\([0-9]*\) .*/\1/')
for t in "$src mem@4097 255 captured 0x8, replayed 0xff: bytes differ at +4097 of" \
	 "$pat mem@3 17 captured 0x5a, replayed 0x11: bytes differ at +3 of"; do
	set -- $t
	seq=$1 field=$2 value=$3
	shift 3
	want="copy source: $*"
	rm -f "$dir/bbad.kft"
	if [ -z "$seq" ] || ! "$alter" "$dir/b.kft" "$dir/bbad.kft" "$seq" "$field" "$value" \
		>"$dir/balter" 2>&1; then
		cat "$dir/balter"
		echo "FAIL: rp_alter could not change record #$seq of $blit's trace"
		fail=1
		continue
	fi
	"$kfdtrace" replay --sim="$profile" "$dir/bbad.kft" >"$dir/bbad" 2>&1
	if [ $? -eq 0 ] || ! grep -qF -- "$want" "$dir/bbad"; then
		cat "$dir/bbad"
		echo "FAIL: $field of record #$seq changed: no divergence \"$want\""
		fail=1
	else
		grep '^divergence' "$dir/bbad"
	fi
done
[ "$fail" -eq 0 ] && echo "PASS: run_compare"
exit "$fail"
