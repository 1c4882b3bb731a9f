/* SPDX-License-Identifier: MIT */
/*
 * The replayer: turns a trace into a reproduction on a live device.
 *
 * A replay has three steps:
 *
 *  1. kfd_replay_open() reads the whole trace once and builds its object
 *     model: KFD processes, device fds, memory objects, userptr ranges,
 *     dma-bufs, queues, events, SVM ranges and CPU mappings of device
 *     memory, each with the sequence numbers that created and ended it.
 *     The model also lists every CPU address range the replay will need
 *     at its captured address.
 *  2. kfd_replay_match() reads the live KFD topology (through libc, so a
 *     simulated device answers as it answers any program), pairs every
 *     captured GPU with a live one and prints a compatibility report.
 *  3. kfd_replay_run() reissues the records in sequence order through the
 *     dispatch point (kfd_dispatch_once()), translating every value the
 *     schema gives a role (gpu ids, handles, queue and event ids, fds,
 *     mmap and doorbell offsets, CPU addresses) from captured to live, and
 *     compares each result with the captured one.
 *
 * docs/replay.md describes the mapping rules and the verification levels.
 * Library code never exits; problems are reported on the opts' stream and
 * through return values.
 */
#ifndef KFDTRACE_REPLAY_H
#define KFDTRACE_REPLAY_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How much of each result must match the capture. */
enum kfd_replay_verify {
	/* Return value, errno and every output field after mapping. */
	KFD_REPLAY_VERIFY_STRICT = 0,
	/* Return value and errno only. */
	KFD_REPLAY_VERIFY_RESULTS = 1,
	/* Nothing: reissue only. */
	KFD_REPLAY_VERIFY_NONE = 2,
};

enum kfd_replay_timing {
	KFD_REPLAY_TIMING_ASAP = 0,	/* back to back */
	KFD_REPLAY_TIMING_ORIGINAL = 1,	/* keep the captured gaps */
};

/* What kfd_replay_run() concluded. */
enum kfd_replay_status {
	KFD_REPLAY_MATCH = 0,		/* every verified result matched */
	KFD_REPLAY_DIVERGED = 1,	/* at least one divergence */
	KFD_REPLAY_FAILED = 2,		/* could not replay (setup failed) */
	KFD_REPLAY_DAMAGED = 3,		/* the trace is not whole (truncated,
					 * corrupt, damaged, records lost, no
					 * END record): no verdict on the
					 * capture, whatever the records that
					 * were read did */
};

/* One --gpu-map pair: a captured gpu_id and the live gpu_id it becomes. */
struct kfd_replay_gpu_pair {
	uint32_t captured;
	uint32_t live;
};

#define KFD_REPLAY_MAX_GPU_MAP 64

