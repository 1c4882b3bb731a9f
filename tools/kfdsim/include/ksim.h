/* SPDX-License-Identifier: MIT */
/*
 * kfdsim device model: a user-space /dev/kfd (and amdgpu render node) that
 * answers every ioctl the way the Linux kernel does.
 *
 * The model is a library. The LD_PRELOAD shim (tools/kfdsim/shim) owns the
 * libc side: it opens model files when the application opens /dev/kfd or
 * /dev/dri/renderD*, routes ioctl() and mmap() on their fds here, and
 * renders sysfs from the profile (ksim_profile.h). Everything the kernel
 * keeps per process (BOs, queues, events, SVM ranges, ...) lives here.
 *
 * Calling conventions
 *   - Functions returning int give 0 (or a positive value where the kernel
 *     returns one) on success and a negative errno on failure, exactly the
 *     value the kernel's handler would return; the shim turns -E into
 *     errno = E and -1.
 *   - ioctl argument pointers are untrusted user pointers: the model reads
 *     and writes them, and every indirect buffer, without faulting
 *     (process_vm_readv/writev on its own pid), so wild pointers give
 *     -EFAULT, never a crash. Pointers into memory that cannot vanish
 *     under a correct caller -- the calling thread's stack above its
 *     current frame, glibc's brk heap -- are copied directly, which keeps
 *     an ioctl cheaper than a system call (docs/kfdsim.md).
 *   - The model never calls the libc functions a preload shim interposes
 *     (open, close, ioctl, mmap, fstat, read, write, ...): it uses raw
 *     system calls, so it is safe to call from inside the shim's wrappers.
 *   - All functions are thread-safe. One device per process is the normal
 *     case; several devices (tests) are independent.
 *
 * File descriptors
 *   Each model file is backed by one real fd that the model creates when the
 *   file is opened (a memfd; it stands for the device file and is what
 *   dup(), fork() and SCM_RIGHTS carry around). The fd belongs to the
 *   caller: the shim returns it from open() and closes it in close().
 *   ksim_file_from_fd() recognises any fd referring to the same open file.
 *   Fds the kernel would create (EXPORT_DMABUF, PRIME_HANDLE_TO_FD,
 *   SMI_EVENTS) are created by the model as real fds at the lowest free
 *   number, and belong to the application. The model's own fds (BO memfds,
 *   doorbell and event pages, the registry) sit at high numbers (from half
 *   of RLIMIT_NOFILE) and are close-on-exec. BO contents live in memfds, so a
 *   CPU mapping via the render node or /dev/kfd, an exported dmabuf and an
 *   import in another process all see the same bytes.
 *
 * Processes, fork and the shared machine
 *   KFD state is per process (per mm), created at the first open of
 *   /dev/kfd and shared by every kfd file of the process, as in the kernel.
 *   A kfd file used by another process (the child after fork) answers every
 *   ioctl with -EBADF. The model notices fork by itself (pthread_atfork);
 *   call ksim_notify_fork_child() from a raw clone() child.
 *   When the environment variable KFDSIM_MACHINE (or ksim_opts.machine)
 *   names a machine, the state that crosses processes (VRAM and system
 *   memory accounting, exported dmabufs and their metadata, each GPU's
 *   SDMA queue slots, the rocm flavour's IPC handles, the process list)
 *   lives in a shared registry, /dev/shm/kfdsim-<machine>, so all
 *   processes of one simulated machine see one device. `kfdtrace sim`
 *   makes one machine per run (ksim_machine_begin() below).
 */
#ifndef KSIM_H
#define KSIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ksim_profile.h"
#include <kfdtrace/schema.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The KFD ABI minors the model can emulate (reported by GET_VERSION). */
#define KSIM_ABI_MINOR_MIN	1
#define KSIM_ABI_MINOR_MAX	23
#define KSIM_ABI_MINOR_DEFAULT	23

