/* SPDX-License-Identifier: MIT */
/*
 * Internals of the replayer (replay/): the object model built from a
 * trace, the topology view, the value maps, the address-space plan and the
 * run state. Nothing here is installed.
 */
#ifndef RP_PRIV_H
#define RP_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <kfdtrace/replay.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/topology.h>
#include <kfdtrace/trace.h>

#define RP_PAGE			4096ull
#define RP_PAGE_ALIGN_DOWN(x)	((x) & ~(RP_PAGE - 1))
#define RP_PAGE_ALIGN_UP(x)	(((x) + RP_PAGE - 1) & ~(RP_PAGE - 1))

/* Bounds that keep a hostile trace from exhausting memory. */
#define RP_MAX_OBJS		(1u << 22)	/* per object kind */
#define RP_MAX_FD		(1 << 20)	/* captured fd numbers */
#define RP_MAX_GPUS		64
#define RP_BUF_CAP		(64u << 20)	/* one rebuilt indirect buffer */
#define RP_MAX_RESERVATIONS	8192		/* pre-reserved CPU ranges */
#define RP_USER_MIN		0x10000ull	/* lowest mappable address */
#define RP_USER_MAX		0x7ffffffff000ull /* 47-bit user space */
/*
 * Records held to restore sequence order. A thread's buffer reaches the
 * file when it fills (64 KiB of records) or after 100 ms, so a quiet
 * thread's records can come after those of busy ones written in the
 * meantime: hundreds of thousands at capture rates. The byte bound is the
 * one that matters; the count only caps the heap of pointers.
 */
#define RP_REORDER_WINDOW	(1u << 21)
#define RP_MAX_PENDING_WAITS	256	/* completed waits held (wait.c) */
#define RP_REORDER_BYTES	((size_t)256 << 20)	/* and their bytes */
#define RP_MAX_SWAP_HELD	64	/* creations held for an id's end */
#define RP_MAX_PENDING_MEM	1024	/* memory records before a submit */

/* ------------------------------------------------------------------ */
/* Small containers                                                     */

/* A growable array of fixed-size elements, bounded by RP_MAX_OBJS. */
struct rp_vec {
	void *data;
	size_t n;
	size_t cap;
	size_t esz;
};

void rp_vec_init(struct rp_vec *v, size_t esz);
void rp_vec_free(struct rp_vec *v);
/* A new zeroed element at the end, or NULL (bound reached, no memory). */
void *rp_vec_push(struct rp_vec *v);
#define RP_AT(v, type, i) (&((type *)(v)->data)[i])

/*
 * A hash map from (kind, scope, key) to a 64-bit value. Kinds say what a
 * key is (a handle, a queue id, ...); scopes separate KFD processes and
 * DRM files, whose ids are independent.
 */
struct rp_map_slot {
	uint64_t key;
	uint32_t ks;		/* kind << 24 | scope */
	uint32_t state;		/* 0 empty, 1 used */
	uint64_t val;
};

struct rp_map {
	struct rp_map_slot *s;
	size_t cap;		/* power of two */
	size_t used;		/* == n (no tombstones) */
	size_t n;		/* used slots */
};

enum rp_kind {
	RP_K_HANDLE = 1,
	RP_K_QUEUE,
	RP_K_EVENT,
	RP_K_SLOT,
	RP_K_GEM,
	RP_K_OFFSET,		/* render-node (GEM) mmap offsets */
	RP_K_BO,		/* model: (proc, handle) -> bo index */
	RP_K_MQUEUE,		/* model: (proc, queue id) -> queue index */
	RP_K_MEVENT,		/* model: (proc, event id) -> event index */
	RP_K_MOFF,		/* model: GEM offset -> bo index */
	RP_K_MDMABUF,		/* model: fd -> dmabuf index */
	RP_K_MGEM,		/* model: (ofd, gem handle) -> gem index */
};

void rp_map_free(struct rp_map *m);
int rp_map_put(struct rp_map *m, unsigned int kind, unsigned int scope,
	       uint64_t key, uint64_t val);
int rp_map_get(const struct rp_map *m, unsigned int kind, unsigned int scope,
	       uint64_t key, uint64_t *val);
int rp_map_del(struct rp_map *m, unsigned int kind, unsigned int scope,
	       uint64_t key);

/* ------------------------------------------------------------------ */
/* Records in replay order                                              */

