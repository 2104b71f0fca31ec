/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_dims.c - MPI_Dims_create's implementation (src/comm/topo_dims.c)
 * without a job: the standard's examples, balance for many sizes (product
 * right, non-increasing, fixed entries kept, max/min no worse than a brute
 * force search of 2-D splits), the spread rule in 3 to 5 dimensions against
 * a brute force search of all splits (smallest largest-minus-smallest, ties
 * to the largest smallest entry, then the next: the MPICH test suite's
 * topo/dims5 table, e.g. 10800 in 3-D is 27 x 20 x 20, not 25 x 24 x 18),
 * and the errors.
 */
#include <stdbool.h>
#include <stdio.h>
#include "core/core.h"
#include "xb_impl.h"

static int failures;
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                      \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
        }                                                                    \
    } while (0)

/* Brute force: every non-increasing split of n into k entries below cap,
 * kept in best[] when better by the rule: smaller spread, or equal spread
 * and larger entries read from the smallest up. */
static void all_splits(int n, int k, int cap, int *cur, int depth, int kk, int *best)
{
    if (k == 0) {
        if (n != 1)
            return;
        int s = cur[0] - cur[kk - 1], bs = best[0] - best[kk - 1];
        bool better = s < bs;
        for (int i = kk - 1; s == bs && i >= 0; i--)
            if (cur[i] != best[i]) {
                better = cur[i] > best[i];
                break;
            }
        if (better)
            for (int i = 0; i < kk; i++)
                best[i] = cur[i];
        return;
    }
    for (int d = cap; d >= 1; d--)
        if (n % d == 0) {
            cur[depth] = d;
            all_splits(n / d, k - 1, d, cur, depth + 1, kk, best);
        }
}

static void spread_rule(void)
{
    static const int big[][4] = {
        { 10800, 27, 20, 20 }, { 5040, 21, 16, 15 }, { 34425, 51, 27, 25 },
        { 228072, 86, 52, 51 },
    };
    for (size_t t = 0; t < sizeof big / sizeof big[0]; t++) {
        int d[3] = { 0, 0, 0 };
        xb_impl_dims_create(big[t][0], 3, d);
        CHECK(d[0] == big[t][1] && d[1] == big[t][2] && d[2] == big[t][3],
              "%d in 3-D: %d x %d x %d, want %d x %d x %d", big[t][0], d[0], d[1],
              d[2], big[t][1], big[t][2], big[t][3]);
    }
    for (int k = 3; k <= 5; k++)
        for (int n = 1; n <= (k == 3 ? 2000 : 600); n++) {
            int d[5] = { 0 }, cur[5], best[5] = { n, 1, 1, 1, 1 };
            all_splits(n, k, n, cur, 0, k, best);
            xb_impl_dims_create(n, k, d);
            bool same = true;
            for (int i = 0; i < k; i++)
                same = same && d[i] == best[i];
            CHECK(same, "n=%d k=%d: %d %d %d .. want %d %d %d ..", n, k, d[0], d[1],
                  d[2], best[0], best[1], best[2]);
        }
    int d[40] = { 0 };                     /* more entries than prime factors */
    xb_impl_dims_create(1 << 20, 40, d);
    CHECK(d[0] == 2 && d[19] == 2 && d[20] == 1 && d[39] == 1, "2^20 in 40-D");
}

int main(void)
{
    int d[4];
    d[0] = d[1] = 0;
    CHECK(xb_impl_dims_create(6, 2, d) == 0 && d[0] == 3 && d[1] == 2, "6,2");
    d[0] = d[1] = 0;
    CHECK(xb_impl_dims_create(7, 2, d) == 0 && d[0] == 7 && d[1] == 1, "7,2");
    d[0] = 0, d[1] = 3, d[2] = 0;
    CHECK(xb_impl_dims_create(6, 3, d) == 0 && d[0] == 2 && d[1] == 3 && d[2] == 1,
          "6,3 {0,3,0}: %d %d %d", d[0], d[1], d[2]);
    d[0] = 0, d[1] = 3, d[2] = 0;
    CHECK(xb_impl_dims_create(7, 3, d) == -MPI_ERR_DIMS, "7,3 {0,3,0} error");
    CHECK(xb_impl_dims_create(0, 1, d) == XB_ERR_ARG, "nnodes 0");
    d[0] = 2, d[1] = 2;
    CHECK(xb_impl_dims_create(8, 2, d) == -MPI_ERR_DIMS, "all fixed, wrong product");
    for (int n = 1; n <= 200; n++) {
        d[0] = d[1] = 0;
        xb_impl_dims_create(n, 2, d);
        int best = n;                      /* smallest max(a, n/a) */
        for (int a = 1; a <= n; a++)
            if (n % a == 0 && (a > n / a ? a : n / a) < best)
                best = a > n / a ? a : n / a;
        CHECK(d[0] * d[1] == n && d[0] >= d[1] && d[0] == best,
              "n=%d: %d x %d (best max %d)", n, d[0], d[1], best);
        d[0] = d[1] = d[2] = 0;
        xb_impl_dims_create(n, 3, d);
        CHECK(d[0] * d[1] * d[2] == n && d[0] >= d[1] && d[1] >= d[2], "n=%d 3-D", n);
    }
    spread_rule();
    if (failures == 0)
        printf("test_dims: all passed\n");
    return failures != 0;
}