/* Environment variables the model reads (only when opts leave them unset). */
#define KSIM_ENV_MACHINE	"KFDSIM_MACHINE"	/* shared registry key */
#define KSIM_ENV_SHM_DIR	"KFDSIM_SHM_DIR"	/* machines' directory, /dev/shm */
#define KSIM_ENV_ABI_MINOR	"KFDSIM_ABI_MINOR"	/* e.g. "11" */
#define KSIM_ENV_KERNEL		"KFDSIM_KERNEL"		/* "upstream" or "rocm" */
#define KSIM_ENV_FAULTS		"KFDSIM_FAULTS"		/* fault mode, see below */
#define KSIM_ENV_IOCTL_COUNT	"KFDSIM_IOCTL_COUNT"	/* file counting answered ioctls */

/*
 * Kernel flavours. Upstream Linux answers the ROCm-only ioctls 0x80..0x87
 * with EINVAL; AMD's ROCm DKMS driver (amdgpu-dkms) implements some of
 * them, and Debian's libhsakmt 5.2.3 shares memory between processes with
 * two of them (IPC_IMPORT_HANDLE 0x80, IPC_EXPORT_HANDLE 0x81).
 */
enum ksim_kernel {
	KSIM_KERNEL_DEFAULT = 0,	/* opts: environment, profile, upstream */
	KSIM_KERNEL_UPSTREAM,
	KSIM_KERNEL_ROCM,		/* + IPC export/import of KFD BOs */
};

/* ksim_opts.flags */
#define KSIM_OPT_PRIVATE	0x1	/* ignore KFDSIM_MACHINE: no sharing */
#define KSIM_OPT_NO_SVM		0x2	/* kernel without CONFIG_HSA_AMD_SVM */

struct ksim_opts {
	/* KFD ABI minor to emulate, KSIM_ABI_MINOR_MIN..MAX; 0: the
	 * KFDSIM_ABI_MINOR environment variable ("11" or "1.11"), else the
	 * default. Gates ioctls (newer ones answer -ENOTTY) and semantics
	 * (ring-size clamp and queue buffer checks from 16, SDMA_BY_ENG_ID
	 * from 17, GEM_VA on KFD VMs from 15, event age from 14, ...). */
	unsigned int abi_minor;
	/* Shared-registry machine key ([A-Za-z0-9_.-], ≤ 64 chars); NULL:
	 * KFDSIM_MACHINE; unset or "": the device is private to the process. */
	const char *machine;
	unsigned int flags;	/* KSIM_OPT_* */
	/* Kernel flavour (enum ksim_kernel); KSIM_KERNEL_DEFAULT: the
	 * KFDSIM_KERNEL environment variable, else the profile's `kernel`
	 * key, else upstream. */
	unsigned int kernel;
	/* Fault mode rules (ksim_faults_check_spec()); NULL: the
	 * KFDSIM_FAULTS environment variable; "": none. */
	const char *faults;
};

/*
 * ksim_faults_check_spec() - check a fault mode spec, the value of
 * KFDSIM_FAULTS (docs/kfdsim.md): NAME:WHICH:EFFECT[:EFFECT] rules in the
 * common fault-spec grammar (kfdtrace/common/faultspec.h, docs/tracer.md
 * "Fault specs"), separated by ',' or ';', that make chosen ioctls fail
 * or return late; at most 64.
 *
 *	NAME	a schema name ("ALLOC_MEMORY_OF_GPU", "wait_events",
 *		"AMDGPU_INFO"), or "*" for every /dev/kfd ioctl
 *	WHICH	N (the Nth matching call, from 1), N+C (C calls from the Nth),
 *		N+* (all from the Nth) or * (all); counted per rule, per process
 *	EFFECT	an errno (name or number): the call fails before the device
 *		sees it, its argument untouched; delay=T (T with ns, us, ms or
 *		s): answered as usual, returned T later. NAME:WHICH:delay=T:ERRNO
 *		waits, then fails.
 *
 * e.g. "ALLOC_MEMORY_OF_GPU:3:ENOMEM,WAIT_EVENTS:*:delay=50ms".
 * @msg:	receives what is wrong with it, "rule N, column C: 'TEXT': why"
 *		(may be NULL)
 *
 * Return: 0 (NULL and "" are valid: no rules), -EINVAL, -ENOMEM.
 */
