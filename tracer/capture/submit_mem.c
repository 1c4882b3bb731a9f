/* SPDX-License-Identifier: MIT */
/*
 * --submissions=full (KFDTRACE_SUBMISSIONS=full): besides the packets,
 * the memory they reference, as memory records just before their submit
 * record (docs/submissions.md):
 *
 *   code objects	the buffer holding a dispatch's kernel descriptor,
 *			or the code a PM4 DISPATCH_DIRECT runs (the last
 *			COMPUTE_PGM_LO/HI a SET_SH_REG wrote), once per
 *			buffer (the buffers come from ALLOC and
 *			FREE_MEMORY_OF_GPU, which this file follows)
 *   kernel arguments	kernarg_size bytes (from the kernel descriptor;
 *			256 when it cannot be read or says 0)
 *   signals		each amd_signal_t a packet completes or waits on
 *   copy sources	what an SDMA COPY_LINEAR reads, and the pattern
 *			a fill blit kernel of HIP's reads (named from the
 *			code objects recorded, kfd_blit_args())
 *   indirect buffers	what a PM4 INDIRECT_BUFFER enters (in a PM4 queue
 *			or an AQL PM4_IB packet), and the IBs those enter
 *			(chained or nested)
 *
 * within a total the user sets (KFDTRACE_SUBMISSIONS_LIMIT, bytes;
 * default 256 MiB). Past it, a record says what was left out (OMITTED,
 * no bytes). Memory is read with a guarded copy (kcap_read_mem()): a
 * buffer the CPU cannot read (VRAM without a CPU mapping) is UNREADABLE.
 *
 * Each blob is named by its SHA-256 and stored once: a record of bytes
 * the trace already holds carries the hash alone (REF), which readers
 * resolve. A launch repeated with the same arguments costs its kernel
 * arguments once. When the run is a directory (KFDTRACE_OUTPUT "DIR/"),
 * the blobs go to the run's blob store instead (kfdtrace/blob.h) and
 * every record of them carries the hash alone (STORE): a blob that one
 * process of the run stored, the others refer to. New bytes of at most
 * KT_MEM_DELTA_MAX at an address recorded before (a signal, whose value
 * and timestamps change each time) are recorded as the words that
 * changed (DELTA). Only stored bytes count against the limit.
 */
#include "capture.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <kfdtrace/blob.h>
#include <kfdtrace/common/u64map.h>
#include <kfdtrace/decode.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>

#define MEM_DEFAULT_LIMIT	(256ull << 20)
#define MEM_KERNARG_MAX		(64u << 10)
#define MEM_KERNARG_GUESS	256u
#define MEM_SIGNAL_SIZE		64u
/* The kernel descriptor's kernarg_size. */
#define KD_KERNARG_SIZE		8u

struct mem_bo {
	uint64_t va, size, handle;
	uint64_t cpu;		/* a userptr's CPU address (0: none) */
	int code_done;		/* recorded as a code object */
};

static struct {
	pthread_mutex_t lock;
	struct mem_bo *bo;
	size_t n, cap;
	uint64_t limit, used;
	struct kc_u64map stored;	/* hash's first 8 bytes -> the hash */
	int stored_init;
	/* The bytes of the last record at each address, as the reader
	 * keeps them (a DELTA's base). */
	struct kc_u64map bases;		/* addr -> struct mem_base */
	int bases_init;
	/* COMPUTE_PGM_LO/HI as PM4 SET_SH_REG last wrote them (of any
	 * queue: the queues of one program share their code buffers). */
	uint32_t pgm[2];
	/* The kernels of the code objects recorded (NULL: none yet). */
	struct kfd_kernels *kernels;
} M = { .lock = PTHREAD_MUTEX_INITIALIZER };

struct mem_base {
	uint32_t len;
	uint8_t data[KT_MEM_DELTA_MAX];
};

int kcap_submit_full;

/* The CPU address of the userptr this thread is allocating (0: none). */
static __thread uint64_t mem_userptr;

void
kcap_submit_mem_init(void)
{
	const char *v = getenv("KFDTRACE_SUBMISSIONS");
	const char *lim = getenv("KFDTRACE_SUBMISSIONS_LIMIT");

	kcap_submit_full = v && !strcmp(v, "full");
	M.limit = lim && *lim ? strtoull(lim, NULL, 0) : MEM_DEFAULT_LIMIT;
}

