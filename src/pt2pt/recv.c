/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * recv.c - the receiver's side: posting receives, the active-message
 * handlers, delivery (eager copy, single-copy get, pipelined fragments).
 *
 * A message that finds no posted receive is kept whole in an xb_unexp_t
 * (eager: with its payload; RTS: the envelope only, the data stays with the
 * sender until a receive matches it).
 */
#include <stdlib.h>
#include <string.h>
#include "pt2pt/proto.h"
#include "runtime/runtime.h"

enum { GET_IOV_MAX = 64 };

static inline xb_request_t *req_of_mq(xb_mq_item_t *it)
{
    return (xb_request_t *)((char *)it - offsetof(xb_request_t, mq));
}

static size_t recv_capacity(const xb_request_t *r)
{
    return (size_t)(r->count * xb_dt_size(r->dt));
}

static void unpack(xb_request_t *r, size_t off, const void *src, size_t len)
{
    if (len == 0)
        return;
    if (xb_dt_is_contig(r->dt, r->count)) {
        char *dst = (char *)r->buf + xb_dt_true_lb(r->dt) + off;
        if (dst != src)             /* read there already (place_data) */
            memcpy(dst, src, len);
    } else
        xb_dt_unpack(r->buf, r->count, r->dt, off, src, len);
}

/* A message shorter than the buffer that ends inside a basic element of
 * the receive type cannot have been sent with a matching type signature
 * (MPI_Get_elements would give MPI_UNDEFINED): MPI_ERR_TYPE. A message that
 * fills the buffer is a whole number of instances, so only short ones are
 * looked at. */
static int short_msg_error(const xb_request_t *r, size_t n)
{
    size_t sz = (size_t)xb_dt_size(r->dt);
    if (sz <= 1 || n % sz == 0)
        return MPI_SUCCESS;
    return xb_dt_elements(r->dt, (MPI_Count)n) == MPI_UNDEFINED ? MPI_ERR_TYPE : MPI_SUCCESS;
}

/* Accept min(message, buffer) bytes; the rest is truncated. */
static size_t accept_len(xb_request_t *r, const xb_pt2pt_hdr_t *h)
{
    size_t cap = recv_capacity(r);
    size_t n = h->len <= cap ? (size_t)h->len : cap;
    r->bytes = (size_t)h->len;
    r->limit = n;
    r->status.count = (MPI_Count)n;
    r->status.error = h->len > cap    ? MPI_ERR_TRUNCATE
                      : h->len == cap ? MPI_SUCCESS
                                      : short_msg_error(r, n);
    return n;
}

static void send_reply(xb_gpid_t g, uint8_t am, const xb_pt2pt_hdr_t *h, uint64_t rreq,
                       uint64_t len)
{
    xb_pt2pt_hdr_t a = *h;
    a.rreq = rreq;
    a.len = len;
    a.flags = 0;
    int rc = xb_pt2pt_send_ctl(g, am, &a);
    if (rc < 0)
        xb_log(XB_LOG_PT2PT, XB_LOG_ERROR, "reply %u to rank %u failed (%d)", am,
               xb_gpid_rank(g), rc);
}

