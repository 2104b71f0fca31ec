/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * datarep.c - MPI_Register_datarep(_c) and the data representations of
 * MPI_File_set_view (MPI 4.1 section 14.5).
 *
 * "xb-off": an MPI_INT is 8 bytes in the file, big-endian, value + 1000
 * (the extent function changes the file extent, the conversions change
 * the bytes). Written with several views (the plain one, a vector
 * filetype whose element displacements scale to the file extents, a
 * derived memory type) and checked against the file's plain bytes, read
 * back, pointers and byte offsets in file units, a read that meets the
 * end of the file, get_type_extent of derived types (element
 * displacements scale, byte displacements do not). The same through
 * MPI_Register_datarep_c. The callbacks call MPI (MPI_Pack/Unpack) under
 * MPI_THREAD_MULTIPLE: they must run with the library lock dropped.
 * Errors: duplicates (MPI_ERR_DUP_DATAREP, also of the predefined names),
 * bad names, an unknown representation, a failing conversion function
 * and MPI_CONVERSION_FN_NULL with wider file extents (MPI_ERR_CONVERSION),
 * errors raised on MPI_FILE_NULL's errhandler; the library usable after
 * each. "external32" against MPI_Pack_external's bytes; "internal".
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iotest.h"

#define N 12                 /* ints per rank */
#define OFF 1000

typedef struct counters { int ext, rd, wr; } counters_t;
static counters_t cnt, cnt_c;

static int ext_fn(MPI_Datatype dt, MPI_Aint *ext, void *extra)
{
    ((counters_t *)extra)->ext++;
    if (dt == MPI_INT) {
        *ext = 8;
        return MPI_SUCCESS;
    }
    return MPI_ERR_TYPE;        /* only ints in this representation */
}

/* Elements of dt (ints only) from item `pos`, `count` items. */
static int span(MPI_Datatype dt, MPI_Count count, MPI_Offset pos, int *first, int *n,
                MPI_Aint *ext)
{
    int sz;
    MPI_Aint lb;
    MPI_Type_size(dt, &sz);
    MPI_Type_get_extent(dt, &lb, ext);
    int per = sz / 4;
    CHECK(per > 0 && pos % per == 0 && count % per == 0,
          "conversion of %lld items from %lld: not whole elements of %d items",
          (long long)count, (long long)pos, per);
    *first = (int)(pos / per);
    *n = (int)(count / per);
    return sz;
}

static int conv(void *userbuf, MPI_Datatype dt, MPI_Count count, void *filebuf,
                MPI_Offset pos, bool write)
{
    int first, n, p = 0;
    MPI_Aint ext;
    int sz = span(dt, count, pos, &first, &n, &ext);
    int32_t *tmp = malloc((size_t)n * (size_t)sz + 1);
    unsigned char *f = filebuf;
    char *at = (char *)userbuf + (MPI_Aint)first * ext;
    if (write) {
        MPI_Pack(at, n, dt, tmp, n * sz, &p, MPI_COMM_SELF);
        for (MPI_Count i = 0; i < count; i++) {
            int64_t v = (int64_t)tmp[i] + OFF;
            for (int b = 0; b < 8; b++)
                f[8 * i + b] = (unsigned char)((uint64_t)v >> (56 - 8 * b));
        }
    } else {
        for (MPI_Count i = 0; i < count; i++) {
            uint64_t v = 0;
            for (int b = 0; b < 8; b++)
                v = v << 8 | f[8 * i + b];
            tmp[i] = (int32_t)((int64_t)v - OFF);
        }
        MPI_Unpack(tmp, n * sz, &p, at, n, dt, MPI_COMM_SELF);
    }
    free(tmp);
    return MPI_SUCCESS;
}

static int rd_fn(void *u, MPI_Datatype dt, int count, void *f, MPI_Offset pos, void *x)
{
    ((counters_t *)x)->rd++;
    return conv(u, dt, count, f, pos, false);
}

