/* SPDX-License-Identifier: MIT */
/*
 * What the replay sets up before it runs (private to replay/, the setup
 * part): the CPU address space it owns (addr.c) and the handle, whose
 * GPUs topo_match.c matches.
 */
#ifndef RP_AS_H
#define RP_AS_H

#include "replay_model.h"

/* ------------------------------------------------------------------ */
/* The CPU address space the replay owns                               */

/* A captured CPU range and where it lives in the replayer. */
struct rp_as_range {
	uint64_t start, end;	/* captured */
	uint64_t live;		/* live start (== start unless relocated) */
	uint8_t reserved;	/* pre-reserved at plan time */
};

/* One mapping the replay made (device memory or backed user memory). */
struct rp_as_map {
	uint64_t start, end;	/* live */
};

struct rp_as {
	struct rp_vec ranges;	/* struct rp_as_range, sorted by start */
	struct rp_vec maps;	/* struct rp_as_map, sorted by start */
	uint64_t relocations;
	uint64_t reserved_bytes;
	void *guard;		/* one PROT_NONE page for bad pointers */
};

int rp_as_init(struct rp_as *as);
void rp_as_free(struct rp_as *as);
/* Reserve the model's ranges (PROT_NONE) at their captured addresses. */
void rp_as_plan(struct rp_as *as, const struct rp_model *m, FILE *out);
/* A captured CPU address as a live one. */
uint64_t rp_as_xlate(const struct rp_as *as, uint64_t addr);
/* Whether @addr lies in a relocated range. */
int rp_as_relocated(const struct rp_as *as, uint64_t addr);
/*
 * Map a device file like the capture: at the captured address (or its
 * relocation). Return: the live address, or MAP_FAILED with errno.
 */
void *rp_as_mmap(struct rp_as *as, uint64_t cap_addr, uint64_t len, int prot,
		 int flags, int fd, uint64_t offset, FILE *out);
/* Undo mappings the replay made in [addr, addr+len) (captured). */
int rp_as_munmap(struct rp_as *as, uint64_t cap_addr, uint64_t len);
/*
 * Make [addr, addr+len) (captured) ordinary read-write user memory, as the
 * captured process had it (userptr, SVM). Return: 0 or -errno.
 */
int rp_as_back(struct rp_as *as, uint64_t cap_addr, uint64_t len, FILE *out);
void rp_as_release(struct rp_as *as);

/* ------------------------------------------------------------------ */
/* The handle                                                           */

struct rp_tree;
struct rp_run;
struct rp_xfer_plan;

/* What kfd_replay_open() makes: the model and the GPUs matched. */
struct kfd_replay {
	char *path;
	struct rp_model model;
	struct rp_match match;
	int matched;
	/* A process of a tree replay (tree.c), in its replay process. */
	struct rp_tree *tree;
	int tree_self;			/* its node */
	const struct rp_run *inherit;	/* forked: its parent's replay */
	const struct rp_xfer_plan *xplan; /* tree: fd transfers paired */
};

#endif /* RP_AS_H */
