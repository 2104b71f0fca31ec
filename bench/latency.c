/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * latency.c - ping-pong between ranks 0 and 1: one-way time in microseconds
 * (half a round trip), 0 B to 4 MiB; median over batches of round trips.
 *   mpiexec -n 2 ./latency [-q] [-m MAXSIZE]
 * With more ranks, ranks 2.. only take part in setting up (so that
 * connections to them are open) and then wait in MPI_Finalize: the
 * latency of 0-1 in a job that has other peers (bench/run_netns.sh).
 */
#include "bench.h"

static MPI_Comm pair;        /* ranks 0 and 1 */

static double batch(char *buf, long size, int k, int rank)
{
    MPI_Barrier(pair);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++) {
        if (rank == 0) {
            MPI_Send(buf, (int)size, MPI_BYTE, 1, 1, pair);
            MPI_Recv(buf, (int)size, MPI_BYTE, 1, 1, pair, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, (int)size, MPI_BYTE, 0, 1, pair, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)size, MPI_BYTE, 0, 1, pair);
        }
    }
    return (MPI_Wtime() - t0) / k / 2 * 1e6;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bench_opts_t o = bench_parse(argc, argv, 4L << 20);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "latency: needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    if (pair == MPI_COMM_NULL) {
        MPI_Finalize();
        return 0;
    }
    char *buf = bench_alloc(o.maxsize);
    int nb = o.quick ? 3 : 31;
    double v[64];
    if (rank == 0)
        printf("# latency us lower\n");
    for (int si = 0; si < BENCH_NSIZES && bench_sizes[si] <= o.maxsize; si++) {
        long n = bench_sizes[si];
        batch(buf, n, 2, rank);                               /* warm up */
        /* The batch length comes from the fastest of a few probes: one slow
         * probe (a peer still waking up) must not make every batch a single
         * round trip. */
        double one = 1e30;
        for (int t = 0; t < 5; t++) {
            double x = batch(buf, n, 4, rank) * 2e-6;         /* round trip, s */
            one = x < one ? x : one;
        }
        int k = bench_batch_len(one, o.quick ? 2e-3 : 5e-3, 1, 1000, pair);
        for (int b = 0; b < nb; b++)
            v[b] = batch(buf, n, k, rank);
        if (rank == 0)
            bench_report(n, v, nb);
    }
    free(buf);
    MPI_Comm_free(&pair);
    MPI_Finalize();
    return 0;
}
