/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * progress_int.h - the progress context's fields, shared by progress.c
 * (polling, the single-threaded wait) and progress_mt.c (the waits of
 * MPI_THREAD_MULTIPLE and the asynchronous progress thread).
 *
 * Under MULTIPLE every field below `lock` is read and written with the lock
 * held, except `seq` (a futex word: waiters sleep on it unlocked) and
 * `async_stop` (atomic).
 */
#ifndef XB_PROGRESS_INT_H
#define XB_PROGRESS_INT_H

#include "progress/progress.h"
#include "util/xb_mt.h"
#include "util/xb_lanes.h"

enum { XB_PROGRESS_HOOKS = 4 };

struct xb_progress {
    xb_progress_hook_t hooks[XB_PROGRESS_HOOKS];
    const int         *armed[XB_PROGRESS_HOOKS];  /* run hook i if *armed[i] */
    int                nhooks;
    int                backlog;     /* operations queued for retry */
    int                spin;        /* oversubscribed: polls before sleeping */
    bool               yield;       /* oversubscribed: yield between polls */
    uint64_t           spin_ns;     /* otherwise: time spent polling        */
    uint64_t           spin_busy_ns; /* ... while the machine is busy       */
    uint64_t           busy_until;  /* clock until which it counts as busy  */
    uint64_t           test_slice_ns; /* oversubscribed: empty tests run this
                                     * long between yields                  */
    uint64_t           test_since;  /* clock when the current slice began    */
    unsigned           test_empty;  /* empty test polls in it (the clock is
                                     * read every 16)                       */
    int                sleep_ms;

    int                chan;        /* 0 the main context, k lane k          */
    bool               lanes;       /* lanes exist (xb_mt_nlanes != 0)       */
    /* MPI_THREAD_MULTIPLE (progress_mt.c) */
    xb_mutex_t        *lock;        /* &xb_mt_big, or lane k's lock          */
    bool               all;         /* main context with lanes: its lock is
                                     * all of them (xb_mt_lock_all)         */
    atomic_uint        seq;         /* bumped when requests complete while
                                     * threads sleep on it                  */
    int                nsleepers;   /* threads waiting on seq (spin or sleep) */
    int                net_waits;   /* threads in xb_progress_wait_net: what
                                     * they wait for wakes nobody, so sleeps
                                     * are 1 ms slices meanwhile            */
    atomic_int         nfutex;      /* ... of them inside FUTEX_WAIT          */
    bool               polling;     /* the poller token is taken            */
    bool               poller_async;  /* ... by the progress thread         */
    bool               poller_blocked; /* the poller sleeps in the method   */
    bool               can_wake;    /* the sleeping method can be woken     */
};

extern xb_progress_t the_ctx;
/* [1..xb_mt_nlanes]: the lanes (docs/design/threads.md "Progress contexts") */
extern xb_progress_t xb_progress_lanes[XB_LANES_MAX + 1];

/* progress_mt.c */
void xb_progress_mt_init(xb_progress_t *pc);
/* XB_ASYNC_PROGRESS=1: the tunables the progress thread wants otherwise
 * than by default, unless set (xb_progress_init, before reading them). */
void xb_progress_async_defaults(void);
/* what: the text published ("waiting in") if the wait sleeps; NULL with
 * req: req's description, made only then (it costs more instructions
 * than an 8-byte message: see docs/PERFORMANCE.md, Threads). */
bool xb_progress_mt_wait(xb_progress_t *pc, bool (*ready)(void *), void *arg,
                         const char *what, const xb_request_t *req);
void xb_progress_describe(const xb_request_t *r, char *buf, size_t len);
/* The state of one spinning wait (progress.c). */
typedef struct xb_spin {
    uint64_t end;       /* clock when the spin budget runs out (0: unset)  */
    uint64_t last;      /* the previous look at the clock                  */
    bool     moved;     /* a poll made progress since that look            */
} xb_spin_t;
bool xb_progress_spin_done(xb_progress_t *pc, unsigned i, xb_spin_t *sp);

#endif