void
kcap_submit_mem_before(unsigned int nr, const void *arg)
{
	const struct kfd_abi_alloc_memory_of_gpu_args *a = arg;

	mem_userptr = 0;
	if (kcap_submit_full && a && nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU) &&
	    (a->flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR))
		mem_userptr = a->mmap_offset;
}

void
kcap_submit_mem_ioctl(unsigned int nr, void *arg, int ret)
{
	size_t i;

	if (!kcap_submit_full || ret != 0 || !arg)
		return;
	pthread_mutex_lock(&M.lock);
	if (nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU)) {
		const struct kfd_abi_alloc_memory_of_gpu_args *a = arg;

		if (M.n == M.cap) {
			size_t cap = M.cap ? 2 * M.cap : 256;
			struct mem_bo *v = realloc(M.bo, cap * sizeof(*v));

			if (!v)
				goto out;
			M.bo = v;
			M.cap = cap;
		}
		M.bo[M.n].va = a->va_addr;
		M.bo[M.n].size = a->size;
		M.bo[M.n].handle = a->handle;
		M.bo[M.n].cpu = a->flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR ? mem_userptr : 0;
		M.bo[M.n].code_done = 0;
		M.n++;
	} else if (nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_FREE_MEMORY_OF_GPU)) {
		const struct kfd_abi_free_memory_of_gpu_args *a = arg;

		for (i = 0; i < M.n; i++)
			if (M.bo[i].handle == a->handle) {
				M.bo[i] = M.bo[--M.n];
				break;
			}
	}
out:
	pthread_mutex_unlock(&M.lock);
}

void
kcap_submit_mem_child(void)
{
	pthread_mutex_init(&M.lock, NULL);
	free(M.bo);
	M.bo = NULL;
	M.n = M.cap = 0;
	M.used = 0;
	/* A new trace: it holds no blob yet (the run's store may). */
	if (M.stored_init)
		kc_u64map_free(&M.stored);
	M.stored_init = 0;
	if (M.bases_init)
		kc_u64map_free(&M.bases);
	M.bases_init = 0;
}

/* A blob this process stored, and where. */
struct mem_stored {
	uint8_t hash[KT_MEM_HASH_LEN];
	uint8_t flag;		/* KT_MEM_REF: in the trace; KT_MEM_STORE */
};

/*
 * Where the bytes of @hash are, when this process stored them: the flag
 * of a record that refers to them (KT_MEM_REF or KT_MEM_STORE), else 0.
 */
static uint8_t
stored_before(const uint8_t *hash)
{
	struct mem_stored *had;
	uint64_t key;

	if (!M.stored_init) {
		kc_u64map_init(&M.stored, sizeof(struct mem_stored));
		M.stored_init = 1;
	}
	memcpy(&key, hash, sizeof(key));
	had = kc_u64map_get(&M.stored, 0, key);
	return had && !memcmp(had->hash, hash, KT_MEM_HASH_LEN) ? had->flag : 0;
}

/* Note that @hash is stored (@flag as above); a 64-bit clash keeps the
 * first, so that the second is stored again (never a wrong reference). */
static void
stored_now(const uint8_t *hash, uint8_t flag)
{
	struct mem_stored v;
	uint64_t key;

	memcpy(&key, hash, sizeof(key));
	memcpy(v.hash, hash, KT_MEM_HASH_LEN);
	v.flag = flag;
	if (!kc_u64map_get(&M.stored, 0, key))
		kc_u64map_put(&M.stored, 0, key, &v);
}

/*
 * The base of the next DELTA of this thread at @addr: the bytes of this
 * record, when it has at most KT_MEM_DELTA_MAX, else none (as the reader
 * does). Per thread: only a thread's own records keep their order in the
 * file (docs/trace-format.md 4.1).
 */
static void
set_base(uint64_t addr, const uint8_t *data, uint32_t len)
{
	uint32_t tid = (uint32_t)kfd_dispatch_tid();
	struct mem_base b;

	if (!M.bases_init) {
		kc_u64map_init(&M.bases, sizeof(struct mem_base));
		M.bases_init = 1;
	}
	if (!len || len > KT_MEM_DELTA_MAX) {
		kc_u64map_del(&M.bases, tid, addr, NULL);
		return;
	}
	b.len = len;
	memcpy(b.data, data, len);
	if (kc_u64map_put(&M.bases, tid, addr, &b) < 0)
		kc_u64map_del(&M.bases, tid, addr, NULL);
}

