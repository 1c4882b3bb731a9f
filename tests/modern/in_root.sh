#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Run a command inside the modern ROCm root (scripts/setup-modern.sh), in a
# private mount namespace: /proc, /sys, /dev (with /dev/shm), /tmp, the
# source tree and the build tree are bound in at their own paths, so the
# project's binaries and scratch files have the same names inside as out.
# The command starts in the same working directory, when the root has it.
#   in_root.sh COMMAND [ARG...]
# KFDTRACE_MODERN_ROOT names the root (default /var/cache/kfdtrace/rocm-sid);
# KFDTRACE_SRC and KFDTRACE_BUILD_DIR the trees to bind (meson sets them).
# A missing root is meson's "skipped" (77), and a failure under CI=true.
set -u

root=${KFDTRACE_MODERN_ROOT:-/var/cache/kfdtrace/rocm-sid}

if ! [ -x "$root/usr/bin/rocminfo" ]; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: the ROCm 6.4 root is missing (scripts/setup.sh): $root"
		exit 1
	fi
	echo "skipped: the ROCm 6.4 root is missing (scripts/setup.sh): $root"
	exit 77
fi

# As root a mount namespace is enough; otherwise a user namespace maps us
# to root inside it, which also allows chroot.
if [ "$(id -u)" -eq 0 ]; then
	ns="unshare --mount"
else
	ns="unshare --mount --map-root-user"
fi

export cwd="$PWD"
exec $ns sh -c '
	root=$1; shift
	bind() {
		mkdir -p "$root$1" 2>/dev/null
		mount --rbind "$1" "$root$1" || exit 1
	}
	bind /proc; bind /sys; bind /dev; bind /tmp
	for d in "${KFDTRACE_SRC:-}" "${KFDTRACE_BUILD_DIR:-}"; do
		[ -n "$d" ] && bind "$d"
	done
	exec chroot "$root" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" \
		"$cwd" /usr/bin/env PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
' sh "$root" "$@"
