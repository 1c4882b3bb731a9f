/* SPDX-License-Identifier: MIT */
/*
 * kt_ctf_export(): a babeltrace2 graph, source.kfdtrace.trace -> a
 * counting filter (count.c, for progress) -> sink.ctf.fs, run in the
 * calling process (see kt_ctf_export.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <babeltrace2/babeltrace.h>

#include "kbt_count.h"
#include "kt_ctf_export.h"

#define KT_BT2_PLUGIN_FILE "babeltrace-plugin-kfdtrace.so"

/* The phrases the source's error causes use for damage (iter.c). */
#define KT_BT2_TRUNCATED "trace truncated"
#define KT_BT2_CORRUPT "corrupt trace at file offset"
#define KT_BT2_DAMAGED "damaged trace ("

static void __attribute__((format(printf, 3, 4)))
say(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !size)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
}

/* The kfdtrace plugin from a file, or from a directory holding it. */
static const bt_plugin *
load_from(const char *path)
{
	const bt_plugin_set *set = NULL;
	const bt_plugin *found = NULL;
	struct stat st;
	uint64_t i;
	int rc;

	if (stat(path, &st) != 0)
		return NULL;
	if (S_ISDIR(st.st_mode))
		rc = bt_plugin_find_all_from_dir(path, BT_FALSE, BT_FALSE, &set);
	else
		rc = bt_plugin_find_all_from_file(path, BT_FALSE, &set);
	if (rc != 0 || !set) {
		bt_current_thread_clear_error();
		return NULL;
	}
	for (i = 0; i < bt_plugin_set_get_plugin_count(set); i++) {
		const bt_plugin *p = bt_plugin_set_borrow_plugin_by_index_const(set, i);

		if (strcmp(bt_plugin_get_name(p), "kfdtrace") == 0) {
			found = p;
			bt_plugin_get_ref(found);
			break;
		}
	}
	bt_plugin_set_put_ref(set);
	return found;
}

#ifdef KT_BT2_BUILD_DIR
/* Whether the running program belongs to the build tree it was built in. */
static int
in_build_tree(void)
{
#ifdef KT_BT2_BUILD_ROOT
	char exe[PATH_MAX], root[PATH_MAX];
	size_t n;

	if (!realpath("/proc/self/exe", exe) || !realpath(KT_BT2_BUILD_ROOT, root))
		return 0;
	n = strlen(root);
	return strncmp(exe, root, n) == 0 && exe[n] == '/';
#else
	return 0;
#endif
}
#endif

static const bt_plugin *
find_plugin(const struct kt_ctf_export_opts *o)
{
	const bt_plugin *p = NULL;
	const char *env = getenv("KFDTRACE_BT2_PLUGIN_PATH");

	if (o && o->plugin_path)
		return load_from(o->plugin_path);
	if (env && *env)
		return load_from(env);
#ifdef KT_BT2_BUILD_DIR
	if (in_build_tree()) {
		p = load_from(KT_BT2_BUILD_DIR "/" KT_BT2_PLUGIN_FILE);
		if (p)
			return p;
	}
#endif
#ifdef KT_BT2_INSTALL_DIR
	p = load_from(KT_BT2_INSTALL_DIR "/" KT_BT2_PLUGIN_FILE);
	if (p)
		return p;
#endif
	if (bt_plugin_find("kfdtrace", BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   BT_FALSE, &p) != BT_PLUGIN_FIND_STATUS_OK) {
		bt_current_thread_clear_error();
		return NULL;
	}
	return p;
}

/*
 * The output directory must not exist when sink.ctf.fs starts in
 * single-trace mode (it creates it, with its parents): an empty one is
 * removed first, a non-empty one refused.
 */
