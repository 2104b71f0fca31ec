/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * part_direct.c - the collectives of a communicator that is a part of the
 * node, where the blocking calls take message algorithms and the small
 * ones run directly, without a schedule (reduce binomial, scan and exscan
 * linear, scatter and scatterv linear, gather binomial;
 * docs/design/coll.md): the first
 * p - 1 ranks of the job (as the Intel MPI Benchmarks run their smaller
 * counts, the last rank waiting) and two halves in reversed rank order.
 * Vectors lie on both sides of the direct forms' 2 KiB (255, 256 and 257
 * doubles), in place and not, on MPI_DOUBLE with MPI_SUM, MPI_DOUBLE_INT
 * with MPI_MAXLOC (a pair type with a hole) and a user-defined commutative
 * op on MPI_INT; scatterv's blocks grow with the rank, so that some ranks
 * receive directly and others through the schedule. Gather's blocks
 * (1 to 257 doubles) put a rank's subtree on both sides of 2 KiB, at
 * every root, in place and not, received at the root as a strided type
 * (the same signature, another layout); a rank that sends one double
 * more than the others expect makes the root fail with MPI_ERR_TRUNCATE,
 * nobody hangs, and a correct gather follows. Every result is checked
 * against one computed here.
 */
#include "ctest.h"

static const int sizes[] = { 1, 255, 256, 257, 700 };

static void xor_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] ^= ((const int *)in)[i];
}

typedef struct { double v; int i; } dint_t;

static void reductions(MPI_Comm c, const char *name, MPI_Op xop)
{
    int me, m;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &m);
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        double *s = ct_malloc((size_t)n * sizeof(double)), *r = ct_malloc((size_t)n * sizeof(double));
        for (int k = 0; k < n; k++)
            s[k] = (me + 1) * (k + 1.0);
        for (int t = 0; t < (m > 1 ? 2 : 1); t++) {
            int root = t == 0 ? 0 : m - 1;
            for (int inplace = 0; inplace < 2; inplace++) {
                for (int k = 0; k < n; k++)
                    r[k] = inplace && me == root ? s[k] : -1;
                const void *src = inplace && me == root ? MPI_IN_PLACE : s;
                CHECK_RC(MPI_Reduce(src, r, n, MPI_DOUBLE, MPI_SUM, root, c));
                for (int k = 0; me == root && k < n; k++)
                    CHECK(r[k] == (k + 1.0) * m * (m + 1) / 2, "%s: reduce of %d doubles to "
                          "%d%s: element %d is %g", name, n, root, inplace ? " in place" : "",
                          k, r[k]);
            }
        }
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int k = 0; k < n; k++)
                r[k] = inplace ? s[k] : -1;
            CHECK_RC(MPI_Scan(inplace ? MPI_IN_PLACE : s, r, n, MPI_DOUBLE, MPI_SUM, c));
            for (int k = 0; k < n; k++)
                CHECK(r[k] == (k + 1.0) * (me + 1) * (me + 2) / 2, "%s: scan of %d doubles%s, "
                      "rank %d: element %d is %g", name, n, inplace ? " in place" : "", me, k,
                      r[k]);
            for (int k = 0; k < n; k++)
                r[k] = inplace ? s[k] : -1;
            CHECK_RC(MPI_Exscan(inplace ? MPI_IN_PLACE : s, r, n, MPI_DOUBLE, MPI_SUM, c));
            for (int k = 0; me > 0 && k < n; k++)
                CHECK(r[k] == (k + 1.0) * me * (me + 1) / 2, "%s: exscan of %d doubles%s, "
                      "rank %d: element %d is %g", name, n, inplace ? " in place" : "", me, k,
                      r[k]);
        }
        /* maxloc on a pair type with a hole; ties go to the lower index */
        dint_t *ds = ct_malloc((size_t)n * sizeof(dint_t)), *dr = ct_malloc((size_t)n * sizeof(dint_t));
        for (int k = 0; k < n; k++)
            ds[k].v = (me * 7 + k) % (m + 1), ds[k].i = me;
        CHECK_RC(MPI_Reduce(ds, dr, n, MPI_DOUBLE_INT, MPI_MAXLOC, 0, c));
        CHECK_RC(MPI_Scan(ds, dr, 0, MPI_DOUBLE_INT, MPI_MAXLOC, c));  /* count 0 */
        for (int k = 0; me == 0 && k < n; k++) {
            double best = -1;
            int at = -1;
            for (int q = 0; q < m; q++)
                if ((q * 7 + k) % (m + 1) > best)
                    best = (q * 7 + k) % (m + 1), at = q;
            CHECK(dr[k].v == best && dr[k].i == at, "%s: maxloc of %d pairs: element %d is "
                  "(%g, %d), want (%g, %d)", name, n, k, dr[k].v, dr[k].i, best, at);
        }
        /* a user-defined commutative op */
        int *is = ct_malloc((size_t)n * sizeof(int)), *ir = ct_malloc((size_t)n * sizeof(int));
        for (int k = 0; k < n; k++)
            is[k] = me * 31 + k;
        CHECK_RC(MPI_Reduce(is, ir, n, MPI_INT, xop, m - 1, c));
        CHECK_RC(MPI_Scan(is, ir, 0, MPI_INT, xop, c));
        for (int k = 0; me == m - 1 && k < n; k++) {
            int want = 0;
            for (int q = 0; q < m; q++)
                want ^= q * 31 + k;
            CHECK(ir[k] == want, "%s: user op over %d ints: element %d is %d, want %d", name, n,
                  k, ir[k], want);
        }
        free(s), free(r), free(ds), free(dr), free(is), free(ir);
    }
}