/* Single-copy: get the accepted bytes from the sender's contiguous buffer. */
static int try_get(xb_request_t *r, xb_gpid_t g, uint64_t addr, size_t n)
{
    xb_method_t *m = xb_peer_method(g);
    xb_ep_t *ep;
    if (m == NULL || m->ops->get == NULL || !(m->caps.flags & XB_METHOD_CAP_GET) ||
        xb_peer_ep(g, &ep) != XB_OK)
        return XB_ERR_OTHER;
    struct iovec iov[GET_IOV_MAX];
    size_t off = 0;
    /* a single-copy send of ours to the sender is in flight: the sender
     * reads it at about the same time (a head-to-head exchange), and its
     * CPU has a copy of its own to make (xb_method_exchange, method.h).
     * Not with lanes: their gets run at once under different locks, and
     * shm asks no help there anyway. */
    bool exchange = xb_mt_nlanes == 0 && xb_pt2pt_peer(r->chan, g)->gets_out != 0;
    while (off < n) {
        int cnt = 0;
        size_t bytes = 0;
        int rc = xb_dt_to_iov(r->buf, r->count, r->dt, off, iov, GET_IOV_MAX, &cnt, &bytes);
        if (rc != XB_OK || cnt == 0 || bytes == 0)
            return XB_ERR_OTHER;
        if (bytes > n - off) {          /* trim to the accepted length */
            size_t keep = n - off, sum = 0;
            int i = 0;
            while (sum + iov[i].iov_len < keep) {
                sum += iov[i].iov_len;
                i++;
            }
            iov[i].iov_len = keep - sum;
            cnt = i + 1;
            bytes = keep;
        }
        xb_method_exchange += exchange;
        rc = m->ops->get(ep, iov, cnt, addr + off, bytes);
        xb_method_exchange -= exchange;
        if (rc != XB_OK)
            return rc;
        off += bytes;
    }
    return XB_OK;
}

static void rndv_matched(xb_request_t *r, xb_gpid_t g, const xb_pt2pt_hdr_t *h)
{
    size_t n = accept_len(r, h);
    if (h->addr != 0 && (n == 0 || try_get(r, g, h->addr, n) == XB_OK)) {
        send_reply(g, XB_AM_FIN, h, 0, n);
        xb_request_complete(r);
        return;
    }
    r->xfer = 0;
    uint64_t me = (uint64_t)(uintptr_t)r;
    if (n == 0)
        xb_request_complete(r);
    /* With the self method the whole stream runs inside this call. */
    send_reply(g, XB_AM_CTS, h, me, n);
}

static void recv_matched(xb_request_t *r, xb_gpid_t g, const xb_pt2pt_hdr_t *h,
                         const void *payload, size_t len)
{
    r->gpid = g;
    r->status.source = h->src;
    r->status.tag = h->tag;
    xb_pt2pt_stats_t *ps = xb_pt2pt_stats_of(h->chan);
    ps->recv_msgs++;
    ps->recv_bytes += h->len;
    if (h->flags & XB_HDR_RNDV) {
        rndv_matched(r, g, h);
        return;
    }
    size_t n = accept_len(r, h);
    unpack(r, 0, payload, n < len ? n : len);
    if (h->flags & XB_HDR_SYNC)
        send_reply(g, XB_AM_SYNC_ACK, h, 0, 0);
    xb_request_complete(r);
}

void xb_pt2pt_recv_deliver(xb_request_t *r, xb_unexp_t *u)
{
    recv_matched(r, u->gpid, &u->hdr, u->data, (size_t)u->stored);
    xb_pt2pt_unexp_free(u);
}

/* A receive that finds its rendezvous already here gets the whole message
 * (process_vm_readv) at once, inside MPI_Irecv: a caller that meant to
 * compute while it arrives computed only after the copy, and with a
 * progress thread half of the 4 MiB transfers of bench/threads.c
 * `-k overlap-recv` hid nothing (the sender's RTS came before the Irecv;
 * docs/design/threads.md, "Overlap"). So while a progress thread runs, a
 * receive that nobody blocks on leaves the get to it (pending.c). */
void xb_pt2pt_recv_unexp(xb_request_t *r, xb_unexp_t *u)
{
    if ((u->hdr.flags & XB_HDR_RNDV) && u->hdr.addr != 0 &&
        !(r->flags & XB_REQ_F_WAITED) && xb_progress_async_running()) {
        xb_pt2pt_stats_of(r->chan)->gets_deferred++;
        xb_pt2pt_defer_get(r, u);
        return;
    }
    xb_pt2pt_recv_deliver(r, u);
}

