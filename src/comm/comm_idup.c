/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_idup.c - MPI_Comm_idup and MPI_Comm_idup_with_info: a nonblocking
 * context-id agreement.
 *
 * A blocking agreement after an idup could pick the slot the idup is about
 * to pick (both see the same free mask). So the idup reserves: it takes
 * RESERVE free slots of this process out of the pool at once (the first
 * ones from a region every member derives alike, see reserve()),
 * and contributes exactly those to a nonblocking BAND allreduce (the
 * collectives' MPI_Iallreduce on the parent). Agreements started later
 * cannot choose a reserved slot, and the result (the lowest slot reserved
 * by every member) is one of them. When the allreduce completes (its
 * request's on_complete hook, before the user can see it done), the
 * communicator is made, the other reserved slots go back to the pool, and
 * *newcomm is written. Members whose reservations share no slot (very
 * different communicator histories) get MPI_ERR_OTHER in the request's
 * status.
 *
 * Attributes are copied (copy callbacks run) in the MPI_Comm_idup call,
 * as for MPI_Comm_dup; they are attached to the new communicator at
 * completion, which runs inside the progress of whatever call completes
 * the request, so no user callback runs there.
 *
 * Intercommunicators: every process reserves the same way; a schedule on
 * the intercommunicator (src/coll's schedule API, run by its progress
 * hook) ANDs the reservations of both sides: every process sends its own
 * to the remote leader (remote rank 0); each leader ANDs what it got (the
 * other side's) into its own and swaps that with the other leader, so
 * both leaders hold the AND over both sides; each leader sends it to the
 * other side's non-leaders. The lowest common slot becomes the
 * intercommunicator's context; its local communicator takes the shadow
 * context of that slot (XB_COMM_LOCAL_CTX), so one common slot is enough,
 * as for an intracommunicator.
 */
#include <stdlib.h>
#include <string.h>
#include "comm/comm_int.h"
#include "coll/coll_int.h"
#include "core/attr.h"
#include "core/errhandler.h"
#include "core/info.h"
#include "core/request.h"
#include "xb_impl.h"

enum { RESERVE = 512 };   /* slots an idup holds while it runs (of 16381) */

typedef struct idup {
    struct idup  *next;
    xb_request_t *req;
    xb_comm_t    *parent;
    MPI_Comm     *newcomm;
    xb_info_t    *info;         /* hints to set (a copy), or NULL           */
    bool          inherit;      /* no info given: copy the parent's hints   */
    xb_attr_t    *attrs;        /* copied at the call, attached at the end  */
    uint64_t      mine[XB_CTX_MASK_WORDS];   /* what this process reserved */
    uint64_t      mask[XB_CTX_MASK_WORDS];   /* reduced in place            */
} idup_t;

static idup_t *pending;

static void unreserve(const idup_t *d, uint32_t keep_slot)
{
    for (uint32_t s = 0; s < XB_CTX_SLOTS; s++)
        if ((d->mine[s / 64] >> (s % 64) & 1) && s != keep_slot)
            xb_ctx_put(2 * s);
}

/* The new communicator on context ctx; an intercommunicator's gets the
 * remote group and a local communicator on the shadow context. */
static xb_comm_t *make_comm(xb_comm_t *p, uint32_t ctx)
{
    xb_comm_t *c = xb_comm_new(p->group, ctx, p);
    if (c == NULL || !xb_comm_is_inter(p))
        return c;
    xb_comm_t *l = xb_comm_new(p->group, XB_COMM_LOCAL_CTX(ctx), NULL);
    if (l == NULL) {
        xb_comm_release(c);
        return NULL;
    }
    xb_group_retain(p->remote);
    c->remote = p->remote;
    c->local_comm = l;
    return c;
}

static int finish(idup_t *d)
{
    uint32_t slot = UINT32_MAX;
    for (int w = 0; w < XB_CTX_MASK_WORDS && slot == UINT32_MAX; w++)
        if (d->mask[w] != 0)
            slot = (uint32_t)(w * 64 + __builtin_ctzll(d->mask[w]));
    unreserve(d, slot);
    if (slot == UINT32_MAX)
        return xb_err_set(XB_ERR_OTHER, "MPI_Comm_idup: the members reserved no "
                          "common context id (%d each); use MPI_Comm_dup",
                          RESERVE);
    xb_comm_t *c = make_comm(d->parent, 2 * slot);
    if (c == NULL) {
        xb_ctx_put(2 * slot);
        return XB_ERR_NO_MEM;
    }
    c->attrs = d->attrs;
    d->attrs = NULL;
    int rc = xb_comm_finish(c, d->parent, false, true, d->info, d->inherit);
    if (rc == XB_OK)
        *d->newcomm = xb_comm_to_handle(c);
    return rc;
}

static void on_done(xb_request_t *r)
{
    idup_t **p = &pending;
    while (*p != NULL && (*p)->req != r)
        p = &(*p)->next;
    idup_t *d = *p;
    if (d == NULL)
        return;
    *p = d->next;
    r->on_complete = NULL;
    if (r->status.error == MPI_SUCCESS) {
        int rc = finish(d);                   /* unreserves in every case */
        if (rc != XB_OK) {
            r->status.error = xb_errcode_class_of_rc(rc);
            xb_err_clear();
        }
    } else
        unreserve(d, UINT32_MAX);             /* the allreduce itself failed */
    xb_attr_delete_all(XB_ATTR_COMM, &d->attrs, MPI_COMM_NULL);
    xb_info_destroy(d->info);
    free(d);
}

/* Where a process starts looking for the slots it reserves: a region that
 * depends only on how many nonblocking collectives the parent has started
 * (coll_nbseq: they are started in one order on every member), the same on
 * every member. Starting from the lowest free slot instead made the
 * reservations depend on which earlier idups had already completed here
 * (their unused slots go back to the pool at completion): a process whose
 * idup 1 had finished reserved idup 3's slots among idup 1's returned ones,
 * one whose idup 1 was still running reserved higher ones, and the two
 * shared no slot (mpi.comm.idup.4 failed 4 runs in 15 once collectives
 * got faster). Regions of REGION slots rotate, so the idups outstanding at
 * once on a communicator (up to XB_CTX_SLOTS / REGION of them) reserve in
 * disjoint places. */
enum { REGION = 2 * RESERVE };

static int reserve(idup_t *d, uint32_t seq)
{
    const uint64_t *free_mask = xb_ctx_mask();
    uint32_t start = (uint32_t)(((uint64_t)seq * REGION) % XB_CTX_SLOTS);
    int n = 0;
    for (uint32_t k = 0; k < XB_CTX_SLOTS && n < RESERVE; k++) {
        uint32_t s = (start + k) % XB_CTX_SLOTS;
        if (free_mask[s / 64] >> (s % 64) & 1) {
            d->mine[s / 64] |= UINT64_C(1) << (s % 64);
            n++;
        }
    }
    for (uint32_t s = 0; s < XB_CTX_SLOTS; s++)
        if (d->mine[s / 64] >> (s % 64) & 1)
            xb_ctx_take(2 * s);
    memcpy(d->mask, d->mine, sizeof(d->mask));
    return n > 0 ? XB_OK : xb_err_set(XB_ERR_OTHER, "no free context id left");
}

/* The steps of the two-sided AND (see the top of the file) into s. */
static int inter_steps(xb_coll_sched_t *s, idup_t *d, xb_comm_t *ic)
{
    enum { W = XB_CTX_MASK_WORDS };
    xb_datatype_t *u64 = xb_dt_from_handle(MPI_UINT64_T);
    int rn = ic->remote->size;
    int rc = xb_coll_sched_red(s, W, u64, xb_op_from_handle(MPI_BAND));
    if (rc == XB_OK)
        rc = xb_coll_sched_send(s, d->mine, W, u64, 0);
    if (rc != XB_OK || ic->rank != 0)
        return rc == XB_OK ? xb_coll_sched_recv(s, d->mask, W, u64, 0) : rc;
    uint64_t *in = xb_coll_sched_tmp(s, (MPI_Count)W * (rn + 1), u64);
    if (in == NULL)
        return XB_ERR_NO_MEM;
    for (int r = 0; r < rn && rc == XB_OK; r++)
        rc = xb_coll_sched_recv(s, in + (size_t)r * W, W, u64, r);
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    for (int r = 0; r < rn && rc == XB_OK; r++)
        rc = xb_coll_sched_reduce(s, in + (size_t)r * W, d->mask, W);
    /* mask = mine AND the other side's; swap with the other leader */
    uint64_t *theirs = in + (size_t)rn * W;
    if (rc == XB_OK)
        rc = xb_coll_sched_send(s, d->mask, W, u64, 0);
    if (rc == XB_OK)
        rc = xb_coll_sched_recv(s, theirs, W, u64, 0);
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    if (rc == XB_OK)
        rc = xb_coll_sched_reduce(s, theirs, d->mask, W);
    for (int r = 1; r < rn && rc == XB_OK; r++)
        rc = xb_coll_sched_send(s, d->mask, W, u64, r);
    return rc;
}

/* Post the two-sided AND of the reservations on intercommunicator ic. */
static int inter_and(idup_t *d, xb_comm_t *ic, MPI_Request *h)
{
    xb_coll_sched_t *s = malloc(sizeof(*s));
    if (s == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for MPI_Comm_idup");
    xb_coll_sched_init(s, ic, XB_COLL_ALLREDUCE);
    s->heap = true;
    s->fn = "MPI_Comm_idup";
    int rc = inter_steps(s, d, ic);
    if (rc != XB_OK) {
        xb_coll_sched_destroy(s);
        return rc;
    }
    return xb_coll_sched_post(s, false, h);
}

static int idup_common(xb_comm_t *comm, xb_info_t *info, bool inherit,
                       MPI_Comm *newcomm, MPI_Request *request)
{
    idup_t *d = calloc(1, sizeof(*d));
    if (d == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for MPI_Comm_idup");
    d->parent = comm;
    d->newcomm = newcomm;
    d->inherit = inherit;
    int rc = info != NULL ? xb_info_copy(info, &d->info) : XB_OK;
    if (rc == XB_OK)
        rc = xb_attr_copy_all(XB_ATTR_COMM, comm->attrs, comm->handle, &d->attrs,
                              MPI_COMM_NULL);
    if (rc == XB_OK)
        rc = reserve(d, comm->coll_nbseq);
    MPI_Request h = MPI_REQUEST_NULL;
    if (rc == XB_OK && xb_comm_is_inter(comm))
        rc = inter_and(d, comm, &h);
    else if (rc == XB_OK)
        rc = xb_impl_iallreduce(MPI_IN_PLACE, d->mask, XB_CTX_MASK_WORDS,
                                xb_dt_from_handle(MPI_UINT64_T),
                                xb_op_from_handle(MPI_BAND), comm, &h);
    if (rc != XB_OK) {
        unreserve(d, UINT32_MAX);
        xb_attr_delete_all(XB_ATTR_COMM, &d->attrs, MPI_COMM_NULL);
        xb_info_destroy(d->info);
        free(d);
        return rc;
    }
    xb_request_t *r = xb_request_from_handle(h);
    r->fn = "MPI_Comm_idup";
    d->req = r;
    d->next = pending;
    pending = d;
    if (xb_request_is_done(r))
        on_done(r);                 /* completed inside the call */
    else
        r->on_complete = on_done;
    *request = h;
    return XB_OK;
}

int xb_impl_comm_idup(xb_comm_t *comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup_common(comm, NULL, true, newcomm, request);
}

int xb_impl_comm_idup_with_info(xb_comm_t *comm, xb_info_t *info,
                                MPI_Comm *newcomm, MPI_Request *request)
{
    xb_info_t empty = { .magic = XB_MAGIC_INFO };
    return idup_common(comm, info != NULL ? info : &empty, false, newcomm, request);
}
