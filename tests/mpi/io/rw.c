/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rw.c - reads and writes with explicit offsets and the individual file
 * pointer, against plain POSIX reads of the file: each rank writes its
 * pattern with one layout (write_at, then write/write_all through the
 * pointer, then a derived memory type), the file is compared byte by byte
 * with the expected content, and it is read back with another layout.
 * Short reads at the end of the file, MPI_Get_count/Get_elements on file
 * statuses, seek/get_position/get_byte_offset, the nonblocking forms
 * (iread/iwrite(_at)(_all) completed by MPI_Wait/Test/Waitall) and the
 * split collectives.
 */
#include "iotest.h"

#define N 1000                 /* ints per rank and phase */

static int val(int rank, int phase, int i)
{
    return rank * 1000003 + phase * 10007 + i;
}

/* The file must hold, for each rank r, phase p's N ints at (p*P + r)*N. */
static void check_file(const char *name, int phases)
{
    long len;
    int P = ct_size;
    MPI_Barrier(MPI_COMM_WORLD);
    int *f = (int *)io_slurp(name, &len);
    CHECK(len == (long)phases * P * N * 4, "%s: size %ld", name, len);
    for (int p = 0; p < phases && f != NULL && len >= (long)phases * P * N * 4; p++)
        for (int r = 0; r < P; r++)
            for (int i = 0; i < N; i++)
                if (f[(p * P + r) * N + i] != val(r, p, i)) {
                    CHECK(0, "%s: phase %d rank %d int %d is %d", name, p, r, i,
                          f[(p * P + r) * N + i]);
                    i = N;
                }
    free(f);
}

