/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * wait_fast.c - the completion calls without the lock (under
 * MPI_THREAD_MULTIPLE; docs/design/threads.md "Lock-free calls").
 *
 * A binding flagged `fast` in spec/implemented.txt calls xb_fast_<name>
 * with its raw arguments before it takes the lock, when xb_mt_on. The
 * function finishes the call when every request it has to look at is
 * MPI_REQUEST_NULL, inactive (persistent, not started), or complete with
 * MPI_SUCCESS and not generalized, and then returns XB_OK; otherwise it
 * writes nothing and returns XB_INPROGRESS, and the binding does the whole
 * call under the lock as before (a request to wait for or to poll, an
 * error to raise, a generalized request's callbacks, a bad argument).
 *
 * Why no lock is needed:
 *   - a completion publishes the status before `done` (release); a done
 *     request is read after an acquire load of `done`;
 *   - a persistent request's state is read as done, then active, then
 *     done again (all acquire), and the completion stores done, then
 *     active (release): done 1 is complete, active 0 with done 0 is
 *     inactive, not "completing" (request.h); XB_REQ_COMPLETING (its hook
 *     may restart it) takes the locked path; an answer, once done or
 *     inactive, stays so (classify), so the two passes of the array calls
 *     agree;
 *   - the caller owns its requests (two threads may not complete the same
 *     request at once: the standard's "MPI and Threads"), so nobody else
 *     reports or starts them meanwhile, and the handle array is the
 *     caller's;
 *   - reporting writes only the caller's status and handle, `done` of a
 *     persistent request (cleared, as the locked report does) and the
 *     magic (freed) and deferred-free link of a nonpersistent one, whose
 *     freeing (references, pool) waits for the channel's lock
 *     (xb_request_free_deferred). The completing thread may still hold the
 *     lock: it writes nothing more after done (but a persistent request's
 *     active = 0) and reads nothing of a user request after
 *     xb_request_complete (request.h, "After completion").
 *
 * The functions stay out of line: inlined into the bindings they made the
 * locked path of MPI_Test, the one below MULTIPLE, 16 instructions longer
 * (register pressure, and its own helpers no longer inlined).
 */
#include "core/grequest.h"
#include "progress/progress.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

enum { F_EMPTY, F_DONE, F_PENDING, F_SLOW };

/* What a lock-free call may do with handle h (*rp: the request of F_DONE).
 * Stable: once it answers F_DONE or F_EMPTY for a request of the caller,
 * a later call answers the same until the caller reports or starts it
 * (the two-pass calls below rely on it). A persistent request's `done`
 * is loaded first: 1 is complete (only the completer's last store,
 * active = 0, may still be coming, and it changes nothing we read);
 * else `active`: COMPLETING takes the locked path, 1 is pending, 0 is
 * inactive unless `done` became 1 meanwhile (the completion stores done
 * before active = 0, so that 0 makes its done = 1 visible). Loading
 * active first answered F_DONE from a stale active 1 and a later call
 * F_SLOW from the COMPLETING still there (review of fix-h3). */
static inline int classify(MPI_Request h, xb_request_t **rp)
{
    if (h == MPI_REQUEST_NULL)
        return F_EMPTY;
    xb_request_t *r = xb_request_from_handle(h);
    if (r == NULL || xb_greq_is(r))
        return F_SLOW;
    if (!xb_request_is_done(r)) {
        if (!r->persistent)
            return F_PENDING;
        unsigned a = xb_request_active(r);
        if (a == XB_REQ_COMPLETING)
            return F_SLOW;
        if (a != 0)
            return F_PENDING;
        if (!xb_request_is_done(r))
            return F_EMPTY;
    }
    *rp = r;
    return r->status.error == MPI_SUCCESS ? F_DONE : F_SLOW;
}

/* The locked report() of wait_impl.c for a request classify() found done. */
static void report(MPI_Request *h, xb_request_t *r, MPI_Status *st, bool multi)
{
    xb_status_to_mpi(&r->status, st, multi);
    if (r->persistent) {
        atomic_store_explicit(&r->done, 0, memory_order_relaxed);
    } else {
        *h = MPI_REQUEST_NULL;
        xb_request_free_deferred(r);    /* marks it freed: a stale copy of
                                           the handle is MPI_ERR_REQUEST */
    }
}

static bool ready(void) { return xb_init_state() == XB_STATE_INIT; }

static int single(MPI_Request *request, int *flag, MPI_Status *status)
{
    xb_request_t *r = NULL;
    if (!ready() || request == NULL)
        return XB_INPROGRESS;
    switch (classify(*request, &r)) {
    case F_EMPTY:
        xb_mpi_status_empty(status, false);
        break;
    case F_DONE:
        report(request, r, status, false);
        break;
    default:
        return XB_INPROGRESS;
    }
    *flag = 1;
    return XB_OK;
}

XB_NOINLINE int xb_fast_wait(MPI_Request *request, MPI_Status *status)
{
    int flag;
    return single(request, &flag, status);
}

XB_NOINLINE int xb_fast_test(MPI_Request *request, int *flag, MPI_Status *status)
{
    return flag == NULL ? XB_INPROGRESS : single(request, flag, status);
}

XB_NOINLINE int xb_fast_request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    xb_request_t *r = NULL;
    if (!ready() || flag == NULL)
        return XB_INPROGRESS;
    switch (classify(request, &r)) {
    case F_EMPTY:
        xb_mpi_status_empty(status, false);
        break;
    case F_DONE:
        xb_status_to_mpi(&r->status, status, false);
        break;
    default:
        return XB_INPROGRESS;
    }
    *flag = 1;
    return XB_OK;
}

static bool array_ok(int n, const MPI_Request *h)
{
    return ready() && n >= 0 && (n == 0 || h != NULL);
}

/* Waitall, Testall: every request null, inactive or done. */
static int all(int n, MPI_Request *h, MPI_Status *sts)
{
    xb_request_t *r = NULL;
    if (!array_ok(n, h))
        return XB_INPROGRESS;
    for (int i = 0; i < n; i++) {
        int c = classify(h[i], &r);
        if (c != F_EMPTY && c != F_DONE)
            return XB_INPROGRESS;
    }
    for (int i = 0; i < n; i++) {      /* the same answers (classify) */
        if (classify(h[i], &r) == F_DONE)
            report(&h[i], r, xb_mpi_status_at(sts, i), true);
        else
            xb_mpi_status_empty(xb_mpi_status_at(sts, i), true);
    }
    return XB_OK;
}

XB_NOINLINE int xb_fast_waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    return all(count, array_of_requests, array_of_statuses);
}

