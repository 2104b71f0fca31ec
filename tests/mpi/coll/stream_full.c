/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * stream_full.c - a stream scatter whose blocks need more than one slot of
 * the root's ring right after a node-slot collective (node_stream.c): the
 * first allocation after a phase starts in the area that phase did not
 * use, and the other slot stays fenced until every rank has finished a
 * flow call after the phase; a root of 17 blocks of 64 KiB (18 ranks)
 * meets that fence within its own call, and sends the blocks beyond it as
 * messages (XB_COLL_STREAM_FULL) instead of waiting for readers that wait
 * for it. Rotating roots, an allreduce between the scatters, every block
 * checked.
 */
#include <stdint.h>
#include "ctest.h"

enum { ITERS = 12, N = 16384 };       /* uint32 elements: 64 KiB blocks */

static uint32_t val(int it, int to, int k)
{
    return (uint32_t)(it * 1000003 + to * 7919 + k);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size, me = ct_rank;
    uint32_t *send = ct_malloc((size_t)N * (size_t)p * sizeof(uint32_t));
    uint32_t *recv = ct_malloc((size_t)N * sizeof(uint32_t));
    for (int it = 0; it < ITERS; it++) {
        int root = it % p, one = 1, sum = 0;
        CHECK_RC(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == p, "iteration %d: allreduce gave %d, want %d", it, sum, p);
        if (me == root)
            for (int j = 0; j < p; j++)
                for (int k = 0; k < N; k++)
                    send[(size_t)j * N + k] = val(it, j, k);
        for (int k = 0; k < N; k++)
            recv[k] = 0;
        CHECK_RC(MPI_Scatter(send, N, MPI_UINT32_T, recv, N, MPI_UINT32_T, root,
                             MPI_COMM_WORLD));
        int bad = 0;
        for (int k = 0; k < N && !bad; k++)
            bad = recv[k] != val(it, me, k) ? k + 1 : 0;
        CHECK(!bad, "iteration %d (root %d): element %d of rank %d's block is %u, want %u",
              it, root, bad - 1, me, bad ? recv[bad - 1] : 0u, bad ? val(it, me, bad - 1) : 0u);
    }
    free(send);
    free(recv);
    return ct_finish();
}
