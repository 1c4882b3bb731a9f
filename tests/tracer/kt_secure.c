/* SPDX-License-Identifier: MIT */
/*
 * The program test_secure runs, once setuid and once not:
 *
 *   kt_secure LIB
 *
 * It prints "secure=<AT_SECURE> ruid=<uid> euid=<euid>", then loads the
 * capture library LIB with dlopen() (which secure mode does not restrict,
 * unlike LD_PRELOAD) and opens /dev/kfd through the library's open(): a
 * device event, which makes the library create its trace (named by
 * $KFDTRACE_OUTPUT) unless it refuses to run. The open itself may fail
 * (there is no /dev/kfd here); a failed open of a device path is recorded
 * all the same. Exits 0 once the library is loaded, 2 when it cannot be.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

/*
 * Under ASan: LeakSanitizer cannot stop the threads of a setuid process
 * (it is not dumpable) and aborts at exit, and test_secure runs us with an
 * empty environment, so ASAN_OPTIONS cannot say this. Without ASan this
 * hook is never called.
 */
const char *__asan_default_options(void)
	__attribute__((visibility("default")));

const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

int
main(int argc, char **argv)
{
	int (*lib_open)(const char *, int, ...);
	void *lib;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: kt_secure LIB\n");
		return 2;
	}
	printf("secure=%lu ruid=%d euid=%d\n", getauxval(AT_SECURE),
	       (int)getuid(), (int)geteuid());
	fflush(stdout);
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "kt_secure: %s\n", dlerror());
		return 2;
	}
	lib_open = (int (*)(const char *, int, ...))dlsym(lib, "open");
	if (!lib_open) {
		fprintf(stderr, "kt_secure: no open in %s\n", argv[1]);
		return 2;
	}
	fd = lib_open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	/* exit(), not _exit(): the library's destructor closes its trace. */
	exit(0);
}
