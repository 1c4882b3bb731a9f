/* SPDX-License-Identifier: MIT */
/*
 * The process tree's state (tree.c starts the processes, tree_proc.c is
 * each replay process's side): the slots every replay process reads and
 * writes at once, and the share handles they hand each other.
 */
#ifndef RP_TREE_H
#define RP_TREE_H

#include <pthread.h>
#include <sys/types.h>

#include "replay_state.h"

#define RP_TREE_SHARES	256

struct rp_tree_slot {
	int32_t pid;		/* live pid, 0 until it runs */
	int32_t active;		/* started, or about to be */
	int32_t done;
	int32_t status;		/* enum kfd_replay_status */
	uint64_t cur_exit;	/* the record in hand's exit time */
	/*
	 * While it waits for fds another process sends (xfer.c): per
	 * sender node, the seq of the send awaited, 0 when none.
	 */
	uint64_t await_seq[KFD_REPLAY_MAX_TREE];
	uint64_t gate_on;	/* bit per node its gate waits for now */
	struct kfd_replay_summary sum;
};

struct rp_tree_share {
	uint8_t cap[16], live[16];
};

/* MAP_SHARED: the same in every replay process. */
struct rp_tree_shm {
	pthread_mutex_t lock;	/* process-shared: the share table */
	unsigned int nshares;
	struct rp_tree_share shares[RP_TREE_SHARES];
	struct rp_tree_slot slot[KFD_REPLAY_MAX_TREE];
};

struct rp_tree_node {
	struct kfd_replay *r;
	int32_t pid, ppid;
	int parent;		/* node index, -1: none in the run */
	int forked;		/* its trace begins with a fork */
	uint64_t first_exit;
	FILE *out;		/* its report */
	char *record;		/* --record: its file */
};

struct rp_tree {
	/*
	 * Start node @i in a process of its own (@parent: the replay it is
	 * forked from, or NULL): tree.c's, which runs the replay there.
	 * Return: its pid, or -1.
	 */
	pid_t (*start)(struct rp_tree *t, unsigned int i,
		       const struct rp_run *parent);
	struct rp_tree_shm *shm;
	struct rp_xfer_plan *xplan;	/* fds passed over sockets (xfer.c) */
	const struct kfd_replay_opts *o;
	unsigned int n;
	struct rp_tree_node node[KFD_REPLAY_MAX_TREE];
};

/* Slots are read and written by every replay process at once. */
#define LOAD(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

#endif /* RP_TREE_H */