static int
prepare_outdir(const char *dir, char *msg, size_t size)
{
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (lstat(dir, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		say(msg, size, "%s: exists and is not a directory", dir);
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		say(msg, size, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			closedir(d);
			say(msg, size, "%s: the directory is not empty", dir);
			return -1;
		}
	}
	closedir(d);
	if (rmdir(dir) != 0) {
		say(msg, size, "%s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Fewer free fds than this and sink.ctf.fs cannot write even one stream. */
#define KT_CTF_MIN_FREE_FDS 8

/*
 * sink.ctf.fs keeps one file open per stream, and the source makes one
 * stream per thread (up to what the fd limit leaves room for, then the
 * rest share one). Raise the soft fd limit to the hard one, so that more
 * threads keep streams of their own, and refuse to start when there is no
 * room at all: babeltrace2 2.0 crashes tearing down a sink that failed to
 * open its files.
 */
static int
make_fd_room(char *msg, size_t size)
{
	struct rlimit rl;
	long fd, free_fds = 0;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit up = { rl.rlim_max, rl.rlim_max };

		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			rl = up;
	}
	/* Count free fds below the limit, up to the few needed. */
	for (fd = 0; fd < (long)rl.rlim_cur && free_fds < KT_CTF_MIN_FREE_FDS;
	     fd++)
		if (fcntl((int)fd, F_GETFD) < 0 && errno == EBADF)
			free_fds++;
	if (free_fds < KT_CTF_MIN_FREE_FDS) {
		say(msg, size, "too few file descriptors for the CTF writer "
		    "(RLIMIT_NOFILE is %llu; it needs %d free): raise it "
		    "(ulimit -n)", (unsigned long long)rl.rlim_cur,
		    KT_CTF_MIN_FREE_FDS);
		return -1;
	}
	return 0;
}

/*
 * The thread's error as one message: the first cause (what went wrong; the
 * others only say which component passed it on), or all of them, first
 * cause first, when @all. Return: KT_CTF_TRUNCATED, KT_CTF_CORRUPT or
 * KT_CTF_DAMAGED when the source reported a damaged trace, else
 * KT_CTF_FAILED.
 */
static int
take_error(char *msg, size_t size, int all)
{
	const bt_error *err = bt_current_thread_take_error();
	size_t used = 0;
	int rc = KT_CTF_FAILED;
	uint64_t i, n;

	if (!err) {
		say(msg, size, "the conversion failed (no detail)");
		return rc;
	}
	n = bt_error_get_cause_count(err);
	for (i = 0; i < n; i++) {
		const bt_error_cause *c = bt_error_borrow_cause_by_index(err, i);
		const char *m = bt_error_cause_get_message(c);

		if (bt_error_cause_get_actor_type(c) ==
			    BT_ERROR_CAUSE_ACTOR_TYPE_MESSAGE_ITERATOR &&
		    strcmp(bt_error_cause_message_iterator_actor_get_plugin_name(c),
			   "kfdtrace") == 0) {
			if (strstr(m, KT_BT2_TRUNCATED))
				rc = KT_CTF_TRUNCATED;
			else if (strstr(m, KT_BT2_CORRUPT))
				rc = KT_CTF_CORRUPT;
			else if (strstr(m, KT_BT2_DAMAGED))
				rc = KT_CTF_DAMAGED;
		}
		if (msg && used + 1 < size && (all || i == 0)) {
			int w = snprintf(msg + used, size - used, "%s%s",
					 used ? "\n  reported by: " : "", m);

			if (w > 0)
				used += (size_t)w < size - used ? (size_t)w :
					size - used - 1;
		}
	}
	bt_error_release(err);
	return rc;
}

int
kt_ctf_export(const char *trace, const char *outdir,
	      const struct kt_ctf_export_opts *opts, char *msg,
	      size_t msg_size)
{
	const bt_plugin *kplug = NULL, *ctf = NULL;
	const bt_component_class_source *src_cls;
	const bt_component_class_sink *sink_cls;
	const bt_component_source *src = NULL;
	const bt_component_sink *sink = NULL;
	bt_component_class_filter *count_cls = NULL;
	const bt_component_filter *count = NULL;
	struct kbt_count counted = { 0 };
	bt_value *sp = NULL, *kp = NULL, *inputs = NULL;
	bt_graph *graph = NULL;
	bt_graph_run_once_status once;
	int rc = KT_CTF_FAILED;

	say(msg, msg_size, "no error");
	kplug = find_plugin(opts);
	if (!kplug) {
		say(msg, msg_size, "cannot find the babeltrace2 plugin `kfdtrace` "
		    "(%s); set KFDTRACE_BT2_PLUGIN_PATH to its file or directory",
		    KT_BT2_PLUGIN_FILE);
		goto out;
	}
	if (opts && opts->verbose)
		fprintf(stderr, "kfdtrace export: using %s\n", bt_plugin_get_path(kplug));
	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   &ctf) != BT_PLUGIN_FIND_STATUS_OK) {
		bt_current_thread_clear_error();
		say(msg, msg_size, "cannot find babeltrace2's `ctf` plugin "
		    "(is babeltrace2 installed?)");
		goto out;
	}
	src_cls = bt_plugin_borrow_source_component_class_by_name_const(kplug,
									"trace");
	sink_cls = bt_plugin_borrow_sink_component_class_by_name_const(ctf, "fs");
	if (!src_cls || !sink_cls) {
		say(msg, msg_size, "the plugins lack source.kfdtrace.trace or "
		    "sink.ctf.fs");
		goto out;
	}
	if (make_fd_room(msg, msg_size) || prepare_outdir(outdir, msg, msg_size))
		goto out;

	kp = bt_value_map_create();
	inputs = bt_value_array_create();
	sp = bt_value_map_create();
	if (!kp || !inputs || !sp ||
	    bt_value_array_append_string_element(inputs, trace) ||
	    bt_value_map_insert_entry(kp, "inputs", inputs) ||
	    /* Entries for Trace Compass's per-thread and latency views. */
	    bt_value_map_insert_bool_entry(kp, "begin-events", BT_TRUE) ||
	    bt_value_map_insert_string_entry(sp, "path", outdir) ||
	    bt_value_map_insert_bool_entry(sp, "assume-single-trace", BT_TRUE) ||
	    bt_value_map_insert_bool_entry(sp, "quiet", BT_TRUE)) {
		say(msg, msg_size, "out of memory");
		goto out;
	}
	graph = bt_graph_create(0);
	count_cls = kbt_count_class_create();
	if (!graph || !count_cls) {
		say(msg, msg_size, "out of memory");
		goto out;
	}
	/*
	 * The source logs its warnings (truncation, reordering); the sink
	 * logs only errors, since some of its failures leave no error cause.
	 */
	if (bt_graph_add_source_component(graph, src_cls, "kfdtrace", kp,
					  BT_LOGGING_LEVEL_WARNING, &src) ||
	    bt_graph_add_filter_component_with_initialize_method_data(graph,
		count_cls, "count", NULL, &counted,
		BT_LOGGING_LEVEL_ERROR, &count) ||
	    bt_graph_add_sink_component(graph, sink_cls, "ctf", sp,
					BT_LOGGING_LEVEL_ERROR, &sink) ||
	    bt_graph_connect_ports(graph,
		bt_component_source_borrow_output_port_by_index_const(src, 0),
		bt_component_filter_borrow_input_port_by_index_const(count, 0),
		NULL) ||
	    bt_graph_connect_ports(graph,
		bt_component_filter_borrow_output_port_by_index_const(count, 0),
		bt_component_sink_borrow_input_port_by_index_const(sink, 0),
		NULL)) {
		take_error(msg, msg_size, opts && opts->verbose);
		goto out;
	}
	/* A batch at a time, with progress between. */
	do {
		once = bt_graph_run_once(graph);
		if (once == BT_GRAPH_RUN_ONCE_STATUS_OK && opts && opts->progress)
			opts->progress(opts->progress_ctx, counted.events);
		if (once == BT_GRAPH_RUN_ONCE_STATUS_AGAIN)
			usleep(1000);
	} while (once == BT_GRAPH_RUN_ONCE_STATUS_AGAIN ||
		 once == BT_GRAPH_RUN_ONCE_STATUS_OK);
	if (once == BT_GRAPH_RUN_ONCE_STATUS_END)
		rc = KT_CTF_OK;
	else
		rc = take_error(msg, msg_size, opts && opts->verbose);
out:
	/* Destroying the graph finalizes the sink, which writes the metadata. */
	bt_graph_put_ref(graph);
	bt_component_class_filter_put_ref(count_cls);
	bt_value_put_ref(kp);
	bt_value_put_ref(inputs);
	bt_value_put_ref(sp);
	bt_plugin_put_ref(kplug);
	bt_plugin_put_ref(ctf);
	return rc;
}