static int wr_fn(void *u, MPI_Datatype dt, int count, void *f, MPI_Offset pos, void *x)
{
    ((counters_t *)x)->wr++;
    return conv(u, dt, count, f, pos, true);
}

static int rd_fn_c(void *u, MPI_Datatype dt, MPI_Count count, void *f, MPI_Offset pos, void *x)
{
    ((counters_t *)x)->rd++;
    return conv(u, dt, count, f, pos, false);
}

static int wr_fn_c(void *u, MPI_Datatype dt, MPI_Count count, void *f, MPI_Offset pos, void *x)
{
    ((counters_t *)x)->wr++;
    return conv(u, dt, count, f, pos, true);
}

static int fail_fn(void *u, MPI_Datatype dt, int count, void *f, MPI_Offset pos, void *x)
{
    (void)u; (void)dt; (void)count; (void)f; (void)pos; (void)x;
    return MPI_ERR_OTHER;
}

static int native_ext_fn(MPI_Datatype dt, MPI_Aint *ext, void *extra)
{
    MPI_Aint lb;
    (void)extra;
    return MPI_Type_get_extent(dt, &lb, ext);
}

/* The 8-byte big-endian file value at byte offset `at`. */
static int64_t file_val(const unsigned char *f, long at)
{
    uint64_t v = 0;
    for (int b = 0; b < 8; b++)
        v = v << 8 | f[at + b];
    return (int64_t)v;
}

