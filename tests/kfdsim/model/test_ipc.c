/* SPDX-License-Identifier: MIT */
/*
 * The kernel flavours and the ROCm DKMS IPC handles (0x80/0x81): the
 * upstream flavour refuses them, the rocm flavour shares a BO by a 128-bit
 * handle within a process and between processes of one machine, with the
 * DKMS driver's errno and lifetime rules.
 */
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
#define VRAM_PUB (KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC | \
		  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE)

static int
ipc_export(struct ksim_file *kfd, uint32_t gpu_id, uint64_t handle,
	   uint32_t flags, uint32_t share[4])
{
	struct kfd_abi_ipc_export_handle_args e;
	int r;

	memset(&e, 0, sizeof(e));
	e.handle = handle;
	e.gpu_id = gpu_id;
	e.flags = flags;
	r = ksim_ioctl(kfd, KFD_ABI_IOC_IPC_EXPORT_HANDLE, &e);
	memcpy(share, e.share_handle, sizeof(e.share_handle));
	return r;
}

static int
ipc_import(struct ksim_file *kfd, uint32_t gpu_id, const uint32_t share[4],
	   uint64_t va, struct kfd_abi_ipc_import_handle_args *out)
{
	memset(out, 0, sizeof(*out));
	out->gpu_id = gpu_id;
	out->va_addr = va;
	memcpy(out->share_handle, share, sizeof(out->share_handle));
	return ksim_ioctl(kfd, KFD_ABI_IOC_IPC_IMPORT_HANDLE, out);
}

static int
open_kernel(struct kt *t, const char *profile, unsigned int kernel,
	    const char *machine)
{
	struct ksim_opts o = { .kernel = kernel };

	if (machine)
		o.machine = machine;
	else
		o.flags = KSIM_OPT_PRIVATE;
	return kt_open_opts(t, profile, &o);
}

/* Which flavour: opts, then KFDSIM_KERNEL, then the profile, then upstream. */
static void
test_flavour_selection(void **state)
{
	struct ksim_profile *prof = ksim_profile_builtin("mi210");
	struct ksim_opts o = { .flags = KSIM_OPT_PRIVATE };
	struct ksim_device *dev;
	int err;

	(void)state;
	assert_int_equal(ksim_kernel_parse("upstream"), KSIM_KERNEL_UPSTREAM);
	assert_int_equal(ksim_kernel_parse("rocm"), KSIM_KERNEL_ROCM);
	assert_int_equal(ksim_kernel_parse("ROCm"), -EINVAL);
	assert_int_equal(ksim_kernel_parse(""), -EINVAL);
	assert_int_equal(ksim_kernel_parse(NULL), -EINVAL);

	unsetenv(KSIM_ENV_KERNEL);
	dev = ksim_device_create(prof, &o, &err);
	assert_non_null(dev);
	assert_int_equal(ksim_device_kernel(dev), KSIM_KERNEL_UPSTREAM);
	ksim_device_destroy(dev);

	setenv(KSIM_ENV_KERNEL, "rocm", 1);
	dev = ksim_device_create(prof, &o, &err);
	assert_non_null(dev);
	assert_int_equal(ksim_device_kernel(dev), KSIM_KERNEL_ROCM);
	ksim_device_destroy(dev);
	/* the caller's option wins over the environment */
	o.kernel = KSIM_KERNEL_UPSTREAM;
	dev = ksim_device_create(prof, &o, &err);
	assert_non_null(dev);
	assert_int_equal(ksim_device_kernel(dev), KSIM_KERNEL_UPSTREAM);
	ksim_device_destroy(dev);
	o.kernel = 7;
	assert_null(ksim_device_create(prof, &o, &err));
	assert_int_equal(err, -EINVAL);
	o.kernel = 0;
	setenv(KSIM_ENV_KERNEL, "dkms", 1);
	assert_null(ksim_device_create(prof, &o, &err));
	assert_int_equal(err, -EINVAL);
	unsetenv(KSIM_ENV_KERNEL);

	/* the profile's [machine] kernel key */
	strcpy(prof->kernel, "rocm");
	dev = ksim_device_create(prof, &o, &err);
	assert_non_null(dev);
	assert_int_equal(ksim_device_kernel(dev), KSIM_KERNEL_ROCM);
	ksim_device_destroy(dev);
	setenv(KSIM_ENV_KERNEL, "upstream", 1);
	dev = ksim_device_create(prof, &o, &err);
	assert_non_null(dev);
	assert_int_equal(ksim_device_kernel(dev), KSIM_KERNEL_UPSTREAM);
	ksim_device_destroy(dev);
	unsetenv(KSIM_ENV_KERNEL);
	strcpy(prof->kernel, "vendor");
	assert_null(ksim_device_create(prof, &o, &err));
	assert_int_equal(err, -EINVAL);
	ksim_profile_free(prof);
}

