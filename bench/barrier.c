/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * barrier.c - a loop of MPI_Barrier on all ranks: microseconds per barrier,
 * median over batches. With more ranks than cores this measures how well
 * waiting ranks give the CPU away.
 *   mpiexec -n 8 ./barrier [-q]
 */
#include "bench.h"

static double batch(int k)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    double t = (MPI_Wtime() - t0) / k * 1e6;
    /* Everyone agrees on the slowest rank's view of the batch. */
    double tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bench_opts_t o = bench_parse(argc, argv, 0);
    batch(5);
    double one = 1e30;                        /* the fastest of a few probes */
    for (int t = 0; t < 5; t++) {
        double x = batch(10) * 1e-6;
        one = x < one ? x : one;
    }
    int k = bench_batch_len(one, o.quick ? 5e-3 : 40e-3, 1, 2000, MPI_COMM_WORLD);
    int nb = o.quick ? 3 : 15;
    double v[64];
    for (int b = 0; b < nb; b++)
        v[b] = batch(k);
    if (rank == 0) {
        printf("# barrier%d us lower\n", size);
        bench_report(size, v, nb);
    }
    MPI_Finalize();
    return 0;
}
