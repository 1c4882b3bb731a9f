/* SPDX-License-Identifier: MIT */
/*
 * SMI events (kfd_smi_events.c): the SMI_EVENTS fd and the text records
 * the kernel queues on it. A record is "<event id in hex> <payload>"; the
 * payloads follow the KFD_EVENT_FMT_* formats of kfd_ioctl.h. Addresses
 * and sizes are in pages, GPUs are gpu_ids and system memory is 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ksim_priv.h"

int
ksim_ioc_smi_events(struct ksim_file *f, struct ksim_process *p, void *data,
		    unsigned int usize)
{
	struct kfd_abi_smi_events_args *args = data;
	struct ksim_pdd *pdd = ksim_pdd_by_id(p, args->gpuid);
	struct ksim_smi_client *n;
	int sv[2], r;

	if (!pdd)
		return -EINVAL;
	n = realloc(p->smi, (p->n_smi + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->smi = n;
	/* An anon fd the client writes its 8-byte mask to and reads event
	 * records from; the model keeps the other end. */
	r = ksim_sys_socketpair(sv, 0);
	if (r)
		return r;
	/* The kernel's read of an empty event fifo fails with EAGAIN at once;
	 * it never waits (kfdtest reads after a poll that timed out). */
	if (syscall(SYS_fcntl, sv[0], F_SETFL, O_NONBLOCK)) {
		r = -errno;
		ksim_sys_close(sv[0]);
		ksim_sys_close(sv[1]);
		return r;
	}
	p->smi[p->n_smi].fd = sv[1];
	p->smi[p->n_smi].gpu = pdd->gpu;
	p->smi[p->n_smi++].mask = 0;
	args->anon_fd = (uint32_t)sv[0];
	return 0;
}

/* The client's latest mask: the last whole 8 bytes it wrote, unread. */
static void
smi_read_mask(struct ksim_smi_client *c)
{
	uint64_t m;

	while (syscall(SYS_recvfrom, c->fd, &m, sizeof(m), MSG_DONTWAIT,
		       NULL, NULL) == (long)sizeof(m))
		c->mask = m;
}

/*
 * Queue record @rec of @len bytes for event @ev on GPU index @gpu. Every
 * subscriber is @p's own, so the kernel's test of the subscriber's pid
 * (or its ALL_PROCESS privilege) always passes.
 */
static void
smi_queue(struct ksim_process *p, int gpu, unsigned int ev, const char *rec,
	  size_t len)
{
	for (unsigned int i = 0; i < p->n_smi; i++) {
		struct ksim_smi_client *c = &p->smi[i];

		if (c->gpu != gpu)
			continue;
		smi_read_mask(c);
		if (!(c->mask & KFD_ABI_SMI_EVENT_MASK_FROM_INDEX(ev)))
			continue;
		/* A full socket drops the record, as a full kfifo does. */
		(void)syscall(SYS_sendto, c->fd, rec, len,
			      MSG_DONTWAIT | MSG_NOSIGNAL, NULL, 0);
	}
}

/* "<ev> " and the payload @fmt; a %c of 0 puts a NUL byte in, as it does
 * in the kernel's record. */
static void __attribute__((format(printf, 4, 5)))
smi_add(struct ksim_process *p, int gpu, unsigned int ev, const char *fmt, ...)
{
	char rec[KFD_ABI_SMI_EVENT_MSG_SIZE];
	va_list ap;
	int len, n;

	if (!p->n_smi || gpu < 0)
		return;
	len = snprintf(rec, sizeof(rec), "%x ", ev);
	va_start(ap, fmt);
	n = vsnprintf(rec + len, sizeof(rec) - (size_t)len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	len += n;
	if ((size_t)len >= sizeof(rec))
		len = sizeof(rec) - 1;
	smi_queue(p, gpu, ev, rec, (size_t)len);
}

/* ktime_get_boottime_ns(): the events' time stamps. */
static long long
smi_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The device index of @gpu_id in @p; -1 for system memory or none. */
static int
smi_gpu(struct ksim_process *p, uint32_t gpu_id)
{
	struct ksim_pdd *pdd = gpu_id ? ksim_pdd_by_id(p, gpu_id) : NULL;

	return pdd ? pdd->gpu : -1;
}

void
ksim_smi_process_event(struct ksim_process *p, int gpu, int start)
{
	unsigned int ev = start ? KFD_ABI_SMI_EVENT_PROCESS_START :
				  KFD_ABI_SMI_EVENT_PROCESS_END;
	char rec[KFD_ABI_SMI_EVENT_MSG_SIZE];
	int len;

	if (start)
		(void)prctl(PR_GET_NAME, p->comm, 0, 0, 0);
	/* "<event> <pid> <task name>\n", the numbers in hex. */
	len = snprintf(rec, sizeof(rec), "%x %x %.15s\n", ev,
		       (unsigned int)p->pid, p->comm);
	if (len <= 0 || (size_t)len >= sizeof(rec))
		return;
	smi_queue(p, gpu, ev, rec, (size_t)len);
}

void
ksim_smi_migrate(struct ksim_process *p, int end, uint64_t start_pg,
		 uint64_t npages, uint32_t from, uint32_t to,
		 uint32_t prefetch_loc, uint32_t preferred_loc,
		 uint32_t trigger, int error)
{
	/* The GPU that moves the pages reports: the target, or the source
	 * when the pages go back to system memory. */
	int gpu = smi_gpu(p, to ? to : from);

	if (!end)
		smi_add(p, gpu, KFD_ABI_SMI_EVENT_MIGRATE_START,
			"%lld -%d @%lx(%lx) %x->%x %x:%x %d\n", smi_now(),
			(int)p->pid, (unsigned long)start_pg,
			(unsigned long)npages, from, to, prefetch_loc,
			preferred_loc, (int)trigger);
	else
		smi_add(p, gpu, KFD_ABI_SMI_EVENT_MIGRATE_END,
			"%lld -%d @%lx(%lx) %x->%x %d %d\n", smi_now(),
			(int)p->pid, (unsigned long)start_pg,
			(unsigned long)npages, from, to, (int)trigger, error);
}

void
ksim_smi_queue_eviction(struct ksim_process *p, uint32_t trigger)
{
	for (unsigned int i = 0; i < p->n_pdds; i++)
		smi_add(p, p->pdds[i].gpu, KFD_ABI_SMI_EVENT_QUEUE_EVICTION,
			"%lld -%d %x %d\n", smi_now(), (int)p->pid,
			p->pdds[i].gpu_id, (int)trigger);
}

void
ksim_smi_queue_restore(struct ksim_process *p)
{
	/* The kernel passes 0 for "not rescheduled" to a %c: a NUL byte. */
	for (unsigned int i = 0; i < p->n_pdds; i++)
		smi_add(p, p->pdds[i].gpu, KFD_ABI_SMI_EVENT_QUEUE_RESTORE,
			"%lld -%d %x %c\n", smi_now(), (int)p->pid,
			p->pdds[i].gpu_id, 0);
}

void
ksim_smi_unmap_from_gpu(struct ksim_process *p, uint32_t gpu_id,
			uint64_t start_pg, uint64_t npages, uint32_t trigger)
{
	smi_add(p, smi_gpu(p, gpu_id), KFD_ABI_SMI_EVENT_UNMAP_FROM_GPU,
		"%lld -%d @%lx(%lx) %x %d\n", smi_now(), (int)p->pid,
		(unsigned long)start_pg, (unsigned long)npages, gpu_id,
		(int)trigger);
}
