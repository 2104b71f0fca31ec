/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * grequest.h - generalized requests (MPI_Grequest_start/_complete).
 *
 * Lifecycle. MPI_Grequest_start makes a request of kind XB_REQ_GREQ that
 * carries the user's query, free and cancel callbacks and extra_state
 * (req->extra); nothing in the library ever completes it: the user calls
 * MPI_Grequest_complete, which marks it done (xb_request_complete: threads
 * waiting on it are woken; a request MPI_Request_free'd before is freed
 * then). The completion calls of src/progress/wait_impl.c call, for such a
 * request:
 *   xb_greq_query    when they report its status (Wait/Test and every
 *                    multiple form, MPI_Request_get_status and its array
 *                    forms): query_fn fills the status; what it returns
 *                    becomes the status' error (a code other than
 *                    MPI_SUCCESS is the call's error, or MPI_ERR_IN_STATUS
 *                    in the multiple-completion calls);
 *   xb_greq_release  before they free it (after the query): free_fn, once;
 *                    its error goes to the status when the query had none.
 * xb_request_free (ops->destroy) calls free_fn if nobody did yet (a
 * request MPI_Request_free'd: the standard calls free_fn but not query_fn).
 * MPI_Cancel calls xb_greq_cancel: cancel_fn(extra_state, complete), with
 * complete = whether MPI_Grequest_complete was called.
 *
 * Threading: called under the bindings' lock; every callback runs with it
 * dropped (xb_cb_begin/xb_cb_end), so callbacks may call MPI, e.g.
 * MPI_Grequest_complete from another thread while this one waits.
 * Returns: XB_OK or a negative XB_ERR_* (detail recorded; a user code c
 * is returned as -c).
 */
#ifndef XB_GREQUEST_H
#define XB_GREQUEST_H

#include "core/request.h"

static inline bool xb_greq_is(const xb_request_t *r) { return r->kind == XB_REQ_GREQ; }
int  xb_greq_query(xb_request_t *r);
int  xb_greq_release(xb_request_t *r);
int  xb_greq_cancel(xb_request_t *r);

#endif
