/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pieces.c - MPI_Reduce of vectors beyond 512 KiB, which a two-rank
 * reduce sends in pieces of 256 KiB that the root applies as they come
 * (pair.c, announced in a flow cell: pair_cell.c): every root, in place or
 * not, a non-commutative user op on a predefined type (the root's side of
 * each piece then goes left or right of the peer's, by the root's rank and
 * MPI_IN_PLACE), predefined ops on a pair type (MPI_MINLOC on
 * MPI_DOUBLE_INT), 512 KiB itself (one message) and 4 bytes more (a last
 * piece of one element), and ranks whose types hold the same doubles in
 * other layouts (beyond the standard, which asks a reduction for the same
 * datatype everywhere; a root in a derived type takes the pieces as one
 * working vector, a writer in one sends one message). At more ranks the
 * same calls take the node's algorithms, where such types went to
 * different algorithms and hung until 2026-12-08 (node_stream.c,
 * segmentable). Results are compared element by element with references
 * computed here.
 */
#include "ctest.h"
#include "ct_aff16.h"

static int me, p;

static uint32_t AV(int r, long k)
{
    return (uint32_t)((r * 31 + k * 17) % 65521 + 1) << 16 | (uint32_t)((r * 7 + k * 3) % 65536);
}

/* n affine maps, composed in rank order at the root */
static void t_affine(long n, int root, int inplace)
{
    MPI_Op op;
    MPI_Op_create(ct_aff16_fn, 0, &op);
    uint32_t *sb = ct_malloc(sizeof(uint32_t) * (size_t)n);
    uint32_t *rb = ct_malloc(sizeof(uint32_t) * (size_t)n);
    for (long k = 0; k < n; k++) {
        sb[k] = AV(me, k);
        rb[k] = inplace && me == root ? sb[k] : 0xdeadbeefu;
    }
    CHECK_RC(MPI_Reduce(inplace && me == root ? MPI_IN_PLACE : sb, rb, (int)n, MPI_UINT32_T, op,
                        root, MPI_COMM_WORLD));
    for (long k = 0; k < n && me == root; k++) {
        uint32_t want = AV(p - 1, k);
        for (int r = p - 2; r >= 0; r--)
            want = ct_aff16(AV(r, k), want);
        if (rb[k] != want) {
            CHECK(0, "affine n=%ld root=%d inplace=%d: [%ld] = %#x, want %#x", n, root,
                  inplace, k, rb[k], want);
            break;
        }
    }
    MPI_Op_free(&op);
    free(sb);
    free(rb);
}

/* MPI_MINLOC over n (double, int) pairs: each rank's values, ties broken
 * by the lower index */
static void t_minloc(long n, int root, int inplace)
{
    typedef struct { double v; int i; } di_t;
    di_t *sb = ct_malloc(sizeof(di_t) * (size_t)n), *rb = ct_malloc(sizeof(di_t) * (size_t)n);
    for (long k = 0; k < n; k++) {
        sb[k] = (di_t){ (double)((k * 5 + me * 11) % 7), me };
        rb[k] = inplace && me == root ? sb[k] : (di_t){ -1, -1 };
    }
    CHECK_RC(MPI_Reduce(inplace && me == root ? MPI_IN_PLACE : sb, rb, (int)n, MPI_DOUBLE_INT,
                        MPI_MINLOC, root, MPI_COMM_WORLD));
    for (long k = 0; k < n && me == root; k++) {
        di_t want = { 1e300, -1 };
        for (int r = 0; r < p; r++) {
            double v = (double)((k * 5 + r * 11) % 7);
            if (v < want.v)
                want = (di_t){ v, r };
        }
        if (rb[k].v != want.v || rb[k].i != want.i) {
            CHECK(0, "minloc n=%ld root=%d inplace=%d: [%ld] = (%g,%d), want (%g,%d)", n, root,
                  inplace, k, rb[k].v, rb[k].i, want.v, want.i);
            break;
        }
    }
    free(sb);
    free(rb);
}

/* A sum of 2n doubles where the ranks on one side (`on`: 1 the root, 2
 * the others) pass them in a derived type and the rest as 2n MPI_DOUBLE:
 * layout 0, n contiguous pairs (the bytes of the working vector); layout
 * 1, 2n doubles each in 16 bytes (resized: a working copy) */
static void t_mixed(long n, int root, int on, int layout)
{
    MPI_Datatype dt;
    if (layout == 0)
        MPI_Type_contiguous(2, MPI_DOUBLE, &dt);
    else
        MPI_Type_create_resized(MPI_DOUBLE, 0, 2 * sizeof(double), &dt);
    MPI_Type_commit(&dt);
    int mine = (on == 1) == (me == root);
    int stride = mine && layout == 1 ? 2 : 1;
    int count = !mine ? (int)(2 * n) : layout == 0 ? (int)n : (int)(2 * n);
    double *sb = ct_malloc(sizeof(double) * (size_t)(4 * n));
    double *rb = ct_malloc(sizeof(double) * (size_t)(4 * n));
    for (long k = 0; k < 4 * n; k++)
        sb[k] = -7, rb[k] = -1;
    for (long k = 0; k < 2 * n; k++)
        sb[k * stride] = (double)((k * 3 + me * 5) % 1009);
    CHECK_RC(MPI_Reduce(sb, rb, count, mine ? dt : MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD));
    for (long k = 0; k < 2 * n && me == root; k++) {
        double want = 0;
        for (int r = 0; r < p; r++)
            want += (double)((k * 3 + r * 5) % 1009);
        if (rb[k * stride] != want) {
            CHECK(0, "mixed types n=%ld root=%d layout %d on %s: [%ld] = %g, want %g", 2 * n,
                  root, layout, on == 1 ? "the root" : "the others", k, rb[k * stride], want);
            break;
        }
    }
    MPI_Type_free(&dt);
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    me = ct_rank;
    p = ct_size;
    /* 512 KiB (one message), 4 bytes more, 1 MiB and 12 bytes, 2 MiB */
    static const long un[] = { 131072, 131073, 262147, 524288 };
    for (size_t i = 0; i < sizeof un / sizeof un[0]; i++)
        for (int root = 0; root < p; root += p - 1 > 0 ? p - 1 : 1)
            for (int inplace = 0; inplace < 2; inplace++)
                t_affine(un[i], root, inplace);
    for (int root = 0; root < p; root += p - 1 > 0 ? p - 1 : 1)
        for (int inplace = 0; inplace < 2; inplace++)
            t_minloc(65536 + 3, root, inplace);
    for (int root = 0; root < p; root += p - 1 > 0 ? p - 1 : 1)
        for (int on = 1; on <= 2; on++)
            for (int layout = 0; layout < 2; layout++)
                t_mixed(65536 + 1, root, on, layout);
    return ct_finish();
}
