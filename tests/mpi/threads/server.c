/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* A parallel server (the I-WAY paper's pattern): on rank 0, T threads all
 * receive on one communicator and one tag from MPI_ANY_SOURCE and answer
 * each request; every other rank runs T client threads that send requests
 * and check each answer. Every request is served exactly once (counted per
 * client), whichever server thread takes it. When every client rank has
 * said it is done, rank 0's main thread sends each server thread a stop
 * message (to itself). */
#include "mt_util.h"

#define T 4
#define REQS 100
#define TAG_REQ 1
#define TAG_STOP 2

static MPI_Comm comm;
static atomic_int served[64][T][REQS];

static void *server(void *arg)
{
    (void)arg;
    for (;;) {
        int req[3];
        MPI_Status st;
        MT_RC(MPI_Recv(req, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st));
        if (st.MPI_TAG == TAG_STOP)
            break;
        MT_CHECK(st.MPI_TAG == TAG_REQ && req[0] == st.MPI_SOURCE, "request from %d tag %d",
                 req[0], st.MPI_TAG);
        if (req[0] > 0 && req[0] < 64 && req[1] >= 0 && req[1] < T && req[2] >= 0 &&
            req[2] < REQS)
            atomic_fetch_add(&served[req[0]][req[1]][req[2]], 1);
        int answer = req[0] * 1000000 + req[1] * 1000 + req[2];
        /* the answer goes to the client thread's own tag */
        MT_RC(MPI_Send(&answer, 1, MPI_INT, st.MPI_SOURCE, 10 + req[1], comm));
    }
    return NULL;
}

static void *client(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < REQS; i++) {
        int req[3] = { mt_rank, t, i }, answer = -1;
        MT_RC(MPI_Send(req, 3, MPI_INT, 0, TAG_REQ, comm));
        MT_RC(MPI_Recv(&answer, 1, MPI_INT, 0, 10 + t, comm, MPI_STATUS_IGNORE));
        MT_CHECK(answer == mt_rank * 1000000 + t * 1000 + i, "answer %d to request %d/%d",
                 answer, t, i);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    if (mt_rank == 0) {
        pthread_t th[T];
        for (long t = 0; t < T; t++)
            pthread_create(&th[t], NULL, server, (void *)t);
        for (int r = 1; r < mt_size; r++)
            MT_RC(MPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int t = 0; t < T; t++)
            MT_RC(MPI_Send(NULL, 0, MPI_INT, 0, TAG_STOP, comm));
        for (int t = 0; t < T; t++)
            pthread_join(th[t], NULL);
        for (int r = 1; r < mt_size && r < 64; r++)
            for (int t = 0; t < T; t++)
                for (int i = 0; i < REQS; i++)
                    MT_CHECK(atomic_load(&served[r][t][i]) == 1, "request %d/%d/%d served %d times",
                             r, t, i, atomic_load(&served[r][t][i]));
    } else {
        mt_run(T, client);
        MT_RC(MPI_Send(NULL, 0, MPI_INT, 0, 3, MPI_COMM_WORLD));
    }
    MPI_Comm_free(&comm);
    return mt_finish();
}
