/* SPDX-License-Identifier: MIT */
/*
 * What the analysis tests know about the traces analysis-gen writes
 * (see analysis_gen.c for the program they describe).
 */
#ifndef KFDTRACE_ANALYSIS_GEN_H
#define KFDTRACE_ANALYSIS_GEN_H

#define GEN_GPU0 0x1111u
#define GEN_GPU1 0x2222u
#define GEN_MAIN_TID 4242u
#define GEN_WORKER_TID 4243u
/* The first tid of `analysis-gen threads` (the others follow it). */
#define GEN_THREAD_TID0 100000u

/* The rich trace's run: `kfdtrace record -- sh -c '...'` (NUL-separated). */
#define GEN_RUN_CMDLINE "sh\0-c\0train --epochs 2 && eval"

/* Worker calls; their latencies are 1..GEN_WORKER_CALLS us. */
#define GEN_WORKER_CALLS 1000
/* 8 MiB VRAM buffers of the allocation burst. */
#define GEN_BURST 12

/*
 * The main thread's ioctls: GET_VERSION, 2 ACQUIRE_VM, 5 + burst ALLOCs
 * (one fails), 2 MAPs, 2 CREATE_QUEUE, 2 CREATE_EVENT, DESTROY_QUEUE,
 * 4 + burst FREEs (one fails), DESTROY_EVENT.
 */
#define GEN_MAIN_IOCTLS (1 + 2 + 5 + GEN_BURST + 2 + 2 + 2 + 1 + 4 + \
			 GEN_BURST + 1)
#define GEN_IOCTLS (GEN_MAIN_IOCTLS + GEN_WORKER_CALLS)
#define GEN_FAILED 2
/* BOs created (the failed ALLOC makes none), queues, events. */
#define GEN_BOS (4 + GEN_BURST)
#define GEN_QUEUES 2
#define GEN_EVENTS 2
/* Alive at the end: GPU 1's 256 MiB VRAM BO, queue 1, event 2. */
#define GEN_LEAKS 3

#endif /* KFDTRACE_ANALYSIS_GEN_H */
