/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * extents.c - sizes, extents and true extents of predefined and derived
 * types, the lb/ub markers of resized types (sticky in a struct), names,
 * Type_dup, Get_address.
 */
#include <stdio.h>
#include <string.h>
#include "mpi.h"

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

static void expect(const char *what, MPI_Datatype t, int size, MPI_Aint lb,
                   MPI_Aint ext, MPI_Aint tlb, MPI_Aint text)
{
    int s;
    MPI_Aint l, e, tl, te;
    MPI_Type_size(t, &s);
    MPI_Type_get_extent(t, &l, &e);
    MPI_Type_get_true_extent(t, &tl, &te);
    CHECK(s == size && l == lb && e == ext && tl == tlb && te == text,
          "%s: size %d lb %ld extent %ld true %ld/%ld; want %d %ld %ld %ld/%ld", what,
          s, (long)l, (long)e, (long)tl, (long)te, size, (long)lb, (long)ext,
          (long)tlb, (long)text);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    expect("MPI_INT", MPI_INT, sizeof(int), 0, sizeof(int), 0, sizeof(int));
    expect("MPI_DOUBLE_INT", MPI_DOUBLE_INT, 12, 0, 16, 0, 12);
    expect("MPI_SHORT_INT", MPI_SHORT_INT, 6, 0, 8, 0, 8);
    expect("MPI_2INT", MPI_2INT, 8, 0, 8, 0, 8);

    MPI_Datatype r, c, st, v;
    MPI_Type_create_resized(MPI_INT, -4, 16, &r);
    expect("resized", r, 4, -4, 16, 0, 4);
    MPI_Type_contiguous(3, r, &c);
    expect("contiguous(3, resized)", c, 12, -4, 48, 0, 36);
    int bl[2] = { 1, 1 };
    MPI_Aint dp[2] = { 0, 100 };
    MPI_Datatype ty[2] = { r, MPI_INT };
    MPI_Type_create_struct(2, bl, dp, ty, &st);
    expect("struct(resized, int@100)", st, 8, -4, 16, 0, 104);
    MPI_Type_vector(3, 2, -4, MPI_DOUBLE, &v);
    expect("vector(3,2,-4)", v, 48, -64, 80, -64, 80);

    /* {double, char} pads to 16 */
    MPI_Datatype dc;
    MPI_Aint dp2[2] = { 0, 8 };
    MPI_Datatype ty2[2] = { MPI_DOUBLE, MPI_CHAR };
    MPI_Type_create_struct(2, bl, dp2, ty2, &dc);
    expect("{double,char}", dc, 9, 0, 16, 0, 9);

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "name '%s'", name);
    MPI_Type_set_name(dc, "double_char");
    MPI_Datatype dup;
    MPI_Type_commit(&dc);
    MPI_Type_dup(dc, &dup);
    MPI_Type_get_name(dup, name, &len);
    CHECK(strcmp(name, "double_char") == 0, "dup name '%s'", name);
    expect("dup", dup, 9, 0, 16, 0, 9);
    /* a dup of a committed type can be used without commit */
    struct { double x; char y; } a[2] = { { 1, 'x' }, { 2, 'y' } }, b[2];
    MPI_Sendrecv(a, 2, dup, 0, 0, b, 2, dc, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    CHECK(b[1].x == 2 && b[1].y == 'y', "sendrecv of dup");

    int arr[4];
    MPI_Aint a0, a3;
    MPI_Get_address(&arr[0], &a0);
    MPI_Get_address(&arr[3], &a3);
    CHECK(a3 - a0 == 3 * (MPI_Aint)sizeof(int), "Get_address difference %ld", (long)(a3 - a0));

    MPI_Type_free(&r);
    MPI_Type_free(&c);
    MPI_Type_free(&st);
    MPI_Type_free(&v);
    MPI_Type_free(&dc);
    MPI_Type_free(&dup);
    if (errs == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
