/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast.c - MPI_Bcast from every root at 0, 1, 1000 and 1M elements, with a
 * basic type, a double type and a strided (vector) type whose gaps must
 * stay untouched.
 */
#include "ctest.h"

static void test_int(int n, int root)
{
    int *buf = ct_malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        buf[i] = ct_rank == root ? i * 3 + root : -1;
    CHECK_RC(MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += buf[i] != i * 3 + root;
    CHECK(bad == 0, "int bcast n %d root %d: %d wrong", n, root, bad);
    free(buf);
}

static void test_double(int n, int root)
{
    double *buf = ct_malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        buf[i] = ct_rank == root ? i * 0.5 - root : -1.0;
    CHECK_RC(MPI_Bcast(buf, n, MPI_DOUBLE, root, MPI_COMM_WORLD));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += buf[i] != i * 0.5 - root;
    CHECK(bad == 0, "double bcast n %d root %d: %d wrong", n, root, bad);
    free(buf);
}

/* every other int of 2n; the odd slots are gaps that must keep -7 */
static void test_vector(int n, int root)
{
    MPI_Datatype vec;
    CHECK_RC(MPI_Type_vector(n > 0 ? n : 1, 1, 2, MPI_INT, &vec));
    CHECK_RC(MPI_Type_commit(&vec));
    int *buf = ct_malloc((size_t)(2 * n + 2) * sizeof(int));
    for (int i = 0; i < 2 * n + 2; i++)
        buf[i] = ct_rank == root && i % 2 == 0 ? i * 11 : -7;
    CHECK_RC(MPI_Bcast(buf, n > 0 ? 1 : 0, vec, root, MPI_COMM_WORLD));
    int bad = 0;
    for (int i = 0; i < 2 * n; i++)
        bad += buf[i] != (i % 2 == 0 ? i * 11 : -7);
    CHECK(bad == 0, "vector bcast n %d root %d: %d wrong", n, root, bad);
    MPI_Type_free(&vec);
    free(buf);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    const int counts[] = { 0, 1, 1000 };
    for (int root = 0; root < ct_size; root++)
        for (int j = 0; j < 3; j++) {
            test_int(counts[j], root);
            test_double(counts[j], root);
            test_vector(counts[j], root);
        }
    test_int(1 << 20, ct_size - 1);
    test_vector(1 << 19, 0);
    /* many small broadcasts back to back from alternating roots */
    for (int k = 0; k < 200; k++) {
        int v = ct_rank == k % ct_size ? k : -1;
        MPI_Bcast(&v, 1, MPI_INT, k % ct_size, MPI_COMM_WORLD);
        CHECK(v == k, "iteration %d got %d", k, v);
    }
    return ct_finish();
}