int ksim_faults_check_spec(const char *spec, char *msg, size_t msglen);

/*
 * ksim_kernel_parse() - a kernel flavour name.
 * @name:	"upstream" or "rocm"
 *
 * Return: KSIM_KERNEL_UPSTREAM or KSIM_KERNEL_ROCM, or -EINVAL for any
 * other string (NULL included).
 */
int ksim_kernel_parse(const char *name);

/*
 * Machines: the lifetime of a shared registry.
 *
 * A machine's state file, /dev/shm/kfdsim-<id> (KFDSIM_SHM_DIR, an absolute
 * path, names another directory), is held (a shared flock())
 * by every process that has the machine open, and names the process that
 * made it (pid and start time). A file that no live process holds and
 * whose maker is gone is stale: it is reclaimed, with a message, by the
 * next ksim_machine_begin() and by the next process that opens that
 * machine. A file under that name that is not a state file of this kfdsim
 * (symbolic link, not a regular file, another user's, wrong size, magic or
 * version) is refused, or reclaimed when nobody uses it. Every such message
 * is one line on stderr: "kfdsim[pid]: /dev/shm/kfdsim-<id>: <reason>: ...".
 * A machine's first device binds it to its profile's GPUs; a device with
 * other GPUs is refused on it (ksim_device_create() fails, -EINVAL).
 */
#define KSIM_MACHINE_ID_MAX	64

struct ksim_machine;

/*
 * ksim_machine_name_check() - whether @id can name a machine:
 * [A-Za-z0-9_.-], 1 to KSIM_MACHINE_ID_MAX characters, not starting with '.'.
 *
 * Return: 0 or -EINVAL.
 */
int ksim_machine_name_check(const char *id);

/*
 * ksim_machine_path() - the state file of machine @id, /dev/shm/kfdsim-<id>.
 *
 * Return: 0, -EINVAL (a bad name) or -ENAMETOOLONG (@len too small).
 */
int ksim_machine_path(const char *id, char *buf, size_t len);

/*
 * ksim_machine_begin() - start a run on a machine (what `kfdtrace sim` does
 * before it starts its command). First reclaims every stale state file of
 * this user in /dev/shm (ksim_machine_reclaim()).
 * @id:		a named machine to join, made when there is none; NULL: a new
 *		machine for this run alone, "run-<pid>-<16 hex digits>", a
 *		random name no other user can take first (a name that exists
 *		is never used: another is drawn)
 * @err:	a negative errno on failure (a message says why); may be NULL
 *
 * The caller puts ksim_machine_id() in KFDSIM_MACHINE for the processes of
 * the run; its handle holds the machine until ksim_machine_end(). A process
 * forked from the caller shares the handle's lock until it execs.
 *
 * Return: the handle, or NULL.
 */
struct ksim_machine *ksim_machine_begin(const char *id, int *err);

/* ksim_machine_id() - the machine's name (for KFDSIM_MACHINE). */
const char *ksim_machine_id(const struct ksim_machine *m);

/* ksim_machine_file() - its state file, /dev/shm/kfdsim-<id>. */
const char *ksim_machine_file(const struct ksim_machine *m);

/*
 * ksim_machine_end() - the run is over: a run's own machine is removed
 * (a process of the run that lives on keeps its mapping, but no new process
 * joins it), a named machine is removed when no other process uses it.
 * Frees @m (NULL: nothing).
 */
void ksim_machine_end(struct ksim_machine *m);

/*
 * ksim_machine_reclaim() - remove this user's stale machine state files
 * from /dev/shm, each with a message. Files of another kfdsim version are
 * left to the next process that opens that machine (an older kfdsim held
 * no lock, so whether it is in use cannot be told).
 *
 * Return: how many were removed, or a negative errno (no /dev/shm).
 */
