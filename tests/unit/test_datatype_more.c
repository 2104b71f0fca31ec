/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_datatype_more.c - the constructors and queries of issue 3 against
 * hand-computed values: subarray and darray (bounds, the standard's darray
 * example, every argument error), f90 types and MPI_Type_match_size,
 * MPI_Type_get_value_index, MPI_Type_get_envelope/contents for every
 * combiner in both layouts,
 * external32 bytes of known values, MPI_Aint_add/diff, and the handle
 * lifetime (freed handles are refused, get_contents revives a child).
 */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"
#include "xb_impl.h"
#include "runtime/tunable.h"

XB_TUNABLE_DECL(DT_PACE);
XB_TUNABLE_DECL(DT_UNPACK_PACE);

#include "unit_check.h"

#define T(h) xb_dt_from_handle(h)

static void expect_err(int rc, int want, const char *text, const char *what)
{
    CHECK(rc == want, "%s: rc %d, want %d", what, rc, want);
    CHECK(rc == XB_OK || strstr(xb_err_detail(), text) != NULL,
          "%s: message '%s' lacks '%s'", what, xb_err_detail(), text);
}

static void pack_ints(MPI_Datatype h, const int *src, int *dst, MPI_Count n)
{
    size_t done = 0;
    MPI_Datatype c = h;
    xb_impl_type_commit(&c);
    int rc = xb_dt_pack(src, 1, T(h), 0, dst, (size_t)n * sizeof(int), &done);
    CHECK(rc == XB_OK && done == (size_t)n * sizeof(int), "pack: rc %d, %zu bytes", rc, done);
}

static void test_subarray(void)
{
    int a[4 * 5];
    for (int i = 0; i < 20; i++)
        a[i] = i;
    MPI_Count sz[2] = { 4, 5 }, sub[2] = { 2, 3 }, st[2] = { 1, 2 };
    MPI_Datatype h;
    int rc = xb_impl_type_create_subarray(2, sz, sub, st, MPI_ORDER_C, T(MPI_INT), &h, false);
    CHECK(rc == XB_OK, "subarray C: %d %s", rc, xb_err_detail());
    MPI_Count lb, ext, tlb, text, size;
    xb_impl_type_get_extent(T(h), &lb, &ext);
    xb_impl_type_get_true_extent(T(h), &tlb, &text);
    xb_impl_type_size(T(h), &size);
    CHECK(lb == 0 && ext == 80, "subarray extent %lld/%lld", (long long)lb, (long long)ext);
    CHECK(tlb == 28 && text == 32, "subarray true extent %lld/%lld",
          (long long)tlb, (long long)text);
    CHECK(size == 24, "subarray size %lld", (long long)size);
    int got[6], want_c[6] = { 7, 8, 9, 12, 13, 14 };
    pack_ints(h, a, got, 6);
    CHECK(memcmp(got, want_c, sizeof(got)) == 0, "subarray C order: %d %d %d %d %d %d",
          got[0], got[1], got[2], got[3], got[4], got[5]);
    xb_impl_type_free(&h);
    /* Fortran order: sizes (4, 5), first index fastest */
    rc = xb_impl_type_create_subarray(2, sz, sub, st, MPI_ORDER_FORTRAN, T(MPI_INT), &h, false);
    CHECK(rc == XB_OK, "subarray F: %d", rc);
    int want_f[6] = { 9, 10, 13, 14, 17, 18 };
    pack_ints(h, a, got, 6);
    CHECK(memcmp(got, want_f, sizeof(got)) == 0, "subarray Fortran order: %d %d %d %d %d %d",
          got[0], got[1], got[2], got[3], got[4], got[5]);
    xb_impl_type_free(&h);

    MPI_Count bad[2] = { 3, 2 };
    rc = xb_impl_type_create_subarray(2, sz, sub, bad, MPI_ORDER_C, T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "array_of_starts[0] is 3", "start + subsize > size");
    MPI_Count big[2] = { 5, 1 };
    rc = xb_impl_type_create_subarray(2, sz, big, st, MPI_ORDER_C, T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "array_of_subsizes[0] is 5", "subsize > size");
    MPI_Count zero[2] = { 0, 5 };
    rc = xb_impl_type_create_subarray(2, zero, sub, st, MPI_ORDER_C, T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "array_of_sizes[0] is 0", "zero size");
    rc = xb_impl_type_create_subarray(2, sz, sub, st, 99, T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "order is 99", "bad order");
    rc = xb_impl_type_create_subarray(0, sz, sub, st, MPI_ORDER_C, T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "ndims is 0", "ndims 0");
}

