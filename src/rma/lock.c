/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * lock.c - passive target synchronisation: MPI_Win_lock/unlock,
 * lock_all/unlock_all, flush, flush_all, flush_local, flush_local_all.
 *
 * The lock of a window at a process is managed by that process (its
 * handler, in whatever MPI call it is in): LOCK asks, GRANT answers when
 * the lock is free for that type (exclusive: nobody holds it; shared: no
 * exclusive holder and nobody queued before), otherwise the request waits
 * in a FIFO. UNLOCK is sent once every operation of the epoch is answered
 * (so applied), and nothing answers it: the epoch is complete at the target
 * already, and whatever this process sends the target later (a LOCK, a
 * window barrier) arrives after it, since methods deliver in order per
 * peer; the target then grants the next waiters. Waiting for an answer
 * cost every epoch one more round trip (and a wake-up of a target asleep).
 * MPI_Win_lock returns once granted. MPI_MODE_NOCHECK skips the messages.
 * Flushes wait for answers only: every operation is remote-complete when
 * answered, so the local variants are the same.
 *
 * A window with lock lines (a mapped one: every part in one shared
 * mapping; or an MPI_Win_create one whose processes all run on this node:
 * win_shared.c) of at most XB_RMA_EPOCH_MAX processes takes the lock in
 * the mapping instead,
 * without the target: a word per part, XB_RMA_EPOCH_EXCL or the count of
 * shared holders, changed by compare-and-swap (acquire) and released by a
 * store or a decrement (release), which also publishes the epoch's
 * copies. A process that finds it taken sets its bit in the part's
 * waiters mask, tries again, and waits (polling, then asleep in the
 * method); whoever releases the word then sends a WAKE message to every
 * rank in the mask. The two sides fence between their store and their
 * load (the mask, the word), so either the releaser sees the bit or the
 * waiter sees the word free: no wake-up is lost. Every member maps the
 * lines or none does, so all take one kind of lock. No order among
 * waiters (the standard asks none): a stream of shared holders may keep an
 * exclusive one waiting.
 */
#include <stdlib.h>
#include "rma/rma_int.h"
#include "xb_impl.h"

static void grant(xb_win_t *w, int rank, int type)
{
    if (type == MPI_LOCK_EXCLUSIVE)
        w->lk_excl = rank;
    else
        w->lk_shared++;
    xb_rma_ctl(w, rank, XB_RMA_GRANT, 0);
}

static bool grantable(const xb_win_t *w, int type)
{
    if (w->lk_excl >= 0)
        return false;
    return type == MPI_LOCK_SHARED || w->lk_shared == 0;
}

static void grant_waiters(xb_win_t *w)
{
    int i = 0;
    while (i < w->lk_nq && grantable(w, w->lk_queue[i].type)) {
        grant(w, w->lk_queue[i].rank, w->lk_queue[i].type);
        i++;
    }
    for (int j = i; j < w->lk_nq; j++)
        w->lk_queue[j - i] = w->lk_queue[j];
    w->lk_nq -= i;
}

static void lock_request(xb_win_t *w, int rank, int type)
{
    if (w->lk_nq == 0 && grantable(w, type)) {
        grant(w, rank, type);
        return;
    }
    if (w->lk_nq == w->lk_capq) {
        int cap = w->lk_capq ? 2 * w->lk_capq : 8;
        xb_rma_waiter_t *q = realloc(w->lk_queue, (size_t)cap * sizeof(*q));
        if (q == NULL)
            return;     /* no memory: the requester waits (nothing better) */
        w->lk_queue = q;
        w->lk_capq = cap;
    }
    w->lk_queue[w->lk_nq++] = (xb_rma_waiter_t){ rank, type };
}

void xb_rma_lock_arrived(xb_win_t *w, const xb_rma_hdr_t *h)
{
    int r = h->src_rank;
    switch (h->kind) {
    case XB_RMA_LOCK:
        lock_request(w, r, (int)h->off);
        break;
    case XB_RMA_GRANT:
        if (w->lk_state[r] == XB_LK_WAIT)
            w->lk_state[r] = XB_LK_HELD;
        w->grant_wait--;
        break;
    case XB_RMA_UNLOCK:
        if (w->lk_excl == r)
            w->lk_excl = -1;
        else if (w->lk_shared > 0)
            w->lk_shared--;
        grant_waiters(w);
        break;
    case XB_RMA_WAKE:           /* its arrival woke the wait: nothing to do */
        break;
    }
}

