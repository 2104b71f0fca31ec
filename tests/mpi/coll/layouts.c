/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* One type signature, different layouts on different ranks: the standard
 * asks only that the signatures match, so a root may broadcast a column
 * of a matrix (a strided vector type) into contiguous doubles elsewhere,
 * or the reverse. Every rank must still pick the same algorithm (before,
 * a 1.6 MB column broadcast hung: the strided side took a different
 * path). Bcast, Gather, Scatter, Allgather and Alltoall from a few
 * doubles to beyond the node slots (1 MiB), strided on the odd ranks or
 * on the even ones, each result checked element by element. */
#include <stdlib.h>
#include <string.h>
#include "ctest.h"

/* n doubles: contiguous, or every other one of 2n (stride 2) */
static MPI_Datatype strided(int n)
{
    MPI_Datatype t;
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
}

static double val(int owner, int dest, int i)
{
    return owner * 1e6 + dest * 1e4 + i % 9973;
}

/* strided ranks: those whose parity is `odd` */
static void run(int n, int odd)
{
    int r = ct_rank, p = ct_size, me_str = (r % 2) == odd;
    MPI_Datatype col = strided(n);
    double *buf = ct_malloc(sizeof(double) * 2 * (size_t)n * (size_t)p);
    double *out = ct_malloc(sizeof(double) * 2 * (size_t)n * (size_t)p);
    int bad = 0;
#define SEND_ARGS(b) (b), me_str ? 1 : n, me_str ? col : MPI_DOUBLE
#define AT(b, blk, i) \
    (*(me_str ? &(b)[(size_t)(blk) * 2 * n + 2 * (size_t)(i)] : &(b)[(size_t)(blk) * n + (i)]))
    /* bcast from rank 0 and from rank p - 1 */
    for (int root = 0; root < p; root += p - 1 > 0 ? p - 1 : 1) {
        for (int i = 0; i < 2 * n; i++)
            buf[i] = -1;
        for (int i = 0; i < n && r == root; i++)
            AT(buf, 0, i) = val(root, 0, i);
        CHECK_RC(MPI_Bcast(SEND_ARGS(buf), root, MPI_COMM_WORLD));
        for (int i = 0; i < n; i++)
            bad += AT(buf, 0, i) != val(root, 0, i);
        CHECK(bad == 0, "bcast n %d root %d strided %d: %d wrong", n, root, me_str, bad);
        bad = 0;
        if (p == 1)
            break;
    }
    /* gather to 0, scatter from 0: the root's blocks strided or not */
    for (int i = 0; i < n; i++)
        AT(buf, 0, i) = val(r, 0, i);
    if (me_str) {
        /* blocks of the strided root: p columns, each 2n doubles apart */
        MPI_Datatype cols;
        MPI_Type_create_resized(col, 0, (MPI_Aint)(2 * n * sizeof(double)), &cols);
        MPI_Type_commit(&cols);
        CHECK_RC(MPI_Gather(buf, 1, col, out, 1, cols, 0, MPI_COMM_WORLD));
        for (int q = 0; r == 0 && q < p; q++)
            for (int i = 0; i < n; i++)
                bad += out[(size_t)q * 2 * n + 2 * (size_t)i] != val(q, 0, i);
        for (int q = 0; r == 0 && q < p; q++)
            for (int i = 0; i < n; i++)
                out[(size_t)q * 2 * n + 2 * (size_t)i] = val(0, q, i);
        CHECK_RC(MPI_Scatter(out, 1, cols, buf, 1, col, 0, MPI_COMM_WORLD));
        MPI_Type_free(&cols);
    } else {
        CHECK_RC(MPI_Gather(buf, n, MPI_DOUBLE, out, n, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        for (int q = 0; r == 0 && q < p; q++)
            for (int i = 0; i < n; i++)
                bad += out[(size_t)q * n + i] != val(q, 0, i);
        for (int q = 0; r == 0 && q < p; q++)
            for (int i = 0; i < n; i++)
                out[(size_t)q * n + i] = val(0, q, i);
        CHECK_RC(MPI_Scatter(out, n, MPI_DOUBLE, buf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    }
    CHECK(bad == 0, "gather n %d strided root %d: %d wrong", n, me_str, bad);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += AT(buf, 0, i) != val(0, r, i);
    CHECK(bad == 0, "scatter n %d strided %d: %d wrong", n, me_str, bad);
    bad = 0;
    /* allgather and alltoall: blocks of n doubles, strided ranks use p
     * columns of a 2n-row layout */
    MPI_Datatype cols;
    MPI_Type_create_resized(col, 0, (MPI_Aint)(2 * n * sizeof(double)), &cols);
    MPI_Type_commit(&cols);
    for (int q = 0; q < p; q++)
        for (int i = 0; i < n; i++)
            AT(buf, q, i) = val(r, q, i);
    CHECK_RC(MPI_Alltoall(buf, me_str ? 1 : n, me_str ? cols : MPI_DOUBLE, out, me_str ? 1 : n,
                          me_str ? cols : MPI_DOUBLE, MPI_COMM_WORLD));
    for (int q = 0; q < p; q++)
        for (int i = 0; i < n; i++)
            bad += AT(out, q, i) != val(q, r, i);
    CHECK(bad == 0, "alltoall n %d strided %d: %d wrong", n, me_str, bad);
    bad = 0;
    CHECK_RC(MPI_Allgather(buf, me_str ? 1 : n, me_str ? col : MPI_DOUBLE, out,
                           me_str ? 1 : n, me_str ? cols : MPI_DOUBLE, MPI_COMM_WORLD));
    for (int q = 0; q < p; q++)
        for (int i = 0; i < n; i++)
            bad += AT(out, q, i) != val(q, 0, i);
    CHECK(bad == 0, "allgather n %d strided %d: %d wrong", n, me_str, bad);
    MPI_Type_free(&cols);
    MPI_Type_free(&col);
    free(buf);
    free(out);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    static const int ns[] = { 1, 100, 5000, 40000, 200000 };
    for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
        for (int odd = 0; odd < 2; odd++)
            run(ns[k], odd);
    return ct_finish();
}
