/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * typeerrors.c - datatype error paths under MPI_ERRORS_RETURN: an
 * uncommitted type in a send, freeing MPI_INT, a negative block length, a
 * freed handle, MPI_DATATYPE_NULL in a struct, a committed type used after
 * free, a subarray past the end, an inconsistent darray grid, a bad datarep;
 * each returns the right class with a message, and the library keeps
 * working afterwards.
 */
#include <stdio.h>
#include <string.h>
#include "mpi.h"

static int errs, rank;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf("rank %d: ", rank); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static void expect_class(int rc, int cls, const char *what, const char *text)
{
    int got = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    if (rc != MPI_SUCCESS) {
        MPI_Error_class(rc, &got);
        MPI_Error_string(rc, msg, &len);
    }
    CHECK(got == cls, "%s: class %d, want %d (%s)", what, got, cls, msg);
    CHECK(text == NULL || strstr(msg, text) != NULL, "%s: message '%s' lacks '%s'",
          what, msg, text);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    MPI_Datatype v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    int buf[4] = { 1, 2, 3, 4 };
    if (rank == 0) {
        int rc = MPI_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD);
        expect_class(rc, MPI_ERR_TYPE, "send with an uncommitted type", "commit");
    }

    MPI_Datatype t = MPI_INT;
    int rc = MPI_Type_free(&t);
    expect_class(rc, MPI_ERR_TYPE, "free MPI_INT", "predefined datatype MPI_INT");
    CHECK(t == MPI_INT, "the handle changed");

    int bl[2] = { 1, -2 }, dp[2] = { 0, 3 };
    MPI_Datatype bad;
    rc = MPI_Type_indexed(2, bl, dp, MPI_INT, &bad);
    expect_class(rc, MPI_ERR_ARG, "negative block length", "negative block length");

    MPI_Datatype tmp, keep = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_INT, &tmp);
    keep = tmp;
    MPI_Type_free(&tmp);
    CHECK(tmp == MPI_DATATYPE_NULL, "Type_free did not reset the handle");
    int size = 0;
    rc = MPI_Type_size(MPI_DATATYPE_NULL, &size);
    expect_class(rc, MPI_ERR_TYPE, "size of MPI_DATATYPE_NULL", NULL);
    (void)keep;     /* using a freed handle is undefined in general; not tried */

    int sbl[2] = { 1, 1 };
    MPI_Aint sdp[2] = { 0, 8 };
    MPI_Datatype sty[2] = { MPI_INT, MPI_DATATYPE_NULL };
    rc = MPI_Type_create_struct(2, sbl, sdp, sty, &bad);
    expect_class(rc, MPI_ERR_TYPE, "struct with MPI_DATATYPE_NULL", "array_of_types[1]");

    /* issue 3: a committed type used after free, an uncommitted type in
     * MPI_Pack, a subarray that does not fit, an inconsistent darray grid,
     * a negative count, a bad datarep */
    MPI_Datatype c2;
    MPI_Type_contiguous(2, MPI_INT, &c2);
    MPI_Type_commit(&c2);
    MPI_Datatype stale = c2;
    MPI_Type_free(&c2);
    rc = MPI_Type_size(stale, &size);
    expect_class(rc, MPI_ERR_TYPE, "size of a freed type", "datatype");
    char pbuf[64];
    int pos = 0;
    rc = MPI_Pack(buf, 1, stale, pbuf, sizeof(pbuf), &pos, MPI_COMM_WORLD);
    expect_class(rc, MPI_ERR_TYPE, "pack with a freed type", "datatype");
    rc = MPI_Pack(buf, 1, v, pbuf, sizeof(pbuf), &pos, MPI_COMM_WORLD);
    expect_class(rc, MPI_ERR_TYPE, "pack with an uncommitted type", "commit");
    int sz[2] = { 4, 4 }, sub[2] = { 2, 2 }, st[2] = { 1, 3 };
    rc = MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &bad);
    expect_class(rc, MPI_ERR_ARG, "subarray past the end", "array_of_starts[1]");
    int ds[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK };
    int da[2] = { MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG }, ps[2] = { 3, 2 };
    rc = MPI_Type_create_darray(4, 0, 2, sz, ds, da, ps, MPI_ORDER_C, MPI_INT, &bad);
    expect_class(rc, MPI_ERR_ARG, "darray grid 3x2 for 4 processes",
                 "inconsistent process grid");
    rc = MPI_Type_contiguous(-1, MPI_INT, &bad);
    expect_class(rc, MPI_ERR_COUNT, "negative count", "count");
    MPI_Aint esz;
    rc = MPI_Pack_external_size("little-endian", 1, MPI_INT, &esz);
    expect_class(rc, MPI_ERR_UNSUPPORTED_DATAREP, "datarep", "little-endian");

    /* still working: the committed vector goes through */
    MPI_Type_commit(&v);
    if (rank == 0) {
        rc = MPI_Send(buf, 1, v, 1, 1, MPI_COMM_WORLD);
        CHECK(rc == MPI_SUCCESS, "send after errors: %d", rc);
    } else if (rank == 1) {
        int got[2] = { 0, 0 };
        rc = MPI_Recv(got, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && got[0] == 1 && got[1] == 3, "recv after errors");
    }
    MPI_Type_free(&v);

    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
