/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * vcoll.c - MPI_Gatherv, Scatterv, Allgatherv, Alltoallv and Alltoallw in
 * their blocking, nonblocking and persistent forms, with counts that vary
 * per rank (zeros included), displacements in reverse order with gaps that
 * must stay untouched, MPI_IN_PLACE where the standard allows it, every
 * root, and (Alltoallw) a strided derived type on some peers. Results are
 * checked against the value each element must have.
 */
#include "ctest_forms.h"

#define VAL(src, dst, k) ((src) * 10000 + (dst) * 100 + (k))
#define GAP (-7)

static int cnt(int i) { return i % 3; }                 /* 0, 1, 2, 0 ... */
static int pcnt(int a, int b) { return (a + b) % 3; }   /* symmetric      */

/* Reverse-order displacements with one element gap after each block. */
static int rev_displs(int p, const int *counts, int *displs)
{
    int off = 0;
    for (int i = p - 1; i >= 0; i--) {
        displs[i] = off;
        off += counts[i] + 1;
    }
    return off;
}

static void check_gaps(const int *buf, int n, const int *counts,
                       const int *displs, int p, const char *what)
{
    char *used = calloc((size_t)n + 1, 1);
    for (int i = 0; i < p; i++)
        for (int k = 0; k < counts[i]; k++)
            used[displs[i] + k] = 1;
    for (int x = 0; x < n; x++)
        if (!used[x])
            CHECK(buf[x] == GAP, "%s: gap element %d overwritten (%d)", what, x, buf[x]);
    free(used);
}

static void test_gatherv(int form, int root, int inplace)
{
    int p = ct_size, me = ct_rank;
    int counts[64], displs[64];
    for (int i = 0; i < p; i++)
        counts[i] = cnt(i);
    int n = rev_displs(p, counts, displs);
    int *rbuf = ct_malloc(sizeof(int) * (size_t)n), sbuf[4];
    for (int x = 0; x < n; x++)
        rbuf[x] = GAP;
    for (int k = 0; k < cnt(me); k++)
        sbuf[k] = VAL(me, root, k);
    const void *sb = sbuf;
    if (inplace && me == root) {
        sb = MPI_IN_PLACE;
        for (int k = 0; k < cnt(me); k++)
            rbuf[displs[me] + k] = VAL(me, root, k);
    }
    CHECK_RC(FORM(form, MPI_Gatherv(sb, cnt(me), MPI_INT, rbuf, counts, displs, MPI_INT, root, MPI_COMM_WORLD),
                  MPI_Igatherv(sb, cnt(me), MPI_INT, rbuf, counts, displs, MPI_INT, root, MPI_COMM_WORLD, &req_),
                  MPI_Gatherv_init(sb, cnt(me), MPI_INT, rbuf, counts, displs, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req_)));
    if (me == root) {
        for (int i = 0; i < p; i++)
            for (int k = 0; k < counts[i]; k++)
                CHECK(rbuf[displs[i] + k] == VAL(i, root, k),
                      "gatherv %s root %d: block %d[%d] = %d", ct_form_names[form],
                      root, i, k, rbuf[displs[i] + k]);
        check_gaps(rbuf, n, counts, displs, p, "gatherv");
    }
    free(rbuf);
}

static void test_scatterv(int form, int root, int inplace)
{
    int p = ct_size, me = ct_rank;
    int counts[64], displs[64];
    for (int i = 0; i < p; i++)
        counts[i] = cnt(i);
    int n = rev_displs(p, counts, displs);
    int *sbuf = ct_malloc(sizeof(int) * (size_t)n), rbuf[4] = { GAP, GAP, GAP, GAP };
    for (int i = 0; i < p; i++)
        for (int k = 0; k < counts[i]; k++)
            sbuf[displs[i] + k] = VAL(root, i, k);
    void *rb = rbuf;
    if (inplace && me == root)
        rb = MPI_IN_PLACE;
    CHECK_RC(FORM(form, MPI_Scatterv(sbuf, counts, displs, MPI_INT, rb, cnt(me), MPI_INT, root, MPI_COMM_WORLD),
                  MPI_Iscatterv(sbuf, counts, displs, MPI_INT, rb, cnt(me), MPI_INT, root, MPI_COMM_WORLD, &req_),
                  MPI_Scatterv_init(sbuf, counts, displs, MPI_INT, rb, cnt(me), MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req_)));
    if (rb != MPI_IN_PLACE) {
        for (int k = 0; k < cnt(me); k++)
            CHECK(rbuf[k] == VAL(root, me, k), "scatterv %s root %d: [%d] = %d",
                  ct_form_names[form], root, k, rbuf[k]);
        CHECK(rbuf[cnt(me)] == GAP, "scatterv wrote past its count");
    }
    free(sbuf);
}

