/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_idup.c - MPI_Comm_idup and MPI_Comm_idup_with_info: a nonblocking
 * context-id agreement.
 *
 * A blocking agreement after an idup could pick the slot the idup is about
 * to pick (both see the same free mask). So the idup reserves: it takes
 * free slots of this process out of the pool (see reserve()) and
 * contributes exactly those to a BAND allreduce over the parent, a
 * persistent collective of src/coll started at once. Agreements started
 * later cannot choose a reserved slot, and the result (the lowest slot
 * reserved by every member) is one of them.
 *
 * Rounds. The members' reservations may share no slot when their histories
 * differ (some members hold communicators the others are not in, so their
 * first free slots differ). Every member sees the same empty AND, so all
 * start another round together: each reserves more (the free slots of a
 * window twice as wide as the last one, keeping what it has) and restarts
 * the same persistent allreduce (same tag: the rounds' messages match in
 * order). Rounds run inside progress, from the completion hook of the
 * allreduce.
 *
 * Idups of different parents outstanding at once on a process share its
 * free slots: each reserves what the others left, in the order their
 * rounds run here. Two members that run them in opposite orders (the
 * MPICH test suite's comm_idup_overlap and idup_with_info: rank 0 idups A
 * then B, rank 1 B then A) give them disjoint reservations, and every
 * round repeats that. Two things keep this from failing:
 *  - spread: the region an idup starts from depends on the parent's
 *    context id as well (a hash of it), so idups of different parents
 *    reserve in different regions and do not meet in the common case;
 *  - precedence: from the last round on (the window is the whole pool) an
 *    idup yields to those in the same state with a lower key (parent's
 *    context id, then its sequence number: the same on every member, and
 *    no two idups outstanding on one process share it). One that does not
 *    have precedence here gives its slots back and runs its next rounds
 *    with an empty reservation until the one before it ends; the lowest
 *    key of all has precedence on every member, takes the free slots and
 *    ends, and so on. A member that has precedence and holds every free
 *    slot says so in an extra word of the reduction (FULL); when that
 *    holds on every member and no slot is common, the idup fails (with
 *    MPI_ERR_OTHER in the status): no slot is free on every member.
 *    The yielding idup keeps taking part: precedence is decided on each
 *    process, at different times, so an idup may yield on one member while
 *    another, where the lower key was not yet in its last round, holds its
 *    slots in a round in flight. When the yielding member stopped its
 *    rounds instead (parked them), that round never ended and its slots
 *    never came back; with three parents the waits closed a cycle (MPICH's
 *    threads/comm/idup_nb hung: A's round held on rank 3 the slots C
 *    needed, A parked on rank 0 behind B, B parked on rank 2 behind C).
 *    Only an idup of one process (nobody waits for its rounds) is parked.
 *
 * The user's request is a request of its own (XB_REQ_COLL), completed when
 * the last round has decided: the communicator is made, the reserved
 * slots other than the one taken go back to the pool, *newcomm is written.
 * MPI_Request_free on it lets the agreement finish anyway.
 *
 * Attributes are copied (copy callbacks run) in the MPI_Comm_idup call,
 * as for MPI_Comm_dup; they are attached to the new communicator at
 * completion, which runs inside the progress of whatever call completes
 * the request, so no user callback runs there. The parent is retained
 * until then (it may be freed meanwhile).
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
 * as for an intracommunicator. The schedule is persistent too, so rounds
 * work the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "comm/comm_int.h"
#include "coll/coll_args.h"
#include "coll/coll_int.h"
#include "core/attr.h"
#include "core/errhandler.h"
#include "core/info.h"
#include "core/request.h"
#include "runtime/tunable.h"
#include "xb_impl.h"

/* Round 0 reserves the first RESERVE free slots from the start of a
 * region; round k >= 1 adds the free slots of the REGION << k positions
 * from that start, so round LAST_ROUND covers the whole pool. */
enum { RESERVE = 64, REGION = 2 * RESERVE };
enum { LAST_ROUND = 7 };
/* The word after the slots in mine/mask: FULL (see the top of the file). */
enum { FLAG_WORD = XB_CTX_MASK_WORDS, MASK_WORDS = XB_CTX_MASK_WORDS + 1 };
#define FULL UINT64_C(1)
/* The pool's regions: a parent's first region is its slot hashed to one of
 * them (see parent_region). */
