/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * xb_mt.c - the slow halves of the futex mutex (xb_mt.h) and the flags.
 *
 * Why a hand-off: with a plain futex mutex, a thread that calls MPI in a
 * tight loop frees the lock, wakes the sleeper and takes the lock back
 * before the sleeper runs, every time; on an oversubscribed node the
 * sleeper (the thread that has real communication to finish) starved and a
 * job hung. Why not always: a hand-off leaves the lock idle until the woken
 * thread gets a CPU, so it is kept for a sleeper that already lost once.
 *
 * Who may take a hand-off: only a thread that was in the sleeping phase
 * when it was made (its ticket is below `limit`). A thread that arrives
 * afterwards, the fast re-taker above all, sleeps behind it. A hand-off is
 * made only while `sleepers` > 0; a sleeper leaves that count only by
 * taking the lock, which the hand-off keeps held: so someone eligible is
 * in the loop below and sees it (it is woken, or its FUTEX_WAIT finds the
 * word changed, or it reads it before sleeping). Eligible sleepers may
 * still be several; one of them wins, the others ask again.
 */
#include "util/xb_mt.h"

bool                 xb_mt_on;
xb_mutex_t           xb_mt_big = XB_MUTEX_INIT;

/* Spins of the slow lock before it sleeps: the holder often lets go
 * within a poll. */
enum { MUTEX_SPINS = 64 };

static bool eligible(xb_mutex_t *m, unsigned ticket)
{
    return (int)(ticket - atomic_load(&m->limit)) < 0;
}

/* The sleeping phase: the word says 2 while anybody may sleep on it, so
 * each unlock goes through the slow half. seq_cst on `sleepers` and
 * `state` (here and in xb_mutex_unlock_slow): either the unlocker sees
 * this thread counted, or this thread sees the lock free. */
static void lock_sleep(xb_mutex_t *m)
{
    unsigned ticket = atomic_fetch_add(&m->arrivals, 1);
    atomic_fetch_add(&m->sleepers, 1);
    bool woken = false, hungry = false;
    for (;;) {
        unsigned s = atomic_load(&m->state);
        if (s == 0 || s == XB_MUTEX_FREE_SLEEPERS ||
            ((s & XB_MUTEX_HANDOFF) && eligible(m, ticket))) {
            if (atomic_compare_exchange_strong(&m->state, &s, 2))
                break;
            continue;
        }
        if (woken) {
            hungry = true;          /* lost the race after a wake-up (again:
                                       the last hand-off went to another) */
            atomic_store(&m->hungry, 1);
        }
        if (s == 1) {
            if (!atomic_compare_exchange_strong(&m->state, &s, 2))
                continue;
            s = 2;
        }
        xb_futex(&m->state, FUTEX_WAIT_PRIVATE, s, NULL);
        woken = true;
    }
    atomic_fetch_sub(&m->sleepers, 1);
    if (hungry)
        atomic_store(&m->hungry, 0);
    m->passes = 0;
}

void xb_mutex_lock_slow(xb_mutex_t *m)
{
    for (int i = 0; i < MUTEX_SPINS; i++) {
        unsigned s = atomic_load_explicit(&m->state, memory_order_relaxed);
        /* free (0), or free with sleepers (3: taken as 2, so that our
         * unlock counts the pass) */
        if ((s == 0 || s == XB_MUTEX_FREE_SLEEPERS) &&
            atomic_compare_exchange_weak_explicit(&m->state, &s, s == 0 ? 1 : 2,
                                                  memory_order_acquire, memory_order_relaxed))
            return;
        xb_cpu_relax();
    }
    lock_sleep(m);
}

/* Held, and sleepers > 0: pass the lock to one of them without freeing
 * it. Every sleeper counted so far may take it; wake them all (they are
 * few: the threads of one process), the others go back to sleep. */
static void hand_off(xb_mutex_t *m)
{
    m->passes = 0;
    atomic_store(&m->hungry, 0);
    atomic_store(&m->limit, atomic_load(&m->arrivals));
    atomic_store(&m->state, 2 | XB_MUTEX_HANDOFF);
    xb_futex_wake_all(&m->state);
}

/* The word was not 1, so it is 2 (nothing else changes it while held).
 * With sleepers: hand over when one is hungry or XB_MUTEX_PASSES holders
 * went before them, else free it as 3 (so a barger's unlock comes here
 * too and counts) and wake one. The word is written before `sleepers` is
 * read again: a thread that counted itself after the first read sees the
 * new word, or is seen and woken. */
void xb_mutex_unlock_slow(xb_mutex_t *m)
{
    unsigned n = atomic_load(&m->sleepers);
    if (n > 0 && (atomic_load(&m->hungry) || ++m->passes >= XB_MUTEX_PASSES)) {
        hand_off(m);
        return;
    }
    atomic_store(&m->state, n > 0 ? XB_MUTEX_FREE_SLEEPERS : 0);
    if (atomic_load(&m->sleepers) > 0)
        xb_futex(&m->state, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/* The progress thread's overlap depends on this going to a thread that
 * really sleeps (xb_mutex_contended): yielding to a stale state 2 made it
 * wait for a taker that never came, whole time slices on a CPU shared
 * with a computing thread (bench/threads.c -k overlap-recv). A hand-off
 * needs no waiting for the taker: the lock stays held until it runs. */
void xb_mutex_yield_slow(xb_mutex_t *m)
{
    hand_off(m);
    xb_mutex_lock(m);
}
