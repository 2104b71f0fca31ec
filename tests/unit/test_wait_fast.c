/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_wait_fast.c - the lock-free completion calls (progress/wait_fast.c)
 * on interleavings another thread makes only by chance, replayed by
 * scripting what their loads of a request's `done` and `active` return;
 * and the deferred free of what they report (core/request.c).
 *
 *   - a persistent request the completer is finishing (done = 1 stored,
 *     active still XB_REQ_COMPLETING, or seen as 1 before): Waitall and
 *     Waitsome report it once, with its status (before: the second pass
 *     saw COMPLETING and wrote the empty status, or outcount 0);
 *   - done 0, active 0, then done 1 (completed between the loads): done;
 *   - a request reported lock-free is freed for its handle (a stale copy
 *     goes to the locked path, which says MPI_ERR_REQUEST) and is pushed
 *     once; xb_request_drain returns it to the pool;
 *   - Waitany/Testany over { done, invalid handle } go to the locked path.
 */
#include <string.h>
#include "core/request.h"
#include "runtime/runtime.h"
#include "unit_check.h"

/* A script of the values the next loads return (0xff: the real load). */
static const unsigned *done_script, *active_script;
static int ndone_loads, nactive_loads;

static unsigned next(const unsigned *script, int *n, unsigned real)
{
    if (script == NULL || script[*n] == 0xff)
        return real;
    return script[(*n)++];
}

static bool scripted_is_done(const xb_request_t *r)
{
    return next(done_script, &ndone_loads, xb_request_is_done(r)) != 0;
}

static unsigned scripted_active(const xb_request_t *r)
{
    return next(active_script, &nactive_loads, xb_request_active(r));
}

#define xb_request_is_done scripted_is_done
#define xb_request_active scripted_active
#include "progress/wait_fast.c"
#undef xb_request_is_done
#undef xb_request_active

static xb_request_t preq;

static void arm(unsigned done, unsigned active, const unsigned *dscript,
                const unsigned *ascript)
{
    memset(&preq, 0, sizeof(preq));
    preq.magic = XB_MAGIC_REQ;
    preq.kind = XB_REQ_PRECV;
    preq.persistent = 1;
    preq.status.source = 3;
    preq.status.tag = 7;
    preq.status.error = MPI_SUCCESS;
    preq.status.count = 4;
    atomic_store(&preq.done, done);
    atomic_store(&preq.active, (unsigned char)active);
    done_script = dscript;
    active_script = ascript;
    ndone_loads = nactive_loads = 0;
}

static void persistent_completing(void)
{
    /* the completer stored done = 1, not yet active = 0; this thread's
     * loads of active may still see the 1 of before, then COMPLETING */
    static const unsigned stale[] = { 1, XB_REQ_COMPLETING, XB_REQ_COMPLETING, 0xff };
    MPI_Request h;
    MPI_Status st[1];

    arm(1, XB_REQ_COMPLETING, NULL, stale);
    h = (MPI_Request)&preq;
    st[0].MPI_SOURCE = -99;
    int rc = xb_fast_waitall(1, &h, st);
    CHECK(rc == XB_OK, "Waitall rc %d", rc);
    CHECK(st[0].MPI_SOURCE == 3 && st[0].MPI_TAG == 7, "Waitall status %d/%d, want 3/7",
          st[0].MPI_SOURCE, st[0].MPI_TAG);
    CHECK(atomic_load(&preq.done) == 0, "Waitall left done = 1 (the next Start fails)");
    CHECK(h == (MPI_Request)&preq, "a persistent handle stays");

    arm(1, XB_REQ_COMPLETING, NULL, stale);
    h = (MPI_Request)&preq;
    int outcount = -5, idx[1] = { -1 };
    rc = xb_fast_waitsome(1, &h, &outcount, idx, st);
    CHECK(rc == XB_OK && outcount == 1 && idx[0] == 0, "Waitsome rc %d outcount %d index %d",
          rc, outcount, idx[0]);
    CHECK(atomic_load(&preq.done) == 0, "Waitsome left done = 1");

    arm(1, XB_REQ_COMPLETING, NULL, stale);
    h = (MPI_Request)&preq;
    int flag = 0;
    rc = xb_fast_testall(1, &h, &flag, st);
    CHECK(rc == XB_OK && flag == 1 && st[0].MPI_SOURCE == 3, "Testall rc %d flag %d source %d",
          rc, flag, st[0].MPI_SOURCE);
}

