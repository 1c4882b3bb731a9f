/* SPDX-License-Identifier: MIT */
/*
 * libkfdsim.so seen from an ordinary program, continued (the same program
 * as test_shim_preload.c, which has main()): what passes through to libc,
 * doorbell mmaps, the fork rule, threads, reentrancy, the CPUs, lsmod and
 * the commit limit of anonymous mappings.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "kfdtrace/kfd_abi.h"

#include "test_shim_preload.h"

/* Everything that is not the device goes to libc unchanged. */
void
test_passthrough(void **state)
{
	char tmpl[] = "/tmp/kfdsim-test-XXXXXX", buf[64], real[PATH_MAX];
	struct stat st;
	FILE *f;
	int fd;

	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello\n", 6), 6);
	close(fd);
	f = fopen(tmpl, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	assert_string_equal(buf, "hello\n");
	fclose(f);
	assert_int_equal(stat(tmpl, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 6);
	assert_non_null(realpath(tmpl, real));
	assert_int_equal(unlink(tmpl), 0);
	assert_int_equal(stat(tmpl, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(major(st.st_rdev), 1);
	/* real sysfs next to ours is still there */
	assert_int_equal(stat("/sys/devices/system/clockevents", &st) == 0 ||
			 stat("/sys/devices/system/memory", &st) == 0, 1);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(stat("/sys/class/kfd/nope", &st), -1);
	assert_int_equal(errno, ENOENT);
}

/* Doorbell pages map through /dev/kfd at the offset CREATE_QUEUE gives. */
void
test_mmap_doorbell(void **state)
{
	uint64_t off = (3ull << 62) | ((uint64_t)GPU_ID << 46);
	volatile uint64_t *db;
	void *p;
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	assert_true(fd >= 0);
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED)
		fail_msg("doorbell mmap: %s", strerror(errno));
	db = p;
	db[0] = 0x1234;
	db[1023] = 0x5678;
	assert_int_equal(db[0], 0x1234);
	assert_int_equal(munmap(p, 8192), 0);
	/* the kernel wants exactly the process doorbell slice */
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	assert_true(p == MAP_FAILED);
	assert_int_equal(errno, EINVAL);
	/* an unknown gpu_id has no doorbells */
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)((3ull << 62) | (1ull << 46)));
	assert_true(p == MAP_FAILED);
	assert_int_equal(errno, ENODEV);
	/* anonymous and file mappings are not ours */
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	munmap(p, 4096);
	close(fd);
}

/* A child using its parent's /dev/kfd gets EBADF; its own open works. */
void
test_fork_rule(void **state)
{
	struct kfd_abi_get_version_args v;
	int fd = open("/dev/kfd", O_RDWR), status;
	pid_t pid;

	assert_true(fd >= 0);
	assert_int_equal(kfd_version(fd, &v), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int code = 0, own;

		/* a crash must end the child, not resume cmocka's runner in it */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		if (kfd_version(fd, &v) != -1 || errno != EBADF)
			code |= 1;
		own = open("/dev/kfd", O_RDWR);
		if (own < 0 || kfd_version(own, &v) != 0 || v.major_version != 1)
			code |= 2;
		_exit(code);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(kfd_version(fd, &v), 0);
	close(fd);
}

static void *
worker(void *arg)
{
	char *want = arg, buf[4096];
	struct kfd_abi_get_version_args v;

	for (int i = 0; i < 200; i++) {
		FILE *f = fopen(TOPO "/nodes/1/properties", "r");
		size_t n;
		int fd, d;

		if (!f)
			return "fopen";
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = '\0';
		fclose(f);
		if (strcmp(buf, want) != 0)
			return "contents";
		fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return "open";
		d = dup(fd);
		close(fd);
		if (kfd_version(d, &v) != 0 || v.major_version != 1)
			return "ioctl";
		close(d);
	}
	return NULL;
}

/* Threads open, read, dup, ioctl and close at once. */
void
test_threads(void **state)
{
	char *want = expected("ref-node1.properties");
	pthread_t t[4];
	void *ret;
	int before = count_open_fds();

	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, worker, want), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], &ret), 0);
		if (ret)
			fail_msg("thread %d failed at %s", i, (char *)ret);
	}
	assert_int_equal(count_open_fds(), before);
	free(want);
}

/*
 * Re-entrancy: callbacks the library runs (scandir's filter and compar)
 * are the caller's code and see the device too; and a virtual file read
 * from inside another wrapper's window (a DIR stream held open across
 * opens, stdio buffers of two files interleaved) stays consistent.
 */
