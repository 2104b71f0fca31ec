/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll.c - collective benchmarks: microseconds per collective on all ranks,
 * median over batches, the slowest rank's view of each batch. Plain MPI:
 * builds with any mpicc.
 *   mpiexec -n 4 ./coll -c NAME [-q] [-m MAXSIZE] [-s MINSIZE] [-z SIZE] [-H] [-P N] [-T] [-A]
 * NAME and what the size (8 B .. 4 MiB) is:
 *   barrier                      -
 *   bcast, reduce, allreduce,    the message (reductions: MPI_SUM on
 *   scan, exscan                 doubles)
 *   gather, scatter, allgather,  the block each rank contributes or gets
 *   alltoall, reduce_scatter     (reduce_scatter: MPI_Reduce_scatter_block,
 *                                MPI_SUM on doubles, the result block)
 *   gatherv, scatterv,           the block of each rank (all equal)
 *   allgatherv, alltoallv
 *   sendrecv                     the message each rank sends to the next
 *                                rank and receives from the previous
 *                                (MPI_Sendrecv, a ring shift; at 2 ranks
 *                                both send to each other at once)
 * Rooted ones use root 0. Each NAME with an "i" in front (ibarrier,
 * iallreduce, ...) runs the nonblocking form, MPI_I<name> then MPI_Wait.
 * -H: the ranks split into two halves (MPI_Comm_split), each running the
 * collective on its own communicator at the same time (a communicator
 * that is not the whole node, as rows or columns of a process grid are).
 * -P N: only the first N ranks run the collective, on a communicator of
 * their own (MPI_Comm_split); the others wait in the benchmark's own
 * calls on MPI_COMM_WORLD, as the Intel MPI Benchmarks run their smaller
 * process counts inside a larger job.
 * -z SIZE: that one size only (any, not just the table's; -m is raised to
 * it), to find where two algorithms cross.
 * -T: MPI_Init_thread with MPI_THREAD_MULTIPLE (one thread still makes the
 * calls): what a threaded program, or one under mpi4py, pays.
 * -A: an 8-byte MPI_Allreduce (MPI_SUM on a double) before each call on the
 * same communicator, timed with it: programs mix small allreduces with
 * other collectives, and an implementation may pay for switching.
 */
#include "bench.h"

enum { BARRIER, BCAST, REDUCE, ALLREDUCE, SCAN, EXSCAN, GATHER, SCATTER, ALLGATHER,
       ALLTOALL, REDUCE_SCATTER, ALLGATHERV, SENDRECV, ALLTOALLV, GATHERV, SCATTERV, NCOLL };
static const char *const names[NCOLL] = {
    "barrier", "bcast", "reduce", "allreduce", "scan", "exscan", "gather", "scatter",
    "allgather", "alltoall", "reduce_scatter", "allgatherv", "sendrecv", "alltoallv",
    "gatherv", "scatterv",
};

static int which, nranks, nonblocking, active = 1, alternate;
static MPI_Comm comm;
static char *sbuf, *rbuf;
static int *vcounts, *vdispls;       /* allgatherv: n bytes from every rank */

static void set_v(int n)
{
    for (int i = 0; i < nranks; i++) {
        vcounts[i] = n;
        vdispls[i] = i * n;
    }
}

static void shift(int n)
{
    int me;
    MPI_Comm_rank(comm, &me);
    MPI_Sendrecv(sbuf, n, MPI_BYTE, (me + 1) % nranks, 5, rbuf, n, MPI_BYTE,
                 (me + nranks - 1) % nranks, 5, comm, MPI_STATUS_IGNORE);
}

static void one_nonblocking(long size, int root)
{
    int n = (int)size, d = (int)(size / 8);
    MPI_Comm w = comm;
    MPI_Request q;
    switch (which) {
    case BARRIER: MPI_Ibarrier(w, &q); break;
    case BCAST: MPI_Ibcast(sbuf, n, MPI_BYTE, root, w, &q); break;
    case REDUCE: MPI_Ireduce(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, root, w, &q); break;
    case ALLREDUCE: MPI_Iallreduce(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, w, &q); break;
    case SCAN: MPI_Iscan(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, w, &q); break;
    case EXSCAN: MPI_Iexscan(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, w, &q); break;
    case GATHER: MPI_Igather(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, root, w, &q); break;
    case SCATTER: MPI_Iscatter(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, root, w, &q); break;
    case ALLGATHER: MPI_Iallgather(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, w, &q); break;
    case ALLTOALL: MPI_Ialltoall(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, w, &q); break;
    case ALLGATHERV:
        set_v(n);
        MPI_Iallgatherv(sbuf, n, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, w, &q);
        break;
    case ALLTOALLV:
        set_v(n);
        MPI_Ialltoallv(sbuf, vcounts, vdispls, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, w,
                       &q);
        break;
    case GATHERV:
        set_v(n);
        MPI_Igatherv(sbuf, n, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, root, w, &q);
        break;
    case SCATTERV:
        set_v(n);
        MPI_Iscatterv(sbuf, vcounts, vdispls, MPI_BYTE, rbuf, n, MPI_BYTE, root, w, &q);
        break;
    default: MPI_Ireduce_scatter_block(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, w, &q); break;
    }
    MPI_Wait(&q, MPI_STATUS_IGNORE);
}

