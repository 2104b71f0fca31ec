/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pt2pt.c - init/fini and the internal entry points other layers call
 * (xb_pt2pt_isend/irecv/send/recv).
 */
#include <stdlib.h>
#include <string.h>
#include "pt2pt/proto.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"

XB_TUNABLE(PT2PT_FORCE_PIPELINE, XB_TT_BOOL, "0", XB_TL_DEV,
           "Send every rendezvous message with the pipelined protocol (no single-copy get)");

xb_pt2pt_state_t xb_pt2pt_lanes[XB_LANES_MAX + 1];

static void drop_unexp(xb_mq_item_t *it) { xb_pt2pt_unexp_free((xb_unexp_t *)it); }

/* The peer table grew (src/dpm added processes of other jobs: the main
 * channel reaches them, lanes never do). */
static int peers_grow(int n)
{
    if (n <= xb_pt2pt.npeers)
        return XB_OK;
    xb_pt2pt_peer_t *t = realloc(xb_pt2pt.peers, (size_t)n * sizeof(*t));
    if (t == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for the state of %d peers", n);
    memset(t + xb_pt2pt.npeers, 0, (size_t)(n - xb_pt2pt.npeers) * sizeof(*t));
    xb_pt2pt.peers = t;
    xb_pt2pt.npeers = n;
    return XB_OK;
}

static int chan_init(int c, int n)
{
    xb_pt2pt_state_t *st = xb_pt2pt_st((unsigned)c);
    st->peers = calloc((size_t)n, sizeof(*st->peers));
    if (st->peers == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for the state of %d peers", n);
    st->npeers = n;
    st->nqueued = 0;
    st->force_pipe = xb_tn_PT2PT_FORCE_PIPELINE.v.b;
    st->stats = c == 0 ? &xb_pt2pt_stats : &st->own_stats;
    st->table.stats = st->stats;
    return xb_progress_hook_add_chan(c, xb_pt2pt_retry, &st->nqueued);
}

int xb_pt2pt_init(void)
{
    int rc = xb_progress_init();
    if (rc != XB_OK)
        return rc;
    for (int c = 0; c <= xb_mt_nlanes && rc == XB_OK; c++)
        rc = chan_init(c, xb_rt()->size);
    if (rc != XB_OK)
        return rc;
    xb_peer_on_grow(peers_grow);
    xb_pt2pt_register_handlers();
    return XB_OK;
}

uint64_t xb_pt2pt_queue_len(unsigned chan, uint32_t ctx, bool unexp)
{
    return xb_match_queue_len(&xb_pt2pt_st(chan)->table, ctx, unexp);
}

const xb_pt2pt_stats_t *xb_pt2pt_chan_stats(unsigned chan)
{
    return chan == 0 ? &xb_pt2pt_stats : &xb_pt2pt_st(chan)->own_stats;
}

static void chan_fini(xb_pt2pt_state_t *st)
{
    xb_match_table_fini(&st->table, drop_unexp);
    xb_pt2pt_unexp_cache_fini(st);
    for (int i = 0; i < st->npeers; i++) {
        xb_pt2pt_ctl_t *c = st->peers[i].ctl_head;
        while (c != NULL) {
            xb_pt2pt_ctl_t *n = c->next;
            free(c);
            c = n;
        }
    }
    free(st->peers);
    st->peers = NULL;
    st->npeers = 0;
}

void xb_pt2pt_fini(void)
{
    xb_pt2pt_bsend_fini();
    for (int c = 0; c <= xb_mt_nlanes; c++)
        chan_fini(xb_pt2pt_st((unsigned)c));
    xb_progress_fini();
    xb_request_pool_fini();
}

static void op_init(xb_request_t *r, const void *buf, MPI_Count count, xb_datatype_t *dt,
                    int peer, int tag, xb_comm_t *comm, int coll)
{
    r->buf = (void *)buf;
    r->count = count;
    r->dt = dt;
    xb_dt_retain(dt);
    r->comm = comm;
    xb_comm_retain(comm);
    r->peer = peer;
    r->tag = tag;
    r->ctx = comm->ctx + (coll ? 1u : 0u);
    /* r->chan: set by xb_request_alloc_chan (coll ? 0 : comm->chan: the
     * collective traffic of a lane communicator travels on the main one) */
}

xb_request_t *xb_pt2pt_op_new(xb_req_kind_t kind, const void *buf, MPI_Count count,
                            xb_datatype_t *dt, int peer, int tag, xb_comm_t *comm,
                            int coll)
{
    xb_request_t *r = xb_request_alloc_chan(kind, coll ? 0 : comm->chan);
    if (r != NULL)
        op_init(r, buf, count, dt, peer, tag, comm, coll);
    return r;
}

/* A standard-mode send whose message the method took whole at once
 * (xb_pt2pt_send_eager_now): its request is born complete. It holds no
 * reference to the datatype or the communicator: nothing reads them once a
 * send is done (cancel finds nothing to cancel, Wait reports the status).
 * 64-message windows of 1-byte Isends (bench/bw.c): 875 instructions a
 * message with the general path (request set up, protocol choice, event
 * bookkeeping), 734 with this one (callgrind, sender side, 2026-11-24). */
static void send_done(xb_request_t *r, int dest, int tag, size_t bytes)
{
    r->peer = dest;
    r->tag = tag;
    xb_request_set_active(r, 1);
    r->proto = XB_PROTO_EAGER;
    r->phase = XB_PH_DONE;
    r->bytes = bytes;
    r->status.source = MPI_ANY_SOURCE;
    r->status.count = (MPI_Count)bytes;
    atomic_store_explicit(&r->done, 1, memory_order_release);
}

int xb_pt2pt_isend_mode(const void *buf, MPI_Count count, xb_datatype_t *dt,
                        int dest, int tag, xb_comm_t *comm, int coll, int mode,
                        xb_request_t **req_p)
{
    xb_request_t *r = xb_request_alloc_chan(XB_REQ_SEND, coll ? 0 : comm->chan);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    int rc;
    if (mode == XB_MODE_STANDARD &&
        (rc = xb_pt2pt_send_eager_now(buf, count, dt, dest, tag, comm, coll)) != XB_ERR_AGAIN) {
        if (rc < 0) {
            xb_request_free(r);
            return rc;
        }
        send_done(r, dest, tag, (size_t)(count * xb_dt_size(dt)));
        *req_p = r;
        return XB_OK;
    }
    op_init(r, buf, count, dt, dest, tag, comm, coll);
    r->mode = (uint8_t)mode;
    rc = xb_pt2pt_start(r);
    if (rc < 0) {
        xb_request_free(r);
        return rc;
    }
    *req_p = r;
    return XB_OK;
}

int xb_pt2pt_isend(const void *buf, MPI_Count count, xb_datatype_t *dt, int dest,
                   int tag, xb_comm_t *comm, int coll, xb_request_t **req_p)
{
    return xb_pt2pt_isend_mode(buf, count, dt, dest, tag, comm, coll,
                               XB_MODE_STANDARD, req_p);
}

/* A started receive with these request flags (set before it can match). */
static int irecv_flags(void *buf, MPI_Count count, xb_datatype_t *dt, int source, int tag,
                       xb_comm_t *comm, int coll, uint32_t flags, xb_request_t **req_p)
{
    xb_request_t *r = xb_pt2pt_op_new(XB_REQ_RECV, buf, count, dt, source, tag, comm, coll);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    r->flags |= flags;
    int rc = xb_pt2pt_start(r);
    if (rc < 0) {
        xb_request_free(r);
        return rc;
    }
    *req_p = r;
    return XB_OK;
}

int xb_pt2pt_irecv(void *buf, MPI_Count count, xb_datatype_t *dt, int source,
                   int tag, xb_comm_t *comm, int coll, xb_request_t **req_p)
{
    return irecv_flags(buf, count, dt, source, tag, comm, coll, 0, req_p);
}

int xb_pt2pt_start(xb_request_t *r)
{
    atomic_store_explicit(&r->done, 0, memory_order_relaxed);
    xb_request_set_active(r, 1);
    r->phase = XB_PH_INIT;
    r->xfer = 0;
    r->pending = 0;
    r->status.error = MPI_SUCCESS;
    r->status.cancelled = false;
    r->status.count = 0;
    r->flags &= ~XB_REQ_F_CANCEL;
    if (r->kind == XB_REQ_RECV || r->kind == XB_REQ_PRECV)
        return xb_pt2pt_recv_start(r);
    if (r->mode == XB_MODE_BUFFERED)
        return xb_pt2pt_bsend_start(r);
    return xb_pt2pt_send_start(r);
}

int xb_pt2pt_send(const void *buf, MPI_Count count, xb_datatype_t *dt, int dest,
                  int tag, xb_comm_t *comm, int coll)
{
    xb_request_t *r;
    int rc = xb_pt2pt_send_eager_now(buf, count, dt, dest, tag, comm, coll);
    if (rc != XB_ERR_AGAIN)
        return rc;
    rc = xb_pt2pt_isend(buf, count, dt, dest, tag, comm, coll, &r);
    if (rc != XB_OK)
        return rc;
    r->fn = "MPI_Send";
    rc = xb_progress_wait(xb_progress_default(), r);
    xb_request_free(r);
    return rc;
}

static inline int recv_blocking(void *buf, MPI_Count count, xb_datatype_t *dt, int source,
                                int tag, xb_comm_t *comm, int coll, MPI_Status *st,
                                size_t *len)
{
    xb_request_t *r;
    /* its match ends the poll's batch, and its get is not deferred (recv.c) */
    int rc = irecv_flags(buf, count, dt, source, tag, comm, coll, XB_REQ_F_WAITED, &r);
    if (rc != XB_OK)
        return rc;
    r->fn = "MPI_Recv";
    rc = xb_progress_wait(xb_progress_default(), r);
    xb_status_to_mpi(&r->status, st, false);            /* MPI_ERROR: the caller's */
    if (len != NULL)          /* the sender's bytes, also when truncated */
        *len = r->status.error == MPI_ERR_TRUNCATE ? r->bytes : (size_t)r->status.count;
    xb_request_free(r);
    return rc;
}

int xb_pt2pt_recv(void *buf, MPI_Count count, xb_datatype_t *dt, int source,
                  int tag, xb_comm_t *comm, int coll, MPI_Status *st)
{
    return recv_blocking(buf, count, dt, source, tag, comm, coll, st, NULL);
}

int xb_pt2pt_recv_len(void *buf, MPI_Count count, xb_datatype_t *dt, int source,
                      int tag, xb_comm_t *comm, int coll, MPI_Status *st, size_t *len)
{
    return recv_blocking(buf, count, dt, source, tag, comm, coll, st, len);
}
