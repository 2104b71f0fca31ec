/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * topo.c - the topology object of a communicator (topo.h): make, copy, free.
 */
#include <stdlib.h>
#include <string.h>
#include "core/topo.h"

xb_topo_t *xb_topo_new(int kind)
{
    xb_topo_t *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a topology");
        return NULL;
    }
    t->kind = kind;
    return t;
}

int *xb_topo_ints(const int *src, int n)
{
    int *a = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (a == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a topology");
        return NULL;
    }
    if (n > 0 && src != NULL)
        memcpy(a, src, (size_t)n * sizeof(int));
    return a;
}

void xb_topo_free(xb_topo_t *t)
{
    if (t == NULL)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->sources);
    free(t->sourceweights);
    free(t->destinations);
    free(t->destweights);
    free(t);
}

int xb_topo_copy(const xb_topo_t *src, xb_topo_t **out_p)
{
    *out_p = NULL;
    if (src == NULL)
        return XB_OK;
    xb_topo_t *t = xb_topo_new(src->kind);
    if (t == NULL)
        return XB_ERR_NO_MEM;
    *t = *src;
    t->dims = xb_topo_ints(src->dims, src->ndims);
    t->periods = xb_topo_ints(src->periods, src->ndims);
    t->index = xb_topo_ints(src->index, src->nnodes);
    t->edges = xb_topo_ints(src->edges, src->nedges);
    t->sources = xb_topo_ints(src->sources, src->indegree);
    t->sourceweights = xb_topo_ints(src->sourceweights, src->indegree);
    t->destinations = xb_topo_ints(src->destinations, src->outdegree);
    t->destweights = xb_topo_ints(src->destweights, src->outdegree);
    if (t->dims == NULL || t->periods == NULL || t->index == NULL ||
        t->edges == NULL || t->sources == NULL || t->sourceweights == NULL ||
        t->destinations == NULL || t->destweights == NULL) {
        xb_topo_free(t);
        return XB_ERR_NO_MEM;
    }
    *out_p = t;
    return XB_OK;
}

int xb_topo_degrees(const xb_comm_t *comm, int *in, int *out)
{
    const xb_topo_t *t = comm->topo;
    *in = *out = 0;
    if (t == NULL || comm->remote != NULL)
        return xb_err_set(-MPI_ERR_TOPOLOGY, "communicator %s has no process "
                          "topology (neighbourhood collectives need one made "
                          "by MPI_Cart_create, MPI_Graph_create or "
                          "MPI_Dist_graph_create)", comm->name);
    if (t->kind == MPI_CART) {
        *in = *out = 2 * t->ndims;
    } else if (t->kind == MPI_GRAPH) {
        int r = comm->rank;
        *in = *out = t->index[r] - (r > 0 ? t->index[r - 1] : 0);
    } else {
        *in = t->indegree;
        *out = t->outdegree;
    }
    return XB_OK;
}

/* Rank of the process `disp` steps along dimension d from this one, or
 * MPI_PROC_NULL off a non-periodic edge. */
static int cart_shift(const xb_topo_t *t, int rank, int d, int disp)
{
    int stride = 1;
    for (int i = t->ndims - 1; i > d; i--)
        stride *= t->dims[i];
    int n = t->dims[d], c = (rank / stride) % n, nc = c + disp;
    if (nc < 0 || nc >= n) {
        if (!t->periods[d])
            return MPI_PROC_NULL;
        nc = ((nc % n) + n) % n;
    }
    return rank + (nc - c) * stride;
}

void xb_topo_neighbors(const xb_comm_t *comm, int *src, int *dst)
{
    const xb_topo_t *t = comm->topo;
    if (t->kind == MPI_CART) {
        for (int d = 0; d < t->ndims; d++) {
            src[2 * d] = dst[2 * d] = cart_shift(t, comm->rank, d, -1);
            src[2 * d + 1] = dst[2 * d + 1] = cart_shift(t, comm->rank, d, 1);
        }
    } else if (t->kind == MPI_GRAPH) {
        int r = comm->rank, first = r > 0 ? t->index[r - 1] : 0;
        for (int i = first; i < t->index[r]; i++)
            src[i - first] = dst[i - first] = t->edges[i];
    } else {
        for (int i = 0; i < t->indegree; i++)
            src[i] = t->sources[i];
        for (int i = 0; i < t->outdegree; i++)
            dst[i] = t->destinations[i];
    }
}
