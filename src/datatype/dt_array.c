/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_array.c - MPI_Type_create_subarray and MPI_Type_create_darray.
 *
 * Both describe a part of an n-dimensional array of `oldtype` elements, so
 * both are built the same way, one dimension at a time from the fastest
 * (the last one in C order, the first one in Fortran order): dimension i
 * selects a regular pattern of blocks of indices; its type is made of the
 * previous dimension's type (whose extent is one index of dimension i),
 * resized to lb 0 and extent gsize[i] times that. The
 * result is the standard's: lb 0, extent the whole array, the selected
 * elements at their places. It is kept as the `equiv` of a wrapper object
 * whose envelope reports the subarray or darray combiner and arguments.
 *
 * Blocks: a subarray has one block per dimension (start, subsize); a
 * darray dimension distributed BLOCK has one block (coord*b, up to b), a
 * CYCLIC(b) one has a block of b every psize*b indices, starting at
 * coord*b, the last possibly short; NONE is the whole dimension. Regular
 * blocks are an hvector, so a cyclic distribution of 10^9 elements costs
 * as little to describe and compile as one of 10. Processes
 * are numbered in row-major order of the grid whatever the array order.
 */
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"
#include "xb_impl.h"

/* The indices one dimension selects: n blocks of bs indices, one every
 * `period`, from `first`; the last block has `last` indices (1..bs). */
typedef struct dim_blocks { MPI_Count first, bs, period, n, last; } dim_blocks_t;

static int array_too_large(void)
{
    return xb_err_set(XB_ERR_ARG, "the array would be larger than 2^63 bytes");
}

/* One dimension: `t` (consumed) has the extent of one index; the result
 * selects the blocks and has the extent of gsize indices. The full blocks
 * are one hvector, a short last block a contiguous type after it: the size
 * of the description does not grow with the array. */
static int dim_type(xb_datatype_t *t, MPI_Count gsize, const dim_blocks_t *b,
                    xb_datatype_t **out)
{
    MPI_Aint ext = t->extent, full, d0, step, dl;
    MPI_Count nfull = b->n > 0 && b->last < b->bs ? b->n - 1 : b->n;
    if (__builtin_mul_overflow(gsize, ext, &full) ||
        __builtin_mul_overflow(b->first, ext, &d0) ||
        __builtin_mul_overflow(b->period, ext, &step) ||
        __builtin_mul_overflow(b->first + nfull * b->period, ext, &dl)) {
        xb_dt_release(t);
        return array_too_large();
    }
    xb_datatype_t *parts[2], *h = NULL;
    MPI_Count disp[2], blens[2] = { 1, 1 };
    int np = 0, rc = XB_OK;
    if (nfull > 0) {
        rc = xb_dt_make_vector(nfull, b->bs, step, true, t, &parts[np]);
        if (rc == XB_OK)
            disp[np++] = d0;
    }
    if (rc == XB_OK && nfull < b->n) {
        rc = xb_dt_make_contiguous(b->last, t, &parts[np]);
        if (rc == XB_OK)
            disp[np++] = dl;
    }
    if (rc == XB_OK)
        rc = xb_dt_make_struct(np, blens, disp, parts, &h);
    for (int i = 0; i < np; i++)
        xb_dt_release(parts[i]);
    xb_dt_release(t);
    if (rc != XB_OK)
        return rc;
    rc = xb_dt_make_resized(h, 0, full, out);
    xb_dt_release(h);
    return rc;
}

/* Builds the equivalent type from per-dimension block lists. */
static int build_array(int ndims, const MPI_Count *gsizes, const dim_blocks_t *dims,
                       int order, xb_datatype_t *old, xb_datatype_t **out)
{
    xb_datatype_t *t = old;
    xb_dt_retain(old);
    for (int k = 0; k < ndims; k++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - k : k;
        xb_datatype_t *next = NULL;
        int rc = dim_type(t, gsizes[i], &dims[i], &next);
        if (rc != XB_OK)
            return rc;
        t = next;
    }
    *out = t;
    return XB_OK;
}

static int check_order(int order)
{
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return xb_err_set(XB_ERR_ARG, "order is %d: neither MPI_ORDER_C nor "
                          "MPI_ORDER_FORTRAN", order);
    return XB_OK;
}

static int check_ndims(int ndims, int min)
{
    if (ndims < min)
        return xb_err_set(XB_ERR_ARG, "ndims is %d: it must be at least %d",
                          ndims, min);
    return XB_OK;
}

