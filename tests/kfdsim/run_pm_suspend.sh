#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The sudo and pm-suspend of tools/kfdsim/pm-suspend, first on PATH of a
# program on kfdsim: "sudo pm-suspend" suspends the program's simulated
# machine, sleeps KFDSIM_PM_SLEEP seconds, resumes it and exits 0. After
# it the machine runs (a resume is refused), and a KFD process's
# stats_<gpu_id>/evicted_ms has grown by the time; a suspend from inside
# the run holds until its resume; outside a run pm-suspend refuses.
#
#   run_pm_suspend.sh KFDTRACE PM_SUSPEND_DIR MACHINE_APP
set -u

kfdtrace=$1 dir=$2 app=$3
fail=0
PATH=$dir:$(dirname "$kfdtrace"):$PATH
export PATH KFDTRACE="$kfdtrace"

check() {
	if [ "$1" != "$2" ]; then
		echo "FAIL: $3: exit status $1, expected $2" >&2
		fail=1
	else
		echo "ok: $3"
	fi
}

# The whole round trip, timed: it sleeps as long as asked.
t0=$(date +%s%N)
KFDSIM_PM_SLEEP=0.3 "$kfdtrace" sim -- sh -c 'sudo -n pm-suspend'
check $? 0 "sudo pm-suspend under kfdtrace sim"
t1=$(date +%s%N)
[ $(((t1 - t0) / 1000000)) -ge 300 ] || { echo "FAIL: it took $(((t1 - t0) / 1000000)) ms" >&2; fail=1; }

# pm-suspend resumes: the machine is not suspended afterwards.
KFDSIM_PM_SLEEP=0 "$kfdtrace" sim -- sh -c 'pm-suspend || exit 3
	unset LD_PRELOAD; "$KFDTRACE" sim --resume 2>/dev/null; exit $?'
check $? 1 "--resume after pm-suspend (already running)"

# A process holding VRAM (its VM acquired) sees the suspend in sysfs, once
# it is over: 0 before, at least the 0.2 s slept after.
out=$(KFDSIM_PM_SLEEP=0.2 APP=$app "$kfdtrace" sim -- sh -c '"$APP" hold 1 | {
	read l; cat /sys/class/kfd/kfd/proc/*/stats_*/evicted_ms
	pm-suspend >/dev/null || exit 3
	cat /sys/class/kfd/kfd/proc/*/stats_*/evicted_ms; }')
check $? 0 "evicted_ms around pm-suspend"
set -- $out
if [ $# -ne 2 ] || [ "$1" -ne 0 ] || [ "$2" -lt 200 ]; then
	echo "FAIL: evicted_ms before and after: '$out', expected 0 and >= 200" >&2
	fail=1
fi

# --suspend alone holds until --resume; a second --suspend is refused.
"$kfdtrace" sim -- sh -c 'unset LD_PRELOAD
	"$KFDTRACE" sim --suspend || exit 3
	"$KFDTRACE" sim --suspend 2>/dev/null && exit 4
	"$KFDTRACE" sim --resume'
check $? 0 "--suspend, --suspend refused, --resume"

# Outside a run there is no machine to suspend.
(unset KFDSIM_MACHINE; pm-suspend 2>/dev/null)
check $? 1 "pm-suspend outside a run"
"$kfdtrace" sim --suspend --machine kfdsim-pm-test-none 2>/dev/null
check $? 1 "--suspend of no machine"
(sudo 2>/dev/null)
check $? 1 "sudo without a command"
exit $fail
