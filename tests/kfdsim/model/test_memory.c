/* SPDX-License-Identifier: MIT */
/* Memory ioctls: ACQUIRE_VM, ALLOC/FREE, MAP/UNMAP, accounting, CPU
 * mappings of BOs and of /dev/kfd offsets. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ktest.h"

#define VRAM	KFD_ABI_ALLOC_MEM_FLAGS_VRAM
#define GTT	KFD_ABI_ALLOC_MEM_FLAGS_GTT
#define PUBLIC	KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC
#define GIB	(1ULL << 30)
#define MIB	(1ULL << 20)

static void
test_acquire_vm(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_acquire_vm_args a;
	uint64_t h;
	int null_fd = open("/dev/null", O_RDWR);
	struct ksim_file *other;
	int err;

	/* nothing binds before ACQUIRE_VM */
	assert_int_equal(kt_alloc(t, 0, 0x10000000, 4096, GTT, &h, NULL), -ENODEV);
	a.gpu_id = t->gpu_id[0];
	a.drm_fd = 9999;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ACQUIRE_VM, &a), -EINVAL);
	a.drm_fd = (uint32_t)null_fd;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ACQUIRE_VM, &a), -EINVAL);
	a.drm_fd = (uint32_t)ksim_file_fd(t->kfd);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ACQUIRE_VM, &a), -EINVAL);
	a.drm_fd = (uint32_t)ksim_file_fd(t->rnd[0]);
	a.gpu_id = 0x1234;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ACQUIRE_VM, &a), -EINVAL);
	a.gpu_id = t->gpu_id[0];
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ACQUIRE_VM, &a), 0);
	/* idempotent with the same file, also through a dup of its fd */
	a.drm_fd = (uint32_t)dup(ksim_file_fd(t->rnd[0]));
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ACQUIRE_VM, &a), 0);
	close((int)a.drm_fd);
	/* another render file of the same GPU: busy */
	other = ksim_open_render(t->dev, 128, 0, &err);
	assert_non_null(other);
	a.drm_fd = (uint32_t)ksim_file_fd(other);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ACQUIRE_VM, &a), -EBUSY);
	close(ksim_file_fd(other));
	ksim_release(other);
	assert_int_equal(kt_alloc(t, 0, 0x10000000, 4096, GTT, &h, NULL), 0);
	close(null_fd);
}

static void
test_handles(void **state)
{
	struct kt t;
	uint64_t h[4];

	(void)state;
	assert_int_equal(kt_open(&t, "mi210x2", 0), 0);
	assert_int_equal(kt_acquire_all(&t), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(kt_alloc(&t, 0, 0, 4096, GTT, &h[i], NULL), 0);
		assert_int_equal(h[i], ((uint64_t)t.gpu_id[0] << 32) | (uint64_t)i);
	}
	/* each GPU has its own idr from 0 */
	assert_int_equal(kt_alloc(&t, 1, 0, 4096, VRAM, &h[3], NULL), 0);
	assert_int_equal(h[3], (uint64_t)t.gpu_id[1] << 32);
	/* the lowest free id is reused */
	assert_int_equal(kt_free(&t, h[1]), 0);
	assert_int_equal(kt_free(&t, h[0]), 0);
	assert_int_equal(kt_alloc(&t, 0, 0, 4096, GTT, &h[0], NULL), 0);
	assert_int_equal(h[0] & 0xffffffff, 0);
	assert_int_equal(kt_alloc(&t, 0, 0, 4096, GTT, &h[1], NULL), 0);
	assert_int_equal(h[1] & 0xffffffff, 1);
	/* freeing twice, or a handle of no GPU */
	assert_int_equal(kt_free(&t, h[2]), 0);
	assert_int_equal(kt_free(&t, h[2]), -EINVAL);
	assert_int_equal(kt_free(&t, 0x77770000ULL << 32), -EINVAL);
	kt_close(&t);
}

/* Open fds of this process (the model runs in it; it keeps its own high). */
static int
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/*
 * Thousands of handles: ids stay the lowest free ones however scattered
 * the holes (the idr index), and a BO nobody maps or exports holds no
 * backing file (created on first use).
 */
