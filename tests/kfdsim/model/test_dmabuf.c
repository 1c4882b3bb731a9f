/* SPDX-License-Identifier: MIT */
/* dma-bufs: export/import/info in one process, metadata from GEM_METADATA,
 * and across processes through the machine registry (fd passed on). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktest.h"

#define MIB (1ULL << 20)

static int
export(struct kt *t, uint64_t handle, uint32_t flags, int *fd)
{
	struct kfd_abi_export_dmabuf_args e = { .handle = handle, .flags = flags };
	int r = ksim_ioctl(t->kfd, KFD_ABI_IOC_EXPORT_DMABUF, &e);

	*fd = (int)e.dmabuf_fd;
	return r;
}

static void
test_same_process(void **state)
{
	struct kt *t = *state;
	uint64_t h, off, h2;
	int fd, err, null_fd = open("/dev/null", O_RDONLY);
	char *cpu, *viabuf;
	struct kfd_abi_get_dmabuf_info_args gi;
	struct kfd_abi_import_dmabuf_args im;

	assert_int_equal(kt_alloc(t, 0, 0, 2 * MIB, KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
				  KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC, &h, &off), 0);
	cpu = kt_cpu_map(t->rnd[0], off, 2 * MIB, &err);
	assert_non_null(cpu);
	strcpy(cpu, "exported bytes");
	assert_int_equal(export(t, h, O_CLOEXEC, &fd), 0);
	assert_true(fd > 2);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	viabuf = mmap(NULL, 2 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(viabuf != MAP_FAILED);
	assert_string_equal(viabuf, "exported bytes");
	strcpy(viabuf + 100, "written back");
	assert_string_equal(cpu + 100, "written back");
	memset(&gi, 0, sizeof(gi));
	gi.dmabuf_fd = (uint32_t)fd;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &gi), 0);
	assert_int_equal(gi.size, 2 * MIB);
	assert_int_equal(gi.gpu_id, t->gpu_id[0]);
	assert_int_equal(gi.flags, KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC);
	assert_int_equal(gi.metadata_size, 0);
	memset(&im, 0, sizeof(im));
	im.gpu_id = t->gpu_id[0];
	im.dmabuf_fd = (uint32_t)fd;
	im.va_addr = 0x500000000ULL;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_IMPORT_DMABUF, &im), 0);
	assert_int_equal(im.handle, ((uint64_t)t->gpu_id[0] << 32) | 1);
	{
		unsigned int g0 = 0;
		uint32_t ns;

		assert_int_equal(kt_map(t, im.handle, &g0, 1, &ns), 0);
		assert_int_equal(kt_unmap(t, im.handle, &g0, 1, &ns), 0);
	}
	/* bad fds */
	gi.dmabuf_fd = 4000;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &gi), -EBADF);
	gi.dmabuf_fd = (uint32_t)null_fd;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &gi), -EINVAL);
	im.dmabuf_fd = (uint32_t)null_fd;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_IMPORT_DMABUF, &im), -EINVAL);
	im.dmabuf_fd = (uint32_t)fd;
	im.gpu_id = 5;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_IMPORT_DMABUF, &im), -EINVAL);
	/* export errors */
	assert_int_equal(export(t, h + 7, 0, &err), -EINVAL);
	assert_int_equal(export(t, 0x55ULL << 32, 0, &err), -EINVAL);
	{
		void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t uoff = (uintptr_t)mem;

		assert_int_equal(kt_alloc(t, 0, 0x600000000ULL, 4096,
					  KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, &h2, &uoff), 0);
		assert_int_equal(export(t, h2, 0, &err), -EPERM);
		munmap(mem, 4096);
	}
	/* doorbell and MMIO BOs have a page, but it is not exportable */
	assert_int_equal(kt_alloc(t, 0, 0x700000000ULL, 8192,
				  KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL, &h2, NULL), 0);
	assert_int_equal(export(t, h2, 0, &err), -EINVAL);
	assert_int_equal(kt_alloc(t, 0, 0x710000000ULL, 4096,
				  KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP, &h2, NULL), 0);
	assert_int_equal(export(t, h2, 0, &err), -EINVAL);
	munmap(viabuf, 2 * MIB);
	munmap(cpu, 2 * MIB);
	close(fd);
	close(null_fd);
}

