/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* User error handlers: called once per failure with the code the call
 * returns and the communicator; inherited by MPI_Comm_dup; kept alive by the
 * communicator after MPI_Errhandler_free; MPI_Comm_call_errhandler passes
 * the code unchanged; the failed call returns the code as the handler left
 * it (MPICH and Open MPI do; MPICH's errors/io/fileerrret relies on it);
 * MPI_Comm_get_errhandler of the defaults. */
#include <mpi.h>
#include "env_util.h"

static int calls, last_code, rewrite = -1;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_code = *code;
    last_comm = *comm;
    if (rewrite >= 0)
        *code = rewrite;
}

int main(int argc, char **argv)
{
    int rank, size, buf = 0, rc, cls;
    MPI_Errhandler eh, got;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
    CHECK(got == MPI_ERRORS_ARE_FATAL, "default of COMM_WORLD is ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&got);
    CHECK(got == MPI_ERRHANDLER_NULL, "free sets the handle to NULL");
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &got);
    CHECK(got == MPI_ERRORS_ARE_FATAL, "default of COMM_SELF is ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&got);

    CHECK(MPI_Comm_create_errhandler(handler, &eh) == MPI_SUCCESS, "create");
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh) == MPI_SUCCESS, "set");
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
    CHECK(got == eh, "get returns the handler set");
    MPI_Errhandler_free(&got);
    MPI_Errhandler_free(&eh);           /* COMM_WORLD keeps it alive */
    CHECK(eh == MPI_ERRHANDLER_NULL, "free sets NULL");

    rc = MPI_Send(&buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS, "invalid rank accepted");
    CHECK(calls == 1, "handler called %d times", calls);
    CHECK(last_code == rc, "handler code %d, returned %d", last_code, rc);
    CHECK(last_comm == MPI_COMM_WORLD, "handler's communicator");
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_RANK, "class %d", cls);

    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS, "call");
    CHECK(calls == 2 && last_code == MPI_ERR_OTHER, "call_errhandler: %d calls, code %d",
          calls, last_code);

    MPI_Comm dup;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS, "dup");
    rc = MPI_Send(&buf, 1, MPI_INT, 0, -1, dup);
    CHECK(calls == 3 && last_comm == dup && last_code == rc, "inherited by dup (%d calls)", calls);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    rc = MPI_Send(&buf, 1, MPI_INT, 0, -1, dup);
    CHECK(rc != MPI_SUCCESS && calls == 3, "ERRORS_RETURN on dup: no call");
    CHECK(MPI_Comm_call_errhandler(dup, MPI_ERR_ARG) == MPI_SUCCESS, "call with RETURN");
    MPI_Comm_free(&dup);

    /* the handler is still there on COMM_WORLD */
    rc = MPI_Send(&buf, 1, MPI_INT, 0, -1, MPI_COMM_WORLD);
    CHECK(calls == 4, "handler after dup freed");
    /* a handler that rewrites the code: the call returns the new one */
    rewrite = MPI_SUCCESS;
    rc = MPI_Send(&buf, 1, MPI_INT, 0, -1, MPI_COMM_WORLD);
    CHECK(calls == 5 && rc == MPI_SUCCESS, "rewritten to MPI_SUCCESS: returned %d", rc);
    rewrite = MPI_ERR_ARG;
    rc = MPI_Send(&buf, 1, MPI_INT, 0, -1, MPI_COMM_WORLD);
    CHECK(calls == 6 && rc == MPI_ERR_ARG, "rewritten to MPI_ERR_ARG: returned %d", rc);
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS,
          "call_errhandler returns MPI_SUCCESS whatever the handler leaves");
    rewrite = -1;
    /* a bad errhandler handle is reported on the communicator (RETURN now) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL);
    CHECK(rc != MPI_SUCCESS, "setting ERRHANDLER_NULL accepted");
    got = MPI_ERRHANDLER_NULL;
    rc = MPI_Errhandler_free(&got);
    CHECK(rc != MPI_SUCCESS, "freeing ERRHANDLER_NULL accepted");

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
