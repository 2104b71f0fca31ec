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

static struct {
    struct xb_ep ep;
    xb_gpid_t    me;
    int          depth;          /* dispatches running */
    self_msg_t  *head, **tailp;  /* deferred messages, FIFO */
    void        *scratch;        /* gather buffer of the outermost dispatch */
    size_t       scratch_len;
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

static int self_defer(uint8_t am_id, const void *hdr, size_t hdr_len,
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
    *self.tailp = q;
    self.tailp = &q->next;
    return XB_OK;
}

/* Deliver queued messages; called with depth == 0. */
static int self_drain(void)
{
    int n = 0;
    self.depth++;
    while (self.head != NULL) {
        self_msg_t *q = self.head;
        self.head = q->next;
        if (self.head == NULL)
            self.tailp = &self.head;
        xb_am_dispatch_from(XB_METHOD_SELF, q->am_id, self.me, q->hdr, q->hdr_len,
                            q->data, q->len);
        free(q);
        n++;
    }
    self.depth--;
    return n;
}

static int self_send_am(xb_ep_t *ep, uint8_t am_id, const void *hdr, size_t hdr_len,
                        const xb_payload_t *pl, xb_am_done_t *done)
{
    (void)ep;
    (void)done;
    if (hdr_len > XB_AM_HDR_MAX)
        return xb_err_set(XB_ERR_INTERN, "active-message header of %zu bytes "
                          "(at most %d)", hdr_len, XB_AM_HDR_MAX);
    if (self.depth > 0)
        return self_defer(am_id, hdr, hdr_len, pl);
    if (XB_UNLIKELY(self.head != NULL))
        self_drain();           /* keep order behind earlier deferred ones */
    const void *data = NULL;
    size_t len = pl != NULL ? pl->len : 0;
    if (len > 0 && pl->iov != NULL && pl->iovcnt == 1 && pl->iov[0].iov_len >= len) {
        data = pl->iov[0].iov_base;
    } else if (len > 0) {
        if (len > self.scratch_len) {
            void *p = realloc(self.scratch, len);
            if (p == NULL)
                return xb_err_set(XB_ERR_NO_MEM, "no memory for a %zu-byte message "
                                  "to self", len);
            self.scratch = p;
            self.scratch_len = len;
        }
        int rc = payload_copy(pl, self.scratch);
        if (rc != XB_OK)
            return rc;
        data = self.scratch;
    }
    self.depth++;
    xb_am_dispatch_from(XB_METHOD_SELF, am_id, self.me, hdr, hdr_len, data, len);
    self.depth--;
    if (self.head != NULL)
        self_drain();
    return XB_OK;
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
    if (XB_LIKELY(self.head == NULL) || self.depth > 0)
        return 0;
    return self_drain();
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
    self.depth = 0;
    self.head = NULL;
    self.tailp = &self.head;
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
    while (self.head != NULL) {
        self_msg_t *q = self.head;
        self.head = q->next;
        free(q);
    }
    self.tailp = &self.head;
    free(self.scratch);
    self.scratch = NULL;
    self.scratch_len = 0;
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
};