static void
test_many_handles(void **state)
{
	static uint64_t h[5000];
	const unsigned int holes[] = { 4999, 63, 4097, 64, 100, 0 };
	struct kt t_many;
	uint64_t off, extra;
	int fds, err;
	char *a;

	(void)state;
	assert_int_equal(kt_open(&t_many, "mi210x2", 0), 0);
	assert_int_equal(kt_acquire_all(&t_many), 0);
	fds = count_fds();
	for (unsigned int i = 0; i < 5000; i++) {
		assert_int_equal(kt_alloc(&t_many, 0, 0, 4096, GTT, &h[i], NULL), 0);
		assert_int_equal(h[i] & 0xffffffff, i);
	}
	/* No backing file per BO until someone needs its pages. */
	assert_int_equal(count_fds(), fds);
	for (unsigned int i = 0; i < 6; i++)
		assert_int_equal(kt_free(&t_many, h[holes[i]]), 0);
	/* Refilled from the lowest hole up, then past the end. */
	{
		const unsigned int want[] = { 0, 63, 64, 100, 4097, 4999, 5000 };

		for (unsigned int i = 0; i < 7; i++) {
			assert_int_equal(kt_alloc(&t_many, 0, 0, 4096, GTT, &extra,
						  i < 6 ? NULL : &off), 0);
			assert_int_equal(extra & 0xffffffff, want[i]);
		}
	}
	/* The first mapping creates the pages, and they are shared. */
	a = kt_cpu_map(t_many.rnd[0], off, 4096, &err);
	assert_non_null(a);
	strcpy(a, "bytes");
	assert_int_equal(count_fds(), fds + 1);
	munmap(a, 4096);
	a = kt_cpu_map(t_many.rnd[0], off, 4096, &err);
	assert_non_null(a);
	assert_string_equal(a, "bytes");
	munmap(a, 4096);
	kt_close(&t_many);
	assert_true(count_fds() < fds);
}

static void
test_alloc_errors(void **state)
{
	struct kt *t = *state;
	uint64_t h, off;
	long pg = sysconf(_SC_PAGESIZE);
	void *mem, *gone;
	int err;

	assert_int_equal(kt_alloc(t, 0, 0x1000000, 0, GTT, &h, NULL), -EINVAL);
	assert_int_equal(kt_alloc(t, 0, 0x1000000, 4096, 0, &h, NULL), -EINVAL);
	{
		struct kfd_abi_alloc_memory_of_gpu_args a = {
			.size = 4096, .gpu_id = 0x4242, .flags = GTT,
		};

		assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a),
				 -EINVAL);
	}
	/* userptr: mmap_offset is the CPU address and must be mapped */
	off = 0;
	assert_int_equal(kt_alloc(t, 0, 0x1000000, 4096,
				  KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, &h, &off), -EINVAL);
	gone = mmap(NULL, 2 * (size_t)pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, 2 * (size_t)pg);
	off = (uintptr_t)gone;
	assert_int_equal(kt_alloc(t, 0, 0x1000000, (uint64_t)pg,
				  KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, &h, &off), -EFAULT);
	mem = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	off = (uintptr_t)mem;
	assert_int_equal(kt_alloc(t, 0, 0x1000000, 2 * (uint64_t)pg,
				  KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, &h, &off), 0);
	/* userptr BOs have no CPU mapping of their own */
	assert_null(kt_cpu_map(t->rnd[0], off, (size_t)pg, &err));
	assert_int_equal(err, -EPERM);
	munmap(mem, 2 * (size_t)pg);
	/* doorbell: exactly the process doorbell slice (8 KiB on SOC15) */
	assert_int_equal(kt_alloc(t, 0, 0, 4096, KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL,
				  &h, NULL), -EINVAL);
	assert_int_equal(kt_alloc(t, 0, 0x2000000, 8192, KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL,
				  &h, NULL), 0);
	/* MMIO remap: one page, mapped through /dev/kfd */
	assert_int_equal(kt_alloc(t, 0, 0, 8192, KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP,
				  &h, NULL), -EINVAL);
	assert_int_equal(kt_alloc(t, 0, 0x3000000, 4096, KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP,
				  &h, &off), 0);
	assert_int_equal(off, KFD_ABI_MMAP_TYPE_MMIO |
				 ((uint64_t)t->gpu_id[0] << KFD_ABI_MMAP_GPU_ID_SHIFT));
	mem = kt_cpu_map(t->kfd, off, 4096, &err);
	assert_non_null(mem);
	munmap(mem, 4096);
	/* render-node offsets are fake offsets ≥ 4 GiB, page aligned */
	off = 0;
	assert_int_equal(kt_alloc(t, 0, 0x4000000, 12345, GTT, &h, &off), 0);
	assert_true(off >= (1ULL << 32));
	assert_int_equal(off & 4095, 0);
}