/* The profile text carries the key and the writer keeps it. */
static void
test_profile_key(void **state)
{
	const char *text = ksim_profile_builtin_text("mi210");
	char *buf, *full, *m, *err = NULL, *saved = NULL;
	size_t n = 0;
	struct ksim_profile *p;
	FILE *f;

	(void)state;
	assert_non_null(text);
	/* the key goes into the builtin's [machine] section */
	m = strstr(text, "[machine]\n");
	assert_non_null(m);
	m += strlen("[machine]\n");
	assert_true(asprintf(&buf, "%.*skernel rocm\n%s", (int)(m - text), text, m) > 0);
	p = ksim_profile_parse(buf, strlen(buf), "t", &err);
	assert_non_null(p);
	assert_string_equal(p->kernel, "rocm");
	f = open_memstream(&saved, &n);
	assert_int_equal(ksim_profile_save(p, f), 0);
	fclose(f);
	assert_non_null(strstr(saved, "kernel \"rocm\"\n"));
	ksim_profile_free(p);
	free(saved);
	/* an unknown flavour is a parse error naming the key */
	full = strstr(buf, "kernel rocm");
	assert_non_null(full);
	memcpy(full, "kernel rocx", 11);
	p = ksim_profile_parse(buf, strlen(buf), "t", &err);
	assert_null(p);
	assert_non_null(err);
	assert_non_null(strstr(err, "kernel"));
	free(err);
	free(buf);
}

/* Upstream: 0x80..0x87 are outside the command range -> EINVAL. */
static void
test_upstream_refuses(void **state)
{
	struct kt t;
	uint32_t share[4];
	struct kfd_abi_ipc_import_handle_args im;
	uint64_t h;

	(void)state;
	assert_int_equal(open_kernel(&t, "mi210", KSIM_KERNEL_UPSTREAM, NULL), 0);
	assert_int_equal(kt_acquire(&t, 0), 0);
	assert_int_equal(kt_alloc(&t, 0, 0, MIB, VRAM_PUB, &h, NULL), 0);
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], h, 0, share), -EINVAL);
	memset(share, 0, sizeof(share));
	assert_int_equal(ipc_import(t.kfd, t.gpu_id[0], share, 0, &im), -EINVAL);
	assert_int_equal(kt_free(&t, h), 0);
	kt_close(&t);
}

