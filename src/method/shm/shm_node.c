/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_node.c - the node barrier: every local rank of the job counts itself
 * in on one shared line; the last one in starts the next generation and
 * wakes the sleepers.
 *
 *   arrive:   g = gen; if (fetch_add(arrived, 1) == nlocal - 1)
 *                 { arrived = 0; gen = g + 1 (release); wake every sleeper }
 *             ticket = g
 *   released: gen != ticket
 *
 * `arrived` is reset before `gen` moves, so a rank that leaves and enters
 * the next barrier at once counts into the new round. A rank reads `gen`
 * before it counts itself in, so it cannot miss its own release.
 *
 * Sleeping: a rank in a barrier sleeps on the node's `bell` word (not on its
 * own `wake`), marked by sleeping == XB_SHM_SLEEP_BELL. The release rings
 * the bell once (one FUTEX_WAKE for all sleepers) when anybody sleeps; a
 * sender that finds its receiver asleep on the bell rings it too (the
 * others go back to sleep), so messages still make progress during a
 * barrier. The sleeper reads `bell` before its `sleeping` store and fence
 * and re-checks `gen` and its rings after them, so the Dekker argument of
 * shm_wait.c covers both wakes: a ring after the re-check changed `bell`,
 * and FUTEX_WAIT returns at once.
 *
 * One barrier at a time per process, and all local ranks take part: the
 * caller (coll/barrier_shm.c) uses it only for blocking barriers on
 * communicators made of exactly the ranks of one node. Barriers on such
 * communicators are totally ordered (each one waits for everybody), so they
 * can share the line even when they are different communicators. A second
 * thread in a barrier (MPI_THREAD_MULTIPLE) would break this: the caller
 * must not use it then.
 */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "method/shm/shm.h"

uint32_t xb_shm_node_arrive(xb_method_t *m, bool wait)
{
    xb_shm_t *st = m->priv;
    if (st->nlocal <= 1 || st->node == NULL)
        return 0;
    xb_shm_node_t *n = st->node;
    uint32_t g = __atomic_load_n(&n->gen, __ATOMIC_ACQUIRE);
    if (wait) {           /* else block() must not take the release for its event */
        __atomic_store_n(&st->bar_gen, g, __ATOMIC_RELAXED);
        __atomic_store_n(&st->bar_waiting, true, __ATOMIC_RELAXED);
    }
    /* acq_rel: the last one in sees everything the others did before */
    if (__atomic_fetch_add(&n->arrived, 1, __ATOMIC_ACQ_REL) == (uint32_t)st->nlocal - 1) {
        __atomic_store_n(&n->arrived, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&n->gen, g + 1, __ATOMIC_RELEASE);
        /* seq_cst fence: orders the gen store before the loads of the
         * sleeping flags (pairs with F1 in xb_shm_block). */
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        /* Everyone else has arrived, so whoever waits for the release
         * sleeps on the bell: one syscall wakes them all. A rank that
         * arrived without waiting may sleep on its own word: not rung. */
        for (int i = 0; i < st->nlocal; i++) {
            if (i != st->me && __atomic_load_n(&xb_shm_seg_ctl(st, i)->sleeping,
                                               __ATOMIC_RELAXED) == XB_SHM_SLEEP_BELL) {
                xb_shm_node_ring_bell(n);
                break;
            }
        }
    }
    return g;
}

void xb_shm_node_ring_bell(xb_shm_node_t *n)
{
    __atomic_fetch_add(&n->bell, 1, __ATOMIC_RELEASE);
    syscall(SYS_futex, &n->bell, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

bool xb_shm_node_released(xb_method_t *m, uint32_t ticket)
{
    xb_shm_t *st = m->priv;
    if (st->nlocal <= 1 || st->node == NULL)
        return true;
    if (__atomic_load_n(&st->node->gen, __ATOMIC_ACQUIRE) == ticket)
        return false;
    __atomic_store_n(&st->bar_waiting, false, __ATOMIC_RELAXED);
    return true;
}

void *xb_shm_node_slot(xb_method_t *m, int area, int local, size_t *size)
{
    xb_shm_t *st = m->priv;
    if (st == NULL || local < 0 || local >= st->nlocal || area < 0 || area >= XB_SHM_COLL_AREAS)
        return NULL;
    if (st->base == NULL) {
        /* Alone on the node: the same slots in private memory (mapped at
         * init, zero like the segment's), so that every rank of a job
         * spanning several nodes sees the same slot size and picks the
         * same two-stage algorithms. */
        if (st->lone_slots == NULL)
            return NULL;
        *size = XB_SHM_COLL_SLOT;
        return st->lone_slots + (size_t)area * XB_SHM_COLL_SLOT;
    }
    *size = XB_SHM_COLL_SLOT;
    return xb_shm_seg_coll_slot(st, area, local);
}

/* Wake local rank `local` when it sleeps (the caller stored what it waits
 * for and issued a seq_cst fence: the Dekker pairing of shm_wait.c, with
 * the sleeper's re-check of the node watch in xb_shm_pending). */
void xb_shm_node_wake(xb_method_t *m, int local)
{
    xb_shm_t *st = m->priv;
    if (st == NULL || st->base == NULL || local < 0 || local >= st->nlocal || local == st->me)
        return;
    xb_shm_ctl_t *c = xb_shm_seg_ctl(st, local);
    if (__atomic_load_n(&c->sleeping, __ATOMIC_RELAXED) != 0)
        xb_shm_wake(st, c);
}

/* The word xb_shm_node_wake reads: local rank `local`'s sleeping flag; a
 * word that stays 0 where it never needs a wake (this rank, a rank alone
 * on its node). */
const uint32_t *xb_shm_node_sleep_word(xb_method_t *m, int local)
{
    static const uint32_t never;
    xb_shm_t *st = m->priv;
    if (st == NULL || local < 0 || local >= st->nlocal)
        return NULL;
    if (st->base == NULL || local == st->me)
        return &never;
    return &xb_shm_seg_ctl(st, local)->sleeping;
}

/* F2 of shm_wait.c for a writer of node collective memory: a compiler
 * barrier when the sleepers issue membarrier, else a seq_cst fence. */
void xb_shm_node_fence(xb_method_t *m)
{
    (void)m;
    if (XB_LIKELY(xb_shm_asym_fence))
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
