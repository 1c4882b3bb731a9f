/* SPDX-License-Identifier: MIT */
/*
 * SVM ranges and the CPU's address space, through the preloaded shim: the
 * kernel's MMU notifier drops an SVM range whose pages go away, by munmap,
 * by an mmap(MAP_FIXED) over them or by an mremap that moves or shrinks
 * them, and a BO may then take those addresses. While the range is there,
 * an ALLOC at its addresses fails with EADDRINUSE.
 * Runs preloaded (KFDSIM_PROFILE = data/refmi210.profile), libc only.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "kfdtrace/kfd_abi.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"
#define MB (1ull << 20)

static int kfd = -1, drm = -1;
static uint32_t gpu;

static int
setup(void **state)
{
	struct kfd_abi_acquire_vm_args acq;
	unsigned int minor = 0;
	char path[128], line[128];
	FILE *f;

	(void)state;
	/* Node 0 is the CPU on every profile; node 1 the first GPU. */
	f = fopen(TOPO "/1/gpu_id", "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%u", &gpu), 1);
	fclose(f);
	f = fopen(TOPO "/1/properties", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		sscanf(line, "drm_render_minor %u", &minor);
	fclose(f);
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	assert_true(kfd >= 0 && drm >= 0);
	acq.drm_fd = (uint32_t)drm;
	acq.gpu_id = gpu;
	assert_int_equal(ioctl(kfd, KFD_ABI_IOC_ACQUIRE_VM, &acq), 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	close(drm);
	close(kfd);
	return 0;
}

/* A 4 MiB anonymous mapping, registered as one SVM range. */
static char *
svm_range(void)
{
	struct {
		struct kfd_abi_svm_args a;
		struct kfd_abi_svm_attribute at[1];
	} s;
	char *mem = mmap(NULL, 4 * MB, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(mem != MAP_FAILED);
	memset(&s, 0, sizeof(s));
	s.a.start_addr = (uint64_t)(uintptr_t)mem;
	s.a.size = 4 * MB;
	s.a.op = KFD_ABI_SVM_OP_SET_ATTR;
	s.a.nattr = 1;
	s.at[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	s.at[0].value = gpu;
	assert_int_equal(ioctl(kfd, KFD_ABI_IOC_SVM_NATTR(1), &s), 0);
	return mem;
}

/* ALLOC a 64 KiB VRAM BO at @va: 0 (and freed again) or -errno. */
static int
alloc_at(const char *va)
{
	struct kfd_abi_alloc_memory_of_gpu_args a = {
		.va_addr = (uint64_t)(uintptr_t)va, .size = 64 << 10,
		.gpu_id = gpu,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
	};
	struct kfd_abi_free_memory_of_gpu_args fr;

	if (ioctl(kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a) < 0)
		return -errno;
	fr.handle = a.handle;
	assert_int_equal(ioctl(kfd, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr), 0);
	return 0;
}

static void
test_munmap(void **state)
{
	char *m = svm_range();

	(void)state;
	assert_int_equal(alloc_at(m + MB), -EADDRINUSE);
	assert_int_equal(munmap(m, 2 * MB), 0);
	/* The unmapped half is free; the rest is still the range's. */
	assert_int_equal(alloc_at(m + MB), 0);
	assert_int_equal(alloc_at(m + 3 * MB), -EADDRINUSE);
	assert_int_equal(munmap(m + 2 * MB, 2 * MB), 0);
	assert_int_equal(alloc_at(m + 3 * MB), 0);
}

static void
test_map_fixed(void **state)
{
	char *m = svm_range();

	(void)state;
	assert_true(mmap(m + 2 * MB, 2 * MB, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == m + 2 * MB);
	assert_int_equal(alloc_at(m + 3 * MB), 0);
	assert_int_equal(alloc_at(m + MB), -EADDRINUSE);
	/* A failed MAP_FIXED_NOREPLACE replaced nothing. */
	assert_true(mmap(m, MB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
			 MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED);
	assert_int_equal(alloc_at(m + MB), -EADDRINUSE);
	munmap(m, 4 * MB);
}

static void
test_mremap(void **state)
{
	char *m = svm_range(), *moved;

	(void)state;
	/* Shrunk: the tail is gone. */
	assert_true(mremap(m, 4 * MB, 2 * MB, 0) == m);
	assert_int_equal(alloc_at(m + 3 * MB), 0);
	assert_int_equal(alloc_at(m + MB), -EADDRINUSE);
	/* Moved: the old place is free. */
	moved = mremap(m, 2 * MB, 2 * MB, MREMAP_MAYMOVE | MREMAP_FIXED, m + 2 * MB);
	assert_true(moved == m + 2 * MB);
	assert_int_equal(alloc_at(m + MB), 0);
	munmap(moved, 2 * MB);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_munmap),
		cmocka_unit_test(test_map_fixed),
		cmocka_unit_test(test_mremap),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
