/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* MPI_Abort(MPI_COMM_WORLD, 3) on the last rank ends the whole job (the
 * others block in a receive that never completes) and mpiexec exits with 3
 * (testlist: expect_rc=3). Rank 0 prints "No Errors" first. */
#include <mpi.h>
#include "env_util.h"

int main(int argc, char **argv)
{
    int rank, size, x = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        printf(" No Errors\n");
        fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1)
        MPI_Abort(MPI_COMM_WORLD, 3);
    /* never satisfied: only the abort ends this */
    MPI_Recv(&x, 1, MPI_INT, size - 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "rank %d: the receive completed after MPI_Abort\n", rank);
    MPI_Finalize();
    return 1;
}
