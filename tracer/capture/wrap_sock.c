/* SPDX-License-Identifier: MIT */
/*
 * fds passed over Unix sockets: sendmsg, recvmsg, sendmmsg and recvmmsg.
 *
 * ROCm hands dma-buf fds (EXPORT_DMABUF) from one process to another in
 * SCM_RIGHTS control messages. A message that carried a dma-buf, KFD or
 * render-node fd becomes an fd_transfer record: every fd of the message
 * with what it is, and who the two ends of the socket are (inode numbers,
 * addresses, SO_PEERCRED), so that the sender's record and the
 * receiver's, in two traces, can be paired (docs/tracer.md).
 *
 * The cost stays with those messages. A call is inspected only after it
 * returned and only when its msghdr has control data; then the control
 * data is walked for SCM_RIGHTS, and only when an fd of interest is in it
 * are the socket's facts gathered. The msghdr of a successful call is
 * read in place (the kernel just read it); that of a failed send is
 * copied with process_vm_readv, which fails instead of faulting on a bad
 * pointer.
 */
#include "capture.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>

#include <kfdtrace/dispatch.h>

/* Control data looked at, at most: 253 fds take about 1 KiB. */
#define CTL_MAX		(64u << 10)
#define CTL_STACK	2048u

/*
 * Whether the fd @fd is a dma-buf: by the name of its file. Sockets,
 * pipes, directories and devices are not asked (a readlink in /proc costs
 * ten times an fstat).
 */
static int
is_dmabuf(int fd)
{
	char path[40], link[64];
	struct stat st;
	ssize_t n;

	if (kcap_real.fstat(fd, &st) < 0)
		return 0;
	switch (st.st_mode & S_IFMT) {
	case S_IFSOCK:
	case S_IFIFO:
	case S_IFDIR:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFLNK:
		return 0;
	default:
		break;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	/* "/dmabuf:NAME" since Linux 5.3, "anon_inode:dmabuf" before. */
	return !strncmp(link, "/dmabuf:", 8) || !strcmp(link, "anon_inode:dmabuf");
}

/* What @fd is; a received one is classified afresh. */
static uint8_t
fd_kind(int fd, int received)
{
	enum kfd_file_kind kind;
	uint64_t rdev;

	if (received) {
		kind = kcap_classify(fd, NULL, &rdev);
		kcap_fd_set(fd, kcap_kind_state(kind));
	} else {
		kind = kcap_fd_kind(fd);
	}
	if (kind == KFD_FILE_KFD)
		return KT_XFER_FD_KFD;
	if (kind == KFD_FILE_RENDER)
		return KT_XFER_FD_RENDER;
	return is_dmabuf(fd) ? KT_XFER_FD_DMABUF : KT_XFER_FD_OTHER;
}

/*
 * The fds of @ctl's SCM_RIGHTS messages, in order, into @x (at most
 * KT_MAX_XFER_FDS listed, all counted). A cmsg_len past the buffer is
 * cut to it: a truncated control buffer is read as far as it goes.
 * Return: whether one of them is a dma-buf, KFD or render fd.
 */
static int
scan_rights(const uint8_t *ctl, size_t len, int received,
	    struct kt_fd_transfer_rec *x, struct kt_xfer_fd *fds)
{
	size_t off = 0;
	int interesting = 0;

	while (len - off >= sizeof(struct cmsghdr)) {
		struct cmsghdr h;
		size_t clen, n;

		memcpy(&h, ctl + off, sizeof(h));
		clen = h.cmsg_len;
		if (clen < CMSG_LEN(0))
			break;
		if (clen > len - off)
			clen = len - off;
		if (h.cmsg_level == SOL_SOCKET && h.cmsg_type == SCM_RIGHTS) {
			n = (clen - CMSG_LEN(0)) / sizeof(int);
			for (size_t i = 0; i < n; i++) {
				int fd;

				memcpy(&fd, ctl + off + CMSG_LEN(0) + i * sizeof(int),
				       sizeof(fd));
				x->nfds_total++;
				if (x->nfds >= KT_MAX_XFER_FDS) {
					x->flags |= KT_XFER_CUT;
					continue;
				}
				fds[x->nfds].fd = fd;
				fds[x->nfds].kind = fd_kind(fd, received);
				interesting |= fds[x->nfds].kind != KT_XFER_FD_OTHER;
				x->nfds++;
			}
		}
		if (CMSG_ALIGN(clen) >= len - off)
			break;
		off += CMSG_ALIGN(clen);
	}
	return interesting;
}

/* A Unix socket address as text: a path, '@' and an abstract name, or "". */
static void
addr_text(const struct sockaddr_un *sa, socklen_t len, char *out, size_t size)
{
	size_t n, i, k = 0;

	out[0] = '\0';
	if (len <= offsetof(struct sockaddr_un, sun_path) ||
	    sa->sun_family != AF_UNIX)
		return;
	n = len - offsetof(struct sockaddr_un, sun_path);
	if (n > sizeof(sa->sun_path))
		n = sizeof(sa->sun_path);
	if (sa->sun_path[0]) {
		n = strnlen(sa->sun_path, n);
		for (i = 0; i < n && k + 1 < size; i++)
			out[k++] = sa->sun_path[i];
	} else {
		/* Abstract: NUL bytes of the name print as '@', as ss(8) does. */
		for (i = 0; i < n && k + 1 < size; i++)
			out[k++] = sa->sun_path[i] ? sa->sun_path[i] : '@';
	}
	out[k] = '\0';
}

/* The inode of @ino's peer socket (sock_diag), or 0. */
static uint64_t
peer_inode(uint64_t ino)
{
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} req;
	union {
		struct nlmsghdr h;
		uint8_t b[1024];
	} rsp;
	struct unix_diag_msg *m;
	struct rtattr *a;
	uint64_t peer = 0;
	ssize_t got;
	int nl, alen;

	if (!ino || ino > UINT32_MAX)
		return 0;
	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return 0;
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.r.sdiag_family = AF_UNIX;
	req.r.udiag_states = ~0u;
	req.r.udiag_ino = (uint32_t)ino;
	req.r.udiag_show = UDIAG_SHOW_PEER;
	req.r.udiag_cookie[0] = req.r.udiag_cookie[1] = ~0u;
	if (send(nl, &req, sizeof(req), 0) != (ssize_t)sizeof(req))
		goto out;
	got = recv(nl, &rsp, sizeof(rsp), 0);
	if (got < (ssize_t)NLMSG_LENGTH(sizeof(*m)) || !NLMSG_OK(&rsp.h, (size_t)got) ||
	    rsp.h.nlmsg_type != SOCK_DIAG_BY_FAMILY)
		goto out;
	m = NLMSG_DATA(&rsp.h);
	if (m->udiag_ino != (uint32_t)ino)
		goto out;
	a = (struct rtattr *)(m + 1);
	alen = (int)(rsp.h.nlmsg_len - NLMSG_LENGTH(sizeof(*m)));
	for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen))
		if (a->rta_type == UNIX_DIAG_PEER &&
		    RTA_PAYLOAD(a) >= sizeof(uint32_t)) {
			uint32_t v;

			memcpy(&v, RTA_DATA(a), sizeof(v));
			peer = v;
		}
