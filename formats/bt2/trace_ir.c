/* SPDX-License-Identifier: MIT */
/*
 * The trace IR of one input: trace class, clock class, stream class, the
 * fixed event classes and the trace with its environment. ioctl event
 * classes are made on first use (kbt_ioctl_ec()).
 */
#include <stdlib.h>
#include <string.h>

#include "kbt.h"

#define NS_PER_S 1000000000ULL

/*
 * The clock of every stream: CLOCK_MONOTONIC nanoseconds, which is what the
 * records hold, with the offset of that clock from the Unix epoch measured
 * when the file was opened (start_realtime - start_monotonic). With it,
 * babeltrace2 prints wall-clock times and lines our events up with an
 * LTTng-UST trace of the same process, whose "monotonic" clock class is
 * built the same way.
 */
static bt_clock_class *
make_clock(bt_self_component *self, const struct kt_header *h)
{
	bt_clock_class *cc = bt_clock_class_create(self);
	int64_t off, sec;
	uint64_t cyc;

	if (!cc)
		return NULL;
	if (bt_clock_class_set_name(cc, "monotonic") ||
	    bt_clock_class_set_description(cc,
			"CLOCK_MONOTONIC of the traced process (kfdtrace)"))
		goto fail;
	bt_clock_class_set_frequency(cc, NS_PER_S);
	if (h->start_realtime) {
		off = (int64_t)(h->start_realtime - h->start_monotonic);
		sec = off / (int64_t)NS_PER_S;
		if (off % (int64_t)NS_PER_S < 0)
			sec--;
		cyc = (uint64_t)(off - sec * (int64_t)NS_PER_S);
		bt_clock_class_set_offset(cc, sec, cyc);
		bt_clock_class_set_origin_is_unix_epoch(cc, BT_TRUE);
	} else {
		/* No wall-clock reading: times are relative to boot. */
		bt_clock_class_set_origin_is_unix_epoch(cc, BT_FALSE);
	}
	return cc;
fail:
	bt_clock_class_put_ref(cc);
	return NULL;
}

static const char *
base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/*
 * A string of the header as an environment entry, escaped as the events'
 * strings are (kbt_string_set()): babeltrace2 prints the environment.
 */
static int
env_str(bt_trace *t, const char *key, const char *s, size_t max)
{
	struct kt_strbuf sb;
	int rc;

	kt_strbuf_init(&sb);
	kfd_text_clean(&sb, s, strnlen(s, max));
	rc = sb.failed || bt_trace_set_environment_entry_string(t, key,
				sb.data ? sb.data : "") ? -1 : 0;
	kt_strbuf_release(&sb);
	return rc;
}

/* The environment: what Trace Compass and babeltrace2 show as trace info. */
static int
set_env(bt_trace *t, const struct kt_header *h, const char *path)
{
	const char *abi_from = "unknown";
	uint32_t abi_major, abi_minor;
	char buf[1100];
	size_t i, n;

	/* "hostname" is the key LTTng uses and Trace Compass reads. */
	if (env_str(t, "hostname", h->host, sizeof(h->host)) ||
	    bt_trace_set_environment_entry_string(t, "tracer_name", "kfdtrace") ||
	    env_str(t, "producer", h->producer, sizeof(h->producer)) ||
	    env_str(t, "producer_version", h->producer_version,
		    sizeof(h->producer_version)) ||
	    env_str(t, "kernel_release", h->kernel_release,
		    sizeof(h->kernel_release)) ||
	    bt_trace_set_environment_entry_integer(t, "vpid", h->pid) ||
	    bt_trace_set_environment_entry_integer(t, "ppid", h->ppid) ||
	    env_str(t, "procname", base_name(h->exe), sizeof(h->exe)) ||
	    env_str(t, "exe", h->exe, sizeof(h->exe)))
		return -1;
	n = h->cmdline_len < sizeof(h->cmdline) ? h->cmdline_len :
						   sizeof(h->cmdline);
	for (i = 0; i < n && i + 1 < sizeof(buf); i++)
		buf[i] = h->cmdline[i] ? h->cmdline[i] : ' ';
	while (i > 0 && buf[i - 1] == ' ')
		i--;
	buf[i] = '\0';
	if (env_str(t, "cmdline", buf, sizeof(buf)))
		return -1;
	/* As `kfdtrace info` says it: the header's, else GET_VERSION's. */
	if (kt_trace_kfd_abi(path, &abi_major, &abi_minor, &abi_from))
		snprintf(buf, sizeof(buf), "%u.%u", abi_major, abi_minor);
	else
		snprintf(buf, sizeof(buf), "unknown");
	if (bt_trace_set_environment_entry_string(t, "kfd_abi", buf) ||
	    bt_trace_set_environment_entry_string(t, "kfd_abi_from", abi_from))
		return -1;
	snprintf(buf, sizeof(buf), "%u.%u", h->format_major, h->format_minor);
	if (bt_trace_set_environment_entry_string(t, "kfdtrace_format", buf) ||
	    bt_trace_set_environment_entry_integer(t, "simulated",
				(h->flags & KT_HDR_SIMULATED) ? 1 : 0) ||
	    bt_trace_set_environment_entry_integer(t, "buffers_omitted",
				(h->flags & KT_HDR_NO_BUFFERS) ? 1 : 0) ||
	    bt_trace_set_environment_entry_integer(t, "start_monotonic_ns",
				(int64_t)h->start_monotonic) ||
	    bt_trace_set_environment_entry_integer(t, "start_realtime_ns",
				(int64_t)h->start_realtime) ||
	    bt_trace_set_environment_entry_integer(t, "start_boottime_ns",
				(int64_t)h->start_boottime))
		return -1;
	return 0;
}

