/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* MPI_Wtime is monotonic, measures a sleep, and works before MPI_Init and
 * after MPI_Finalize; MPI_Wtick is a plausible resolution. */
#include <mpi.h>
#include <time.h>
#include "env_util.h"

int main(int argc, char **argv)
{
    int rank = 0;
    double t0 = MPI_Wtime(), tick = MPI_Wtick();

    CHECK(tick > 0.0 && tick <= 1e-3, "tick %g", tick);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double prev = MPI_Wtime();
    CHECK(prev >= t0, "time went back across MPI_Init");
    for (int i = 0; i < 100000; i++) {
        double t = MPI_Wtime();
        CHECK(t >= prev, "time went back: %.9f < %.9f", t, prev);
        if (t < prev)
            break;
        prev = t;
    }
    double a = MPI_Wtime();
    struct timespec ts = { 0, 20 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    double d = MPI_Wtime() - a;
    CHECK(d >= 0.019 && d < 5.0, "a 20 ms sleep measured %.6f s", d);
    CHECK(PMPI_Wtime() >= a, "PMPI_Wtime");
    MPI_Finalize();
    CHECK(MPI_Wtime() >= a, "Wtime after finalize");
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
