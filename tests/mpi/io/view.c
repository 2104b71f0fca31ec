/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * view.c - file views: the classic block-cyclic distribution written with
 * write_all through an interleaved filetype and checked against the plain
 * bytes of the file, read back with another block size; a view with holes
 * and a 12-byte etype (offsets, positions, byte offsets, SEEK_END counted
 * in etypes, the holes left untouched); a 2-D subarray view;
 * get_view/get_type_extent.
 */
#include "iotest.h"

#define K 50          /* blocks per rank */

static void block_cyclic(void)
{
    int P = ct_size, me = ct_rank, B = 7, B2 = 3;
    long G = (long)P * B * K;
    MPI_File fh;
    MPI_Datatype blk, ftype;
    MPI_Status st;
    int *buf = malloc(sizeof(int) * (size_t)G), n;
    /* my blocks: r, r + P, ... of B ints each */
    MPI_Type_contiguous(B, MPI_INT, &blk);
    MPI_Type_create_resized(blk, 0, (MPI_Aint)P * B * 4, &ftype);
    MPI_Type_commit(&ftype);
    for (int k = 0; k < K; k++)
        for (int i = 0; i < B; i++)
            buf[k * B + i] = (k * P + me) * B + i;       /* the global index */
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("bc"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                           MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_set_view(fh, (MPI_Offset)me * B * 4, MPI_INT, ftype, "native",
                               MPI_INFO_NULL));
    CHECK_RC(MPI_File_write_all(fh, buf, B * K, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == B * K, "write_all count %d", n);
    MPI_Offset pos;
    CHECK_RC(MPI_File_get_position(fh, &pos));
    CHECK(pos == B * K, "position %lld etypes", (long long)pos);
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    long len;
    int *f = (int *)io_slurp("bc", &len);
    CHECK(len == G * 4, "file size %ld", len);
    for (long i = 0; f != NULL && i < G && i < len / 4; i++)
        if (f[i] != (int)i) {
            CHECK(0, "file int %ld is %d", i, f[i]);
            break;
        }
    free(f);
    MPI_Type_free(&ftype);
    MPI_Type_free(&blk);
    /* another layout: blocks of B2 */
    MPI_Type_contiguous(B2, MPI_INT, &blk);
    MPI_Type_create_resized(blk, 0, (MPI_Aint)P * B2 * 4, &ftype);
    MPI_Type_commit(&ftype);
    CHECK_RC(MPI_File_set_view(fh, (MPI_Offset)me * B2 * 4, MPI_INT, ftype, "native",
                               MPI_INFO_NULL));
    int mine = (int)(G / (P * B2)) * B2;                 /* whole blocks */
    CHECK_RC(MPI_File_read_at_all(fh, 0, buf, mine + 2 * B2, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    int extra = (int)(G - (long)mine * P);               /* a tail past the whole blocks */
    int want = mine + (extra > me * B2 ? (extra - me * B2 < B2 ? extra - me * B2 : B2) : 0);
    CHECK(n == want, "read count %d, expected %d", n, want);
    for (int j = 0; j < n; j++) {
        long g = ((long)(j / B2) * P + me) * B2 + j % B2;
        if (buf[j] != (int)g) {
            CHECK(0, "read int %d is %d, expected %ld", j, buf[j], g);
            break;
        }
    }
    MPI_Type_free(&ftype);
    MPI_Type_free(&blk);
    CHECK_RC(MPI_File_close(&fh));
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        CHECK_RC(MPI_File_delete(io_path("bc"), MPI_INFO_NULL));
}

/* A 12-byte etype; the filetype holds etypes 0, 3, 4 of every 6. */
static const int slot[3] = { 0, 3, 4 };

static void holes(void)
{
    MPI_File fh;
    MPI_Datatype et, idx, ft, e2, f2;
    MPI_Status st;
    int blens[2] = { 1, 2 }, disps[2] = { 0, 3 }, n;
    const MPI_Offset D = 20;
    MPI_Type_contiguous(3, MPI_INT, &et);
    MPI_Type_commit(&et);
    MPI_Type_indexed(2, blens, disps, et, &idx);
    MPI_Type_create_resized(idx, 0, 6 * 12, &ft);
    MPI_Type_commit(&ft);
    /* rank 0 fills 8 tiles with 0x5a through POSIX (the holes' content) */
    if (ct_rank == 0) {
        int fd = open(io_path("h"), O_WRONLY | O_CREAT, 0644);
        char fill[D + 8 * 72];
        memset(fill, 0x5a, sizeof(fill));
        CHECK(fd >= 0 && write(fd, fill, sizeof(fill)) == (ssize_t)sizeof(fill), "fill");
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("h"), MPI_MODE_RDWR |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_set_view(fh, D, et, ft, "native", MPI_INFO_NULL));
    /* each rank writes etypes rank, rank + P, ... (24 etypes in 8 tiles) */
    for (int j = ct_rank; j < 24; j += ct_size) {
        int v[3] = { j, -j, j * 100 };
        CHECK_RC(MPI_File_write_at(fh, j, v, 3, MPI_INT, &st));
        MPI_Get_count(&st, et, &n);
        CHECK(n == 1, "etype count %d", n);
    }
    MPI_Offset b;
    CHECK_RC(MPI_File_get_byte_offset(fh, 4, &b));
    CHECK(b == D + 72 + 3 * 12, "byte offset of etype 4: %lld", (long long)b);
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    long len;
    unsigned char *f = (unsigned char *)io_slurp("h", &len);
    CHECK(len == D + 8 * 72, "size %ld", len);
    for (int j = 0; f != NULL && j < 24; j++) {
        int v[3];
        memcpy(v, f + D + (j / 3) * 72 + slot[j % 3] * 12, 12);
        CHECK(v[0] == j && v[1] == -j && v[2] == j * 100, "etype %d: %d %d %d", j, v[0],
              v[1], v[2]);
    }
    for (int t = 0; f != NULL && t < 8; t++)
        for (int e = 0; e < 6; e++)
            if (e == 1 || e == 2 || e == 5)
                for (int k = 0; k < 12; k++)
                    if (f[D + t * 72 + e * 12 + k] != 0x5a) {
                        CHECK(0, "hole byte of tile %d etype %d written", t, e);
                        k = 12;
                    }
    CHECK(f == NULL || (f[0] == 0x5a && f[D - 1] == 0x5a), "displacement bytes written");
    free(f);
    /* read through the view with one call: 24 etypes, and SEEK_END */
    int all[72];
    CHECK_RC(MPI_File_read_at_all(fh, 0, all, 100, et, &st));
    MPI_Get_count(&st, et, &n);
    CHECK(n == 24, "read %d etypes", n);
    for (int j = 0; j < 24 && n == 24; j++)
        CHECK(all[3 * j] == j && all[3 * j + 2] == j * 100, "read etype %d", j);
    MPI_Offset pos;
    CHECK_RC(MPI_File_seek(fh, -2, MPI_SEEK_END));
    CHECK_RC(MPI_File_get_position(fh, &pos));
    CHECK(pos == 22, "SEEK_END - 2: %lld", (long long)pos);
    MPI_Offset disp;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK_RC(MPI_File_get_view(fh, &disp, &e2, &f2, rep));
    MPI_Aint lb, ext;
    MPI_Count cext;
    MPI_Type_get_extent(f2, &lb, &ext);
    CHECK(disp == D && strcmp(rep, "native") == 0 && ext == 72, "get_view %lld %s %ld",
          (long long)disp, rep, (long)ext);
    CHECK_RC(MPI_File_get_type_extent(fh, e2, &ext));
    CHECK_RC(MPI_File_get_type_extent_c(fh, f2, &cext));
    CHECK(ext == 12 && cext == 72, "type extents %ld %lld", (long)ext, (long long)cext);
    MPI_Type_free(&e2);
    MPI_Type_free(&f2);
    /* the view's filetype must be made of etypes */
    int rc = MPI_File_set_view(fh, 0, et, MPI_INT, "native", MPI_INFO_NULL);
    CHECK(io_class(rc) == MPI_ERR_TYPE, "filetype not of etypes: class %d", io_class(rc));
    CHECK_RC(MPI_File_close(&fh));
    MPI_Type_free(&ft);
    MPI_Type_free(&idx);
    MPI_Type_free(&et);
}

/* Rows x cols doubles, cut in P row blocks of a 2-D array; rank r writes its
 * block through a subarray view with write_all. */
static void subarray(void)
{
    int P = ct_size, me = ct_rank, R = 4 * P, C = 6;
    int sizes[2] = { R, C }, subs[2] = { 4, C - 2 }, starts[2] = { 4 * me, 1 };
    MPI_Datatype sub;
    MPI_File fh;
    double v[4 * 6];
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);
    MPI_Type_commit(&sub);
    for (int i = 0; i < 4 * (C - 2); i++)
        v[i] = (4 * me + i / (C - 2)) * 100 + 1 + i % (C - 2);
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("sub"), MPI_MODE_RDWR | MPI_MODE_CREATE |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_set_size(fh, (MPI_Offset)R * C * 8));
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_DOUBLE, sub, "native", MPI_INFO_NULL));
    CHECK_RC(MPI_File_write_all(fh, v, 4 * (C - 2), MPI_DOUBLE, MPI_STATUS_IGNORE));
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    long len;
    double *f = (double *)io_slurp("sub", &len);
    CHECK(len == (long)R * C * 8, "subarray file size %ld", len);
    for (int r = 0; f != NULL && r < R; r++)
        for (int c = 0; c < C; c++) {
            double want = (c == 0 || c == C - 1) ? 0.0 : r * 100 + c;
            if (f[r * C + c] != want) {
                CHECK(0, "element (%d,%d) is %g, expected %g", r, c, f[r * C + c], want);
                r = R;
                break;
            }
        }
    free(f);
    CHECK_RC(MPI_File_close(&fh));
    MPI_Type_free(&sub);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    io_setup();
    block_cyclic();
    holes();
    subarray();
    io_teardown();
    return ct_finish();
}
