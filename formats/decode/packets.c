/* SPDX-License-Identifier: MIT */
/*
 * Submit records: the packets a doorbell published, each decoded by its
 * row of the packet schema (kfdtrace/packets.h) with the field printer
 * the ioctl arguments use.
 *
 *   text: submit(queue=3, gpu_id=0xab12, aql, #12..#13) {   (sdma: bytes A..B,
 *						   pm4: dwords A..B)
 *	     [12] KERNEL_DISPATCH{fences=..., grid_size_x=256, ...}, ...}
 *   JSON: "queue", "gpu_id", "engine", "first", "last", "ring",
 *	   "ring_size", "flags", "packets": [{"at", "name", "fields"}]
 *
 * AQL packets are numbered by packet index, SDMA packets by the byte
 * offset of the ring's monotonic write pointer, PM4 packets by its dword
 * offset. The header bytes (type,
 * opcode) are left out of the fields: the name says them.
 */
#include <string.h>

#include <kfdtrace/blob.h>
#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>

#include "decode_priv.h"

static int
header_field(const struct kfd_field *f)
{
	return !strcmp(f->name, "type") || !strcmp(f->name, "op") ||
	       !strcmp(f->name, "sub_op");
}

static void
packet(struct dec *d, int *first, uint64_t at, const char *name,
       const struct kfd_struct_desc *sd, const uint8_t *p, size_t len)
{
	unsigned int i;
	int f1 = 1;

	dec_sep(d, first);
	if (d->json) {
		kt_strbuf_append(d->sb, "{\"at\":", 6);
		dec_u64(d, at);
		kt_strbuf_append(d->sb, ",\"name\":", 8);
		kfd_json_escape(d->sb, name, strlen(name));
		kt_strbuf_append(d->sb, ",\"fields\":{", 11);
	} else {
		kt_strbuf_putc(d->sb, '[');
		kt_strbuf_put_u64(d->sb, at);
		kt_strbuf_append(d->sb, "] ", 2);
		kt_strbuf_puts(d->sb, name);
		kt_strbuf_putc(d->sb, '{');
	}
	for (i = 0; sd && i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];

		if (header_field(f))
			continue;
		dec_key(d, &f1, f->name);
		dec_field(d, f, p, len);
	}
	if (!sd) {
		dec_key(d, &f1, "bytes");
		dec_bytes(d, p, len, d->max_bytes, '<', '>');
	}
	/* The kernel, when its code object was captured (--submissions=full). */
	if (sd && d->kernels && !strcmp(name, "KERNEL_DISPATCH") &&
	    len >= sizeof(struct kfd_aql_dispatch)) {
		struct kfd_aql_dispatch k;
		const char *kn;

		memcpy(&k, p, sizeof(k));
		kn = kfd_kernels_name(d->kernels, k.kernel_object);
		if (kn) {
			dec_key(d, &f1, "kernel");
			dec_str(d, kn, strlen(kn));
		}
	}
	kt_strbuf_append(d->sb, d->json ? "}}" : "}", d->json ? 2 : 1);
}

static void
packets_aql(struct dec *d, int *first, const struct kt_submit_rec *s)
{
	uint32_t n = s->len / KFD_AQL_PACKET_SIZE, i;

	for (i = 0; i < n; i++) {
		const uint8_t *p = s->data + (size_t)i * KFD_AQL_PACKET_SIZE;
		const struct kfd_packet_desc *r = kfd_aql_packet(p);

		packet(d, first, s->first + i, r ? r->name : "UNKNOWN",
		       r ? r->layout : NULL, p, KFD_AQL_PACKET_SIZE);
	}
}

static void
packets_sdma(struct dec *d, int *first, const struct kt_submit_rec *s)
{
	size_t off = 0, size;

	while (off + 4 <= s->len) {
		const struct kfd_packet_desc *r =
			kfd_sdma_packet(s->data + off, s->len - off, &size);
		size_t have = size < s->len - off ? size : s->len - off;

		packet(d, first, s->first + off, r ? r->name : "UNKNOWN",
		       r ? r->layout : NULL, s->data + off, have);
		off += size;
	}
}

static void
packets_pm4(struct dec *d, int *first, const struct kt_submit_rec *s)
{
	size_t off = 0, size;

	while (off + 4 <= s->len) {
		const struct kfd_packet_desc *r =
			kfd_pm4_packet(s->data + off, s->len - off, &size);
		size_t have = size < s->len - off ? size : s->len - off;

		packet(d, first, s->first + off / 4, r ? r->name : "UNKNOWN",
		       r ? r->layout : NULL, s->data + off, have);
		off += size;
	}
}

/* How a record's first and last count: ", #", ", bytes ", ", dwords ". */
static const char *
range_unit(unsigned int engine)
{
	switch (engine) {
	case KFD_ENGINE_SDMA:
		return ", bytes ";
	case KFD_ENGINE_PM4:
		return ", dwords ";
	default:
		return ", #";
	}
}

