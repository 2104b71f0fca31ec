/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * decode.c - decoding datatypes through the real bindings:
 *   - MPI_Type_get_envelope/_contents and their _c forms answer the layout
 *     of the constructor that made the type. Checked against the text of
 *     MPI 4.1 section 5.1.13 ("Decoding a Datatype"); each check names the
 *     sentence it tests:
 *     [S1] "If the MPI_TYPE_GET_ENVELOPE variant without num_large_counts
 *          is invoked with a datatype that requires an output value of
 *          num_large_counts > 0, then an error of class MPI_ERR_TYPE is
 *          raised."
 *     [S2] "If the MPI_TYPE_GET_CONTENTS variant without max_large_counts
 *          is invoked with a datatype that requires > 0 values in
 *          array_of_large_counts, then an error of class MPI_ERR_TYPE is
 *          raised."
 *     [S3] "the descriptions below refer to MPI datatypes created by
 *          procedures without large count arguments" (the tables of ni,
 *          na, nd per combiner: an int-made type has no large counts, in
 *          either form).
 *     A _c constructor gives every count, displacement and address in
 *     array_of_large_counts in the _c form (MPI 4.1 has no table for it;
 *     ndims, order and darray's int arguments stay integers, as in the _c
 *     constructors' C bindings), so the int forms refuse a _c-made type
 *     whatever its values [S1, S2];
 *   - the decoded arguments rebuild an equal type (same packed bytes);
 *   - MPI_Type_get_value_index (MPI 4.1) for every pair type, and
 *     MPI_DATATYPE_NULL for combinations without one; the returned pair
 *     types work with MPI_MINLOC/MPI_MAXLOC in an allreduce.
 */
#include <stdint.h>
#include "ctest.h"

enum { BUF = 256 };

/* The bytes MPI_Pack makes of one t over a buffer of known contents. */
static int pack_of(MPI_Datatype t, unsigned char *out)
{
    static unsigned char src[BUF * 8];
    for (int i = 0; i < (int)sizeof(src); i++)
        src[i] = (unsigned char)(i * 7 + 3);
    int size = 0, pos = 0;
    MPI_Pack_size(1, t, MPI_COMM_SELF, &size);
    if (size > BUF * 4)
        return -1;
    MPI_Pack(src + BUF * 2, 1, t, out, BUF * 4, &pos, MPI_COMM_SELF);
    return pos;
}

static void same_map(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    unsigned char pa[BUF * 4], pb[BUF * 4];
    MPI_Type_commit(&a);
    MPI_Type_commit(&b);
    int na = pack_of(a, pa), nb = pack_of(b, pb);
    CHECK(na >= 0 && na == nb && memcmp(pa, pb, (size_t)na) == 0,
          "%s: the rebuilt type packs differently (%d vs %d bytes)", what, na, nb);
}

/* The error class of an int-form decoding call, errors returned. */
static int class_of_envelope(MPI_Datatype t)
{
    int ii, ia, it, comb, cls = -1;
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Type_get_envelope(t, &ii, &ia, &it, &comb);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Error_class(rc, &cls);
    return cls;
}

static int class_of_contents(MPI_Datatype t)
{
    int I[16], cls = -1;
    MPI_Aint A[16];
    MPI_Datatype D[16];
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Type_get_contents(t, 16, 16, 16, I, A, D);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Error_class(rc, &cls);
    return cls;
}

static void free_children(int n, MPI_Datatype *d)
{
    for (int i = 0; i < n; i++) {
        MPI_Count ni, na, nl, nt;
        int comb;
        MPI_Type_get_envelope_c(d[i], &ni, &na, &nl, &nt, &comb);
        if (comb != MPI_COMBINER_NAMED)
            MPI_Type_free(&d[i]);
    }
}

/* vector: int-made and _c-made, decoded both ways, rebuilt. */
static void test_vector(void)
{
    MPI_Datatype v, vc;
    MPI_Type_vector(5, 2, 3, MPI_INT, &v);
    MPI_Type_vector_c(5, 2, 3, MPI_INT, &vc);
    MPI_Count ni, na, nl, nt;
    int comb, ii, ia, it;
    /* [S3] an int-made vector: the int layout in the _c form too */
    MPI_Type_get_envelope_c(v, &ni, &na, &nl, &nt, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nl == 0 && nt == 1,
          "[S3] int vector, envelope_c %lld/%lld/%lld/%lld", (long long)ni,
          (long long)na, (long long)nl, (long long)nt);
    MPI_Type_get_envelope(v, &ii, &ia, &it, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ii == 3 && ia == 0 && it == 1,
          "[S3] int vector, int envelope %d/%d/%d", ii, ia, it);
    MPI_Type_get_envelope_c(vc, &ni, &na, &nl, &nt, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 0 && na == 0 && nl == 3 && nt == 1,
          "vector_c, envelope_c %lld/%lld/%lld/%lld", (long long)ni, (long long)na,
          (long long)nl, (long long)nt);
    /* [S1] [S2] the int forms refuse a _c-made type whose values fit an int */
    int cls = class_of_envelope(vc);
    CHECK(cls == MPI_ERR_TYPE, "[S1] vector_c, int envelope: class %d", cls);
    cls = class_of_contents(vc);
    CHECK(cls == MPI_ERR_TYPE, "[S2] vector_c, int contents: class %d", cls);
    int I[3] = { 0 };
    MPI_Count L[3] = { 0 };
    MPI_Datatype D[1];
    CHECK_RC(MPI_Type_get_contents_c(vc, 0, 0, 3, 1, NULL, NULL, L, D));
    CHECK(L[0] == 5 && L[1] == 2 && L[2] == 3 && D[0] == MPI_INT,
          "vector_c, contents_c %lld %lld %lld", (long long)L[0], (long long)L[1],
          (long long)L[2]);
    CHECK_RC(MPI_Type_get_contents_c(v, 3, 0, 0, 1, I, NULL, NULL, D));
    CHECK(I[0] == 5 && I[1] == 2 && I[2] == 3, "[S3] int vector, contents_c %d %d %d",
          I[0], I[1], I[2]);
    MPI_Datatype r;
    MPI_Type_vector_c(L[0], L[1], L[2], D[0], &r);
    same_map(vc, r, "vector_c rebuilt");
    MPI_Type_free(&r);
    MPI_Type_free(&v);
    MPI_Type_free(&vc);
}

/* struct_c of a resized_c: blocklengths, displacements, lb and extent are
 * large counts; the int forms refuse both types [S1, S2]. */
static void test_struct(void)
{
    MPI_Datatype rz, st;
    MPI_Type_create_resized_c(MPI_DOUBLE, -8, 24, &rz);
    MPI_Count bl[2] = { 2, 1 }, dp[2] = { 0, 40 };
    MPI_Datatype ty[2] = { MPI_INT, rz };
    MPI_Type_create_struct_c(2, bl, dp, ty, &st);
    MPI_Count ni, na, nl, nt;
    int comb;
    MPI_Type_get_envelope_c(st, &ni, &na, &nl, &nt, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 0 && na == 0 && nl == 5 && nt == 2,
          "struct_c, envelope_c %lld/%lld/%lld/%lld", (long long)ni, (long long)na,
          (long long)nl, (long long)nt);
    MPI_Count L[5];
    MPI_Datatype D[2];
    CHECK_RC(MPI_Type_get_contents_c(st, 0, 0, 5, 2, NULL, NULL, L, D));
    CHECK(L[0] == 2 && L[1] == 2 && L[2] == 1 && L[3] == 0 && L[4] == 40 &&
          D[0] == MPI_INT, "struct_c, contents_c");
    MPI_Count RL[2];
    MPI_Datatype RD[1];
    CHECK_RC(MPI_Type_get_contents_c(D[1], 0, 0, 2, 1, NULL, NULL, RL, RD));
    CHECK(RL[0] == -8 && RL[1] == 24 && RD[0] == MPI_DOUBLE, "resized_c, contents_c");
    /* [S1] [S2] resized_c (lb, extent) and struct_c: int forms refuse them */
    int cls = class_of_envelope(D[1]);
    CHECK(cls == MPI_ERR_TYPE, "[S1] resized_c, int envelope: class %d", cls);
    cls = class_of_contents(st);
    CHECK(cls == MPI_ERR_TYPE, "[S2] struct_c, int contents: class %d", cls);
    MPI_Datatype r;
    MPI_Type_create_struct_c(L[0], L + 1, L + 3, D, &r);
    same_map(st, r, "struct_c rebuilt");
    MPI_Type_free(&r);
    free_children(1, RD);
    free_children(2, D);
    MPI_Type_free(&st);
    MPI_Type_free(&rz);
}

/* subarray_c: ndims and order stay int, sizes/subsizes/starts are large. */
static void test_subarray(void)
{
    MPI_Count sz[2] = { 6, 7 }, sub[2] = { 2, 3 }, stt[2] = { 1, 4 };
    MPI_Datatype s;
    MPI_Type_create_subarray_c(2, sz, sub, stt, MPI_ORDER_C, MPI_SHORT, &s);
    MPI_Count ni, na, nl, nt;
    int comb, I[2];
    MPI_Type_get_envelope_c(s, &ni, &na, &nl, &nt, &comb);
    CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 2 && na == 0 && nl == 6 && nt == 1,
          "subarray_c, envelope_c %lld/%lld/%lld/%lld", (long long)ni, (long long)na,
          (long long)nl, (long long)nt);
    MPI_Count L[6];
    MPI_Datatype D[1];
    CHECK_RC(MPI_Type_get_contents_c(s, 2, 0, 6, 1, I, NULL, L, D));
    CHECK(I[0] == 2 && I[1] == MPI_ORDER_C && L[0] == 6 && L[1] == 7 && L[2] == 2 &&
          L[3] == 3 && L[4] == 1 && L[5] == 4, "subarray_c, contents_c");
    MPI_Datatype r;
    MPI_Type_create_subarray_c(I[0], L, L + 2, L + 4, I[1], D[0], &r);
    same_map(s, r, "subarray_c rebuilt");
    MPI_Type_free(&r);
    MPI_Type_free(&s);
}

