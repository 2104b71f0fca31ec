/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * progress_mt.c - waiting under MPI_THREAD_MULTIPLE, and the asynchronous
 * progress thread (docs/design/threads.md).
 *
 * Every caller holds the context's lock (the bindings' critical section).
 * Polling needs only the lock: the methods' block() only sleeps (it moves
 * nothing while the lock is free), so whoever holds the lock may poll.
 *
 * Waiting. At most one waiting thread is the *poller* (pc->polling): it
 * polls, lets go of the lock between polls when another thread wants it
 * (xb_mutex_yield), and, when its spin budget is spent, sleeps in the method
 * (xb_method_block) with the lock released. Every other waiting thread
 * sleeps on the context's futex word `seq`, unlocked; whoever completes a
 * request while threads sleep there bumps it and wakes them (the hook
 * xb_request_mt_completed, called by xb_request_complete), so does the
 * poller after a poll that handled events (a Probe waits for an arrival,
 * not a completion), and a poller that leaves hands the token over the
 * same way. A waiter spins on `seq` for a few microseconds before it
 * sleeps in FUTEX_WAIT; the wake syscall is paid only for a sleeper. A thread woken takes the
 * lock back, looks at its own requests, and becomes the poller if nobody
 * is. A completion made by another thread while the poller sleeps in the
 * method rings the method (xb_method_wake), so the poller looks again.
 *
 * The progress thread (XB_ASYNC_PROGRESS=1) is a poller of last resort: it
 * takes the token only when no application thread waits, polls once, and
 * sleeps in the method when nothing moved: it never spins, so it costs no
 * CPU on an oversubscribed node. An application thread that starts to wait
 * rings the method; the progress thread wakes, hands the token over and
 * parks on `seq` until the application's poller leaves.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "progress/progress_int.h"
#include "method/method.h"
#include "runtime/hwtopo.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"

XB_TUNABLE(ASYNC_PROGRESS, XB_TT_BOOL, "0", XB_TL_USER,
           "Run a progress thread that moves rendezvous transfers and nonblocking collectives "
           "forward while the application computes (implies the internal locking of "
           "MPI_THREAD_MULTIPLE; the thread sleeps when there is nothing to do)");

/* Pauses a waiting thread that is not the poller spins on seq before it
 * sleeps: ~10-40 us, about a round trip or two on shared memory; a futex
 * wake-up costs more than that. */
enum { MT_SPIN_POLLS = 2000 };

static struct {
    pthread_t   thread;
    bool        running;
    atomic_uint stop;
    bool        parked;       /* asleep on seq, waiting for the token */
    bool        in_method;    /* asleep in the method (its token may have
                               * been taken over meanwhile: steal_token) */
} async;

/* Bump seq and wake the threads that wait on it (lock held). The bump is
 * enough for those still spinning on it; the syscall only when one sleeps
 * in FUTEX_WAIT (a waiter counts itself in nfutex before it sleeps; both
 * sides are seq_cst, so either it sees the new seq or we see it counted). */
static void bump_seq(xb_progress_t *pc)
{
    atomic_fetch_add(&pc->seq, 1);
    if (atomic_load(&pc->nfutex) > 0)
        xb_futex_wake_all(&pc->seq);
}

static void ring_sleepers(xb_progress_t *pc)
{
    if (pc->nsleepers > 0 || async.parked)
        bump_seq(pc);
}

static void wake_ctx(xb_progress_t *pc)
{
    if (pc->nsleepers > 0)
        bump_seq(pc);
    if (pc->poller_blocked && pc->can_wake)
        xb_method_wake();
}

/* A request of channel chan completed (its lock held, xb_mt_on). With
 * lanes the main context's waiters may wait for it too (a Waitall over
 * lane requests): its fields are written under all the locks, so a lane's
 * lock is enough to read them. */
static void mt_completed(unsigned chan)
{
    if (XB_LIKELY(chan == 0)) {
        wake_ctx(&the_ctx);
        return;
    }
    wake_ctx(&xb_progress_lanes[chan]);
    wake_ctx(&the_ctx);
}

/* The context's lock: the main one's is all of them when lanes exist. */
static void pc_lock(xb_progress_t *pc)
{
    if (XB_UNLIKELY(pc->all))
        xb_mt_lock_all();
    else
        xb_mutex_lock(pc->lock);
}

