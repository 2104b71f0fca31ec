/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_alltoall.c - MPI_Allgather and MPI_Alltoall at 0, 1, 1000 and
 * 128k elements per block, with MPI_IN_PLACE, with a strided receive type
 * (gaps must stay untouched), and with different send/receive types of one
 * signature.
 */
#include "ctest.h"

static int val(int from, int to, int i) { return from * 1000000 + to * 10000 + i; }

static void test_allgather(int n, int inplace, int derived)
{
    int p = ct_size;
    int *sbuf = ct_malloc((size_t)n * sizeof(int));
    int *rbuf = ct_malloc((size_t)n * p * sizeof(int));
    for (int i = 0; i < n; i++)
        sbuf[i] = val(ct_rank, 0, i);
    for (int i = 0; i < n * p; i++)
        rbuf[i] = -1;
    MPI_Datatype st = MPI_INT;
    int sc = n;
    if (derived && n > 0) {
        MPI_Type_contiguous(n, MPI_INT, &st);
        MPI_Type_commit(&st);
        sc = 1;
    }
    const void *s = sbuf;
    if (inplace) {
        memcpy(rbuf + (size_t)ct_rank * n, sbuf, (size_t)n * sizeof(int));
        s = MPI_IN_PLACE;
    }
    CHECK_RC(MPI_Allgather(s, sc, st, rbuf, n, MPI_INT, MPI_COMM_WORLD));
    int bad = 0;
    for (int r = 0; r < p; r++)
        for (int i = 0; i < n; i++)
            bad += rbuf[(size_t)r * n + i] != val(r, 0, i);
    CHECK(bad == 0, "allgather n %d inplace %d derived %d: %d wrong", n,
          inplace, derived, bad);
    if (st != MPI_INT)
        MPI_Type_free(&st);
    free(sbuf);
    free(rbuf);
}

/* allgather into a strided receive buffer: block r lands at even slots */
static void test_allgather_strided(int n)
{
    int p = ct_size;
    MPI_Datatype vec, rvec;
    MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * n * sizeof(int)), &rvec);
    MPI_Type_commit(&rvec);
    int *sbuf = ct_malloc((size_t)n * sizeof(int));
    int *rbuf = ct_malloc((size_t)2 * n * p * sizeof(int));
    for (int i = 0; i < n; i++)
        sbuf[i] = val(ct_rank, 1, i);
    for (int i = 0; i < 2 * n * p; i++)
        rbuf[i] = -3;
    CHECK_RC(MPI_Allgather(sbuf, n, MPI_INT, rbuf, 1, rvec, MPI_COMM_WORLD));
    int bad = 0;
    for (int r = 0; r < p; r++)
        for (int i = 0; i < 2 * n; i++)
            bad += rbuf[(size_t)r * 2 * n + i] != (i % 2 ? -3 : val(r, 1, i / 2));
    CHECK(bad == 0, "strided allgather n %d: %d wrong", n, bad);
    MPI_Type_free(&vec);
    MPI_Type_free(&rvec);
    free(sbuf);
    free(rbuf);
}

static void test_alltoall(int n, int inplace, int derived)
{
    int p = ct_size;
    int *sbuf = ct_malloc((size_t)n * p * sizeof(int));
    int *rbuf = ct_malloc((size_t)n * p * sizeof(int));
    for (int to = 0; to < p; to++)
        for (int i = 0; i < n; i++)
            sbuf[(size_t)to * n + i] = val(ct_rank, to, i);
    for (int i = 0; i < n * p; i++)
        rbuf[i] = -1;
    MPI_Datatype rt = MPI_INT;
    int rc = n;
    if (derived && n > 0) {
        MPI_Type_contiguous(n, MPI_INT, &rt);
        MPI_Type_commit(&rt);
        rc = 1;
    }
    if (inplace) {
        memcpy(rbuf, sbuf, (size_t)n * p * sizeof(int));
        CHECK_RC(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, rc, rt,
                              MPI_COMM_WORLD));
    } else {
        CHECK_RC(MPI_Alltoall(sbuf, n, MPI_INT, rbuf, rc, rt, MPI_COMM_WORLD));
    }
    int bad = 0;
    for (int from = 0; from < p; from++)
        for (int i = 0; i < n; i++)
            bad += rbuf[(size_t)from * n + i] != val(from, ct_rank, i);
    CHECK(bad == 0, "alltoall n %d inplace %d derived %d: %d wrong", n, inplace,
          derived, bad);
    if (rt != MPI_INT)
        MPI_Type_free(&rt);
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    const int counts[] = { 0, 1, 1000, 1 << 17 };
    for (int j = 0; j < 4; j++)
        for (int mode = 0; mode < 3; mode++) {
            test_allgather(counts[j], mode == 1, mode == 2);
            test_alltoall(counts[j], mode == 1, mode == 2);
        }
    test_allgather_strided(1);
    test_allgather_strided(777);
    return ct_finish();
}
