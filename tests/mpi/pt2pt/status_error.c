/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * status_error.c - who writes status.MPI_ERROR. The standard (MPI 4.1
 * 3.2.5): message-passing calls leave it alone; only the calls that return
 * several statuses (Waitall, Testall, Waitsome, Testsome and the
 * Request_get_status_all/_some forms) set it. So every single-status call
 * keeps the caller's value: Recv (also from MPI_PROC_NULL), Sendrecv,
 * Sendrecv_replace, Probe, Iprobe, Mprobe, Improbe, Mrecv, Imrecv + Wait,
 * Wait, Test, Waitany, Testany, Request_get_status, Request_get_status_any,
 * on a message, a null request, an inactive persistent one, a collective
 * and a generalized one; the multiple ones write MPI_SUCCESS, and so does
 * Request_get_status_any when no request is active (the empty status). Open MPI does
 * the same; the MPICH test suite's pt2pt/mprobe checks it for the matched
 * probe calls. Messages go to the next rank (itself on one rank).
 */
#include "ptest.h"

#define KEEP 12345                          /* the caller's value, not an error class */

static int right, left;

static void kept(const MPI_Status *st, const char *what, int line)
{
    if (st->MPI_ERROR != KEEP) {
        pt_errs++;
        fprintf(stderr, "rank %d: line %d: %s wrote MPI_ERROR = %d\n", pt_rank(), line, what,
                st->MPI_ERROR);
    }
}
#define KEPT(st, what) kept((st), (what), __LINE__)

static MPI_Status fresh(void)
{
    MPI_Status st;
    memset(&st, 0x5a, sizeof st);
    st.MPI_ERROR = KEEP;
    return st;
}

/* a message from left on tag t, of one int whose value is t */
static MPI_Request post_send(int t, int *v)
{
    MPI_Request r;
    *v = t;
    CHECK_RC(MPI_Isend(v, 1, MPI_INT, right, t, MPI_COMM_WORLD, &r));
    return r;
}

static void received(MPI_Request *sr, const MPI_Status *st, int x, int t)
{
    CHECK(x == t && st->MPI_SOURCE == left && st->MPI_TAG == t);
    CHECK_RC(MPI_Wait(sr, MPI_STATUS_IGNORE));
}

static void blocking(void)
{
    int v, x = -1, f = 0;
    MPI_Status st = fresh();
    MPI_Request sr = post_send(1, &v);
    CHECK_RC(MPI_Probe(left, 1, MPI_COMM_WORLD, &st));
    KEPT(&st, "MPI_Probe");
    while (!f)
        CHECK_RC(MPI_Iprobe(left, 1, MPI_COMM_WORLD, &f, &st));
    KEPT(&st, "MPI_Iprobe");
    CHECK_RC(MPI_Recv(&x, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &st));
    KEPT(&st, "MPI_Recv");
    received(&sr, &st, x, 1);

    st = fresh();
    CHECK_RC(MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    KEPT(&st, "MPI_Recv from MPI_PROC_NULL");
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL);

    v = 2, x = -1, st = fresh();
    CHECK_RC(MPI_Sendrecv(&v, 1, MPI_INT, right, 2, &x, 1, MPI_INT, left, 2, MPI_COMM_WORLD,
                          &st));
    KEPT(&st, "MPI_Sendrecv");
    CHECK(x == 2 && st.MPI_TAG == 2);
    x = 3, st = fresh();
    CHECK_RC(MPI_Sendrecv_replace(&x, 1, MPI_INT, right, 3, left, 3, MPI_COMM_WORLD, &st));
    KEPT(&st, "MPI_Sendrecv_replace");
    CHECK(x == 3 && st.MPI_TAG == 3);
}

static void matched(void)
{
    int v, x = -1, f = 0;
    MPI_Message m;
    MPI_Status st = fresh();
    MPI_Request sr = post_send(4, &v), rr;
    CHECK_RC(MPI_Mprobe(left, 4, MPI_COMM_WORLD, &m, &st));
    KEPT(&st, "MPI_Mprobe");
    CHECK_RC(MPI_Mrecv(&x, 1, MPI_INT, &m, &st));
    KEPT(&st, "MPI_Mrecv");
    received(&sr, &st, x, 4);

    sr = post_send(5, &v), x = -1, st = fresh();
    while (!f)
        CHECK_RC(MPI_Improbe(left, 5, MPI_COMM_WORLD, &f, &m, &st));
    KEPT(&st, "MPI_Improbe");
    CHECK_RC(MPI_Imrecv(&x, 1, MPI_INT, &m, &rr));
    CHECK_RC(MPI_Wait(&rr, &st));
    KEPT(&st, "MPI_Imrecv + MPI_Wait");
    received(&sr, &st, x, 5);

    st = fresh();                           /* MPI_MESSAGE_NO_PROC */
    CHECK_RC(MPI_Mprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &m, &st));
    KEPT(&st, "MPI_Mprobe on MPI_PROC_NULL");
    CHECK_RC(MPI_Imrecv(&x, 1, MPI_INT, &m, &rr));
    f = 0;
    CHECK_RC(MPI_Test(&rr, &f, &st));
    CHECK(f == 1 && st.MPI_SOURCE == MPI_PROC_NULL);
    KEPT(&st, "MPI_Test of an MPI_PROC_NULL receive");
}

