/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * topo_cart.c - Cartesian topologies: MPI_Cart_create, _coords, _rank,
 * _shift, _sub, _map, _get, MPI_Cartdim_get.
 *
 * Ranks are laid out in row-major order (the last dimension varies
 * fastest), as the standard says. Creation keeps the old rank order, or
 * with reorder groups the ranks of each node together (node by node, old
 * order inside), so grid neighbours tend to share a node even when the
 * launcher placed ranks round-robin; the grid is the first prod(dims)
 * processes of comm_old, the others get MPI_COMM_NULL. Cart_sub splits by the
 * coordinates of the dropped dimensions.
 */
#include <stdlib.h>
#include "comm/comm_int.h"
#include "core/topo.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

static int need_cart(const xb_comm_t *comm)
{
    if (comm->topo == NULL || comm->topo->kind != MPI_CART)
        return xb_err_set(-MPI_ERR_TOPOLOGY, "invalid argument comm: it has no "
                          "Cartesian topology");
    return XB_OK;
}

/* Validate dims[0..ndims) and give their product. */
static int grid_size(int ndims, const int dims[], int *prod_p)
{
    if (ndims < 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument ndims: %d (negative)", ndims);
    long prod = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return xb_err_set(-MPI_ERR_DIMS, "invalid dims[%d] = %d (each "
                              "dimension must be positive)", i, dims[i]);
        prod *= dims[i];
        if (prod > (1L << 30))
            return xb_err_set(-MPI_ERR_DIMS, "the grid is too large");
    }
    *prod_p = (int)prod;
    return XB_OK;
}

/* Attach a Cartesian topology to c. */
static int attach(xb_comm_t *c, int ndims, const int dims[], const int periods[])
{
    xb_topo_t *t = xb_topo_new(MPI_CART);
    if (t == NULL)
        return XB_ERR_NO_MEM;
    t->ndims = ndims;
    t->dims = xb_topo_ints(dims, ndims);
    t->periods = xb_topo_ints(NULL, ndims);
    if (t->dims == NULL || t->periods == NULL) {
        xb_topo_free(t);
        return XB_ERR_NO_MEM;
    }
    for (int i = 0; i < ndims; i++)
        t->periods[i] = periods[i] != 0;
    xb_topo_free(c->topo);
    c->topo = t;
    return XB_OK;
}

/* Split key of comm's rank: with reorder, ranks of one node (as the
 * launcher placed them) become adjacent, in their old order; else the old
 * rank. */
int xb_comm_topo_key(const xb_comm_t *comm, int reorder)
{
    if (!reorder)
        return comm->rank;
    const xb_rt_info_t *rt = xb_rt();
    long node = rt->node_of[xb_group_gpid(comm->group, comm->rank)];
    return (int)(node * comm->size + comm->rank);
}

int xb_impl_cart_create(xb_comm_t *comm_old, int ndims, const int dims[],
                        const int periods[], int reorder, MPI_Comm *comm_cart)
{
    if (xb_comm_is_inter(comm_old))
        return xb_err_set(XB_ERR_COMM, "invalid argument comm_old: an "
                          "intercommunicator");
    int prod = 0;
    int rc = grid_size(ndims, dims, &prod);
    if (rc == XB_OK && prod > comm_old->size)
        rc = xb_err_set(XB_ERR_ARG, "the grid has %d processes but comm_old has "
                        "only %d", prod, comm_old->size);
    if (rc != XB_OK)
        return rc;        /* every rank sees the same error: nobody hangs */
    MPI_Comm h;
    rc = xb_comm_split_impl(comm_old, comm_old->rank < prod ? 0 : MPI_UNDEFINED,
                            xb_comm_topo_key(comm_old, reorder), &h);
    if (rc != XB_OK)
        return rc;
    if (h != MPI_COMM_NULL) {
        rc = attach(xb_comm_from_handle(h), ndims, dims, periods);
        if (rc != XB_OK) {
            xb_impl_comm_free(&h);
            return rc;
        }
    }
    *comm_cart = h;
    return XB_OK;
}

static void coords_of(const xb_topo_t *t, int rank, int coords[])
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

int xb_impl_cart_coords(xb_comm_t *comm, int rank, int maxdims, int coords[])
{
    int rc = need_cart(comm);
    if (rc != XB_OK)
        return rc;
    if (maxdims < comm->topo->ndims)
        return xb_err_set(XB_ERR_ARG, "invalid argument maxdims: %d (the "
                          "topology has %d dimensions)", maxdims, comm->topo->ndims);
    coords_of(comm->topo, rank, coords);
    return XB_OK;
}