/*
 * New bytes at an address this thread recorded before, with the same
 * length: the
 * words that changed, when that is shorter than the bytes. Return: the
 * delta's length in @out, or 0.
 */
static size_t
try_delta(uint64_t addr, const uint8_t *buf, uint32_t len, uint8_t *out)
{
	const struct mem_base *b;
	size_t n;

	if (!M.bases_init || len > KT_MEM_DELTA_MAX)
		return 0;
	b = kc_u64map_get(&M.bases, (uint32_t)kfd_dispatch_tid(), addr);
	if (!b || b->len != len)
		return 0;
	n = kt_mem_delta_encode(b->data, buf, len, out);
	return n < len ? n : 0;
}

/*
 * New bytes: into the run's store when there is one (STORE), else into
 * the trace. Return: whether they are stored (else the limit was hit).
 */
static int
store(struct kt_memory_rec *m, uint8_t *buf, uint32_t len)
{
	const char *dir = kcap_session_blob_store();
	int put;

	if (dir) {
		/* Another process of the run may have stored it: free. The
		 * store's files are no device's: our wrappers stand aside. */
		kcap_busy++;
		if (M.used + len > M.limit)
			put = kt_blob_has(dir, m->hash) ? 0 : -ENOSPC;
		else
			put = kt_blob_put(dir, m->hash, buf, len);
		kcap_busy--;
		if (put >= 0) {
			m->flags |= KT_MEM_STORE;
			M.used += put ? len : 0;
			return 1;
		}
		/* The store failed (full, read-only): the trace holds it. */
	}
	if (M.used + len > M.limit)
		return 0;
	m->len = len;
	m->data = buf;
	M.used += len;
	return 1;
}

/*
 * One memory record of @len bytes at GPU address @addr, within the limit,
 * read at the CPU address @from.
 */
static void
record_from(uint8_t kind, uint64_t addr, uint64_t from, uint64_t len)
{
	uint8_t delta[KT_MEM_DELTA_ENC_MAX];
	struct kt_record rec;
	struct kt_memory_rec *m = &rec.u.memory;
	uint8_t *buf = NULL, where;
	size_t dlen;

	if (!addr || !len)
		return;
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_MEMORY;
	m->addr = addr;
	m->kind = kind;
	m->full_len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	if (len > KT_MAX_SUBMIT) {
		len = KT_MAX_SUBMIT;
		m->flags |= KT_MEM_CUT;
	}
	if (!(buf = malloc(len)) || kcap_read_mem(buf, from, len) < 0) {
		m->flags |= KT_MEM_UNREADABLE;
		set_base(addr, NULL, 0);
		goto out;
	}
	kt_blob_hash(buf, len, m->hash);
	m->hash_len = KT_MEM_HASH_LEN;
	if ((where = stored_before(m->hash))) {
		m->flags |= where;
	} else if ((dlen = try_delta(addr, buf, (uint32_t)len, delta))) {
		/* The result is not a blob of its own: no hash. */
		m->flags |= KT_MEM_DELTA;
		m->hash_len = 0;
		m->delta = delta;
		m->delta_len = (uint32_t)dlen;
	} else if (store(m, buf, (uint32_t)len)) {
		stored_now(m->hash, m->flags & KT_MEM_STORE ? KT_MEM_STORE :
							     KT_MEM_REF);
	} else {
		m->flags |= KT_MEM_OMITTED;
		m->hash_len = 0;
		set_base(addr, NULL, 0);
		goto out;
	}
	set_base(addr, buf, (uint32_t)len);
out:
	kcap_session_append(&rec, 0);
	free(buf);
}

static void
record(uint8_t kind, uint64_t addr, uint64_t len)
{
	record_from(kind, addr, addr, len);
}

static struct mem_bo *
bo_of(uint64_t va)
{
	size_t i;

	for (i = 0; i < M.n; i++)
		if (va >= M.bo[i].va && va - M.bo[i].va < M.bo[i].size)
			return &M.bo[i];
	return NULL;
}

/* Where the CPU reads GPU address @va: a userptr's pages are at its own. */
static uint64_t
cpu_of(uint64_t va)
{
	const struct mem_bo *bo = bo_of(va);

	return bo && bo->cpu ? bo->cpu + (va - bo->va) : va;
}

