/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rma.c - one-sided communication: microseconds per operation, median over
 * batches, the slowest rank's view. Plain MPI: builds with any mpicc. The
 * window comes from MPI_Win_allocate (-c: MPI_Win_create on malloc'd memory).
 *   mpiexec -n 2 ./rma -k KIND [-q] [-m MAXSIZE] [-c]
 * KIND, what one operation is, and what the size is:
 *   put, get     every rank: MPI_Put / MPI_Get of the size to the next rank,
 *                then MPI_Win_flush, inside one MPI_Win_lock_all epoch
 *   fence        every rank puts the size to the next rank; MPI_Win_fence
 *   acc          every rank: lock exclusive on rank 0, MPI_Accumulate (SUM
 *                of longs) of the size, unlock (a lock-protected update)
 *   fop          every rank: MPI_Fetch_and_op (SUM) on one long at rank 0,
 *                then MPI_Win_flush (a shared counter); size: 8
 *   idle         rank 0 only: lock exclusive on rank 1, MPI_Get of the size,
 *                unlock, while the other ranks wait in a collective (a
 *                passive target that went to sleep there)
 * Sizes 8 B to MAXSIZE (default 1 MiB; fop: 8 B only).
 */
#include "bench.h"

enum { PUT, GET, FENCE, ACC, FOP, IDLE, NKIND };
static const char *const kinds[NKIND] = { "put", "get", "fence", "acc", "fop", "idle" };

static int rank, nranks, kind;
static MPI_Win win;
static char *obuf;

static void one(long size)
{
    int right = (rank + 1) % nranks, n = (int)size;
    long one = 1, old;
    switch (kind) {
    case PUT:
        MPI_Put(obuf, n, MPI_BYTE, right, 0, n, MPI_BYTE, win);
        MPI_Win_flush(right, win);
        break;
    case GET:
        MPI_Get(obuf, n, MPI_BYTE, right, 0, n, MPI_BYTE, win);
        MPI_Win_flush(right, win);
        break;
    case FENCE:
        MPI_Put(obuf, n, MPI_BYTE, right, 0, n, MPI_BYTE, win);
        MPI_Win_fence(0, win);
        break;
    case ACC:
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Accumulate(obuf, n / 8, MPI_LONG, 0, 0, n / 8, MPI_LONG, MPI_SUM, win);
        MPI_Win_unlock(0, win);
        break;
    case FOP:
        MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        break;
    default:
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            MPI_Get(obuf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win);
            MPI_Win_unlock(1, win);
        }
        break;
    }
}

static double batch(long size, int k)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (kind == IDLE && rank == 0) {    /* 2 ms: the others fall asleep in */
        double t = MPI_Wtime();         /* bench_slowest's MPI_Allreduce  */
        while (MPI_Wtime() - t < 2e-3)
            ;
    }
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++)
        one(size);
    if (kind == IDLE && rank != 0)
        t0 = MPI_Wtime();               /* idle: rank 0's time */
    return bench_slowest(t0, k);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    bench_opts_t o = bench_parse(argc, argv, 1L << 20);
    int create = 0;
    kind = -1;
    for (int i = 1; i < argc; i++) {
        create |= !strcmp(argv[i], "-c");
        if (!strcmp(argv[i], "-k") && i + 1 < argc)
            for (int k = 0; k < NKIND; k++)
                if (!strcmp(argv[i + 1], kinds[k]))
                    kind = k;
    }
    if (kind < 0 || (kind == IDLE && nranks < 2)) {
        if (rank == 0)
            fprintf(stderr, "usage: rma -k put|get|fence|acc|fop|idle [-q] [-m MAX] [-c] "
                    "(idle: 2 ranks or more)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long maxsize = kind == FOP ? 8 : o.maxsize;
    void *base;
    if (create) {
        base = bench_alloc(maxsize);
        memset(base, 0, (size_t)maxsize);
        MPI_Win_create(base, maxsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        MPI_Win_allocate(maxsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        memset(base, 0, (size_t)maxsize);
    }
    obuf = bench_alloc(maxsize);
    memset(obuf, 0, (size_t)maxsize);
    if (rank == 0)
        printf("# %s%s-%dr us lower\n", kinds[kind], create ? "-create" : "", nranks);
    int passive = kind == PUT || kind == GET || kind == FOP;
    if (passive)
        MPI_Win_lock_all(0, win);
    else if (kind == FENCE)
        MPI_Win_fence(0, win);
    static const long sizes[] = { 8, 64, 512, 4096, 32768, 262144, 1L << 20 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0] && sizes[s] <= maxsize; s++)
        bench_measure(sizes[s], batch, o.quick);
    if (passive)
        MPI_Win_unlock_all(win);
    else if (kind == FENCE)
        MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    if (create)
        free(base);
    free(obuf);
    MPI_Finalize();
    return 0;
}