int ksim_machine_reclaim(void);

/*
 * System suspend and resume (pm.c). A real system suspend runs KFD's part
 * of amdgpu's suspend path (kgd2kfd_suspend): every process's queues are
 * evicted, their state saved, and restored on resume; events, memory and
 * doorbells stay. Here the engines of every process of the machine stop at
 * a packet boundary and wait; a doorbell rung meanwhile is served after
 * the resume. Both calls act from outside the machine's processes.
 */

/*
 * ksim_machine_suspend() - suspend machine @id and wait up to @wait_ms for
 * every engine to stop (those of processes that have ended are not waited
 * for).
 * @procs:	receives how many processes the machine has; may be NULL
 *
 * Return: 0 once every engine has stopped; -ENOENT no such machine,
 * -EALREADY already suspended, -ETIMEDOUT an engine is still in a pass
 * after @wait_ms (the machine stays suspended: it stops there), or
 * another negative errno.
 */
int ksim_machine_suspend(const char *id, unsigned int wait_ms,
			 unsigned int *procs);

/*
 * ksim_machine_resume() - resume machine @id: its engines go on where
 * they stopped, with the work announced meanwhile.
 *
 * Return: 0; -ENOENT no such machine, -EALREADY not suspended, or another
 * negative errno.
 */
int ksim_machine_resume(const char *id);

struct ksim_device;
struct ksim_file;

/*
 * ksim_device_create() - build a device from a profile.
 * @prof:	the machine (copied; the caller may free it afterwards)
 * @opts:	options, or NULL for defaults
 * @err:	set to a negative errno on failure (-EINVAL bad profile,
 *		options or fault spec, or a machine with other GPUs, -ENOMEM,
 *		or the machine's state file refused or not opened: -EPERM,
 *		-ELOOP, -EINVAL, ..., with a message on stderr, see Machines
 *		above); may be NULL
 *
 * Also raises RLIMIT_NOFILE's soft limit towards the hard limit, since
 * every BO holds a memfd (placed at high fd numbers, so the application's
 * own fd numbers stay what they would be on real hardware).
 *
 * Return: the device, or NULL.
 */
struct ksim_device *ksim_device_create(const struct ksim_profile *prof,
				       const struct ksim_opts *opts, int *err);

/*
 * ksim_device_destroy() - free a device and every process/file state in it,
 * releasing this process's shared accounting. Files become invalid.
 */
void ksim_device_destroy(struct ksim_device *dev);

/* ksim_device_profile() - the device's (immutable) copy of its profile. */
const struct ksim_profile *ksim_device_profile(const struct ksim_device *dev);

/* ksim_device_abi_minor() - the ABI minor being emulated. */
unsigned int ksim_device_abi_minor(const struct ksim_device *dev);

/* ksim_device_kernel() - the kernel flavour (KSIM_KERNEL_UPSTREAM/ROCM). */
unsigned int ksim_device_kernel(const struct ksim_device *dev);

/*
 * ksim_open_kfd() - open /dev/kfd (kfd_open). The first open in a process
 * creates its KFD process state: one per-device entry for every GPU,
 * apertures filled in, event id 0 reserved.
 * @oflags:	the open() flags; O_CLOEXEC is applied to the backing fd
 * @err:	set to a negative errno on failure; may be NULL
 *
 * Return: the file, or NULL.
 */
struct ksim_file *ksim_open_kfd(struct ksim_device *dev, int oflags, int *err);

/*
 * ksim_open_render() - open /dev/dri/renderD<minor>.
 * @minor:	the render minor (a GPU's drm_render_minor)
 * @err:	-ENOENT for a minor no GPU has; -ENOMEM, -EMFILE
 *
 * Return: the file, or NULL.
 */
struct ksim_file *ksim_open_render(struct ksim_device *dev,
				   unsigned int minor, int oflags, int *err);

