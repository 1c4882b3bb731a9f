/* SPDX-License-Identifier: MIT */
/*
 * fds passed between processes over Unix sockets (fd_transfer records).
 *
 * ROCm's runtime shares VRAM between processes by exporting a dma-buf
 * (EXPORT_DMABUF) in one and passing the fd to the other in an
 * SCM_RIGHTS message; the other imports it (IMPORT_DMABUF). The capture
 * records each such message on both sides. Before a tree replay starts,
 * the coordinator pairs every receive with the send it got its fds from:
 *
 *  - by the socket's inode numbers when the records have them: the
 *    sender's peer is the receiver's socket (and the other way round);
 *  - else by the addresses (the sender's peer address is the receiver's
 *    own, or the other way round) and SO_PEERCRED pids, where known;
 *  - among the sends that fit, the first one in capture time that entered
 *    before the receive returned and is not paired yet.
 *
 * Every process that receives gets a socket pair, made before any replay
 * process starts, so all of them inherit it. A paired send writes the
 * live fds standing for its captured ones into the receiver's socket,
 * with the send's node and number; the receive reads until it has that
 * message (those of other sends wait in a small inbox) and binds each fd
 * to the captured number at the same position. A receive waits at most
 * the tree's wait cap (5 s by default) for its send, which the replay
 * may reach later than the capture did. Meanwhile the sender's records
 * before the send do not wait for it (tree.c): a send is numbered when it
 * returns, after the calls its other threads began once the receive had
 * returned, in the capture.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>

#include "replay_run.h"

#define XFER_MAX_PAIRS		4096	/* paired messages in a tree */
#define XFER_MAX_EACH		8192	/* sends, receives looked at */
#define XFER_INBOX		16	/* messages held for a later receive */
#define XFER_MAGIC		0x6b667866u

struct xfer_pair {
	unsigned int send_node, recv_node;
	uint64_t send_seq, recv_seq;
};

struct rp_xfer_plan {
	unsigned int npairs;
	struct xfer_pair pair[XFER_MAX_PAIRS];
	int sock[KFD_REPLAY_MAX_TREE][2];	/* a receiver's, or -1 */
	int32_t pid[KFD_REPLAY_MAX_TREE];	/* each node's captured pid */
};

/* What a send writes: who it is, and which positions have an fd. */
struct xfer_msg {
	uint32_t magic;
	uint32_t send_node;
	uint64_t send_seq;
	uint32_t nfds;
	uint8_t present[(KT_MAX_XFER_FDS + 7) / 8];
};

struct xfer_held {
	struct xfer_msg msg;
	int nlive;
	int live[KT_MAX_XFER_FDS];
};

struct rp_xfer_inbox {
	unsigned int n;
	struct xfer_held held[XFER_INBOX];
};

/* One record of a node, as the pairing sees it. */
struct xfer_ref {
	unsigned int node;
	const struct rp_m_xfer *x;
	int paired;
};

static int
same_text(const char *a, const char *b)
{
	return a[0] && b[0] && !strcmp(a, b);
}

/*
 * Whether @s, a send of process @spid, may be what @r, a receive of
 * process @rpid, got: inodes decide when known, then addresses and pids.
 */
static int
fits(const struct rp_m_xfer *s, int32_t spid, const struct rp_m_xfer *r,
     int32_t rpid)
{
	if (s->peer_ino && r->ino)
		return s->peer_ino == r->ino;
	if (r->peer_ino && s->ino)
		return r->peer_ino == s->ino;
	if (s->peer_name[0] && r->name[0] && !same_text(s->peer_name, r->name))
		return 0;
	if (r->peer_name[0] && s->name[0] && !same_text(r->peer_name, s->name))
		return 0;
	if (s->peer_pid && s->peer_pid != rpid)
		return 0;
	if (r->peer_pid && r->peer_pid != spid)
		return 0;
	return 1;
}

static int
cmp_exit(const void *a, const void *b)
{
	const struct xfer_ref *x = a, *y = b;

	return x->x->exit < y->x->exit ? -1 : x->x->exit > y->x->exit;
}

/* The records of one direction, over every node (at most XFER_MAX_EACH). */
static size_t
collect(struct kfd_replay *const *rs, unsigned int n, uint8_t dir,
	struct xfer_ref *out)
{
	size_t k = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct rp_vec *v = &rs[i]->model.xfers;