void
dec_submit(struct dec *d, int *first, const struct kt_submit_rec *s)
{
	int pf = 1;

	if (d->json) {
		dec_key(d, first, "queue");
		dec_u64(d, s->queue_id);
		if (s->fd >= 0) {
			dec_key(d, first, "fd");
			dec_u64(d, (uint64_t)s->fd);
		}
		dec_key(d, first, "gpu_id");
		dec_u64(d, s->gpu_id);
		dec_key(d, first, "engine");
		dec_str(d, kfd_engine_name(s->engine),
			strlen(kfd_engine_name(s->engine)));
		dec_key(d, first, "first");
		dec_u64(d, s->first);
		dec_key(d, first, "last");
		dec_u64(d, s->last);
		dec_key(d, first, "ring");
		dec_u64(d, s->ring);
		dec_key(d, first, "ring_size");
		dec_u64(d, s->ring_size);
		dec_key(d, first, "flags");
		dec_u64(d, s->flags);
		dec_key(d, first, "packets");
		kt_strbuf_putc(d->sb, '[');
	} else {
		kt_strbuf_append(d->sb, "submit(queue=", 13);
		kt_strbuf_put_u64(d->sb, s->queue_id);
		/* The KFD file: queue ids are per KFD process. */
		if (s->fd >= 0) {
			kt_strbuf_append(d->sb, ", fd=", 5);
			kt_strbuf_put_u64(d->sb, (uint64_t)s->fd);
		}
		kt_strbuf_append(d->sb, ", gpu_id=", 9);
		dec_hex(d, s->gpu_id);
		kt_strbuf_append(d->sb, ", ", 2);
		kt_strbuf_puts(d->sb, kfd_engine_name(s->engine));
		/* Packet indexes, or the byte or dword range of the write
		 * pointer. */
		kt_strbuf_puts(d->sb, range_unit(s->engine));
		kt_strbuf_put_u64(d->sb, s->first);
		kt_strbuf_puts(d->sb, s->engine == KFD_ENGINE_SDMA ||
			       s->engine == KFD_ENGINE_PM4 ? ".." : "..#");
		kt_strbuf_put_u64(d->sb, s->last);
		if (s->flags & KT_SUBMIT_CLAMPED)
			kt_strbuf_append(d->sb, ", clamped", 9);
		if (s->flags & KT_SUBMIT_UNREADABLE)
			kt_strbuf_append(d->sb, ", unreadable", 12);
		if (s->flags & KT_SUBMIT_LATE)
			kt_strbuf_append(d->sb, ", late", 6);
		if (s->flags & KT_SUBMIT_HELD)
			kt_strbuf_append(d->sb, ", held", 6);
		if (s->flags & KT_SUBMIT_BACKWARDS)
			kt_strbuf_append(d->sb, ", backwards", 11);
		if (s->flags & KT_SUBMIT_UNSEEN)
			kt_strbuf_append(d->sb, ", unseen", 8);
		kt_strbuf_append(d->sb, ") {", 3);
	}
	if (s->data && s->engine == KFD_ENGINE_AQL)
		packets_aql(d, &pf, s);
	else if (s->data && s->engine == KFD_ENGINE_SDMA)
		packets_sdma(d, &pf, s);
	else if (s->data && s->engine == KFD_ENGINE_PM4)
		packets_pm4(d, &pf, s);
	kt_strbuf_putc(d->sb, d->json ? ']' : '}');
}

static const char *const memory_kinds[KT_MEM_KIND_MAX] = {
	[KT_MEM_CODE] = "code",
	[KT_MEM_KERNARG] = "kernarg",
	[KT_MEM_SIGNAL] = "signal",
	[KT_MEM_COPY_SOURCE] = "copy_source",
	[KT_MEM_INDIRECT] = "indirect_buffer",
};

/* Why the record's bytes are not there, naming the blob. */
static void
dec_memory_missing(struct dec *d, const struct kt_memory_rec *m)
{
	static const char *const why[] = {
		[KT_MEM_NOT_READ] = ", missing: blob ",
		[KT_MEM_NOT_IN_STORE] = ", missing: blob ",
		[KT_MEM_BAD_IN_STORE] = ", damaged: blob ",
		[KT_MEM_NO_BASE] = ", missing: the last record at this address was not read",
	};
	char hex[KT_BLOB_HEX_LEN];

	if (!m->missing || m->missing >= sizeof(why) / sizeof(why[0]))
		return;
	kt_strbuf_puts(d->sb, why[m->missing]);
	if (m->missing == KT_MEM_NO_BASE)
		return;
	kt_strbuf_puts(d->sb, kt_blob_hex(m->hash, hex));
	if (m->missing == KT_MEM_NOT_READ)
		kt_strbuf_puts(d->sb, " is not in this trace");
	else if (m->missing == KT_MEM_NOT_IN_STORE)
		kt_strbuf_puts(d->sb, " is not in the run's blob store "
			       "(" KT_BLOB_DIR "/ beside the trace)");
	else
		kt_strbuf_puts(d->sb, " in the run's blob store does not have "
			       "its hash or cannot be read");
}

