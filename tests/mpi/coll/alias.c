/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alias.c - send and receive buffers that share memory are refused with
 * MPI_ERR_BUFFER (every collective that has both, in the blocking,
 * nonblocking and persistent form, and MPI_Reduce_local), on every rank
 * that aliases them, before any message moves; buffers that are close but
 * do not share a byte (neighbouring blocks, interleaved strided layouts,
 * v-blocks around the send block) are accepted and give the right result.
 * The library keeps working after the errors. From 5 ranks the v forms
 * take the sorted sweep of coll_alias.c (more than 16 pairs of blocks).
 */
#include "ctest.h"

#define N 4                      /* ints per rank's block */

static int nerr;

static void refused(int rc, const char *what)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc != MPI_SUCCESS)
        MPI_Error_string(rc, msg, &len);
    CHECK(c == MPI_ERR_BUFFER && strstr(msg, "overlap") != NULL,
          "%s: class %d (want MPI_ERR_BUFFER), '%s'", what, c, msg);
    nerr++;
}

/* The blocking calls, each aliased; rooted ones only at their root. */
static void blocking(int *b, int p, int *cnt, int *dsp, MPI_Datatype *ty)
{
    MPI_Comm w = MPI_COMM_WORLD;
    refused(MPI_Allreduce(b, b, N, MPI_INT, MPI_SUM, w), "allreduce");
    refused(MPI_Allreduce(b, b + N - 1, N, MPI_INT, MPI_SUM, w), "allreduce, one int shared");
    refused(MPI_Scan(b, b, N, MPI_INT, MPI_SUM, w), "scan");
    refused(MPI_Exscan(b + 1, b, N, MPI_INT, MPI_SUM, w), "exscan");
    refused(MPI_Reduce_scatter_block(b, b + N * p - 1, N, MPI_INT, MPI_SUM, w),
            "reduce_scatter_block, last int");
    refused(MPI_Reduce_scatter(b, b, cnt, MPI_INT, MPI_SUM, w), "reduce_scatter");
    refused(MPI_Allgather(b + ct_rank * N, N, MPI_INT, b, N, MPI_INT, w),
            "allgather into itself without MPI_IN_PLACE");
    refused(MPI_Allgatherv(b + ct_rank * N, N, MPI_INT, b, cnt, dsp, MPI_INT, w),
            "allgatherv");
    refused(MPI_Alltoall(b, N, MPI_INT, b, N, MPI_INT, w), "alltoall");
    refused(MPI_Alltoallv(b, cnt, dsp, MPI_INT, b, cnt, dsp, MPI_INT, w), "alltoallv");
    int bd[64];
    for (int i = 0; i < p; i++)
        bd[i] = dsp[i] * (int)sizeof(int);
    refused(MPI_Alltoallw(b, cnt, bd, ty, b, cnt, bd, ty, w), "alltoallw");
    if (ct_rank == 0) {
        refused(MPI_Reduce(b, b, N, MPI_INT, MPI_SUM, 0, w), "reduce at the root");
        refused(MPI_Gather(b, N, MPI_INT, b, N, MPI_INT, 0, w), "gather at the root");
        refused(MPI_Gatherv(b + N * (p - 1), N, MPI_INT, b, cnt, dsp, MPI_INT, 0, w),
                "gatherv at the root, the last block");
        refused(MPI_Scatter(b, N, MPI_INT, b + N * (p - 1), N, MPI_INT, 0, w),
                "scatter at the root, receive in the last block");
        refused(MPI_Scatterv(b, cnt, dsp, MPI_INT, b + 2, N, MPI_INT, 0, w),
                "scatterv at the root");
    }
    int loc[N] = { 0 };
    refused(MPI_Reduce_local(b, b, N, MPI_INT, MPI_SUM), "reduce_local");
    refused(MPI_Reduce_local(b, b + 2, N, MPI_INT, MPI_SUM), "reduce_local, half shared");
    int rc = MPI_Reduce_local(MPI_IN_PLACE, loc, N, MPI_INT, MPI_SUM);
    int c = -1;
    MPI_Error_class(rc, &c);
    CHECK(c == MPI_ERR_BUFFER, "reduce_local(MPI_IN_PLACE): class %d", c);
}