/* ---- the lock in the mapping (see the top) ------------------------------- */

static bool in_mapping(const xb_win_t *w)
{
    return w->lk_lines != NULL && w->size <= XB_RMA_EPOCH_MAX;
}

typedef struct { uint32_t *word; int type; } take_t;

static bool take(void *arg)
{
    const take_t *k = arg;
    uint32_t v = __atomic_load_n(k->word, __ATOMIC_RELAXED);
    if (k->type == MPI_LOCK_EXCLUSIVE)
        return v == 0 && __atomic_compare_exchange_n(k->word, &v, XB_RMA_EPOCH_EXCL, false,
                                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
    return !(v & XB_RMA_EPOCH_EXCL) &&
           __atomic_compare_exchange_n(k->word, &v, v + 1, false, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED);
}

static int take_in_mapping(xb_win_t *w, int type, int rank)
{
    take_t k = { xb_rma_epoch_word(w, rank), type };
    if (take(&k))
        return XB_OK;
    uint64_t *waiters = xb_rma_epoch_waiters(w, rank), bit = (uint64_t)1 << w->rank;
    __atomic_fetch_or(waiters, bit, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);        /* then look at the word */
    int rc = xb_progress_wait_until(xb_progress_default(), take, &k,
                                    "MPI_Win_lock (the lock is held by another process)");
    __atomic_fetch_and(waiters, ~bit, __ATOMIC_RELAXED);
    return rc;
}

static int give_in_mapping(xb_win_t *w, int rank, bool excl)
{
    uint32_t *word = xb_rma_epoch_word(w, rank);
    if (excl)
        __atomic_store_n(word, 0, __ATOMIC_RELEASE);
    else
        __atomic_fetch_sub(word, 1, __ATOMIC_RELEASE);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);        /* then look at the mask */
    uint64_t m = __atomic_load_n(xb_rma_epoch_waiters(w, rank), __ATOMIC_RELAXED);
    int rc = XB_OK;
    for (int r = 0; m != 0 && r < w->size; r++) {
        if (!(m & ((uint64_t)1 << r)))
            continue;
        m &= ~((uint64_t)1 << r);
        int x = xb_rma_ctl(w, r, XB_RMA_WAKE, 0);
        if (rc == XB_OK)
            rc = x;
    }
    return rc;
}

static int check_rank(const xb_win_t *w, int rank)
{
    if (rank < 0 || rank >= w->size)
        return xb_err_set(XB_ERR_RANK, "invalid argument rank: %d (the window's group "
                          "has %d ranks)", rank, w->size);
    return XB_OK;
}

static int lock_one(xb_win_t *w, int type, int rank, bool nocheck)
{
    w->nlocked++;
    if (nocheck || in_mapping(w)) {
        w->lk_how[rank] = nocheck ? XB_LKH_NOCHECK : type == MPI_LOCK_EXCLUSIVE
                        ? XB_LKH_WORD_EXCL : XB_LKH_WORD_SHARED;
        w->lk_state[rank] = XB_LK_HELD;
        return nocheck ? XB_OK : take_in_mapping(w, type, rank);
    }
    w->lk_how[rank] = XB_LKH_MSG;
    w->lk_state[rank] = XB_LK_WAIT;
    w->grant_wait++;
    return xb_rma_ctl(w, rank, XB_RMA_LOCK, (uint64_t)type);
}

int xb_impl_win_lock(int lock_type, int rank, int assert, xb_win_t *win)
{
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        return xb_err_set(XB_RMA_ERR_LOCKTYPE, "invalid argument lock_type: %d (must "
                          "be MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE)", lock_type);
    if (rank == MPI_PROC_NULL)
        return XB_OK;
    int rc = check_rank(win, rank);
    if (rc != XB_OK)
        return rc;
    if (!xb_rma_valid_assert(assert, MPI_MODE_NOCHECK))
        return xb_err_set(XB_RMA_ERR_ASSERT, "invalid argument assert: 0x%x (a lock "
                          "takes MPI_MODE_NOCHECK only)", (unsigned)assert);
    if (win->lk_state[rank] != XB_LK_NONE || win->lock_all)
        return xb_err_set(XB_RMA_ERR_SYNC, "rank %d of the window is already locked "
                          "by this process", rank);
    if (win->start_grp != NULL)
        return xb_err_set(XB_RMA_ERR_SYNC, "a lock inside a MPI_Win_start epoch");
    rc = lock_one(win, lock_type, rank, assert & MPI_MODE_NOCHECK);
    if (rc == XB_OK)
        rc = xb_rma_wait_zero(&win->grant_wait, "MPI_Win_lock (the lock is held "
                              "by another process)");
    return rc;
}

