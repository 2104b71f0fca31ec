/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bw.c - streaming bandwidth from rank 0 to rank 1 (or both ways with -b):
 * a window of 64 nonblocking sends matched by 64 pre-posted receives, then a
 * 1-byte acknowledgement; MB/s (10^6 bytes/s) over a window, median over
 * windows.
 *   mpiexec -n 2 ./bw [-b] [-q] [-m MAXSIZE]
 */
#include "bench.h"

enum { WINDOW = 64 };

static double window(char *sbuf, char *rbuf, long n, int rank, int bidir)
{
    MPI_Request req[2 * WINDOW];
    char ack = 0;
    int peer = 1 - rank, nr = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 1 || bidir)
        for (int i = 0; i < WINDOW; i++)
            MPI_Irecv(rbuf, (int)n, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &req[nr++]);
    if (rank == 0 || bidir)
        for (int i = 0; i < WINDOW; i++)
            MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &req[nr++]);
    MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
    if (rank == 1)
        MPI_Send(&ack, 1, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
    else
        MPI_Recv(&ack, 1, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double t = MPI_Wtime() - t0;
    return (double)n * WINDOW * (bidir ? 2 : 1) / t / 1e6;
}

int main(int argc, char **argv)
{
    int rank, size, bidir = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bench_opts_t o = bench_parse(argc, argv, 4L << 20);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-b"))
            bidir = 1;
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "bw: needs exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char *sbuf = bench_alloc(o.maxsize), *rbuf = bench_alloc(o.maxsize);
    double v[64];
    if (rank == 0)
        printf("# %s MB/s higher\n", bidir ? "bibw" : "bw");
    for (int si = 0; si < BENCH_NSIZES && bench_sizes[si] <= o.maxsize; si++) {
        long n = bench_sizes[si];
        if (n == 0)
            continue;
        window(sbuf, rbuf, n, rank, bidir);                       /* warm up */
        /* Large windows last long: fewer of them (a 4 MiB window moves 256 MiB). */
        int nb = o.quick ? 3 : n >= (1L << 20) ? 9 : n >= 65536 ? 15 : 31;
        for (int b = 0; b < nb; b++)
            v[b] = window(sbuf, rbuf, n, rank, bidir);
        if (rank == 0)
            bench_report(n, v, nb);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