static void pc_unlock(xb_progress_t *pc)
{
    if (XB_UNLIKELY(pc->all))
        xb_mt_unlock_all();
    else
        xb_mutex_unlock(pc->lock);
}

static void pc_yield(xb_progress_t *pc)
{
    if (XB_UNLIKELY(pc->all))
        xb_mt_yield_all();
    else
        xb_mutex_yield(pc->lock);
}

void xb_progress_mt_init(xb_progress_t *pc)
{
    pc->lock = pc->chan != 0 ? &xb_mt_lane_lock[pc->chan] : &xb_mt_big;
    pc->all = pc->chan == 0 && xb_mt_nlanes != 0;
    atomic_store(&pc->seq, 0);
    atomic_store(&pc->nfutex, 0);
    pc->nsleepers = 0;
    pc->polling = pc->poller_async = pc->poller_blocked = false;
    pc->can_wake = xb_method_can_wake();
    xb_request_mt_completed = xb_mt_on ? mt_completed : NULL;
}

/* Wait for seq to move with the lock released (spin a little when every
 * rank has a CPU, then sleep); back with it held. */
static void sleep_on_seq(xb_progress_t *pc, bool counted)
{
    uint32_t s = atomic_load_explicit(&pc->seq, memory_order_acquire);
    if (counted)
        pc->nsleepers++;
    /* a socket waiter (maybe this thread) looks at its socket between naps */
    int slice = pc->net_waits > 0 ? 1 : pc->sleep_ms;
    pc_unlock(pc);
    bool moved = false;
    for (int i = 0; counted && !pc->yield && i < MT_SPIN_POLLS && !moved; i++) {
        xb_cpu_relax();
        moved = atomic_load_explicit(&pc->seq, memory_order_acquire) != s;
    }
    if (!moved) {
        atomic_fetch_add(&pc->nfutex, 1);
        xb_futex_wait(&pc->seq, s, slice);
        atomic_fetch_sub(&pc->nfutex, 1);
    }
    pc_lock(pc);
    if (counted)
        pc->nsleepers--;
}

/* The poller sleeps in the method with the lock released. */
static void block_in_method(xb_progress_t *pc, int timeout_ms)
{
    pc->poller_blocked = true;
    pc_unlock(pc);
    if (pc->chan != 0)
        xb_method_block_chan(pc->chan, timeout_ms);
    else
        xb_method_block(timeout_ms);
    pc_lock(pc);
    pc->poller_blocked = false;
    if (pc->chan == 0)
        xb_method_costly_due();      /* the sleep looked at the cheap ones only */
}

static int block_timeout(const xb_progress_t *pc)
{
    /* without a wake-up, other threads' completions are seen on timeout;
     * so is a socket of xb_progress_wait_net (nothing wakes the method) */
    return pc->backlog > 0 || pc->net_waits > 0 || !pc->can_wake ? 1 : pc->sleep_ms;
}

static void release_token(xb_progress_t *pc)
{
    pc->polling = false;
    pc->poller_async = false;
    ring_sleepers(pc);
}

/* Say what this thread waits for, before it sleeps. */
static void publish_wait(const char *what, const xb_request_t *req)
{
    char text[200];
    if (what == NULL) {
        xb_progress_describe(req, text, sizeof(text));
        what = text;
    }
    xb_rt_set_waiting(what);
}

/* A lane waiter that is about to sleep runs one poll of the main context
 * when it can take every other lock without waiting (it holds its lane:
 * waiting for a lower lock could deadlock), so nonblocking collectives,
 * RMA and tcp move while threads block in lane calls. */
static int main_poll_from_lane(xb_progress_t *pc)
{
    if (!xb_mt_lanes_try_others(pc->chan))
        return 0;
    int n = xb_progress_poll(&the_ctx);
    if (n > 0 && the_ctx.nsleepers > 0)
        bump_seq(&the_ctx);
    xb_mt_lanes_drop_others(pc->chan);
    return n;
}

/* An application thread starts to wait while the progress thread holds
 * the token asleep in the method: take the token over at once instead of
 * waiting for the thread to hand it over. Woken, the thread needs a CPU,
 * and it runs on the other ranks' CPUs (async_place), where a computing
 * rank may keep it off for a whole time slice (1-3 ms) while nobody polls
 * here. The thread, back from the method, finds the token gone and parks;
 * until then this thread does not sleep in the method itself (two
 * sleepers there would share one wake-up: block_or_yield). */
