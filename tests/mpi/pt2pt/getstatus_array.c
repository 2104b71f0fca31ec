/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * getstatus_array.c - MPI_Request_get_status_all, _any and _some (MPI 4.1):
 * they report completion like Testall/Testany/Testsome but neither free nor
 * deactivate a request, so the same completion is reported again until a
 * Wait/Test or MPI_Request_free; null and inactive requests give the empty
 * status; no active request: flag true / index MPI_UNDEFINED / outcount
 * MPI_UNDEFINED. Rank 1 sends only when rank 0 asks (tag GO), so rank 0
 * knows which receives can have completed. Argument errors at the end.
 * Needs 2 ranks (extra ranks only take part in the final count).
 */
#include "ptest.h"

enum { GO = 100 };


/* The empty status; MPI_ERROR is MPI_SUCCESS only from a call that returns
 * several statuses (a single-status call leaves the caller's value). */
static int is_empty_but_error(const MPI_Status *s)
{
    int n = -1;
    MPI_Get_count(s, MPI_INT, &n);
    return s->MPI_SOURCE == MPI_ANY_SOURCE && s->MPI_TAG == MPI_ANY_TAG && n == 0;
}

static int is_empty(const MPI_Status *s)
{
    return is_empty_but_error(s) && s->MPI_ERROR == MPI_SUCCESS;
}

static void go(int what)
{
    MPI_Send(&what, 1, MPI_INT, 1, GO, MPI_COMM_WORLD);
}

/* Poll get_status_any until it reports something (bounded by the test's time limit). */
static int any_until(int n, MPI_Request *rq, MPI_Status *st)
{
    int idx = -7, flag = 0;
    while (!flag)
        CHECK_RC(MPI_Request_get_status_any(n, rq, &idx, &flag, st));
    return idx;
}

