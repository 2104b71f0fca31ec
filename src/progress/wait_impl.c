/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * wait_impl.c - MPI_Wait/Test and their any/all/some forms,
 * MPI_Request_get_status and its MPI 4.1 array forms (_all, _any, _some:
 * Testall/Testany/Testsome that neither free nor deactivate a request) and
 * MPI_Request_free (binding convention: xb_impl_*).
 *
 * States of a user request, read from its fields:
 *   pending    done == 0, and (not persistent or active)
 *   completed  done == 1: not yet reported to the user
 *   inactive   persistent, active == 0, done == 0 (reported, or never
 *              started): the calls report the empty status at once.
 * Reporting a completion frees a nonpersistent request (the handle becomes
 * MPI_REQUEST_NULL) and makes a persistent one inactive. A generalized
 * request's status comes from its query_fn, called (lock dropped) each time
 * it is reported, and its free_fn runs before it is freed
 * (core/grequest.h).
 */
#include <stdio.h>
#include "core/grequest.h"
#include "progress/progress.h"
#include "xb_impl.h"

static inline bool is_inactive(const xb_request_t *r)
{
    return r->persistent && !xb_request_active(r) && !xb_request_is_done(r);
}

/* NULL for MPI_REQUEST_NULL (*rc_p = XB_OK) or a bad handle (error). */
static xb_request_t *resolve(MPI_Request h, int *rc_p)
{
    *rc_p = XB_OK;
    if (h == MPI_REQUEST_NULL)
        return NULL;
    xb_request_t *r = xb_request_from_handle(h);
    if (r == NULL)
        *rc_p = xb_err_set(XB_ERR_REQUEST, "invalid request handle %p (freed or never created)",
                           (void *)h);
    return r;
}

/* The communicator whose errhandler a failed request's error goes to:
 * the one of a point-to-point or collective operation (NULL otherwise:
 * generalized, RMA and I/O requests stay with MPI_COMM_SELF's). */
static void note_error(const xb_request_t *r)
{
    switch (r->kind) {
    case XB_REQ_SEND: case XB_REQ_RECV: case XB_REQ_PSEND: case XB_REQ_PRECV:
    case XB_REQ_PAIR: case XB_REQ_COLL:
        xb_errh_note_comm(r->comm);
        break;
    default:
        break;
    }
}

/* Report a completed request: status out, then free or deactivate. A
 * failure is noted with its communicator (note: the first of a call).
 * MPI_ERROR is written only by the calls that return several statuses
 * (multi): a single-status call leaves it as the caller had it (MPI 4.1
 * 3.2.5, as Open MPI and MPICH do). */
static int report(MPI_Request *h, xb_request_t *r, MPI_Status *st, bool note, bool multi)
{
    if (xb_greq_is(r)) {
        int rc = xb_greq_query(r);
        int frc = xb_greq_release(r);
        xb_status_to_mpi(&r->status, st, multi);
        xb_request_free(r);
        *h = MPI_REQUEST_NULL;
        return rc != XB_OK ? rc : frc;
    }
    int rc = xb_request_status_rc(r);
    if (rc != XB_OK && note)
        note_error(r);
    xb_status_to_mpi(&r->status, st, multi);
    if (r->persistent) {
        atomic_store_explicit(&r->done, 0, memory_order_relaxed);
    } else {
        xb_request_free(r);
        *h = MPI_REQUEST_NULL;
    }
    return rc;
}

static inline bool has_work(const xb_request_t *r) { return r != NULL && !is_inactive(r); }

int xb_impl_wait(MPI_Request *request, MPI_Status *status)
{
    int rc;
    xb_request_t *r = resolve(*request, &rc);
    if (!has_work(r)) {
        if (rc == XB_OK)
            xb_mpi_status_empty(status, false);
        return rc;
    }
    if (!xb_request_is_done(r))
        xb_progress_wait(xb_progress_default(), r);
    return report(request, r, status, true, false);
}