static bool steal_token(xb_progress_t *pc)
{
    if (!pc->poller_async || !pc->poller_blocked || !async.in_method)
        return false;
    pc->poller_async = false;
    xb_method_wake();
    return true;
}

/* The poller's spin budget is spent: sleep in the method, or, while the
 * progress thread is still in there (steal_token), give the CPU away. */
static void block_or_yield(xb_progress_t *pc)
{
    if (XB_UNLIKELY(async.in_method) && pc == &the_ctx) {
        pc_unlock(pc);
        sched_yield();
        pc_lock(pc);
        return;
    }
    block_in_method(pc, block_timeout(pc));
}

bool xb_progress_mt_wait(xb_progress_t *pc, bool (*ready)(void *), void *arg,
                         const char *what, const xb_request_t *req)
{
    bool mine = false, published = false, slept = false;
    xb_spin_t sp = { 0, 0, false };
    unsigned i = 0;
    while (!ready(arg)) {
        if (pc->polling && !mine && steal_token(pc)) {
            mine = true;
        } else if (pc->polling && !mine) {
            /* another thread polls: the progress thread hands over, an
             * application poller wakes us when something completes */
            if (pc->poller_blocked && (pc->poller_async || pc->backlog > 0))
                xb_method_wake();
            sleep_on_seq(pc, true);
            continue;
        }
        mine = pc->polling = true;
        int n = xb_progress_poll(pc);
        if (n > 0 && pc->nsleepers > 0)
            bump_seq(pc);   /* what they wait for may not be a request (Probe) */
        if (ready(arg))
            break;
        if (n > 0) {
            sp.moved = true;
            if (slept) {            /* woken to work: spin again first */
                slept = false;      /* (progress.c, sleep_until) */
                i = 0;
                sp = (xb_spin_t){ 0, 0, true };
            }
        }
        bool spent = slept ? n == 0 : xb_progress_spin_done(pc, i++, &sp);
        if (spent && pc->chan != 0 && main_poll_from_lane(pc) > 0) {
            sp.moved = true;                /* something else moved: look again */
            continue;
        }
        if (spent) {
            if (!published && (what != NULL || req != NULL) && pc->chan == 0) {
                publish_wait(what, req);
                published = true;
            }
            block_or_yield(pc);
            slept = true;
        } else if (pc->yield && n == 0) {
            pc_unlock(pc);                  /* oversubscribed: hand the core over */
            sched_yield();
            pc_lock(pc);
        } else {
            pc_yield(pc);                   /* let a thread that wants it in */
        }
    }
    if (mine)
        release_token(pc);
    if (published)
        xb_rt_set_waiting("");
    return true;
}

/* ---- the progress thread ----------------------------------------------------- */

static void *async_main(void *arg)
{
    xb_progress_t *pc = arg;
    pc_lock(pc);
    while (!atomic_load_explicit(&async.stop, memory_order_acquire)) {
        if (pc->polling || pc->nsleepers > 0) {
            async.parked = true;            /* an application thread polls */
            sleep_on_seq(pc, false);
            async.parked = false;
            continue;
        }
        pc->polling = pc->poller_async = true;
        int n = xb_progress_poll(pc);
        if (n > 0 && pc->nsleepers > 0)
            bump_seq(pc);
        if (n == 0) {
            async.in_method = true;
            block_in_method(pc, block_timeout(pc));
            async.in_method = false;
        }
        if (pc->poller_async)
            release_token(pc);          /* else an application thread took it */
        pc_yield(pc);
    }
    pc_unlock(pc);
    return NULL;
}

void xb_progress_threads(bool on)
{
    xb_mt_on = on;
    for (int c = 0; c <= xb_mt_nlanes; c++)
        xb_progress_mt_init(xb_progress_ctx(c));
}

/* Where the progress thread runs. A rank bound to one CPU (mpiexec binds
 * when the ranks fit the CPUs) computes on that CPU; a progress thread
 * confined there moves data only when the scheduler preempts the
 * computation for it, which it did for about one transfer in three (the
 * others waited for the application's MPI_Wait). Elsewhere it runs while
 * the application computes: on the CPU of a peer that waits asleep, or on
 * a spare one. So it gets the CPUs the launcher placed this host's ranks
 * on (XB_NODE_CPUS, a list such as "0-3"; without it every CPU, which the
 * kernel narrows to the job's cpuset), less the rank's own. An unbound
 * rank's thread keeps the rank's mask. */
