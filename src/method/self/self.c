/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * self.c - the `self` method: a process sending to itself.
 *
 * send_am calls the handler directly, before it returns, with the header and
 * a contiguous view of the payload (the iovec itself when it has one entry,
 * else a gathered copy). A handler that sends again (e.g. a rendezvous answer)
 * would nest without bound, so while a dispatch is running, new messages are
 * copied onto a FIFO and delivered when the outermost dispatch returns (still
 * inside the outermost send_am) or at the next progress(); order per peer is
 * kept because everything behind a queued message is queued too.
 *
 * get() is a memcpy: the "remote" address is in this process.
 * Capabilities: any size in one message (frag_max unlimited), get always.
 */
#include <stdlib.h>
#include <string.h>
#include "method/method_int.h"
#include "runtime/tunable.h"
#include "util/xb_lanes.h"

static int self_eager_changed(xb_tunable_t *t);
XB_TUNABLE_LIVE(SELF_EAGER_MAX, XB_TT_SIZE, "64k", XB_TL_TUNER,
           "Largest message a process sends to itself eagerly (above: rendezvous "
           "with a memcpy get)", self_eager_changed);

struct xb_ep { xb_method_t *m; };

typedef struct self_msg {
    struct self_msg *next;
    uint8_t  am_id;
    uint8_t  hdr_len;
    size_t   len;
    uint8_t  hdr[XB_AM_HDR_MAX];
    uint8_t  data[];
} self_msg_t;

/* One delivery queue per channel: 0 the main one, k lane k of several
 * progress contexts (docs/design/threads.md), used only under that
 * channel's lock. */
typedef struct self_q {
    int          depth;          /* dispatches running */
    self_msg_t  *head, **tailp;  /* deferred messages, FIFO */
    void        *scratch;        /* gather buffer of the outermost dispatch */
    size_t       scratch_len;
} self_q_t;

static struct {
    struct xb_ep ep;
    xb_gpid_t    me;
    self_q_t     q[XB_LANES_MAX + 1];
} self;

static int payload_copy(const xb_payload_t *pl, void *dst)
{
    if (pl->iov != NULL) {
        size_t off = 0;
        for (int i = 0; i < pl->iovcnt && off < pl->len; i++) {
            size_t n = pl->iov[i].iov_len;
            if (n > pl->len - off)
                n = pl->len - off;
            memcpy((char *)dst + off, pl->iov[i].iov_base, n);
            off += n;
        }
        return XB_OK;
    }
    for (size_t off = 0; off < pl->len;) {
        size_t n = pl->pack(pl->pack_arg, pl->offset + off, (char *)dst + off,
                            pl->len - off);
        if (n == 0)
            return xb_err_set(XB_ERR_INTERN, "pack callback stopped at byte %zu of %zu",
                              off, pl->len);
        off += n;
    }
    return XB_OK;
}

static int self_defer(self_q_t *sq, uint8_t am_id, const void *hdr, size_t hdr_len,
                      const xb_payload_t *pl)
{
    size_t len = pl != NULL ? pl->len : 0;
    self_msg_t *q = malloc(sizeof(*q) + len);
    if (q == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory to queue a %zu-byte message to "
                          "self", len);
    q->next = NULL;
    q->am_id = am_id;
    q->hdr_len = (uint8_t)hdr_len;
    q->len = len;
    memcpy(q->hdr, hdr, hdr_len);
    if (len > 0 && payload_copy(pl, q->data) != XB_OK) {
        free(q);
        return XB_ERR_INTERN;
    }
    *sq->tailp = q;
    sq->tailp = &q->next;
    return XB_OK;
}

/* Hand one message up: the main channel counts it for MPI_T (lanes do
 * not touch the shared counters). */
static void deliver(const self_q_t *sq, uint8_t am_id, const void *hdr, size_t hdr_len,
                    const void *data, size_t len)
{
    if (XB_LIKELY(sq == &self.q[0]))
        xb_am_dispatch_from(XB_METHOD_SELF, am_id, self.me, hdr, hdr_len, data, len);
    else
        xb_am_dispatch(am_id, self.me, hdr, hdr_len, data, len);
}

/* Deliver queued messages; called with depth == 0. */
static int self_drain(self_q_t *sq)
{
    int n = 0;
    sq->depth++;
    while (sq->head != NULL) {
        self_msg_t *q = sq->head;
        sq->head = q->next;
        if (sq->head == NULL)
            sq->tailp = &sq->head;
        deliver(sq, q->am_id, q->hdr, q->hdr_len, q->data, q->len);
        free(q);
        n++;
    }
    sq->depth--;
    return n;
}