/*
 * Every event carries its record's sequence number, thread and process
 * (the header's pid: one file is one process). With several inputs merged
 * by babeltrace2's muxer, pid tells the processes apart; the Trace Compass
 * analysis keys its state by it.
 */
static bt_field_class *
common_context(bt_trace_class *tc)
{
	bt_field_class *st = bt_field_class_structure_create(tc);

	if (!st)
		return NULL;
	if (kbt_struct_add(st, "seq", kbt_fc_uint(tc, 64, 0)) ||
	    kbt_struct_add(st, "tid", kbt_fc_uint(tc, 32, 0)) ||
	    kbt_struct_add(st, "pid", kbt_fc_sint(tc, 32, 0))) {
		bt_field_class_put_ref(st);
		return NULL;
	}
	return st;
}

int
kbt_input_build(bt_self_component *self, struct kbt_input *in)
{
	bt_field_class *ctx;
	char name[128], exe[80];
	unsigned int i;

	in->tc = bt_trace_class_create(self);
	if (!in->tc)
		goto nomem;
	in->sc = bt_stream_class_create(in->tc);
	in->cc = make_clock(self, &in->hdr);
	if (!in->sc || !in->cc)
		goto nomem;
	if (bt_stream_class_set_name(in->sc, "kfdtrace") ||
	    bt_stream_class_set_default_clock_class(in->sc, in->cc))
		goto nomem;
	/*
	 * Packets with begin/end times: sink.ctf.fs then writes
	 * timestamp_begin/timestamp_end, which Trace Compass's packet index
	 * is built from.
	 */
	bt_stream_class_set_supports_packets(in->sc, BT_TRUE, BT_TRUE, BT_TRUE);
	ctx = common_context(in->tc);
	if (!ctx)
		goto nomem;
	i = bt_stream_class_set_event_common_context_field_class(in->sc, ctx);
	bt_field_class_put_ref(ctx);
	if (i)
		goto nomem;
	for (i = 0; i < KBT_EC_COUNT; i++) {
		/* Declared only when used: a plain read has no entries. */
		if (i == KBT_EC_CALL_BEGIN && !in->begin_events)
			continue;
		in->fixed[i] = kbt_fixed_class(in->sc, i);
		if (!in->fixed[i])
			goto nomem;
	}
	in->rows = kfd_schema_rows(&in->nrows);
	in->ioctl = calloc(in->nrows ? in->nrows : 1, sizeof(*in->ioctl));
	if (!in->ioctl)
		goto nomem;
	for (i = 0; i < in->nrows; i++)
		in->ioctl[i].desc = &in->rows[i];

	in->trace = bt_trace_create(in->tc);
	if (!in->trace)
		goto nomem;
	/* sink.ctf.fs names its output directory after the trace. */
	snprintf(name, sizeof(name), "kfdtrace-%.64s-%d",
		 kfd_text_safe(exe, sizeof(exe), base_name(in->hdr.exe),
			       sizeof(in->hdr.exe)), in->hdr.pid);
	if (bt_trace_set_name(in->trace, name) || set_env(in->trace, &in->hdr, in->path))
		goto nomem;
	return 0;
nomem:
	BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self,
		"%s: cannot create the trace IR objects (out of memory?)",
		in->path);
	return -1;
}

bt_event_class *
kbt_ioctl_ec(struct kbt_input *in, unsigned int row)
{
	struct kbt_ioctl_class *ic;

	if (row >= in->nrows)
		return NULL;
	ic = &in->ioctl[row];
	if (ic->ec || ic->failed)
		return ic->ec;
	if (kbt_ioctl_class_build(in, ic)) {
		kbt_ioctl_class_release(ic);
		ic->failed = 1;
		return NULL;
	}
	return ic->ec;
}

void
kbt_input_release(struct kbt_input *in)
{
	unsigned int i;

	for (i = 0; in->ioctl && i < in->nrows; i++)
		kbt_ioctl_class_release(&in->ioctl[i]);
	free(in->ioctl);
	in->ioctl = NULL;
	for (i = 0; i < KBT_EC_COUNT; i++) {
		bt_event_class_put_ref(in->fixed[i]);
		in->fixed[i] = NULL;
	}
	bt_trace_put_ref(in->trace);
	bt_clock_class_put_ref(in->cc);
	bt_stream_class_put_ref(in->sc);
	bt_trace_class_put_ref(in->tc);
	in->trace = NULL;
	in->cc = NULL;
	in->sc = NULL;
	in->tc = NULL;
}
