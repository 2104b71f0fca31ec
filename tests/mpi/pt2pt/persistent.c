/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * persistent.c - Send_init/Ssend_init/Bsend_init/Rsend_init/Recv_init
 * restarted many times (Start, Startall), inactive requests in Wait/Test,
 * Request_free of persistent requests; small and rendezvous sizes.
 */
#include "ptest.h"

enum { ITERS = 200, BIG = 70000 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    static char bsbuf[4 * (BIG + MPI_BSEND_OVERHEAD)];
    MPI_Buffer_attach(bsbuf, sizeof(bsbuf));
    int *sb = malloc(BIG), *rb = malloc(BIG);
    const int n = BIG / (int)sizeof(int);

    for (int mode = 0; mode < 4; mode++) {
        for (int big = 0; big < 2; big++) {
            int cnt = big ? n : 4;
            MPI_Request rq[2];
            CHECK_RC(MPI_Recv_init(rb, cnt, MPI_INT, left, mode, MPI_COMM_WORLD, &rq[0]));
            switch (mode) {
            case 0: CHECK_RC(MPI_Send_init(sb, cnt, MPI_INT, right, mode, MPI_COMM_WORLD, &rq[1])); break;
            case 1: CHECK_RC(MPI_Ssend_init(sb, cnt, MPI_INT, right, mode, MPI_COMM_WORLD, &rq[1])); break;
            case 2: CHECK_RC(MPI_Bsend_init(sb, cnt, MPI_INT, right, mode, MPI_COMM_WORLD, &rq[1])); break;
            default: CHECK_RC(MPI_Rsend_init(sb, cnt, MPI_INT, right, mode, MPI_COMM_WORLD, &rq[1])); break;
            }
            int iters = big ? ITERS / 10 : ITERS;
            for (int it = 0; it < iters; it++) {
                for (int j = 0; j < cnt; j++)
                    sb[j] = rank + it + j;
                if (mode == 3) {   /* ready mode: the receive must be posted first */
                    CHECK_RC(MPI_Start(&rq[0]));
                    MPI_Barrier(MPI_COMM_WORLD);
                    CHECK_RC(MPI_Start(&rq[1]));
                } else {
                    CHECK_RC(MPI_Startall(2, rq));
                }
                MPI_Status st[2];
                CHECK_RC(MPI_Waitall(2, rq, st));
                CHECK(rq[0] != MPI_REQUEST_NULL && rq[1] != MPI_REQUEST_NULL);
                CHECK(rb[0] == left + it && rb[cnt - 1] == left + it + cnt - 1);
                CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == mode);
                /* inactive now: Wait and Test return at once with an empty status */
                MPI_Status e;
                int flag = 0;
                CHECK_RC(MPI_Wait(&rq[0], &e));
                CHECK(e.MPI_SOURCE == MPI_ANY_SOURCE && e.MPI_TAG == MPI_ANY_TAG &&
                      rq[0] != MPI_REQUEST_NULL);
                CHECK_RC(MPI_Test(&rq[1], &flag, &e));
                CHECK(flag);
                if (mode == 3)
                    MPI_Barrier(MPI_COMM_WORLD);   /* nobody starts the next Rsend early */
            }
            CHECK_RC(MPI_Request_free(&rq[0]));
            CHECK_RC(MPI_Request_free(&rq[1]));
            CHECK(rq[0] == MPI_REQUEST_NULL);
        }
    }
    /* free of an active persistent receive: it completes, then goes */
    MPI_Request r;
    int v = -1;
    CHECK_RC(MPI_Recv_init(&v, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &r));
    CHECK_RC(MPI_Start(&r));
    CHECK_RC(MPI_Send(&rank, 1, MPI_INT, right, 50, MPI_COMM_WORLD));
    CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(v == left);
    CHECK_RC(MPI_Request_free(&r));
    void *b;
    int bs;
    MPI_Buffer_detach(&b, &bs);
    free(sb);
    free(rb);
    return pt_finish();
}
