/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* A program started without a launcher is a one-rank job; one started with
 * inconsistent launcher variables stops with a message naming them. Both run
 * as child processes of this program with the launcher's variables removed. */
#include <mpi.h>
#include "env_util.h"

static int child_single(int argc, char **argv)
{
    int rank = -1, size = -1, x = 5, y = 0, len = 0;
    char name[MPI_MAX_PROCESSOR_NAME];

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Sendrecv(&x, 1, MPI_INT, 0, 1, &y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Get_processor_name(name, &len);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    printf("singleton rank %d size %d got %d name-len %d\n", rank, size, y, len);
    return rank == 0 && size == 1 && y == 5 && len > 0 ? 0 : 3;
}

int main(int argc, char **argv)
{
    char out[8192];

    if (argc > 1 && strcmp(argv[1], "single") == 0)
        return child_single(argc, argv);
    if (argc > 1 && strcmp(argv[1], "inconsistent") == 0) {
        MPI_Init(&argc, &argv);
        printf("inconsistent: still running\n");
        MPI_Finalize();
        return 0;
    }
    MPI_Init(&argc, &argv);
    int st = run_self(argv[0], "single", 1, NULL, out, sizeof(out));
    CHECK(exit_code(st) == 0 && strstr(out, "singleton rank 0 size 1 got 5") != NULL,
          "singleton: status %d, output:\n%s", st, out);

    static const char *const env[] = { "PMI_SIZE=2", "PMI_RANK=1", NULL };
    st = run_self(argv[0], "inconsistent", 1, env, out, sizeof(out));
    CHECK(exit_code(st) > 0, "inconsistent launcher variables: status %d:\n%s", st, out);
    CHECK(strstr(out, "still running") == NULL, "ran as a singleton:\n%s", out);
    CHECK(strstr(out, "PMI_SIZE") != NULL || strstr(out, "PMI_RANK") != NULL,
          "the message does not name the variables:\n%s", out);
    MPI_Finalize();
    if (errs != 0)
        fprintf(stderr, "%d errors\n", errs);
    else
        printf(" No Errors\n");
    return errs != 0;
}