/* ksim_file_fd() - the real fd created for the file at open. */
int ksim_file_fd(const struct ksim_file *f);

/* ksim_file_kind() - KFD_FILE_KFD or KFD_FILE_RENDER. */
enum kfd_file_kind ksim_file_kind(const struct ksim_file *f);

/* ksim_file_render_minor() - the render minor, or 0 for a kfd file. */
unsigned int ksim_file_render_minor(const struct ksim_file *f);

/* ksim_file_owner() - pid of the process that opened the file. */
pid_t ksim_file_owner(const struct ksim_file *f);

/*
 * ksim_file_from_fd() - the model file an fd refers to (any dup of the fd
 * ksim_file_fd() returned, in this process). One statx system call.
 *
 * Return: the file, or NULL if @fd is no model file of @dev.
 */
struct ksim_file *ksim_file_from_fd(struct ksim_device *dev, int fd);

/*
 * ksim_release() - the kernel's release(): call when the last fd referring
 * to the file is closed. Does not close any fd. A kfd file only drops its
 * reference (the process state lives until the process exits, as KFD's);
 * a render file frees its GEM handles and, if a KFD VM was acquired on it,
 * keeps the VM alive for KFD.
 */
void ksim_release(struct ksim_file *f);

/*
 * ksim_ioctl() - answer an ioctl on a model file.
 * @request:	the full request code as the application passed it; its
 *		_IOC_SIZE is the copy length (old, short structs work; SVM's
 *		attributes ride in the size bits)
 * @arg:	the application's argument pointer (untrusted)
 *
 * KFD files follow kfd_ioctl(): unknown nr -> -ENOTTY (the ROCm-only
 * 0x80..0x87 -> -EINVAL, as upstream answers; the rocm flavour answers
 * IPC_IMPORT_HANDLE and IPC_EXPORT_HANDLE as amdgpu-dkms does, with the
 * handles in the machine registry), a file of another process
 * -> -EBADF, out-args copied back even when the handler fails; ioctls newer
 * than the emulated ABI minor answer as an older kernel would. WAIT_EVENTS
 * blocks the calling thread (with the device unlocked); a signal does not
 * cut it short. Render files follow drm_ioctl() and the amdgpu driver
 * table; render-allowed ioctls the model does not simulate (command
 * submission, contexts, syncobjs) answer -ENOSYS.
 *
 * Return: the handler's result: 0, a positive value (DBG_TRAP suspend and
 * resume, SVM's unknown-op quirk), or a negative errno.
 */
int ksim_ioctl(struct ksim_file *f, unsigned long request, void *arg);

/* What ksim_mmap() tells the caller to map. */
struct ksim_map {
	int fd;			/* a new fd to mmap; the caller closes it
				 * after mmap() (the mapping keeps the memory) */
	uint64_t offset;	/* file offset to pass to mmap() */
	int flags;		/* KSIM_MAP_* */
};

/* ksim_map.flags */
#define KSIM_MAP_UNCACHED	0x1	/* doorbell/MMIO: device memory */
#define KSIM_MAP_DOORBELL	0x2	/* a doorbell page: pass the mapping
					 * to ksim_notify_mapped() */

/*
 * ksim_mmap() - resolve an mmap() of a model file (kfd_mmap, drm_gem_mmap).
 * @offset:	the mmap offset the application passed
 * @len:	the mapping length
 * @prot:	PROT_* of the request
 * @flags:	MAP_* of the request
 * @out:	where to map from
 *
 * /dev/kfd (the caller's KFD process, as kfd_mmap): doorbell (length must
 * be the process doorbell slice), events (the page-order check: 16 KiB <
 * len ≤ 32 KiB; mapping it raises the signal-event limit to len/8), MMIO
 * remap (one page) and reserved-mem (two pages) offsets, with the kernel's
 * errno (-ENODEV unknown GPU, -EINVAL bad length or no events page). Render
 * node: a GEM fake offset (≥ 4 GiB) of a BO this file may access, length
 * within the BO (else -EINVAL), a BO this file may access (else -EACCES),
 * not a userptr BO (else -EPERM). Invisible VRAM may be mapped (the
 * thunk maps it PROT_NONE, MAP_PRIVATE).
 *
 * The caller maps @out->fd at @out->offset with its own prot/flags/address;
 * MAP_PRIVATE mappings of BO memory get private copies, as with a real BO.
 *
 * Return: 0 with @out filled, or a negative errno.
 */
