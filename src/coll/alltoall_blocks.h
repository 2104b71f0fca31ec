/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_blocks.h - the blocks of alltoall, alltoallv and alltoallw, for
 * the algorithms that serve all three (alltoall_pairwise.c,
 * alltoall_linear.c, alltoall_shm_v.c, pair.c, pair_cell.c): block i of the
 * send or receive side as a buffer, a count and a type, and the copy of the
 * rank's own block. The root's blocks of gather and scatter are those of
 * XB_A2A, of gatherv and scatterv those of XB_A2AV. Header only.
 */
#ifndef XB_COLL_ALLTOALL_BLOCKS_H
#define XB_COLL_ALLTOALL_BLOCKS_H

#include <string.h>
#include "coll/coll_int.h"

typedef enum { XB_A2A, XB_A2AV, XB_A2AW } xb_a2a_form_t;

typedef struct {
    char          *buf;
    MPI_Count      n;
    xb_datatype_t *dt;
} xb_a2a_blk_t;

/* Send block i (displacements: in sdt's extents for v, in bytes for w). */
static inline xb_a2a_blk_t xb_a2a_sblk(const xb_coll_args_t *a, xb_a2a_form_t f, int i)
{
    xb_datatype_t *dt = f == XB_A2AW ? a->stypes[i] : a->sdt;
    MPI_Count n = f == XB_A2A ? a->scount : a->scounts[i];
    MPI_Aint off = f == XB_A2A  ? i * a->scount * xb_dt_extent(dt)
                 : f == XB_A2AV ? a->sdispls[i] * xb_dt_extent(dt) : a->sdispls[i];
    return (xb_a2a_blk_t){ (char *)a->sbuf + off, n, dt };
}

/* Receive block i. */
static inline xb_a2a_blk_t xb_a2a_rblk(const xb_coll_args_t *a, xb_a2a_form_t f, int i)
{
    xb_datatype_t *dt = f == XB_A2AW ? a->rtypes[i] : a->rdt;
    MPI_Count n = f == XB_A2A ? a->rcount : a->rcounts[i];
    MPI_Aint off = f == XB_A2A  ? i * a->rcount * xb_dt_extent(dt)
                 : f == XB_A2AV ? a->rdispls[i] * xb_dt_extent(dt) : a->rdispls[i];
    return (xb_a2a_blk_t){ (char *)a->rbuf + off, n, dt };
}

/* A rank's own block (count x dt at src) into its place (rcount x rdt at
 * dst), run directly: one memcpy when both are contiguous (xb_dt_copy's
 * general path was about 95 of the 8-byte scatter root's instructions); a
 * block longer than its place fails as xb_dt_copy does. */
static inline int xb_a2a_own_copy(const void *src, MPI_Count count, xb_datatype_t *dt,
                                  void *dst, MPI_Count rcount, xb_datatype_t *rdt)
{
    size_t bytes = (size_t)(count * xb_dt_size(dt));
    if (!xb_dt_is_contig(dt, count) || !xb_dt_is_contig(rdt, rcount) ||
        (MPI_Count)bytes > rcount * xb_dt_size(rdt))
        return xb_dt_copy(src, count, dt, dst, rcount, rdt);   /* the longer: TRUNCATE */
    if (bytes > 0)
        memcpy((char *)dst + xb_dt_true_lb(rdt), (const char *)src + xb_dt_true_lb(dt), bytes);
    return XB_OK;
}

/* An alltoall by messages where the slots take other counts (alltoall_shm.c
 * up to 16 KiB on a whole node): a rank whose count differs may be in the
 * slots' node barrier; pass it (xb_coll_node_pass), so that such a rank
 * meets this one's messages. Called while the schedule is built, before
 * its first send. */
static inline void xb_a2a_pass(const xb_coll_args_t *a, xb_a2a_form_t f)
{
    if (f == XB_A2A && xb_coll_node_slots_elsewhere(a)) {
        MPI_Count want = a->rcount * xb_dt_size(a->rdt);
        xb_coll_node_pass(a->comm, a->sbuf == MPI_IN_PLACE ? want
                                   : a->scount * xb_dt_size(a->sdt), want);
    }
}

/* The rank's own block, copied locally (not in place), in a schedule. */
static inline int xb_a2a_own_block(xb_coll_sched_t *s, const xb_coll_args_t *a, xb_a2a_form_t f)
{
    int r = a->comm->rank;
    xb_a2a_blk_t sb = xb_a2a_sblk(a, f, r), rb = xb_a2a_rblk(a, f, r);
    return xb_coll_sched_copy(s, sb.buf, sb.n, sb.dt, rb.buf, rb.n, rb.dt);
}

#endif