enum { REGION_BITS = 7 };

XB_TUNABLE(COMM_IDUP_SPREAD, XB_TT_BOOL, "yes", XB_TL_DEV,
           "MPI_Comm_idup: start the reservations of different parents in "
           "different regions of the context-id pool (no: the same region, "
           "which tests the rounds and the precedence order)");
_Static_assert((REGION << REGION_BITS) == XB_CTX_SLOTS, "REGION_BITS");
_Static_assert((REGION << LAST_ROUND) >= XB_CTX_SLOTS &&
               (REGION << (LAST_ROUND - 1)) < XB_CTX_SLOTS,
               "the last round's window is the whole pool");

typedef struct idup {
    struct idup  *next;
    xb_request_t *req;          /* the user's, or NULL once freed by them  */
    xb_request_t *agree;        /* the persistent allreduce (or schedule)  */
    xb_comm_t    *parent;       /* retained                                 */
    MPI_Comm     *newcomm;
    xb_info_t    *info;         /* hints to set (a copy), or NULL           */
    bool          inherit;      /* no info given: copy the parent's hints   */
    xb_attr_t    *attrs;        /* copied at the call, attached at the end  */
    uint32_t      start;        /* first slot of this idup's region         */
    int           round;
    bool          parked;       /* yielded (last round), not restarted      */
    bool          alone;        /* the parent has one process               */
    uint64_t      key;          /* parent's context id, sequence number     */
    uint64_t      mine[MASK_WORDS];   /* what this process reserved, FULL   */
    uint64_t      mask[MASK_WORDS];   /* reduced in place                   */
} idup_t;

static idup_t *pending;
static uint64_t released;       /* bumped when an idup gives slots back */

static bool is_mine(const idup_t *d, uint32_t s)
{
    return d->mine[s / 64] >> (s % 64) & 1;
}

static void unreserve(idup_t *d, uint32_t keep_slot)
{
    bool any = false;
    for (uint32_t s = 0; s < XB_CTX_SLOTS; s++)
        if (is_mine(d, s) && s != keep_slot) {
            xb_ctx_put(2 * s);
            any = true;
        }
    memset(d->mine, 0, sizeof(d->mine));
    released += any;
}

bool xb_comm_idup_holds(void)
{
    for (const idup_t *e = pending; e != NULL; e = e->next)
        for (int w = 0; w < XB_CTX_MASK_WORDS; w++)
            if (e->mine[w] != 0)
                return true;
    return false;
}

bool xb_comm_idup_pending(void)
{
    return pending != NULL;
}

uint64_t xb_comm_idup_released(void)
{
    return released;
}

/* Another idup outstanding here holds slots. */
static bool others_hold(const idup_t *d)
{
    for (const idup_t *e = pending; e != NULL; e = e->next)
        for (int w = 0; e != d && w < XB_CTX_MASK_WORDS; w++)
            if (e->mine[w] != 0)
                return true;
    return false;
}

/* No other idup in the last round with a lower key is outstanding here. */
static bool has_precedence(const idup_t *d)
{
    for (const idup_t *e = pending; e != NULL; e = e->next)
        if (e != d && e->round == LAST_ROUND && e->key < d->key)
            return false;
    return true;
}

/* In the last round without precedence here: d runs its rounds with an
 * empty reservation, so that they end on every member (see the top of the
 * file). Alone it is parked instead: nobody waits for its rounds. */
static bool yields(const idup_t *d)
{
    return d->round == LAST_ROUND && !has_precedence(d);
}

/* Reserve free slot s (free in the pool: not reserved or used already). */
static int take_if_free(idup_t *d, uint32_t s)
{
    const uint64_t *free_mask = xb_ctx_mask();
    if (!(free_mask[s / 64] >> (s % 64) & 1))
        return 0;
    d->mine[s / 64] |= UINT64_C(1) << (s % 64);
    xb_ctx_take(2 * s);
    return 1;
}

