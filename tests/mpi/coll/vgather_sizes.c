/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * vgather_sizes.c - MPI_Allgatherv with blocks from nothing to 400 KB that
 * differ from rank to rank: at 2 ranks the table's `cell` (both blocks fit
 * a flow cell) or, beyond a cell, pair's exchange of messages (which both
 * ranks pick alike: both know both counts); at 3+ ranks the node
 * algorithms. Reverse-order displacements with a gap after each block that
 * must stay untouched, MPI_IN_PLACE, and a receive type with holes (an int
 * resized to 8 bytes). Then, at 2 ranks under MPI_ERRORS_RETURN, counts
 * that differ between the ranks (rank 1 sends more than rank 0 expects):
 * MPI_ERR_TRUNCATE on rank 0, nobody hangs, and a correct call follows.
 */
#include "ctest.h"

enum { GAP = -7 };
static const int bases[] = { 0, 1, 2, 64, 127, 128, 129, 1000, 8192, 100000 };
enum { NB = sizeof bases / sizeof bases[0] };

static int val(int round, int src, int k) { return round * 7919 + src * 100003 + k; }

/* Rank i's block in round r: the base, and a little more for higher ranks
 * (never 0 then: rank 0's 0 still meets a nonzero block). */
static int cnt(int r, int i) { return bases[r] + (bases[r] > 0 ? 3 * i : 0); }

/* Element x of a buffer of 2-int strides (holey) or plain ints. */
static int *elem(int *buf, int x, int holey) { return buf + (holey ? 2 * x : x); }

static void one(int r, int inplace, int holey, MPI_Datatype hole)
{
    int p = ct_size, me = ct_rank, counts[64], displs[64], n = 0;
    for (int i = p - 1; i >= 0; i--) {
        counts[i] = cnt(r, i);
        displs[i] = n;
        n += counts[i] + 1;
    }
    int *rbuf = ct_malloc((size_t)(n + 1) * (holey ? 2 : 1) * sizeof(int));
    for (int x = 0; x < n * (holey ? 2 : 1); x++)
        rbuf[x] = GAP;
    int *sbuf = ct_malloc((size_t)(counts[me] + 1) * sizeof(int));
    for (int k = 0; k < counts[me]; k++)
        sbuf[k] = val(r, me, k);
    const void *sb = sbuf;
    if (inplace) {
        for (int k = 0; k < counts[me]; k++)
            *elem(rbuf, displs[me] + k, holey) = val(r, me, k);
        sb = MPI_IN_PLACE;
    }
    CHECK_RC(MPI_Allgatherv(sb, counts[me], MPI_INT, rbuf, counts, displs,
                            holey ? hole : MPI_INT, MPI_COMM_WORLD));
    int bad = 0;
    for (int i = 0; i < p; i++)
        for (int k = 0; k <= counts[i] && bad < 3; k++) {
            int want = k < counts[i] ? val(r, i, k) : GAP;   /* the gap after it */
            int got = *elem(rbuf, displs[i] + k, holey);
            if (got != want) {
                CHECK(0, "round %d (%d ints) inplace %d holey %d: block %d element %d is "
                      "%d, want %d", r, counts[i], inplace, holey, i, k, got, want);
                bad++;
            }
        }
    if (holey)
        for (int x = 0; x < n && bad < 3; x++)
            if (rbuf[2 * x + 1] != GAP) {
                CHECK(0, "round %d: the hole after element %d was written", r, x);
                bad++;
            }
    free(rbuf);
    free(sbuf);
}

/* Rank 1 sends `more` ints beyond what rank 0 expects of it. */
static void mismatch(int base, int more)
{
    int counts[2] = { base, base }, displs[2] = { 0, base + 1 }, me = ct_rank;
    int send = me == 1 ? base + more : base;
    int *rbuf = ct_malloc((size_t)(2 * base + 2 + more) * sizeof(int));
    int *sbuf = ct_malloc((size_t)(send + 1) * sizeof(int));
    for (int k = 0; k < send; k++)
        sbuf[k] = k;
    int rc = MPI_Allgatherv(sbuf, send, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
    if (me == 0)
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "%d ints against %d: class %d, want "
              "MPI_ERR_TRUNCATE", base + more, base, ct_class(rc));
    else                        /* the sender may fail too (a cell it overfills) */
        CHECK(rc == MPI_SUCCESS || ct_class(rc) == MPI_ERR_TRUNCATE, "the sender of %d "
              "ints: class %d", base + more, ct_class(rc));
    free(rbuf);
    free(sbuf);
    /* a correct call afterwards */
    int x = me + 1, both[2] = { 0, 0 };
    int one_each[2] = { 1, 1 }, at[2] = { 0, 1 };
    CHECK_RC(MPI_Allgatherv(&x, 1, MPI_INT, both, one_each, at, MPI_INT, MPI_COMM_WORLD));
    CHECK(both[0] == 1 && both[1] == 2, "after the mismatch: %d %d", both[0], both[1]);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Datatype hole;
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &hole);
    MPI_Type_commit(&hole);
    for (int r = 0; r < NB; r++)
        for (int v = 0; v < 3; v++)
            one(r, v == 1, v == 2, hole);
    MPI_Type_free(&hole);
    if (ct_size == 2) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        mismatch(20, 200);      /* a cell's size against a message's */
        mismatch(5000, 300);    /* a message's against a longer one */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    return ct_finish();
}
