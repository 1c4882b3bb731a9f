#!/usr/bin/env bash
# CI, last stage: the speed benchmarks of the figures the issues set
# targets for (recorder cost per ioctl, writer append, kfdsim's ioctl path,
# replay rate, exports, dump, diff and report per thread), once each on
# build/, and the key lines of each with the host's syscall and rdtsc cost. Machines of our kind differ
# several-fold, so this is how one CI log tells how a host compares.
#
# A missed target is reported (the benchmark's "not met" line and its
# exit status), not failed: the same code misses or meets a bound by the
# VM it lands on. A benchmark killed by a signal or timed out fails the
# stage.
#
#   KFDTRACE_BUILD  the build directory (default build/)
set -euo pipefail

# shellcheck source=scripts/ci-lib.sh
. "$(dirname "$0")/ci-lib.sh"
top=$ci_top
build=${KFDTRACE_BUILD:-$top/build}
t0=$SECONDS

benches=(tracer trace_append shim-ioctl model-ioctl replay replay-threads
	 perfetto-export dump-lines-per-second scale-diff-report)
# One at a time: a benchmark beside another measures the other.
meson test -C "$build" --benchmark --num-processes 1 --logbase benchlog \
	"${benches[@]}" >/dev/null || true

python3 - "$build/meson-logs/benchlog.json" <<'EOF'
import json, re, sys

# The lines that carry a figure, a ratio or a verdict.
keep = re.compile(r'host_(syscall|rdtsc)_ns|added by tracing|under strace|times what|target|'
                  r'_ns_median|_ns_p99|ns_fd_check|x syscall|ioctls_per_s|ratio_|'
                  r'^(proto|json): |^dump (text|json)')
bad = missed = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    name = t['name'].split(' / ')[-1]
    rc = t.get('returncode', 0)
    print('bench: == %s (%s, %.1f s)' % (name, t['result'], t.get('duration', 0)))
    for l in (t.get('stdout') or '').splitlines():
        if keep.search(l):
            print('bench:   ' + l.strip())
    if t['result'] in ('TIMEOUT',) or rc < 0:
        bad += 1
        print('bench: %s: killed or timed out (returncode %d)' % (name, rc))
        print((t.get('stderr') or '')[-2000:])
    elif rc != 0:
        missed += 1
        print('bench: %s: exit %d: a target missed on this host (lines above)' % (name, rc))
print('bench: %d benchmarks, %d with a missed target, %d killed or timed out'
      % (sum(1 for _ in open(sys.argv[1])), missed, bad))
sys.exit(1 if bad else 0)
EOF
echo "bench: total $((SECONDS - t0)) s"