/*
 * Records come from the reader in per-thread file order; the replay wants
 * sequence order (the order calls completed), with the model's swaps
 * (struct rp_swap) put right.
 */
/* A record waiting in the stream's heap, with its key beside it. */
struct rp_hent {
	uint64_t key;
	struct kt_record *rec;
};

struct rp_stream {
	struct kt_reader *reader;
	struct kt_record rec;		/* the reader's current record */
	struct rp_hent *heap;		/* early records, by seq */
	size_t nheap, capheap;
	size_t heap_bytes;		/* their size (rp_rec_bytes()) */
	uint64_t early;			/* released early for the byte bound */
	uint64_t early_seq;		/* the first of them */
	struct kt_record *owned;	/* returned last; freed on next call */
	uint64_t next;			/* the seq expected next */
	int eof;
	int error;			/* the reader's negative error, or 0 */
	/* Swaps: creations held until the end of the previous life. */
	const struct rp_swap *swaps;
	size_t nswaps;
	/*
	 * Creations held until the end they wait for (@after), with the
	 * records of their thread that came after them (copies, in order).
	 */
	struct rp_swap_hold {
		uint64_t after;
		uint32_t tid;
		struct kt_record **recs;	/* [0]: the creation */
		size_t n, cap;
	} holds[RP_MAX_SWAP_HELD];
	size_t nholds;
	struct kt_record **outq;	/* looked at before reading on (owned) */
	size_t outhead, outn, outcap;
	uint64_t released[RP_MAX_SWAP_HELD];	/* creations let go */
	size_t nreleased;
	struct kt_record *swap_owned;	/* returned last; freed next call */
};

/*
 * @first: the lowest seq of the trace (0 for a capture, which numbers
 * from 0; the model's first_seq once it is known). The first record in
 * the file need not be it: another thread's buffer may have come first.
 */
int rp_stream_open(struct rp_stream *s, const char *path, uint64_t first);
/* Return: 1 with *rec set (valid until the next call), 0 at the end, <0. */
int rp_stream_next(struct rp_stream *s, const struct kt_record **rec);
/* Reuses to put right (the model's swaps, sorted by c; kept, not copied). */
void rp_stream_swaps(struct rp_stream *s, const struct rp_swap *v, size_t n);
/*
 * rp_stream_held_exit() - the earliest capture exit time among the records
 * a swap holds back (UINT64_MAX: none): they are still to come, so a tree
 * replay's published frontier must not pass them.
 */
uint64_t rp_stream_held_exit(const struct rp_stream *s);
void rp_stream_close(struct rp_stream *s);

/* ------------------------------------------------------------------ */
/* Schema rows the replayer treats specially                            */

/*
 * What the replay does with one schema row (plan.c), worked out once:
 * argument fields (indexes into args->fields) whose input is translated,
 * those whose output is compared or learned, and the inputs that name
 * GPUs (gpu_id or handle roles). Each list has room for every field.
 */
struct rp_req_plan {
	uint8_t never;		/* never replayed: effects beyond the replay */
	uint8_t has_bufs;	/* some indirect buffer is rebuilt */
	uint8_t out_plain;	/* every compared output is compared as is:
				 * equal argument bytes are a match */
	unsigned int nin, nout, ngpu;
	unsigned int *in;
	unsigned int *out;
	unsigned int *gpu;	/* inputs naming GPUs (the model's) */
};

