/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * zero_null_type.c - MPI_DATATYPE_NULL as the datatype of a zero count in
 * the point-to-point calls (spec flag zeronull): accepted, as MPICH does
 * and as codes such as the MPICH test suite's part/nonblocking_pready use
 * for a zero-byte synchronisation message. Blocking, nonblocking,
 * persistent, synchronous and buffered sends, Sendrecv (both types null),
 * Sendrecv_replace, Mprobe + Mrecv; the statuses say count 0 from the
 * right source and tag. A nonzero count with MPI_DATATYPE_NULL is still
 * MPI_ERR_TYPE. Messages go to the next rank (itself on one rank).
 */
#include "ptest.h"

static int right, left;
static const MPI_Datatype NUL = MPI_DATATYPE_NULL;

static void zero_from_left(const MPI_Status *st, int tag)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    CHECK(st->MPI_SOURCE == left && st->MPI_TAG == tag && n == 0);
}

static void sends_and_receives(void)
{
    MPI_Status st;
    MPI_Request r[2];
    /* Isend + Recv, Send via Irecv (self needs the receive posted first) */
    CHECK_RC(MPI_Isend(NULL, 0, NUL, right, 1, MPI_COMM_WORLD, &r[0]));
    CHECK_RC(MPI_Recv(NULL, 0, NUL, left, 1, MPI_COMM_WORLD, &st));
    zero_from_left(&st, 1);
    CHECK_RC(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_RC(MPI_Irecv(NULL, 0, NUL, left, 2, MPI_COMM_WORLD, &r[0]));
    CHECK_RC(MPI_Send(NULL, 0, NUL, right, 2, MPI_COMM_WORLD));
    CHECK_RC(MPI_Wait(&r[0], &st));
    zero_from_left(&st, 2);
    CHECK_RC(MPI_Irecv(NULL, 0, NUL, left, 3, MPI_COMM_WORLD, &r[0]));
    CHECK_RC(MPI_Issend(NULL, 0, NUL, right, 3, MPI_COMM_WORLD, &r[1]));
    CHECK_RC(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));

    /* buffered: its size needs no room for data */
    static char bbuf[MPI_BSEND_OVERHEAD + 64];
    void *old;
    int oldsize;
    CHECK_RC(MPI_Buffer_attach(bbuf, sizeof bbuf));
    CHECK_RC(MPI_Bsend(NULL, 0, NUL, right, 4, MPI_COMM_WORLD));
    CHECK_RC(MPI_Recv(NULL, 0, NUL, left, 4, MPI_COMM_WORLD, &st));
    zero_from_left(&st, 4);
    CHECK_RC(MPI_Buffer_detach(&old, &oldsize));

    /* persistent, twice */
    CHECK_RC(MPI_Recv_init(NULL, 0, NUL, left, 5, MPI_COMM_WORLD, &r[0]));
    CHECK_RC(MPI_Send_init(NULL, 0, NUL, right, 5, MPI_COMM_WORLD, &r[1]));
    for (int i = 0; i < 2; i++) {
        CHECK_RC(MPI_Startall(2, r));
        CHECK_RC(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    }
    CHECK_RC(MPI_Request_free(&r[0]));
    CHECK_RC(MPI_Request_free(&r[1]));
}

static void combined(void)
{
    MPI_Status st;
    CHECK_RC(MPI_Sendrecv(NULL, 0, NUL, right, 6, NULL, 0, NUL, left, 6, MPI_COMM_WORLD, &st));
    zero_from_left(&st, 6);
    CHECK_RC(MPI_Sendrecv_replace(NULL, 0, NUL, right, 7, left, 7, MPI_COMM_WORLD, &st));
    zero_from_left(&st, 7);

    MPI_Request s;
    MPI_Message m;
    CHECK_RC(MPI_Isend(NULL, 0, NUL, right, 8, MPI_COMM_WORLD, &s));
    CHECK_RC(MPI_Mprobe(left, 8, MPI_COMM_WORLD, &m, &st));
    CHECK_RC(MPI_Mrecv(NULL, 0, NUL, &m, &st));
    zero_from_left(&st, 8);
    CHECK_RC(MPI_Wait(&s, MPI_STATUS_IGNORE));
}

/* A count above 0 still needs a datatype; nothing is sent. */
static void nonzero_refused(void)
{
    int v = 0;
    MPI_Request r = MPI_REQUEST_NULL;
    EXPECT(MPI_Send(&v, 1, NUL, right, 9, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send", "datatype");
    EXPECT(MPI_Irecv(&v, 1, NUL, left, 9, MPI_COMM_WORLD, &r), MPI_ERR_TYPE, "MPI_Irecv",
           "datatype");
    CHECK(r == MPI_REQUEST_NULL);
    EXPECT(MPI_Sendrecv(NULL, 0, NUL, right, 9, &v, 1, NUL, left, 9, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE), MPI_ERR_TYPE, "MPI_Sendrecv", "recvtype");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    sends_and_receives();
    combined();
    nonzero_refused();
    return pt_finish();
}