/* A count beyond int: the _c forms return it; the int forms refuse the
 * type [S1], as they refuse every _c-made type. */
static void test_too_large(void)
{
    MPI_Datatype v;
    MPI_Type_contiguous_c((MPI_Count)1 << 33, MPI_BYTE, &v);
    MPI_Count ni, na, nl, nt, L[1];
    int comb, ii, ia, it, cls = -1;
    MPI_Type_get_envelope_c(v, &ni, &na, &nl, &nt, &comb);
    CHECK(ni == 0 && nl == 1 && nt == 1, "large contiguous_c, envelope_c");
    MPI_Datatype D[1];
    CHECK_RC(MPI_Type_get_contents_c(v, 0, 0, 1, 1, NULL, NULL, L, D));
    CHECK(L[0] == (MPI_Count)1 << 33, "large contiguous_c, contents_c %lld", (long long)L[0]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rc = MPI_Type_get_envelope(v, &ii, &ia, &it, &comb);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TYPE, "[S1] large contiguous_c, int envelope: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Type_free(&v);
}

static void test_value_index(void)
{
    static const struct { MPI_Datatype v, i, want; const char *name; } cases[] = {
        { MPI_FLOAT, MPI_INT, MPI_FLOAT_INT, "float/int" },
        { MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT, "double/int" },
        { MPI_LONG, MPI_INT, MPI_LONG_INT, "long/int" },
        { MPI_INT, MPI_INT, MPI_2INT, "int/int" },
        { MPI_SHORT, MPI_INT, MPI_SHORT_INT, "short/int" },
        { MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT, "long double/int" },
        { MPI_REAL, MPI_REAL, MPI_2REAL, "real/real" },
        { MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION, "dp/dp" },
        { MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER, "integer/integer" },
        { MPI_INT, MPI_FLOAT, MPI_DATATYPE_NULL, "int/float" },
        { MPI_FLOAT, MPI_LONG, MPI_DATATYPE_NULL, "float/long" },
        { MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL, "char/int" },
        { MPI_DOUBLE, MPI_DOUBLE, MPI_DATATYPE_NULL, "double/double" },
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        MPI_Datatype got = MPI_BYTE;
        CHECK_RC(MPI_Type_get_value_index(cases[k].v, cases[k].i, &got));
        CHECK(got == cases[k].want, "value_index %s: got %p", cases[k].name,
              (void *)got);
    }
    MPI_Datatype dup, got = MPI_BYTE;
    MPI_Type_dup(MPI_FLOAT, &dup);
    CHECK_RC(MPI_Type_get_value_index(dup, MPI_INT, &got));
    CHECK(got == MPI_DATATYPE_NULL, "value_index of a derived float: %p", (void *)got);
    MPI_Type_free(&dup);
    /* the pair types returned work for MINLOC/MAXLOC */
    struct { double v; int i; } in = { (double)((ct_rank * 5) % 7), ct_rank }, out;
    MPI_Datatype dint;
    MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &dint);
    MPI_Allreduce(&in, &out, 1, dint, MPI_MAXLOC, MPI_COMM_WORLD);
    double best = -1;
    int at = -1;
    for (int r = 0; r < ct_size; r++)
        if ((double)((r * 5) % 7) > best) {
            best = (double)((r * 5) % 7);
            at = r;
        }
    CHECK(out.v == best && out.i == at, "MAXLOC with the pair type: %g at %d", out.v,
          out.i);
    struct { short v; int i; } sin = { (short)(100 - ct_rank), ct_rank }, sout;
    MPI_Datatype sint;
    MPI_Type_get_value_index(MPI_SHORT, MPI_INT, &sint);
    MPI_Allreduce(&sin, &sout, 1, sint, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(sout.v == 100 - (ct_size - 1) && sout.i == ct_size - 1,
          "MINLOC with short/int: %d at %d", sout.v, sout.i);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    test_vector();
    test_struct();
    test_subarray();
    test_too_large();
    test_value_index();
    return ct_finish();
}
