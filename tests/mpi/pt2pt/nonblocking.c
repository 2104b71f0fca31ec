/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * nonblocking.c - Isend/Irecv with Waitall, Waitany, Waitsome, Test,
 * Testany, Testall, Testsome (with MPI_REQUEST_NULL entries),
 * Request_get_status, Request_free, and cancel of a posted receive.
 */
#include "ptest.h"

enum { N = 8 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int sv[N], rv[N];
    MPI_Request rq[2 * N + 2];
    MPI_Status sts[2 * N + 2];

    /* Waitall with null entries mixed in */
    for (int i = 0; i < N; i++) {
        sv[i] = rank * 10 + i;
        rv[i] = -1;
    }
    rq[0] = MPI_REQUEST_NULL;
    for (int i = 0; i < N; i++)
        CHECK_RC(MPI_Irecv(&rv[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &rq[1 + i]));
    rq[N + 1] = MPI_REQUEST_NULL;
    for (int i = 0; i < N; i++)
        CHECK_RC(MPI_Isend(&sv[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &rq[N + 2 + i]));
    CHECK_RC(MPI_Waitall(2 * N + 2, rq, sts));
    for (int i = 0; i < N; i++) {
        CHECK(rv[i] == left * 10 + i);
        CHECK(sts[1 + i].MPI_SOURCE == left && sts[1 + i].MPI_TAG == i);
    }
    for (int i = 0; i < 2 * N + 2; i++)
        CHECK(rq[i] == MPI_REQUEST_NULL);
    CHECK(sts[0].MPI_SOURCE == MPI_ANY_SOURCE && sts[0].MPI_TAG == MPI_ANY_TAG);   /* null: empty status */

    /* Waitany until all done */
    for (int i = 0; i < N; i++)
        CHECK_RC(MPI_Irecv(&rv[i], 1, MPI_INT, left, 100 + i, MPI_COMM_WORLD, &rq[i]));
    rq[N] = MPI_REQUEST_NULL;
    for (int i = N - 1; i >= 0; i--)
        CHECK_RC(MPI_Send(&sv[i], 1, MPI_INT, right, 100 + i, MPI_COMM_WORLD));
    int seen = 0;
    for (;;) {
        int idx;
        MPI_Status st;
        CHECK_RC(MPI_Waitany(N + 1, rq, &idx, &st));
        if (idx == MPI_UNDEFINED)
            break;
        CHECK(idx >= 0 && idx < N && rq[idx] == MPI_REQUEST_NULL && st.MPI_TAG == 100 + idx);
        seen++;
    }
    CHECK(seen == N);

    /* Waitsome / Testsome */
    for (int i = 0; i < N; i++)
        CHECK_RC(MPI_Irecv(&rv[i], 1, MPI_INT, left, 200 + i, MPI_COMM_WORLD, &rq[i]));
    rq[N] = MPI_REQUEST_NULL;
    int outc, idx[N + 1];
    CHECK_RC(MPI_Testsome(N + 1, rq, &outc, idx, sts));
    int early = outc > 0 ? outc : 0;
    CHECK(outc >= 0 && outc <= N);   /* the left neighbour may be ahead */
    for (int k = 0; k < outc; k++)
        CHECK(rq[idx[k]] == MPI_REQUEST_NULL);
    for (int i = 0; i < N; i++)
        CHECK_RC(MPI_Send(&sv[i], 1, MPI_INT, right, 200 + i, MPI_COMM_WORLD));
    seen = early;
    while (seen < N) {
        CHECK_RC(MPI_Waitsome(N + 1, rq, &outc, idx, sts));
        CHECK(outc != MPI_UNDEFINED && outc > 0);
        if (outc == MPI_UNDEFINED || outc <= 0)
            break;
        for (int k = 0; k < outc; k++)
            CHECK(sts[k].MPI_TAG == 200 + idx[k] && rv[idx[k]] == left * 10 + idx[k]);
        seen += outc;
    }
    CHECK_RC(MPI_Waitsome(N + 1, rq, &outc, idx, sts));
    CHECK(outc == MPI_UNDEFINED);
    CHECK_RC(MPI_Testsome(N + 1, rq, &outc, idx, sts));
    CHECK(outc == MPI_UNDEFINED);

    /* Test / Testany / Testall / Request_get_status */
    int flag = 0, x = -1;
    MPI_Request r;
    CHECK_RC(MPI_Irecv(&x, 1, MPI_INT, left, 300, MPI_COMM_WORLD, &r));
    MPI_Status st;
    CHECK_RC(MPI_Request_get_status(r, &flag, &st));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_RC(MPI_Send(&rank, 1, MPI_INT, right, 300, MPI_COMM_WORLD));
    do {
        CHECK_RC(MPI_Request_get_status(r, &flag, &st));
    } while (!flag);
    CHECK(r != MPI_REQUEST_NULL && st.MPI_SOURCE == left);
    CHECK_RC(MPI_Test(&r, &flag, &st));
    CHECK(flag && r == MPI_REQUEST_NULL && x == left);
    CHECK_RC(MPI_Test(&r, &flag, &st));   /* null request: flag true, empty status */
    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
    MPI_Request two[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    CHECK_RC(MPI_Irecv(&x, 1, MPI_INT, left, 301, MPI_COMM_WORLD, &two[1]));
    int index;
    CHECK_RC(MPI_Testany(2, two, &index, &flag, &st));
    CHECK_RC(MPI_Testall(2, two, &flag, MPI_STATUSES_IGNORE));
    CHECK_RC(MPI_Send(&rank, 1, MPI_INT, right, 301, MPI_COMM_WORLD));
    do {
        CHECK_RC(MPI_Testall(2, two, &flag, MPI_STATUSES_IGNORE));
    } while (!flag);
    CHECK(two[1] == MPI_REQUEST_NULL && x == left);
    CHECK_RC(MPI_Testany(2, two, &index, &flag, &st));
    CHECK(flag && index == MPI_UNDEFINED);

    /* cancel a receive that nobody will match */
    CHECK_RC(MPI_Irecv(&x, 1, MPI_INT, left, 999, MPI_COMM_WORLD, &r));
    CHECK_RC(MPI_Cancel(&r));
    CHECK_RC(MPI_Wait(&r, &st));
    int c = 0;
    CHECK_RC(MPI_Test_cancelled(&st, &c));
    CHECK(c == 1);
    /* a completed receive is not cancelled */
    CHECK_RC(MPI_Irecv(&x, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &r));
    CHECK_RC(MPI_Send(&rank, 1, MPI_INT, rank, 5, MPI_COMM_WORLD));
    CHECK_RC(MPI_Cancel(&r));
    CHECK_RC(MPI_Wait(&r, &st));
    CHECK_RC(MPI_Test_cancelled(&st, &c));
    CHECK(c == 0 && x == rank);

    /* Request_free on a pending send: it still completes and is delivered */
    int y = -1;
    CHECK_RC(MPI_Isend(&sv[0], 1, MPI_INT, right, 400, MPI_COMM_WORLD, &r));
    CHECK_RC(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL);
    CHECK_RC(MPI_Recv(&y, 1, MPI_INT, left, 400, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(y == left * 10);
    MPI_Barrier(MPI_COMM_WORLD);
    return pt_finish();
}
