/* SPDX-License-Identifier: MIT */
/* Directory streams over virtual directories (see vdir.c). */
#ifndef KSIM_VDIR_H
#define KSIM_VDIR_H

#include "shim.h"

struct ksim_dir;

/*
 * Open a stream listing node. fd is the directory fd the stream owns (from
 * fdopendir) or -1. Returns NULL with errno set on failure.
 */
DIR *ksim_vdir_open(struct ksim_vnode *node, int fd);

/* Our stream behind dir, or NULL when dir is a real one. */
struct ksim_dir *ksim_vdir_find(DIR *dir);

/* Next entry or NULL at the end. The entry lives until the next call. */
struct dirent64 *ksim_vdir_read(struct ksim_dir *d);

void ksim_vdir_rewind(struct ksim_dir *d);
long ksim_vdir_tell(struct ksim_dir *d);
void ksim_vdir_seek(struct ksim_dir *d, long pos);

/* A directory fd for the stream (created on first use). -1 and errno on error. */
int ksim_vdir_fd(struct ksim_dir *d);

/* Free the stream and its fd. */
int ksim_vdir_close(struct ksim_dir *d);

#endif
