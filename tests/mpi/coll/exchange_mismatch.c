/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * exchange_mismatch.c - the two-rank exchanges (MPI_Allreduce,
 * MPI_Allgather, MPI_Alltoall, MPI_Reduce_scatter_block,
 * MPI_Reduce_scatter) where rank 1's
 * count differs from rank 0's (an erroneous program), under
 * MPI_ERRORS_RETURN: both ranks fail with MPI_ERR_TRUNCATE (each receives
 * a block of the wrong size), nobody hangs, and a correct call follows.
 * With the argument "direct" (any number of ranks, the direct exchanges
 * forced: allreduce=exchange, reduce_scatter(_block)=pairwise) rank 1's
 * count differs from every other rank's, 0 among them: before 2026-12-07 a
 * rank with 0 sent nothing and the others waited for its pieces for good.
 * The counts lie on both sides of a 512-byte flow cell too: a rank whose
 * data does not fit its cell announces a message in a flow call of its
 * own and the peer, which chose its cell, follows it to pair's messages
 * (pair_cell.c); before 2026-12-06 such pairs waited for good, and the
 * reduce_scatter cells, which carried no byte count then, read the wrong
 * bytes within a cell (10 against 12 ints).
 */
#include "ctest.h"

enum { ALLREDUCE, ALLGATHER, ALLTOALL, RSB, RS };
static const char *names[] = { "MPI_Allreduce", "MPI_Allgather", "MPI_Alltoall",
                               "MPI_Reduce_scatter_block", "MPI_Reduce_scatter" };

static int call(int coll, const int *s, int *r, int n)
{
    switch (coll) {
    case ALLREDUCE: return MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    case ALLGATHER: return MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD);
    case ALLTOALL:  return MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD);
    case RSB:       return MPI_Reduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    default: {      /* every rank's recvcounts say n for each rank */
        int *counts = ct_malloc((size_t)ct_size * sizeof(int));
        for (int i = 0; i < ct_size; i++)
            counts[i] = n;
        int rc = MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        free(counts);
        return rc;
    }
    }
}

static void one(int coll, int n0, int n1)
{
    int me = ct_rank, p = ct_size, n = me == 1 ? n1 : n0, max = n0 > n1 ? n0 : n1;
    size_t len = (size_t)p * (size_t)(max > 2 ? max : 2);
    int *s = ct_malloc(len * sizeof(int));
    int *r = ct_malloc(len * sizeof(int));
    for (size_t k = 0; k < len; k++)
        s[k] = me + 1, r[k] = -1;
    int rc = call(coll, s, r, n);
    CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "%s, %d ints on rank 1 and %d on the others: "
          "rank %d got class %d, want MPI_ERR_TRUNCATE", names[coll], n1, n0, me,
          ct_class(rc));
    /* a correct call afterwards: 2 ints each, s[k] = 10 me + k */
    for (int k = 0; k < 2 * p; k++)
        s[k] = 10 * me + k;
    CHECK_RC(call(coll, s, r, 2));
    int ranks = 10 * p * (p - 1) / 2;               /* the sum of 10 j over ranks */
    int want0 = coll == ALLREDUCE ? ranks : coll == ALLGATHER ? 0 : coll == ALLTOALL ? 2 * me
              : ranks + 2 * me * p;
    CHECK(r[0] == want0, "%s after the mismatch: rank %d got %d, want %d", names[coll], me,
          r[0], want0);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc > 1 && !strcmp(argv[1], "direct")) {
        static const int direct[][2] = { { 0, 100 }, { 100, 0 }, { 10, 200 }, { 4000, 3000 } };
        static const int colls[] = { ALLREDUCE, RSB, RS };
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < (int)(sizeof direct / sizeof direct[0]); i++)
                one(colls[c], direct[i][0], direct[i][1]);
        return ct_finish();
    }
    if (ct_size != 2) {
        CHECK(0, "runs at 2 ranks, not %d", ct_size);
        return ct_finish();
    }
    /* within a cell, across it, beyond, and (allreduce) across the 64 KiB
     * where the cells give way to the node slots' rounds */
    static const int counts[][2] = { { 10, 200 }, { 200, 10 }, { 5000, 6000 }, { 10, 12 },
                                     { 10, 20000 }, { 20000, 5000 }, { 20000, 30000 } };
    for (int coll = ALLREDUCE; coll <= RS; coll++)
        for (int i = 0; i < (int)(sizeof counts / sizeof counts[0]); i++)
            one(coll, counts[i][0], counts[i][1]);
    return ct_finish();
}
