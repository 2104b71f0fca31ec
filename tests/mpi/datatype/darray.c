/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * darray.c - distributed arrays over the wire. Rank 0 holds a global
 * 2-D array (value = linear index) and sends each rank its part described
 * by MPI_Type_create_darray (block x cyclic(2), both array orders); each
 * rank receives it as plain contiguous ints (a signature-compatible
 * mismatch) and checks every value against a naive ownership walk. Then
 * every rank sends its part back as contiguous ints and rank 0 receives
 * them through the darray types into a zeroed array, which must equal the
 * original. Also a subarray halo: each rank sends a column of its local
 * matrix (subarray) to the next rank, received as contiguous doubles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

static int errs, rank, nprocs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf("rank %d: ", rank); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

enum { G0 = 7, G1 = 9 };

/* Naive: the global indices rank r owns, in array order. */
static int owned(int r, int p0, int p1, int order, int *out)
{
    int c0 = r / p1, c1 = r % p1, n = 0;
    int b0 = (G0 + p0 - 1) / p0;
    for (int k = 0; k < G0 * G1; k++) {
        int i0, i1;
        if (order == MPI_ORDER_C) {
            i0 = k / G1;
            i1 = k % G1;
        } else {
            i0 = k % G0;
            i1 = k / G0;
        }
        if (i0 / b0 == c0 && (i1 / 2) % p1 == c1)
            out[n++] = order == MPI_ORDER_C ? i0 * G1 + i1 : i0 + i1 * G0;
    }
    return n;
}

static MPI_Datatype darray_of(int r, int p0, int p1, int order)
{
    int gs[2] = { G0, G1 }, ds[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC };
    int da[2] = { MPI_DISTRIBUTE_DFLT_DARG, 2 }, ps[2] = { p0, p1 };
    MPI_Datatype t;
    int rc = MPI_Type_create_darray(nprocs, r, 2, gs, ds, da, ps, order, MPI_INT, &t);
    CHECK(rc == MPI_SUCCESS, "darray for rank %d: %d", r, rc);
    MPI_Type_commit(&t);
    return t;
}

static void run(int order)
{
    int p0 = 1;
    for (int d = 1; d * d <= nprocs; d++)
        if (nprocs % d == 0)
            p0 = d;
    int p1 = nprocs / p0;
    int *mine = malloc(G0 * G1 * sizeof(int)), *got = malloc(G0 * G1 * sizeof(int));
    int n = owned(rank, p0, p1, order, mine);
    MPI_Datatype t = darray_of(rank, p0, p1, order);
    int size;
    MPI_Type_size(t, &size);
    CHECK(size == n * (int)sizeof(int), "darray size %d, want %d", size, n * (int)sizeof(int));
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(lb == 0 && ext == G0 * G1 * (MPI_Aint)sizeof(int), "darray extent %ld", (long)ext);
    if (rank == 0) {
        int *glob = malloc(G0 * G1 * sizeof(int));
        for (int i = 0; i < G0 * G1; i++)
            glob[i] = i;
        for (int r = 1; r < nprocs; r++) {
            MPI_Datatype tr = darray_of(r, p0, p1, order);
            MPI_Send(glob, 1, tr, r, order, MPI_COMM_WORLD);
            MPI_Type_free(&tr);
        }
        MPI_Sendrecv(glob, 1, t, 0, 5, got, n, MPI_INT, 0, 5, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        free(glob);
    } else {
        MPI_Status st;
        MPI_Recv(got, G0 * G1, MPI_INT, 0, order, MPI_COMM_WORLD, &st);
        int cnt;
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == n, "received %d ints, want %d", cnt, n);
    }
    for (int i = 0; i < n; i++)
        CHECK(got[i] == mine[i], "order %d element %d: %d, want %d", order, i, got[i], mine[i]);
    /* back: contiguous ints received through the darray types */
    if (rank == 0) {
        int *glob = calloc(G0 * G1, sizeof(int));
        MPI_Sendrecv(got, n, MPI_INT, 0, 6, glob, 1, t, 0, 6, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (int r = 1; r < nprocs; r++) {
            MPI_Datatype tr = darray_of(r, p0, p1, order);
            MPI_Recv(glob, 1, tr, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Type_free(&tr);
        }
        for (int i = 0; i < G0 * G1; i++)
            CHECK(glob[i] == i, "gathered element %d is %d", i, glob[i]);
        free(glob);
    } else {
        MPI_Send(got, n, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }
    MPI_Type_free(&t);
    free(mine);
    free(got);
}

static void halo(void)
{
    enum { R = 5, C = 4 };
    double m[R][C], col[R];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            m[i][j] = rank * 100 + i * 10 + j;
    int sz[2] = { R, C }, sub[2] = { R, 1 }, st[2] = { 0, C - 1 };
    MPI_Datatype t;
    MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    int to = (rank + 1) % nprocs, from = (rank + nprocs - 1) % nprocs;
    MPI_Sendrecv(m, 1, t, to, 9, col, R, MPI_DOUBLE, from, 9, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < R; i++)
        CHECK(col[i] == from * 100 + i * 10 + C - 1, "halo row %d: %g", i, col[i]);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    run(MPI_ORDER_C);
    run(MPI_ORDER_FORTRAN);
    halo();
    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
