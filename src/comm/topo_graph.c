/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * topo_graph.c - graph topologies: MPI_Graph_create, _neighbors,
 * _neighbors_count, _get, _map, MPI_Graphdims_get, and distributed graphs:
 * MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create,
 * MPI_Dist_graph_neighbors(_count).
 *
 * A graph topology stores the whole graph (every process was given it). A
 * distributed graph stores only this process's in- and out-neighbours;
 * Dist_graph_create learns them by an allgather of every process's edges
 * (padded to the largest edge count), so each process picks the edges that
 * end or start at itself, in (origin rank, given order). Reorder is
 * accepted and ranks are kept.
 */
#include <stdlib.h>
#include "comm/comm_int.h"
#include "coll/coll.h"
#include "core/topo.h"
#include "xb_impl.h"

static int need_kind(const xb_comm_t *comm, int kind)
{
    if (comm->topo == NULL || comm->topo->kind != kind)
        return xb_err_set(-MPI_ERR_TOPOLOGY, "invalid argument comm: it has no "
                          "%s topology", kind == MPI_GRAPH ? "graph"
                          : "distributed graph");
    return XB_OK;
}

static int check_graph(int size, int nnodes, const int index[], const int edges[])
{
    if (nnodes < 0 || nnodes > size)
        return xb_err_set(XB_ERR_ARG, "invalid argument nnodes: %d (comm_old has "
                          "%d processes)", nnodes, size);
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return xb_err_set(XB_ERR_ARG, "invalid index[%d] = %d (index is "
                              "cumulative: non-decreasing from 0)", i, index[i]);
    int ne = nnodes > 0 ? index[nnodes - 1] : 0;
    for (int e = 0; e < ne; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return xb_err_set(XB_ERR_ARG, "invalid edges[%d] = %d (nodes are 0.."
                              "%d)", e, edges[e], nnodes - 1);
    return XB_OK;
}

int xb_impl_graph_create(xb_comm_t *comm_old, int nnodes, const int index[],
                         const int edges[], int reorder, MPI_Comm *comm_graph)
{
    if (xb_comm_is_inter(comm_old))
        return xb_err_set(XB_ERR_COMM, "invalid argument comm_old: an "
                          "intercommunicator");
    int rc = check_graph(comm_old->size, nnodes, index, edges);
    if (rc != XB_OK)
        return rc;
    MPI_Comm h;
    rc = xb_comm_split_impl(comm_old, comm_old->rank < nnodes ? 0 : MPI_UNDEFINED,
                            xb_comm_topo_key(comm_old, reorder), &h);
    if (rc != XB_OK || h == MPI_COMM_NULL) {
        if (rc == XB_OK)
            *comm_graph = MPI_COMM_NULL;
        return rc;
    }
    xb_topo_t *t = xb_topo_new(MPI_GRAPH);
    if (t != NULL) {
        t->nnodes = nnodes;
        t->nedges = index[nnodes - 1];
        t->index = xb_topo_ints(index, nnodes);
        t->edges = xb_topo_ints(edges, t->nedges);
    }
    if (t == NULL || t->index == NULL || t->edges == NULL) {
        xb_topo_free(t);
        xb_impl_comm_free(&h);
        return XB_ERR_NO_MEM;
    }
    xb_comm_from_handle(h)->topo = t;
    *comm_graph = h;
    return XB_OK;
}

int xb_impl_graph_neighbors_count(xb_comm_t *comm, int rank, int *nneighbors)
{
    int rc = need_kind(comm, MPI_GRAPH);
    if (rc == XB_OK) {
        const xb_topo_t *t = comm->topo;
        *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    }
    return rc;
}

int xb_impl_graph_neighbors(xb_comm_t *comm, int rank, int maxneighbors,
                            int neighbors[])
{
    int rc = need_kind(comm, MPI_GRAPH);
    if (rc != XB_OK)
        return rc;
    const xb_topo_t *t = comm->topo;
    int first = rank ? t->index[rank - 1] : 0, n = t->index[rank] - first;
    for (int i = 0; i < n && i < maxneighbors; i++)
        neighbors[i] = t->edges[first + i];
    return XB_OK;
}

int xb_impl_graph_get(xb_comm_t *comm, int maxindex, int maxedges, int index[],
                      int edges[])
{
    int rc = need_kind(comm, MPI_GRAPH);
    if (rc != XB_OK)
        return rc;
    const xb_topo_t *t = comm->topo;
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index[i];
    for (int i = 0; i < t->nedges && i < maxedges; i++)
        edges[i] = t->edges[i];
    return XB_OK;
}

int xb_impl_graph_map(xb_comm_t *comm, int nnodes, const int index[],
                      const int edges[], int *newrank)
{
    int rc = check_graph(comm->size, nnodes, index, edges);
    if (rc == XB_OK)
        *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return rc;
}

int xb_impl_graphdims_get(xb_comm_t *comm, int *nnodes, int *nedges)
{
    int rc = need_kind(comm, MPI_GRAPH);
    if (rc == XB_OK) {
        *nnodes = comm->topo->nnodes;
        *nedges = comm->topo->nedges;
    }
    return rc;
}

/* ---- distributed graphs ------------------------------------------------- */
static int check_ranks(const char *what, int n, const int r[], int size)
{
    for (int i = 0; i < n; i++)
        if (r[i] < 0 || r[i] >= size)
            return xb_err_set(XB_ERR_RANK, "invalid %s[%d] = %d (comm_old has %d "
                              "processes)", what, i, r[i], size);
    return XB_OK;
}

/* Dup comm_old (no attributes) and attach the neighbour lists (copied). */
static int make_dist(xb_comm_t *comm_old, int indeg, const int *src, const int *sw,
                     int outdeg, const int *dst, const int *dw, bool weighted,
                     xb_info_t *info, MPI_Comm *out)
{
    uint32_t ctx;
    int rc = xb_comm_ctx_agree(comm_old, true, &ctx);
    if (rc != XB_OK)
        return rc;
    xb_comm_t *c = xb_comm_new(comm_old->group, ctx, comm_old);
    if (c == NULL)
        return XB_ERR_NO_MEM;
    xb_topo_t *t = xb_topo_new(MPI_DIST_GRAPH);
    if (t != NULL) {
        t->indegree = indeg;
        t->outdegree = outdeg;
        t->weighted = weighted;
        t->sources = xb_topo_ints(src, indeg);
        t->destinations = xb_topo_ints(dst, outdeg);
        t->sourceweights = xb_topo_ints(weighted ? sw : NULL, indeg);
        t->destweights = xb_topo_ints(weighted ? dw : NULL, outdeg);
    }
    c->topo = t;
    if (t == NULL || !t->sources || !t->destinations || !t->sourceweights ||
        !t->destweights) {
        xb_comm_release(c);
        return XB_ERR_NO_MEM;
    }
    rc = xb_comm_finish(c, NULL, false, false, info, false);
    if (rc == XB_OK)
        *out = xb_comm_to_handle(c);
    return rc;
}

int xb_impl_dist_graph_create_adjacent(xb_comm_t *comm_old, int indegree,
                                       const int sources[], const int sourceweights[],
                                       int outdegree, const int destinations[],
                                       const int destweights[], xb_info_t *info,
                                       int reorder, MPI_Comm *comm_dist_graph)
{
    (void)reorder;
    if (xb_comm_is_inter(comm_old))
        return xb_err_set(XB_ERR_COMM, "invalid argument comm_old: an "
                          "intercommunicator");
    int rc = check_ranks("sources", indegree, sources, comm_old->size);
    if (rc == XB_OK)
        rc = check_ranks("destinations", outdegree, destinations, comm_old->size);
    if (rc != XB_OK)
        return rc;
    bool weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    if (sourceweights == MPI_WEIGHTS_EMPTY || indegree == 0)
        sourceweights = NULL;
    if (destweights == MPI_WEIGHTS_EMPTY || outdegree == 0)
        destweights = NULL;
    return make_dist(comm_old, indegree, sources, sourceweights, outdegree,
                     destinations, destweights, weighted, info, comm_dist_graph);
}

/* Each process's edges as (source, destination, weight) triples, gathered
 * everywhere; *all_p has p * maxe triples, unused ones with source -1. */
static int gather_edges(xb_comm_t *comm, int n, const int sources[],
                        const int degrees[], const int destinations[],
                        const int weights[], bool weighted, int **all_p, int *maxe_p)
{
    int ne = 0;
    for (int i = 0; i < n; i++)
        ne += degrees[i];
    int maxe = ne;
    xb_datatype_t *dint = xb_dt_from_handle(MPI_INT);
    xb_op_t *max = xb_op_from_handle(MPI_MAX);
    int rc = xb_coll_allreduce(MPI_IN_PLACE, &maxe, 1, dint, max, comm);
    if (rc != XB_OK)
        return rc;
    size_t per = (size_t)(maxe > 0 ? maxe : 1) * 3;
    int *mine = malloc(per * sizeof(int));
    int *all = malloc(per * (size_t)comm->size * sizeof(int));
    if (mine == NULL || all == NULL) {
        free(mine);
        free(all);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for the graph's edges");
    }
    for (size_t k = 0; k < per; k++)
        mine[k] = -1;
    for (int i = 0, e = 0; i < n; i++)
        for (int d = 0; d < degrees[i]; d++, e++) {
            mine[3 * e] = sources[i];
            mine[3 * e + 1] = destinations[e];
            mine[3 * e + 2] = weighted ? weights[e] : 1;
        }
    rc = xb_coll_allgather(mine, (MPI_Count)per, dint, all, (MPI_Count)per, dint, comm);
    free(mine);
    if (rc != XB_OK) {
        free(all);
        return rc;
    }
    *all_p = all;
    *maxe_p = maxe > 0 ? maxe : 1;
    return XB_OK;
}

int xb_impl_dist_graph_create(xb_comm_t *comm_old, int n, const int sources[],
                              const int degrees[], const int destinations[],
                              const int weights[], xb_info_t *info, int reorder,
                              MPI_Comm *comm_dist_graph)
{
    (void)reorder;
    if (xb_comm_is_inter(comm_old))
        return xb_err_set(XB_ERR_COMM, "invalid argument comm_old: an "
                          "intercommunicator");
    int rc = check_ranks("sources", n, sources, comm_old->size), ne = 0;
    for (int i = 0; i < n && rc == XB_OK; i++) {
        if (degrees[i] < 0)
            rc = xb_err_set(XB_ERR_ARG, "invalid degrees[%d] = %d (negative)", i,
                            degrees[i]);
        ne += degrees[i];
    }
    if (rc == XB_OK)
        rc = check_ranks("destinations", ne, destinations, comm_old->size);
    if (rc != XB_OK)
        return rc;
    bool weighted = weights != MPI_UNWEIGHTED;
    int *all = NULL, maxe = 1;
    rc = gather_edges(comm_old, n, sources, degrees, destinations,
                      weights == MPI_WEIGHTS_EMPTY ? NULL : weights,
                      weighted && ne > 0, &all, &maxe);
    if (rc != XB_OK)
        return rc;
    size_t total = (size_t)comm_old->size * (size_t)maxe;
    int *in = malloc((2 * total + 1) * sizeof(int));
    int *out = malloc((2 * total + 1) * sizeof(int));
    if (in == NULL || out == NULL) {
        free(all), free(in), free(out);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for the graph's edges");
    }
    int nin = 0, nout = 0, me = comm_old->rank;
    for (size_t k = 0; k < total; k++) {
        const int *e = all + 3 * k;
        if (e[0] < 0)
            continue;
        if (e[1] == me)
            in[nin] = e[0], in[total + nin++] = e[2];
        if (e[0] == me)
            out[nout] = e[1], out[total + nout++] = e[2];
    }
    rc = make_dist(comm_old, nin, in, in + total, nout, out, out + total, weighted,
                   info, comm_dist_graph);
    free(all), free(in), free(out);
    return rc;
}

int xb_impl_dist_graph_neighbors_count(xb_comm_t *comm, int *indegree,
                                       int *outdegree, int *weighted)
{
    int rc = need_kind(comm, MPI_DIST_GRAPH);
    if (rc == XB_OK) {
        *indegree = comm->topo->indegree;
        *outdegree = comm->topo->outdegree;
        *weighted = comm->topo->weighted;
    }
    return rc;
}

int xb_impl_dist_graph_neighbors(xb_comm_t *comm, int maxindegree, int sources[],
                                 int sourceweights[], int maxoutdegree,
                                 int destinations[], int destweights[])
{
    int rc = need_kind(comm, MPI_DIST_GRAPH);
    if (rc != XB_OK)
        return rc;
    const xb_topo_t *t = comm->topo;
    bool sw = t->weighted && sourceweights != MPI_UNWEIGHTED && sourceweights != NULL;
    bool dw = t->weighted && destweights != MPI_UNWEIGHTED && destweights != NULL;
    for (int i = 0; i < t->indegree && i < maxindegree; i++) {
        sources[i] = t->sources[i];
        if (sw)
            sourceweights[i] = t->sourceweights[i];
    }
    for (int i = 0; i < t->outdegree && i < maxoutdegree; i++) {
        destinations[i] = t->destinations[i];
        if (dw)
            destweights[i] = t->destweights[i];
    }
    return XB_OK;
}
