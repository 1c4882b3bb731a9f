#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`kfdtrace export --perfetto FILE.pftrace`, decoded and checked.

Usage: check_perfetto_proto.py KFDTRACE ANALYSIS-GEN PROTO [FORK-APP]

Exports the generated rich trace (tests/analysis/analysis_gen.c) in
Perfetto's protobuf format and decodes it twice: with `protoc --decode`
against tools/kfdtrace/export/perfetto_trace.proto (PROTO), which must find no
field the .proto does not declare, and with the stdlib-only wire parser
below, which rebuilds tracks and events (timestamps: deltas on each
sequence's incremental clock, or CLOCK_MONOTONIC): the process and thread tracks
and names, one slice per ioctl (BEGIN and END on the same thread track,
nesting), failed calls' categories and errno, the worker's latencies,
object lifetimes on lanes that never overlap, leaks, the byte counters; a cut
trace gives a whole file of what came before, labelled truncated.

With FORK-APP, also records tests/cli/cli_fork_app.c under `kfdtrace
record -o DIR/ --sim` (a parent, its child and the parent's exec image)
and exports the directory, as protobuf and JSON: each process its own pid
track with its thread under it, no track uuid or async id shared between
processes, the KFD ABI from GET_VERSION, every GET_VERSION slice there.
Exit status 0 on success, 1 with a message otherwise.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAIN, WORKER = 4242, 4243
IOCTLS, WORKER_CALLS, BOS, QUEUES, EVENTS = 1044, 1000, 16, 2, 2
BEGIN, END, INSTANT, COUNTER = 1, 2, 3, 4


def fail(msg):
    print("check_perfetto_proto: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


# --- the wire format -------------------------------------------------------

def varint(buf, i):
    v = shift = 0
    while True:
        check(i < len(buf), "varint past the end")
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def fields(buf):
    """{field number: [values]}: ints for varints, bytes for the rest."""
    out = collections.defaultdict(list)
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 2:
            n, i = varint(buf, i)
            check(i + n <= len(buf), "length past the end")
            v, i = buf[i:i + n], i + n
        elif wt == 1:
            v, i = int.from_bytes(buf[i:i + 8], "little"), i + 8
        elif wt == 5:
            v, i = int.from_bytes(buf[i:i + 4], "little"), i + 4
        else:
            fail("wire type %d" % wt)
        out[num].append(v)
    return out


def one(f, num, default=None):
    v = f.get(num)
    return v[-1] if v else default


def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


# Field numbers of Perfetto's trace format (TracePacket, TrackEvent, ...).
PKT_TS, PKT_CLOCK, PKT_EVENT, PKT_TRACK, PKT_SEQ, PKT_INTERNED = 8, 6, 11, 60, 10, 12
TD_UUID, TD_PARENT, TD_NAME, TD_PROCESS, TD_THREAD, TD_COUNTER = 1, 5, 2, 3, 4, 8
TE_TYPE, TE_TRACK, TE_CATS, TE_NAME_IID, TE_COUNTER, TE_ANNOT = 9, 11, 3, 10, 30, 4


class Trace:
    def __init__(self, data):
        self.tracks = {}            # uuid -> descriptor fields
        self.events = []            # dicts
        self.clock = None
        interned = {}               # seq -> kind -> iid -> name
        default_clock = {}          # seq -> its packets' timestamp clock
        delta_clock = {}            # seq -> (clock id, its current time)
        self.delta_packets = self.absolute_packets = 0
        for raw in fields(data)[1]:
            p = fields(raw)
            seq = one(p, PKT_SEQ, 0)
            flags = one(p, 13, 0)
            if flags & 1:
                interned[seq] = collections.defaultdict(dict)
            st = interned.setdefault(seq, collections.defaultdict(dict))
            if 59 in p:
                default_clock[seq] = one(fields(one(p, 59)), 58)
            if PKT_CLOCK in p and seq:
                # A clock of the sequence's own (64..127), incremental.
                for c in fields(one(p, PKT_CLOCK)).get(1, []):
                    c = fields(c)
                    cid = one(c, 1)
                    if cid >= 64:
                        check(one(c, 3) == 1, "sequence clock not incremental")
                        delta_clock[seq] = (cid, one(c, 2))
            ts = one(p, PKT_TS)
            if ts is not None and seq:
                clock = one(p, 58, default_clock.get(seq, 6))
                if clock >= 64:
                    check(seq in delta_clock and delta_clock[seq][0] == clock,
                          "clock %d without its snapshot" % clock)
                    ts += delta_clock[seq][1]
                    delta_clock[seq] = (clock, ts)
                    self.delta_packets += 1
                else:
                    check(clock == 3, "timestamp on clock %d" % clock)
                    self.absolute_packets += 1
            for idata in p.get(PKT_INTERNED, []):
                d = fields(idata)
                for kind in (1, 2, 3):
                    for e in d.get(kind, []):
                        e = fields(e)
                        st[kind][one(e, 1)] = one(e, 2).decode()
            if PKT_CLOCK in p:
                self.clock = fields(one(p, PKT_CLOCK))
            if PKT_TRACK in p:
                self.track(fields(one(p, PKT_TRACK)))
            if PKT_EVENT in p:
                self.event(fields(one(p, PKT_EVENT)), ts, st, seq)

    def track(self, td):
        uuid = one(td, TD_UUID)
        t = {"uuid": uuid, "parent": one(td, TD_PARENT),
             "name": one(td, TD_NAME, b"").decode(), "kind": "track"}
        if TD_PROCESS in td:
            pd = fields(one(td, TD_PROCESS))
            t.update(kind="process", pid=one(pd, 1),
                     pname=one(pd, 6, b"").decode(),
                     labels=[x.decode() for x in pd.get(8, [])])
        if TD_THREAD in td:
            th = fields(one(td, TD_THREAD))
            t.update(kind="thread", pid=one(th, 1), tid=one(th, 2),
                     tname=one(th, 5, b"").decode())
        if TD_COUNTER in td:
            t.update(kind="counter", unit=one(fields(one(td, TD_COUNTER)), 3))
        old = self.tracks.get(uuid)
        if old:
            # Re-described (a thread's name arrives later): same identity.
            check(old["kind"] == t["kind"] and old.get("pid") == t.get("pid")
                  and old.get("tid") == t.get("tid") and
                  old["parent"] == t["parent"],
                  "track %x described twice differently: %r, %r" %
                  (uuid, old, t))
            if t.get("tname"):
                old["tname"] = t["tname"]
            if t.get("pname"):
                old["pname"] = t["pname"]
            if t.get("labels"):
                old["labels"] = t["labels"]
        else:
            self.tracks[uuid] = t

    def annotations(self, raws, st):
        out = {}
        for raw in raws:
            a = fields(raw)
            name = st[3].get(one(a, 1))
            check(name is not None, "annotation name iid %r" % one(a, 1))
            if 11 in a:
                out[name] = self.annotations(a[11], st)
            elif 6 in a:
                out[name] = one(a, 6).decode()
            elif 2 in a:
                out[name] = bool(one(a, 2))
            elif 4 in a:
                out[name] = s64(one(a, 4))
            else:
                out[name] = one(a, 3, one(a, 7))
        return out

    def event(self, te, ts, st, seq):
        check(ts is not None, "track event without a timestamp")
        ev = {"ts": ts, "type": one(te, TE_TYPE), "track": one(te, TE_TRACK),
              "seq": seq}
        if TE_NAME_IID in te:
            ev["name"] = st[2].get(one(te, TE_NAME_IID))
            check(ev["name"] is not None, "name iid %r" % one(te, TE_NAME_IID))
        ev["cats"] = [st[1].get(c) for c in te.get(TE_CATS, [])]
        check(None not in ev["cats"], "category iid")
        if TE_COUNTER in te:
            ev["value"] = s64(one(te, TE_COUNTER))
        ev["args"] = self.annotations(te.get(TE_ANNOT, []), st)
        self.events.append(ev)

    def slices(self):
        """BEGIN/END paired per track (they nest): dicts with "end"."""
        out, stacks = [], collections.defaultdict(list)
        for e in sorted(self.events, key=lambda e: e["ts"]):
            if e["type"] == BEGIN:
                stacks[e["track"]].append(e)
            elif e["type"] == END:
                check(stacks[e["track"]], "END without BEGIN on %x at %d" %
                      (e["track"], e["ts"]))
                b = stacks[e["track"]].pop()
                b["end"] = e["ts"]
                b["end_args"] = e["args"]
                out.append(b)
        for t, st in stacks.items():
            check(not st, "%d slices never end on %x" % (len(st), t))
        return out


def protoc_check(proto, path):
    """protoc decodes the file and finds only fields we declare."""
    protoc = shutil.which("protoc")
    check(protoc, "protoc is missing (scripts/setup.sh installs "
          "protobuf-compiler)")
    with open(path, "rb") as f:
        r = subprocess.run([protoc, "--decode=pftrace.Trace",
                            "-I" + os.path.dirname(proto), proto],
                           stdin=f, capture_output=True)
    check(r.returncode == 0, "protoc --decode: " + r.stderr.decode())
    text = r.stdout.decode()
    unknown = re.findall(r"^\s*\d+:", text, re.M) + \
        re.findall(r"^\s*\d+ \{", text, re.M)
    check(not unknown, "fields the .proto does not declare: %r" % unknown[:5])
    return text


def export(kfdtrace, args):
    r = subprocess.run([kfdtrace, "export"] + args, capture_output=True,
                       text=True)
    check(r.returncode == 0, "export %r failed: %s" % (args, r.stderr))


def check_rich(kfdtrace, gen, proto, tmp):
    trace = os.path.join(tmp, "rich.kft")
    out = os.path.join(tmp, "rich.pftrace")
    subprocess.run([gen, "rich", trace], check=True)
    export(kfdtrace, ["--perfetto", out, trace])
    text = protoc_check(proto, out)
    check("primary_trace_clock: 3" in text, "CLOCK_MONOTONIC trace clock")
    with open(out, "rb") as f:
        t = Trace(f.read())

    procs = [x for x in t.tracks.values() if x["kind"] == "process"]
    check(len(procs) == 1 and procs[0]["pid"] == MAIN and
          procs[0]["pname"] == "train", "process track %r" % procs)
    labels = procs[0]["labels"]
    check("kfd_abi=1.16" in labels and "integrity=ok" in labels and
          any(x.startswith("records=") for x in labels),
          "process labels %r" % labels)
    threads = {x["tid"]: x for x in t.tracks.values() if x["kind"] == "thread"}
    check(threads[MAIN]["tname"] == "main" and
          threads[WORKER]["tname"] == "worker", "thread names")
    for x in threads.values():
        check(x["pid"] == MAIN and x["parent"] == procs[0]["uuid"],
              "thread %r under the process" % x)
    for x in t.tracks.values():
        check(x["kind"] == "process" or x["parent"] in t.tracks,
              "track %r has no parent" % x)

    slices = t.slices()
    ioctls = [s for s in slices if s["cats"] and s["cats"][0] == "ioctl"]
    check(len(ioctls) == IOCTLS, "%d ioctl slices" % len(ioctls))
    by_track = {u: x for u, x in t.tracks.items()}
    for s in ioctls:
        check(by_track[s["track"]]["kind"] == "thread", "ioctl off a thread")
        check(isinstance(s["args"].get("seq"), int), "seq of %r" % s)
    failed = sorted(s["args"]["errno"] for s in ioctls
                    if "failed" in s["cats"])
    check(failed == ["EINVAL", "ENOMEM"], "failed slices %r" % failed)
    clocks = [s for s in ioctls if s["name"] == "GET_CLOCK_COUNTERS"]
    check(len(clocks) == WORKER_CALLS and
          all(by_track[s["track"]]["tid"] == WORKER for s in clocks),
          "worker slices")
    check(sorted(round((s["end"] - s["ts"]) / 1000) for s in clocks) ==
          list(range(1, WORKER_CALLS + 1)), "worker latencies")
    alloc = [s for s in ioctls if s["name"] == "ALLOC_MEMORY_OF_GPU"][0]
    check(alloc["args"]["in.size"] == 64 << 20 and
          alloc["args"]["in.gpu_id"] == 0x1111 and
          alloc["args"]["out.handle"] >> 32 == 0x1111, "alloc args %r" %
          alloc["args"])
    apis = sorted(s["name"] for s in slices if s["cats"] == ["api"])
    check(apis == ["hsaKmtAllocMemory", "hsaKmtFreeMemory"], "api %r" % apis)

    # Lifetimes: on lanes (slices there must not overlap: slices() pairs
    # BEGIN/END per track, so a lane holding two at once would mis-nest).
    lives = [s for s in slices if s["cats"] and
             s["cats"][0] in ("bo", "queue", "event")]
    kinds = collections.Counter(s["cats"][0] for s in lives)
    check(kinds == {"bo": BOS, "queue": QUEUES, "event": EVENTS},
          "lifetimes %r" % kinds)
    for lane in set(s["track"] for s in lives):
        ls = sorted((s for s in lives if s["track"] == lane),
                    key=lambda s: s["ts"])
        for a, b in zip(ls, ls[1:]):
            check(a["end"] <= b["ts"], "lane %x overlaps" % lane)
        check(by_track[by_track[lane]["parent"]]["kind"] == "track",
              "lane under its group")
    leaked = sorted((s["cats"][0], by_track[s["track"]]["name"])
                    for s in lives if s["end_args"].get("leaked"))
    check(leaked == [("bo", "VRAM gpu 0x2222"), ("event", "events"),
                     ("queue", "queues gpu 0x2222")], "leaks %r" % leaked)

    series = collections.defaultdict(list)
    for e in sorted((e for e in t.events if e["type"] == COUNTER),
                    key=lambda e: e["ts"]):
        series[by_track[e["track"]]["name"]].append(e["value"])
    vram0 = series["memory gpu 0x1111 VRAM (bytes)"]
    check(vram0 and max(vram0) == 96 << 20 and vram0[-1] == 0,
          "GPU 0 VRAM %r" % vram0[-3:])
    check(series["memory gpu 0x2222 VRAM (bytes)"][-1] == 256 << 20,
          "GPU 1 VRAM")
    marks = [e["name"] for e in t.events if e["type"] == INSTANT]
    check("phase two" in marks and marks.count("open") == 3,
          "instants %r" % marks)

    # A selection: only the failed calls, and a sequence range.
    sel = os.path.join(tmp, "failed.pftrace")
    export(kfdtrace, ["--perfetto", sel, "--failed", trace])
    with open(sel, "rb") as f:
        s = Trace(f.read()).slices()
    check(sorted(x["name"] for x in s if x["cats"][0] == "ioctl") ==
          sorted(x["name"] for x in ioctls if "failed" in x["cats"]),
          "--failed")
    # A cut trace: the records before the cut, a whole file, status 1.
    cut, cut_out = os.path.join(tmp, "cut.kft"), os.path.join(tmp, "cut.pftrace")
    with open(trace, "rb") as f, open(cut, "wb") as g:
        g.write(f.read()[:9000])
    r = subprocess.run([kfdtrace, "export", "--perfetto", cut_out, cut],
                       capture_output=True, text=True)
    check(r.returncode == 1 and "truncated" in r.stderr,
          "cut trace: %d %s" % (r.returncode, r.stderr))
    protoc_check(proto, cut_out)
    with open(cut_out, "rb") as f:
        ct = Trace(f.read())
    cp = [x for x in ct.tracks.values() if x["kind"] == "process"][0]
    check("integrity=truncated" in cp["labels"], "cut labels %r" %
          cp["labels"])
    check(len(ct.slices()) < len(slices), "cut slices")

    # Every call at the time and for the duration the JSON export gives.
    js = os.path.join(tmp, "rich.json")
    export(kfdtrace, ["--perfetto", js, trace])
    with open(js, encoding="utf-8") as f:
        xs = {e["args"]["seq"]: e["args"] for e in json.load(f)["traceEvents"]
              if e["ph"] == "X"}
    calls = [s for s in slices if s["cats"][0] in ("ioctl", "api")]
    check(len(calls) == len(xs), "%d calls, %d in JSON" % (len(calls), len(xs)))
    for s in calls:
        a = xs[s["args"]["seq"]]
        check(s["ts"] == a["ts"] and s["end"] - s["ts"] == a["dur_ns"],
              "#%d at %d..%d, JSON %d +%d" % (s["args"]["seq"], s["ts"],
                                             s["end"], a["ts"], a["dur_ns"]))
    # Most timestamps are deltas on the sequence's incremental clock.
    check(t.delta_packets > 10 * t.absolute_packets,
          "%d delta, %d absolute timestamps" % (t.delta_packets,
                                                t.absolute_packets))
    print("check_perfetto_proto: rich: %d events, %d tracks ok" %
          (len(t.events), len(t.tracks)))


def check_fork(kfdtrace, fork_app, proto, tmp):
    rec = os.path.join(tmp, "rec") + "/"
    r = subprocess.run([kfdtrace, "record", "-o", rec, "--sim", "--",
                        fork_app, "exec"], capture_output=True, text=True)
    check(r.returncode == 0, "record failed: %s%s" % (r.stdout, r.stderr))
    child = int(re.search(r"child (\d+)", r.stdout).group(1))
    files = sorted(os.listdir(rec))
    check(len(files) == 3, "three traces, not %r" % files)
    out = os.path.join(tmp, "run.pftrace")
    export(kfdtrace, ["--perfetto", out, rec])
    protoc_check(proto, out)
    with open(out, "rb") as f:
        t = Trace(f.read())
    procs = {x["pid"]: x for x in t.tracks.values() if x["kind"] == "process"}
    check(len(procs) == 2 and child in procs, "processes %r" % procs)
    parent = [p for p in procs if p != child][0]
    # The header says 0.0: the ABI is the one GET_VERSION returned.
    for p in procs.values():
        abi = [x for x in p["labels"] if x.startswith("kfd_abi=")]
        check(len(abi) == 1 and re.match(r"kfd_abi=1\.\d+$", abi[0]),
              "labels of %d: %r" % (p["pid"], p["labels"]))
    slices = t.slices()
    gv = [s for s in slices if s["name"] == "GET_VERSION"]
    check(len(gv) == 3, "%d GET_VERSION slices" % len(gv))
    pids = collections.Counter()
    for s in gv:
        th = t.tracks[s["track"]]
        check(th["kind"] == "thread" and
              t.tracks[th["parent"]]["pid"] == th["pid"], "thread %r" % th)
        pids[th["pid"]] += 1
    check(pids == {parent: 2, child: 1}, "GET_VERSION per process %r" % pids)
    # Tracks of the child never carry the parent's pid, and vice versa.
    # Thread uuids are 2 * tid + 1, the others carry the pid (bits 31..52)
    # and the exec generation (53..62).
    def owner(x):
        if x["uuid"] & 1:
            check(x["kind"] == "thread" and x["uuid"] >> 1 == x["tid"],
                  "odd uuid %x" % x["uuid"])
            return x["pid"], 0
        return (x["uuid"] >> 31) & 0x3FFFFF, (x["uuid"] >> 53) & 1023
    for x in t.tracks.values():
        pid = owner(x)[0]
        check(pid in procs, "uuid %x of no process" % x["uuid"])
        if "pid" in x:
            check(x["pid"] == pid, "uuid %x of pid %d" % (x["uuid"], pid))
    # Each trace's events are on its sequence (the pid, the generation in
    # bits 22 and up) and its own tracks.
    for e in t.events:
        x = t.tracks[e["track"]]
        pid, gen = owner(x)
        check(pid == e["seq"] & 0x3FFFFF and
              (x["kind"] == "thread" or gen == e["seq"] >> 22),
              "event of sequence %x on track %r" % (e["seq"], x))
    check(len(set(e["seq"] for e in t.events)) == 3,
          "one sequence per trace")

    # --pid: the child alone.
    only = os.path.join(tmp, "child.pftrace")
    export(kfdtrace, ["--perfetto", only, "--pid", str(child), rec])
    with open(only, "rb") as f:
        c = Trace(f.read())
    check(sorted(x["pid"] for x in c.tracks.values()
                 if x["kind"] == "process") == [child], "--pid")
    check(len([s for s in c.slices() if s["name"] == "GET_VERSION"]) == 1,
          "--pid slices")

    js = os.path.join(tmp, "run.json")
    export(kfdtrace, ["--perfetto", js, rec])
    with open(js, encoding="utf-8") as f:
        doc = json.load(f)
    other = doc["otherData"]
    check(other["kfd_abi"] and re.match(r"1\.\d+$", other["kfd_abi"]),
          "kfd_abi %r" % other["kfd_abi"])
    check(len(other["processes"]) == 3 and
          all(p["kfd_abi"] == other["kfd_abi"] for p in other["processes"]),
          "processes %r" % other["processes"])
    evs = doc["traceEvents"]
    check(all(e.get("cat") for e in evs), "an event without cat")
    check(sorted(e["pid"] for e in evs if e["name"] == "GET_VERSION") ==
          sorted([parent, parent, child]), "JSON GET_VERSION slices")
    names = {(e["pid"], e["name"]) for e in evs if e["ph"] == "M"}
    check((child, "process_name") in names and
          (parent, "process_name") in names, "process names")
    print("check_perfetto_proto: run of %d traces (parent %d, child %d) ok" %
          (len(files), parent, child))


def main():
    if len(sys.argv) not in (4, 5):
        fail("usage: check_perfetto_proto.py KFDTRACE ANALYSIS-GEN PROTO "
             "[FORK-APP]")
    with tempfile.TemporaryDirectory(prefix="kfdtrace-pftrace-") as tmp:
        check_rich(sys.argv[1], sys.argv[2], sys.argv[3], tmp)
        if len(sys.argv) == 5:
            check_fork(sys.argv[1], sys.argv[4], sys.argv[3], tmp)


if __name__ == "__main__":
    main()
