/* SPDX-License-Identifier: MIT */
/*
 * Printing the object model (kfdtrace replay --plan), and whether the
 * trace is whole or what it lacks (the verdicts of replay and match).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/kfd_abi.h>

#include "replay_model.h"

/* Objects listed one per line before the rest is only counted. */
#define PLAN_LIST_MAX 32

static const char *
seq_str(uint64_t seq, char *buf, size_t len)
{
	if (seq == UINT64_MAX)
		snprintf(buf, len, "end");
	else
		snprintf(buf, len, "#%" PRIu64, seq);
	return buf;
}

static const char *
bo_domain(uint32_t flags)
{
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM)
		return "vram";
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_GTT)
		return "gtt";
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR)
		return "userptr";
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL)
		return "doorbell";
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP)
		return "mmio";
	return "?";
}

static const char *const map_what[] = {
	"bo", "gem", "doorbell", "events", "mmio", "reserved", "other",
};

static const char *const fd_origin[] = {
	"open", "dup", "export_dmabuf", "prime", "smi_events", "inherited",
};

static const char *const dmabuf_origin[] = {
	"export_dmabuf", "prime", "external",
};

static const char *const range_why[] = { "mmap", "userptr", "svm" };

/* One buffer of a queue, with the memory object holding it at creation. */
static void
queue_buf(FILE *out, const struct rp_model *m, const struct rp_m_queue *q,
	  const char *what, uint64_t va, uint64_t size)
{
	size_t i;

	if (!va)
		return;
	fprintf(out, "    %-8s 0x%" PRIx64, what, va);
	if (size)
		fprintf(out, "+%" PRIu64, size);
	for (i = 0; i < m->bos.n; i++) {
		const struct rp_m_bo *b = RP_AT(&m->bos, struct rp_m_bo, i);

		if (b->proc == q->proc && b->alloc_seq < q->create_seq &&
		    b->free_seq > q->create_seq && va >= b->va &&
		    va < b->va + b->size) {
			fprintf(out, " in handle 0x%" PRIx64 " (%s)", b->handle,
				b->imported ? "dma-buf" : bo_domain(b->flags));
			break;
		}
	}
	if (i == m->bos.n)
		fprintf(out, " (no memory object holds it)");
	fprintf(out, "\n");
}

static void
print_gpus(const struct rp_model *m, FILE *out)
{
	char gfx[16];
	unsigned int i;

	if (!m->have_topo) {
		fprintf(out, "topology:   none recorded\n");
	} else {
		fprintf(out, "topology:   %u nodes, %u GPUs\n", m->topo.nnodes,
			m->topo.ngpus);
		for (i = 0; i < m->topo.nnodes; i++) {
			const struct kt_topo_node *n = &m->topo.nodes[i];

			if (!n->present || !n->gpu_id)
				continue;
			if (n->gfx_target_version)
				kfd_gfx_target_name((uint32_t)n->gfx_target_version,
						    gfx, sizeof(gfx));
			else
				snprintf(gfx, sizeof(gfx), "none");
			fprintf(out, "  node %u: gpu_id 0x%x \"%s\" %s, device 0x%" PRIx64
				", %.1f GiB VRAM, renderD%" PRIu64 "\n", i, n->gpu_id,
				n->name, gfx,
				n->device_id, (double)n->vram_bytes / (1u << 30),
				n->drm_render_minor);
		}
	}
	fprintf(out, "gpus used: ");
	if (!m->nused)
		fprintf(out, " none");
	for (i = 0; i < m->nused; i++)
		fprintf(out, " 0x%x", m->used[i]);
	fprintf(out, "\n");
}