int ksim_mmap(struct ksim_file *f, uint64_t offset, size_t len, int prot,
	      int flags, struct ksim_map *out);

/*
 * ksim_notify_mapped() - the caller mapped what ksim_mmap() answered for
 * the same @f and @offset at [addr, addr+len), with mmap() @flags. Needed
 * for a KSIM_MAP_DOORBELL answer (others are ignored): an idle engine
 * blocks, and a store into a shared doorbell mapping the model was told of
 * wakes it; a store into another one is seen only once something else
 * wakes the engine.
 * Call before the mapping can be stored to.
 */
void ksim_notify_mapped(struct ksim_file *f, uint64_t offset, void *addr,
			size_t len, int flags);

/* ksim_idle_mode() answers */
#define KSIM_IDLE_POLL	0	/* an idle engine sleeps and looks again */
#define KSIM_IDLE_UFFD	1	/* an idle engine blocks; doorbell stores
				 * (userfaultfd write-protect) wake it */

/*
 * ksim_idle_mode() - how the calling process's idle engine waits for work.
 * KSIM_IDLE_POLL until a doorbell mapping was registered; KSIM_IDLE_POLL
 * for good where the host refused userfaultfd (KFDSIM_DEBUG says why) or
 * with KFDSIM_IDLE=poll. Return: KSIM_IDLE_*, or -ESRCH without a KFD
 * process.
 */
int ksim_idle_mode(struct ksim_device *dev);

/*
 * ksim_notify_mremap() - the application moved [old, old+old_len) to
 * [new, new+new_len) (mremap() with a new address): as
 * ksim_notify_munmap() for the old place, and a doorbell mapping moved
 * keeps waking the engine from the new one.
 */
void ksim_notify_mremap(struct ksim_device *dev, uint64_t old, uint64_t old_len,
			uint64_t new_addr, uint64_t new_len);

/*
 * ksim_notify_fork_child() - tell the model it runs in a new child process.
 * Only needed after a raw clone() that bypassed pthread_atfork handlers.
 */
void ksim_notify_fork_child(void);

/*
 * ksim_notify_munmap() - the application unmapped [addr, addr+len). SVM
 * ranges inside are dropped, as the kernel's MMU notifier does, and so
 * are doorbell mappings (ksim_notify_mapped()). Call after
 * a successful munmap()/mremap() away; without it ranges outlive their pages.
 */
void ksim_notify_munmap(struct ksim_device *dev, uint64_t addr, uint64_t len);

/* Per-process, per-GPU facts for /sys/class/kfd/kfd/proc/<pid>/. */
struct ksim_proc_gpu {
	uint32_t gpu_id;
	uint64_t vram_used;		/* vram_<gpu_id> */
	uint32_t n_queues;		/* user queues on this GPU */
	uint32_t vm_acquired;
};

struct ksim_proc_info {
	pid_t pid;
	uint32_t pasid;
	uint32_t xnack_enabled;
	uint32_t runtime_enabled;
	unsigned int n_gpus;
	struct ksim_proc_gpu gpus[16];
	/* Queue ids in use, ascending. */
	unsigned int n_queue_ids;
	uint32_t queue_ids[1024];
};

/*
 * ksim_proc_query() - the calling process's KFD state.
 *
 * Return: 0, or -ESRCH if the process has not opened /dev/kfd.
 */
int ksim_proc_query(struct ksim_device *dev, struct ksim_proc_info *out);

#ifdef __cplusplus
}
#endif

#endif /* KSIM_H */
