/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* MPI_Init_thread reports the level truly supported: the required one
 * (every level up to MPI_THREAD_MULTIPLE is).
 * argv[1]: single | funneled | serialized | multiple. Is_thread_main is
 * false in another thread. */
#include <mpi.h>
#include <pthread.h>
#include "env_util.h"

static void *other(void *arg)
{
    int flag = -1;
    MPI_Is_thread_main(&flag);
    *(int *)arg = flag;
    return NULL;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; int level; } levels[] = {
        { "single", MPI_THREAD_SINGLE }, { "funneled", MPI_THREAD_FUNNELED },
        { "serialized", MPI_THREAD_SERIALIZED }, { "multiple", MPI_THREAD_MULTIPLE },
    };
    int required = MPI_THREAD_MULTIPLE, provided = -1, q = -1, rank = 0;

    for (size_t i = 0; argc > 1 && i < 4; i++)
        if (strcmp(argv[1], levels[i].name) == 0)
            required = levels[i].level;
    CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED && MPI_THREAD_FUNNELED <
          MPI_THREAD_SERIALIZED && MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
          "levels are monotonic");
    CHECK(MPI_Init_thread(&argc, &argv, required, &provided) == MPI_SUCCESS, "init");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int want = required;
    CHECK(provided == want, "required %d: provided %d, want %d", required, provided, want);
    MPI_Query_thread(&q);
    CHECK(q == provided, "query_thread %d != provided %d", q, provided);

    int flag = -1;
    MPI_Is_thread_main(&flag);
    CHECK(flag == 1, "main thread: %d", flag);
    if (provided >= MPI_THREAD_FUNNELED) {
        pthread_t t;
        int oflag = -1;
        pthread_create(&t, NULL, other, &oflag);
        pthread_join(t, NULL);
        CHECK(oflag == 0, "another thread is main: %d", oflag);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
