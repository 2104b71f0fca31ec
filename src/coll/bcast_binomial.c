/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_binomial.c - binomial-tree broadcast. With ranks renumbered so the
 * root is 0 (v = rank - root mod p), rank v receives from v minus its lowest
 * set bit, then sends to v + 2^j for every 2^j below that bit (largest
 * subtree first). ceil(log2 p) rounds; the data travels in the user's type.
 *
 * Two runners of the same tree: the schedule (nonblocking and persistent
 * forms) and a direct one for the blocking form (coll_select.c: algorithms
 * with both), straight on point-to-point: small messages to the children go
 * without a request. A broadcast of a few bytes is mostly the machinery
 * around its messages (the root of a 4-rank one: 1650 instructions through
 * a schedule, 2026-11-24).
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt.h"

/* v's parent in the renumbered tree (-1: v is the root); *mask_p: the bit
 * below which v's children are (v + bit for each smaller bit, v + bit < p). */
static int parent_of(int v, int p, int *mask_p)
{
    int mask = 1;
    while (mask < p && !(v & mask))
        mask <<= 1;
    *mask_p = mask;
    return mask < p ? v - mask : -1;
}

int xb_coll_bcast_binomial(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, root = a->root, mask, rc = XB_OK;
    int v = (a->comm->rank - root + p) % p, up = parent_of(v, p, &mask);
    if (up >= 0) {
        rc = xb_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, (up + root) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    for (mask >>= 1; mask > 0 && rc == XB_OK; mask >>= 1)
        if (v + mask < p)
            rc = xb_coll_sched_send(s, a->rbuf, a->rcount, a->rdt, (v + mask + root) % p);
    return rc;
}

int xb_coll_bcast_binomial_direct(const xb_coll_args_t *a, int tag)
{
    int p = a->comm->size, root = a->root, mask, rc = XB_OK, n = 0;
    int v = (a->comm->rank - root + p) % p, up = parent_of(v, p, &mask);
    xb_request_t *reqs[32];          /* at most log2(p) children */
    MPI_Count count = a->rcount;
    xb_datatype_t *dt = a->rdt;
    char *junk = NULL;
    int bad = XB_OK;
    if (up >= 0)
        rc = xb_coll_recv_exact(a->rbuf, a->rcount, a->rdt, (up + root) % p, tag, a->comm,
                                root, XB_COLL_BCAST, NULL);
    if (rc == XB_ERR_TRUNCATE) {
        /* the counts differ: pass a byte more than this rank holds on, so
         * that the subtree fails too instead of taking this rank's bytes
         * for the root's (coll_sched.c's poison) */
        bad = rc, count = a->rcount * xb_dt_size(a->rdt) + 1, dt = xb_dt_from_handle(MPI_BYTE);
        rc = (junk = calloc(1, (size_t)count)) != NULL ? XB_OK : XB_ERR_NO_MEM;
    }
    for (mask >>= 1; mask > 0 && rc == XB_OK; mask >>= 1) {
        if (v + mask >= p)
            continue;
        int child = (v + mask + root) % p;
        void *src = junk != NULL ? junk : a->rbuf;
        rc = xb_pt2pt_send_eager_now(src, count, dt, child, tag, a->comm, 1);
        if (rc == XB_ERR_AGAIN && (rc = xb_pt2pt_isend(src, count, dt, child, tag,
                                                       a->comm, 1, &reqs[n])) == XB_OK)
            n++;
    }
    for (int i = 0; i < n; i++) {
        int wrc = xb_progress_wait(xb_progress_default(), reqs[i]);
        xb_request_free(reqs[i]);
        if (rc == XB_OK)
            rc = wrc;
    }
    free(junk);
    if (bad != XB_OK && rc == XB_OK)
        rc = bad;       /* its sentence: the sends recorded none */
    return rc;
}
