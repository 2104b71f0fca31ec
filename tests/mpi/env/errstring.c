/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Real failures under MPI_ERRORS_RETURN: each returns a code whose class is
 * the right one and whose string names the function, the argument and the
 * value; the library keeps working afterwards. Needs 2 ranks or more. */
#include <mpi.h>
#include "env_util.h"

static void expect(int rc, int cls, const char *fn, const char *words[], const char *what)
{
    int c = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING];

    CHECK(rc != MPI_SUCCESS, "%s: succeeded", what);
    if (rc == MPI_SUCCESS)
        return;
    CHECK(MPI_Error_class(rc, &c) == MPI_SUCCESS && c == cls, "%s: class %d, want %d",
          what, c, cls);
    CHECK(MPI_Error_string(rc, s, &len) == MPI_SUCCESS && len == (int)strlen(s),
          "%s: error string", what);
    CHECK(strncmp(s, fn, strlen(fn)) == 0, "%s: '%s' does not start with %s", what, s, fn);
    for (int i = 0; words != NULL && words[i] != NULL; i++)
        CHECK(strstr(s, words[i]) != NULL, "%s: '%s' lacks '%s'", what, s, words[i]);
}

int main(int argc, char **argv)
{
    int rank, size, buf[16] = { 0 }, rc;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    char bad[16];
    snprintf(bad, sizeof(bad), "%d", size);
    rc = MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    expect(rc, MPI_ERR_RANK, "MPI_Send", (const char *[]){ "dest", bad, NULL }, "dest=size");
    rc = MPI_Send(buf, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
    expect(rc, MPI_ERR_TAG, "MPI_Send", (const char *[]){ "tag", "-5", NULL }, "tag=-5");
    rc = MPI_Send(buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    expect(rc, MPI_ERR_COUNT, "MPI_Send", (const char *[]){ "count", "-1", NULL }, "count=-1");
    rc = MPI_Recv(buf, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &st);
    expect(rc, MPI_ERR_TYPE, "MPI_Recv", (const char *[]){ "datatype", NULL }, "null type");
    /* a null communicator: the error goes to MPI_COMM_SELF's handler */
    rc = MPI_Comm_size(MPI_COMM_NULL, &size);
    expect(rc, MPI_ERR_COMM, "MPI_Comm_size", (const char *[]){ "comm", NULL }, "COMM_NULL");
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* invalid codes are MPI_ERR_ARG */
    int c;
    rc = MPI_Error_class(-7, &c);
    expect(rc, MPI_ERR_ARG, "MPI_Error_class", (const char *[]){ "-7", NULL }, "class(-7)");

    /* truncation: rank 0 sends 10 ints, rank 1 posts 5 */
    if (size >= 2 && rank == 0) {
        int data[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
        CHECK(MPI_Send(data, 10, MPI_INT, 1, 3, MPI_COMM_WORLD) == MPI_SUCCESS, "send 10");
    } else if (size >= 2 && rank == 1) {
        rc = MPI_Recv(buf, 5, MPI_INT, 0, 3, MPI_COMM_WORLD, &st);
        expect(rc, MPI_ERR_TRUNCATE, "MPI_Recv", NULL, "truncation");
    }

    /* every predefined class has a string */
    for (int k = MPI_SUCCESS; k <= MPI_ERR_ERRHANDLER; k++) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        CHECK(MPI_Error_string(k, s, &len) == MPI_SUCCESS && len > 0, "string of class %d", k);
        CHECK(MPI_Error_class(k, &c) == MPI_SUCCESS && c == k, "class of class %d", k);
    }

    /* the library still works */
    int token = rank == 0 ? 42 : -1;
    if (size >= 2) {
        if (rank == 0)
            CHECK(MPI_Send(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD) == MPI_SUCCESS, "send");
        else if (rank == 1) {
            CHECK(MPI_Recv(&token, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &st) == MPI_SUCCESS, "recv");
            CHECK(token == 42, "token %d", token);
        }
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "barrier");
    MPI_Finalize();
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
