/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces of libkfdsim.so, the LD_PRELOAD library that makes an
 * unmodified process see the simulated KFD device: /dev/kfd, the render
 * nodes, the sysfs topology and the few other files real clients look at.
 *
 * Layering inside the library:
 *   real.c     the libc functions we wrap, resolved lazily with RTLD_NEXT
 *   fdtab.c    which fds are ours (device files, virtual files and dirs)
 *   vfs.c      the virtual file tree and path resolution
 *   vdir.c     DIR streams over virtual directories
 *   tree_*.c   building the tree from the device profile
 *   wrap_*.c   the exported libc entry points
 *   state.c    configuration (environment) and the device instance
 */
#ifndef KSIM_SHIM_H
#define KSIM_SHIM_H

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#define KSIM_EXPORT __attribute__((visibility("default")))

/*
 * Re-entrancy guard. While a thread is inside the shim (or inside the device
 * model, which calls open/mmap/close itself), every wrapper forwards straight
 * to libc. initial-exec TLS so that reading it never calls into the dynamic
 * linker (which could allocate and recurse).
 */
extern __thread int ksim_in_shim __attribute__((tls_model("initial-exec")));

static inline int
ksim_enter(void)
{
	return ksim_in_shim++ == 0;
}

static inline void
ksim_leave(void)
{
	ksim_in_shim--;
}

/* ---- real.c: the next definitions of the functions we interpose ---- */

struct statx;

struct ksim_real {
	int (*open)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	FILE *(*fopen)(const char *, const char *);
	int (*fclose)(FILE *);
	int (*close)(int);
	int (*close_range)(unsigned int, unsigned int, int);
	void (*closefrom)(int);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	int (*ioctl)(int, unsigned long, ...);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	int (*munmap)(void *, size_t);
	void *(*mremap)(void *, size_t, size_t, int, ...);
	int (*stat)(const char *, struct stat *);
	int (*lstat)(const char *, struct stat *);
	int (*fstat)(int, struct stat *);
	int (*fstatat)(int, const char *, struct stat *, int);
	int (*statx)(int, const char *, int, unsigned int, struct statx *);
	int (*access)(const char *, int);
	int (*faccessat)(int, const char *, int, int);
	ssize_t (*readlink)(const char *, char *, size_t);
	ssize_t (*readlinkat)(int, const char *, char *, size_t);
	char *(*realpath)(const char *, char *);
	ssize_t (*getxattr)(const char *, const char *, void *, size_t);
	ssize_t (*lgetxattr)(const char *, const char *, void *, size_t);
	ssize_t (*listxattr)(const char *, char *, size_t);
	ssize_t (*llistxattr)(const char *, char *, size_t);
	DIR *(*opendir)(const char *);
	DIR *(*fdopendir)(int);
	struct dirent *(*readdir)(DIR *);
	struct dirent64 *(*readdir64)(DIR *);
	int (*readdir_r)(DIR *, struct dirent *, struct dirent **);
	int (*closedir)(DIR *);
	void (*rewinddir)(DIR *);
	long (*telldir)(DIR *);
	void (*seekdir)(DIR *, long);
	int (*dirfd)(DIR *);
	int (*scandir)(const char *, struct dirent ***,
		       int (*)(const struct dirent *),
		       int (*)(const struct dirent **, const struct dirent **));
	int (*get_nprocs)(void);
	int (*get_nprocs_conf)(void);
};

extern struct ksim_real ksim_real;

/* Resolve every entry of ksim_real once (idempotent, thread-safe). */
void ksim_real_init(void);
/* Count one answered ioctl in the KFDSIM_IOCTL_COUNT file, if named. */
void ksim_count_ioctl(void);

/* ---- debug output (KFDSIM_DEBUG) ---- */

extern int ksim_debug_level;

void ksim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define ksim_dbg(...) do { if (ksim_debug_level > 0) ksim_log(__VA_ARGS__); } while (0)

/* ---- vfs.c: the virtual file tree ---- */

enum ksim_vtype {
	KSIM_V_DIR,
	KSIM_V_FILE,	/* contents produced at open time by a render function */
	KSIM_V_LINK,	/* symbolic link, target relative to its directory or absolute */
	KSIM_V_CHR,	/* a device file backed by the model */
};