static void one(long size, int root)
{
    int n = (int)size, d = (int)(size / 8);
    MPI_Comm w = comm;
    if (nonblocking) {
        one_nonblocking(size, root);
        return;
    }
    switch (which) {
    case BARRIER: MPI_Barrier(w); break;
    case BCAST: MPI_Bcast(sbuf, n, MPI_BYTE, root, w); break;
    case REDUCE: MPI_Reduce(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, root, w); break;
    case ALLREDUCE: MPI_Allreduce(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, w); break;
    case SCAN: MPI_Scan(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, w); break;
    case EXSCAN: MPI_Exscan(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, w); break;
    case GATHER: MPI_Gather(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, root, w); break;
    case SCATTER: MPI_Scatter(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, root, w); break;
    case ALLGATHER: MPI_Allgather(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, w); break;
    case ALLTOALL: MPI_Alltoall(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, w); break;
    case SENDRECV: shift(n); break;
    case ALLGATHERV:
        set_v(n);
        MPI_Allgatherv(sbuf, n, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, w);
        break;
    case ALLTOALLV:
        set_v(n);
        MPI_Alltoallv(sbuf, vcounts, vdispls, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, w);
        break;
    case GATHERV:
        set_v(n);
        MPI_Gatherv(sbuf, n, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, root, w);
        break;
    case SCATTERV:
        set_v(n);
        MPI_Scatterv(sbuf, vcounts, vdispls, MPI_BYTE, rbuf, n, MPI_BYTE, root, w);
        break;
    default: MPI_Reduce_scatter_block(sbuf, rbuf, d, MPI_DOUBLE, MPI_SUM, w); break;
    }
}

static double batch(long size, int k)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    double x = 1, y;
    for (int i = 0; i < k && active; i++) {
        if (alternate)
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, comm);
        one(size, 0);
    }
    return bench_slowest(t0, k);
}

int main(int argc, char **argv)
{
    int rank, mt = 0, provided;
    for (int i = 1; i < argc; i++)
        mt |= !strcmp(argv[i], "-T");
    if (mt)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    bench_opts_t o = bench_parse(argc, argv, 4L << 20);
    comm = MPI_COMM_WORLD;
    int halves = 0, part = 0;
    long exact = 0;
    for (int i = 1; i < argc; i++) {
        halves |= !strcmp(argv[i], "-H");
        alternate |= !strcmp(argv[i], "-A");
        if (!strcmp(argv[i], "-z") && i + 1 < argc)
            exact = atol(argv[i + 1]);
        if (!strcmp(argv[i], "-P") && i + 1 < argc)
            part = atoi(argv[i + 1]);
    }
    if (exact > o.maxsize)
        o.maxsize = exact;
    if (halves) {
        MPI_Comm_split(MPI_COMM_WORLD, rank < nranks / 2, rank, &comm);
        MPI_Comm_size(comm, &nranks);
    } else if (part > 0 && part < nranks) {
        active = rank < part;
        MPI_Comm_split(MPI_COMM_WORLD, active ? 0 : MPI_UNDEFINED, rank, &comm);
        nranks = part;
    } else {
        part = 0;
    }
    which = -1;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-c"))
            for (int w = 0; w < NCOLL; w++) {
                const char *c = argv[i + 1];
                if (!strcmp(c, names[w]) || (c[0] == 'i' && !strcmp(c + 1, names[w]))) {
                    which = w;
                    nonblocking = c[0] == 'i' && strcmp(c, names[w]);
                }
            }
    if (nonblocking && which == SENDRECV)
        which = -1;                           /* no nonblocking form */
    if (which < 0) {
        if (rank == 0)
            fprintf(stderr, "usage: coll -c NAME [-q] [-m MAX] [-s MIN] [-z SIZE] [-H] [-P N] [-T] "
                    "[-A] (NAME: see coll.c)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* the blocks of all ranks, in the send or the receive buffer */
    long per = which >= GATHER && which != SENDRECV ? nranks : 1;
    sbuf = bench_alloc(o.maxsize * per);
    rbuf = bench_alloc(o.maxsize * per);
    vcounts = malloc(sizeof(int) * (size_t)nranks);
    vdispls = malloc(sizeof(int) * (size_t)nranks);
    if (rank == 0)
        printf("# %s%s-%dr%s%s%s us lower\n", nonblocking ? "i" : "", names[which], nranks,
               halves ? "-halves" : part > 0 ? "-part" : "", mt ? "-mt" : "",
               alternate ? "-after-allreduce" : "");
    static const long table[] = { 8, 64, 512, 4096, 32768, 262144, 1L << 20, 4L << 20 };
    const long *sizes = exact > 0 ? &exact : table;
    size_t nsizes = exact > 0 ? 1 : sizeof table / sizeof table[0];
    for (size_t s = 0; s < nsizes; s++) {
        long size = which == BARRIER ? 0 : sizes[s];
        if (size > o.maxsize)
            break;
        if (size < o.minsize && which != BARRIER)
            continue;
        bench_measure(size, batch, o.quick);
        if (which == BARRIER)
            break;
    }
    free(sbuf);
    free(rbuf);
    free(vcounts);
    free(vdispls);
    if (halves || (part > 0 && active))
        MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
