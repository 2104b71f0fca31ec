/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* mpich_app.c - built with MPICH's mpicc by run.sh (case "mpich") to show
 * that MPICH's own PMI client works against our mpiexec's PMI server. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, sum;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    sum = rank;
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d sum %d\n", rank, size, sum);
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "abort") == 0 && rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 9);
    MPI_Finalize();
    return 0;
}
