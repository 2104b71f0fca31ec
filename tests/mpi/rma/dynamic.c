/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* dynamic.c - MPI_Win_create_dynamic: each rank attaches two regions,
 * publishes their addresses (MPI_Get_address, by Allgather), and the
 * others put, get and accumulate with absolute addresses; detach and
 * re-attach; an access outside every attached region fails with
 * MPI_ERR_RMA_RANGE (under MPI_ERRORS_RETURN) and the window stays usable;
 * attach on a non-dynamic window is MPI_ERR_RMA_FLAVOR. */
#include "../common/ctest.h"

enum { M = 32 };

/* Two regions attached back to back (the halves of one array): an access
 * that runs from the first into the second touches attached memory only,
 * so it is no error (the MPICH suite's win_dynamic_rma_flush_get with
 * -count=9216); one that runs past the second still is. */
static void adjacent_regions(void)
{
    MPI_Win win;
    int *c = calloc(2 * M, sizeof(int)), src[2 * M], got[2 * M];
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK_RC(MPI_Win_attach(win, c, M * sizeof(int)));
    CHECK_RC(MPI_Win_attach(win, c + M, M * sizeof(int)));
    MPI_Aint mine, *all = malloc(ct_size * sizeof(MPI_Aint));
    MPI_Get_address(c, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    for (int i = 0; i < 2 * M; i++)
        src[i] = ct_rank * 1000 + i;
    MPI_Aint mid = MPI_Aint_add(all[right], M / 2 * sizeof(int));
    MPI_Win_lock_all(0, win);
    CHECK_RC(MPI_Put(src, M, MPI_INT, right, mid, M, MPI_INT, win));
    CHECK_RC(MPI_Win_flush(right, win));
    CHECK_RC(MPI_Accumulate(src, 2 * M, MPI_INT, right, all[right], 2 * M, MPI_INT,
                            MPI_SUM, win));
    CHECK_RC(MPI_Get(got, 2 * M, MPI_INT, right, all[right], 2 * M, MPI_INT, win));
    CHECK_RC(MPI_Win_flush(right, win));
    for (int i = 0; i < 2 * M; i++) {
        int put = i >= M / 2 && i < M / 2 + M ? ct_rank * 1000 + i - M / 2 : 0;
        CHECK(got[i] == put + src[i], "across two regions: [%d] = %d want %d", i,
              got[i], put + src[i]);
    }
    MPI_Put(src, 2, MPI_INT, right, MPI_Aint_add(all[right], (2 * M - 1) * sizeof(int)),
            2, MPI_INT, win);
    int cls = -1;
    MPI_Error_class(MPI_Win_flush(right, win), &cls);
    CHECK(cls == MPI_ERR_RMA_RANGE, "past the second region: class %d", cls);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(c[M / 2] == left * 1000 + M / 2 + left * 1000, "c[%d] = %d", M / 2, c[M / 2]);
    MPI_Win_detach(win, c);
    MPI_Win_detach(win, c + M);
    MPI_Win_free(&win);
    free(all);
    free(c);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Win win;
    CHECK_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int *a = calloc(M, sizeof(int)), *b = calloc(M, sizeof(int));
    CHECK_RC(MPI_Win_attach(win, a, M * sizeof(int)));
    CHECK_RC(MPI_Win_attach(win, b, M * sizeof(int)));
    int rc = MPI_Win_attach(win, a + 1, sizeof(int));
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RMA_ATTACH, "overlapping attach: class %d", cls);
    MPI_Aint mine[2], *all = malloc(2 * ct_size * sizeof(MPI_Aint));
    MPI_Get_address(a, &mine[0]);
    MPI_Get_address(b, &mine[1]);
    MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    int src[M], got[M];
    for (int i = 0; i < M; i++)
        src[i] = ct_rank * 100 + i;
    MPI_Win_fence(0, win);
    CHECK_RC(MPI_Put(src, M, MPI_INT, right, all[2 * right], M, MPI_INT, win));
    CHECK_RC(MPI_Accumulate(src, M, MPI_INT, right, all[2 * right + 1], M, MPI_INT,
                            MPI_SUM, win));
    CHECK_RC(MPI_Win_fence(0, win));
    for (int i = 0; i < M; i++) {
        CHECK(a[i] == left * 100 + i, "dynamic put: a[%d] = %d", i, a[i]);
        CHECK(b[i] == left * 100 + i, "dynamic acc: b[%d] = %d", i, b[i]);
    }
    CHECK_RC(MPI_Get(got, M, MPI_INT, right, all[2 * right], M, MPI_INT, win));
    CHECK_RC(MPI_Win_fence(0, win));
    for (int i = 0; i < M; i++)
        CHECK(got[i] == src[i], "dynamic get: %d want %d", got[i], src[i]);
    /* b detached everywhere: an access to it is out of range */
    CHECK_RC(MPI_Win_detach(win, b));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Put(src, 1, MPI_INT, right, all[2 * right + 1], 1, MPI_INT, win);
    rc = MPI_Win_fence(0, win);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RMA_RANGE, "put to a detached region: class %d", cls);
    rc = MPI_Win_detach(win, b);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RMA_ATTACH, "second detach: class %d", cls);
    CHECK_RC(MPI_Win_attach(win, b, M * sizeof(int)));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_RC(MPI_Put(src, M, MPI_INT, right, all[2 * right + 1], M, MPI_INT, win));
    CHECK_RC(MPI_Win_fence(0, win));
    CHECK(b[M - 1] == left * 100 + M - 1, "re-attached: b[%d] = %d", M - 1, b[M - 1]);
    MPI_Win_detach(win, a);
    MPI_Win_detach(win, b);
    CHECK_RC(MPI_Win_free(&win));

    adjacent_regions();

    MPI_Win w2;
    MPI_Win_create(a, M * sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
    MPI_Win_set_errhandler(w2, MPI_ERRORS_RETURN);
    rc = MPI_Win_attach(w2, b, M);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RMA_FLAVOR, "attach on a created window: class %d", cls);
    MPI_Win_free(&w2);
    free(a);
    free(b);
    free(all);
    return ct_finish();
}
