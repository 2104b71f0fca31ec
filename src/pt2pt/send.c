/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * send.c - the sender's side of the protocols (see proto.h).
 *
 * A send request counts the events it still waits for in req->pending:
 * one for "the protocol is finished" (eager: the message left; rendezvous:
 * FIN arrived or the last DATA fragment left), one more for SYNC_ACK of a
 * synchronous eager send, and one per method send still in progress
 * (XB_INPROGRESS: done->cb later). The count is raised BEFORE each method
 * call, because the self method runs the receiver's handlers inside the
 * call, and they may finish the request before the call returns. For the
 * same reason send_first/send_stream hold a guard count while they run and
 * drop it last (xb_pt2pt_send_event_done: the request may complete there).
 */
#include <stddef.h>
#include "pt2pt/proto.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"

/* Fragments of a pipelined rendezvous whose data is packed (a
 * non-contiguous send type): the message is cut into about
 * PACK_FRAG_PIECES fragments, none smaller than XB_PT2PT_PACK_FRAG, so the
 * receiver unpacks one fragment while the sender packs the next, and the
 * two copies overlap instead of running one after the other (the pipeline
 * fills and drains in one piece: 1/8 of the slower copy). Contiguous data
 * keeps the method's frag_max. bench/pack.c's vector (32 KiB packed from
 * 4096 far-strided doubles, pack and unpack ~2 GB/s each), ping-pong, best
 * batch of 31, 2-core EPYC under load 4-5, 2026-11-24: one 32 KiB fragment
 * 0.75-0.94 GB/s; 8 KiB fragments 1.48-1.55; 4 KiB 1.61-1.67; 2 KiB
 * 1.65-1.73 (Open MPI 0.93). */
XB_TUNABLE_LIVE(PT2PT_PACK_FRAG, XB_TT_SIZE, "4k", XB_TL_TUNER,
           "smallest fragment of a pipelined rendezvous of packed "
           "(non-contiguous) data (0: the method's largest)", NULL);
enum { PACK_FRAG_PIECES = 8 };

static size_t pack_cb(void *arg, size_t offset, void *dst, size_t max)
{
    xb_request_t *r = arg;
    size_t done = 0;
    xb_dt_pack(r->buf, r->count, r->dt, offset, dst, max, &done);
    return done;
}

static void am_done_cb(xb_am_done_t *d, int status)
{
    xb_request_t *r = (xb_request_t *)((char *)d - offsetof(xb_request_t, am_done));
    if (status < 0 && r->status.error == MPI_SUCCESS)
        r->status.error = -status;
    xb_pt2pt_send_event_done(r);
}

void xb_pt2pt_send_event_done(xb_request_t *r)
{
    if (--r->pending > 0)
        return;
    r->phase = XB_PH_DONE;
    if (r->flags & XB_REQ_F_GETS_OUT) {
        r->flags &= ~(uint32_t)XB_REQ_F_GETS_OUT;
        xb_pt2pt_peer(r->chan, r->gpid)->gets_out--;
    }
    xb_request_complete(r);
}

static void payload_of(xb_request_t *r, size_t off, size_t len, struct iovec *iov,
                       xb_payload_t *pl)
{
    pl->len = len;
    pl->offset = off;
    if (r->proto_contig) {
        iov->iov_base = (char *)r->buf + xb_dt_true_lb(r->dt) + off;
        iov->iov_len = len;
        pl->iov = iov;
        pl->iovcnt = 1;
        pl->pack = NULL;
        pl->pack_arg = NULL;
    } else {
        pl->iov = NULL;
        pl->iovcnt = 0;
        pl->pack = pack_cb;
        pl->pack_arg = r;
    }
}

static void hdr_envelope(const xb_request_t *r, xb_pt2pt_hdr_t *h, uint32_t flags)
{
    h->ctx = r->ctx;
    h->src = r->comm->rank;
    h->tag = r->tag;
    h->flags = flags;
    h->len = r->bytes;
    h->sreq = (uint64_t)(uintptr_t)r;
    h->rreq = 0;
    h->addr = 0;
    h->seq = 0;
    h->chan = r->chan;
}

/* One method call carrying an event of r (the caller holds a guard, so the
 * plain decrement cannot reach zero); returns XB_ERR_AGAIN untouched. */
static int send_event(xb_request_t *r, uint8_t am, const xb_pt2pt_hdr_t *h,
                      const xb_payload_t *pl)
{
    r->pending++;
    int rc = xb_method_send_chan(r->chan, r->gpid, am, h, sizeof(*h), pl, &r->am_done);
    if (rc == XB_INPROGRESS)
        return XB_OK;
    r->pending--;
    if (rc == XB_ERR_AGAIN || rc < 0)
        return rc;
    return XB_OK;
}

