/* SPDX-License-Identifier: MIT */
/* Devices, files and fork handling: the model's public entry points. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"

#define KSIM_EXPORT __attribute__((visibility("default")))

/* Every live device, so fork handlers can take and drop their locks. */
static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ksim_device *devices;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void
fork_prepare(void)
{
	pthread_mutex_lock(&devices_lock);
	for (struct ksim_device *d = devices; d; d = d->next_dev) {
		pthread_mutex_lock(&d->lock);
		/*
		 * Parent and child share a BO's pages (a render file crosses
		 * fork): give every BO its memfd now, which both inherit,
		 * rather than one each later (ksim_bo_backing()).
		 */
		for (struct ksim_bo *bo = d->bos; bo; bo = bo->next)
			(void)ksim_bo_backing(bo);
	}
}

static void
fork_parent(void)
{
	for (struct ksim_device *d = devices; d; d = d->next_dev)
		pthread_mutex_unlock(&d->lock);
	pthread_mutex_unlock(&devices_lock);
}

static void
fork_child(void)
{
	ksim_pid_refresh();
	/* The registry lock is only taken under a device lock, so no thread
	 * can have held it across the fork. */
	for (struct ksim_device *d = devices; d; d = d->next_dev)
		pthread_mutex_unlock(&d->lock);
	pthread_mutex_unlock(&devices_lock);
}

static void
install_atfork(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

KSIM_EXPORT void
ksim_notify_fork_child(void)
{
	ksim_pid_refresh();
}

int
ksim_gpu_index(const struct ksim_device *dev, uint32_t gpu_id)
{
	if (!gpu_id)
		return -1;
	for (unsigned int i = 0; i < dev->n_gpus; i++)
		if (dev->gpus[i].gpu_id == gpu_id)
			return (int)i;
	return -1;
}

static unsigned int
abi_minor_from(const struct ksim_opts *opts)
{
	const char *env;

	if (opts && opts->abi_minor)
		return opts->abi_minor;
	env = getenv(KSIM_ENV_ABI_MINOR);
	if (env && *env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);

		/* "1.11" and "11" both name minor 11. */
		if (*end == '.' && v == 1)
			v = strtoul(end + 1, &end, 10);
		if (!*end)
			return (unsigned int)v;
		return 0;
	}
	return KSIM_ABI_MINOR_DEFAULT;
}

KSIM_EXPORT int
ksim_kernel_parse(const char *name)
{
	if (name && !strcmp(name, "upstream"))
		return KSIM_KERNEL_UPSTREAM;
	if (name && !strcmp(name, "rocm"))
		return KSIM_KERNEL_ROCM;
	return -EINVAL;
}

/* opts, else KFDSIM_KERNEL, else the profile's key, else upstream. */
static int
kernel_from(const struct ksim_opts *opts, const struct ksim_profile *prof)
{
	const char *env;

	if (opts && opts->kernel)
		return opts->kernel == KSIM_KERNEL_UPSTREAM ||
		       opts->kernel == KSIM_KERNEL_ROCM ? (int)opts->kernel : -EINVAL;
	env = getenv(KSIM_ENV_KERNEL);
	if (env && *env)
		return ksim_kernel_parse(env);
	if (prof->kernel[0])
		return ksim_kernel_parse(prof->kernel);
	return KSIM_KERNEL_UPSTREAM;
}

/* RAM of the machine: the sum of the CPU nodes' system heaps. */
static uint64_t
machine_ram(const struct ksim_profile *prof)
{
	uint64_t ram = ksim_profile_ram(prof);

	return ram ? ram : 16ULL << 30;
}

static void
raise_nofile(void)
{
	struct rlimit rl;

	if (syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl))
		return;
	if (rl.rlim_cur < rl.rlim_max && rl.rlim_cur < 65536) {
		rl.rlim_cur = rl.rlim_max < 65536 ? rl.rlim_max : 65536;
		syscall(SYS_setrlimit, RLIMIT_NOFILE, &rl);
	}
}

