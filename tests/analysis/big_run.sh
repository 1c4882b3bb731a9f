#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The big report run: `kfdtrace record -o DIR/` of big-run-app on kfdsim,
# a fork, four threads and about a million ioctls (tests/analysis/
# big_run_app.c). Reused by any test that wants a large multi-process
# run: depend on the meson target 'big-run' (tests/analysis/meson.build)
# and read
#   BUILD/tests/analysis/big-run/	the run's traces, one per process
#   BUILD/tests/analysis/big-run.out	the program's own counts, a line per
#					process: "pid P ioctls N failed F
#					gtt G vram V"
#
# Usage: big_run.sh KFDTRACE BIG-RUN-APP TRACE-DIR OUT-FILE [IOCTLS]
set -eu
kfdtrace=$1 app=$2 dir=$3 out=$4 n=${5:-1000000}
# In a sanitizer build the program is instrumented but the capture and
# simulator libraries are preloaded before the runtime (the sanitizer
# stage sets this for its tests; the run is recorded at build time).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
rm -rf "$dir"
"$kfdtrace" record -o "$dir/" --sim -- "$app" "$n" > "$out.tmp"
test "$(grep -c '^pid ' "$out.tmp")" -eq 2
mv "$out.tmp" "$out"
