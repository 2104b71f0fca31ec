/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pair_cell.c - every collective of two ranks, back to back, through the
 * node flow cells (src/coll/pair_cell.c) and, beyond a cell, through
 * messages (pair.c): sizes on both sides of the 512-byte cell, count 0,
 * MPI_IN_PLACE, a strided derived type on one side, a predefined op on a
 * derived type, a non-commutative user op (rank order), roots on both
 * ranks, one rank napping now and then so the other runs ahead through
 * the ring of cells. Every result is checked against what the test
 * computes itself.
 *
 * At 2 ranks it runs on MPI_COMM_WORLD and a duplicate (cells); with more
 * ranks on pairs split from MPI_COMM_WORLD (not node-complete: messages),
 * and an odd last rank runs alone.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "ctest.h"
#include "ct_aff16.h"

enum { ITERS = 2400, MAXN = 4200 };
/* uint32 elements: a cell holds 128; the larger ones go by messages
 * (eager, and from 16 KiB by rendezvous) */
static const int sizes[] = { 0, 1, 3, 14, 64, 128, 129, 200, 1100, 4096, 4097, 4200 };
static MPI_Op aff;
static MPI_Datatype strided, two;        /* uint32 every 8 bytes; 2 contiguous uint32 */
static int me;                           /* rank in the pair */

static uint32_t val(int it, int rank, int k)
{
    return (uint32_t)((it * 7 + rank * 3 + k) % 11 + 1) << 16 | (uint32_t)((it + 5 * rank + k) % 17);
}

static uint32_t comb(int it, int k, int sum)       /* x0 op x1 */
{
    return sum ? val(it, 0, k) + val(it, 1, k) : ct_aff16(val(it, 0, k), val(it, 1, k));
}

static void nap(int it)
{
    if (me == it / 300 % 2 && it % 37 == 0) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
}

static void rooted(MPI_Comm c, int it, int n)
{
    int root = it / 8 % 2;
    static uint32_t b[2 * MAXN], all[2 * MAXN];
    for (int k = 0; k < n; k++)
        b[2 * k] = me == root ? val(it, root, k) : 0;
    CHECK_RC(MPI_Bcast(b, n, strided, root, c));
    for (int k = 0; k < n; k++)
        CHECK(b[2 * k] == val(it, root, k), "it %d bcast n %d [%d]", it, n, k);
    for (int k = 0; k < n; k++)
        b[k] = val(it, me, k);
    memset(all, 0, sizeof all);
    bool inplace = me == root && it / 4 % 3 == 1;
    if (inplace)
        memcpy(all + root * n, b, (size_t)n * 4);
    CHECK_RC(MPI_Gather(inplace ? MPI_IN_PLACE : b, n, MPI_UINT32_T, all, n, MPI_UINT32_T,
                        root, c));
    for (int j = 0; j < 2 && me == root; j++)
        for (int k = 0; k < n; k++)
            CHECK(all[j * n + k] == val(it, j, k), "it %d gather n %d block %d [%d]", it, n, j, k);
    for (int j = 0; j < 2 && me == root; j++)
        for (int k = 0; k < n; k++)
            all[j * n + k] = val(it, j, k);
    memset(b, 0, sizeof b);
    CHECK_RC(MPI_Scatter(all, n, MPI_UINT32_T, b, n, MPI_UINT32_T, root, c));
    for (int k = 0; k < n; k++)
        CHECK(b[k] == val(it, me, k), "it %d scatter n %d [%d]", it, n, k);
}

static void reductions(MPI_Comm c, int it, int n)
{
    int root = it / 8 % 2, sum = it / 12 % 2;
    MPI_Op op = sum ? MPI_SUM : aff;
    static uint32_t x[MAXN], r[MAXN];
    for (int k = 0; k < n; k++)
        x[k] = val(it, me, k);
    memset(r, 0, sizeof r);
    CHECK_RC(MPI_Reduce(x, r, n, MPI_UINT32_T, op, root, c));
    for (int k = 0; k < n && me == root; k++)
        CHECK(r[k] == comb(it, k, sum), "it %d reduce n %d [%d]", it, n, k);
    bool inplace = it / 4 % 3 == 2;
    if (inplace)
        memcpy(r, x, sizeof x);
    CHECK_RC(MPI_Allreduce(inplace ? MPI_IN_PLACE : x, r, n, MPI_UINT32_T, op, c));
    for (int k = 0; k < n; k++)
        CHECK(r[k] == comb(it, k, sum), "it %d allreduce n %d [%d]", it, n, k);
    memset(r, 0, sizeof r);
    CHECK_RC(MPI_Scan(x, r, n, MPI_UINT32_T, op, c));
    for (int k = 0; k < n; k++)
        CHECK(r[k] == (me == 0 ? val(it, 0, k) : comb(it, k, sum)), "it %d scan n %d [%d]",
              it, n, k);
    CHECK_RC(MPI_Exscan(x, r, n, MPI_UINT32_T, op, c));
    for (int k = 0; k < n && me == 1; k++)
        CHECK(r[k] == val(it, 0, k), "it %d exscan n %d [%d]", it, n, k);
    /* a predefined op on a derived type: working copies of the uint32s */
    if (n % 2 == 0) {
        CHECK_RC(MPI_Allreduce(x, r, n / 2, two, MPI_SUM, c));
        for (int k = 0; k < n; k++)
            CHECK(r[k] == comb(it, k, 1), "it %d allreduce (derived) n %d [%d]", it, n, k);
    }
}