void
rp_model_print(const struct rp_model *m, FILE *out)
{
	uint64_t counts[8] = { 0 }, bytes = 0, alive = 0;
	char s1[32], s2[32], exe[1024], prod[256];
	size_t i;

	fprintf(out, "trace:      %s pid %d (%s)%s\n",
		kfd_text_safe(exe, sizeof(exe), m->hdr.exe, sizeof(m->hdr.exe)),
		m->hdr.pid,
		kfd_text_safe(prod, sizeof(prod), m->hdr.producer,
			      sizeof(m->hdr.producer)),
		(m->hdr.flags & KT_HDR_SIMULATED) ? ", captured on kfdsim" : "");
	fprintf(out, "records:    %" PRIu64 " (%" PRIu64 " ioctls, %" PRIu64
		" failed, %" PRIu64 " unknown requests), seq %" PRIu64 "..%" PRIu64
		", %u threads\n", m->nrec, m->nrec_type[KT_REC_IOCTL],
		m->nioctl_failed, m->nunknown, m->first_seq, m->last_seq,
		m->nthreads);
	if (m->abi_major)
		fprintf(out, "kfd abi:    %u.%u\n", m->abi_major, m->abi_minor);
	else
		fprintf(out, "kfd abi:    unknown (no GET_VERSION)\n");
	if (m->integrity != KT_INTEGRITY_OK)
		fprintf(out, "integrity:  %s\n", m->integrity_msg[0] ?
			m->integrity_msg : "damaged");
	/* Serial replay follows sequence order, whatever the file order. */
	fprintf(out, "order:      sequence order across %u threads, %s\n",
		m->nthreads, m->ndeps_total ? "NOT satisfied:" :
		"every use after its creation");
	if (m->swaps.n) {
		const struct rp_swap *w = m->swaps.data;

		/* The kernel handed an id out again before its FREE was numbered. */
		fprintf(out, "            %zu ids reused before the end of their "
			"previous life was numbered: the end goes first (#%" PRIu64
			" after #%" PRIu64 "%s)\n", m->swaps.n, w[0].c, w[0].e,
			m->swaps.n > 1 ? ", ..." : "");
	}
	rp_order_print(m, out);
	print_gpus(m, out);

	fprintf(out, "processes:  %zu\n", m->procs.n);
	for (i = 0; i < m->procs.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_proc *p = RP_AT(&m->procs, struct rp_m_proc, i);

		fprintf(out, "  process %zu: %s, fd %d at %s, %u ACQUIRE_VM\n", i,
			p->secondary ? "secondary (CREATE_PROCESS)" : "primary",
			p->fd, seq_str(p->seq, s1, sizeof(s1)), p->vm_gpus);
	}
	fprintf(out, "fds:        %zu\n", m->fds.n);
	for (i = 0; i < m->fds.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_fd *f = RP_AT(&m->fds, struct rp_m_fd, i);
		const struct rp_m_ofd *o = f->ofd >= 0 ?
			RP_AT(&m->ofds, struct rp_m_ofd, f->ofd) : NULL;

		fprintf(out, "  fd %d: %s%s%s, %s..%s\n", f->fd,
			fd_origin[f->origin < 6 ? f->origin : 0], o ? " " : "",
			!o ? "" : o->path[0] ? o->path :
			kfd_file_kind_name((enum kfd_file_kind)f->kind),
			seq_str(f->open_seq, s1, sizeof(s1)),
			seq_str(f->close_seq, s2, sizeof(s2)));
	}
	for (i = 0; i < m->bos.n; i++) {
		const struct rp_m_bo *b = RP_AT(&m->bos, struct rp_m_bo, i);

		bytes += b->size;
		if (b->free_seq == UINT64_MAX)
			alive++;
	}
	fprintf(out, "memory:     %zu objects, %" PRIu64 " bytes, %" PRIu64
		" never freed\n", m->bos.n, bytes, alive);
	for (i = 0; i < m->bos.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_bo *b = RP_AT(&m->bos, struct rp_m_bo, i);

		fprintf(out, "  handle 0x%" PRIx64 ": %s%s gpu 0x%x va 0x%" PRIx64
			" size %" PRIu64, b->handle, b->imported ? "import " : "",
			b->imported ? "dma-buf" : bo_domain(b->flags), b->gpu_id,
			b->va, b->size);
		if (b->cpu_addr)
			fprintf(out, " cpu 0x%" PRIx64, b->cpu_addr);
		if (b->mmap_offset)
			fprintf(out, " offset 0x%" PRIx64, b->mmap_offset);
		fprintf(out, " mapped on %u, %s..%s\n", b->max_mapped,
			seq_str(b->alloc_seq, s1, sizeof(s1)),
			seq_str(b->free_seq, s2, sizeof(s2)));
	}
	if (m->events_page_handle)
		fprintf(out, "events page: handle 0x%" PRIx64 "\n",
			m->events_page_handle);
	fprintf(out, "queues:     %zu\n", m->queues.n);
	for (i = 0; i < m->queues.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_queue *q = RP_AT(&m->queues, struct rp_m_queue, i);

		fprintf(out, "  queue %u: type %u gpu 0x%x doorbell 0x%" PRIx64
			", %s..%s\n", q->qid, q->type, q->gpu_id,
			q->doorbell_offset, seq_str(q->create_seq, s1, sizeof(s1)),
			seq_str(q->destroy_seq, s2, sizeof(s2)));
		queue_buf(out, m, q, "ring", q->ring, q->ring_size);
		queue_buf(out, m, q, "rptr", q->rptr, 0);
		queue_buf(out, m, q, "wptr", q->wptr, 0);
		queue_buf(out, m, q, "eop", q->eop, q->eop_size);
		queue_buf(out, m, q, "ctx_save", q->ctx, q->ctx_size);
	}
	fprintf(out, "events:     %zu\n", m->events.n);
	for (i = 0; i < m->events.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_event *e = RP_AT(&m->events, struct rp_m_event, i);

		fprintf(out, "  event %u: type %u slot %u%s, %s..%s\n", e->id,
			e->type, e->slot, e->auto_reset ? " auto-reset" : "",
			seq_str(e->create_seq, s1, sizeof(s1)),
			seq_str(e->destroy_seq, s2, sizeof(s2)));
	}
	fprintf(out, "svm:        %zu calls\n", m->svms.n);
	for (i = 0; i < m->svms.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_svm *s = RP_AT(&m->svms, struct rp_m_svm, i);

		fprintf(out, "  %s 0x%" PRIx64 "+%" PRIu64 " %u attrs at %s\n",
			s->op ? "get_attr" : "set_attr", s->start, s->size, s->nattr,
			seq_str(s->seq, s1, sizeof(s1)));
	}
	fprintf(out, "dma-bufs:   %zu\n", m->dmabufs.n);
	for (i = 0; i < m->dmabufs.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_dmabuf *d = RP_AT(&m->dmabufs, struct rp_m_dmabuf, i);

		fprintf(out, "  fd %d: %s, size %" PRIu64 ", %u imports\n", d->fd,
			dmabuf_origin[d->origin < 3 ? d->origin : 2], d->size,
			d->imports);
	}
	for (i = 0; i < m->mmaps.n; i++) {
		const struct rp_m_mmap *mm = RP_AT(&m->mmaps, struct rp_m_mmap, i);

		counts[mm->what < 7 ? mm->what : 6]++;
	}
	fprintf(out, "cpu maps:   %zu (bo %" PRIu64 ", gem %" PRIu64 ", doorbell %"
		PRIu64 ", events %" PRIu64 ", mmio %" PRIu64 ", other %" PRIu64 ")\n",
		m->mmaps.n, counts[RP_MAP_BO], counts[RP_MAP_GEM],
		counts[RP_MAP_DOORBELL], counts[RP_MAP_EVENTS], counts[RP_MAP_MMIO],
		counts[RP_MAP_RESERVED] + counts[RP_MAP_OTHER]);
	for (i = 0; i < m->mmaps.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_mmap *mm = RP_AT(&m->mmaps, struct rp_m_mmap, i);

		fprintf(out, "  0x%" PRIx64 "+%" PRIu64 " %s offset 0x%" PRIx64
			"%s, %s..%s\n", mm->addr, mm->len, map_what[mm->what < 7 ?
			mm->what : 6], mm->offset, mm->ok ? "" : " (failed)",
			seq_str(mm->seq, s1, sizeof(s1)),
			seq_str(mm->unmap_seq, s2, sizeof(s2)));
	}
	fprintf(out, "cpu ranges: %zu needed at their captured address\n",
		m->ranges.n);
	for (i = 0; i < m->ranges.n && i < PLAN_LIST_MAX; i++) {
		const struct rp_m_range *r = RP_AT(&m->ranges, struct rp_m_range, i);

		fprintf(out, "  0x%" PRIx64 "-0x%" PRIx64 " %s\n", r->start, r->end,
			range_why[r->why < 3 ? r->why : 0]);
	}
	if (m->overflow)
		fprintf(out, "warning:    %" PRIu64 " objects beyond the model's "
			"bounds were not modelled\n", m->overflow);
}

bool
rp_trace_whole(const struct rp_model *m)
{
	/*
	 * NO_END is not whole either: the program was killed (or is still
	 * writing), and the records it had buffered since the writer's last
	 * flush are not in the file, nor is the count that would say so.
	 */
	return m->integrity == KT_INTEGRITY_OK;
}

void
rp_print_lack(FILE *out, const struct rp_model *m)
{
	if (m->integrity == KT_INTEGRITY_NO_END)
		fprintf(out, "has no END record (the program was killed, or "
			"is still running)");
	else
		fprintf(out, "is damaged (%s)", m->integrity_msg[0] ?
			m->integrity_msg : "incomplete");
}
