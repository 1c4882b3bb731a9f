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
	# rocPRIM's headers and rocRAND's, for tests/hip's hip_rocprim and
	# hip_rocrand built for gfx942 (tests/modern)
	librocprim-dev librocrand-dev
	# what the project's binaries, built on Debian 12, load inside the root
	libdrm-amdgpu1 libzstd1 libbabeltrace2-0 libprotobuf-c1
	# rocm-smi opens the unversioned libdrm_amdgpu.so and runs ps
	libdrm-dev procps
	# tests/kfdsim's test_thunk, run on AMD's libhsakmt 6.2 (below)
	libcmocka0
)

# AMD's libhsakmt 6.2 from Debian trixie, a second AMD thunk for the
# comparison of thunks (tests/thunk/compare_ioctls.py --amd-lib). It needs
# glibc 2.38, so it runs inside the root, unpacked beside it: apt's state
# for trixie is kept apart, and the root's packages stay sid's.
amd62_dir=/opt/kfdtrace-libhsakmt-6.2
amd62_state=/var/lib/kfdtrace-trixie

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

# apt-get inside the root on trixie's package lists (amd62_state), in
# that directory: apt-get download writes there.
trixie_apt() {
	local dir=$1

	shift
	unshare -m sh -c '
		dir=$1; state=$2; shift 2
		mount --bind /proc "$dir/proc" && mount --bind /dev "$dir/dev" &&
		DEBIAN_FRONTEND=noninteractive chroot "$dir" sh -c "cd \"\$0\" && exec apt-get \
			-o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root \
			-o Dir::Etc::SourceList=\$0/sources.list -o Dir::Etc::SourceParts=/nonexistent \
			-o Dir::State::Lists=\$0/lists -o Dir::Cache::pkgcache= \
			-o Dir::Cache::srcpkgcache= -q \"\$@\"" "$state" "$@"' sh "$dir" "$amd62_state" "$@"
}

# AMD's libhsakmt 6.2 unpacked into the root's amd62_dir, once.
setup_amd62() {
	local lib=$root$amd62_dir/usr/lib/x86_64-linux-gnu/libhsakmt.so.1 deb

	[ -e "$lib" ] && return 0
	echo "setup-modern: AMD's libhsakmt from trixie into $root$amd62_dir"
	mkdir -p "$root$amd62_state/lists/partial" || return 1
	echo "deb $mirror trixie main" >"$root$amd62_state/sources.list" || return 1
	rm -f "$root$amd62_state"/libhsakmt1_*.deb
	trixie_apt "$root" update >>"$root.log" 2>&1 &&
		trixie_apt "$root" download libhsakmt1 >>"$root.log" 2>&1 || return 1
	deb=$(ls "$root$amd62_state"/libhsakmt1_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || return 1
	rm -rf "$root$amd62_dir.new"
	dpkg-deb -x "$deb" "$root$amd62_dir.new" &&
		[ -e "$root$amd62_dir.new/usr/lib/x86_64-linux-gnu/libhsakmt.so.1" ] &&
		rm -rf "$root$amd62_dir" && mv "$root$amd62_dir.new" "$root$amd62_dir" || return 1
	echo "setup-modern: $(dpkg-deb -f "$deb" Package Version | tr '\n' ' ')in $amd62_dir" >>"$root.log"
	rm -rf "$root$amd62_state/lists"
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
# Only the comparison with AMD's 6.2 needs it: the root is ready without.
if ! setup_amd62; then
	echo "setup-modern: step 'libhsakmt 6.2' failed: see $root.log" >&2
	echo "setup-modern: the comparison with AMD's 6.2 will report it missing" >&2
fi
echo "setup-modern: ROCm $(chroot "$root" dpkg-query -W -f='${Version}' libhsa-runtime64-1) root ready at $root ($((SECONDS - t)) s)"