/* Growable byte buffer that render functions print into. */
struct ksim_buf {
	char *data;
	size_t len;
	size_t cap;
	bool failed;	/* an allocation failed; contents are truncated */
};

void ksim_buf_printf(struct ksim_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ksim_buf_put(struct ksim_buf *b, const void *data, size_t len);
void ksim_buf_free(struct ksim_buf *b);

struct ksim_vnode;
struct ksim_vfs;

/* Produces a file's bytes; returns 0 or -errno. */
typedef int (*ksim_render_fn)(const struct ksim_vnode *node, struct ksim_buf *out);

/* Receives one child name from ksim_vdyn_ops.list; nonzero stops the walk. */
typedef int (*ksim_vdyn_emit_fn)(void *arg, const char *name);

/*
 * A dynamic directory: its children come and go with the simulated
 * machine (/sys/class/kfd/kfd/proc/<pid>/, .../queues/<qid>/). The rest of
 * the tree never changes; a dynamic directory asks its callbacks at every
 * lookup and listing, and builds each child subtree once, the first time
 * the name is seen: the subtree stays (nodes are never freed while the
 * tree lives, since fds and streams point at them) and its files render
 * live data at open, failing with the render function's error once the
 * child is gone.
 */
struct ksim_vdyn_ops {
	/* Emit the name of every child present now. 0 or -errno. */
	int (*list)(const struct ksim_vnode *dir, ksim_vdyn_emit_fn emit, void *arg);
	/* Whether child @name is present now. */
	bool (*exists)(const struct ksim_vnode *dir, const char *name);
	/*
	 * Fill @child, a new owned directory named after the child, with its
	 * entries (ksim_vfs_add_file_at() and friends). Runs once per name,
	 * under the tree's dynamic lock. 0 or -errno.
	 */
	int (*populate)(struct ksim_vfs *vfs, struct ksim_vnode *child);
};

/* Which model file a device node opens. */
enum ksim_devkind {
	KSIM_DEV_NONE = 0,
	KSIM_DEV_KFD,
	KSIM_DEV_RENDER,
};

struct ksim_vnode {
	char *name;
	enum ksim_vtype type;
	/*
	 * A directory is "owned" when its listing is entirely ours. A directory
	 * that is not owned stands for a real directory (such as /sys or /dev)
	 * that merely gains our entries: names we do not know fall through to
	 * the real file system.
	 */
	bool owned;
	mode_t perm;			/* permission bits */
	uint64_t ino;			/* synthetic inode number */
	struct ksim_vnode *parent;
	struct ksim_vnode *child;	/* first child (directories) */
	struct ksim_vnode *next;	/* next sibling, in insertion order */
	char *target;			/* KSIM_V_LINK target; fixed KSIM_V_FILE text */
	ksim_render_fn render;		/* KSIM_V_FILE */
	const void *priv;		/* render argument */
	uintptr_t arg;			/* second render argument */
	enum ksim_devkind devkind;	/* KSIM_V_CHR */
	unsigned int dev_major, dev_minor;
	const struct ksim_vdyn_ops *dyn;	/* dynamic directory, or NULL */
	struct ksim_vfs *vfs;		/* dynamic directory: its tree */
	struct ksim_vnode *dyn_child;	/* dynamic directory: children built so far */
};

/* Result of resolving a path against the virtual tree. */
struct ksim_lookup {
	struct ksim_vnode *node;	/* set when the path is virtual */
	/*
	 * With redirect set, the path left the tree through a virtual symlink
	 * and names something real: real[] is the path to use instead.
	 */
	char real[4096];
	bool redirect;
	int error;			/* -errno when resolution failed inside the tree */
};

struct ksim_vfs {
	struct ksim_vnode *root;
	uint64_t next_ino;
	void *ctx;			/* builder's data, freed with the tree */
	pthread_mutex_t dyn_lock;	/* dynamic children, and next_ino after the build */
};

struct ksim_vfs *ksim_vfs_new(void);
void ksim_vfs_free(struct ksim_vfs *vfs);

/*
 * Create (or return the existing) directory at an absolute path, creating
 * missing parents as non-owned directories. Returns NULL on allocation
 * failure or when a non-directory is in the way.
 */
struct ksim_vnode *ksim_vfs_mkdir(struct ksim_vfs *vfs, const char *path, bool owned);
struct ksim_vnode *ksim_vfs_add_file(struct ksim_vfs *vfs, const char *path, mode_t perm,
				     ksim_render_fn render, const void *priv, uintptr_t arg);
/* A file whose contents never change. */
struct ksim_vnode *ksim_vfs_add_text(struct ksim_vfs *vfs, const char *path, mode_t perm,
				     const char *text);
struct ksim_vnode *ksim_vfs_add_link(struct ksim_vfs *vfs, const char *path,
				     const char *target);
struct ksim_vnode *ksim_vfs_add_chr(struct ksim_vfs *vfs, const char *path, mode_t perm,
				    enum ksim_devkind kind, unsigned int major,
				    unsigned int minor);

/*
 * A dynamic directory at an absolute path (owned; parents created as by
 * ksim_vfs_mkdir). @priv and @arg are for the callbacks.
 */
struct ksim_vnode *ksim_vfs_add_dyn(struct ksim_vfs *vfs, const char *path,
				    const struct ksim_vdyn_ops *ops, const void *priv,
				    uintptr_t arg);

/*
 * Entries of a directory node (for ksim_vdyn_ops.populate): a file, an
 * owned directory, a dynamic directory, a symlink. NULL on allocation
 * failure or when the name is taken.
 */
struct ksim_vnode *ksim_vfs_add_file_at(struct ksim_vfs *vfs, struct ksim_vnode *dir,
					const char *name, mode_t perm, ksim_render_fn render,
					const void *priv, uintptr_t arg);
struct ksim_vnode *ksim_vfs_mkdir_at(struct ksim_vfs *vfs, struct ksim_vnode *dir,
				     const char *name);
struct ksim_vnode *ksim_vfs_add_dyn_at(struct ksim_vfs *vfs, struct ksim_vnode *dir,
				       const char *name, const struct ksim_vdyn_ops *ops,
				       const void *priv, uintptr_t arg);

/*
 * Find a direct child by name; in a dynamic directory, a child present
 * now (built on first use).
 */
struct ksim_vnode *ksim_vfs_child(const struct ksim_vnode *dir, const char *name);

#define KSIM_LOOKUP_NOFOLLOW 1	/* do not follow a symlink in the last component */

/*
 * Resolve path (absolute, or relative to the virtual directory base when
 * base is not NULL). Fills *res. Returns true if the result concerns us (a
 * virtual node, a redirect or an error), false when the caller should use
 * the real file system with its own path.
 */
bool ksim_vfs_lookup(struct ksim_vfs *vfs, struct ksim_vnode *base, const char *path,
		     int flags, struct ksim_lookup *res);

/* Absolute path of a node into buf. Returns the length or -ENAMETOOLONG. */
int ksim_vfs_path(const struct ksim_vnode *node, char *buf, size_t size);

/* Fill a struct stat for a virtual node. */
void ksim_vfs_stat(const struct ksim_vnode *node, struct stat *st);

/* Render a file node into a new memfd positioned at 0. Returns fd or -errno. */
int ksim_vfs_materialize(const struct ksim_vnode *node, int oflags);

/* ---- fdtab.c: our file descriptors ---- */

enum ksim_fdkind {
	KSIM_FD_DEVICE = 1,	/* /dev/kfd or a render node; model file attached */
	KSIM_FD_VFILE,		/* a rendered virtual file (memfd) */
	KSIM_FD_VDIR,		/* a virtual directory */
};

struct ksim_file;

/* One open file description: shared by dup'ed fds. */
struct ksim_ofd {
	_Atomic int refs;		/* slots and lookups; see fdtab.c */
	struct ksim_ofd *free_next;	/* on the free list, once released */
	enum ksim_fdkind kind;
	struct ksim_vnode *node;
	struct ksim_file *file;		/* model file (KSIM_FD_DEVICE) */
	dev_t backing_dev;		/* identity of the backing real file */
	ino_t backing_ino;
};

/* Register fd as a new open file description. Returns 0 or -errno. */
int ksim_fd_register(int fd, enum ksim_fdkind kind, struct ksim_vnode *node,
		     struct ksim_file *file);

/*
 * Look up fd. Returns a referenced ofd (release with ksim_ofd_put) or NULL.
 * Checks that the fd is still the file we registered (one fstat): a stale
 * entry (the fd was closed behind our back and reused) is dropped.
 */
struct ksim_ofd *ksim_fd_get(int fd);

/*
 * Look up fd like ksim_fd_get() but without a system call: trusts the
 * table, which the wrappers keep in step (close, dup*, close_range, fd
 * numbers handed out again). The ioctl fast path. With KFDSIM_FD_CHECK=call
 * the same as ksim_fd_get().
 */
struct ksim_ofd *ksim_fd_get_trusted(int fd);
void ksim_ofd_put(struct ksim_ofd *ofd);

/*
 * fd was just created by a call we saw (open, socket, pipe, recvmsg ...):
 * an entry at that number is left over from a close we did not see, and
 * is dropped.
 */
void ksim_fd_fresh(int fd);

/* Forget every fd from first to last inclusive (close_range). */
void ksim_fd_forget_range(unsigned int first, unsigned int last);

/*
 * Register fd, which the model says is file, as another reference to the
 * description already open on file, or a new one. For fds that reached the
 * process behind our back (SCM_RIGHTS, a raw dup). Returns a referenced ofd
 * or NULL.
 */
struct ksim_ofd *ksim_fd_adopt(int fd, struct ksim_vnode *node, struct ksim_file *file);

/*
 * ksim_fd_adopt_received() - fd just arrived in an SCM_RIGHTS message:
 * when it is a model file, register it at once (wrap_fd.c), so that
 * fstat() and readlink() of it answer as for a device file before its
 * first ioctl.
 */
void ksim_fd_adopt_received(int fd);

/* Make newfd another reference to oldfd's description (dup). */
void ksim_fd_dup(int oldfd, int newfd);

/* Forget fd (it is being closed). */
void ksim_fd_forget(int fd);

/* Fast test without locking: could fd be ours? */
bool ksim_fd_maybe_ours(int fd);

/* ---- state.c: configuration and the device ---- */

struct ksim_device;

/* The character device major we give /dev/kfd (real kernels pick one). */
#define KSIM_KFD_MAJOR	235
#define KSIM_DRM_MAJOR	226

/*
 * Initialise everything (configuration, device, tree) once. Returns the tree
 * or NULL when the simulator is not usable (the reason was logged).
 */
struct ksim_vfs *ksim_state_vfs(void);

/* The device (created on first call), or NULL when it cannot be. */
struct ksim_device *ksim_state_device(void);

/* The device if it was already created (never initialises). */
struct ksim_device *ksim_state_device_if_ready(void);

/*
 * Quick test whether an absolute path can possibly be virtual, without
 * initialising anything.
 */
bool ksim_path_candidate(const char *path);

/*
 * Open the model file behind a device node with open() flags. Returns the
 * file (its fd is ksim_file_fd()) or NULL with *err a negative errno.
 */
struct ksim_file *ksim_state_open_device(const struct ksim_vnode *node, int oflags,
					 int *err);

/* The last fd of a device file went away. */
void ksim_state_close_device(struct ksim_file *file);

/* ---- resolve.c: what a path argument names ---- */

/*
 * Resolve (dirfd, path) as the *at() calls do. Returns false when the path
 * is not ours (the caller passes its arguments to libc unchanged), true when
 * *res says what it is: a virtual node, a real path to use instead
 * (res->redirect) or an error (res->error).
 */
bool ksim_resolve_at(int dirfd, const char *path, int lflags, struct ksim_lookup *res);

/* Give errno the error of res and return -1. */
static inline int
ksim_fail(int neg_errno)
{
	errno = -neg_errno;
	return -1;
}

/* ---- tree.c: the virtual tree of a device ---- */

struct ksim_profile;

/*
 * Build the whole tree for a profile; file contents render from prof (which
 * must outlive the tree) with keys gated by abi_minor. Returns NULL on
 * allocation failure.
 */
struct ksim_vfs *ksim_tree_build(const struct ksim_profile *prof, unsigned int abi_minor);

#endif
