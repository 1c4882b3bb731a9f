/* SPDX-License-Identifier: MIT */
/*
 * What the replay knows of a trace before it runs (private to replay/,
 * the model part): the topology read live, the object model of captured
 * values (model*.c) with its order checks (order.c), and the matching of
 * captured GPUs to live ones (topo_match.c, the setup part).
 */
#ifndef RP_MODEL_H
#define RP_MODEL_H

#include "replay_recs.h"

/* ------------------------------------------------------------------ */
/* Topology                                                             */

/*
 * Captured and live topologies are kfdtrace/topology.h's struct kt_topo,
 * parsed by kt_topo_parse(); the live one is read by kt_topo_read_live().
 */

/* ------------------------------------------------------------------ */
/* The object model (captured values only)                             */

enum rp_fd_origin {
	RP_FD_OPEN = 0,
	RP_FD_DUP,
	RP_FD_EXPORT,		/* EXPORT_DMABUF */
	RP_FD_PRIME,		/* DRM_PRIME_HANDLE_TO_FD */
	RP_FD_SMI,		/* SMI_EVENTS */
	RP_FD_INHERITED,	/* used, never opened in the trace */
};

/* An open file description of a device file (dups share it). */
struct rp_m_ofd {
	uint8_t kind;		/* enum kfd_file_kind */
	int32_t proc;		/* KFD process, for kfd files; -1 */
	int32_t minor;		/* render minor, or -1 */
	int32_t fd;		/* the fd it was opened as */
	uint64_t seq;
	char path[48];
};

struct rp_m_fd {
	int32_t fd;
	uint8_t origin;		/* enum rp_fd_origin */
	uint8_t kind;
	int32_t ofd;		/* index, -1 for non-device fds */
	uint64_t open_seq;
	uint64_t close_seq;	/* UINT64_MAX: open at the end */
};

struct rp_m_proc {
	uint64_t seq;
	int32_t fd;		/* the fd it came with */
	uint8_t secondary;	/* from CREATE_PROCESS */
	uint32_t vm_gpus;	/* ACQUIRE_VMs that succeeded */
};

struct rp_m_bo {
	int32_t proc;
	uint32_t gpu_id;
	uint32_t flags;
	uint8_t imported;
	uint64_t handle;
	uint64_t va;
	uint64_t size;
	uint64_t mmap_offset;	/* from the kernel */
	uint64_t cpu_addr;	/* userptr: the CPU range */
	int32_t dmabuf;		/* imported from this dmabuf, or -1 */
	uint32_t mapped;	/* GPUs it is mapped on now */
	uint32_t max_mapped;
	uint32_t exports;
	uint64_t alloc_seq;
	uint64_t free_seq;	/* UINT64_MAX: never freed */
};

struct rp_m_queue {
	int32_t proc;
	uint32_t gpu_id;
	uint32_t qid;
	uint32_t type;
	uint64_t ring, rptr, wptr, eop, ctx;
	uint64_t ring_size, eop_size, ctx_size;
	uint64_t doorbell_offset;
	uint64_t create_seq;
	uint64_t destroy_seq;
};

struct rp_m_event {
	int32_t proc;
	uint32_t id;
	uint32_t type;
	uint32_t slot;
	uint32_t auto_reset;
	uint64_t create_seq;
	uint64_t destroy_seq;
};

/* A SET_EVENT of the capture: when it entered, which event. */
struct rp_m_set {
	uint64_t ts;
	uint64_t exit;		/* when it returned */
	uint64_t seq;
	uint32_t id;
	uint32_t tid;
};

/*
 * A thread that calls the device: when its first such call entered and
 * its last returned. A thread whose first call entered after another's
 * last returned can replay on that one's thread.
 */
struct rp_m_thread {
	uint32_t tid;
	uint64_t first;		/* the first record's entry time */
	uint64_t last_exit;	/* when the last returned */
	uint64_t nrec;
};

/* A completed wait with event ages (ages.c): what it saw. */
#define RP_AGED_MAX	16
struct rp_m_aged {
	uint64_t seq, ts, t_exit;
	uint32_t tid;
	uint32_t n;
	uint32_t ids[RP_AGED_MAX];
	uint64_t ages[RP_AGED_MAX];	/* the ages it got back */
	uint8_t fired[RP_AGED_MAX];	/* ... advanced */
};

struct rp_m_svm {
	int32_t proc;
	uint32_t op;
	uint32_t nattr;
	uint64_t start;
	uint64_t size;
	uint64_t seq;
};

