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
 * run at once in one process (their rounds release the lock while they
 * wait), and two of them must not both take a slot they saw free. So a
 * round reserves what it offers: it takes its offer out of the pool until
 * the round ends, then puts back all but the slot chosen. Concurrent rounds
 * of one process offer disjoint sets, whatever order they run in.
 *
 * How much a round offers. A round may wait for a long time: its members
 * enter the agreement when their threads get there, after other
 * agreements of theirs, which may need this process's slots. So the first
 * round of an agreement under MULTIPLE offers only a window of FIRST_OFFER
 * free slots. Windows start at a hash of the agreement's key (the parent's
 * context id; a group's tag, after every communicator), the same on every
 * member: the windows of one agreement on its members meet (when their
 * pools look alike, as they mostly do, one round decides), those of
 * different agreements of a process fall apart. Once the first round has
 * ended every member is inside the agreement, and each later round ends
 * without waiting on anything else. Those offer more: the agreement with
 * the lowest key among those in progress in the process offers every free
 * slot, the others a window that doubles each round up to 1024, so that
 * most of the pool stays with the first. The lowest key of the whole job
 * thus offers nearly everything on every member from its second round on,
 * finds a common slot and ends: no livelock. While an MPI_Comm_idup of the
 * process is outstanding, every agreement offers windows only: the idups
 * reserve from the same pool and, in their last round, take turns over all
 * of it (comm_idup.c); were both to take everything, each on some members,
 * neither would find a common slot (MPICH's threads/comm/idup_comm_gen).
 * Below MULTIPLE one agreement runs at a time and offers everything.
 * (Until 2026-11-29 one round at a time owned the whole free mask; a round
 * owning it could wait for a member busy in an agreement of lower key that
 * needed this mask, and MPICH's threads/comm/comm_create_group_threads2
 * spun for good in 1 run of 10.)
 *
 * A word of the reduction says whether every contributor offered every
 * slot free on it while no other round of its process held any; when not,
 * a round that finds no common slot is run again instead of failing.
 *
 * An agreement among this process alone (a communicator or group of one)
 * runs no round: it takes the lowest free slot. Waiting for other rounds
 * instead, it could wait for a round that waits on it: in MPICH's test
 * suite (threads/comm/comm_dup_deadlock) a thread holds a user lock across
 * MPI_Comm_dup(MPI_COMM_SELF) on each rank while the other thread's round
 * needs its peer's locked thread. So that such agreements find a slot, a
 * round holds back the RESERVE highest free slots; if it then finds no
 * common slot, it runs again offering them too, and an agreement of one
 * that meanwhile finds nothing free waits for a round to end.
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

/* the offered slots; the "no contributor held its reserve back" word; the
 * "every contributor offered all it had, no other round of its process
 * holding slots" word; the "no contributor has slots reserved by a pending
 * idup" word */
enum { W_NORESERVE = XB_CTX_MASK_WORDS, W_WHOLE, W_NOIDUP, AGREE_WORDS };
typedef uint64_t mask_t[AGREE_WORDS];
enum {
    RESERVE = 4,                 /* slots kept for agreements of one process */
    FIRST_OFFER = 64,            /* the first round's offer under MULTIPLE   */
    WINDOW_DOUBLINGS = 4         /* later rounds without precedence: at most
                                    FIRST_OFFER << 4 = 1024 of 16384 slots */
};

typedef struct claim {
    struct claim *next;
    uint64_t      key;
    unsigned      round;         /* rounds started                        */
    bool          whole;         /* offer the reserve too (a retry)       */
    bool          holds;         /* offer[] is reserved (taken from the pool) */
    bool          held;          /* this round: idups here held slots     */
    uint64_t      released;      /* xb_comm_idup_released() then          */
    uint64_t      offer[XB_CTX_MASK_WORDS];
} claim_t;

static claim_t *claims;          /* agreements in progress in this process */
static uint64_t puts_seen;       /* rounds that ended holding slots */

static void claim_enter(claim_t *c, uint64_t key)
{
    c->key = key;
    c->round = 0;
    c->whole = false;
    c->holds = false;
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

/* Clear from offer the RESERVE highest slots of free, when more than twice
 * as many are free; true when the offer held any of them. */
static bool hold_reserve(const uint64_t *free_mask, uint64_t *offer)
{
    int nfree = 0;
    for (int w = 0; w < XB_CTX_MASK_WORDS; w++)
        nfree += __builtin_popcountll(free_mask[w]);
    if (nfree <= 2 * RESERVE)
        return false;
    bool held = false;
    for (int w = XB_CTX_MASK_WORDS - 1, left = RESERVE; left > 0; w--)
        for (uint64_t m = free_mask[w]; m != 0 && left > 0; left--) {
            uint64_t top = UINT64_C(1) << (63 - __builtin_clzll(m));
            m &= ~top;
            held = held || (offer[w] & top) != 0;
            offer[w] &= ~top;
        }
    return held;
}

/* Copy to dst (zeroed first) the first `limit` slots set in src from slot
 * `start` on, going round; true when that is all of them. */
static bool window(const uint64_t *src, uint32_t start, size_t limit, uint64_t *dst)
{
    if (limit == SIZE_MAX) {
        memcpy(dst, src, XB_CTX_MASK_WORDS * sizeof(uint64_t));
        return true;
    }
    memset(dst, 0, XB_CTX_MASK_WORDS * sizeof(uint64_t));
    int w0 = (int)(start / 64);
    uint64_t high = ~UINT64_C(0) << (start % 64);    /* bits from start on */
    for (int k = 0; k <= XB_CTX_MASK_WORDS; k++) {
        int w = (w0 + k) % XB_CTX_MASK_WORDS;
        uint64_t m = src[w] & (k == 0 ? high : k == XB_CTX_MASK_WORDS ? ~high : ~UINT64_C(0));
        size_t n = (size_t)__builtin_popcountll(m);
        if (n > limit) {
            while (limit-- > 0) {
                dst[w] |= m & -m;
                m &= m - 1;
            }
            return false;
        }
        dst[w] |= m;
        limit -= n;
    }
    return true;
}

/* Where an agreement's windows start: a multiplicative (Fibonacci) hash of
 * its key, the same on every member, so that the windows of different
 * agreements of a process fall apart and those of one agreement on its
 * members together. */
static uint32_t window_start(uint64_t key)
{
    return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) % XB_CTX_SLOTS;
}

/* How many slots c's next round offers (see the top of the file). Ties of
 * keys go to the agreement that entered first (nearer the list's tail). */
static size_t offer_limit(const claim_t *c)
{
    if (!xb_mt_on)
        return SIZE_MAX;
    if (c->round == 1)
        return FIRST_OFFER;
    unsigned k = c->round - 1 < WINDOW_DOUBLINGS ? c->round - 1 : WINDOW_DOUBLINGS;
    if (xb_comm_idup_pending()) /* the pool is theirs first (top of the file) */
        return (size_t)FIRST_OFFER << k;
    bool after = false;
    for (const claim_t *o = claims; o != NULL; o = o->next) {
        if (o == c)
            after = true;
        else if (o->key < c->key || (o->key == c->key && after))
            return (size_t)FIRST_OFFER << k;
    }
    return SIZE_MAX;
}

/* Start a round: reserve the offer and fill the words of the reduction. */
static void claim_round(claim_t *c, bool member, uint64_t *mask)
{
    c->round++;
    c->held = member && xb_comm_idup_holds();
    c->released = xb_comm_idup_released();
    if (!member) {
        memset(mask, 0xff, sizeof(mask_t));     /* restricts nothing */
        return;
    }
    xb_request_drain_all();     /* lock-free reports held communicators */
    xb_comm_bury();             /* and lane calls released some */
    const uint64_t *free_mask = xb_ctx_mask();
    bool all = window(free_mask, window_start(c->key), offer_limit(c), c->offer);
    bool reserve = !c->whole && hold_reserve(free_mask, c->offer);
    all = all && !xb_comm_agree_holds();    /* another round has slots out */
    xb_ctx_take_mask(c->offer);
    c->holds = true;
    memcpy(mask, c->offer, sizeof(c->offer));
    mask[W_NORESERVE] = reserve ? 0 : ~UINT64_C(0);
    mask[W_WHOLE] = all && !reserve ? ~UINT64_C(0) : 0;
    mask[W_NOIDUP] = c->held ? 0 : ~UINT64_C(0);
}

/* The idups of this process gave slots back since c's round began. */
static bool idup_released(void *arg)
{
    const claim_t *c = arg;
    return xb_comm_idup_released() != c->released;
}

/* End a round: true when it decided (then *ctx_p or the error is final).
 * The offer goes back to the pool, but the slot chosen. */
static bool claim_done(claim_t *c, bool member, int *rc_p, const uint64_t *mask,
                       uint32_t *ctx_p)
{
    bool decided = true, wait = false;
    if (*rc_p == XB_OK) {
        if (lowest(mask, ctx_p)) {
            if (member)              /* stays taken */
                c->offer[*ctx_p / 128] &= ~(UINT64_C(1) << (*ctx_p / 2 % 64));
        } else if (mask[W_NORESERVE] == 0) {
            c->whole = true;         /* a reserve was held back: offer it too */
            decided = false;
        } else if (mask[W_WHOLE] == 0) {
            decided = false;         /* less than all: other rounds end */
        } else if (mask[W_NOIDUP] == 0) {
            decided = false;         /* idups hold slots: they give them back */
            wait = c->held;
        } else
            *rc_p = xb_err_set(XB_ERR_OTHER, "no free context id left: %d "
                               "communicators exist on some member process; "
                               "free some first", XB_CTX_SLOTS);
    }
    if (c->holds) {
        xb_ctx_put_mask(c->offer);
        c->holds = false;
        __atomic_add_fetch(&puts_seen, 1, __ATOMIC_RELAXED);
    }
    if (wait) {
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

bool xb_comm_agree_holds(void)
{
    for (const claim_t *o = claims; o != NULL; o = o->next)
        if (o->holds)
            return true;
    return false;
}

/* The rounds or the idups of this process put slots back since seen[]
 * was read. */
static bool slots_back(void *arg)
{
    const uint64_t *seen = arg;
    return __atomic_load_n(&puts_seen, __ATOMIC_RELAXED) != seen[0] ||
           xb_comm_idup_released() != seen[1];
}

/* An agreement of this process alone: the lowest free slot. Rounds in
 * flight have theirs out of the pool; when they hold every free slot (a
 * retry that offered its reserve), wait for one to end, the lock
 * released: spinning on it, no round could end. */
static int local_agree(uint32_t *ctx_p)
{
    for (;;) {
        uint64_t seen[2] = { __atomic_load_n(&puts_seen, __ATOMIC_RELAXED),
                             xb_comm_idup_released() };
        if (lowest(xb_ctx_mask(), ctx_p)) {
            xb_ctx_take(*ctx_p);
            return XB_OK;
        }
        if (!xb_comm_idup_holds() && !xb_comm_agree_holds())
            return xb_err_set(XB_ERR_OTHER, "no free context id left: %d "
                              "communicators exist on this process; free "
                              "some first", XB_CTX_SLOTS);
        int rc = xb_progress_wait_until(xb_progress_default(), slots_back, seen,
                                        "a context-id agreement (waiting for "
                                        "other agreements to give slots back)");
        if (rc != XB_OK)
            return rc;
    }
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
    if (parent->size == 1 && member)
        return local_agree(ctx_p);
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
    if (g->size == 1)
        return local_agree(ctx_p);
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