static void persistent_orders(void)
{
    MPI_Request h;
    MPI_Status st;

    /* done 0, active 0, then done 1: completed between the loads */
    static const unsigned late[] = { 0, 1, 0xff };
    arm(1, 0, late, NULL);
    h = (MPI_Request)&preq;
    st.MPI_SOURCE = -99;
    int rc = xb_fast_wait(&h, &st);
    CHECK(rc == XB_OK && st.MPI_SOURCE == 3, "completed between the loads: rc %d source %d",
          rc, st.MPI_SOURCE);

    /* done 0, COMPLETING: the locked path, nothing written */
    arm(0, XB_REQ_COMPLETING, NULL, NULL);
    h = (MPI_Request)&preq;
    st.MPI_SOURCE = -99;
    rc = xb_fast_waitall(1, &h, &st);
    CHECK(rc == XB_INPROGRESS && st.MPI_SOURCE == -99, "COMPLETING: rc %d source %d", rc,
          st.MPI_SOURCE);

    /* inactive: the empty status */
    arm(0, 0, NULL, NULL);
    h = (MPI_Request)&preq;
    rc = xb_fast_wait(&h, &st);
    CHECK(rc == XB_OK && st.MPI_SOURCE == MPI_ANY_SOURCE, "inactive: rc %d source %d", rc,
          st.MPI_SOURCE);

    /* started, not done: pending */
    arm(0, 1, NULL, NULL);
    h = (MPI_Request)&preq;
    int flag = 7;
    rc = xb_fast_test(&h, &flag, &st);
    CHECK(rc == XB_INPROGRESS && flag == 7, "pending: rc %d flag %d", rc, flag);
}

static xb_request_t *done_recv(void)
{
    xb_request_t *r = xb_request_alloc(XB_REQ_RECV);
    CHECK(r != NULL, "no request");
    r->status.source = 1;
    r->status.error = MPI_SUCCESS;
    atomic_store(&r->done, 1);
    return r;
}

static void stale_handle(void)
{
    xb_request_t *r = done_recv();
    MPI_Request h = xb_request_to_handle(r), copy = h;
    int rc = xb_fast_wait(&h, MPI_STATUS_IGNORE);
    CHECK(rc == XB_OK && h == MPI_REQUEST_NULL, "first Wait rc %d", rc);
    CHECK(xb_request_from_handle(copy) == NULL, "a reported request still resolves");
    rc = xb_fast_wait(&copy, MPI_STATUS_IGNORE);
    CHECK(rc == XB_INPROGRESS, "second Wait through the stale copy: rc %d (want the locked "
          "path)", rc);
    CHECK(atomic_load(&xb_request_deferred[0]) == r && r->deferred_next == NULL,
          "the deferred stack holds the request once");
    xb_request_drain(0);
    CHECK(atomic_load(&xb_request_deferred[0]) == NULL, "the drain left requests");
    CHECK(xb_request_alloc(XB_REQ_RECV) == r, "the drained request is not back in the pool");
    xb_request_free(r);
}

static long junk[64];   /* not a request */

static void any_badhandle(void)
{
    xb_request_t *r = done_recv();
    MPI_Request h[2] = { xb_request_to_handle(r), (MPI_Request)(void *)junk };
    int idx = -7, flag = 0;
    int rc = xb_fast_waitany(2, h, &idx, MPI_STATUS_IGNORE);
    CHECK(rc == XB_INPROGRESS && idx == -7 && h[0] == (MPI_Request)r,
          "Waitany { done, bad }: rc %d index %d", rc, idx);
    rc = xb_fast_testany(2, h, &idx, &flag, MPI_STATUS_IGNORE);
    CHECK(rc == XB_INPROGRESS && flag == 0, "Testany { done, bad }: rc %d flag %d", rc, flag);
    /* { bad, ... } and { done, null }: the lowest done one */
    h[1] = MPI_REQUEST_NULL;
    rc = xb_fast_waitany(2, h, &idx, MPI_STATUS_IGNORE);
    CHECK(rc == XB_OK && idx == 0 && h[0] == MPI_REQUEST_NULL, "Waitany { done, null }: rc %d "
          "index %d", rc, idx);
    xb_request_drain(0);
}

int main(void)
{
    xb_set_init_state(XB_STATE_INIT);
    persistent_completing();
    persistent_orders();
    stale_handle();
    any_badhandle();
    xb_set_init_state(XB_STATE_FINALIZED);
    xb_request_pool_fini();
    return failures != 0;
}
