/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * hello.c - the program the build tests compile through every route
 * (mpicc, pkg-config, CMake, meson): it must run under our mpiexec, say which
 * library it runs on, and see a working COMM_WORLD.
 */
#include <stdio.h>
#include "mpi.h"

int main(int argc, char **argv)
{
    char ver[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, rank, size, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_library_version(ver, &len);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("library: %s\n", ver);
        printf(sum == size * (size - 1) / 2 ? "No Errors\n" : "Found 1 errors\n");
    }
    MPI_Finalize();
    return 0;
}
