/*
 * The runtime of a program that `kfdtrace emit-c` wrote. It needs only
 * libc: it reissues a capture's calls on /dev/kfd and the render nodes,
 * translating what the kernel chose (handles, queue and event ids, GEM
 * handles, offsets, fds) from earlier results, the way `kfdtrace replay`
 * does, and checks every result against the capture. The first difference
 * is printed (record number, call, field) and the program exits 1.
 *
 * Captured CPU ranges the kernel keeps or the program mapped devices at
 * are reserved at their captured addresses before the first call; a range
 * that is taken is reserved elsewhere and its addresses are translated.
 * GPUs pair by the order of the KFD topology's GPU nodes.
 *
 * Calls of several captured threads run on threads of their own, one at a
 * time, in the order the capture completed them (rr_turn()/rr_done()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/*
 * emit-c defines above this text, from the schema, the KFD ABI and the
 * replayer (emit.c, write_facts()): the kinds of translated values, each
 * with its own numbers (RR_HANDLE, RR_QUEUE, RR_EVENT, RR_SLOT, RR_GEM,
 * RR_OFFSET: the replayer's map kinds) and RR_REV, a bit above them;
 * RR_QUEUE_STATUS, the status bits a queue id may carry;
 * RR_HANDLE_GPU_SHIFT, where a memory handle keeps its gpu_id; and
 * RR_OFF_GPU_SHIFT, RR_OFF_GPU_MASK, where a /dev/kfd mmap offset keeps a
 * gpu_id's low bits.
 */
#if !defined(RR_HANDLE) || !defined(RR_QUEUE) || !defined(RR_EVENT) || \
	!defined(RR_SLOT) || !defined(RR_GEM) || !defined(RR_OFFSET) || \
	!defined(RR_REV) || !defined(RR_QUEUE_STATUS) || \
	!defined(RR_HANDLE_GPU_SHIFT) || !defined(RR_OFF_GPU_SHIFT) || \
	!defined(RR_OFF_GPU_MASK)
#error "emit-c writes the schema's facts before the runtime"
#endif
#define RR_FN static __attribute__((unused))
#define RR_TOPOLOGY "/sys/devices/virtual/kfd/kfd/topology/nodes"
#define RR_MAX_GPUS 64

/* A captured CPU range and where it lives here. */
struct rr_range {
	uint64_t start, end;
	uint64_t live;
};

/* The call being checked, for messages (one runs at a time). */
static __thread uint64_t rr_seq;
static __thread const char *rr_call = "start";
static unsigned long rr_calls;

/* ------------------------------------------------------------------ */
/* Reporting                                                            */

RR_FN void
rr_fail(const char *field, uint64_t captured, uint64_t expected, uint64_t got)
{
	if (captured == expected)
		printf("repro: #%" PRIu64 " %s: %s: captured 0x%" PRIx64
		       ", got 0x%" PRIx64 "\n", rr_seq, rr_call, field,
		       captured, got);
	else
		printf("repro: #%" PRIu64 " %s: %s: captured 0x%" PRIx64
		       " (0x%" PRIx64 " here), got 0x%" PRIx64 "\n", rr_seq,
		       rr_call, field, captured, expected, got);
	fflush(stdout);
	exit(1);
}

RR_FN void
rr_die(const char *what)
{
	printf("repro: #%" PRIu64 " %s: %s\n", rr_seq, rr_call, what);
	fflush(stdout);
	exit(1);
}

/* ------------------------------------------------------------------ */
/* Captured -> live values                                              */

struct rr_slot {
	uint64_t key;
	uint64_t val;
	uint32_t ks;		/* kind << 24 | scope */
	uint32_t state;		/* 0 empty, 1 used, 2 deleted */
};

static struct rr_slot *rr_map;
static size_t rr_map_cap, rr_map_fill;

static size_t
rr_hash(uint32_t ks, uint64_t key)
{
	uint64_t h = (key ^ ((uint64_t)ks << 40)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 29));
}

static struct rr_slot *
rr_find(uint32_t ks, uint64_t key)
{
	size_t i;

	if (!rr_map_cap)
		return NULL;
	for (i = rr_hash(ks, key) & (rr_map_cap - 1);; i = (i + 1) & (rr_map_cap - 1)) {
		struct rr_slot *s = &rr_map[i];

		if (!s->state)
			return NULL;
		if (s->state == 1 && s->ks == ks && s->key == key)
			return s;
	}
}