struct rp_rows {
	const struct kfd_ioctl_desc *get_version, *acquire_vm, *alloc,
		*free_mem, *map_mem, *unmap_mem, *import_dmabuf,
		*export_dmabuf, *get_dmabuf_info, *create_queue,
		*destroy_queue, *create_event, *destroy_event, *wait_events,
		*svm, *create_process, *smi_events, *apertures,
		*apertures_new, *gem_create, *gem_close, *gem_mmap,
		*prime_h2f, *prime_f2h, *amdgpu_info, *gem_metadata,
		*runtime_enable, *ipc_import, *ipc_export, *set_event;
	/* Fields by row. */
	const struct kfd_field *ver_minor;
	const struct kfd_field *acq_fd, *acq_gpu;
	const struct kfd_field *alloc_va, *alloc_size, *alloc_handle,
		*alloc_off, *alloc_gpu, *alloc_flags;
	const struct kfd_field *free_handle;
	const struct kfd_field *map_handle, *unmap_handle;
	const struct kfd_field *imp_va, *imp_handle, *imp_gpu, *imp_fd;
	const struct kfd_field *exp_handle, *exp_fd;
	const struct kfd_field *info_size, *info_gpu, *info_flags, *info_fd,
		*info_msize;
	const struct kfd_field *cq_ring, *cq_wptr, *cq_rptr, *cq_doorbell,
		*cq_ring_size, *cq_gpu, *cq_type, *cq_qid, *cq_eop,
		*cq_eop_size, *cq_ctx, *cq_ctx_size;
	const struct kfd_field *dq_qid;
	const struct kfd_field *ce_page, *ce_trigger, *ce_type, *ce_auto,
		*ce_id, *ce_slot;
	const struct kfd_field *de_id, *se_id;
	const struct kfd_field *we_timeout, *we_result, *we_num, *we_all;
	const struct kfd_field *svm_start, *svm_size, *svm_op, *svm_nattr;
	const struct kfd_field *smi_fd;
	const struct kfd_field *apn_num;
	const struct kfd_field *gc_size, *gc_domains, *gc_handle;
	const struct kfd_field *gclose_handle;
	const struct kfd_field *gmmap_handle, *gmmap_off;
	const struct kfd_field *h2f_handle, *h2f_fd, *f2h_handle, *f2h_fd;
	const struct kfd_field *info_query;
	const struct kfd_field *ap_num;
	const struct kfd_field *ipci_share, *ipce_share;
	/* SVM's trailing attributes: the buffer and one element's fields. */
	const struct kfd_indirect *svm_attrs;
	const struct kfd_field *svm_attr_type, *svm_attr_value;
	/* Plans by row, in kfd_schema_rows() order; NULL: out of memory. */
	const struct kfd_ioctl_desc *row0;
	unsigned int nrows;
	struct rp_req_plan *plans;
};

/*
 * The table, resolved once (thread-safe). Every row and field pointer in
 * it is set when plans is; plans is NULL when a name did not resolve
 * (rp_rows_error() says which) or memory ran out.
 */
const struct rp_rows *rp_rows(void);
/* Why rp_rows()->plans is NULL ("schema row SVM has no field nattr"), or NULL. */
const char *rp_rows_error(void);
/*
 * rows.c: bind every row and field of @r by name through @lookup
 * (kfd_schema_by_name(); tests pass one that hides rows). Return: 0, or
 * -1 with the first name that did not resolve described in @missing.
 */
int rp_rows_bind(struct rp_rows *r,
		 const struct kfd_ioctl_desc *(*lookup)(const char *name),
		 char *missing, size_t len);
/* plan.c: fill r->plans (and row0, nrows) for rows_init(). Return: 0, -1. */
int rp_plans_build(struct rp_rows *r);

/*
 * The plan of @d, a row of the schema table (as kfd_schema_lookup() gives
 * them). The replay refuses to start without plans (kfd_replay_open(),
 * kfd_replay_run()), so every user has them.
 */
static inline const struct rp_req_plan *
rp_req_plan(const struct rp_rows *r, const struct kfd_ioctl_desc *d)
{
	return &r->plans[d - r->row0];
}

/* A field's value in argument bytes (0 when it lies outside them). */
static inline uint64_t
rp_fget(const struct kfd_field *f, const void *bytes, size_t len)
{
	uint64_t v = 0;

	if (kfd_field_load(f, bytes, len, &v) < 0)
		return 0;
	return v;
}

/* Whether a field lies inside @len bytes. */
static inline int
rp_fhas(const struct kfd_field *f, size_t len)
{
	return f && (size_t)f->offset + f->width <= len;
}

/* ------------------------------------------------------------------ */
/* Topology                                                             */

/*
 * Captured and live topologies are kfdtrace/topology.h's struct kt_topo,
 * parsed by kt_topo_parse().
 */