/* Wait, Test, Waitany, Testany, Request_get_status(_any) on a receive. */
static void completions(void)
{
    int v, x;
    for (int how = 0; how < 6; how++) {
        static const char *names[] = { "MPI_Wait", "MPI_Test", "MPI_Waitany", "MPI_Testany",
                                       "MPI_Request_get_status",
                                       "MPI_Request_get_status_any" };
        int t = 10 + how, f = 0, idx;
        x = -1;
        MPI_Status st = fresh();
        MPI_Request rr, sr = post_send(t, &v);
        CHECK_RC(MPI_Irecv(&x, 1, MPI_INT, left, t, MPI_COMM_WORLD, &rr));
        switch (how) {
        case 0: CHECK_RC(MPI_Wait(&rr, &st)); break;
        case 1: while (!f) CHECK_RC(MPI_Test(&rr, &f, &st)); break;
        case 2: CHECK_RC(MPI_Waitany(1, &rr, &idx, &st)); break;
        case 3: while (!f) CHECK_RC(MPI_Testany(1, &rr, &idx, &f, &st)); break;
        case 4: while (!f) CHECK_RC(MPI_Request_get_status(rr, &f, &st)); break;
        default: while (!f) CHECK_RC(MPI_Request_get_status_any(1, &rr, &idx, &f, &st)); break;
        }
        KEPT(&st, names[how]);
        if (how >= 4)
            CHECK_RC(MPI_Wait(&rr, MPI_STATUS_IGNORE));
        received(&sr, &st, x, t);
    }
}

static int q_fn(void *extra, MPI_Status *st)
{
    (void)extra;
    MPI_Status_set_elements(st, MPI_INT, 0);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    st->MPI_ERROR = MPI_SUCCESS;
    return MPI_SUCCESS;
}
static int free_fn(void *extra) { (void)extra; return MPI_SUCCESS; }
static int cancel_fn(void *extra, int done) { (void)extra, (void)done; return MPI_SUCCESS; }

/* Requests without a message: null, inactive, collective, generalized. */
static void other_requests(void)
{
    int x = 0, f = 0, idx;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st = fresh();
    CHECK_RC(MPI_Wait(&r, &st));
    KEPT(&st, "MPI_Wait on MPI_REQUEST_NULL");
    CHECK_RC(MPI_Test(&r, &f, &st));
    KEPT(&st, "MPI_Test on MPI_REQUEST_NULL");
    CHECK_RC(MPI_Waitany(1, &r, &idx, &st));
    KEPT(&st, "MPI_Waitany on MPI_REQUEST_NULL");
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
    /* Request_get_status_any over no active request: the empty status,
     * its MPI_ERROR = MPI_SUCCESS included (MPICH; mpi4py checks it) */
    st = fresh();
    idx = 0;
    CHECK_RC(MPI_Request_get_status_any(1, &r, &idx, &f, &st));
    CHECK(f == 1 && idx == MPI_UNDEFINED && st.MPI_ERROR == MPI_SUCCESS &&
          st.MPI_SOURCE == MPI_ANY_SOURCE);
    st = fresh();

    CHECK_RC(MPI_Recv_init(&x, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &r));
    CHECK_RC(MPI_Wait(&r, &st));
    KEPT(&st, "MPI_Wait on an inactive request");
    CHECK_RC(MPI_Request_free(&r));

    CHECK_RC(MPI_Ibarrier(MPI_COMM_WORLD, &r));
    CHECK_RC(MPI_Wait(&r, &st));
    KEPT(&st, "MPI_Wait on MPI_Ibarrier");

    CHECK_RC(MPI_Grequest_start(q_fn, free_fn, cancel_fn, NULL, &r));
    CHECK_RC(MPI_Grequest_complete(r));
    CHECK_RC(MPI_Wait(&r, &st));
    KEPT(&st, "MPI_Wait on a generalized request");
}

/* The calls that return several statuses do write it. */
static void multiple(void)
{
    int v, x = -1, out, ind[2];
    MPI_Request rq[2], sr = post_send(40, &v);
    MPI_Status sts[2] = { fresh(), fresh() };
    CHECK_RC(MPI_Irecv(&x, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &rq[0]));
    rq[1] = MPI_REQUEST_NULL;
    CHECK_RC(MPI_Waitall(2, rq, sts));
    CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && sts[1].MPI_ERROR == MPI_SUCCESS);
    received(&sr, &sts[0], x, 40);

    sr = post_send(41, &v), x = -1, sts[0] = fresh();
    CHECK_RC(MPI_Irecv(&x, 1, MPI_INT, left, 41, MPI_COMM_WORLD, &rq[0]));
    CHECK_RC(MPI_Waitsome(2, rq, &out, ind, sts));
    CHECK(out == 1 && ind[0] == 0 && sts[0].MPI_ERROR == MPI_SUCCESS);
    received(&sr, &sts[0], x, 41);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    blocking();
    matched();
    completions();
    other_requests();
    multiple();
    return pt_finish();
}
