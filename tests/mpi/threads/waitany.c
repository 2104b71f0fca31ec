/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Completion of requests started by other threads: on every rank, T
 * threads each post Irecvs into a shared request array and go away; the
 * main thread completes them all with MPI_Waitany (and a second round with
 * MPI_Testsome and MPI_Waitall) while the peer's threads send. Each index
 * completes once, with the contents and status of its own message. */
#include "mt_util.h"

#define T 4
#define PER 16
#define N (T * PER)

static MPI_Request reqs[N];
static int bufs[N][4];
static MPI_Comm comm;
static int peer, me;

static void *poster(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < PER; i++) {
        int k = t * PER + i;
        MT_RC(MPI_Irecv(bufs[k], 4, MPI_INT, peer, k, comm, &reqs[k]));
    }
    return NULL;
}

static void *sender(void *arg)
{
    int t = (int)(long)arg;
    for (int i = PER - 1; i >= 0; i--) {        /* in reverse, to mix them */
        int k = t * PER + i, out[4] = { me, k, k * 3, -k };
        MT_RC(MPI_Send(out, 4, MPI_INT, peer, k, comm));
    }
    return NULL;
}

static void check(int k)
{
    MT_CHECK(bufs[k][0] == peer && bufs[k][1] == k && bufs[k][2] == k * 3 && bufs[k][3] == -k,
             "message %d: %d %d %d %d", k, bufs[k][0], bufs[k][1], bufs[k][2], bufs[k][3]);
}

static void round_(int how)
{
    memset(bufs, 0xff, sizeof(bufs));
    mt_run(T, poster);
    MPI_Barrier(comm);                     /* every receive is posted */
    pthread_t th[T];
    for (long t = 0; t < T; t++)
        pthread_create(&th[t], NULL, sender, (void *)t);
    int done[N] = { 0 };
    if (how == 0) {
        for (int n = 0; n < N; n++) {
            int idx = -1;
            MPI_Status st;
            MT_RC(MPI_Waitany(N, reqs, &idx, &st));
            MT_CHECK(idx >= 0 && idx < N && !done[idx], "waitany index %d", idx);
            if (idx >= 0 && idx < N) {
                done[idx] = 1;
                MT_CHECK(st.MPI_TAG == idx && st.MPI_SOURCE == peer, "status %d/%d for %d",
                         st.MPI_SOURCE, st.MPI_TAG, idx);
                check(idx);
            }
        }
        int idx = 0;
        MT_RC(MPI_Waitany(N, reqs, &idx, MPI_STATUS_IGNORE));
        MT_CHECK(idx == MPI_UNDEFINED, "all null: index %d", idx);
    } else {
        int got = 0;
        while (got < N / 2) {
            int out = 0, idx[N];
            MT_RC(MPI_Testsome(N, reqs, &out, idx, MPI_STATUSES_IGNORE));
            for (int j = 0; j < out && out != MPI_UNDEFINED; j++) {
                MT_CHECK(!done[idx[j]], "testsome index %d twice", idx[j]);
                done[idx[j]] = 1;
                check(idx[j]);
                got++;
            }
        }
        MT_RC(MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE));
        for (int k = 0; k < N; k++)
            check(k);
    }
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    /* pairs (0,1), (2,3) ...; a last odd rank is alone and only checks */
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank / 2, mt_rank, &comm);
    int n;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    peer = 1 - me;
    if (n == 2) {
        round_(0);
        round_(1);
    }
    MPI_Comm_free(&comm);
    return mt_finish();
}