static void write_phases(MPI_File fh)
{
    int P = ct_size, me = ct_rank, buf[N], n;
    MPI_Status st;
    /* phase 0: explicit offset (bytes: the default view) */
    for (int i = 0; i < N; i++)
        buf[i] = val(me, 0, i);
    CHECK_RC(MPI_File_write_at(fh, (MPI_Offset)me * N * 4, buf, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == N, "write_at count %d", n);
    /* phase 1: individual pointer, two halves, seek in between */
    for (int i = 0; i < N; i++)
        buf[i] = val(me, 1, i);
    CHECK_RC(MPI_File_seek(fh, (MPI_Offset)(P + me) * N * 4, MPI_SEEK_SET));
    CHECK_RC(MPI_File_write(fh, buf, N / 2, MPI_INT, &st));
    MPI_Offset pos, byte;
    CHECK_RC(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)(P + me) * N * 4 + N / 2 * 4, "position %lld", (long long)pos);
    CHECK_RC(MPI_File_get_byte_offset(fh, pos, &byte));
    CHECK(byte == pos, "byte offset %lld of %lld", (long long)byte, (long long)pos);
    CHECK_RC(MPI_File_seek(fh, 0, MPI_SEEK_CUR));
    CHECK_RC(MPI_File_write_all(fh, buf + N / 2, N - N / 2, MPI_INT, &st));
    MPI_Get_elements(&st, MPI_INT, &n);
    CHECK(n == N - N / 2, "write_all elements %d", n);
    /* phase 2: a derived memory type: every other int of a 2N array */
    int wide[2 * N];
    MPI_Datatype every2;
    MPI_Type_vector(N, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    for (int i = 0; i < N; i++) {
        wide[2 * i] = val(me, 2, i);
        wide[2 * i + 1] = -1;
    }
    CHECK_RC(MPI_File_write_at_all(fh, (MPI_Offset)(2 * P + me) * N * 4, wide, 1, every2, &st));
    MPI_Get_count(&st, every2, &n);
    CHECK(n == 1, "derived write count %d", n);
    MPI_Type_free(&every2);
}

static void read_back(MPI_File fh)
{
    int P = ct_size, me = ct_rank, n;
    MPI_Status st;
    /* another layout: rank me reads the phase-1 block of rank (me+1)%P into
     * the odd slots of a 2N array (derived type on the read side) */
    int other = (me + 1) % P, wide[2 * N];
    MPI_Datatype odd;
    MPI_Type_create_resized(MPI_INT, 0, 8, &odd);
    MPI_Type_commit(&odd);
    for (int i = 0; i < 2 * N; i++)
        wide[i] = -7;
    CHECK_RC(MPI_File_read_at(fh, (MPI_Offset)(P + other) * N * 4, wide + 1, N, odd, &st));
    MPI_Get_count(&st, odd, &n);
    CHECK(n == N, "read count %d", n);
    for (int i = 0; i < N; i++)
        if (wide[2 * i + 1] != val(other, 1, i) || wide[2 * i] != -7) {
            CHECK(0, "read_at into odd slots: int %d is %d (gap %d)", i, wide[2 * i + 1],
                  wide[2 * i]);
            break;
        }
    MPI_Type_free(&odd);
    /* a short read at the end of the file: not an error, the count says */
    int buf[N];
    MPI_Offset end = (MPI_Offset)3 * P * N * 4;
    CHECK_RC(MPI_File_read_at(fh, end - 10 * 4, buf, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 10, "short read count %d", n);
    CHECK(buf[9] == val(P - 1, 2, N - 1), "short read data %d", buf[9]);
    CHECK_RC(MPI_File_read_at(fh, end - 6, buf, 2, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == MPI_UNDEFINED, "partial element: count %d", n);
    MPI_Get_elements(&st, MPI_BYTE, &n);
    CHECK(n == 6, "partial element: %d bytes", n);
    CHECK_RC(MPI_File_read_at(fh, end + 100, buf, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 0, "read past the end: count %d", n);
    /* individual pointer: SEEK_END and reading through it */
    CHECK_RC(MPI_File_seek(fh, -4 * N, MPI_SEEK_END));
    CHECK_RC(MPI_File_read_all(fh, buf, N + 5, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == N && buf[0] == val(P - 1, 2, 0), "read_all at end: %d, %d", n, buf[0]);
    MPI_Offset pos;
    CHECK_RC(MPI_File_get_position(fh, &pos));
    CHECK(pos == end, "position after the last read %lld", (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD);        /* nobody writes before all have read */
}

static void nonblocking(MPI_File fh)
{
    int P = ct_size, me = ct_rank, a[N], b[N], c[N], flag;
    MPI_Request rq[3];
    MPI_Status st[3];
    for (int i = 0; i < N; i++)
        a[i] = val(me, 3, i);
    CHECK_RC(MPI_File_iwrite_at(fh, (MPI_Offset)(3 * P + me) * N * 4, a, N / 2, MPI_INT, &rq[0]));
    CHECK_RC(MPI_File_seek(fh, (MPI_Offset)(3 * P + me) * N * 4 + N / 2 * 4, MPI_SEEK_SET));
    CHECK_RC(MPI_File_iwrite_all(fh, a + N / 2, N - N / 2, MPI_INT, &rq[1]));
    CHECK_RC(MPI_Waitall(2, rq, st));
    int n0, n1;
    MPI_Get_count(&st[0], MPI_INT, &n0);
    MPI_Get_count(&st[1], MPI_INT, &n1);
    CHECK(n0 == N / 2 && n1 == N - N / 2, "iwrite counts %d %d", n0, n1);
    CHECK(rq[0] == MPI_REQUEST_NULL, "request not freed");
    MPI_Barrier(MPI_COMM_WORLD);
    int other = (me + P - 1) % P;
    CHECK_RC(MPI_File_iread_at_all(fh, (MPI_Offset)(3 * P + other) * N * 4, b, N, MPI_INT, &rq[0]));
    CHECK_RC(MPI_File_seek(fh, (MPI_Offset)(3 * P + other) * N * 4, MPI_SEEK_SET));
    CHECK_RC(MPI_File_iread(fh, c, N, MPI_INT, &rq[1]));
    CHECK_RC(MPI_File_iread_at(fh, 0, a, 1, MPI_INT, &rq[2]));
    do
        MPI_Testall(3, rq, &flag, st);
    while (!flag);
    for (int i = 0; i < N; i++)
        if (b[i] != val(other, 3, i) || c[i] != val(other, 3, i)) {
            CHECK(0, "iread int %d: %d %d", i, b[i], c[i]);
            break;
        }
    CHECK(a[0] == val(0, 0, 0), "iread_at %d", a[0]);
    /* the MPIO_ names of older I/O programs (mpi.h) */
    MPIO_Request mr;
    a[0] = -1;
    CHECK_RC(MPI_File_iread_at(fh, 0, a, 1, MPI_INT, &mr));
    CHECK_RC(MPIO_Wait(&mr, &st[0]));
    CHECK(a[0] == val(0, 0, 0) && mr == MPI_REQUEST_NULL, "MPIO_Wait: %d", a[0]);
    /* split collectives: read what the previous rank wrote in phase 0 */
    MPI_Status s;
    int n;
    CHECK_RC(MPI_File_read_at_all_begin(fh, (MPI_Offset)other * N * 4, b, N, MPI_INT));
    CHECK_RC(MPI_File_read_at_all_end(fh, b, &s));
    MPI_Get_count(&s, MPI_INT, &n);
    CHECK(n == N && b[N - 1] == val(other, 0, N - 1), "read_at_all split: %d", n);
    CHECK_RC(MPI_File_seek(fh, (MPI_Offset)other * N * 4, MPI_SEEK_SET));
    CHECK_RC(MPI_File_read_all_begin(fh, c, N, MPI_INT));
    CHECK_RC(MPI_File_read_all_end(fh, c, &s));
    CHECK(c[5] == val(other, 0, 5), "read_all split: %d", c[5]);
    CHECK_RC(MPI_File_seek(fh, (MPI_Offset)(4 * P + me) * N * 4, MPI_SEEK_SET));
    for (int i = 0; i < N; i++)
        a[i] = val(me, 4, i);
    CHECK_RC(MPI_File_write_all_begin(fh, a, N, MPI_INT));
    CHECK_RC(MPI_File_write_all_end(fh, a, &s));
}

int main(int argc, char **argv)
{
    MPI_File fh;
    ct_init(&argc, &argv);
    io_setup();
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("rw"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                           MPI_INFO_NULL, &fh));
    write_phases(fh);
    CHECK_RC(MPI_File_sync(fh));
    check_file("rw", 3);
    read_back(fh);
    nonblocking(fh);
    CHECK_RC(MPI_File_close(&fh));
    check_file("rw", 5);
    /* MPI_MODE_APPEND: the individual pointer starts at the end */
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("rw"), MPI_MODE_WRONLY | MPI_MODE_APPEND |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    MPI_Offset pos;
    CHECK_RC(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)5 * ct_size * N * 4, "APPEND position %lld", (long long)pos);
    CHECK_RC(MPI_File_close(&fh));
    io_teardown();
    return ct_finish();
}