/* Read the live topology under @root through libc. Return: 0 or -errno. */
int rp_topo_read_live(struct kt_topo *t, const char *root);

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
	uint32_t id;
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
	/* gpu_ids the ioctls use (GPU_ID-role fields and handles). */
	unsigned int nused;
	uint32_t used[RP_MAX_GPUS];
	uint64_t overflow;		/* objects dropped at the bounds */
	struct rp_vec ofds, fds, procs, bos, queues, events, svms, mmaps,
		dmabufs, gems, ranges;
	struct rp_vec sets;		/* struct rp_m_set, by entry time */
	uint64_t events_page_handle;	/* from CREATE_EVENT, 0: none */
	int32_t events_page_bo;
	/* Model lookups: current fd number -> fds index, etc. */
	struct rp_map idx;
	int32_t *fd_now;		/* captured fd -> fds index, or -1 */
	int fd_now_len;
	/* Order checks (order.c). */
	struct rp_vec lives, uses, edges;
	struct rp_map order_idx;
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
 * finish ends the pass; cycle (after a pass with violations) reads the
 * trace again for a dependency cycle (1 found, 0 none, <0 error);
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
int rp_order_cycle(struct rp_model *m, const char *path);
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
int32_t rp_model_proc_new(struct rp_model *m, int32_t fd, uint64_t seq,
			  int secondary);
void rp_model_note_gpu(struct rp_model *m, uint32_t gpu_id);
void rp_model_add_range(struct rp_model *m, uint64_t start, uint64_t len,
			unsigned int why);
void rp_model_print(const struct rp_model *m, FILE *out);

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

struct kfd_replay {
	char *path;
	struct rp_model model;
	struct rp_match match;
	int matched;
	/* A process of a tree replay (tree.c), in its replay process. */
	struct rp_tree *tree;
	int tree_self;			/* its node */
	const struct rp_run *inherit;	/* forked: its parent's replay */
};

/* ------------------------------------------------------------------ */
/* The run                                                              */

/* A live fd standing for a captured one. */
struct rp_fdent {
	int live;		/* -1: none */
	uint8_t kind;		/* enum kfd_file_kind, 0 for others */
	int32_t ofd;		/* index into run.ofds, -1 */
	uint8_t from_ioctl;	/* created by an ioctl (dma-buf, SMI) */
};

/* Live side of an open file description. */
struct rp_ofd {
	uint8_t kind;
	int32_t proc;		/* scope of KFD ids */
	int32_t minor;
	uint32_t refs;
};

struct rp_run {
	/* The earliest exit among the records the stream holds back, set
	 * before each rp_tree_gate() (UINT64_MAX: none). */
	uint64_t held_exit;
	struct kfd_replay *r;
	const struct kfd_replay_opts *o;
	FILE *out;
	const struct rp_rows *rows;
	struct rp_map fwd;	/* captured -> live */
	struct rp_map rev;	/* live -> captured */
	struct rp_fdent *fds;
	int nfds;
	struct rp_vec ofds;	/* struct rp_ofd */
	struct rp_vec shares;	/* struct rp_share */
	int nproc;
	int32_t cap_pid, live_pid;
	struct rp_as as;
	/* Scratch for argument bytes and rebuilt buffers. */
	uint8_t *arena;
	size_t arena_cap;
	struct kfd_recorder *recorder;
	struct rp_synth *synth;		/* stand-in dma-bufs (dmabuf.c) */
	/* Filters. */
	uint64_t only_rec, skip_rec;	/* bit per record type */
	uint8_t *only_row, *skip_row;	/* per schema row */
	int only_ioctl, skip_ioctl;
	int have_only;
	unsigned int nrows;
	const struct kfd_ioctl_desc *row0;
	/* Progress. */
	struct kfd_replay_summary sum;
	uint64_t t0_ns;			/* replay start (monotonic) */
	uint64_t ts0;			/* first replayed record's ts */
	uint64_t sleeps_capped;		/* --timing=original gaps cut short */
	int stop;
	int quiet;			/* compare without reporting */
	int diverged_now;		/* the current record diverged */
	uint64_t notes;			/* notes printed (bounded) */
	int have_live;			/* the current record was reissued: */
	int64_t live_ret;		/* its live result */
	int live_err;
	uint64_t cur_seq;
	const char *cur_name;
	/* Completed waits not released yet (wait.c), oldest first. */
	struct kt_record *waits[RP_MAX_PENDING_WAITS];
	size_t nwaits;
	int in_retry;			/* issuing pending waits again */
	int wait_final;			/* ... the last time: may block */
	int wait_still;			/* the one issued is still pending */
	int fork_noted;
	/* --threads (threads.c): NULL in the serial replay. */
	struct rp_mt *mt;
	/* Memory records for the next submit record (resubmit.c). */
	struct kt_record *pending_mem[RP_MAX_PENDING_MEM];
	size_t npending_mem;
};

