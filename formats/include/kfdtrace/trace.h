/* SPDX-License-Identifier: MIT */
/*
 * Trace files: the record model, the writer and the reader.
 *
 * docs/trace-format.md is the normative description of the bytes on disk;
 * this header is the in-memory view. A trace is a header followed by typed,
 * length-prefixed records in independent zstd frames. Records only grow by
 * appending fields; readers skip record types they do not know.
 *
 * Errors are negative numbers: -errno for system errors, or one of the
 * KT_E* codes below for trace-specific conditions. Library code never exits.
 */
#ifndef KFDTRACE_TRACE_H
#define KFDTRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Trace-specific errors (returned negated). Gapped from errno values. */
enum kt_err {
	KT_ETRUNC = 2000,	/* file ends inside a frame: writer was killed */
	KT_ECORRUPT = 2001,	/* bytes that cannot be what a writer wrote */
	KT_EVERSION = 2002,	/* format major version newer than ours */
	KT_ETOOBIG = 2003,	/* a length beyond the format's bounds */
	KT_ENOTTRACE = 2004,	/* no trace magic at the start */
};

/* kt_strerror() - text for a negative error from this API (or -errno). */
const char *kt_strerror(int err);

#define KT_FORMAT_MAJOR 1
#define KT_FORMAT_MINOR 7	/* 1: submit and memory records;
				 * 2: fd_transfer records;
				 * 3: a submit record's fd;
				 * 4: a memory record's hash, REF;
				 * 5: END's left_out count;
				 * 6: the header's run command and start;
				 * 7: a memory record's delta, STORE */

/*
 * Bounds of the format (docs/trace-format.md section 5.2). The writer refuses
 * a record beyond them with -KT_ETOOBIG; the reader reports them exceeded in a
 * file as corrupt. String lengths exclude the NUL.
 */
