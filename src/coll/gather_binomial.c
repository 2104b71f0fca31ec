/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * gather_binomial.c - binomial-tree gather. With ranks renumbered so the
 * root is 0 (v = rank - root mod p), rank v collects the blocks of its
 * subtree v .. v + 2^j - 1 (j its lowest set bit, clipped at p) in a
 * temporary, in order, then sends them to its parent in one message:
 * ceil(log2 p) rounds instead of p - 1 messages into the root. The root
 * finally rotates the blocks into place. Non-roots keep blocks in their
 * send type, the root in its receive type (equal signatures).
 *
 * The blocking form runs directly, without a schedule, where the blocks of
 * a rank's subtree take at most XB_COLL_DIRECT_MAX bytes: packed in a
 * buffer on the stack, one blocking receive per child, one send up. Each
 * rank decides by its own counts, and either way a rank receives one
 * message per child and sends one to its parent on the call's tag, so
 * counts that differ still meet (and fail: a rank whose receive did not
 * match sends its parent a byte more, as the schedules do). On a part of
 * a node (what the Intel MPI Benchmarks time) the schedule was most of an
 * 8-byte gather.
 */
#include "coll/alltoall_blocks.h"

/* Blocks of the subtree of v (renumbered rank) on p ranks. */
static int subtree(int v, int p)
{
    int low = 1;                     /* lowest set bit of v (>= p for the root) */
    while (low < p && !(v & low))
        low <<= 1;
    return p - v < low ? p - v : low;
}

int xb_coll_gather_binomial(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, root = a->root, rc = XB_OK;
    int v = (a->comm->rank - root + p) % p;
    bool is_root = v == 0;
    MPI_Count n = is_root ? a->rcount : a->scount;
    xb_datatype_t *dt = is_root ? a->rdt : a->sdt;
    int sub = subtree(v, p);
    char *tmp = xb_coll_sched_tmp(s, n * sub, dt);
    if (tmp == NULL)
        return XB_ERR_NO_MEM;
    if (!is_root || a->sbuf != MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt, tmp, n, dt);
    else
        rc = xb_coll_sched_copy(s, xb_coll_block(a->rbuf, root, n, dt), n, dt,
                                tmp, n, dt);
    int have = 1;
    for (int mask = 1; mask < p && rc == XB_OK; mask <<= 1) {
        if (v & mask) {
            rc = xb_coll_sched_send(s, tmp, n * have, dt, (v - mask + root) % p);
            return rc;
        }
        if (v + mask < p) {
            int cnt = p - v - mask < mask ? p - v - mask : mask;
            rc = xb_coll_sched_recv(s, xb_coll_block(tmp, mask, n, dt), n * cnt,
                                    dt, (v + mask + root) % p);
            if (rc == XB_OK)
                rc = xb_coll_sched_fence(s);
            have = mask + cnt;
        }
    }
    for (int i = 0; i < p && rc == XB_OK; i++)
        rc = xb_coll_sched_copy(s, xb_coll_block(tmp, i, n, dt), n, dt,
                                xb_coll_block(a->rbuf, (i + root) % p, n, dt), n, dt);
    return rc;
}

int xb_coll_gather_binomial_direct(const xb_coll_args_t *a, int tag)
{
    int p = a->comm->size, root = a->root;
    int v = (a->comm->rank - root + p) % p;
    MPI_Count n = v == 0 ? a->rcount : a->scount;
    xb_datatype_t *dt = v == 0 ? a->rdt : a->sdt;
    size_t bb = (size_t)(n * xb_dt_size(dt));
    if (bb * (size_t)subtree(v, p) > XB_COLL_DIRECT_MAX)
        return xb_coll_run_sched(XB_COLL_GATHER, xb_coll_gather_binomial, a, tag);
    _Alignas(64) char tmp[XB_COLL_DIRECT_MAX];   /* the subtree's blocks, packed, v order */
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int rc = XB_OK, bad = XB_OK, have = 1;
    if (v != 0)
        bad = xb_a2a_own_copy(a->sbuf, a->scount, a->sdt, tmp, (MPI_Count)bb, byte);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (v & mask) {
            int to = (v - mask + root) % p;
            size_t len = bb * (size_t)have;
            rc = bad != XB_OK ? xb_coll_send_mismatch(len, to, tag, a->comm)
               : xb_coll_send_blocking(tmp, (MPI_Count)len, byte, to, tag, a->comm);
            return bad != XB_OK ? bad : rc;
        }
        if (v + mask >= p)
            continue;
        int cnt = p - v - mask < mask ? p - v - mask : mask;
        rc = xb_coll_recv_exact(tmp + bb * (size_t)mask, (MPI_Count)(bb * (size_t)cnt), byte,
                                (v + mask + root) % p, tag, a->comm, -1, XB_COLL_GATHER, NULL);
        bad = bad != XB_OK ? bad : rc;      /* the other children still go */
        have = mask + cnt;
    }
    /* the root: its own block, then the others' into their places */
    if (bad == XB_OK && a->sbuf != MPI_IN_PLACE)
        bad = xb_a2a_own_copy(a->sbuf, a->scount, a->sdt, xb_coll_block(a->rbuf, root, n, dt),
                              n, dt);
    for (int i = 1; i < p && bad == XB_OK; i++)
        bad = xb_a2a_own_copy(tmp + bb * (size_t)i, (MPI_Count)bb, byte,
                              xb_coll_block(a->rbuf, (i + root) % p, n, dt), n, dt);
    return bad;
}
