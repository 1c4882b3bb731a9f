/* SPDX-License-Identifier: MIT */
/*
 * fd_transfer records: fds a process sent or received over a Unix socket.
 */
#include <string.h>

#include "decode_priv.h"

static const char *const xfer_fd_kinds[KT_XFER_FD_KIND_MAX] = {
	[KT_XFER_FD_OTHER] = "other",
	[KT_XFER_FD_KFD] = "kfd",
	[KT_XFER_FD_RENDER] = "render",
	[KT_XFER_FD_DMABUF] = "dmabuf",
};

static const char *
fd_kind_name(uint8_t kind)
{
	return kind < KT_XFER_FD_KIND_MAX ? xfer_fd_kinds[kind] : "unknown";
}

static void
text_addr(struct dec *d, const char *s)
{
	if (!s || !*s)
		return;
	kt_strbuf_append(d->sb, " ", 1);
	dec_str(d, s, strlen(s));
}

static void
xfer_json(struct dec *d, int *first, const struct kt_fd_transfer_rec *x)
{
	int f;

	dec_key(d, first, "dir");
	kt_strbuf_puts(d->sb, x->dir == KT_XFER_SEND ? "\"send\"" :
		       x->dir == KT_XFER_RECV ? "\"receive\"" : "\"unknown\"");
	dec_key(d, first, "sock");
	dec_s64(d, x->sock);
	dec_key(d, first, "ino");
	dec_u64(d, x->ino);
	dec_key(d, first, "peer_ino");
	dec_u64(d, x->peer_ino);
	dec_key(d, first, "peer_pid");
	dec_s64(d, x->peer_pid);
	dec_key(d, first, "name");
	dec_str(d, x->name ? x->name : "", x->name ? strlen(x->name) : 0);
	dec_key(d, first, "peer_name");
	dec_str(d, x->peer_name ? x->peer_name : "",
		x->peer_name ? strlen(x->peer_name) : 0);
	dec_key(d, first, "flags");
	dec_u64(d, x->flags);
	dec_key(d, first, "nfds_total");
	dec_u64(d, x->nfds_total);
	dec_key(d, first, "fds");
	kt_strbuf_putc(d->sb, '[');
	for (unsigned int i = 0; i < x->nfds; i++) {
		const char *k = fd_kind_name(x->fds[i].kind);

		f = 1;
		kt_strbuf_puts(d->sb, i ? ",{" : "{");
		dec_key(d, &f, "fd");
		dec_s64(d, x->fds[i].fd);
		dec_key(d, &f, "kind");
		dec_str(d, k, strlen(k));
		kt_strbuf_putc(d->sb, '}');
	}
	kt_strbuf_putc(d->sb, ']');
	dec_json_ret(d, first, x->ret, x->err);
}

void
dec_xfer(struct dec *d, int *first, const struct kt_fd_transfer_rec *x)
{
	unsigned int i, n;

	if (d->json) {
		xfer_json(d, first, x);
		return;
	}
	kt_strbuf_puts(d->sb, x->dir == KT_XFER_SEND ? "sendmsg(" :
		       x->dir == KT_XFER_RECV ? "recvmsg(" : "fd_transfer(");
	kt_strbuf_put_s64(d->sb, x->sock);
	kt_strbuf_puts(d->sb, " /* socket ino ");
	kt_strbuf_put_u64(d->sb, x->ino);
	text_addr(d, x->name);
	kt_strbuf_puts(d->sb, ", peer");
	if (x->peer_ino) {
		kt_strbuf_puts(d->sb, " ino ");
		kt_strbuf_put_u64(d->sb, x->peer_ino);
	}
	if (x->peer_pid) {
		kt_strbuf_puts(d->sb, " pid ");
		kt_strbuf_put_s64(d->sb, x->peer_pid);
	}
	text_addr(d, x->peer_name);
	kt_strbuf_puts(d->sb, " */, SCM_RIGHTS [");
	n = x->nfds < d->max_elems ? x->nfds : d->max_elems;
	for (i = 0; i < n; i++) {
		if (i)
			kt_strbuf_append(d->sb, ", ", 2);
		kt_strbuf_put_s64(d->sb, x->fds[i].fd);
		kt_strbuf_putc(d->sb, ' ');
		kt_strbuf_puts(d->sb, fd_kind_name(x->fds[i].kind));
	}
	if (n < x->nfds || x->nfds < x->nfds_total) {
		kt_strbuf_puts(d->sb, n ? ", ... " : "... ");
		kt_strbuf_put_u64(d->sb, x->nfds_total);
		kt_strbuf_puts(d->sb, " fds");
	}
	kt_strbuf_putc(d->sb, ']');
	if (x->flags & KT_XFER_CTRUNC)
		kt_strbuf_puts(d->sb, " MSG_CTRUNC");
	if (x->flags & KT_XFER_PEEK)
		kt_strbuf_puts(d->sb, " MSG_PEEK");
	kt_strbuf_puts(d->sb, ") = ");
	dec_text_ret(d, x->ret, x->err);
}
