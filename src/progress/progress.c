/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * progress.c - the progress context: polling and waiting (see progress.h).
 *
 * Waiting, in two phases. Spin: poll until SPIN_US microseconds pass with
 * no progress (the budget restarts whenever a poll moved something); on a
 * node with more ranks than CPUs, poll up to SPIN_POLLS_OVERSUB times and
 * yield the CPU after every empty poll instead. Sleep: then sleep in
 * xb_method_block() with a timeout (short while sends wait for room, so
 * they are retried; longer otherwise: a sender wakes the sleeper, the
 * timeout is a safety net). Before the first sleep the wait publishes what
 * it waits in.
 */
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "progress/progress_int.h"
#include "method/method.h"
#include "runtime/cpus.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"

/* 100 us: with a budget of 1000 polls (a few us) a 2-rank ping-pong went to
 * sleep whenever the peer was preempted, and each wake-up cost ~10 us
 * (2026-11-23); a spin of a few round trips keeps small messages at memory
 * speed and still puts a rank that waits for long to sleep. */
XB_TUNABLE(SPIN_US, XB_TT_INT, "100", XB_TL_TUNER,
           "Microseconds a waiting rank polls before it sleeps (when the node has a CPU per rank)");
/* 64: bench/barrier.c with 8 ranks on 2 cores took 31 us per barrier when
 * waiters slept at once, 9-10 us with 16 or 64 yielding polls, 7-11 us with
 * 256 (2026-11-23, loaded machine): a yield hands the core to a rank that
 * has work, a futex sleep costs a wake-up (an IPI in a VM). */
/* A busy machine (other programs want the CPUs): a rank that spins uses up
 * its share of the CPU and is then preempted for a whole time slice, while
 * a rank that sleeps is run soon after the sender wakes it (the scheduler
 * favours tasks that slept). 8-byte latency with two other programs per CPU
 * (2026-11-23, docs/PERFORMANCE.md): 6.6 us with no spin, 191 us with the
 * 100 us spin. So a wait that finds it was preempted while spinning (64
 * polls that should take a few us took more than PREEMPTED_NS) treats the
 * machine as busy for BUSY_HOLD_NS and spins only XB_SPIN_BUSY_US. */
XB_TUNABLE(SPIN_BUSY_US, XB_TT_INT, "20", XB_TL_TUNER,
           "Microseconds a waiting rank polls before it sleeps while the machine is busy "
           "(it was preempted while spinning in the last 100 ms)");
enum { PREEMPTED_NS = 50000 };
#define BUSY_HOLD_NS ((uint64_t)100000000)
XB_TUNABLE(SPIN_POLLS_OVERSUB, XB_TT_INT, "64", XB_TL_TUNER,
           "Polls before sleeping when this node runs more ranks than CPUs; each empty poll "
           "yields the CPU (sched_yield) to a rank that has work");
XB_TUNABLE(TEST_SLICE_US, XB_TT_INT, "20", XB_TL_TUNER,
           "When this node runs more ranks than CPUs, microseconds of empty MPI_Test/MPI_Iprobe "
           "polls (and the work a program does between them) before a poll yields the CPU; "
           "0 yields at every empty poll");
XB_TUNABLE(SLEEP_MS, XB_TT_INT, "20", XB_TL_DEV,
           "Longest sleep of a waiting rank between two polls, in milliseconds (a sender wakes it sooner)");

xb_progress_t the_ctx;
xb_progress_t xb_progress_lanes[XB_LANES_MAX + 1];

xb_progress_t *xb_progress_default(void)
{
    if (XB_UNLIKELY(xb_mt_nlanes != 0)) {
        int h = xb_mt_lanes_held();          /* a lane call: that lane's */
        if (h >= 2)
            return &xb_progress_lanes[h - 1];
    }
    return &the_ctx;
}

xb_progress_t *xb_progress_ctx(int chan)
{
    return chan == 0 ? &the_ctx : &xb_progress_lanes[chan];
}

int xb_progress_chan(const xb_progress_t *pc) { return pc->chan; }

/* More ranks on this node than CPUs to run them (runtime/cpus.h: those
 * this rank may run on, or, when it is bound to one, the machine's online
 * CPUs; capped by its cgroup's CPU quota). */
static bool oversubscribed(void)
{
    return xb_rt()->local_size > xb_cpus_usable();
}

