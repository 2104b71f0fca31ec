/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* pscw.c - generalised active target: each rank exposes its window to its
 * left neighbour and accesses its right neighbour's (post/start/complete/
 * wait), several rounds, with MPI_Win_test polling on odd rounds; then
 * rank 0 accesses everyone (a group of all others) while they post to it
 * alone; and MPI_MODE_NOCHECK on start after a barrier. */
#include "../common/ctest.h"

static MPI_Group group_of(const int *ranks, int n)
{
    MPI_Group wg, g;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, n, ranks, &g);
    MPI_Group_free(&wg);
    return g;
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    enum { M = 16, ROUNDS = 5 };
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(M * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                     &win);
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    MPI_Group gr = group_of(&right, 1), gl = group_of(&left, 1);
    for (int round = 0; round < ROUNDS; round++) {
        int src[M];
        for (int i = 0; i < M; i++)
            src[i] = round * 1000 + ct_rank * 10 + i;
        CHECK_RC(MPI_Win_post(gl, 0, win));
        CHECK_RC(MPI_Win_start(gr, 0, win));
        CHECK_RC(MPI_Put(src, M, MPI_INT, right, 0, M, MPI_INT, win));
        CHECK_RC(MPI_Win_complete(win));
        if (round % 2) {
            int flag = 0;
            while (!flag)
                CHECK_RC(MPI_Win_test(win, &flag));
        } else {
            CHECK_RC(MPI_Win_wait(win));
        }
        for (int i = 0; i < M; i++)
            CHECK(mem[i] == round * 1000 + left * 10 + i, "round %d: mem[%d] = %d", round,
                  i, mem[i]);
    }
    /* rank 0 accumulates into all others */
    if (ct_size > 1) {
        int n = ct_size - 1, others[64];
        for (int i = 0; i < n; i++)
            others[i] = i + 1;
        int zero = 0;
        MPI_Group go = group_of(others, n), g0 = group_of(&zero, 1);
        if (ct_rank == 0) {
            int one[M];
            for (int i = 0; i < M; i++)
                one[i] = i;
            MPI_Win_start(go, 0, win);
            for (int t = 1; t < ct_size; t++)
                MPI_Accumulate(one, M, MPI_INT, t, 0, M, MPI_INT, MPI_SUM, win);
            MPI_Win_complete(win);
        } else {
            MPI_Win_post(g0, 0, win);
            MPI_Win_wait(win);
            for (int i = 0; i < M; i++)
                CHECK(mem[i] == (ROUNDS - 1) * 1000 + left * 10 + 2 * i,
                      "fan-in: mem[%d] = %d", i, mem[i]);
        }
        MPI_Group_free(&go);
        MPI_Group_free(&g0);
    }
    /* NOCHECK: everyone has posted before the barrier */
    MPI_Win_post(gl, 0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_start(gr, MPI_MODE_NOCHECK, win);
    MPI_Put(&ct_rank, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    CHECK(mem[0] == left, "nocheck: mem[0] = %d want %d", mem[0], left);
    MPI_Group_free(&gr);
    MPI_Group_free(&gl);
    MPI_Win_free(&win);
    return ct_finish();
}
