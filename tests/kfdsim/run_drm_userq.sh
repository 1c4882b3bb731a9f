#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The render node's newer requests end to end: drm_userq_probe recorded
# with `kfdtrace record --sim` on PROFILE as it is (DRM 3.57: the requests
# do not exist) and on a copy reporting DRM 3.64, each replayed strictly on
# its profile; the dump names every request and shows its arrays.
#   run_drm_userq.sh KFDTRACE PROBE PROFILE
set -u
kfdtrace=$1
probe=$2
profile=$3

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

grep -q '^version_minor 57$' "$profile" || {
	echo "FAIL: $profile reports no DRM 3.57"; exit 1; }
cp "$profile" "$dir/old.profile"
sed 's/^version_minor 57$/version_minor 64/' "$profile" >"$dir/new.profile"

for p in old new; do
	if ! "$kfdtrace" record --sim="$dir/$p.profile" -o "$dir/$p.kft" -- \
		"$probe" >"$dir/$p.rec" 2>&1 || ! grep -q '^PASS: ' "$dir/$p.rec"; then
		cat "$dir/$p.rec"
		echo "FAIL: the capture on the $p profile"
		fail=1
		continue
	fi
	grep '^PASS: ' "$dir/$p.rec"
	"$kfdtrace" replay --sim="$dir/$p.profile" "$dir/$p.kft" >"$dir/$p.out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q '^  result:      match (strict)' "$dir/$p.out" ||
	   grep -q 'divergence' "$dir/$p.out"; then
		cat "$dir/$p.out"
		echo "FAIL: replay on the $p profile exited $rc or diverged"
		fail=1
	else
		echo "replay on the $p profile: match (strict)"
	fi
	"$kfdtrace" dump "$dir/$p.kft" >"$dir/$p.dump" 2>&1
done

# what the dump must say (grep -F patterns, one a line)
cat >"$dir/old.want" <<'W'
AMDGPU_USERQ(in.op=CREATE, in.ip_type=COMPUTE
= -1 EINVAL (Invalid argument)
AMDGPU_GEM_LIST_HANDLES(entries=NULL, num_entries=0) = -1 EINVAL
query=GPUVM_FAULT) = 0
query=UQ_FW_AREAS, uq_fw_areas.type=GFX) = -1 EINVAL
ioctl(fd=
W
cat >"$dir/new.want" <<'W'
AMDGPU_USERQ(in.op=CREATE, in.ip_type=COMPUTE
in.mqd=<16 zero bytes>, in.mqd_size=16) = -1 ENOTSUPP
AMDGPU_USERQ(in.op=FREE, in.queue_id=1) = -1 ENOTSUPP
AMDGPU_USERQ_SIGNAL(queue_id=1, syncobj_handles=[1, 2], num_syncobj_handles=2
AMDGPU_USERQ_SIGNAL(queue_id=1, syncobj_handles=NULL
num_bo_write_handles=1048576) = -1 ENOTSUPP
AMDGPU_USERQ_WAIT(waitq_id=1, syncobj_handles=[1, 2]
AMDGPU_GEM_LIST_HANDLES(entries=NULL, num_entries=0) = 0 {num_entries=2}
{entries=[{gem_handle=1, flags=0, size=4096, preferred_domains=GTT
query=UQ_FW_AREAS, uq_fw_areas.type=GFX) = -1 EOPNOTSUPP
= -1 EFAULT (Bad address)
W
for p in old new; do
	[ -f "$dir/$p.dump" ] || continue
	while IFS= read -r want; do
		if ! grep -qF -- "$want" "$dir/$p.dump"; then
			echo "FAIL: the $p dump has no line with: $want"
			fail=1
		fi
	done <"$dir/$p.want"
done
[ "$fail" -eq 0 ] || { cat "$dir/new.dump" 2>/dev/null | grep -i amdgpu | head -40; exit 1; }
echo ok
