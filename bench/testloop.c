/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * testloop.c - programs that call MPI_Test in a loop, on a node with more
 * ranks than CPUs (run it with 4 or 8 ranks on 2 cores), where a library
 * must choose between keeping the CPU and giving it away.
 *   mpiexec -n 4 ./testloop -k work [-q]
 *   mpiexec -n 8 ./testloop -k fan [-q]
 * work: every rank interleaves a little work (8 multiply-adds) with an
 *       MPI_Test of an MPI_ANY_SOURCE receive, and sends 512 bytes to
 *       another rank every 64 iterations once its previous send completed
 *       (as HPCC's MPIRandomAccess); million iterations per second, summed
 *       over the ranks (higher is better). A library that yields at every
 *       empty test pays a context switch per iteration.
 * fan:  rank 0 computes 500 us, then sends to every other rank, which
 *       spins on MPI_Test; microseconds per round (lower is better; 500 is
 *       the floor). A library that never yields lets the spinners take the
 *       CPU from rank 0.
 * Median over batches, as bench.h; one line, size 0.
 */
#include "bench.h"

static int rank, nranks;
static volatile double sink;

static void work(int n)
{
    double x = 1.0;
    for (int i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

/* work: one batch of about 20 ms; iterations per second of all ranks */
static double work_batch(void)
{
    long buf[64] = { 0 }, in[64], iters = 0, got = 0, sent = 0, tot[2], all[2];
    MPI_Request rq, sq = MPI_REQUEST_NULL;
    int flag;
    MPI_Irecv(in, 64, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &rq);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), el;
    while ((el = MPI_Wtime() - t0) < 0.02) {
        for (int j = 0; j < 64; j++) {
            work(8);
            iters++;
            MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
            if (flag) {
                got++;
                MPI_Irecv(in, 64, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &rq);
            }
        }
        int done = 1;
        if (sq != MPI_REQUEST_NULL)
            MPI_Test(&sq, &done, MPI_STATUS_IGNORE);
        if (done) {
            int to = (rank + 1 + (int)(sent % (nranks - 1))) % nranks;
            MPI_Isend(buf, 64, MPI_LONG, to, 5, MPI_COMM_WORLD, &sq);
            sent++;
        }
    }
    /* every message sent is received before the batch ends */
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    tot[0] = sent;
    tot[1] = got;
    MPI_Allreduce(tot, all, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    while (all[1] < all[0]) {
        MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            got++;
            MPI_Irecv(in, 64, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &rq);
        }
        long g = got;
        MPI_Allreduce(&g, &all[1], 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Cancel(&rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    double rate = iters / el / 1e6, sum;
    MPI_Allreduce(&rate, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}

static void busy_us(double us)
{
    double t = MPI_Wtime();
    while ((MPI_Wtime() - t) * 1e6 < us)
        work(10);
}

/* fan: one batch of 20 rounds; microseconds per round, the slowest rank's */
static double fan_batch(void)
{
    int x = 0, flag;
    MPI_Request q;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < 20; i++) {
        if (rank == 0) {
            busy_us(500);
            for (int d = 1; d < nranks; d++)
                MPI_Send(&x, 1, MPI_INT, d, 6, MPI_COMM_WORLD);
        } else {
            MPI_Irecv(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &q);
            do
                MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
            while (!flag);
        }
    }
    double el = (MPI_Wtime() - t0) / 20 * 1e6, mx;
    MPI_Allreduce(&el, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return mx;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    bench_opts_t o = bench_parse(argc, argv, 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int fan = 0;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-k"))
            fan = !strcmp(argv[i + 1], "fan");
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "testloop: needs 2 or more ranks\n");
        MPI_Finalize();
        return 1;
    }
    int nb = o.quick ? 3 : 15;
    double v[15];
    for (int b = 0; b < nb; b++)
        v[b] = fan ? fan_batch() : work_batch();
    if (rank == 0) {
        printf(fan ? "# testloop-fan us lower\n" : "# testloop-work Miter/s higher\n");
        bench_report(0, v, nb);
    }
    MPI_Finalize();
    return 0;
}