/* Rank of coords; a coordinate outside a non-periodic dimension is an
 * error (strict) or gives MPI_PROC_NULL (shift). */
static int rank_of(const xb_topo_t *t, const int coords[], bool strict, int *rank_p)
{
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        int c = coords[i], d = t->dims[i];
        if (c < 0 || c >= d) {
            if (!t->periods[i]) {
                if (strict)
                    return xb_err_set(XB_ERR_ARG, "invalid coords[%d] = %d "
                                      "(dimension %d has size %d and is not "
                                      "periodic)", i, c, i, d);
                *rank_p = MPI_PROC_NULL;
                return XB_OK;
            }
            c = ((c % d) + d) % d;
        }
        r = r * d + c;
    }
    *rank_p = r;
    return XB_OK;
}

int xb_impl_cart_rank(xb_comm_t *comm, const int coords[], int *rank)
{
    int rc = need_cart(comm);
    return rc == XB_OK ? rank_of(comm->topo, coords, true, rank) : rc;
}

int xb_impl_cart_shift(xb_comm_t *comm, int direction, int disp, int *rank_source,
                       int *rank_dest)
{
    int rc = need_cart(comm);
    if (rc != XB_OK)
        return rc;
    const xb_topo_t *t = comm->topo;
    if (direction < 0 || direction >= t->ndims)
        return xb_err_set(XB_ERR_ARG, "invalid argument direction: %d (the "
                          "topology has %d dimensions)", direction, t->ndims);
    int *c = xb_topo_ints(NULL, t->ndims);
    if (c == NULL)
        return XB_ERR_NO_MEM;
    coords_of(t, comm->rank, c);
    int mine = c[direction], src, dst;
    c[direction] = mine + disp;
    rank_of(t, c, false, &dst);
    c[direction] = mine - disp;
    rank_of(t, c, false, &src);
    free(c);
    *rank_source = src;
    *rank_dest = dst;
    return XB_OK;
}

int xb_impl_cart_sub(xb_comm_t *comm, const int remain_dims[], MPI_Comm *newcomm)
{
    int rc = need_cart(comm);
    if (rc != XB_OK)
        return rc;
    const xb_topo_t *t = comm->topo;
    int *c = xb_topo_ints(NULL, t->ndims), *nd = xb_topo_ints(NULL, t->ndims);
    int *np = xb_topo_ints(NULL, t->ndims);
    if (c == NULL || nd == NULL || np == NULL) {
        free(c), free(nd), free(np);
        return XB_ERR_NO_MEM;
    }
    coords_of(t, comm->rank, c);
    int color = 0, key = 0, n = 0;
    for (int i = 0; i < t->ndims; i++) {
        if (remain_dims[i]) {
            key = key * t->dims[i] + c[i];
            nd[n] = t->dims[i];
            np[n++] = t->periods[i];
        } else
            color = color * t->dims[i] + c[i];
    }
    MPI_Comm h;
    rc = xb_comm_split_impl(comm, color, key, &h);
    if (rc == XB_OK) {
        rc = attach(xb_comm_from_handle(h), n, nd, np);
        if (rc != XB_OK)
            xb_impl_comm_free(&h);
    }
    free(c), free(nd), free(np);
    if (rc == XB_OK)
        *newcomm = h;
    return rc;
}

int xb_impl_cart_map(xb_comm_t *comm, int ndims, const int dims[],
                     const int periods[], int *newrank)
{
    (void)periods;
    int prod = 0;
    int rc = grid_size(ndims, dims, &prod);
    if (rc == XB_OK && prod > comm->size)
        rc = xb_err_set(XB_ERR_ARG, "the grid has %d processes but comm has "
                        "only %d", prod, comm->size);
    if (rc == XB_OK)
        *newrank = comm->rank < prod ? comm->rank : MPI_UNDEFINED;
    return rc;
}

int xb_impl_cart_get(xb_comm_t *comm, int maxdims, int dims[], int periods[],
                     int coords[])
{
    int rc = need_cart(comm);
    if (rc != XB_OK)
        return rc;
    const xb_topo_t *t = comm->topo;
    if (maxdims < t->ndims)
        return xb_err_set(XB_ERR_ARG, "invalid argument maxdims: %d (the "
                          "topology has %d dimensions)", maxdims, t->ndims);
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
    }
    coords_of(t, comm->rank, coords);
    return XB_OK;
}

int xb_impl_cartdim_get(xb_comm_t *comm, int *ndims)
{
    int rc = need_cart(comm);
    if (rc == XB_OK)
        *ndims = comm->topo->ndims;
    return rc;
}
