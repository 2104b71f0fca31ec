/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * cancel.c - MPI_Cancel of point-to-point requests (docs/design/pt2pt.md,
 * "Cancel").
 *
 * Receive: a receive still in the posted queue is taken out and completes
 * cancelled; one that matched is left alone.
 *
 * Send: cancellable while the receiver has not matched the message.
 *   - Nothing sent yet (the request waits in its peer's pending FIFO, phase
 *     INIT): taken out of the FIFO, completes cancelled at once.
 *   - A message the receiver must still answer (an RTS waiting for CTS/FIN,
 *     or a synchronous eager message waiting for SYNC_ACK): the sender sends
 *     CANCEL (sreq = the request) behind it. The receiver looks in its
 *     unexpected queue for that message (same sender, same sreq, a RNDV or
 *     SYNC message: only those keep their sender's request alive, so the
 *     cookie is unambiguous); found, it is dropped and CANCEL_ACK says
 *     "cancelled"; not found, it matched already and CANCEL_ACK says "not
 *     cancelled" (the protocol finishes normally). The sender's request
 *     counts CANCEL_ACK as one more event; a "cancelled" answer also retires
 *     the protocol event that will now never come, so the request completes
 *     with status.cancelled set.
 *   - Anything else (an eager message delivered, a rendezvous streaming or
 *     done, a completed request): not cancelled, as the standard allows.
 * One CANCEL per request and start (XB_REQ_F_CANCEL).
 */
#include "pt2pt/proto.h"
#include "runtime/runtime.h"

static void complete_cancelled(xb_request_t *r)
{
    r->status.cancelled = true;
    r->status.source = MPI_ANY_SOURCE;
    r->status.tag = MPI_ANY_TAG;
    r->status.count = 0;
    xb_request_complete(r);
}

static int cancel_recv(xb_request_t *r)
{
    if (!(r->flags & XB_REQ_F_POSTED))
        return XB_OK;
    xb_match_ctx_t *c = xb_match_ctx(&xb_pt2pt_st(r->chan)->table, r->ctx);
    if (c != NULL && xb_match_posted_remove(c, &r->mq)) {
        r->flags &= ~XB_REQ_F_POSTED;
        complete_cancelled(r);
    }
    return XB_OK;
}

/* Does the receiver still owe this send an answer for an unmatched message? */
static bool awaits_receiver(const xb_request_t *r)
{
    if (r->proto == XB_PROTO_EAGER)
        return r->mode == XB_MODE_SYNC && r->phase == XB_PH_DONE && r->pending > 0;
    return r->phase == XB_PH_WAIT_CTS;
}

static int cancel_send(xb_request_t *r)
{
    if (r->flags & XB_REQ_F_CANCEL)
        return XB_OK;
    if (r->phase == XB_PH_INIT) {
        if (xb_pt2pt_unqueue_req(r)) {
            r->phase = XB_PH_DONE;
            r->pending = 0;
            complete_cancelled(r);
        }
        return XB_OK;
    }
    if (!awaits_receiver(r))
        return XB_OK;
    xb_pt2pt_hdr_t h = {
        .ctx = r->ctx, .src = r->comm->rank, .tag = r->tag,
        .flags = r->proto == XB_PROTO_EAGER ? XB_HDR_SYNC : XB_HDR_RNDV,
        .sreq = (uint64_t)(uintptr_t)r,
    };
    r->flags |= XB_REQ_F_CANCEL;
    r->pending++;                       /* CANCEL_ACK; raised first (self) */
    int rc = xb_pt2pt_send_ctl(r->gpid, XB_AM_CANCEL, &h);
    if (rc < 0) {
        r->pending--;
        r->flags &= ~XB_REQ_F_CANCEL;
        return rc;
    }
    return XB_OK;
}

int xb_pt2pt_cancel(xb_request_t *r)
{
    if (xb_request_is_done(r))
        return XB_OK;
    if (r->kind == XB_REQ_RECV || r->kind == XB_REQ_PRECV)
        return cancel_recv(r);
    if (r->kind == XB_REQ_PAIR)
        return xb_pt2pt_pair_cancel(r);
    if ((r->kind == XB_REQ_SEND || r->kind == XB_REQ_PSEND) && r->mode != XB_MODE_BUFFERED)
        return cancel_send(r);
    return XB_OK;
}

/* Receiver: CANCEL. Drop the message if it is still unexpected. */
static void am_cancel(xb_gpid_t src, const void *hdr, size_t hdr_len,
                      const void *payload, size_t len)
{
    (void)hdr_len; (void)payload; (void)len;
    const xb_pt2pt_hdr_t *h = hdr;
    xb_pt2pt_hdr_t a = *h;
    a.len = 0;
    xb_match_ctx_t *c = xb_match_ctx(&xb_pt2pt_st(h->chan)->table, h->ctx);
    if (XB_UNLIKELY(c == NULL))
        xb_rt_fatal("out of memory creating matching queues");
    for (xb_mq_item_t *it = xb_match_unexp_list(c, h->src); it != NULL; it = it->next) {
        xb_unexp_t *u = (xb_unexp_t *)it;
        if (it->src == h->src && u->gpid == src && u->hdr.sreq == h->sreq &&
            (u->hdr.flags & (XB_HDR_RNDV | XB_HDR_SYNC))) {
            xb_match_unexp_remove(c, it);
            xb_pt2pt_unexp_free(u);
            a.len = 1;
            break;
        }
    }
    int rc = xb_pt2pt_send_ctl(src, XB_AM_CANCEL_ACK, &a);
    if (rc < 0)
        xb_log(XB_LOG_PT2PT, XB_LOG_ERROR, "answer to a cancel from rank %u failed (%d)",
               xb_gpid_rank(src), rc);
}

/* Sender: CANCEL_ACK; len = 1: the message was dropped unmatched. */
static void am_cancel_ack(xb_gpid_t src, const void *hdr, size_t hdr_len,
                          const void *payload, size_t len)
{
    (void)src; (void)hdr_len; (void)payload; (void)len;
    const xb_pt2pt_hdr_t *h = hdr;
    xb_request_t *r = (xb_request_t *)(uintptr_t)h->sreq;
    if (h->len == 1) {
        r->status.cancelled = true;
        r->phase = XB_PH_DONE;
        r->pending--;                   /* the SYNC_ACK / CTS / FIN never comes */
    }
    xb_pt2pt_send_event_done(r);        /* the CANCEL_ACK itself */
}

void xb_pt2pt_register_cancel_handlers(void)
{
    xb_am_register(XB_AM_CANCEL, am_cancel);
    xb_am_register(XB_AM_CANCEL_ACK, am_cancel_ack);
}