		for (size_t j = 0; j < v->n && k < XFER_MAX_EACH; j++) {
			const struct rp_m_xfer *x = RP_AT(v, struct rp_m_xfer, j);

			/* A peek leaves the fds for the receive after it. */
			if (x->dir != dir || x->ret < 0 || !x->nfds ||
			    (x->flags & KT_XFER_PEEK))
				continue;
			out[k++] = (struct xfer_ref){ .node = i, .x = x };
		}
	}
	return k;
}

struct rp_xfer_plan *
rp_xfer_plan_build(struct kfd_replay *const *rs, unsigned int n, FILE *out)
{
	struct xfer_ref *sends, *recvs;
	struct rp_xfer_plan *p;
	size_t ns, nr, i, j;

	sends = calloc(XFER_MAX_EACH, sizeof(*sends));
	recvs = calloc(XFER_MAX_EACH, sizeof(*recvs));
	p = calloc(1, sizeof(*p));
	if (!sends || !recvs || !p)
		goto fail;
	for (i = 0; i < KFD_REPLAY_MAX_TREE; i++)
		p->sock[i][0] = p->sock[i][1] = -1;
	for (i = 0; i < n; i++)
		p->pid[i] = rs[i]->model.hdr.pid;
	ns = collect(rs, n, KT_XFER_SEND, sends);
	nr = collect(rs, n, KT_XFER_RECV, recvs);
	qsort(recvs, nr, sizeof(*recvs), cmp_exit);
	for (i = 0; i < nr && p->npairs < XFER_MAX_PAIRS; i++) {
		const struct xfer_ref *r = &recvs[i];
		struct xfer_ref *best = NULL;

		for (j = 0; j < ns; j++) {
			struct xfer_ref *s = &sends[j];

			if (s->paired || s->x->ts > r->x->exit ||
			    (s->node == r->node && s->x->seq > r->x->seq) ||
			    !fits(s->x, rs[s->node]->model.hdr.pid, r->x,
				  rs[r->node]->model.hdr.pid))
				continue;
			if (!best || s->x->ts < best->x->ts)
				best = s;
		}
		if (!best)
			continue;
		best->paired = 1;
		p->pair[p->npairs++] = (struct xfer_pair){
			.send_node = best->node, .send_seq = best->x->seq,
			.recv_node = r->node, .recv_seq = r->x->seq,
		};
		if (p->sock[r->node][0] < 0 &&
		    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
			       p->sock[r->node]) < 0) {
			fprintf(out, "warning: no socket to pass fds to the replay "
				"of %s: %s\n", rs[r->node]->path, strerror(errno));
			p->sock[r->node][0] = p->sock[r->node][1] = -1;
			p->npairs--;
		}
	}
	free(sends);
	free(recvs);
	return p;
fail:
	free(sends);
	free(recvs);
	free(p);
	return NULL;
}

void
rp_xfer_plan_free(struct rp_xfer_plan *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; i < KFD_REPLAY_MAX_TREE; i++)
		if (p->sock[i][0] >= 0) {
			close(p->sock[i][0]);
			close(p->sock[i][1]);
		}
	free(p);
}

int
rp_xfer_partner(const struct rp_xfer_plan *p, unsigned int recv_node,
		uint64_t recv_seq, unsigned int *send_node, uint64_t *send_seq)
{
	for (unsigned int i = 0; p && i < p->npairs; i++)
		if (p->pair[i].recv_node == recv_node &&
		    p->pair[i].recv_seq == recv_seq) {
			*send_node = p->pair[i].send_node;
			*send_seq = p->pair[i].send_seq;
			return 1;
		}
	return 0;
}

/* The pair @rec takes part in, or NULL. */
static const struct xfer_pair *
pair_of(const struct rp_run *st, const struct kt_record *rec)
{
	const struct rp_xfer_plan *p = st->r->xplan;
	unsigned int self = (unsigned int)st->r->tree_self;

	if (!p)
		return NULL;
	for (unsigned int i = 0; i < p->npairs; i++) {
		const struct xfer_pair *x = &p->pair[i];

		if (rec->u.xfer.dir == KT_XFER_SEND ? x->send_node == self &&
		    x->send_seq == rec->seq : x->recv_node == self &&
		    x->recv_seq == rec->seq)
			return x;
	}
	return NULL;
}

