/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_mismatch.c - MPI_Reduce, MPI_Scan and MPI_Exscan where one rank's
 * count differs from the others' (an erroneous program), under
 * MPI_ERRORS_RETURN: the rank that reads the odd rank's data fails with
 * MPI_ERR_TRUNCATE (reduce: the root; scan and exscan: the odd rank and,
 * as the failure is passed down the chain, every rank after it), the
 * others succeed, nobody hangs, and a correct call follows.
 *
 * At 2 ranks the counts lie on both sides of a 512-byte flow cell too:
 * the writer decides between its cell and a message and the reader
 * follows (pair_cell.c); before 2026-12-06 10 against 200 ints hung, and
 * 10 against 12 read the writer's cell as the reader's count. A reduce's
 * writer of more than 512 KiB sends pieces, which the root takes whatever
 * its own count (a cell's, a message's, other pieces). From 3
 * ranks: counts within a cell (the flow algorithms compare the writer's
 * byte count); on both sides of the cell's 512 bytes (the flow cells
 * against the stream or the chain: a hang before 2026-12-07, the writer
 * alone took a node barrier or the reader waited in the wrong ring); a
 * reduce's both beyond a cell within a slot (the stream's writers publish
 * their byte counts: 300 against 2000 doubles read the wrong bytes
 * before); a scan's in the chain (each chain call numbered its chunks by
 * the counts, so 5000 against 6000 doubles read the wrong chunks with
 * success, and differing chunk counts hung); a reduce's beyond a slot (in
 * segments: the writers follow the root's verdict on its counts, so a
 * writer fails too there). With the argument "tree" (binomial reduce and
 * linear scans forced) a reduce's rank between the odd rank and the root
 * may fail too: it passes the mismatch up. A count of 0 against others is
 * one too (the linear scan returned at once on 0 until the second session
 * of 2026-12-07, and the others waited for its message).
 */
#include "ctest.h"

enum { REDUCE, SCAN, EXSCAN };
static int tree;      /* argument "tree": reduce by a tree (binomial forced) */
static const char *names[] = { "MPI_Reduce", "MPI_Scan", "MPI_Exscan" };

/* The odd rank: rank 1, but the rank that is not the root at 2 ranks. */
static void one(int coll, int root, int n, int odd_n)
{
    int me = ct_rank, p = ct_size, odd = p == 2 ? 1 - root : 1;
    if (coll != REDUCE)
        odd = 1;
    int count = me == odd ? odd_n : n, max = n > odd_n ? n : odd_n;
    double *s = ct_malloc((size_t)max * sizeof(double));
    double *r = ct_malloc((size_t)max * sizeof(double));
    for (int k = 0; k < max; k++)
        s[k] = me + 1, r[k] = -1;
    int rc = coll == REDUCE ? MPI_Reduce(s, r, count, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD)
           : coll == SCAN   ? MPI_Scan(s, r, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD)
                            : MPI_Exscan(s, r, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int fails = coll == REDUCE ? me == root : me >= odd;
    int segments = p > 2 && (size_t)max * sizeof(double) > (512 << 10);
    if ((tree || segments) && coll == REDUCE && !fails)   /* on the way up, or no GO */
        CHECK(rc == MPI_SUCCESS || ct_class(rc) == MPI_ERR_TRUNCATE, "%s, %d doubles on rank "
              "%d, %d elsewhere (root %d): rank %d got class %d", names[coll], odd_n, odd, n,
              root, me, ct_class(rc));
    else if (fails)
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "%s, %d doubles on rank %d, %d elsewhere (root "
              "%d): rank %d got class %d, want MPI_ERR_TRUNCATE", names[coll], odd_n, odd, n,
              root, me, ct_class(rc));
    else
        CHECK(rc == MPI_SUCCESS, "%s, %d doubles on rank %d, %d elsewhere (root %d): rank %d "
              "got class %d", names[coll], odd_n, odd, n, root, me, ct_class(rc));
    /* a correct call afterwards */
    double x = me + 1, y = -1;
    CHECK_RC(MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD));
    if (me == root)
        CHECK(y == p * (p + 1) / 2.0, "reduce after the mismatch: %g, want %g", y,
              p * (p + 1) / 2.0);
    CHECK_RC(MPI_Scan(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(y == (me + 1) * (me + 2) / 2.0, "scan after the mismatch: rank %d got %g", me, y);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    tree = argc > 1 && !strcmp(argv[1], "tree");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static const int pair_counts[][2] = { { 10, 12 }, { 12, 10 }, { 10, 200 }, { 200, 10 },
                                          { 5000, 5001 }, { 64, 65 }, { 10, 200000 },
                                          { 200000, 10 }, { 131072, 131073 },
                                          { 100000, 131072 }, { 131072, 65536 } };
    static const int node_counts[][2] = { { 10, 12 }, { 12, 10 }, { 63, 64 }, { 1, 2 } };
    static const int stream_counts[][2] = { { 300, 2000 }, { 2000, 300 }, { 3000, 20000 } };
    static const int cross_counts[][2] = { { 60, 70 }, { 70, 60 }, { 0, 100 } };
    static const int chain_counts[][2] = { { 5000, 6000 }, { 2000, 2100 }, { 3000, 100000 },
                                           { 100000, 3000 } };
    static const int segment_counts[][2] = { { 100000, 130000 }, { 130000, 100000 },
                                             { 130000, 140000 }, { 300000, 200000 } };
    int n = ct_size == 2 ? (int)(sizeof pair_counts / sizeof pair_counts[0]) : 4;
    for (int coll = REDUCE; coll <= EXSCAN; coll++)
        for (int i = 0; i < n; i++) {
            const int *c = ct_size == 2 ? pair_counts[i] : node_counts[i];
            one(coll, 0, c[0], c[1]);
            if (coll == REDUCE)
                one(coll, ct_size - 1, c[0], c[1]);
        }
    for (int i = 0; ct_size > 2 && i < 4; i++) {
        for (int coll = REDUCE; coll <= EXSCAN && i < 3; coll++)
            one(coll, 0, cross_counts[i][0], cross_counts[i][1]);
        one(SCAN, 0, chain_counts[i][0], chain_counts[i][1]);
        one(EXSCAN, 0, chain_counts[i][0], chain_counts[i][1]);
        one(REDUCE, ct_size - 1, segment_counts[i][0], segment_counts[i][1]);
        if (i < 3) {
            one(REDUCE, 0, stream_counts[i][0], stream_counts[i][1]);
            one(REDUCE, ct_size - 1, stream_counts[i][0], stream_counts[i][1]);
        }
    }
    return ct_finish();
}
