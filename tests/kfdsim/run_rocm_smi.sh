#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Debian's rocm-smi (5.2.3, or 6.x in tests/modern) on a simulated machine, as a monitoring tool
# next to a GPU process:
#   run_rocm_smi.sh KFDTRACE PROFILE VRAM_STEPS
# VRAM_STEPS is tests/kfdsim/vram_steps.c (on libhsakmt) or
# tests/hip/hip_vram_steps.hip (a HIP process); both speak one protocol.
# 1. --showproductname --showmeminfo vram --json lists every GPU of the
#    profile with its product_name and VRAM total (the expected values come
#    from `kfdtrace sim --dump-profile`), nothing used, no KFD process;
# 2. VRAM_STEPS runs in the same machine and allocates VRAM in steps;
#    between the steps --showpids lists it with its name, GPU count and
#    VRAM use, and --showmeminfo vram shows the use grow by each step;
# 3. once it has exited, no KFD process is listed and nothing is used.
# The script re-runs itself under `kfdtrace sim`, so every process shares
# one simulated machine. Exit 77 (skipped) without rocm-smi or python3.
set -u

if [ "${1:-}" != --inner ]; then
	kfdtrace=$1
	profile=$2
	steps_exe=$3
	if ! command -v rocm-smi >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
		echo "rocm-smi is not installed (Debian package rocm-smi); skipping"
		exit 77
	fi
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	"$kfdtrace" sim --dump-profile "$profile" >"$work/profile" || exit 1
	"$kfdtrace" sim --profile "$profile" -- "$0" --inner "$work" "$steps_exe"
	exit $?
fi

work=$2
steps_exe=$3
# the name --showpids shows: the executable's, cut as the kernel's comm
steps_name=$(basename "$steps_exe" | cut -c1-15)
step_mib=16
nsteps=3
fail=0

# One value of the last smi_json: CARD KEY (card "card0", key as printed;
# its case is ignored: 5.2.3 prints "Card series", 6.x "Card Series").
json_value() {
	python3 -c 'import json, sys
d = {k.lower(): v for k, v in json.load(open(sys.argv[1])).get(sys.argv[2], {}).items()}
print(d.get(sys.argv[3].lower(), ""))' "$work/smi.json" "$1" "$2"
}

smi_json() {
	rocm-smi "$@" --json >"$work/smi.json" 2>"$work/smi.err" || {
		echo "FAIL: rocm-smi $* exited $?"; cat "$work/smi.err"; exit 1; }
}

# What rocm-smi shows now: KFD processes and memory use, in pids.txt.
smi_state() {
	rocm-smi --showpids --showmeminfo vram >"$work/pids.txt" 2>&1 || {
		echo "FAIL: rocm-smi exited $?"; cat "$work/pids.txt"; exit 1; }
}

# From the last smi_state: GPU 0's VRAM use, machine-wide.
vram_used() {
	awk '/^GPU\[0\].*VRAM Total Used Memory/ { print $NF }' "$work/pids.txt"
}

# From the last smi_state: field N (1: PID, 2: name, 3: GPU count, 4: VRAM
# used) of the row of process PID; "" if it is not listed.
pid_field() {
	awk -v pid="$1" -v f="$2" '$1 == pid { print $f }' "$work/pids.txt"
}

# Wait (up to 30 s) for a line starting with $1 in the helper's output.
await() {
	i=0
	while ! grep -q "^$1" "$work/steps.out" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 "$helper" 2>/dev/null; then
			echo "FAIL: $steps_name did not print '$1'"
			cat "$work/steps.out" "$work/steps.err" 2>/dev/null
			exit 1
		fi
		sleep 0.1
	done
}

# 1. products and totals, in profile order: "VRAM_SIZE PRODUCT_NAME" of
# every [node N drm] section
python3 -c 'import sys
secs, cur = [], None
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("["):
        cur = {} if line.endswith(" drm]") else None
        if cur is not None:
            secs.append(cur)
    elif cur is not None and line:
        k, _, v = line.partition(" ")
        cur[k] = v.strip("\"")
