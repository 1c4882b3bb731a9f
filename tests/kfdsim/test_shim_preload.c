/* SPDX-License-Identifier: MIT */
/*
 * libkfdsim.so seen from an ordinary program: this test runs with the
 * library preloaded (KFDSIM_PROFILE = data/refmi210.profile) and uses only
 * libc. It checks what the real clients rely on: sysfs text through read,
 * stdio and the thunk's single fread; stat results of device nodes and
 * attributes; the fd life cycle (dup, dup2, F_DUPFD, close, fclose, exec
 * flags); directory streams; realpath and readlink; mmap of doorbells;
 * the fork rule; concurrent use from threads; and that everything else
 * passes through untouched. This file has the sysfs, stat, fd, directory
 * and path tests and main(); test_shim_preload_proc.c the rest, in the
 * same program (test_shim_preload.h).
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

static const char *
data_dir(void)
{
	const char *d = getenv("KSIM_TEST_DATA");

	return d ? d : "tests/kfdsim/data";
}

static int
abi_minor(void)
{
	const char *abi = getenv("KFDSIM_ABI");

	return abi ? atoi(strchr(abi, '.') ? strchr(abi, '.') + 1 : abi) : 23;
}

static char *
read_all_fd(int fd, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	ssize_t got;

	assert_non_null(buf);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		got = read(fd, buf + n, cap - n - 1);
		assert_true(got >= 0);
		if (got == 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static char *
read_path(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;

	if (fd < 0)
		fail_msg("open %s: %s", path, strerror(errno));
	buf = read_all_fd(fd, len);
	close(fd);
	return buf;
}

char *
expected(const char *name)
{
	char path[512];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	return read_path(path, &len);
}

static void
expect_file(const char *path, const char *expected_name)
{
	char *want = expected(expected_name), *got;
	size_t len;

	got = read_path(path, &len);
	if (strcmp(got, want) != 0)
		fail_msg("%s:\n--- got ---\n%s--- want ---\n%s", path, got, want);
	free(got);
	free(want);
}

/* read(): the kernel's exact text, for every kind of topology file. */
static void
test_sysfs_read_exact(void **state)
{
	expect_file(TOPO "/system_properties", "ref-system_properties");
	expect_file(TOPO "/nodes/0/properties", "ref-node0.properties");
	expect_file(TOPO "/nodes/1/properties", "ref-node1.properties");
	expect_file(TOPO "/nodes/1/mem_banks/0/properties", "ref-node1-membank0.properties");
	expect_file(TOPO "/nodes/1/caches/0/properties", "ref-node1-cache0.properties");
	{
		/* a repeated cache section steps processor_id_low */
		size_t len;
		char *text = read_path(TOPO "/nodes/1/caches/216/properties", &len);

		assert_true(strncmp(text, "processor_id_low 2147487960\nlevel 1\n", 36) == 0);
		free(text);
	}
	expect_file(TOPO "/nodes/0/io_links/0/properties", "ref-node0-iolink0.properties");
	expect_file(TOPO "/nodes/1/io_links/0/properties",
		    abi_minor() >= 17 ? "ref-node1-iolink0.properties"
				      : "ref-node1-iolink0-abi11.properties");
	expect_file("/sys/class/kfd/kfd/topology/nodes/1/properties", "ref-node1.properties");
}

/* stdio the way the thunk and libdrm read: fscanf, one fread, getline. */
static void
test_sysfs_stdio(void **state)
{
	char *want = expected("ref-node1.properties"), buf[4096], name[64], *line = NULL;
	unsigned long long value, gen;
	size_t n, cap = 0;
	FILE *f;
	int keys = 0;

	f = fopen(TOPO "/generation_id", "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu", &gen), 1);
	assert_int_equal(gen, 2);
	fclose(f);

	/* one fread of at most a page (topology.c) */
	f = fopen(TOPO "/nodes/1/properties", "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	assert_string_equal(buf, want);
	fclose(f);

	/* "%s %llu\n" until the first mismatch */
	f = fopen(TOPO "/nodes/1/properties", "re");
	assert_non_null(f);
	while (fscanf(f, "%63s %llu\n", name, &value) == 2) {
		keys++;
		if (strcmp(name, "gfx_target_version") == 0)
			assert_int_equal(value, 90010);
	}
	assert_int_equal(keys, 41);
	fclose(f);

	/* libdrm's sysfs_uevent_get() */
	f = fopen("/sys/dev/char/226:128/device/uevent", "r");
	assert_non_null(f);
	keys = 0;
	while (getline(&line, &cap, f) >= 0)
		if (strcmp(line, "PCI_SLOT_NAME=0000:03:00.0\n") == 0)
			keys++;
	assert_int_equal(keys, 1);
	free(line);
	fclose(f);

	/* attribute files are read-only, as in sysfs */
	assert_null(fopen(TOPO "/generation_id", "w"));
	assert_int_equal(errno, EACCES);
	assert_int_equal(open(TOPO "/generation_id", O_RDWR), -1);
	assert_int_equal(errno, EACCES);
	free(want);
}

