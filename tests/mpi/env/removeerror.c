/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * removeerror.c - MPI_Remove_error_class, _code and _string (MPI 4.1): a
 * code's string goes before the code, a class's codes and string before
 * the class; removed values are unknown to MPI_Error_class/_string and to
 * MPI_Add_error_code/_string, and are not handed out again; predefined
 * classes and codes cannot be removed. Errors (MPI_ERR_ARG) name the
 * function and say why.
 */
#include <mpi.h>
#include "env_util.h"

static void expect_arg(int rc, const char *fn, const char *why, int line)
{
    int c = -1, len;
    char msg[MPI_MAX_ERROR_STRING] = "";
    MPI_Error_class(rc, &c);
    MPI_Error_string(rc, msg, &len);
    CHECK(c == MPI_ERR_ARG && strstr(msg, fn) != NULL && strstr(msg, why) != NULL,
          "line %d: class %d, message '%s' (want MPI_ERR_ARG, %s, '%s')", line, c, msg, fn, why);
}
#define EXPECT_ARG(call, fn, why) expect_arg((call), (fn), (why), __LINE__)

int main(int argc, char **argv)
{
    int rank, cls = -1, code1 = -1, code2 = -1, c = -1, len = -1, last = -1, flag = 0;
    int *lastp;
    char s[MPI_MAX_ERROR_STRING];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK(MPI_Add_error_class(&cls) == MPI_SUCCESS, "add class");
    CHECK(MPI_Add_error_code(cls, &code1) == MPI_SUCCESS, "add code 1");
    CHECK(MPI_Add_error_code(cls, &code2) == MPI_SUCCESS, "add code 2");
    CHECK(MPI_Add_error_string(cls, "the class") == MPI_SUCCESS, "string");
    CHECK(MPI_Add_error_string(code2, "code two") == MPI_SUCCESS, "string");

    /* the order the standard requires */
    EXPECT_ARG(MPI_Remove_error_class(cls), "MPI_Remove_error_class", "still has 2 error codes");
    EXPECT_ARG(MPI_Remove_error_code(code2), "MPI_Remove_error_code", "still has an error string");
    EXPECT_ARG(MPI_Remove_error_string(code1), "MPI_Remove_error_string", "has no string");
    CHECK(MPI_Remove_error_string(code2) == MPI_SUCCESS, "remove string 2");
    CHECK(MPI_Error_string(code2, s, &len) == MPI_SUCCESS && len == 0, "'%s'", s);
    CHECK(MPI_Remove_error_code(code2) == MPI_SUCCESS, "remove code 2");
    EXPECT_ARG(MPI_Remove_error_code(code2), "MPI_Remove_error_code", "removed already");
    EXPECT_ARG(MPI_Remove_error_string(code2), "MPI_Remove_error_string", "removed already");
    EXPECT_ARG(MPI_Error_class(code2, &c), "MPI_Error_class", "not a valid");
    EXPECT_ARG(MPI_Add_error_string(code2, "again"), "MPI_Add_error_string", "not a user");
    /* code 1 is still there and still maps to the class */
    CHECK(MPI_Error_class(code1, &c) == MPI_SUCCESS && c == cls, "class of code 1: %d", c);
    EXPECT_ARG(MPI_Remove_error_class(cls), "MPI_Remove_error_class", "still has 1 error code");
    CHECK(MPI_Remove_error_code(code1) == MPI_SUCCESS, "remove code 1");
    EXPECT_ARG(MPI_Remove_error_class(cls), "MPI_Remove_error_class", "still has an error string");
    CHECK(MPI_Remove_error_string(cls) == MPI_SUCCESS, "remove class string");
    CHECK(MPI_Error_string(cls, s, &len) == MPI_SUCCESS && len == 0, "'%s'", s);
    CHECK(MPI_Remove_error_class(cls) == MPI_SUCCESS, "remove class");
    EXPECT_ARG(MPI_Remove_error_class(cls), "MPI_Remove_error_class", "removed already");
    EXPECT_ARG(MPI_Error_class(cls, &c), "MPI_Error_class", "not a valid");
    EXPECT_ARG(MPI_Add_error_code(cls, &code1), "MPI_Add_error_code", "not a valid error class");

    /* a class is not a code and a code is not a class */
    int cls2 = -1, code3 = -1;
    CHECK(MPI_Add_error_class(&cls2) == MPI_SUCCESS, "add class 2");
    CHECK(cls2 != cls, "a removed class was handed out again (%d)", cls2);
    CHECK(MPI_Add_error_code(cls2, &code3) == MPI_SUCCESS, "add code 3");
    CHECK(code3 != code1 && code3 != code2, "a removed code was handed out again");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp, &flag);
    if (flag)
        last = *lastp;
    CHECK(flag && last == code3, "MPI_LASTUSEDCODE %d, want %d", last, code3);
    EXPECT_ARG(MPI_Remove_error_code(cls2), "MPI_Remove_error_code", "is an error class");
    EXPECT_ARG(MPI_Remove_error_class(code3), "MPI_Remove_error_class", "is an error code");
    CHECK(MPI_Remove_error_code(code3) == MPI_SUCCESS, "remove code 3");
    CHECK(MPI_Remove_error_class(cls2) == MPI_SUCCESS, "remove class 2");

    /* predefined values cannot be removed */
    EXPECT_ARG(MPI_Remove_error_class(MPI_ERR_ARG), "MPI_Remove_error_class", "predefined");
    EXPECT_ARG(MPI_Remove_error_class(0), "MPI_Remove_error_class", "predefined");
    EXPECT_ARG(MPI_Remove_error_code(MPI_ERR_TAG), "MPI_Remove_error_code", "predefined");
    EXPECT_ARG(MPI_Remove_error_string(MPI_ERR_TAG), "MPI_Remove_error_string", "predefined");
    EXPECT_ARG(MPI_Remove_error_string(-4), "MPI_Remove_error_string", "predefined");
    CHECK(MPI_Error_string(MPI_ERR_TAG, s, &len) == MPI_SUCCESS && len > 0, "MPI_ERR_TAG text");

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