static void test_darray(void)
{
    /* 1-D: 10 elements, cyclic(2) over 3 processes; rank 1 owns 2,3,8,9 */
    int a[10];
    for (int i = 0; i < 10; i++)
        a[i] = i;
    MPI_Count gs[1] = { 10 };
    int dist[1] = { MPI_DISTRIBUTE_CYCLIC }, darg[1] = { 2 }, ps[1] = { 3 };
    MPI_Datatype h;
    int rc = xb_impl_type_create_darray(3, 1, 1, gs, dist, darg, ps, MPI_ORDER_C,
                                        T(MPI_INT), &h, false);
    CHECK(rc == XB_OK, "darray cyclic: %d %s", rc, xb_err_detail());
    int got[4], want[4] = { 2, 3, 8, 9 };
    pack_ints(h, a, got, 4);
    CHECK(memcmp(got, want, sizeof(want)) == 0, "darray cyclic(2): %d %d %d %d",
          got[0], got[1], got[2], got[3]);
    MPI_Count lb, ext;
    xb_impl_type_get_extent(T(h), &lb, &ext);
    CHECK(lb == 0 && ext == 40, "darray extent %lld/%lld", (long long)lb, (long long)ext);
    xb_impl_type_free(&h);

    /* 2-D 4x6, block x block over a 2x3 grid; rank 4 = coords (1, 1) */
    int b[24];
    for (int i = 0; i < 24; i++)
        b[i] = i;
    MPI_Count gs2[2] = { 4, 6 };
    int dist2[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK };
    int darg2[2] = { MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG }, ps2[2] = { 2, 3 };
    rc = xb_impl_type_create_darray(6, 4, 2, gs2, dist2, darg2, ps2, MPI_ORDER_C,
                                    T(MPI_INT), &h, false);
    CHECK(rc == XB_OK, "darray block: %d", rc);
    int want2[4] = { 14, 15, 20, 21 };
    pack_ints(h, b, got, 4);
    CHECK(memcmp(got, want2, sizeof(want2)) == 0, "darray block 2-D: %d %d %d %d",
          got[0], got[1], got[2], got[3]);
    xb_impl_type_free(&h);

    /* a cyclic distribution of 10^9 ints is a strided run list, not 10^9 blocks */
    MPI_Count gbig[1] = { 1000000000 };
    int dcyc[1] = { MPI_DISTRIBUTE_CYCLIC }, d1[1] = { 1 }, p4[1] = { 4 };
    rc = xb_impl_type_create_darray(4, 3, 1, gbig, dcyc, d1, p4, MPI_ORDER_C,
                                    T(MPI_INT), &h, false);
    CHECK(rc == XB_OK, "big cyclic darray: %d", rc);
    MPI_Datatype hc = h;
    xb_impl_type_commit(&hc);
    xb_datatype_t *big = T(h);
    CHECK(big->size == 1000000000LL && big->root->kind == DT_VRUN &&
          big->root->u.vr.count == 250000000 && big->root->u.vr.stride == 16 &&
          big->root->disp == 12, "big cyclic darray: size %lld, root kind %d",
          (long long)big->size, big->root->kind);
    xb_impl_type_free(&h);

    int ps_bad[2] = { 2, 2 };
    rc = xb_impl_type_create_darray(6, 0, 2, gs2, dist2, darg2, ps_bad, MPI_ORDER_C,
                                    T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "inconsistent process grid", "grid 2x2 for 6 processes");
    rc = xb_impl_type_create_darray(6, 6, 2, gs2, dist2, darg2, ps2, MPI_ORDER_C,
                                    T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "rank 6", "rank out of range");
    int darg_small[2] = { 1, MPI_DISTRIBUTE_DFLT_DARG };
    rc = xb_impl_type_create_darray(6, 0, 2, gs2, dist2, darg_small, ps2, MPI_ORDER_C,
                                    T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "array_of_dargs[0] is 1", "block too small");
    int dist_none[2] = { MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK };
    rc = xb_impl_type_create_darray(6, 0, 2, gs2, dist_none, darg2, ps2, MPI_ORDER_C,
                                    T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "MPI_DISTRIBUTE_NONE", "none with 2 processes");
    int dist_bad[2] = { 77, MPI_DISTRIBUTE_BLOCK };
    rc = xb_impl_type_create_darray(6, 0, 2, gs2, dist_bad, darg2, ps2, MPI_ORDER_C,
                                    T(MPI_INT), &h, false);
    expect_err(rc, XB_ERR_ARG, "array_of_distribs[0] is 77", "bad distribution");
}

