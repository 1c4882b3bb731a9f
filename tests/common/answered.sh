# SPDX-License-Identifier: MIT
#
# Sourced by the scripts that record real clients on kfdsim: whether a
# capture holds every ioctl the device answered.
#   check_answered KFDTRACE COUNT TRACE...
# COUNT is the file KFDSIM_IOCTL_COUNT named during the record (the device's
# count, docs/kfdsim.md); the TRACEs are the files the record wrote. Their
# "ioctls" (kfdtrace info --json) must add up to it. Prints both; returns 1
# when they differ or the count is missing.
check_answered() {
	ca_kfdtrace=$1
	ca_count=$2
	shift 2
	ca_answered=$(od -An -t u8 -N 8 "$ca_count" 2>/dev/null | tr -d ' ')
	if [ -z "$ca_answered" ]; then
		echo "FAIL: kfdsim wrote no count to $ca_count"
		return 1
	fi
	ca_recorded=0
	for ca_t in "$@"; do
		ca_n=$("$ca_kfdtrace" info --json "$ca_t" | grep -o '"ioctls":[0-9]*' |
		       head -n 1 | cut -d: -f2)
		ca_recorded=$((ca_recorded + ${ca_n:-0}))
	done
	if [ "$ca_recorded" -ne "$ca_answered" ]; then
		echo "FAIL: the device answered $ca_answered ioctls, the trace holds $ca_recorded"
		return 1
	fi
	echo "complete: the device answered $ca_answered ioctls, all recorded"
}