out:
	kcap_real.close(nl);
	return peer;
}

/* Who the two ends of @sock are; @dest: a send's msg_name, if any. */
static void
sock_facts(int sock, const void *dest, socklen_t destlen,
	   struct kt_fd_transfer_rec *x, char *name, char *peer)
{
	struct sockaddr_un sa;
	struct ucred cred;
	struct stat st;
	socklen_t len;

	if (kcap_real.fstat(sock, &st) == 0 && S_ISSOCK(st.st_mode))
		x->ino = st.st_ino;
	len = sizeof(sa);
	if (getsockname(sock, (struct sockaddr *)&sa, &len) == 0)
		addr_text(&sa, len, name, KT_MAX_SOCK_NAME + 1);
	len = sizeof(sa);
	if (getpeername(sock, (struct sockaddr *)&sa, &len) == 0)
		addr_text(&sa, len, peer, KT_MAX_SOCK_NAME + 1);
	else if (dest && destlen)
		addr_text(dest, destlen > sizeof(sa) ? sizeof(sa) : destlen,
			  peer, KT_MAX_SOCK_NAME + 1);
	len = sizeof(cred);
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
		x->peer_pid = cred.pid;
	x->peer_ino = peer_inode(x->ino);
}

/*
 * One message of a call that returned @ret (@err): record it when its
 * control data passed an fd of interest. @m is readable (@m_safe: a copy).
 */