static void test_f90(void)
{
    MPI_Datatype h, h2;
    int rc = xb_impl_type_create_f90_integer(9, &h);
    CHECK(rc == XB_OK && xb_dt_size(T(h)) == 4, "f90 integer(9): %d", rc);
    rc = xb_impl_type_create_f90_integer(9, &h2);
    CHECK(rc == XB_OK && h2 == h, "f90 integer(9) twice gives another handle");
    MPI_Count ni, na, nl, nt;
    int comb, ints[2];
    xb_impl_type_get_envelope(T(h), &ni, &na, &nl, &nt, &comb);
    CHECK(comb == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nt == 0,
          "f90 integer envelope %d %lld", comb, (long long)ni);
    xb_impl_type_get_contents(T(h), 1, 0, 0, 0, ints, NULL, NULL, NULL);
    CHECK(ints[0] == 9, "f90 integer r %d", ints[0]);
    rc = xb_impl_type_free(&h2);
    expect_err(rc, XB_ERR_TYPE, "cannot free a predefined", "free an f90 type");
    rc = xb_impl_type_create_f90_integer(19, &h);
    CHECK(rc == XB_OK && xb_dt_size(T(h)) == 16, "f90 integer(19) size");
    rc = xb_impl_type_create_f90_integer(40, &h);
    expect_err(rc, XB_ERR_ARG, "r = 40", "f90 integer(40)");
    rc = xb_impl_type_create_f90_real(10, MPI_UNDEFINED, &h);
    CHECK(rc == XB_OK && xb_dt_size(T(h)) == 8, "f90 real(10) is 8 bytes");
    xb_impl_type_get_contents(T(h), 2, 0, 0, 0, ints, NULL, NULL, NULL);
    CHECK(ints[0] == 10 && ints[1] == MPI_UNDEFINED, "f90 real contents %d %d",
          ints[0], ints[1]);
    rc = xb_impl_type_create_f90_complex(MPI_UNDEFINED, 300, &h);
    CHECK(rc == XB_OK && xb_dt_size(T(h)) == 16, "f90 complex(r=300) is 16 bytes");
    rc = xb_impl_type_create_f90_real(40, 40, &h);
    expect_err(rc, XB_ERR_ARG, "p = 40", "f90 real(40)");
    rc = xb_impl_type_match_size(MPI_TYPECLASS_REAL, 8, &h);
    CHECK(rc == XB_OK && h == MPI_REAL8, "match_size real 8");
    rc = xb_impl_type_match_size(MPI_TYPECLASS_INTEGER, 2, &h);
    CHECK(rc == XB_OK && h == MPI_INTEGER2, "match_size integer 2");
    rc = xb_impl_type_match_size(MPI_TYPECLASS_COMPLEX, 16, &h);
    CHECK(rc == XB_OK && h == MPI_COMPLEX16, "match_size complex 16");
    rc = xb_impl_type_match_size(MPI_TYPECLASS_INTEGER, 3, &h);
    expect_err(rc, XB_ERR_ARG, "size 3", "match_size integer 3");
    rc = xb_impl_type_match_size(5, 4, &h);
    expect_err(rc, XB_ERR_ARG, "typeclass 5", "match_size bad class");
    rc = xb_impl_type_get_value_index(T(MPI_DOUBLE), T(MPI_INT), &h);
    CHECK(rc == XB_OK && h == MPI_DOUBLE_INT, "value_index double/int");
    rc = xb_impl_type_get_value_index(T(MPI_DOUBLE_PRECISION), T(MPI_DOUBLE_PRECISION), &h);
    CHECK(rc == XB_OK && h == MPI_2DOUBLE_PRECISION, "value_index 2 double precision");
    rc = xb_impl_type_get_value_index(T(MPI_CHAR), T(MPI_INT), &h);
    CHECK(rc == XB_OK && h == MPI_DATATYPE_NULL, "value_index char/int is not null");
}

