/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * fanin.c - many senders, one receiver: ranks 1..p-1 each send one message
 * per round to rank 0, which posts a receive per sender and waits for all
 * of them (a master collecting results, a linear gather written by hand).
 * Microseconds per round, median over batches, the slowest rank's view.
 *   mpiexec -n 8 ./fanin [-q] [-m MAXSIZE] [-a]
 * -a: rank 0 receives with MPI_ANY_SOURCE instead of naming each sender.
 * The senders do not wait for the receiver, so they run ahead of it and
 * their messages wait in its unexpected queue: a receive that names its
 * sender must find that sender's message behind the others' (a library
 * that walks one list for all sources slows down as the backlog grows).
 * A batch is at most 2000 rounds (bench_measure), which bounds the backlog.
 * Sizes: 8 B and 4 KiB (up to -m).
 */
#include "bench.h"

static int rank, nranks, any;
static char *buf;
static MPI_Request *q;

static double batch(long size, int k)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++) {
        if (rank == 0) {
            for (int s = 1; s < nranks; s++)
                MPI_Irecv(buf + (size_t)s * (size_t)size, (int)size, MPI_BYTE,
                          any ? MPI_ANY_SOURCE : s, 3, MPI_COMM_WORLD, &q[s - 1]);
            MPI_Waitall(nranks - 1, q, MPI_STATUSES_IGNORE);
        } else {
            MPI_Send(buf, (int)size, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
        }
    }
    return bench_slowest(t0, k);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    bench_opts_t o = bench_parse(argc, argv, 4096);
    for (int i = 1; i < argc; i++)
        any |= !strcmp(argv[i], "-a");
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "fanin: needs 2 ranks or more\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    buf = bench_alloc(o.maxsize * nranks);
    q = malloc(sizeof(*q) * (size_t)nranks);
    if (rank == 0)
        printf("# fanin%s-%dr us lower\n", any ? "-any" : "", nranks);
    static const long sizes[] = { 8, 4096 };
    for (int s = 0; s < 2 && sizes[s] <= o.maxsize; s++)
        bench_measure(sizes[s], batch, o.quick);
    free(q);
    free(buf);
    MPI_Finalize();
    return 0;
}
