/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* The progress thread (XB_ASYNC_PROGRESS=1 in the testlist) at work: a
 * 4 MiB Isend/Irecv pair (rendezvous) and an Iallreduce are started, the
 * application computes without calling MPI, then waits; the data must be
 * right (the hidden fraction is measured by bench/threads.c, not here).
 * Runs at MPI_THREAD_SINGLE: the progress thread needs no MULTIPLE from the
 * application. Finalize must stop the thread cleanly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mpi.h"

#define LEN (1 << 20)        /* ints: 4 MiB */

static double spin(double seconds)
{
    double t0 = MPI_Wtime(), x = 1.0;
    while (MPI_Wtime() - t0 < seconds)
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    int rank, size, errs = 0, provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided != MPI_THREAD_SINGLE) {
        printf("provided %d for SINGLE\n", provided);
        errs++;
    }
    int *buf = malloc(LEN * sizeof(int));
    int peer = rank ^ 1;
    for (int it = 0; it < 5; it++) {
        MPI_Request r[2];
        int nr = 0, v = rank + it, sum = 0;
        if (peer < size) {
            if (rank % 2 == 0) {
                for (int i = 0; i < LEN; i++)
                    buf[i] = i ^ it;
                MPI_Isend(buf, LEN, MPI_INT, peer, it, MPI_COMM_WORLD, &r[nr++]);
            } else {
                memset(buf, 0, LEN * sizeof(int));
                MPI_Irecv(buf, LEN, MPI_INT, peer, it, MPI_COMM_WORLD, &r[nr++]);
            }
        }
        MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[nr++]);
        volatile double x = spin(0.005);
        (void)x;
        MPI_Waitall(nr, r, MPI_STATUSES_IGNORE);
        if (sum != size * it + size * (size - 1) / 2) {
            printf("rank %d iter %d: sum %d\n", rank, it, sum);
            errs++;
        }
        if (peer < size && rank % 2 == 1)
            for (int i = 0; i < LEN; i++)
                if (buf[i] != (i ^ it)) {
                    printf("rank %d iter %d: buf[%d] = %d\n", rank, it, i, buf[i]);
                    errs++;
                    break;
                }
    }
    free(buf);
    int total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf(total ? " Found %d errors\n" : " No Errors\n", total);
    return errs != 0;
}
