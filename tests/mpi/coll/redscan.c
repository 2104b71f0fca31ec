/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * redscan.c - MPI_Reduce_scatter, Reduce_scatter_block, Scan and Exscan in
 * their blocking, nonblocking and persistent forms, with and without
 * MPI_IN_PLACE, for predefined ops on several types (a derived type made of
 * one basic type among them), a non-commutative user op (composition of
 * affine maps, whose result depends on rank order; once on a derived type,
 * once packed into one MPI_UINT32_T, a predefined type, so the node
 * algorithms through shared memory take it too), and counts 0, 1, 1000,
 * 5000 (above the eager size: the rendezvous path, and in place the
 * segment a rank sends is where rank 1's result goes) and, blocking,
 * 20000 (beyond a node slot for some); plus MPI_Reduce_local and
 * MPI_Op_commutative. Every result is checked against a reference folded
 * in rank order in the test.
 */
#include <stdint.h>
#include "ctest_forms.h"
#include "ct_aff16.h"

enum { RS, RSB, SCAN, EXSCAN, NKINDS };
static const char *const kind_names[NKINDS] = {
    "reduce_scatter", "reduce_scatter_block", "scan", "exscan",
};

/* An element is 2 x uint32: the affine map x -> a*x + b. */
typedef struct { uint32_t a, b; } aff_t;

/* The cases: how to make element i of rank r, and how to combine. */
enum { C_SUM_INT, C_MAX_TRIPLE, C_PROD_DBL, C_MINLOC, C_BXOR_UCHAR, C_AFFINE, C_AFF16, NCASES };
static const char *const case_names[NCASES] = {
    "sum/int", "max/contig3int", "prod/double", "minloc/2int", "bxor/uchar",
    "user affine (non-commutative)", "user affine16 on uint32 (non-commutative)",
};

typedef union { int i; double d; int pair[2]; unsigned char c; aff_t f; } elem_t;

static MPI_Datatype triple, affty;
static MPI_Op affop, aff16op;

static void aff_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    aff_t *l = in, *r = inout;
    for (int k = 0; k < *len; k++) {     /* r := apply l, then r */
        aff_t o = { l[k].a * r[k].a, l[k].b * r[k].a + r[k].b };
        r[k] = o;
    }
}

/* Elements are stored in arrays of elem_t-sized slots only conceptually;
 * each case uses its own C array type, indexed by these helpers. */
static size_t esize(int c)
{
    switch (c) {
    case C_SUM_INT: return sizeof(int);
    case C_MAX_TRIPLE: return 3 * sizeof(int);
    case C_PROD_DBL: return sizeof(double);
    case C_MINLOC: return 2 * sizeof(int);
    case C_BXOR_UCHAR: return 1;
    case C_AFF16: return sizeof(uint32_t);
    default: return sizeof(aff_t);
    }
}

static void make(int c, int r, int i, void *p)
{
    switch (c) {
    case C_SUM_INT: *(int *)p = r * 3 + i % 7; break;
    case C_MAX_TRIPLE:
        for (int k = 0; k < 3; k++)
            ((int *)p)[k] = ((r * 7 + i * 3 + k) % 11) - 5;
        break;
    case C_PROD_DBL: *(double *)p = ((r + i) % 4 == 0) ? 2.0 : ((r + i) % 4 == 1 ? 0.5 : 1.0); break;
    case C_MINLOC: ((int *)p)[0] = (r * 5 + i) % 4; ((int *)p)[1] = r; break;
    case C_BXOR_UCHAR: *(unsigned char *)p = (unsigned char)((r + 1) * 37 + i * 11); break;
    case C_AFF16: *(uint32_t *)p = (uint32_t)((r * 5 + i) % 9 + 1) << 16 |
                                   (uint32_t)((3 * r + i) % 13); break;
    default: ((aff_t *)p)->a = (uint32_t)((r * 3 + i) % 5 + 1);
             ((aff_t *)p)->b = (uint32_t)((r + 2 * i) % 7); break;
    }
}

