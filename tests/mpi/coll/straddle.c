/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * straddle.c - counts that differ (an erroneous program) on both sides of
 * every size where the selection table may change algorithm: each blocking
 * collective on MPI_COMM_WORLD, rank 1's count at 1.1x and 0.9x of the
 * others' around 512 B ... 960 KiB (the flow cell, the stream, 16 KiB, the
 * node channel's window, a slot), under MPI_ERRORS_RETURN. Each call must
 * end on every rank, some rank must report the mismatch (which ones depends
 * on the collective: a broadcast's root, whose count is the reference,
 * succeeds), and a correct allreduce after it must be right. Where ranks
 * chose algorithms of different shapes, each side waited for the other
 * for good until 2026-12-07 (alltoall across 16 KiB, reduce_scatter
 * across a slot; docs/design/coll.md, "Counts that differ between
 * ranks"); a wrong count read silently is caught too.
 *
 * Not here: the nonblocking forms and communicators that are a part of
 * the node, where the node channel meets message algorithms (not caught,
 * coll.md).
 */
#include "ctest.h"

enum { BCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER, ALLTOALL, RSB, RS, SCAN, EXSCAN,
       GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV, NCOLL };
static const char *names[] = { "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Gather",
                               "MPI_Scatter", "MPI_Allgather", "MPI_Alltoall",
                               "MPI_Reduce_scatter_block", "MPI_Reduce_scatter", "MPI_Scan",
                               "MPI_Exscan", "MPI_Gatherv", "MPI_Scatterv", "MPI_Allgatherv",
                               "MPI_Alltoallv" };

static int call(int coll, int *s, int *r, int n, int *counts, int *displs)
{
    MPI_Comm c = MPI_COMM_WORLD;
    for (int i = 0; i < ct_size; i++)
        counts[i] = n, displs[i] = i * n;
    switch (coll) {
    case BCAST:      return MPI_Bcast(s, n, MPI_INT, 0, c);
    case REDUCE:     return MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, 0, c);
    case ALLREDUCE:  return MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, c);
    case GATHER:     return MPI_Gather(s, n, MPI_INT, r, n, MPI_INT, 0, c);
    case SCATTER:    return MPI_Scatter(s, n, MPI_INT, r, n, MPI_INT, 0, c);
    case ALLGATHER:  return MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, c);
    case ALLTOALL:   return MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, c);
    case RSB:        return MPI_Reduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, c);
    case RS:         return MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, c);
    case SCAN:       return MPI_Scan(s, r, n, MPI_INT, MPI_SUM, c);
    case EXSCAN:     return MPI_Exscan(s, r, n, MPI_INT, MPI_SUM, c);
    case GATHERV:    return MPI_Gatherv(s, n, MPI_INT, r, counts, displs, MPI_INT, 0, c);
    case SCATTERV:   return MPI_Scatterv(s, counts, displs, MPI_INT, r, n, MPI_INT, 0, c);
    case ALLGATHERV: return MPI_Allgatherv(s, n, MPI_INT, r, counts, displs, MPI_INT, c);
    default:
        return MPI_Alltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, c);
    }
}

static void one(int coll, int n, int odd)
{
    int p = ct_size, mine = ct_rank == 1 ? odd : n, max = n > odd ? n : odd;
    size_t len = (size_t)max * (size_t)p;
    int *s = ct_malloc(len * sizeof(int)), *r = ct_malloc(len * sizeof(int));
    int *counts = ct_malloc((size_t)p * sizeof(int)), *displs = ct_malloc((size_t)p * sizeof(int));
    for (size_t k = 0; k < len; k++)
        s[k] = 1, r[k] = -1;
    int failed = call(coll, s, r, mine, counts, displs) != MPI_SUCCESS, any = 0;
    CHECK_RC(MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK(any == 1, "%s, %d ints on rank 1 and %d on the others: no rank reported the "
          "mismatch", names[coll], odd, n);
    int x = ct_rank + 1, sum = 0;
    CHECK_RC(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == p * (p + 1) / 2, "%s, %d against %d ints: the allreduce after it gave %d, "
          "want %d", names[coll], odd, n, sum, p * (p + 1) / 2);
    free(s), free(r), free(counts), free(displs);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (ct_size < 2) {
        CHECK(0, "runs at 2 ranks or more, not %d", ct_size);
        return ct_finish();
    }
    static const int bytes[] = { 512, 2048, 4096, 16384, 32768, 65536, 98304, 131072,
                                 262144, 524288, 983040 };
    for (int coll = 0; coll < NCOLL; coll++)
        for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++) {
            int lo = bytes[i] * 9 / 40, hi = bytes[i] * 11 / 40;   /* ints: 0.9x, 1.1x */
            one(coll, lo, hi);
            one(coll, hi, lo);
        }
    return ct_finish();
}