struct kfd_replay_opts {
	enum kfd_replay_verify verify;
	enum kfd_replay_timing timing;
	uint64_t from_seq;		/* first record replayed (0: start) */
	uint64_t to_seq;		/* last one, inclusive; 0: the end */
	/*
	 * Comma-separated record kinds: ioctl names ("ALLOC_MEMORY_OF_GPU"
	 * or "alloc_memory_of_gpu"), record type names ("open", "mmap"), or
	 * "ioctl" for every ioctl. NULL: no filter.
	 */
	const char *only;
	const char *skip;
	int keep_going;			/* 0: stop at the first divergence */
	unsigned int loop;		/* times to replay; 0 or 1: once */
	/* Record the replay itself into this trace file (NULL: no). */
	const char *record_path;
	unsigned int record_flags;	/* enum kfd_recorder_flags */
	/* Explicit gpu pairs; the rest are matched automatically. */
	const struct kfd_replay_gpu_pair *gpu_map;
	unsigned int ngpu_map;
	/* Replay even when a captured GPU has no sensible live match. */
	int force;
	/* Upper bound on a blocking WAIT_EVENTS, in ms; 0: 5000. */
	unsigned int wait_cap_ms;
	/*
	 * Upper bound on one --timing=original sleep, in ms; 0: 10000. A
	 * longer captured gap is cut to it (warned about once, naming the
	 * record) and the records after it keep their gaps from there.
	 */
	unsigned int max_sleep_ms;
	/* The live sysfs topology; NULL: /sys/devices/virtual/kfd/kfd/topology */
	const char *topology_root;
	/* Divergences described in full; 0: 20. All are counted. */
	unsigned int max_reported;
	/*
	 * Replay each captured thread on a thread of its own, each call
	 * after the calls of other threads that had returned before it was
	 * entered (the capture's happens-before order); calls that
	 * overlapped in the capture may run at the same time, in any order.
	 * 0: the serial replay, in sequence order.
	 */
	int threads;
	/* Print every replayed record. */
	int verbose;
	/* Leave the captured packets (submit records) out (--no-resubmit). */
	int no_resubmit;
	/*
	 * Write every captured copy source back, none compared with what
	 * the replayed GPU left (--no-compare).
	 */
	int no_compare;
	/* Reports and the summary go here; NULL: stdout. */
	FILE *out;
	/*
	 * Called after each record of a serial replay with the records
	 * seen so far and the trace's count (a progress line); NULL: none.
	 */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/* Counters of one run (all loops together). */
struct kfd_replay_summary {
	uint64_t records;		/* records replayed */
	uint64_t ioctls;		/* of them, ioctls */
	uint64_t filtered;		/* left out by --from/--to/--only/--skip */
	uint64_t not_replayed;		/* could not be reissued (unknown
					 * requests, interrupted calls, ...) */
	uint64_t divergences;
	uint64_t topology_notes;	/* differences explained by topology */
	uint64_t raced;			/* AVAILABLE_MEMORY values not compared:
					 * they raced an allocation elsewhere */
	uint64_t first_divergence_seq;	/* UINT64_MAX: none */
	uint64_t last_ok_seq;		/* last record that matched; UINT64_MAX: none */
	/* Objects whose captured values were mapped to live ones. */
	uint64_t mapped_fds;
	uint64_t mapped_handles;
	uint64_t mapped_queues;
	uint64_t mapped_events;
	uint64_t mapped_gem;
	uint64_t mapped_offsets;
	uint64_t cpu_mappings;		/* device mmaps reissued */
	uint64_t relocations;		/* CPU ranges moved off their address */
	uint64_t synthesized;		/* stand-ins for outside dma-bufs */
	uint64_t gpu_sets;		/* events set in the GPU's stead */
	uint64_t ages_offset;		/* event ages bound at a new offset */
	uint64_t resubmitted;		/* doorbells published again */
	uint64_t unretired;		/* of them, not run to the end */
	uint64_t memory_restored;	/* captured memory written back */
	uint64_t copies_checked;	/* SDMA copies that moved the captured bytes */
	uint64_t compared;		/* copy sources in VRAM compared */
	uint64_t compared_bytes;	/* ... their bytes */
	uint64_t compared_differ;	/* ... of them, ranges that differed */
	uint64_t compared_unfed;	/* ... differed, but their inputs were
					 * not captured: not divergences */
	uint64_t compare_busy;		/* ... not compared: queues still busy */
	uint64_t compare_waited;	/* ... not compared: captured before the
					 * packets the copy waits for ran */
	uint64_t ib_skipped;		/* AQL PM4_IBs without their IB: skipped */
	unsigned int loops;
	double seconds;			/* wall time of the replay proper */
	double cpu_seconds;		/* CPU time (user + system, every
					 * thread) of the replay proper */
};

struct kfd_replay;

/*
 * The annotations a recording of a replay (--record) has right after a
 * call that is not simply one of the capture's: a WAIT_EVENTS it issued
 * only to see whether it completes yet (timeout 0) and holds to issue
 * again later (TRY), the issue of a held wait that ends its hold, which
 * is the one compared (DONE), and a SET_EVENT the replayer made in the
 * GPU's stead (GPU). TRY and DONE are printf formats of the captured
 * record's number (a uint64_t), so that `kfdtrace diff` puts the wait
 * that ends a hold in the place of its own try, where the capture had it,
 * even with several waits on the same events held at once. diff leaves
 * the GPU's sets out. KFD_REPLAY_TRY_NOTE_V1 is the TRY of replays before
 * the numbers, which marked no DONE; diff still reads it.
 */
#define KFD_REPLAY_TRY_NOTE \
	"kfdtrace-replay: the wait above is a try of record #%" PRIu64 ", issued again"
#define KFD_REPLAY_DONE_NOTE \
	"kfdtrace-replay: the wait above completes the try of record #%" PRIu64
#define KFD_REPLAY_GPU_NOTE "kfdtrace-replay: the set above stands in for the GPU"
#define KFD_REPLAY_TRY_NOTE_V1 "kfdtrace-replay: the wait above is a try, issued again"

/*
 * kfd_replay_open() - read a trace and build its object model.
 * @path:	the trace file
 * @out:	the replay handle
 * @err:	a message when it fails (may be NULL)
 * @errlen:	size of @err
 *
 * A trace that is not whole (truncated, corrupt, no END record) is
 * accepted up to where it ends, with a warning in the model; its replay
 * gives KFD_REPLAY_DAMAGED at best. An unreadable or foreign file is
 * refused.
 *
 * Return: 0, or a negative error (-errno or -KT_E*).
 */
int kfd_replay_open(const char *path, struct kfd_replay **out, char *err,
		    size_t errlen);

/*
 * kfd_replay_print_plan() - print the object model: what the trace
 * creates and uses, and the CPU ranges the replay needs.
 */
void kfd_replay_print_plan(const struct kfd_replay *r, FILE *out);

/*
 * kfd_replay_match() - match captured GPUs to live ones and print the
 * compatibility report on opts->out.
 *
 * Return: 0 when every GPU the trace uses has a match (or opts->force);
 * -ENODEV when one has none (the report says which); -EINVAL for a bad
 * --gpu-map pair; -errno when the live topology cannot be read.
 */
int kfd_replay_match(struct kfd_replay *r, const struct kfd_replay_opts *o);

/*
 * kfd_replay_run() - replay (after kfd_replay_match()).
 * @sum:	filled with the counters (may be NULL)
 *
 * With opts->loop > 1 each pass runs in a child process of its own, so
 * every pass starts from a fresh KFD process as the capture did.
 *
 * Return: the verdict.
 */
enum kfd_replay_status kfd_replay_run(struct kfd_replay *r,
				      const struct kfd_replay_opts *o,
				      struct kfd_replay_summary *sum);

#define KFD_REPLAY_MAX_TREE 64	/* traces of one tree replay */

/*
 * kfd_replay_tree() - replay the traces of one run as its process tree
 * (after kfd_replay_match() of each).
 * @rs:		the traces, as kfd_replay_open() gave them; @rs[0] first in
 *		the report (the root, normally)
 * @n:		how many (1 to KFD_REPLAY_MAX_TREE)
 * @sum:	records, ioctls and divergences of them all (may be NULL)
 *
 * Each trace is replayed in a process of its own: a forked child's is
 * forked by its parent's replay where the parent's trace forked, the
 * others start fresh, and all keep the capture's order across processes
 * by its clock. Each process's report (divergences, summary) is printed
 * under a heading, in the order of @rs, then the verdict of each. Options
 * are those of kfd_replay_run() (--loop excepted); with record_path, the
 * replay of @rs[i] is recorded to "record_path.PID" (the captured pid),
 * @rs[0]'s to record_path.
 *
 * Return: the worst verdict: FAILED, else DIVERGED, else DAMAGED.
 */
enum kfd_replay_status kfd_replay_tree(struct kfd_replay **rs, unsigned int n,
				       const struct kfd_replay_opts *o,
				       struct kfd_replay_summary *sum);

/* kfd_replay_close() - free everything. NULL is ignored. */
void kfd_replay_close(struct kfd_replay *r);

/*
 * kfd_replay_parse_gpu_map() - parse "CAPTURED=LIVE,..." (decimal or 0x
 * hex gpu ids).
 *
 * Return: the number of pairs, or -1 for bad syntax or more than @max.
 */
int kfd_replay_parse_gpu_map(const char *s, struct kfd_replay_gpu_pair *pairs,
			     unsigned int max);

/*
 * kfd_replay_check_kinds() - check a --only/--skip list.
 * @bad:	the first unknown kind, when there is one
 *
 * Return: 0, or -1 with @bad filled.
 */
int kfd_replay_check_kinds(const char *list, char *bad, size_t badlen);

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_REPLAY_H */
