/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* fence.c - Put, Get and Accumulate under MPI_Win_fence on windows made by
 * MPI_Win_create and MPI_Win_allocate: every rank writes its neighbour's
 * window, reads the other neighbour's, everyone accumulates into rank 0;
 * large transfers (several messages), MPI_PROC_NULL targets, zero counts,
 * derived origin and target types (vector, indexed), and the window
 * attributes. Every value is compared with one computed here. */
#include "../common/ctest.h"

enum { N = 1000, BIG = 300000 };

static void check_attrs(MPI_Win win, void *base, MPI_Aint size, int du, int flavor)
{
    void *v;
    int flag;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag);
    CHECK(flag && v == base, "MPI_WIN_BASE %p, want %p", v, base);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &v, &flag);
    CHECK(flag && *(MPI_Aint *)v == size, "MPI_WIN_SIZE %lld", (long long)*(MPI_Aint *)v);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &v, &flag);
    CHECK(flag && *(int *)v == du, "MPI_WIN_DISP_UNIT %d", *(int *)v);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &v, &flag);
    CHECK(flag && *(int *)v == flavor, "flavor %d want %d", *(int *)v, flavor);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &v, &flag);
    CHECK(flag && *(int *)v == MPI_WIN_UNIFIED, "model %d", *(int *)v);
    MPI_Group g, wg;
    int res;
    MPI_Win_get_group(win, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &res);
    CHECK(res == MPI_IDENT, "window group differs from the world group");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
}

/* put to right, get from left, accumulate into 0 */
static void ring(MPI_Win win, int *buf)
{
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    int src[N], got[N];
    for (int i = 0; i < N; i++)
        src[i] = ct_rank * 10000 + i;
    MPI_Win_fence(0, win);
    CHECK_RC(MPI_Put(src, N, MPI_INT, right, 0, N, MPI_INT, win));
    CHECK_RC(MPI_Put(src, 0, MPI_INT, right, 0, 0, MPI_INT, win));
    CHECK_RC(MPI_Put(src, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win));
    MPI_Win_fence(0, win);
    for (int i = 0; i < N; i++)
        CHECK(buf[i] == left * 10000 + i, "put: buf[%d] = %d, want %d", i, buf[i],
              left * 10000 + i);
    CHECK_RC(MPI_Get(got, N, MPI_INT, left, 0, N, MPI_INT, win));
    MPI_Win_fence(0, win);
    int ll = (left + ct_size - 1) % ct_size;
    for (int i = 0; i < N; i++)
        CHECK(got[i] == ll * 10000 + i, "get: got[%d] = %d, want %d", i, got[i],
              ll * 10000 + i);
    MPI_Win_fence(0, win);
    for (int i = 0; i < N; i++)
        buf[i] = 1;
    MPI_Win_fence(0, win);
    CHECK_RC(MPI_Accumulate(src, N, MPI_INT, 0, 0, N, MPI_INT, MPI_SUM, win));
    MPI_Win_fence(0, win);
    if (ct_rank == 0)
        for (int i = 0; i < N; i++) {
            int want = 1 + ct_size * i + 10000 * ct_size * (ct_size - 1) / 2;
            CHECK(buf[i] == want, "acc: buf[%d] = %d, want %d", i, buf[i], want);
        }
}

static void big(void)
{
    double *mem;
    MPI_Win win;
    CHECK_RC(MPI_Win_allocate(BIG * sizeof(double), sizeof(double), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &mem, &win));
    double *src = malloc(BIG * sizeof(double)), *got = malloc(BIG * sizeof(double));
    for (int i = 0; i < BIG; i++)
        src[i] = ct_rank + i * 0.5;
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(src, BIG, MPI_DOUBLE, right, 0, BIG, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    int bad = 0;
    for (int i = 0; i < BIG; i++)
        bad += mem[i] != left + i * 0.5;
    CHECK(bad == 0, "big put: %d wrong", bad);
    MPI_Get(got, BIG, MPI_DOUBLE, left, 0, BIG, MPI_DOUBLE, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    int ll = (left + ct_size - 1) % ct_size;
    bad = 0;
    for (int i = 0; i < BIG; i++)
        bad += got[i] != ll + i * 0.5;
    CHECK(bad == 0, "big get: %d wrong", bad);
    free(src);
    free(got);
    MPI_Win_free(&win);
    CHECK(win == MPI_WIN_NULL, "Win_free did not set MPI_WIN_NULL");
}

/* origin vector of stride 3 into a target indexed type, and back */
static void derived(void)
{
    enum { M = 50 };
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(4 * M * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &mem, &win);
    for (int i = 0; i < 4 * M; i++)
        mem[i] = -1;
    MPI_Datatype vec, idx;
    MPI_Type_vector(M, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int bl[2] = { M / 2, M - M / 2 }, dp[2] = { 2 * M, 0 };   /* second half first */
    MPI_Type_indexed(2, bl, dp, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    int src[3 * M];
    for (int i = 0; i < 3 * M; i++)
        src[i] = ct_rank * 1000 + i;
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    MPI_Win_fence(0, win);
    MPI_Put(src, 1, vec, right, 1, 1, idx, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < M; i++) {
        int at = i < M / 2 ? 1 + 2 * M + i : 1 + (i - M / 2);
        CHECK(mem[at] == left * 1000 + 3 * i, "derived put: mem[%d] = %d want %d", at,
              mem[at], left * 1000 + 3 * i);
    }
    int back[3 * M];
    for (int i = 0; i < 3 * M; i++)
        back[i] = -7;
    MPI_Win_fence(0, win);      /* everyone checked before it changes */
    MPI_Get(back, 1, vec, right, 1, 1, idx, win);
    MPI_Win_fence(0, win);
    MPI_Accumulate(src, 1, vec, right, 1, 1, idx, MPI_SUM, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < 3 * M; i++) {
        int want = i % 3 == 0 ? ct_rank * 1000 + i : -7;
        CHECK(back[i] == want, "derived get: back[%d] = %d want %d", i, back[i], want);
    }
    for (int i = 0; i < M; i++) {
        int at = i < M / 2 ? 1 + 2 * M + i : 1 + (i - M / 2);
        CHECK(mem[at] == 2 * (left * 1000 + 3 * i), "derived acc: mem[%d] = %d", at,
              mem[at]);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int *buf = calloc(N, sizeof(int));
    MPI_Win win;
    CHECK_RC(MPI_Win_create(buf, N * sizeof(int), sizeof(int), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &win));
    check_attrs(win, buf, N * sizeof(int), sizeof(int), MPI_WIN_FLAVOR_CREATE);
    ring(win, buf);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    CHECK_RC(MPI_Win_free(&win));
    free(buf);

    int *mem;
    CHECK_RC(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &mem, &win));
    check_attrs(win, mem, N * sizeof(int), sizeof(int), MPI_WIN_FLAVOR_ALLOCATE);
    ring(win, mem);
    MPI_Win_free(&win);
    big();
    derived();
    return ct_finish();
}
