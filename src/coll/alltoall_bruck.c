/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_bruck.c - Bruck's alltoall for small blocks, any number of
 * ranks: rotate so slot i holds the block for rank r + i; in round k
 * (k = 1, 2, 4, ...) every slot i with bit k set goes to rank r + k,
 * packed into one message, and the slots that come back from r - k take
 * their place; finally slot i holds the block from rank r - i.
 * ceil(log2 p) messages per rank instead of p - 1, each carrying about
 * p/2 blocks: fewer, larger messages win for small blocks.
 */
#include "coll/coll_int.h"

/* Copy every slot with bit k set between tmp and the packed buffer. */
static int pack(xb_coll_sched_t *s, char *tmp, char *packed, int p, int k,
                MPI_Count n, xb_datatype_t *dt, bool in)
{
    int rc = XB_OK, j = 0;
    for (int i = 1; i < p && rc == XB_OK; i++) {
        if (!(i & k))
            continue;
        void *slot = xb_coll_block(tmp, i, n, dt), *pk = xb_coll_block(packed, j++, n, dt);
        rc = in ? xb_coll_sched_copy(s, slot, n, dt, pk, n, dt)
                : xb_coll_sched_copy(s, pk, n, dt, slot, n, dt);
    }
    return rc;
}

int xb_coll_alltoall_bruck(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, r = a->comm->rank, rc = XB_OK;
    MPI_Count n = a->rcount;
    xb_datatype_t *dt = a->rdt;
    bool inplace = a->sbuf == MPI_IN_PLACE;
    const void *sbuf = inplace ? a->rbuf : a->sbuf;
    MPI_Count sn = inplace ? n : a->scount;
    xb_datatype_t *sdt = inplace ? dt : a->sdt;
    char *tmp = xb_coll_sched_tmp(s, n * p, dt);
    char *out = xb_coll_sched_tmp(s, n * (p / 2 + 1), dt);
    char *in = xb_coll_sched_tmp(s, n * (p / 2 + 1), dt);
    if (tmp == NULL || out == NULL || in == NULL)
        return XB_ERR_NO_MEM;
    for (int i = 0; i < p && rc == XB_OK; i++)
        rc = xb_coll_sched_copy(s, xb_coll_block(sbuf, (r + i) % p, sn, sdt), sn,
                                sdt, xb_coll_block(tmp, i, n, dt), n, dt);
    for (int k = 1; k < p && rc == XB_OK; k <<= 1) {
        int cnt = 0;
        for (int i = 1; i < p; i++)
            cnt += (i & k) != 0;
        rc = pack(s, tmp, out, p, k, n, dt, true);
        if (rc == XB_OK)
            rc = xb_coll_sched_recv(s, in, n * cnt, dt, (r - k + p) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, out, n * cnt, dt, (r + k) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc == XB_OK)
            rc = pack(s, tmp, in, p, k, n, dt, false);
    }
    for (int i = 0; i < p && rc == XB_OK; i++)
        rc = xb_coll_sched_copy(s, xb_coll_block(tmp, i, n, dt), n, dt,
                                xb_coll_block(a->rbuf, (r - i + p) % p, n, dt), n, dt);
    return rc;
}