/* reduce_scatter_block (n each) and reduce_scatter (n for rank 0, n/2 + 1
 * for rank 1) of x0 op x1 */
static void redscat(MPI_Comm c, int it, int n)
{
    int sum = it / 12 % 2 == 0, cnt[2] = { n, n / 2 + 1 };
    MPI_Op op = sum ? MPI_SUM : aff;
    static uint32_t x[2 * MAXN + 2], r[2 * MAXN + 2];
    for (int k = 0; k < 2 * n + 2; k++)
        x[k] = val(it, me, k);
    bool inplace = it / 4 % 3 == 0;
    if (inplace)
        memcpy(r, x, sizeof x);
    CHECK_RC(MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : x, r, n, MPI_UINT32_T, op, c));
    for (int k = 0; k < n; k++)
        CHECK(r[k] == comb(it, me * n + k, sum), "it %d reduce_scatter_block n %d [%d]", it, n, k);
    if (inplace)
        memcpy(r, x, sizeof x);
    CHECK_RC(MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : x, r, cnt, MPI_UINT32_T, op, c));
    for (int k = 0; k < cnt[me]; k++)
        CHECK(r[k] == comb(it, me * n + k, sum), "it %d reduce_scatter n %d [%d]", it, n, k);
}

static void exchanges(MPI_Comm c, int it, int n)
{
    static uint32_t s[4 * MAXN], r[2 * MAXN];
    for (int k = 0; k < n; k++)
        s[2 * k] = val(it, me, k);
    bool inplace = it / 4 % 3 == 1;
    memset(r, 0, sizeof r);
    if (inplace)
        for (int k = 0; k < n; k++)
            r[me * n + k] = val(it, me, k);
    CHECK_RC(MPI_Allgather(inplace ? MPI_IN_PLACE : s, n, strided, r, n, MPI_UINT32_T, c));
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < n; k++)
            CHECK(r[j * n + k] == val(it, j, k), "it %d allgather n %d block %d [%d]", it, n, j, k);
    /* alltoall: block j of rank i holds val(it, 2 * i + j, k) */
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < n; k++)
            s[2 * (j * n + k)] = r[j * n + k] = val(it, 2 * me + j, k);
    if (!inplace)
        memset(r, 0, sizeof r);
    CHECK_RC(MPI_Alltoall(inplace ? MPI_IN_PLACE : s, n, strided, r, n, MPI_UINT32_T, c));
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < n; k++)
            CHECK(r[j * n + k] == val(it, 2 * j + me, k), "it %d alltoall n %d block %d [%d]",
                  it, n, j, k);
}

static void run(MPI_Comm c)
{
    for (int it = 0; it < ITERS; it++) {
        int n = sizes[it / 4 % (int)(sizeof sizes / sizeof sizes[0])];
        nap(it);
        switch (it % 4) {
        case 0: rooted(c, it, n); break;
        case 1: reductions(c, it, n); break;
        case 2: redscat(c, it, n); break;
        default: exchanges(c, it, n); break;
        }
    }
    /* a root far ahead: rank 1 sleeps while rank 0 broadcasts */
    for (int it = 0; it < 1000; it++) {
        uint32_t b = me == 0 ? val(it, 0, 0) : 0;
        if (me == 1 && it % 250 == 0) {
            struct timespec ts = { 0, 3000000 };
            nanosleep(&ts, NULL);
        }
        CHECK_RC(MPI_Bcast(&b, 1, MPI_UINT32_T, 0, c));
        CHECK(b == val(it, 0, 0), "run-ahead %d bcast", it);
    }
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Op_create(ct_aff16_fn, 0, &aff);
    MPI_Type_create_resized(MPI_UINT32_T, 0, 8, &strided);
    MPI_Type_commit(&strided);
    MPI_Type_contiguous(2, MPI_UINT32_T, &two);
    MPI_Type_commit(&two);
    MPI_Comm pair;
    if (ct_size == 2)
        MPI_Comm_dup(MPI_COMM_WORLD, &pair);
    else
        MPI_Comm_split(MPI_COMM_WORLD, ct_rank / 2, ct_rank, &pair);
    int psize;
    MPI_Comm_size(pair, &psize);
    MPI_Comm_rank(pair, &me);
    if (psize == 2) {
        run(pair);
        if (ct_size == 2)
            run(MPI_COMM_WORLD);
    }
    MPI_Comm_free(&pair);
    MPI_Type_free(&strided);
    MPI_Type_free(&two);
    MPI_Op_free(&aff);
    return ct_finish();
}
