/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_create.c - the cost of making (and freeing) a communicator:
 *   dup           MPI_Comm_dup + MPI_Comm_free of MPI_COMM_WORLD
 *   split         MPI_Comm_split with one colour per rank (N colours) + free
 *   create_group  MPI_Comm_create_group of the whole world group + free
 * Microseconds per create+free pair, the slowest rank's view, median over
 * batches (bench.h). Builds with any mpicc.
 *   mpiexec -n 4 ./comm_create dup|split|create_group [-q]
 */
#include "bench.h"

static int op;        /* 0 dup, 1 split, 2 create_group */
static MPI_Group world_group;

static void one(int rank)
{
    MPI_Comm c;
    if (op == 0)
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    else if (op == 1)
        MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &c);
    else
        MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 7, &c);
    MPI_Comm_free(&c);
}

static double batch(int k, int rank)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++)
        one(rank);
    double t = (MPI_Wtime() - t0) / k * 1e6, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    const char *name = argc > 1 ? argv[1] : "dup";
    op = !strcmp(name, "split") ? 1 : !strcmp(name, "create_group") ? 2 : 0;
    bench_opts_t o = bench_parse(argc, argv, 0);
    batch(5, rank);
    double best = 1e30;
    for (int t = 0; t < 3; t++) {
        double x = batch(5, rank) * 1e-6;
        best = x < best ? x : best;
    }
    int k = bench_batch_len(best, o.quick ? 5e-3 : 40e-3, 1, 2000, MPI_COMM_WORLD);
    int nb = o.quick ? 3 : 15;
    double v[64];
    for (int b = 0; b < nb; b++)
        v[b] = batch(k, rank);
    if (rank == 0) {
        printf("# comm_%s%d us lower\n", name, size);
        bench_report(size, v, nb);
    }
    MPI_Group_free(&world_group);
    MPI_Finalize();
    return 0;
}
