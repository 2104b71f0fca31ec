/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * large.c - a 256 MiB message between rank pairs (single copy, or the
 * pipelined path when XB_SHM_CMA=0 / XB_PT2PT_FORCE_PIPELINE=1), and a
 * 256 MiB vector-typed send (always pipelined: the sender is
 * noncontiguous). Takes the size in MiB as argv[1] (default 256).
 */
#include "ptest.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 256;
    size_t n = mib << 20;
    int peer = rank ^ 1;
    if (peer < size) {
        unsigned char *b = malloc(n);
        CHECK(b != NULL);
        if (rank % 2 == 0) {
            pt_fill(b, n, 5);
            CHECK_RC(MPI_Send(b, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD));
        } else {
            memset(b, 0, n);
            MPI_Status st;
            CHECK_RC(MPI_Recv(b, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &st));
            CHECK(pt_verify(b, n, 5) == 0);
            MPI_Count c = 0;
            MPI_Get_count_c(&st, MPI_BYTE, &c);
            CHECK(c == (MPI_Count)n);
        }
        /* noncontiguous sender: every other 8-byte word of a 2n buffer is too
         * much memory; use half the size for the typed case */
        size_t words = n / 16;
        MPI_Datatype vec;
        MPI_Type_vector((int)words, 1, 2, MPI_DOUBLE, &vec);
        MPI_Type_commit(&vec);
        double *d = (double *)b;   /* n bytes = 2 * words doubles */
        if (rank % 2 == 0) {
            for (size_t i = 0; i < words; i++)
                d[2 * i] = (double)i;
            CHECK_RC(MPI_Send(d, 1, vec, peer, 2, MPI_COMM_WORLD));
        } else {
            CHECK_RC(MPI_Recv(d, (int)words, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
            size_t bad = 0;
            for (size_t i = 0; i < words; i++)
                bad += d[i] != (double)i;
            CHECK(bad == 0);
        }
        MPI_Type_free(&vec);
        free(b);
    }
    return pt_finish();
}
