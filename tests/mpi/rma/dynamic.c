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