static int check_subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                          const MPI_Count *starts)
{
    for (int i = 0; i < ndims; i++) {
        if (sizes[i] < 1)
            return xb_err_set(XB_ERR_ARG, "array_of_sizes[%d] is %lld: it must "
                              "be positive", i, (long long)sizes[i]);
        if (subsizes[i] < 0 || subsizes[i] > sizes[i])
            return xb_err_set(XB_ERR_ARG, "array_of_subsizes[%d] is %lld: it "
                              "must be in 0..array_of_sizes[%d] = %lld", i,
                              (long long)subsizes[i], i, (long long)sizes[i]);
        if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
            return xb_err_set(XB_ERR_ARG, "array_of_starts[%d] is %lld: with "
                              "subsize %lld it does not fit in size %lld "
                              "(start + subsize > size)", i, (long long)starts[i],
                              (long long)subsizes[i], (long long)sizes[i]);
    }
    return XB_OK;
}

int xb_impl_type_create_subarray(int ndims, const MPI_Count *array_of_sizes,
                                 const MPI_Count *array_of_subsizes,
                                 const MPI_Count *array_of_starts, int order,
                                 xb_datatype_t *oldtype, MPI_Datatype *newtype, bool large)
{
    int rc = check_ndims(ndims, 1);
    if (rc == XB_OK)
        rc = check_order(order);
    if (rc == XB_OK)
        rc = check_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts);
    if (rc != XB_OK)
        return rc;
    dim_blocks_t *dims = calloc((size_t)(unsigned)ndims, sizeof(*dims));
    MPI_Count *ints = malloc((3 * (size_t)(unsigned)ndims + 2) * sizeof(MPI_Count));
    if (dims == NULL || ints == NULL) {
        free(dims);
        free(ints);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
    }
    for (int i = 0; i < ndims; i++)
        dims[i] = (dim_blocks_t){ array_of_starts[i], array_of_subsizes[i],
                                  array_of_subsizes[i], array_of_subsizes[i] > 0,
                                  array_of_subsizes[i] };
    xb_datatype_t *eq = NULL, *dt = NULL;
    rc = build_array(ndims, array_of_sizes, dims, order, oldtype, &eq);
    if (rc == XB_OK) {
        ints[0] = ndims;
        memcpy(ints + 1, array_of_sizes, (size_t)ndims * sizeof(MPI_Count));
        memcpy(ints + 1 + ndims, array_of_subsizes, (size_t)ndims * sizeof(MPI_Count));
        memcpy(ints + 1 + 2 * ndims, array_of_starts, (size_t)ndims * sizeof(MPI_Count));
        ints[1 + 3 * ndims] = order;
        rc = xb_dt_make_wrapper(eq, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints,
                                oldtype, &dt);
    }
    free(dims);
    free(ints);
    if (rc == XB_OK && large)
        dt->flags |= DT_F_LARGE_CTOR;
    if (rc == XB_OK)
        *newtype = xb_dt_to_handle(dt);
    return rc;
}

/* ---- darray ------------------------------------------------------------------ */
/* The blocks of one dimension of a darray for process coordinate c. */
static int darray_dim(int i, MPI_Count gsize, int distrib, int darg, int psize,
                      int c, dim_blocks_t *b)
{
    MPI_Count bs;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        bs = gsize;
        psize = 1;
        c = 0;
    } else if (distrib == MPI_DISTRIBUTE_BLOCK) {
        bs = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
        if (bs < 1 || bs * psize < gsize)
            return xb_err_set(XB_ERR_ARG, "array_of_dargs[%d] is %d: a block "
                              "distribution of %lld elements over %d processes "
                              "needs blocks of at least %lld", i, darg,
                              (long long)gsize, psize,
                              (long long)((gsize + psize - 1) / psize));
    } else if (distrib == MPI_DISTRIBUTE_CYCLIC) {
        bs = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        if (bs < 1)
            return xb_err_set(XB_ERR_ARG, "array_of_dargs[%d] is %d: it must "
                              "be positive or MPI_DISTRIBUTE_DFLT_DARG", i, darg);
    } else {
        return xb_err_set(XB_ERR_ARG, "array_of_distribs[%d] is %d: not "
                          "MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE", i, distrib);
    }
    MPI_Count period = bs * psize, first = (MPI_Count)c * bs;
    MPI_Count n = first >= gsize ? 0 : (gsize - first + period - 1) / period;
    MPI_Count lastfirst = first + (n > 0 ? n - 1 : 0) * period;
    MPI_Count last = gsize - lastfirst < bs ? gsize - lastfirst : bs;
    *b = (dim_blocks_t){ first, bs, period, n, n > 0 ? last : bs };
    return XB_OK;
}