static void scatters(MPI_Comm c, const char *name)
{
    int me, m;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &m);
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z], total = 0;
        int *counts = ct_malloc((size_t)m * sizeof(int)), *displs = ct_malloc((size_t)m * sizeof(int));
        for (int i = 0; i < m; i++)
            counts[i] = n + i, displs[i] = total, total += counts[i];
        double *s = ct_malloc((size_t)(total > n * m ? total : n * m) * sizeof(double));
        double *r = ct_malloc((size_t)(n + m) * sizeof(double));
        int root = m / 2;
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < n * m; i++)
                s[i] = 1000.0 * (i / n) + i % n;
            for (int k = 0; k < n; k++)
                r[k] = -1;
            void *dst = inplace && me == root ? MPI_IN_PLACE : r;
            CHECK_RC(MPI_Scatter(s, n, MPI_DOUBLE, dst, n, MPI_DOUBLE, root, c));
            const double *got = inplace && me == root ? s + (size_t)root * n : r;
            for (int k = 0; k < n; k++)
                CHECK(got[k] == 1000.0 * me + k, "%s: scatter of %d doubles%s, rank %d: "
                      "element %d is %g", name, n, inplace ? " in place" : "", me, k, got[k]);
        }
        for (int i = 0; i < m; i++)
            for (int k = 0; k < counts[i]; k++)
                s[displs[i] + k] = 1000.0 * i + k;
        for (int k = 0; k < n + me; k++)
            r[k] = -1;
        CHECK_RC(MPI_Scatterv(s, counts, displs, MPI_DOUBLE, r, n + me, MPI_DOUBLE, root, c));
        for (int k = 0; k < n + me; k++)
            CHECK(r[k] == 1000.0 * me + k, "%s: scatterv of %d + rank doubles, rank %d: "
                  "element %d is %g", name, n, me, k, r[k]);
        free(s), free(r), free(counts), free(displs);
    }
}

static const int gsizes[] = { 1, 64, 65, 128, 255, 257 };