int xb_pt2pt_recv_start(xb_request_t *r)
{
    if (XB_UNLIKELY(r->peer == MPI_PROC_NULL)) {
        xb_status_set_proc_null(&r->status);
        xb_request_complete(r);
        return XB_OK;
    }
    xb_match_ctx_t *c = xb_match_ctx(&xb_pt2pt_st(r->chan)->table, r->ctx);
    if (XB_UNLIKELY(c == NULL))
        return XB_ERR_NO_MEM;
    xb_mq_item_t *it = xb_match_has_unexp(c) ?
                       xb_match_unexp_find(c, r->peer, r->tag, true) : NULL;
    if (it != NULL) {
        xb_pt2pt_recv_unexp(r, (xb_unexp_t *)it);
        return XB_OK;
    }
    r->mq.src = r->peer;
    r->mq.tag = r->tag;
    int rc = xb_match_posted_add(c, &r->mq);
    if (XB_LIKELY(rc == XB_OK))
        r->flags |= XB_REQ_F_POSTED;
    return rc;
}

/* The caches of a channel (xb_pt2pt_state_t.ucache, linked through
 * mq.next): a record goes back to the channel it arrived on (hdr.chan). */
static int unexp_class(size_t len)
{
    if (len <= XB_UNEXP_SMALL)
        return 0;
    if (len > XB_UNEXP_LARGEST)
        return XB_UNEXP_EXACT;
    return 64 - __builtin_clzll((unsigned long long)len - 1) - 8;   /* 256 = 1 << 8 */
}

static int unexp_keep(int k)
{
    int n = (1 << 20) / (XB_UNEXP_SMALL << k);
    return n < 1024 ? n : 1024;
}

static xb_unexp_t *unexp_alloc(xb_pt2pt_state_t *st, size_t len)
{
    int k = unexp_class(len);
    xb_unexp_t *u;
    if (k < XB_UNEXP_CLASSES && st->ucache[k] != NULL) {
        u = st->ucache[k];
        st->ucache[k] = (xb_unexp_t *)u->mq.next;
        st->nucache[k]--;
        return u;
    }
    u = malloc(sizeof(*u) + (k < XB_UNEXP_CLASSES ? (size_t)XB_UNEXP_SMALL << k : len));
    if (u != NULL)
        u->cls = (uint32_t)k;
    return u;
}

void xb_pt2pt_unexp_free(xb_unexp_t *u)
{
    u->magic = XB_MAGIC_FREED;
    xb_pt2pt_state_t *st = xb_pt2pt_st(u->hdr.chan);
    int k = (int)u->cls;
    if (k < XB_UNEXP_CLASSES && st->nucache[k] < unexp_keep(k)) {
        u->mq.next = st->ucache[k] != NULL ? &st->ucache[k]->mq : NULL;
        st->ucache[k] = u;
        st->nucache[k]++;
        return;
    }
    free(u);
}

void xb_pt2pt_unexp_cache_fini(xb_pt2pt_state_t *st)
{
    for (int k = 0; k < XB_UNEXP_CLASSES; k++) {
        while (st->ucache[k] != NULL) {
            xb_unexp_t *u = st->ucache[k];
            st->ucache[k] = (xb_unexp_t *)u->mq.next;
            free(u);
        }
        st->nucache[k] = 0;
    }
}

static XB_NOINLINE void keep_unexpected(xb_match_ctx_t *c, xb_gpid_t g,
                                        const xb_pt2pt_hdr_t *h, const void *payload,
                                        size_t len)
{
    xb_unexp_t *u = unexp_alloc(xb_pt2pt_st(h->chan), len);
    if (u == NULL)
        xb_rt_fatal("out of memory keeping an unexpected message of %zu bytes from rank %d",
                    len, h->src);
    u->magic = XB_MAGIC_MSG;
    u->gpid = g;
    u->hdr = *h;
    u->stored = len;
    if (len > 0)
        memcpy(u->data, payload, len);
    u->mq.src = h->src;
    u->mq.tag = h->tag;
    if (xb_match_unexp_add(c, &u->mq) != XB_OK)
        xb_rt_fatal("out of memory keeping an unexpected message from rank %d", h->src);
}