static int send_q(self_q_t *sq, uint8_t am_id, const void *hdr, size_t hdr_len,
                  const xb_payload_t *pl)
{
    if (hdr_len > XB_AM_HDR_MAX)
        return xb_err_set(XB_ERR_INTERN, "active-message header of %zu bytes "
                          "(at most %d)", hdr_len, XB_AM_HDR_MAX);
    if (sq->depth > 0)
        return self_defer(sq, am_id, hdr, hdr_len, pl);
    if (XB_UNLIKELY(sq->head != NULL))
        self_drain(sq);         /* keep order behind earlier deferred ones */
    const void *data = NULL;
    size_t len = pl != NULL ? pl->len : 0;
    if (len > 0 && pl->iov != NULL && pl->iovcnt == 1 && pl->iov[0].iov_len >= len) {
        data = pl->iov[0].iov_base;
    } else if (len > 0) {
        if (len > sq->scratch_len) {
            void *p = realloc(sq->scratch, len);
            if (p == NULL)
                return xb_err_set(XB_ERR_NO_MEM, "no memory for a %zu-byte message "
                                  "to self", len);
            sq->scratch = p;
            sq->scratch_len = len;
        }
        int rc = payload_copy(pl, sq->scratch);
        if (rc != XB_OK)
            return rc;
        data = sq->scratch;
    }
    sq->depth++;
    deliver(sq, am_id, hdr, hdr_len, data, len);
    sq->depth--;
    if (sq->head != NULL)
        self_drain(sq);
    return XB_OK;
}

static int self_send_am(xb_ep_t *ep, uint8_t am_id, const void *hdr, size_t hdr_len,
                        const xb_payload_t *pl, xb_am_done_t *done)
{
    (void)ep;
    (void)done;
    return send_q(&self.q[0], am_id, hdr, hdr_len, pl);
}

static int self_send_am_chan(xb_ep_t *ep, int chan, uint8_t am_id, const void *hdr,
                             size_t hdr_len, const xb_payload_t *pl)
{
    (void)ep;
    if (chan <= 0 || chan > xb_mt_nlanes)
        return xb_err_set(XB_ERR_INTERN, "self method: no lane %d", chan);
    return send_q(&self.q[chan], am_id, hdr, hdr_len, pl);
}

static int self_get(xb_ep_t *ep, const struct iovec *local, int local_cnt,
                    uint64_t remote_addr, size_t len)
{
    (void)ep;
    const char *src = (const char *)(uintptr_t)remote_addr;
    for (int i = 0; i < local_cnt && len > 0; i++) {
        size_t n = local[i].iov_len < len ? local[i].iov_len : len;
        memcpy(local[i].iov_base, src, n);
        src += n;
        len -= n;
    }
    return XB_OK;
}

static int self_progress(xb_method_t *m)
{
    (void)m;
    if (XB_LIKELY(self.q[0].head == NULL) || self.q[0].depth > 0)
        return 0;
    return self_drain(&self.q[0]);
}

static int self_progress_chan(xb_method_t *m, int chan)
{
    (void)m;
    self_q_t *sq = &self.q[chan];
    if (XB_LIKELY(sq->head == NULL) || sq->depth > 0)
        return 0;
    return self_drain(sq);
}

/* XB_SELF_EAGER_MAX written through MPI_T: the next send uses it. */
static int self_eager_changed(xb_tunable_t *t)
{
    xb_method_t *m = xb_method_get(XB_METHOD_SELF);
    if (m != NULL && m->enabled)
        m->caps.eager_max = t->v.size;
    return XB_OK;
}

static int self_init(xb_method_t *m, const xb_rt_info_t *rt, const char **why)
{
    (void)why;
    self.ep.m = m;
    self.me = xb_gpid_make(0, (uint32_t)rt->rank);
    for (int c = 0; c <= XB_LANES_MAX; c++) {
        self.q[c].depth = 0;
        self.q[c].head = NULL;
        self.q[c].tailp = &self.q[c].head;
    }
    m->caps.eager_max = xb_tn_SELF_EAGER_MAX.v.size;
    m->caps.frag_max = SIZE_MAX;
    m->caps.get_min = 0;
    m->caps.flags = XB_METHOD_CAP_GET;
    m->priv = &self;
    return XB_OK;
}

static void self_fini(xb_method_t *m)
{
    (void)m;
    for (int c = 0; c <= XB_LANES_MAX; c++) {
        self_q_t *sq = &self.q[c];
        while (sq->head != NULL) {
            self_msg_t *q = sq->head;
            sq->head = q->next;
            free(q);
        }
        sq->tailp = &sq->head;
        free(sq->scratch);
        sq->scratch = NULL;
        sq->scratch_len = 0;
    }
}

static int self_addr_pack(xb_method_t *m, void *buf, size_t *len_p)
{
    (void)m;
    (void)buf;
    *len_p = 0;
    return XB_OK;
}

static int self_ready(xb_method_t *m)
{
    (void)m;
    return XB_OK;
}

static bool self_reachable(xb_method_t *m, xb_gpid_t peer)
{
    (void)m;
    return peer == self.me;
}

static int self_ep_open(xb_method_t *m, xb_gpid_t peer, xb_ep_t **ep_p)
{
    (void)m;
    if (peer != self.me)
        return xb_err_set(XB_ERR_INTERN, "self method asked to reach rank %u",
                          xb_gpid_rank(peer));
    *ep_p = &self.ep;
    return XB_OK;
}

static void self_ep_close(xb_ep_t *ep)
{
    (void)ep;
}

int xb_self_probe(const char **why)
{
    *why = NULL;
    return XB_OK;
}

const xb_method_ops_t xb_self_ops = {
    .name = "self",
    .init = self_init,
    .fini = self_fini,
    .addr_pack = self_addr_pack,
    .ready = self_ready,
    .reachable = self_reachable,
    .ep_open = self_ep_open,
    .ep_close = self_ep_close,
    .send_am = self_send_am,
    .get = self_get,
    .progress = self_progress,
    .block = NULL,
    .send_am_chan = self_send_am_chan,
    .progress_chan = self_progress_chan,
};
