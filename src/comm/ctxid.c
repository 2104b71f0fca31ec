/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ctxid.c - context-id agreement. Every process keeps a mask of its free
 * context slots (src/core/comm.c: XB_CTX_SLOTS slots, slot s = contexts 2s
 * and 2s + 1). Creating a communicator ANDs the masks of every member and
 * takes the lowest slot free on all of them. Processes that will not be
 * members (split with MPI_UNDEFINED) contribute an all-ones mask, so they
 * restrict nothing.
 *
 * Because a process belongs to at most one communicator per context id,
 * disjoint communicators made by one split may share an id: their members
 * never talk to each other on it. Ids return to the pool when the last
 * reference goes (MPI_Comm_free, then the requests still using it).
 *
 * Three shapes (comm_int.h): over a parent (one allreduce on its collective
 * context); over a group alone (binomial reduce and broadcast on the
 * bootstrap communicator, addressed by world rank, separated by tag); over
 * two groups joined by leaders (each side reduces, the leaders swap and
 * AND, each side broadcasts).
 *
 * Threads (MPI_THREAD_MULTIPLE). Agreements on different communicators may
 * run at once in one process (their allreduces release the lock while they
 * wait), and two of them must not both take the slot they saw free. The mask
 * is owned by one agreement at a time: an agreement that does not own it
 * contributes an empty mask, and one more word of the reduction says
 * whether every contributor owned its mask; if not, nothing is taken and all
 * members try again. Ownership goes to the agreement with the lowest key
 * (the parent's context id) among those in progress in the process, so the
 * lowest one in the whole job eventually owns the mask in every member and
 * succeeds: no livelock. Below MULTIPLE the first round always owns.
 *
 * An agreement among this process alone (a communicator or group of one)
 * runs no round: it takes the lowest slot that is free and not offered by
 * the round that owns the mask (`lent`). Waiting for ownership instead, it
 * could wait for a round that waits on it: in MPICH's test suite
 * (threads/comm/comm_dup_deadlock) a thread holds a user lock across
 * MPI_Comm_dup(MPI_COMM_SELF) on each rank while the other thread's round
 * needs its peer's locked thread. So that such agreements find a slot, the
 * owner holds back the RESERVE highest free slots; if the round then finds
 * no common slot, it runs again offering everything (word W_WHOLE).
 *
 * Slots reserved by a pending MPI_Comm_idup (comm_idup.c) are not free
 * here; in its last round the idup may hold every free slot of a process
 * for a while. A round that finds no common slot while some member's idups
 * hold slots (word W_NOIDUP) is not a pool used up: all members run it
 * again, those whose idups held slots once one of them has given some back
 * (they wait in progress, which runs the idups' rounds). Failing instead,
 * MPI_Comm_create beside idups in other threads failed with "no free
 * context id" (MPICH's threads/comm/idup_comm_gen, XB_COMM_IDUP_SPREAD=no).
 */
#include <stdlib.h>
#include <string.h>
#include "comm/comm_int.h"
#include "coll/coll.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt.h"

static bool lowest(const uint64_t *mask, uint32_t *ctx_p);
static bool hold_reserve(uint64_t *mask);

/* the free-slot mask, the "every contributor owned it" word, the
 * "no contributor held a reserve back" word and the "no contributor has
 * slots reserved by a pending idup" word */
enum { W_OWNED = XB_CTX_MASK_WORDS, W_WHOLE, W_NOIDUP, AGREE_WORDS };
typedef uint64_t mask_t[AGREE_WORDS];
enum { RESERVE = 4 };            /* slots kept for agreements of one process */

typedef struct claim {
    struct claim *next;
    uint64_t      key;
    bool          own;
    bool          whole;         /* offer every free slot (a retry) */
    bool          held;          /* this round: idups here held slots    */
    uint64_t      released;      /* xb_comm_idup_released() then         */
} claim_t;

static claim_t *claims;          /* agreements in progress in this process */
static bool     mask_owned;
static uint64_t lent[XB_CTX_MASK_WORDS];   /* what the owning round offered */

static void claim_enter(claim_t *c, uint64_t key)
{
    c->key = key;
    c->own = false;
    c->whole = false;
    c->held = false;
    c->next = claims;
    claims = c;
}

static void claim_leave(claim_t *c)
{
    for (claim_t **p = &claims; *p != NULL; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
}

/* Clear the RESERVE highest free slots of mask, when more than twice as
 * many are free; true when it did. */
static bool hold_reserve(uint64_t *mask)
{
    int nfree = 0;
    for (int w = 0; w < XB_CTX_MASK_WORDS; w++)
        nfree += __builtin_popcountll(mask[w]);
    if (nfree <= 2 * RESERVE)
        return false;
    for (int w = XB_CTX_MASK_WORDS - 1, left = RESERVE; left > 0; w--)
        while (mask[w] != 0 && left > 0) {
            mask[w] &= ~(UINT64_C(1) << (63 - __builtin_clzll(mask[w])));
            left--;
        }
    return true;
}

/* Start a round: own the mask if it is free and no lower key waits. */
static void claim_round(claim_t *c, bool member, uint64_t *mask)
{
    c->own = !mask_owned;
    for (claim_t *o = claims; o != NULL && c->own; o = o->next)
        if (o != c && o->key < c->key)
            c->own = false;
    if (c->own)
        mask_owned = true;
    mask[W_WHOLE] = ~UINT64_C(0);
    c->held = member && c->own && xb_comm_idup_holds();
    c->released = xb_comm_idup_released();
    mask[W_NOIDUP] = c->held ? 0 : ~UINT64_C(0);
    if (!member)
        memset(mask, 0xff, sizeof(mask_t));     /* restricts nothing */
    else if (c->own) {
        xb_request_drain_all();     /* lock-free reports held communicators */
        xb_comm_bury();             /* and lane calls released some */
        memcpy(mask, xb_ctx_mask(), XB_CTX_MASK_WORDS * sizeof(uint64_t));
        if (!c->whole && hold_reserve(mask))
            mask[W_WHOLE] = 0;
        memcpy(lent, mask, sizeof(lent));
    } else
        memset(mask, 0, XB_CTX_MASK_WORDS * sizeof(uint64_t));
    mask[W_OWNED] = c->own || !member ? ~UINT64_C(0) : 0;
}

/* The idups of this process gave slots back since c's round began. */
static bool idup_released(void *arg)
{
    const claim_t *c = arg;
    return xb_comm_idup_released() != c->released;
}

/* End a round: true when it decided (then *ctx_p or the error is final). */
static bool claim_done(claim_t *c, bool member, int *rc_p, const uint64_t *mask,
                       uint32_t *ctx_p)
{
    bool decided = *rc_p != XB_OK || mask[W_OWNED] != 0, wait = false;
    if (decided && *rc_p == XB_OK) {
        if (lowest(mask, ctx_p)) {
            if (member)
                xb_ctx_take(*ctx_p); /* before another agreement owns the mask */
        } else if (mask[W_WHOLE] == 0) {
            c->whole = true;         /* a reserve was held back: offer it too */
            decided = false;
        } else if (mask[W_NOIDUP] == 0) {
            decided = false;         /* idups hold slots: they give them back */
            wait = c->held;
        } else
            *rc_p = xb_err_set(XB_ERR_OTHER, "no free context id left: %d "
                               "communicators exist on some member process; "
                               "free some first", XB_CTX_SLOTS);
    }
    if (c->own) {
        mask_owned = false;
        memset(lent, 0, sizeof(lent));
    }
    c->own = false;
    if (wait) {                      /* not owning the mask meanwhile */
        *rc_p = xb_progress_wait_until(xb_progress_default(), idup_released, c,
                                       "a context-id agreement (waiting for "
                                       "MPI_Comm_idup to give slots back)");
        decided = *rc_p != XB_OK;
    }
    return decided;
}

static bool lowest(const uint64_t *mask, uint32_t *ctx_p)
{
    for (int w = 0; w < XB_CTX_MASK_WORDS; w++) {
        if (mask[w] != 0) {
            *ctx_p = 2u * (uint32_t)(w * 64 + __builtin_ctzll(mask[w]));
            return true;
        }
    }
    return false;
}

/* An agreement of this process alone: the lowest free slot the owning
 * round did not offer (see the top of the file); false when none. */
static bool local_take(uint32_t *ctx_p)
{
    uint64_t m[XB_CTX_MASK_WORDS];
    const uint64_t *free_mask = xb_ctx_mask();
    for (int w = 0; w < XB_CTX_MASK_WORDS; w++)
        m[w] = free_mask[w] & ~lent[w];
    if (!lowest(m, ctx_p))
        return false;
    xb_ctx_take(*ctx_p);
    return true;
}

static int reduce_mask(xb_comm_t *parent, uint64_t *mask)
{
    xb_datatype_t *u64 = xb_dt_from_handle(MPI_UINT64_T);
    xb_op_t *band = xb_op_from_handle(MPI_BAND);
    return xb_coll_allreduce(MPI_IN_PLACE, mask, AGREE_WORDS, u64, band, parent);
}

int xb_comm_ctx_agree(xb_comm_t *parent, bool member, uint32_t *ctx_p)
{
    mask_t mask;
    claim_t c;
    int rc;
    if (parent->size == 1 && member && local_take(ctx_p))
        return XB_OK;
    claim_enter(&c, parent->ctx);
    do {
        claim_round(&c, member, mask);
        rc = reduce_mask(parent, mask);
    } while (!claim_done(&c, member, &rc, mask, ctx_p));
    claim_leave(&c);
    return rc;
}

/* ---- over a group, on the bootstrap communicator ------------------------ */
static int boot_send(const xb_group_t *g, int to, int tag, const void *buf,
                     size_t bytes)
{
    return xb_pt2pt_send(buf, (MPI_Count)bytes, xb_dt_from_handle(MPI_BYTE),
                         (int)xb_group_gpid(g, to), tag, xb_comm_boot(), 0);
}

static int boot_recv(const xb_group_t *g, int from, int tag, void *buf,
                     size_t bytes)
{
    return xb_pt2pt_recv(buf, (MPI_Count)bytes, xb_dt_from_handle(MPI_BYTE),
                         (int)xb_group_gpid(g, from), tag, xb_comm_boot(), 0,
                         NULL);
}

int xb_comm_group_bcast(const xb_group_t *g, int root, int tag, void *buf,
                        size_t bytes)
{
    int p = g->size, me = (g->rank - root + p) % p, m = 1, rc = XB_OK;
    while (m < p) {
        if (me & m) {
            rc = boot_recv(g, (me - m + root) % p, tag, buf, bytes);
            break;
        }
        m <<= 1;
    }
    for (m >>= 1; m > 0 && rc == XB_OK; m >>= 1)
        if (me + m < p)
            rc = boot_send(g, (me + m + root) % p, tag, buf, bytes);
    return rc;
}

/* Binomial AND-reduce of the masks to group rank 0, then broadcast. */
static int group_band(const xb_group_t *g, int tag, uint64_t *mask)
{
    mask_t tmp;
    int p = g->size, me = g->rank, rc = XB_OK;
    for (int m = 1; m < p && rc == XB_OK; m <<= 1) {
        if (me & m) {
            rc = boot_send(g, me - m, tag, mask, sizeof(mask_t));
            break;
        }
        if (me + m < p) {
            rc = boot_recv(g, me + m, tag, tmp, sizeof(mask_t));
            for (int w = 0; w < AGREE_WORDS; w++)
                mask[w] &= tmp[w];
        }
    }
    return rc == XB_OK ? xb_comm_group_bcast(g, 0, tag, mask, sizeof(mask_t)) : rc;
}

int xb_comm_ctx_agree_group(const xb_group_t *g, int tag, uint32_t *ctx_p)
{
    mask_t mask;
    claim_t c;
    int rc;
    if (g->size == 1 && local_take(ctx_p))
        return XB_OK;
    claim_enter(&c, (UINT64_C(1) << 32) | (uint32_t)tag);   /* after every comm */
    do {
        claim_round(&c, true, mask);
        rc = group_band(g, tag, mask);
    } while (!claim_done(&c, true, &rc, mask, ctx_p));
    claim_leave(&c);
    return rc;
}

/* ---- two groups joined by leaders ------------------------------------------ */
int xb_comm_exchange(xb_comm_t *peer, int rank, int tag, const void *sbuf,
                     size_t sbytes, void *rbuf, size_t rbytes)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    xb_request_t *req;
    int rc = xb_pt2pt_isend(sbuf, (MPI_Count)sbytes, byte, rank, XB_COMM_TAG(tag),
                            peer, 1, &req);
    if (rc != XB_OK)
        return rc;
    int rrc = xb_pt2pt_recv(rbuf, (MPI_Count)rbytes, byte, rank, XB_COMM_TAG(tag),
                            peer, 1, NULL);
    rc = xb_request_wait(req, NULL);
    xb_request_release(req);
    return rrc != XB_OK ? rrc : rc;
}

int xb_comm_ctx_agree_inter(xb_comm_t *local, int leader, xb_comm_t *peer,
                            int peer_rank, int tag, uint32_t *ctx_p)
{
    return xb_comm_ctx_agree_inter2(local, true, leader, peer, peer_rank, tag, ctx_p);
}

int xb_comm_ctx_agree_inter2(xb_comm_t *local, bool member, int leader,
                             xb_comm_t *peer, int peer_rank, int tag,
                             uint32_t *ctx_p)
{
    mask_t mask, theirs;
    claim_t c;
    int rc;
    claim_enter(&c, local->ctx);    /* the two sides' keys differ (threads.md) */
    do {
        claim_round(&c, member, mask);
        rc = reduce_mask(local, mask);
        if (rc == XB_OK && local->rank == leader) {
            rc = xb_comm_exchange(peer, peer_rank, tag, mask, sizeof(mask_t), theirs,
                                  sizeof(mask_t));
            for (int w = 0; w < AGREE_WORDS; w++)
                mask[w] &= theirs[w];
        }
        if (rc == XB_OK)
            rc = xb_coll_bcast(mask, AGREE_WORDS, xb_dt_from_handle(MPI_UINT64_T),
                               leader, local);
    } while (!claim_done(&c, member, &rc, mask, ctx_p));
    claim_leave(&c);
    return rc;
}
