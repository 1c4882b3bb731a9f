#!/bin/sh
# SPDX-License-Identifier: MIT
#
# drm_cs_client recorded with `kfdtrace record --sim` on PROFILE: the
# dump names every submission request with its arrays, and the trace
# replays strictly on the same profile, CS and WAIT_CS counted as not
# replayed (docs/ioctl-schema.md).
#   run_drm_cs.sh KFDTRACE CLIENT PROFILE
set -u
kfdtrace=$1
client=$2
profile=$3

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

if ! "$kfdtrace" record --sim --profile "$profile" -o "$dir/cs.kft" -- \
	"$client" >"$dir/rec" 2>&1 || ! grep -q '^PASS: ' "$dir/rec"; then
	cat "$dir/rec"
	echo "FAIL: the capture"
	exit 1
fi
grep '^PASS: ' "$dir/rec"
"$kfdtrace" dump "$dir/cs.kft" >"$dir/dump" 2>&1

# what the dump must say (grep -F patterns, one a line)
cat >"$dir/want" <<'W'
AMDGPU_CTX(in.op=ALLOC_CTX
in.bo_info_size=8, in.bo_info_ptr=[{bo_handle=1, bo_priority=0}, {bo_handle=2, bo_priority=0}]) = 0 {out.list_handle=1}
AMDGPU_CS(in.ctx_id=1, in.bo_list_handle=1, in.num_chunks=1, in.flags=0x0, in.chunks=[0x
) = 0 {out.handle=2}
in.ip_type=DMA, in.ip_instance=0, in.ring=0, in.ctx_id=1) = 0 {out.status=0}
in.ip_type=COMPUTE, in.ip_instance=0, in.ring=0, in.ctx_id=1) = 0 {out.status=0}
AMDGPU_CS(in.ctx_id=1, in.bo_list_handle=0, in.num_chunks=0, in.flags=0x0, in.chunks=[]) = -1 EINVAL
AMDGPU_CS(in.ctx_id=1, in.bo_list_handle=4242, in.num_chunks=1
in.chunks=[0x8]) = -1 EFAULT
in.ctx_id=1) = -1 ETIME
in.bo_info_ptr=[{bo_handle=30583, bo_priority=0}]) = -1 ENOENT
AMDGPU_BO_LIST(in.operation=DESTROY, in.list_handle=1
W
while IFS= read -r want; do
	if ! grep -qF -- "$want" "$dir/dump"; then
		echo "FAIL: the dump lacks: $want"
		fail=1
	fi
done <"$dir/want"

"$kfdtrace" replay --sim --profile "$profile" "$dir/cs.kft" >"$dir/out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^  result:      match (strict)' "$dir/out"; then
	cat "$dir/out"
	echo "FAIL: replay exited $rc or diverged"
	fail=1
else
	grep -E '^  (replayed|result):' "$dir/out"
fi
[ "$fail" -eq 0 ] || grep -E 'AMDGPU_(BO_LIST|CS|WAIT_CS)' "$dir/dump"
exit "$fail"