/* The plain view: rank r's N ints at etype offset r * N. */
static void plain(const char *rep, counters_t *c)
{
    MPI_File fh;
    MPI_Status st;
    int buf[N], back[N + 5], n;
    for (int i = 0; i < N; i++)
        buf[i] = ct_rank * 100 + i;
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("plain"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                           MPI_INFO_NULL, &fh));
    int ext0 = c->ext;
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, rep, MPI_INFO_NULL));
    CHECK(c->ext == ext0, "%s: set_view called the extent function", rep);
    char name[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp;
    MPI_Datatype e, f;
    CHECK_RC(MPI_File_get_view(fh, &disp, &e, &f, name));
    CHECK(strcmp(name, rep) == 0, "get_view datarep '%s', expected '%s'", name, rep);
    CHECK_RC(MPI_File_write_at_all(fh, (MPI_Offset)ct_rank * N, buf, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == N, "%s: write count %d", rep, n);
    CHECK(c->wr > 0 && c->ext > ext0, "%s: callbacks not called (wr %d ext %d)", rep,
          c->wr, c->ext);
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    long len;
    unsigned char *raw = (unsigned char *)io_slurp("plain", &len);
    CHECK(len == (long)ct_size * N * 8, "%s: file size %ld", rep, len);
    for (long i = 0; raw != NULL && i < len / 8; i++)
        CHECK(file_val(raw, 8 * i) == (i / N) * 100 + i % N + OFF,
              "%s: file value %ld is %lld", rep, i, (long long)file_val(raw, 8 * i));
    free(raw);
    /* read back, past the end of the file from the last rank */
    MPI_Offset at = (MPI_Offset)((ct_rank + 1) % ct_size) * N;
    CHECK_RC(MPI_File_read_at(fh, at, back, N + 5, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    long left = (long)ct_size * N - at;
    int expect = left < N + 5 ? (int)left : N + 5;
    CHECK(n == expect, "%s: read count %d, expected %d", rep, n, expect);
    for (int i = 0; i < n && i < expect; i++)
        CHECK(back[i] == (int)((at + i) / N * 100 + (at + i) % N), "%s: read %d is %d",
              rep, i, back[i]);
    MPI_Offset bo;
    CHECK_RC(MPI_File_get_byte_offset(fh, 5, &bo));
    CHECK(bo == 40, "%s: byte offset of etype 5 is %lld", rep, (long long)bo);
    MPI_Count x;
    CHECK_RC(MPI_File_get_type_extent_c(fh, MPI_INT, &x));
    CHECK(x == 8, "%s: file extent of MPI_INT %lld", rep, (long long)x);
    CHECK_RC(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        MPI_File_delete(io_path("plain"), MPI_INFO_NULL);
}

/* A vector filetype (2 ints, stride 3) and a strided memory type: the
 * tile is 3 * 8 + 8 = 32 bytes in the file, ints at 0 and 24. */
static void vector_view(void)
{
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype ft, mt;
    int mem[2 * N], back[2 * N];
    MPI_Type_vector(2, 1, 3, MPI_INT, &ft);
    MPI_Type_commit(&ft);
    MPI_Type_vector(N, 1, 2, MPI_INT, &mt);
    MPI_Type_commit(&mt);
    for (int i = 0; i < 2 * N; i++)
        mem[i] = i % 2 ? -1 : ct_rank * 1000 + i / 2;
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("vec"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                           MPI_INFO_NULL, &fh));
    MPI_Offset disp = (MPI_Offset)ct_rank * (N / 2) * 32;
    CHECK_RC(MPI_File_set_view(fh, disp, MPI_INT, ft, "xb-off", MPI_INFO_NULL));
    CHECK_RC(MPI_File_write(fh, mem, 1, mt, &st));
    MPI_Offset pos, bo;
    CHECK_RC(MPI_File_get_position(fh, &pos));
    CHECK(pos == N, "vector view: position %lld etypes", (long long)pos);
    CHECK_RC(MPI_File_get_byte_offset(fh, 3, &bo));
    CHECK(bo == disp + 32 + 24, "vector view: byte offset of etype 3 is %lld",
          (long long)(bo - disp));
    MPI_Count x;
    CHECK_RC(MPI_File_get_type_extent_c(fh, ft, &x));
    CHECK(x == 32, "file extent of vector(2,1,3,int) %lld", (long long)x);
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    long len;
    unsigned char *raw = (unsigned char *)io_slurp("vec", &len);
    long want_len = (long)ct_size * (N / 2) * 32;
    CHECK(len == want_len, "vector view: file size %ld, expected %ld", len, want_len);
    for (int r = 0; raw != NULL && r < ct_size; r++)
        for (int k = 0; k < N; k++) {
            long at = (long)r * (N / 2) * 32 + (k / 2) * 32 + (k % 2) * 24;
            if (at + 8 <= len)
                CHECK(file_val(raw, at) == r * 1000 + k + OFF, "vector view: rank %d "
                      "value %d at %ld is %lld", r, k, at, (long long)file_val(raw, at));
            if (k % 2 == 0 && at + 16 <= len)   /* a hole of the filetype */
                CHECK(file_val(raw, at + 8) == 0, "vector view: hole at %ld written", at + 8);
        }
    free(raw);
    memset(back, 0x55, sizeof(back));
    CHECK_RC(MPI_File_read_at(fh, 0, back, N, MPI_INT, &st));
    for (int i = 0; i < N; i++)
        CHECK(back[i] == ct_rank * 1000 + i, "vector view: read %d is %d", i, back[i]);
    CHECK_RC(MPI_File_close(&fh));
    MPI_Type_free(&ft);
    MPI_Type_free(&mt);
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        MPI_File_delete(io_path("vec"), MPI_INFO_NULL);
}

/* File extents of derived types: element displacements scale, byte
 * displacements do not (MPI 4.1 section 14.5). */
static void extents(void)
{
    MPI_File fh;
    MPI_Datatype t[8], v;
    MPI_Count x;
    int bl[2] = { 1, 1 }, sizes[2] = { 2, 3 }, sub[2] = { 1, 2 }, st[2] = { 1, 1 };
    MPI_Aint d[2] = { 0, 4 };
    MPI_Datatype ty[2] = { MPI_INT, MPI_INT };
    MPI_Type_create_hvector(2, 1, 12, MPI_INT, &t[0]);      /* 12 + 8 */
    MPI_Type_create_struct(2, bl, d, ty, &t[1]);            /* 4 + 8 */
    MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t[2]);  /* 6 * 8 */
    MPI_Type_create_resized(MPI_INT, 0, 16, &t[3]);        /* 16 as given */
    MPI_Type_indexed(2, bl, (int[]){ 0, 4 }, MPI_INT, &t[4]);  /* 4 * 8 + 8 */
    int gs[1] = { 4 }, dist[1] = { MPI_DISTRIBUTE_BLOCK }, darg[1] = { MPI_DISTRIBUTE_DFLT_DARG },
        ps[1] = { 1 };
    MPI_Type_create_darray(1, 0, 1, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t[5]); /* 4 * 8 */
    MPI_Type_vector(2, 1, 3, MPI_INT, &v);
    MPI_Type_contiguous(2, v, &t[6]);                       /* 2 * 32 */
    MPI_Type_dup(v, &t[7]);                                 /* 32 */
    MPI_Type_free(&v);
    MPI_Count want[8] = { 20, 12, 48, 16, 40, 32, 64, 32 };
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("ext"), MPI_MODE_RDWR | MPI_MODE_CREATE
                           | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "xb-off", MPI_INFO_NULL));
    for (int i = 0; i < 8; i++) {
        CHECK_RC(MPI_File_get_type_extent_c(fh, t[i], &x));
        CHECK(x == want[i], "file extent of type %d: %lld, expected %lld", i,
              (long long)x, (long long)want[i]);
        MPI_Type_free(&t[i]);
    }
    /* an extent function error is MPI_ERR_CONVERSION */
    MPI_Aint a;
    int rc = MPI_File_get_type_extent(fh, MPI_DOUBLE, &a);
    CHECK(io_class(rc) == MPI_ERR_CONVERSION, "extent of MPI_DOUBLE: class %d", io_class(rc));
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    CHECK_RC(MPI_File_get_type_extent(fh, MPI_LONG, &a));
    CHECK(a == 4, "external32 extent of MPI_LONG %ld", (long)a);
    CHECK_RC(MPI_File_get_type_extent(fh, MPI_LONG_DOUBLE, &a));
    CHECK(a == 16, "external32 extent of MPI_LONG_DOUBLE %ld", (long)a);
    CHECK_RC(MPI_File_close(&fh));
}