/* The region where the idups of the parent on slot `slot` start (spread):
 * a multiplicative (Fibonacci) hash of the slot, whose top bits change
 * with every bit of it. The first spread, slot x 37 regions, gave region 0
 * to every slot that is a multiple of 128; an idup most often ends on the
 * first slot of a region, so parents made by idup all started there
 * (MPICH's threads/comm/idup_nb: three threads' parents reserved in one
 * region and met in the last round). */
static uint32_t parent_region(uint32_t slot)
{
    return (uint32_t)(slot * UINT32_C(0x9E3779B1)) >> (32 - REGION_BITS);
}

/* Where a process starts looking for the slots it reserves: a region that
 * depends only on how many nonblocking collectives the parent has started
 * (coll_nbseq: they are started in one order on every member), the same on
 * every member. Starting from the lowest free slot instead made the
 * reservations depend on which earlier idups had already completed here
 * (their unused slots go back to the pool at completion): a process whose
 * idup 1 had finished reserved idup 3's slots among idup 1's returned ones,
 * one whose idup 1 was still running reserved higher ones, and the two
 * shared no slot (mpi.comm.idup.4 failed 4 runs in 15 once collectives got
 * faster). Regions rotate, so the idups outstanding at once on a
 * communicator reserve in different places. Rounds after the first (see
 * the top of the file) take every free slot of a wider window. */