/* Export/import in one process: errno paths, same handle, same bytes. */
static void
test_rocm_one_process(void **state)
{
	struct kt t;
	uint32_t share[4], again[4], zero[4] = { 0 };
	struct kfd_abi_ipc_import_handle_args im;
	struct kfd_abi_alloc_memory_of_gpu_args a;
	uint64_t h, off, up;
	char *cpu, *cpu2, *user;
	int err;

	(void)state;
	assert_int_equal(open_kernel(&t, "mi210", KSIM_KERNEL_ROCM, NULL), 0);
	/* no VM yet: the bind error */
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], 0, 0, share), -ENODEV);
	assert_int_equal(kt_acquire(&t, 0), 0);
	assert_int_equal(kt_alloc(&t, 0, 0x400000000ULL, 2 * MIB, VRAM_PUB, &h, &off), 0);
	cpu = kt_cpu_map(t.rnd[0], off, 2 * MIB, &err);
	assert_non_null(cpu);
	strcpy(cpu, "written by the exporter");

	assert_int_equal(ipc_export(t.kfd, 0, h, 0, share), -EINVAL);
	assert_int_equal(ipc_export(t.kfd, 12345, h, 0, share), -EINVAL);
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], h + 77, 0, share), -EINVAL);
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], h, 0x5a5a, share), 0);
	assert_memory_not_equal(share, zero, sizeof(share));
	/* again: the same object and handle; the first flags stay */
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], h, 0x1111, again), 0);
	assert_memory_equal(share, again, sizeof(share));

	/* a userptr BO cannot be exported */
	user = mmap(NULL, 2 * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(user != MAP_FAILED);
	memset(&a, 0, sizeof(a));
	a.gpu_id = t.gpu_id[0];
	a.size = 2 * MIB;
	a.va_addr = (uintptr_t)user;
	a.mmap_offset = (uintptr_t)user;
	a.flags = KFD_ABI_ALLOC_MEM_FLAGS_USERPTR | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
	up = a.handle;
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], up, 0, again), -EPERM);
	assert_int_equal(kt_free(&t, up), 0);
	munmap(user, 2 * MIB);

	/* import errors: device, then handle */
	assert_int_equal(ipc_import(t.kfd, 4321, share, 0, &im), -EINVAL);
	assert_int_equal(ipc_import(t.kfd, t.gpu_id[0], zero, 0, &im), -EINVAL);
	again[0] = share[0];
	again[1] = share[1];
	again[2] = share[2];
	again[3] = share[3] ^ 0x80000000u;
	assert_int_equal(ipc_import(t.kfd, t.gpu_id[0], again, 0, &im), -EINVAL);

	assert_int_equal(ipc_import(t.kfd, t.gpu_id[0], share, 0x500000000ULL, &im), 0);
	assert_int_equal(im.handle >> 32, t.gpu_id[0]);
	assert_int_not_equal(im.handle, h);
	assert_int_equal(im.flags, 0x5a5a);
	assert_int_equal(im.mmap_offset, off);	/* one BO, one offset */
	cpu2 = kt_cpu_map(t.rnd[0], im.mmap_offset, 2 * MIB, &err);
	assert_non_null(cpu2);
	assert_string_equal(cpu2, "written by the exporter");
	/* the imported handle maps like any KFD BO and re-exports as the
	 * same object */
	{
		unsigned int g0 = 0;
		uint32_t ns = 0;

		assert_int_equal(kt_map(&t, im.handle, &g0, 1, &ns), 0);
		assert_int_equal(ns, 1);
		assert_int_equal(kt_unmap(&t, im.handle, &g0, 1, &ns), 0);
	}
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], im.handle, 0, again), 0);
	assert_memory_equal(share, again, sizeof(share));

	/* the exporter frees: the import keeps the object (and handle) alive */
	munmap(cpu, 2 * MIB);
	assert_int_equal(kt_free(&t, h), 0);
	{
		struct kfd_abi_ipc_import_handle_args im2;

		assert_int_equal(ipc_import(t.kfd, t.gpu_id[0], share, 0, &im2), 0);
		assert_int_equal(kt_free(&t, im2.handle), 0);
	}
	assert_string_equal(cpu2, "written by the exporter");
	munmap(cpu2, 2 * MIB);
	/* the last reference goes: so does the handle */
	assert_int_equal(kt_free(&t, im.handle), 0);
	assert_int_equal(ipc_import(t.kfd, t.gpu_id[0], share, 0, &im), -EINVAL);
	kt_close(&t);
}

/* 5.x DKMS imports only BOs of the importing device. */
static void
test_rocm_other_device(void **state)
{
	struct kt t;
	uint32_t share[4];
	struct kfd_abi_ipc_import_handle_args im;
	uint64_t h;

	(void)state;
	assert_int_equal(open_kernel(&t, "mi210x2", KSIM_KERNEL_ROCM, NULL), 0);
	assert_int_equal(t.n_gpus, 2);
	assert_int_equal(kt_acquire(&t, 0), 0);
	assert_int_equal(kt_alloc(&t, 0, 0, MIB, VRAM_PUB, &h, NULL), 0);
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], h, 0, share), 0);
	/* the other GPU: first its missing VM, then the device mismatch */
	assert_int_equal(ipc_import(t.kfd, t.gpu_id[1], share, 0, &im), -ENODEV);
	assert_int_equal(kt_acquire(&t, 1), 0);
	assert_int_equal(ipc_import(t.kfd, t.gpu_id[1], share, 0, &im), -EINVAL);
	/* the failed import took no reference: freeing the BO ends it */
	assert_int_equal(kt_free(&t, h), 0);
	assert_int_equal(ipc_import(t.kfd, t.gpu_id[0], share, 0, &im), -EINVAL);
	kt_close(&t);
}