/* get_envelope/contents of one type against the expected arguments. */
static void check_contents(MPI_Datatype h, int comb, int ni, const int *ints,
                           int na, const MPI_Aint *aints, int nt, const MPI_Datatype *types)
{
    MPI_Count gi, ga, gl, gt;
    int gc;
    int rc = xb_impl_type_get_envelope(T(h), &gi, &ga, &gl, &gt, &gc);
    CHECK(rc == XB_OK && gc == comb && gi == ni && ga == na && gl == 0 && gt == nt,
          "envelope of combiner %d: got %d, %lld/%lld/%lld/%lld", comb, gc,
          (long long)gi, (long long)ga, (long long)gl, (long long)gt);
    int I[32];
    MPI_Aint A[32];
    MPI_Datatype D[8];
    rc = xb_impl_type_get_contents(T(h), 32, 32, 0, 8, I, A, NULL, D);
    CHECK(rc == XB_OK, "contents of combiner %d: %d", comb, rc);
    CHECK(ni == 0 || memcmp(I, ints, (size_t)ni * sizeof(int)) == 0, "integers of combiner %d", comb);
    CHECK(na == 0 || memcmp(A, aints, (size_t)na * sizeof(MPI_Aint)) == 0,
          "addresses of combiner %d", comb);
    for (int i = 0; i < nt; i++) {
        CHECK(D[i] == types[i], "type %d of combiner %d", i, comb);
        if (!xb_dt_is_predefined(T(D[i])))
            xb_impl_type_free(&D[i]);
    }
    if (ni > 0) {
        rc = xb_impl_type_get_contents(T(h), ni - 1, 32, 0, 8, I, A, NULL, D);
        expect_err(rc, XB_ERR_ARG, "max_integers", "contents with too few integers");
    }
    xb_impl_type_free(&h);
}

