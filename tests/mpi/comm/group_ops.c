/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * group_ops.c - MPI_Group_union/intersection/difference and
 * range_incl/range_excl against member lists computed by hand (checked with
 * translate_ranks to the world group), plus the error paths: a range
 * outside the group, a zero stride, a rank named twice.
 */
#include "ctest.h"

/* Members of g, as world ranks, must be exactly want[0..n). */
static void check_group(MPI_Group g, int n, const int *want, const char *what)
{
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int size = -1;
    MPI_Group_size(g, &size);
    CHECK(size == n, "%s: size %d want %d", what, size, n);
    if (size == n && n > 0) {
        int *idx = ct_malloc((size_t)n * sizeof(int)), *tr = ct_malloc((size_t)n * sizeof(int));
        for (int i = 0; i < n; i++)
            idx[i] = i;
        MPI_Group_translate_ranks(g, n, idx, wg, tr);
        for (int i = 0; i < n; i++)
            CHECK(tr[i] == want[i], "%s: member %d is world %d want %d", what, i,
                  tr[i], want[i]);
        free(idx);
        free(tr);
    }
    int rank = -2, mine = MPI_UNDEFINED;
    for (int i = 0; i < n; i++)
        if (want[i] == ct_rank)
            mine = i;
    MPI_Group_rank(g, &rank);
    CHECK(rank == mine, "%s: my rank %d want %d", what, rank, mine);
    MPI_Group_free(&wg);
}

static void expect_class(int rc, int cls, const char *what)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    CHECK(c == cls, "%s: class %d want %d", what, c, cls);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size;
    MPI_Group wg, evens, odds, low, g;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *want = ct_malloc((size_t)(2 * p + 2) * sizeof(int));
    int *ev = ct_malloc((size_t)p * sizeof(int)), *od = ct_malloc((size_t)p * sizeof(int));
    int ne = 0, no = 0;
    for (int i = 0; i < p; i++) {
        if (i % 2 == 0)
            ev[ne++] = i;
        else
            od[no++] = i;
    }
    MPI_Group_incl(wg, ne, ev, &evens);
    MPI_Group_incl(wg, no, od, &odds);
    int nl = (p + 1) / 2;                    /* ranks 0 .. nl-1 */
    int ranges1[1][3] = { { 0, nl - 1, 1 } };
    CHECK_RC(MPI_Group_range_incl(wg, 1, ranges1, &low));
    for (int i = 0; i < nl; i++)
        want[i] = i;
    check_group(low, nl, want, "range_incl low half");

    /* union: odds then evens not in odds = odds, evens */
    CHECK_RC(MPI_Group_union(odds, evens, &g));
    int n = 0;
    for (int i = 0; i < no; i++) want[n++] = od[i];
    for (int i = 0; i < ne; i++) want[n++] = ev[i];
    check_group(g, n, want, "union odds evens");
    MPI_Group_free(&g);

    /* union with overlap: low then evens not in low */
    CHECK_RC(MPI_Group_union(low, evens, &g));
    n = 0;
    for (int i = 0; i < nl; i++) want[n++] = i;
    for (int i = 0; i < ne; i++) if (ev[i] >= nl) want[n++] = ev[i];
    check_group(g, n, want, "union low evens");
    MPI_Group_free(&g);

    /* intersection keeps group1's order */
    CHECK_RC(MPI_Group_intersection(evens, low, &g));
    n = 0;
    for (int i = 0; i < ne; i++) if (ev[i] < nl) want[n++] = ev[i];
    check_group(g, n, want, "intersection evens low");
    MPI_Group_free(&g);
    CHECK_RC(MPI_Group_intersection(evens, odds, &g));
    CHECK(g == MPI_GROUP_EMPTY, "disjoint intersection is MPI_GROUP_EMPTY");
    check_group(g, 0, want, "intersection evens odds");
    if (g != MPI_GROUP_EMPTY)
        MPI_Group_free(&g);

    /* difference */
    CHECK_RC(MPI_Group_difference(wg, evens, &g));
    check_group(g, no, od, "difference world evens");
    MPI_Group_free(&g);

    /* range_incl with a negative stride: p-1 down to 0 step -2 */
    int ranges2[1][3] = { { p - 1, 0, -2 } };
    CHECK_RC(MPI_Group_range_incl(wg, 1, ranges2, &g));
    n = 0;
    for (int i = p - 1; i >= 0; i -= 2) want[n++] = i;
    check_group(g, n, want, "range_incl reverse step 2");
    MPI_Group_free(&g);

    /* range_excl of the same ranges */
    CHECK_RC(MPI_Group_range_excl(wg, 1, ranges2, &g));
    int m = 0;
    for (int i = 0; i < p; i++) if ((p - 1 - i) % 2 != 0) want[m++] = i;
    check_group(g, m, want, "range_excl reverse step 2");
    MPI_Group_free(&g);

    /* two ranges */
    if (p >= 4) {
        int r3[2][3] = { { 0, 0, 1 }, { p - 1, 2, -1 } };
        CHECK_RC(MPI_Group_range_incl(wg, 2, r3, &g));
        n = 0;
        want[n++] = 0;
        for (int i = p - 1; i >= 2; i--) want[n++] = i;
        check_group(g, n, want, "range_incl two ranges");
        MPI_Group_free(&g);
    }

    /* errors */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int bad1[1][3] = { { 0, p, 1 } };
    expect_class(MPI_Group_range_incl(wg, 1, bad1, &g), MPI_ERR_RANK, "range past end");
    int bad2[1][3] = { { 0, 0, 0 } };
    expect_class(MPI_Group_range_excl(wg, 1, bad2, &g), MPI_ERR_ARG, "stride 0");
    int bad3[2][3] = { { 0, 0, 1 }, { 0, 0, 1 } };
    expect_class(MPI_Group_range_incl(wg, 2, bad3, &g), MPI_ERR_RANK, "rank twice");
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    int rc = MPI_Group_range_incl(wg, 1, bad1, &g);
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Group_range_incl") != NULL, "message names the function: %s", msg);

    MPI_Group_free(&low);
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&wg);
    free(want);
    free(ev);
    free(od);
    return ct_finish();
}
