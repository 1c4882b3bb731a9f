/* SPDX-License-Identifier: MIT */
/*
 * babeltrace2 plugin "kfdtrace", source component class
 * source.kfdtrace.trace: reads kfdtrace trace files.
 *
 *   babeltrace2 --plugin-path=DIR TRACE.kfdtrace            (auto-discovery)
 *   babeltrace2 --plugin-path=DIR -c source.kfdtrace.trace \
 *               --params='inputs=["TRACE.kfdtrace"]'
 *   babeltrace2 --plugin-path=DIR convert TRACE.kfdtrace -o ctf -w OUTDIR
 *   babeltrace2 --plugin-path=DIR TRACE.kfdtrace --begin=T --end=T
 *
 * Its message iterator (iter.c) can seek its beginning and a time
 * (seek.c), which --begin and flt.utils.trimmer need.
 *
 * Parameters:
 *   inputs              array of trace file paths (one trace and one output
 *                       port each); "path" (a string) is accepted too
 *   reorder-slack-ms    trace time records are held back to put threads in
 *                       time order (default 2000)
 *   reorder-window-mb   memory those records may take (default 64)
 *   max-streams         streams per input at most; the threads past the
 *                       last but one share the last (0: one per thread;
 *                       default: what the fd limit leaves room for, as
 *                       sink.ctf.fs keeps a file open per stream)
 *   damage-is-error     end with an error (after every record read) when
 *                       a trace is damaged: truncated, corrupt, damaged
 *                       or incomplete (default true; false: a warning,
 *                       except for a corrupt trace)
 *   begin-events        also a kfd:call_begin event at the entry of every
 *                       ioctl and API call (default false: one event per
 *                       record; kfdtrace export --ctf sets it)
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/*
 * babeltrace2 finds a plugin through functions BT_PLUGIN_MODULE() defines;
 * the project builds with -fvisibility=hidden, so they (and the headers
 * declaring them) are compiled with default visibility here.
 */
#pragma GCC visibility push(default)
#include "kbt.h"

/* The first 16 bytes of every trace: a skippable zstd frame tagged KFDTRACE. */
static const uint8_t kbt_magic[4] = { 0x5B, 0x2A, 0x4D, 0x18 };

static void
src_free(struct kbt_src *src)
{
	unsigned int i;

	if (!src)
		return;
	for (i = 0; i < src->ninputs; i++) {
		kbt_input_release(&src->inputs[i]);
		free(src->inputs[i].path);
	}
	free(src->inputs);
	free(src);
}

/* An integer parameter, signed or unsigned; @def when absent. */
static int
param_u64(bt_self_component *self, const bt_value *params, const char *key,
	  uint64_t def, uint64_t *out)
{
	const bt_value *v = bt_value_map_borrow_entry_value_const(params, key);

	*out = def;
	if (!v)
		return 0;
	if (bt_value_is_unsigned_integer(v)) {
		*out = bt_value_integer_unsigned_get(v);
		return 0;
	}
	if (bt_value_is_signed_integer(v) && bt_value_integer_signed_get(v) >= 0) {
		*out = (uint64_t)bt_value_integer_signed_get(v);
		return 0;
	}
	BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self,
		"parameter `%s` must be a non-negative integer", key);
	return -1;
}

/* Collect the input paths from `inputs` or `path`. */
/* A boolean parameter; *@out is left as it is when absent. 0, or -1. */
static int
param_bool(bt_self_component *self, const bt_value *params, const char *key,
	   int *out)
{
	const bt_value *v = bt_value_map_borrow_entry_value_const(params, key);

	if (!v)
		return 0;
	if (!bt_value_is_bool(v)) {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self,
			"parameter `%s` must be a boolean", key);
		return -1;
	}
	*out = bt_value_bool_get(v);
	return 0;
}

static int
collect_inputs(bt_self_component *self, const bt_value *params,
	       struct kbt_src *src)
{
	const bt_value *inputs = bt_value_map_borrow_entry_value_const(params,
								       "inputs");
	const bt_value *path = bt_value_map_borrow_entry_value_const(params,
								     "path");
	uint64_t i, n;