/* acc := acc op x  (acc holds the lower ranks) */
static void fold(int c, void *acc, const void *x)
{
    switch (c) {
    case C_SUM_INT: *(int *)acc += *(const int *)x; break;
    case C_MAX_TRIPLE:
        for (int k = 0; k < 3; k++)
            if (((const int *)x)[k] > ((int *)acc)[k])
                ((int *)acc)[k] = ((const int *)x)[k];
        break;
    case C_PROD_DBL: *(double *)acc *= *(const double *)x; break;
    case C_MINLOC: {
        const int *b = x;
        int *a = acc;
        if (b[0] < a[0] || (b[0] == a[0] && b[1] < a[1]))
            a[0] = b[0], a[1] = b[1];
        break;
    }
    case C_BXOR_UCHAR: *(unsigned char *)acc ^= *(const unsigned char *)x; break;
    case C_AFF16: *(uint32_t *)acc = ct_aff16(*(uint32_t *)acc, *(const uint32_t *)x); break;
    default: {
        aff_t *a = acc;
        const aff_t *b = x;
        aff_t o = { a->a * b->a, a->b * b->a + b->b };
        *a = o;
    }
    }
}

static void dt_op(int c, MPI_Datatype *dt, MPI_Op *op)
{
    static const MPI_Op ops[NCASES] = { MPI_SUM, MPI_MAX, MPI_PROD, MPI_MINLOC, MPI_BXOR,
                                        MPI_OP_NULL, MPI_OP_NULL };
    MPI_Datatype dts[NCASES] = { MPI_INT, triple, MPI_DOUBLE, MPI_2INT, MPI_UNSIGNED_CHAR,
                                 affty, MPI_UINT32_T };
    *dt = dts[c];
    *op = c == C_AFFINE ? affop : c == C_AFF16 ? aff16op : ops[c];
}

/* The reference: element i of the fold over ranks lo..hi-1 (in order). */
static void ref(int c, int lo, int hi, int i, void *out)
{
    make(c, lo, i, out);
    for (int r = lo + 1; r < hi; r++) {
        char x[32];
        make(c, r, i, x);
        fold(c, out, x);
    }
}

static int call(int kind, int form, const void *sb, void *rb, int n, const int *counts,
                MPI_Datatype dt, MPI_Op op)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (kind) {
    case RS:
        return FORM(form, MPI_Reduce_scatter(sb, rb, counts, dt, op, w),
                    MPI_Ireduce_scatter(sb, rb, counts, dt, op, w, &req_),
                    MPI_Reduce_scatter_init(sb, rb, counts, dt, op, w, MPI_INFO_NULL, &req_));
    case RSB:
        return FORM(form, MPI_Reduce_scatter_block(sb, rb, n, dt, op, w),
                    MPI_Ireduce_scatter_block(sb, rb, n, dt, op, w, &req_),
                    MPI_Reduce_scatter_block_init(sb, rb, n, dt, op, w, MPI_INFO_NULL, &req_));
    case SCAN:
        return FORM(form, MPI_Scan(sb, rb, n, dt, op, w),
                    MPI_Iscan(sb, rb, n, dt, op, w, &req_),
                    MPI_Scan_init(sb, rb, n, dt, op, w, MPI_INFO_NULL, &req_));
    default:
        return FORM(form, MPI_Exscan(sb, rb, n, dt, op, w),
                    MPI_Iexscan(sb, rb, n, dt, op, w, &req_),
                    MPI_Exscan_init(sb, rb, n, dt, op, w, MPI_INFO_NULL, &req_));
    }
}

/* One kind x case x form x count x in-place. n: elements per rank block
 * (reduce_scatter: rank i gets n + i % 2 elements). */
