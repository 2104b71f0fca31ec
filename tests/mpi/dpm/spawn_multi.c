/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * spawn_multi.c - MPI_Comm_spawn_multiple with two commands (this program
 * with different arguments: 2 processes of "a", 1 of "b"), per-command
 * argv and info (the "b" command gets wdir=/ and an unknown key, which is
 * ignored). The children check their MPI_APPNUM (0 for "a", 1 for "b"),
 * their arguments, the working directory, and their world of 3. Then the
 * children spawn one grandchild themselves (a nested spawn over their
 * COMM_WORLD, root 2), talk to it, and disconnect; the parents and the
 * children exchange a token over the parent intercommunicator and the
 * children's error count goes to the parents.
 */
#include <unistd.h>
#include "ctest.h"

static int grandchild(void)
{
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    CHECK(parent != MPI_COMM_NULL, "grandchild without a parent");
    int rs = -1;
    MPI_Comm_remote_size(parent, &rs);
    CHECK(rs == 3, "grandchild: remote size %d", rs);
    int sum = 0, one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, parent);
    CHECK(sum == 3, "grandchild: allreduce %d", sum);
    int errs = ct_errors;
    MPI_Send(&errs, 1, MPI_INT, 0, 5, parent);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
}

static int child(int argc, char **argv)
{
    MPI_Comm parent, gc;
    MPI_Comm_get_parent(&parent);
    CHECK(parent != MPI_COMM_NULL, "child without a parent");
    int *app = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &app, &flag);
    int want_app = strcmp(argv[1], "a") == 0 ? 0 : 1;
    CHECK(flag && *app == want_app, "appnum %d want %d", flag ? *app : -1, want_app);
    CHECK(ct_size == 3, "children world size %d", ct_size);
    CHECK(argc == 3 && strcmp(argv[2], want_app ? "bee" : "ay") == 0, "args of %s",
          argv[1]);
    char cwd[4096] = "";
    if (want_app == 1)
        CHECK(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/") == 0, "wdir of b: %s", cwd);
    /* nested: the children spawn one grandchild */
    char *gargv[] = { "g", NULL };
    CHECK_RC(MPI_Comm_spawn(argv[0], gargv, 1, MPI_INFO_NULL, 2, MPI_COMM_WORLD, &gc,
                            MPI_ERRCODES_IGNORE));
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, gc);
    CHECK(sum == 1, "children: allreduce with the grandchild %d", sum);
    if (ct_rank == 0) {
        int gerrs = -1;
        MPI_Recv(&gerrs, 1, MPI_INT, 0, 5, gc, MPI_STATUS_IGNORE);
        ct_errors += gerrs;
    }
    MPI_Comm_disconnect(&gc);
    int token = -1;
    if (ct_rank == 0)
        MPI_Recv(&token, 1, MPI_INT, 0, 6, parent, MPI_STATUS_IGNORE);
    MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(token == 4711, "token %d", token);
    int errs = ct_errors, total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (ct_rank == 0)
        MPI_Send(&total, 1, MPI_INT, 0, 7, parent);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    if (argc >= 2 && strcmp(argv[1], "g") == 0)
        return grandchild();
    if (argc >= 2 && (strcmp(argv[1], "a") == 0 || strcmp(argv[1], "b") == 0))
        return child(argc, argv);
    char *cmds[2] = { argv[0], argv[0] };
    char *aa[] = { "a", "ay", NULL }, *ab[] = { "b", "bee", NULL };
    char **argvs[2] = { aa, ab };
    int maxprocs[2] = { 2, 1 }, codes[3] = { -1, -1, -1 };
    MPI_Info infos[2] = { MPI_INFO_NULL, MPI_INFO_NULL };
    MPI_Info_create(&infos[1]);
    MPI_Info_set(infos[1], "wdir", "/");
    MPI_Info_set(infos[1], "xb_no_such_key", "ignored");
    MPI_Comm ic;
    CHECK_RC(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD,
                                     &ic, codes));
    MPI_Info_free(&infos[1]);
    for (int i = 0; i < 3; i++)
        CHECK(codes[i] == MPI_SUCCESS, "errcode[%d] = %d", i, codes[i]);
    int rs = -1;
    MPI_Comm_remote_size(ic, &rs);
    CHECK(rs == 3, "remote size %d", rs);
    if (ct_rank == 0) {
        int token = 4711, cerrs = -1;
        MPI_Send(&token, 1, MPI_INT, 0, 6, ic);
        MPI_Recv(&cerrs, 1, MPI_INT, 0, 7, ic, MPI_STATUS_IGNORE);
        CHECK(cerrs == 0, "the children found %d errors", cerrs);
    }
    MPI_Comm_disconnect(&ic);
    return ct_finish();
}
