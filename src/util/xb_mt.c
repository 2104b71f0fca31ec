/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * xb_mt.c - the slow halves of the futex mutex (xb_mt.h) and the flags.
 */
#include "util/xb_mt.h"

bool                 xb_mt_on;
xb_mutex_t           xb_mt_big = XB_MUTEX_INIT;

/* The lock was not free: mark it contended (2) and sleep until it is
 * released; whoever takes it through here leaves it at 2, so its unlock
 * wakes the next sleeper (a spurious wake at worst). A short spin first:
 * the holder often lets go within a poll. */
void xb_mutex_lock_slow(xb_mutex_t *m)
{
    for (int i = 0; i < 64; i++) {
        unsigned zero = 0;
        if (atomic_load_explicit(&m->state, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_weak_explicit(&m->state, &zero, 1, memory_order_acquire,
                                                  memory_order_relaxed)) {
            atomic_fetch_add_explicit(&m->slow_takes, 1, memory_order_relaxed);
            return;
        }
        xb_cpu_relax();
    }
    atomic_fetch_add_explicit(&m->sleepers, 1, memory_order_relaxed);
    while (atomic_exchange_explicit(&m->state, 2, memory_order_acquire) != 0)
        xb_futex(&m->state, FUTEX_WAIT_PRIVATE, 2, NULL);
    atomic_fetch_sub_explicit(&m->sleepers, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->slow_takes, 1, memory_order_relaxed);
}

void xb_mutex_yield(xb_mutex_t *m)
{
    if (!xb_mutex_contended(m))
        return;
    unsigned takes = atomic_load_explicit(&m->slow_takes, memory_order_relaxed);
    xb_mutex_unlock(m);
    /* Wait until somebody else took it (bounded: the sleeper we woke may
     * have been woken already and gone), then queue behind it. Taken means
     * held now, or taken through the slow path since we let go: the woken
     * thread may already have let go again (a short MPI call before the
     * application computes), and waiting for the lock to be held then
     * would spin, and yield whole time slices to a computing thread, until
     * the application's next MPI call (the progress thread did that while
     * the application computed, and moved nothing: bench/threads.c
     * -k overlap-recv). */
    for (int i = 0; i < 200; i++) {
        if (atomic_load_explicit(&m->state, memory_order_relaxed) != 0 ||
            atomic_load_explicit(&m->slow_takes, memory_order_relaxed) != takes)
            break;
        if (i < 100)
            xb_cpu_relax();
        else
            sched_yield();
    }
    xb_mutex_lock(m);
}