static int fnull_calls;
static void count_errh(MPI_File *fh, int *code, ...)
{
    (void)fh; (void)code;
    fnull_calls++;
}

static void expect_class(int rc, int cls, const char *what, const char *needle)
{
    CHECK(io_class(rc) == cls, "%s: class %d, expected %d", what, io_class(rc), cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, msg, needle);
}

static void errors(void)
{
    int rc = MPI_Register_datarep("xb-off", rd_fn, wr_fn, ext_fn, &cnt);
    expect_class(rc, MPI_ERR_DUP_DATAREP, "duplicate", "MPI_Register_datarep");
    expect_class(rc, MPI_ERR_DUP_DATAREP, "duplicate", "xb-off");
    const char *pre[3] = { "native", "internal", "external32" };
    for (int i = 0; i < 3; i++) {
        rc = MPI_Register_datarep_c(pre[i], MPI_CONVERSION_FN_NULL_C,
                                    MPI_CONVERSION_FN_NULL_C, native_ext_fn, NULL);
        expect_class(rc, MPI_ERR_DUP_DATAREP, pre[i], pre[i]);
    }
    char longname[MPI_MAX_DATAREP_STRING + 8];
    memset(longname, 'a', sizeof(longname) - 1);
    longname[MPI_MAX_DATAREP_STRING] = '\0';              /* 128 characters */
    rc = MPI_Register_datarep(longname, NULL, NULL, native_ext_fn, NULL);
    expect_class(rc, MPI_ERR_ARG, "long name", "MPI_MAX_DATAREP_STRING");
    longname[MPI_MAX_DATAREP_STRING - 1] = '\0';          /* 127: fits */
    CHECK_RC(MPI_Register_datarep(longname, NULL, NULL, native_ext_fn, NULL));
    rc = MPI_Register_datarep("", NULL, NULL, native_ext_fn, NULL);
    expect_class(rc, MPI_ERR_ARG, "empty name", "datarep");
    rc = MPI_Register_datarep("xb-noext", NULL, NULL, NULL, NULL);
    expect_class(rc, MPI_ERR_ARG, "NULL extent function", "dtype_file_extent_fn");
    /* the errors go to MPI_FILE_NULL's errhandler */
    MPI_Errhandler eh;
    MPI_File_create_errhandler(count_errh, &eh);
    MPI_File_set_errhandler(MPI_FILE_NULL, eh);
    rc = MPI_Register_datarep("xb-off", NULL, NULL, native_ext_fn, NULL);
    CHECK(fnull_calls == 1 && io_class(rc) == MPI_ERR_DUP_DATAREP,
          "MPI_FILE_NULL's errhandler called %d times, class %d", fnull_calls, io_class(rc));
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    MPI_File fh;
    int v[4] = { 1, 2, 3, 4 };
    MPI_Status st;
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("err"), MPI_MODE_RDWR | MPI_MODE_CREATE
                           | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "xb-nosuch", MPI_INFO_NULL);
    expect_class(rc, MPI_ERR_UNSUPPORTED_DATAREP, "unknown datarep", "xb-nosuch");
    /* a failing write conversion */
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "xb-fail", MPI_INFO_NULL));
    rc = MPI_File_write_at(fh, 0, v, 4, MPI_INT, &st);
    expect_class(rc, MPI_ERR_CONVERSION, "failing conversion", "xb-fail");
    /* no conversion function, but 8-byte ints in the file */
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "xb-null-wide", MPI_INFO_NULL));
    rc = MPI_File_write_at(fh, 0, v, 4, MPI_INT, &st);
    expect_class(rc, MPI_ERR_CONVERSION, "null conversion, wide extent", "MPI_CONVERSION_FN_NULL");
    /* an etype without file extent in the representation: the extent
     * function's error at the first access */
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_DOUBLE, "xb-off", MPI_INFO_NULL));
    double dv = 1.5;
    rc = MPI_File_write_at(fh, 0, &dv, 1, MPI_DOUBLE, &st);
    expect_class(rc, MPI_ERR_CONVERSION, "extent function error", "extent function");
    /* still usable: a native round trip */
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "xb-null", MPI_INFO_NULL));
    CHECK_RC(MPI_File_write_at(fh, (MPI_Offset)ct_rank * 4, v, 4, MPI_INT, &st));
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    long len;
    int *raw = (int *)io_slurp("err", &len);
    CHECK(len == (long)ct_size * 16, "xb-null: file size %ld", len);
    for (long i = 0; raw != NULL && i < len / 4; i++)
        CHECK(raw[i] == v[i % 4], "xb-null: file int %ld is %d", i, raw[i]);
    free(raw);
    CHECK_RC(MPI_File_close(&fh));
}

