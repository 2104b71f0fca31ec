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
