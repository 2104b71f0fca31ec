/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * gather_scatter.c - MPI_Gather and MPI_Scatter to/from every root, at 0, 1,
 * 1000 and 256k elements per rank, with MPI_IN_PLACE at the root, and with
 * different send and receive types of one signature (n ints against one
 * contiguous type of n ints).
 */
#include "ctest.h"

static int val(int r, int i) { return r * 100000 + i; }

static void test_gather(int n, int root, int inplace, int derived)
{
    int p = ct_size;
    int *sbuf = ct_malloc((size_t)n * sizeof(int));
    int *rbuf = ct_malloc((size_t)n * p * sizeof(int));
    for (int i = 0; i < n; i++)
        sbuf[i] = val(ct_rank, i);
    for (int i = 0; i < n * p; i++)
        rbuf[i] = -1;
    MPI_Datatype rt = MPI_INT;
    int rc = n;
    if (derived && n > 0) {
        MPI_Type_contiguous(n, MPI_INT, &rt);
        MPI_Type_commit(&rt);
        rc = 1;
    }
    const void *s = sbuf;
    if (inplace && ct_rank == root) {
        memcpy(rbuf + (size_t)root * n, sbuf, (size_t)n * sizeof(int));
        s = MPI_IN_PLACE;
    }
    CHECK_RC(MPI_Gather(s, n, MPI_INT, rbuf, rc, rt, root, MPI_COMM_WORLD));
    if (ct_rank == root) {
        int bad = 0;
        for (int r = 0; r < p; r++)
            for (int i = 0; i < n; i++)
                bad += rbuf[(size_t)r * n + i] != val(r, i);
        CHECK(bad == 0, "gather n %d root %d inplace %d derived %d: %d wrong",
              n, root, inplace, derived, bad);
    }
    if (rt != MPI_INT)
        MPI_Type_free(&rt);
    free(sbuf);
    free(rbuf);
}

static void test_scatter(int n, int root, int inplace, int derived)
{
    int p = ct_size;
    int *sbuf = ct_malloc((size_t)n * p * sizeof(int));
    int *rbuf = ct_malloc((size_t)n * sizeof(int));
    for (int r = 0; r < p; r++)
        for (int i = 0; i < n; i++)
            sbuf[(size_t)r * n + i] = ct_rank == root ? val(r, i) : -2;
    for (int i = 0; i < n; i++)
        rbuf[i] = -1;
    MPI_Datatype st = MPI_INT;
    int sc = n;
    if (derived && n > 0) {
        MPI_Type_contiguous(n, MPI_INT, &st);
        MPI_Type_commit(&st);
        sc = 1;
    }
    void *r = rbuf;
    if (inplace && ct_rank == root)
        r = MPI_IN_PLACE;
    CHECK_RC(MPI_Scatter(sbuf, sc, st, r, n, MPI_INT, root, MPI_COMM_WORLD));
    int bad = 0;
    const int *got = inplace && ct_rank == root ? sbuf + (size_t)root * n : rbuf;
    for (int i = 0; i < n; i++)
        bad += got[i] != val(ct_rank, i);
    CHECK(bad == 0, "scatter n %d root %d inplace %d derived %d: %d wrong",
          n, root, inplace, derived, bad);
    if (st != MPI_INT)
        MPI_Type_free(&st);
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    const int counts[] = { 0, 1, 1000 };
    for (int root = 0; root < ct_size; root++)
        for (int j = 0; j < 3; j++)
            for (int mode = 0; mode < 3; mode++) {
                test_gather(counts[j], root, mode == 1, mode == 2);
                test_scatter(counts[j], root, mode == 1, mode == 2);
            }
    test_gather(1 << 18, ct_size / 2, 0, 0);
    test_scatter(1 << 18, ct_size / 2, 0, 1);
    return ct_finish();
}
