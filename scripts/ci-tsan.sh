#!/usr/bin/env bash
# CI hardening, part 3: ThreadSanitizer over the concurrency tests (suite
# 'stress', tests/stress): a gcc -fsanitize=thread build of just what they
# need (the thunk, kfdsim, the tracer and formats under them).
#
# Fails on any report (data race, lock-order inversion, thread leak...).
# die_after_fork=0: a forked child of a threaded program may start threads
# (kfdsim's command processor starts one with the child's first queue, as
# ROCr's child starts its own); TSan refuses that by default.
# TSAN_OPTIONS symbolize=0: TSan's in-process symbolizer maps files with
# mmap(), which reaches libkfdsim.so's (instrumented) wrapper and deadlocks
# inside the report; reports are symbolized here afterwards with addr2line.
#
#   KFDTRACE_BUILD       the main build directory (default build/)
#   KFDTRACE_TSAN_BUILD  this build's directory (default <main build>-tsan)
set -euo pipefail

# shellcheck source=scripts/ci-lib.sh
. "$(dirname "$0")/ci-lib.sh"
top=$ci_top
build=${KFDTRACE_BUILD:-$top/build}
tsan=${KFDTRACE_TSAN_BUILD:-$build-tsan}
t0=$SECONDS

ci_setup "$tsan" -Dbuildtype=debugoptimized -Db_sanitize=thread
# Only the suite's programs and what they depend on.
targets=$(ci_suite_targets "$tsan" stress)
# shellcheck disable=SC2086
ninja -C "$tsan" $targets >/dev/null
echo "tsan: build: $((SECONDS - t0)) s"

reports=$tsan/tsan-reports
rm -rf "$reports"
mkdir -p "$reports"
export TSAN_OPTIONS="halt_on_error=0:exitcode=66:second_deadlock_stack=1:symbolize=0:die_after_fork=0:log_path=$reports/tsan:log_exe_name=1"

status=0
t1=$SECONDS
meson test -C "$tsan" --no-rebuild --suite stress --num-processes 2 --print-errorlogs ||
	status=1
grep -h '^stress-' "$tsan/meson-logs/testlog.txt" || true
echo "tsan: tests: $((SECONDS - t1)) s"

python3 - "$reports" "$tsan" <<'EOF' || status=1
import os, re, subprocess, sys
d, build = sys.argv[1], sys.argv[2]
paths = {}
for root, _, names in os.walk(build):
    for n in names:
        paths.setdefault(n, os.path.join(root, n))
def where(m):
    mod, off = m.group(1), m.group(2)
    path = paths.get(mod)
    if not path:
        return m.group(0)
    r = subprocess.run(['addr2line', '-f', '-C', '-e', path, off],
                       capture_output=True, text=True).stdout.split('\n')
    return '%s %s (%s+%s)' % (r[0], r[1].replace(os.path.realpath(build) + '/', ''), mod, off)
n = 0
for name in sorted(os.listdir(d)):
    text = open(os.path.join(d, name), errors='replace').read()
    warnings = re.findall(r'WARNING: ThreadSanitizer: ([^(\n]+)', text)
    if not warnings:
        continue
    n += len(warnings)
    print('--- %s: %s' % (name, ', '.join(warnings)))
    print(re.sub(r'<null> <null> \(([^+()]+)\+(0x[0-9a-f]+)\)', where, text)[:6000])
print('tsan: %d ThreadSanitizer reports' % n)
sys.exit(1 if n else 0)
EOF
echo "tsan: total $((SECONDS - t0)) s, $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