/* The IBs one submission may lead to (chains and nesting), as the
 * engine bounds them. */
#define MEM_PM4_IBS	64u

/* The names of the kernels in code buffer @bo, as recorded. */
static void
names_of(const struct mem_bo *bo)
{
	uint64_t len = bo->size < KT_MAX_SUBMIT ? bo->size : KT_MAX_SUBMIT;
	uint8_t *buf;

	if (!M.kernels && !(M.kernels = kfd_kernels_new()))
		return;
	if (!(buf = malloc(len)))
		return;
	/* Out of memory: its dispatches stay unnamed. */
	if (kcap_read_mem(buf, bo->va, len) == 0)
		(void)kfd_kernels_add(M.kernels, bo->va, buf, len);
	free(buf);
}

/* The code buffer of a record once (an AQL descriptor's, PM4's code). */
static void
code_of(uint64_t va)
{
	struct mem_bo *bo = bo_of(va);

	if (bo && !bo->code_done) {
		record(KT_MEM_CODE, bo->va, bo->size);
		names_of(bo);
		bo->code_done = 1;
	}
}

/*
 * A fill blit kernel reads its pattern from memory its packet does not
 * name (ROCclr's constant buffer): the pattern is recorded as a copy
 * source, so that the replay fills with it.
 */
static void
blit_inputs(const struct kfd_aql_dispatch *d, uint32_t kernarg)
{
	const char *name = M.kernels ? kfd_kernels_name(M.kernels, d->kernel_object) : NULL;
	uint8_t ka[128];
	struct kfd_blit b;
	uint32_t n = kernarg < sizeof(ka) ? kernarg : sizeof(ka);

	if (!name || kcap_read_mem(ka, d->kernarg_address, n) < 0 ||
	    kfd_blit_args(name, ka, n, &b) < 0)
		return;
	if (b.kind == KFD_BLIT_FILL && b.pattern_len <= sizeof(ka))
		record_from(KT_MEM_COPY_SOURCE, b.pattern, cpu_of(b.pattern), b.pattern_len);
}

/*
 * PM4 compute state: SET_SH_REG of COMPUTE_PGM_LO/HI is kept; at a
 * DISPATCH_DIRECT the buffer holding that code is recorded.
 */
static void
pm4_state(const struct kfd_packet_desc *r, const uint8_t *p, size_t size)
{
	uint32_t reg, n, v;

	if (r->match == KFD_PM4_OP_DISPATCH_DIRECT) {
		code_of(((uint64_t)(M.pgm[1] & 0xffu) << 32 | M.pgm[0]) << 8);
		return;
	}
	if (r->match != KFD_PM4_OP_SET_SH_REG || size < 12)
		return;
	memcpy(&reg, p + 4, 4);
	reg &= 0xffffu;
	n = (uint32_t)(size / 4 - 2);
	for (unsigned int k = 0; k < 2; k++)
		if (KFD_PM4_SH_PGM_LO + k >= reg && KFD_PM4_SH_PGM_LO + k < reg + n) {
			memcpy(&v, p + 8 + 4 * (KFD_PM4_SH_PGM_LO + k - reg), 4);
			M.pgm[k] = v;
		}
}

/*
 * PM4: the indirect buffers the packets enter, each recorded whole, and
 * the ones those enter in turn (at most MEM_PM4_IBS in all); the code
 * their dispatches run.
 */
static void
pm4(const uint8_t *data, size_t len, unsigned int *ibs, unsigned int depth)
{
	size_t off, size;

	for (off = 0; off + 4 <= len && *ibs < MEM_PM4_IBS; off += size) {
		const struct kfd_packet_desc *r =
			kfd_pm4_packet(data + off, len - off, &size);
		struct kfd_pm4_indirect_buffer ib;
		uint64_t va, n;
		uint8_t *buf;

		if (r && size <= len - off)
			pm4_state(r, data + off, size);
		if (!r || r->match != KFD_PM4_OP_INDIRECT_BUFFER ||
		    off + sizeof(ib) > len)
			continue;
		memcpy(&ib, data + off, sizeof(ib));
		va = ib.ib_base & 0xfffffffffffcull;
		n = (uint64_t)KFD_PM4_IB_SIZE(ib.control) * 4;
		if (!(ib.control & KFD_PM4_IB_VALID) || !n)
			continue;
		(*ibs)++;
		record(KT_MEM_INDIRECT, va, n);
		if (depth >= 4 || n > KT_MAX_SUBMIT || !(buf = malloc(n)))
			continue;
		if (kcap_read_mem(buf, va, n) == 0)
			pm4(buf, n, ibs, depth + 1);
		free(buf);
	}
}