static void test_contents(void)
{
    xb_datatype_t *I4 = T(MPI_INT);
    MPI_Datatype h, v;
    MPI_Count c3[3] = { 2, 3, 4 }, c2[2] = { 5, 6 };
    xb_impl_type_contiguous(3, I4, &h, false);
    check_contents(h, MPI_COMBINER_CONTIGUOUS, 1, (int[]){ 3 }, 0, NULL, 1, &(MPI_Datatype){ MPI_INT });
    xb_impl_type_vector(2, 3, -4, I4, &h, false);
    check_contents(h, MPI_COMBINER_VECTOR, 3, (int[]){ 2, 3, -4 }, 0, NULL, 1, &(MPI_Datatype){ MPI_INT });
    xb_impl_type_create_hvector(2, 3, 40, I4, &h, false);
    check_contents(h, MPI_COMBINER_HVECTOR, 2, (int[]){ 2, 3 }, 1, (MPI_Aint[]){ 40 }, 1, &(MPI_Datatype){ MPI_INT });
    xb_impl_type_indexed(2, c2, c3, I4, &h, false);
    check_contents(h, MPI_COMBINER_INDEXED, 5, (int[]){ 2, 5, 6, 2, 3 }, 0, NULL, 1, &(MPI_Datatype){ MPI_INT });
    xb_impl_type_create_hindexed(2, c2, c3, I4, &h, false);
    check_contents(h, MPI_COMBINER_HINDEXED, 3, (int[]){ 2, 5, 6 }, 2, (MPI_Aint[]){ 2, 3 }, 1, &(MPI_Datatype){ MPI_INT });
    xb_impl_type_create_indexed_block(3, 2, c3, I4, &h, false);
    check_contents(h, MPI_COMBINER_INDEXED_BLOCK, 5, (int[]){ 3, 2, 2, 3, 4 }, 0, NULL, 1, &(MPI_Datatype){ MPI_INT });
    xb_impl_type_create_hindexed_block(3, 2, c3, I4, &h, false);
    check_contents(h, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){ 3, 2 }, 3, (MPI_Aint[]){ 2, 3, 4 }, 1, &(MPI_Datatype){ MPI_INT });
    xb_impl_type_contiguous(2, T(MPI_DOUBLE), &v, false);
    MPI_Datatype st[2] = { MPI_CHAR, v };
    xb_impl_type_create_struct(2, c2, c3, st, &h, false);
    check_contents(h, MPI_COMBINER_STRUCT, 3, (int[]){ 2, 5, 6 }, 2, (MPI_Aint[]){ 2, 3 }, 2, st);
    xb_impl_type_create_resized(I4, -4, 16, &h, false);
    check_contents(h, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){ -4, 16 }, 1, &(MPI_Datatype){ MPI_INT });
    xb_impl_type_dup(T(v), &h);
    check_contents(h, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &v);
    MPI_Count sz[2] = { 4, 5 }, sub[2] = { 2, 3 }, sts[2] = { 1, 2 };
    xb_impl_type_create_subarray(2, sz, sub, sts, MPI_ORDER_FORTRAN, I4, &h, false);
    check_contents(h, MPI_COMBINER_SUBARRAY, 8, (int[]){ 2, 4, 5, 2, 3, 1, 2, MPI_ORDER_FORTRAN },
                   0, NULL, 1, &(MPI_Datatype){ MPI_INT });
    int ds[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC }, da[2] = { 2, 3 }, pp[2] = { 2, 1 };
    xb_impl_type_create_darray(2, 1, 2, sz, ds, da, pp, MPI_ORDER_C, T(v), &h, false);
    check_contents(h, MPI_COMBINER_DARRAY, 12, (int[]){ 2, 1, 2, 4, 5, MPI_DISTRIBUTE_BLOCK,
                   MPI_DISTRIBUTE_CYCLIC, 2, 3, 2, 1, MPI_ORDER_C }, 0, NULL, 1, &v);

    /* get_contents hands out a reference: the child outlives the user's free */
    xb_impl_type_contiguous(2, T(v), &h, false);
    MPI_Datatype vv = v;
    xb_impl_type_free(&vv);
    CHECK(T(v) == NULL, "a freed handle still resolves");
    MPI_Datatype D[1];
    int I1[1];
    xb_impl_type_get_contents(T(h), 1, 0, 0, 1, I1, NULL, NULL, D);
    CHECK(D[0] == v && T(D[0]) != NULL && xb_dt_size(T(D[0])) == 16,
          "get_contents did not revive the freed child");
    xb_impl_type_free(&D[0]);
    CHECK(T(v) == NULL, "the revived child was not freed again");
    xb_impl_type_free(&h);

    MPI_Count ni, na, nl, nt;
    int comb;
    xb_impl_type_get_envelope(T(MPI_INT), &ni, &na, &nl, &nt, &comb);
    CHECK(comb == MPI_COMBINER_NAMED && ni + na + nl + nt == 0, "MPI_INT envelope");
    int rc = xb_impl_type_get_contents(T(MPI_INT), 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    expect_err(rc, XB_ERR_TYPE, "named predefined", "contents of MPI_INT");

    /* the layout follows the constructor's form. MPI 4.1 section 5.1.13:
     * "the descriptions below refer to MPI datatypes created by procedures
     * without large count arguments": an int-made vector answers the int
     * layout in the _c form too (no large counts) */
    xb_impl_type_vector(4, 1, 3, I4, &h, false);
    rc = xb_impl_type_get_envelope(T(h), &ni, &na, &nl, &nt, &comb);
    CHECK(rc == XB_OK && ni == 3 && na == 0 && nl == 0 && nt == 1,
          "int-made vector, _c envelope %lld/%lld/%lld", (long long)ni, (long long)na,
          (long long)nl);
    xb_impl_type_free(&h);
    /* a _c-made vector: the large layout in the _c form. MPI 4.1 section
     * 5.1.13: "If the MPI_TYPE_GET_ENVELOPE variant without num_large_counts
     * is invoked with a datatype that requires an output value of
     * num_large_counts > 0, then an error of class MPI_ERR_TYPE is raised",
     * and the same for MPI_TYPE_GET_CONTENTS: the int forms refuse it even
     * though its values fit an int */
    xb_impl_type_vector(4, 1, 3, I4, &h, true);
    rc = xb_impl_type_get_envelope(T(h), &ni, &na, &nl, &nt, &comb);
    CHECK(rc == XB_OK && ni == 0 && na == 0 && nl == 3 && nt == 1,
          "_c-made vector, _c envelope %lld/%lld/%lld", (long long)ni, (long long)na,
          (long long)nl);
    rc = xb_impl_type_get_envelope(T(h), &ni, &na, NULL, &nt, &comb);
    expect_err(rc, XB_ERR_TYPE, "MPI_Type_get_envelope_c", "_c-made vector, int envelope");
    int I3[3];
    rc = xb_impl_type_get_contents(T(h), 3, 0, 0, 1, I3, NULL, NULL, D);
    expect_err(rc, XB_ERR_TYPE, "MPI_Type_get_contents_c", "_c-made vector, int contents");
    xb_impl_type_free(&h);
    /* a dup of a _c-made type has no large counts (DUP has none): the int
     * forms answer it */
    MPI_Datatype v4;
    xb_impl_type_vector(4, 1, 3, I4, &v4, true);
    xb_impl_type_dup(T(v4), &h);
    rc = xb_impl_type_get_envelope(T(h), &ni, &na, NULL, &nt, &comb);
    CHECK(rc == XB_OK && comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nt == 1,
          "dup of a _c-made vector, int envelope");
    xb_impl_type_free(&h);
    xb_impl_type_free(&v4);
    /* a _c-made resized type: lb and extent are large counts in the _c form */
    xb_impl_type_create_resized(I4, -4, 16, &h, true);
    MPI_Count L2[2];
    rc = xb_impl_type_get_contents(T(h), 0, 0, 2, 1, NULL, NULL, L2, D);
    CHECK(rc == XB_OK && L2[0] == -4 && L2[1] == 16, "_c-made resized, _c contents");
    xb_impl_type_free(&h);

    /* a count beyond int: the large layout in the _c form, an error in the int form */
    xb_impl_type_vector((MPI_Count)1 << 33, 1, 3, I4, &h, true);
    rc = xb_impl_type_get_envelope(T(h), &ni, &na, &nl, &nt, &comb);
    CHECK(rc == XB_OK && ni == 0 && na == 0 && nl == 3 && nt == 1, "large vector envelope "
          "%lld/%lld/%lld", (long long)ni, (long long)na, (long long)nl);
    MPI_Count L[3];
    rc = xb_impl_type_get_contents(T(h), 0, 0, 3, 1, NULL, NULL, L, D);
    CHECK(rc == XB_OK && L[0] == (MPI_Count)1 << 33 && L[1] == 1 && L[2] == 3 && D[0] == MPI_INT,
          "large vector contents");
    rc = xb_impl_type_get_envelope(T(h), &ni, &na, NULL, &nt, &comb);
    expect_err(rc, XB_ERR_TYPE, "MPI_Type_get_contents_c", "int form of a large type");
    MPI_Count size;
    xb_impl_type_size(T(h), &size);
    CHECK(size == ((MPI_Count)4 << 33), "large vector size %lld", (long long)size);
    xb_impl_type_free(&h);
}