static void
test_gem_metadata_and_prime(void **state)
{
	struct kt *t = *state;
	union kfd_drm_amdgpu_gem_create c;
	struct kfd_drm_amdgpu_gem_metadata md;
	struct kfd_drm_prime_handle ph;
	struct kfd_abi_get_dmabuf_info_args gi;
	uint32_t meta[64], h1;
	struct ksim_file *other;
	int err;

	memset(&c, 0, sizeof(c));
	c.in.bo_size = MIB;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	h1 = c.out.handle;
	assert_int_equal(h1, 1);
	memset(&md, 0, sizeof(md));
	md.handle = h1;
	md.op = KFD_DRM_AMDGPU_GEM_METADATA_OP_SET_METADATA;
	md.data.flags = 7;
	md.data.tiling_info = 0x1234;
	md.data.data_size_bytes = 12;
	md.data.data[0] = 0xaaaa;
	md.data.data[2] = 0xcccc;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, &md), 0);
	md.data.data_size_bytes = 257;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, &md), -EINVAL);
	memset(&md, 0, sizeof(md));
	md.handle = h1;
	md.op = KFD_DRM_AMDGPU_GEM_METADATA_OP_GET_METADATA;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, &md), 0);
	assert_int_equal(md.data.data_size_bytes, 12);
	assert_int_equal(md.data.tiling_info, 0x1234);
	assert_int_equal(md.data.data[2], 0xcccc);
	md.handle = 99;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, &md), -ENOENT);
	/* PRIME export, KFD GET_DMABUF_INFO returns the metadata */
	memset(&ph, 0, sizeof(ph));
	ph.handle = h1;
	ph.flags = 0x40000;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), -EINVAL);
	ph.flags = O_CLOEXEC | O_RDWR;
	ph.handle = 42;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), -ENOENT);
	ph.handle = h1;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), 0);
	memset(&gi, 0, sizeof(gi));
	gi.dmabuf_fd = (uint32_t)ph.fd;
	gi.metadata_ptr = (uintptr_t)meta;
	gi.metadata_size = 8;	/* too small: EINVAL, size still reported */
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &gi), -EINVAL);
	assert_int_equal(gi.size, MIB);
	gi.metadata_size = sizeof(meta);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &gi), 0);
	assert_int_equal(gi.metadata_size, 12);
	assert_int_equal(meta[0], 0xaaaa);
	assert_int_equal(gi.flags, KFD_ABI_ALLOC_MEM_FLAGS_GTT);
	gi.metadata_ptr = 16;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &gi), -EFAULT);
	/* FD_TO_HANDLE: same file -> same handle; another file -> its own */
	{
		struct kfd_drm_prime_handle back = { .fd = ph.fd };

		assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE, &back), 0);
		assert_int_equal(back.handle, h1);
		other = ksim_open_render(t->dev, 128, 0, &err);
		assert_non_null(other);
		back.handle = 0;
		assert_int_equal(ksim_ioctl(other, KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE, &back), 0);
		assert_int_equal(back.handle, 1);
		back.fd = 3000;
		assert_int_equal(ksim_ioctl(other, KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE, &back), -EBADF);
		close(ksim_file_fd(other));
		ksim_release(other);
	}
	close(ph.fd);
}

static int
child_side(const char *machine, int fd, uint64_t vram_taken)
{
	struct ksim_profile *prof = ksim_profile_builtin("mi210");
	struct ksim_opts o = { .machine = machine };
	struct ksim_device *dev;
	struct ksim_file *kfd, *rnd;
	struct kfd_abi_acquire_vm_args av;
	struct kfd_abi_get_dmabuf_info_args gi;
	struct kfd_abi_import_dmabuf_args im;
	struct kfd_abi_get_available_memory_args am;
	uint32_t meta[64];
	char *p;
	int err;

	dev = ksim_device_create(prof, &o, &err);
	if (!dev)
		return 10;
	kfd = ksim_open_kfd(dev, 0, &err);
	rnd = ksim_open_render(dev, 128, 0, &err);
	if (!kfd || !rnd)
		return 11;
	av.drm_fd = (uint32_t)ksim_file_fd(rnd);
	av.gpu_id = 43794;
	if (ksim_ioctl(kfd, KFD_ABI_IOC_ACQUIRE_VM, &av))
		return 12;
	memset(&gi, 0, sizeof(gi));
	gi.dmabuf_fd = (uint32_t)fd;
	gi.metadata_ptr = (uintptr_t)meta;
	gi.metadata_size = sizeof(meta);
	if (ksim_ioctl(kfd, KFD_ABI_IOC_GET_DMABUF_INFO, &gi))
		return 13;
	if (gi.size != 4 * MIB || gi.gpu_id != 43794 || gi.metadata_size != 4 ||
	    meta[0] != 0xfeed)
		return 14;
	memset(&im, 0, sizeof(im));
	im.gpu_id = 43794;
	im.dmabuf_fd = (uint32_t)fd;
	if (ksim_ioctl(kfd, KFD_ABI_IOC_IMPORT_DMABUF, &im) ||
	    im.handle != (43794ULL << 32))
		return 15;
	p = mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED || strcmp(p, "from the parent"))
		return 16;
	strcpy(p + 64, "from the child");
	/* one device: the parent's VRAM is gone here too */
	am.gpu_id = 43794;
	if (ksim_ioctl(kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &am))
		return 17;
	if (am.available != vram_taken)
		return 18;
	return 0;
}

