/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scan_recdbl.c - inclusive and exclusive scan by recursive doubling. In
 * round k rank r exchanges its partial (the reduction over its aligned
 * block of 2^k ranks, clipped at p) with r ^ 2^k when that rank exists;
 * data from a lower partner is the left operand of both the partial and
 * the result, data from a higher one the right operand of the partial
 * only, so rank order holds for non-commutative ops. ceil(log2 p) rounds.
 * Exscan's result starts as the first lower partner's partial; rank 0's
 * receive buffer is left alone (the standard leaves it undefined).
 */
#include "coll/coll_int.h"

static int scan(xb_coll_sched_t *s, const xb_coll_args_t *a, bool exclusive)
{
    int p = a->comm->size, r = a->comm->rank;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    MPI_Count n = s->red.wcount;
    xb_datatype_t *wdt = s->red.wdt;
    void *partial = xb_coll_red_load(s, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf);
    void *tmp = xb_coll_sched_wtmp(s, -1);
    void *result = xb_coll_sched_wtmp(s, -1);
    if (partial == NULL || tmp == NULL || result == NULL)
        return XB_ERR_NO_MEM;
    bool have = !exclusive;
    if (!exclusive)
        rc = xb_coll_sched_copy(s, partial, n, wdt, result, n, wdt);
    for (int mask = 1; mask < p && rc == XB_OK; mask <<= 1) {
        int dst = r ^ mask;
        if (dst >= p)
            continue;
        rc = xb_coll_sched_recv(s, tmp, n, wdt, dst);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, partial, n, wdt, dst);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc != XB_OK)
            break;
        if (dst < r) {
            rc = have ? xb_coll_sched_reduce(s, tmp, result, n)
                      : xb_coll_sched_copy(s, tmp, n, wdt, result, n, wdt);
            have = true;
            if (rc == XB_OK)
                rc = xb_coll_sched_reduce(s, tmp, partial, n);
        } else {
            rc = xb_coll_sched_reduce(s, partial, tmp, n);
            void *t = partial;
            partial = tmp;
            tmp = t;
        }
    }
    if (rc == XB_OK && have)
        rc = xb_coll_red_store(s, result, a->rbuf);
    return rc;
}

int xb_coll_scan_recdbl(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return scan(s, a, false);
}

int xb_coll_exscan_recdbl(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return scan(s, a, true);
}