/* One ioctl being replayed. */
struct rp_lbuf {
	uint16_t index;		/* into the row's bufs[] */
	uint8_t *p;		/* the live buffer */
	size_t len;
};

struct rp_call {
	const struct kt_record *rec;
	const struct kt_ioctl_rec *io;
	const struct kfd_ioctl_desc *d;
	const struct rp_req_plan *plan;
	uint8_t *args;		/* live argument bytes (>= desc size) */
	uint32_t size;		/* _IOC_SIZE(request) */
	uint32_t clen;		/* bytes of the captured images to read:
				 * min(size, the record's arg_size) */
	int scope;		/* KFD process of the fd */
	int gem_scope;		/* DRM file of the fd */
	int ret;
	int err;
	int wait_try;		/* a completed wait, issued with timeout 0 */
	unsigned int nlb;
	struct rp_lbuf lb[KT_MAX_BUFS];
};

/*
 * run.c: one record of the pass. rp_run_admit() says whether @rec is
 * replayed (it notes forks and execs, counts what the filters leave out);
 * rp_run_record() replays it and counts it. rp_time_due() is how long
 * --timing=original sleeps before @rec (ns), rp_sleep_ns() sleeps.
 */
int rp_actionable(unsigned int type);
/* Add one pass's or process's counters to a total (first divergence kept). */
void rp_sum_add(struct kfd_replay_summary *t,
		const struct kfd_replay_summary *s);
const char *rp_rec_name(const struct kt_record *rec);
int rp_run_admit(struct rp_run *st, const struct kt_record *rec);
void rp_run_record(struct rp_run *st, const struct kt_record *rec);
uint64_t rp_time_due(struct rp_run *st, const struct kt_record *rec);
void rp_sleep_ns(uint64_t ns);

/*
 * threads.c: --threads. rp_threads_run() replays the pass from @s with
 * each captured thread on a thread of its own; the caller's thread reads
 * the stream and hands every record to its thread's queue. Every access
 * to @st happens under one lock, which a worker lets go only while its
 * ioctl is in the kernel: rp_mt_leave() before (@may_block: the call
 * may wait for another thread), rp_mt_enter() after (no-ops in the
 * serial replay). rp_mt_dep_note() adds, to a divergence
 * report, the record of another thread it waited for.
 * Return: as rp_stream_next() at the end of the stream (0, or negative).
 */
int rp_threads_run(struct rp_run *st, struct rp_stream *s);
void rp_mt_leave(struct rp_run *st, bool may_block);
void rp_mt_enter(struct rp_run *st);
void rp_mt_dep_note(struct rp_run *st);

/*
 * tree.c, in the replay process of one trace of a tree: rp_tree_fork()
 * forks the replay of the forked child @child_pid where the trace has its
 * FORK record (-ENOENT: not in the tree); rp_tree_begin() gives a forked
 * child's replay its parent's fd table; rp_tree_gate() waits before @rec
 * until the other processes are past what returned before it entered;
 * rp_tree_share_learn()/_xlate() share IPC tokens between processes
 * (_xlate: 1 when it found @handle).
 */
int rp_tree_fork(struct rp_run *st, int32_t child_pid);
int rp_tree_begin(struct rp_run *st);
void rp_tree_gate(struct rp_run *st, const struct kt_record *rec);
/* rp_tree_blocked() - whether rp_tree_gate() would wait now. */
int rp_tree_blocked(struct rp_run *st, const struct kt_record *rec);
/*
 * rp_tree_publish() - tell the other processes that every record of this
 * one that returns before @exit_ts is done (rp_tree_gate() does it for
 * the serial replay; --threads, whose records are done on its workers,
 * from rp_mt_frontier()).
 */
void rp_tree_publish(struct rp_run *st, uint64_t exit_ts);
/*
 * rp_mt_frontier() - with --threads, the exit time of the earliest record
 * handed to a worker and not done yet, or @next (the record the reader
 * has in hand) if that is earlier.
 */
uint64_t rp_mt_frontier(struct rp_run *st, uint64_t next);

