/* SPDX-License-Identifier: MIT */
/*
 * The libc definitions behind our wrappers, found with dlsym(RTLD_NEXT).
 * Resolved all at once on first use: a wrapper can run before any
 * constructor of ours (another library's constructor may open a file).
 */
#include <dlfcn.h>
#include <pthread.h>

#include "shim.h"

__thread int ksim_in_shim __attribute__((tls_model("initial-exec")));

struct ksim_real ksim_real;

static pthread_once_t real_once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name) \
	(*(void **)&ksim_real.field = dlsym(RTLD_NEXT, name))

static void
real_resolve(void)
{
	/* dlsym can open files (locale, libgcc) on error paths: stay real. */
	ksim_in_shim++;
	RESOLVE(open, "open");
	RESOLVE(openat, "openat");
	RESOLVE(fopen, "fopen");
	RESOLVE(fclose, "fclose");
	RESOLVE(close, "close");
	RESOLVE(close_range, "close_range");
	RESOLVE(closefrom, "closefrom");
	RESOLVE(dup, "dup");
	RESOLVE(dup2, "dup2");
	RESOLVE(dup3, "dup3");
	RESOLVE(fcntl, "fcntl");
	RESOLVE(ioctl, "ioctl");
	RESOLVE(mmap, "mmap");
	RESOLVE(munmap, "munmap");
	RESOLVE(mremap, "mremap");
	RESOLVE(stat, "stat");
	RESOLVE(lstat, "lstat");
	RESOLVE(fstat, "fstat");
	RESOLVE(fstatat, "fstatat");
	RESOLVE(statx, "statx");
	RESOLVE(access, "access");
	RESOLVE(faccessat, "faccessat");
	RESOLVE(readlink, "readlink");
	RESOLVE(readlinkat, "readlinkat");
	RESOLVE(realpath, "realpath");
	RESOLVE(getxattr, "getxattr");
	RESOLVE(lgetxattr, "lgetxattr");
	RESOLVE(listxattr, "listxattr");
	RESOLVE(llistxattr, "llistxattr");
	RESOLVE(opendir, "opendir");
	RESOLVE(fdopendir, "fdopendir");
	RESOLVE(readdir, "readdir");
	RESOLVE(readdir64, "readdir64");
	RESOLVE(readdir_r, "readdir_r");
	RESOLVE(closedir, "closedir");
	RESOLVE(rewinddir, "rewinddir");
	RESOLVE(telldir, "telldir");
	RESOLVE(seekdir, "seekdir");
	RESOLVE(dirfd, "dirfd");
	RESOLVE(scandir, "scandir");
	RESOLVE(get_nprocs, "get_nprocs");
	RESOLVE(get_nprocs_conf, "get_nprocs_conf");
	ksim_in_shim--;
}

void
ksim_real_init(void)
{
	pthread_once(&real_once, real_resolve);
}
