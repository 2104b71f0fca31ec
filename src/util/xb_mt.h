/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * xb_mt.h - the thread-safety primitives: a futex mutex, the process-wide
 * "MULTIPLE locking is on" flag, and the critical section of the bindings.
 *
 * xb_mt_on is false unless MPI_Init_thread granted MPI_THREAD_MULTIPLE (or
 * the asynchronous progress thread runs); it is written once, during init,
 * before any other thread may call MPI. Every lock operation is one
 * predicted branch on it when it is false, so the levels below MULTIPLE pay
 * nothing measurable (docs/design/threads.md).
 *
 * The mutex is non-recursive and fair: 0 free, 1 held, 2 held with
 * (possibly) sleepers, 3 free with sleepers, 2|XB_MUTEX_HANDOFF handed to
 * a sleeper that has not run yet. lock is one compare-and-swap when free;
 * unlock is one compare-and-swap (1 -> 0) when nobody sleeps; no syscall
 * in either. A thread that cannot take it spins briefly, then sleeps in
 * FUTEX_WAIT. A holder that lets go with sleepers frees it as 3 and wakes
 * one, which races with whoever calls lock meanwhile (barging keeps the
 * lock busy while the woken thread gets a CPU); a barger takes 3 as 2, so
 * its unlock counts too. After XB_MUTEX_PASSES such unlocks, or at once
 * when a woken sleeper lost the race (it says it is hungry), the unlock
 * hands the lock over instead: the word stays held, marked HANDOFF, and
 * only a thread that was already asleep may take it. So a sleeper waits
 * for at most XB_MUTEX_PASSES other acquisitions however fast another
 * thread re-takes the lock (tests/unit/test_mutex.c). trylock takes only
 * 0. Private futexes: the word is never in shared memory.
 *
 * The critical section (xb_cs_enter/exit) is what the generated bindings
 * take around each implementation call when xb_mt_on. Code deep inside a
 * call drops it around a user callback (xb_cb_begin/end): every such call
 * site runs inside a binding call (or MPI_Finalize), so when xb_mt_on the
 * calling thread holds it. No thread-local on this path: in a shared
 * library a TLS access is a call (__tls_get_addr), and the critical
 * section is taken on every MPI call.
 */
#ifndef XB_MT_H
#define XB_MT_H

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "util/xb_common.h"

typedef struct xb_mutex {
    atomic_uint state;          /* 0 free, 1 held, 2 held and contended,
                                   2|XB_MUTEX_HANDOFF handed to a sleeper */
    atomic_uint sleepers;       /* threads in the sleeping phase of the
                                   slow lock: state 2 alone may be stale
                                   (a slow-path taker leaves it at 2) */
    atomic_uint arrivals;       /* tickets of the sleeping phase */
    atomic_uint limit;          /* a hand-off may be taken by a sleeper
                                   whose ticket is below this one */
    atomic_uint hungry;         /* a sleeper was woken and lost the race:
                                   the next unlock hands over */
    unsigned    passes;         /* unlocks that passed over sleepers since
                                   one of them last took it (holder only) */
} xb_mutex_t;

#define XB_MUTEX_INIT { 0, 0, 0, 0, 0, 0 }
#define XB_MUTEX_FREE_SLEEPERS 3u   /* free, but somebody sleeps on it */
#define XB_MUTEX_HANDOFF       4u   /* with 2: held for a sleeper */
/* Acquisitions that may pass over a sleeping thread before an unlock
 * hands the lock to it (tests/unit/test_mutex.c checks the bound). */
#define XB_MUTEX_PASSES        4u

static inline void xb_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    atomic_signal_fence(memory_order_seq_cst);
#endif
}

/* Set at init when MULTIPLE locking is on (never changes while threads run). */
extern bool xb_mt_on;
/* The mutex of the (one, for now) progress context: the bindings' lock. */
extern xb_mutex_t xb_mt_big;

static inline long xb_futex(void *uaddr, int op, uint32_t val, const struct timespec *ts)
{
    return syscall(SYS_futex, uaddr, op, val, ts, NULL, 0);
}

/* Sleep while *word == val, at most timeout_ms (<= 0: no limit). */
static inline void xb_futex_wait(atomic_uint *word, uint32_t val, int timeout_ms)
{
    struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };
    xb_futex(word, FUTEX_WAIT_PRIVATE, val, timeout_ms > 0 ? &ts : NULL);
}

