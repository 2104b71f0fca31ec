/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * flow.c - the node flow collectives (src/coll/node_flow.c) back to back:
 * thousands of small bcast, reduce, gather, scatter, scan and exscan calls
 * with rotating roots and sizes, so writers run ahead of readers and wrap
 * around the cells many times; one rank naps now and then so the others
 * fill every cell and wait for room; node barrier collectives (allreduce,
 * barrier) are mixed in. Every result is checked against what the test
 * computes itself; the reductions use a non-commutative user op (rank
 * order).
 */
#include <stdint.h>
#include <time.h>
#include "ctest.h"
#include "ct_aff16.h"

enum { ITERS = 3000, MAXN = 40 };

static uint32_t val(int it, int rank, int k)
{
    return (uint32_t)((it * 7 + rank * 3 + k) % 11 + 1) << 16 | (uint32_t)((it + 5 * rank + k) % 17);
}

static void nap(int it)
{
    if (ct_rank == it / 500 % ct_size && it % 97 == 0) {
        struct timespec ts = { 0, 2000000 };      /* 2 ms: the others fill the cells */
        nanosleep(&ts, NULL);
    }
}

/* Broadcasts and scatters from one root while the last rank naps: the
 * root runs ahead by every cell and must wait for room, many times. */
static void run_ahead(void)
{
    int last = ct_size - 1;
    for (int it = 0; it < 2000; it++) {
        uint32_t b[4] = { 0, 0, 0, 0 }, all[4 * 64];
        if (ct_rank == last && it % 300 == 0) {
            struct timespec ts = { 0, 3000000 };
            nanosleep(&ts, NULL);
        }
        if (ct_rank == 0)
            for (int k = 0; k < 4; k++)
                b[k] = val(it, 0, k);
        if (it % 2 == 0) {
            CHECK_RC(MPI_Bcast(b, 4, MPI_UINT32_T, 0, MPI_COMM_WORLD));
            for (int k = 0; k < 4; k++)
                CHECK(b[k] == val(it, 0, k), "run-ahead %d bcast element %d", it, k);
        } else {
            for (int j = 0; j < ct_size && ct_rank == 0; j++)
                all[j] = val(it, j, 0);
            CHECK_RC(MPI_Scatter(all, 1, MPI_UINT32_T, b, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD));
            CHECK(b[0] == val(it, ct_rank, 0), "run-ahead %d scatter", it);
        }
    }
}

static void one(int it, MPI_Op aff)
{
    MPI_Comm w = MPI_COMM_WORLD;
    int p = ct_size, me = ct_rank, root = it % p, n = it % MAXN;
    uint32_t s[MAXN], r[MAXN * 64], want;
    for (int k = 0; k < n; k++)
        s[k] = val(it, me, k);
    switch (it % 7) {
    case 0:                                       /* bcast */
        for (int k = 0; k < n; k++)
            r[k] = me == root ? val(it, root, k) : 0;
        CHECK_RC(MPI_Bcast(r, n, MPI_UINT32_T, root, w));
        for (int k = 0; k < n; k++)
            CHECK(r[k] == val(it, root, k), "it %d bcast element %d", it, k);
        break;
    case 1:                                       /* reduce, rank order */
        CHECK_RC(MPI_Reduce(s, r, n, MPI_UINT32_T, aff, root, w));
        for (int k = 0; k < n && me == root; k++) {
            want = val(it, 0, k);
            for (int j = 1; j < p; j++)
                want = ct_aff16(want, val(it, j, k));
            CHECK(r[k] == want, "it %d reduce element %d", it, k);
        }
        break;
    case 2:                                       /* gather */
        CHECK_RC(MPI_Gather(s, n, MPI_UINT32_T, r, n, MPI_UINT32_T, root, w));
        for (int j = 0; j < p && me == root; j++)
            for (int k = 0; k < n; k++)
                CHECK(r[j * n + k] == val(it, j, k), "it %d gather block %d", it, j);
        break;
    case 3: {                                     /* scatter */
        uint32_t all[MAXN * 64];
        for (int j = 0; j < p && me == root; j++)
            for (int k = 0; k < n; k++)
                all[j * n + k] = val(it, j, k);
        CHECK_RC(MPI_Scatter(all, n, MPI_UINT32_T, r, n, MPI_UINT32_T, root, w));
        for (int k = 0; k < n; k++)
            CHECK(r[k] == val(it, me, k), "it %d scatter element %d", it, k);
        break;
    }
    case 4:                                       /* scan and exscan */
        CHECK_RC(MPI_Scan(s, r, n, MPI_UINT32_T, aff, w));
        for (int k = 0; k < n; k++) {
            want = val(it, 0, k);
            for (int j = 1; j <= me; j++)
                want = ct_aff16(want, val(it, j, k));
            CHECK(r[k] == want, "it %d scan element %d", it, k);
        }
        CHECK_RC(MPI_Exscan(s, r, n, MPI_UINT32_T, aff, w));
        for (int k = 0; k < n && me > 0; k++) {
            want = val(it, 0, k);
            for (int j = 1; j < me; j++)
                want = ct_aff16(want, val(it, j, k));
            CHECK(r[k] == want, "it %d exscan element %d", it, k);
        }
        break;
    case 5: {                                     /* a node barrier collective */
        int x = me + it, sum = 0;
        CHECK_RC(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, w));
        CHECK(sum == p * it + p * (p - 1) / 2, "it %d allreduce %d", it, sum);
        break;
    }
    default:
        CHECK_RC(MPI_Barrier(w));
        break;
    }
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (ct_size > 64)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Op aff;
    MPI_Op_create(ct_aff16_fn, 0, &aff);
    run_ahead();
    for (int it = 0; it < ITERS; it++) {
        nap(it);
        one(it, aff);
    }
    /* a duplicate communicator shares the cells' numbering */
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    for (int it = 0; it < 300; it++) {
        int x = it, y = it * (ct_rank + 1);
        CHECK_RC(MPI_Bcast(&x, 1, MPI_INT, it % ct_size, d));
        CHECK(x == it, "dup bcast %d", x);
        CHECK_RC(MPI_Reduce(&y, &x, 1, MPI_INT, MPI_SUM, 0, it % 2 ? d : MPI_COMM_WORLD));
        CHECK(ct_rank != 0 || x == it * ct_size * (ct_size + 1) / 2, "reduce %d", x);
    }
    MPI_Comm_free(&d);
    MPI_Op_free(&aff);
    return ct_finish();
}
