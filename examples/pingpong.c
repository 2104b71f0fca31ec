/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pingpong.c - ranks pair up (0<->1, 2<->3, ...) and bounce messages of
 * growing size; each pair checks the data and reports the median one-way
 * time. An odd last rank sits out.
 *
 *   mpicc -O2 -o pingpong pingpong.c && mpiexec -n 4 ./pingpong
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

enum { REPS = 200, MAXSIZE = 1 << 20 };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank ^ 1;
    int active = peer < size;
    unsigned char *buf = malloc(MAXSIZE);
    static double t[REPS];

    if (rank == 0)
        printf("pingpong: %d pairs, median one-way time of %d round trips\n", size / 2, REPS);
    for (int n = 0; n <= MAXSIZE; n = n ? n * 16 : 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (!active)
            continue;
        for (int r = 0; r < REPS; r++) {
            double t0 = MPI_Wtime();
            if (rank < peer) {
                memset(buf, (unsigned char)(r + n), n);
                MPI_Send(buf, n, MPI_BYTE, peer, r, MPI_COMM_WORLD);
                MPI_Recv(buf, n, MPI_BYTE, peer, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Status st;
                int got;
                MPI_Recv(buf, n, MPI_BYTE, peer, r, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_BYTE, &got);
                if (got != n || (n && (buf[0] != (unsigned char)(r + n) ||
                                       buf[n - 1] != (unsigned char)(r + n))))
                    errors++;
                MPI_Send(buf, n, MPI_BYTE, peer, r, MPI_COMM_WORLD);
            }
            t[r] = (MPI_Wtime() - t0) / 2;
        }
        qsort(t, REPS, sizeof t[0], cmp_double);
        if (rank == 0)
            printf("pingpong: %8d bytes  %9.2f us  %9.1f MB/s\n", n, t[REPS / 2] * 1e6,
                   t[REPS / 2] > 0 ? n / t[REPS / 2] / 1e6 : 0.0);
    }
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("pingpong: %s (%d data errors)\n", total ? "FAILED" : "all data correct", total);
    free(buf);
    MPI_Finalize();
    return total ? 1 : 0;
}
