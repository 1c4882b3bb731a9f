/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kfdtrace/packet_abi.h>

#include "ktest.h"

int
kt_open(struct kt *t, const char *profile, unsigned int abi_minor)
{
	struct ksim_opts o = { .abi_minor = abi_minor, .flags = KSIM_OPT_PRIVATE };

	return kt_open_opts(t, profile, &o);
}

int
kt_open_opts(struct kt *t, const char *profile, const struct ksim_opts *o)
{
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->prof = ksim_profile_builtin(profile);
	if (!t->prof)
		return -ENOENT;
	t->dev = ksim_device_create(t->prof, o, &err);
	if (!t->dev)
		return err;
	t->kfd = ksim_open_kfd(t->dev, O_CLOEXEC, &err);
	if (!t->kfd)
		return err;
	for (unsigned int i = 0; i < t->prof->n_nodes; i++) {
		const struct ksim_node *n = &t->prof->nodes[i];

		if (!ksim_node_is_gpu(n) || t->n_gpus == KT_MAX_GPUS)
			continue;
		t->gpu_id[t->n_gpus] = n->gpu_id;
		t->rnd[t->n_gpus] = ksim_open_render(t->dev,
				(unsigned int)n->props[KSIM_NP_DRM_RENDER_MINOR],
				O_CLOEXEC, &err);
		if (!t->rnd[t->n_gpus])
			return err;
		t->n_gpus++;
	}
	return 0;
}

void
kt_close(struct kt *t)
{
	for (unsigned int i = 0; i < t->n_gpus; i++) {
		if (t->rnd[i]) {
			close(ksim_file_fd(t->rnd[i]));
			ksim_release(t->rnd[i]);
		}
	}
	if (t->kfd) {
		close(ksim_file_fd(t->kfd));
		ksim_release(t->kfd);
	}
	ksim_device_destroy(t->dev);
	ksim_profile_free(t->prof);
	memset(t, 0, sizeof(*t));
}

int
kt_acquire(struct kt *t, unsigned int gpu)
{
	struct kfd_abi_acquire_vm_args a = {
		.drm_fd = (uint32_t)ksim_file_fd(t->rnd[gpu]),
		.gpu_id = t->gpu_id[gpu],
	};

	return ksim_ioctl(t->kfd, KFD_ABI_IOC_ACQUIRE_VM, &a);
}

int
kt_acquire_all(struct kt *t)
{
	for (unsigned int i = 0; i < t->n_gpus; i++) {
		int r = kt_acquire(t, i);

		if (r)
			return r;
	}
	return 0;
}

int
kt_alloc(struct kt *t, unsigned int gpu, uint64_t va, uint64_t size,
	 uint32_t flags, uint64_t *handle, uint64_t *mmap_offset)
{
	struct kfd_abi_alloc_memory_of_gpu_args a = {
		.va_addr = va, .size = size, .gpu_id = t->gpu_id[gpu],
		.flags = flags,
		.mmap_offset = mmap_offset ? *mmap_offset : 0,
	};
	int r = ksim_ioctl(t->kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a);

	if (handle)
		*handle = a.handle;
	if (mmap_offset)
		*mmap_offset = a.mmap_offset;
	return r;
}

int
kt_free(struct kt *t, uint64_t handle)
{
	struct kfd_abi_free_memory_of_gpu_args a = { .handle = handle };

	return ksim_ioctl(t->kfd, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &a);
}

static int
map_op(struct kt *t, unsigned long req, uint64_t handle,
       const unsigned int *gpus, unsigned int n, uint32_t *n_success)
{
	uint32_t ids[KT_MAX_GPUS];
	struct kfd_abi_map_memory_to_gpu_args a = {
		.handle = handle, .device_ids_array_ptr = (uintptr_t)ids,
		.n_devices = n,
	};
	int r;

	for (unsigned int i = 0; i < n && i < KT_MAX_GPUS; i++)
		ids[i] = gpus[i] < KT_MAX_GPUS ? t->gpu_id[gpus[i]] : 0xdead;
	r = ksim_ioctl(t->kfd, req, &a);
	if (n_success)
		*n_success = a.n_success;
	return r;
}

int
kt_map(struct kt *t, uint64_t handle, const unsigned int *gpus, unsigned int n,
       uint32_t *n_success)
{
	return map_op(t, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, handle, gpus, n, n_success);
}

int
kt_unmap(struct kt *t, uint64_t handle, const unsigned int *gpus, unsigned int n,
	 uint32_t *n_success)
{
	return map_op(t, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, handle, gpus, n,
		      n_success);
}

void *
kt_cpu_map(struct ksim_file *f, uint64_t offset, size_t len, int *err)
{
	struct ksim_map m;
	void *p;
	int r = ksim_mmap(f, offset, len, PROT_READ | PROT_WRITE, MAP_SHARED, &m);

	if (r) {
		*err = r;
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, m.fd,
		 (off_t)m.offset);
	close(m.fd);
	*err = p == MAP_FAILED ? -errno : 0;
	/* What the shim does: a doorbell store then wakes an idle engine. */
	if (p != MAP_FAILED && (m.flags & KSIM_MAP_DOORBELL))
		ksim_notify_mapped(f, offset, p, len, MAP_SHARED);
	return p == MAP_FAILED ? NULL : p;
}

