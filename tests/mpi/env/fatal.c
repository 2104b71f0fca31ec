/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* The default handler MPI_ERRORS_ARE_FATAL: an invalid rank on the last
 * rank prints the message and ends the job with the error class as exit
 * status (MPI_ERR_RANK = 6; testlist: expect_rc=6). */
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
        MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, size - 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "rank %d: still running after a fatal error\n", rank);
    MPI_Finalize();
    return 1;
}
