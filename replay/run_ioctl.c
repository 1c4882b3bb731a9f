/* SPDX-License-Identifier: MIT */
/*
 * Reissuing one ioctl record.
 *
 * The argument bytes start as the captured before-image. Every input field
 * is translated by role; every indirect buffer the schema names is rebuilt
 * from its before-image (its input elements translated) in replay memory,
 * and its pointer field is pointed there. A pointer that was unreadable at
 * capture gets a PROT_NONE page, so the kernel answers EFAULT again. Then
 * the call goes through kfd_dispatch_once(), the path the thunk takes, and
 * verify.c compares the result.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/recorder.h>

#include "replay_run.h"

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

/* Make the arena at least @need bytes (before any pointer into it is taken). */
static int
arena_reserve(struct rp_run *st, size_t need)
{
	uint8_t *n;
	size_t cap;

	if (need <= st->arena_cap)
		return 0;
	cap = st->arena_cap ? st->arena_cap : 4096;
	while (cap < need)
		cap *= 2;
	n = realloc(st->arena, cap);
	if (!n)
		return -ENOMEM;
	st->arena = n;
	st->arena_cap = cap;
	return 0;
}

/*
 * Translate the input fields of one struct image: the @n fields @idx lists
 * (the argument struct, by its plan), or with @idx NULL every translated
 * input among the @n fields of @sd (a buffer element).
 */
static void
xlate_fields(struct rp_run *st, struct rp_call *c,
	     const struct kfd_struct_desc *sd, const unsigned int *idx,
	     unsigned int n, uint8_t *bytes, size_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct kfd_field *f = &sd->fields[idx ? idx[i] : i];
		uint64_t v, nv;

		if (!idx && (!(f->dir & KFD_DIR_IN) ||
			     !rp_role_translated(f->role)))
			continue;
		if (f->select >= 0 && !kfd_field_present(sd, f, bytes, len))
			continue;
		if (kfd_field_load(f, bytes, len, &v) < 0)
			continue;
		/*
		 * An fd no live one stands for may be a dma-buf from outside
		 * the process: its stand-in is made (and bound) first, so
		 * that translation only looks the fd up.
		 */
		if (f->role == KFD_ROLE_FD)
			rp_dmabuf_stand_in(st, (int32_t)(uint32_t)v);
		nv = rp_value_xlate(st, f, c->scope, c->gem_scope, v);
		if (nv != v)
			kfd_field_set(f, bytes, len, nv);
	}
}

/*
 * SVM attributes name GPUs in their values (locations and access). They
 * trail the fixed struct; the schema's SVM row gives where they start,
 * their size and their fields.
 */
static void
xlate_svm_attrs(struct rp_run *st, uint8_t *args, uint32_t size)
{
	const struct rp_rows *r = st->rows;
	uint32_t esz = r->svm_attrs->elem_size, off;

	for (off = r->svm->args->size; esz && off + esz <= size; off += esz) {
		uint64_t type, value;

		if (kfd_field_load(r->svm_attr_type, args + off, esz, &type) < 0 ||
		    kfd_field_load(r->svm_attr_value, args + off, esz, &value) < 0)
			return;
		if (type > KFD_ABI_SVM_ATTR_NO_ACCESS ||
		    value == KFD_ABI_SVM_LOCATION_SYSMEM ||
		    value == KFD_ABI_SVM_LOCATION_UNDEFINED)
			continue;
		kfd_field_set(r->svm_attr_value, args + off, esz,
			      rp_gpu_xlate(st, (uint32_t)value));
	}
}

/*
 * Calls whose inputs are more than their roles say: user memory that must
 * exist (userptr, SVM), a CPU address in an offset field, a wait that
 * must not block forever.
 */
/*
 * A call that succeeded on another process of the run (a pid field naming
 * it: DBG_TRAP) had a caller the kernel let act on it, its ptrace parent:
 * the replay becomes the tracer of that process's replay first. One that
 * found no such process waits for that replay to end.
 */