static int send_first_guarded(xb_request_t *r)
{
    xb_pt2pt_hdr_t h;
    if (r->proto == XB_PROTO_EAGER) {
        hdr_envelope(r, &h, r->mode == XB_MODE_SYNC ? XB_HDR_SYNC : 0);
        struct iovec iov;
        xb_payload_t pl;
        payload_of(r, 0, r->bytes, &iov, &pl);
        r->phase = XB_PH_DONE;
        int rc = send_event(r, XB_AM_EAGER, &h, r->bytes ? &pl : NULL);
        if (rc != XB_OK) {
            r->phase = XB_PH_INIT;
            return rc;
        }
        r->pending--;   /* the message left: the protocol token */
        return XB_OK;
    }
    hdr_envelope(r, &h, XB_HDR_RNDV | (r->mode == XB_MODE_SYNC ? XB_HDR_SYNC : 0));
    if (r->proto == XB_PROTO_RNDV_GET)
        h.addr = (uint64_t)(uintptr_t)((char *)r->buf + xb_dt_true_lb(r->dt));
    r->phase = XB_PH_WAIT_CTS;
    int rc = send_event(r, XB_AM_RTS, &h, NULL);
    if (rc != XB_OK && r->phase == XB_PH_WAIT_CTS)
        r->phase = XB_PH_INIT;
    /* the peer reads our buffer: counted until r completes (not inside
     * this call: send_first holds a guard) */
    if (rc == XB_OK && h.addr != 0) {
        r->flags |= XB_REQ_F_GETS_OUT;
        xb_pt2pt_peer(r->chan, r->gpid)->gets_out++;
    }
    return rc;
}

static int send_first(xb_request_t *r)
{
    r->pending++;                       /* guard */
    int rc = send_first_guarded(r);
    if (rc != XB_OK) {
        r->pending--;                   /* the token is still held */
        return rc;
    }
    xb_pt2pt_send_event_done(r);        /* drop the guard: may complete r */
    return XB_OK;
}

/* Largest DATA fragment of r: the method's, or less for packed data. */
static size_t stream_frag(const xb_request_t *r)
{
    size_t frag = xb_peer_method(r->gpid)->caps.frag_max;
    size_t pf = xb_tn_PT2PT_PACK_FRAG.v.size;
    if (r->proto_contig || pf == 0)
        return frag;
    size_t want = r->limit / PACK_FRAG_PIECES;
    if (want < pf)
        want = pf;
    return want < frag ? want : frag;
}

static int send_stream(xb_request_t *r)
{
    size_t frag = stream_frag(r);
    xb_pt2pt_hdr_t h;
    hdr_envelope(r, &h, XB_HDR_RNDV);
    h.rreq = r->peer_cookie;
    r->pending++;                       /* guard */
    while (r->xfer < r->limit) {
        size_t n = r->limit - r->xfer;
        if (n > frag)
            n = frag;
        struct iovec iov;
        xb_payload_t pl;
        payload_of(r, r->xfer, n, &iov, &pl);
        h.addr = r->xfer;
        int rc = send_event(r, XB_AM_DATA, &h, &pl);
        if (rc != XB_OK) {
            r->pending--;               /* the token is still held */
            return rc;
        }
        r->xfer += n;
    }
    r->phase = XB_PH_DONE;
    r->pending--;                       /* the protocol token */
    xb_pt2pt_send_event_done(r);        /* drop the guard: may complete r */
    return XB_OK;
}

int xb_pt2pt_send_now(xb_request_t *r)
{
    switch (r->phase) {
    case XB_PH_INIT:   return send_first(r);
    case XB_PH_STREAM: return send_stream(r);
    default:           return XB_OK;
    }
}

