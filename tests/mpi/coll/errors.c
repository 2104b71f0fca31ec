/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * errors.c - collective error paths under MPI_ERRORS_RETURN: invalid root,
 * an op on a type it does not apply to, MPI_REPLACE in a reduction, freeing
 * a predefined op; each returns the right class with a message naming the
 * problem, and the library keeps working afterwards.
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
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);  /* Op_free */
    int v = 1, w = 0;
    expect(MPI_Bcast(&v, 1, MPI_INT, ct_size, MPI_COMM_WORLD), MPI_ERR_ROOT,
           "bcast root = size", "root");
    expect(MPI_Reduce(&v, &w, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD),
           MPI_ERR_ROOT, "reduce root -1", "root");
    expect(MPI_Gather(&v, 1, MPI_INT, &w, 1, MPI_INT, ct_size + 3, MPI_COMM_WORLD),
           MPI_ERR_ROOT, "gather bad root", "root");
    int pair[2] = { 1, 2 }, pout[2];
    expect(MPI_Allreduce(pair, pout, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD),
           MPI_ERR_OP, "SUM on 2INT", "MPI_2INT");
    expect(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_MINLOC, MPI_COMM_WORLD),
           MPI_ERR_OP, "MINLOC on INT", "MPI_MINLOC");
    double d = 1.0, e;
    expect(MPI_Reduce(&d, &e, 1, MPI_DOUBLE, MPI_BAND, 0, MPI_COMM_WORLD),
           MPI_ERR_OP, "BAND on DOUBLE", "MPI_DOUBLE");
    expect(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD),
           MPI_ERR_OP, "REPLACE in allreduce", "MPI_REPLACE");
    MPI_Op sum = MPI_SUM;
    expect(MPI_Op_free(&sum), MPI_ERR_OP, "free MPI_SUM", "MPI_SUM");
    /* still working */
    CHECK_RC(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(w == ct_size, "allreduce after errors: %d", w);
    CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    return ct_finish();
}