XB_NOINLINE int xb_fast_testall(int count, MPI_Request array_of_requests[], int *flag,
                    MPI_Status array_of_statuses[])
{
    if (flag == NULL)
        return XB_INPROGRESS;
    int rc = all(count, array_of_requests, array_of_statuses);
    if (rc == XB_OK)
        *flag = 1;
    return rc;
}

/* Waitany, Testany: the first done request (as the locked call: the lowest
 * index), or none active. Every handle is looked at first: the locked call
 * reports a bad one even when an earlier request is done. */
static int any(int n, MPI_Request *h, int *index, int *flag, MPI_Status *st)
{
    xb_request_t *r = NULL, *first = NULL;
    if (!array_ok(n, h) || index == NULL)
        return XB_INPROGRESS;
    bool active = false;
    int at = -1;
    for (int i = 0; i < n; i++) {
        int c = classify(h[i], &r);
        if (c == F_SLOW)
            return XB_INPROGRESS;
        if (c == F_DONE && at < 0) {
            at = i;
            first = r;
        }
        active |= c == F_PENDING;
    }
    if (at >= 0) {
        report(&h[at], first, st, false);
        *index = at;
    } else if (active) {
        return XB_INPROGRESS;
    } else {
        *index = MPI_UNDEFINED;
        xb_mpi_status_empty(st, false);
    }
    *flag = 1;
    return XB_OK;
}

XB_NOINLINE int xb_fast_waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    int flag;
    return any(count, array_of_requests, index, &flag, status);
}

XB_NOINLINE int xb_fast_testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                    MPI_Status *status)
{
    return flag == NULL ? XB_INPROGRESS : any(count, array_of_requests, index, flag, status);
}

/* Waitsome, Testsome: every done request, when there is one; outcount
 * MPI_UNDEFINED when none is active. */
static int some(int n, MPI_Request *h, int *outcount, int *indices, MPI_Status *sts)
{
    xb_request_t *r = NULL;
    if (!array_ok(n, h) || outcount == NULL || (n > 0 && indices == NULL))
        return XB_INPROGRESS;
    int ndone = 0, npending = 0;
    for (int i = 0; i < n; i++) {
        int c = classify(h[i], &r);
        if (c == F_SLOW)
            return XB_INPROGRESS;
        ndone += c == F_DONE;
        npending += c == F_PENDING;
    }
    if (ndone == 0 && npending > 0)
        return XB_INPROGRESS;
    if (ndone == 0) {
        *outcount = MPI_UNDEFINED;
        return XB_OK;
    }
    int k = 0;
    for (int i = 0; i < n && k < ndone; i++) {   /* F_DONE stays F_DONE */
        if (classify(h[i], &r) != F_DONE)
            continue;
        indices[k] = i;
        report(&h[i], r, xb_mpi_status_at(sts, k), true);
        k++;
    }
    *outcount = k;
    return XB_OK;
}

XB_NOINLINE int xb_fast_waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                     int array_of_indices[], MPI_Status array_of_statuses[])
{
    return some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

XB_NOINLINE int xb_fast_testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                     int array_of_indices[], MPI_Status array_of_statuses[])
{
    return some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}