int xb_pt2pt_send_start(xb_request_t *r)
{
    if (XB_UNLIKELY(r->peer == MPI_PROC_NULL)) {
        xb_status_set_proc_null(&r->status);
        xb_request_complete(r);
        return XB_OK;
    }
    r->gpid = xb_comm_gpid(r->comm, r->peer);
    r->bytes = (size_t)(r->count * xb_dt_size(r->dt));
    xb_method_t *m = xb_peer_method(r->gpid);
    if (XB_UNLIKELY(m == NULL))
        return xb_err_set(XB_ERR_INTERN, "no method reaches rank %d", r->peer);
    r->proto_contig = xb_dt_is_contig(r->dt, r->count);
    unsigned in = (r->proto_contig ? XB_CHOOSE_CONTIG : 0) |
                  (xb_pt2pt.force_pipe ? XB_CHOOSE_FORCE_PIPE : 0);
    r->proto = (uint8_t)xb_pt2pt_choose(&m->caps, r->bytes, r->mode, in);
    xb_pt2pt_stats_t *ps = xb_pt2pt_stats_of(r->chan);
    ps->sent_msgs++;
    ps->sent_bytes += r->bytes;
    if (r->proto == XB_PROTO_EAGER)
        ps->sent_eager++;
    else
        ps->sent_rndv++;
    if (r->proto != XB_PROTO_EAGER)
        xb_log(XB_LOG_PT2PT, XB_LOG_DEBUG, "send %zu bytes to rank %d tag %d: %s", r->bytes,
               r->peer, r->tag, xb_pt2pt_proto_name(r->proto));
    r->pending = 1 + (r->proto == XB_PROTO_EAGER && r->mode == XB_MODE_SYNC);
    r->am_done.cb = am_done_cb;
    r->status.source = MPI_ANY_SOURCE;
    r->status.tag = MPI_ANY_TAG;
    r->status.count = (MPI_Count)r->bytes;
    xb_pt2pt_peer_t *p = xb_pt2pt_peer(r->chan, r->gpid);
    if (XB_UNLIKELY(p->rq_head != NULL)) {
        xb_pt2pt_queue_req(r);
        return XB_OK;
    }
    int rc = send_first(r);
    if (XB_UNLIKELY(rc == XB_ERR_AGAIN)) {
        xb_pt2pt_queue_req(r);
        return XB_OK;
    }
    return rc;
}

/*
 * The blocking fast path: a standard-mode message of a contiguous type that
 * goes eagerly, to a peer with no send queued before it, is one method call
 * that copies it (done == NULL: the method keeps nothing of ours), and needs
 * no request: the standard lets MPI_Send return once the buffer may be
 * reused. Saves the request's life cycle (a third of MPI_Send's
 * instructions, 2026-11-23). Not on a method that may hold the copy in a
 * queue of its own (XB_METHOD_CAP_QUEUES: tcp): there a send completes once
 * its bytes are in the kernel. XB_ERR_AGAIN: not possible now, take the
 * request path (which keeps the order: nothing was sent).
 */
int xb_pt2pt_send_eager_now(const void *buf, MPI_Count count, xb_datatype_t *dt,
                            int dest, int tag, xb_comm_t *comm, int coll)
{
    if (XB_UNLIKELY(dest == MPI_PROC_NULL) || !xb_dt_is_contig(dt, count))
        return XB_ERR_AGAIN;
    xb_gpid_t g = xb_comm_gpid(comm, dest);
    xb_method_t *m = xb_peer_method(g);
    size_t bytes = (size_t)(count * xb_dt_size(dt));
    if (XB_UNLIKELY(m == NULL) || bytes > m->caps.eager_max || bytes > m->caps.frag_max ||
        (m->caps.flags & XB_METHOD_CAP_QUEUES))
        return XB_ERR_AGAIN;
    unsigned chan = coll ? 0 : comm->chan;
    if (xb_pt2pt_peer(chan, g)->rq_head != NULL)
        return XB_ERR_AGAIN;
    xb_pt2pt_hdr_t h = {
        .ctx = comm->ctx + (coll ? 1u : 0u), .src = comm->rank, .tag = tag, .len = bytes,
        .chan = chan,
    };
    struct iovec iov = { (char *)(uintptr_t)buf + xb_dt_true_lb(dt), bytes };
    xb_payload_t pl = { .len = bytes, .iov = &iov, .iovcnt = 1 };
    int rc = xb_method_send_chan((int)chan, g, XB_AM_EAGER, &h, sizeof(h),
                                 bytes ? &pl : NULL, NULL);
    if (XB_LIKELY(rc >= 0)) {
        xb_pt2pt_stats_t *ps = xb_pt2pt_stats_of(chan);
        ps->sent_msgs++;
        ps->sent_bytes += bytes;
        ps->sent_eager++;
    }
    return rc;
}

void xb_pt2pt_on_cts(xb_request_t *r, uint64_t rreq, uint64_t limit)
{
    r->peer_cookie = rreq;
    r->limit = (size_t)limit;
    r->xfer = 0;
    r->phase = XB_PH_STREAM;
    if (xb_pt2pt_peer(r->chan, r->gpid)->rq_head != NULL) {
        xb_pt2pt_queue_req(r);
        return;
    }
    int rc = send_stream(r);
    if (rc == XB_ERR_AGAIN)
        xb_pt2pt_queue_req(r);
    else if (rc < 0)
        xb_pt2pt_fail_req(r, rc);
}

void xb_pt2pt_fail_req(xb_request_t *r, int rc)
{
    r->status.error = -rc;
    r->pending = 1;
    xb_pt2pt_send_event_done(r);
}