static void
rr_insert(uint32_t ks, uint64_t key, uint64_t val)
{
	size_t i;

	for (i = rr_hash(ks, key) & (rr_map_cap - 1); rr_map[i].state == 1;
	     i = (i + 1) & (rr_map_cap - 1))
		;
	if (!rr_map[i].state)
		rr_map_fill++;
	rr_map[i].ks = ks;
	rr_map[i].key = key;
	rr_map[i].val = val;
	rr_map[i].state = 1;
}

RR_FN void
rr_put(int kind, int scope, uint64_t key, uint64_t val)
{
	uint32_t ks = (uint32_t)kind << 24 | (uint32_t)scope;
	struct rr_slot *s = rr_find(ks, key);

	if (s) {
		s->val = val;
		return;
	}
	if (2 * (rr_map_fill + 1) > rr_map_cap) {
		/* Grow, dropping deleted slots. */
		struct rr_slot *old = rr_map;
		size_t n = rr_map_cap, i;

		rr_map_cap = n ? 2 * n : 256;
		rr_map = calloc(rr_map_cap, sizeof(*rr_map));
		if (!rr_map)
			rr_die("out of memory");
		rr_map_fill = 0;
		for (i = 0; i < n; i++)
			if (old[i].state == 1)
				rr_insert(old[i].ks, old[i].key, old[i].val);
		free(old);
	}
	rr_insert(ks, key, val);
}

/* A strict kind's reverse bindings (live -> captured) are kind | RR_REV. */

RR_FN void
rr_forget(int kind, int scope, uint64_t key)
{
	struct rr_slot *s = rr_find((uint32_t)kind << 24 | (uint32_t)scope, key);

	if (!s)
		return;
	s->state = 2;
	s = rr_find((uint32_t)(kind | RR_REV) << 24 | (uint32_t)scope, s->val);
	if (s)
		s->state = 2;
}

/* A kernel-chosen value: the live one learned for it, or itself. */
RR_FN uint64_t
rr_id(int kind, int scope, uint64_t cap)
{
	struct rr_slot *s = rr_find((uint32_t)kind << 24 | (uint32_t)scope, cap);

	return s ? s->val : cap;
}

/* A binding that contradicts an earlier one. */
static void
rr_fail_bound(const char *field, uint64_t cap, uint64_t live, const char *why,
	      uint64_t other)
{
	printf("repro: #%" PRIu64 " %s: %s: captured 0x%" PRIx64 ", got 0x%"
	       PRIx64 ": %s 0x%" PRIx64 "\n", rr_seq, rr_call, field, cap,
	       live, why, other);
	fflush(stdout);
	exit(1);
}

/*
 * An output the kernel chose: bind it when both calls succeeded. Zero is
 * "none" for every kind but queue ids and event slots. A @strict kind has
 * every end in the trace (replay's rule): its binding stands until
 * rr_forget(), and a captured value bound to another live one, or a live
 * value that stands for another captured one, is a difference. The other
 * kinds are bound again.
 */
RR_FN void
rr_learn(const char *field, int kind, int scope, uint64_t cap, uint64_t live,
	 int strict)
{
	struct rr_slot *s;

	if (kind == RR_QUEUE) {
		/* Debugger replies carry status bits on queue ids. */
		if ((cap & RR_QUEUE_STATUS) != (live & RR_QUEUE_STATUS))
			rr_fail(field, cap, cap, live);
		cap &= ~(uint64_t)RR_QUEUE_STATUS;
		live &= ~(uint64_t)RR_QUEUE_STATUS;
	} else if ((!cap || !live) && kind != RR_SLOT) {
		if (cap != live)
			rr_fail(field, cap, cap, live);
		return;
	}
	if (strict) {
		s = rr_find((uint32_t)kind << 24 | (uint32_t)scope, cap);
		if (s && s->val != live)
			rr_fail_bound(field, cap, live, "the captured value is "
				      "already bound to", s->val);
		s = rr_find((uint32_t)(kind | RR_REV) << 24 | (uint32_t)scope,
			    live);
		if (s && s->val != cap)
			rr_fail_bound(field, cap, live, "the live value already "
				      "stands for captured", s->val);
		rr_put(kind | RR_REV, scope, live, cap);
	}
	rr_put(kind, scope, cap, live);
}

