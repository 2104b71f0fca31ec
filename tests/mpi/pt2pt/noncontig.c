/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * noncontig.c - derived datatypes on both sides with different but
 * compatible type maps: vector -> contiguous, contiguous -> indexed,
 * struct -> vector; small (eager) and large (rendezvous) counts.
 */
#include "ptest.h"

static int check_vec(const int *v, int n, int stride, int base)
{
    for (int i = 0; i < n; i++)
        if (v[i * stride] != base + i)
            return 0;
    return 1;
}

static void run(int count, int right, int left, int rank)
{
    /* vector of `count` ints with stride 3 -> `count` contiguous ints */
    MPI_Datatype vec, idx, st3;
    MPI_Type_vector(count, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int *sv = calloc((size_t)count * 3, sizeof(int)), *rv = calloc((size_t)count * 3, sizeof(int));
    for (int i = 0; i < count; i++)
        sv[i * 3] = rank * 1000000 + i;
    CHECK_RC(MPI_Sendrecv(sv, 1, vec, right, 1, rv, count, MPI_INT, left, 1, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    CHECK(check_vec(rv, count, 1, left * 1000000));

    /* contiguous ints -> indexed (every other int, blocks of 1) */
    int *bl = malloc((size_t)count * sizeof(int)), *dp = malloc((size_t)count * sizeof(int));
    for (int i = 0; i < count; i++) {
        bl[i] = 1;
        dp[i] = 2 * i;
    }
    MPI_Type_indexed(count, bl, dp, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    for (int i = 0; i < count; i++)
        sv[i] = rank * 1000000 + i;
    memset(rv, 0, (size_t)count * 3 * sizeof(int));
    MPI_Status st;
    CHECK_RC(MPI_Sendrecv(sv, count, MPI_INT, right, 2, rv, 1, idx, left, 2, MPI_COMM_WORLD, &st));
    CHECK(check_vec(rv, count, 2, left * 1000000));
    CHECK(rv[1] == 0);
    int elems = 0;
    MPI_Get_elements(&st, idx, &elems);
    CHECK(elems == count);

    /* struct {int; gap; int} x count/2 -> vector stride 3 of count ints */
    int blen[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, 2 * sizeof(int) };
    MPI_Datatype types[2] = { MPI_INT, MPI_INT }, tmp;
    MPI_Type_create_struct(2, blen, disp, types, &tmp);
    MPI_Type_create_resized(tmp, 0, 4 * sizeof(int), &st3);
    MPI_Type_commit(&st3);
    MPI_Type_free(&tmp);
    int half = count / 2;
    int *ss = calloc((size_t)half * 4 + 4, sizeof(int));
    for (int i = 0; i < half; i++) {
        ss[4 * i] = rank * 1000000 + 2 * i;
        ss[4 * i + 2] = rank * 1000000 + 2 * i + 1;
    }
    memset(rv, 0, (size_t)count * 3 * sizeof(int));
    CHECK_RC(MPI_Sendrecv(ss, half, st3, right, 3, rv, 1, vec, left, 3, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    CHECK(check_vec(rv, 2 * half, 3, left * 1000000));

    /* nonblocking, both sides noncontiguous, receive posted late */
    MPI_Request r;
    for (int i = 0; i < count; i++)
        sv[i * 3] = rank * 1000000 + i;
    CHECK_RC(MPI_Isend(sv, 1, vec, right, 4, MPI_COMM_WORLD, &r));
    MPI_Barrier(MPI_COMM_WORLD);
    memset(rv, 0, (size_t)count * 3 * sizeof(int));
    CHECK_RC(MPI_Recv(rv, 1, vec, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(check_vec(rv, count, 3, left * 1000000));
    CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));

    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    MPI_Type_free(&st3);
    free(sv); free(rv); free(bl); free(dp); free(ss);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    run(10, right, left, rank);          /* eager */
    run(100000, right, left, rank);      /* rendezvous (400 KB) */
    run(1000000, right, left, rank);     /* 4 MB, many fragments */
    return pt_finish();
}