enum rp_map_what {
	RP_MAP_BO = 0,		/* a memory object through the render node */
	RP_MAP_GEM,		/* a GEM object of the render node's own */
	RP_MAP_DOORBELL,
	RP_MAP_EVENTS,
	RP_MAP_MMIO,
	RP_MAP_RESERVED,	/* APU CWSR area */
	RP_MAP_OTHER,
};

struct rp_m_mmap {
	uint64_t addr;		/* where it landed (or was asked for) */
	uint64_t len;
	uint64_t offset;
	int32_t prot;
	int32_t flags;
	int32_t fd;
	uint8_t kind;
	uint8_t what;		/* enum rp_map_what */
	uint8_t ok;
	int32_t bo;		/* memory object, or -1 */
	uint64_t seq;
	uint64_t unmap_seq;	/* UINT64_MAX: still mapped */
};

enum rp_dmabuf_origin {
	RP_DMABUF_EXPORT = 0,	/* EXPORT_DMABUF of one of its BOs */
	RP_DMABUF_PRIME,	/* a GEM object of its render node */
	RP_DMABUF_EXTERNAL,	/* came from outside the process */
};

struct rp_m_dmabuf {
	int32_t fd;
	uint8_t origin;
	int32_t source;		/* bo or gem index, -1 */
	uint32_t gpu_id;	/* from GET_DMABUF_INFO */
	uint32_t flags;
	uint64_t size;
	uint32_t imports;
	uint32_t metadata_size;
	uint8_t metadata[256];	/* the first bytes GET_DMABUF_INFO saw */
	uint64_t seq;
};

/* An fd_transfer record: fds sent or received over a Unix socket (xfer.c). */
struct rp_m_xfer {
	uint64_t seq, ts, exit;
	uint64_t ino, peer_ino;
	int32_t peer_pid;
	uint8_t dir, flags;
	int64_t ret;
	uint16_t nfds;
	char name[KT_MAX_SOCK_NAME + 1];
	char peer_name[KT_MAX_SOCK_NAME + 1];
};

struct rp_m_gem {
	int32_t ofd;
	uint32_t handle;
	uint64_t size;
	uint64_t domains;
	uint64_t seq;
};

/* A CPU address range the replay needs at its captured address. */
enum rp_range_why {
	RP_RANGE_MMAP = 0,	/* a device mapping */
	RP_RANGE_USERPTR,	/* user memory registered with KFD */
	RP_RANGE_SVM,		/* SVM range */
};

struct rp_m_range {
	uint64_t start;
	uint64_t end;
	uint8_t why;
};

/* Order checks (order.c): a record as a dependency names it. */
/* A call's time in the capture: entered at @ts, returned at @exit. */
struct rp_m_span {
	uint64_t seq, ts, exit;
};

struct rp_m_node {
	uint64_t seq;
	uint64_t ts;		/* when it entered */
	uint64_t exit;		/* when it returned (ioctls; else ts) */
	uint32_t tid;
	const char *name;	/* schema row name (static) */
};

enum rp_dep_kind {
	RP_DEP_HANDLE,
	RP_DEP_QUEUE,
	RP_DEP_EVENT,
};

/* A use sequence order does not satisfy. */
struct rp_m_dep {
	struct rp_m_node use;
	struct rp_m_node other;	/* the creation after it, or the end before */
	uint64_t value;
	uint8_t kind;		/* enum rp_dep_kind */
	uint8_t after_end;	/* other destroyed it before the use */
};

struct rp_m_edge {
	struct rp_m_node from, to;
};

/*
 * The kernel reused an id before the call that freed it was numbered: the
 * creation (seq c) got the id its previous life's end (seq e, later in
 * sequence order, entered before c returned) had freed. The replay
 * issues e first, then c (stream.c).
 */
struct rp_swap {
	uint64_t c, e;
};

#define RP_MAX_DEPS	32	/* violations listed (all are kept) */
#define RP_MAX_CYCLE	16	/* records of a cycle named */