static void
test_small_bar(void **state)
{
	struct kt t;
	uint64_t h;

	(void)state;
	assert_int_equal(kt_open(&t, "rx6900xt", 0), 0);
	assert_int_equal(kt_acquire_all(&t), 0);
	assert_int_equal(kt_alloc(&t, 0, 0, 4096, VRAM | PUBLIC, &h, NULL), -EINVAL);
	assert_int_equal(kt_alloc(&t, 0, 0, 4096, VRAM, &h, NULL), 0);
	kt_close(&t);
}

static uint64_t
available(struct kt *t, unsigned int gpu)
{
	struct kfd_abi_get_available_memory_args a = { .gpu_id = t->gpu_id[gpu] };

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &a), 0);
	return a.available;
}

static void
test_vram_accounting(void **state)
{
	struct kt *t = *state;
	const struct ksim_gpu *g = t->prof->nodes[1].gpu;
	uint64_t start = available(t, 0), h, handles[64];
	unsigned int n = 0;
	uint64_t chunk = 8 * GIB;

	assert_int_equal(start, (g->vram_size - g->vram_reserved) & ~(2 * MIB - 1));
	assert_int_equal(kt_alloc(t, 0, 0, GIB, VRAM, &h, NULL), 0);
	assert_int_equal(available(t, 0), start - GIB);
	/* 2 MiB granularity of the available figure */
	assert_int_equal(kt_alloc(t, 0, 0, 4096, VRAM, &handles[n++], NULL), 0);
	assert_int_equal(available(t, 0), start - GIB - 2 * MIB);
	/* GTT does not touch VRAM */
	assert_int_equal(kt_alloc(t, 0, 0, GIB, GTT, &handles[n++], NULL), 0);
	assert_int_equal(available(t, 0), start - GIB - 2 * MIB);
	/* fill VRAM until ENOMEM */
	while (chunk >= 64 * MIB && n < 64) {
		int r = kt_alloc(t, 0, 0, chunk, VRAM, &handles[n], NULL);

		if (r == 0) {
			n++;
			continue;
		}
		assert_int_equal(r, -ENOMEM);
		assert_true(available(t, 0) < chunk);
		chunk /= 2;
	}
	assert_true(available(t, 0) < 64 * MIB);
	/* AVAILABLE_MEMORY of an unknown GPU */
	{
		struct kfd_abi_get_available_memory_args a = { .gpu_id = 77 };

		assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &a),
				 -EINVAL);
	}
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(kt_free(t, handles[i]), 0);
	assert_int_equal(kt_free(t, h), 0);
	assert_int_equal(available(t, 0), start);
}

