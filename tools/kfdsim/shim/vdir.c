/* SPDX-License-Identifier: MIT */
/*
 * Directory streams over virtual directories. glibc's DIR is opaque, so a
 * virtual stream is our own object handed out as a DIR *; every DIR entry
 * point is wrapped and recognises ours through a registry of live streams.
 *
 * The listing is taken when the stream opens: "." and "..", the virtual
 * children (for a dynamic directory, those present at that moment), and
 * for directories that are not entirely ours (such as /sys/dev/char) the
 * entries of the real directory too.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vdir.h"

#define VDIR_MAGIC 0x5249444d49534b46ull	/* "FKSIMDIR" */

struct vdir_ent {
	uint64_t ino;
	unsigned char type;
	char name[256];
};

struct ksim_dir {
	uint64_t magic;
	struct ksim_vnode *node;
	struct vdir_ent *ents;
	size_t count, cap, pos;
	int fd;			/* -1 until dirfd() asks for one */
	struct dirent64 cur;
	struct ksim_dir *next;	/* registry */
};

static struct ksim_dir *vdir_list;
static pthread_mutex_t vdir_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned char
vtype_to_dtype(enum ksim_vtype t)
{
	switch (t) {
	case KSIM_V_DIR: return DT_DIR;
	case KSIM_V_FILE: return DT_REG;
	case KSIM_V_LINK: return DT_LNK;
	case KSIM_V_CHR: return DT_CHR;
	}
	return DT_UNKNOWN;
}

static bool
vdir_has(const struct ksim_dir *d, const char *name)
{
	for (size_t i = 0; i < d->count; i++)
		if (strcmp(d->ents[i].name, name) == 0)
			return true;
	return false;
}

static int
vdir_add(struct ksim_dir *d, const char *name, uint64_t ino, unsigned char type)
{
	struct vdir_ent *e;

	if (strlen(name) >= sizeof(e->name))
		return 0;
	if (d->count == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;

		e = realloc(d->ents, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		d->ents = e;
		d->cap = cap;
	}
	e = &d->ents[d->count++];
	e->ino = ino;
	e->type = type;
	strcpy(e->name, name);
	return 0;
}

/* Add the entries of the real directory behind a non-owned node. */
static void
vdir_add_real(struct ksim_dir *d)
{
	char path[4096];
	struct dirent *de;
	DIR *real;

	if (ksim_vfs_path(d->node, path, sizeof(path)) < 0)
		return;
	real = ksim_real.opendir(path);
	if (!real)
		return;
	while ((de = ksim_real.readdir(real)) != NULL) {
		if (vdir_has(d, de->d_name))
			continue;
		if (vdir_add(d, de->d_name, de->d_ino, de->d_type) < 0)
			break;
	}
	ksim_real.closedir(real);
}

/* One child of a dynamic directory, as its callback names it. */
static int
vdir_add_dyn(void *arg, const char *name)
{
	struct ksim_dir *d = arg;
	struct ksim_vnode *c;

	if (vdir_has(d, name))
		return 0;
	c = ksim_vfs_child(d->node, name);
	if (!c)
		return 0;	/* gone meanwhile */
	return vdir_add(d, name, c->ino, vtype_to_dtype(c->type));
}

DIR *
ksim_vdir_open(struct ksim_vnode *node, int fd)
{
	struct ksim_dir *d;
	struct ksim_vnode *c;

	if (node->type != KSIM_V_DIR) {
		errno = ENOTDIR;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->magic = VDIR_MAGIC;
	d->node = node;
	d->fd = fd;
	if (vdir_add(d, ".", node->ino, DT_DIR) < 0 ||
	    vdir_add(d, "..", node->parent->ino, DT_DIR) < 0)
		goto nomem;
	for (c = node->child; c; c = c->next)
		if (vdir_add(d, c->name, c->ino, vtype_to_dtype(c->type)) < 0)
			goto nomem;
	if (node->dyn && node->dyn->list(node, vdir_add_dyn, d) < 0)
		goto nomem;
	if (!node->owned)
		vdir_add_real(d);

	pthread_mutex_lock(&vdir_lock);
	d->next = vdir_list;
	__atomic_store_n(&vdir_list, d, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&vdir_lock);
	return (DIR *)d;

nomem:
	free(d->ents);
	free(d);
	errno = ENOMEM;
	return NULL;
}

struct ksim_dir *
ksim_vdir_find(DIR *dir)
{
	struct ksim_dir *d;

	if (!dir || !__atomic_load_n(&vdir_list, __ATOMIC_ACQUIRE))
		return NULL;
	pthread_mutex_lock(&vdir_lock);
	for (d = vdir_list; d; d = d->next)
		if ((DIR *)d == dir)
			break;
	pthread_mutex_unlock(&vdir_lock);
	return d;
}

struct dirent64 *
ksim_vdir_read(struct ksim_dir *d)
{
	const struct vdir_ent *e;

	if (d->pos >= d->count)
		return NULL;
	e = &d->ents[d->pos++];
	memset(&d->cur, 0, sizeof(d->cur));
	d->cur.d_ino = e->ino;
	d->cur.d_off = (off64_t)d->pos;
	d->cur.d_reclen = sizeof(d->cur);
	d->cur.d_type = e->type;
	strcpy(d->cur.d_name, e->name);
	return &d->cur;
}

void
ksim_vdir_rewind(struct ksim_dir *d)
{
	d->pos = 0;
}

long
ksim_vdir_tell(struct ksim_dir *d)
{
	return (long)d->pos;
}

void
ksim_vdir_seek(struct ksim_dir *d, long pos)
{
	if (pos >= 0 && (size_t)pos <= d->count)
		d->pos = (size_t)pos;
}

int
ksim_vdir_fd(struct ksim_dir *d)
{
	int fd, ret;

	if (d->fd >= 0)
		return d->fd;
	fd = memfd_create("kfdsim-vdir", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = ksim_fd_register(fd, KSIM_FD_VDIR, d->node, NULL);
	if (ret < 0) {
		ksim_real.close(fd);
		errno = -ret;
		return -1;
	}
	d->fd = fd;
	return fd;
}

int
ksim_vdir_close(struct ksim_dir *d)
{
	struct ksim_dir **pp;

	pthread_mutex_lock(&vdir_lock);
	for (pp = &vdir_list; *pp; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	}
	pthread_mutex_unlock(&vdir_lock);
	if (d->fd >= 0) {
		ksim_fd_forget(d->fd);
		ksim_real.close(d->fd);
	}
	d->magic = 0;
	free(d->ents);
	free(d);
	return 0;
}