static void
aql(const uint8_t *p)
{
	const struct kfd_packet_desc *r = kfd_aql_packet(p);
	uint64_t sig;

	if (!r)
		return;
	if (r->match == KFD_AQL_TYPE_KERNEL_DISPATCH) {
		struct kfd_aql_dispatch d;
		uint32_t kernarg = 0;

		memcpy(&d, p, sizeof(d));
		code_of(d.kernel_object);
		/* The descriptor says how many; an unreadable (or, on an
		 * engine that ran no copy into it, empty) one: 256. */
		if (!d.kernel_object ||
		    kcap_read_mem(&kernarg, d.kernel_object + KD_KERNARG_SIZE, 4) < 0 ||
		    !kernarg)
			kernarg = MEM_KERNARG_GUESS;
		record(KT_MEM_KERNARG, d.kernarg_address,
		       kernarg < MEM_KERNARG_MAX ? kernarg : MEM_KERNARG_MAX);
		blit_inputs(&d, kernarg);
		record(KT_MEM_SIGNAL, d.completion_signal, MEM_SIGNAL_SIZE);
	} else if (r->match == KFD_AQL_TYPE_BARRIER_AND ||
		   r->match == KFD_AQL_TYPE_BARRIER_OR) {
		struct kfd_aql_barrier b;
		unsigned int i;

		memcpy(&b, p, sizeof(b));
		for (i = 0; i < 5; i++)
			record(KT_MEM_SIGNAL, b.dep_signal[i], MEM_SIGNAL_SIZE);
		record(KT_MEM_SIGNAL, b.completion_signal, MEM_SIGNAL_SIZE);
	} else {
		/* A PM4_IB's indirect buffer, which the CP runs. */
		if (r->match == KFD_AQL_TYPE_VENDOR && r->sub == KFD_AQL_VENDOR_PM4_IB) {
			unsigned int ibs = 0;

			pm4(p + 4, 16, &ibs, 0);
		}
		memcpy(&sig, p + 56, sizeof(sig));	/* completion_signal */
		record(KT_MEM_SIGNAL, sig, MEM_SIGNAL_SIZE);
	}
}

static void
sdma(const uint8_t *p, size_t len, size_t size)
{
	const struct kfd_packet_desc *r;

	r = kfd_sdma_packet(p, len, &size);
	if (!r || size > len)
		return;
	if (r->match == KFD_SDMA_OP_COPY && r->sub == KFD_SDMA_SUBOP_COPY_LINEAR) {
		struct kfd_sdma_copy_linear c;

		memcpy(&c, p, sizeof(c));
		record(KT_MEM_COPY_SOURCE, c.src,
		       (uint64_t)(c.count & KFD_SDMA_COPY_COUNT_MASK) + 1);
	} else if (r->match == KFD_SDMA_OP_ATOMIC) {
		struct kfd_sdma_atomic a;

		/* A decrement of a signal's value (at +8): the signal. */
		memcpy(&a, p, sizeof(a));
		if (a.addr >= 8)
			record(KT_MEM_SIGNAL, a.addr - 8, MEM_SIGNAL_SIZE);
	}
}

void
kcap_submit_mem_packets(uint8_t engine, const uint8_t *data, uint32_t len)
{
	size_t off, size;

	if (!kcap_submit_full || !data)
		return;
	pthread_mutex_lock(&M.lock);
	if (engine == KFD_ENGINE_AQL) {
		for (off = 0; off + KFD_AQL_PACKET_SIZE <= len; off += KFD_AQL_PACKET_SIZE)
			aql(data + off);
	} else if (engine == KFD_ENGINE_SDMA) {
		for (off = 0; off + 4 <= len; off += size) {
			kfd_sdma_packet(data + off, len - off, &size);
			sdma(data + off, len - off, size);
		}
	} else if (engine == KFD_ENGINE_PM4) {
		unsigned int ibs = 0;

		pm4(data, len, &ibs, 0);
	}
	pthread_mutex_unlock(&M.lock);
}