static void
test_stat_results(void **state)
{
	struct stat st, fst;
	int fd;

	assert_int_equal(stat("/dev/kfd", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(minor(st.st_rdev), 0);
	assert_int_not_equal(major(st.st_rdev), 226);

	assert_int_equal(stat("/dev/dri/renderD128", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(major(st.st_rdev), 226);
	assert_int_equal(minor(st.st_rdev), 128);
	/* fstat of the opened node says the same (libdrm's drmGetNodeTypeFromFd) */
	fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &fst), 0);
	assert_int_equal(fst.st_rdev, st.st_rdev);
	assert_int_equal(fst.st_ino, st.st_ino);
	assert_int_equal(fstatat(fd, "", &fst, AT_EMPTY_PATH), 0);
	assert_int_equal(fst.st_rdev, st.st_rdev);
	close(fd);

	assert_int_equal(stat("/sys/dev/char/226:128/device/drm", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(stat(TOPO "/nodes/1/properties", &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 4096);
	assert_int_equal(lstat("/sys/class/kfd/kfd", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat("/sys/class/kfd/kfd", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(stat("/dev/dri/renderD200", &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(access("/dev/kfd", R_OK | W_OK), 0);
	assert_int_equal(access(TOPO "/nodes/1/properties", W_OK), -1);
	assert_int_equal(errno, EACCES);
}

/* statx and the pre-2.33 entry points old binaries call. */
static void
test_stat_variants(void **state)
{
	int (*xstat)(int, const char *, struct stat *) = dlsym(RTLD_DEFAULT, "__xstat");
	int (*fxstat)(int, int, struct stat *) = dlsym(RTLD_DEFAULT, "__fxstat");
	struct statx sx;
	struct stat st;
	int fd;

	assert_int_equal(statx(AT_FDCWD, "/dev/dri/renderD128", 0, STATX_BASIC_STATS, &sx), 0);
	assert_true(S_ISCHR(sx.stx_mode));
	assert_int_equal(sx.stx_rdev_major, 226);
	assert_int_equal(sx.stx_rdev_minor, 128);
	assert_non_null(xstat);
	assert_non_null(fxstat);
	assert_int_equal(xstat(1, "/dev/kfd", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	fd = open("/dev/kfd", O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(fxstat(1, fd, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	close(fd);
}

int
count_open_fds(void)
{
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

int
kfd_version(int fd, struct kfd_abi_get_version_args *v)
{
	memset(v, 0, sizeof(*v));
	return ioctl(fd, KFD_ABI_IOC_GET_VERSION, v);
}

/* open, dup, dup2, F_DUPFD_CLOEXEC, close: every copy answers until closed. */
static void
test_fd_lifecycle(void **state)
{
	struct kfd_abi_get_version_args v;
	int before = count_open_fds(), fd, d1, d2, d3, high;

	fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	assert_int_equal(kfd_version(fd, &v), 0);
	assert_int_equal(v.major_version, 1);
	assert_int_equal(v.minor_version, (uint32_t)abi_minor());

	d1 = dup(fd);
	assert_true(d1 >= 0);
	assert_int_equal(fcntl(d1, F_GETFD) & FD_CLOEXEC, 0);
	high = 900;
	d2 = dup2(fd, high);
	assert_int_equal(d2, high);
	d3 = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	assert_true(d3 >= 0);
	assert_int_equal(fcntl(d3, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);

	assert_int_equal(close(fd), 0);
	assert_int_equal(kfd_version(fd, &v), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(kfd_version(d1, &v), 0);
	assert_int_equal(kfd_version(d2, &v), 0);
	assert_int_equal(kfd_version(d3, &v), 0);

	/* dup2 over one of ours makes it the other file */
	fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, d2), d2);
	assert_int_equal(kfd_version(d2, &v), -1);
	assert_int_equal(errno, ENOTTY);
	close(fd);
	close(d1);
	close(d2);
	close(d3);

	/* a closed number reused by a plain file is the plain file */
	fd = open("/dev/kfd", O_RDWR);
	assert_true(fd >= 0);
	close(fd);
	d1 = open("/dev/null", O_RDONLY);
	assert_int_equal(d1, fd);
	assert_int_equal(kfd_version(d1, &v), -1);
	assert_int_equal(errno, ENOTTY);
	close(d1);

	/* readlink of /proc/self/fd names the device, as the kernel would */
	fd = open("/dev/dri/renderD128", O_RDWR);
	assert_true(fd >= 0);
	{
		char link[64], target[PATH_MAX];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		assert_true(n > 0);
		target[n] = '\0';
		assert_string_equal(target, "/dev/dri/renderD128");
	}
	close(fd);
	assert_int_equal(count_open_fds(), before);
}

/* The thunk fopens and fcloses hundreds of attribute files. */
static void
test_fd_no_leaks(void **state)
{
	int before = count_open_fds();
	char buf[4096];

	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(TOPO "/nodes/1/caches/7/properties", "r");

		assert_non_null(f);
		assert_true(fread(buf, 1, sizeof(buf), f) > 0);
		fclose(f);
		int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

		assert_true(fd >= 0);
		close(fd);
	}
	assert_int_equal(count_open_fds(), before);
}

static int
list_dir(const char *path, char names[][256], int max)
{
	struct dirent *e;
	DIR *d = opendir(path);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL && n < max)
		snprintf(names[n++], 256, "%s", e->d_name);
	closedir(d);
	return n;
}

static int
has_name(char names[][256], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

static void
test_directories(void **state)
{
	static char names[256][256];
	struct dirent **list;
	int n, fd, sub;

	n = list_dir(TOPO "/nodes", names, 256);
	assert_int_equal(n, 4);
	assert_true(has_name(names, n, "0") && has_name(names, n, "1"));
	n = list_dir("/dev/dri", names, 256);
	assert_int_equal(n, 3);
	assert_true(has_name(names, n, "renderD128"));
	n = list_dir(TOPO "/nodes/1/caches", names, 256);
	assert_int_equal(n, 217 + 2);

	/* an overlay directory lists the real entries and ours */
	n = list_dir("/dev", names, 256);
	assert_true(has_name(names, n, "kfd") && has_name(names, n, "dri") &&
		    has_name(names, n, "null"));

	n = scandir("/dev/dri", &list, NULL, alphasort);
	assert_int_equal(n, 3);
	assert_string_equal(list[2]->d_name, "renderD128");
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);

	/* an fd on a virtual directory works with *at() and fdopendir (libkmod) */
	fd = open("/sys/module/amdgpu", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	sub = openat(fd, "refcnt", O_RDONLY | O_CLOEXEC);
	assert_true(sub >= 0);
	{
		char buf[16] = { 0 };

		assert_int_equal(read(sub, buf, sizeof(buf) - 1), 2);
		assert_string_equal(buf, "0\n");
	}
	close(sub);
	{
		struct stat st;

		assert_int_equal(fstatat(fd, "holders", &st, 0), 0);
		assert_true(S_ISDIR(st.st_mode));
		assert_int_equal(fstat(fd, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
	}
	{
		DIR *d = fdopendir(fd);
		struct dirent *e;
		int count = 0;

		assert_non_null(d);
		assert_int_equal(dirfd(d), fd);
		while ((e = readdir(d)) != NULL)
			count++;
		assert_true(count >= 7);
		closedir(d);	/* closes fd */
	}
	assert_int_equal(opendir(TOPO "/nodes/7") == NULL, 1);
	assert_int_equal(errno, ENOENT);
}

static void
test_paths(void **state)
{
	char buf[PATH_MAX], *p;
	ssize_t n;

	/* libdrm: realpath of the device link, readlink of its subsystem */
	assert_non_null(realpath("/sys/dev/char/226:128/device", buf));
	assert_string_equal(buf, "/sys/devices/pci0000:00/0000:03:00.0");
	p = realpath("/sys/class/kfd/kfd/topology/../topology", NULL);
	assert_non_null(p);
	assert_string_equal(p, TOPO);
	free(p);
	n = readlink("/sys/dev/char/226:128/device/subsystem", buf, sizeof(buf));
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(strrchr(buf, '/'), "/pci");
	assert_int_equal(readlink(TOPO "/generation_id", buf, sizeof(buf)), -1);
	assert_int_equal(errno, EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_read_exact),
		cmocka_unit_test(test_sysfs_stdio),
		cmocka_unit_test(test_stat_results),
		cmocka_unit_test(test_stat_variants),
		cmocka_unit_test(test_fd_lifecycle),
		cmocka_unit_test(test_fd_no_leaks),
		cmocka_unit_test(test_directories),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_passthrough),
		cmocka_unit_test(test_mmap_doorbell),
		cmocka_unit_test(test_fork_rule),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_reentrancy),
		cmocka_unit_test(test_lsmod),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_overcommit),
	};

	if (!getenv("LD_PRELOAD") || !strstr(getenv("LD_PRELOAD"), "libkfdsim")) {
		fprintf(stderr, "run with LD_PRELOAD=libkfdsim.so\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