static void
inspect(int sock, int dir, const struct msghdr *m, int m_safe, int64_t ret,
	int err, int call_flags, uint64_t ts)
{
	static const struct kt_xfer_fd none[1];
	struct kt_xfer_fd *fds;
	struct kt_record rec;
	struct kt_fd_transfer_rec *x = &rec.u.xfer;
	char name[KT_MAX_SOCK_NAME + 1] = "", peer[KT_MAX_SOCK_NAME + 1] = "";
	uint8_t stack[CTL_STACK], *ctl = stack;
	size_t len = m->msg_controllen;
	uint64_t t_exit = kfd_dispatch_now();

	if (!m->msg_control || len < sizeof(struct cmsghdr))
		return;
	if (len > CTL_MAX)
		len = CTL_MAX;
	if (len > sizeof(stack) && !(ctl = malloc(len)))
		return;
	if (m_safe ? kcap_read_mem(ctl, (uint64_t)(uintptr_t)m->msg_control, len) :
		     (memcpy(ctl, m->msg_control, len), 0))
		goto out;
	fds = malloc(KT_MAX_XFER_FDS * sizeof(*fds));
	if (!fds)
		goto out;
	memset(&rec, 0, sizeof(rec));
	if (dir == KT_XFER_RECV && (m->msg_flags & MSG_CTRUNC))
		x->flags |= KT_XFER_CTRUNC;
	if (dir == KT_XFER_RECV && (call_flags & MSG_PEEK))
		x->flags |= KT_XFER_PEEK;
	if (scan_rights(ctl, len, dir == KT_XFER_RECV && ret >= 0, x, fds)) {
		rec.type = KT_REC_FD_TRANSFER;
		rec.ts = ts;
		x->dir = (uint8_t)dir;
		x->sock = sock;
		x->ret = ret;
		x->err = ret < 0 ? err : 0;
		x->t_exit = t_exit;
		sock_facts(sock, m_safe ? NULL : m->msg_name,
			   m_safe ? 0 : m->msg_namelen, x, name, peer);
		x->name = name;
		x->peer_name = peer;
		x->fds = x->nfds ? fds : none;
		kcap_session_append(&rec, 1);
	}
	free(fds);
out:
	if (ctl != stack)
		free(ctl);
}

/* Errors of a send that say nothing about its fds, or cost too much to look at. */
static int
send_err_skipped(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR || err == EFAULT;
}

/* A failed send: look at a copy of its msghdr, if it can be read. */
static void
inspect_failed_send(int sock, const struct msghdr *msg, int err, uint64_t ts)
{
	struct msghdr copy;

	if (send_err_skipped(err) ||
	    kcap_read_mem(&copy, (uint64_t)(uintptr_t)msg, sizeof(copy)) < 0 ||
	    !copy.msg_controllen)
		return;
	inspect(sock, KT_XFER_SEND, &copy, 1, -1, err, 0, ts);
}

KCAP_EXPORT ssize_t
sendmsg(int sock, const struct msghdr *msg, int flags)
{
	uint64_t ts;
	ssize_t ret;
	int err;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled())
		return kcap_real.sendmsg(sock, msg, flags);
	ts = kfd_dispatch_now();
	ret = kcap_real.sendmsg(sock, msg, flags);
	err = errno;
	if (ret >= 0 ? !msg->msg_controllen : send_err_skipped(err)) {
		errno = err;
		return ret;
	}
	kcap_busy++;
	if (ret >= 0)
		inspect(sock, KT_XFER_SEND, msg, 0, ret, 0, flags, ts);
	else
		inspect_failed_send(sock, msg, err, ts);
	kcap_busy--;
	errno = err;
	return ret;
}

KCAP_EXPORT ssize_t
recvmsg(int sock, struct msghdr *msg, int flags)
{
	uint64_t ts;
	ssize_t ret;
	int err;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled())
		return kcap_real.recvmsg(sock, msg, flags);
	ts = kfd_dispatch_now();
	ret = kcap_real.recvmsg(sock, msg, flags);
	err = errno;
	if (ret < 0 || !msg->msg_controllen) {
		errno = err;
		return ret;
	}
	kcap_busy++;
	inspect(sock, KT_XFER_RECV, msg, 0, ret, 0, flags, ts);
	kcap_busy--;
	errno = err;
	return ret;
}

KCAP_EXPORT int
sendmmsg(int sock, struct mmsghdr *vec, unsigned int vlen, int flags)
{
	uint64_t ts;
	int ret, err;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled())
		return kcap_real.sendmmsg(sock, vec, vlen, flags);
	ts = kfd_dispatch_now();
	ret = kcap_real.sendmmsg(sock, vec, vlen, flags);
	err = errno;
	/* The messages sent; the kernel read each of them. */
	kcap_busy++;
	for (int i = 0; i < ret; i++)
		if (vec[i].msg_hdr.msg_controllen)
			inspect(sock, KT_XFER_SEND, &vec[i].msg_hdr, 0,
				vec[i].msg_len, 0, flags, ts);
	kcap_busy--;
	errno = err;
	return ret;
}

KCAP_EXPORT int
recvmmsg(int sock, struct mmsghdr *vec, unsigned int vlen, int flags,
	 struct timespec *timeout)
{
	uint64_t ts;
	int ret, err;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled())
		return kcap_real.recvmmsg(sock, vec, vlen, flags, timeout);
	ts = kfd_dispatch_now();
	ret = kcap_real.recvmmsg(sock, vec, vlen, flags, timeout);
	err = errno;
	kcap_busy++;
	for (int i = 0; i < ret; i++)
		if (vec[i].msg_hdr.msg_controllen)
			inspect(sock, KT_XFER_RECV, &vec[i].msg_hdr, 0,
				vec[i].msg_len, 0, flags, ts);
	kcap_busy--;
	errno = err;
	return ret;
}
