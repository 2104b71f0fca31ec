/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_shm_rounds.c - alltoall of blocks larger than a slot holds p of
 * (alltoall_shm.c), through the node's shared memory in rounds: in round k
 * every rank copies bytes [k c, (k+1) c) of each of its p outgoing blocks
 * into its slot (the part for rank j at j c), and after a node barrier
 * every rank copies its part of every slot into its receive blocks. Two
 * copies of every byte at memcpy speed, where the messages of the pairwise
 * exchange cost one copy each through process_vm_readv (about four times
 * slower per byte on the 2-core build machine, 2026-11-24) or two through
 * the rings, and p - 1 rounds of scheduling.
 *
 * One node barrier per round: rounds alternate the two areas
 * (xb_coll_node_parity), and round k+1 is written after the barrier of
 * round k, which every rank reached after reading round k-1 from that area:
 *
 *   write 0 | B | read 0, write 1 | B | read 1, write 2 | B ...
 *
 * With MPI_IN_PLACE the send blocks are the receive blocks: round k writes
 * bytes [k c, (k+1) c) of the blocks after they went into the slot, and
 * later rounds read only bytes beyond; a rank's own block stays in place.
 *
 * Blocking form, node-complete communicators. A buffer whose layout is
 * not contiguous is packed into a temporary (the receive buffer unpacked
 * after): the ranks may lay out one signature differently and must all
 * take the same algorithm.
 */
#include "coll/coll_int.h"

int xb_coll_alltoall_shm_rounds(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, me = a->comm->rank;
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    bool inplace = a->sbuf == MPI_IN_PLACE;
    MPI_Count b = a->rcount * xb_dt_size(a->rdt);
    MPI_Count c = (MPI_Count)(xb_coll_node_slot_size() / (size_t)p) & ~(MPI_Count)63;
    if (b == 0)     /* nothing to move, but the first round's checked barrier: */
        return xb_coll_node_agree(s, a, inplace ? 0 : a->scount * xb_dt_size(a->sdt), 0,
                                  NULL);                  /* the others' may differ */
    if (c == 0)
        return xb_err_set(XB_ERR_INTERN, "node slots of %zu bytes are too small for "
                          "an alltoall in rounds on %d ranks", xb_coll_node_slot_size(), p);
    /* a layout that is not contiguous goes through a packed temporary */
    char *rb = xb_coll_bytes(s, a->rbuf, a->rcount * p, a->rdt, inplace);
    const char *sb = inplace ? rb : xb_coll_bytes(s, a->sbuf, a->scount * p, a->sdt, true);
    if (rb == NULL || sb == NULL)
        return XB_ERR_NO_MEM;
    /* rounds of equal size (whole cache lines): the pipeline stays balanced */
    MPI_Count nr = (b + c - 1) / c;
    c = ((b + nr - 1) / nr + 63) & ~(MPI_Count)63;
    int rc = inplace ? XB_OK : xb_coll_sched_copy(s, sb + me * b, b, byte, rb + me * b, b, byte);
    int par = xb_coll_node_parity(), prev = -1;
    MPI_Count off = 0, poff = 0, pn = 0;
    xb_coll_node_sign(a->comm, par, inplace ? b : a->scount * xb_dt_size(a->sdt), b);
    while (rc == XB_OK && (off < b || prev >= 0)) {
        MPI_Count n = b - off < c ? b - off : c;
        /* write round k (its bytes [off, off + n) of every block) */
        char *mine = off < b ? xb_coll_node_slot(a->comm, par, me) : NULL;
        for (int j = 0; j < p && rc == XB_OK && mine != NULL; j++)
            if (j != me)
                rc = xb_coll_sched_copy(s, sb + j * b + off, n, byte, mine + j * c, n, byte);
        /* read round k - 1 */
        for (int i = 0; i < p && rc == XB_OK && prev >= 0; i++)
            if (i != me)
                rc = xb_coll_sched_copy(s, (char *)xb_coll_node_slot(a->comm, prev, i) + me * c,
                                        pn, byte, rb + i * b + poff, pn, byte);
        /* the first round's barrier checks the signatures: every rank
         * stops there alike when the blocks differ */
        if (rc == XB_OK && mine != NULL)
            rc = off == 0 ? xb_coll_sched_node_barrier_check(s, par, NULL, NULL)
                          : xb_coll_sched_node_barrier(s);
        prev = mine != NULL ? par : -1;
        poff = off, pn = n;
        off += n;
        if (off < b)
            par = xb_coll_node_parity();
    }
    if (rc == XB_OK)
        rc = xb_coll_bytes_store(s, rb, a->rbuf, a->rcount * p, a->rdt);
    return rc;
}
