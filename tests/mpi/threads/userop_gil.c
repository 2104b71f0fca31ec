/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * userop_gil.c - user reduction ops run without the library's lock, in
 * blocking, nonblocking and persistent collectives and in
 * MPI_Reduce_local, the way an interpreter needs it (mpi4py: a Python op
 * takes the interpreter lock, and another thread holding that lock calls
 * MPI). Here the "interpreter lock" is a recursive mutex G: the op takes G;
 * thread 1 holds G while it calls MPI_Iprobe again and again; thread 0 runs
 * the collectives without holding G. An op called with the library's lock
 * held deadlocks both threads (thread 0 holds the library and waits for G,
 * thread 1 holds G and waits for the library): the time limit fails it.
 * Results are checked: x0 op x1 op ... in rank order, a non-commutative op.
 */
#include "mt_util.h"

#define ITER 200

static pthread_mutex_t G;
static atomic_int stop;
static MPI_Op affine;           /* (a, b) o (c, d) = (a c, a d + b): not commutative */

static void affine_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    pthread_mutex_lock(&G);
    long *x = in, *y = inout;   /* y = x o y */
    for (int i = 0; i < *len; i++) {
        long a = x[2 * i], b = x[2 * i + 1], c = y[2 * i], d = y[2 * i + 1];
        y[2 * i] = a * c;
        y[2 * i + 1] = a * d + b;
    }
    pthread_mutex_unlock(&G);
}

/* x_r = (1 + (r % 2), r + 1); want = x_0 o x_1 o ... o x_(p-1) */
static void expect(long *w)
{
    w[0] = 1, w[1] = 0;
    for (int r = mt_size - 1; r >= 0; r--) {
        long a = 1 + r % 2, b = r + 1;
        w[1] = a * w[1] + b;
        w[0] = a * w[0];
    }
}

static void *collectives(void)
{
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_LONG, &pair);
    MPI_Type_commit(&pair);
    long mine[2] = { 1 + mt_rank % 2, mt_rank + 1 }, got[2], want[2];
    expect(want);
    MPI_Request preq;
    MT_RC(MPI_Allreduce_init(mine, got, 1, pair, affine, MPI_COMM_WORLD, MPI_INFO_NULL, &preq));
    for (int it = 0; it < ITER; it++) {
        MPI_Request r;
        switch (it % 3) {
        case 0:
            MT_RC(MPI_Iallreduce(mine, got, 1, pair, affine, MPI_COMM_WORLD, &r));
            MT_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
            break;
        case 1:
            MT_RC(MPI_Start(&preq));
            MT_RC(MPI_Wait(&preq, MPI_STATUS_IGNORE));
            break;
        default:
            MT_RC(MPI_Allreduce(mine, got, 1, pair, affine, MPI_COMM_WORLD));
        }
        MT_CHECK(got[0] == want[0] && got[1] == want[1], "iteration %d: (%ld, %ld), want "
                 "(%ld, %ld)", it, got[0], got[1], want[0], want[1]);
        long loc[2] = { 3, 4 }, io[2] = { 5, 6 };
        MT_RC(MPI_Reduce_local(loc, io, 1, pair, affine));
        MT_CHECK(io[0] == 15 && io[1] == 22, "Reduce_local: (%ld, %ld)", io[0], io[1]);
    }
    MPI_Request_free(&preq);
    MPI_Type_free(&pair);
    return NULL;
}

static void *prober(void)
{
    while (!atomic_load(&stop)) {
        int flag;
        pthread_mutex_lock(&G);
        MT_RC(MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE));
        pthread_mutex_unlock(&G);
    }
    return NULL;
}

static void *worker(void *arg)
{
    if ((long)arg == 1)
        return prober();
    collectives();
    atomic_store(&stop, 1);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&G, &at);
    MPI_Op_create(affine_fn, 0, &affine);
    mt_run(2, worker);
    MPI_Op_free(&affine);
    return mt_finish();
}
