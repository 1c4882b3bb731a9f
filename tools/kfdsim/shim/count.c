/* SPDX-License-Identifier: MIT */
/*
 * The count of ioctls the simulated device answered, for tests that check
 * a capture is complete: KFDSIM_IOCTL_COUNT names a file whose first 8
 * bytes every process of the run adds its answered ioctls to, atomically,
 * through a shared mapping. A fork child inherits the mapping; an exec'd
 * image maps the file again. Nothing is counted without the variable.
 *
 * The mapping is made once and never unmapped, so an ioctl issued from a
 * destructor after ours has run (ROCr 6.x tears down in _dl_fini) still
 * counts.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim.h"
#include "shim.h"

#define COUNT_FILE_SIZE	4096

static uint64_t *count_word;
static pthread_once_t count_once = PTHREAD_ONCE_INIT;

static void
count_open(void)
{
	const char *path = getenv(KSIM_ENV_IOCTL_COUNT);
	long fd, m;

	if (!path || !*path)
		return;
	/* Raw system calls: the file is ours, not a path the shim serves. */
	fd = syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (syscall(SYS_ftruncate, (int)fd, (off_t)COUNT_FILE_SIZE) == 0) {
		m = syscall(SYS_mmap, NULL, (size_t)COUNT_FILE_SIZE,
			    PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
		if (m != -1)
			count_word = (uint64_t *)m;
	}
	syscall(SYS_close, (int)fd);
}

void
ksim_count_ioctl(void)
{
	pthread_once(&count_once, count_open);
	if (count_word)
		__atomic_fetch_add(count_word, 1, __ATOMIC_RELAXED);
}