struct rp_model {
	struct kt_header hdr;
	int have_topo;
	struct kt_topo topo;
	uint32_t abi_major, abi_minor;	/* from the GET_VERSION result */
	int integrity;			/* enum kt_integrity */
	char integrity_msg[256];
	int have_end;			/* an END record was read */
	uint64_t left_out;		/* its count of ioctls not recorded */
	uint64_t nrec;
	uint64_t nrec_type[KT_REC_TYPE_MAX];
	uint64_t nioctl_failed;
	uint64_t nunknown;
	uint64_t first_seq, last_seq;
	uint64_t first_ts, last_ts;
	int32_t fork_parent;		/* a forked child's trace: the parent */
	/*
	 * AVAILABLE_MEMORY calls that overlapped, in the capture, an
	 * allocation or free of another thread or process: what they read
	 * depended on which came first inside the kernel, which no order of
	 * the replay can know (sorted seqs, rp_model_avail_varies()). The
	 * spans of both kinds (struct rp_m_span), sorted by entry time.
	 */
	struct rp_vec avail_varies;
	struct rp_vec avail_spans, mem_spans;
	/* The children this trace's process forked (the first RP_MAX_FORKED),
	 * so that a tree finds a child's parent when an exec'd image of the
	 * same pid has a trace too. */
#define RP_MAX_FORKED 64
	int32_t forked[RP_MAX_FORKED];
	uint32_t nforked;
	uint32_t nthreads;
	uint32_t tids[64];
	struct rp_vec threads;		/* struct rp_m_thread, in order of appearance */
	/* gpu_ids the ioctls use (GPU_ID-role fields and handles). */
	unsigned int nused;
	uint32_t used[RP_MAX_GPUS];
	uint64_t overflow;		/* objects dropped at the bounds */
	struct rp_vec ofds, fds, procs, bos, queues, events, svms, mmaps,
		dmabufs, gems, ranges;
	struct rp_vec sets;		/* struct rp_m_set, by entry time */
	struct rp_vec aged;		/* struct rp_m_aged, in seq order */
	struct rp_vec xfers;		/* struct rp_m_xfer, in file order */
	uint64_t events_page_handle;	/* from CREATE_EVENT, 0: none */
	int32_t events_page_bo;
	/* Model lookups: current fd number -> fds index, etc. */
	struct kc_u64map idx;
	int32_t *fd_now;		/* captured fd -> fds index, or -1 */
	int fd_now_len;
	/* Order checks (order.c). */
	struct rp_vec lives, uses, edges;
	struct kc_u64map order_idx;
	int want_edges;			/* the cycle search's pass */
	uint64_t edges_dropped;
	struct rp_vec deps;		/* struct rp_m_dep, by use seq */
	struct rp_vec swaps;		/* struct rp_swap, by creation seq */
	uint64_t ndeps_total;		/* also those past the bound */
	struct rp_m_node cycle[RP_MAX_CYCLE];
	unsigned int ncycle;		/* named, of cycle_len */
	size_t cycle_len;		/* 0: no cycle found */
};

int rp_model_build(struct rp_model *m, const char *path, char *err,
		   size_t errlen);
/* The same, keeping every creation -> use edge when @edges (order.c). */
int rp_model_build_ex(struct rp_model *m, const char *path, char *err,
		      size_t errlen, int edges);

/*
 * order.c: uses of kernel-picked ids against their creation and end, in
 * sequence order. make/use record them (@ends: the use destroys the id);
 * finish ends the pass; search finds a dependency cycle in the edges of
 * a model built with them, program order added (1 found, 0 none, <0
 * error: rp_model_build() asks for it after a pass with violations);
 * dep_at is the violation of the record @seq, or NULL; print lists them.
 */
void rp_order_init(struct rp_model *m);
void rp_order_free(struct rp_model *m);
void rp_order_make(struct rp_model *m, unsigned int kind, int32_t proc,
		   uint64_t value, const struct kt_record *rec, const char *name);
void rp_order_use(struct rp_model *m, unsigned int kind, int32_t proc,
		  uint64_t value, const struct kt_record *rec, const char *name,
		  int ends);
void rp_order_finish(struct rp_model *m);
int rp_order_search(struct rp_model *m);
const struct rp_m_dep *rp_order_dep_at(const struct rp_model *m, uint64_t seq);
const char *rp_dep_kind_name(unsigned int kind);
void rp_order_print(const struct rp_model *m, FILE *out);
void rp_model_free(struct rp_model *m);
/*
 * rp_model_cpu_set() - whether the capture has a SET_EVENT of one of the
 * @n events @ids that entered in [@from, @to): a CPU call that may have
 * released a wait over that time.
 */
int rp_model_cpu_set(const struct rp_model *m, const uint32_t *ids, int n,
		     uint64_t from, uint64_t to);
/*
 * rp_model_event_at() - the life of event @id that record @seq falls in
 * (created before it, not destroyed yet), or NULL (the capture did not
 * create it).
 */
const struct rp_m_event *rp_model_event_at(const struct rp_model *m,
					   uint32_t id, uint64_t seq);
/*
 * rp_model_sets_before() - how many SET_EVENTs of event @id numbered in
 * (@from, @to) (a life of the event) the capture has that entered before
 * @ts.
 */