static void ctx_init(xb_progress_t *pc, int chan, bool yield)
{
    pc->chan = chan;
    pc->lanes = xb_mt_nlanes != 0;
    pc->nhooks = 0;
    pc->backlog = 0;
    pc->net_waits = 0;
    pc->yield = yield;
    pc->spin = (int)xb_tn_SPIN_POLLS_OVERSUB.v.i;
    pc->spin_ns = xb_tn_SPIN_US.v.i > 0 ? (uint64_t)xb_tn_SPIN_US.v.i * 1000u : 0;
    pc->spin_busy_ns = xb_tn_SPIN_BUSY_US.v.i > 0 ? (uint64_t)xb_tn_SPIN_BUSY_US.v.i * 1000u : 0;
    if (pc->spin_busy_ns > pc->spin_ns)
        pc->spin_busy_ns = pc->spin_ns;
    pc->busy_until = 0;
    pc->test_slice_ns = xb_tn_TEST_SLICE_US.v.i > 0 ? (uint64_t)xb_tn_TEST_SLICE_US.v.i * 1000u : 0;
    pc->test_since = 0;
    pc->test_empty = 0;
    pc->sleep_ms = (int)xb_tn_SLEEP_MS.v.i;
    if (pc->sleep_ms < 1)
        pc->sleep_ms = 1;
    xb_progress_mt_init(pc);
}

uint64_t xb_progress_oversubscribed;
uint64_t xb_progress_test_yields;

int xb_progress_init(void)
{
    xb_progress_async_defaults();
    bool yield = oversubscribed();
    xb_progress_oversubscribed = yield;
    ctx_init(&the_ctx, 0, yield);
    for (int c = 1; c <= xb_mt_nlanes; c++)
        ctx_init(&xb_progress_lanes[c], c, yield);
    return XB_OK;
}

void xb_progress_fini(void)
{
    for (int c = 0; c <= xb_mt_nlanes; c++)
        xb_progress_ctx(c)->nhooks = 0;
}

static const int always = 1;

int xb_progress_hook_add_chan(int chan, xb_progress_hook_t hook, const int *armed)
{
    xb_progress_t *pc = xb_progress_ctx(chan);
    if (pc->nhooks == XB_PROGRESS_HOOKS)
        return xb_err_set(XB_ERR_INTERN, "too many progress hooks");
    pc->armed[pc->nhooks] = armed != NULL ? armed : &always;
    pc->hooks[pc->nhooks++] = hook;
    return XB_OK;
}

int xb_progress_hook_add(xb_progress_hook_t hook, const int *armed)
{
    return xb_progress_hook_add_chan(0, hook, armed);
}

void xb_progress_set_backlog(xb_progress_t *pc, int nqueued) { pc->backlog = nqueued; }

/* With lanes: a lane polls its channel; the main context polls the
 * methods and every lane (its lock is all of them). */
static XB_NOINLINE int poll_lanes(xb_progress_t *pc)
{
    if (pc->chan != 0)
        return xb_method_progress_chan(pc->chan);
    int n = xb_method_progress_main();
    for (int c = 1; c <= xb_mt_nlanes; c++)
        n += xb_progress_poll(&xb_progress_lanes[c]);
    xb_comm_bury();         /* communicators released under a lane's lock */
    return n;
}

int xb_progress_poll(xb_progress_t *pc)
{
    /* free what the lock-free reports left (request.h): a collective's
     * schedule holds its buffers until then */
    xb_request_drain((unsigned)pc->chan);
    int n = XB_LIKELY(!pc->lanes) ? xb_method_progress_all() : poll_lanes(pc);
    for (int i = 0; i < pc->nhooks; i++)
        if (*pc->armed[i] != 0)
            n += pc->hooks[i](pc);
    return n;
}

void xb_progress_describe(const xb_request_t *r, char *buf, size_t len)
{
    /* odd context ids carry collective traffic (core.h) */
    const char *fn = r->fn != NULL ? r->fn
                   : (r->ctx & 1u) ? "a collective, internally" : "MPI_Wait";
    const char *cname = r->comm != NULL ? r->comm->name : "?";
    if (r->kind == XB_REQ_RECV || r->kind == XB_REQ_PRECV)
        snprintf(buf, len, "%s(source=%d, tag=%d, comm=%s)", fn, r->peer, r->tag, cname);
    else if (r->kind == XB_REQ_SEND || r->kind == XB_REQ_PSEND)
        snprintf(buf, len, "%s(dest=%d, tag=%d, comm=%s)", fn, r->peer, r->tag, cname);
    else
        snprintf(buf, len, "%s", fn);
}

