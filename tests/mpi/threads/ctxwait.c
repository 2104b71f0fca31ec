/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* A context-id agreement whose members arrive late must not stop another
 * agreement of theirs. Two threads per rank, "low" and "high", each making
 * a communicator over all ranks: with MPI_Comm_create_group (tags 0 and 2)
 * or MPI_Comm_dup (of two parents; the low one made first, so its key is
 * the lower). On every rank but 0 the high thread starts at once and the
 * low one late; on rank 0 the high thread starts only once its low thread
 * has finished. So the high agreement's first round waits on ranks 1.. for
 * rank 0, which waits for the low agreement, which needs ranks 1.. as well.
 * When a round held the whole free mask while it waited (before
 * 2026-11-29), the low agreement found no slot on ranks 1.. round after
 * round and the job spun for good (MPICH's
 * threads/comm/comm_create_group_threads2 did so in 1 run of 10). The new
 * communicators are used, so an id shared by mistake shows as wrong data.
 *
 * Then a communicator of one beside a round that holds every free slot:
 * rank 0 fills its pool with MPI_Comm_dup(MPI_COMM_SELF) until that fails
 * (it must fail with an error, not hang), frees 8, and dups a parent
 * (the others join late) while its second thread dups MPI_COMM_SELF: the
 * first round offers all 8, so the dup of one must wait for that round to
 * end, the lock released (spinning on it, no round could end). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "mt_util.h"

#define ITER 3
#define FREED 8                  /* slots rank 0 frees after filling its pool */

static MPI_Comm parent[2];
static MPI_Group world_group;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int low_done;             /* iterations the low thread finished */
static int use_dup;

static void make_and_use(int t, int i)
{
    MPI_Comm c;
    if (use_dup)
        MT_RC(MPI_Comm_dup(parent[t], &c));
    else
        MT_RC(MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 2 * t, &c));
    int n, rank, out, sum = -1;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &rank);
    out = rank + 100 * t + 10 * i;
    MT_RC(MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, c));
    int want = n * (n - 1) / 2 + n * (100 * t + 10 * i);
    MT_CHECK(sum == want, "%s thread %d iter %d: allreduce %d, want %d",
             use_dup ? "dup" : "create_group", t, i, sum, want);
    MT_RC(MPI_Comm_free(&c));
}

static void *low(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        if (mt_rank != 0)
            usleep(200 * 1000);          /* after the high thread's round */
        make_and_use(0, i);
        pthread_mutex_lock(&mu);
        low_done = i + 1;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

static void *high(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        if (mt_rank == 0) {              /* only after the low agreement */
            pthread_mutex_lock(&mu);
            while (low_done <= i)
                pthread_cond_wait(&cv, &mu);
            pthread_mutex_unlock(&mu);
        }
        make_and_use(1, i);
    }
    return NULL;
}

/* Rank 0: communicators of one on every free slot but FREED. */
static MPI_Comm *fill(int *n)
{
    size_t cap = 1024;
    MPI_Comm *ones = malloc(cap * sizeof(*ones));
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    *n = 0;
    for (;;) {
        if ((size_t)*n == cap)
            ones = realloc(ones, (cap *= 2) * sizeof(*ones));
        int rc = MPI_Comm_dup(MPI_COMM_SELF, &ones[*n]);
        if (rc != MPI_SUCCESS) {
            int cls;
            MPI_Error_class(rc, &cls);
            MT_CHECK(cls == MPI_ERR_OTHER, "a dup with no free slot failed "
                     "with class %d, want MPI_ERR_OTHER", cls);
            break;
        }
        ++*n;
    }
    MT_CHECK(*n > 1000, "only %d communicators of one", *n);
    for (int k = 0; k < FREED; k++)
        MT_RC(MPI_Comm_free(&ones[--*n]));
    return ones;
}

static void *self_dup(void *arg)
{
    (void)arg;
    usleep(100 * 1000);              /* inside the first round of the other */
    MPI_Comm one;
    MT_RC(MPI_Comm_dup(MPI_COMM_SELF, &one));
    int in = -1, out = 77;
    MT_RC(MPI_Sendrecv(&out, 1, MPI_INT, 0, 1, &in, 1, MPI_INT, 0, 1, one,
                       MPI_STATUS_IGNORE));
    MT_CHECK(in == out, "self dup: got %d, want %d", in, out);
    MT_RC(MPI_Comm_free(&one));
    return NULL;
}

static void run_full_pool(void)
{
    int n = 0;
    MPI_Comm *ones = mt_rank == 0 ? fill(&n) : NULL;
    pthread_t th;
    if (mt_rank == 0)
        pthread_create(&th, NULL, self_dup, NULL);
    else
        usleep(300 * 1000);          /* rank 0's round waits for us */
    use_dup = 1;
    make_and_use(0, 0);
    if (mt_rank == 0)
        pthread_join(th, NULL);
    for (int k = 0; k < n; k++)
        MT_RC(MPI_Comm_free(&ones[k]));
    free(ones);
}

static void run(void)
{
    pthread_t th[2];
    low_done = 0;
    pthread_create(&th[0], NULL, low, NULL);
    pthread_create(&th[1], NULL, high, NULL);
    pthread_join(th[0], NULL);
    pthread_join(th[1], NULL);
    MPI_Barrier(MPI_COMM_WORLD);         /* the next mode starts together */
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    for (int t = 0; t < 2; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &parent[t]);
    use_dup = 0;
    run();
    use_dup = 1;
    run();
    run_full_pool();
    for (int t = 0; t < 2; t++)
        MPI_Comm_free(&parent[t]);
    MPI_Group_free(&world_group);
    return mt_finish();
}
