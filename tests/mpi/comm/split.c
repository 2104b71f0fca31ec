/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * split.c - MPI_Comm_split: as many colours as ranks, two colours with the
 * key reversing the order, MPI_UNDEFINED on some ranks (MPI_COMM_NULL),
 * equal keys (old rank order decides), splits of splits, many split+free
 * cycles; each new communicator is checked with a collective on it and with
 * translate_ranks against COMM_WORLD.
 */
#include "ctest.h"

/* Check comm: size, rank, and that member i is world rank expect[i]. */
static void check_members(MPI_Comm comm, int n, const int *expect, const char *what)
{
    int size = -1, rank = -1;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    CHECK(size == n, "%s: size %d want %d", what, size, n);
    if (size != n)
        return;
    CHECK(rank >= 0 && rank < n && expect[rank] == ct_rank, "%s: rank %d", what, rank);
    int *all = ct_malloc((size_t)n * sizeof(int));
    MPI_Allgather(&ct_rank, 1, MPI_INT, all, 1, MPI_INT, comm);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += all[i] != expect[i];
    CHECK(bad == 0, "%s: %d members in the wrong place", what, bad);
    MPI_Group g, wg;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *idx = ct_malloc((size_t)n * sizeof(int)), *tr = ct_malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, wg, tr);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += tr[i] != expect[i];
    CHECK(bad == 0, "%s: translate_ranks disagrees in %d places", what, bad);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(idx);
    free(tr);
    free(all);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size, r = ct_rank;
    int *exp = ct_malloc((size_t)p * sizeof(int));
    MPI_Comm c;

    /* one colour per rank */
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, r, 0, &c));
    exp[0] = r;
    check_members(c, 1, exp, "colour per rank");
    MPI_Comm_free(&c);

    /* two colours (parity), key reverses the order */
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, r % 2, p - r, &c));
    int n = 0;
    for (int w = p - 1; w >= 0; w--)
        if (w % 2 == r % 2)
            exp[n++] = w;
    check_members(c, n, exp, "parity reversed");

    /* split of the split: all same key, so old rank order */
    MPI_Comm c2;
    CHECK_RC(MPI_Comm_split(c, 0, 7, &c2));
    check_members(c2, n, exp, "split of split");
    int res;
    MPI_Comm_compare(c, c2, &res);
    CHECK(res == MPI_CONGRUENT, "same members same order: CONGRUENT, got %d", res);
    MPI_Comm_free(&c2);
    MPI_Comm_free(&c);

    /* MPI_UNDEFINED on every third rank */
    int colour = r % 3 == 2 ? MPI_UNDEFINED : 1;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, colour, 0, &c));
    if (colour == MPI_UNDEFINED) {
        CHECK(c == MPI_COMM_NULL, "MPI_UNDEFINED gives MPI_COMM_NULL");
    } else {
        n = 0;
        for (int w = 0; w < p; w++)
            if (w % 3 != 2)
                exp[n++] = w;
        check_members(c, n, exp, "undefined on every third");
        MPI_Comm_free(&c);
    }

    /* everyone MPI_UNDEFINED */
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, r, &c));
    CHECK(c == MPI_COMM_NULL, "all undefined");

    /* many cycles */
    for (int k = 0; k < 300; k++) {
        CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, (r + k) % 3, -r, &c));
        if (k % 50 == 0) {
            n = 0;
            for (int w = p - 1; w >= 0; w--)
                if ((w + k) % 3 == (r + k) % 3)
                    exp[n++] = w;
            check_members(c, n, exp, "cycle");
        }
        MPI_Comm_free(&c);
    }
    free(exp);
    return ct_finish();
}