/*
 * model_waits.c, while the model is built: rp_age_note_wait() keeps what the
 * completed wait @rec saw of its events' ages; rp_age_swaps(), once the
 * sets are sorted, adds the swaps that put after a wait the SET_EVENTs
 * numbered before it that reached the kernel after it looked at their
 * event (its age says so).
 */
void rp_age_note_wait(struct rp_model *m, const struct kt_record *rec);
void rp_age_swaps(struct rp_model *m);
uint64_t rp_model_sets_before(const struct rp_model *m, uint32_t id,
			      uint64_t from, uint64_t to, uint64_t ts);
/* Per-record model updates (model.c, model_ioctl.c). */
void rp_model_ioctl(struct rp_model *m, const struct kt_record *rec);
/* model_varies.c: note AVAILABLE_MEMORY calls racing allocations, in
 * the model's own trace (finish) and against another process's (cross,
 * for a tree replay). */
void rp_model_varies(struct rp_model *m, const struct kt_record *rec,
		     const struct kfd_ioctl_desc *d);
void rp_model_varies_finish(struct rp_model *m);
void rp_model_varies_cross(struct rp_model *m, const struct rp_model *other);
/* Whether the AVAILABLE_MEMORY call @seq raced another thread's
 * allocation or free in the capture. */
int rp_model_avail_varies(const struct rp_model *m, uint64_t seq);

/*
 * rp_ioctl_ids() - the ids a call names, by schema role: @fn gets each
 * memory handle, queue id (its low 30 bits) and event id with RP_ID_MAKE
 * when the call creates it (an output: ALLOC, IMPORT_DMABUF,
 * IPC_IMPORT_HANDLE, CREATE_QUEUE, CREATE_EVENT), RP_ID_END when it ends
 * it (FREE_MEMORY_OF_GPU, DESTROY_QUEUE, DESTROY_EVENT), RP_ID_USE for
 * other inputs (the events-page handle of CREATE_EVENT too). @kind is an
 * enum rp_dep_kind.
 */
enum { RP_ID_MAKE, RP_ID_USE, RP_ID_END };
typedef void (*rp_id_fn)(void *ctx, unsigned int kind, uint64_t value, int how);
void rp_ioctl_ids(const struct kt_record *rec, const struct kfd_ioctl_desc *d,
		  rp_id_fn fn, void *ctx);
int32_t rp_model_fd(struct rp_model *m, int32_t fd);
/*
 * rp_model_submit_proc() - the KFD process (model index) of the file of
 * the submit record numbered @seq, or -1 when the record names no open
 * file of the trace (a format 1.0-1.2 record, or an fd it does not know).
 */
int32_t rp_model_submit_proc(const struct rp_model *m, uint64_t seq);
int32_t rp_model_proc_new(struct rp_model *m, int32_t fd, uint64_t seq,
			  int secondary);
void rp_model_note_gpu(struct rp_model *m, uint32_t gpu_id);
void rp_model_add_range(struct rp_model *m, uint64_t start, uint64_t len,
			unsigned int why);
void rp_model_print(const struct rp_model *m, FILE *out);
/* rp_trace_whole() - whether the trace ends with a clean END record, so
 * that every record the capture made was read: only then can a replay's
 * verdict speak for the capture. */
bool rp_trace_whole(const struct rp_model *m);
/* rp_print_lack() - what a trace that is not whole lacks, to follow "the
 * trace ": "has no END record (...)" or "is damaged (what the reader
 * found)". */
void rp_print_lack(FILE *out, const struct rp_model *m);
/*
 * rp_wait_stand_in_ids() - the events (at most @max, into @ids) that stand-in
 * SET_EVENTs raise for the completed wait @rec when no CPU call of the
 * capture released it; 0 when a CPU call did, when the wait passed event
 * ages (rp_age_stand_in() stands in by them), or nothing applies
 * (model_waits.c).
 */
int rp_wait_stand_in_ids(const struct rp_model *m, const struct rp_rows *r,
			 const struct kt_record *rec, uint32_t *ids, int max);

/* ------------------------------------------------------------------ */
/* GPU matching                                                         */

struct rp_gpu_pair {
	uint32_t captured;
	uint32_t live;
	int cap_node;
	int live_node;
	int used;		/* the trace uses this GPU */
};

struct rp_match {
	struct kt_topo live;
	int have_live;
	unsigned int npairs;
	struct rp_gpu_pair pairs[RP_MAX_GPUS];
	int identity;		/* every pair maps a gpu_id to itself */
	/* Live GPUs no captured GPU maps to. */
	unsigned int nextra;
	uint32_t extra[RP_MAX_GPUS];
	uint32_t live_abi_major, live_abi_minor;
};

#endif /* RP_MODEL_H */
