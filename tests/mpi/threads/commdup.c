/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Concurrent communicator creation: T threads per rank, each on its own
 * parent communicator, repeatedly Comm_dup, use the new communicator
 * (an Allreduce and a ring exchange on it) and Comm_free it. The context
 * ids agreed concurrently must all differ (a mix-up shows as wrong sums or
 * messages landing on the wrong communicator); then Comm_split and
 * Comm_create_group the same way. */
#include "mt_util.h"

#define T 4
#define ITER 30

static MPI_Comm parent[T];

static void use(MPI_Comm c, int t, int i)
{
    int v = mt_rank + t * 1000 + i, sum = -1, n;
    MPI_Comm_size(c, &n);
    MT_RC(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c));
    int want = 0, rank;
    MPI_Comm_rank(c, &rank);
    int ranks[64];
    MPI_Group g, wg;
    MPI_Comm_group(c, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int idx[64];
    for (int k = 0; k < n; k++)
        idx[k] = k;
    MPI_Group_translate_ranks(g, n, idx, wg, ranks);
    for (int k = 0; k < n; k++)
        want += ranks[k] + t * 1000 + i;
    MT_CHECK(sum == want, "thread %d iter %d: allreduce %d, want %d", t, i, sum, want);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    int out = t * 100000 + i * 100 + rank, in = -1;
    MT_RC(MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % n, 7, &in, 1, MPI_INT,
                       (rank + n - 1) % n, 7, c, MPI_STATUS_IGNORE));
    MT_CHECK(in == t * 100000 + i * 100 + (rank + n - 1) % n, "thread %d iter %d: got %d", t,
             i, in);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < ITER; i++) {
        MPI_Comm c;
        MT_RC(MPI_Comm_dup(parent[t], &c));
        use(c, t, i);
        if (i % 3 == 1) {           /* a second level, freed first */
            MPI_Comm d;
            MT_RC(MPI_Comm_split(c, mt_rank % 2, mt_rank, &d));
            use(d, t, i);
            MT_RC(MPI_Comm_free(&d));
        } else if (i % 3 == 2) {
            MPI_Group g;
            MPI_Comm d;
            MPI_Comm_group(c, &g);
            MT_RC(MPI_Comm_create_group(c, g, t, &d));
            use(d, t, i);
            MT_RC(MPI_Comm_free(&d));
            MPI_Group_free(&g);
        }
        MT_RC(MPI_Comm_free(&c));
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