static int unlock_one(xb_win_t *w, int rank)
{
    w->lk_state[rank] = XB_LK_NONE;
    w->nlocked--;
    switch (w->lk_how[rank]) {
    case XB_LKH_NOCHECK:     return XB_OK;
    case XB_LKH_WORD_SHARED: return give_in_mapping(w, rank, false);
    case XB_LKH_WORD_EXCL:   return give_in_mapping(w, rank, true);
    default:                 return xb_rma_ctl(w, rank, XB_RMA_UNLOCK, 0);
    }
}

int xb_impl_win_unlock(int rank, xb_win_t *win)
{
    if (rank == MPI_PROC_NULL)
        return XB_OK;
    int rc = check_rank(win, rank);
    if (rc != XB_OK)
        return rc;
    if (win->lk_state[rank] != XB_LK_HELD || win->lock_all)
        return xb_err_set(XB_RMA_ERR_SYNC, "rank %d of the window is not locked by "
                          "MPI_Win_lock here", rank);
    rc = xb_rma_flush(win, rank);
    int urc = unlock_one(win, rank);
    return rc != XB_OK ? rc : urc;
}

int xb_impl_win_lock_all(int assert, xb_win_t *win)
{
    if (!xb_rma_valid_assert(assert, MPI_MODE_NOCHECK))
        return xb_err_set(XB_RMA_ERR_ASSERT, "invalid argument assert: 0x%x (lock_all "
                          "takes MPI_MODE_NOCHECK only)", (unsigned)assert);
    if (win->lock_all || win->nlocked > 0 || win->start_grp != NULL)
        return xb_err_set(XB_RMA_ERR_SYNC, "lock_all while this process %s",
                          win->start_grp != NULL ? "is in a MPI_Win_start epoch" :
                          "already holds locks on the window");
    int rc = XB_OK;
    for (int r = 0; r < win->size && rc == XB_OK; r++)
        rc = lock_one(win, MPI_LOCK_SHARED, r, assert & MPI_MODE_NOCHECK);
    win->lock_all = true;
    int wrc = xb_rma_wait_zero(&win->grant_wait, "MPI_Win_lock_all");
    return rc != XB_OK ? rc : wrc;
}

int xb_impl_win_unlock_all(xb_win_t *win)
{
    if (!win->lock_all)
        return xb_err_set(XB_RMA_ERR_SYNC, "unlock_all without lock_all");
    int rc = xb_rma_flush(win, -1);
    win->lock_all = false;
    int urc = XB_OK;
    for (int r = 0; r < win->size; r++) {
        int x = unlock_one(win, r);
        if (urc == XB_OK)
            urc = x;
    }
    return rc != XB_OK ? rc : urc;
}

static int passive(xb_win_t *w, int rank)
{
    if (rank >= 0 && rank < w->size && (w->lk_state[rank] == XB_LK_HELD || w->lock_all))
        return XB_OK;
    if (rank < 0 && (w->lock_all || w->nlocked > 0))
        return XB_OK;
    return xb_err_set(XB_RMA_ERR_SYNC, "a flush outside a passive target epoch%s",
                      rank >= 0 ? " to that rank" : "");
}

static int flush_rank(xb_win_t *w, int rank)
{
    if (rank == MPI_PROC_NULL)
        return XB_OK;
    int rc = check_rank(w, rank);
    if (rc == XB_OK)
        rc = passive(w, rank);
    return rc == XB_OK ? xb_rma_flush(w, rank) : rc;
}

int xb_impl_win_flush(int rank, xb_win_t *win)
{
    return flush_rank(win, rank);
}

int xb_impl_win_flush_local(int rank, xb_win_t *win)
{
    return flush_rank(win, rank);
}

int xb_impl_win_flush_all(xb_win_t *win)
{
    int rc = passive(win, -1);
    return rc == XB_OK ? xb_rma_flush(win, -1) : rc;
}

int xb_impl_win_flush_local_all(xb_win_t *win)
{
    return xb_impl_win_flush_all(win);
}