KSIM_EXPORT struct ksim_device *
ksim_device_create(const struct ksim_profile *prof,
		   const struct ksim_opts *opts, int *err)
{
	struct ksim_device *dev;
	const char *machine = NULL;
	unsigned int flags = opts ? opts->flags : 0;
	uint64_t ram;
	int r;

	if (err)
		*err = 0;
	if (!prof || ksim_profile_validate(prof, NULL)) {
		if (err)
			*err = -EINVAL;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	dev->abi_minor = abi_minor_from(opts);
	if (dev->abi_minor < KSIM_ABI_MINOR_MIN ||
	    dev->abi_minor > KSIM_ABI_MINOR_MAX) {
		free(dev);
		if (err)
			*err = -EINVAL;
		return NULL;
	}
	r = kernel_from(opts, prof);
	if (r < 0) {
		free(dev);
		if (err)
			*err = -EINVAL;
		return NULL;
	}
	dev->kernel = (unsigned int)r;
	dev->flags = flags;
	r = ksim_faults_parse(opts && opts->faults ? opts->faults : getenv(KSIM_ENV_FAULTS),
			      &dev->faults, NULL, 0);
	if (r) {
		free(dev);
		if (err)
			*err = r;
		return NULL;
	}
	dev->prof = ksim_profile_dup(prof);
	if (!dev->prof) {
		ksim_faults_free(dev->faults);
		free(dev);
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	for (unsigned int i = 0; i < dev->prof->n_nodes; i++) {
		const struct ksim_node *n = &dev->prof->nodes[i];
		struct ksim_gpu_dev *g;

		if (!ksim_node_is_gpu(n))
			continue;
		if (dev->n_gpus == KSIM_MAX_GPUS) {
			ksim_profile_free(dev->prof);
			ksim_faults_free(dev->faults);
			free(dev);
			if (err)
				*err = -EINVAL;
			return NULL;
		}
		g = &dev->gpus[dev->n_gpus++];
		g->node = (int)i;
		g->gpu_id = n->gpu_id;
		g->n = n;
		g->g = n->gpu;
		g->d = n->drm;
	}
	ram = machine_ram(dev->prof);
	/* KFD's system memory limit: 15/16 of RAM less 1.5 GiB reserve;
	 * TTM (GTT) may use half of RAM. */
	dev->sys_limit = dev->prof->system_mem_limit ? dev->prof->system_mem_limit :
			 (ram - ram / 16 > (3ULL << 29) ? ram - ram / 16 - (3ULL << 29) : ram / 2);
	dev->ttm_limit = ram / 2;
	dev->next_fake_offset = KSIM_FAKE_OFFSET_BASE;
	pthread_mutex_init(&dev->lock, NULL);

	if (!(flags & KSIM_OPT_PRIVATE))
		machine = opts && opts->machine ? opts->machine :
			  getenv(KSIM_ENV_MACHINE);
	r = ksim_reg_open(dev, machine, &dev->reg);
	if (r) {
		pthread_mutex_destroy(&dev->lock);
		ksim_profile_free(dev->prof);
		ksim_faults_free(dev->faults);
		free(dev);
		if (err)
			*err = r;
		return NULL;
	}
	raise_nofile();
	ksim_self_pid();
	pthread_once(&atfork_once, install_atfork);
	pthread_mutex_lock(&devices_lock);
	dev->next_dev = devices;
	devices = dev;
	pthread_mutex_unlock(&devices_lock);
	return dev;
}

static void
file_free(struct ksim_file *f)
{
	struct ksim_device *dev = f->dev;

	for (struct ksim_file **pp = &dev->files; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	if (f->kind == KFD_FILE_RENDER) {
		for (unsigned int h = 0; h < f->handles_cap; h++)
			if (f->handles[h])
				ksim_bo_put(dev, f->handles[h]);
		free(f->handles);
		ksim_drm_ctx_release(f);
		ksim_drm_cs_release(f);
		ksim_vm_clear(dev, &f->vm);
	}
	free(f);
}

KSIM_EXPORT void
ksim_device_destroy(struct ksim_device *dev)
{
	pid_t self;

	if (!dev)
		return;
	pthread_mutex_lock(&devices_lock);
	for (struct ksim_device **pp = &devices; *pp; pp = &(*pp)->next_dev) {
		if (*pp == dev) {
			*pp = dev->next_dev;
			break;
		}
	}
	pthread_mutex_unlock(&devices_lock);

	pthread_mutex_lock(&dev->lock);
	self = ksim_self_pid();
	while (dev->procs) {
		struct ksim_process *p = dev->procs;

		/* State inherited from a parent is the parent's to release. */
		ksim_process_destroy(p, p->pid == self);
	}
	while (dev->files)
		file_free(dev->files);
	/* BOs still referenced only by exported fds: drop what we hold. */
	while (dev->bos) {
		struct ksim_bo *bo = dev->bos;

		bo->refs = 1;
		ksim_bo_put(dev, bo);
	}
	pthread_mutex_unlock(&dev->lock);
	pthread_mutex_destroy(&dev->lock);
	ksim_reg_close(dev->reg);
	ksim_profile_free(dev->prof);
	ksim_faults_free(dev->faults);
	free(dev);
}

KSIM_EXPORT const struct ksim_profile *
ksim_device_profile(const struct ksim_device *dev)
{
	return dev ? dev->prof : NULL;
}

KSIM_EXPORT unsigned int
ksim_device_abi_minor(const struct ksim_device *dev)
{
	return dev ? dev->abi_minor : 0;
}

KSIM_EXPORT unsigned int
ksim_device_kernel(const struct ksim_device *dev)
{
	return dev ? dev->kernel : 0;
}

void
ksim_file_get(struct ksim_file *f)
{
	f->refs++;
}

void
ksim_file_put(struct ksim_file *f)
{
	if (--f->refs == 0)
		file_free(f);
}

static struct ksim_file *
file_new(struct ksim_device *dev, enum kfd_file_kind kind, const char *name,
	 int oflags, int *err)
{
	struct ksim_file *f = calloc(1, sizeof(*f));
	int fd, r;

	if (!f) {
		*err = -ENOMEM;
		return NULL;
	}
	/* The fd the application will see: lowest free, like open(). */
	fd = ksim_sys_memfd(name, (oflags & O_CLOEXEC) != 0);
	if (fd < 0) {
		free(f);
		*err = fd;
		return NULL;
	}
	r = ksim_sys_identity(fd, &f->st_dev, &f->st_ino);
	if (r) {
		ksim_sys_close(fd);
		free(f);
		*err = r;
		return NULL;
	}
	f->dev = dev;
	f->kind = kind;
	f->fd = fd;
	f->owner = ksim_self_pid();
	f->refs = 1;
	f->gpu = -1;
	f->next = dev->files;
	dev->files = f;
	return f;
}

/* Drop process states of other pids (we are a fork child); keep theirs. */
static void
forget_inherited(struct ksim_device *dev)
{
	pid_t self = ksim_self_pid();
	struct ksim_process **pp = &dev->procs;

	/* Files the child inherited keep answering -EBADF (their owner is
	 * the parent); they no longer need the parent's state. */
	for (struct ksim_file *f = dev->files; f; f = f->next)
		if (f->proc && f->proc->pid != self)
			f->proc = NULL;
	while (*pp) {
		struct ksim_process *p = *pp;

		if (p->pid != self) {
			ksim_process_destroy(p, 0);
			pp = &dev->procs;
			continue;
		}
		pp = &p->next;
	}
}

KSIM_EXPORT struct ksim_file *
ksim_open_kfd(struct ksim_device *dev, int oflags, int *err)
{
	struct ksim_process *p = NULL;
	struct ksim_file *f;
	pid_t self = ksim_self_pid();
	int e = 0;

	if (!dev) {
		if (err)
			*err = -EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&dev->lock);
	forget_inherited(dev);
	/* All opens of one process share one KFD process (kfd_open). */
	for (struct ksim_process *q = dev->procs; q; q = q->next)
		if (q->pid == self && !q->secondary) {
			p = q;
			break;
		}
	if (!p) {
		p = ksim_process_create(dev, &e);
		if (!p)
			goto fail;
	}
	f = file_new(dev, KFD_FILE_KFD, "kfdsim:/dev/kfd", oflags, &e);
	if (!f) {
		if (!p->refs)
			ksim_process_destroy(p, 1);
		goto fail;
	}
	f->proc = p;
	p->refs++;
	pthread_mutex_unlock(&dev->lock);
	return f;
fail:
	pthread_mutex_unlock(&dev->lock);
	if (err)
		*err = e;
	return NULL;
}

KSIM_EXPORT struct ksim_file *
ksim_open_render(struct ksim_device *dev, unsigned int minor, int oflags,
		 int *err)
{
	struct ksim_file *f;
	int gpu = -1, e = 0;

	if (!dev) {
		if (err)
			*err = -EINVAL;
		return NULL;
	}
	for (unsigned int i = 0; i < dev->n_gpus; i++)
		if (dev->gpus[i].d->render_minor == minor)
			gpu = (int)i;
	if (gpu < 0) {
		if (err)
			*err = -ENOENT;
		return NULL;
	}
	pthread_mutex_lock(&dev->lock);
	f = file_new(dev, KFD_FILE_RENDER, "kfdsim:/dev/dri/render", oflags, &e);
	if (f) {
		f->gpu = gpu;
		f->minor = minor;
	}
	pthread_mutex_unlock(&dev->lock);
	if (!f && err)
		*err = e;
	return f;
}

KSIM_EXPORT int
ksim_file_fd(const struct ksim_file *f)
{
	return f ? f->fd : -1;
}

KSIM_EXPORT enum kfd_file_kind
ksim_file_kind(const struct ksim_file *f)
{
	return f ? f->kind : KFD_FILE_UNKNOWN;
}

KSIM_EXPORT unsigned int
ksim_file_render_minor(const struct ksim_file *f)
{
	return f && f->kind == KFD_FILE_RENDER ? f->minor : 0;
}

KSIM_EXPORT pid_t
ksim_file_owner(const struct ksim_file *f)
{
	return f ? f->owner : 0;
}

/* Device lock held. */
struct ksim_file *
ksim_file_lookup_fd(struct ksim_device *dev, int fd)
{
	uint64_t sdev, ino;

	if (fd < 0 || ksim_sys_identity(fd, &sdev, &ino))
		return NULL;
	for (struct ksim_file *f = dev->files; f; f = f->next)
		if (f->st_ino == ino && f->st_dev == sdev && !f->released)
			return f;
	return NULL;
}

KSIM_EXPORT struct ksim_file *
ksim_file_from_fd(struct ksim_device *dev, int fd)
{
	struct ksim_file *f;

	if (!dev)
		return NULL;
	pthread_mutex_lock(&dev->lock);
	f = ksim_file_lookup_fd(dev, fd);
	pthread_mutex_unlock(&dev->lock);
	return f;
}

/*
 * The last file of a process is closed: the process and its BOs live on
 * until exit, as in the kernel. BOs get their memfd lazily
 * (ksim_bo_backing()); give those left behind theirs now, so that memory
 * a program leaks past its close shows among its open files, where leak
 * checks (tests/faults) look for it. Costs nothing unless BOs are left.
 */
static void
back_left_behind(struct ksim_process *p)
{
	for (unsigned int i = 0; i < p->n_pdds; i++) {
		struct ksim_pdd *pdd = &p->pdds[i];

		for (unsigned int h = 0; h < pdd->idr_cap; h++)
			if (pdd->idr[h] && pdd->idr[h]->bo)
				ksim_bo_backing(pdd->idr[h]->bo);
	}
}

KSIM_EXPORT void
ksim_release(struct ksim_file *f)
{
	struct ksim_device *dev;
	struct ksim_process *p;

	if (!f)
		return;
	dev = f->dev;
	pthread_mutex_lock(&dev->lock);
	if (f->released) {
		pthread_mutex_unlock(&dev->lock);
		return;
	}
	f->released = 1;
	p = f->proc;
	f->proc = NULL;
	/* kfd_release only drops the reference: the process lives until
	 * exit. A secondary context dies with its file. */
	if (p) {
		p->refs--;
		if (p->secondary && !p->refs)
			ksim_process_destroy(p, 1);
		else if (!p->refs)
			back_left_behind(p);
	}
	ksim_file_put(f);
	pthread_mutex_unlock(&dev->lock);
}

KSIM_EXPORT int
ksim_ioctl(struct ksim_file *f, unsigned long request, void *arg)
{
	int saved = errno, r = 0;
	uint64_t delay = 0;

	if (!f)
		return -EBADF;
	/* Fault mode: a failure the device never sees, or a late answer. */
	if (f->dev->faults)
		r = ksim_faults_check(f->dev->faults, f->kind, request, &delay);
	if (!r)
		r = f->kind == KFD_FILE_KFD ? ksim_kfd_ioctl(f, request, arg) :
		    ksim_drm_ioctl(f, request, arg);
	if (delay)
		ksim_faults_delay(delay);
	errno = saved;
	return r;
}

KSIM_EXPORT void
ksim_notify_munmap(struct ksim_device *dev, uint64_t addr, uint64_t len)
{
	pid_t self = ksim_self_pid();

	if (!dev || !len)
		return;
	pthread_mutex_lock(&dev->lock);
	for (struct ksim_process *p = dev->procs; p; p = p->next) {
		if (p->pid != self)
			continue;
		if (p->n_svm)
			ksim_svm_unmap(p, addr & ~(KSIM_PAGE_SIZE - 1),
				       KSIM_PAGE_ALIGN(addr + len) -
				       (addr & ~(KSIM_PAGE_SIZE - 1)));
		(void)ksim_cp_doorbell_unmapped(p, addr & ~(KSIM_PAGE_SIZE - 1),
						KSIM_PAGE_ALIGN(addr + len) -
						(addr & ~(KSIM_PAGE_SIZE - 1)));
	}
	pthread_mutex_unlock(&dev->lock);
}

KSIM_EXPORT void
ksim_notify_mremap(struct ksim_device *dev, uint64_t old, uint64_t old_len,
		   uint64_t new_addr, uint64_t new_len)
{
	pid_t self = ksim_self_pid();

	if (!dev)
		return;
	pthread_mutex_lock(&dev->lock);
	for (struct ksim_process *p = dev->procs; p; p = p->next) {
		if (p->pid != self)
			continue;
		if (p->n_svm && old_len)
			ksim_svm_unmap(p, old, KSIM_PAGE_ALIGN(old_len));
		ksim_cp_doorbell_moved(p, old, KSIM_PAGE_ALIGN(old_len), new_addr,
				       KSIM_PAGE_ALIGN(new_len));
	}
	pthread_mutex_unlock(&dev->lock);
}

KSIM_EXPORT int
ksim_idle_mode(struct ksim_device *dev)
{
	pid_t self = ksim_self_pid();
	int r = -ESRCH;

	if (!dev)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	for (struct ksim_process *p = dev->procs; p; p = p->next)
		if (p->pid == self && !p->secondary)
			r = ksim_cp_idle_mode(p);
	pthread_mutex_unlock(&dev->lock);
	return r;
}

KSIM_EXPORT int
ksim_proc_query(struct ksim_device *dev, struct ksim_proc_info *out)
{
	struct ksim_process *p = NULL;
	pid_t self = ksim_self_pid();

	if (!dev || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&dev->lock);
	for (struct ksim_process *q = dev->procs; q; q = q->next)
		if (q->pid == self && !q->secondary)
			p = q;
	if (!p) {
		pthread_mutex_unlock(&dev->lock);
		return -ESRCH;
	}
	out->pid = p->pid;
	out->pasid = p->pasid;
	out->xnack_enabled = (uint32_t)p->xnack_enabled;
	out->runtime_enabled = p->dbg->runtime_state != KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED;
	out->n_gpus = p->n_pdds;
	for (unsigned int i = 0; i < p->n_pdds && i < 16; i++) {
		out->gpus[i].gpu_id = p->pdds[i].gpu_id;
		out->gpus[i].vram_used = p->pdds[i].vram_usage;
		out->gpus[i].n_queues = p->pdds[i].queue_count;
		out->gpus[i].vm_acquired = p->pdds[i].drm_file != NULL;
	}
	for (unsigned int q = 0; q < KSIM_MAX_QUEUES; q++)
		if (p->queues[q])
			out->queue_ids[out->n_queue_ids++] = q;
	pthread_mutex_unlock(&dev->lock);
	return 0;
}
