/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * basic.c - blocking Send/Recv in a ring at sizes that cover eager and both
 * rendezvous paths (0 B to 4 MiB), Sendrecv, Sendrecv_replace, MPI_PROC_NULL,
 * Get_count/Get_elements, and sends to self.
 */
#include "ptest.h"

static const size_t sizes[] = { 0, 1, 8, 1000, 16384, 16385, 65536, 300000, 4u << 20 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char *sb = malloc(4u << 20), *rb = malloc((4u << 20) + 16);

    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t n = sizes[k];
        pt_fill(sb, n, rank);
        memset(rb, 0xee, n + 16);
        MPI_Status st;
        if (size == 1) {   /* a blocking send to self could wait for ever */
            MPI_Request q;
            CHECK_RC(MPI_Isend(sb, (int)n, MPI_BYTE, right, (int)k, MPI_COMM_WORLD, &q));
            CHECK_RC(MPI_Recv(rb, (int)n, MPI_BYTE, left, (int)k, MPI_COMM_WORLD, &st));
            CHECK_RC(MPI_Wait(&q, MPI_STATUS_IGNORE));
        } else if (rank % 2 == 0) {
            CHECK_RC(MPI_Send(sb, (int)n, MPI_BYTE, right, (int)k, MPI_COMM_WORLD));
            CHECK_RC(MPI_Recv(rb, (int)n, MPI_BYTE, left, (int)k, MPI_COMM_WORLD, &st));
        } else {
            CHECK_RC(MPI_Recv(rb, (int)n, MPI_BYTE, left, (int)k, MPI_COMM_WORLD, &st));
            CHECK_RC(MPI_Send(sb, (int)n, MPI_BYTE, right, (int)k, MPI_COMM_WORLD));
        }
        CHECK(pt_verify(rb, n, left) == 0);
        CHECK(rb[n] == 0xee);
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == (int)k);
        int cnt;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        CHECK(cnt == (int)n);

        /* Sendrecv the other way round */
        memset(rb, 0, n);
        CHECK_RC(MPI_Sendrecv(sb, (int)n, MPI_BYTE, left, 100, rb, (int)n, MPI_BYTE, right, 100,
                              MPI_COMM_WORLD, &st));
        CHECK(pt_verify(rb, n, right) == 0);
        CHECK(st.MPI_SOURCE == right && st.MPI_TAG == 100);
        /* Sendrecv_replace */
        pt_fill(rb, n, rank);
        CHECK_RC(MPI_Sendrecv_replace(rb, (int)n, MPI_BYTE, right, 200, left, 200, MPI_COMM_WORLD,
                                      &st));
        CHECK(pt_verify(rb, n, left) == 0);
    }

    /* ints: Get_count and Get_elements in units of the type */
    int iv[10] = { 0 }, ov[10];
    for (int i = 0; i < 10; i++)
        ov[i] = rank * 100 + i;
    MPI_Status st;
    CHECK_RC(MPI_Sendrecv(ov, 7, MPI_INT, right, 5, iv, 10, MPI_INT, left, 5, MPI_COMM_WORLD, &st));
    int cnt = -1;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 7);
    MPI_Get_elements(&st, MPI_INT, &cnt);
    CHECK(cnt == 7);
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);   /* 28 bytes is not a whole number of doubles */
    CHECK(cnt == MPI_UNDEFINED);
    CHECK(iv[6] == left * 100 + 6 && iv[7] == 0);

    /* to self */
    int x = rank + 1000, y = 0;
    MPI_Request rq;
    CHECK_RC(MPI_Irecv(&y, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &rq));
    CHECK_RC(MPI_Send(&x, 1, MPI_INT, rank, 9, MPI_COMM_WORLD));
    CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(y == x && rq == MPI_REQUEST_NULL);
    pt_fill(sb, 1u << 20, 3);
    CHECK_RC(MPI_Sendrecv(sb, 1 << 20, MPI_BYTE, rank, 1, rb, 1 << 20, MPI_BYTE, rank, 1,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(pt_verify(rb, 1u << 20, 3) == 0);

    /* MPI_PROC_NULL: immediate, empty status */
    st.MPI_SOURCE = 77;
    CHECK_RC(MPI_Send(sb, 10, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    CHECK_RC(MPI_Recv(rb, 10, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == 0);

    free(sb);
    free(rb);
    return pt_finish();
}