/* GPUs: captured in topology order, paired with the live ones. */
static uint32_t rr_gpu_cap[RR_MAX_GPUS], rr_gpu_live[RR_MAX_GPUS];
static int rr_minor_cap[RR_MAX_GPUS], rr_minor_live[RR_MAX_GPUS];
static unsigned int rr_ngpus;

RR_FN uint32_t
rr_gpu(uint32_t cap)
{
	unsigned int i;

	for (i = 0; cap && i < rr_ngpus; i++)
		if (rr_gpu_cap[i] == cap)
			return rr_gpu_live[i];
	return cap;
}

/* A memory handle: learned, or its gpu_id half translated. */
RR_FN uint64_t
rr_handle(int scope, uint64_t cap)
{
	struct rr_slot *s;

	if (!cap)
		return 0;
	s = rr_find((uint32_t)RR_HANDLE << 24 | (uint32_t)scope, cap);
	if (s)
		return s->val;
	return (uint64_t)rr_gpu((uint32_t)(cap >> RR_HANDLE_GPU_SHIFT))
		<< RR_HANDLE_GPU_SHIFT |
	       (cap & ((1ull << RR_HANDLE_GPU_SHIFT) - 1));
}

/*
 * /dev/kfd mmap offsets carry a gpu_id's low bits at RR_OFF_GPU_SHIFT;
 * GEM offsets of the render nodes have nothing up there and are learned.
 */
RR_FN uint64_t
rr_kfd_offset(uint64_t cap)
{
	const uint64_t low = RR_OFF_GPU_MASK >> RR_OFF_GPU_SHIFT;
	uint64_t bits = (cap & RR_OFF_GPU_MASK) >> RR_OFF_GPU_SHIFT;
	unsigned int i;

	for (i = 0; bits && i < rr_ngpus; i++)
		if ((rr_gpu_cap[i] & low) == bits)
			return (cap & ~RR_OFF_GPU_MASK) |
			       (rr_gpu_live[i] & low) << RR_OFF_GPU_SHIFT;
	return cap;
}

RR_FN uint64_t
rr_offset(uint64_t cap)
{
	if (!cap)
		return 0;
	if (cap >> RR_OFF_GPU_SHIFT)
		return rr_kfd_offset(cap);
	return rr_id(RR_OFFSET, 0, cap);
}

/* ------------------------------------------------------------------ */
/* Files                                                                */

static int *rr_fds;		/* captured fd -> live fd + 1 */
static int rr_nfds;

RR_FN int
rr_fd(int cap)
{
	if (cap >= 0 && cap < rr_nfds && rr_fds[cap])
		return rr_fds[cap] - 1;
	return -1;
}

/* A captured fd number as an input field (negative ones stay). */
RR_FN uint32_t
rr_fd_in(uint32_t cap)
{
	int live = rr_fd((int)cap);

	return (int32_t)cap < 0 || live < 0 ? cap : (uint32_t)live;
}

RR_FN void
rr_fd_bind(int cap, int live)
{
	if (cap < 0)
		return;
	if (cap >= rr_nfds) {
		int n = rr_nfds ? rr_nfds : 64, *p;

		while (n <= cap)
			n *= 2;
		p = realloc(rr_fds, (size_t)n * sizeof(*p));
		if (!p)
			rr_die("out of memory");
		memset(p + rr_nfds, 0, (size_t)(n - rr_nfds) * sizeof(*p));
		rr_fds = p;
		rr_nfds = n;
	}
	rr_fds[cap] = live + 1;
}

/* A fd an ioctl returned stands for the captured number from now on. */
RR_FN void
rr_learn_fd(const char *field, uint32_t cap, uint32_t live)
{
	if (((int32_t)cap < 0) != ((int32_t)live < 0))
		rr_fail(field, cap, cap, live);
	if ((int32_t)cap >= 0)
		rr_fd_bind((int)cap, (int)live);
}