static void nonblocking(int *b, int p)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    refused(MPI_Iallreduce(b, b, N, MPI_INT, MPI_SUM, w, &r), "iallreduce");
    refused(MPI_Ialltoall(b, N, MPI_INT, b + 1, N, MPI_INT, w, &r), "ialltoall");
    refused(MPI_Iscan(b, b, N, MPI_INT, MPI_MAX, w, &r), "iscan");
    refused(MPI_Allreduce_init(b, b, N, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r),
            "allreduce_init");
    refused(MPI_Allgather_init(b + ct_rank * N, N, MPI_INT, b, N, MPI_INT, w,
                               MPI_INFO_NULL, &r), "allgather_init");
    if (ct_rank == 0)
        refused(MPI_Igather(b, N, MPI_INT, b, N, MPI_INT, 0, w, &r), "igather");
    CHECK(r == MPI_REQUEST_NULL, "a refused call wrote its request");
    (void)p;
}

/* Legal neighbours: no shared byte, so each call works. */
static void accepted(int *b, int p)
{
    MPI_Comm w = MPI_COMM_WORLD;
    for (int i = 0; i < 2 * N; i++)
        b[i] = ct_rank + i;
    /* two blocks back to back */
    CHECK_RC(MPI_Allreduce(b, b + N, N, MPI_INT, MPI_SUM, w));
    for (int i = 0; i < N; i++)
        CHECK(b[N + i] == p * (p - 1) / 2 + p * i, "allreduce[%d] = %d", i, b[N + i]);
    /* even ints sent, odd ints received, in one array */
    MPI_Datatype ev;
    MPI_Type_vector(N, 1, 2, MPI_INT, &ev);
    MPI_Type_commit(&ev);
    int *z = calloc(2 * N + 1, sizeof(int));
    for (int i = 0; i < N; i++)
        z[2 * i] = i + 1;
    CHECK_RC(MPI_Allreduce(z, z + 1, 1, ev, MPI_SUM, w));
    for (int i = 0; i < N; i++)
        CHECK(z[2 * i + 1] == p * (i + 1) && z[2 * i] == i + 1,
              "interleaved allreduce %d: %d %d", i, z[2 * i], z[2 * i + 1]);
    MPI_Type_free(&ev);
    free(z);
    /* allgatherv with a gap that holds the send block */
    int *g = calloc((size_t)(p * N + N), sizeof(int));
    int cnt[64], dsp[64];
    for (int i = 0; i < p; i++)
        cnt[i] = N, dsp[i] = i * N + (i > 0 ? N : 0);
    for (int i = 0; i < N; i++)
        g[N + i] = 100 * ct_rank + i;       /* the gap after block 0 */
    CHECK_RC(MPI_Allgatherv(g + N, N, MPI_INT, g, cnt, dsp, MPI_INT, w));
    for (int r = 0; r < p; r++)
        for (int i = 0; i < N; i++)
            CHECK(g[dsp[r] + i] == 100 * r + i, "allgatherv block %d[%d] = %d",
                  r, i, g[dsp[r] + i]);
    free(g);
    /* alltoallv: send blocks at the even places of one array, receive
     * blocks at the odd ones (spans meet, blocks do not) */
    int *a = calloc((size_t)(2 * p * N), sizeof(int));
    int sd[64], rd[64];
    for (int i = 0; i < p; i++) {
        sd[i] = 2 * i * N, rd[i] = (2 * i + 1) * N;
        for (int k = 0; k < N; k++)
            a[sd[i] + k] = 1000 * ct_rank + 10 * i + k;
    }
    CHECK_RC(MPI_Alltoallv(a, cnt, sd, MPI_INT, a, cnt, rd, MPI_INT, w));
    for (int i = 0; i < p; i++)
        for (int k = 0; k < N; k++)
            CHECK(a[rd[i] + k] == 1000 * i + 10 * ct_rank + k &&
                  a[sd[i] + k] == 1000 * ct_rank + 10 * i + k,
                  "interleaved alltoallv block %d[%d] = %d", i, k, a[rd[i] + k]);
    free(a);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size;
    if (p > 64)
        return ct_finish();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);  /* Reduce_local */
    int *b = calloc((size_t)(N * p + N), sizeof(int));
    int cnt[64], dsp[64];
    MPI_Datatype ty[64];
    for (int i = 0; i < p; i++)
        cnt[i] = N, dsp[i] = i * N, ty[i] = MPI_INT;
    blocking(b, p, cnt, dsp, ty);
    nonblocking(b, p);
    accepted(b, p);
    /* still working */
    int v = 1, sum = 0;
    CHECK_RC(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == p, "allreduce after the errors: %d", sum);
    CHECK(nerr > 0, "no refusal was checked");
    free(b);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    return ct_finish();
}