int
kt_reaches(const uint64_t *p, uint64_t want)
{
	for (int i = 0; i < 5000; i++) {
		if (__atomic_load_n(p, __ATOMIC_ACQUIRE) >= want)
			return 1;
		usleep(1000);
	}
	return 0;
}

uint8_t *
kt_userptr_mapped(struct kt *t, unsigned int gpu, uint64_t va, size_t size)
{
	uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t off, h;
	uint32_t ns;

	assert_true(p != MAP_FAILED);
	off = (uintptr_t)p;
	assert_int_equal(kt_alloc(t, gpu, va, size,
				  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
				  KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, &h, &off), 0);
	assert_int_equal(kt_map(t, h, &gpu, 1, &ns), 0);
	return p;
}

void
kt_vram_mapped(struct kt *t, unsigned int owner, uint64_t va, uint64_t size,
	       const unsigned int *gpus, unsigned int n)
{
	uint64_t h;
	uint32_t ns;

	assert_int_equal(kt_alloc(t, owner, va, size,
				  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
				  KFD_ABI_ALLOC_MEM_FLAGS_VRAM, &h, NULL), 0);
	assert_int_equal(kt_map(t, h, gpus, n, &ns), 0);
}

int
kt_setup_mi210_novm(void **state)
{
	struct kt *t = calloc(1, sizeof(*t));

	if (!t || kt_open(t, "mi210", 0))
		return -1;
	*state = t;
	return 0;
}

int
kt_setup_mi210(void **state)
{
	struct kt *t;

	if (kt_setup_mi210_novm(state))
		return -1;
	t = *state;
	return kt_acquire_all(t) ? -1 : 0;
}

int
kt_teardown(void **state)
{
	struct kt *t = *state;

	kt_close(t);
	free(t);
	return 0;
}

int
kt_machine_setup(void **state)
{
	int err = 0;

	*state = ksim_machine_begin(NULL, &err);
	return *state ? 0 : -1;
}

int
kt_machine_teardown(void **state)
{
	ksim_machine_end(*state);
	*state = NULL;
	return 0;
}

void
kt_queue_create(struct kt *t, struct kt_queue *q, uint64_t base, uint32_t type,
		uint32_t ring_size, uint64_t eop_va, uint64_t cwsr_va, unsigned int wptr_off)
{
	const struct ksim_gpu *g = NULL;
	struct kfd_abi_create_queue_args a;
	volatile uint64_t *page;
	int err;

	/* the first GPU node (mi300x has two CPU nodes before it) */
	for (unsigned int n = 0; n < t->prof->n_nodes && !g; n++)
		g = t->prof->nodes[n].gpu;
	assert_non_null(g);
	memset(q, 0, sizeof(*q));
	q->ring = kt_userptr_mapped(t, 0, base, ring_size);
	q->aux = kt_userptr_mapped(t, 0, base + 0x100000, 4096);
	q->data = kt_userptr_mapped(t, 0, base + 0x200000, 4096);
	memset(&a, 0, sizeof(a));
	a.ring_base_address = base;
	a.ring_size = ring_size;
	if (type == KFD_ABI_QUEUE_TYPE_COMPUTE_AQL) {
		for (unsigned int i = 0; i < ring_size / 64; i++)
			*(uint16_t *)(q->ring + i * 64) = KFD_AQL_TYPE_INVALID;
		a.read_pointer_address = base + 0x100000 + 128;
		a.write_pointer_address = base + 0x100000 + 56;
	} else {
		a.read_pointer_address = base + 0x100000;
		a.write_pointer_address = base + 0x100000 + wptr_off;
	}
	a.gpu_id = t->gpu_id[0];
	a.queue_type = type;
	a.queue_percentage = 100;
	a.eop_buffer_address = eop_va;
	a.eop_buffer_size = g->eop_buffer_size;
	a.ctx_save_restore_address = cwsr_va;
	a.ctx_save_restore_size = g->cwsr_size;
	a.ctl_stack_size = g->ctl_stack_size;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_QUEUE, &a), 0);
	q->qid = a.queue_id;
	page = kt_cpu_map(t->kfd, a.doorbell_offset & ~0x1fffULL, 8192, &err);
	assert_non_null((void *)page);
	q->doorbell_page = page;
	q->doorbell = page + (a.doorbell_offset & 0x1fff) / 8;
}

pid_t
kt_engine_tid(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	pid_t tid = 0;

	if (!d)
		return 0;
	while (!tid && (e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "kfdsim-cp\n"))
			tid = (pid_t)atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return tid;
}

unsigned long
kt_task_switches(pid_t tid)
{
	char path[64], line[128];
	unsigned long n = 0, v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %lu", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %lu", &v) == 1)
			n += v;
	fclose(f);
	return n;
}

clockid_t
kt_task_clock(pid_t tid)
{
	/* What pthread_getcpuclockid() gives: CPUCLOCK_PERTHREAD |
	 * CPUCLOCK_SCHED on the inverted id. */
	return (clockid_t)(~(unsigned int)tid << 3 | 6);
}

uint64_t
kt_now_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