	if (inputs && bt_value_is_array(inputs)) {
		n = bt_value_array_get_length(inputs);
	} else if (path && bt_value_is_string(path)) {
		n = 1;
	} else {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self,
			"missing parameter `inputs` (an array of trace file "
			"paths) or `path` (a string)");
		return -1;
	}
	if (!n) {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self,
			"parameter `inputs` is empty");
		return -1;
	}
	src->inputs = calloc(n, sizeof(*src->inputs));
	if (!src->inputs)
		return -1;
	for (i = 0; i < n; i++) {
		const bt_value *v = inputs && bt_value_is_array(inputs) ?
			bt_value_array_borrow_element_by_index_const(inputs, i) :
			path;

		if (!bt_value_is_string(v)) {
			BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self,
				"parameter `inputs`: element %llu is not a string",
				(unsigned long long)i);
			return -1;
		}
		src->inputs[i].path = strdup(bt_value_string_get(v));
		if (!src->inputs[i].path)
			return -1;
		src->ninputs++;
	}
	return 0;
}

/* Read an input's header; a clear error when it is not a usable trace. */
static int
open_input(bt_self_component *self, struct kbt_input *in)
{
	struct kt_reader *r;
	int rc = kt_reader_open(in->path, &r);

	if (rc) {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self,
			"%s: cannot read the trace: %s", in->path,
			kt_strerror(rc));
		return -1;
	}
	in->hdr = *kt_reader_header(r);
	kt_reader_close(r);
	return 0;
}

/* fds kept free for what is not a stream file (metadata, plugins, stdio). */
#define KBT_FD_RESERVE 32

/*
 * The default max-streams: the fds RLIMIT_NOFILE leaves free, shared among
 * @ninputs inputs, at least 1.
 */
