/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * topo.h - the topology attached to a communicator (Cartesian, graph or
 * distributed graph). Passive: built by src/comm/topo_*.c, copied by
 * MPI_Comm_dup (xb_topo_copy), freed with its communicator (xb_topo_free).
 * Every array is owned by the object. Threading: immutable once attached.
 */
#ifndef XB_TOPO_H
#define XB_TOPO_H

#include "core/core.h"

typedef struct xb_topo {
    int  kind;                   /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH    */
    /* Cartesian */
    int  ndims;
    int *dims, *periods;         /* [ndims]                                  */
    /* graph: index[nnodes] (cumulative degrees), edges[nedges] */
    int  nnodes, nedges;
    int *index, *edges;
    /* distributed graph (this process's neighbours) */
    int  indegree, outdegree;
    int *sources, *sourceweights, *destinations, *destweights;
    bool weighted;
} xb_topo_t;

/* A zeroed topology of `kind`; NULL (detail recorded) on no memory. */
xb_topo_t *xb_topo_new(int kind);
/* A copy of n ints in a new array (n may be 0); NULL on no memory. */
int       *xb_topo_ints(const int *src, int n);
int        xb_topo_copy(const xb_topo_t *src, xb_topo_t **out_p);
void       xb_topo_free(xb_topo_t *t);     /* NULL: no-op */

/* Neighbourhood collectives. xb_topo_degrees: in- and out-degree of this
 * process in comm's topology; -MPI_ERR_TOPOLOGY (detail recorded, *in = *out
 * = 0) when comm has none. xb_topo_neighbors fills src[in] and dst[out]
 * in the standard's order: Cartesian, for each dimension the -1 then the
 * +1 neighbour (MPI_PROC_NULL off a non-periodic edge), both lists alike;
 * graph, the neighbours as given to MPI_Graph_create, both lists alike;
 * distributed graph, the sources and the destinations. */
int        xb_topo_degrees(const xb_comm_t *comm, int *in, int *out);
void       xb_topo_neighbors(const xb_comm_t *comm, int *src, int *dst);

#endif