static void
run_send(struct rp_run *st, const struct kt_record *rec,
	 const struct xfer_pair *pr)
{
	const struct kt_fd_transfer_rec *x = &rec->u.xfer;
	int live[KT_MAX_XFER_FDS], nlive = 0;
	struct xfer_msg msg;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(live))];
	} ctl;
	struct iovec iov = { &msg, sizeof(msg) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	memset(&msg, 0, sizeof(msg));
	msg.magic = XFER_MAGIC;
	msg.send_node = pr->send_node;
	msg.send_seq = rec->seq;
	msg.nfds = x->nfds;
	for (unsigned int k = 0; k < x->nfds; k++) {
		int fd = rp_fd_live(st, x->fds[k].fd);

		if (fd < 0)
			continue;
		msg.present[k / 8] |= (uint8_t)(1u << (k % 8));
		live[nlive++] = fd;
	}
	if (nlive) {
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE((size_t)nlive * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)nlive * sizeof(int));
		memcpy(CMSG_DATA(c), live, (size_t)nlive * sizeof(int));
	}
	if (sendmsg(st->r->xplan->sock[pr->recv_node][1], &mh,
		    MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		rp_note(st, "cannot pass %d fds to the process that received "
			"them: %s", nlive, strerror(errno));
	else if (nlive < x->nfds)
		rp_note(st, "%u of the %u fds sent have no live fd standing for "
			"them: the receiver gets the others", (unsigned int)nlive,
			x->nfds);
}

/* Close the fds of a message nobody will claim. */
static void
drop_held(struct xfer_held *h)
{
	for (int i = 0; i < h->nlive; i++)
		close(h->live[i]);
	h->nlive = 0;
}

/* Read one message from @sock into @h. Return: 1, 0 (none in @ms), -1. */
static int
read_one(int sock, int ms, struct xfer_held *h)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(h->live))];
	} ctl;
	struct iovec iov = { &h->msg, sizeof(h->msg) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	struct cmsghdr *c;
	ssize_t got;
	int r;

	r = poll(&pfd, 1, ms);
	if (r <= 0)
		return r < 0 && errno != EINTR ? -1 : 0;
	got = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (got < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	h->nlive = 0;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		size_t n;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n && h->nlive < (int)KT_MAX_XFER_FDS; i++)
			memcpy(&h->live[h->nlive++], CMSG_DATA(c) + i * sizeof(int),
			       sizeof(int));
	}
	if (got != (ssize_t)sizeof(h->msg) || h->msg.magic != XFER_MAGIC) {
		drop_held(h);
		return 0;
	}
	return 1;
}

/* Take @pr's message from the inbox into @out. Return: whether it was there. */
static int
take_held(struct rp_run *st, const struct xfer_pair *pr, struct xfer_held *out)
{
	struct rp_xfer_inbox *in = st->inbox;

	for (unsigned int i = 0; in && i < in->n; i++)
		if (in->held[i].msg.send_node == pr->send_node &&
		    in->held[i].msg.send_seq == pr->send_seq) {
			*out = in->held[i];
			in->held[i] = in->held[--in->n];
			return 1;
		}
	return 0;
}

/* Keep @h, another receive's message, for then. */
static void
hold(struct rp_run *st, struct xfer_held *h)
{
	if (!st->inbox)
		st->inbox = calloc(1, sizeof(*st->inbox));
	if (st->inbox && st->inbox->n < XFER_INBOX)
		st->inbox->held[st->inbox->n++] = *h;
	else
		drop_held(h);
}

/*
 * Wait for @pr's message; it lands in @out. With --threads the run's lock
 * is let go while the socket is read (the send may come from another
 * thread), and the inbox is only touched under it.
 * Return: 0, -1 (not in time), or -2 (the sender's replay ended without
 * it: it stopped at a divergence, say).
 */