static void
trace_targets(struct rp_run *st, const struct rp_call *c)
{
	const struct kfd_struct_desc *sd = c->d->args;

	if (!st->r->tree || !sd || !c->io->arg_before)
		return;
	for (unsigned int i = 0; i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];
		uint64_t v;
		int32_t live;

		if (f->role != KFD_ROLE_PID || f->select >= 0 ||
		    kfd_field_get(f, c->io->arg_before, c->clen, &v) < 0 ||
		    (int32_t)v == st->cap_pid)
			continue;
		/* The process had ended: so must its replay. */
		if (c->io->ret < 0 && c->io->err == ESRCH) {
			rp_tree_await_end(st, (int32_t)v, c->rec->ts);
			continue;
		}
		live = c->io->ret < 0 ? 0 : rp_tree_pid_live(st, (int32_t)v);
		if (live > 0)
			rp_tree_trace(st, live);
	}
}

/*
 * The event fd a debugger hands DBG_TRAP ENABLE is a file the trace does
 * not know (a pipe, an eventfd): the replay's stand-in is a pipe whose
 * read end it keeps open, written to as the kernel writes the original.
 */
static void
dbg_fd_stand_in(struct rp_run *st, struct rp_call *c)
{
	const struct kfd_struct_desc *sd = c->d->args;
	int p[2];

	if (c->io->ret < 0 || !sd || !c->io->arg_before)
		return;
	for (unsigned int i = 0; i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];
		uint64_t cap, sel;

		if (f->role != KFD_ROLE_FD || f->dir != KFD_DIR_IN ||
		    kfd_field_get(f, c->io->arg_before, c->clen, &cap) < 0 ||
		    (int32_t)cap < 0 || rp_fd_live(st, (int32_t)cap) >= 0)
			continue;
		if (f->select >= 0 &&
		    (kfd_field_get(&sd->fields[f->select], c->io->arg_before, c->clen,
				   &sel) < 0 || sel != f->select_value))
			continue;
		if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
			return;
		if (st->ev_read)
			close(st->ev_read - 1);
		st->ev_read = p[0] + 1;
		rp_fd_bind(st, (int32_t)cap, p[1], 0, -1, 1);
		kfd_field_set(f, c->args, c->size, (uint64_t)(uint32_t)p[1]);
	}
}

/*
 * A debugger's QUERY_DEBUG_EVENT that found an event: the debugger had
 * polled its event fd first, which the trace does not show, so the event
 * may not be raised yet in the replay (the target's call that raises it
 * need not have returned before the query).
 */
static int
awaits_event(const struct rp_run *st, const struct rp_call *c)
{
	const struct kfd_struct_desc *sd = c->d->args;
	uint64_t op;

	if (c->d != st->rows->dbg_trap || c->io->ret < 0 || !sd || !c->io->arg_before)
		return 0;
	for (unsigned int i = 0; i < sd->nfields; i++)
		if (!strcmp(sd->fields[i].name, "op"))
			return kfd_field_get(&sd->fields[i], c->io->arg_before, c->clen,
					     &op) == 0 &&
			       op == KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT;
	return 0;
}

/* Ask again, as the debugger's poll waits, up to the wait cap. */
static void
await_event(struct rp_run *st, struct rp_call *c, int live_fd, void *argp)
{
	unsigned int cap = st->o->wait_cap_ms ? st->o->wait_cap_ms : 5000;
	struct timespec ts = { 0, 1000000 };
	uint8_t in[64];

	if (!argp || c->size > sizeof(in))
		return;
	/* The failed call wrote its outputs: each try starts from the inputs. */
	memcpy(in, argp, c->size);
	for (unsigned int ms = 0; ms < cap && c->ret < 0 && c->err == EAGAIN; ms++) {
		nanosleep(&ts, NULL);
		memcpy(argp, in, c->size);
		c->ret = kfd_dispatch_once(live_fd, (enum kfd_file_kind)c->io->file_kind,
					   c->io->request, argp);
		c->err = c->ret < 0 ? errno : 0;
	}
}

