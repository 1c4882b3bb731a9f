/* SPDX-License-Identifier: MIT */
/*
 * Submission capture (KFDTRACE_SUBMISSIONS=1, `kfdtrace record
 * --submissions`; docs/submissions.md): the packets every doorbell
 * publishes, recorded before the engine can see them.
 *
 * Doorbell stores are plain CPU stores into a mapping of /dev/kfd, which
 * nothing traps. So the program gets a shadow: its doorbell mmap is given
 * ordinary shared memory at the address it asked for, and the real
 * doorbell page is mapped again elsewhere, for us. A forwarder thread
 * watches the shadow slots of the queues CREATE_QUEUE made; when one
 * changes, it copies the packets between the last value it forwarded and
 * the new one out of the ring, records them (KT_REC_SUBMIT), and only
 * then stores the value into the real doorbell; the program's next KFD
 * ioctl forwards its doorbells too, before the call (it may wait there
 * for what it published). The engine cannot run a packet before it is
 * recorded, and a producer cannot overwrite a slot
 * before the engine retired it, so nothing published is missed; what the
 * program pays is the forwarder's latency (its polling interval) per
 * doorbell and one thread. The same code runs on kfdsim and on a real
 * /dev/kfd: both serve the second mapping of the doorbell page.
 *
 * Off (the default), the wrappers test one flag.
 */
#include "capture.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/fork_quiet.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>

#define SUB_MAX_QUEUES	128
#define SUB_MAX_MAPS	64
#define SUB_NONE	UINT64_MAX	/* nothing forwarded yet / the sentinel */
#define SUB_SPIN_NS	50000ull	/* busy-poll this long after a doorbell */

/*
 * Queue ids and doorbell offsets are per KFD process, and one program may
 * hold several (secondary contexts, each its own /dev/kfd file): a queue
 * and a doorbell page are known by the fd they came from as well.
 */
struct sub_queue {
	int used;
	int fd;				/* the /dev/kfd file it was created on */
	uint32_t queue_id, gpu_id;
	uint8_t engine;
	uint64_t ring;
	uint32_t ring_size;
	uint64_t doorbell_offset;
	volatile uint64_t *shadow;	/* the program's slot */
	volatile uint64_t *real;	/* the device's */
	uint64_t last;			/* the last value forwarded */
};

struct sub_map {
	int used;
	int fd;				/* the /dev/kfd file mapped */
	uint64_t offset, len;
	uint8_t *shadow, *real;
};

static struct {
	pthread_mutex_t lock;
	struct sub_queue q[SUB_MAX_QUEUES];
	struct sub_map m[SUB_MAX_MAPS];
	unsigned int nqueues;		/* used entries of q */
	pthread_t thread;
	int started;
	int stop;
	uint64_t last_news;		/* ns: the last doorbell forwarded */
} S = { .lock = PTHREAD_MUTEX_INITIALIZER };

int kcap_submit_on;

void
kcap_submit_init(void)
{
	kcap_submit_on = kcap_env_flag("KFDTRACE_SUBMISSIONS", 0);
	kcap_submit_mem_init();
}

static int
is_doorbell(uint64_t off)
{
	return (off & KFD_ABI_MMAP_TYPE_MASK) == KFD_ABI_MMAP_TYPE_DOORBELL;
}

/* Point @q at its slots when its doorbell page is mapped (S.lock held). */
static void
link_queue(struct sub_queue *q)
{
	unsigned int i;

	if (q->shadow)
		return;
	for (i = 0; i < SUB_MAX_MAPS; i++) {
		struct sub_map *m = &S.m[i];
		uint64_t at;

		if (!m->used || m->fd != q->fd || q->doorbell_offset < m->offset ||
		    q->doorbell_offset + 8 > m->offset + m->len)
			continue;
		at = q->doorbell_offset - m->offset;
		q->shadow = (volatile uint64_t *)(m->shadow + at);
		q->real = (volatile uint64_t *)(m->real + at);
		/* Any first store, 0 included, is news. */
		__atomic_store_n(q->shadow, SUB_NONE, __ATOMIC_RELEASE);
		return;
	}
}