static int
filter_char_devices(const struct dirent *e)
{
	char path[300];
	struct stat st;

	snprintf(path, sizeof(path), "/dev/dri/%s", e->d_name);
	return stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

static int
compar_by_minor(const struct dirent **a, const struct dirent **b)
{
	char pa[300], pb[300];
	struct stat sa, sb;

	snprintf(pa, sizeof(pa), "/dev/dri/%s", (*a)->d_name);
	snprintf(pb, sizeof(pb), "/dev/dri/%s", (*b)->d_name);
	if (stat(pa, &sa) || stat(pb, &sb))
		return 0;
	return (int)minor(sb.st_rdev) - (int)minor(sa.st_rdev);
}

void
test_reentrancy(void **state)
{
	struct dirent **list, *e;
	char line[256];
	FILE *a, *b;
	DIR *d;
	int n;

	n = scandir("/dev/dri", &list, filter_char_devices, compar_by_minor);
	assert_int_equal(n, 1);
	assert_string_equal(list[0]->d_name, "renderD128");
	free(list[0]);
	free(list);

	/* open and read virtual files while a virtual directory stream is open */
	d = opendir(TOPO "/nodes");
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[512];
		unsigned long long id;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), TOPO "/nodes/%s/gpu_id", e->d_name);
		f = fopen(path, "r");
		assert_non_null(f);
		assert_int_equal(fscanf(f, "%llu", &id), 1);
		assert_int_equal(id, strcmp(e->d_name, "0") == 0 ? 0 : GPU_ID);
		fclose(f);
	}
	closedir(d);

	/* two virtual files read line by line, interleaved */
	a = fopen(TOPO "/nodes/0/properties", "r");
	b = fopen(TOPO "/nodes/1/properties", "r");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(fgets(line, sizeof(line), a));
	assert_string_equal(line, "cpu_cores_count 32\n");
	assert_non_null(fgets(line, sizeof(line), b));
	assert_string_equal(line, "cpu_cores_count 0\n");
	assert_non_null(fgets(line, sizeof(line), a));
	assert_string_equal(line, "simd_count 0\n");
	assert_non_null(fgets(line, sizeof(line), b));
	assert_string_equal(line, "simd_count 416\n");
	fclose(a);
	fclose(b);
}

/*
 * The CPUs are the profile's (refmi210 has no [cpu] section: one socket of
 * its CPU node's 32 cores), whatever this host has: the counts glibc
 * computes from sysfs, /proc/cpuinfo and the sysfs CPU directories.
 */
void
test_cpus(void **state)
{
	char line[256];
	unsigned int blocks = 0, entries = 0;
	struct dirent *de;
	FILE *f;
	DIR *d;

	(void)state;
	assert_int_equal(get_nprocs(), 32);
	assert_int_equal(get_nprocs_conf(), 32);
	assert_int_equal(sysconf(_SC_NPROCESSORS_ONLN), 32);
	assert_int_equal(sysconf(_SC_NPROCESSORS_CONF), 32);
	/* every other name is the host's */
	assert_int_equal(sysconf(_SC_PAGESIZE), getpagesize());
	f = fopen("/proc/cpuinfo", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "processor\t: ", 12))
			blocks++;
	fclose(f);
	assert_int_equal(blocks, 32);
	d = opendir("/sys/devices/system/node/node0");
	assert_non_null(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "cpu", 3) && de->d_name[3] >= '0' &&
		    de->d_name[3] <= '9')
			entries++;
	closedir(d);
	assert_int_equal(entries, 32);
	f = fopen("/sys/devices/system/node/node0/cpu31/cache/index3/shared_cpu_list", "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "24-31\n");
	fclose(f);
	assert_int_equal(access("/sys/devices/system/cpu/cpu32", F_OK), -1);
	assert_int_equal(errno, ENOENT);
}

/* rocminfo's check: lsmod and grep are children that inherit LD_PRELOAD. */
void
test_lsmod(void **state)
{
	char line[256];
	int found = 0;
	FILE *p;

	if (access("/usr/sbin/lsmod", X_OK) != 0 && access("/sbin/lsmod", X_OK) != 0)
		skip();
	p = popen("lsmod | grep amdgpu", "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		if (strncmp(line, "amdgpu ", 7) == 0)
			found++;
	assert_int_equal(pclose(p), 0);
	assert_int_equal(found, 1);
}

/*
 * A private writable anonymous mapping is committed against the profile's
 * RAM (refmi210: one CPU node of 270088859648 bytes, no swap), not the
 * host's: Linux's default heuristic grants one as large as RAM, so the
 * simulated machine does, on a host with less. Its pages work as usual.
 */
void
test_overcommit(void **state)
{
	const size_t ram = 270088859648ULL;
	volatile char *p;

	(void)state;
	p = mmap(NULL, ram, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	assert_true(p != MAP_FAILED);
	p[0] = 1;
	p[ram - 1] = 2;
	assert_int_equal(p[0] + p[ram - 1], 3);
	assert_int_equal(munmap((void *)p, ram), 0);
	/* A read-only one is not committed at all: the host grants it. */
	p = mmap(NULL, ram, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(p[ram / 2], 0);
	assert_int_equal(munmap((void *)p, ram), 0);
}
