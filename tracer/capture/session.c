/* SPDX-License-Identifier: MIT */
/*
 * The capture session: configuration, the trace file and its name, and
 * what happens to them across fork, exec and exit.
 *
 * Environment (read once, at load):
 *   KFDTRACE_OUTPUT	  trace path for the process kfdtrace started (the
 *			  "root"); default kfdtrace-<exe>-<pid>.kfdtrace in
 *			  the working directory. Made absolute at load, so a
 *			  later chdir() does not move it.
 *   KFDTRACE_NO_BUFFERS  1: leave opaque user buffers out (--no-buffers)
 *   KFDTRACE_FOLLOW_FORK 0: forked children are not traced; default 1
 *   KFDTRACE_ONLY,	  the ioctls to record, the ones not to (--only,
 *   KFDTRACE_EXCEPT	  --except): select.c
 *   KFDTRACE_ROOT_PID	  the root's pid; set by kfdtrace record, or by us
 *			  in the root when missing, so that processes
 *			  started without our exec wrappers (posix_spawn,
 *			  system) know they are not the root
 *   KFDTRACE_STATE	  ours: handed across exec to the new image of the
 *			  same process ("pid:root:files:generation:off")
 *
 * The file is created at the first device event (an open of /dev/kfd or a
 * render node, or an ioctl/mmap on such an fd), so the shells and helper
 * programs a traced program starts leave no empty traces behind. Names:
 *
 *   OUT			the root's first trace
 *   STEM.<pid>.kfdtrace	a forked child's (or another process's);
 *				STEM is OUT without its ".kfdtrace"
 *   STEM[.<pid>].exec<N>.kfdtrace
 *				a trace begun after the N-th exec of a
 *				process that already wrote one before it
 *   DIR/<pid>[.exec<N>].kfdtrace
 *				every process's, when OUT is "DIR/"
 *   NAME.<i>.kfdtrace		when NAME.kfdtrace exists (O_EXCL), i = 1..99
 */
#include "capture.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/blob.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/fork_quiet.h>
#include <kfdtrace/userdev.h>

#include "gate.h"

#define STATE_VAR "KFDTRACE_STATE"

/* Where the trace fd is moved, out of the way of fd-closing loops. */
#define SESSION_FD_FLOOR 900

/*
 * At the end, how long the device calls under way may take to return and
 * be recorded: any call but a wait (a bound against a device that hangs;
 * shorter in a signal handler or _exit(), which may have interrupted the
 * holder of a lock such a call needs), and WAIT_EVENTS, which may wait
 * for an event nobody will set.
 */
#define SESSION_END_CALL_NS	(10000ull * 1000000u)
#define SESSION_END_CALL_ASYNC_NS (1000ull * 1000000u)
#define SESSION_END_WAIT_NS	(100ull * 1000000u)
/* How long a device call made after the end waits for the process to end. */
#define SESSION_LATE_WAIT_S	10

__thread int kcap_busy __attribute__((tls_model("initial-exec")));

static struct {
	int secure;		/* setuid/secure-exec: nothing at all */
	int off;		/* not traced (unfollowed fork child) */
	int closed;		/* ended at exit: create nothing new */
	int execing;		/* an exec is in progress */
	int failed;		/* file creation failed; do not retry */
	int follow_fork;
	int no_buffers;
	int root;
	unsigned int nfiles;	/* traces this pid began, over its images */
	unsigned int gen;	/* execs this pid went through */
	pid_t pid;
	pid_t fork_parent;	/* child: the parent, for the FORK record */
	char output[PATH_MAX];
} S;

_Atomic(struct kfd_recorder *) kcap_session_rec;

/* Until session_init() maps the page: no detection. */
static _Atomic uint32_t session_mark_static = KCAP_MARK_OWN;
_Atomic uint32_t *kcap_session_mark = &session_mark_static;
/* Device calls of processes sharing our memory: lost, counted (END). */
static _Atomic uint64_t session_untraced;
/* Ioctls left out by choice (select.c): END's left_out. */
static _Atomic uint64_t session_left_out;

static pthread_mutex_t session_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kfd_gate session_gate;

struct kfd_gate kcap_call_gate;
struct kfd_gate kcap_wait_gate;
_Atomic int kcap_session_ending;
/* The thread that ends the trace: its own later calls go on. */
static _Atomic pid_t session_ender;
/*
 * The end-of-process handler is registered; the destructor ran; the
 * handler ran before it.
 */
