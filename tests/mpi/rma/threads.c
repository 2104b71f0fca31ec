/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* threads.c - one-sided calls from several threads (MPI_THREAD_MULTIPLE):
 * every thread of every rank adds to a counter at rank 0 with
 * MPI_Fetch_and_op + MPI_Win_flush under one lock_all, and each thread
 * also locks, accumulates into and unlocks every rank of a window of its
 * own. Totals are checked against the counts. */
#include <pthread.h>
#include "../common/ctest.h"

enum { T = 4, ITER = 25 };

static MPI_Win counter_win, own_win[T];

static void *work(void *arg)
{
    int t = (int)(intptr_t)arg;
    long one = 1, old;
    for (int k = 0; k < ITER; k++) {
        MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, counter_win);
        MPI_Win_flush(0, counter_win);
        int target = (ct_rank + k) % ct_size, v = t + 1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, own_win[t]);
        MPI_Accumulate(&v, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_SUM, own_win[t]);
        MPI_Win_unlock(target, own_win[t]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    long *cnt;
    int *own[T];
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &cnt,
                     &counter_win);
    *cnt = 0;
    for (int t = 0; t < T; t++) {
        MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &own[t],
                         &own_win[t]);
        *own[t] = 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, counter_win);
    pthread_t th[T];
    for (int t = 0; t < T; t++)
        pthread_create(&th[t], NULL, work, (void *)(intptr_t)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    MPI_Win_unlock_all(counter_win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        CHECK(*cnt == (long)T * ITER * ct_size, "counter %ld want %d", *cnt,
              T * ITER * ct_size);
    /* rank r is the target of rank s at iterations k with (s + k) % n == r */
    for (int t = 0; t < T; t++) {
        int want = 0;
        for (int s = 0; s < ct_size; s++)
            for (int k = 0; k < ITER; k++)
                if ((s + k) % ct_size == ct_rank)
                    want += t + 1;
        CHECK(*own[t] == want, "thread %d's window: %d want %d", t, *own[t], want);
        MPI_Win_free(&own_win[t]);
    }
    MPI_Win_free(&counter_win);
    return ct_finish();
}