/* external32 against MPI_Pack_external; "internal" is native here. */
typedef struct rec { int i; double d; long l; short s; } rec_t;

static void external32(void)
{
    MPI_Datatype rt;
    int bl[4] = { 1, 1, 1, 1 };
    MPI_Aint d[4] = { offsetof(rec_t, i), offsetof(rec_t, d), offsetof(rec_t, l),
                      offsetof(rec_t, s) };
    MPI_Datatype ty[4] = { MPI_INT, MPI_DOUBLE, MPI_LONG, MPI_SHORT };
    MPI_Type_create_struct(4, bl, d, ty, &rt);
    MPI_Type_commit(&rt);
    enum { R = 5 };
    rec_t recs[R], back[R];
    for (int k = 0; k < R; k++)
        recs[k] = (rec_t){ ct_rank * 10 + k, k + 0.25, -70000 - k, (short)(-k) };
    MPI_Aint one;
    MPI_Pack_external_size("external32", 1, rt, &one);
    CHECK(one == 4 + 8 + 4 + 2, "external32 record size %ld", (long)one);
    char *ref = malloc((size_t)one * R);
    MPI_Aint pos = 0;
    MPI_Pack_external("external32", recs, R, rt, ref, one * R, &pos);
    MPI_File fh;
    MPI_Status st;
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("x32"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                           MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_set_view(fh, (MPI_Offset)ct_rank * one * R, MPI_BYTE, MPI_BYTE,
                               "external32", MPI_INFO_NULL));
    CHECK_RC(MPI_File_write(fh, recs, R, rt, &st));
    int n;
    MPI_Get_count(&st, rt, &n);
    CHECK(n == R, "external32: write count %d", n);
    MPI_Offset p;
    MPI_File_get_position(fh, &p);
    CHECK(p == one * R, "external32: position %lld bytes", (long long)p);
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    long len;
    char *raw = io_slurp("x32", &len);
    CHECK(len == (long)ct_size * one * R, "external32: file size %ld", len);
    CHECK(raw != NULL && len >= (ct_rank + 1) * one * R &&
          memcmp(raw + ct_rank * one * R, ref, (size_t)(one * R)) == 0,
          "external32: file bytes differ from MPI_Pack_external's");
    free(raw);
    memset(back, 0, sizeof(back));
    CHECK_RC(MPI_File_read_at(fh, 0, back, R, rt, &st));
    for (int k = 0; k < R; k++)
        CHECK(back[k].i == recs[k].i && back[k].d == recs[k].d && back[k].l == recs[k].l
              && back[k].s == recs[k].s, "external32: record %d read back wrong", k);
    /* "internal": the native bytes */
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "internal", MPI_INFO_NULL));
    char name[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp;
    MPI_Datatype e, f;
    MPI_File_get_view(fh, &disp, &e, &f, name);
    CHECK(strcmp(name, "internal") == 0, "get_view: '%s'", name);
    CHECK_RC(MPI_File_close(&fh));
    free(ref);
    MPI_Type_free(&rt);
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        MPI_File_delete(io_path("x32"), MPI_INFO_NULL);
}

