/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * partitioned.c - partitioned communication (MPI_Psend_init, Precv_init,
 * Pready, Pready_range, Pready_list, Parrived) around a ring (one rank:
 * to itself): equal partition counts over several rounds with partitions
 * made ready in reverse order; different counts (6 x 40 ints sent, 4 x 60
 * received) where Parrived is true for a receive partition whose send
 * partitions are in and false for one whose are not (the sender waits for
 * a go before the rest); a derived receive type; two channels with the
 * same peer and tag told apart by their init order; MPI_PROC_NULL; a total
 * that differs (MPI_ERR_TRUNCATE); argument errors; channels on a new
 * communicator that reuses a freed one's context id start from the first
 * ordinal on both sides (a Dup of COMM_WORLD after channels to oneself on a
 * freed Dup of COMM_SELF hung: mpi4py's test_p2p_buf_part).
 */
#include "ptest.h"

static int rank, size, to, from;

static void rounds(void)
{
    enum { P = 8, N = 100 };
    int *s = calloc(P * N, sizeof(int)), *r = calloc(P * N, sizeof(int));
    MPI_Request rq[2];
    CHECK_RC(MPI_Psend_init(s, P, N, MPI_INT, to, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]));
    CHECK_RC(MPI_Precv_init(r, P, N, MPI_INT, from, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < P * N; i++) {
            s[i] = rank * 100000 + round * 1000 + i;
            r[i] = -1;
        }
        CHECK_RC(MPI_Startall(2, rq));
        for (int p = P - 1; p >= 0; p--)
            CHECK_RC(MPI_Pready(p, rq[0]));
        int all = 0;
        while (!all) {
            all = 1;
            for (int p = 0; p < P; p++) {
                int f = 0;
                CHECK_RC(MPI_Parrived(rq[1], p, &f));
                all &= f;
            }
        }
        MPI_Status st[2];
        CHECK_RC(MPI_Waitall(2, rq, st));
        int n = -1;
        MPI_Get_count(&st[1], MPI_INT, &n);
        CHECK(n == P * N && st[1].MPI_SOURCE == from && st[1].MPI_TAG == 7);
        for (int i = 0; i < P * N; i++)
            CHECK(r[i] == from * 100000 + round * 1000 + i);
    }
    CHECK_RC(MPI_Request_free(&rq[0]));
    CHECK_RC(MPI_Request_free(&rq[1]));
    free(s);
    free(r);
}

/* As mpi4py's test_p2p_buf_part: nothing has arrived before the sender
 * starts (zero-size partitions included); everything arrives after. */
