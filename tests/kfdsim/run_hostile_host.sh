#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The simulated machine's CPU side comes from its profile, never from the
# host. The real clients run three times, on AMD's libhsakmt and on ours:
#   plain      on this host as it is;
#   hostile    in a private mount namespace whose /sys/devices/system/cpu
#              and /sys/devices/system/node are empty tmpfs and whose
#              /proc/cpuinfo is an ARM machine's single CPU;
#   synthetic  in a namespace whose host has a cache sysfs (2 CPUs, one
#              NUMA node) and an Intel CPU, as most hosts do.
# rocminfo, the HSA program, the hsaKmt program and a record/replay round
# trip must give the same results in plain and hostile, and rocminfo the
# same output in synthetic: no host fact leaks in.
#
#   run_hostile_host.sh KFDTRACE OUR_THUNK_DIR HSA_PROGRAM HSAKMT_PROGRAM
#
# Debian's rocminfo and the directory of its libhsakmt.so.1 come from meson
# (KT_ROCMINFO, KT_AMD_LIBDIR: tests/common/meson.build); without them the
# test is skipped (77), or fails under CI=true.
# Needs a private mount namespace: as root `unshare -m`, else `unshare
# -rm`; when neither works it says so and exits 77 (skipped).
set -u

if [ "${1:-}" = --inner ]; then
	mode=$2 out=$3
	shift 3
fi
kfdtrace=$1 ours=$2 hsa=$3 hsakmt=$4
amd=${KT_AMD_LIBDIR:-}
profile=mi210

rocminfo=${KT_ROCMINFO:-}
if [ -z "$rocminfo" ] || [ -z "$amd" ] || [ ! -e "$amd/libhsakmt.so.1" ]; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: rocminfo or Debian's libhsakmt1 is not installed (CI=true)"
		exit 1
	fi
	echo "rocminfo or Debian's libhsakmt1 is not installed; skipping"
	exit 77
fi

norand=
if setarch "$(uname -m)" -R true 2>/dev/null; then
	norand="setarch $(uname -m) -R"
fi

# Everything one library gives on the machine, into $1/<what>-<lib>.
run_clients() {
	dir=$1 lib=$2 libdir=$3
	(
		export LD_LIBRARY_PATH=$libdir
		"$kfdtrace" sim --profile $profile -- "$rocminfo" >"$dir/rocminfo-$lib" 2>&1
		echo "exit $?" >>"$dir/rocminfo-$lib"
		"$kfdtrace" sim --profile $profile -- "$hsa" --gpus 1 \
			--thunk "$libdir/libhsakmt.so.1" >"$dir/hsa-$lib" 2>&1
		echo "exit $?" >>"$dir/hsa-$lib"
		"$kfdtrace" sim --profile $profile -- "$hsakmt" >"$dir/hsakmt-$lib" 2>&1
		echo "exit $?" >>"$dir/hsakmt-$lib"
		# The hsaKmt program (ROCr's threads make the HSA program's waits
		# timing-dependent). The trace's size and the replay's timings
		# vary: keep the counts of the main process's trace.
		# Without address randomisation: a replayed allocation can
		# otherwise meet a range the replayer's own libraries took
		# (EADDRINUSE), by chance, whatever the host.
		$norand "$kfdtrace" record --sim=$profile -o "$dir/trace-$lib.kfdtrace" -- \
			"$hsakmt" >"$dir/rec.log" 2>&1
		echo "exit $?" >"$dir/record-$lib"
		grep -o "trace-$lib.kfdtrace: [0-9]* records, [0-9]* ioctls ([0-9]* failed)" \
			"$dir/rec.log" >>"$dir/record-$lib"
		$norand "$kfdtrace" replay "$dir/trace-$lib.kfdtrace" --sim=$profile \
			>"$dir/rep.log" 2>&1
		echo "exit $?" >"$dir/replay-$lib"
		grep -E '^ *(mapped|result):' "$dir/rep.log" >>"$dir/replay-$lib"
		sed -n 's/^ *replayed: *\([0-9]* records ([0-9]* ioctls)\).*/\1/p' \
			"$dir/rep.log" >>"$dir/replay-$lib"
		grep -q 'result: *match' "$dir/rep.log" || cat "$dir/rep.log" >>"$dir/replay-$lib"
		# The run's files: trace-LIB.kfdtrace and its children's
		# trace-LIB.<pid>.kfdtrace.
		rm -f "$dir"/trace-"$lib".kfdtrace "$dir"/trace-"$lib".*.kfdtrace \
			"$dir/rec.log" "$dir/rep.log"
	)
}

# An empty sysfs CPU side and an ARM /proc/cpuinfo of one CPU.
make_hostile() {
	mount -t tmpfs kfdsim-cpu /sys/devices/system/cpu || return 1
	mount -t tmpfs kfdsim-node /sys/devices/system/node || return 1
	fmt='processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm\n'
	fmt=$fmt'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\n'
	fmt=$fmt'CPU part\t: 0xd0c\nCPU revision\t: 1\n\n'
	printf "$fmt" >"$out/cpuinfo"
	mount --bind "$out/cpuinfo" /proc/cpuinfo || return 1
	# the namespace must really be hostile, or the test proves nothing
	[ -z "$(ls -A /sys/devices/system/cpu)$(ls -A /sys/devices/system/node)" ] ||
		return 1
	grep -q '^CPU implementer' /proc/cpuinfo || return 1
}