/* EAGER and RTS: match or keep. */
static void am_envelope(xb_gpid_t src, const void *hdr, size_t hdr_len,
                        const void *payload, size_t len)
{
    (void)hdr_len;
    const xb_pt2pt_hdr_t *h = hdr;
    xb_match_ctx_t *c = xb_match_ctx(&xb_pt2pt_st(h->chan)->table, h->ctx);
    if (XB_UNLIKELY(c == NULL))
        xb_rt_fatal("out of memory creating matching queues");
    xb_mq_item_t *it = xb_match_has_posted(c) ? xb_match_posted_take(c, h->src, h->tag) : NULL;
    if (it == NULL) {
        keep_unexpected(c, src, h, payload, (h->flags & XB_HDR_RNDV) ? 0 : len);
        return;
    }
    xb_request_t *r = req_of_mq(it);
    r->flags &= ~XB_REQ_F_POSTED;
    if (r->flags & XB_REQ_F_WAITED)   /* leave the next records in the ring */
        xb_am_yield();
    recv_matched(r, src, h, payload, len);
}

static void am_cts(xb_gpid_t src, const void *hdr, size_t hdr_len,
                   const void *payload, size_t len)
{
    (void)src; (void)hdr_len; (void)payload; (void)len;
    const xb_pt2pt_hdr_t *h = hdr;
    xb_pt2pt_on_cts((xb_request_t *)(uintptr_t)h->sreq, h->rreq, h->len);
}

static void am_data(xb_gpid_t src, const void *hdr, size_t hdr_len,
                    const void *payload, size_t len)
{
    (void)src; (void)hdr_len;
    const xb_pt2pt_hdr_t *h = hdr;
    xb_request_t *r = (xb_request_t *)(uintptr_t)h->rreq;
    unpack(r, (size_t)h->addr, payload, len);
    r->xfer += len;
    if (r->xfer >= r->limit)
        xb_request_complete(r);
}

/* Where a DATA fragment may be read to by a stream method (tcp): straight
 * into a contiguous receive buffer, saving the copy out of the method's
 * buffer; am_data then finds it in place. */
static void *place_data(xb_gpid_t src, const void *hdr, size_t hdr_len, size_t len)
{
    (void)src; (void)hdr_len;
    const xb_pt2pt_hdr_t *h = hdr;
    xb_request_t *r = (xb_request_t *)(uintptr_t)h->rreq;
    if (!xb_dt_is_contig(r->dt, r->count) || h->addr > r->limit || len > r->limit - h->addr)
        return NULL;
    return (char *)r->buf + xb_dt_true_lb(r->dt) + h->addr;
}

/* FIN and SYNC_ACK: an event of the send request. */
static void am_sender_event(xb_gpid_t src, const void *hdr, size_t hdr_len,
                            const void *payload, size_t len)
{
    (void)src; (void)hdr_len; (void)payload; (void)len;
    const xb_pt2pt_hdr_t *h = hdr;
    xb_pt2pt_send_event_done((xb_request_t *)(uintptr_t)h->sreq);
}

void xb_pt2pt_register_handlers(void)
{
    xb_am_register(XB_AM_EAGER, am_envelope);
    xb_am_register(XB_AM_RTS, am_envelope);
    xb_am_register(XB_AM_CTS, am_cts);
    xb_am_register(XB_AM_DATA, am_data);
    xb_am_register_place(XB_AM_DATA, place_data);
    xb_am_register(XB_AM_FIN, am_sender_event);
    xb_am_register(XB_AM_SYNC_ACK, am_sender_event);
    xb_pt2pt_register_cancel_handlers();
}