static void test_external32(void)
{
    unsigned char out[64];
    MPI_Count pos = 0, size = 0;
    int iv[2] = { 1, -2 };
    int rc = xb_impl_pack_external("external32", iv, 2, T(MPI_INT), out, 64, &pos);
    static const unsigned char wi[8] = { 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe };
    CHECK(rc == XB_OK && pos == 8 && memcmp(out, wi, 8) == 0, "external32 int");
    long lv[2] = { 0x01020304, -5 };
    pos = 0;
    rc = xb_impl_pack_external("external32", lv, 2, T(MPI_LONG), out, 64, &pos);
    static const unsigned char wl[8] = { 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfb };
    CHECK(rc == XB_OK && pos == 8 && memcmp(out, wl, 8) == 0, "external32 long is 4 bytes");
    long back[2] = { 0, 0 };
    MPI_Count upos = 0;
    rc = xb_impl_unpack_external("external32", out, 8, &upos, back, 2, T(MPI_LONG));
    CHECK(rc == XB_OK && back[0] == lv[0] && back[1] == -5, "external32 long back");
    long huge = (long)1 << 40;
    pos = 0;
    rc = xb_impl_pack_external("external32", &huge, 1, T(MPI_LONG), out, 64, &pos);
    expect_err(rc, -MPI_ERR_CONVERSION, "does not fit", "long beyond 32 bits");
    double d = 1.0;
    pos = 0;
    rc = xb_impl_pack_external("external32", &d, 1, T(MPI_DOUBLE), out, 64, &pos);
    static const unsigned char wd[8] = { 0x3f, 0xf0, 0, 0, 0, 0, 0, 0 };
    CHECK(rc == XB_OK && memcmp(out, wd, 8) == 0, "external32 double 1.0");
    long double ld = -2.0L, ldb = 0;
    pos = 0;
    rc = xb_impl_pack_external("external32", &ld, 1, T(MPI_LONG_DOUBLE), out, 64, &pos);
    static const unsigned char wld[4] = { 0xc0, 0x00, 0, 0 };
    CHECK(rc == XB_OK && pos == 16 && memcmp(out, wld, 4) == 0 && out[15] == 0,
          "external32 long double -2.0: %02x %02x", out[0], out[1]);
    upos = 0;
    rc = xb_impl_unpack_external("external32", out, 16, &upos, &ldb, 1, T(MPI_LONG_DOUBLE));
    CHECK(rc == XB_OK && ldb == -2.0L, "external32 long double back");
    struct { float f; int i; } fi = { 0.5f, 7 };
    pos = 0;
    rc = xb_impl_pack_external("external32", &fi, 1, T(MPI_FLOAT_INT), out, 64, &pos);
    static const unsigned char wfi[8] = { 0x3f, 0, 0, 0, 0, 0, 0, 7 };
    CHECK(rc == XB_OK && pos == 8 && memcmp(out, wfi, 8) == 0, "external32 float_int");
    wchar_t wc = 0x263a;
    pos = 0;
    rc = xb_impl_pack_external("external32", &wc, 1, T(MPI_WCHAR), out, 64, &pos);
    CHECK(rc == XB_OK && pos == 2 && out[0] == 0x26 && out[1] == 0x3a, "external32 wchar");
    /* a struct { char; long; double } : 1 + 4 + 8 bytes */
    MPI_Count bl[3] = { 1, 1, 1 }, dp[3] = { 0, 8, 16 };
    MPI_Datatype st[3] = { MPI_CHAR, MPI_LONG, MPI_DOUBLE }, h;
    xb_impl_type_create_struct(3, bl, dp, st, &h, false);
    xb_impl_type_commit(&h);
    rc = xb_impl_pack_external_size("external32", 3, T(h), &size);
    CHECK(rc == XB_OK && size == 39, "external32 size of 3 structs %lld", (long long)size);
    pos = 0;
    rc = xb_impl_pack_external("external32", iv, 1, T(h), out, 10, &pos);
    expect_err(rc, XB_ERR_TRUNCATE, "do not fit", "external32 into a short buffer");
    xb_impl_type_free(&h);
    rc = xb_impl_pack_external_size("native", 1, T(MPI_INT), &size);
    expect_err(rc, -MPI_ERR_UNSUPPORTED_DATAREP, "\"native\"", "datarep native");
}