static int
pre_special(struct rp_run *st, struct rp_call *c)
{
	const struct rp_rows *r = st->rows;
	uint8_t *a = c->args;
	uint32_t n = c->size;

	trace_targets(st, c);
	if (c->d == r->dbg_trap)
		dbg_fd_stand_in(st, c);

	if (c->d == r->alloc && rp_fhas(r->alloc_flags, n)) {
		uint64_t flags = rp_fget(r->alloc_flags, a, n);
		uint64_t cpu = rp_fget(r->alloc_off, c->io->arg_before, c->clen);
		uint64_t size = rp_fget(r->alloc_size, a, n);

		if ((flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR) && cpu && size &&
		    size <= RP_USER_MAX) {
			if (rp_as_back(&st->as, cpu, size, st->out) == -EEXIST)
				return -EEXIST;
			kfd_field_set(r->alloc_off, a, n, rp_as_xlate(&st->as, cpu));
		}
	} else if (c->d == r->svm && rp_fhas(r->svm_nattr, n)) {
		uint64_t start = rp_fget(r->svm_start, a, n);
		uint64_t size = rp_fget(r->svm_size, a, n);

		if (start && size && size <= RP_USER_MAX &&
		    rp_as_back(&st->as, start, size, st->out) == -EEXIST)
			return -EEXIST;
		if (start)
			kfd_field_set(r->svm_start, a, n, rp_as_xlate(&st->as, start));
		xlate_svm_attrs(st, a, n);
	} else if (c->d == r->wait_events && rp_fhas(r->we_timeout, n)) {
		unsigned int cap = st->o->wait_cap_ms ? st->o->wait_cap_ms : 5000;

		/* A completed wait is tried without blocking first (wait.c). */
		if (c->wait_try)
			kfd_field_set(r->we_timeout, a, n, 0);
		else if (rp_fget(r->we_timeout, a, n) > cap)
			kfd_field_set(r->we_timeout, a, n, cap);
	} else if (c->d == r->ipc_import && rp_fhas(r->ipci_share, n) &&
		   r->ipci_share->width == 16) {
		rp_share_xlate(st, a + r->ipci_share->offset);
	}
	return 0;
}

/*
 * Rebuild the indirect buffers. Two passes: sizes first (the arena must
 * not move once pointers into it are stored), then contents.
 */
static int
build_bufs(struct rp_run *st, struct rp_call *c, size_t args_len)
{
	const struct kfd_ioctl_desc *d = c->d;
	const struct kt_ioctl_rec *io = c->io;
	size_t total = ALIGN64(args_len), off[KT_MAX_BUFS];
	int16_t owner[KT_MAX_BUFS];
	unsigned int j, k;

	c->nlb = 0;
	if (!io->arg_before || !d->args)
		return 0;
	for (j = 0; j < d->nbufs && j < KT_MAX_BUFS; j++) {
		const struct kfd_indirect *b = &d->bufs[j];
		const struct kt_buf_image *img;
		size_t len = 0, l2;
		int r;

		owner[j] = -1;
		if (b->len_kind == KFD_LEN_TRAILING || b->ptr_field < 0 ||
		    (unsigned int)b->ptr_field >= d->args->nfields)
			continue;
		r = kfd_indirect_len(d, b, io->arg_before, io->arg_size, 0,
				     RP_BUF_CAP, &len);
		if (r == 1)
			continue;
		img = rp_find_image(io, j);
		if (img && (img->flags & KT_BUF_UNREADABLE)) {
			kfd_field_set(&d->args->fields[b->ptr_field], c->args,
				      args_len, (uint64_t)(uintptr_t)st->as.guard);
			continue;
		}
		if (img) {
			l2 = img->len_before > img->len_after ? img->len_before :
				img->len_after;
			if (l2 > len && l2 <= RP_BUF_CAP)
				len = l2;
		}
		/* Buffers sharing a pointer field (union arms) share memory. */
		for (k = 0; k < c->nlb; k++)
			if (d->bufs[c->lb[k].index].ptr_field == b->ptr_field)
				break;
		if (k < c->nlb) {
			owner[j] = (int16_t)k;
			if (len > c->lb[k].len) {
				/* Grow in place: only the last one can. */
				if (k == c->nlb - 1)
					total += ALIGN64(len) - ALIGN64(c->lb[k].len);
				else
					len = c->lb[k].len;
				c->lb[k].len = len;
			}
			continue;
		}
		owner[j] = (int16_t)c->nlb;
		c->lb[c->nlb].index = (uint16_t)j;
		c->lb[c->nlb].len = len;
		off[c->nlb] = total;
		total += ALIGN64(len ? len : 1);
		c->nlb++;
	}
	if (arena_reserve(st, total) < 0)
		return -ENOMEM;
	/* args were copied into the arena by the caller; move them along. */
	memset(st->arena + ALIGN64(args_len), 0, total - ALIGN64(args_len));
	for (k = 0; k < c->nlb; k++)
		c->lb[k].p = st->arena + off[k];
	for (j = 0; j < d->nbufs && j < KT_MAX_BUFS; j++) {
		const struct kfd_indirect *b = &d->bufs[j];
		const struct kt_buf_image *img;
		struct rp_lbuf *lb;

		if (owner[j] < 0)
			continue;
		lb = &c->lb[owner[j]];
		img = rp_find_image(io, j);
		if (img && img->before && (b->dir & KFD_DIR_IN)) {
			size_t l = img->len_before < lb->len ? img->len_before : lb->len;

			memcpy(lb->p, img->before, l);
			if (b->elem && b->elem->size) {
				size_t e;

				for (e = 0; e + b->elem->size <= l; e += b->elem->size)
					xlate_fields(st, c, b->elem, NULL,
						     b->elem->nfields, lb->p + e,
						     b->elem->size);
			}
		}
		kfd_field_set(&d->args->fields[b->ptr_field], st->arena,
			      args_len, (uint64_t)(uintptr_t)lb->p);
	}
	return 0;
}