static int check_darray(int size, int rank, int ndims, const MPI_Count *gsizes,
                        const int *distribs, const int *psizes)
{
    if (size < 1)
        return xb_err_set(XB_ERR_ARG, "size is %d: it must be positive", size);
    if (rank < 0 || rank >= size)
        return xb_err_set(XB_ERR_ARG, "rank %d is not in 0..size-1 = %d",
                          rank, size - 1);
    MPI_Count prod = 1;
    for (int i = 0; i < ndims; i++) {
        if (gsizes[i] < 1)
            return xb_err_set(XB_ERR_ARG, "array_of_gsizes[%d] is %lld: it "
                              "must be positive", i, (long long)gsizes[i]);
        if (psizes[i] < 1)
            return xb_err_set(XB_ERR_ARG, "array_of_psizes[%d] is %d: it must "
                              "be positive", i, psizes[i]);
        if (distribs[i] == MPI_DISTRIBUTE_NONE && psizes[i] != 1)
            return xb_err_set(XB_ERR_ARG, "array_of_psizes[%d] is %d: a "
                              "dimension distributed MPI_DISTRIBUTE_NONE needs "
                              "1 process", i, psizes[i]);
        if (prod <= size)
            prod *= psizes[i];
    }
    if (prod != size)
        return xb_err_set(XB_ERR_ARG, "inconsistent process grid: the product "
                          "of array_of_psizes is %s%lld, not size = %d",
                          prod > size ? "more than " : "", (long long)prod, size);
    return XB_OK;
}

static int darray_envelope(int size, int rank, int ndims, const MPI_Count *gsizes,
                           const int *distribs, const int *dargs, const int *psizes,
                           int order, xb_datatype_t *eq, xb_datatype_t *old,
                           xb_datatype_t **out)
{
    MPI_Count *ints = malloc((4 * (size_t)(unsigned)ndims + 4) * sizeof(MPI_Count));
    if (ints == NULL) {
        xb_dt_release(eq);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
    }
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    for (int i = 0; i < ndims; i++) {
        ints[3 + i] = gsizes[i];
        ints[3 + ndims + i] = distribs[i];
        ints[3 + 2 * ndims + i] = dargs[i];
        ints[3 + 3 * ndims + i] = psizes[i];
    }
    ints[3 + 4 * ndims] = order;
    int rc = xb_dt_make_wrapper(eq, MPI_COMBINER_DARRAY, 4 * ndims + 4, ints,
                                old, out);
    free(ints);
    return rc;
}

int xb_impl_type_create_darray(int size, int rank, int ndims,
                               const MPI_Count *array_of_gsizes,
                               const int array_of_distribs[],
                               const int array_of_dargs[],
                               const int array_of_psizes[], int order,
                               xb_datatype_t *oldtype, MPI_Datatype *newtype, bool large)
{
    int rc = check_ndims(ndims, 1);
    if (rc == XB_OK)
        rc = check_order(order);
    if (rc == XB_OK)
        rc = check_darray(size, rank, ndims, array_of_gsizes, array_of_distribs,
                          array_of_psizes);
    if (rc != XB_OK)
        return rc;
    dim_blocks_t *dims = calloc((size_t)(unsigned)ndims, sizeof(*dims));
    if (dims == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
    /* row-major coordinates of rank in the process grid */
    int r = rank;
    for (int i = ndims - 1; i >= 0 && rc == XB_OK; i--) {
        rc = darray_dim(i, array_of_gsizes[i], array_of_distribs[i],
                        array_of_dargs[i], array_of_psizes[i],
                        r % array_of_psizes[i], &dims[i]);
        r /= array_of_psizes[i];
    }
    xb_datatype_t *eq = NULL, *dt = NULL;
    if (rc == XB_OK)
        rc = build_array(ndims, array_of_gsizes, dims, order, oldtype, &eq);
    free(dims);
    if (rc == XB_OK)
        rc = darray_envelope(size, rank, ndims, array_of_gsizes, array_of_distribs,
                             array_of_dargs, array_of_psizes, order, eq, oldtype, &dt);
    if (rc == XB_OK && large)
        dt->flags |= DT_F_LARGE_CTOR;
    if (rc == XB_OK)
        *newtype = xb_dt_to_handle(dt);
    return rc;
}
