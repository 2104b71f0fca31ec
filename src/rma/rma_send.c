/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rma_send.c - every one-sided message leaves through here: one allocation
 * per message (header and payload), handed to the peer's method. A method
 * that answers "not now" (XB_ERR_AGAIN) gets the message again from the
 * progress hook; once anything is queued, later messages queue behind it,
 * so messages from this process leave in the order they were made (the
 * default accumulate_ordering rar,raw,war,waw relies on it: methods
 * deliver in order per peer). Also: waiting for a counter, control
 * messages, and the window barrier (dissemination, over these messages).
 */
#include <stdlib.h>
#include <string.h>
#include "rma/rma_int.h"

struct xb_rma_msg {
    xb_am_done_t  done;     /* first: the method's completion callback    */
    xb_rma_msg_t *next;
    xb_gpid_t     peer;
    xb_rma_hdr_t  hdr;
    size_t        len;
    struct iovec  iov;
    xb_payload_t  pl;
    char          data[];
};

static struct {
    xb_rma_msg_t *head, *tail;
    int           nqueued;
} q;

static void msg_done(xb_am_done_t *d, int status)
{
    (void)status;
    free((xb_rma_msg_t *)(void *)d);
}

xb_rma_msg_t *xb_rma_msg_new(size_t len)
{
    xb_rma_msg_t *m = malloc(sizeof(*m) + len);
    if (m == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "no memory for a one-sided message of %zu bytes", len);
        return NULL;
    }
    memset(m, 0, sizeof(*m));
    m->done.cb = msg_done;
    m->len = len;
    return m;
}

void *xb_rma_msg_data(xb_rma_msg_t *m)
{
    return m->data;
}

xb_rma_hdr_t *xb_rma_msg_hdr(xb_rma_msg_t *m)
{
    return &m->hdr;
}

/* XB_OK (sent or owned by the method), XB_ERR_AGAIN, or an error. */
static int try_send(xb_rma_msg_t *m)
{
    m->iov.iov_base = m->data;
    m->iov.iov_len = m->len;
    m->pl.iov = &m->iov;
    m->pl.iovcnt = 1;
    m->pl.len = m->len;
    int rc = xb_method_send(m->peer, XB_RMA_AM, &m->hdr, sizeof(m->hdr),
                            m->len > 0 ? &m->pl : NULL, &m->done);
    if (rc == XB_OK)
        free(m);
    return rc == XB_INPROGRESS ? XB_OK : rc;
}

int xb_rma_msg_send(xb_gpid_t peer, xb_rma_msg_t *m)
{
    m->peer = peer;
    if (q.head == NULL) {
        int rc = try_send(m);
        if (rc != XB_ERR_AGAIN) {
            if (rc < 0)
                free(m);
            return rc;
        }
    }
    m->next = NULL;
    if (q.tail != NULL)
        q.tail->next = m;
    else
        q.head = m;
    q.tail = m;
    q.nqueued++;
    xb_progress_set_backlog(xb_progress_default(), q.nqueued);
    return XB_OK;
}

static int retry_hook(xb_progress_t *pc)
{
    int n = 0;
    while (q.head != NULL) {
        xb_rma_msg_t *m = q.head;
        q.head = m->next;       /* off the queue first: the send may recurse */
        if (q.head == NULL)
            q.tail = NULL;
        q.nqueued--;
        int rc = try_send(m);
        if (rc == XB_ERR_AGAIN) {
            m->next = q.head;   /* back at the front */
            q.head = m;
            if (q.tail == NULL)
                q.tail = m;
            q.nqueued++;
            break;
        }
        if (rc < 0)
            free(m);     /* the peer is gone: nothing else to do with it */
        n++;
    }
    xb_progress_set_backlog(pc, q.nqueued);
    return n;
}

int xb_rma_send_init(void)
{
    return xb_progress_hook_add(retry_hook, &q.nqueued);
}

void xb_rma_send_fini(void)
{
    while (q.head != NULL) {
        xb_rma_msg_t *m = q.head;
        q.head = m->next;
        free(m);
    }
    q.tail = NULL;
    q.nqueued = 0;
}

int xb_rma_send(xb_win_t *w, int to, xb_rma_hdr_t *h, const void *pl, size_t len)
{
    xb_rma_msg_t *m = xb_rma_msg_new(len);
    if (m == NULL)
        return XB_ERR_NO_MEM;
    h->win_id = w->peers[to].win_id;
    h->src_rank = w->rank;
    m->hdr = *h;
    if (len > 0)
        memcpy(m->data, pl, len);
    return xb_rma_msg_send(w->gpid[to], m);
}

int xb_rma_ctl(xb_win_t *w, int to, int kind, uint64_t arg)
{
    xb_rma_hdr_t h = { .kind = (uint8_t)kind, .off = arg };
    return xb_rma_send(w, to, &h, NULL, 0);
}

static bool count_zero(void *arg)
{
    return *(const int *)arg <= 0;
}

/* Polls once even when there is nothing to wait for: a rank that spins on
 * one-sided calls to itself (a compare-and-swap loop, flushes answered
 * inside the send by the self method) must still apply what others send
 * it, or a lock it holds is never released. */
int xb_rma_wait_zero(const int *count, const char *what)
{
    if (*count <= 0) {
        xb_progress_poll(xb_progress_default());
        return XB_OK;
    }
    return xb_progress_wait_until(xb_progress_default(), count_zero,
                                  (void *)count, what);
}

/* ---- barrier ------------------------------------------------------------- */
/* Round r: send to rank + 2^r, wait for one from rank - 2^r. A rank is at
 * most one barrier ahead of any other, so two counter sets (by the
 * parity of the barrier's number) keep consecutive barriers apart. */

struct bar_wait {
    int *cnt;
};

static bool bar_ready(void *arg)
{
    return *((struct bar_wait *)arg)->cnt > 0;
}

int xb_rma_barrier(xb_win_t *w)
{
    unsigned par = w->bar_seq++ & 1u;
    for (int r = 0; (1 << r) < w->size; r++) {
        int to = (w->rank + (1 << r)) % w->size;
        int rc = xb_rma_ctl(w, to, XB_RMA_BARRIER, ((uint64_t)par << 8) | (unsigned)r);
        if (rc != XB_OK)
            return rc;
        struct bar_wait bw = { &w->bar_cnt[par][r] };
        if (!bar_ready(&bw)) {
            rc = xb_progress_wait_until(xb_progress_default(), bar_ready, &bw,
                                        "a window synchronisation");
            if (rc != XB_OK)
                return rc;
        }
        w->bar_cnt[par][r]--;
    }
    return XB_OK;
}

void xb_rma_barrier_arrived(xb_win_t *w, const xb_rma_hdr_t *h)
{
    unsigned par = (unsigned)(h->off >> 8) & 1u, r = (unsigned)h->off & 31u;
    w->bar_cnt[par][r]++;
}