static void
fd_scopes(struct rp_run *st, int32_t fd, int *scope, int *gem_scope)
{
	struct rp_fdent *e = rp_fd_get(st, fd);

	*scope = 0;
	*gem_scope = 0;
	if (!e || e->ofd < 0)
		return;
	*scope = RP_AT(&st->ofds, struct rp_ofd, e->ofd)->proc;
	if (*scope < 0)
		*scope = 0;
	*gem_scope = e->ofd + 1;
}

void
rp_run_ioctl(struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	struct rp_call c;
	size_t args_len;
	void *argp;
	int live_fd, early_end;

	/* Not memset: lb[] is large and build_bufs() fills what it uses. */
	c.rec = rec;
	c.io = io;
	c.nlb = 0;
	c.ret = 0;
	c.err = 0;
	c.d = kt_ioctl_row(io);
	st->cur_name = c.d ? c.d->name : "unknown ioctl";
	if (!c.d) {
		st->sum.not_replayed++;
		rp_note(st, "request 0x%08x on a %s fd is not in the schema: not "
			"replayed", io->request,
			kfd_file_kind_name((enum kfd_file_kind)io->file_kind));
		return;
	}
	if (st->r->model.deps.n) {
		const struct rp_m_dep *dep = rp_order_dep_at(&st->r->model,
							     rec->seq);

		if (dep) {
			st->sum.not_replayed++;
			rp_diverge_order(st, dep);
			return;
		}
	}
	c.plan = rp_req_plan(st->rows, c.d);
	/*
	 * Requests whose effects reach past the replayed objects: copies
	 * between arbitrary address ranges, checkpoint/restore of whole
	 * processes, file I/O into buffers: the schema marks them no_replay.
	 */
	if (c.plan->never) {
		st->sum.not_replayed++;
		rp_note(st, "not replayed: it would let the kernel act on memory "
			"or state outside the replay");
		return;
	}
	if (io->ret < 0 && io->err == EINTR) {
		/* The caller's retry is the next record. */
		st->sum.not_replayed++;
		return;
	}
	c.size = (uint32_t)KFD_ABI_IOC_SIZE(io->request);
	c.wait_try = !st->wait_final && rp_wait_completed(st->rows, c.d, io);
	rp_wait_before(st, rec, c.d);
	/*
	 * Its events have not been set as often as when it returned in the
	 * capture (ages.c): a try would get an age too young. Held (wait.c)
	 * without one.
	 */
	if (c.wait_try)
		rp_age_stand_in(st, rec);
	if (c.wait_try && !rp_age_due(st, rec)) {
		if (st->in_retry) {
			st->wait_still = 1;
			return;
		}
		if (rp_wait_hold(st, rec) == 0)
			return;
	}
	c.clen = c.size < io->arg_size ? c.size : io->arg_size;
	live_fd = rp_fd_live(st, io->fd);
	fd_scopes(st, io->fd, &c.scope, &c.gem_scope);

	args_len = c.size;
	if (c.d->args && c.d->args->size > args_len)
		args_len = c.d->args->size;
	if (io->arg_size > args_len)
		args_len = io->arg_size;
	if (arena_reserve(st, ALIGN64(args_len)) < 0) {
		st->sum.not_replayed++;
		rp_note(st, "out of memory");
		return;
	}
	c.args = st->arena;
	memset(c.args, 0, args_len);
	if (io->arg_before)
		memcpy(c.args, io->arg_before, io->arg_size);
	if (c.plan->has_bufs && build_bufs(st, &c, args_len) < 0) {
		st->sum.not_replayed++;
		rp_note(st, "out of memory");
		return;
	}
	c.args = st->arena;	/* build_bufs() may have moved the arena */
	/* The plan lists the inputs to translate (none without args). */
	xlate_fields(st, &c, c.d->args, c.plan->in, c.plan->nin, c.args, c.size);
	rp_age_in(st, &c);
	if (pre_special(st, &c) < 0) {
		/* The kernel would have been handed the replayer's own memory. */
		st->sum.not_replayed++;
		rp_note(st, "not replayed: its CPU range is the replayer's own "
			"memory and cannot be relocated");
		return;
	}

	argp = c.args;
	if (c.size && !io->arg_before)
		argp = st->as.guard;	/* the argument pointer itself was bad */
	else if (!c.size && !io->arg_size)
		argp = NULL;
	/*
	 * --threads: once the kernel has freed the id, another thread's
	 * call may get it back before this one is compared, so its binding
	 * ends before the call.
	 */
	early_end = st->mt && io->ret >= 0 &&
		    (c.d == st->rows->free_mem || c.d == st->rows->destroy_queue ||
		     c.d == st->rows->destroy_event || c.d == st->rows->gem_close);
	if (early_end)
		rp_forget_call(st, &c);
	rp_mt_leave(st, c.d == st->rows->wait_events);
	c.ret = kfd_dispatch_once(live_fd, (enum kfd_file_kind)io->file_kind,
				  io->request, argp);
	c.err = c.ret < 0 ? errno : 0;
	if (c.ret < 0 && c.err == EAGAIN && awaits_event(st, &c))
		await_event(st, &c, live_fd, argp);
	rp_mt_enter(st);
	st->have_live = 1;
	st->live_ret = c.ret;
	st->live_err = c.err;
	st->sum.ioctls++;
	if (c.d == st->rows->set_event && c.ret == 0)
		rp_age_count_set(st, rec, 0);
	if (c.wait_try && c.ret == 0 && rp_fhas(st->rows->we_result, c.size) &&
	    rp_fget(st->rows->we_result, c.args, c.size) !=
		    KFD_ABI_WAIT_RESULT_COMPLETE) {
		/*
		 * Not released yet: compared when it completes (wait.c). The
		 * mark names the captured record, so that diff can give the
		 * issue that ends the hold (KFD_REPLAY_DONE_NOTE) this place;
		 * a wait that cannot be held is compared now, unmarked.
		 */
		if (st->in_retry) {
			rp_mark_own(st, KFD_REPLAY_TRY_NOTE, rec->seq);
			st->sum.ioctls--;
			st->wait_still = 1;
			return;
		}
		if (rp_wait_hold(st, rec) == 0) {
			rp_mark_own(st, KFD_REPLAY_TRY_NOTE, rec->seq);
			st->sum.ioctls--;
			return;
		}
	}
	rp_verify_call(st, &c);
	if (c.ret >= 0 && io->ret >= 0 && !early_end)
		rp_forget_call(st, &c);
	rp_wait_after(st, rec, c.d);
}
