/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pending.c - back-pressure: per-peer FIFOs of operations a method refused
 * with XB_ERR_AGAIN, retried from the progress hook; and the gets of
 * receives that matched a rendezvous while a progress thread runs, run by
 * the same hook (recv.c, xb_pt2pt_recv_unexp), so that the progress thread
 * copies while the caller computes.
 *
 * Sends (requests) wait in order: once one send to a peer waits, every later
 * send to that peer queues behind it, so messages never overtake. Control
 * messages (CTS, FIN, SYNC_ACK) name a request by cookie and match nothing,
 * so they have their own FIFO (a small copy, malloc'd: this is the slow path).
 */
#include <stdlib.h>
#include <string.h>
#include "pt2pt/proto.h"

static void backlog_changed(unsigned chan, int delta)
{
    xb_pt2pt_state_t *st = xb_pt2pt_st(chan);
    st->nqueued += delta;
    xb_progress_set_backlog(xb_progress_ctx((int)chan), st->nqueued);
}

/* Append r to the FIFO (head, tail) linked through r->next, counted in
 * the channel's backlog. */
static void fifo_push(xb_request_t **head, xb_request_t **tail, xb_request_t *r)
{
    r->next = NULL;
    if (*tail != NULL)
        (*tail)->next = r;
    else
        *head = r;
    *tail = r;
    backlog_changed(r->chan, 1);
}

void xb_pt2pt_queue_req(xb_request_t *r)
{
    xb_pt2pt_peer_t *p = xb_pt2pt_peer(r->chan, r->gpid);
    fifo_push(&p->rq_head, &p->rq_tail, r);
}

bool xb_pt2pt_unqueue_req(xb_request_t *r)
{
    xb_pt2pt_peer_t *p = xb_pt2pt_peer(r->chan, r->gpid);
    xb_request_t *prev = NULL;
    for (xb_request_t *q = p->rq_head; q != NULL; prev = q, q = q->next) {
        if (q != r)
            continue;
        if (prev != NULL)
            prev->next = r->next;
        else
            p->rq_head = r->next;
        if (p->rq_tail == r)
            p->rq_tail = prev;
        r->next = NULL;
        backlog_changed(r->chan, -1);
        return true;
    }
    return false;
}

static void push_front(xb_pt2pt_peer_t *p, xb_request_t *r)
{
    r->next = p->rq_head;
    p->rq_head = r;
    if (p->rq_tail == NULL)
        p->rq_tail = r;
    backlog_changed(r->chan, 1);
}

static XB_NOINLINE int queue_ctl(xb_pt2pt_peer_t *p, uint8_t am, const xb_pt2pt_hdr_t *h)
{
    xb_pt2pt_ctl_t *c = malloc(sizeof(*c));
    if (c == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory queueing a control message");
    c->next = NULL;
    c->am_id = am;
    c->hdr = *h;
    if (p->ctl_tail != NULL)
        p->ctl_tail->next = c;
    else
        p->ctl_head = c;
    p->ctl_tail = c;
    backlog_changed(h->chan, 1);
    return XB_OK;
}

int xb_pt2pt_send_ctl(xb_gpid_t g, uint8_t am, const xb_pt2pt_hdr_t *h)
{
    xb_pt2pt_peer_t *p = xb_pt2pt_peer(h->chan, g);
    if (p->ctl_head != NULL)
        return queue_ctl(p, am, h);
    int rc = xb_method_send_chan((int)h->chan, g, am, h, sizeof(*h), NULL, NULL);
    if (rc == XB_ERR_AGAIN)
        return queue_ctl(p, am, h);
    return rc < 0 ? rc : XB_OK;
}

static int retry_ctl(xb_gpid_t g, xb_pt2pt_peer_t *p)
{
    int n = 0;
    while (p->ctl_head != NULL) {
        xb_pt2pt_ctl_t *c = p->ctl_head;
        int rc = xb_method_send_chan((int)c->hdr.chan, g, c->am_id, &c->hdr,
                                     sizeof(c->hdr), NULL, NULL);
        if (rc == XB_ERR_AGAIN)
            break;
        p->ctl_head = c->next;
        if (p->ctl_head == NULL)
            p->ctl_tail = NULL;
        backlog_changed(c->hdr.chan, -1);
        free(c);
        n++;
    }
    return n;
}

static int retry_reqs(xb_pt2pt_peer_t *p)
{
    int n = 0;
    while (p->rq_head != NULL) {
        xb_request_t *r = p->rq_head;
        p->rq_head = r->next;
        if (p->rq_head == NULL)
            p->rq_tail = NULL;
        backlog_changed(r->chan, -1);
        int rc = xb_pt2pt_send_now(r);
        if (rc == XB_ERR_AGAIN) {
            push_front(p, r);
            break;
        }
        if (rc < 0)
            xb_pt2pt_fail_req(r, rc);
        n++;
    }
    return n;
}

void xb_pt2pt_defer_get(xb_request_t *r, xb_unexp_t *u)
{
    xb_pt2pt_state_t *st = xb_pt2pt_st(r->chan);
    r->dget = u;
    fifo_push(&st->dget_head, &st->dget_tail, r);
    xb_progress_kick();
}

/* The deferred gets, in the order their receives matched. */
static int run_gets(xb_pt2pt_state_t *st, unsigned chan)
{
    int n = 0;
    xb_request_t *r;
    while ((r = st->dget_head) != NULL) {
        st->dget_head = r->next;
        if (st->dget_head == NULL)
            st->dget_tail = NULL;
        r->next = NULL;
        xb_unexp_t *u = r->dget;
        r->dget = NULL;
        backlog_changed(chan, -1);
        xb_pt2pt_recv_deliver(r, u);
        n++;
    }
    return n;
}

int xb_pt2pt_retry(xb_progress_t *pc)
{
    unsigned chan = (unsigned)xb_progress_chan(pc);
    xb_pt2pt_state_t *st = xb_pt2pt_st(chan);
    if (XB_LIKELY(st->nqueued == 0))
        return 0;
    int n = st->dget_head != NULL ? run_gets(st, chan) : 0;
    if (st->nqueued == 0)           /* only gets were queued: no peer walk */
        return n;
    for (int i = 0; i < st->npeers; i++) {
        xb_pt2pt_peer_t *p = &st->peers[i];
        if (p->ctl_head != NULL)
            n += retry_ctl((xb_gpid_t)i, p);
        if (p->rq_head != NULL)
            n += retry_reqs(p);
    }
    return n;
}
