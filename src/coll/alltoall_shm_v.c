/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_shm_v.c - alltoallv and alltoallw through the node's slots
 * (node_shm.c), run directly (blocking form, node-complete communicators):
 * the `shm` algorithms of the v and w forms.
 *
 * A rank knows the sizes of its own blocks only (what it sends to each
 * rank, what it expects from each), so each writer places its blocks and
 * describes them (vblock.h): its slot starts with p descriptors, one per
 * reader, followed by the blocks of at most XB_A2AV_INLINE bytes packed
 * one after another as long as they fit; a larger block, or one past the
 * slot's end, goes as a message, sent (nonblocking) before the barrier,
 * and the receives of the blocks a rank expects beyond 16 KiB are posted
 * before it too (the data moves while the ranks meet). Then one node
 * barrier, and every rank reads block `me` of every other slot, or
 * completes its message, as the descriptor says (a pre-posted receive
 * whose block came inline, counts that differ, is cancelled). Its own
 * block is a local copy.
 *
 * Why messages for large blocks: a block through a slot is copied twice
 * (in and out), a message once (a single-copy get), and from 16 KiB the
 * alltoall of fixed blocks is faster by messages too (coll_select.c).
 *
 * MPI_IN_PLACE: the slot holds copies, so the receive buffer may be
 * overwritten after the barrier; a block that goes as a message is packed
 * into a buffer of its own first (its reply lands where it was).
 *
 * Slots are reused by parity, and every call takes a parity and passes the
 * barrier on every rank (even after an error), as the other node
 * collectives do.
 */
#include <stdlib.h>
#include "coll/vblock.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt.h"

enum { XB_A2AV_INLINE = 16 * 1024 };

typedef struct {
    xb_request_t *req;
    void         *packed;     /* in place: the block's bytes, sent from here */
} send_t;

/* Post the message of block b to rank j (in place: from a packed copy). */
static int send_block(const xb_coll_args_t *a, xb_a2a_blk_t b, int j, int tag, bool in_place,
                      send_t *s)
{
    s->req = NULL;
    s->packed = NULL;
    if (in_place) {
        MPI_Count bytes = b.n * xb_dt_size(b.dt);
        xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
        if ((s->packed = malloc((size_t)bytes)) == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "out of memory for a %lld-byte alltoall block",
                              (long long)bytes);
        int rc = xb_dt_copy(b.buf, b.n, b.dt, s->packed, bytes, byte);
        b = (xb_a2a_blk_t){ s->packed, bytes, byte };
        if (rc != XB_OK)
            return rc;
    }
    return xb_pt2pt_isend(b.buf, b.n, b.dt, j, tag, a->comm, 1, &s->req);
}

/* The end of a receive posted before the barrier: its message against
 * the buffer (a longer or shorter one: the counts differ). */
static int recv_end(xb_request_t *q, xb_coll_kind_t kind, int from)
{
    (void)xb_progress_wait(xb_progress_default(), q);
    MPI_Count want = q->count * xb_dt_size(q->dt);
    int err = q->status.error, rc = XB_OK;
    if (err == MPI_ERR_TRUNCATE || err == MPI_ERR_TYPE ||
        (err == MPI_SUCCESS && q->status.count != want))
        rc = xb_coll_mismatch((int)kind, -1, from,
                              err == MPI_ERR_TRUNCATE ? q->bytes : (size_t)q->status.count, want,
                              q->count, q->dt);
    else if (err != MPI_SUCCESS)
        rc = xb_request_status_rc(q);
    xb_request_free(q);
    return rc;
}

/* A receive posted before the barrier for a block that came another way
 * (its writer's count differs: xb_vb_read reports it). */
static void recv_drop(xb_request_t *q)
{
    xb_pt2pt_cancel(q);
    (void)xb_progress_wait(xb_progress_default(), q);
    xb_request_free(q);
}