static uint64_t
default_max_streams(unsigned int ninputs)
{
	struct rlimit rl;
	uint64_t open_fds = 0, room;
	struct dirent *de;
	DIR *d;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	d = opendir("/proc/self/fd");
	while (d && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			open_fds++;
	if (d)
		closedir(d);
	room = (uint64_t)rl.rlim_cur > open_fds + KBT_FD_RESERVE ?
	       (uint64_t)rl.rlim_cur - open_fds - KBT_FD_RESERVE : 0;
	room /= ninputs ? ninputs : 1;
	return room ? room : 1;
}

static bt_component_class_initialize_method_status
kbt_init(bt_self_component_source *self_src,
	 bt_self_component_source_configuration *cfg,
	 const bt_value *params, void *init_data)
{
	bt_self_component *self = bt_self_component_source_as_self_component(self_src);
	struct kbt_src *src = calloc(1, sizeof(*src));
	uint64_t slack_ms, window_mb;
	unsigned int i, j;

	if (!src)
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	src->self = self;
	src->log_level = bt_component_get_logging_level(
		bt_self_component_as_component(self));
	if (collect_inputs(self, params, src) ||
	    param_u64(self, params, "reorder-slack-ms", KBT_DEFAULT_SLACK_MS,
		      &slack_ms) ||
	    param_u64(self, params, "reorder-window-mb", KBT_DEFAULT_WINDOW_MB,
		      &window_mb))
		goto fail;
	if (param_u64(self, params, "max-streams",
		      default_max_streams(src->ninputs), &src->max_streams))
		goto fail;
	src->slack_ns = slack_ms * 1000000ULL;
	src->window_bytes = window_mb << 20;
	src->damage_is_error = 1;
	if (param_bool(self, params, "damage-is-error",
		       &src->damage_is_error) ||
	    param_bool(self, params, "begin-events", &src->begin_events))
		goto fail;
	for (i = 0; i < src->ninputs; i++) {
		struct kbt_input *in = &src->inputs[i];
		char port[4200];

		in->begin_events = src->begin_events;
		if (open_input(self, in) || kbt_input_build(self, in))
			goto fail;
		/* Port names are unique: the path, numbered if given twice. */
		snprintf(port, sizeof(port), "%s", in->path);
		for (j = 0; j < i; j++)
			if (strcmp(src->inputs[j].path, in->path) == 0)
				snprintf(port, sizeof(port), "%s#%u", in->path, i);
		if (bt_self_component_source_add_output_port(self_src, port, in,
							     NULL))
			goto fail;
	}
	bt_self_component_set_data(self, src);
	return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
fail:
	src_free(src);
	return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
}

static void
kbt_finalize(bt_self_component_source *self_src)
{
	src_free(bt_self_component_get_data(
		bt_self_component_source_as_self_component(self_src)));
}

/*
 * babeltrace.support-info: lets `babeltrace2 FILE` pick this component for
 * kfdtrace files by their first bytes, whatever their name.
 */
static bt_component_class_query_method_status
kbt_query(bt_self_component_class_source *cls, bt_private_query_executor *qe,
	  const char *object, const bt_value *params, void *data,
	  const bt_value **result)
{
	const bt_value *type, *input;
	uint8_t head[16];
	double weight = 0.0;
	FILE *f;

	if (strcmp(object, "babeltrace.support-info") != 0)
		return BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_UNKNOWN_OBJECT;
	type = bt_value_map_borrow_entry_value_const(params, "type");
	input = bt_value_map_borrow_entry_value_const(params, "input");
	if (!type || !input || !bt_value_is_string(type) ||
	    !bt_value_is_string(input)) {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT_CLASS(
			bt_self_component_class_source_as_self_component_class(cls),
			"babeltrace.support-info needs string `type` and `input`");
		return BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_ERROR;
	}
	if (strcmp(bt_value_string_get(type), "file") == 0) {
		f = fopen(bt_value_string_get(input), "rb");
		if (f) {
			if (fread(head, 1, sizeof(head), f) == sizeof(head) &&
			    memcmp(head, kbt_magic, 4) == 0 &&
			    memcmp(head + 8, "KFDTRACE", 8) == 0)
				weight = 1.0;
			fclose(f);
		}
	}
	*result = bt_value_real_create_init(weight);
	return *result ? BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_OK :
			 BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_MEMORY_ERROR;
}

BT_PLUGIN_MODULE();
BT_PLUGIN(kfdtrace);
BT_PLUGIN_DESCRIPTION("Reads kfdtrace traces of AMD KFD (/dev/kfd) and amdgpu ioctls");
BT_PLUGIN_AUTHOR("The kfdtrace authors");
BT_PLUGIN_LICENSE("MIT");
BT_PLUGIN_SOURCE_COMPONENT_CLASS(trace, kbt_iter_next);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_DESCRIPTION(trace,
	"Read kfdtrace trace files: one stream per thread, one event class "
	"per ioctl, fields decoded by the ioctl schema");
BT_PLUGIN_SOURCE_COMPONENT_CLASS_HELP(trace,
	"Parameters: inputs=[\"FILE\", ...] (or path=\"FILE\"), "
	"reorder-slack-ms=N, reorder-window-mb=N, max-streams=N, "
	"damage-is-error=BOOL, begin-events=BOOL. "
	"See docs/analysis.md.");
BT_PLUGIN_SOURCE_COMPONENT_CLASS_INITIALIZE_METHOD(trace, kbt_init);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_FINALIZE_METHOD(trace, kbt_finalize);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_QUERY_METHOD(trace, kbt_query);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD(trace,
	kbt_iter_init);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_FINALIZE_METHOD(trace,
	kbt_iter_finalize);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHODS(trace,
	kbt_iter_seek_beginning, kbt_iter_can_seek_beginning);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_SEEK_NS_FROM_ORIGIN_METHODS(trace,
	kbt_iter_seek_ns_from_origin, kbt_iter_can_seek_ns_from_origin);

#pragma GCC visibility pop