/* The capture time a record returned at (entered, for a non-ioctl). */
static inline uint64_t
rp_rec_exit(const struct kt_record *rec)
{
	return rec->type == KT_REC_IOCTL && rec->u.ioctl.t_exit >= rec->ts ?
	       rec->u.ioctl.t_exit : rec->ts;
}
void rp_tree_share_learn(struct rp_run *st, const uint8_t *cap,
			 const uint8_t *live);
int rp_tree_share_xlate(struct rp_run *st, uint8_t *handle);

/* run_ioctl.c */
void rp_run_ioctl(struct rp_run *st, const struct kt_record *rec);
/*
 * verify.c: the record is a use sequence order does not satisfy (order.c):
 * it is not issued (its id would name another object, or none), and that
 * is a divergence naming the record it depends on.
 */
void rp_diverge_order(struct rp_run *st, const struct rp_m_dep *d);

/*
 * wait.c: completed waits in the serial replay. rp_wait_completed() says
 * whether @io is a wait that completed in the capture (the replay issues
 * it with timeout 0); rp_wait_hold() keeps a copy of one whose live events
 * are not signalled yet (0, or -ENOMEM/-ENOSPC: compare it now);
 * rp_wait_before()/rp_wait_after() run around every replayed ioctl @d
 * (held waits go again after a SET_EVENT, a last time before the
 * DESTROY_EVENT of one of their events); rp_wait_flush() ends a pass.
 */
int rp_wait_completed(const struct rp_rows *r, const struct kfd_ioctl_desc *d,
		      const struct kt_ioctl_rec *io);
/*
 * rp_wait_ids() - the event ids the WAIT_EVENTS @rec names, as captured
 * (up to @max into @ids). Return: how many it names (maybe more than
 * @max), or -1 when the record does not tell.
 */
int rp_wait_ids(const struct rp_rows *r, const struct kt_record *rec,
		uint32_t *ids, size_t max);
/*
 * rp_set_event_id() - whether @rec is a SET_EVENT; its captured event id
 * in @id.
 */
int rp_set_event_id(const struct rp_rows *r, const struct kt_record *rec,
		    uint32_t *id);
/*
 * rp_wait_stand_in_ids() - the events (at most @max, into @ids) that stand-in
 * SET_EVENTs raise for the completed wait @rec when no CPU call of the
 * capture released it; 0 when a CPU call did, or nothing applies.
 */
int rp_wait_stand_in_ids(const struct rp_model *m, const struct rp_rows *r,
			 const struct kt_record *rec, uint32_t *ids, int max);
/*
 * rp_wait_stand_in() - raise in the GPU's stead the interrupts that
 * released the completed wait @rec: SET_EVENT of each of its events (a
 * wait for all) or of its first (a wait for any), counted in gpu_sets.
 */
void rp_wait_stand_in(struct rp_run *st, const struct kt_record *rec);
/*
 * rp_mark_own() - in a recording of the replay, say what the call just
 * made is (@fmt: one of the KFD_REPLAY_*_NOTE annotations, with the
 * captured record's number for TRY and DONE).
 */
