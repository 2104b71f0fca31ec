/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * hydra.c - run by MPICH's mpiexec (Hydra, PMI-1 wire) with 3 ranks: the job
 * shape must come from Hydra (not a singleton), messages must flow around a
 * ring with ANY_SOURCE, and a collective must agree.
 */
#include <stdio.h>
#include "mpi.h"

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 3) {
        printf("rank %d: size is %d, expected 3 (the job shape did not come from Hydra)\n",
               rank, size);
        errs++;
    }
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, got = -1;
    MPI_Status st;
    MPI_Sendrecv(&rank, 1, MPI_INT, next, 5, &got, 1, MPI_INT, MPI_ANY_SOURCE, 5,
                 MPI_COMM_WORLD, &st);
    if (got != prev || st.MPI_SOURCE != prev) {
        printf("rank %d: got %d from %d, expected %d\n", rank, got, st.MPI_SOURCE, prev);
        errs++;
    }
    int max = -1;
    MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (max != size - 1)
        errs++;
    MPI_Barrier(MPI_COMM_WORLD);
    int total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total == 0)
            printf("No Errors\n");
        else
            printf("Found %d errors\n", total);
    }
    MPI_Finalize();
    return 0;
}
