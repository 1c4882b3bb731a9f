#!/usr/bin/env bash
# Set up a Debian 12 machine for kfdtrace and build it into build/.
#
# Installs the build dependencies and the real clients the tests run
# (AMD's libhsakmt 5.2.3, ROCr 5.2.3, rocminfo, rocm-smi 5.2.3),
# idempotently: apt-get runs only when a package is missing. Then
# configures (or reconfigures) and builds, and prepares the modern ROCm
# tier's root (scripts/setup-modern.sh). Safe to run again.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${KFDTRACE_BUILD:-$top/build}

packages=(
	# build
	meson ninja-build gcc clang pkg-config
	libdrm-dev libzstd-dev libcmocka-dev nettle-dev
	liblttng-ust-dev lttng-tools libbabeltrace2-dev babeltrace2
	# tests/bt2's bt2-python reads the export through babeltrace2's bindings
	python3-bt2
	# real clients the tests run (rocm-smi pulls in librocm-smi64-1)
	libhsakmt1 libhsakmt-dev libhsa-runtime64-1 libhsa-runtime-dev rocminfo
	rocm-smi
	# HIP 5.2.3: tests/hip builds programs of ours with hipcc (clang 15)
	hipcc libamdhip64-dev
	# tests/hip's programs on rocPRIM (header only), rocRAND 5.3.3 and
	# rocSPARSE 5.3.0
	librocprim-dev librocrand-dev librocsparse-dev
	# tests/isa: LLVM 15's disassembler is the decoder's oracle; rocRAND's
	# kernels are its measured corpus
	llvm-15 librocrand1
	# tools the tests use
	zstd kmod libxml2-utils chromium zlib1g-dev strace
	# the man pages (help2man) and the bash completion's directory and
	# library (tests/dist)
	help2man bash-completion
	# the rocpd export (SQLite) and its tests (the sqlite3 command)
	libsqlite3-dev sqlite3
	# the Perfetto protobuf export (protobuf-c) and its test (protoc --decode)
	libprotobuf-c-dev protobuf-c-compiler protobuf-compiler
	# CI hardening runs (scripts/ci-*.sh)
	valgrind gcovr
	# the modern ROCm tier's root (scripts/setup-modern.sh, tests/modern)
	debootstrap
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	"${sudo_cmd[@]}" apt-get update -q
	"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ -f "$build/build.ninja" ]; then
	meson setup --reconfigure "$build" "$top" >/dev/null
else
	meson setup "$build" "$top"
fi
ninja -C "$build"

# The modern ROCm tier (ROCm 6.x from Debian sid, docs/rocm-tiers.md). A root
# that cannot be made is reported with the step that failed; the rest of
# the project is still usable, and the tier's tests say the root is missing
# (a failure under CI=true).
"${sudo_cmd[@]}" env ${KFDTRACE_MODERN_ROOT:+KFDTRACE_MODERN_ROOT="$KFDTRACE_MODERN_ROOT"} \
	"$top/scripts/setup-modern.sh" ||
	echo "setup: the modern ROCm root is not ready; tests/modern will report it missing" >&2
