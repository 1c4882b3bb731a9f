/* SPDX-License-Identifier: MIT */
/*
 * CTF export: converts a kfdtrace trace file to a CTF 1.8 trace directory
 * by running a babeltrace2 graph in the calling process, made of this
 * project's source.kfdtrace.trace component and babeltrace2's own
 * sink.ctf.fs. The result is what
 *
 *   babeltrace2 --plugin-path=DIR convert TRACE -o ctf -w OUT \
 *       --params=begin-events=yes
 *
 * writes (without the per-trace subdirectory): every record's event, and
 * a kfd:call_begin at the entry of each ioctl and API call.
 */
#ifndef KT_CTF_EXPORT_H
#define KT_CTF_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Outcomes of kt_ctf_export() besides 0. */
enum kt_ctf_export_status {
	KT_CTF_OK = 0,
	KT_CTF_TRUNCATED = 1,	/* written up to the last complete frame */
	KT_CTF_CORRUPT = 2,	/* written up to the damaged frame */
	KT_CTF_DAMAGED = 3,	/* written whole, but records are missing,
				 * repeated or added, or the writer lost some */
	KT_CTF_FAILED = -1,	/* see the message */
	KT_CTF_UNSUPPORTED = -2,	/* built without babeltrace2 */
};

struct kt_ctf_export_opts {
	/*
	 * The kfdtrace plugin: a .so file or a directory holding it. NULL:
	 * $KFDTRACE_BT2_PLUGIN_PATH, else the build tree's plugin when the
	 * running program is part of that build tree, else the install
	 * directory, else babeltrace2's own search path.
	 */
	const char *plugin_path;
	int verbose;		/* say which plugin was loaded */
	/*
	 * Called as the conversion goes with the events written so far
	 * (a progress line); NULL: none.
	 */
	void (*progress)(void *ctx, uint64_t events);
	void *progress_ctx;
};

/*
 * kt_ctf_export() - write @trace as a CTF trace into directory @outdir.
 * @outdir:	created if missing; must be empty if it exists
 * @opts:	NULL for defaults
 * @msg:	receives a description of the failure (or of the truncation)
 * @msg_size:	its size
 *
 * Warnings of the conversion (a missing END record, reordered events) are
 * printed on stderr as the conversion runs.
 *
 * Return: KT_CTF_OK; KT_CTF_TRUNCATED when the trace is truncated (every
 * complete record was converted); KT_CTF_CORRUPT when it is corrupt (the
 * records before the damage were converted); KT_CTF_DAMAGED when it is
 * damaged or incomplete (every record was converted) -- in these cases the
 * CTF trace is complete and readable and @msg says what the damage is;
 * KT_CTF_FAILED on any other failure; KT_CTF_UNSUPPORTED when built
 * without babeltrace2.
 */
int kt_ctf_export(const char *trace, const char *outdir,
		  const struct kt_ctf_export_opts *opts, char *msg,
		  size_t msg_size);

#ifdef __cplusplus
}
#endif

#endif /* KT_CTF_EXPORT_H */
