/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_scatter_shm.c - reduce_scatter and reduce_scatter_block through
 * the node's shared memory (node_shm.c): every rank copies its whole vector
 * (working representation) into its slot, one node barrier, then rank j
 * reduces its own segment over all slots in rank order, x_0 op (x_1 op
 * (... op x_p-1)), so non-commutative ops are right. One scheduling round
 * where recursive halving needs log2(p) rounds of messages (8 ranks on 2
 * cores, 8 B blocks: 86 us by halving; see docs/PERFORMANCE.md). Blocking
 * form, node-complete communicators, a vector that fits a slot, a
 * predefined working type (xb_coll_node_fits).
 *
 * Beyond a slot the message algorithms (pairwise, halving) take the slots'
 * barrier with this signature first (xb_coll_reduce_scatter_agree), so
 * that a rank whose count puts it in the slots meets them and every rank
 * fails alike; a barrier on a call that reduces more than a slot.
 */
#include "coll/coll_int.h"

/* The signature: the bytes of the whole working vector, sent and wanted. */
static MPI_Count vector_bytes(const xb_coll_sched_t *s)
{
    return s->red.wcount * xb_dt_extent(s->red.wdt);
}

int xb_coll_reduce_scatter_agree(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    if (!xb_coll_node_slots_elsewhere(a) || !xb_dt_is_predefined(s->red.wdt))
        return XB_OK;                 /* the slots take no count of this call */
    return xb_coll_node_agree(s, a, vector_bytes(s), vector_bytes(s), NULL);
}

static int build(xb_coll_sched_t *s, const xb_coll_args_t *a, const MPI_Count *counts)
{
    int p = a->comm->size, me = a->comm->rank, par = xb_coll_node_parity();
    MPI_Count total = 0, before = 0;
    for (int i = 0; i < p; i++) {
        if (i < me)
            before += counts[i];
        total += counts[i];
    }
    int rc = xb_coll_sched_red(s, total, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    MPI_Count per = total > 0 ? s->red.wcount / total : 1;
    MPI_Aint off = (MPI_Aint)(before * per * xb_dt_extent(s->red.wdt));
    MPI_Count n = counts[me] * per;
    rc = xb_coll_sched_copy(s, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf, total, a->rdt,
                            xb_coll_node_slot(a->comm, par, me), s->red.wcount, s->red.wdt);
    xb_coll_node_sign(a->comm, par, vector_bytes(s), vector_bytes(s));
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier_check(s, par, NULL, NULL);
    if (rc != XB_OK || n == 0)
        return rc;
    void *acc = xb_coll_sched_wtmp(s, n);
    if (acc == NULL)
        return XB_ERR_NO_MEM;
#define SEG(i) ((char *)xb_coll_node_slot(a->comm, par, (i)) + off)
    rc = xb_coll_sched_copy(s, SEG(p - 1), n, s->red.wdt, acc, n, s->red.wdt);
    for (int i = p - 2; i >= 0 && rc == XB_OK; i--)
        rc = xb_coll_sched_reduce(s, SEG(i), acc, n);
#undef SEG
    if (rc == XB_OK)
        rc = xb_coll_sched_copy(s, acc, n, s->red.wdt, a->rbuf, counts[me], a->rdt);
    return rc;
}

int xb_coll_reduce_scatter_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return build(s, a, a->rcounts);
}

int xb_coll_reduce_scatter_block_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    MPI_Count *counts = xb_coll_equal_counts(s, a->comm->size, a->rcount);
    if (counts == NULL)
        return XB_ERR_NO_MEM;
    return build(s, a, counts);
}