int xb_impl_test(MPI_Request *request, int *flag, MPI_Status *status)
{
    int rc;
    xb_request_t *r = resolve(*request, &rc);
    if (!has_work(r)) {
        if (rc == XB_OK) {
            *flag = 1;
            xb_mpi_status_empty(status, false);
        }
        return rc;
    }
    if (!xb_request_is_done(r))
        xb_progress_poll_test(xb_progress_default());
    if (!xb_request_is_done(r)) {
        *flag = 0;
        return XB_OK;
    }
    *flag = 1;
    return report(request, r, status, true, false);
}

/* ---- arrays ---------------------------------------------------------------- */

typedef struct req_set {
    int                n;
    const MPI_Request *h;
    int                next;    /* all_done: h[0..next) are known complete */
} req_set_t;

static int check_all(int n, const MPI_Request *h)
{
    int rc;
    for (int i = 0; i < n; i++) {
        resolve(h[i], &rc);
        if (rc != XB_OK)
            return xb_err_set(XB_ERR_REQUEST, "invalid request handle at array_of_requests[%d]", i);
    }
    return XB_OK;
}

static bool any_done(void *arg)
{
    req_set_t *s = arg;
    int active = 0;
    for (int i = 0; i < s->n; i++) {
        xb_request_t *r = xb_request_from_handle(s->h[i]);
        if (has_work(r)) {
            active++;
            if (xb_request_is_done(r))
                return true;
        }
    }
    return active == 0;
}

/* A completed request stays complete until it is reported, and the caller
 * owns the array for the whole call, so the scan resumes where it stopped:
 * a Waitall over a window of n messages that complete one by one looked at
 * n^2/2 requests (bench/bw.c, 64 messages: 100 instructions a message). */
static bool all_done(void *arg)
{
    req_set_t *s = arg;
    for (; s->next < s->n; s->next++) {
        xb_request_t *r = xb_request_from_handle(s->h[s->next]);
        if (has_work(r) && !xb_request_is_done(r))
            return false;
    }
    return true;
}

static int failed_in_status(int nerr, int first, int k, const MPI_Status *sts)
{
    if (nerr == 0)
        return XB_OK;
    if (sts == MPI_STATUSES_IGNORE)
        return first;
    int rc = xb_err_set(XB_ERR_IN_STATUS, "%d of the %d completed requests failed; see the "
                        "MPI_ERROR field of their statuses", nerr, k);
    xb_errh_note_keep();
    return rc;
}

/* Report every request of the array (all complete or inactive). */
static int report_all(int n, MPI_Request *h, MPI_Status *sts)
{
    int nerr = 0, first = XB_OK;
    char first_text[256] = "";
    for (int i = 0; i < n; i++) {
        xb_request_t *r = xb_request_from_handle(h[i]);
        if (!has_work(r)) {
            xb_mpi_status_empty(xb_mpi_status_at(sts, i), true);
            continue;
        }
        int rc = report(&h[i], r, xb_mpi_status_at(sts, i), nerr == 0, true);
        if (rc != XB_OK && nerr++ == 0) {
            first = rc;
            snprintf(first_text, sizeof(first_text), "%s", xb_err_detail());
        }
    }
    if (nerr > 1 && sts == MPI_STATUSES_IGNORE) {
        /* the later failures replaced the first's detail, and with it the
         * note of its communicator: the first is what the call reports */
        first = xb_err_set(first, "%s", first_text);
        xb_errh_note_keep();
    }
    return failed_in_status(nerr, first, n, sts);
}

int xb_impl_waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    int rc = check_all(count, array_of_requests);
    if (rc != XB_OK)
        return rc;
    req_set_t s = { count, array_of_requests, 0 };
    if (!all_done(&s))
        xb_progress_wait_until(xb_progress_default(), all_done, &s, "MPI_Waitall");
    return report_all(count, array_of_requests, array_of_statuses);
}

/* Testall and Request_get_status_all: are all done (after one poll)? */
static int poll_all(int count, const MPI_Request *reqs, int *flag)
{
    int rc = check_all(count, reqs);
    if (rc != XB_OK)
        return rc;
    req_set_t s = { count, reqs, 0 };
    if (!all_done(&s))
        xb_progress_poll_test(xb_progress_default());
    *flag = all_done(&s) ? 1 : 0;
    return XB_OK;
}

