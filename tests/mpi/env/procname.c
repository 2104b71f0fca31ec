/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* MPI_Get_processor_name is the host the launcher started the rank on
 * (XB_HOST from our mpiexec), else the machine's host name. */
#include <mpi.h>
#include "env_util.h"

int main(int argc, char **argv)
{
    int rank, len = -1;
    char name[MPI_MAX_PROCESSOR_NAME], want[MPI_MAX_PROCESSOR_NAME];
    const char *h = getenv("XB_HOST");

    if (h != NULL && h[0] != '\0')
        snprintf(want, sizeof(want), "%s", h);
    else
        gethostname(want, sizeof(want));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(MPI_Get_processor_name(name, &len) == MPI_SUCCESS, "call");
    CHECK(len > 0 && len == (int)strlen(name) && len < MPI_MAX_PROCESSOR_NAME,
          "len %d for '%s'", len, name);
    CHECK(strcmp(name, want) == 0, "name '%s', want '%s'", name, want);
    MPI_Finalize();
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