static int alltoall_v(const xb_coll_args_t *a, xb_a2a_form_t form, int tag)
{
    xb_coll_kind_t kind = form == XB_A2AW ? XB_COLL_ALLTOALLW : XB_COLL_ALLTOALLV;
    int p = a->comm->size, me = a->comm->rank, par = xb_coll_node_parity(), rc = XB_OK;
    bool in_place = a->sbuf == MPI_IN_PLACE;
    uint64_t *descs = xb_coll_node_slot(a->comm, par, me);
    size_t used = (size_t)p * sizeof *descs, room = xb_coll_node_slot_size();
    send_t *sends = NULL;
    xb_request_t **rreq = NULL;
    int nsend = 0;
    if (used > room)
        room = used;              /* no room for data: every block a message */
    for (int k = 1; k < p; k++) {
        int j = (me + k) % p, r = XB_OK;
        xb_a2a_blk_t b = in_place ? xb_a2a_rblk(a, form, j) : xb_a2a_sblk(a, form, j);
        descs[j] = xb_vb_inline(b, (char *)descs, &used, room, XB_A2AV_INLINE, &r);
        if (descs[j] == 0) {
            descs[j] = xb_vb_desc(XB_VB_MSG, b.n * xb_dt_size(b.dt), 0);
            if (sends == NULL && (sends = calloc((size_t)p, sizeof *sends)) == NULL)
                r = xb_err_set(XB_ERR_NO_MEM, "out of memory for %d send requests", p);
            else
                r = send_block(a, b, j, tag, in_place, &sends[nsend++]);
            if (r != XB_OK)
                descs[j] = XB_VB_FAILED;
        }
        rc = xb_vb_keep(rc, r);
    }
    /* the blocks this rank expects beyond the cut come as messages (unless
     * a count differs): their receives go before the barrier, so the data
     * moves while the ranks meet there (after the sends: in place, what
     * arrives overwrites a block sent from the receive buffer) */
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int i = (me - k + p) % p;
        xb_a2a_blk_t rb = xb_a2a_rblk(a, form, i);
        if (rb.n * xb_dt_size(rb.dt) <= XB_A2AV_INLINE)
            continue;
        if (rreq == NULL && (rreq = calloc((size_t)p, sizeof *rreq)) == NULL)
            rc = xb_err_set(XB_ERR_NO_MEM, "out of memory for %d receive requests", p);
        else
            rc = xb_pt2pt_irecv(rb.buf, rb.n, rb.dt, i, tag, a->comm, 1, &rreq[i]);
    }
    if (!in_place) {
        xb_a2a_blk_t sb = xb_a2a_sblk(a, form, me), rb = xb_a2a_rblk(a, form, me);
        rc = xb_vb_keep(rc, xb_dt_copy(sb.buf, sb.n, sb.dt, rb.buf, rb.n, rb.dt));
    }
    xb_coll_node_barrier_now(form == XB_A2AW ? "MPI_Alltoallw (the node barrier)"
                                             : "MPI_Alltoallv (the node barrier)");
    for (int k = 1; k < p; k++) {   /* every block, even after an error: no writer waits */
        int i = (me - k + p) % p;
        const uint64_t *theirs = xb_coll_node_slot(a->comm, par, i);
        uint64_t d = theirs[me];
        xb_request_t *q = rreq != NULL ? rreq[i] : NULL;
        if (q != NULL && xb_vb_how(d) == XB_VB_MSG) {
            rc = xb_vb_keep(rc, recv_end(q, kind, i));
            continue;
        }
        if (q != NULL)
            recv_drop(q);
        rc = xb_vb_keep(rc, xb_vb_read(a, kind, i, d, (const char *)theirs + xb_vb_where(d),
                                       xb_a2a_rblk(a, form, i), tag));
    }
    for (int i = 0; i < nsend; i++) {
        if (sends[i].req != NULL) {
            rc = xb_vb_keep(rc, xb_progress_wait(xb_progress_default(), sends[i].req));
            xb_request_free(sends[i].req);
        }
        free(sends[i].packed);
    }
    free(sends);
    free(rreq);
    return rc;
}

int xb_coll_alltoallv_shm(const xb_coll_args_t *a, int tag)
{
    return alltoall_v(a, XB_A2AV, tag);
}

int xb_coll_alltoallw_shm(const xb_coll_args_t *a, int tag)
{
    return alltoall_v(a, XB_A2AW, tag);
}
