/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ring.c - a token travels around all ranks a number of times; every rank
 * adds its rank number, so the final value is checkable.
 *
 *   mpicc -O2 -o ring ring.c && mpiexec -n 4 ./ring [laps]
 */
#include <stdio.h>
#include <stdlib.h>
#include "mpi.h"

int main(int argc, char **argv)
{
    int rank, size, laps = argc > 1 ? atoi(argv[1]) : 1000;
    char name[MPI_MAX_PROCESSOR_NAME];
    int namelen;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &namelen);
    printf("ring: rank %d of %d on %s\n", rank, size, name);
    fflush(stdout);

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    long token = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int lap = 0; lap < laps; lap++) {
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_LONG, next, 0, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += rank;
            MPI_Send(&token, 1, MPI_LONG, next, 0, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    int ok = 1;
    if (rank == 0) {
        long expect = (long)laps * ((long)size * (size - 1) / 2);
        ok = token == expect;
        printf("ring: %d laps over %d ranks in %.3f s (%.2f us per hop), token %ld %s\n",
               laps, size, t, t * 1e6 / ((double)laps * size), token,
               ok ? "(correct)" : "(WRONG)");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return ok ? 0 : 1;
}