static void
test_free_mapped(void **state)
{
	struct kt *t = *state;
	unsigned int g0 = 0;
	uint32_t ns;
	uint64_t h;

	assert_int_equal(kt_alloc(t, 0, 0x100000000ULL, 2 * MIB, VRAM, &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	assert_int_equal(ns, 1);
	assert_int_equal(kt_free(t, h), -EBUSY);
	/* mapping again is a no-op */
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	assert_int_equal(kt_unmap(t, h, &g0, 1, &ns), 0);
	assert_int_equal(ns, 1);
	assert_int_equal(kt_unmap(t, h, &g0, 1, &ns), -EINVAL);
	assert_int_equal(kt_free(t, h), 0);
}

static void
test_map_errors(void **state)
{
	struct kt t;
	struct kfd_abi_map_memory_to_gpu_args a;
	uint32_t ids[2];
	uint64_t h, h2;
	unsigned int g0 = 0;
	uint32_t ns;

	(void)state;
	assert_int_equal(kt_open(&t, "mi210x2", 0), 0);
	assert_int_equal(kt_acquire(&t, 0), 0);
	assert_int_equal(kt_alloc(&t, 0, 0x200000000ULL, 4 * MIB, VRAM, &h, NULL), 0);
	memset(&a, 0, sizeof(a));
	a.handle = h;
	a.device_ids_array_ptr = (uintptr_t)ids;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), -EINVAL);
	a.n_devices = 1;
	a.n_success = 2;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), -EINVAL);
	a.n_success = 0;
	a.device_ids_array_ptr = 16;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), -EFAULT);
	a.n_devices = 0x40000000;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), -ENOMEM);
	/* unknown idr: ENOMEM (sic) */
	a.device_ids_array_ptr = (uintptr_t)ids;
	a.n_devices = 1;
	ids[0] = t.gpu_id[0];
	a.handle = h + 5;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), -ENOMEM);
	a.handle = 0x99ULL << 32;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), -EINVAL);
	/* partial success: GPU 1 has no VM yet -> ENODEV after the first */
	a.handle = h;
	a.n_devices = 2;
	ids[0] = t.gpu_id[0];
	ids[1] = t.gpu_id[1];
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), -ENODEV);
	assert_int_equal(a.n_success, 1);
	/* acquire and retry from n_success */
	assert_int_equal(kt_acquire(&t, 1), 0);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), 0);
	assert_int_equal(a.n_success, 2);
	/* an unknown device in the list */
	ids[1] = 0xbad;
	a.n_success = 0;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &a), -EINVAL);
	assert_int_equal(a.n_success, 1);
	/* overlapping VA of another BO, and an unaligned VA */
	assert_int_equal(kt_alloc(&t, 0, 0x200100000ULL, MIB, VRAM, &h2, NULL), 0);
	assert_int_equal(kt_map(&t, h2, &g0, 1, &ns), -EINVAL);
	assert_int_equal(ns, 0);
	assert_int_equal(kt_free(&t, h2), 0);
	assert_int_equal(kt_alloc(&t, 0, 0x300000010ULL, MIB, VRAM, &h2, NULL), 0);
	assert_int_equal(kt_map(&t, h2, &g0, 1, &ns), -EINVAL);
	/* beyond the 48-bit VM */
	assert_int_equal(kt_alloc(&t, 0, 1ULL << 48, MIB, VRAM, &h2, NULL), 0);
	assert_int_equal(kt_map(&t, h2, &g0, 1, &ns), -EINVAL);
	/* unmap: idr missing -> ENOMEM; not mapped there -> EINVAL */
	ids[0] = t.gpu_id[0];
	{
		struct kfd_abi_unmap_memory_from_gpu_args u = {
			.handle = h + 9, .device_ids_array_ptr = (uintptr_t)ids,
			.n_devices = 1,
		};

		assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &u),
				 -ENOMEM);
		u.handle = h2;
		assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &u),
				 -EINVAL);
	}
	kt_close(&t);
}

