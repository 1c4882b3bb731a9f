#!/usr/bin/env bash
# Prepare the modern ROCm tier: a Debian sid root with ROCm 6.x's runtime
# (the thunk linked into libhsa-runtime64), HIP, hipcc, rocminfo, rocm-smi
# and small library test packages. The tests in tests/modern run real
# clients inside it on kfdsim (docs/rocm-tiers.md).
#
# Idempotent and cached: a root that holds every package of the list is
# left alone, and a root that lacks some gets only those. The root is made
# in a temporary directory and renamed into place whole, so an interrupted
# run leaves no half-made root behind.
#
#   KFDTRACE_MODERN_ROOT    where the root lives (default /var/cache/kfdtrace/rocm-sid)
#   KFDTRACE_MODERN_MIRROR  the Debian mirror (default http://deb.debian.org/debian)
#
# Exit status 0 when the root is ready; otherwise 1, with the step that
# failed named on stderr.
set -uo pipefail

root=${KFDTRACE_MODERN_ROOT:-/var/cache/kfdtrace/rocm-sid}
mirror=${KFDTRACE_MODERN_MIRROR:-http://deb.debian.org/debian}

packages=(
	# ROCm 6.x: ROCr with its thunk inside, HIP, the compiler driver
	libhsa-runtime64-1 libamdhip64-6 libamdhip64-dev hipcc
	rocminfo rocm-smi
	# library test programs (small ones)
	libhiprand1-tests libhipfft0-tests
	# what the project's binaries, built on Debian 12, load inside the root
	libdrm-amdgpu1 libzstd1 libbabeltrace2-0 libprotobuf-c1
	# rocm-smi opens the unversioned libdrm_amdgpu.so and runs ps
	libdrm-dev procps
)

fail() {
	echo "setup-modern: step '$1' failed: $2" >&2
	echo "setup-modern: the ROCm tier's tests will report the root as missing" >&2
	exit 1
}

# apt inside the root: these machines' clocks can run past a Release
# file's Valid-Until, which apt would otherwise refuse.
in_root_apt() {
	local dir=$1

	shift
	unshare -m sh -c '
		dir=$1; shift
		mount --bind /proc "$dir/proc" && mount --bind /dev "$dir/dev" &&
		DEBIAN_FRONTEND=noninteractive chroot "$dir" apt-get \
			-o Acquire::Check-Valid-Until=false -q "$@"' sh "$dir" "$@"
}

missing_in() {
	local dir=$1 p

	for p in "${packages[@]}"; do
		chroot "$dir" dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || echo "$p"
	done
}

[ "$(id -u)" -eq 0 ] || fail "privileges" "making a root with debootstrap needs root"
for tool in debootstrap unshare chroot; do
	command -v "$tool" >/dev/null || fail "tools" "$tool is not installed (scripts/setup.sh installs it)"
done

mkdir -p "$(dirname "$root")" || fail "mkdir" "cannot create $(dirname "$root")"
exec 9>"$root.lock" || fail "lock" "cannot open $root.lock"
flock 9 || fail "lock" "cannot lock $root.lock"

t=$SECONDS
if [ ! -d "$root" ]; then
	tmp=$root.new
	rm -rf "$tmp"
	echo "setup-modern: debootstrap sid into $tmp"
	debootstrap --variant=minbase sid "$tmp" "$mirror" >"$root.log" 2>&1 ||
		fail "debootstrap" "see $root.log"
	mv "$tmp" "$root" || fail "rename" "cannot move $tmp to $root"
fi

mapfile -t need < <(missing_in "$root")
if [ ${#need[@]} -gt 0 ]; then
	echo "setup-modern: installing ${need[*]}"
	in_root_apt "$root" update >>"$root.log" 2>&1 || fail "apt-get update" "see $root.log"
	in_root_apt "$root" install -y --no-install-recommends "${need[@]}" >>"$root.log" 2>&1 ||
		fail "apt-get install" "see $root.log"
	in_root_apt "$root" clean >/dev/null 2>&1
	mapfile -t need < <(missing_in "$root")
	[ ${#need[@]} -eq 0 ] || fail "verify" "still missing: ${need[*]}"
fi
echo "setup-modern: ROCm $(chroot "$root" dpkg-query -W -f='${Version}' libhsa-runtime64-1) root ready at $root ($((SECONDS - t)) s)"