static void one(int kind, int c, int form, int n, int inplace)
{
    int p = ct_size, me = ct_rank, *counts = ct_malloc((size_t)p * sizeof(int)), total = 0,
        mine = 0;
    for (int i = 0; i < p; i++) {
        counts[i] = kind == RS ? n + i % 2 : n;
        if (i < me)
            mine += counts[i];
        total += counts[i];
    }
    if (kind == SCAN || kind == EXSCAN)
        total = n, mine = 0;
    size_t es = esize(c);
    char *sbuf = ct_malloc(es * (size_t)total), *rbuf = ct_malloc(es * (size_t)total);
    char *want = ct_malloc(es * (size_t)total);
    for (int i = 0; i < total; i++) {
        make(c, me, i, sbuf + es * (size_t)i);
        memset(rbuf + es * (size_t)i, 0x5a, es);
    }
    const void *sb = sbuf;
    if (inplace) {
        memcpy(rbuf, sbuf, es * (size_t)total);
        sb = MPI_IN_PLACE;
    }
    MPI_Datatype dt;
    MPI_Op op;
    dt_op(c, &dt, &op);
    int starts = ct_starts;
    if (inplace)
        ct_starts = 1;               /* a second run would fold twice */
    CHECK_RC(call(kind, form, sb, rbuf, n, counts, dt, op));
    ct_starts = starts;
    int nres = (kind == RS || kind == RSB) ? counts[me] : n;
    if (kind == EXSCAN && me == 0)
        nres = 0;                    /* undefined on rank 0 */
    for (int i = 0; i < nres; i++) {
        int gi = mine + i;
        if (kind == RS || kind == RSB)
            ref(c, 0, p, gi, want);
        else
            ref(c, 0, kind == SCAN ? me + 1 : me, gi, want);
        CHECK(memcmp(want, rbuf + es * (size_t)i, es) == 0,
              "%s %s %s n=%d%s: element %d differs", kind_names[kind], case_names[c],
              ct_form_names[form], n, inplace ? " in place" : "", i);
    }
    free(sbuf);
    free(rbuf);
    free(want);
    free(counts);
}

static void test_reduce_local(void)
{
    int commute = -1;
    CHECK_RC(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1, "MPI_SUM not commutative (%d)", commute);
    CHECK_RC(MPI_Op_commutative(affop, &commute));
    CHECK(commute == 0, "the affine user op reported commutative");
    for (int c = 0; c < NCASES; c++) {
        size_t es = esize(c);
        char in[8 * 32], io[8 * 32], want[32];
        for (int i = 0; i < 8; i++) {
            make(c, 1, i, in + es * (size_t)i);
            make(c, 2, i, io + es * (size_t)i);
        }
        MPI_Datatype dt;
        MPI_Op op;
        dt_op(c, &dt, &op);
        CHECK_RC(MPI_Reduce_local(in, io, 8, dt, op));
        for (int i = 0; i < 8; i++) {
            ref(c, 1, 3, i, want);
            CHECK(memcmp(want, io + es * (size_t)i, es) == 0,
                  "reduce_local %s: element %d differs", case_names[c], i);
        }
    }
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Type_contiguous(2, MPI_UINT32_T, &affty);
    MPI_Type_commit(&affty);
    MPI_Op_create(aff_fn, 0, &affop);
    MPI_Op_create(ct_aff16_fn, 0, &aff16op);
    test_reduce_local();
    static const int ns[] = { 0, 1, 1000, 5000, 20000 };
    for (int kind = 0; kind < NKINDS; kind++)
        for (int c = 0; c < NCASES; c++)
            for (int form = 0; form < CT_NFORMS; form++)
                for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
                    for (int inplace = 0; inplace < 2; inplace++)
                        if (ns[k] < 20000 || form == CT_BLOCKING)
                            one(kind, c, form, ns[k], inplace);
    MPI_Op_free(&affop);
    MPI_Op_free(&aff16op);
    MPI_Type_free(&triple);
    MPI_Type_free(&affty);
    return ct_finish();
}
