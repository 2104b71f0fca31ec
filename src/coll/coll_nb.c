/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_nb.c - nonblocking and persistent collectives: a collective request
 * (XB_REQ_COLL) owns a heap schedule; active schedules sit on a list that
 * the coll layer's progress hook advances at every poll of the progress
 * engine, so they move on in every MPI call (Wait, Test, other
 * communication) until a progress thread exists.
 *
 * A user op under MULTIPLE runs without the lock (xb_coll_sched_user_op),
 * so its schedule is off the active list meanwhile: another thread walking
 * the list (as the poller) must not reach a schedule whose step is running.
 *
 * Request lifecycle: post -> (active list) -> complete (status error set,
 * xb_request_complete). A nonpersistent request is freed by Wait/Test or
 * Request_free; a persistent one (persistent = true) starts inactive and is
 * re-armed by MPI_Start (ops.start), which restarts the schedule. A
 * nonpersistent schedule lets go of its steps, buffers and objects when it
 * finishes (xb_coll_sched_release), before the request completes; freeing
 * the request destroys the rest (ops.destroy).
 */
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"
#include "pt2pt/pt2pt.h"

static xb_coll_sched_t *active;      /* singly linked through ->next */
static int nactive;                  /* its length: the hook's "armed" word */
static bool in_hook;

static void finish(xb_coll_sched_t *s, int rc)
{
    xb_request_t *r = s->req;
    xb_status_set_empty(&r->status);
    r->status.error = rc == XB_OK ? MPI_SUCCESS : -rc;
    if (XB_UNLIKELY(rc != XB_OK)) {        /* its sentence, for the wait */
        free(s->errtext);
        s->errtext = strdup(xb_err_detail());
    }
    if (!r->persistent)             /* a restart needs them; nothing else */
        xb_coll_sched_release(s);
    xb_request_complete(r);
}

/* Advance s, which is on no list: run user ops (unlocked) as they come;
 * then either finish it or put it on the active list. */
static void advance_off_list(xb_coll_sched_t *s)
{
    int rc = xb_coll_sched_advance(s);
    while (rc == XB_COLL_USER_OP) {
        rc = xb_coll_sched_user_op(s);
        if (rc == XB_OK)
            rc = xb_coll_sched_advance(s);
    }
    if (rc == XB_INPROGRESS) {
        s->next = active;
        active = s;
        nactive++;
        return;
    }
    finish(s, rc);
}

static int coll_hook(xb_progress_t *pc)
{
    (void)pc;
    if (in_hook || active == NULL)
        return 0;
    in_hook = true;
    int events = 0;
    xb_coll_sched_t **link = &active, *user = NULL;
    while (*link != NULL) {
        xb_coll_sched_t *s = *link;
        int pc0 = s->pc;
        int rc = xb_coll_sched_advance(s);
        if (rc == XB_INPROGRESS) {
            events += s->pc != pc0;
            link = &s->next;
            continue;
        }
        *link = s->next;          /* unlink first: finishing may free s */
        nactive--;
        events++;
        if (rc == XB_COLL_USER_OP) {          /* after the walk, unlocked */
            s->next = user;
            user = s;
            continue;
        }
        s->next = NULL;
        finish(s, rc);
    }
    in_hook = false;
    while (user != NULL) {
        xb_coll_sched_t *s = user;
        user = s->next;
        s->next = NULL;
        int rc = xb_coll_sched_user_op(s);
        if (rc == XB_OK)
            advance_off_list(s);
        else
            finish(s, rc);
    }
    return events;
}

/* Start (or restart) the schedule of request r: advance once, then either
 * finish at once or join the active list. */
static int start(xb_request_t *r)
{
    xb_coll_sched_t *s = r->extra;
    atomic_store_explicit(&r->done, 0, memory_order_relaxed);
    xb_request_set_active(r, 1);
    xb_coll_sched_restart(s);
    advance_off_list(s);
    return XB_OK;
}

static void destroy(xb_request_t *r)
{
    xb_coll_sched_t *s = r->extra;
    r->extra = NULL;
    if (s == NULL)
        return;
    for (xb_coll_sched_t **l = &active; *l != NULL; l = &(*l)->next)
        if (*l == s) {
            *l = s->next;
            nactive--;
            break;
        }
    xb_coll_sched_destroy(s);
}

static const char *errtext(const xb_request_t *r)
{
    const xb_coll_sched_t *s = r->extra;
    return s != NULL && s->errtext != NULL && s->errtext[0] != '\0' ? s->errtext : NULL;
}

static const xb_req_ops_t coll_ops = { start, destroy, errtext };

static xb_request_t *post(xb_coll_sched_t *s, bool persistent)
{
    xb_request_t *r = xb_request_alloc(XB_REQ_COLL);
    if (r == NULL) {
        xb_coll_sched_destroy(s);
        return NULL;
    }
    r->comm = s->comm;
    xb_comm_retain(r->comm);
    r->fn = s->fn;
    r->extra = s;
    r->ops = &coll_ops;
    r->persistent = persistent;
    s->req = r;
    return r;
}

int xb_coll_sched_post(xb_coll_sched_t *s, bool persistent, MPI_Request *req)
{
    xb_request_t *r = post(s, persistent);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    *req = xb_request_to_handle(r);
    return persistent ? XB_OK : start(r);
}

int xb_coll_sched_post_wait(xb_coll_sched_t *s)
{
    xb_request_t *r = post(s, false);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    start(r);
    int rc = xb_progress_wait(xb_progress_default(), r);
    xb_request_free(r);
    return rc;
}

int xb_coll_nb_init(void)
{
    active = NULL;
    nactive = 0;
    in_hook = false;
    return xb_progress_hook_add(coll_hook, &nactive);
}