/* 4 ranks on 2 CPUs, pairs where one computes 100 us and sends while the
 * other spins on MPI_Test: 2485 us a round without the yield (the spinner
 * kept its CPU until the time slice ended), 106 us for Open MPI, which
 * yields when oversubscribed (2026-11-29). A yield at every empty test,
 * though, cost a program that works between its tests a context switch per
 * test: HPCC's MPIRandomAccess (a Test of an ANY_SOURCE receive between
 * table updates) made 0.0012 GUP/s at 4 ranks on 2 CPUs, as Open MPI,
 * against MPICH's 0.021 (it never yields). So empty tests yield once per
 * TEST_SLICE_US of them: 0.025 GUP/s, and the spinning pairs above are
 * unchanged (2026-12-07, docs/PERFORMANCE.md). */
int xb_progress_poll_test(xb_progress_t *pc)
{
    int n = xb_progress_poll(pc);
    if (n == 0 && pc->yield && !xb_mt_on) {
        if (pc->test_slice_ns != 0) {
            if ((pc->test_empty++ & 15) != 0)
                return n;
            uint64_t t = xb_now_ns();
            if (pc->test_since == 0)
                pc->test_since = t;
            if (t - pc->test_since < pc->test_slice_ns)
                return n;
        }
        xb_progress_test_yields++;
        sched_yield();
        pc->test_since = 0;             /* a new slice from the next test on */
    }
    return n;
}

/* The spin phase: true when ready before the spin budget ran out. */
static bool spin_until(xb_progress_t *pc, bool (*ready)(void *), void *arg)
{
    if (pc->yield) {
        for (int i = 0; i < pc->spin; i++) {
            if (ready(arg))
                return true;
            if (xb_progress_poll(pc) == 0)
                sched_yield();
        }
        return ready(arg);
    }
    /* The budget counts from the last poll that made progress: a wait on
     * many operations (MPI_Waitall of a 64-message window of 32 KiB-4 MiB
     * rendezvous sends, bench/bw.c) that kept moving went to sleep 100 us
     * after it began, and then paid a futex wake-up per message, and so
     * did its peer (bw 32 KiB 2.6 vs 8.5 GB/s for Open MPI, 2026-11-23). */
    xb_spin_t sp = { 0, 0, false };
    for (unsigned i = 0;; i++) {
        if (ready(arg))
            return true;
        if (xb_progress_poll(pc) > 0)
            sp.moved = true;
        if (xb_progress_spin_done(pc, i, &sp))
            return ready(arg);
    }
}

/* The spin budget after poll number i (see spin_until; sp->moved: a poll
 * made progress since the last look at the clock). Also the two guards of
 * a busy machine (docs/design/progress.md): a peer that shares our CPU
 * cannot run while we spin, so yield to it (single-threaded waits only:
 * an MT waiter holds the lock here); and 64 polls without progress that
 * took more than PREEMPTED_NS mean we were preempted, so the budget is
 * XB_SPIN_BUSY_US for the next BUSY_HOLD_NS. */
bool xb_progress_spin_done(xb_progress_t *pc, unsigned i, xb_spin_t *sp)
{
    if (pc->yield)
        return (int)i >= pc->spin;
    if ((i & 15) == 15 && !xb_mt_on && xb_method_crowded())
        sched_yield();
    if ((i & 63) != 63)                     /* a clock read every 64 polls */
        return false;
    uint64_t t = xb_now_ns();
    if (!sp->moved && sp->last != 0 && t - sp->last > PREEMPTED_NS)
        pc->busy_until = t + BUSY_HOLD_NS;
    sp->last = t;
    if (sp->end == 0 || sp->moved)
        sp->end = t + (t < pc->busy_until ? pc->spin_busy_ns : pc->spin_ns);
    else if (t >= sp->end)
        return true;
    sp->moved = false;
    return false;
}

/* The sleep phase: poll, and sleep in the method when nothing happened. */
/* NET_NONE: sleep in the methods (xb_method_block); else on the sockets
 * and that descriptor (-1: none), xb_method_block_net. */
enum { NET_NONE = -2 };

static void sleep_until(xb_progress_t *pc, bool (*ready)(void *), void *arg,
                        const char *what, int net_fd)
{
    xb_rt_set_waiting(what);
    while (!ready(arg)) {
        /* Work after a sleep (a message that woke us) is often the first
         * of several: spin again before the next sleep. A rank asleep in
         * MPI_Barrier that grants a passive-target lock gets the epoch's
         * operations and its unlock right after; going back to sleep
         * after each of them cost a wake-up per message: lock, an 8-byte
         * get, unlock 34 us at 2 ranks against 1.3 while the target still
         * spun (MPICH's rma_contig, 2026-12-07). */
        if (xb_progress_poll(pc) > 0) {
            if (spin_until(pc, ready, arg))
                break;
            continue;
        }
        if (ready(arg))
            break;
        if (net_fd == NET_NONE)
            xb_method_block(pc->backlog > 0 ? 1 : pc->sleep_ms);
        else
            xb_method_block_net(net_fd, 1);
    }
    xb_rt_set_waiting("");
}

