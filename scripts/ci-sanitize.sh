#!/usr/bin/env bash
# CI hardening, part 1: one instrumented build (AddressSanitizer, including
# LeakSanitizer, + UndefinedBehaviorSanitizer + gcov coverage) running the
# whole test suite once, then line coverage per area with gcovr.
#
# Fails on a failing test, on any sanitizer report, or on an area's line
# coverage below its target (80% formats/ and replay/, 70% tracer/, thunk/
# and tools/kfdsim/). Every report any process writes goes to a file
# (log_path), so a report in a child whose output a test swallows is still
# counted. docs/reliability.md explains each setting and exclusion.
#
#   KFDTRACE_BUILD       the main build directory (default build/)
#   KFDTRACE_ASAN_BUILD  this build's directory (default <main build>-asan)
set -euo pipefail

# shellcheck source=scripts/ci-lib.sh
. "$(dirname "$0")/ci-lib.sh"
top=$ci_top
build=${KFDTRACE_BUILD:-$top/build}
asan=${KFDTRACE_ASAN_BUILD:-$build-asan}
t0=$SECONDS

# test_scale=small: the scale tests (the big run, the out-of-memory
# reduction) on smaller inputs, the same code paths; the plain build keeps
# their full sizes.
ci_setup "$asan" -Dbuildtype=debug -Db_sanitize=address,undefined -Db_coverage=true \
	-Dtest_scale=small
ninja -C "$asan" >/dev/null
echo "sanitize: build: $((SECONDS - t0)) s"

reports=$asan/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
find "$asan" -name '*.gcda' -delete

# detect_leaks: LeakSanitizer at every exit. handle_segv=0: the crash-safety
# tests kill programs with SIGSEGV on purpose and check the signal; ASan's
# handler would turn it into an abort (accesses are still all checked).
# verify_asan_link_order=0: tests preload libkfdsim.so or the capture
# library into instrumented programs, whose first library is still the
# runtime; only programs that are not instrumented need it first (below).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:handle_segv=0:verify_asan_link_order=0:log_path=$reports/asan:log_exe_name=1"
export LSAN_OPTIONS="suppressions=$top/tests/stress/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan:log_exe_name=1"

# Tests left out, as shell glob -> why. rocminfo and ROCr are not
# instrumented, and `kfdtrace sim`/`record` put the instrumented preload
# libraries before the ASan runtime, which such a program must load first;
# the suite 'asan-clients' (tests/stress) runs rocminfo with the runtime
# first instead, on Debian's libhsakmt and on ours.
excluded=$(cat <<'EOF'
rocminfo-*	rocminfo started by kfdtrace sim (runtime not first); see asan-rocminfo-*
thunk-rocminfo-*	rocminfo on our libhsakmt started by kfdtrace sim; see asan-rocminfo-ours-*
api-spans-rocminfo-amd	rocminfo on AMD's libhsakmt started by kfdtrace record (runtime not first)
hostile-host	rocminfo and ROCr started by kfdtrace sim (runtime not first); the files it checks are rendered under ASan by shim-cpu
main-job	scripts/demo.sh: rocminfo started by kfdtrace record (runtime not first); its steps run under ASan in capture, replay and cli
install-thunk	rocminfo started by the installed kfdtrace sim and record (runtime not first); install-owners checks the same install
*-reserved-svm	HSA_RESERVE_SVM wants a range below 1 TiB, where ASan keeps its shadow memory
model-uaccess	asserts that a small malloc() is in glibc's brk heap; ASan has its own allocator
hip-rocprim-*	rocPRIM's radix sort of 1M keys: minutes of instrumented interpretation; the plain build checks it, and hip-wave runs the same instruction classes here
hip-*-amd-*	HIP programs on AMD's libhsakmt, which is not instrumented: the kfdsim paths of hip-*-ours-* (run here), and the plain build runs them; thunk-hsa-amd-* and asan-rocminfo-* run AMD's library on the instrumented kfdsim
hip-*-mi100	gfx908 runs gfx90a's rows and paths, which mi210 runs here (rocSPARSE alone takes two minutes); the plain build runs them, and model-ds64 runs gfx908's ds_cmpst_rtn_b64
hip-rocrand-*	rocRAND's generators: minutes of instrumented interpretation; the plain build checks them, and hip-wave runs the same instruction classes here
modern-*	ROCm 6.x in the sid root (tests/modern): the root has no ASan runtime of Debian 12's gcc for the instrumented kfdtrace and libkfdsim
EOF
)
# Tests that run, but in which these cmocka tests may fail: rocminfo again
# (capture, replay, emit-c, reduce-reuse), and the peak-memory bounds of
# tests/bounds and emit-c-input (ASan's shadow memory and quarantine add
# hundreds of MiB; the bounds are the plain build's to keep, and ASan
# still checks the code paths).
subtests=$(cat <<'EOF'
capture	test_rocminfo
replay	test_rocminfo_same test_rocminfo_other_gpu_id test_rocminfo_two_gpus
emit-c	test_rocminfo
bounds	test_held_dump_stats test_held_replay test_execs_dump test_execs_ctf test_bufs_ctf
emit-c-input	test_large
reduce-reuse	test_rocminfo_probe
EOF
)

