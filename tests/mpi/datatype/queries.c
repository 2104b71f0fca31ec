/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * queries.c - the datatype queries through the MPI interface: large counts
 * (a type of more than 2 GiB: MPI_Type_size says MPI_UNDEFINED, the _c and
 * _x forms the true values), MPI_Type_get_envelope/contents in the int and
 * _c forms, names (a synonym's handle has the standard's first name), f90 types and MPI_Type_match_size, MPI_Aint_add/diff and
 * MPI_BOTTOM with absolute addresses, MPI_Get_elements(_x) of a partial
 * receive of a derived type, and MPI_Pack_external between two ranks.
 */
#include <stdio.h>
#include <string.h>
#include "mpi.h"

static int errs, rank, nprocs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf("rank %d: ", rank); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static void large(void)
{
    MPI_Datatype big, v;
    MPI_Type_contiguous_c((MPI_Count)3 << 30, MPI_BYTE, &big);   /* 3 GiB */
    int size;
    MPI_Count sc, lb, ext;
    MPI_Type_size(big, &size);
    CHECK(size == MPI_UNDEFINED, "MPI_Type_size of 3 GiB gave %d", size);
    MPI_Type_size_c(big, &sc);
    CHECK(sc == (MPI_Count)3 << 30, "MPI_Type_size_c %lld", (long long)sc);
    MPI_Type_size_x(big, &sc);
    CHECK(sc == (MPI_Count)3 << 30, "MPI_Type_size_x %lld", (long long)sc);
    MPI_Type_get_extent_x(big, &lb, &ext);
    CHECK(lb == 0 && ext == (MPI_Count)3 << 30, "get_extent_x %lld", (long long)ext);
    MPI_Type_vector_c((MPI_Count)1 << 32, 1, 2, MPI_BYTE, &v);   /* count > INT_MAX */
    MPI_Type_get_true_extent_c(v, &lb, &ext);
    CHECK(lb == 0 && ext == ((MPI_Count)1 << 33) - 1, "true extent of the large vector %lld",
          (long long)ext);
    MPI_Count ni, na, nl, nd;
    int comb;
    MPI_Type_get_envelope_c(v, &ni, &na, &nl, &nd, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && nl == 3 && ni == 0 && nd == 1,
          "envelope_c of a large vector: %lld ints, %lld large", (long long)ni, (long long)nl);
    MPI_Count L[3];
    MPI_Datatype D[1];
    MPI_Type_get_contents_c(v, 0, 0, 3, 1, NULL, NULL, L, D);
    CHECK(L[0] == (MPI_Count)1 << 32 && L[1] == 1 && L[2] == 2 && D[0] == MPI_BYTE,
          "contents_c of a large vector");
    int i1, i2, i3;
    int rc = MPI_Type_get_envelope(v, &i1, &i2, &i3, &comb);
    CHECK(rc != MPI_SUCCESS, "the int envelope of a large vector succeeded");
    MPI_Count psz;
    MPI_Pack_size_c(2, big, MPI_COMM_WORLD, &psz);
    CHECK(psz >= (MPI_Count)6 << 30, "Pack_size_c %lld", (long long)psz);
    MPI_Pack_size(2, big, MPI_COMM_WORLD, &size);
    CHECK(size == MPI_UNDEFINED, "Pack_size of 6 GiB gave %d", size);
    MPI_Type_free(&v);
    MPI_Type_free(&big);
}

static void contents(void)
{
    int bl[2] = { 1, 3 };
    MPI_Aint dp[2] = { 0, 8 };
    MPI_Datatype ty[2] = { MPI_INT, MPI_DOUBLE }, s, r;
    MPI_Type_create_struct(2, bl, dp, ty, &s);
    MPI_Type_create_resized(s, -8, 64, &r);
    int ni, na, nd, comb;
    MPI_Type_get_envelope(r, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1, "resized envelope");
    MPI_Aint A[2];
    MPI_Datatype D[2];
    MPI_Type_get_contents(r, 0, 2, 1, NULL, A, D);
    CHECK(A[0] == -8 && A[1] == 64 && D[0] == s, "resized contents");
    MPI_Type_free(&D[0]);
    MPI_Type_get_envelope(s, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2, "struct envelope");
    int I[3];
    MPI_Type_get_contents(s, 3, 2, 2, I, A, D);
    CHECK(I[0] == 2 && I[1] == 1 && I[2] == 3 && A[1] == 8 && D[0] == MPI_INT &&
          D[1] == MPI_DOUBLE, "struct contents");
    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_NAMED, "MPI_INT is named");
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_set_name(r, "my resized struct");
    MPI_Type_get_name(r, name, &len);
    CHECK(strcmp(name, "my resized struct") == 0 && len == 17, "name '%s'", name);
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(strcmp(name, "MPI_DOUBLE") == 0, "predefined name '%s'", name);
    /* a handle with a synonym: the standard's first name (as Open MPI, MPICH) */
    MPI_Type_get_name(MPI_LONG_LONG, name, &len);
    CHECK(strcmp(name, "MPI_LONG_LONG_INT") == 0, "MPI_LONG_LONG's name '%s'", name);
    MPI_Type_get_name(MPI_C_FLOAT_COMPLEX, name, &len);
    CHECK(strcmp(name, "MPI_C_COMPLEX") == 0, "MPI_C_FLOAT_COMPLEX's name '%s'", name);
    len = -1;
    int rc = MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len);   /* MPI 4.1 */
    CHECK(rc == MPI_SUCCESS && strcmp(name, "MPI_DATATYPE_NULL") == 0 && len == 17,
          "MPI_DATATYPE_NULL's name: rc %d, '%s'", rc, name);
    MPI_Type_free(&r);
    MPI_Type_free(&s);

    MPI_Datatype f;
    MPI_Type_create_f90_real(15, MPI_UNDEFINED, &f);
    int fs;
    MPI_Type_size(f, &fs);
    MPI_Type_get_envelope(f, &ni, &na, &nd, &comb);
    CHECK(fs == 8 && comb == MPI_COMBINER_F90_REAL && ni == 2, "f90 real(15)");
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &f);
    MPI_Type_size(f, &fs);
    CHECK(fs == 8, "match_size integer 8 has size %d", fs);
}