static void gathers(MPI_Comm c, const char *name)
{
    int me, m;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &m);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    for (size_t z = 0; z < sizeof gsizes / sizeof gsizes[0]; z++) {
        int n = gsizes[z];
        double *s = ct_malloc((size_t)(n + 1) * sizeof(double));
        double *r = ct_malloc((size_t)n * m * 2 * sizeof(double));
        for (int k = 0; k <= n; k++)
            s[k] = 1000.0 * me + k;
        for (int root = 0; root < m; root += (m > 2 ? m / 2 : 1)) {
            for (int inplace = 0; inplace < 2; inplace++) {
                for (int i = 0; i < n * m; i++)
                    r[i] = inplace && i / n == root ? s[i % n] : -1;
                const void *src = inplace && me == root ? MPI_IN_PLACE : s;
                CHECK_RC(MPI_Gather(src, n, MPI_DOUBLE, r, n, MPI_DOUBLE, root, c));
                for (int i = 0; me == root && i < n * m; i++)
                    CHECK(r[i] == (inplace && i / n == root ? 1000.0 * me : 1000.0 * (i / n))
                          + i % n, "%s: gather of %d doubles to %d%s: element %d is %g", name,
                          n, root, inplace ? " in place" : "", i, r[i]);
            }
            /* the root receives every other double of a buffer twice as long */
            MPI_Datatype vec, strided;
            MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec);
            MPI_Type_create_resized(vec, 0, 2 * n * (MPI_Aint)sizeof(double), &strided);
            MPI_Type_free(&vec);
            MPI_Type_commit(&strided);
            for (int i = 0; i < 2 * n * m; i++)
                r[i] = -1;
            CHECK_RC(MPI_Gather(s, n, MPI_DOUBLE, r, 1, strided, root, c));
            MPI_Type_free(&strided);
            for (int i = 0; me == root && i < n * m; i++)
                CHECK(r[2 * i] == 1000.0 * (i / n) + i % n && r[2 * i + 1] == -1, "%s: gather "
                      "of %d doubles to %d as a strided type: element %d is %g (next %g)",
                      name, n, root, i, r[2 * i], r[2 * i + 1]);
            if (m < 2)
                continue;
            /* the root's right neighbour sends a double more (erroneous) */
            int odd = (root + 1) % m;
            int rc = MPI_Gather(s, me == odd ? n + 1 : n, MPI_DOUBLE, r, n, MPI_DOUBLE, root, c);
            if (me == root)
                CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "%s: gather of %d doubles to %d, rank "
                      "%d sends %d: class %d at the root, want MPI_ERR_TRUNCATE", name, n, root,
                      odd, n + 1, ct_class(rc));
            else if (me == odd)
                CHECK(rc == MPI_SUCCESS, "%s: gather of %d doubles to %d: the rank that sends "
                      "%d got class %d", name, n, root, n + 1, ct_class(rc));
            CHECK_RC(MPI_Gather(s, 1, MPI_DOUBLE, r, 1, MPI_DOUBLE, root, c));
            for (int i = 0; me == root && i < m; i++)
                CHECK(r[i] == 1000.0 * i, "%s: gather after the mismatch: element %d is %g",
                      name, i, r[i]);
        }
        free(s), free(r);
    }
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Op xop;
    CHECK_RC(MPI_Op_create(xor_op, 1, &xop));
    /* the first p - 1 ranks; the last waits (alone at 1 rank: the whole job) */
    MPI_Comm part;
    int in = ct_size == 1 || ct_rank < ct_size - 1;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, ct_rank, &part));
    if (part != MPI_COMM_NULL) {
        reductions(part, "the first ranks", xop);
        scatters(part, "the first ranks");
        gathers(part, "the first ranks");
        MPI_Comm_free(&part);
    }
    MPI_Comm half;                   /* two halves, each in reversed order */
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, ct_rank % 2, -ct_rank, &half));
    reductions(half, "a reversed half", xop);
    scatters(half, "a reversed half");
    gathers(half, "a reversed half");
    MPI_Comm_free(&half);
    MPI_Op_free(&xop);
    return ct_finish();
}
