/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scatter_mismatch.c - MPI_Scatter whose root's count differs from rank
 * 1's receive count (an erroneous program), under MPI_ERRORS_RETURN: rank 1
 * gets MPI_ERR_TRUNCATE, nobody hangs, and a correct call follows. The
 * pairs of counts lie on both sides of a 512-byte flow cell, in both
 * directions, and both beyond it: at 2 ranks the root decides between its
 * cell and a message and rank 1 follows the root's header (pair_cell.c);
 * before 2026-12-06 each chose by its own count and such a pair hung.
 */
#include "ctest.h"

static void one(int root_n, int mine_n)
{
    int p = ct_size, me = ct_rank, max = root_n > mine_n ? root_n : mine_n;
    int *all = ct_malloc((size_t)p * (size_t)max * sizeof(int));
    int *r = ct_malloc((size_t)max * sizeof(int));
    for (int i = 0; i < p * max; i++)
        all[i] = i;
    int n = me == 1 ? mine_n : root_n;
    int rc = MPI_Scatter(all, root_n, MPI_INT, r, n, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 1 && root_n != mine_n)
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "root sends %d ints, rank 1 expects %d: "
              "class %d, want MPI_ERR_TRUNCATE", root_n, mine_n, ct_class(rc));
    else if (me != 1)
        CHECK(rc == MPI_SUCCESS, "rank %d (root sends %d ints, rank 1 expects %d): class %d",
              me, root_n, mine_n, ct_class(rc));
    /* a correct call afterwards */
    CHECK_RC(MPI_Scatter(all, 3, MPI_INT, r, 3, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(r[0] == 3 * me && r[2] == 3 * me + 2, "after the mismatch: rank %d got %d %d", me,
          r[0], r[2]);
    free(all);
    free(r);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static const int pairs[][2] = { { 127, 130 }, { 130, 127 }, { 10, 5000 }, { 5000, 10 },
                                    { 5000, 5003 }, { 64, 64 } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        one(pairs[i][0], pairs[i][1]);
    return ct_finish();
}
