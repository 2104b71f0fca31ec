/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* mt_util.h - helpers of the MPI_THREAD_MULTIPLE tests (header only): an
 * error count threads may bump together, init that insists on MULTIPLE,
 * starting and joining T threads, and the "No Errors" summary. */
#ifndef MT_UTIL_H
#define MT_UTIL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

static atomic_int mt_errors;
static int mt_rank, mt_size;

#define MT_CHECK(cond, ...)                                                   \
    do {                                                                      \
        if (!(cond)) {                                                        \
            if (atomic_fetch_add(&mt_errors, 1) < 20) {                       \
                char m_[256];                                                 \
                snprintf(m_, sizeof(m_), __VA_ARGS__);                        \
                printf("rank %d: FAIL %s:%d: %s\n", mt_rank, __FILE__,        \
                       __LINE__, m_);                                         \
                fflush(stdout);                                               \
            }                                                                 \
        }                                                                     \
    } while (0)

#define MT_RC(call)                                                           \
    do {                                                                      \
        int rc_ = (call);                                                     \
        MT_CHECK(rc_ == MPI_SUCCESS, "%s returned %d", #call, rc_);           \
    } while (0)

static inline void mt_init(int *argc, char ***argv)
{
    int provided = -1;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mt_size);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("rank %d: MPI_THREAD_MULTIPLE not provided (%d)\n", mt_rank, provided);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* A user reduction: the element of larger absolute value (MPI_INT), for
 * the tests of user ops from several threads. */
static inline void mt_maxabs(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        if (abs(a[i]) > abs(b[i]))
            b[i] = a[i];
}

/* Run fn(i) on T threads and join them. */
static inline void mt_run(int nthreads, void *(*fn)(void *))
{
    pthread_t t[64];
    for (long i = 0; i < nthreads; i++)
        if (pthread_create(&t[i], NULL, fn, (void *)i) != 0)
            MT_CHECK(0, "pthread_create %ld", i);
    for (int i = 0; i < nthreads; i++)
        pthread_join(t[i], NULL);
}

static inline int mt_finish(void)
{
    int mine = atomic_load(&mt_errors), total = 0;
    MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0) {
        if (total == 0)
            printf(" No Errors\n");
        else
            printf(" Found %d errors\n", total);
    }
    MPI_Finalize();
    return mine != 0;
}

#endif
