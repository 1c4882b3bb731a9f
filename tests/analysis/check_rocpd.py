#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfdtrace export --rocpd, checked against kfdtrace stats of the same run.

Usage: check_rocpd.py export|merge KFDTRACE RP_TREE RP_MT
       check_rocpd.py hip KFDTRACE HIP_SUBMIT

A run of three processes (rp_tree fork: a parent and its forked child;
rp_mt 4: five threads) is recorded on kfdsim. MODE:

  export  the run as one database: per process and thread, the ioctls per
          name, the failures, the BOs allocated and freed equal stats';
          every region, allocation and dispatch joins its event, string,
          process and thread (rocpd's views lose no row); the sqlite3 CLI
          finds the file sound.
  merge   the two workloads exported one after the other into one file:
          two runs (guids), the views hold both and joins stay within a
          guid; -f replaces the file; a file that is not rocpd is refused.
  hip     hip_submit on ROCr recorded with --submissions: every
          KERNEL_DISPATCH packet a kernel dispatch, every COPY_LINEAR a
          memory copy, each joined as rocpd's views join them.

Exit status 77 (skip) when the sqlite3 CLI or a workload is missing,
except under CI=true.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def skip(why):
    if os.environ.get("CI") == "true":
        fail(why + " (CI=true: a missing dependency fails)")
    print("SKIP: " + why)
    sys.exit(77)


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def record(kfdtrace, out, argv):
    r = run([kfdtrace, "record", "-o", out, "--sim", "--"] + argv)
    check(r.returncode == 0, "record %s: %s%s" % (argv, r.stdout, r.stderr))


def export(kfdtrace, db, inputs, *opts):
    r = run([kfdtrace, "export", "--rocpd", db] + list(opts) + inputs)
    check(r.returncode == 0, "export %s: %s" % (inputs, r.stderr))


def stats(kfdtrace, inputs):
    r = run([kfdtrace, "stats", "--json", "--by-thread"] + inputs)
    check(r.returncode == 0, "stats: " + r.stderr)
    st = json.loads(r.stdout)
    if "processes" in st:
        return st
    # One process: its stats alone, its pid from info.
    r = run([kfdtrace, "info", "--json"] + inputs)
    check(r.returncode == 0, "info: " + r.stderr)
    return {"processes": [{"pid": json.loads(r.stdout)["pid"], "stats": st}]}


def rows(db, sql, *args):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def one(db, sql, *args):
    return rows(db, sql, *args)[0][0]


def check_joins(db):
    """rocpd's data views join on (id, guid): none loses a row."""
    for view, table in [("regions", "rocpd_region"),
                        ("memory_allocations", "rocpd_memory_allocate"),
                        ("kernels", "rocpd_kernel_dispatch"),
                        ("memory_copies", "rocpd_memory_copy"),
                        ("threads", "rocpd_info_thread"),
                        ("processes", "rocpd_info_process")]:
        a, b = one(db, "SELECT count(*) FROM " + view), \
            one(db, "SELECT count(*) FROM " + table)
        check(a == b, "%s has %d rows, %s %d" % (view, a, table, b))
    n = one(db, "SELECT count(*) FROM region_args")
    check(n == one(db, "SELECT count(*) FROM rocpd_arg"),
          "region_args lost args")
    # Allocations share the event of the call that made them.
    bad = rows(db, "SELECT DISTINCT S.string FROM rocpd_memory_allocate M "
               "JOIN rocpd_region R ON R.event_id = M.event_id AND "
               "R.guid = M.guid JOIN rocpd_string S ON S.id = R.name_id AND "
               "S.guid = R.guid WHERE M.level = 'REAL'")
    names = {x[0] for x in bad}
    check(names <= {"ALLOC_MEMORY_OF_GPU", "FREE_MEMORY_OF_GPU",
                    "IMPORT_DMABUF"}, "allocations from %s" % names)


def check_against_stats(db, st, guid=None):
    where = " AND R.guid = '%s'" % guid if guid else ""
    procs = st["processes"]
    got = rows(db, "SELECT pid, count(*) FROM rocpd_info_process %s "
               "GROUP BY pid" % ("WHERE guid = '%s'" % guid if guid else ""))
    check(Counter(dict(got)) == Counter(p["pid"] for p in procs),
          "processes %s, stats %s" % (got, [p["pid"] for p in procs]))
    for p in procs:
        s = p["stats"]
        pid = p["pid"]
        want = {x["name"]: x["calls"] for x in s["per_ioctl"]}
        have = dict(rows(db, "SELECT R.name, count(*) FROM regions R WHERE "
                         "R.category = 'KFD_IOCTL' AND R.pid = ?" + where +
                         " GROUP BY R.name", pid))
        check(have == want, "pid %d ioctls %s, stats %s" % (pid, have, want))
        failed = one(db, "SELECT count(*) FROM regions R WHERE R.pid = ? AND "
                     "json_extract(R.extdata, '$.errno') IS NOT NULL" + where,
                     pid)
        check(failed == s["failed"], "pid %d failed %d, stats %d" %
              (pid, failed, s["failed"]))
        # Threads: those that made ioctls, each with its count.
        want = {t["tid"]: t["ioctls"] for t in s["by_thread"]}
        have = dict(rows(db, "SELECT R.tid, count(*) FROM regions R WHERE "
                         "R.category = 'KFD_IOCTL' AND R.pid = ?" + where +
                         " GROUP BY R.tid", pid))
        check(have == want, "pid %d threads %s, stats %s" % (pid, have, want))
        allocs = sum(m["allocs"] for m in s["memory"])
        frees = sum(m["frees"] for m in s["memory"])
        bytes_ = sum(m["allocated"] for m in s["memory"])
        for kind, n in [("ALLOC", allocs), ("FREE", frees)]:
            got = one(db, "SELECT count(*) FROM memory_allocations R WHERE "
                      "R.pid = ? AND R.type = ? AND R.level = 'REAL'" + where,
                      pid, kind)
            check(got == n, "pid %d %s %d, stats %d" % (pid, kind, got, n))
        got = one(db, "SELECT coalesce(sum(size), 0) FROM memory_allocations "
                  "R WHERE R.pid = ? AND R.type = 'ALLOC'" + where, pid)
        check(got == bytes_, "pid %d allocated %d, stats %d" %
              (pid, got, bytes_))
        gpus = one(db, "SELECT count(*) FROM rocpd_info_agent A JOIN "
                   "rocpd_info_process P ON P.id = A.pid AND P.guid = A.guid "
                   "WHERE A.type = 'GPU' AND P.pid = ?" +
                   (" AND A.guid = '%s'" % guid if guid else ""), pid)
        check(gpus >= 1, "pid %d has no GPU agent" % pid)


def check_cli(db):
    cli = shutil.which("sqlite3")
    if not cli:
        skip("the sqlite3 command is missing (scripts/setup.sh installs it)")
    r = run([cli, db, "PRAGMA integrity_check; "
             "SELECT value FROM rocpd_metadata WHERE tag = 'schema_version';"])
    out = r.stdout.split()
    check(r.returncode == 0 and out[:1] == ["ok"] and len(out) > 1 and
          set(out[1:]) == {"3"},
          "sqlite3: %s%s" % (r.stdout, r.stderr))


def workloads(kfdtrace, tree, mt, tmp):
    for w in (tree, mt):
        if not w or not os.access(w, os.X_OK):
            skip("the replay workloads are not built (AMD's libhsakmt)")
    record(kfdtrace, os.path.join(tmp, "tree") + "/", [tree, "fork"])
    record(kfdtrace, os.path.join(tmp, "mt") + "/", [mt, "4"])
    return os.path.join(tmp, "tree"), os.path.join(tmp, "mt")


def mode_export(kfdtrace, tree, mt, tmp):
    t, m = workloads(kfdtrace, tree, mt, tmp)
    db = os.path.join(tmp, "run.db")
    export(kfdtrace, db, [t, m])
    st = stats(kfdtrace, [t, m])
    check(len(st["processes"]) == 3, "3 processes expected")
    check(max(len(p["stats"]["by_thread"]) for p in st["processes"]) >= 5,
          "rp_mt's threads missing")
    check_against_stats(db, st)
    check_joins(db)
    check_cli(db)
    # Ioctl arguments: ALLOC_MEMORY_OF_GPU's size as passed.
    sizes = rows(db, "SELECT A.value FROM region_args A JOIN regions R ON "
                 "R.id = A.id AND R.guid = A.guid WHERE R.name = "
                 "'ALLOC_MEMORY_OF_GPU' AND A.name = 'size'")
    check(sizes and all(int(x[0]) > 0 for x in sizes), "no size args")


def mode_hip(kfdtrace, hip, tmp):
    """hip_submit on ROCr, with --submissions: dispatches and copies."""
    if not hip or not os.access(hip, os.X_OK):
        skip("hip_submit is not built")
    trace = os.path.join(tmp, "hip.kft")
    r = run([kfdtrace, "record", "--sim=mi210", "--submissions", "-o",
             trace, "--", hip])
    check(r.returncode == 0, "hip_submit: " + r.stdout + r.stderr)
    r = run([kfdtrace, "dump", "--json", trace])
    want = Counter()
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        if rec.get("type") == "submit":
            want.update(p["name"] for p in rec.get("packets", []))
    db = os.path.join(tmp, "hip.db")
    export(kfdtrace, db, [trace])
    n = one(db, "SELECT count(*) FROM kernels")
    check(n >= 200 and n == want["KERNEL_DISPATCH"],
          "kernels %d, dump %d" % (n, want["KERNEL_DISPATCH"]))
    n = one(db, "SELECT count(*) FROM memory_copies")
    check(n >= 1 and n == want["COPY_LINEAR"],
          "copies %d, dump %d" % (n, want["COPY_LINEAR"]))
    check(one(db, "SELECT count(DISTINCT queue) FROM kernels") >= 2,
          "kernels on one queue")
    check_joins(db)


def mode_merge(kfdtrace, tree, mt, tmp):
    t, m = workloads(kfdtrace, tree, mt, tmp)
    db = os.path.join(tmp, "merged.db")
    export(kfdtrace, db, [t])
    export(kfdtrace, db, [m])
    guids = [x[0] for x in rows(db, "SELECT value FROM rocpd_metadata WHERE "
                                "tag = 'guid' ORDER BY id")]
    check(len(guids) == 2 and guids[0] != guids[1], "guids %s" % guids)
    check_against_stats(db, stats(kfdtrace, [t]), guids[0])
    check_against_stats(db, stats(kfdtrace, [m]), guids[1])
    check_joins(db)
    check_cli(db)
    # Ids repeat across runs; only (id, guid) names a row.
    check(one(db, "SELECT count(*) FROM rocpd_info_process WHERE id = 1") == 2,
          "each run numbers its rows from 1")
    n = one(db, "SELECT count(*) FROM rocpd_region")
    alone = os.path.join(tmp, "alone.db")
    export(kfdtrace, alone, [m])
    export(kfdtrace, alone, [t])
    check(one(alone, "SELECT count(*) FROM regions") == n, "merge order")
    # -f starts the file again: one run.
    export(kfdtrace, db, [m], "-f")
    check(one(db, "SELECT count(*) FROM rocpd_metadata WHERE tag = 'guid'")
          == 1, "-f kept the old runs")
    # A file that is not a rocpd database stays as it was.
    other = os.path.join(tmp, "other.db")
    with open(other, "w") as f:
        f.write("not a database\n")
    r = run([kfdtrace, "export", "--rocpd", other, m])
    check(r.returncode == 1 and "rocpd" in r.stderr, "other file: " + r.stderr)
    check(open(other).read() == "not a database\n", "other file changed")


def main():
    if len(sys.argv) < 4 or (sys.argv[1] != "hip" and len(sys.argv) < 5):
        fail("usage: check_rocpd.py export|merge KFDTRACE RP_TREE RP_MT, "
             "or hip KFDTRACE HIP_SUBMIT")
    mode, kfdtrace = sys.argv[1:3]
    with tempfile.TemporaryDirectory(prefix="kfdtrace-rocpd-") as tmp:
        if mode == "hip":
            mode_hip(kfdtrace, sys.argv[3], tmp)
        elif mode == "export":
            mode_export(kfdtrace, sys.argv[3], sys.argv[4], tmp)
        else:
            mode_merge(kfdtrace, sys.argv[3], sys.argv[4], tmp)
    print("PASS: rocpd " + mode)


if __name__ == "__main__":
    main()
