/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_dims.c - MPI_Dims_create's implementation (src/comm/topo_dims.c)
 * without a job: the standard's examples, balance for many sizes (product
 * right, non-increasing, fixed entries kept, max/min no worse than a brute
 * force search of 2-D splits), and the errors.
 */
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
    if (failures == 0)
        printf("test_dims: all passed\n");
    return failures != 0;
}