for s in secs:
    print(s["vram_size"], s["product_name"])' "$work/profile" >"$work/expect" || exit 1
smi_json --showproductname --showmeminfo vram
cat "$work/smi.json"; echo
gpu=0
while read -r total product; do
	got=$(json_value "card$gpu" "Card series")
	[ "$got" = "$product" ] || { echo "FAIL: card$gpu series '$got', want '$product'"; fail=1; }
	got=$(json_value "card$gpu" "VRAM Total Memory (B)")
	[ "$got" = "$total" ] || { echo "FAIL: card$gpu VRAM total '$got', want $total"; fail=1; }
	got=$(json_value "card$gpu" "VRAM Total Used Memory (B)")
	[ "$got" = 0 ] || { echo "FAIL: card$gpu VRAM used '$got' before any process"; fail=1; }
	gpu=$((gpu + 1))
done <"$work/expect"
n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$work/smi.json")
if [ "$gpu" -eq 0 ] || [ "$n" -ne "$gpu" ]; then
	echo "FAIL: rocm-smi lists $n cards, the profile has $gpu GPUs"
	fail=1
fi
smi_state
grep -q "No KFD PIDs currently running" "$work/pids.txt" ||
	{ echo "FAIL: KFD processes listed before any runs:"; cat "$work/pids.txt"; fail=1; }

# 2. a process allocating VRAM in steps
mkfifo "$work/in" || exit 1
"$steps_exe" $step_mib $nsteps <"$work/in" >"$work/steps.out" 2>"$work/steps.err" &
helper=$!
exec 3>"$work/in"
await ready
pid=$(awk '/^ready/ { print $2 }' "$work/steps.out")
[ "$pid" = "$helper" ] || { echo "FAIL: helper says pid $pid, started $helper"; fail=1; }
smi_state
cat "$work/pids.txt"
base_used=$(vram_used)
base_pid=$(pid_field "$pid" 4)
if [ -z "$base_pid" ] || [ -z "$base_used" ]; then
	echo "FAIL: --showpids does not list pid $pid, or no VRAM use is shown"
	exit 1
fi
got=$(pid_field "$pid" 3)
[ "$got" = 1 ] || { echo "FAIL: pid $pid on '$got' GPUs, want 1 (its queue's)"; fail=1; }
got=$(pid_field "$pid" 2)
[ "$got" = "$steps_name" ] || { echo "FAIL: pid $pid named '$got', want $steps_name"; fail=1; }

s=1
while [ $s -le $nsteps ]; do
	echo >&3
	await "step $s "
	total=$(awk -v s=$s '$1 == "step" && $2 == s { print $3 }' "$work/steps.out")
	smi_state
	want=$((base_used + total))
	got=$(vram_used)
	echo "step $s: $total B allocated, VRAM used $got"
	[ "$got" = "$want" ] || { echo "FAIL: step $s: VRAM used '$got', want $want"; fail=1; }
	want=$((base_pid + total))
	got=$(pid_field "$pid" 4)
	[ "$got" = "$want" ] || { echo "FAIL: step $s: pid $pid VRAM '$got', want $want"; fail=1; }
	s=$((s + 1))
done
cat "$work/pids.txt"

# 3. after it exits
exec 3>&-
wait "$helper" || { echo "FAIL: $steps_name exited $?"; cat "$work/steps.err"; fail=1; }
smi_state
cat "$work/pids.txt"
got=$(vram_used)
[ "$got" = 0 ] || { echo "FAIL: VRAM used '$got' after the process exited"; fail=1; }
grep -q "No KFD PIDs currently running" "$work/pids.txt" ||
	{ echo "FAIL: KFD processes listed after the last one exited"; fail=1; }
[ $fail -eq 0 ] && echo "rocm-smi: OK"
exit $fail
