/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * topo_dims.c - MPI_Dims_create and MPI_Topo_test.
 *
 * Dims_create: the entries of dims that are 0 are filled so that the
 * product of all entries is nnodes and the filled entries are as close to
 * each other as possible, in non-increasing order: among the splits of
 * nnodes / (product of the fixed entries) over the free entries we take the
 * lexicographically smallest non-increasing one (largest entry as small as
 * possible, then the next...), found by a search over the divisors. Fixed
 * entries that do not divide nnodes are MPI_ERR_DIMS, as is a negative
 * entry.
 */
#include <stdlib.h>
#include "comm/comm_int.h"
#include "core/topo.h"
#include "xb_impl.h"

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

/* Fill v[0..k) (non-increasing, each <= cap) with product n, choosing the
 * lexicographically smallest such vector: the largest entry as small as
 * possible, then the next, and so on - the most balanced split. Returns
 * false when no split fits under cap. */
static bool split(int n, int k, int cap, const int *dv, int ndv, int *v)
{
    if (k == 1) {
        v[0] = n;
        return n <= cap;
    }
    for (int i = 0; i < ndv; i++) {
        int d = dv[i];
        if (d > cap)
            break;
        if (n % d != 0)
            continue;
        long pw = 1;                       /* need d^k >= n */
        for (int j = 0; j < k && pw < n; j++)
            pw *= d;
        if (pw < n)
            continue;
        v[0] = d;
        if (split(n / d, k - 1, d, dv, ndv, v + 1))
            return true;
    }
    return false;
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
    enum { MAXDIV = 2048 };
    int *v = malloc((size_t)nfree * sizeof(int) + MAXDIV * sizeof(int));
    if (v == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    int *dv = v + nfree, ndv = divisors(rest, dv, MAXDIV);
    split(rest, nfree, rest, dv, ndv, v);     /* cap = rest always fits */
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = v[j++];
    free(v);
    return XB_OK;
}

int xb_impl_topo_test(xb_comm_t *comm, int *status)
{
    *status = comm->topo != NULL ? comm->topo->kind : MPI_UNDEFINED;
    return XB_OK;
}