static void bottom(void)
{
    static int a = 5;
    static double b[2] = { 1.5, 2.5 };
    MPI_Aint aa, ab;
    MPI_Get_address(&a, &aa);
    MPI_Get_address(&b[1], &ab);
    CHECK(MPI_Aint_add(MPI_Aint_diff(ab, aa), aa) == ab, "Aint_add(Aint_diff)");
    int bl[2] = { 1, 1 };
    MPI_Aint dp[2] = { aa, ab };
    MPI_Datatype ty[2] = { MPI_INT, MPI_DOUBLE }, t;
    MPI_Type_create_struct(2, bl, dp, ty, &t);
    MPI_Type_commit(&t);
    char buf[64];
    int pos = 0;
    MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof(buf), &pos, MPI_COMM_WORLD);
    int ia;
    double db;
    memcpy(&ia, buf, 4);
    memcpy(&db, buf + 4, 8);
    CHECK(pos == 12 && ia == 5 && db == 2.5, "pack from MPI_BOTTOM: %d %g", ia, db);
    /* and over the wire, from MPI_BOTTOM to MPI_BOTTOM (to self) */
    static int ra = 0;
    static double rb = 0;
    MPI_Aint rdp[2];
    MPI_Get_address(&ra, &rdp[0]);
    MPI_Get_address(&rb, &rdp[1]);
    MPI_Datatype rt;
    MPI_Type_create_struct(2, bl, rdp, ty, &rt);
    MPI_Type_commit(&rt);
    MPI_Sendrecv(MPI_BOTTOM, 1, t, rank, 4, MPI_BOTTOM, 1, rt, rank, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(ra == 5 && rb == 2.5, "sendrecv MPI_BOTTOM to MPI_BOTTOM: %d %g", ra, rb);
    MPI_Type_free(&rt);
    MPI_Type_free(&t);
}

static void partial_and_external(void)
{
    if (nprocs < 2 || rank > 1)
        return;
    int bl[2] = { 1, 1 };
    MPI_Aint dp[2] = { 0, 8 };
    MPI_Datatype ty[2] = { MPI_INT, MPI_DOUBLE }, s;
    MPI_Type_create_struct(2, bl, dp, ty, &s);
    MPI_Type_commit(&s);
    struct { int i; double d; } v[3] = { { 1, 1.5 }, { 2, 2.5 }, { 3, 3.5 } }, w[3];
    if (rank == 0) {
        MPI_Send(v, 1, s, 1, 1, MPI_COMM_WORLD);       /* 1 of the 3 posted */
        MPI_Send(v, 3, MPI_INT, 1, 2, MPI_COMM_WORLD);   /* 1.5 pairs of ints */
        char ext[64];
        MPI_Aint pos = 0, esz;
        MPI_Pack_external_size("external32", 3, s, &esz);
        CHECK(esz == 36, "external32 size of 3 {int, double} %ld", (long)esz);
        MPI_Pack_external("external32", v, 3, s, ext, sizeof(ext), &pos);
        CHECK(pos == 36 && ext[3] == 1 && (unsigned char)ext[4] == 0x3f, "external32 bytes");
        MPI_Send(ext, (int)pos, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
    } else {
        MPI_Status st;
        MPI_Recv(w, 3, s, 0, 1, MPI_COMM_WORLD, &st);
        int n, e;
        MPI_Get_count(&st, s, &n);
        MPI_Get_elements(&st, s, &e);
        MPI_Count ex;
        MPI_Get_elements_x(&st, s, &ex);
        CHECK(n == 1 && e == 2 && ex == 2, "one struct: count %d, elements %d/%lld",
              n, e, (long long)ex);
        MPI_Datatype r;
        MPI_Type_contiguous(2, MPI_INT, &r);
        MPI_Type_commit(&r);
        MPI_Recv(w, 3, r, 0, 2, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, r, &n);
        MPI_Get_elements(&st, r, &e);
        CHECK(n == MPI_UNDEFINED && e == 3, "3 ints as pairs: count %d, elements %d", n, e);
        MPI_Type_free(&r);
        char ext[64];
        MPI_Recv(ext, 64, MPI_BYTE, 0, 3, MPI_COMM_WORLD, &st);
        MPI_Aint pos = 0;
        memset(w, 0, sizeof(w));
        MPI_Unpack_external("external32", ext, 36, &pos, w, 3, s);
        CHECK(pos == 36 && w[0].i == 1 && w[2].d == 3.5, "unpack_external %d %g", w[0].i, w[2].d);
    }
    MPI_Type_free(&s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    large();
    contents();
    bottom();
    partial_and_external();
    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