static void async_place(pthread_t t)
{
    static int cpus[CPU_SETSIZE];
    cpu_set_t mine, set;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) != 1)
        return;
    const char *list = getenv("XB_NODE_CPUS");
    int n = list != NULL ? xb_hwtopo_parse_list(list, cpus, CPU_SETSIZE) : -1;
    CPU_ZERO(&set);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (n < 0)
            CPU_SET(c, &set);
        else if (c < n && cpus[c] < CPU_SETSIZE)
            CPU_SET(cpus[c], &set);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mine))
            CPU_CLR(c, &set);
    if (CPU_COUNT(&set) > 0)
        (void)pthread_setaffinity_np(t, sizeof set, &set);    /* best effort */
}

bool xb_progress_async_wanted(void) { return xb_tn_ASYNC_PROGRESS.v.b; }

bool xb_progress_async_running(void) { return async.running; }

void xb_progress_kick(void)
{
    xb_progress_t *pc = &the_ctx;
    if (async.running && async.in_method && pc->poller_async && pc->poller_blocked &&
        pc->can_wake)
        xb_method_wake();
}

/* Defaults that the progress thread changes (docs/design/threads.md,
 * "The progress thread"): a tunable nobody set (not in the environment,
 * not through MPI_T) takes the value that suits a process with a progress
 * thread, and says so as its source (crossbar-info, MPI_T). */
static const struct { const char *name, *value; } async_defaults[] = {
    /* The split copy makes a 4 MiB transfer alone use both CPUs (the
     * sender's helps), so a receiver that computes meanwhile has only one
     * CPU left for it, which is then twice as long as the transfer alone:
     * nothing of it can be hidden (overlap-recv 0.07-0.11 with it, against
     * 0.46-0.99 without it, load 6 on 2 CPUs, 2026-11-24). */
    { "SHM_HELP_MIN", "0" },
    /* A waiting rank's CPU is where the node's other ranks' progress
     * threads run (async_place): a wait spins only as long as on a busy
     * machine, then sleeps and leaves the CPU to a peer's thread that
     * copies (a rendezvous sender waiting for its FIN spun 100 us while
     * the receiver's thread waited for that CPU). */
    { "SPIN_US", "20" },
};

void xb_progress_async_defaults(void)
{
    if (!xb_tn_ASYNC_PROGRESS.v.b)
        return;
    for (size_t i = 0; i < sizeof(async_defaults) / sizeof(async_defaults[0]); i++) {
        xb_tunable_t *t = xb_tunable_find(async_defaults[i].name);
        if (t != NULL && strcmp(t->source, "default") == 0 &&
            xb_tunable_parse(t, async_defaults[i].value) == XB_OK)
            t->source = "XB_ASYNC_PROGRESS";
    }
}

int xb_progress_async_start(void)
{
    if (!xb_tn_ASYNC_PROGRESS.v.b || async.running)
        return XB_OK;
    atomic_store(&async.stop, 0);
    async.parked = async.in_method = false;
    int e = pthread_create(&async.thread, NULL, async_main, &the_ctx);
    if (e != 0)
        return xb_err_sys(XB_ERR_OTHER, e, "pthread_create of the progress thread");
    (void)pthread_setname_np(async.thread, "xb-progress");     /* top -H, gdb */
    async_place(async.thread);
    async.running = true;
    return XB_OK;
}

/* Called with the lock held (MPI_Finalize); returns with it held. */
void xb_progress_async_stop(void)
{
    if (!async.running)
        return;
    xb_progress_t *pc = &the_ctx;
    atomic_store_explicit(&async.stop, 1, memory_order_release);
    atomic_fetch_add(&pc->seq, 1);
    xb_futex_wake_all(&pc->seq);
    if (pc->poller_blocked)
        xb_method_wake();
    pc_unlock(pc);                  /* held: MPI_Finalize, xb_mt_on */
    pthread_join(async.thread, NULL);
    pc_lock(pc);
    async.running = false;
}
