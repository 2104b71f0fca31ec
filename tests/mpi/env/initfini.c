/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* MPI_Initialized/Finalized around Init and Finalize, the version calls
 * (allowed before Init), Query_thread and Is_thread_main after MPI_Init. */
#include <mpi.h>
#include "env_util.h"

int main(int argc, char **argv)
{
    int flag = -1, v = 0, sv = -1, len = 0, rank = -1;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];

    MPI_Initialized(&flag);
    CHECK(flag == 0, "initialized before MPI_Init: %d", flag);
    MPI_Finalized(&flag);
    CHECK(flag == 0, "finalized before MPI_Init: %d", flag);
    MPI_Get_version(&v, &sv);
    CHECK(v == 5 && sv == 0, "version %d.%d", v, sv);
    CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION, "version macros");
    MPI_Get_library_version(lib, &len);
    CHECK(len == (int)strlen(lib) && strncmp(lib, "Crossbar ", 9) == 0,
          "library version '%s' (len %d)", lib, len);

    CHECK(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Initialized(&flag);
    CHECK(flag == 1, "initialized after MPI_Init: %d", flag);
    MPI_Finalized(&flag);
    CHECK(flag == 0, "finalized after MPI_Init: %d", flag);
    MPI_Query_thread(&v);
    CHECK(v == MPI_THREAD_SINGLE, "MPI_Init gives MPI_THREAD_SINGLE, got %d", v);
    MPI_Is_thread_main(&flag);
    CHECK(flag == 1, "is_thread_main %d", flag);
    MPI_Get_version(&v, &sv);
    CHECK(v == 5 && sv == 0, "version after init %d.%d", v, sv);

    CHECK(MPI_Finalize() == MPI_SUCCESS, "MPI_Finalize");
    MPI_Initialized(&flag);
    CHECK(flag == 1, "initialized after MPI_Finalize: %d", flag);
    MPI_Finalized(&flag);
    CHECK(flag == 1, "finalized after MPI_Finalize: %d", flag);
    MPI_Get_version(&v, &sv);
    CHECK(v == 5, "version after finalize");
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