static void arrival_order(int n)
{
    enum { P = 3 };
    int s[P * 5] = { 0 }, r[P * 5];
    MPI_Request sq, rq;
    CHECK_RC(MPI_Psend_init(s, P, n, MPI_INT, to, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &sq));
    CHECK_RC(MPI_Precv_init(r, P, n, MPI_INT, from, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < P * n; i++)
            s[i] = rank + round, r[i] = -1;
        CHECK_RC(MPI_Start(&rq));
        for (int i = 0; i < P; i++) {
            int f = 1;
            CHECK_RC(MPI_Parrived(rq, i, &f));
            CHECK(f == 0);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_RC(MPI_Start(&sq));
        for (int i = 0; i < P; i++)
            CHECK_RC(MPI_Pready(i, sq));
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < P; i++) {
            int f = 0;
            while (!f)
                CHECK_RC(MPI_Parrived(rq, i, &f));
        }
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
        for (int i = 0; i < P * n; i++)
            CHECK(r[i] == from + round);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Request_free(&sq);
    MPI_Request_free(&rq);
}

static void mismatched_counts(void)
{
    int s[240], r[240];
    for (int i = 0; i < 240; i++)
        s[i] = rank * 1000 + i, r[i] = -1;
    MPI_Request sq, rq;
    CHECK_RC(MPI_Psend_init(s, 6, 40, MPI_INT, to, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &sq));
    CHECK_RC(MPI_Precv_init(r, 4, 60, MPI_INT, from, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
    for (int round = 0; round < 2; round++) {
        CHECK_RC(MPI_Start(&rq));
        CHECK_RC(MPI_Start(&sq));
        CHECK_RC(MPI_Pready_range(0, 2, sq));       /* ints 0..119 */
        int f = 0;
        while (!f)
            CHECK_RC(MPI_Parrived(rq, 0, &f));     /* ints 0..59: in */
        CHECK(r[0] == from * 1000 && r[59] == from * 1000 + 59);
        CHECK_RC(MPI_Parrived(rq, 3, &f));         /* ints 180..239: not sent yet */
        CHECK(f == 0);
        int go = 1;
        MPI_Request g;
        CHECK_RC(MPI_Isend(&go, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &g));
        CHECK_RC(MPI_Recv(&go, 1, MPI_INT, to, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int rest[] = { 5, 3, 4 };
        CHECK_RC(MPI_Pready_list(3, rest, sq));
        CHECK_RC(MPI_Wait(&g, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < 240; i++)
            CHECK(r[i] == from * 1000 + i);
    }
    MPI_Request_free(&sq);
    MPI_Request_free(&rq);
}

/* Send 4 x 3 ints; receive 2 partitions of 3 elements of a vector type
 * (2 ints, stride 2: every other int is skipped). */
static void derived_and_channels(void)
{
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int s[12], s2[12], r[2 * 3 * 4], r2[12];   /* extent of vec: 3 ints */
    for (int i = 0; i < 12; i++)
        s[i] = rank * 100 + i, s2[i] = -rank * 100 - i;
    for (int i = 0; i < 24; i++)
        r[i] = -7;
    MPI_Request q[4];
    /* two channels, same peer and tag: matched in init order */
    CHECK_RC(MPI_Psend_init(s, 4, 3, MPI_INT, to, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]));
    CHECK_RC(MPI_Psend_init(s2, 2, 6, MPI_INT, to, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]));
    CHECK_RC(MPI_Precv_init(r, 2, 3, vec, from, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]));
    CHECK_RC(MPI_Precv_init(r2, 3, 4, MPI_INT, from, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &q[3]));
    CHECK_RC(MPI_Startall(4, q));
    CHECK_RC(MPI_Pready_range(0, 1, q[1]));   /* the second channel first */
    CHECK_RC(MPI_Pready_range(0, 3, q[0]));
    CHECK_RC(MPI_Waitall(4, q, MPI_STATUSES_IGNORE));
    /* element k of vec covers ints 3k (first) and 3k + 2 (second) */
    for (int k = 0; k < 6; k++) {
        CHECK(r[3 * k] == from * 100 + 2 * k);
        CHECK(r[3 * k + 1] == -7);
        if (k < 5 || 3 * k + 2 < 24)
            CHECK(r[3 * k + 2] == from * 100 + 2 * k + 1);
    }
    for (int i = 0; i < 12; i++)
        CHECK(r2[i] == -from * 100 - i);
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&q[i]);
    MPI_Type_free(&vec);
}

static void proc_null_and_errors(void)
{
    int b[16] = { 0 };
    MPI_Request sq, rq;
    MPI_Status st;
    CHECK_RC(MPI_Psend_init(b, 8, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &sq));
    CHECK_RC(MPI_Precv_init(b, 8, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &rq));
    EXPECT(MPI_Pready(0, sq), MPI_ERR_REQUEST, "MPI_Pready", "not active");
    CHECK_RC(MPI_Start(&sq));
    CHECK_RC(MPI_Start(&rq));
    EXPECT(MPI_Pready(9, sq), MPI_ERR_ARG, "MPI_Pready",
           "invalid partition 9 (the request has 8 partitions)");
    EXPECT(MPI_Pready(0, rq), MPI_ERR_REQUEST, "MPI_Pready", "not a partitioned send");
    EXPECT(MPI_Pready_range(5, 2, sq), MPI_ERR_ARG, "MPI_Pready_range", "partition_low");
    int bad[] = { 1, 8 };
    EXPECT(MPI_Pready_list(2, bad, sq), MPI_ERR_ARG, "MPI_Pready_list", "invalid partition 8");
    CHECK_RC(MPI_Pready_range(0, 7, sq));
    EXPECT(MPI_Pready(3, sq), MPI_ERR_ARG, "MPI_Pready", "already");
    int f = 0;
    EXPECT(MPI_Parrived(sq, 0, &f), MPI_ERR_REQUEST, "MPI_Parrived", "not a partitioned receive");
    EXPECT(MPI_Parrived(rq, -1, &f), MPI_ERR_ARG, "MPI_Parrived", "invalid partition -1");
    CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
    CHECK_RC(MPI_Wait(&rq, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Request_free(&sq);
    MPI_Request_free(&rq);

    /* totals that differ: 4 ints sent, 5 expected */
    CHECK_RC(MPI_Psend_init(b, 1, 4, MPI_INT, to, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &sq));
    CHECK_RC(MPI_Precv_init(b + 8, 1, 5, MPI_INT, from, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
    CHECK_RC(MPI_Start(&rq));
    CHECK_RC(MPI_Start(&sq));
    CHECK_RC(MPI_Pready(0, sq));
    CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
    EXPECT(MPI_Wait(&rq, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, "MPI_Wait", NULL);
    MPI_Request_free(&sq);
    MPI_Request_free(&rq);
    EXPECT(MPI_Psend_init(b, -1, 4, MPI_INT, to, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &sq),
           MPI_ERR_ARG, "MPI_Psend_init", "partitions");
}

/* One round of 2 x 2 ints from `dest`'s point of view on c. */
static void one_round(MPI_Comm c, int dest, int source, int value)
{
    int a[4] = { value, value, value, value }, b[4] = { -1, -1, -1, -1 };
    MPI_Request sr, rr;
    MPI_Psend_init(a, 2, 2, MPI_INT, dest, 0, c, MPI_INFO_NULL, &sr);
    MPI_Precv_init(b, 2, 2, MPI_INT, source, 0, c, MPI_INFO_NULL, &rr);
    MPI_Start(&rr);
    MPI_Start(&sr);
    MPI_Pready(1, sr);
    MPI_Pready(0, sr);
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Request_free(&sr);
    MPI_Request_free(&rr);
    for (int i = 0; i < 4; i++)
        CHECK(b[i] == value);
}

static void reused_context(void)
{
    MPI_Comm s, w;
    MPI_Comm_dup(MPI_COMM_SELF, &s);
    for (int k = 0; k < 3; k++)           /* ordinals 0..2 to myself on s */
        one_round(s, 0, 0, k);
    MPI_Comm_free(&s);
    MPI_Comm_dup(MPI_COMM_WORLD, &w);     /* may get s's context id back */
    one_round(w, to, from, 7);
    MPI_Comm_free(&w);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    to = (rank + 1) % size;
    from = (rank + size - 1) % size;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    rounds();
    arrival_order(0);
    arrival_order(5);
    mismatched_counts();
    derived_and_channels();
    proc_null_and_errors();
    reused_context();
    return pt_finish();
}
