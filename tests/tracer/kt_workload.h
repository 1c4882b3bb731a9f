/* SPDX-License-Identifier: MIT */
/*
 * What kt_workload's files share: the ioctl counts, the GPU it uses and
 * its helpers (kt_workload.c), and the modes of kt_workload_exec.c and
 * kt_workload_bench.c that main() dispatches to.
 */
#ifndef KT_WORKLOAD_H
#define KT_WORKLOAD_H

#include <stdint.h>

extern char **environ;

/* The first GPU node of the topology, as the thunk finds it. */
struct gpu {
	uint32_t gpu_id;
	int render_minor;
	uint64_t gpuvm_base;
};

/* Append the counts to $KT_COUNTS (once per process, at its end). */
void counts_write(void);
/* Forget the counts written so far (before an exec: the next image counts). */
void counts_clear(void);
/* Print @what with errno, write the counts, exit 2. */
void die(const char *what);
/* Issue and count one ioctl; failures are fatal unless @may_fail. */
int kio(int fd, const char *name, unsigned long req, void *arg, int may_fail);
/* Open /dev/kfd (fatal on failure). */
int open_kfd(void);
/* One counted GET_VERSION, and one GET_CLOCK_COUNTERS of @gpu_id. */
void get_version(int kfd);
void clock_counters(int kfd, uint32_t gpu_id);
/* Fill @g from the topology (gpu_id 0: none). */
void find_gpu(struct gpu *g);

/* kt_workload_exec.c */
int mode_execchain(const char *arg0, int stage);
int mode_ownfile(const char *how, const char *path, const char *ending);
int mode_closeall(void);

/* kt_workload_sig.c: @how as in the usage (kt_workload.c) */
int mode_signal(int sig, long n, const char *how);
int mode_clone(const char *how, long n);

/* kt_workload_bench.c: @null: on /dev/null; @mt: with an idle thread. */
int mode_bench(long n, int mt, int null);
int mode_pairbench(long n);

#endif /* KT_WORKLOAD_H */
