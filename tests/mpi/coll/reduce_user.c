/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_user.c - user ops and derived types in reductions:
 *  - a NON-commutative op (2x2 matrix product mod 2^32 on a contiguous type
 *    of 4 unsigned ints): the result must be M_0 M_1 ... M_(p-1) in rank
 *    order, for Reduce to every root and Allreduce (in place too);
 *  - a commutative user op (sum) flagged commutative;
 *  - a predefined op (MPI_SUM, MPI_MAX) on a strided derived type of ints,
 *    whose gaps must stay untouched.
 */
#include <stdint.h>
#include "ctest.h"

typedef struct { uint32_t a, b, c, d; } mat_t;

static mat_t mat_of(int r, int i)
{
    mat_t m = { (uint32_t)(r + 1), (uint32_t)(i % 3 + 1), 1, (uint32_t)(r * i % 5) };
    return m;
}

static mat_t mul(mat_t x, mat_t y)
{
    mat_t z = { x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d,
                x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d };
    return z;
}

static int calls_with_bad_type;
static MPI_Datatype mat_type;

static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    if (*dt != mat_type)
        calls_with_bad_type++;
    mat_t *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i] = mul(x[i], y[i]);             /* inout = in op inout */
}

static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i] += x[i];
}

static void test_matmul(MPI_Op op, int n, int mode, int root)
{
    mat_t *in = ct_malloc((size_t)n * sizeof(mat_t));
    mat_t *out = ct_malloc((size_t)n * sizeof(mat_t));
    for (int i = 0; i < n; i++) {
        in[i] = mat_of(ct_rank, i);
        out[i] = in[i];
    }
    if (mode == 0)
        CHECK_RC(MPI_Allreduce(in, out, n, mat_type, op, MPI_COMM_WORLD));
    else if (mode == 1)
        CHECK_RC(MPI_Allreduce(MPI_IN_PLACE, out, n, mat_type, op, MPI_COMM_WORLD));
    else
        CHECK_RC(MPI_Reduce(in, out, n, mat_type, op, root, MPI_COMM_WORLD));
    if (mode < 2 || ct_rank == root) {
        int bad = 0;
        for (int i = 0; i < n; i++) {
            mat_t w = mat_of(0, i);
            for (int r = 1; r < ct_size; r++)
                w = mul(w, mat_of(r, i));
            bad += memcmp(&w, &out[i], sizeof(w)) != 0;
        }
        CHECK(bad == 0, "matmul mode %d n %d root %d: %d wrong", mode, n, root, bad);
    }
    free(in);
    free(out);
}

static void test_strided(MPI_Op op, int n, int is_max)
{
    MPI_Datatype vec;
    MPI_Type_vector(n, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int *in = ct_malloc((size_t)3 * n * sizeof(int));
    int *out = ct_malloc((size_t)3 * n * sizeof(int));
    for (int i = 0; i < 3 * n; i++) {
        in[i] = i % 3 ? -5 : ct_rank * 3 + i;
        out[i] = -9;
    }
    CHECK_RC(MPI_Allreduce(in, out, 1, vec, op, MPI_COMM_WORLD));
    int bad = 0, p = ct_size;
    for (int i = 0; i < 3 * (n - 1) + 1; i++) {
        int want = i % 3 ? -9 : is_max ? (p - 1) * 3 + i : 3 * p * (p - 1) / 2 + p * i;
        bad += out[i] != want;
    }
    CHECK(bad == 0, "strided %s n %d: %d wrong", is_max ? "max" : "sum", n, bad);
    MPI_Type_free(&vec);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Type_contiguous(4, MPI_UINT32_T, &mat_type);
    MPI_Type_commit(&mat_type);
    MPI_Op matmul, usum;
    CHECK_RC(MPI_Op_create(matmul_fn, 0, &matmul));
    CHECK_RC(MPI_Op_create(sum_fn, 1, &usum));
    const int counts[] = { 1, 7, 1000 };
    for (int j = 0; j < 3; j++)
        for (int mode = 0; mode < 3; mode++)
            for (int root = 0; root < (mode == 2 ? ct_size : 1); root++)
                test_matmul(matmul, counts[j], mode, root);
    CHECK(calls_with_bad_type == 0, "user function got another datatype");
    for (int j = 0; j < 3; j++) {
        int n = counts[j];
        int *in = ct_malloc((size_t)n * sizeof(int)), *out = ct_malloc((size_t)n * sizeof(int));
        for (int i = 0; i < n; i++)
            in[i] = ct_rank + i;
        CHECK_RC(MPI_Reduce(in, out, n, MPI_INT, usum, 0, MPI_COMM_WORLD));
        if (ct_rank == 0) {
            int bad = 0;
            for (int i = 0; i < n; i++)
                bad += out[i] != ct_size * (ct_size - 1) / 2 + ct_size * i;
            CHECK(bad == 0, "user sum n %d: %d wrong", n, bad);
        }
        free(in);
        free(out);
    }
    test_strided(MPI_SUM, 1, 0);
    test_strided(MPI_SUM, 1000, 0);
    test_strided(MPI_MAX, 333, 1);
    CHECK_RC(MPI_Op_free(&matmul));
    CHECK(matmul == MPI_OP_NULL, "MPI_Op_free sets MPI_OP_NULL");
    MPI_Op_free(&usum);
    MPI_Type_free(&mat_type);
    return ct_finish();
}
