#!/usr/bin/env bash
# CI hardening, part 2: valgrind's memcheck over the thunk's and the
# recorder's tests, on the main build (no rebuild): `meson test --setup
# valgrind` (defined in tests/stress/meson.build, suppressions in
# tests/stress/valgrind.supp).
#
# Which tests: every test program of suite 'thunk' once (its first
# registered profile; the others run the same code on other topologies),
# and the recorder's test. Left out: scripts and `kfdtrace sim` wrappers
# (valgrind would check python or kfdtrace, not the library), and the
# HSA_RESERVE_SVM variants (their address-space probe takes minutes under
# valgrind). Fails on any memcheck error or definite leak.
#
#   KFDTRACE_BUILD  the build directory (default build/)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${KFDTRACE_BUILD:-$top/build}
t0=$SECONDS

if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind: not installed (scripts/setup.sh installs it)" >&2
	exit 1
fi

selection=$(python3 - "$build" <<'EOF'
import json, os, subprocess, sys
build = os.path.realpath(sys.argv[1])
tests = json.loads(subprocess.check_output(['meson', 'introspect', '--tests'], cwd=build))
seen, run = set(), []
for t in tests:
    prog = os.path.realpath(t['cmd'][0])
    own = prog.startswith(os.path.join(build, 'tests') + os.sep)
    if not own or t['name'].endswith('-reserved-svm'):
        continue
    if 'kfdtrace:thunk' in t['suite'] and prog not in seen:
        seen.add(prog)
        run.append(t['name'])
    elif t['name'] == 'recorder':
        run.append(t['name'])
print(' '.join(run))
EOF
)
echo "valgrind: $(echo "$selection" | wc -w) tests: $selection"

status=0
# shellcheck disable=SC2086
meson test -C "$build" --no-rebuild --setup valgrind --num-processes 2 \
	--print-errorlogs $selection || status=1

# Forked children run under memcheck too; count what any process reported.
log=$build/meson-logs/testlog-valgrind.txt
nerr=$(grep -cE '^==[0-9]+== (Invalid |Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap|[0-9,]+ bytes in [0-9,]+ blocks are definitely lost)' \
	"$log" || true)
echo "valgrind: $nerr memcheck errors and definite leaks reported"
[ "$nerr" -eq 0 ] || status=1
echo "valgrind: total $((SECONDS - t0)) s, $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