static void receiver(void)
{
    int a[4] = { 0 }, b[4] = { 0 }, c[4] = { 0 }, idx = -7, flag = -7, out = -7, ind[4];
    MPI_Request rq[4];
    MPI_Status st, sts[4];
    CHECK_RC(MPI_Irecv(a, 4, MPI_INT, 1, 5, MPI_COMM_WORLD, &rq[0]));
    rq[1] = MPI_REQUEST_NULL;
    CHECK_RC(MPI_Irecv(b, 4, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &rq[2]));
    CHECK_RC(MPI_Recv_init(c, 4, MPI_INT, 1, 7, MPI_COMM_WORLD, &rq[3]));   /* inactive */
    MPI_Request saved[4];
    memcpy(saved, rq, sizeof rq);

    /* nothing sent yet */
    CHECK_RC(MPI_Request_get_status_any(4, rq, &idx, &flag, &st));
    CHECK(flag == 0 && idx == MPI_UNDEFINED);
    CHECK_RC(MPI_Request_get_status_all(4, rq, &flag, sts));
    CHECK(flag == 0);
    CHECK_RC(MPI_Request_get_status_some(4, rq, &out, ind, sts));
    CHECK(out == 0);

    go(5);
    st.MPI_ERROR = MPI_ERR_DIMS;                          /* a single status: kept */
    CHECK(any_until(4, rq, &st) == 0);
    CHECK(st.MPI_SOURCE == 1 && st.MPI_TAG == 5 && st.MPI_ERROR == MPI_ERR_DIMS);
    CHECK(memcmp(saved, rq, sizeof rq) == 0);             /* nothing freed */
    for (int rep = 0; rep < 2; rep++) {                   /* reported again */
        idx = -7;
        CHECK_RC(MPI_Request_get_status_any(4, rq, &idx, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 1 && idx == 0);
        CHECK_RC(MPI_Request_get_status_some(4, rq, &out, ind, sts));
        CHECK(out == 1 && ind[0] == 0 && sts[0].MPI_TAG == 5);
        CHECK_RC(MPI_Request_get_status_all(4, rq, &flag, sts));
        CHECK(flag == 0);                                  /* rq[2] still pending */
    }

    go(6);
    flag = 0;
    while (!flag)
        CHECK_RC(MPI_Request_get_status_all(4, rq, &flag, sts));
    CHECK(sts[0].MPI_SOURCE == 1 && sts[0].MPI_TAG == 5);
    CHECK(is_empty(&sts[1]));                              /* null */
    CHECK(sts[2].MPI_SOURCE == 1 && sts[2].MPI_TAG == 6);
    CHECK(is_empty(&sts[3]));                              /* inactive */
    CHECK(memcmp(saved, rq, sizeof rq) == 0);
    CHECK_RC(MPI_Request_get_status_all(4, rq, &flag, MPI_STATUSES_IGNORE));
    CHECK(flag == 1);
    CHECK_RC(MPI_Request_get_status_some(4, rq, &out, ind, MPI_STATUSES_IGNORE));
    CHECK(out == 2 && ind[0] == 0 && ind[1] == 2);
    /* the data is there before any Wait */
    CHECK(a[0] == 50 && a[3] == 53 && b[0] == 60 && b[3] == 63);

    /* a persistent request stays active: get_status reports it, Wait ends it */
    CHECK_RC(MPI_Start(&rq[3]));
    go(7);
    MPI_Request one[1] = { rq[3] };
    CHECK(any_until(1, one, &st) == 0 && st.MPI_TAG == 7);
    CHECK_RC(MPI_Request_get_status_some(1, one, &out, ind, sts));
    CHECK(out == 1);
    CHECK_RC(MPI_Waitall(4, rq, sts));
    CHECK(sts[2].MPI_TAG == 6 && sts[3].MPI_TAG == 7 && c[1] == 71);
    CHECK(rq[0] == MPI_REQUEST_NULL && rq[2] == MPI_REQUEST_NULL && rq[3] != MPI_REQUEST_NULL);

    /* no active request: flag true, MPI_UNDEFINED, the empty status with
     * its MPI_ERROR (MPI_SUCCESS; MPICH writes it, mpi4py checks it) */
    memset(&st, 0x33, sizeof st);
    CHECK_RC(MPI_Request_get_status_any(4, rq, &idx, &flag, &st));
    CHECK(flag == 1 && idx == MPI_UNDEFINED && is_empty(&st));
    CHECK_RC(MPI_Request_get_status_some(4, rq, &out, ind, sts));
    CHECK(out == MPI_UNDEFINED);
    CHECK_RC(MPI_Request_get_status_all(4, rq, &flag, sts));
    CHECK(flag == 1 && is_empty(&sts[0]) && is_empty(&sts[3]));
    CHECK_RC(MPI_Request_get_status_any(0, NULL, &idx, &flag, &st));
    CHECK(flag == 1 && idx == MPI_UNDEFINED);

    /* a failed request (truncation): MPI_ERR_IN_STATUS, the error in its status */
    int small[1];
    MPI_Request tr[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    int rc = MPI_SUCCESS;
    CHECK_RC(MPI_Irecv(small, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &tr[1]));
    go(8);
    flag = 0;
    while (!flag)    /* its error comes back once it completes (as from MPI_Testany) */
        rc = MPI_Request_get_status_any(2, tr, &idx, &flag, &st);
    CHECK(idx == 1);
    EXPECT(rc, MPI_ERR_TRUNCATE, "MPI_Request_get_status_any", "truncated");
    rc = MPI_Request_get_status_all(2, tr, &flag, sts);
    CHECK(flag == 1);
    EXPECT(rc, MPI_ERR_IN_STATUS, "MPI_Request_get_status_all", NULL);
    CHECK(sts[1].MPI_ERROR == MPI_ERR_TRUNCATE && sts[0].MPI_ERROR == MPI_SUCCESS);
    rc = MPI_Request_get_status_some(2, tr, &out, ind, sts);
    EXPECT(rc, MPI_ERR_IN_STATUS, "MPI_Request_get_status_some", NULL);
    CHECK(out == 1 && ind[0] == 1 && sts[0].MPI_ERROR == MPI_ERR_TRUNCATE);
    EXPECT(MPI_Request_get_status_any(2, tr, &idx, &flag, &st), MPI_ERR_TRUNCATE,
           "MPI_Request_get_status_any", NULL);
    CHECK(tr[1] != MPI_REQUEST_NULL);
    EXPECT(MPI_Wait(&tr[1], &st), MPI_ERR_TRUNCATE, "MPI_Wait", NULL);
    CHECK(tr[1] == MPI_REQUEST_NULL);

    /* argument errors */
    EXPECT(MPI_Request_get_status_all(-1, rq, &flag, sts), MPI_ERR_COUNT,
           "MPI_Request_get_status_all", "count");
    EXPECT(MPI_Request_get_status_any(2, NULL, &idx, &flag, &st), MPI_ERR_ARG,
           "MPI_Request_get_status_any", "array_of_requests");
    EXPECT(MPI_Request_get_status_any(2, rq, NULL, &flag, &st), MPI_ERR_ARG,
           "MPI_Request_get_status_any", "index");
    EXPECT(MPI_Request_get_status_all(2, rq, NULL, sts), MPI_ERR_ARG,
           "MPI_Request_get_status_all", "flag");
    EXPECT(MPI_Request_get_status_some(-3, rq, &out, ind, sts), MPI_ERR_COUNT,
           "MPI_Request_get_status_some", "incount");
    EXPECT(MPI_Request_get_status_some(2, rq, &out, NULL, sts), MPI_ERR_ARG,
           "MPI_Request_get_status_some", "array_of_indices");
    MPI_Request bad[2] = { MPI_REQUEST_NULL, saved[0] };  /* freed by the Waitall */
    EXPECT(MPI_Request_get_status_any(2, bad, &idx, &flag, &st), MPI_ERR_REQUEST,
           "MPI_Request_get_status_any", "array_of_requests[1]");
    EXPECT(MPI_Request_get_status_all(2, bad, &flag, sts), MPI_ERR_REQUEST,
           "MPI_Request_get_status_all", "array_of_requests[1]");
    CHECK_RC(MPI_Request_free(&rq[3]));
    go(-1);
}

static void sender(void)
{
    for (;;) {
        int what, v[4];
        MPI_Recv(&what, 1, MPI_INT, 0, GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (what < 0)
            return;
        for (int i = 0; i < 4; i++)
            v[i] = what * 10 + i;
        CHECK_RC(MPI_Send(v, 4, MPI_INT, 0, what, MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (size < 2) {
        printf("needs 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    if (rank == 0)
        receiver();
    else if (rank == 1)
        sender();
    return pt_finish();
}