int xb_impl_testall(int count, MPI_Request array_of_requests[], int *flag,
                    MPI_Status array_of_statuses[])
{
    int rc = poll_all(count, array_of_requests, flag);
    if (rc != XB_OK || !*flag)
        return rc;
    return report_all(count, array_of_requests, array_of_statuses);
}

/* Index of the first completed active request; -1 if none; -2 if none active. */
static int first_done(int n, const MPI_Request *h)
{
    int active = 0;
    for (int i = 0; i < n; i++) {
        xb_request_t *r = xb_request_from_handle(h[i]);
        if (!has_work(r))
            continue;
        active++;
        if (xb_request_is_done(r))
            return i;
    }
    return active ? -1 : -2;
}

static int any_common(int count, MPI_Request *h, int *index, int *flag, MPI_Status *st,
                      bool block)
{
    int rc = check_all(count, h);
    if (rc != XB_OK)
        return rc;
    int i = first_done(count, h);
    if (i == -1) {
        req_set_t s = { count, h, 0 };
        if (block)
            xb_progress_wait_until(xb_progress_default(), any_done, &s, "MPI_Waitany");
        else
            xb_progress_poll_test(xb_progress_default());
        i = first_done(count, h);
    }
    if (i == -2) {
        *index = MPI_UNDEFINED;
        *flag = 1;
        xb_mpi_status_empty(st, false);
        return XB_OK;
    }
    if (i == -1) {
        *index = MPI_UNDEFINED;
        *flag = 0;
        return XB_OK;
    }
    *index = i;
    *flag = 1;
    return report(&h[i], xb_request_from_handle(h[i]), st, true, false);
}

int xb_impl_waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    int flag;
    return any_common(count, array_of_requests, index, &flag, status, true);
}

int xb_impl_testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                    MPI_Status *status)
{
    return any_common(count, array_of_requests, index, flag, status, false);
}

/* Waitsome, Testsome and Request_get_status_some: WAIT blocks until one
 * is done, TEST and PEEK poll once; PEEK leaves the requests as they are. */
enum some_mode { SOME_WAIT, SOME_TEST, SOME_PEEK };

static int peek(xb_request_t *r, MPI_Status *st, bool note, bool multi)
{
    if (xb_greq_is(r)) {
        int rc = xb_greq_query(r);
        xb_status_to_mpi(&r->status, st, multi);
        return rc;
    }
    xb_status_to_mpi(&r->status, st, multi);
    int rc = xb_request_status_rc(r);
    if (rc != XB_OK && note)
        note_error(r);
    return rc;
}

static int some_common(int n, MPI_Request *h, int *outcount, int *indices, MPI_Status *sts,
                       enum some_mode mode)
{
    int rc = check_all(n, h);
    if (rc != XB_OK)
        return rc;
    req_set_t s = { n, h, 0 };
    if (first_done(n, h) == -1) {
        if (mode == SOME_WAIT)
            xb_progress_wait_until(xb_progress_default(), any_done, &s, "MPI_Waitsome");
        else
            xb_progress_poll_test(xb_progress_default());
    }
    if (first_done(n, h) == -2) {
        *outcount = MPI_UNDEFINED;
        return XB_OK;
    }
    int k = 0, nerr = 0, first = XB_OK;
    for (int i = 0; i < n; i++) {
        xb_request_t *r = xb_request_from_handle(h[i]);
        if (!has_work(r) || !xb_request_is_done(r))
            continue;
        indices[k] = i;
        rc = mode == SOME_PEEK ? peek(r, xb_mpi_status_at(sts, k), nerr == 0, true)
                               : report(&h[i], r, xb_mpi_status_at(sts, k), nerr == 0, true);
        k++;
        if (rc != XB_OK && nerr++ == 0)
            first = rc;
    }
    *outcount = k;
    return failed_in_status(nerr, first, k, sts);
}

