# shellcheck shell=bash
# Shared by the CI stages (scripts/ci-*.sh), which source it: setting up
# their own build directories and picking the targets a suite needs.
#
#   ci_top               the source tree (this script's parent directory)
#
# It also exports, for the tests each stage runs, KFDTRACE_TC_XSD_DIR: the
# directory of Trace Compass's XML analysis schemas (the bt2 suite's
# tracecompass-xsd test), which the repository does not hold. When unset
# and the checkout has ../shared/tracecompass-xsd beside it (as CI's
# machine has), it is set to that directory.

ci_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [ -z "${KFDTRACE_TC_XSD_DIR:-}" ] && [ -d "$ci_top/../shared/tracecompass-xsd" ]; then
	KFDTRACE_TC_XSD_DIR=$(cd "$ci_top/../shared/tracecompass-xsd" && pwd)
	export KFDTRACE_TC_XSD_DIR
fi

# ci_setup DIR [MESON OPTION...] - configure the build directory DIR of the
# source tree with the options, or reconfigure it when it already exists
# (its options stay as first set). Environment given on the call (e.g.
# CC=clang) reaches the first setup.
ci_setup() {
	local dir=$1

	shift
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$ci_top" "$@" >/dev/null
	else
		meson setup "$dir" "$ci_top" "$@" >/dev/null
	fi
}

# ci_suite_targets DIR SUITE [--no-test-programs] [--executables-ending SUFFIX]
# - print, relative to the build directory DIR, the files ninja must build
# for suite SUITE's tests to run: each test's program and the targets the
# test depends on. --no-test-programs leaves out the tests' own programs
# (e.g. the fuzz suite's regression drivers, when only what they load at
# run time is wanted); --executables-ending adds every executable whose
# target name ends with SUFFIX.
ci_suite_targets() {
	python3 - "$@" <<'EOF'
import argparse, json, os, subprocess
ap = argparse.ArgumentParser()
ap.add_argument('build')
ap.add_argument('suite')
ap.add_argument('--no-test-programs', action='store_true')
ap.add_argument('--executables-ending')
a = ap.parse_args()
build = os.path.realpath(a.build)
intro = lambda what: json.loads(subprocess.check_output(['meson', 'introspect', what], cwd=build))
targets = intro('--targets')
files = {t['id']: t['filename'] for t in targets}
out = set()
if a.executables_ending:
    for t in targets:
        if t['type'] == 'executable' and t['name'].endswith(a.executables_ending):
            out.update(t['filename'])
for t in intro('--tests'):
    if 'kfdtrace:' + a.suite not in t['suite']:
        continue
    program = os.path.realpath(t['cmd'][0])
    deps = {f for d in t['depends'] for f in files.get(d, [])}
    if a.no_test_programs:
        deps = {f for f in deps if os.path.realpath(f) != program}
    else:
        deps.add(program)
    out.update(deps)
print(' '.join(sorted(os.path.relpath(f, build) for f in out)))
EOF
}