int
kcap_read_mem(void *dst, uint64_t addr, size_t len)
{
	struct iovec l = { dst, len }, r = { (void *)(uintptr_t)addr, len };

	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len ? 0 : -1;
}

/* Record what @q's doorbell value @v published (S.lock held). */
static void
record(struct sub_queue *q, uint64_t v)
{
	struct kt_record rec;
	uint64_t first, n, bytes, start;
	uint8_t *buf;
	uint8_t flags = 0;

	if (!q->ring_size || !q->ring)
		return;
	if (q->engine == KFD_ENGINE_AQL) {
		uint64_t slots = q->ring_size / KFD_AQL_PACKET_SIZE;

		first = q->last == SUB_NONE ? 0 : q->last + 1;
		if (v < first || !slots)
			return;		/* the same value again */
		n = v - first + 1;
		if (n > slots || n * KFD_AQL_PACKET_SIZE > KT_MAX_SUBMIT) {
			uint64_t keep = slots < KT_MAX_SUBMIT / KFD_AQL_PACKET_SIZE ?
					slots : KT_MAX_SUBMIT / KFD_AQL_PACKET_SIZE;

			first = v + 1 - keep;
			n = keep;
			flags |= KT_SUBMIT_CLAMPED;
		}
		bytes = n * KFD_AQL_PACKET_SIZE;
		start = (first % slots) * KFD_AQL_PACKET_SIZE;
	} else if (q->engine == KFD_ENGINE_PM4) {
		uint64_t ring_dw = q->ring_size / 4;

		/*
		 * The write pointer in dwords, which the CP takes modulo
		 * the ring (a producer may keep it monotonic or wrapped):
		 * what lies between the last one and this one, at most a
		 * ring.
		 */
		first = q->last == SUB_NONE ? 0 : q->last;
		if (v == first || !ring_dw || (ring_dw & (ring_dw - 1)))
			return;
		if (v > first && v - first > ring_dw) {
			first = v - ring_dw;
			flags |= KT_SUBMIT_CLAMPED;
		}
		n = (v - first) & (ring_dw - 1);
		if (!n)
			n = ring_dw;
		if (n * 4 > KT_MAX_SUBMIT) {
			n = KT_MAX_SUBMIT / 4;
			first = v - n;
			flags |= KT_SUBMIT_CLAMPED;
		}
		bytes = n * 4;
		start = (first & (ring_dw - 1)) * 4;
	} else {
		first = q->last == SUB_NONE ? 0 : q->last;
		if (v <= first)
			return;
		bytes = v - first;
		if (bytes > q->ring_size || bytes > KT_MAX_SUBMIT) {
			bytes = q->ring_size < KT_MAX_SUBMIT ? q->ring_size : KT_MAX_SUBMIT;
			first = v - bytes;
			flags |= KT_SUBMIT_CLAMPED;
		}
		start = first % q->ring_size;
	}
	buf = malloc(bytes);
	if (!buf)
		return;
	/* The ring wraps: at most two pieces. */
	if (start + bytes <= q->ring_size) {
		if (kcap_read_mem(buf, q->ring + start, bytes) < 0)
			flags |= KT_SUBMIT_UNREADABLE;
	} else if (kcap_read_mem(buf, q->ring + start, q->ring_size - start) < 0 ||
		   kcap_read_mem(buf + (q->ring_size - start), q->ring,
			    bytes - (q->ring_size - start)) < 0) {
		flags |= KT_SUBMIT_UNREADABLE;
	}
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_SUBMIT;
	rec.u.submit.queue_id = q->queue_id;
	rec.u.submit.fd = q->fd;
	rec.u.submit.gpu_id = q->gpu_id;
	rec.u.submit.engine = q->engine;
	rec.u.submit.flags = flags;
	rec.u.submit.first = first;
	rec.u.submit.last = v;
	rec.u.submit.ring = q->ring;
	rec.u.submit.ring_size = q->ring_size;
	rec.u.submit.len = (flags & KT_SUBMIT_UNREADABLE) ? 0 : (uint32_t)bytes;
	rec.u.submit.data = rec.u.submit.len ? buf : NULL;
	/* What they reference goes first (--submissions=full). */
	kcap_submit_mem_packets(q->engine, rec.u.submit.data, rec.u.submit.len);
	kcap_session_append(&rec, 0);
	free(buf);
}

