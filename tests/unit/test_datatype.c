/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_datatype.c - the datatype engine against hand-computed values: the
 * predefined table (sizes, pair types' holes), the standard's constructor
 * examples (sizes, bounds, true bounds, struct padding, lb/ub markers of
 * resized types), pack/unpack/iovec of small types, MPI_Get_elements, the
 * basic type of reductions, and the error paths with their messages.
 */
#include <stdio.h>
#include <string.h>
#include "datatype/dt_types.h"
#include "xb_impl.h"

#include "unit_check.h"

#define T(h) xb_dt_from_handle(h)

static xb_datatype_t *commit(MPI_Datatype h)
{
    int rc = xb_impl_type_commit(&h);
    CHECK(rc == XB_OK, "commit failed: %d %s", rc, xb_err_detail());
    return T(h);
}

static void free_type(xb_datatype_t *dt)
{
    MPI_Datatype h = xb_dt_to_handle(dt);
    int rc = xb_impl_type_free(&h);
    CHECK(rc == XB_OK && h == MPI_DATATYPE_NULL, "free failed: %d", rc);
}

static void check_bounds(const char *what, xb_datatype_t *dt, MPI_Count size,
                         MPI_Aint lb, MPI_Aint extent, MPI_Aint tlb, MPI_Aint text)
{
    MPI_Count s, l, e, tl, te;
    xb_impl_type_size(dt, &s);
    xb_impl_type_get_extent(dt, &l, &e);
    xb_impl_type_get_true_extent(dt, &tl, &te);
    CHECK(s == size, "%s: size %lld, want %lld", what, (long long)s, (long long)size);
    CHECK(l == lb && e == extent, "%s: lb/extent %lld/%lld, want %lld/%lld", what,
          (long long)l, (long long)e, (long long)lb, (long long)extent);
    CHECK(tl == tlb && te == text, "%s: true lb/extent %lld/%lld, want %lld/%lld",
          what, (long long)tl, (long long)te, (long long)tlb, (long long)text);
}

static void test_predefined(void)
{
    check_bounds("MPI_INT", T(MPI_INT), sizeof(int), 0, sizeof(int), 0, sizeof(int));
    check_bounds("MPI_DOUBLE_INT", T(MPI_DOUBLE_INT), 12, 0, 16, 0, 12);
    check_bounds("MPI_SHORT_INT", T(MPI_SHORT_INT), 6, 0, 8, 0, 8);
    check_bounds("MPI_FLOAT_INT", T(MPI_FLOAT_INT), 8, 0, 8, 0, 8);
    check_bounds("MPI_LONG_DOUBLE_INT", T(MPI_LONG_DOUBLE_INT),
                 sizeof(long double) + 4, 0, 2 * sizeof(long double), 0,
                 sizeof(long double) + 4);
    check_bounds("MPI_COMPLEX32", T(MPI_COMPLEX32), 32, 0, 32, 0, 32);
    check_bounds("MPI_C_BOOL", T(MPI_C_BOOL), 1, 0, 1, 0, 1);
    CHECK(xb_dt_is_contig(T(MPI_DOUBLE), 100), "MPI_DOUBLE not contiguous");
    CHECK(xb_dt_is_contig(T(MPI_DOUBLE_INT), 1), "one MPI_DOUBLE_INT is 12 bytes in a row");
    CHECK(!xb_dt_is_contig(T(MPI_DOUBLE_INT), 2), "MPI_DOUBLE_INT has trailing padding");
    CHECK(!xb_dt_is_contig(T(MPI_SHORT_INT), 1), "MPI_SHORT_INT has a hole");
    CHECK(xb_dt_is_contig(T(MPI_2INT), 7), "MPI_2INT is contiguous");
    CHECK(strcmp(xb_dt_name(T(MPI_INT)), "MPI_INT") == 0, "name %s", xb_dt_name(T(MPI_INT)));
    CHECK(T(MPI_DATATYPE_NULL) == NULL, "MPI_DATATYPE_NULL resolves");
    CHECK(T((MPI_Datatype)0x2ff) == NULL, "unassigned handle resolves");
    CHECK(xb_dt_is_committed(T(MPI_BYTE)) && xb_dt_is_predefined(T(MPI_BYTE)),
          "MPI_BYTE flags");
    CHECK(xb_dt_to_handle(T(MPI_FLOAT)) == MPI_FLOAT, "to_handle");

    /* MPI_DOUBLE_INT: pack skips the 4 padding bytes. */
    struct { double d; int i; } di[2] = { { 1.5, 7 }, { 2.5, 9 } };
    char packed[24];
    size_t done;
    xb_dt_pack(di, 2, T(MPI_DOUBLE_INT), 0, packed, sizeof(packed), &done);
    double d;
    int i;
    memcpy(&d, packed + 12, 8);
    memcpy(&i, packed + 20, 4);
    CHECK(done == 24 && d == 2.5 && i == 9, "pack MPI_DOUBLE_INT: %zu %g %d", done, d, i);
    MPI_Count n = xb_dt_elements(T(MPI_DOUBLE_INT), 20);
    CHECK(n == 3, "elements of 20 bytes of MPI_DOUBLE_INT: %lld", (long long)n);
    n = xb_dt_elements(T(MPI_DOUBLE_INT), 22);
    CHECK(n == MPI_UNDEFINED, "elements of 22 bytes: %lld", (long long)n);
}

/* The standard's oldtype {(double,0),(char,8)}: extent 16. */
static xb_datatype_t *dc_type(void)
{
    MPI_Count bl[2] = { 1, 1 }, dp[2] = { 0, 8 };
    MPI_Datatype ty[2] = { MPI_DOUBLE, MPI_CHAR }, h;
    int rc = xb_impl_type_create_struct(2, bl, dp, ty, &h, false);
    CHECK(rc == XB_OK, "struct: %d", rc);
    check_bounds("{double,char}", T(h), 9, 0, 16, 0, 9);
    return T(h);
}

static void test_constructors(void)
{
    xb_datatype_t *dc = dc_type();
    MPI_Datatype h;

    int rc = xb_impl_type_vector(2, 3, 4, dc, &h, false);
    CHECK(rc == XB_OK, "vector: %d %s", rc, xb_err_detail());
    check_bounds("vector(2,3,4)", T(h), 54, 0, 112, 0, 105);
    free_type(T(h));

    xb_impl_type_vector(3, 1, -2, dc, &h, false);
    check_bounds("vector(3,1,-2)", T(h), 27, -64, 80, -64, 73);
    free_type(T(h));

    MPI_Count bl[2] = { 3, 1 }, dp[2] = { 4, 0 };
    xb_impl_type_indexed(2, bl, dp, dc, &h, false);
    check_bounds("indexed", T(h), 36, 0, 112, 0, 105);
    free_type(T(h));

    MPI_Count sbl[3] = { 2, 1, 3 }, sdp[3] = { 0, 16, 26 };
    MPI_Datatype sty[3] = { MPI_FLOAT, xb_dt_to_handle(dc), MPI_CHAR };
    xb_impl_type_create_struct(3, sbl, sdp, sty, &h, false);
    check_bounds("struct example", T(h), 20, 0, 32, 0, 29);
    xb_datatype_t *st = commit(h);
    CHECK(xb_dt_basic(st, &(MPI_Count){0}) == NULL, "mixed struct has no basic type");
    CHECK(xb_dt_elements(st, 20) == 7, "elements %lld", (long long)xb_dt_elements(st, 20));
    CHECK(xb_dt_elements(st, 16) == 3, "elements(16) %lld", (long long)xb_dt_elements(st, 16));
    CHECK(xb_dt_elements(st, 17) == 4, "elements(17) %lld", (long long)xb_dt_elements(st, 17));
    CHECK(xb_dt_elements(st, 13) == MPI_UNDEFINED, "elements(13)");
    CHECK(xb_dt_elements(st, 40) == 14, "elements(40)");
    free_type(st);

    xb_impl_type_create_hvector(2, 2, 100, T(MPI_INT), &h, false);
    check_bounds("hvector", T(h), 16, 0, 108, 0, 108);
    xb_datatype_t *hv = commit(h);
    MPI_Count per = 0;
    CHECK(xb_dt_basic(hv, &per) == T(MPI_INT) && per == 4, "basic of hvector");
    free_type(hv);

    MPI_Count ibd[3] = { 5, 1, 3 };
    xb_impl_type_create_indexed_block(3, 2, ibd, T(MPI_SHORT), &h, false);
    check_bounds("indexed_block", T(h), 12, 2, 12, 2, 12);
    free_type(T(h));

    MPI_Count hbd[2] = { 0, -20 };
    xb_impl_type_create_hindexed_block(2, 3, hbd, T(MPI_SHORT), &h, false);
    check_bounds("hindexed_block", T(h), 12, -20, 26, -20, 26);
    xb_datatype_t *hb = commit(h);
    short sh[16], shp[6];
    for (int i = 0; i < 16; i++)
        sh[i] = (short)i;
    size_t hdone;
    xb_dt_pack(sh + 10, 1, hb, 0, shp, sizeof(shp), &hdone);
    CHECK(hdone == 12 && shp[0] == 10 && shp[2] == 12 && shp[3] == 0 && shp[5] == 2,
          "pack hindexed_block");
    free_type(hb);

    MPI_Count hbl[2] = { 1, 2 }, hdp[2] = { 40, -8 };
    xb_impl_type_create_hindexed(2, hbl, hdp, T(MPI_DOUBLE), &h, false);
    check_bounds("hindexed", T(h), 24, -8, 56, -8, 56);
    free_type(T(h));

    xb_impl_type_contiguous(0, T(MPI_INT), &h, false);
    check_bounds("contiguous(0)", T(h), 0, 0, 0, 0, 0);
    xb_datatype_t *z = commit(h);
    CHECK(xb_dt_is_contig(z, 5), "empty type is trivially contiguous");
    free_type(z);
    free_type(dc);
}

static void test_resized(void)
{
    MPI_Datatype h, h2, h3;
    xb_impl_type_create_resized(T(MPI_INT), -4, 16, &h, false);
    check_bounds("resized int", T(h), 4, -4, 16, 0, 4);
    xb_impl_type_contiguous(2, T(h), &h2, false);
    check_bounds("contiguous(2, resized)", T(h2), 8, -4, 32, 0, 20);
    /* markers are sticky: the int at 100 does not move lb/ub */
    MPI_Count bl[2] = { 1, 1 }, dp[2] = { 0, 100 };
    MPI_Datatype ty[2] = { h, MPI_INT };
    xb_impl_type_create_struct(2, bl, dp, ty, &h3, false);
    check_bounds("struct(resized, int@100)", T(h3), 8, -4, 16, 0, 104);
    xb_datatype_t *c = commit(h2);
    CHECK(!xb_dt_is_contig(c, 1), "contiguous(2, resized int) has a hole");
    int src[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, out[4] = { 0 };
    size_t done;
    /* count 2 of c: ints at 0,16 | 32,48 bytes -> src[0], src[4], src[8?] */
    xb_dt_pack(src, 1, c, 0, out, sizeof(out), &done);
    CHECK(done == 8 && out[0] == 0 && out[1] == 4, "pack resized: %zu %d %d",
          done, out[0], out[1]);
    free_type(T(h3));
    free_type(c);
    free_type(T(h));
}

static void test_pack(void)
{
    MPI_Datatype h;
    xb_impl_type_vector(3, 2, 4, T(MPI_INT), &h, false);
    xb_datatype_t *v = commit(h);
    int src[24], out[12], back[24];
    for (int i = 0; i < 24; i++)
        src[i] = i;
    size_t done;
    xb_dt_pack(src, 2, v, 0, out, sizeof(out), &done);
    int want[12] = { 0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19 };
    CHECK(done == 48 && memcmp(out, want, 48) == 0, "pack vector");
    /* partial pack from an offset inside an element */
    char part[7];
    xb_dt_pack(src, 2, v, 6, part, 7, &done);
    CHECK(done == 7 && memcmp(part, (char *)want + 6, 7) == 0, "partial pack");
    memset(back, -1, sizeof(back));
    int rc = xb_dt_unpack(back, 2, v, 0, out, 48);
    CHECK(rc == XB_OK && back[10] == 10 && back[12] == -1 && back[19] == 19,
          "unpack vector");
    struct iovec iov[4];
    int niov;
    xb_dt_to_iov(src, 2, v, 4, iov, 4, &niov, &done);
    CHECK(niov == 4 && done == 4 + 8 + 16 + 8 && iov[0].iov_base == (void *)&src[1] &&
          iov[2].iov_len == 16, "to_iov: %d entries, %zu bytes", niov, done);
    rc = xb_dt_unpack(back, 2, v, 40, out, 16);
    CHECK(rc == XB_ERR_TRUNCATE, "unpack past the end: %d", rc);

    /* xb_dt_copy between the vector and a contiguous MPI_INT buffer */
    int cont[12];
    rc = xb_dt_copy(src, 2, v, cont, 12, T(MPI_INT));
    CHECK(rc == XB_OK && memcmp(cont, want, 48) == 0, "copy vector->int");

    /* MPI_Pack / MPI_Unpack with positions */
    char buf[64];
    MPI_Count pos = 3;
    rc = xb_impl_pack(src, 1, v, buf, sizeof(buf), &pos, NULL);
    CHECK(rc == XB_OK && pos == 27, "pack position %lld", (long long)pos);
    pos = 41;
    rc = xb_impl_pack(src, 1, v, buf, sizeof(buf), &pos, NULL);
    CHECK(rc == XB_ERR_TRUNCATE, "pack overflow: %d", rc);
    pos = 3;
    memset(back, 0, sizeof(back));
    rc = xb_impl_unpack(buf, 27, &pos, back, 1, v, NULL);
    CHECK(rc == XB_OK && pos == 27 && back[9] == 9 && back[8] == 8 && back[7] == 0,
          "unpack position");
    MPI_Count ps;
    xb_impl_pack_size(5, v, NULL, &ps);
    CHECK(ps == 120, "pack_size %lld", (long long)ps);
    free_type(v);
}

static void test_errors(void)
{
    MPI_Datatype h = MPI_INT;
    int rc = xb_impl_type_free(&h);
    CHECK(rc == XB_ERR_TYPE && strstr(xb_err_detail(), "predefined datatype MPI_INT"),
          "free MPI_INT: %d '%s'", rc, xb_err_detail());
    CHECK(h == MPI_INT, "handle kept on error");
    MPI_Count bl[2] = { 1, -1 }, dp[2] = { 0, 4 };
    rc = xb_impl_type_indexed(2, bl, dp, T(MPI_INT), &h, false);
    CHECK(rc == XB_ERR_ARG && strstr(xb_err_detail(), "negative block length"),
          "negative blocklength: %d '%s'", rc, xb_err_detail());
    rc = xb_impl_type_create_hindexed(2, NULL, dp, T(MPI_INT), &h, false);
    CHECK(rc == XB_ERR_ARG, "NULL blocklengths: %d", rc);
    MPI_Datatype ty[2] = { MPI_INT, MPI_DATATYPE_NULL };
    MPI_Count sb[2] = { 1, 1 };
    rc = xb_impl_type_create_struct(2, sb, dp, ty, &h, false);
    CHECK(rc == XB_ERR_TYPE && strstr(xb_err_detail(), "array_of_types[1]"),
          "struct with null type: %d '%s'", rc, xb_err_detail());
    rc = xb_impl_type_vector((MPI_Count)1 << 40, (MPI_Count)1 << 30, 1,
                             T(MPI_DOUBLE), &h, false);
    CHECK(rc == XB_ERR_ARG && strstr(xb_err_detail(), "larger"), "too large: %d", rc);
    rc = xb_impl_type_contiguous(4, T(MPI_INT), &h, false);
    xb_datatype_t *u = T(h);
    size_t done;
    char out[16];
    rc = xb_dt_pack((int[4]){0}, 1, u, 0, out, 16, &done);
    CHECK(rc == XB_ERR_TYPE, "uncommitted type: %d", rc);
    MPI_Datatype vh;
    xb_impl_type_vector(2, 1, 2, T(MPI_INT), &vh, false);
    rc = xb_dt_pack((int[4]){0}, 1, T(vh), 0, out, 16, &done);
    CHECK(rc == XB_ERR_TYPE, "uncommitted vector: %d", rc);
    free_type(T(vh));
    /* the derived type outlives the freed child */
    MPI_Datatype c2;
    xb_impl_type_contiguous(2, u, &c2, false);
    free_type(u);
    xb_datatype_t *c = commit(c2);
    check_bounds("contiguous of freed child", c, 32, 0, 32, 0, 32);
    CHECK(xb_dt_is_contig(c, 3), "contiguous of contiguous");
    /* names; dup keeps it and is committed */
    xb_impl_type_set_name(c, "pairs");
    MPI_Datatype d;
    xb_impl_type_dup(c, &d);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    xb_impl_type_get_name(T(d), name, &len);
    CHECK(len == 5 && strcmp(name, "pairs") == 0 && xb_dt_is_committed(T(d)),
          "dup: '%s' %d", name, len);
    free_type(T(d));
    free_type(c);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    xb_dt_init();
    test_predefined();
    test_constructors();
    test_resized();
    test_pack();
    test_errors();
    xb_dt_fini();
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("test_datatype: all checks passed\n");
    return 0;
}
