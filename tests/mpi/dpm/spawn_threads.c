/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * spawn_threads.c - MPI_Comm_spawn from several threads at once
 * (MPI_THREAD_MULTIPLE), many times: a task manager's pattern. Each of
 * argv[1] threads (default 4) of every parent owns a duplicate of
 * MPI_COMM_WORLD and runs argv[2] rounds (default 8); a round spawns 1 or
 * 2 children of this program with the root rotating over the parents, the
 * root sends each child a token, each child answers token * 10 + its rank,
 * both sides disconnect. Children alternate between MPI_Init and
 * MPI_Init_thread(MULTIPLE). Checks: every errcode MPI_SUCCESS, the
 * remote size, the tokens, COMM_WORLD still working afterwards. Each
 * thread counts its own errors (ct_errors is not shared while threads run).
 */
#include <pthread.h>
#include "ctest.h"

enum { MAX_THREADS = 16, TOKEN_TAG = 1, REPLY_TAG = 2 };

static MPI_Comm dups[MAX_THREADS];
static int rounds = 8;
static const char *self;

static int child(char **argv)
{
    int mt = strcmp(argv[3], "mt") == 0, provided = -1;
    if (mt)
        MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    CHECK(!mt || provided == MPI_THREAD_MULTIPLE, "child: provided %d", provided);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        printf("child: no parent\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    int token = atoi(argv[1]), root = atoi(argv[2]), got = -1;
    MPI_Recv(&got, 1, MPI_INT, root, TOKEN_TAG, parent, MPI_STATUS_IGNORE);
    CHECK(got == token, "child %d: token %d, argv says %d", ct_rank, got, token);
    int reply = got * 10 + ct_rank;
    MPI_Send(&reply, 1, MPI_INT, root, REPLY_TAG, parent);
    CHECK_RC(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    return ct_errors != 0;
}

/* One spawn of thread t, round r over dups[t]; the errors found. */
static int one_round(int t, int r)
{
    int errs = 0, root = (t + r) % ct_size, n = 1 + (t + r) % 2, token = t * 1000 + r;
    int rank;
    MPI_Comm_rank(dups[t], &rank);
    char tok[16], rt[16];
    snprintf(tok, sizeof(tok), "%d", token);
    snprintf(rt, sizeof(rt), "%d", root);
    char *cargv[] = { "child", tok, rt, (t + r) % 3 == 0 ? "single" : "mt", NULL };
    int codes[2] = { -1, -1 };
    MPI_Comm ic = MPI_COMM_NULL;
    int rc = MPI_Comm_spawn(self, cargv, n, MPI_INFO_NULL, root, dups[t], &ic, codes);
    CHECK_INTO(errs, 5, rc == MPI_SUCCESS, "thread %d round %d: spawn returned %d", t, r, rc);
    if (rc != MPI_SUCCESS)
        return errs;
    for (int i = 0; i < n; i++)
        CHECK_INTO(errs, 5, codes[i] == MPI_SUCCESS, "thread %d round %d: errcode[%d] = %d", t,
               r, i, codes[i]);
    int rs = -1;
    MPI_Comm_remote_size(ic, &rs);
    CHECK_INTO(errs, 5, rs == n, "thread %d round %d: remote size %d want %d", t, r, rs, n);
    if (rank == root) {
        for (int i = 0; i < n; i++)
            MPI_Send(&token, 1, MPI_INT, i, TOKEN_TAG, ic);
        for (int i = 0; i < n; i++) {
            int v = -1;
            MPI_Recv(&v, 1, MPI_INT, i, REPLY_TAG, ic, MPI_STATUS_IGNORE);
            CHECK_INTO(errs, 5, v == token * 10 + i, "thread %d round %d: child %d answered %d",
                   t, r, i, v);
        }
    }
    rc = MPI_Comm_disconnect(&ic);
    CHECK_INTO(errs, 5, rc == MPI_SUCCESS && ic == MPI_COMM_NULL,
           "thread %d round %d: disconnect returned %d", t, r, rc);
    return errs;
}

static void *thread_main(void *arg)
{
    int t = (int)(size_t)arg, errs = 0;
    for (int r = 0; r < rounds; r++)
        errs += one_round(t, r);
    return (void *)(size_t)errs;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "child") == 0)
        return child(argv + 1);
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    self = argv[0];
    int nthreads = argc > 1 ? atoi(argv[1]) : 4;
    if (argc > 2)
        rounds = atoi(argv[2]);
    if (nthreads < 1 || nthreads > MAX_THREADS)
        nthreads = 4;
    for (int t = 0; t < nthreads; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &dups[t]);
    pthread_t th[MAX_THREADS];
    for (int t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, thread_main, (void *)(size_t)t);
    for (int t = 0; t < nthreads; t++) {
        void *e = NULL;
        pthread_join(th[t], &e);
        ct_errors += (int)(size_t)e;
    }
    for (int t = 0; t < nthreads; t++)
        MPI_Comm_free(&dups[t]);
    int v = ct_rank + 1, s = 0;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(s == ct_size * (ct_size + 1) / 2, "allreduce after the spawns: %d", s);
    return ct_finish();
}