/* Far-strided vectors take the paced loops (dt_move.c, XB_DT_PACE adds,
 * XB_DT_UNPACK_PACE local stores): pack, unpack and a partial pack from an
 * odd offset against a plain loop, for run lengths 4, 8, 12 and 16, with
 * positive and negative strides; unpack with store pauses and with adds;
 * and with both at -1 (the default), where the first 12 packs and unpacks
 * of a thread each time one of the tuner's paces, and the later ones take
 * the fastest. */
static void test_paced_one(long long adds)
{
    xb_tn_DT_PACE.v.i = adds;
    enum { RUNS = 300, STRIDE = 8192 };
    unsigned char *mem = malloc((size_t)RUNS * STRIDE + 64);
    unsigned char *out = malloc(RUNS * 16), *want = malloc(RUNS * 16);
    for (size_t i = 0; i < (size_t)RUNS * STRIDE + 64; i++)
        mem[i] = (unsigned char)(i * 31 + 7);
    static const int lens[4] = { 4, 8, 12, 16 };
    for (int li = 0; li < 4; li++)
        for (int neg = 0; neg < 2; neg++) {
            int len = lens[li];
            MPI_Aint st = neg ? -STRIDE : STRIDE;
            unsigned char *base = neg ? mem + (size_t)(RUNS - 1) * STRIDE : mem;
            MPI_Datatype h;
            xb_impl_type_create_hvector(RUNS, len, st, T(MPI_BYTE), &h, false);
            xb_impl_type_commit(&h);
            for (int r = 0; r < RUNS; r++)
                memcpy(want + (size_t)r * len, base + r * st, (size_t)len);
            size_t done = 0, total = (size_t)RUNS * len;
            int rc = xb_dt_pack(base, 1, T(h), 0, out, total, &done);
            CHECK(rc == XB_OK && done == total && memcmp(out, want, total) == 0,
                  "paced pack, len %d stride %ld", len, (long)st);
            rc = xb_dt_pack(base, 1, T(h), 3, out, total - 3, &done);
            CHECK(rc == XB_OK && done == total - 3 && memcmp(out, want + 3, total - 3) == 0,
                  "paced pack from offset 3, len %d stride %ld", len, (long)st);
            for (size_t i = 0; i < total; i++)
                out[i] = (unsigned char)~want[i];
            rc = xb_dt_unpack(base, 1, T(h), 0, out, total);
            bool ok = rc == XB_OK;
            for (int r = 0; r < RUNS && ok; r++)
                ok = memcmp(base + r * st, out + (size_t)r * len, (size_t)len) == 0;
            CHECK(ok, "paced unpack, len %d stride %ld", len, (long)st);
            rc = xb_dt_unpack(base, 1, T(h), 0, want, total);   /* restore */
            xb_impl_type_free(&h);
        }
    free(mem);
    free(out);
    free(want);
}