static int
await(struct rp_run *st, const struct xfer_pair *pr, struct xfer_held *out)
{
	int sock = st->r->xplan->sock[pr->recv_node][0];
	uint64_t cap = st->o->wait_cap_ms ? st->o->wait_cap_ms : 5000;
	uint64_t t0 = kfd_dispatch_now(), spent;
	int r = 0, ended = 0;

	/* The sender's records before the send must not wait for us. */
	rp_tree_await(st, pr->send_node, pr->send_seq, true);
	while (!take_held(st, pr, out)) {
		spent = (kfd_dispatch_now() - t0) / 1000000;
		if (spent >= cap) {
			r = -1;
			break;
		}
		rp_mt_leave(st, true);
		/* A short slice: another thread may hold ours in the inbox. */
		r = read_one(sock, (int)(cap - spent < 100 ? cap - spent : 100),
			     out);
		rp_mt_enter(st);
		if (r < 0)
			break;
		if (r == 0 && ended) {
			/* A read after it ended found nothing either. */
			r = -2;
			break;
		}
		if (r == 0) {
			/* Its message, if sent, is in the socket by now. */
			ended = rp_tree_ended(st, pr->send_node);
			continue;
		}
		if (out->msg.send_node == pr->send_node &&
		    out->msg.send_seq == pr->send_seq) {
			r = 0;
			break;
		}
		hold(st, out);
		r = 0;
	}
	rp_tree_await(st, pr->send_node, pr->send_seq, false);
	return r == -2 ? -2 : r < 0 ? -1 : 0;
}

static void
run_recv(struct rp_run *st, const struct kt_record *rec,
	 const struct xfer_pair *pr)
{
	const struct kt_fd_transfer_rec *x = &rec->u.xfer;
	struct xfer_held *h = malloc(sizeof(*h));
	int next = 0, r;

	if (!h)
		return;
	r = await(st, pr, h);
	if (r == -2) {
		rp_note(st, "the fds of process %d's record #%" PRIu64 " did not "
			"come: its replay ended before it; what uses them here "
			"has none", st->r->xplan->pid[pr->send_node], pr->send_seq);
		free(h);
		return;
	}
	if (r < 0) {
		rp_tree_stall(st, rec);
		rp_note(st, "the fds of process %d's record #%" PRIu64 " did not "
			"come in time: what uses them here has none",
			st->r->xplan->pid[pr->send_node], pr->send_seq);
		free(h);
		return;
	}
	for (unsigned int k = 0; k < h->msg.nfds && k < KT_MAX_XFER_FDS; k++) {
		uint8_t kind;
		int32_t ofd = -1;

		if (!(h->msg.present[k / 8] & (1u << (k % 8))))
			continue;
		if (next >= h->nlive)
			break;
		if (k >= x->nfds) {
			/* The capture's receiver got fewer (MSG_CTRUNC). */
			close(h->live[next++]);
			continue;
		}
		kind = x->fds[k].kind == KT_XFER_FD_KFD ? KFD_FILE_KFD :
		       x->fds[k].kind == KT_XFER_FD_RENDER ? KFD_FILE_RENDER : 0;
		if (kind)
			ofd = rp_ofd_new(st, kind, kind == KFD_FILE_RENDER ? 0 : -1);
		rp_fd_bind(st, x->fds[k].fd, h->live[next++], kind, ofd, 1);
	}
	while (next < h->nlive)
		close(h->live[next++]);
	free(h);
}

void
rp_xfer_run(struct rp_run *st, const struct kt_record *rec)
{
	const struct xfer_pair *pr = pair_of(st, rec);

	st->cur_name = "fd_transfer";
	if (pr && rec->u.xfer.dir == KT_XFER_SEND) {
		run_send(st, rec, pr);
	} else if (pr) {
		run_recv(st, rec, pr);
	} else {
		st->sum.not_replayed++;
		if (rec->u.xfer.ret >= 0 && rec->u.xfer.nfds)
			rp_note(st, rec->u.xfer.dir == KT_XFER_SEND ?
				"fds sent to a process whose trace is not "
				"replayed with this one: not passed" :
				"fds received from a process whose trace is not "
				"replayed with this one: a dma-buf among them "
				"gets a stand-in where it is used");
	}
}

void
rp_xfer_release(struct rp_run *st)
{
	struct rp_xfer_inbox *in = st->inbox;

	if (!in)
		return;
	while (in->n)
		drop_held(&in->held[--in->n]);
	free(in);
	st->inbox = NULL;
}
