/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * errors.c - bad arguments under MPI_ERRORS_RETURN: the right error class,
 * a message naming the function and the argument, and the library keeps
 * working afterwards.
 */
#include "ptest.h"


int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int buf[4] = { 0 };
    MPI_Request r;
    MPI_Status st;

    EXPECT(MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send", "dest");
    EXPECT(MPI_Send(buf, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send", "dest");
    EXPECT(MPI_Send(buf, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG, "MPI_Send", "tag");
    EXPECT(MPI_Send(buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Send", "count");
    EXPECT(MPI_Send(buf, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send",
           "datatype");
    EXPECT(MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Send", "comm");
    EXPECT(MPI_Isend(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK,
           "MPI_Isend", "dest");
    EXPECT(MPI_Recv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "MPI_Recv",
           "source");
    EXPECT(MPI_Irecv(buf, 1, MPI_INT, 0, -9, MPI_COMM_WORLD, &r), MPI_ERR_TAG, "MPI_Irecv", "tag");
    EXPECT(MPI_Recv(NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_BUFFER, "MPI_Recv",
           "buf");
    EXPECT(MPI_Ssend(buf, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG, "MPI_Ssend",
           "tag");
    EXPECT(MPI_Probe(size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "MPI_Probe", "source");
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);   /* not committed */
    EXPECT(MPI_Send(buf, 1, vec, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send", "datatype");
    MPI_Type_free(&vec);
    r = MPI_REQUEST_NULL;
    EXPECT(MPI_Request_free(&r), MPI_ERR_REQUEST, "MPI_Request_free", NULL);
    r = MPI_REQUEST_NULL;
    EXPECT(MPI_Start(&r), MPI_ERR_REQUEST, "MPI_Start", NULL);
    /* start of a nonpersistent request */
    CHECK_RC(MPI_Irecv(buf, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &r));
    EXPECT(MPI_Start(&r), MPI_ERR_REQUEST, "MPI_Start", NULL);
    CHECK_RC(MPI_Send(buf, 1, MPI_INT, rank, 3, MPI_COMM_WORLD));
    CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    /* a too small attached buffer */
    static char small[MPI_BSEND_OVERHEAD + 8];
    CHECK_RC(MPI_Buffer_attach(small, sizeof(small)));
    EXPECT(MPI_Bsend(buf, 4, MPI_INT, rank, 4, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bsend",
           NULL);
    EXPECT(MPI_Buffer_attach(small, sizeof(small)), MPI_ERR_BUFFER, "MPI_Buffer_attach", NULL);
    void *b;
    int bs;
    CHECK_RC(MPI_Buffer_detach(&b, &bs));

    /* the library still works */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, v = -1;
    CHECK_RC(MPI_Sendrecv(&rank, 1, MPI_INT, right, 0, &v, 1, MPI_INT, left, 0, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    CHECK(v == left);
    return pt_finish();
}
