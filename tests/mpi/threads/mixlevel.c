/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Processes of one job at different thread levels: rank 0 (PMI_RANK, or
 * the rank named by the argument "last": the highest one) asks for
 * MPI_THREAD_MULTIPLE, the others for MPI_THREAD_SINGLE. The ranks of a
 * communicator must still pick the same collective algorithms (the
 * shared-memory ones are off under threads): blocking collectives of
 * every kind, small and large, on COMM_WORLD and a split, are checked
 * against what the ranks contributed. Before the library agreed on the
 * job's thread use at MPI_Init, this hung at 2 and 3 ranks. */
#include <stdlib.h>
#include <string.h>
#include "ctest.h"

static void run(MPI_Comm c, int n)
{
    int r, p;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &p);
    int *v = ct_malloc((size_t)n * sizeof(int)), *w = ct_malloc((size_t)n * sizeof(int));
    int *all = ct_malloc((size_t)n * (size_t)p * sizeof(int));
    int *all2 = ct_malloc((size_t)n * (size_t)p * sizeof(int));
    for (int i = 0; i < n; i++)
        v[i] = r * 3 + i;
    CHECK_RC(MPI_Allreduce(v, w, n, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < n; i++)
        CHECK(w[i] == 3 * p * (p - 1) / 2 + p * i, "allreduce n %d [%d] = %d", n, i, w[i]);
    CHECK_RC(MPI_Reduce(v, w, n, MPI_INT, MPI_MAX, p - 1, c));
    for (int i = 0; r == p - 1 && i < n; i++)
        CHECK(w[i] == (p - 1) * 3 + i, "reduce n %d [%d] = %d", n, i, w[i]);
    for (int i = 0; i < n; i++)
        w[i] = r == 0 ? i * 5 : -1;
    CHECK_RC(MPI_Bcast(w, n, MPI_INT, 0, c));
    for (int i = 0; i < n; i++)
        CHECK(w[i] == i * 5, "bcast n %d [%d] = %d", n, i, w[i]);
    CHECK_RC(MPI_Allgather(v, n, MPI_INT, all, n, MPI_INT, c));
    for (int q = 0; q < p; q++)
        for (int i = 0; i < n; i++)
            CHECK(all[q * n + i] == q * 3 + i, "allgather n %d from %d [%d]", n, q, i);
    CHECK_RC(MPI_Gather(v, n, MPI_INT, all2, n, MPI_INT, 0, c));
    for (int q = 0; r == 0 && q < p; q++)
        for (int i = 0; i < n; i++)
            CHECK(all2[q * n + i] == q * 3 + i, "gather n %d from %d [%d]", n, q, i);
    for (int q = 0; q < p; q++)
        for (int i = 0; i < n; i++)
            all[q * n + i] = r * 1000 + q * 10 + i % 7;
    CHECK_RC(MPI_Alltoall(all, n, MPI_INT, all2, n, MPI_INT, c));
    for (int q = 0; q < p; q++)
        for (int i = 0; i < n; i++)
            CHECK(all2[q * n + i] == q * 1000 + r * 10 + i % 7, "alltoall n %d from %d [%d]",
                  n, q, i);
    CHECK_RC(MPI_Scan(v, w, n, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < n; i++)
        CHECK(w[i] == 3 * r * (r + 1) / 2 + (r + 1) * i, "scan n %d [%d] = %d", n, i, w[i]);
    CHECK_RC(MPI_Barrier(c));
    free(v);
    free(w);
    free(all);
    free(all2);
}

int main(int argc, char **argv)
{
    const char *e = getenv("PMI_RANK"), *s = getenv("PMI_SIZE");
    int me = e != NULL ? atoi(e) : 0, size = s != NULL ? atoi(s) : 1;
    int threaded = argc > 1 && strcmp(argv[1], "last") == 0 ? size - 1 : 0;
    int want = me == threaded ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, got;
    MPI_Init_thread(&argc, &argv, want, &got);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    CHECK(e == NULL || ct_rank == me, "PMI_RANK %d but rank %d", me, ct_rank);
    CHECK(got == want, "asked for thread level %d, got %d", want, got);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, ct_rank % 2, ct_rank, &half);
    for (int n = 1; n <= 100000; n *= 10) {
        run(MPI_COMM_WORLD, n);
        run(half, n);
    }
    MPI_Comm_free(&half);
    return ct_finish();
}