static void
test_cross_process(void **state)
{
	const char *machine = ksim_machine_id(*state);
	struct kt t;
	struct ksim_opts o;
	union kfd_drm_amdgpu_gem_create c;
	struct kfd_drm_amdgpu_gem_metadata md;
	struct kfd_drm_prime_handle ph;
	struct kfd_abi_get_available_memory_args am;
	uint64_t h, big;
	char *p;
	pid_t pid;
	int status, err;

	memset(&t, 0, sizeof(t));
	t.prof = ksim_profile_builtin("mi210");
	memset(&o, 0, sizeof(o));
	o.machine = machine;
	t.dev = ksim_device_create(t.prof, &o, &err);
	assert_non_null(t.dev);
	t.kfd = ksim_open_kfd(t.dev, 0, &err);
	t.rnd[0] = ksim_open_render(t.dev, 128, 0, &err);
	t.gpu_id[0] = 43794;
	t.n_gpus = 1;
	assert_int_equal(kt_acquire(&t, 0), 0);
	/* a GEM BO with metadata, exported through PRIME */
	memset(&c, 0, sizeof(c));
	c.in.bo_size = 4 * MIB;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM;
	c.in.domain_flags = KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED;
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	memset(&md, 0, sizeof(md));
	md.handle = c.out.handle;
	md.op = KFD_DRM_AMDGPU_GEM_METADATA_OP_SET_METADATA;
	md.data.data_size_bytes = 4;
	md.data.data[0] = 0xbeef;
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, &md), 0);
	memset(&ph, 0, sizeof(ph));
	ph.handle = c.out.handle;
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), 0);
	/* metadata changed after export is what the importer sees */
	md.data.data[0] = 0xfeed;
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, &md), 0);
	p = mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED, ph.fd, 0);
	assert_true(p != MAP_FAILED);
	strcpy(p, "from the parent");
	/* and 1 GiB of KFD VRAM the child must see as used */
	assert_int_equal(kt_alloc(&t, 0, 0, 1ULL << 30, KFD_ABI_ALLOC_MEM_FLAGS_VRAM,
				  &h, NULL), 0);
	am.gpu_id = 43794;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &am), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_side(machine, ph.fd, am.available));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(p + 64, "from the child");
	/* a child that takes VRAM and dies gives it back */
	pid = fork();
	if (pid == 0) {
		struct ksim_device *d = ksim_device_create(t.prof, &o, &err);
		struct ksim_file *k = d ? ksim_open_kfd(d, 0, &err) : NULL;
		struct ksim_file *r = d ? ksim_open_render(d, 128, 0, &err) : NULL;
		struct kfd_abi_acquire_vm_args av;
		struct kfd_abi_alloc_memory_of_gpu_args al = {
			.size = 8ULL << 30, .gpu_id = 43794,
			.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM,
		};

		if (!k || !r)
			_exit(1);
		av.drm_fd = (uint32_t)ksim_file_fd(r);
		av.gpu_id = 43794;
		if (ksim_ioctl(k, KFD_ABI_IOC_ACQUIRE_VM, &av) ||
		    ksim_ioctl(k, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al))
			_exit(2);
		_exit(0);	/* no cleanup: the process just dies */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	big = am.available;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &am), 0);
	assert_int_equal(am.available, big);
	munmap(p, 4 * MIB);
	close(ph.fd);
	kt_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_process, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_gem_metadata_and_prime, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_cross_process, kt_machine_setup,
						kt_machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
