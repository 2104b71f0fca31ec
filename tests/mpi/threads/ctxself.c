/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* A communicator of one made while another thread agrees on a context id
 * across ranks. Two threads per rank, each with its own parent
 * communicator; on each rank one of them starts late. Each thread makes a
 * communicator of one (MPI_Comm_dup of MPI_COMM_SELF, or
 * MPI_Comm_create_group of the self group) while holding a lock of the
 * program, then dups its parent. The late thread of rank 0 is thread 0, that
 * of rank 1 thread 1: if making the communicator of one waited for the
 * round in flight on the other parent, that round would wait for the other
 * rank's locked thread, and the job would hang (the agreement of one
 * process runs no round: src/comm/ctxid.c). The communicators are then
 * used, so ids shared by mistake show as wrong data. */
#include <pthread.h>
#include <unistd.h>
#include "mt_util.h"

#define T 2
#define ITER 6

static MPI_Comm parent[T];
static pthread_mutex_t user_lock = PTHREAD_MUTEX_INITIALIZER;

static MPI_Comm make_one(int i)
{
    MPI_Comm one;
    if (i % 2 == 0) {
        MT_RC(MPI_Comm_dup(MPI_COMM_SELF, &one));
    } else {
        MPI_Group g;
        MPI_Comm_group(MPI_COMM_SELF, &g);
        MT_RC(MPI_Comm_create_group(MPI_COMM_SELF, g, 5, &one));
        MPI_Group_free(&g);
    }
    return one;
}

static void use(MPI_Comm one, MPI_Comm c, int t, int i)
{
    int n, rank, in = -1, out = t * 1000 + i, sum = -1;
    MPI_Comm_size(one, &n);
    MT_CHECK(n == 1, "thread %d iter %d: communicator of one has %d ranks", t, i, n);
    MT_RC(MPI_Sendrecv(&out, 1, MPI_INT, 0, 3, &in, 1, MPI_INT, 0, 3, one,
                       MPI_STATUS_IGNORE));
    MT_CHECK(in == out, "thread %d iter %d: self got %d, want %d", t, i, in, out);
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &rank);
    out = rank + t * 100 + i;
    MT_RC(MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, c));
    int want = n * (n - 1) / 2 + n * (t * 100 + i);
    MT_CHECK(sum == want, "thread %d iter %d: allreduce %d, want %d", t, i, sum, want);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < ITER; i++) {
        if (i == 0 && mt_rank % T == t)
            usleep(300 * 1000);         /* the late thread of this rank */
        pthread_mutex_lock(&user_lock);
        MPI_Comm one = make_one(i);
        pthread_mutex_unlock(&user_lock);
        MPI_Comm c;
        MT_RC(MPI_Comm_dup(parent[t], &c));
        use(one, c, t, i);
        MT_RC(MPI_Comm_free(&c));
        MT_RC(MPI_Comm_free(&one));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (int t = 0; t < T; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &parent[t]);
    mt_run(T, worker);
    for (int t = 0; t < T; t++)
        MPI_Comm_free(&parent[t]);
    return mt_finish();
}
