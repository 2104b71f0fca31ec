/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * stream.c - the node stream collectives (src/coll/node_stream.c: bcast,
 * reduce, gather, scatter beyond a flow cell through each writer's ring)
 * back to back: a root that runs ahead while the last rank naps (the ring
 * fills, the root waits for one reader's block and for every reader), then
 * rotating roots and sizes from 0 to 280 KB, derived (strided) types on
 * one side, MPI_IN_PLACE at the root, a non-commutative user op (rank
 * order) and MPI_SUM on a strided type, mixed with node barrier
 * collectives (allreduce, alltoall through the slots: every switch
 * between the two kinds of node collective); bcast and reduce beyond a
 * slot (in segments); stream calls on the node's communicator between
 * collectives on COMM_WORLD (two-stage ones when it spans several hosts). Every result is checked
 * against what the test computes itself.
 */
#include <stdint.h>
#include <stdbool.h>
#include <time.h>
#include "ctest.h"
#include "ct_aff16.h"

enum { ITERS = 420 };
static const int sizes[] = { 0, 200, 3000, 17000, 70000 };   /* uint32 elements */

static uint32_t val(int it, int rank, int k)
{
    return (uint32_t)((it * 7 + rank * 3 + k) % 11 + 1) << 16 |
           (uint32_t)((it + 5 * rank + k) % 17);
}

static void nap_ms(int ms)
{
    struct timespec ts = { 0, ms * 1000000L };
    nanosleep(&ts, NULL);
}

static int bad_block(const uint32_t *b, int n, int stride, int it, int rank)
{
    int bad = 0;
    for (int k = 0; k < n; k++)
        bad += b[(size_t)k * stride] != val(it, rank, k);
    return bad;
}

/* Root 0 scatters 64 KiB blocks and broadcasts 200 KB while the last rank
 * naps: the root fills its ring and waits for room, many times. */
static void run_ahead(uint32_t *a, uint32_t *b)
{
    int n = 16384, p = ct_size;
    for (int it = 0; it < 240; it++) {
        if (ct_rank == p - 1 && it % 40 == 0)
            nap_ms(3);
        if (ct_rank == 0)
            for (int j = 0; j < p; j++)
                for (int k = 0; k < n; k++)
                    a[(size_t)j * n + k] = val(it, j, k);
        if (it % 3 == 2) {
            int m = (p < 3 ? p : 3) * n;
            if (ct_rank == 0)
                memcpy(b, a, (size_t)m * 4);
            CHECK_RC(MPI_Bcast(b, m, MPI_UINT32_T, 0, MPI_COMM_WORLD));
            int bad = 0;
            for (int k = 0; k < m; k++)
                bad += b[k] != val(it, k / n, k % n);
            CHECK(bad == 0, "run-ahead %d bcast: %d wrong", it, bad);
            continue;
        }
        CHECK_RC(MPI_Scatter(a, n, MPI_UINT32_T, b, n, MPI_UINT32_T, 0, MPI_COMM_WORLD));
        int bad = bad_block(b, n, 1, it, ct_rank);
        CHECK(bad == 0, "run-ahead %d scatter: %d wrong", it, bad);
    }
}

static void bcast(int it, int n, int root, bool strided, MPI_Datatype vec, uint32_t *r)
{
    int st = strided ? 2 : 1;
    for (int k = 0; k < n; k++)
        r[(size_t)k * st] = ct_rank == root ? val(it, root, k) : 0;
    if (strided)
        CHECK_RC(MPI_Bcast(r, 1, vec, root, MPI_COMM_WORLD));
    else
        CHECK_RC(MPI_Bcast(r, n, MPI_UINT32_T, root, MPI_COMM_WORLD));
    int bad = bad_block(r, n, st, it, root);
    CHECK(bad == 0, "it %d bcast n %d strided %d: %d wrong", it, n, strided, bad);
}

/* rank order with the aff16 op (in place at the root on odd iterations),
 * or MPI_SUM over a strided type */
static void reduce(int it, int n, int root, bool strided, MPI_Datatype vec, MPI_Op aff,
                   uint32_t *s, uint32_t *r)
{
    int st = strided ? 2 : 1, bad = 0;
    bool in_place = !strided && it % 2 == 1 && ct_rank == root;
    for (int k = 0; k < n; k++)
        (in_place ? r : s)[(size_t)k * st] = val(it, ct_rank, k);
    if (strided)
        CHECK_RC(MPI_Reduce(s, r, 1, vec, MPI_SUM, root, MPI_COMM_WORLD));
    else
        CHECK_RC(MPI_Reduce(in_place ? MPI_IN_PLACE : s, r, n, MPI_UINT32_T, aff, root,
                            MPI_COMM_WORLD));
    for (int k = 0; k < n && ct_rank == root; k++) {
        uint32_t want = val(it, 0, k);
        for (int j = 1; j < ct_size; j++)
            want = strided ? want + val(it, j, k) : ct_aff16(want, val(it, j, k));
        bad += r[(size_t)k * st] != want;
    }
    CHECK(bad == 0, "it %d reduce n %d strided %d: %d wrong", it, n, strided, bad);
}

/* the receive side strided at the root (one vector per block) */
static void gather(int it, int n, int root, bool strided, MPI_Datatype vec, uint32_t *s,
                   uint32_t *r)
{
    int p = ct_size, st = strided ? 2 : 1, bad = 0;
    bool in_place = !strided && it % 2 == 0 && ct_rank == root;
    for (int k = 0; k < n; k++)
        s[k] = val(it, ct_rank, k);
    if (in_place)
        memcpy(r + (size_t)root * n, s, (size_t)n * 4);
    /* strided: block j at element 2 n j (the vector resized to 2n elements) */
    MPI_Datatype rt = MPI_UINT32_T;
    int rc = n;
    if (strided && n > 0) {
        MPI_Type_create_resized(vec, 0, (MPI_Aint)n * 8, &rt);
        MPI_Type_commit(&rt);
        rc = 1;
    }
    CHECK_RC(MPI_Gather(in_place ? MPI_IN_PLACE : s, n, MPI_UINT32_T, r, rc, rt, root,
                        MPI_COMM_WORLD));
    for (int j = 0; j < p && ct_rank == root; j++)
        bad += bad_block(r + (size_t)j * n * st, n, st, it, j);
    CHECK(bad == 0, "it %d gather n %d strided %d: %d wrong", it, n, strided, bad);
    if (rt != MPI_UINT32_T)
        MPI_Type_free(&rt);
}

/* the receive side strided at every rank */
static void scatter(int it, int n, int root, bool strided, MPI_Datatype vec, uint32_t *s,
                    uint32_t *r)
{
    int p = ct_size, st = strided ? 2 : 1;
    bool in_place = !strided && it % 2 == 1 && ct_rank == root;
    for (int j = 0; j < p && ct_rank == root; j++)
        for (int k = 0; k < n; k++)
            s[(size_t)j * n + k] = val(it, j, k);
    memset(r, 0, (size_t)n * 4 * st);
    if (strided)
        CHECK_RC(MPI_Scatter(s, n, MPI_UINT32_T, r, 1, vec, root, MPI_COMM_WORLD));
    else
        CHECK_RC(MPI_Scatter(s, n, MPI_UINT32_T, in_place ? MPI_IN_PLACE : r, n,
                             MPI_UINT32_T, root, MPI_COMM_WORLD));
    int bad = bad_block(in_place ? s + (size_t)root * n : r, n, st, it, ct_rank);
    CHECK(bad == 0, "it %d scatter n %d strided %d: %d wrong", it, n, strided, bad);
}

/* node barrier collectives between the stream calls */
static void barrier_kind(int it, uint32_t *s, uint32_t *r)
{
    int x = ct_rank + it, sum = 0;
    CHECK_RC(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == ct_size * it + ct_size * (ct_size - 1) / 2, "it %d allreduce %d", it, sum);
    int n = 1000;
    for (int j = 0; j < ct_size; j++)
        for (int k = 0; k < n; k++)
            s[(size_t)j * n + k] = val(it, ct_rank, j * n + k);
    CHECK_RC(MPI_Alltoall(s, n, MPI_UINT32_T, r, n, MPI_UINT32_T, MPI_COMM_WORLD));
    int bad = 0;
    for (int j = 0; j < ct_size; j++)
        for (int k = 0; k < n; k++)
            bad += r[(size_t)j * n + k] != val(it, j, ct_rank * n + k);
    CHECK(bad == 0, "it %d alltoall: %d wrong", it, bad);
}

/* Beyond a slot (960 KiB): bcast and reduce go in segments of half a slot,
 * each a stream call of its own; 2.4 MB, rank-order op, in place at odd
 * iterations. */
static void segments(MPI_Op aff)
{
    int n = 600000;
    uint32_t *s = ct_malloc((size_t)n * 4), *r = ct_malloc((size_t)n * 4);
    for (int it = 0; it < 6; it++) {
        int root = it % ct_size, bad = 0;
        bool in_place = it % 2 == 1 && ct_rank == root;
        for (int k = 0; k < n; k++)
            (in_place ? r : s)[k] = val(it, ct_rank, k);
        CHECK_RC(MPI_Reduce(in_place ? MPI_IN_PLACE : s, r, n, MPI_UINT32_T, aff, root,
                            MPI_COMM_WORLD));
        for (int k = 0; k < n && ct_rank == root; k++) {
            uint32_t want = val(it, 0, k);
            for (int j = 1; j < ct_size; j++)
                want = ct_aff16(want, val(it, j, k));
            bad += r[k] != want;
        }
        CHECK(bad == 0, "segments %d reduce: %d wrong", it, bad);
        for (int k = 0; k < n; k++)
            r[k] = ct_rank == root ? val(it, root, k) : 0;
        CHECK_RC(MPI_Bcast(r, n, MPI_UINT32_T, root, MPI_COMM_WORLD));
        bad = bad_block(r, n, 1, it, root);
        CHECK(bad == 0, "segments %d bcast: %d wrong", it, bad);
    }
    free(s);
    free(r);
}

/* Stream calls on the node's communicator (node-complete also when the
 * job spans several "hosts") between collectives on COMM_WORLD, which on
 * several hosts take the two-stage algorithms through the node slots:
 * each switch between the two takes the node barrier. */
static void node_and_world(void)
{
    MPI_Comm node;
    int ns, nr, n = 5000;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &ns);
    MPI_Comm_rank(node, &nr);
    uint32_t *b = ct_malloc((size_t)n * 4 * (size_t)ns);
    int *x = ct_malloc(2000 * sizeof(int)), *y = ct_malloc(2000 * sizeof(int));
    for (int it = 0; it < 120; it++) {
        int root = it % ns, bad = 0;
        for (int k = 0; k < n; k++)
            b[k] = nr == root ? val(it, root, k) : 0;
        CHECK_RC(MPI_Bcast(b, n, MPI_UINT32_T, root, node));
        bad += bad_block(b, n, 1, it, root);
        for (int k = 0; k < 2000; k++)
            x[k] = ct_rank + k + it;
        CHECK_RC(MPI_Allreduce(x, y, 2000, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        for (int k = 0; k < 2000; k++)
            bad += y[k] != ct_size * (k + it) + ct_size * (ct_size - 1) / 2;
        uint32_t *mine = nr == root ? b + (size_t)root * n : b;   /* in place at the root */
        for (int k = 0; k < n; k++)
            mine[k] = val(it, nr, k);
        CHECK_RC(MPI_Gather(nr == root ? MPI_IN_PLACE : b, n, MPI_UINT32_T, b, n,
                            MPI_UINT32_T, root, node));
        for (int j = 0; j < ns && nr == root; j++)
            bad += bad_block(b + (size_t)j * n, n, 1, it, j);
        CHECK(bad == 0, "node/world %d: %d wrong", it, bad);
    }
    free(b);
    free(x);
    free(y);
    MPI_Comm_free(&node);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size, nsz = (int)(sizeof sizes / sizeof sizes[0]);
    size_t big = (size_t)sizes[nsz - 1] * 2 * (size_t)(p > 2 ? p : 2);
    uint32_t *s = ct_malloc(big * 4), *r = ct_malloc(big * 4);
    MPI_Op aff;
    MPI_Op_create(ct_aff16_fn, 0, &aff);
    run_ahead(s, r);
    segments(aff);
    node_and_world();
    for (int it = 0; it < ITERS; it++) {
        int n = sizes[it / 7 % nsz], root = it % p;
        bool strided = it % 3 == 0 && n > 0;
        MPI_Datatype vec;
        MPI_Type_vector(n, 1, 2, MPI_UINT32_T, &vec);
        MPI_Type_commit(&vec);
        if (ct_rank == (it / 50) % p && it % 23 == 0)
            nap_ms(2);
        switch (it % 5) {
        case 0: bcast(it, n, root, strided, vec, r); break;
        case 1: reduce(it, n, root, strided, vec, aff, s, r); break;
        case 2: gather(it, n, root, strided, vec, s, r); break;
        case 3: scatter(it, n, root, strided, vec, s, r); break;
        default: if (it % 10 == 4) barrier_kind(it, s, r); break;
        }
        MPI_Type_free(&vec);
    }
    MPI_Op_free(&aff);
    free(s);
    free(r);
    return ct_finish();
}