#define KT_MAX_RECORD_SIZE	(16u << 20)	/* one encoded record */
#define KT_MAX_FRAME_SIZE	(32u << 20)	/* decompressed frame content */
#define KT_MAX_ARG_SIZE		16383u		/* _IOC_SIZE() */
#define KT_MAX_BUFS		64u		/* indirect buffers per ioctl */
#define KT_MAX_PATH		4096u		/* open and exec paths */
#define KT_MAX_NAME		256u		/* thread and API names */
#define KT_MAX_SUBMIT		(4u << 20)	/* packet bytes per submit record */
#define KT_MAX_TEXT		65536u		/* annotation, API arguments */
#define KT_MAX_ARGV		(1u << 20)	/* exec argv bytes */
#define KT_MAX_TOPO_FILES	65536u		/* files per topology record */
#define KT_MAX_HEADER_SIZE	65536u		/* header frame payload */
#define KT_MAX_INDEX_ENTRIES	65536u		/* entries per index frame */
#define KT_MAX_XFER_FDS		253u		/* fds per fd_transfer record
						 * (the kernel's SCM_MAX_FD) */
#define KT_MAX_SOCK_NAME	108u		/* a socket address (sun_path) */

/* Record types. Values are stored in files and never reused. */
enum kt_rec_type {
	KT_REC_IOCTL = 1,
	KT_REC_OPEN = 2,	/* open of a device file (kfd, render node) */
	KT_REC_CLOSE = 3,
	KT_REC_DUP = 4,		/* dup/dup2/dup3/fcntl(F_DUPFD*) of a device fd */
	KT_REC_MMAP = 5,
	KT_REC_MUNMAP = 6,
	KT_REC_FORK = 7,
	KT_REC_EXEC = 8,
	KT_REC_THREAD_NAME = 9,
	KT_REC_TOPOLOGY = 10,	/* the KFD sysfs tree as the process read it */
	KT_REC_ANNOTATION = 11,	/* free text */
	KT_REC_API_CALL = 12,	/* thunk-level span: hsaKmt* call */
	KT_REC_END = 13,	/* last record of a cleanly closed trace */
	KT_REC_SUBMIT = 14,	/* packets published on a queue (a doorbell) */
	KT_REC_MEMORY = 15,	/* memory the next submit's packets reference */
	KT_REC_FD_TRANSFER = 16, /* fds sent or received over a Unix socket */
	KT_REC_TYPE_MAX
};

/* Flags of one indirect-buffer image. */
enum kt_buf_flags {
	KT_BUF_BEFORE = 1 << 0,		/* before-image present */
	KT_BUF_AFTER = 1 << 1,		/* after-image present */
	KT_BUF_CLAMPED = 1 << 2,	/* length exceeded the capture cap */
	KT_BUF_UNREADABLE = 1 << 3,	/* user memory could not be read */
	KT_BUF_OMITTED = 1 << 4,	/* contents left out (--no-buffers) */
};

/* One indirect buffer of an ioctl, before and after the call. */
struct kt_buf_image {
	uint16_t index;		/* index into the schema row's bufs[] */
	uint16_t flags;		/* enum kt_buf_flags */
	uint64_t addr;		/* the user pointer */
	uint32_t len_before;
	uint32_t len_after;
	const uint8_t *before;	/* len_before bytes, or NULL */
	const uint8_t *after;	/* len_after bytes, or NULL */
};

struct kt_ioctl_rec {
	int32_t fd;
	uint8_t file_kind;	/* enum kfd_file_kind */
	uint32_t request;
	int64_t ret;		/* the syscall's return value */
	int32_t err;		/* errno when ret == -1, else 0 */
	uint64_t t_exit;	/* CLOCK_MONOTONIC ns; enter time is rec.ts */
	uint32_t arg_size;	/* _IOC_SIZE(request) bytes in each image */
	const uint8_t *arg_before;
	const uint8_t *arg_after;
	uint16_t nbufs;
	const struct kt_buf_image *bufs;
};

struct kt_open_rec {
	const char *path;
	int32_t flags;
	uint32_t mode;
	uint8_t file_kind;
	uint64_t rdev;		/* st_rdev of the opened file, 0 if unknown */
	int64_t ret;		/* the fd, or -1 */
	int32_t err;
};

struct kt_close_rec {
	int32_t fd;
	int64_t ret;
	int32_t err;
};

enum kt_dup_kind { KT_DUP = 0, KT_DUP2 = 1, KT_DUP3 = 2, KT_FCNTL_DUPFD = 3,
		   KT_FCNTL_DUPFD_CLOEXEC = 4 };

struct kt_dup_rec {
	uint8_t kind;		/* enum kt_dup_kind */
	int32_t oldfd;
	int32_t newfd;		/* requested (dup2/dup3, F_DUPFD minimum) */
	int32_t flags;
	int64_t ret;
	int32_t err;
};

struct kt_mmap_rec {
	uint64_t addr;		/* requested address */
	uint64_t len;
	int32_t prot;
	int32_t flags;
	int32_t fd;
	uint8_t file_kind;
	uint64_t offset;
	uint64_t result;	/* the mapping address, or MAP_FAILED */
	int32_t err;
};

struct kt_munmap_rec {
	uint64_t addr;
	uint64_t len;
	int64_t ret;
	int32_t err;
};

struct kt_fork_rec {
	int32_t parent_pid;
	int32_t child_pid;	/* in the parent's record; 0 in the child's */
};

struct kt_exec_rec {
	const char *path;
	const char *argv;	/* NUL-separated arguments */
	uint32_t argv_len;	/* bytes in argv, including the NULs */
};

struct kt_thread_name_rec {
	const char *name;
};

struct kt_topo_file {
	const char *path;	/* absolute sysfs path */
	const uint8_t *data;
	uint32_t len;
};

struct kt_topology_rec {
	uint32_t nfiles;
	const struct kt_topo_file *files;
};

struct kt_annotation_rec {
	const char *text;
};

struct kt_api_call_rec {
	const char *name;	/* "hsaKmtAllocMemory" */
	const char *args;	/* "node=1 size=4096 ..." */
	int32_t status;		/* HSAKMT_STATUS */
	uint64_t t_exit;	/* enter time is rec.ts */
	uint64_t first_seq;	/* sequence numbers of the ioctls it caused: */
	uint64_t last_seq;	/* first_seq > last_seq when it caused none */
};

enum kt_end_flags {
	KT_END_CLEAN = 0,
	KT_END_INCOMPLETE = 1 << 0,	/* records were lost (I/O error, ENOSPC) */
	KT_END_SIGNAL = 1 << 1,		/* written from a fatal signal handler */
};

enum kt_submit_flags {
	KT_SUBMIT_CLAMPED = 1 << 0,	/* data cut at the capture's bound */
	KT_SUBMIT_UNREADABLE = 1 << 1,	/* the ring could not be read */
	/*
	 * Format 1.4 (older readers ignore them): found after the fact, at
	 * the program's next KFD call, by another thread than the one that
	 * rang (a store that did not trap): the engine may have seen the
	 * doorbell first.
	 */
	KT_SUBMIT_LATE = 1 << 2,
	/* AQL: the doorbell named later packets whose headers were still
	 * INVALID (another producer's, not published yet): @last stops
	 * before them, and a later doorbell records them. */
	KT_SUBMIT_HELD = 1 << 3,
	/* The doorbell value is below the queue's previous one. */
	KT_SUBMIT_BACKWARDS = 1 << 4,
	/* AQL: the engine's read index went past packets no trapped
	 * doorbell published (rung by the GPU itself, or through a mapping
	 * the capture does not see): what the ring holds now. */
	KT_SUBMIT_UNSEEN = 1 << 5,
};

/*
 * Packets a doorbell published. AQL queues count packets: @first and
 * @last are the first and last packet index (64-bit, not wrapped; the
 * doorbell value is the last); SDMA queues count bytes: [@first, @last)
 * is the byte range of the ring's monotonic write pointer. @data holds
 * the packets in that order (ring wrap undone), @len bytes.
 */
struct kt_submit_rec {
	uint32_t queue_id;	/* the KFD queue id CREATE_QUEUE returned */
	int32_t fd;		/* the /dev/kfd file of its KFD process; -1:
				 * unknown (a format 1.0-1.2 record) */
	uint32_t gpu_id;
	uint8_t engine;		/* enum kfd_engine (kfdtrace/packets.h) */
	uint8_t flags;		/* enum kt_submit_flags */
	uint64_t first;
	uint64_t last;
	uint64_t ring;		/* ring_base_address */
	uint32_t ring_size;	/* bytes */
	uint32_t len;
	const uint8_t *data;
};

/* What a memory record holds (submission capture, --submissions=full). */
enum kt_memory_kind {
	KT_MEM_CODE = 1,	/* a code object's buffer (once per buffer) */
	KT_MEM_KERNARG = 2,	/* a dispatch's kernel arguments */
	KT_MEM_SIGNAL = 3,	/* an amd_signal_t a packet names */
	KT_MEM_COPY_SOURCE = 4,	/* what an SDMA copy reads */
	KT_MEM_INDIRECT = 5,	/* a PM4 indirect buffer's packets */
	KT_MEM_KIND_MAX
};

enum kt_memory_flags {
	KT_MEM_OMITTED = 1 << 0,	/* left out: the capture's limit was reached */
	KT_MEM_UNREADABLE = 1 << 1,	/* the memory could not be read */
	KT_MEM_CUT = 1 << 2,		/* only the first len of full_len bytes */
	/*
	 * Format 1.4: the bytes are another memory record's of the same
	 * @hash in this file (content stored once per trace); this record
	 * holds none. The reader hands them out (data, len), also after a
	 * seek past that record; when the file has none, len stays 0.
	 */
	KT_MEM_REF = 1 << 3,
	/*
	 * Format 1.7: the bytes are in the run's blob store
	 * (kfdtrace/blob.h), named by @hash; the file holds none.
	 */
	KT_MEM_STORE = 1 << 4,
	/*
	 * Format 1.7: the bytes are those of the previous memory record at
	 * the same address, with the 8-byte words @delta lists replaced.
	 */
	KT_MEM_DELTA = 1 << 5,
};

/* Why a reader could not hand out a memory record's bytes. */
enum kt_mem_missing {
	KT_MEM_HAVE = 0,	/* the bytes are there (or the record has none) */
	KT_MEM_NOT_READ,	/* REF: the file holds no record of the
				 * bytes (or memory ran out) */
	KT_MEM_NOT_IN_STORE,	/* STORE: no such blob in the run's store (the
				 * file was read without its run) */
	KT_MEM_BAD_IN_STORE,	/* STORE: the stored blob's bytes do not have
				 * its hash, or it could not be read */
	KT_MEM_NO_BASE,		/* DELTA: the reader has no bytes of the record
				 * it changes */
};

/* The content hash of a memory record: SHA-256. */
#define KT_MEM_HASH_LEN 32

/* The longest memory record a DELTA may change: 64 words of 8 bytes. */
#define KT_MEM_DELTA_MAX 512u
/* The longest delta: a 64-bit varint mask and every word. */
#define KT_MEM_DELTA_ENC_MAX (10u + KT_MEM_DELTA_MAX)

/*
 * Memory at @addr as it was when the capture recorded the submit record
 * that follows (same thread): @len bytes of the @full_len the packets
 * reference.
 */
struct kt_memory_rec {
	uint64_t addr;
	uint32_t full_len;
	uint8_t kind;		/* enum kt_memory_kind */
	uint8_t flags;		/* enum kt_memory_flags */
	uint32_t len;
	const uint8_t *data;
	/* Format 1.4: SHA-256 of the full len bytes, or hash_len 0. */
	uint8_t hash_len;
	uint8_t hash[KT_MEM_HASH_LEN];
	/* Format 1.7: DELTA's encoding (kt_mem_delta_encode()), else 0. */
	uint32_t delta_len;
	const uint8_t *delta;
	/* Set by the reader: enum kt_mem_missing (the writer ignores it). */
	uint8_t missing;
};

enum kt_xfer_dir {
	KT_XFER_SEND = 0,	/* sendmsg, sendmmsg */
	KT_XFER_RECV = 1,	/* recvmsg, recvmmsg */
};

enum kt_xfer_flags {
	KT_XFER_CUT = 1 << 0,		/* more fds than recorded (nfds_total) */
	KT_XFER_CTRUNC = 1 << 1,	/* receive: MSG_CTRUNC, the control
					 * buffer was too small: the kernel
					 * closed the fds that did not fit */
	KT_XFER_PEEK = 1 << 2,		/* receive: MSG_PEEK */
};

/* What a transferred fd is. 1 and 2 are enum kfd_file_kind's values. */
enum kt_xfer_fd_kind {
	KT_XFER_FD_OTHER = 0,
	KT_XFER_FD_KFD = 1,
	KT_XFER_FD_RENDER = 2,
	KT_XFER_FD_DMABUF = 3,
	KT_XFER_FD_KIND_MAX
};

struct kt_xfer_fd {
	int32_t fd;		/* the number in the recording process */
	uint8_t kind;		/* enum kt_xfer_fd_kind */
};

/*
 * One message with SCM_RIGHTS control data that carried a dma-buf, KFD or
 * render-node fd (docs/trace-format.md 5.4.16). Every fd of the message is
 * listed, in the message's order, so that the sender's and the receiver's
 * lists pair up position by position. @ino and @peer_ino are the inode
 * numbers of the two ends of the socket (0: unknown), which is how the
 * records of two traces find each other.
 */
struct kt_fd_transfer_rec {
	uint8_t dir;		/* enum kt_xfer_dir */
	uint8_t flags;		/* enum kt_xfer_flags */
	int32_t sock;		/* the socket's fd */
	int64_t ret;		/* bytes the call moved for this message, or -1 */
	int32_t err;
	uint64_t t_exit;	/* enter time is rec.ts */
	uint64_t ino;		/* the socket's inode */
	uint64_t peer_ino;	/* its peer's (unix_diag), 0 if unknown */
	int32_t peer_pid;	/* SO_PEERCRED, 0 if unknown */
	const char *name;	/* the socket's address: a path, '@' and an
				 * abstract name, or "" */
	const char *peer_name;	/* the peer's */
	uint32_t nfds_total;	/* fds the message carried */
	uint16_t nfds;		/* fds listed, <= KT_MAX_XFER_FDS */
	const struct kt_xfer_fd *fds;
};

struct kt_end_rec {
	uint32_t flags;		/* enum kt_end_flags */
	uint64_t records;	/* records written before this one */
	uint64_t lost;		/* records known to be lost */
	/*
	 * Format 1.5: ioctls the capture chose not to record (record --only,
	 * --except; KT_HDR_SELECTED); 0 in older traces.
	 */
	uint64_t left_out;
};

/*
 * One record. Pointers inside are owned by the reader (valid until the next
 * kt_reader_next()) or by the caller (for kt_writer_append(), only for the
 * duration of the call).
 */
struct kt_record {
	uint16_t type;		/* enum kt_rec_type */
	uint64_t seq;		/* process-wide sequence number */
	uint32_t tid;
	uint64_t ts;		/* CLOCK_MONOTONIC ns (ioctl: enter time) */
	union {
		struct kt_ioctl_rec ioctl;
		struct kt_open_rec open;
		struct kt_close_rec close;
		struct kt_dup_rec dup;
		struct kt_mmap_rec mmap;
		struct kt_munmap_rec munmap;
		struct kt_fork_rec fork;
		struct kt_exec_rec exec;
		struct kt_thread_name_rec thread_name;
		struct kt_topology_rec topology;
		struct kt_annotation_rec annotation;
		struct kt_api_call_rec api;
		struct kt_end_rec end;
		struct kt_submit_rec submit;
		struct kt_memory_rec memory;
		struct kt_fd_transfer_rec xfer;
	} u;
};

/*
 * kt_record_end() - when @rec's call returned: the exit time of an ioctl,
 * API call or fd transfer (a record is appended then, stamped with its
 * entry), the
 * record's own time for anything else, or for a call whose exit time is
 * missing or earlier than its entry.
 */
static inline uint64_t
kt_record_end(const struct kt_record *rec)
{
	uint64_t end = rec->type == KT_REC_IOCTL ? rec->u.ioctl.t_exit :
		       rec->type == KT_REC_API_CALL ? rec->u.api.t_exit :
		       rec->type == KT_REC_FD_TRANSFER ? rec->u.xfer.t_exit : 0;

	return end > rec->ts ? end : rec->ts;
}

/*
 * kt_record_clone() - a deep copy of @rec in one allocation: the record and
 * everything its pointers reach (strings, argument and buffer images,
 * topology files), so that it outlives the reader's next call. Release it
 * with free().
 *
 * Return: the copy, or NULL when @rec is NULL or memory ran out.
 */
struct kt_record *kt_record_clone(const struct kt_record *rec);

/*
 * kt_record_clone_after() - kt_record_clone() behind @head bytes of the
 * caller's own, in the same allocation: for a caller that keeps the copy
 * as the last member of a struct of its own (@head is that member's
 * offset, a multiple of 8). The copy starts @head bytes into the block.
 * @bytes:	set to the block's size (NULL: not wanted)
 *
 * Return: the block (release it with free()), or NULL when @rec is NULL,
 * @head is not a multiple of 8, or memory ran out.
 */
void *kt_record_clone_after(const struct kt_record *rec, size_t head,
			    size_t *bytes);

/* The file header: facts about the traced process and machine. */
struct kt_header {
	uint16_t format_major;
	uint16_t format_minor;
	char producer[32];		/* "kfdtrace-capture", "kfdtrace-thunk" */
	char producer_version[32];
	char host[64];
	char kernel_release[64];
	uint32_t kfd_major;		/* KFD ABI seen when the file was opened; */
	uint32_t kfd_minor;		/* 0.0 = unknown (see the GET_VERSION record) */
	int32_t pid;
	int32_t ppid;
	char exe[256];
	char cmdline[1024];		/* NUL-separated arguments */
	uint32_t cmdline_len;
	uint64_t start_monotonic;	/* ns */
	uint64_t start_realtime;	/* ns since the epoch */
	uint64_t start_boottime;	/* ns */
	uint32_t flags;			/* KT_HDR_* */
	/*
	 * The run this process belongs to (minor 5): the command `kfdtrace
	 * record` ran, NUL-separated, and CLOCK_MONOTONIC when it ran it;
	 * empty and 0 outside a recording (and in older files).
	 */
	char run_cmdline[1024];
	uint32_t run_cmdline_len;
	uint64_t run_start;		/* ns */
};

enum kt_header_flags {
	KT_HDR_NO_BUFFERS = 1 << 0,	/* buffer contents were omitted */
	KT_HDR_SIMULATED = 1 << 1,	/* a user-space device (userdev.h) */
	/*
	 * Only some ioctls were recorded, chosen by name (record --only,
	 * --except): the trace is partial; END counts what was left out.
	 */
	KT_HDR_SELECTED = 1 << 2,
};

/*
 * kt_run_file_name() - the name of one process's trace in a run that
 * records to @out (docs/tracer.md):
 *
 *   OUT					the root's first trace
 *   STEM.<pid>[.exec<N>][.<dup>].kfdtrace	another process's (pid > 0)
 *   STEM[.exec<N>][.<dup>].kfdtrace		the root's after its N-th exec
 *   DIR/<pid>[.exec<N>][.<dup>].kfdtrace	any process's, when @out ends
 *						in '/'
 *
 * STEM is @out without a ".kfdtrace" ending; @dup (0 for none) tells
 * apart names that already existed. @pid is 0 for the root, except in a
 * directory, where every name has its pid.
 *
 * Return: 0, or -1 when @size is too small.
 */
int kt_run_file_name(char *buf, size_t size, const char *out, int pid,
		     unsigned int exec_gen, unsigned int dup);

/*
 * kt_header_init() - fill a header with this process's facts (host, kernel,
 * pid, exe, cmdline, the three start clocks), the run's facts that
 * `kfdtrace record` put in the environment (KT_ENV_RUN_CMDLINE,
 * KT_ENV_RUN_START), and the given producer.
 */
void kt_header_init(struct kt_header *hdr, const char *producer);

/* The environment that carries a run's facts to every traced process. */
#define KT_ENV_RUN_CMDLINE "KFDTRACE_RUN_CMDLINE"
#define KT_ENV_RUN_START "KFDTRACE_RUN_START"

/*
 * kt_run_cmdline_encode() - @argv (NULL-terminated) as the value of
 * KT_ENV_RUN_CMDLINE: the arguments NUL-separated as in /proc/PID/cmdline,
 * with NUL written %00 and '%' written %25, so that an environment string
 * holds them. Arguments past the header's 1024 bytes are left out.
 *
 * Return: 0, or -1 when @size is too small for what is kept.
 */
int kt_run_cmdline_encode(char *buf, size_t size, char *const *argv);

/*
 * kt_run_cmdline_decode() - the NUL-separated arguments of a
 * KT_ENV_RUN_CMDLINE value, at most @size bytes of them.
 *
 * Return: their length.
 */
uint32_t kt_run_cmdline_decode(const char *env, char *out, size_t size);

/*
 * The times a record may carry (docs/trace-format.md section 5.1), in ns of
 * CLOCK_MONOTONIC: at most KT_TS_EARLY before the header's start_monotonic
 * (a capture may take a call's entry time just before that call starts the
 * trace) and at most KT_TS_SPAN after it, and never so late that the time,
 * or its wall-clock time start_realtime + (ts - start_monotonic), leaves a
 * signed 64-bit value (what CTF and Perfetto timestamps are).
 */
#define KT_TS_EARLY	(10ull * 1000000000ull)	/* 10 s */
#define KT_TS_SPAN	(1ull << 60)			/* about 36 years */

/*
 * kt_header_ts_range() - the first and last valid record time of a trace
 * with header @hdr. A header whose clocks leave no valid time (start_realtime
 * or start_monotonic past 2^63 - 1) gets *@lo > *@hi.
 */
void kt_header_ts_range(const struct kt_header *hdr, uint64_t *lo,
			uint64_t *hi);

/* ------------------------------------------------------------------ */
/* Writer                                                               */

struct kt_writer;

struct kt_writer_opts {
	int level;			/* zstd level; 0 = default (1) */
	size_t frame_raw_size;		/* raw bytes per frame; 0 = 64 KiB */
	unsigned int flush_ms;		/* max age of buffered records; 0 = 100 */
	unsigned int index_every;	/* index frame every N frames; 0 = 16 */
	size_t max_queued_bytes;	/* full buffers waiting for compression
					 * before appends wait; 0 = 32 MiB */
	const char *path;		/* kt_writer_fdopen(): the file's path,
					 * to reopen it by if the program closes
					 * or takes over the fd; NULL: none */
	/*
	 * Records the producer knows it could not append (counted where
	 * the writer cannot be reached, e.g. by a process sharing the
	 * memory but not the trace): read when the END record is made and
	 * added to its lost count. NULL: none.
	 */
	const _Atomic uint64_t *lost_elsewhere;
	/*
	 * Ioctls the producer chose not to record: read when the END
	 * record is made, its left_out count (no loss). NULL: none.
	 */
	const _Atomic uint64_t *left_out;
};

/*
 * kt_writer_open() - create a trace file and start its writer thread.
 * @path:	created with O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, mode 0600
 * @hdr:	the header; copied
 * @opts:	NULL for defaults
 * @out:	the writer
 *
 * The header is written at once; like any write error, a failure to write
 * it does not fail the open but is reported by kt_writer_flush() and
 * kt_writer_close() (records are counted as lost).
 *
 * Return: 0, or -errno.
 */
int kt_writer_open(const char *path, const struct kt_header *hdr,
		   const struct kt_writer_opts *opts, struct kt_writer **out);

/*
 * kt_writer_fdopen() - the same on an fd the writer takes ownership of
 * (closed on failure too). Offsets in the file count from the fd's position
 * at this call; a pipe works, but a write error on it ends the trace.
 */
int kt_writer_fdopen(int fd, const struct kt_header *hdr,
		     const struct kt_writer_opts *opts, struct kt_writer **out);

/*
 * kt_writer_next_seq() - allocate a sequence number. Thread-safe; numbers
 * are unique and gapless. Lock-free once the calling thread has writer
 * state (its first call or append makes it, under the writer's lock).
 */
uint64_t kt_writer_next_seq(struct kt_writer *w);

/*
 * kt_writer_append() - append a record.
 *
 * Serializes @rec into the calling thread's buffer; compression and I/O
 * happen on the writer thread. Lock-free on the calling thread except when
 * its buffer is full. The caller sets rec->seq (see kt_writer_next_seq()),
 * tid and ts.
 *
 * Not async-signal-safe; a signal handler that interrupts an append and
 * appends on the same thread gets -EBUSY. A forked child must not append
 * to its parent's writer (it gets -ECHILD once its buffer fills); it opens
 * a writer of its own.
 *
 * Return: 0, or a negative error (the record was not taken; counted as
 * lost): -KT_ETOOBIG beyond a bound above, -EINVAL for a malformed record.
 */
int kt_writer_append(struct kt_writer *w, const struct kt_record *rec);

/*
 * struct kt_ioctl_fast - the common IOCTL record, as the per-ioctl path of a
 * recorder hands it over: no indirect buffers, the argument's images in
 * the caller's memory. Fields as in struct kt_record and kt_ioctl_rec.
 */
struct kt_ioctl_fast {
	uint64_t ts;			/* enter time */
	uint64_t t_exit;
	const void *arg_before;		/* arg_size bytes, or NULL */
	const void *arg_after;		/* arg_size bytes, or NULL */
	uint32_t arg_size;
	uint32_t request;
	uint32_t tid;
	int32_t fd;
	int32_t ret;
	int32_t err;
	uint8_t file_kind;
};

/*
 * kt_ioctl_fast_of() - the kt_writer_append_ioctl() view of @rec, an IOCTL
 * record without indirect buffers: the same fields, the same images.
 */
static inline void
kt_ioctl_fast_of(struct kt_ioctl_fast *f, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;

	*f = (struct kt_ioctl_fast){
		.ts = rec->ts,
		.t_exit = io->t_exit,
		.arg_before = io->arg_before,
		.arg_after = io->arg_after,
		.arg_size = io->arg_size,
		.request = io->request,
		.tid = rec->tid,
		.fd = io->fd,
		.ret = (int32_t)io->ret,
		.err = io->err,
		.file_kind = io->file_kind,
	};
}

/*
 * kt_writer_append_ioctl() - number and append the IOCTL record @io.
 * @seq:	set to the record's sequence number, also when the record
 *		is lost
 *
 * The same as kt_writer_next_seq() and kt_writer_append() of the record
 * @io describes, in one call that does a fraction of their work: the
 * record is copied into the thread's buffer as it is, and the writer
 * thread encodes it. The number is taken inside the append, so among one
 * thread's records numbers follow the order in which they were appended.
 *
 * Return: as kt_writer_append().
 */
int kt_writer_append_ioctl(struct kt_writer *w, const struct kt_ioctl_fast *io,
			   uint64_t *seq);

/*
 * kt_writer_flush() - compress and write everything appended so far (by any
 * thread) and wait until it is in the file.
 *
 * Return: 0, or -errno of the first write error.
 */
int kt_writer_flush(struct kt_writer *w);

/*
 * kt_writer_close() - flush, write the END record and the final index,
 * stop the writer thread, close the file and free the writer. No append
 * may run concurrently. In a forked child it only frees memory and closes
 * the fd (-ECHILD).
 *
 * Return: 0, or the first error seen during the writer's life (after an
 * I/O error the END record says KT_END_INCOMPLETE when it could be written).
 */
int kt_writer_close(struct kt_writer *w);

/* Counters, for summaries and tests. */
struct kt_writer_stats {
	uint64_t records;
	uint64_t lost;
	uint64_t raw_bytes;
	uint64_t file_bytes;
	uint64_t frames;
};

void kt_writer_get_stats(struct kt_writer *w, struct kt_writer_stats *st);

/*
 * kt_writer_emergency_flush() - write out buffered records from a fatal
 * signal handler.
 *
 * Async-signal-safe: uses only atomics and system calls (write, membarrier,
 * signal masks, sched_yield, nanosleep), never zstd, malloc or locks. Waits
 * (at most about half a second) for the writer thread to finish the frame
 * it is writing, then writes the records sitting in every thread's buffer
 * and in the writer thread's queue as zstd frames of raw blocks
 * (docs/trace-format.md section 8.3). When the signal interrupted
 * kt_writer_append() on this thread, the records before the interrupted one
 * are written. A thread in the middle of an append on another CPU is waited
 * for briefly. Writes no END record: the process may survive the signal and
 * the writer keeps working afterwards.
 *
 * The caller keeps @w valid while a handler may call this: clear the
 * handler's pointer before kt_writer_close().
 *
 * Return: 0, -EBUSY when the writer thread did not let go of the file in
 * time (nothing written), -ECHILD in a forked child, or -errno of a failed
 * write.
 */
int kt_writer_emergency_flush(struct kt_writer *w);

/*
 * kt_writer_emergency_end() - finish the trace from a path that cannot
 * close it properly: _exit(), which signal handlers and forked children
 * call, possibly in the middle of malloc or a lock.
 *
 * Async-signal-safe, like kt_writer_emergency_flush(), which it does first;
 * then it writes the END record (uncompressed, no index, no footer), so
 * the trace reads as complete. Nothing is written after it: records
 * appended later are counted as lost, and kt_writer_close() then only
 * stops the writer thread and frees @w.
 *
 * Return: 0, or what kt_writer_emergency_flush() returns.
 */
int kt_writer_emergency_end(struct kt_writer *w);

/*
 * kt_writer_emergency_end_signal() - kt_writer_emergency_end() from the
 * handler of a signal that is about to end the process: the END record
 * carries KT_END_SIGNAL.
 *
 * Return: as kt_writer_emergency_end().
 */
int kt_writer_emergency_end_signal(struct kt_writer *w);

/* ------------------------------------------------------------------ */
/* Reader                                                               */

struct kt_reader;

/* What the reader learned about the file's integrity. */
enum kt_integrity {
	KT_INTEGRITY_OK = 0,		/* clean END record */
	KT_INTEGRITY_NO_END = 1,	/* all frames complete, but no END record */
	KT_INTEGRITY_TRUNCATED = 2,	/* file ends inside a frame */
	KT_INTEGRITY_CORRUPT = 3,	/* bad bytes at corrupt_offset */
	KT_INTEGRITY_INCOMPLETE = 4,	/* whole and ended, but END says the
					 * writer lost records (lost) */
	KT_INTEGRITY_DAMAGED = 5,	/* every frame intact, yet records are
					 * missing, repeated or appended:
					 * frames deleted, copied, spliced */
};

struct kt_reader_status {
	enum kt_integrity integrity;
	uint64_t records;		/* records returned so far */
	uint64_t corrupt_offset;	/* file offset of the bad bytes, or of
					 * the frame holding a bad record */
	uint64_t file_size;
	uint64_t frames;
	char message[256];		/* human-readable detail */
	uint64_t corrupt_raw_offset;	/* offset of the bad record within the
					 * decompressed frame; UINT64_MAX when
					 * the fault is not inside a frame */
	/* From the END record, once read (0 before): */
	uint64_t end_records;		/* records it says were written */
	uint64_t lost;			/* records it says were lost */
	uint32_t end_flags;		/* enum kt_end_flags */
	uint64_t left_out;		/* ioctls it says were not recorded */
};

/*
 * kt_reader_open() - open a trace file and read its header.
 *
 * A regular file is mapped (read-only): it may still be growing, the reader
 * sees it as it was at open, but it must not be truncated while open.
 * Other files (pipes, devices) are read into memory, up to
 * KT_READER_STREAM_MAX bytes; their magic is checked on the first bytes,
 * so /dev/zero is refused at once rather than read for ever, and each
 * frame as it arrives: reading stops at the first bad frame, which
 * kt_reader_next() then reports with its offset.
 *
 * Return: 0, or a negative error (-KT_ENOTTRACE, -KT_EVERSION,
 * -KT_ECORRUPT, -KT_ETRUNC, -KT_ETOOBIG for a stream over the bound,
 * -errno).
 */
int kt_reader_open(const char *path, struct kt_reader **out);

/* What a pipe or device may hold at most (a regular file is mapped). */
#define KT_READER_STREAM_MAX	(4ull << 30)

/*
 * kt_reader_open_why() - kt_reader_open(), and on a header fault @why
 * (when not NULL) names what is wrong and where, as a static string
 * ("empty file", "header CRC mismatch", "no kfdtrace magic at offset 0",
 * ...); NULL when there is nothing to add to kt_strerror().
 */
int kt_reader_open_why(const char *path, struct kt_reader **out,
		       const char **why);

/* kt_reader_open_mem() - the same over a memory image (not copied). */
int kt_reader_open_mem(const void *data, size_t len, struct kt_reader **out);

/*
 * kt_reader_set_readahead() - allow (@on != 0, the default) or forbid the
 * reader to decompress the frames after the current one on a helper thread
 * while the caller decodes. It starts only for files of more than a few
 * frames and changes nothing the caller sees but speed; forbidding it stops
 * a running helper. A reader with read-ahead must not be used by two threads
 * (no reader may) nor after fork() from the child (there it quietly falls
 * back to reading without).
 */
void kt_reader_set_readahead(struct kt_reader *r, int on);

/* kt_reader_header() - the file header. */
const struct kt_header *kt_reader_header(const struct kt_reader *r);

/*
 * kt_reader_next() - the next record.
 *
 * Return: 1 with *rec filled; 0 at the end of the trace (check
 * kt_reader_get_status() for how it ended); -KT_ETRUNC when the file ends
 * inside a frame (all complete records before it were returned);
 * -KT_ECORRUPT when bytes are invalid (status names the offset).
 * After a negative return, further calls return the same error.
 */
int kt_reader_next(struct kt_reader *r, struct kt_record *rec);

/*
 * kt_reader_seek_seq() - position so that the next record returned is the
 * first with seq >= @seq, using the file's index frames where present.
 *
 * Records are in file order, which is per-thread order: every record with
 * seq >= @seq comes after the new position, but records of other threads
 * with a smaller seq may still follow (docs/trace-format.md section 6.2).
 * A seek clears a previous -KT_ETRUNC or -KT_ECORRUPT state.
 *
 * Return: 0, or a negative error.
 */
int kt_reader_seek_seq(struct kt_reader *r, uint64_t seq);

/*
 * kt_reader_seek_time() - the same as kt_reader_seek_seq() for the first
 * record with ts >= @ts (CLOCK_MONOTONIC ns).
 *
 * Return: 0, or a negative error.
 */
int kt_reader_seek_time(struct kt_reader *r, uint64_t ts);

void kt_reader_get_status(const struct kt_reader *r,
			  struct kt_reader_status *st);

/*
 * kt_reader_verdict() - the integrity of a read whose last kt_reader_next()
 * returned @rc: KT_INTEGRITY_TRUNCATED or _CORRUPT after those errors, else
 * the status's. Every tool takes its verdict, and its exit status, from
 * here (docs/cli.md).
 */
enum kt_integrity kt_reader_verdict(const struct kt_reader *r, int rc);

/*
 * kt_integrity_damage() - whether @i is damage: truncated, corrupt,
 * damaged or incomplete. A tool reading a damaged trace shows what it
 * could read and fails; a trace without an END record is not damaged.
 */
static inline bool
kt_integrity_damage(enum kt_integrity i)
{
	return i != KT_INTEGRITY_OK && i != KT_INTEGRITY_NO_END;
}

/* kt_integrity_name() - "ok", "no-end", "truncated", "corrupt",
 * "incomplete" or "damaged". */
const char *kt_integrity_name(enum kt_integrity i);

void kt_reader_close(struct kt_reader *r);

/* kt_rec_type_name() - "ioctl", "open", ... or NULL for unknown types. */
const char *kt_rec_type_name(unsigned int type);

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_TRACE_H */
