/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Calls before MPI_Init and after MPI_Finalize, a second MPI_Init, and a
 * tunable with a bad value stop the process with a clear message and a
 * nonzero exit status; a misspelt tunable draws a warning that names the
 * right one. Each case runs in a child process (this program again,
 * argv[1] = the case, as a singleton). */
#include <mpi.h>
#include "env_util.h"

static int child(const char *mode, int argc, char **argv)
{
    int n = 0;

    if (strcmp(mode, "before") == 0) {
        MPI_Comm_size(MPI_COMM_WORLD, &n);
    } else if (strcmp(mode, "after") == 0) {
        MPI_Init(&argc, &argv);
        MPI_Finalize();
        MPI_Send(&n, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else if (strcmp(mode, "twice") == 0) {
        MPI_Init(&argc, &argv);
        MPI_Init(&argc, &argv);
    } else if (strcmp(mode, "badvalue") == 0) {
        MPI_Init(&argc, &argv);
    } else if (strcmp(mode, "typo") == 0) {
        MPI_Init(&argc, &argv);
        MPI_Finalize();
        printf("typo: finished\n");
        return 0;
    }
    printf("child %s: still running\n", mode);
    return 0;
}

static void expect_death(const char *argv0, const char *mode, const char *w1, const char *w2)
{
    static const char *const bad_env[] = { "XB_PARAM_CHECK=maybe", NULL };
    char out[8192];
    int st = run_self(argv0, mode, 1, strcmp(mode, "badvalue") == 0 ? bad_env : NULL,
                      out, sizeof(out));
    CHECK(exit_code(st) > 0, "%s: status %d, want a nonzero exit; output:\n%s", mode, st, out);
    CHECK(strstr(out, "still running") == NULL, "%s: the process went on:\n%s", mode, out);
    CHECK(strstr(out, w1) != NULL && strstr(out, w2) != NULL,
          "%s: the message lacks '%s' or '%s':\n%s", mode, w1, w2, out);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return child(argv[1], argc, argv);
    MPI_Init(&argc, &argv);
    expect_death(argv[0], "before", "MPI_Comm_size", "before MPI_Init");
    expect_death(argv[0], "after", "MPI_Send", "after MPI_Finalize");
    expect_death(argv[0], "twice", "MPI_Init", "already initialized");
    expect_death(argv[0], "badvalue", "XB_PARAM_CHECK=maybe", "not a boolean");

    static const char *const typo_env[] = { "XB_PARAM_CHEK=1", NULL };
    char out[8192];
    int st = run_self(argv[0], "typo", 1, typo_env, out, sizeof(out));
    CHECK(exit_code(st) == 0 && strstr(out, "typo: finished") != NULL,
          "typo: status %d:\n%s", st, out);
    CHECK(strstr(out, "XB_PARAM_CHEK is not a Crossbar tunable; did you mean "
                 "XB_PARAM_CHECK?") != NULL, "no typo warning:\n%s", out);
    MPI_Finalize();
    if (errs != 0)
        fprintf(stderr, "%d errors\n", errs);
    else
        printf(" No Errors\n");
    return errs != 0;
}