int xb_impl_waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                     int array_of_indices[], MPI_Status array_of_statuses[])
{
    return some_common(incount, array_of_requests, outcount, array_of_indices,
                       array_of_statuses, SOME_WAIT);
}

int xb_impl_testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                     int array_of_indices[], MPI_Status array_of_statuses[])
{
    return some_common(incount, array_of_requests, outcount, array_of_indices,
                       array_of_statuses, SOME_TEST);
}

int xb_impl_request_get_status(xb_request_t *r, int *flag, MPI_Status *status)
{
    if (!has_work(r)) {
        *flag = 1;
        xb_mpi_status_empty(status, false);
        return XB_OK;
    }
    if (!xb_request_is_done(r))
        xb_progress_poll_test(xb_progress_default());
    if (!xb_request_is_done(r)) {
        *flag = 0;
        return XB_OK;
    }
    *flag = 1;
    if (xb_greq_is(r))
        return peek(r, status, true, false);
    xb_status_to_mpi(&r->status, status, false);
    return XB_OK;
}

/* ---- MPI 4.1: nondestructive array forms ------------------------------------
 * The requests stay as they are: a completed one is reported again by the
 * next call and still has to be completed by a Wait/Test or freed. */

/* Status of a completed request without freeing or deactivating it. */
int xb_impl_request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                   MPI_Status array_of_statuses[])
{
    int rc = poll_all(count, array_of_requests, flag);
    if (rc != XB_OK || !*flag)
        return rc;
    int nerr = 0, first = XB_OK;
    for (int i = 0; i < count; i++) {
        xb_request_t *r = xb_request_from_handle(array_of_requests[i]);
        if (!has_work(r)) {
            xb_mpi_status_empty(xb_mpi_status_at(array_of_statuses, i), true);
            continue;
        }
        rc = peek(r, xb_mpi_status_at(array_of_statuses, i), nerr == 0, true);
        if (rc != XB_OK && nerr++ == 0)
            first = rc;
    }
    return failed_in_status(nerr, first, count, array_of_statuses);
}

int xb_impl_request_get_status_any(int count, const MPI_Request array_of_requests[], int *index,
                                   int *flag, MPI_Status *status)
{
    int rc = check_all(count, array_of_requests);
    if (rc != XB_OK)
        return rc;
    int i = first_done(count, array_of_requests);
    if (i == -1) {
        xb_progress_poll_test(xb_progress_default());
        i = first_done(count, array_of_requests);
    }
    *index = i >= 0 ? i : MPI_UNDEFINED;
    *flag = i != -1;
    if (i == -2)        /* no active request: the empty status, MPI_ERROR
                         * included (as MPICH; mpi4py's test_request checks it) */
        xb_mpi_status_empty(status, true);
    if (i < 0)
        return XB_OK;
    return peek(xb_request_from_handle(array_of_requests[i]), status, true, false);
}

int xb_impl_request_get_status_some(int incount, const MPI_Request array_of_requests[],
                                    int *outcount, int array_of_indices[],
                                    MPI_Status array_of_statuses[])
{
    if (incount > 0 && array_of_indices == NULL)
        return xb_err_set(XB_ERR_ARG, "array_of_indices is NULL (it needs room for up to "
                          "incount = %d indices)", incount);
    /* PEEK writes nothing into the handles */
    return some_common(incount, (MPI_Request *)(uintptr_t)array_of_requests, outcount,
                       array_of_indices, array_of_statuses, SOME_PEEK);
}

int xb_impl_request_free(MPI_Request *request)
{
    int rc;
    xb_request_t *r = resolve(*request, &rc);
    if (r == NULL)
        return rc != XB_OK ? rc
                           : xb_err_set(XB_ERR_REQUEST, "the request is MPI_REQUEST_NULL");
    if (xb_request_is_done(r) || is_inactive(r)) {
        rc = xb_greq_is(r) ? xb_greq_release(r) : XB_OK;
        xb_request_free(r);
        *request = MPI_REQUEST_NULL;
        return rc;
    }
    r->flags |= XB_REQ_F_USERFREED;
    *request = MPI_REQUEST_NULL;
    return XB_OK;
}
