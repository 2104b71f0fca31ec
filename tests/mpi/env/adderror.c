/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* MPI_Add_error_class/code/string: new classes and codes lie above
 * MPI_ERR_LASTCODE, map back to their class, carry the strings given (""
 * before), and reach a user errhandler unchanged. */
#include <mpi.h>
#include "env_util.h"

static int seen;
static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    seen = *code;
}

int main(int argc, char **argv)
{
    int rank, cls = -1, code = -1, code2 = -1, c = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    CHECK(MPI_Add_error_class(&cls) == MPI_SUCCESS, "add class");
    CHECK(cls >= MPI_ERR_LASTCODE, "class %d below MPI_ERR_LASTCODE", cls);
    CHECK(MPI_Error_class(cls, &c) == MPI_SUCCESS && c == cls, "class of class");
    CHECK(MPI_Error_string(cls, s, &len) == MPI_SUCCESS && len == 0 && s[0] == '\0',
          "a new class has an empty string: '%s'", s);
    CHECK(MPI_Add_error_code(cls, &code) == MPI_SUCCESS, "add code");
    CHECK(code >= MPI_ERR_LASTCODE && code != cls, "code %d", code);
    CHECK(MPI_Error_class(code, &c) == MPI_SUCCESS && c == cls, "class of code %d", c);
    CHECK(MPI_Add_error_code(MPI_ERR_ARG, &code2) == MPI_SUCCESS, "code of a predefined class");
    CHECK(MPI_Error_class(code2, &c) == MPI_SUCCESS && c == MPI_ERR_ARG, "class %d", c);

    CHECK(MPI_Add_error_string(cls, "application class") == MPI_SUCCESS, "string");
    CHECK(MPI_Add_error_string(code, "application code") == MPI_SUCCESS, "string");
    MPI_Error_string(cls, s, &len);
    CHECK(strcmp(s, "application class") == 0 && len == (int)strlen(s), "'%s'", s);
    MPI_Error_string(code, s, &len);
    CHECK(strcmp(s, "application code") == 0, "'%s'", s);

    /* errors: a string for a predefined class, a code of a non-class */
    CHECK(MPI_Add_error_string(MPI_ERR_TAG, "mine") != MPI_SUCCESS, "predefined string set");
    CHECK(MPI_Add_error_code(code, &code2) != MPI_SUCCESS, "code of a code");
    MPI_Error_string(MPI_ERR_TAG, s, &len);
    CHECK(strstr(s, "mine") == NULL, "predefined string changed: %s", s);

    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Errhandler_free(&eh);
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    CHECK(seen == code, "handler saw %d, want %d", seen, code);

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