/* The result of a call against the captured one. */
static int
rr_result(long cap_ret, int cap_err, long ret, int err)
{
	char what[160];

	if (cap_ret == ret && (ret >= 0 || cap_err == err))
		return ret >= 0;
	if (cap_ret < 0 && ret < 0)
		snprintf(what, sizeof(what), "result: captured errno %d (%s), "
			 "got %d (%s)", cap_err, strerror(cap_err), err,
			 strerror(err));
	else if (cap_ret < 0)
		snprintf(what, sizeof(what), "result: captured errno %d (%s), "
			 "got %ld", cap_err, strerror(cap_err), ret);
	else if (ret < 0)
		snprintf(what, sizeof(what), "result: captured %ld, got errno "
			 "%d (%s)", cap_ret, err, strerror(err));
	else
		snprintf(what, sizeof(what), "result: captured %ld, got %ld",
			 cap_ret, ret);
	rr_die(what);
	return 0;
}

static const char *rr_render_path(const char *cap, char *buf, size_t len);

RR_FN void
rr_open(uint64_t seq, int cap_fd, const char *path, int flags, int cap_err)
{
	char live[256];
	int fd, err;

	rr_seq = seq;
	rr_call = "open";
	rr_calls++;
	fd = open(rr_render_path(path, live, sizeof(live)), flags);
	err = fd < 0 ? errno : 0;
	if (rr_result(cap_fd < 0 ? -1 : 0, cap_err, fd < 0 ? -1 : 0, err))
		rr_fd_bind(cap_fd, fd);
}

RR_FN void
rr_close(uint64_t seq, int cap_fd, int cap_ret, int cap_err)
{
	int live = rr_fd(cap_fd), ret, err;

	rr_seq = seq;
	rr_call = "close";
	rr_calls++;
	ret = close(live);
	err = ret < 0 ? errno : 0;
	rr_result(cap_ret, cap_err, ret, err);
	if (cap_fd >= 0 && cap_fd < rr_nfds)
		rr_fds[cap_fd] = 0;
}

RR_FN void
rr_dup(uint64_t seq, int cap_old, int cap_new, int cloexec, int cap_err)
{
	int live = rr_fd(cap_old), fd, err;

	rr_seq = seq;
	rr_call = "dup";
	rr_calls++;
	/* Any free number does: the table maps it. */
	fd = fcntl(live, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 3);
	err = fd < 0 ? errno : 0;
	if (!rr_result(cap_new < 0 ? -1 : 0, cap_err, fd < 0 ? -1 : 0, err))
		return;
	if (cap_new == cap_old) {
		/* dup2(fd, fd) changes nothing. */
		close(fd);
		return;
	}
	/* dup2/dup3 closed what the number stood for. */
	if (rr_fd(cap_new) >= 0)
		close(rr_fd(cap_new));
	rr_fd_bind(cap_new, fd);
}

/* One ioctl: 1 when it and the captured call both succeeded. */
RR_FN int
rr_ioctl(uint64_t seq, const char *name, int cap_fd, unsigned long request,
	 void *arg, long cap_ret, int cap_err)
{
	int live = rr_fd(cap_fd), ret, err;

	rr_seq = seq;
	rr_call = name;
	rr_calls++;
	do {
		ret = ioctl(live, request, arg);
		err = ret < 0 ? errno : 0;
	} while (ret < 0 && (err == EINTR || err == EAGAIN) && err != cap_err);
	return rr_result(cap_ret, cap_err, ret, err);
}

RR_FN void
rr_expect(const char *field, uint64_t cap, uint64_t expected, uint64_t got)
{
	if (expected != got)
		rr_fail(field, cap, expected, got);
}

/* An output compared as is. */
RR_FN void
rr_eq(const char *field, uint64_t cap, uint64_t got)
{
	if (cap != got)
		rr_fail(field, cap, cap, got);
}

RR_FN void
rr_expect_mem(const char *field, const void *cap, const void *got, size_t n)
{
	const unsigned char *a = cap, *b = got;
	size_t i;
	char what[160];

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	if (i == n)
		return;
	snprintf(what, sizeof(what), "%s: bytes differ at +%zu (captured "
		 "0x%02x, got 0x%02x)", field, i, a[i], b[i]);
	rr_die(what);
}

/* ------------------------------------------------------------------ */
/* The CPU address space                                                */

static struct rr_range *rr_ranges;
static size_t rr_nranges;
static void *rr_guard_page;

#define RR_RES_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