static void reserve(idup_t *d)
{
    if (yields(d)) {                    /* takes part with nothing (above) */
        d->mine[FLAG_WORD] = 0;
        memcpy(d->mask, d->mine, sizeof(d->mask));
        return;
    }
    if (d->round == 0) {
        int n = 0;
        for (uint32_t k = 0; k < XB_CTX_SLOTS && n < RESERVE; k++)
            n += take_if_free(d, (d->start + k) % XB_CTX_SLOTS);
    } else {
        uint32_t span = (uint32_t)REGION << d->round;
        for (uint32_t k = 0; k < span && k < XB_CTX_SLOTS; k++)
            take_if_free(d, (d->start + k) % XB_CTX_SLOTS);
    }
    /* Every free slot is mine (those of the others too: they give them back
     * when they park; and no round of a blocking agreement has some out:
     * ctxid.c). Alone, each round completes inside start(): waiting for the
     * others would never end, and the others' slots are not free. */
    bool full = d->round == LAST_ROUND && has_precedence(d) &&
                (d->alone || !others_hold(d)) && !xb_comm_agree_holds();
    d->mine[FLAG_WORD] = full ? FULL : 0;
    memcpy(d->mask, d->mine, sizeof(d->mask));
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

static uint32_t lowest_common(const idup_t *d)
{
    for (int w = 0; w < XB_CTX_MASK_WORDS; w++)        /* not FLAG_WORD */
        if (d->mask[w] != 0)
            return (uint32_t)(w * 64 + __builtin_ctzll(d->mask[w]));
    return UINT32_MAX;
}

/* Make the communicator on slot (reserved here); XB_OK or an error. */
static int make_result(idup_t *d, uint32_t slot)
{
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

static void unlink_pending(idup_t *d)
{
    for (idup_t **p = &pending; *p != NULL; p = &(*p)->next)
        if (*p == d) {
            *p = d->next;
            return;
        }
}

/* The end of an idup (called from the agreement's completion hook): the
 * user's request completes with rc; the agreement frees itself when its
 * completion returns (AUTOFREE); d goes. */
static void conclude(idup_t *d, int rc)
{
    unlink_pending(d);
    d->agree->on_complete = NULL;
    d->agree->flags |= XB_REQ_F_AUTOFREE;
    xb_request_t *r = d->req;
    if (r != NULL) {
        r->extra = NULL;
        xb_status_set_empty(&r->status);
        if (rc != XB_OK) {
            r->status.error = xb_errcode_class_of_rc(rc);
            *d->newcomm = MPI_COMM_NULL;          /* as a failed MPI_Comm_dup */
            xb_err_clear();
        }
        xb_request_complete(r);
    } else if (rc != XB_OK) {
        xb_err_clear();
    }
    xb_attr_delete_all(XB_ATTR_COMM, &d->attrs, MPI_COMM_NULL);
    xb_info_destroy(d->info);
    xb_comm_release(d->parent);
    free(d);
}

static void on_agreed(xb_request_t *a);

/* The next round of d's agreement, its hook off during start(): a round
 * that completes inside start() must not run the hook nested (its
 * conclusion would free the request under the outer completion), so *done
 * says the caller has to look at it. */
static int restart(idup_t *d, bool *done)
{
    xb_request_t *a = d->agree;
    reserve(d);
    a->on_complete = NULL;
    int rc = a->ops->start(a);
    a->on_complete = on_agreed;
    *done = rc == XB_OK && xb_request_is_done(a);
    if (*done && a->status.error != MPI_SUCCESS)
        rc = -a->status.error;
    return rc;
}

/* After a round of d: conclude, park, or run the next round (again while
 * rounds complete at once). True when d concluded (d is gone). */
static bool decide(idup_t *d)
{
    for (;;) {
        uint32_t slot = lowest_common(d);
        if (slot != UINT32_MAX || (d->mask[FLAG_WORD] & FULL)) {
            unreserve(d, slot);
            int rc = slot != UINT32_MAX ? make_result(d, slot)
                   : xb_err_set(XB_ERR_OTHER, "MPI_Comm_idup: no context id is free "
                                "on every member (%d communicators exist on some "
                                "member); free some first", XB_CTX_SLOTS);
            conclude(d, rc);
            return true;
        }
        if (d->round < LAST_ROUND)
            d->round++;                           /* every member does so */
        if (yields(d)) {
            unreserve(d, UINT32_MAX);             /* for the one before it */
            if (d->alone) {
                d->parked = true;
                return false;
            }
        }
        bool done;
        int rc = restart(d, &done);
        if (rc != XB_OK) {
            unreserve(d, UINT32_MAX);
            conclude(d, rc);
            return true;
        }
        if (!done)
            return false;                         /* the next round runs */
    }
}

/* Restart the parked idups that have precedence now (one before them
 * ended). Outside their completion, so one that concludes here is freed
 * here. */
static void unpark(void)
{
    idup_t *p = pending;
    while (p != NULL) {
        if (!p->parked || !has_precedence(p)) {
            p = p->next;
            continue;
        }
        p->parked = false;
        xb_request_t *a = p->agree;
        bool done, gone;
        int rc = restart(p, &done);
        if (rc != XB_OK) {
            unreserve(p, UINT32_MAX);
            conclude(p, rc);
            gone = true;
        } else {
            gone = done && decide(p);
        }
        if (gone)
            xb_request_free(a);
        p = pending;                              /* the list may have changed */
    }
}

static void on_agreed(xb_request_t *a)
{
    idup_t *d = pending;
    while (d != NULL && d->agree != a)
        d = d->next;
    if (d == NULL)
        return;
    if (a->status.error != MPI_SUCCESS) {        /* the allreduce failed */
        unreserve(d, UINT32_MAX);
        conclude(d, -a->status.error);
    } else {
        decide(d);
    }
    unpark();
}

/* The user's request freed (MPI_Wait, MPI_Request_free): the agreement
 * goes on; it only forgets the request. */
static void user_req_destroy(xb_request_t *r)
{
    idup_t *d = r->extra;
    if (d != NULL)
        d->req = NULL;
    r->extra = NULL;
}

/* The sentence of an idup that failed, for its wait (conclude() cleared
 * the detail: it runs inside progress). MPI_ERR_OTHER is decide()'s: no
 * common slot; a failed allreduce keeps its own class. */
static const char *user_req_errtext(const xb_request_t *r)
{
    static _Thread_local char text[200];
    if (r->status.error != MPI_ERR_OTHER)
        return NULL;
    snprintf(text, sizeof(text), "MPI_Comm_idup failed: no context id is free on every "
             "member of the parent communicator (%d communicators exist on some member); "
             "free some first", XB_CTX_SLOTS);
    return text;
}

static const xb_req_ops_t user_req_ops = { NULL, user_req_destroy, user_req_errtext };

/* The steps of the two-sided AND (see the top of the file) into s. */
static int inter_steps(xb_coll_sched_t *s, idup_t *d, xb_comm_t *ic)
{
    enum { W = MASK_WORDS };
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

/* The persistent two-sided AND of the reservations on intercommunicator ic. */
static int inter_and(idup_t *d, xb_comm_t *ic, MPI_Request *h)
{
    xb_coll_sched_t *s = malloc(sizeof(*s));
    if (s == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for MPI_Comm_idup");
    xb_coll_sched_init_form(s, ic, XB_COLL_ALLREDUCE, true);
    s->heap = true;
    s->fn = "MPI_Comm_idup";
    int rc = inter_steps(s, d, ic);
    if (rc != XB_OK) {
        xb_coll_sched_destroy(s);
        return rc;
    }
    return xb_coll_sched_post(s, true, h);
}

/* The persistent allreduce (BAND of d->mask in place) over comm. */
static int intra_and(idup_t *d, xb_comm_t *comm, MPI_Request *h)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, MPI_IN_PLACE, d->mask, MASK_WORDS,
                                 xb_dt_from_handle(MPI_UINT64_T),
                                 xb_op_from_handle(MPI_BAND), comm);
    a.unordered = true;               /* rounds restart from progress */
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLREDUCE, &a, XB_COLL_PERSISTENT,
                         "MPI_Comm_idup", h);
    return rc;
}

static void idup_destroy(idup_t *d)
{
    xb_attr_delete_all(XB_ATTR_COMM, &d->attrs, MPI_COMM_NULL);
    xb_info_destroy(d->info);
    free(d);
}

/* The user's request and the agreement, not started yet. */
static int idup_post(idup_t *d, xb_comm_t *comm)
{
    xb_request_t *r = xb_request_alloc(XB_REQ_COLL);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    MPI_Request h = MPI_REQUEST_NULL;
    int rc = xb_comm_is_inter(comm) ? inter_and(d, comm, &h) : intra_and(d, comm, &h);
    if (rc != XB_OK) {
        xb_request_free(r);
        return rc;
    }
    r->comm = comm;
    xb_comm_retain(comm);
    r->fn = "MPI_Comm_idup";
    r->ops = &user_req_ops;
    r->extra = d;
    d->req = r;
    d->agree = xb_request_from_handle(h);
    d->agree->flags |= XB_REQ_F_INTERNAL;
    d->agree->on_complete = on_agreed;
    return XB_OK;
}

static int idup_common(xb_comm_t *comm, xb_info_t *info, bool inherit,
                       MPI_Comm *newcomm, MPI_Request *request)
{
    idup_t *d = calloc(1, sizeof(*d));
    if (d == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for MPI_Comm_idup");
    d->newcomm = newcomm;
    d->inherit = inherit;
    d->alone = !xb_comm_is_inter(comm) && comm->size == 1;
    /* the region from the sequence number the agreement is about to take */
    d->start = (uint32_t)(((uint64_t)comm->coll_nbseq * REGION) % XB_CTX_SLOTS);
    if (xb_tn_COMM_IDUP_SPREAD.v.b)      /* by the parent too (top of the file) */
        d->start = (d->start + parent_region(comm->ctx / 2) * REGION) % XB_CTX_SLOTS;
    d->key = (uint64_t)comm->ctx << 32 | comm->coll_nbseq;
    int rc = info != NULL ? xb_info_copy(info, &d->info) : XB_OK;
    if (rc == XB_OK)
        rc = xb_attr_copy_all(XB_ATTR_COMM, comm->attrs, comm->handle, &d->attrs,
                              MPI_COMM_NULL);
    if (rc == XB_OK) {
        reserve(d);
        rc = idup_post(d, comm);
        if (rc != XB_OK)
            unreserve(d, UINT32_MAX);
    }
    if (rc != XB_OK) {
        idup_destroy(d);
        *newcomm = MPI_COMM_NULL;                 /* as a failed MPI_Comm_dup */
        return rc;
    }
    d->parent = comm;
    xb_comm_retain(comm);
    *request = xb_request_to_handle(d->req);
    d->next = pending;
    pending = d;
    rc = d->agree->ops->start(d->agree);     /* may complete at once: d goes */
    return rc;
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
