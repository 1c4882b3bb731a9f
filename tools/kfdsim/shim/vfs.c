/* SPDX-License-Identifier: MIT */
/*
 * The virtual file tree: a handful of directories grafted onto the real file
 * system (/dev/kfd, /dev/dri, the KFD topology, the render nodes' sysfs
 * devices, /proc/modules, ...). Built once from the profile, never changed
 * afterwards, so lookups take no lock; only the children of dynamic
 * directories (struct ksim_vdyn_ops) are added later, under dyn_lock.
 *
 * Paths are resolved one component at a time with parent pointers, so ".."
 * after a followed symlink is physical, as in the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "shim.h"

#define KSIM_MAX_LINKS	40
#define KSIM_VFS_DEV	makedev(0, 0x4b53)	/* one synthetic device for all nodes */

void
ksim_buf_put(struct ksim_buf *b, const void *data, size_t len)
{
	if (b->failed)
		return;
	if (b->len + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + len + 1)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void
ksim_buf_printf(struct ksim_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if ((size_t)n < sizeof(small)) {
		ksim_buf_put(b, small, (size_t)n);
		return;
	}
	{
		char *big = malloc((size_t)n + 1);

		if (!big) {
			b->failed = true;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		ksim_buf_put(b, big, (size_t)n);
		free(big);
	}
}

void
ksim_buf_free(struct ksim_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}

static struct ksim_vnode *
vnode_new(struct ksim_vfs *vfs, struct ksim_vnode *parent, const char *name,
	  enum ksim_vtype type)
{
	struct ksim_vnode *n = calloc(1, sizeof(*n)), **tail;

	if (!n)
		return NULL;
	n->name = strdup(name);
	if (!n->name) {
		free(n);
		return NULL;
	}
	n->type = type;
	n->ino = vfs->next_ino++;
	n->parent = parent ? parent : n;
	if (parent) {
		for (tail = &parent->child; *tail; tail = &(*tail)->next)
			;
		*tail = n;
	}
	return n;
}

struct ksim_vfs *
ksim_vfs_new(void)
{
	struct ksim_vfs *vfs = calloc(1, sizeof(*vfs));

	if (!vfs)
		return NULL;
	vfs->next_ino = 1000;
	pthread_mutex_init(&vfs->dyn_lock, NULL);
	vfs->root = vnode_new(vfs, NULL, "", KSIM_V_DIR);
	if (!vfs->root) {
		free(vfs);
		return NULL;
	}
	vfs->root->perm = 0755;
	return vfs;
}

static void
vnode_free(struct ksim_vnode *n)
{
	struct ksim_vnode *c, *next;

	for (c = n->child; c; c = next) {
		next = c->next;
		vnode_free(c);
	}
	for (c = n->dyn_child; c; c = next) {
		next = c->next;
		vnode_free(c);
	}
	free(n->name);
	free(n->target);
	free(n);
}

void
ksim_vfs_free(struct ksim_vfs *vfs)
{
	if (!vfs)
		return;
	vnode_free(vfs->root);
	pthread_mutex_destroy(&vfs->dyn_lock);
	free(vfs->ctx);
	free(vfs);
}

/*
 * The child @name of a dynamic directory, if present now: the node built
 * the first time the name was seen, or a new one.
 */
static struct ksim_vnode *
vdyn_child(struct ksim_vnode *dir, const char *name)
{
	struct ksim_vfs *vfs = dir->vfs;
	struct ksim_vnode *c, **tail;

	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	    !dir->dyn->exists(dir, name))
		return NULL;
	pthread_mutex_lock(&vfs->dyn_lock);
	for (tail = &dir->dyn_child; (c = *tail) != NULL; tail = &c->next)
		if (strcmp(c->name, name) == 0)
			goto out;
	/* Not linked into dir->child: only this list reaches it. */
	c = vnode_new(vfs, NULL, name, KSIM_V_DIR);
	if (!c)
		goto out;
	c->parent = dir;
	c->perm = 0555;
	c->owned = true;
	c->priv = dir->priv;
	if (dir->dyn->populate(vfs, c) < 0) {
		vnode_free(c);
		c = NULL;
		goto out;
	}
	*tail = c;
out:
	pthread_mutex_unlock(&vfs->dyn_lock);
	return c;
}

struct ksim_vnode *
ksim_vfs_child(const struct ksim_vnode *dir, const char *name)
{
	struct ksim_vnode *c;

	for (c = dir->child; c; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c;
	if (dir->dyn)
		return vdyn_child((struct ksim_vnode *)dir, name);
	return NULL;
}

/* A new entry of dir; NULL when the name is taken. */
static struct ksim_vnode *
vnode_new_at(struct ksim_vfs *vfs, struct ksim_vnode *dir, const char *name,
	     enum ksim_vtype type)
{
	struct ksim_vnode *c;

	for (c = dir->child; c; c = c->next)
		if (strcmp(c->name, name) == 0)
			return NULL;
	return vnode_new(vfs, dir, name, type);
}

struct ksim_vnode *
ksim_vfs_add_file_at(struct ksim_vfs *vfs, struct ksim_vnode *dir, const char *name,
		     mode_t perm, ksim_render_fn render, const void *priv, uintptr_t arg)
{
	struct ksim_vnode *n = vnode_new_at(vfs, dir, name, KSIM_V_FILE);

	if (!n)
		return NULL;
	n->perm = perm;
	n->render = render;
	n->priv = priv;
	n->arg = arg;
	return n;
}

struct ksim_vnode *
ksim_vfs_mkdir_at(struct ksim_vfs *vfs, struct ksim_vnode *dir, const char *name)
{
	struct ksim_vnode *n = vnode_new_at(vfs, dir, name, KSIM_V_DIR);

	if (!n)
		return NULL;
	n->perm = 0755;
	n->owned = true;
	return n;
}

struct ksim_vnode *
ksim_vfs_add_dyn_at(struct ksim_vfs *vfs, struct ksim_vnode *dir, const char *name,
		    const struct ksim_vdyn_ops *ops, const void *priv, uintptr_t arg)
{
	struct ksim_vnode *n = ksim_vfs_mkdir_at(vfs, dir, name);

	if (!n)
		return NULL;
	n->dyn = ops;
	n->vfs = vfs;
	n->priv = priv;
	n->arg = arg;
	return n;
}

static struct ksim_vnode *
vfs_mkpath(struct ksim_vfs *vfs, const char *path, bool owned_leaf)
{
	struct ksim_vnode *cur = vfs->root, *next;
	char comp[256];
	const char *p = path, *end;

	if (*p != '/')
		return NULL;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchrnul(p, '/');
		if ((size_t)(end - p) >= sizeof(comp))
			return NULL;
		memcpy(comp, p, (size_t)(end - p));
		comp[end - p] = '\0';
		p = end;
		next = ksim_vfs_child(cur, comp);
		if (!next) {
			next = vnode_new(vfs, cur, comp, KSIM_V_DIR);
			if (!next)
				return NULL;
			next->perm = 0755;
			/* A directory we create under an owned one is ours too. */
			next->owned = cur->owned || (owned_leaf && !*p);
		}
		if (next->type != KSIM_V_DIR)
			return NULL;
		cur = next;
	}
	if (owned_leaf)
		cur->owned = true;
	return cur;
}

struct ksim_vnode *
ksim_vfs_mkdir(struct ksim_vfs *vfs, const char *path, bool owned)
{
	return vfs_mkpath(vfs, path, owned);
}

/* Split path into its parent directory (created) and leaf name. */
static struct ksim_vnode *
vfs_new_leaf(struct ksim_vfs *vfs, const char *path, enum ksim_vtype type)
{
	const char *slash = strrchr(path, '/');
	struct ksim_vnode *dir;
	char parent[4096];

	if (!slash || !slash[1] || (size_t)(slash - path) >= sizeof(parent))
		return NULL;
	memcpy(parent, path, (size_t)(slash - path));
	parent[slash - path] = '\0';
	dir = parent[0] ? vfs_mkpath(vfs, parent, false) : vfs->root;
	if (!dir || ksim_vfs_child(dir, slash + 1))
		return NULL;
	return vnode_new(vfs, dir, slash + 1, type);
}

struct ksim_vnode *
ksim_vfs_add_file(struct ksim_vfs *vfs, const char *path, mode_t perm,
		  ksim_render_fn render, const void *priv, uintptr_t arg)
{
	struct ksim_vnode *n = vfs_new_leaf(vfs, path, KSIM_V_FILE);

	if (!n)
		return NULL;
	n->perm = perm;
	n->render = render;
	n->priv = priv;
	n->arg = arg;
	return n;
}

static int
render_text(const struct ksim_vnode *node, struct ksim_buf *out)
{
	ksim_buf_put(out, node->target, strlen(node->target));
	return 0;
}

struct ksim_vnode *
ksim_vfs_add_dyn(struct ksim_vfs *vfs, const char *path, const struct ksim_vdyn_ops *ops,
		 const void *priv, uintptr_t arg)
{
	struct ksim_vnode *n = vfs_mkpath(vfs, path, true);

	if (!n || n->child || n->dyn)
		return NULL;
	n->dyn = ops;
	n->vfs = vfs;
	n->priv = priv;
	n->arg = arg;
	return n;
}

struct ksim_vnode *
ksim_vfs_add_text(struct ksim_vfs *vfs, const char *path, mode_t perm, const char *text)
{
	struct ksim_vnode *n = ksim_vfs_add_file(vfs, path, perm, render_text, NULL, 0);

	if (!n)
		return NULL;
	n->target = strdup(text);
	return n->target ? n : NULL;
}

struct ksim_vnode *
ksim_vfs_add_link(struct ksim_vfs *vfs, const char *path, const char *target)
{
	struct ksim_vnode *n = vfs_new_leaf(vfs, path, KSIM_V_LINK);

	if (!n)
		return NULL;
	n->perm = 0777;
	n->target = strdup(target);
	return n->target ? n : NULL;
}

struct ksim_vnode *
ksim_vfs_add_chr(struct ksim_vfs *vfs, const char *path, mode_t perm,
		 enum ksim_devkind kind, unsigned int major, unsigned int minor)
{
	struct ksim_vnode *n = vfs_new_leaf(vfs, path, KSIM_V_CHR);

	if (!n)
		return NULL;
	n->perm = perm;
	n->devkind = kind;
	n->dev_major = major;
	n->dev_minor = minor;
	return n;
}

int
ksim_vfs_path(const struct ksim_vnode *node, char *buf, size_t size)
{
	const struct ksim_vnode *chain[128];
	size_t depth = 0, len = 0, n;

	while (node->parent != node) {
		if (depth == sizeof(chain) / sizeof(chain[0]))
			return -ENAMETOOLONG;
		chain[depth++] = node;
		node = node->parent;
	}
	if (size < 2)
		return -ENAMETOOLONG;
	if (depth == 0) {
		buf[0] = '/';
		buf[1] = '\0';
		return 1;
	}
	while (depth > 0) {
		const struct ksim_vnode *c = chain[--depth];

		n = strlen(c->name);
		if (len + 1 + n + 1 > size)
			return -ENAMETOOLONG;
		buf[len++] = '/';
		memcpy(buf + len, c->name, n);
		len += n;
	}
	buf[len] = '\0';
	return (int)len;
}

/*
 * Leave the tree: the real path is the path of cur followed by the
 * components still to resolve.
 */
static bool
lookup_redirect(const struct ksim_vnode *cur, const char *name, const char *rest,
		bool diverted, struct ksim_lookup *res)
{
	size_t len;
	int n;

	if (!diverted)
		return false;	/* the caller's own path means the same thing */
	n = ksim_vfs_path(cur, res->real, sizeof(res->real));
	if (n < 0) {
		res->error = n;
		return true;
	}
	len = (size_t)n;
	if (len == 1)
		len = 0;	/* root: avoid "//" */
	n = snprintf(res->real + len, sizeof(res->real) - len, "/%s%s%s", name,
		     *rest ? "/" : "", rest);
	if (n < 0 || (size_t)n >= sizeof(res->real) - len) {
		res->error = -ENAMETOOLONG;
		return true;
	}
	res->redirect = true;
	return true;
}

bool
ksim_vfs_lookup(struct ksim_vfs *vfs, struct ksim_vnode *base, const char *path,
		int flags, struct ksim_lookup *res)
{
	char work[2][4096], comp[256];
	struct ksim_vnode *cur, *next;
	const char *p, *end;
	bool diverted = false, trailing_slash;
	int links = 0, w = 0;
	size_t plen;

	res->node = NULL;
	res->redirect = false;
	res->error = 0;
	res->real[0] = '\0';
	if (!path)
		return false;
	plen = strlen(path);
	if (plen >= sizeof(work[0])) {
		res->error = -ENAMETOOLONG;
		return true;
	}
	if (path[0] == '/')
		cur = vfs->root;
	else if (base)
		cur = base;
	else
		return false;
	if (plen == 0) {
		res->error = -ENOENT;
		return true;
	}
	memcpy(work[w], path, plen + 1);
	trailing_slash = path[plen - 1] == '/';
	p = work[w];

	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchrnul(p, '/');
		if ((size_t)(end - p) >= sizeof(comp)) {
			res->error = -ENAMETOOLONG;
			return true;
		}
		memcpy(comp, p, (size_t)(end - p));
		comp[end - p] = '\0';
		p = end;
		while (*p == '/')
			p++;

		if (cur->type != KSIM_V_DIR) {
			res->error = -ENOTDIR;
			return true;
		}
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			cur = cur->parent;
			continue;
		}
		next = ksim_vfs_child(cur, comp);
		if (!next) {
			if (cur->owned) {
				res->error = -ENOENT;
				return true;
			}
			return lookup_redirect(cur, comp, p, diverted, res);
		}
		if (next->type == KSIM_V_LINK &&
		    (*p || trailing_slash || !(flags & KSIM_LOOKUP_NOFOLLOW))) {
			int nw = 1 - w, n;

			if (++links > KSIM_MAX_LINKS) {
				res->error = -ELOOP;
				return true;
			}
			n = snprintf(work[nw], sizeof(work[nw]), "%s%s%s", next->target,
				     *p ? "/" : "", p);
			if (n < 0 || (size_t)n >= sizeof(work[nw])) {
				res->error = -ENAMETOOLONG;
				return true;
			}
			w = nw;
			p = work[w];
			if (*p == '/')
				cur = vfs->root;
			diverted = true;
			continue;
		}
		cur = next;
	}
	if (trailing_slash && cur->type != KSIM_V_DIR) {
		res->error = -ENOTDIR;
		return true;
	}
	/*
	 * A directory that is not ours and has no virtual content reached
	 * without symlinks (say "/" or "/sys") is the real one.
	 */
	if (cur->type == KSIM_V_DIR && !cur->owned && !diverted && !cur->child)
		return false;
	res->node = cur;
	return true;
}