# A 2-CPU Intel host with caches and one NUMA node, in sysfs's layout.
make_synthetic() {
	c=/sys/devices/system/cpu n=/sys/devices/system/node
	mount -t tmpfs kfdsim-cpu $c || return 1
	mount -t tmpfs kfdsim-node $n || return 1
	echo 0-1 >$c/online
	echo 0-1 >$c/possible
	echo 0 >$n/online
	mkdir -p $n/node0
	echo 0-1 >$n/node0/cpulist
	echo 3 >$n/node0/cpumap
	: >"$out/cpuinfo"
	for i in 0 1; do
		mkdir -p $c/cpu$i/topology
		echo 0 >$c/cpu$i/topology/physical_package_id
		echo $i >$c/cpu$i/topology/core_id
		ln -s ../../cpu/cpu$i $n/node0/cpu$i
		idx=0
		for k in "1 Data 48K 12 1" "1 Instruction 32K 8 1" "2 Unified 1280K 10 1" \
			 "3 Unified 55296K 12 2"; do
			set -- $k
			d=$c/cpu$i/cache/index$idx
			mkdir -p $d
			echo $1 >$d/level
			echo $2 >$d/type
			echo $3 >$d/size
			echo 64 >$d/coherency_line_size
			echo $4 >$d/ways_of_associativity
			echo 1 >$d/physical_line_partition
			if [ "$5" = 2 ]; then
				echo 3 >$d/shared_cpu_map
				echo 0-1 >$d/shared_cpu_list
			else
				echo $((1 << i)) >$d/shared_cpu_map
				echo $i >$d/shared_cpu_list
			fi
			idx=$((idx + 1))
		done
		fmt='processor\t: %s\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n'
		fmt=$fmt'model\t\t: 106\nmodel name\t: Intel(R) Xeon(R) Platinum 8380 CPU'
		fmt=$fmt' @ 2.30GHz\nstepping\t: 6\ncpu MHz\t\t: 2300.000\n'
		fmt=$fmt'cache size\t: 61440 KB\nphysical id\t: 0\nsiblings\t: 2\n'
		fmt=$fmt'core id\t\t: %s\ncpu cores\t: 2\napicid\t\t: %s\n'
		fmt=$fmt'initial apicid\t: %s\nflags\t\t: fpu sse sse2 avx avx2 avx512f\n\n'
		printf "$fmt" $i $i $((i * 2)) $((i * 2)) >>"$out/cpuinfo"
	done
	mount --bind "$out/cpuinfo" /proc/cpuinfo || return 1
	[ -e $c/cpu1/cache/index3/size ] || return 1
}

if [ -n "${mode:-}" ]; then
	case $mode in
	hostile) make_hostile ;;
	synthetic) make_synthetic ;;
	esac || { echo "FAIL: cannot set up the $mode namespace"; exit 1; }
	run_clients "$out" amd "$amd"
	run_clients "$out" ours "$ours"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/plain" "$tmp/hostile" "$tmp/synthetic"

# How to get a private mount namespace here.
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	ns="unshare -m --propagation private"
elif unshare -rm --propagation private true 2>/dev/null; then
	ns="unshare -rm --propagation private"
else
	echo "SKIP: neither 'unshare -m' (as root) nor 'unshare -rm' (user namespaces)"
	echo "SKIP: works here, so no host can be made hostile: the test did not run"
	exit 77
fi

run_clients "$tmp/plain" amd "$amd"
run_clients "$tmp/plain" ours "$ours"
for m in hostile synthetic; do
	$ns sh "$0" --inner $m "$tmp/$m" "$kfdtrace" "$ours" "$hsa" "$hsakmt" ||
		{ echo "FAIL: the $m run did not complete"; exit 1; }
done

fail=0
for f in "$tmp"/plain/*; do
	name=$(basename "$f")
	case $name in cpuinfo) continue ;; esac
	if ! grep -q '^exit 0$' "$f"; then
		echo "FAIL: $name failed on the plain host:"
		cat "$f"
		fail=1
	fi
	if ! cmp -s "$f" "$tmp/hostile/$name"; then
		echo "FAIL: $name differs on the hostile host:"
		diff -u "$f" "$tmp/hostile/$name" | head -40
		fail=1
	fi
done
for lib in amd ours; do
	if ! cmp -s "$tmp/hostile/rocminfo-$lib" "$tmp/synthetic/rocminfo-$lib"; then
		echo "FAIL: rocminfo on $lib differs where the host has caches and another CPU:"
		diff -u "$tmp/hostile/rocminfo-$lib" "$tmp/synthetic/rocminfo-$lib" | head -40
		fail=1
	fi
	grep -q ' records, ' "$tmp/plain/record-$lib" &&
		grep -q 'result: *match' "$tmp/plain/replay-$lib" ||
		{ echo "FAIL: no record/replay summary on $lib"; fail=1; }
	# the CPU agent is the profile's, the GPU agent is listed
	grep -q 'Name: *AMD EPYC 7313P 16-Core Processor' "$tmp/hostile/rocminfo-$lib" ||
		{ echo "FAIL: no profile CPU agent on $lib"; fail=1; }
	grep -q 'Name: *gfx90a' "$tmp/hostile/rocminfo-$lib" ||
		{ echo "FAIL: no GPU agent on $lib"; fail=1; }
	if grep -q 'Xeon' "$tmp/synthetic/rocminfo-$lib"; then
		echo "FAIL: the synthetic host's CPU shows through on $lib"
		fail=1
	fi
done
[ "$fail" -eq 0 ] && echo "PASS: same agents, programs and replay on plain, hostile and synthetic hosts"
exit "$fail"
