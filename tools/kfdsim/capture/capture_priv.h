/* SPDX-License-Identifier: MIT */
/* Shared by capture.c (sysfs) and capture_gpu.c (render node and /dev/kfd). */
#ifndef KSIM_CAPTURE_PRIV_H
#define KSIM_CAPTURE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ksim_capture.h"

/* The profile text being written. */
struct cap_text {
	char *data;
	size_t len, cap;
	bool failed;
};

struct cap_ctx {
	const char *root;	/* topology directory */
	struct cap_text text;
	int kfd_fd;		/* /dev/kfd, opened for the first GPU */
	int xnack_default;	/* the process's XNACK mode when opened */
	int xnack_capable;	/* whether XNACK could be turned on */
	int render_fds[64];	/* VMs stay acquired until the end */
	unsigned int n_render;
	char err[512];
};

void cap_printf(struct cap_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record the first error (later ones are consequences). */
void cap_error(struct cap_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A whole small file, NUL-terminated; NULL with errno set on failure. */
char *cap_read_file(const char *path, size_t *len);

/* A file holding one number (decimal or 0x hex). 0 or -1. */
int cap_read_u64(const char *path, uint64_t *out);

/* The value of "key value" in properties text (kc_sysfs_prop_get()). */
bool cap_prop(const char *text, const char *key, uint64_t *out);

/*
 * Append the [node N gpu] and [node N drm] sections of a GPU node whose
 * sysfs properties text is @props. 0, or -1 with the error recorded.
 */
int cap_gpu(struct cap_ctx *c, unsigned int node, uint32_t gpu_id, const char *props);

/*
 * Append the board keys of a [node N drm] section (product_name ...
 * vddgfx) from the sysfs attributes and hwmon of render node @minor.
 */
void cap_board(struct cap_ctx *c, unsigned int minor);

/*
 * Append the [cpu] and [cpu cache C] sections of this machine's CPUs
 * (@root/proc/cpuinfo, @root/sys/devices/system; @root "" for this
 * machine, a directory for tests). -1 when cpuinfo is missing or not an
 * x86 one (the profile then derives its CPUs).
 */
int cap_cpu(struct cap_text *t, const char *root);

/* Close what cap_gpu() opened. */
void cap_gpu_finish(struct cap_ctx *c);

#endif