static struct timespec vfs_time;

void
ksim_vfs_stat(const struct ksim_vnode *node, struct stat *st)
{
	if (!vfs_time.tv_sec)
		clock_gettime(CLOCK_REALTIME, &vfs_time);
	memset(st, 0, sizeof(*st));
	st->st_dev = KSIM_VFS_DEV;
	st->st_ino = node->ino;
	st->st_nlink = 1;
	st->st_blksize = 4096;
	st->st_atim = st->st_mtim = st->st_ctim = vfs_time;
	switch (node->type) {
	case KSIM_V_DIR:
		st->st_mode = S_IFDIR | node->perm;
		st->st_nlink = 2;
		break;
	case KSIM_V_FILE:
		st->st_mode = S_IFREG | node->perm;
		/* sysfs reports a page for every attribute, whatever it holds */
		st->st_size = 4096;
		st->st_blocks = 8;
		break;
	case KSIM_V_LINK:
		st->st_mode = S_IFLNK | 0777;
		st->st_size = (off_t)strlen(node->target);
		break;
	case KSIM_V_CHR:
		st->st_mode = S_IFCHR | node->perm;
		st->st_rdev = makedev(node->dev_major, node->dev_minor);
		break;
	}
}

int
ksim_vfs_materialize(const struct ksim_vnode *node, int oflags)
{
	struct ksim_buf buf = { 0 };
	unsigned int mflags = MFD_ALLOW_SEALING;
	size_t off = 0;
	int fd, ret;

	if (node->type != KSIM_V_FILE || !node->render)
		return -EINVAL;
	ret = node->render(node, &buf);
	if (ret < 0) {
		ksim_buf_free(&buf);
		return ret;
	}
	if (buf.failed) {
		ksim_buf_free(&buf);
		return -ENOMEM;
	}
	if (oflags & O_CLOEXEC)
		mflags |= MFD_CLOEXEC;
	fd = memfd_create("kfdsim-vfile", mflags);
	if (fd < 0) {
		ret = -errno;
		ksim_buf_free(&buf);
		return ret;
	}
	while (off < buf.len) {
		ssize_t n = write(fd, buf.data + off, buf.len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			ksim_real.close(fd);
			ksim_buf_free(&buf);
			return ret;
		}
		off += (size_t)n;
	}
	ksim_buf_free(&buf);
	/* Attribute files are read-only: writes must fail as they would. */
	ksim_real.fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK |
			F_SEAL_SEAL);
	lseek(fd, 0, SEEK_SET);
	if (oflags & O_NONBLOCK)
		ksim_real.fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}