static _Atomic int session_at_exit_set, session_fini_ran, session_at_exit_early;
static pthread_once_t session_once = PTHREAD_ONCE_INIT;

static void session_init(void);
static int session_which_process(void);

int
kcap_enabled(void)
{
	/*
	 * Libraries the program links are initialised before a preloaded
	 * one, so a wrapper can run before our constructor: initialise on
	 * first use, whichever comes first.
	 */
	pthread_once(&session_once, session_init);
	if (__builtin_expect(atomic_load_explicit(kcap_session_mark,
						  memory_order_relaxed) !=
			     KCAP_MARK_OWN, 0) && !session_which_process())
		return 0;
	return !S.secure && !S.off;
}

int
kcap_env_flag(const char *name, int dflt)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return dflt;
	return strcmp(v, "0") != 0;
}

static void
session_default_output(void)
{
	char exe[PATH_MAX], cwd[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *base = "process";

	if (n > 0) {
		exe[n] = '\0';
		base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, ".");
	snprintf(S.output, sizeof(S.output), "%.2048s/kfdtrace-%.255s-%d.kfdtrace",
		 cwd, base, (int)S.pid);
}

static void
session_read_env(void)
{
	const char *out = getenv("KFDTRACE_OUTPUT");
	const char *state = getenv(STATE_VAR);
	const char *root = getenv("KFDTRACE_ROOT_PID");
	int spid = 0, sroot = 0, soff = 0;
	unsigned int sfiles = 0, sgen = 0;

	S.follow_fork = kcap_env_flag("KFDTRACE_FOLLOW_FORK", 1);
	S.no_buffers = kcap_env_flag("KFDTRACE_NO_BUFFERS", 0);
	kcap_select_init();

	if (state && sscanf(state, "%d:%d:%u:%u:%d", &spid, &sroot, &sfiles,
			    &sgen, &soff) == 5 && spid == S.pid) {
		/* A new image of a process we traced before its exec. */
		S.root = sroot;
		S.nfiles = sfiles;
		S.gen = sgen;
		S.off = soff;
	} else if (state) {
		/* Inherited from a traced process without our exec wrapper
		 * (posix_spawn): some other process's state. */
		S.root = 0;
	} else {
		S.root = !root || atoi(root) == S.pid;
	}
	if (!root) {
		char buf[16];

		snprintf(buf, sizeof(buf), "%d", (int)S.pid);
		setenv("KFDTRACE_ROOT_PID", buf, 0);
	}

	if (out && *out) {
		char cwd[PATH_MAX];

		if (out[0] == '/' || !getcwd(cwd, sizeof(cwd)))
			strcpy(cwd, "");
		/* A path too long for PATH_MAX is cut and will fail to open:
		 * the error then names it. */
		if (out[0] == '/')
			snprintf(S.output, sizeof(S.output), "%s", out);
		else if ((size_t)snprintf(S.output, sizeof(S.output), "%.*s/%s",
					  (int)(sizeof(S.output) / 2), cwd,
					  out) >= sizeof(S.output))
			S.output[sizeof(S.output) - 1] = '\0';
	} else {
		session_default_output();
	}
}

/*
 * Whether the process runs on a user-space device: one that announces
 * itself (kfdtrace/userdev.h) is in the global scope. Asked when the trace
 * begins, at the first device event, when every preloaded library is
 * there. What device it is does not matter here.
 */
static int
session_on_userdev(void)
{
	return dlsym(RTLD_DEFAULT, KFD_USERDEV_SYM_NAME) != NULL;
}

const char *
kcap_session_blob_store(void)
{
	static char dir[PATH_MAX];
	size_t len = strlen(S.output);

	if (!len || S.output[len - 1] != '/')
		return NULL;
	/* S.output is set at load and kept across fork: built once. */
	if (!dir[0] && (size_t)snprintf(dir, sizeof(dir), "%s%s", S.output,
					KT_BLOB_DIR) >= sizeof(dir)) {
		dir[0] = '\0';
		return NULL;
	}
	return dir;
}

/* Create the file under the first free name. Return: fd or -errno. */
static int
session_open_file(char *path, size_t size)
{
	size_t len = strlen(S.output);
	int in_dir = len > 0 && S.output[len - 1] == '/';
	int pid = S.root && !in_dir ? 0 : (int)S.pid;
	unsigned int gen = S.gen > 0 && S.nfiles > 0 ? S.gen : 0;

	for (unsigned int i = 0; i < 100; i++) {
		int fd;

		if (kt_run_file_name(path, size, S.output, pid, gen, i))
			return -ENAMETOOLONG;
		fd = kcap_real.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Make the trace file and its recorder. Locked; busy is set. */
static struct kfd_recorder *
session_create(void)
{
	struct kfd_recorder_opts opts = { 0 };
	struct kt_writer_opts wopts = { 0 };
	struct kfd_recorder *r;
	char path[PATH_MAX];
	int fd, high, ret;

	fd = session_open_file(path, sizeof(path));
	if (fd < 0) {
		S.failed = 1;
		fprintf(stderr, "kfdtrace-capture: cannot create a trace for %s: %s\n",
			S.output, strerror(-fd));
		return NULL;
	}
	high = kcap_real.fcntl(fd, F_DUPFD_CLOEXEC, SESSION_FD_FLOOR);
	if (high >= 0) {
		kcap_real.close(fd);
		fd = high;
	}
	kcap_fd_protect(fd);

	/* The program may close or reuse the fd: the writer reopens by path. */
	wopts.path = path;
	wopts.lost_elsewhere = &session_untraced;
	wopts.left_out = &session_left_out;
	opts.writer = &wopts;
	opts.producer = "kfdtrace-capture";
	opts.flags = KFD_REC_CRASH_HANDLERS | KFD_REC_END_ON_SIGNAL;
	if (S.no_buffers)
		opts.flags |= KFD_REC_NO_BUFFERS;
	if (session_on_userdev())
		opts.flags |= KFD_REC_SIMULATED;
	if (kcap_select_on)
		opts.flags |= KFD_REC_SELECTED;
	ret = kfd_recorder_fdopen(fd, &opts, &r);
	if (ret) {
		kcap_fd_unprotect(fd);
		unlink(path);
		S.failed = 1;
		fprintf(stderr, "kfdtrace-capture: cannot start recording to %s: %s\n",
			path, kt_strerror(ret));
		return NULL;
	}
	S.nfiles++;
	if (S.fork_parent) {
		struct kt_record rec;

		memset(&rec, 0, sizeof(rec));
		rec.type = KT_REC_FORK;
		rec.u.fork.parent_pid = S.fork_parent;
		rec.u.fork.child_pid = 0;
		kfd_recorder_append(r, &rec);
		S.fork_parent = 0;
	}
	kfd_recorder_attach(r);
	kcap_lttng_attach();
	return r;
}

struct kfd_recorder *
kcap_session_get(void)
{
	struct kfd_recorder *r = atomic_load_explicit(&kcap_session_rec,
						      memory_order_acquire);

	if (__builtin_expect(r != NULL, 1) || !kcap_enabled())
		return r;
	kcap_busy++;
	kcap_lttng_load();
	pthread_mutex_lock(&session_lock);
	r = atomic_load_explicit(&kcap_session_rec, memory_order_acquire);
	if (!r && !S.closed && !S.execing && !S.failed && kcap_enabled()) {
		r = session_create();
		atomic_store_explicit(&kcap_session_rec, r, memory_order_release);
	}
	pthread_mutex_unlock(&session_lock);
	kcap_busy--;
	return r;
}

void
kcap_session_append(struct kt_record *rec, int create)
{
	unsigned int token;
	struct kfd_recorder *r;

	if (!kcap_enabled())
		return;
	if (create)
		kcap_session_get();
	kcap_busy++;
	kcap_lttng_record(rec);
	token = kfd_gate_enter(&session_gate);
	r = atomic_load_explicit(&kcap_session_rec, memory_order_seq_cst);
	if (r)
		kfd_recorder_append(r, rec);
	kfd_gate_leave(&session_gate, token);
	kcap_busy--;
}

void
kcap_session_thread_name(const char *name)
{
	unsigned int token;
	struct kfd_recorder *r;

	kcap_busy++;
	token = kfd_gate_enter(&session_gate);
	r = atomic_load_explicit(&kcap_session_rec, memory_order_seq_cst);
	if (r)
		kfd_recorder_thread_name(r, name);
	kfd_gate_leave(&session_gate, token);
	kcap_busy--;
}

/* Take the recorder away from every thread and close it. Locked. */
static void
session_close_locked(void)
{
	struct kfd_recorder *r;
	int fd;

	r = atomic_exchange_explicit(&kcap_session_rec, NULL, memory_order_seq_cst);
	if (!r)
		return;
	kfd_gate_drain(&session_gate);
	fd = kfd_recorder_fd(r);
	kcap_fd_unprotect(fd);
	kfd_recorder_close(r);
	/* Its END counted them; a later trace starts from none. */
	atomic_store(&session_untraced, 0);
	atomic_store(&session_left_out, 0);
}

void
kcap_session_close_for_exec(const char *path, char *const argv[])
{
	struct kfd_recorder *r;

	if (!kcap_enabled() && S.secure)
		return;
	if (path && strlen(path) >= KT_MAX_PATH)
		path = "";
	kcap_busy++;
	pthread_mutex_lock(&session_lock);
	S.execing = 1;
	r = atomic_load_explicit(&kcap_session_rec, memory_order_acquire);
	if (r) {
		struct kt_record rec;
		size_t len = 0;
		char *args = NULL;

		/* Whole arguments only, up to the format's bound. */
		for (size_t i = 0; argv && argv[i]; i++) {
			size_t l = strlen(argv[i]) + 1;

			if (len + l > KT_MAX_ARGV)
				break;
			len += l;
		}
		if (len)
			args = malloc(len);
		if (args) {
			size_t off = 0;

			for (size_t i = 0; off < len; i++) {
				size_t l = strlen(argv[i]) + 1;

				memcpy(args + off, argv[i], l);
				off += l;
			}
		}
		memset(&rec, 0, sizeof(rec));
		rec.type = KT_REC_EXEC;
		rec.u.exec.path = path ? path : "";
		rec.u.exec.argv = args;
		rec.u.exec.argv_len = args ? (uint32_t)len : 0;
		kfd_recorder_append(r, &rec);
		free(args);
		session_close_locked();
	}
	pthread_mutex_unlock(&session_lock);
	kcap_busy--;
}

void
kcap_session_exec_failed(void)
{
	if (S.secure)
		return;
	pthread_mutex_lock(&session_lock);
	S.execing = 0;
	pthread_mutex_unlock(&session_lock);
}

/*
 * The trace ends for good: from now on device calls of other threads wait
 * for the process to end (kcap_session_late()). Wait for the calls under
 * way to return with their records: @call_ns for calls, SESSION_END_WAIT_NS
 * for waits. Return: how many have not returned (waits, in practice).
 */
static unsigned int
session_end_calls(uint64_t call_ns)
{
	unsigned int left;

	atomic_store(&session_ender, (pid_t)syscall(SYS_gettid));
	atomic_store(&kcap_session_ending, 1);
	left = kfd_gate_drain_for(&kcap_call_gate, call_ns);
	return left + kfd_gate_drain_for(&kcap_wait_gate, SESSION_END_WAIT_NS);
}

void
kcap_session_late(void)
{
	static atomic_int said;

	if ((pid_t)syscall(SYS_gettid) == atomic_load(&session_ender) ||
	    getpid() != S.pid)
		return;
	/*
	 * The process is in its last steps (after the last exit handler, or
	 * in _exit), and exit_group ends this thread in a moment.
	 */
	for (int i = 0; i < SESSION_LATE_WAIT_S * 100; i++) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
	}
	if (!atomic_exchange(&said, 1))
		fprintf(stderr, "kfdtrace-capture: the trace has ended but "
			"process %d goes on: its device calls are no longer "
			"recorded\n", (int)S.pid);
}

/*
 * Before an END written by a signal handler or _exit(): the same as at
 * exit(), but async-signal-safe (no record of the waits left).
 */
static void
session_end_hook(void)
{
	if (!kcap_session_foreign() && getpid() == S.pid &&
	    atomic_load(&kcap_session_rec))
		session_end_calls(SESSION_END_CALL_ASYNC_NS);
}

void
kcap_session_emergency_end(void)
{
	struct kfd_recorder *r;

	session_end_hook();
	if (kcap_session_foreign() || getpid() != S.pid)
		return;
	r = atomic_load_explicit(&kcap_session_rec, memory_order_acquire);
	if (r)
		kt_writer_emergency_end(kfd_recorder_writer(r));
}

/* Say in the trace how many calls were still in the device. Locked. */
static void
session_note_unanswered(unsigned int left)
{
	char text[200];
	struct kt_record rec;

	snprintf(text, sizeof(text), "end: %u device call%s (waits) had not "
		 "returned when the trace ended; an answer after this is "
		 "neither recorded nor seen by the program", left,
		 left == 1 ? "" : "s");
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_ANNOTATION;
	rec.u.annotation.text = text;
	kfd_recorder_append(atomic_load(&kcap_session_rec), &rec);
}

void
kcap_session_shutdown(void)
{
	unsigned int left;

	if (S.secure)
		return;
	kcap_busy++;
	/* Not under the lock: a call under way may need it to finish. */
	left = session_end_calls(SESSION_END_CALL_NS);
	pthread_mutex_lock(&session_lock);
	S.closed = 1;
	if (left && atomic_load(&kcap_session_rec))
		session_note_unanswered(left);
	session_close_locked();
	pthread_mutex_unlock(&session_lock);
	kcap_busy--;
}

char **
kcap_session_exec_env(char *const envp[])
{
	size_t n = 0, j = 1;
	char **env;

	kcap_enabled();
	if (S.secure)
		return NULL;
	while (envp && envp[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	if (asprintf(&env[0], "%s=%d:%d:%u:%u:%d", STATE_VAR, (int)S.pid,
		     S.root, S.nfiles, S.gen + 1, S.off) < 0) {
		free(env);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (strncmp(envp[i], STATE_VAR "=", sizeof(STATE_VAR)) != 0)
			env[j++] = envp[i];
	env[j] = NULL;
	return env;
}

/* ---- fork ---- */

static void
session_prepare(void)
{
	pthread_mutex_lock(&session_lock);
}

static void
session_parent(void)
{
	pthread_mutex_unlock(&session_lock);
}

/*
 * In the child: the writer's thread stayed in the parent, so the inherited
 * recorder is abandoned (never touched again) and a new trace begins at
 * the child's first device event, under the child's own name.
 */
static void
session_child(void)
{
	struct kfd_recorder *r;
	pid_t parent = S.pid;

	pthread_mutex_init(&session_lock, NULL);
	kfd_gate_reset(&session_gate);
	kfd_gate_reset(&kcap_call_gate);
	kfd_gate_reset(&kcap_wait_gate);
	atomic_store(&kcap_session_ending, 0);
	atomic_store(&session_ender, 0);
	kfd_dispatch_atfork_child();
	kcap_maps_reset();
	kcap_submit_child();
	S.pid = getpid();
	atomic_store(&session_untraced, 0);
	atomic_store(&session_left_out, 0);
	r = atomic_exchange(&kcap_session_rec, NULL);
	if (r) {
		kcap_fd_unprotect(kfd_recorder_fd(r));
		kfd_recorder_abandon(r);
	}
	/*
	 * The page was wiped (or shared with a process we no longer share
	 * memory with): ours again, now that nothing of the parent's is left
	 * for the child's other threads to find.
	 */
	atomic_store(kcap_session_mark, KCAP_MARK_OWN);
	if (S.secure)
		return;
	S.root = 0;
	S.nfiles = 0;
	S.gen = 0;
	S.failed = 0;
	S.execing = 0;
	if (S.follow_fork)
		S.fork_parent = parent;
	else
		S.off = 1;
}

/*
 * The page of the mark: MADV_WIPEONFORK zeroes it in every child that does
 * not share our memory, however it was made (fork, clone(), the clone
 * system call). Without it (Linux before 4.14) only fork() children are
 * told apart.
 */
static void
session_mark_init(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = kcap_real.mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	if (madvise(p, (size_t)page, MADV_WIPEONFORK)) {
		kcap_real.munmap(p, (size_t)page);
		return;
	}
	atomic_store((_Atomic uint32_t *)p, KCAP_MARK_OWN);
	kcap_session_mark = p;
}

/*
 * A child made without fork(): no pthread_atfork() handler ran. Do what
 * ours do (the dispatch point's and the helpers' too), as fork's child
 * handler would have: the inherited trace is abandoned, the child's own
 * begins at its first device event.
 */
static void
session_new_process(void)
{
	kfd_dispatch_new_process();
	kt_quiet_new_process();
	session_child();
}

int
kcap_session_foreign(void)
{
	return atomic_load_explicit(kcap_session_mark, memory_order_relaxed) ==
	       KCAP_MARK_SHARED && getpid() != S.pid;
}

/*
 * The mark is not KCAP_MARK_OWN: find out which process this is. Return:
 * 1 when it is the one S describes (now), 0 for a process that shares
 * our memory (nothing of ours may be touched).
 */
static int
session_which_process(void)
{
	static __thread int setting_up __attribute__((tls_model("initial-exec")));
	uint32_t mark = atomic_load(kcap_session_mark);

	/* The set-up itself calls wrappers (close): it is this process. */
	if (setting_up)
		return 1;
	if (mark == 0 && atomic_compare_exchange_strong(kcap_session_mark, &mark,
							KCAP_MARK_BUSY)) {
		setting_up = 1;
		session_new_process();
		setting_up = 0;
		return 1;
	}
	/* Another thread of the new child is setting it up. */
	while (mark == KCAP_MARK_BUSY || mark == 0) {
		sched_yield();
		mark = atomic_load(kcap_session_mark);
	}
	return mark != KCAP_MARK_SHARED || getpid() == S.pid;
}

int
kcap_session_signals(void)
{
	kcap_enabled();
	return !S.secure && !kcap_session_foreign();
}

void
kcap_session_child_start(void)
{
	atomic_store(kcap_session_mark, 0);
}

void
kcap_session_share_vm(void)
{
	uint32_t mark = KCAP_MARK_OWN;

	atomic_compare_exchange_strong(kcap_session_mark, &mark,
				       KCAP_MARK_SHARED);
}

void
kcap_session_untraced(void)
{
	atomic_fetch_add(&session_untraced, 1);
}

void
kcap_session_left_out(void)
{
	atomic_fetch_add_explicit(&session_left_out, 1, memory_order_relaxed);
}

/*
 * The end of the trace, at exit(). Not in our destructor: a preloaded
 * library is finalized before the libraries the program links, and their
 * destructors still use the device (ROCr and HIP tear down there). glibc
 * runs exit handlers last-registered first, and _dl_fini, which runs the
 * destructors, was registered by __libc_start_main after every library
 * constructor (ours included) ran: a handler registered from our
 * initialisation runs after all destructors and every atexit() handler.
 * One a destructor registers runs while _dl_fini finalizes its library,
 * or as soon as _dl_fini returns: before ours too.
 */
static void
session_at_exit(void *unused)
{
	(void)unused;
	/*
	 * Registered after _dl_fini (the library was loaded late): the
	 * destructor registers us again, which puts us after _dl_fini.
	 */
	if (!atomic_load(&session_fini_ran)) {
		atomic_store(&session_at_exit_early, 1);
		return;
	}
	/* A process sharing our memory must not close our trace. */
	if (!kcap_enabled() && kcap_session_foreign())
		return;
	kcap_submit_shutdown();
	kcap_session_shutdown();
}

/* glibc's: @fn(@arg) at exit(); @dso NULL, as no unloading runs it early. */
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

static void
session_init(void)
{
	kcap_real_init();
	S.pid = getpid();
	if (getauxval(AT_SECURE)) {
		S.secure = 1;
		return;
	}
	session_mark_init();
	session_read_env();
	kcap_submit_init();
	/* Our own handlers must really be installed, not chained. */
	kfd_recorder_set_sigaction(kcap_real.sigaction);
	kfd_recorder_set_end_hook(session_end_hook);
	pthread_atfork(session_prepare, session_parent, session_child);
	if (__cxa_atexit(session_at_exit, NULL, NULL) == 0)
		atomic_store(&session_at_exit_set, 1);
}

static void __attribute__((constructor))
kcap_init(void)
{
	kcap_enabled();
}

static void __attribute__((destructor))
kcap_fini(void)
{
	atomic_store(&session_fini_ran, 1);
	/* Without the handler (no memory for it), end the trace here. */
	if (!atomic_load(&session_at_exit_set) ||
	    (atomic_load(&session_at_exit_early) &&
	     __cxa_atexit(session_at_exit, NULL, NULL)))
		session_at_exit(NULL);
}
