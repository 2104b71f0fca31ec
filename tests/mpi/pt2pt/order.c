/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * order.c - the non-overtaking rule in every mode and across protocols,
 * and MPI_ANY_SOURCE with several senders (per-sender order kept).
 */
#include "ptest.h"

enum { NMSG = 60, BIG = 100000 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static char bsbuf[NMSG * (BIG + MPI_BSEND_OVERHEAD)];
    MPI_Buffer_attach(bsbuf, sizeof(bsbuf));
    int *msg = malloc(BIG);

    if (rank != 0) {
        /* every sender: a mix of modes and sizes, same tag, to rank 0 */
        MPI_Request rq[NMSG];
        int nrq = 0;
        for (int i = 0; i < NMSG; i++) {
            int n = (i % 3 == 0) ? BIG / (int)sizeof(int) : 1 + i;
            msg[0] = rank;
            msg[1] = i;
            for (int j = 2; j < n; j++)
                msg[j] = i + j;
            switch (i % 5) {
            case 0: CHECK_RC(MPI_Send(msg, n, MPI_INT, 0, 1, MPI_COMM_WORLD)); break;
            case 1: CHECK_RC(MPI_Ssend(msg, n, MPI_INT, 0, 1, MPI_COMM_WORLD)); break;
            case 2: CHECK_RC(MPI_Bsend(msg, n, MPI_INT, 0, 1, MPI_COMM_WORLD)); break;
            case 3: {
                int *copy = malloc((size_t)n * sizeof(int));
                memcpy(copy, msg, (size_t)n * sizeof(int));
                CHECK_RC(MPI_Isend(copy, n, MPI_INT, 0, 1, MPI_COMM_WORLD, &rq[nrq]));
                CHECK_RC(MPI_Wait(&rq[nrq], MPI_STATUS_IGNORE));
                free(copy);
                break;
            }
            default: CHECK_RC(MPI_Issend(msg, n, MPI_INT, 0, 1, MPI_COMM_WORLD, &rq[nrq]));
                     CHECK_RC(MPI_Wait(&rq[nrq], MPI_STATUS_IGNORE)); break;
            }
        }
        (void)nrq;
    } else {
        int *next = calloc((size_t)size, sizeof(int));
        for (int k = 0; k < (size - 1) * NMSG; k++) {
            MPI_Status st;
            CHECK_RC(MPI_Recv(msg, BIG / (int)sizeof(int), MPI_INT, MPI_ANY_SOURCE, 1,
                              MPI_COMM_WORLD, &st));
            int src = st.MPI_SOURCE;
            CHECK(src > 0 && src < size && msg[0] == src);
            if (src > 0 && src < size) {
                CHECK(msg[1] == next[src]);
                int cnt;
                MPI_Get_count(&st, MPI_INT, &cnt);
                int i = msg[1];
                CHECK(cnt == ((i % 3 == 0) ? BIG / (int)sizeof(int) : 1 + i));
                CHECK(cnt < 3 || msg[cnt - 1] == i + cnt - 1);
                next[src] = msg[1] + 1;
            }
        }
        free(next);
    }

    /* Rsend with the receive posted first (a barrier orders it), and order
     * of two messages with different tags received in reverse tag order */
    if (size > 1) {
        if (rank == 0) {
            int a = -1, b = -1;
            MPI_Request r;
            MPI_Irecv(&a, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
            MPI_Barrier(MPI_COMM_WORLD);
            CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK(a == 42);
            CHECK_RC(MPI_Recv(&b, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_RC(MPI_Recv(&a, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(a == 8 && b == 9);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 1) {
                int v = 42, e = 8, f = 9;
                CHECK_RC(MPI_Rsend(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD));
                CHECK_RC(MPI_Send(&e, 1, MPI_INT, 0, 8, MPI_COMM_WORLD));
                CHECK_RC(MPI_Send(&f, 1, MPI_INT, 0, 9, MPI_COMM_WORLD));
            }
        }
    }
    void *b;
    int bs;
    MPI_Buffer_detach(&b, &bs);
    CHECK(b == bsbuf && bs == (int)sizeof(bsbuf));
    free(msg);
    return pt_finish();
}