static void test_paced(void)
{
    for (int ns = 0; ns <= 3; ns += 3) {
        xb_tn_DT_UNPACK_PACE.v.i = ns;
        test_paced_one(12);
    }
    xb_tn_DT_UNPACK_PACE.v.i = -1;
    for (int pass = 0; pass < 3; pass++)      /* 8 packs, 8 unpacks a pass */
        test_paced_one(-1);
    xb_tn_DT_PACE.v.i = 0;
    xb_tn_DT_UNPACK_PACE.v.i = 0;
}

static void test_aint(void)
{
    char buf[16];
    MPI_Aint a0, a1;
    xb_impl_get_address(&buf[0], &a0);
    xb_impl_get_address(&buf[10], &a1);
    CHECK(PMPI_Aint_diff(a1, a0) == 10, "Aint_diff %ld", (long)PMPI_Aint_diff(a1, a0));
    CHECK(PMPI_Aint_add(a0, 10) == a1, "Aint_add");
    CHECK(PMPI_Aint_add(a1, -10) == a0, "Aint_add of a negative displacement");

    /* MPI_BOTTOM with absolute addresses: a struct of two far-apart ints */
    static int x = 11, y = 22;
    MPI_Aint ax, ay;
    xb_impl_get_address(&x, &ax);
    xb_impl_get_address(&y, &ay);
    MPI_Count bl[2] = { 1, 1 }, dp[2] = { ax, ay };
    MPI_Datatype st[2] = { MPI_INT, MPI_INT }, h;
    xb_impl_type_create_struct(2, bl, dp, st, &h, false);
    int got[2] = { 0, 0 };
    pack_ints(h, MPI_BOTTOM, got, 2);
    CHECK(got[0] == 11 && got[1] == 22, "pack from MPI_BOTTOM: %d %d", got[0], got[1]);
    xb_impl_type_free(&h);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    xb_dt_init();
    test_subarray();
    test_darray();
    test_f90();
    test_contents();
    test_external32();
    test_aint();
    test_paced();
    if (failures == 0)
        printf("test_datatype_more: all checks passed\n");
    return failures ? 1 : 0;
}