int xb_progress_wait_until(xb_progress_t *pc, bool (*ready)(void *), void *arg,
                           const char *what)
{
    if (XB_UNLIKELY(xb_mt_on)) {
        xb_progress_mt_wait(pc, ready, arg, what, NULL);
        return XB_OK;
    }
    if (!spin_until(pc, ready, arg))
        sleep_until(pc, ready, arg, what, NET_NONE);
    return XB_OK;
}

int xb_progress_wait_net(xb_progress_t *pc, bool (*ready)(void *), void *arg,
                         const char *what, int fd)
{
    if (XB_UNLIKELY(xb_mt_on)) {
        pc->net_waits++;                 /* the sleeps become 1 ms slices */
        xb_progress_mt_wait(pc, ready, arg, what, NULL);
        pc->net_waits--;
        return XB_OK;
    }
    if (!spin_until(pc, ready, arg))
        sleep_until(pc, ready, arg, what, fd < 0 ? -1 : fd);
    return XB_OK;
}

static bool req_ready(void *arg) { return xb_request_is_done(arg); }

XB_NOINLINE static int wait_slow(xb_progress_t *pc, xb_request_t *r)
{
    if (XB_UNLIKELY(xb_mt_on)) {
        xb_progress_mt_wait(pc, req_ready, r, NULL, r);
        return XB_OK;
    }
    if (spin_until(pc, req_ready, r))
        return XB_OK;
    char what[200];                 /* only for a wait that goes to sleep */
    xb_progress_describe(r, what, sizeof(what));
    sleep_until(pc, req_ready, r, what, NET_NONE);
    return XB_OK;
}

static bool flag_ready(void *arg)
{
    return atomic_load_explicit((const atomic_uint *)arg, memory_order_acquire) != 0;
}

void xb_progress_wait_flag(xb_progress_t *pc, const atomic_uint *flag, const char *what)
{
    xb_progress_wait_until(pc, flag_ready, (void *)flag, what);
}

int xb_request_status_rc(const xb_request_t *r)
{
    if (XB_LIKELY(r->status.error == MPI_SUCCESS))
        return XB_OK;
    const char *text = r->ops != NULL && r->ops->errtext != NULL ? r->ops->errtext(r) : NULL;
    if (text != NULL)
        return xb_err_set(-r->status.error, "%s", text);
    if (r->status.error == MPI_ERR_TRUNCATE)
        return xb_err_set(XB_ERR_TRUNCATE,
                          "message of %zu bytes from rank %d (tag %d) truncated: the receive "
                          "buffer holds %lld bytes",
                          r->bytes, r->status.source, r->status.tag,
                          (long long)r->status.count);
    if (r->status.error == MPI_ERR_TYPE && (r->kind == XB_REQ_RECV || r->kind == XB_REQ_PRECV))
        return xb_err_set(XB_ERR_TYPE,
                          "message of %zu bytes from rank %d (tag %d) ends inside a basic "
                          "element of the receive datatype: the send and receive type "
                          "signatures do not match",
                          r->bytes, r->status.source, r->status.tag);
    return xb_err_set(-r->status.error, "the operation failed (error class %d)",
                      r->status.error);
}

int xb_progress_wait(xb_progress_t *pc, xb_request_t *r)
{
    if (!xb_request_is_done(r)) {
        if (XB_LIKELY(!xb_mt_on))
            xb_progress_poll(pc);
        if (!xb_request_is_done(r))
            wait_slow(pc, r);
    }
    return xb_request_status_rc(r);
}

int xb_request_wait(xb_request_t *req, MPI_Status *st)
{
    int rc = xb_progress_wait(xb_progress_default(), req);
    xb_status_to_mpi(&req->status, st, true);
    return rc;
}

int xb_request_waitall(int n, xb_request_t **reqs)
{
    int first = XB_OK;
    for (int i = 0; i < n; i++) {
        if (reqs[i] == NULL)
            continue;
        int rc = xb_progress_wait(xb_progress_default(), reqs[i]);
        if (rc != XB_OK && first == XB_OK)
            first = rc;
    }
    return first;
}

void xb_request_release(xb_request_t *req)
{
    if (req == NULL)
        return;
    if (xb_request_is_done(req))
        xb_request_free(req);
    else
        req->flags |= XB_REQ_F_AUTOFREE;
}
