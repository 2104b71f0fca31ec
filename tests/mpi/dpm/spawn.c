/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * spawn.c - MPI_Comm_spawn of this program (argv[1] = number of children)
 * from every rank count of the test. Parents and children check:
 * MPI_Comm_get_parent (NULL in the parents), sizes of the intercommunicator,
 * point-to-point both ways, MPI_Allreduce and MPI_Bcast across,
 * MPI_Intercomm_merge (parents first), the children's MPI_APPNUM (0) and
 * MPI_UNIVERSE_SIZE, the errcodes (MPI_SUCCESS each), then disconnect.
 * The children's error count travels to the parents before the disconnect.
 * Then a command that cannot be started: MPI_ERR_SPAWN on every parent,
 * MPI_ERR_SPAWN in each errcode, and the library still works; and
 * maxprocs -1 at the root: MPI_ERR_ARG on every parent.
 * argv[2] "mt": parents and children run under MPI_THREAD_MULTIPLE (as
 * mpi4py does; its waits sleep without the lock, and tcp, the only way to
 * another job, must still be polled after each sleep).
 */
#include <unistd.h>
#include "ctest.h"

static void across(MPI_Comm ic, int parent_side)
{
    int lsize, rsize, lrank;
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_rank(ic, &lrank);
    int mine = (parent_side ? 100 : 200) + lrank;
    for (int i = 0; i < rsize; i++)
        MPI_Send(&mine, 1, MPI_INT, i, 1, ic);
    for (int i = 0; i < rsize; i++) {
        MPI_Status st;
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, ic, &st);
        CHECK(v == (parent_side ? 200 : 100) + st.MPI_SOURCE, "got %d from %d", v,
              st.MPI_SOURCE);
    }
    int sum = -1, want = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ic);
    for (int i = 0; i < rsize; i++)
        want += (parent_side ? 200 : 100) + i;
    CHECK(sum == want, "allreduce across %d want %d", sum, want);
    int b = parent_side && lrank == 0 ? 31337 : -1;
    MPI_Bcast(&b, 1, MPI_INT, parent_side ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic);
    if (!parent_side)
        CHECK(b == 31337, "bcast across got %d", b);
    MPI_Comm m;
    MPI_Intercomm_merge(ic, !parent_side, &m);
    int mr, ms;
    MPI_Comm_rank(m, &mr);
    MPI_Comm_size(m, &ms);
    CHECK(ms == lsize + rsize, "merged size %d", ms);
    CHECK(mr == (parent_side ? lrank : rsize + lrank), "merged rank %d", mr);
    MPI_Comm_free(&m);
}

static void init(int *argc, char ***argv, int mt)
{
    int provided = -1;
    if (mt)
        MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    CHECK(!mt || provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
}

static int child(int argc, char **argv)
{
    init(&argc, &argv, argc > 4 && strcmp(argv[4], "mt") == 0);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    CHECK(parent != MPI_COMM_NULL, "child without a parent");
    if (parent == MPI_COMM_NULL)
        MPI_Abort(MPI_COMM_WORLD, 3);
    int nparents = atoi(argv[2]), rs = -1, flag = 0, *app = NULL, *usize = NULL;
    MPI_Comm_remote_size(parent, &rs);
    CHECK(rs == nparents, "remote size %d want %d", rs, nparents);
    CHECK(ct_size == atoi(argv[3]), "children world %d want %s", ct_size, argv[3]);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &app, &flag);
    CHECK(flag && *app == 0, "MPI_APPNUM flag %d value %d", flag, flag ? *app : -1);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag);
    CHECK(flag && *usize >= ct_size, "MPI_UNIVERSE_SIZE flag %d", flag);
    across(parent, 0);
    int errs = ct_errors;
    MPI_Reduce(&errs, NULL, 1, MPI_INT, MPI_SUM, 0, parent);
    MPI_Comm_disconnect(&parent);
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL, "get_parent after disconnect");
    MPI_Finalize();
    return ct_errors != 0;
}

static void unstartable(void)
{
    MPI_Comm ic = MPI_COMM_NULL;
    int codes[3] = { -1, -1, -1 };
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_spawn("./no-such-program-xb", MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0,
                            MPI_COMM_WORLD, &ic, codes);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "spawn of a missing program: class %d", cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Comm_spawn") && strstr(msg, "no-such-program-xb"),
          "message '%s'", msg);
    for (int i = 0; i < 3; i++)
        CHECK(codes[i] == MPI_ERR_SPAWN, "errcode[%d] = %d", i, codes[i]);
    CHECK(ic == MPI_COMM_NULL, "intercomm written on failure");
    /* a bad maxprocs at the root fails the call on every process */
    rc = MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, ct_rank == 0 ? -1 : 5, MPI_INFO_NULL,
                        0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE);
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_ARG, "maxprocs -1: class %d", cls);
    CHECK(strstr(msg, "maxprocs -1") != NULL, "maxprocs -1: message '%s'", msg);
    int v = ct_rank, s = 0;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(s == ct_size * (ct_size - 1) / 2, "allreduce after a failed spawn");
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "child") == 0)
        return child(argc, argv);
    int mt = argc > 2 && strcmp(argv[2], "mt") == 0;
    init(&argc, &argv, mt);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL, "a parent in the first job");
    int nchild = argc > 1 ? atoi(argv[1]) : 2;
    char np[16], nc[16];
    snprintf(np, sizeof(np), "%d", ct_size);
    snprintf(nc, sizeof(nc), "%d", nchild);
    char *cargv[] = { "child", np, nc, mt ? "mt" : NULL, NULL };
    int *codes = ct_malloc((size_t)nchild * sizeof(int));
    for (int i = 0; i < nchild; i++)
        codes[i] = -1;
    MPI_Comm ic;
    CHECK_RC(MPI_Comm_spawn(argv[0], cargv, nchild, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                            &ic, codes));
    for (int i = 0; i < nchild; i++)
        CHECK(codes[i] == MPI_SUCCESS, "errcode[%d] = %d", i, codes[i]);
    free(codes);
    int rs = -1;
    MPI_Comm_remote_size(ic, &rs);
    CHECK(rs == nchild, "remote size %d want %d", rs, nchild);
    across(ic, 1);
    int cerrs = 0;
    MPI_Reduce(NULL, &cerrs, 1, MPI_INT, MPI_SUM,
               ct_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
    CHECK(cerrs == 0, "the children found %d errors", cerrs);
    CHECK_RC(MPI_Comm_disconnect(&ic));
    unstartable();
    return ct_finish();
}
