#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The structure of `kfdtrace export --perfetto`, checked event by event.

Usage: check_perfetto.py KFDTRACE ANALYSIS-GEN

Writes the generated rich trace (tests/analysis/analysis_gen.c), exports
it, parses the JSON strictly (no NaN, no duplicate keys) and checks what
the trace-event format and Perfetto's importer require: every event's
fields and types per phase, complete slices nesting on each thread, API
spans enclosing the ioctls they caused, async begin/end pairs matching,
counters carrying the live bytes of each heap, and metadata naming the
process and threads. Exit status 0 on success, 1 with a message otherwise.
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

GPU0, GPU1 = 0x1111, 0x2222
MAIN, WORKER = 4242, 4243
IOCTLS, WORKER_CALLS, BOS, QUEUES, EVENTS = 1044, 1000, 16, 2, 2


def fail(msg):
    print("check_perfetto: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def strict_pairs(pairs):
    keys = [k for k, _ in pairs]
    check(len(keys) == len(set(keys)), "duplicate keys %r" % keys)
    return dict(pairs)


def reject_constant(name):
    fail("non-standard JSON constant " + name)


def load(kfdtrace, gen, tmp):
    trace = os.path.join(tmp, "rich.kft")
    out = os.path.join(tmp, "rich.json")
    subprocess.run([gen, "rich", trace], check=True)
    r = subprocess.run([kfdtrace, "export", "--perfetto", out, trace],
                       capture_output=True, text=True)
    check(r.returncode == 0, "export failed: " + r.stderr)
    with open(out, encoding="utf-8") as f:
        return json.load(f, object_pairs_hook=strict_pairs,
                         parse_constant=reject_constant)


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_fields(ev):
    ph = ev.get("ph")
    check(ph in ("X", "M", "C", "b", "e", "i"), "unexpected phase %r" % ev)
    check(isinstance(ev.get("name"), str) and ev["name"], "name: %r" % ev)
    check(isinstance(ev.get("pid"), int) and isinstance(ev.get("tid"), int),
          "pid/tid: %r" % ev)
    # Every event has a category (trace-model parsers require one).
    check(isinstance(ev.get("cat"), str) and ev["cat"], "cat: %r" % ev)
    if ph == "M":
        check(ev["cat"] == "__metadata", "M cat: %r" % ev)
        check(ev["name"] in ("process_name", "thread_name"), "M: %r" % ev)
        check(isinstance(ev["args"].get("name"), str), "M args: %r" % ev)
        return
    check(number(ev.get("ts")) and ev["ts"] >= 0, "ts: %r" % ev)
    if ph == "X":
        check(number(ev.get("dur")) and ev["dur"] >= 0, "dur: %r" % ev)
        check(ev.get("cat") in ("ioctl", "ioctl,failed", "api"), "cat: %r" % ev)
    elif ph in ("b", "e"):
        check(isinstance(ev.get("id"), str) and ev["id"].startswith("0x"),
              "async id: %r" % ev)
        # Process-scoped: the pid in bits 40 and up.
        check(int(ev["id"], 16) >> 40 == ev["pid"], "async id %r" % ev)
        check(ev.get("cat") in ("bo", "queue", "event"), "cat: %r" % ev)
    elif ph == "C":
        check(ev["cat"] == "memory", "C cat: %r" % ev)
        check(isinstance(ev.get("args"), dict) and ev["args"], "C: %r" % ev)
        check(all(number(v) for v in ev["args"].values()), "C: %r" % ev)
    elif ph == "i":
        check(ev.get("s") == "t", "instant scope: %r" % ev)


def check_nesting(xs):
    """Complete slices of one thread either nest or are disjoint."""
    xs = sorted(xs, key=lambda e: (e["ts"], -e["dur"]))
    stack = []
    for e in xs:
        end = e["ts"] + e["dur"]
        while stack and stack[-1] <= e["ts"]:
            stack.pop()
        check(not stack or end <= stack[-1] + 1e-6,
              "slice %s at %.3f overlaps its parent" % (e["name"], e["ts"]))
        stack.append(end)


def main():
    if len(sys.argv) != 3:
        fail("usage: check_perfetto.py KFDTRACE ANALYSIS-GEN")
    with tempfile.TemporaryDirectory(prefix="kfdtrace-perfetto-") as tmp:
        doc = load(sys.argv[1], sys.argv[2], tmp)

    check(set(doc) == {"traceEvents", "displayTimeUnit", "otherData"},
          "top-level keys %r" % sorted(doc))
    check(doc["displayTimeUnit"] == "ns", "displayTimeUnit")
    other = doc["otherData"]
    check(other["integrity"] == "ok" and other["kfd_abi"] == "1.16" and
          other["pid"] == MAIN and other["clock"] == "CLOCK_MONOTONIC",
          "otherData %r" % other)
    events = doc["traceEvents"]
    for ev in events:
        check_fields(ev)
        check(ev["pid"] == MAIN, "pid of %r" % ev)
    by_ph = collections.defaultdict(list)
    for ev in events:
        by_ph[ev["ph"]].append(ev)

    # Metadata: the process by its exe, the threads by their names.
    names = {(e["name"], e["tid"]): e["args"]["name"] for e in by_ph["M"]}
    check(names.get(("process_name", MAIN)) == "train", "process name")
    check(names.get(("thread_name", MAIN)) == "main", "main thread name")
    check(names.get(("thread_name", WORKER)) == "worker", "worker name")

    # One complete slice per ioctl, with the decoded record as args.
    ioctls = [e for e in by_ph["X"] if e["cat"].startswith("ioctl")]
    check(len(ioctls) == IOCTLS, "%d ioctl slices" % len(ioctls))
    for e in ioctls:
        a = e["args"]
        check(a["type"] == "ioctl" and a["name"] == e["name"] and
              a["tid"] == e["tid"], "ioctl args %r" % a)
        check(abs(e["dur"] * 1000 - a["dur_ns"]) < 1, "dur of %r" % e)
    failed = sorted(e["args"]["errno"] for e in ioctls
                    if e["cat"] == "ioctl,failed")
    check(failed == ["EINVAL", "ENOMEM"], "failed slices %r" % failed)
    clocks = [e for e in ioctls if e["name"] == "GET_CLOCK_COUNTERS"]
    check(len(clocks) == WORKER_CALLS and
          all(e["tid"] == WORKER for e in clocks), "worker slices")
    check(sorted(round(e["dur"]) for e in clocks) ==
          list(range(1, WORKER_CALLS + 1)), "worker latencies")
    allocs = [e for e in ioctls if e["name"] == "ALLOC_MEMORY_OF_GPU"]
    check(allocs[0]["args"]["in"]["size"] == 64 << 20 and
          allocs[0]["args"]["in"]["gpu_id"] == GPU0, "alloc args")

    # API spans enclose the ioctls they caused, on the same thread.
    apis = [e for e in by_ph["X"] if e["cat"] == "api"]
    check(sorted(e["name"] for e in apis) ==
          ["hsaKmtAllocMemory", "hsaKmtFreeMemory"], "api spans")
    by_seq = {e["args"]["seq"]: e for e in ioctls}
    for a in apis:
        first, last = a["args"]["first_seq"], a["args"]["last_seq"]
        check(first <= last, "api span without ioctls")
        for s in range(first, last + 1):
            if s not in by_seq:
                continue
            i = by_seq[s]
            check(i["tid"] == a["tid"] and i["ts"] >= a["ts"] and
                  i["ts"] + i["dur"] <= a["ts"] + a["dur"],
                  "%s does not enclose #%d" % (a["name"], s))
    for tid in (MAIN, WORKER):
        check_nesting([e for e in by_ph["X"] if e["tid"] == tid])

    # Async lifetimes: one begin and one end per object, in order.
    spans = collections.defaultdict(dict)
    for e in by_ph["b"] + by_ph["e"]:
        key = (e["cat"], e["id"])
        check(e["ph"] not in spans[key], "two %s for %r" % (e["ph"], key))
        spans[key][e["ph"]] = e
    kinds = collections.Counter()
    leaked = []
    for key, be in spans.items():
        check(set(be) == {"b", "e"}, "unpaired %r" % (key,))
        check(be["b"]["name"] == be["e"]["name"], "name of %r" % (key,))
        check(be["e"]["ts"] >= be["b"]["ts"], "end before begin %r" % (key,))
        kinds[key[0]] += 1
        if be["e"]["args"].get("leaked"):
            leaked.append(be["e"])
    check(kinds == {"bo": BOS, "queue": QUEUES, "event": EVENTS},
          "lifetimes %r" % kinds)
    leaks = sorted((e["cat"], e["name"]) for e in leaked)
    check(leaks == [("bo", "VRAM gpu 0x2222"), ("event", "events"),
                    ("queue", "queues gpu 0x2222")], "leaks %r" % leaks)
    end = max(e["ts"] + e.get("dur", 0) for e in events if "ts" in e)
    check(all(abs(e["ts"] - end) < 1e-3 for e in leaked),
          "leaks end at the trace's end")

    # Counters: live bytes per heap; GPU 0's VRAM peaks at 96 MiB and
    # returns to 0, GPU 1 keeps its 256 MiB.
    series = collections.defaultdict(list)
    for e in sorted(by_ph["C"], key=lambda e: e["ts"]):
        for heap, v in e["args"].items():
            series[(e["name"], heap)].append(v)
    vram0 = series[("memory gpu 0x1111 (bytes)", "VRAM")]
    vram1 = series[("memory gpu 0x2222 (bytes)", "VRAM")]
    check(vram0 and max(vram0) == 96 << 20 and vram0[-1] == 0,
          "GPU 0 VRAM %r" % vram0[-3:])
    check(vram1 and vram1[-1] == 256 << 20, "GPU 1 VRAM")
    check(series[("memory gpu 0x2222 (bytes)", "userptr")][-1] == 0,
          "userptr freed")

    # Instants: the annotation and the opens.
    marks = sorted(e["name"] for e in by_ph["i"])
    check("phase two" in marks and marks.count("open") == 3,
          "instants %r" % marks)
    print("check_perfetto: %d events ok" % len(events))


if __name__ == "__main__":
    main()
