/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Nonblocking collectives from several threads on several communicators:
 * T threads per rank, each with its own duplicate of MPI_COMM_WORLD, start
 * an Iallreduce, an Ibcast and an Ibarrier, then complete them (Waitall,
 * or a Test loop); plus blocking Allreduce and a user-defined reduction.
 * Every result is checked against what the ranks contributed. */
#include "mt_util.h"

#define T 4
#define ITER 40
#define LEN 64

static MPI_Comm comms[T];
static MPI_Op maxabs;

static void *worker(void *arg)
{
    int t = (int)(long)arg, n = mt_size;
    MPI_Comm c = comms[t];
    for (int it = 0; it < ITER; it++) {
        int sum[LEN], mine[LEN], bc[LEN];
        for (int i = 0; i < LEN; i++) {
            mine[i] = mt_rank + t + it + i;
            bc[i] = mt_rank == it % n ? t * 7 + it + i : -1;
        }
        MPI_Request r[3];
        MT_RC(MPI_Iallreduce(mine, sum, LEN, MPI_INT, MPI_SUM, c, &r[0]));
        MT_RC(MPI_Ibcast(bc, LEN, MPI_INT, it % n, c, &r[1]));
        MT_RC(MPI_Ibarrier(c, &r[2]));
        if (it % 2 == 0) {
            MT_RC(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
        } else {
            int flag = 0;
            while (!flag)
                MT_RC(MPI_Testall(3, r, &flag, MPI_STATUSES_IGNORE));
        }
        for (int i = 0; i < LEN; i++) {
            int want = n * (t + it + i) + n * (n - 1) / 2;
            MT_CHECK(sum[i] == want, "thread %d iter %d: sum[%d] %d, want %d", t, it, i, sum[i],
                     want);
            MT_CHECK(bc[i] == t * 7 + it + i, "thread %d iter %d: bcast[%d] %d", t, it, i, bc[i]);
        }
        int v = (mt_rank % 2 ? -1 : 1) * (mt_rank + 1) * (t + 1), m = 0;
        MT_RC(MPI_Allreduce(&v, &m, 1, MPI_INT, maxabs, c));
        MT_CHECK(abs(m) == n * (t + 1), "thread %d: maxabs %d", t, m);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Op_create(mt_maxabs, 1, &maxabs);
    for (int t = 0; t < T; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    mt_run(T, worker);
    for (int t = 0; t < T; t++)
        MPI_Comm_free(&comms[t]);
    MPI_Op_free(&maxabs);
    return mt_finish();
}