/* The first captured range that ends after @a (rr_nranges: none). */
static size_t
rr_range_after(uint64_t a)
{
	size_t lo = 0, hi = rr_nranges;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (rr_ranges[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct rr_range *
rr_range_of(uint64_t a)
{
	size_t i = rr_range_after(a);

	return i < rr_nranges && rr_ranges[i].start <= a ? &rr_ranges[i] : NULL;
}

/* A captured CPU address as a live one. */
RR_FN uint64_t
rr_cpu(uint64_t cap)
{
	struct rr_range *r = rr_range_of(cap);

	return r ? cap - r->start + r->live : cap;
}

/* A PROT_NONE page: a pointer the capture could not read. */
RR_FN uintptr_t
rr_guard(void)
{
	return (uintptr_t)rr_guard_page;
}

static void
rr_reserve(struct rr_range *r)
{
	uint64_t len = r->end - r->start;
	void *p = mmap((void *)(uintptr_t)r->start, len, PROT_NONE,
		       RR_RES_FLAGS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED || (uint64_t)(uintptr_t)p != r->start) {
		if (p != MAP_FAILED)
			munmap(p, len);
		/* Taken here: anywhere will do, addresses are translated. */
		p = mmap(NULL, len, PROT_NONE, RR_RES_FLAGS, -1, 0);
		if (p == MAP_FAILED)
			rr_die("cannot reserve a captured CPU range");
	}
	r->live = (uint64_t)(uintptr_t)p;
}

/* User memory the captured process had there (userptr, SVM). */
RR_FN void
rr_back(uint64_t cap, uint64_t len)
{
	uint64_t a = rr_cpu(cap) & ~4095ull;
	uint64_t e = (rr_cpu(cap) + len + 4095) & ~4095ull;

	if (!rr_range_of(cap))
		return;
	if (mmap((void *)(uintptr_t)a, e - a, PROT_READ | PROT_WRITE,
		 RR_RES_FLAGS | MAP_FIXED, -1, 0) == MAP_FAILED)
		rr_die("cannot back a captured user range");
}

RR_FN void
rr_mmap(uint64_t seq, uint64_t cap_addr, uint64_t len, int prot, int flags,
	int cap_fd, uint64_t offset, int cap_ok, int cap_err)
{
	uint64_t a = rr_cpu(cap_addr);
	void *p;
	int err;

	rr_seq = seq;
	rr_call = "mmap";
	rr_calls++;
	/* Inside a reservation the memory is ours to replace. */
	if (rr_range_of(cap_addr))
		flags = (flags & ~MAP_FIXED_NOREPLACE) | MAP_FIXED;
	p = mmap((void *)(uintptr_t)a, len, prot, flags, rr_fd(cap_fd),
		 (off_t)offset);
	err = p == MAP_FAILED ? errno : 0;
	rr_result(cap_ok ? 0 : -1, cap_err, p == MAP_FAILED ? -1 : 0, err);
}

/*
 * Only the parts of the captured ranges are the program's to unmap: a
 * wider munmap (a runtime's VA reservation the capture did not see
 * mapped) would take this process's own memory there, a thread's heap or
 * stack. Each part gets its reservation back, so nothing else lands there.
 */
RR_FN void
rr_munmap(uint64_t seq, uint64_t cap_addr, uint64_t len, int cap_ret,
	  int cap_err)
{
	uint64_t e = cap_addr + len;
	size_t i;
	int ret = 0, err = 0;

	rr_seq = seq;
	rr_call = "munmap";
	rr_calls++;
	if ((cap_addr & 4095) || !len || e < cap_addr) {
		/* Invalid arguments: the kernel says so, touching nothing. */
		ret = munmap((void *)(uintptr_t)cap_addr, len);
		err = ret < 0 ? errno : 0;
		rr_result(cap_ret, cap_err, ret, err);
		return;
	}
	for (i = rr_range_after(cap_addr); i < rr_nranges &&
	     rr_ranges[i].start < e; i++) {
		const struct rr_range *r = &rr_ranges[i];
		uint64_t s = cap_addr > r->start ? cap_addr : r->start;
		uint64_t t = e < r->end ? e : r->end;
		void *a = (void *)(uintptr_t)(r->live + (s - r->start));

		if (munmap(a, t - s) < 0) {
			if (!ret)
				err = errno;
			ret = -1;
			continue;
		}
		mmap(a, t - s, PROT_NONE, RR_RES_FLAGS | MAP_FIXED_NOREPLACE, -1, 0);
	}
	rr_result(cap_ret, cap_err, ret, err);
}

/* ------------------------------------------------------------------ */
/* Start                                                                */

static int
rr_read_u64(const char *path, const char *key, uint64_t *v)
{
	char buf[8192], *p;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (!key) {
		*v = strtoull(buf, NULL, 10);
		return 0;
	}
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t kl = strlen(key);

		if (!strncmp(p, key, kl) && p[kl] == ' ') {
			*v = strtoull(p + kl + 1, NULL, 10);
			return 0;
		}
	}
	return -1;
}

/*
 * Pair the captured GPUs with the live ones, reserve the captured CPU
 * ranges (sorted, not overlapping).
 */
RR_FN void
rr_init(const uint32_t *gpus, const int *minors, unsigned int ngpus,
	struct rr_range *ranges, size_t nranges)
{
	unsigned int node, nlive = 0, i;
	char path[128];
	size_t k;

	for (node = 0; node < 256 && nlive < RR_MAX_GPUS; node++) {
		uint64_t id, minor;

		snprintf(path, sizeof(path), RR_TOPOLOGY "/%u/gpu_id", node);
		if (rr_read_u64(path, NULL, &id) < 0)
			break;
		if (!id)
			continue;
		snprintf(path, sizeof(path), RR_TOPOLOGY "/%u/properties", node);
		if (rr_read_u64(path, "drm_render_minor", &minor) < 0)
			minor = 0;
		rr_gpu_live[nlive] = (uint32_t)id;
		rr_minor_live[nlive] = (int)minor;
		nlive++;
	}
	if (nlive < ngpus)
		printf("repro: the capture had %u GPUs, this machine has %u: "
		       "the others keep their captured ids\n", ngpus, nlive);
	for (i = 0; i < ngpus && i < RR_MAX_GPUS; i++) {
		rr_gpu_cap[i] = gpus[i];
		rr_minor_cap[i] = minors[i];
		if (i >= nlive) {
			rr_gpu_live[i] = gpus[i];
			rr_minor_live[i] = minors[i];
		}
	}
	rr_ngpus = ngpus < RR_MAX_GPUS ? ngpus : RR_MAX_GPUS;
	rr_ranges = ranges;
	rr_nranges = nranges;
	for (k = 0; k < nranges; k++)
		rr_reserve(&ranges[k]);
	rr_guard_page = mmap(NULL, 4096, PROT_NONE, RR_RES_FLAGS, -1, 0);
}

/* The render node standing for a captured one ("/dev/dri/renderD128"). */
static const char *
rr_render_path(const char *cap, char *buf, size_t len)
{
	const char *p = strstr(cap, "renderD");
	unsigned int i;
	long minor;

	snprintf(buf, len, "%s", cap);
	if (!p)
		return buf;
	minor = strtol(p + 7, NULL, 10);
	for (i = 0; i < rr_ngpus; i++)
		if (rr_minor_cap[i] == minor) {
			snprintf(buf, len, "%.*srenderD%d", (int)(p - cap), cap,
				 rr_minor_live[i]);
			break;
		}
	return buf;
}

/* ------------------------------------------------------------------ */
/* Threads                                                              */

static pthread_mutex_t rr_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rr_cond = PTHREAD_COND_INITIALIZER;
static unsigned long rr_next;

/* Wait for call @k's turn. */
RR_FN void
rr_turn(unsigned long k)
{
	pthread_mutex_lock(&rr_lock);
	while (rr_next != k)
		pthread_cond_wait(&rr_cond, &rr_lock);
	pthread_mutex_unlock(&rr_lock);
}

/* The current call is done: the next one's turn. */
RR_FN void
rr_done(void)
{
	pthread_mutex_lock(&rr_lock);
	rr_next++;
	pthread_cond_broadcast(&rr_cond);
	pthread_mutex_unlock(&rr_lock);
}

RR_FN void
rr_start(pthread_t *t, void *(*fn)(void *))
{
	if (pthread_create(t, NULL, fn, NULL))
		rr_die("cannot start a thread");
}

RR_FN int
rr_finish(void)
{
	printf("repro: %lu calls, every result as captured\n", rr_calls);
	return 0;
}