/* Forward whatever @q's shadow holds that is new (S.lock held). */
static int
forward(struct sub_queue *q)
{
	uint64_t v;

	if (!q->shadow)
		return 0;
	v = __atomic_load_n(q->shadow, __ATOMIC_ACQUIRE);
	if (v == SUB_NONE || v == q->last)
		return 0;
	record(q, v);
	__atomic_store_n(q->real, v, __ATOMIC_RELEASE);
	q->last = v;
	return 1;
}

/* A fork waits while the forwarder works (kfdtrace/fork_quiet.h). */
static struct kt_quiet quiet;

static void *
forwarder(void *arg)
{
	(void)arg;
	kcap_busy = 1;
	/* Sleeps of 10 us, not the default 50 us of slack on top. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	kcap_session_thread_name("kfdtrace-submit");
	for (;;) {
		struct timespec ts = { 0, 0 };
		uint64_t now;
		int news = 0, stop;
		unsigned int i;

		kt_quiet_busy(&quiet);
		pthread_mutex_lock(&S.lock);
		for (i = 0; i < SUB_MAX_QUEUES; i++)
			if (S.q[i].used)
				news |= forward(&S.q[i]);
		stop = S.stop;
		pthread_mutex_unlock(&S.lock);
		kt_quiet_idle(&quiet);
		if (stop)
			break;
		/*
		 * Spin for 50 us after a doorbell, then poll every 10 us up
		 * to 20 ms, every 200 us up to 100 ms, then every 5 ms: a
		 * burst of submissions waits little, an idle program costs
		 * little.
		 */
		now = kfd_dispatch_now();
		if (news)
			S.last_news = now;
		/* Right after a doorbell the next often follows: spin. */
		if (now - S.last_news < SUB_SPIN_NS) {
			sched_yield();
			continue;
		}
		ts.tv_nsec = now - S.last_news < 20000000ull ? 10000 :
			     now - S.last_news < 100000000ull ? 200000 : 5000000;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* Start the forwarder with the first queue (S.lock held). */
static void
start(void)
{
	pthread_attr_t a;

	if (S.started)
		return;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	kt_quiet_register(&quiet);
	if (pthread_create(&S.thread, &a, forwarder, NULL) == 0)
		S.started = 1;
	else
		kt_quiet_unregister(&quiet);
	pthread_attr_destroy(&a);
}

void *
kcap_submit_mmap(void *addr, size_t len, int prot, int flags, int fd,
		 off_t off, int *taken)
{
	struct sub_map *m = NULL;
	void *real, *shadow;
	unsigned int i;

	*taken = 0;
	if (!is_doorbell((uint64_t)off))
		return MAP_FAILED;
	real = kcap_real.mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	if (real == MAP_FAILED)
		return MAP_FAILED;	/* the program's own mmap says why */
	shadow = kcap_real.mmap(addr, len, prot,
				(flags & ~(MAP_TYPE | MAP_NORESERVE)) | MAP_SHARED |
				MAP_ANONYMOUS, -1, 0);
	if (shadow == MAP_FAILED) {
		int err = errno;

		kcap_real.munmap(real, len);
		errno = err;
		*taken = 1;
		return MAP_FAILED;
	}
	pthread_mutex_lock(&S.lock);
	for (i = 0; i < SUB_MAX_MAPS && !m; i++)
		if (!S.m[i].used)
			m = &S.m[i];
	if (!m) {
		/* No room to watch it: the program gets the real page. */
		pthread_mutex_unlock(&S.lock);
		kcap_real.munmap(shadow, len);
		kcap_real.munmap(real, len);
		return MAP_FAILED;
	}
	m->used = 1;
	m->fd = fd;
	m->offset = (uint64_t)off;
	m->len = len;
	m->shadow = shadow;
	m->real = real;
	for (i = 0; i < SUB_MAX_QUEUES; i++)
		if (S.q[i].used)
			link_queue(&S.q[i]);
	pthread_mutex_unlock(&S.lock);
	*taken = 1;
	return shadow;
}

void
kcap_submit_munmap(void *addr, size_t len)
{
	uint8_t *a = addr;
	unsigned int i, k;

	pthread_mutex_lock(&S.lock);
	for (i = 0; i < SUB_MAX_MAPS; i++) {
		struct sub_map *m = &S.m[i];

		if (!m->used || a >= m->shadow + m->len || a + len <= m->shadow)
			continue;
		for (k = 0; k < SUB_MAX_QUEUES; k++)
			if (S.q[k].used && S.q[k].shadow &&
			    (uint8_t *)S.q[k].shadow >= m->shadow &&
			    (uint8_t *)S.q[k].shadow < m->shadow + m->len) {
				forward(&S.q[k]);
				S.q[k].shadow = S.q[k].real = NULL;
			}
		kcap_real.munmap(m->real, m->len);
		m->used = 0;
	}
	pthread_mutex_unlock(&S.lock);
}

static struct sub_queue *
find(int fd, uint32_t queue_id)
{
	unsigned int i;

	for (i = 0; i < SUB_MAX_QUEUES; i++)
		if (S.q[i].used && S.q[i].fd == fd && S.q[i].queue_id == queue_id)
			return &S.q[i];
	return NULL;
}

void
kcap_submit_ioctl(int fd, unsigned int nr, void *arg, int ret, int before)
{
	unsigned int i;

	if (nr == KCAP_NOT_KFD)
		return;
	if (before) {
		/*
		 * The program enters the driver (it may block there, waiting
		 * for what it published): forward its doorbells now rather
		 * than at the forwarder's next look. A queue about to be
		 * destroyed gets what it published before it goes.
		 */
		pthread_mutex_lock(&S.lock);
		for (i = 0; i < SUB_MAX_QUEUES && S.nqueues; i++)
			if (S.q[i].used)
				forward(&S.q[i]);
		pthread_mutex_unlock(&S.lock);
		return;
	}
	if (!arg || ret != 0)
		return;
	kcap_submit_mem_ioctl(nr, arg, ret);
	if (nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_DESTROY_QUEUE)) {
		struct kfd_abi_destroy_queue_args *a = arg;
		struct sub_queue *q;

		pthread_mutex_lock(&S.lock);
		q = find(fd, a->queue_id);
		if (q) {
			memset(q, 0, sizeof(*q));
			S.nqueues--;
		}
		pthread_mutex_unlock(&S.lock);
	} else if (nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_CREATE_QUEUE)) {
		struct kfd_abi_create_queue_args *a = arg;
		enum kfd_engine engine = kfd_queue_engine(a->queue_type);
		struct sub_queue *q = NULL;

		if (engine == KFD_ENGINE_UNKNOWN)
			return;
		pthread_mutex_lock(&S.lock);
		for (i = 0; i < SUB_MAX_QUEUES && !q; i++)
			if (!S.q[i].used)
				q = &S.q[i];
		if (q) {
			memset(q, 0, sizeof(*q));
			q->used = 1;
			q->fd = fd;
			q->queue_id = a->queue_id;
			q->gpu_id = a->gpu_id;
			q->engine = (uint8_t)engine;
			q->ring = a->ring_base_address;
			q->ring_size = a->ring_size;
			q->doorbell_offset = a->doorbell_offset;
			q->last = SUB_NONE;
			S.nqueues++;
			link_queue(q);
			start();
		}
		pthread_mutex_unlock(&S.lock);
	}
}

void
kcap_submit_child(void)
{
	/* The KFD process and the forwarder stayed in the parent. */
	pthread_mutex_init(&S.lock, NULL);
	memset(S.q, 0, sizeof(S.q));
	memset(S.m, 0, sizeof(S.m));
	S.nqueues = 0;
	S.started = 0;
	kcap_submit_mem_child();
}

void
kcap_submit_shutdown(void)
{
	unsigned int i;

	if (!kcap_submit_on)
		return;
	/* Doorbells rung at the very end still reach the trace. */
	pthread_mutex_lock(&S.lock);
	for (i = 0; i < SUB_MAX_QUEUES; i++)
		if (S.q[i].used)
			forward(&S.q[i]);
	S.stop = 1;
	pthread_mutex_unlock(&S.lock);
}