int main(int argc, char **argv)
{
    int prov;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    CHECK(prov == MPI_THREAD_MULTIPLE, "thread level %d", prov);
    io_setup();
    CHECK_RC(MPI_Register_datarep("xb-off", rd_fn, wr_fn, ext_fn, &cnt));
    CHECK_RC(MPI_Register_datarep_c("xb-off-c", rd_fn_c, wr_fn_c, ext_fn, &cnt_c));
    CHECK_RC(MPI_Register_datarep("xb-fail", rd_fn, fail_fn, ext_fn, &cnt));
    CHECK_RC(MPI_Register_datarep("xb-null", MPI_CONVERSION_FN_NULL,
                                  MPI_CONVERSION_FN_NULL, native_ext_fn, NULL));
    CHECK_RC(MPI_Register_datarep_c("xb-null-wide", MPI_CONVERSION_FN_NULL_C,
                                    MPI_CONVERSION_FN_NULL_C, ext_fn, &cnt));
    plain("xb-off", &cnt);
    CHECK(cnt.rd > 0, "the read conversion function was not called");
    plain("xb-off-c", &cnt_c);
    CHECK(cnt_c.rd > 0 && cnt_c.wr > 0, "the _c conversion functions were not called");
    vector_view();
    extents();
    errors();
    external32();
    io_teardown();
    return ct_finish();
}
