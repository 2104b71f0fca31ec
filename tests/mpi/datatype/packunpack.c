/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * packunpack.c - MPI_Pack/MPI_Unpack round trips: several types packed one
 * after the other into one buffer (positions advance by Pack_size), then
 * unpacked into fresh buffers; holes of the receive buffers stay untouched;
 * a too-small output buffer gives MPI_ERR_TRUNCATE under MPI_ERRORS_RETURN.
 */
#include <stdio.h>
#include <string.h>
#include "mpi.h"

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Datatype vec, sub;
    MPI_Type_vector(4, 1, 3, MPI_SHORT, &vec);
    MPI_Type_commit(&vec);
    int bl[2] = { 2, 1 };
    MPI_Aint dp[2] = { 0, 16 };
    MPI_Type_create_hindexed(2, bl, dp, MPI_FLOAT, &sub);
    MPI_Type_commit(&sub);

    short s[12];
    float f[10];
    double d[3] = { 1.5, -2.5, 3.25 };
    for (int i = 0; i < 12; i++)
        s[i] = (short)(i * 11);
    for (int i = 0; i < 10; i++)
        f[i] = (float)i / 4;

    int sz_vec, sz_sub, sz_d;
    MPI_Pack_size(2, vec, MPI_COMM_WORLD, &sz_vec);
    MPI_Pack_size(2, sub, MPI_COMM_WORLD, &sz_sub);
    MPI_Pack_size(3, MPI_DOUBLE, MPI_COMM_WORLD, &sz_d);
    CHECK(sz_vec >= 16 && sz_sub >= 24 && sz_d >= 24, "pack sizes %d %d %d", sz_vec, sz_sub, sz_d);

    char buf[256];
    int pos = 0;
    MPI_Pack(s, 1, vec, buf, sizeof(buf), &pos, MPI_COMM_WORLD);
    MPI_Pack(d, 3, MPI_DOUBLE, buf, sizeof(buf), &pos, MPI_COMM_WORLD);
    MPI_Pack(f, 2, sub, buf, sizeof(buf), &pos, MPI_COMM_WORLD);
    CHECK(pos <= sz_vec / 2 + sz_d + sz_sub, "position %d", pos);
    int packed = pos;

    short s2[12];
    float f2[10];
    double d2[3];
    for (int i = 0; i < 12; i++)
        s2[i] = -1;
    for (int i = 0; i < 10; i++)
        f2[i] = -1;
    pos = 0;
    MPI_Unpack(buf, packed, &pos, s2, 1, vec, MPI_COMM_WORLD);
    MPI_Unpack(buf, packed, &pos, d2, 3, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Unpack(buf, packed, &pos, f2, 2, sub, MPI_COMM_WORLD);
    CHECK(pos == packed, "unpack position %d want %d", pos, packed);
    for (int i = 0; i < 12; i++)
        CHECK(s2[i] == (i % 3 == 0 && i < 10 ? s[i] : -1), "short[%d] = %d", i, s2[i]);
    for (int i = 0; i < 3; i++)
        CHECK(d2[i] == d[i], "double[%d] = %g", i, d2[i]);
    /* sub: floats 0,1 and 4 of each element; extent 20 bytes = 5 floats */
    for (int i = 0; i < 10; i++) {
        int k = i % 5;
        float want = (k == 0 || k == 1 || k == 4) ? f[i] : -1;
        CHECK(f2[i] == want, "float[%d] = %g want %g", i, f2[i], want);
    }

    /* too small an output buffer */
    pos = 0;
    int rc = MPI_Pack(d, 3, MPI_DOUBLE, buf, 20, &pos, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TRUNCATE, "pack overflow: rc %d class %d", rc, cls);
    /* unpacking more than the input holds */
    pos = 0;
    rc = MPI_Unpack(buf, 8, &pos, d2, 3, MPI_DOUBLE, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS, "unpack past the input succeeded");

    MPI_Type_free(&vec);
    MPI_Type_free(&sub);
    if (errs == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
