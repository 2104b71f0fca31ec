/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * isendrecv.c - MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.0): one
 * user request (kind XB_REQ_PAIR) for a receive and a send posted together.
 *
 * Design. The pair request owns two ordinary internal requests, the
 * receive (posted first, as MPI_Sendrecv does) and the send. Each is
 * detached (XB_REQ_F_AUTOFREE) with an on_complete hook that, under the
 * progress lock, copies what the pair needs (the receive's status and
 * received size; a failed send's error class) and counts down `pending`;
 * the last one completes the pair with xb_request_complete. So the pair is
 * complete exactly when both parts are, its status is the receive's, and
 * MPI_Wait/Test/Waitall/... and MPI_Request_get_status need nothing
 * special: they only look at the pair's done flag and status. A part that
 * completes while it is being posted (MPI_PROC_NULL, a send to self) is
 * counted at once. The slots of the parts are cleared when they complete,
 * so the pair never touches a request that went back to the pool.
 *
 * Status and errors: the receive's status (source, tag, count, cancelled,
 * MPI_ERR_TRUNCATE); a send error is reported when the receive succeeded.
 *
 * Cancel (MPI_Cancel on the pair): forwarded to both parts that are still
 * pending (each is cancelled as pt2pt/cancel.c can: a receive not yet
 * matched, a send not yet matched). MPI_Test_cancelled on the pair's status
 * reports whether the receive was cancelled; a send that could not be
 * cancelled still completes normally (its receiver must receive it).
 *
 * MPI_Isendrecv_replace sends from a packed copy of the buffer, made when
 * the call is posted and freed with the pair, and receives into the buffer.
 */
#include <stdlib.h>
#include "pt2pt/proto.h"
#include "xb_impl.h"

typedef struct pair {
    xb_request_t *part[2];   /* [0] receive, [1] send; NULL once complete  */
    void         *copy;      /* Isendrecv_replace: the packed send data    */
} pair_t;

static void destroy(xb_request_t *r)
{
    pair_t *p = r->extra;
    r->extra = NULL;
    if (p == NULL)
        return;
    free(p->copy);
    free(p);
}

static const xb_req_ops_t pair_ops = { NULL, destroy, NULL };

/* A part is complete (its status is final): account for it in the pair. */
static void part_done(xb_request_t *part)
{
    xb_request_t *r = part->extra;
    pair_t *p = r->extra;
    if (part->kind == XB_REQ_RECV) {
        int err = r->status.error;           /* a send error recorded first */
        r->status = part->status;
        r->bytes = part->bytes;
        if (r->status.error == MPI_SUCCESS)
            r->status.error = err;
        p->part[0] = NULL;
    } else {
        if (part->status.error != MPI_SUCCESS && r->status.error == MPI_SUCCESS)
            r->status.error = part->status.error;
        p->part[1] = NULL;
    }
    if (--r->pending == 0)
        xb_request_complete(r);
}

/* Hand a freshly posted part to the pair: counted now if already complete,
 * else detached with the hook. */
static void attach(xb_request_t *r, pair_t *p, int slot, xb_request_t *part)
{
    part->fn = r->fn;
    part->extra = r;
    r->pending++;
    if (xb_request_is_done(part)) {
        part_done(part);
        xb_request_free(part);
        return;
    }
    p->part[slot] = part;
    part->on_complete = part_done;
    part->flags |= XB_REQ_F_AUTOFREE;
}

static int post(const void *sendbuf, MPI_Count sendcount, xb_datatype_t *sendtype, int dest,
                int sendtag, void *recvbuf, MPI_Count recvcount, xb_datatype_t *recvtype,
                int source, int recvtag, xb_comm_t *comm, void *copy, const char *fn,
                MPI_Request *request)
{
    pair_t *p = calloc(1, sizeof *p);
    xb_request_t *r = p != NULL ? xb_request_alloc_chan(XB_REQ_PAIR, comm->chan) : NULL;
    if (r == NULL) {
        free(p);
        free(copy);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a send-receive request");
    }
    p->copy = copy;
    r->extra = p;
    r->ops = &pair_ops;
    r->comm = comm;
    xb_comm_retain(comm);            /* dropped by xb_request_free */
    r->fn = fn;
    r->status.error = MPI_SUCCESS;
    r->pending = 1;                  /* held until both parts are posted */
    xb_request_t *rr, *sr;
    int rc = xb_pt2pt_irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, 0, &rr);
    if (rc != XB_OK)
        goto err_free;
    rr->fn = fn;
    rc = xb_pt2pt_isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, 0, &sr);
    if (rc != XB_OK) {
        xb_pt2pt_cancel(rr);
        xb_progress_wait(xb_progress_default(), rr);
        xb_request_free(rr);
        goto err_free;
    }
    attach(r, p, 0, rr);
    attach(r, p, 1, sr);
    if (--r->pending == 0)
        xb_request_complete(r);
    *request = xb_request_to_handle(r);
    return XB_OK;
err_free:
    xb_request_free(r);              /* destroy() frees p and the copy */
    return rc;
}

int xb_impl_isendrecv(const void *sendbuf, MPI_Count sendcount, xb_datatype_t *sendtype,
                      int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                      xb_datatype_t *recvtype, int source, int recvtag, xb_comm_t *comm,
                      MPI_Request *request)
{
    return post(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                source, recvtag, comm, NULL, "MPI_Isendrecv", request);
}

int xb_impl_isendrecv_replace(void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                              int sendtag, int source, int recvtag, xb_comm_t *comm,
                              MPI_Request *request)
{
    void *tmp;
    size_t bytes;
    int rc = xb_pt2pt_packed_copy(buf, count, datatype, &tmp, &bytes);
    if (rc != XB_OK)
        return rc;
    return post(tmp, (MPI_Count)bytes, xb_dt_from_handle(MPI_BYTE), dest, sendtag, buf, count,
                datatype, source, recvtag, comm, tmp, "MPI_Isendrecv_replace", request);
}

int xb_pt2pt_pair_cancel(xb_request_t *r)
{
    pair_t *p = r->extra;
    int rc = XB_OK;
    for (int i = 0; i < 2; i++) {    /* a slot is NULL once its part completed */
        if (p->part[i] != NULL) {
            int prc = xb_pt2pt_cancel(p->part[i]);
            if (rc == XB_OK)
                rc = prc;
        }
    }
    return rc;
}