static void test_allgatherv(int form, int inplace)
{
    int p = ct_size, me = ct_rank;
    int counts[64], displs[64], sbuf[4];
    for (int i = 0; i < p; i++)
        counts[i] = cnt(i);
    int n = rev_displs(p, counts, displs);
    int *rbuf = ct_malloc(sizeof(int) * (size_t)n);
    for (int x = 0; x < n; x++)
        rbuf[x] = GAP;
    for (int k = 0; k < cnt(me); k++) {
        sbuf[k] = VAL(me, 0, k);
        if (inplace)
            rbuf[displs[me] + k] = VAL(me, 0, k);
    }
    const void *sb = inplace ? MPI_IN_PLACE : sbuf;
    CHECK_RC(FORM(form, MPI_Allgatherv(sb, cnt(me), MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD),
                  MPI_Iallgatherv(sb, cnt(me), MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, &req_),
                  MPI_Allgatherv_init(sb, cnt(me), MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req_)));
    for (int i = 0; i < p; i++)
        for (int k = 0; k < counts[i]; k++)
            CHECK(rbuf[displs[i] + k] == VAL(i, 0, k), "allgatherv %s%s: block %d[%d] = %d",
                  ct_form_names[form], inplace ? " in place" : "", i, k, rbuf[displs[i] + k]);
    check_gaps(rbuf, n, counts, displs, p, "allgatherv");
    free(rbuf);
}

static void test_alltoallv(int form, int inplace)
{
    int p = ct_size, me = ct_rank;
    int sc[64], sd[64], rc[64], rd[64];
    int off = 0;
    for (int j = 0; j < p; j++) {
        sc[j] = pcnt(me, j);
        sd[j] = off;
        off += sc[j];
        rc[j] = pcnt(j, me);
    }
    int *sbuf = ct_malloc(sizeof(int) * (size_t)(off + 1));
    int n = rev_displs(p, rc, rd);
    int *rbuf = ct_malloc(sizeof(int) * (size_t)n);
    for (int x = 0; x < n; x++)
        rbuf[x] = GAP;
    for (int j = 0; j < p; j++)
        for (int k = 0; k < sc[j]; k++) {
            sbuf[sd[j] + k] = VAL(me, j, k);
            if (inplace)                  /* counts are symmetric */
                rbuf[rd[j] + k] = VAL(me, j, k);
        }
    const void *sb = inplace ? MPI_IN_PLACE : sbuf;
    int starts = ct_starts;
    if (inplace)
        ct_starts = 1;                    /* a second run would undo it */
    CHECK_RC(FORM(form, MPI_Alltoallv(sb, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_COMM_WORLD),
                  MPI_Ialltoallv(sb, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_COMM_WORLD, &req_),
                  MPI_Alltoallv_init(sb, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req_)));
    ct_starts = starts;
    for (int j = 0; j < p; j++)
        for (int k = 0; k < rc[j]; k++)
            CHECK(rbuf[rd[j] + k] == VAL(j, me, k), "alltoallv %s%s: from %d [%d] = %d",
                  ct_form_names[form], inplace ? " in place" : "", j, k, rbuf[rd[j] + k]);
    check_gaps(rbuf, n, rc, rd, p, "alltoallv");
    free(sbuf);
    free(rbuf);
}

/* Alltoallw: odd peers get their ints from a strided type (every other
 * int of the send buffer), even peers from MPI_INT; displacements in
 * bytes; received as MPI_INT into reverse-order blocks. */
static void test_alltoallw(int form, int inplace)
{
    int p = ct_size, me = ct_rank;
    int sc[64], sd[64], rc[64], rd[64];
    MPI_Datatype st[64], rt[64], every2;
    MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &every2);
    MPI_Type_commit(&every2);
    int off = 0;
    for (int j = 0; j < p; j++) {
        sc[j] = pcnt(me, j);
        st[j] = (j % 2 && !inplace) ? every2 : MPI_INT;
        sd[j] = off * (int)sizeof(int);
        off += 2 * sc[j];
        rc[j] = pcnt(j, me);
        rt[j] = MPI_INT;
    }
    int *sbuf = ct_malloc(sizeof(int) * (size_t)(off + 1));
    int n = rev_displs(p, rc, rd);
    int *rbuf = ct_malloc(sizeof(int) * (size_t)n);
    for (int x = 0; x < n; x++)
        rbuf[x] = GAP;
    for (int j = 0; j < p; j++)
        for (int k = 0; k < sc[j]; k++) {
            int stride = st[j] == every2 ? 2 : 1;
            sbuf[sd[j] / (int)sizeof(int) + k * stride] = VAL(me, j, k);
            if (inplace)
                rbuf[rd[j] + k] = VAL(me, j, k);
        }
    for (int j = 0; j < p; j++)
        rd[j] *= (int)sizeof(int);
    const void *sb = inplace ? MPI_IN_PLACE : sbuf;
    int starts = ct_starts;
    if (inplace)
        ct_starts = 1;
    CHECK_RC(FORM(form, MPI_Alltoallw(sb, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD),
                  MPI_Ialltoallw(sb, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD, &req_),
                  MPI_Alltoallw_init(sb, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD, MPI_INFO_NULL, &req_)));
    ct_starts = starts;
    for (int j = 0; j < p; j++) {
        rd[j] /= (int)sizeof(int);
        for (int k = 0; k < rc[j]; k++)
            CHECK(rbuf[rd[j] + k] == VAL(j, me, k), "alltoallw %s%s: from %d [%d] = %d",
                  ct_form_names[form], inplace ? " in place" : "", j, k, rbuf[rd[j] + k]);
    }
    check_gaps(rbuf, n, rc, rd, p, "alltoallw");
    MPI_Type_free(&every2);
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (ct_size > 64) {
        printf("this test runs on at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int form = 0; form < CT_NFORMS; form++)
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int root = 0; root < ct_size; root++) {
                test_gatherv(form, root, inplace);
                test_scatterv(form, root, inplace);
            }
            test_allgatherv(form, inplace);
            test_alltoallv(form, inplace);
            test_alltoallw(form, inplace);
        }
    return ct_finish();
}