/*
 * memory(code, 0x7f0000001000, 12288 bytes) /
 * memory(kernarg, ADDR, 24 of 4096 bytes, cut) <first bytes>
 */
void
dec_memory(struct dec *d, int *first, const struct kt_memory_rec *m)
{
	const char *kind = m->kind < KT_MEM_KIND_MAX && memory_kinds[m->kind] ?
			   memory_kinds[m->kind] : "unknown";

	if (d->json) {
		dec_key(d, first, "kind");
		dec_str(d, kind, strlen(kind));
		dec_key(d, first, "addr");
		dec_u64(d, m->addr);
		dec_key(d, first, "len");
		dec_u64(d, m->len);
		dec_key(d, first, "full_len");
		dec_u64(d, m->full_len);
		dec_key(d, first, "flags");
		dec_u64(d, m->flags);
		if (m->hash_len) {
			char hex[KT_BLOB_HEX_LEN];

			dec_key(d, first, "hash");
			dec_str(d, kt_blob_hex(m->hash, hex), 2 * KT_MEM_HASH_LEN);
		}
		if (m->missing) {
			dec_key(d, first, "missing");
			dec_u64(d, m->missing);
		}
		return;
	}
	kt_strbuf_append(d->sb, "memory(", 7);
	kt_strbuf_puts(d->sb, kind);
	kt_strbuf_append(d->sb, ", ", 2);
	dec_hex(d, m->addr);
	kt_strbuf_append(d->sb, ", ", 2);
	kt_strbuf_put_u64(d->sb, m->len);
	if (m->len != m->full_len) {
		kt_strbuf_append(d->sb, " of ", 4);
		kt_strbuf_put_u64(d->sb, m->full_len);
	}
	kt_strbuf_append(d->sb, " bytes", 6);
	if (m->flags & KT_MEM_OMITTED)
		kt_strbuf_puts(d->sb, ", left out: the capture's limit");
	if (m->flags & KT_MEM_UNREADABLE)
		kt_strbuf_puts(d->sb, ", unreadable");
	/* Bytes stored once, earlier in the trace (format 1.4). */
	if (m->flags & KT_MEM_REF)
		kt_strbuf_puts(d->sb, ", stored earlier");
	/* In the run's blob store; the words changed since the last record
	 * at this address (format 1.7). */
	if (m->flags & KT_MEM_STORE)
		kt_strbuf_puts(d->sb, ", in the run's blob store");
	if (m->flags & KT_MEM_DELTA)
		kt_strbuf_puts(d->sb, ", changed from the last at this address");
	dec_memory_missing(d, m);
	kt_strbuf_putc(d->sb, ')');
	if (m->data && m->len) {
		kt_strbuf_putc(d->sb, ' ');
		dec_bytes(d, m->data, m->len, d->max_bytes, '<', '>');
	}
}

size_t
kfd_decode_packet(struct kt_strbuf *sb, const struct kt_submit_rec *s,
		  size_t off, const struct kfd_decode_opts *o)
{
	struct dec d = { .sb = sb, .max_elems = 16, .max_bytes = 32 };
	const struct kfd_packet_desc *r = NULL;
	size_t size = 0, start = sb->len;
	int first = 1;

	if (o) {
		d.kernels = o->kernels;
		if (o->max_bytes)
			d.max_bytes = o->max_bytes;
	}
	if (!s->data || off >= s->len)
		return 0;
	if (s->engine == KFD_ENGINE_AQL) {
		if (off + KFD_AQL_PACKET_SIZE > s->len)
			return 0;
		size = KFD_AQL_PACKET_SIZE;
		r = kfd_aql_packet(s->data + off);
	} else if (s->engine == KFD_ENGINE_SDMA) {
		if (off + 4 > s->len)
			return 0;
		r = kfd_sdma_packet(s->data + off, s->len - off, &size);
	} else if (s->engine == KFD_ENGINE_PM4) {
		if (off + 4 > s->len)
			return 0;
		r = kfd_pm4_packet(s->data + off, s->len - off, &size);
	} else {
		return 0;
	}
	packet(&d, &first, s->first + (s->engine == KFD_ENGINE_PM4 ? off / 4 : off),
	       r ? r->name : "UNKNOWN",
	       r ? r->layout : NULL, s->data + off,
	       size < s->len - off ? size : s->len - off);
	/* Without the "[at] " the packet() prefix gives. */
	{
		char *lb = memchr(sb->data + start, ']', sb->len - start);

		if (lb && lb[1] == ' ') {
			size_t cut = (size_t)(lb + 2 - (sb->data + start));

			memmove(sb->data + start, lb + 2, sb->len - start - cut + 1);
			sb->len -= cut;
		}
	}
	return size;
}
