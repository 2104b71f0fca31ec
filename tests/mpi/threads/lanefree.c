/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* The last reference of a communicator dropped in a lane call (run with
 * XB_PROGRESS_CONTEXTS=2 or 3; docs/design/threads.md "Progress
 * contexts"): T threads per rank each make K duplicates of their own
 * parent, post a receive and a send on each, free them, then complete the
 * requests (MPI_Wait, a lane call, or MPI_Testall), so most duplicates are
 * destroyed when their last request goes, under one lane's lock, while
 * the other threads do the same on other lanes; the destruction itself
 * waits for a holder of all the locks (xb_comm_bury). Every message must
 * arrive, and the context ids must all come back (40 rounds of K
 * duplicates per thread). Under ThreadSanitizer (make tsan-test) it did
 * not report the race of the destruction under a lane's lock alone when
 * that was put back (other synchronisation between the lanes orders the
 * accesses for it): a run of the path, not a proof of the fix. */
#include "mt_util.h"

#define T 3
#define K 16
#define ITER 40

static MPI_Comm parents[T];

/* K duplicates made and freed (under all the locks), then their requests
 * completed by lane calls only, while the other threads do the same: the
 * destructions of one phase have no order between them but the locks. */
static void *body(void *arg)
{
    int t = (int)(long)arg, peer = (mt_rank + 1) % mt_size;
    int from = (mt_rank + mt_size - 1) % mt_size;
    for (int it = 0; it < ITER; it++) {
        MPI_Request rq[K][2];
        int in[K], out[K];
        for (int k = 0; k < K; k++) {
            MPI_Comm c;
            in[k] = -1;
            out[k] = (it * K + k) * T + t;
            MT_RC(MPI_Comm_dup(parents[t], &c));
            MT_RC(MPI_Irecv(&in[k], 1, MPI_INT, from, k, c, &rq[k][0]));
            MT_RC(MPI_Isend(&out[k], 1, MPI_INT, peer, k, c, &rq[k][1]));
            MT_RC(MPI_Comm_free(&c));
        }
        for (int k = 0; k < K; k++) {
            if ((it + k) % 2 == 0) {
                MT_RC(MPI_Wait(&rq[k][1], MPI_STATUS_IGNORE));
                MT_RC(MPI_Wait(&rq[k][0], MPI_STATUS_IGNORE));
            } else {
                int flag = 0;
                while (!flag)
                    MT_RC(MPI_Testall(2, rq[k], &flag, MPI_STATUSES_IGNORE));
            }
            MT_CHECK(in[k] == out[k], "thread %d iteration %d message %d: got %d", t, it, k,
                     in[k]);
        }
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
