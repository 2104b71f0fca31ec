/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rooted_mismatch.c - MPI_Scatter and MPI_Gather where rank 1's count
 * differs from the root's (an erroneous program), under MPI_ERRORS_RETURN:
 * the reader of rank 1's block (rank 1 in scatter, the root in gather)
 * gets MPI_ERR_TRUNCATE, every other rank succeeds, nobody hangs, and a
 * correct call follows. The pairs of counts lie on both sides of each
 * place a block can go (a 512-byte flow cell, gather's 32 KiB ring at 2
 * ranks, scatter's 64 KiB ring, a 1 MiB slot), in both directions: the
 * writer of a block decides where it goes and the reader follows
 * (stream_gather.c, pair_cell.c). Before 2026-12-06 each rank chose by its
 * own count: such pairs hung, or (3+ ranks, 127 against 130 ints) rank 1
 * read past the root's block and reported success. Last, the root's own
 * block longer than its place (its send count above its receive count):
 * MPI_ERR_TRUNCATE on the root alone, where the local copy truncated
 * silently (or, at 2 ranks, wrote past the place) before.
 */
#include "ctest.h"

/* Rank 0, or for every other pair the last rank when that is not rank 1. */
static int root_of(int i)
{
    return i % 2 == 1 && ct_size > 2 ? ct_size - 1 : 0;
}

static void scatter(int i, int root_n, int mine_n, int *all, int *r)
{
    int me = ct_rank, root = root_of(i);
    int n = me == 1 ? mine_n : root_n;
    int rc = MPI_Scatter(all, root_n, MPI_INT, r, n, MPI_INT, root, MPI_COMM_WORLD);
    if (me == 1 && root_n != mine_n)
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "scatter: root %d sends %d ints, rank 1 "
              "expects %d: class %d, want MPI_ERR_TRUNCATE", root, root_n, mine_n, ct_class(rc));
    else
        CHECK(rc == MPI_SUCCESS, "scatter: rank %d (root %d sends %d ints, rank 1 expects %d): "
              "class %d", me, root, root_n, mine_n, ct_class(rc));
    CHECK_RC(MPI_Scatter(all, 3, MPI_INT, r, 3, MPI_INT, root, MPI_COMM_WORLD));
    CHECK(r[0] == 3 * me && r[2] == 3 * me + 2, "scatter after the mismatch: rank %d got %d %d",
          me, r[0], r[2]);
}

static void gather(int i, int root_n, int mine_n, int *all, int *s)
{
    int me = ct_rank, root = root_of(i);
    int n = me == 1 ? mine_n : root_n;
    for (int k = 0; k < n; k++)
        s[k] = me;
    int rc = MPI_Gather(s, n, MPI_INT, all, root_n, MPI_INT, root, MPI_COMM_WORLD);
    if (me == root && root_n != mine_n)
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "gather: rank 1 sends %d ints, root %d expects "
              "%d: class %d, want MPI_ERR_TRUNCATE", mine_n, root, root_n, ct_class(rc));
    else
        CHECK(rc == MPI_SUCCESS, "gather: rank %d (rank 1 sends %d ints, root %d expects %d): "
              "class %d", me, mine_n, root, root_n, ct_class(rc));
    for (int k = 0; k < 3; k++)
        s[k] = 10 * me + k;
    CHECK_RC(MPI_Gather(s, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD));
    if (me == root)
        for (int j = 0; j < ct_size; j++)
            CHECK(all[3 * j] == 10 * j && all[3 * j + 2] == 10 * j + 2, "gather after the "
                  "mismatch: block %d holds %d %d", j, all[3 * j], all[3 * j + 2]);
}

/* The root's own block of n + 1 ints for a place of n. */
static void own_block(int n)
{
    int me = ct_rank, p = ct_size;
    int *all = ct_malloc((size_t)(p * (n + 1) + 1) * sizeof(int));
    int *r = ct_malloc((size_t)(n + 2) * sizeof(int));
    for (int k = 0; k < p * (n + 1); k++)
        all[k] = k;
    r[n] = -5;
    int rc = MPI_Scatter(all, n + 1, MPI_INT, r, me == 0 ? n : n + 1, MPI_INT, 0,
                         MPI_COMM_WORLD);
    if (me == 0) {
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "scatter, the root's own block of %d ints "
              "for %d: class %d, want MPI_ERR_TRUNCATE", n + 1, n, ct_class(rc));
        CHECK(r[n] == -5, "scatter: the root's own block was written past its place");
    } else {        /* the schedules (linear) pass the root's error on to every rank */
        CHECK(rc == MPI_SUCCESS || ct_class(rc) == MPI_ERR_TRUNCATE, "scatter, the root's "
              "own block too long: rank %d class %d", me, ct_class(rc));
    }
    rc = MPI_Gather(r, me == 0 ? n + 1 : n, MPI_INT, all, n, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0)
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "gather, the root's own block of %d ints "
              "for %d: class %d, want MPI_ERR_TRUNCATE", n + 1, n, ct_class(rc));
    else
        CHECK(rc == MPI_SUCCESS, "gather, the root's own block too long: rank %d class %d",
              me, ct_class(rc));
    for (int k = 0; k < 3 * p; k++)
        all[k] = k;
    CHECK_RC(MPI_Scatter(all, 3, MPI_INT, r, 3, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(r[0] == 3 * me, "scatter after the root's mismatch: rank %d got %d", me, r[0]);
    free(all);
    free(r);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static const int pairs[][2] = {
        { 127, 130 }, { 130, 127 }, { 10, 5000 }, { 5000, 10 }, { 5000, 5003 },
        { 8000, 8300 }, { 8300, 8000 }, { 16000, 17000 }, { 17000, 16000 },
        { 262000, 262200 }, { 262200, 262000 }, { 64, 64 } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int root_n = pairs[i][0], mine_n = pairs[i][1];
        int max = root_n > mine_n ? root_n : mine_n;
        int *all = ct_malloc((size_t)ct_size * (size_t)max * sizeof(int));
        int *r = ct_malloc((size_t)max * sizeof(int));
        for (int k = 0; k < ct_size * max; k++)
            all[k] = k;
        scatter((int)i, root_n, mine_n, all, r);
        gather((int)i, root_n, mine_n, all, r);
        free(all);
        free(r);
    }
    own_block(2);
    own_block(20000);
    return ct_finish();
}