void rp_mark_own(struct rp_run *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int rp_wait_hold(struct rp_run *st, const struct kt_record *rec);
void rp_wait_before(struct rp_run *st, const struct kt_record *rec,
		    const struct kfd_ioctl_desc *d);
void rp_wait_after(struct rp_run *st, const struct kt_record *rec,
		   const struct kfd_ioctl_desc *d);
void rp_wait_flush(struct rp_run *st);
/*
 * resubmit.c: publish a submit record's packets on the replayed queue;
 * hold a memory record for the submit record after it.
 */
void rp_resubmit(struct rp_run *st, const struct kt_record *rec);
void rp_resubmit_memory(struct rp_run *st, const struct kt_record *rec);
/* Drop memory records no submit record followed (the end of a run). */
void rp_resubmit_clear(struct rp_run *st);
/* verify.c: compare a replayed call with its record; learn new ids. */
void rp_verify_call(struct rp_run *st, struct rp_call *c);
/* verify.c: after a successful destroy, forget the ids it ended. */
void rp_forget_call(struct rp_run *st, struct rp_call *c);
/*
 * verify.c: what --verify=strict does with an output field, from its row
 * and role alone (plan.c lists the fields by it).
 */
enum rp_out_class {
	RP_OUT_IGNORE,		/* never compared (padding, clocks, ...) */
	RP_OUT_EXACT,		/* compared as is */
	RP_OUT_MAPPED,		/* learned, or translated before comparing */
};

enum rp_out_class rp_out_class(const struct rp_rows *r,
			       const struct kfd_field *f);
/*
 * rp_out_vclass() - what the comparison does with the output value @cap of
 * field @f: ignore it, compare it as is, learn it (a kernel-chosen id),
 * translate it and compare, or bind the fd it is. @role is set to the
 * role the value has on output (some fields change meaning).
 */
enum rp_vclass { RP_V_EXACT, RP_V_IGNORE, RP_V_LEARN, RP_V_XLATE, RP_V_FD };
enum rp_vclass rp_out_vclass(const struct rp_rows *r, const struct kfd_field *f,
			     uint64_t cap, unsigned int *role);
/* verify_special.c: apertures (Return: 1 when the call was one), AMDGPU_INFO
 * queries that vary by themselves, SVM attributes. */
int rp_check_special(struct rp_run *st, struct rp_call *c);
int rp_info_variable(const struct rp_run *st, const struct rp_call *c);
/* Whether AMDGPU_INFO argument bytes ask for a value that varies by itself. */
int rp_info_query_varies(const struct rp_rows *r, const uint8_t *args,
			 size_t len);
void rp_check_svm_attrs(struct rp_run *st, struct rp_call *c);
/* run_sys.c */
void rp_run_sys(struct rp_run *st, const struct kt_record *rec);
/* The image of indirect buffer @index of @io, or NULL. */
const struct kt_buf_image *rp_find_image(const struct kt_ioctl_rec *io,
					 unsigned int index);
/*
 * Whether @path is a device file the replay opens for @kind: /dev/kfd, a
 * render node (no "..").
 */
int rp_device_path(const char *path, uint8_t kind);
int rp_fd_live(struct rp_run *st, int32_t fd);
void rp_fd_bind(struct rp_run *st, int32_t fd, int live, uint8_t kind,
		int32_t ofd, int from_ioctl);
void rp_fd_unbind(struct rp_run *st, int32_t fd);
struct rp_fdent *rp_fd_get(struct rp_run *st, int32_t fd);

/* xlate.c: value translation, captured -> live. */
uint32_t rp_gpu_xlate(const struct rp_run *st, uint32_t gpu_id);
uint64_t rp_handle_xlate(const struct rp_run *st, int scope, uint64_t h);
uint64_t rp_kfd_offset_xlate(const struct rp_run *st, uint64_t off);
uint64_t rp_offset_xlate(const struct rp_run *st, uint64_t off);
uint64_t rp_value_xlate(struct rp_run *st, const struct kfd_field *f,
			int scope, int gem_scope, uint64_t v);
/* Whether an input of @role names something rp_value_xlate() maps. */
int rp_role_translated(unsigned int role);
int rp_role_learnable(unsigned int role);

/* verify.c */
void rp_diverge(struct rp_run *st, const char *field, uint64_t captured,
		uint64_t expected, int has_expected, uint64_t live,
		const char *fmt, ...) __attribute__((format(printf, 7, 8)));
void rp_note(struct rp_run *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * share.c: ROCm IPC share handles are random bytes the kernel picks at
 * export; an import in the same session must name the live ones.
 */
struct rp_share {
	uint8_t cap[16], live[16];
};

/* Bind the share handle @cap (16 bytes) exported at capture to @live. */
void rp_share_learn(struct rp_run *st, const uint8_t *cap,
		    const uint8_t *live);
/* Rewrite a captured share handle in place; unknown ones stay as they are. */
void rp_share_xlate(struct rp_run *st, uint8_t *handle);

/* report.c */
void rp_print_summary(const struct rp_run *st, FILE *out);

/* rp_trace_whole() - whether every record the capture wrote was read (OK,
 * or NO_END): only then can a replay's verdict speak for the capture. */
bool rp_trace_whole(const struct rp_model *m);

/*
 * dmabuf.c: a stand-in for a dma-buf the captured process got from
 * outside, made on the live render node and bound to @cap_fd.
 * Return: the live fd, or -1 (unknown origin, no libdrm_amdgpu, failure).
 */
struct rp_synth;
int rp_dmabuf_synth(struct rp_run *st, int32_t cap_fd);
void rp_dmabuf_release(struct rp_run *st);

#endif /* RP_PRIV_H */