/* The importing child of a shared machine. */
static int
child_import(const char *machine, const uint32_t share[4], int mode)
{
	struct kt t;
	struct kfd_abi_ipc_import_handle_args im;
	char *cpu;
	int err;

	if (open_kernel(&t, "mi210", KSIM_KERNEL_ROCM, machine))
		return 10;
	if (kt_acquire(&t, 0))
		return 11;
	err = ipc_import(t.kfd, t.gpu_id[0], share, 0x600000000ULL, &im);
	if (mode == 1)
		return err == -EINVAL ? 0 : 12;
	if (err || im.flags != 0x77 || (im.handle >> 32) != t.gpu_id[0])
		return 13;
	cpu = kt_cpu_map(t.rnd[0], im.mmap_offset, 2 * MIB, &err);
	if (!cpu || strcmp(cpu, "from the parent"))
		return 14;
	strcpy(cpu + 4096, "from the child");
	munmap(cpu, 2 * MIB);
	if (kt_free(&t, im.handle))
		return 15;
	kt_close(&t);
	return 0;
}

/* Another process of the machine imports and writes; the parent reads. */
static void
test_rocm_cross_process(void **state)
{
	const char *machine = ksim_machine_id(*state);
	struct kt t;
	uint32_t share[4];
	uint64_t h, off;
	char *cpu;
	pid_t pid;
	int status, err;

	assert_int_equal(open_kernel(&t, "mi210", KSIM_KERNEL_ROCM, machine), 0);
	assert_int_equal(kt_acquire(&t, 0), 0);
	assert_int_equal(kt_alloc(&t, 0, 0, 2 * MIB, VRAM_PUB, &h, &off), 0);
	cpu = kt_cpu_map(t.rnd[0], off, 2 * MIB, &err);
	assert_non_null(cpu);
	strcpy(cpu, "from the parent");
	assert_int_equal(ipc_export(t.kfd, t.gpu_id[0], h, 0x77, share), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_import(machine, share, 0));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(cpu + 4096, "from the child");

	/* a child that exports and dies without freeing leaves no handle */
	{
		int pfd[2];
		uint32_t orphan[4];

		assert_int_equal(pipe(pfd), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct kt c;
			uint64_t ch;
			uint32_t s[4] = { 0 };

			if (open_kernel(&c, "mi210", KSIM_KERNEL_ROCM, machine) ||
			    kt_acquire(&c, 0) ||
			    kt_alloc(&c, 0, 0, MIB, VRAM_PUB, &ch, NULL) ||
			    ipc_export(c.kfd, c.gpu_id[0], ch, 0, s))
				_exit(1);
			_exit(write(pfd[1], s, sizeof(s)) == sizeof(s) ? 0 : 2);
		}
		close(pfd[1]);
		assert_int_equal(read(pfd[0], orphan, sizeof(orphan)), sizeof(orphan));
		close(pfd[0]);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_int_equal(WEXITSTATUS(status), 0);
		pid = fork();
		if (pid == 0)
			_exit(child_import(machine, orphan, 1));
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	munmap(cpu, 2 * MIB);
	assert_int_equal(kt_free(&t, h), 0);
	kt_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flavour_selection),
		cmocka_unit_test(test_profile_key),
		cmocka_unit_test(test_upstream_refuses),
		cmocka_unit_test(test_rocm_one_process),
		cmocka_unit_test(test_rocm_other_device),
		cmocka_unit_test_setup_teardown(test_rocm_cross_process, kt_machine_setup,
						kt_machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