static inline void xb_futex_wake_all(atomic_uint *word)
{
    xb_futex(word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

XB_NOINLINE void xb_mutex_lock_slow(xb_mutex_t *m);
XB_NOINLINE void xb_mutex_unlock_slow(xb_mutex_t *m);

static inline void xb_mutex_lock(xb_mutex_t *m)
{
    unsigned zero = 0;
    if (XB_UNLIKELY(!atomic_compare_exchange_strong_explicit(&m->state, &zero, 1,
                                                             memory_order_acquire,
                                                             memory_order_relaxed)))
        xb_mutex_lock_slow(m);
}

static inline bool xb_mutex_trylock(xb_mutex_t *m)
{
    unsigned zero = 0;
    return atomic_compare_exchange_strong_explicit(&m->state, &zero, 1, memory_order_acquire,
                                                   memory_order_relaxed);
}

/* 1 -> 0 when nobody sleeps; otherwise wake one, or hand over. */
static inline void xb_mutex_unlock(xb_mutex_t *m)
{
    unsigned one = 1;
    if (XB_UNLIKELY(!atomic_compare_exchange_strong_explicit(&m->state, &one, 0,
                                                             memory_order_release,
                                                             memory_order_relaxed)))
        xb_mutex_unlock_slow(m);
}

/* True when another thread sleeps waiting for m (the holder should let go).
 * State 2 without a sleeper is left over from a slow-path acquisition: a
 * holder that let go then would wait for a taker that never comes (and, on
 * a CPU shared with a computing thread, yield it whole time slices). */
static inline bool xb_mutex_contended(xb_mutex_t *m)
{
    return atomic_load_explicit(&m->state, memory_order_relaxed) == 2 &&
           atomic_load_explicit(&m->sleepers, memory_order_relaxed) != 0;
}

XB_NOINLINE void xb_mutex_yield_slow(xb_mutex_t *m);

/* Held and contended: hand the lock to a sleeper, then lock again (behind
 * it). A bare unlock+lock would win the race against the woken thread
 * every time. Nothing when nobody sleeps (the poller calls this after
 * every poll: the test stays inline). */
static inline void xb_mutex_yield(xb_mutex_t *m)
{
    if (XB_UNLIKELY(xb_mutex_contended(m)))
        xb_mutex_yield_slow(m);
}

/* ---- several progress contexts (util/xb_lanes.c) ------------------------- */
/* 0 unless XB_PROGRESS_CONTEXTS > 1: then lanes 1..xb_mt_nlanes each have a
 * lock of their own besides xb_mt_big, and "all" is every one of them
 * (docs/design/threads.md "Progress contexts"). Set at init, never cleared. */
extern int xb_mt_nlanes;
void xb_mt_lock_all(void);
void xb_mt_unlock_all(void);
/* The critical section under MULTIPLE, out of line: the main lock, or all
 * the locks with lanes (a call in each of ~600 bindings instead of the
 * inlined lock kept the bindings small enough for link-time inlining of
 * their handle resolution: MPI_Send +9 instructions otherwise). */
void xb_cs_lock(void);
void xb_cs_unlock(int cs);
xb_mutex_t *xb_cb_begin_lanes(void);
void xb_cb_end_lanes(xb_mutex_t *m);

/* ---- the bindings' critical section -------------------------------------- */

/* Returns whether it locked (pass that to xb_cs_exit: the flag may change
 * inside MPI_Init_thread/MPI_Finalize). */
static inline bool xb_cs_enter(void)
{
    if (XB_LIKELY(!xb_mt_on))
        return false;
    xb_cs_lock();
    return true;
}

/* cs: what xb_cs_enter (false/true) or xb_cs_enter_chan (0, 1 "all",
 * chan + 1 a lane) returned. */
static inline void xb_cs_exit(int cs)
{
    if (XB_UNLIKELY(cs != 0))
        xb_cs_unlock(cs);
}

/* Around a user callback (attribute copy/delete, error handler): drop the
 * lock the calling thread holds (inside a binding call), so the callback
 * may call MPI, and take it back afterwards. */
static inline xb_mutex_t *xb_cb_begin(void)
{
    if (XB_LIKELY(!xb_mt_on))
        return NULL;
    if (XB_UNLIKELY(xb_mt_nlanes != 0))
        return xb_cb_begin_lanes();
    xb_mutex_unlock(&xb_mt_big);
    return &xb_mt_big;
}

static inline void xb_cb_end(xb_mutex_t *m)
{
    if (m != NULL) {
        if (XB_LIKELY(xb_mt_nlanes == 0))
            xb_mutex_lock(m);
        else
            xb_cb_end_lanes(m);
    }
}

#endif
