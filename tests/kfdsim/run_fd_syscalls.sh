#!/bin/sh
# No system call per ioctl on kfdsim: test_shim_fds --loop N under strace,
# for two N; the number of system calls (all of them, and the fstat family
# apart) must not grow with N; nor the fstat calls of N ioctls on a pipe. With KFDSIM_FD_CHECK=call (one fstat an
# ioctl) it must: that shows the count sees what it is meant to see.
# Usage: run_fd_syscalls.sh TEST_SHIM_FDS LIBKFDSIM PROFILE
set -eu
prog=$1 lib=$2 profile=$3
command -v strace >/dev/null || { echo "strace is not installed (scripts/setup.sh)"; exit 1; }
out=$(mktemp -d /tmp/kfdsim-fdsys-XXXXXX)
trap 'rm -rf "$out"' EXIT

# LeakSanitizer cannot run under ptrace: in a sanitizer build the counted
# programs keep AddressSanitizer's checks but not its leak check at exit.
asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# count CHECK N SET [MODE]: calls of SET (strace -e trace=...) for N
# ioctls of test_shim_fds MODE (--loop: GET_VERSION on /dev/kfd)
count() {
	strace -f -qq -c -o "$out/c" -e trace="$3" -E LD_PRELOAD="$lib" \
		-E KFDSIM_PROFILE="$profile" -E KFDSIM_FD_CHECK="$1" \
		-E ASAN_OPTIONS="$asan" \
		"$prog" "${4:---loop}" "$2" >/dev/null ||
		{ echo "FAIL: $prog ${4:---loop} $2 under strace: exit $?" >&2; return 1; }
	awk '$NF == "total" { print $4 }' "$out/c"
}

small=100 big=20100
for set in all fstat,newfstatat,statx; do
	a=$(count events $small "$set")
	b=$(count events $big "$set")
	echo "$set: $a system calls for $small ioctls, $b for $big"
	# a few may come and go (allocator, lazy setup), not one an ioctl
	if [ $((b - a)) -gt 50 ]; then
		echo "FAIL: $((b - a)) more system calls for $((big - small)) more ioctls"
		exit 1
	fi
done
# an ioctl on a plain fd (a pipe's FIONREAD) costs its own system call
# only: the shim does not ask the model whether the fd is its
set=fstat,newfstatat,statx
a=$(count events $small $set --loop-pipe)
b=$(count events $big $set --loop-pipe)
echo "pipe FIONREAD: $a fstat calls for $small ioctls, $b for $big"
if [ $((b - a)) -gt 50 ]; then
	echo "FAIL: $((b - a)) more fstat calls for $((big - small)) more pipe ioctls"
	exit 1
fi
a=$(count call $small fstat,newfstatat,statx)
b=$(count call $big fstat,newfstatat,statx)
echo "KFDSIM_FD_CHECK=call: $a fstat calls for $small ioctls, $b for $big"
if [ $((b - a)) -lt $((big - small)) ]; then
	echo "FAIL: the count does not see the per-ioctl fstat of KFDSIM_FD_CHECK=call"
	exit 1
fi
echo ok