selection=$(EXCLUDED="$excluded" SUBTESTS="$subtests" python3 - "$asan" <<'EOF'
import fnmatch, json, os, subprocess, sys
tests = json.loads(subprocess.check_output(['meson', 'introspect', '--tests'], cwd=sys.argv[1]))
rules = [l.split('\t') for l in os.environ['EXCLUDED'].splitlines() if l]
special = {l.split('\t')[0] for l in os.environ['SUBTESTS'].splitlines() if l}
run, out = [], []
for t in tests:
    why = next((r[1] for r in rules if fnmatch.fnmatch(t['name'], r[0])), None)
    if why:
        out.append('%s (%s)' % (t['name'], why))
    elif t['name'] not in special:
        run.append(t['name'])
print(' '.join(run))
for o in out:
    print('excluded: ' + o, file=sys.stderr)
print('sanitize: %d tests left out' % len(out), file=sys.stderr)
EOF
)

status=0
t1=$SECONDS
# An instrumented build runs about twice as slow, and its tests keep the
# timeouts set for the plain one: a hang still ends in a timeout, later.
# shellcheck disable=SC2086
meson test -C "$asan" --no-rebuild --num-processes 2 --timeout-multiplier 2 \
	--print-errorlogs $selection ||
	status=1
special=$(printf '%s\n' "$subtests" | cut -f1 | tr '\n' ' ')
# shellcheck disable=SC2086
meson test -C "$asan" --no-rebuild --num-processes 2 --timeout-multiplier 2 \
	--logbase subtests $special >/dev/null 2>&1 || true
SUBTESTS="$subtests" python3 - "$asan/meson-logs/subtests.json" <<'EOF' || status=1
import json, os, re, sys
allowed = {l.split('\t')[0]: set(l.split('\t')[1].split())
           for l in os.environ['SUBTESTS'].splitlines() if l}
bad = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    name = t['name'].split(' / ')[-1]
    text = (t.get('stdout') or '') + (t.get('stderr') or '')
    failed = set(re.findall(r'^\[  FAILED  \] (\w+)$', text, re.M))
    ran = re.search(r'^\[=+\] \d+ test\(s\) run\.', text, re.M)
    extra = failed - allowed.get(name, set())
    ok = t['result'] == 'OK' or (t['result'] == 'FAIL' and ran and not extra)
    print('sanitize: %s: %s; %d cmocka tests left out: %s' % (
        name, 'OK' if ok else t['result'], len(failed & allowed.get(name, set())),
        ' '.join(sorted(failed)) or 'none failed'))
    if not ok:
        bad = 1
        print(text[-4000:])
sys.exit(bad)
EOF
echo "sanitize: test runs: $((SECONDS - t1)) s"

# Zero reports, from any process. tests/faults makes one leak on purpose
# (in sabotage(), one per profile) and checks that LeakSanitizer sees it:
# a report whose every leak was allocated there is expected.
python3 - "$reports" <<'EOF' || status=1
import os, re, sys
d = sys.argv[1]
bad = expected = warned = 0
for name in sorted(os.listdir(d)):
    text = open(os.path.join(d, name), errors='replace').read()
    if not re.search(r'ERROR: |runtime error:', text):
        warned += 1	# e.g. "False leaks are possible" in a forked child
        continue
    leaks = re.split(r'\n(?=(?:Direct|Indirect) leak of)', text)[1:]
    if ('ERROR: LeakSanitizer' in text and 'ERROR: AddressSanitizer' not in text and
            leaks and all(' in sabotage ' in l for l in leaks)):
        expected += 1
        continue
    bad += 1
    print('--- sanitizer report %s:' % name)
    lines = [l for l in text.splitlines()
             if re.search(r'ERROR:|runtime error:|SUMMARY:|^    #[0-5] ', l)]
    print('\n'.join(lines[:24]))
print('sanitize: %d sanitizer reports (ASan, LSan, UBSan); %d expected (tests/faults '
      'sabotage), %d warnings without a report' % (bad, expected, warned))
sys.exit(1 if bad else 0)
EOF

# Line coverage per area, each against its target: an area below
# its target fails the stage; the table shows every area first.
t2=$SECONDS
# Threads update gcov's counters without atomics, so a racing count can
# read negative ("branch 1 taken -2"); gcovr skips such a line, which
# moves a figure by a line at most, instead of failing the stage (with
# -j 2 its failure even hangs it).
if ! gcovr -r "$top" -j 2 --gcov-ignore-parse-errors --json-summary "$asan/coverage.json" "$asan" \
	>"$asan/gcovr.log" 2>&1; then
	echo "sanitize: gcovr failed:"
	tail -n 20 "$asan/gcovr.log"
	status=1
elif ! python3 - "$asan/coverage.json" <<'EOF'
import json, sys
areas = [('formats/', 80), ('replay/', 80), ('tracer/', 70), ('thunk/', 70),
         ('tools/kfdsim/', 70)]
files = json.load(open(sys.argv[1]))['files']
low = []
print('coverage: %-14s %6s %7s %6s %6s  %s' % ('area', 'lines', 'covered', 'line%',
                                             'target', 'result'))
for area, target in areas:
    fs = [f for f in files if f['filename'].startswith(area)]
    total = sum(f['line_total'] for f in fs)
    covered = sum(f['line_covered'] for f in fs)
    # Rounded down, so that a figure printed as the target really meets it.
    pct = int(1000 * covered / total) / 10.0 if total else 0.0
    ok = total > 0 and 100 * covered >= target * total
    print('coverage: %-14s %6d %7d %5.1f%% %5d%%  %s' % (
        area, total, covered, pct, target, 'met' if ok else 'BELOW TARGET'))
    if not ok:
        low.append(area)
if low:
    print('coverage: below target: %s' % ' '.join(low))
sys.exit(1 if low else 0)
EOF
then
	status=1
fi
echo "sanitize: coverage: $((SECONDS - t2)) s"
echo "sanitize: total $((SECONDS - t0)) s, $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
