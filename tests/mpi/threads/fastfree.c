/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* What the lock-free completion calls leave behind (docs/design/threads.md
 * "Lock-free calls"; found in review, 2026-11-29):
 *   - stale: a second MPI_Wait through a copy of a handle that the
 *     lock-free path reported is MPI_ERR_REQUEST, as below MULTIPLE (it
 *     used to be accepted and to push the request on the deferred stack a
 *     second time: a cycle that the next drain, at the latest in
 *     MPI_Finalize, never left);
 *   - anybad: MPI_Waitany/Testany over { a completed request, an invalid
 *     handle } is MPI_ERR_REQUEST, as the locked call (it reported index 0);
 *   - memory: 24 rounds of MPI_Iallreduce of 8 MiB, each tested until
 *     done and completed by MPI_Wait (lock-free), grow the resident size by
 *     less than 4 temporary buffers (each request's schedule is freed at
 *     the next poll; before, they all waited for the pool to run empty:
 *     one buffer a round). A bound on memory, not on time;
 *   - reuse: a second MPI_Iallreduce of 8 MiB started while the first is
 *     complete but not yet freed takes its temporary buffer;
 *   - at MPI_Finalize a COMM_SELF delete callback completes a request
 *     lock-free; it is freed after the callbacks (its references dropped).
 */
#include <unistd.h>
#include "mt_util.h"

static int junk[64];        /* not a request */

static void stale(void)
{
    int x = 42, y = 0, flag = 0, cls = -1;
    MPI_Request rs, rr;
    MT_RC(MPI_Irecv(&y, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &rr));
    MT_RC(MPI_Isend(&x, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &rs));
    MT_RC(MPI_Wait(&rs, MPI_STATUS_IGNORE));
    while (!flag)
        MT_RC(MPI_Request_get_status(rr, &flag, MPI_STATUS_IGNORE));
    MPI_Request copy = rr, copy2 = rr;
    MT_RC(MPI_Wait(&rr, MPI_STATUS_IGNORE));
    MT_CHECK(y == 42 && rr == MPI_REQUEST_NULL, "first Wait: y %d", y);
    int rc = MPI_Wait(&copy, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_REQUEST, "second Wait through a stale copy: rc %d class %d", rc, cls);
    flag = 0;
    rc = MPI_Test(&copy2, &flag, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_REQUEST, "Test through a stale copy: rc %d class %d", rc, cls);
    /* an allocation, a poll and a communicator creation drain the stack */
    MT_RC(MPI_Irecv(&y, 1, MPI_INT, 0, 6, MPI_COMM_SELF, &rr));
    MT_RC(MPI_Send(&x, 1, MPI_INT, 0, 6, MPI_COMM_SELF));
    MT_RC(MPI_Wait(&rr, MPI_STATUS_IGNORE));
    MPI_Comm dup;
    MT_RC(MPI_Comm_dup(MPI_COMM_SELF, &dup));
    MT_RC(MPI_Comm_free(&dup));
}

static void anybad(void)
{
    int x = 1, y = 0, flag = 0, idx = -7, cls = -1;
    MPI_Request rq[2];
    MT_RC(MPI_Irecv(&y, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &rq[0]));
    MT_RC(MPI_Send(&x, 1, MPI_INT, 0, 7, MPI_COMM_SELF));
    while (!flag)
        MT_RC(MPI_Request_get_status(rq[0], &flag, MPI_STATUS_IGNORE));
    rq[1] = (MPI_Request)(void *)junk;
    int rc = MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_REQUEST, "Waitany { done, invalid }: rc %d class %d index %d", rc,
             cls, idx);
    flag = 0;
    rc = MPI_Testany(2, rq, &idx, &flag, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_REQUEST, "Testany { done, invalid }: rc %d class %d", rc, cls);
    MT_CHECK(rq[0] != MPI_REQUEST_NULL, "the done request was reported by a failed call");
    rq[1] = MPI_REQUEST_NULL;
    MT_RC(MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE));
    MT_CHECK(idx == 0 && rq[0] == MPI_REQUEST_NULL && y == 1, "Waitany { done, null }: index %d",
             idx);
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f != NULL && fgets(line, sizeof(line), f) != NULL)
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = atol(line + 6);
    if (f != NULL)
        fclose(f);
    return kb;
}

