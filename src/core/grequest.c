/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * grequest.c - generalized requests: MPI_Grequest_start,
 * MPI_Grequest_complete and the hooks the completion calls use (see
 * grequest.h for when each callback runs).
 */
#include <stdlib.h>
#include "core/grequest.h"
#include "util/xb_mt.h"
#include "xb_impl.h"

typedef struct xb_greq {
    MPI_Grequest_query_function  *query_fn;
    MPI_Grequest_free_function   *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void                         *extra_state;
    bool                          released;   /* free_fn was called */
} xb_greq_t;

static void greq_destroy(xb_request_t *r)
{
    xb_greq_t *g = r->extra;
    if (g == NULL)
        return;
    if (!g->released)
        (void)xb_greq_release(r);
    free(g);
    r->extra = NULL;
}

static const xb_req_ops_t greq_ops = { .start = NULL, .destroy = greq_destroy };

int xb_impl_grequest_start(MPI_Grequest_query_function *query_fn,
                           MPI_Grequest_free_function *free_fn,
                           MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                           MPI_Request *request)
{
    xb_greq_t *g = calloc(1, sizeof(*g));
    if (g == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a generalized request");
    xb_request_t *r = xb_request_alloc(XB_REQ_GREQ);
    if (r == NULL) {
        free(g);
        return XB_ERR_NO_MEM;
    }
    *g = (xb_greq_t){ query_fn, free_fn, cancel_fn, extra_state, false };
    r->extra = g;
    r->ops = &greq_ops;
    r->fn = "a generalized request";
    xb_status_set_empty(&r->status);
    *request = xb_request_to_handle(r);
    return XB_OK;
}

int xb_impl_grequest_complete(xb_request_t *r)
{
    if (!xb_greq_is(r))
        return xb_err_set(XB_ERR_REQUEST, "the request is not a generalized request "
                          "(MPI_Grequest_start makes those)");
    if (xb_request_is_done(r))
        return xb_err_set(XB_ERR_REQUEST, "the generalized request was completed already");
    xb_request_complete(r);
    return XB_OK;
}

/* A user callback's code as our return value. */
static int user_rc(int code, const char *which)
{
    if (code == MPI_SUCCESS)
        return XB_OK;
    return xb_err_set(-code, "the generalized request's %s returned error code %d", which,
                      code);
}

int xb_greq_query(xb_request_t *r)
{
    xb_greq_t *g = r->extra;
    MPI_Status st;
    xb_status_t *s = &r->status;
    xb_status_set_empty(s);
    xb_status_to_mpi(s, &st, true);
    xb_mutex_t *m = xb_cb_begin();
    int code = g->query_fn(g->extra_state, &st);
    xb_cb_end(m);
    s->source = st.MPI_SOURCE;
    s->tag = st.MPI_TAG;
    s->count = xb_mpi_status_get_count(&st);
    s->cancelled = xb_mpi_status_get_cancelled(&st);
    s->error = code;
    return user_rc(code, "query_fn");
}

int xb_greq_release(xb_request_t *r)
{
    xb_greq_t *g = r->extra;
    if (g == NULL || g->released)
        return XB_OK;
    g->released = true;
    xb_mutex_t *m = xb_cb_begin();
    int code = g->free_fn(g->extra_state);
    xb_cb_end(m);
    if (code != MPI_SUCCESS && r->status.error == MPI_SUCCESS)
        r->status.error = code;
    return user_rc(code, "free_fn");
}

int xb_greq_cancel(xb_request_t *r)
{
    xb_greq_t *g = r->extra;
    int complete = xb_request_is_done(r) ? 1 : 0;
    xb_mutex_t *m = xb_cb_begin();
    int code = g->cancel_fn(g->extra_state, complete);
    xb_cb_end(m);
    return user_rc(code, "cancel_fn");
}