static void
test_cpu_mapping(void **state)
{
	struct kt t;
	uint64_t h, off, h2, off2, h3, off3;
	char *a, *b, *p;
	int err;
	struct ksim_map m;

	(void)state;
	assert_int_equal(kt_open(&t, "mi210x2", 0), 0);
	assert_int_equal(kt_acquire_all(&t), 0);
	assert_int_equal(kt_alloc(&t, 0, 0, 2 * MIB, VRAM | PUBLIC, &h, &off), 0);
	a = kt_cpu_map(t.rnd[0], off, 2 * MIB, &err);
	b = kt_cpu_map(t.rnd[0], off, 2 * MIB, &err);
	assert_non_null(a);
	assert_non_null(b);
	strcpy(a + MIB, "same bytes");
	assert_string_equal(b + MIB, "same bytes");
	munmap(a, 2 * MIB);
	munmap(b, 2 * MIB);
	/* invisible VRAM maps too (the thunk maps it PROT_NONE, private) */
	assert_int_equal(kt_alloc(&t, 0, 0, MIB, VRAM, &h2, &off2), 0);
	assert_int_equal(ksim_mmap(t.rnd[0], off2, MIB, PROT_NONE, MAP_PRIVATE, &m), 0);
	p = mmap(NULL, MIB, PROT_NONE, MAP_PRIVATE, m.fd, (off_t)m.offset);
	assert_true(p != MAP_FAILED);
	munmap(p, MIB);
	close(m.fd);
	/* wrong offset, too long, and another GPU's render file */
	assert_int_equal(ksim_mmap(t.rnd[0], off + 4096, 4096, PROT_READ, MAP_SHARED, &m),
			 -EINVAL);
	assert_int_equal(ksim_mmap(t.rnd[0], off, 4 * MIB, PROT_READ, MAP_SHARED, &m),
			 -EINVAL);
	assert_int_equal(ksim_mmap(t.rnd[1], off, 4096, PROT_READ, MAP_SHARED, &m),
			 -EACCES);
	assert_int_equal(ksim_mmap(t.rnd[0], 12345, 4096, PROT_READ, MAP_SHARED, &m),
			 -EINVAL);
	/* a GTT BO of GPU 1 through GPU 1's render file */
	assert_int_equal(kt_alloc(&t, 1, 0, 8192, GTT, &h3, &off3), 0);
	a = kt_cpu_map(t.rnd[1], off3, 8192, &err);
	assert_non_null(a);
	munmap(a, 8192);
	kt_close(&t);
}

static void
test_kfd_mmap_offsets(void **state)
{
	struct kt *t = *state;
	uint64_t db = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL, t->gpu_id[0], 0);
	struct ksim_map m;

	assert_int_equal(db, 0xEAC4800000000000ULL);
	assert_int_equal(ksim_mmap(t->kfd, db, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, &m),
			 -EINVAL);
	assert_int_equal(ksim_mmap(t->kfd, db, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, &m), 0);
	assert_true(m.flags & KSIM_MAP_UNCACHED);
	close(m.fd);
	assert_int_equal(ksim_mmap(t->kfd,
		KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL, 0x77, 0), 8192,
		PROT_READ, MAP_SHARED, &m), -ENODEV);
	/* events: no page yet */
	assert_int_equal(ksim_mmap(t->kfd, KFD_ABI_MMAP_TYPE_EVENTS, 32768,
				   PROT_READ, MAP_SHARED, &m), -EINVAL);
	/* MMIO: one page, known GPU */
	assert_int_equal(ksim_mmap(t->kfd,
		KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_MMIO, t->gpu_id[0], 0), 8192,
		PROT_READ, MAP_SHARED, &m), -EINVAL);
	assert_int_equal(ksim_mmap(t->kfd,
		KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_MMIO, 0, 0), 4096,
		PROT_READ, MAP_SHARED, &m), -ENODEV);
	/* reserved memory (APU CWSR): two pages */
	assert_int_equal(ksim_mmap(t->kfd,
		KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_RESERVED_MEM, t->gpu_id[0], 0),
		4096, PROT_READ, MAP_SHARED, &m), -EINVAL);
	assert_int_equal(ksim_mmap(t->kfd,
		KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_RESERVED_MEM, t->gpu_id[0], 0),
		8192, PROT_READ, MAP_SHARED, &m), 0);
	close(m.fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_acquire_vm, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test(test_handles),
		cmocka_unit_test(test_many_handles),
		cmocka_unit_test_setup_teardown(test_alloc_errors, kt_setup_mi210, kt_teardown),
		cmocka_unit_test(test_small_bar),
		cmocka_unit_test_setup_teardown(test_vram_accounting, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_free_mapped, kt_setup_mi210, kt_teardown),
		cmocka_unit_test(test_map_errors),
		cmocka_unit_test(test_cpu_mapping),
		cmocka_unit_test_setup_teardown(test_kfd_mmap_offsets, kt_setup_mi210, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
