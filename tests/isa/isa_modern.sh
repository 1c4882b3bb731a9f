#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The cross-check of a family that Debian 12's hipcc cannot build for:
# our HIP programs are built by the modern root's hipcc (tests/modern),
# and ROCr's blit kernels come from the root's libhsa-runtime64.so.1.
#   isa_modern.sh OUTDIR FAMILY CROSSCHECK ISA_DIS SOURCE[:HEADER[:FLAGS]]...
# A SOURCE that needs HEADER from the root (a library's) is left out when
# the root lacks it, and fails the test under CI=true; FLAGS are more
# hipcc options, separated by spaces. KFDTRACE_MODERN_ROOT names the root,
# as for tests/modern. Without it the test is skipped (77), and fails
# under CI=true (in_root.sh says which).
set -u

here=$(dirname "$0")
outdir=$1
family=$2
crosscheck=$3
tool=$4
shift 4
root=${KFDTRACE_MODERN_ROOT:-/var/cache/kfdtrace/rocm-sid}

mkdir -p "$outdir"
progs=
for arg in "$@"; do
	src=${arg%%:*}
	header=
	flags=
	case $arg in
	*:*)
		header=${arg#*:}
		case $header in
		*:*) flags=${header#*:}; header=${header%%:*} ;;
		esac
		;;
	esac
	if [ -n "$header" ] && [ -x "$root/usr/bin/rocminfo" ] &&
	   [ ! -e "$root/usr/include/$header" ]; then
		if [ "${CI:-}" = true ]; then
			echo "FAIL: the ROCm 6.4 root has no $header for $src (scripts/setup.sh)"
			exit 1
		fi
		echo "left out: $src (the ROCm 6.4 root has no $header)"
		continue
	fi
	exe=$outdir/$(basename "$src" .hip)-$family
	(
		flock 9
		if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
			# shellcheck disable=SC2086 # a list of options
			"$here/../modern/in_root.sh" hipcc --offload-arch="$family" -O2 \
				-I"$(dirname "$src")" -I"$here/../common" $flags -o "$exe.new" \
				"$src" && mv "$exe.new" "$exe"
		fi
	) 9>"$exe.lock"
	rc=$?
	[ "$rc" -eq 77 ] && exit 77
	if [ "$rc" -ne 0 ] || [ ! -x "$exe" ]; then
		echo "FAIL: the modern root's hipcc could not build $src for $family"
		exit 1
	fi
	progs="$progs $exe"
done
exec python3 "$crosscheck" --tool "$tool" --family "$family" \
	--rocr "$root/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1" $progs
