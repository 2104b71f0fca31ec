/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_shm.c - broadcast through the node's shared memory (node_shm.c):
 * the root copies a chunk into the area (all slots of one parity, one
 * after the other), one node barrier, every other rank copies it out; the
 * next chunk goes to the other parity, so the root writes chunk k+1 while
 * the others read chunk k. A contiguous buffer goes in chunks of the whole
 * area; another one must fit the area in one step (xb_coll_node_fits).
 * Blocking form, node-complete communicators.
 */
#include "coll/coll_int.h"

int xb_coll_bcast_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    bool root = a->comm->rank == a->root;
    size_t area = xb_coll_node_slot_size() * (size_t)a->comm->size;
    MPI_Count bytes = a->rcount * xb_dt_size(a->rdt);
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int rc = XB_OK;
    if (!xb_dt_is_contig(a->rdt, a->rcount)) {      /* fits one step */
        int par = xb_coll_node_parity();
        void *buf = xb_coll_node_area(par);
        if (root)
            rc = xb_coll_sched_copy(s, a->rbuf, a->rcount, a->rdt, buf, bytes, byte);
        if (rc == XB_OK)
            rc = xb_coll_sched_node_barrier(s);
        if (rc == XB_OK && !root)
            rc = xb_coll_sched_copy(s, buf, bytes, byte, a->rbuf, a->rcount, a->rdt);
        return rc;
    }
    char *data = (char *)a->rbuf + xb_dt_true_lb(a->rdt);
    for (MPI_Count off = 0; off < bytes && rc == XB_OK; off += (MPI_Count)area) {
        MPI_Count len = bytes - off < (MPI_Count)area ? bytes - off : (MPI_Count)area;
        int par = xb_coll_node_parity();
        void *buf = xb_coll_node_area(par);
        if (root)
            rc = xb_coll_sched_copy(s, data + off, len, byte, buf, len, byte);
        if (rc == XB_OK)
            rc = xb_coll_sched_node_barrier(s);
        if (rc == XB_OK && !root)
            rc = xb_coll_sched_copy(s, buf, len, byte, data + off, len, byte);
    }
    return rc;
}
