/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* The last reference of a communicator dropped in a lane call (run with
 * XB_PROGRESS_CONTEXTS=2; docs/design/threads.md "Progress contexts"):
 * T threads per rank each duplicate their own parent, post a receive and
 * a send on the duplicate, free it, then complete the two requests, so
 * the communicator is destroyed when the last request goes, which happens
 * in a lane call (or at a lane's drain of its deferred requests) while the
 * other threads do the same on other lanes. The destruction changes
 * main-context state (context ids, the free list of communicators): done
 * under one lane's lock only, ThreadSanitizer sees two lanes race on it
 * (make tsan-test); here the context ids must still all come back (the
 * duplicates go on forever without running out). */
#include "mt_util.h"

#define T 3
#define ITER 300

static MPI_Comm parents[T];

static void *body(void *arg)
{
    int t = (int)(long)arg, peer = (mt_rank + 1) % mt_size;
    int from = (mt_rank + mt_size - 1) % mt_size;
    for (int it = 0; it < ITER; it++) {
        MPI_Comm c;
        MPI_Request rq[2];
        int in = -1, out = it * T + t;
        MT_RC(MPI_Comm_dup(parents[t], &c));
        MT_RC(MPI_Irecv(&in, 1, MPI_INT, from, it, c, &rq[0]));
        MT_RC(MPI_Isend(&out, 1, MPI_INT, peer, it, c, &rq[1]));
        MT_RC(MPI_Comm_free(&c));
        if (it % 2 == 0) {
            MT_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        } else {
            int flag = 0;
            while (!flag)
                MT_RC(MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE));
        }
        MT_CHECK(in == it * T + t, "thread %d iteration %d: got %d", t, it, in);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (int t = 0; t < T; t++)
        MT_RC(MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]));
    mt_run(T, body);
    for (int t = 0; t < T; t++)
        MT_RC(MPI_Comm_free(&parents[t]));
    return mt_finish();
}