static void memory(void)
{
    enum { N = 1 << 20, ROUNDS = 24 };      /* 8 MiB of doubles */
    double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
    MT_CHECK(a != NULL && b != NULL, "no memory");
    for (int i = 0; i < N; i++)
        a[i] = 1.0;
    memset(b, 0, N * sizeof(double));
    long base = 0;
    for (int it = 0; it < ROUNDS; it++) {
        if (it == 2)
            base = rss_kib();               /* after the first buffers */
        MPI_Request r;
        int flag = 0;
        MT_RC(MPI_Iallreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r));
        while (!flag)
            MT_RC(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
        MT_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MT_CHECK(b[0] == mt_size && b[N - 1] == mt_size, "round %d: %g", it, b[0]);
    }
    long grown = rss_kib() - base;
    MT_CHECK(grown < 4L * (long)(N * sizeof(double) / 1024),
             "resident size grew by %ld KiB over %d rounds of a %zu KiB Iallreduce", grown,
             ROUNDS - 2, N * sizeof(double) / 1024);
    free(a);
    free(b);
}

/* Two calls outstanding: the second, started when the first is complete
 * but its request not yet freed, takes the first one's temporary buffer
 * (a finished schedule gives its buffers back when it finishes,
 * xb_coll_sched_release; until 2026-12-07 only at the request's free, and
 * the second call mapped and touched a buffer of its own). */
static void reuse(void)
{
    enum { N = 1 << 20 };                   /* 8 MiB of doubles */
    double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
    double *c = malloc(N * sizeof(double));
    MT_CHECK(a != NULL && b != NULL && c != NULL, "no memory");
    for (int i = 0; i < N; i++)
        a[i] = 2.0;
    memset(b, 0, N * sizeof(double));
    memset(c, 0, N * sizeof(double));       /* resident before the count */
    MPI_Request r[2];
    long base = 0;
    for (int k = 0; k < 2; k++) {
        int flag = 0;
        MT_RC(MPI_Iallreduce(a, k == 0 ? b : c, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[k]));
        while (!flag)
            MT_RC(MPI_Request_get_status(r[k], &flag, MPI_STATUS_IGNORE));
        if (k == 0)
            base = rss_kib();               /* the first one's buffer counted */
    }
    long grown = rss_kib() - base;
    MT_RC(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    MT_CHECK(b[N - 1] == 2.0 * mt_size && c[N - 1] == 2.0 * mt_size, "reuse: %g %g",
             b[N - 1], c[N - 1]);
    /* the rounds' buffer is the p-th part of the vector (2 ranks: 4 MiB,
     * 3 ranks: 2.7 MiB); reused, 0-4 KiB grew */
    MT_CHECK(grown < (long)(N * sizeof(double) / 1024 / 4),
             "resident size grew by %ld KiB with a finished %zu KiB Iallreduce not yet "
             "freed and a second one", grown, N * sizeof(double) / 1024);
    free(a);
    free(b);
    free(c);
}

/* At MPI_Finalize: a lock-free report inside a COMM_SELF delete callback. */
static int at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm; (void)key; (void)val; (void)extra;
    int x = 3, y = 0, flag = 0;
    MPI_Datatype t;
    MPI_Request r;
    MPI_Type_contiguous(1, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Irecv(&y, 1, t, 0, 9, MPI_COMM_SELF, &r);
    MPI_Type_free(&t);                  /* the request holds the last reference */
    MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_SELF);
    while (!flag)
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return y == 3 ? MPI_SUCCESS : MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    stale();
    anybad();
    reuse();                                /* first: nothing cached yet */
    memory();
    int key;
    MT_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &key, NULL));
    MT_RC(MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL));
    return mt_finish();
}
