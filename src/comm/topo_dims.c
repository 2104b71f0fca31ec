/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * topo_dims.c - MPI_Dims_create and MPI_Topo_test.
 *
 * Dims_create: the entries of dims that are 0 are filled so that the
 * product of all entries is nnodes and the filled entries are as close to
 * each other as possible, in non-increasing order. "As close as possible"
 * is the smallest spread (largest entry minus smallest) among the splits
 * of nnodes / (product of the fixed entries) over the free entries; among
 * splits of equal spread, the one whose smallest entry is largest, then
 * the next smallest, and so on. This is the rule the MPICH test suite's
 * table of decompositions (topo/dims5) follows. Fixed entries that do not
 * divide nnodes are MPI_ERR_DIMS, as is a negative entry.
 *
 * The search builds the split smallest entry first over the divisors, each
 * level trying its candidates from the largest down, and cuts a branch once
 * the smallest possible largest entry already gives no smaller spread: the
 * first split found at the best spread is then the one the tie rule wants.
 */
#include <stdbool.h>
#include <stdlib.h>
#include "comm/comm_int.h"
#include "core/topo.h"
#include "xb_impl.h"

/* A number below 2^31 has at most 30 prime factors, so a split over more
 * entries has ones beyond the first MAX_GT1 entries >= 2. */
enum { MAX_GT1 = 30, MAXDIV = 2048 };

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The divisors of n in increasing order (n < 2^31 has at most 1600). */
static int divisors(int n, int *dv, int max)
{
    int k = 0;
    for (long d = 1; d * d <= n && k + 2 <= max; d++)
        if (n % d == 0) {
            dv[k++] = (int)d;
            if (d * d != n)
                dv[k++] = (int)(n / d);
        }
    qsort(dv, (size_t)k, sizeof(int), cmp_int);
    return k;
}

/* x^j compared with r: -1, 0 or 1 (no overflow: stops once above r). */
static int pow_cmp(long x, int j, long r)
{
    long p = 1;
    for (int i = 0; i < j; i++) {
        p *= x;
        if (p > r)
            return 1;
    }
    return p < r ? -1 : p > r;
}

/* The smallest x >= 1 with x^j >= r: the least possible largest entry of
 * j entries with product r. */
static long ceil_root(long r, int j)
{
    long lo = 1, hi = r;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (pow_cmp(mid, j, r) >= 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

typedef struct {
    const int *dv;                  /* divisors of the whole product, increasing */
    int ndv, k;                     /* k entries to fill */
    int *cur, *best;                /* increasing order while searching */
    long best_spread;
} search_t;

/* Fill cur[i..k) (non-decreasing, each >= cur[i-1]) with product r. */
static void descend(search_t *s, int i, long r)
{
    int j = s->k - i;                                /* entries left */
    long lo = i > 0 ? s->cur[i - 1] : 1, a0 = i > 0 ? s->cur[0] : 0;
    if (j == 1) {
        if (r >= lo && r - a0 < s->best_spread) {
            s->cur[i] = (int)r;
            s->best_spread = r - a0;
            for (int t = 0; t < s->k; t++)
                s->best[t] = s->cur[t];
        }
        return;
    }
    int t = s->ndv - 1;                             /* largest d with d^j <= r */
    while (t >= 0 && pow_cmp(s->dv[t], j, r) > 0)
        t--;
    for (; t >= 0 && s->dv[t] >= lo; t--) {
        long d = s->dv[t];
        if (r % d != 0)
            continue;
        long first = i > 0 ? a0 : d;
        long top = ceil_root(r / d, j - 1);       /* grows as d shrinks */
        if ((top > d ? top : d) - first >= s->best_spread)
            break;
        s->cur[i] = (int)d;
        descend(s, i + 1, r / d);
    }
}

/* v[0..k) := the most balanced split of n, in non-increasing order. */
static int balanced_split(int n, int k, int *v)
{
    int m = k < MAX_GT1 + 1 ? k : MAX_GT1 + 1;    /* the rest are ones */
    int *mem = malloc((size_t)(2 * m + MAXDIV) * sizeof(int));
    if (mem == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    search_t s = { .dv = mem + 2 * m, .k = m, .cur = mem, .best = mem + m,
                   .best_spread = (long)n };        /* 1 x ... x n: spread n-1 */
    for (int i = 0; i < m; i++)
        s.best[i] = i == m - 1 ? n : 1;
    s.ndv = divisors(n, mem + 2 * m, MAXDIV);
    descend(&s, 0, n);
    for (int i = 0; i < k; i++)
        v[i] = i < m ? s.best[m - 1 - i] : 1;
    free(mem);
    return XB_OK;
}

int xb_impl_dims_create(int nnodes, int ndims, int dims[])
{
    if (nnodes <= 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument nnodes: %d (must be "
                          "positive)", nnodes);
    if (ndims < 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument ndims: %d (negative)", ndims);
    long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return xb_err_set(-MPI_ERR_DIMS, "invalid dims[%d] = %d (an entry is "
                              "0, to be filled, or a positive fixed size)", i, dims[i]);
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            nfree++;
        if (fixed > nnodes)
            break;
    }
    if (nnodes % fixed != 0 || fixed > nnodes)
        return xb_err_set(-MPI_ERR_DIMS, "the fixed entries of dims (product %ld) "
                          "do not divide nnodes = %d", fixed, nnodes);
    int rest = (int)(nnodes / fixed);
    if (nfree == 0) {
        if (rest != 1)
            return xb_err_set(-MPI_ERR_DIMS, "dims has no entry to fill but its "
                              "product %ld is not nnodes = %d", fixed, nnodes);
        return XB_OK;
    }
    int *v = malloc((size_t)nfree * sizeof(int));
    if (v == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    int rc = balanced_split(rest, nfree, v);
    if (rc == XB_OK)
        for (int i = 0, j = 0; i < ndims; i++)
            if (dims[i] == 0)
                dims[i] = v[j++];
    free(v);
    return rc;
}

int xb_impl_topo_test(xb_comm_t *comm, int *status)
{
    *status = comm->topo != NULL ? comm->topo->kind : MPI_UNDEFINED;
    return XB_OK;
}
